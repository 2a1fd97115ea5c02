"""``RolloutPolicy``: the readable twin of the rollout bot (``play.rollout``,
``kernels.play.rollout``; issue 9 §1, docs/decisions.md "The rollout bot").

At a question with more than one answer the seat forks the hand as it stood when the current
turn-loop step began (``Game.step0``), builds worlds from what it cannot see, plays every
candidate answer still in play in every world of a stage with all seats greedy (the step's
earlier questions replayed as they went: the shown discard, passes), settles each world
(RULES.md §7) and, stage by stage (``world_stages``, ``survivors``: successive halving over K
worlds), keeps the answers with the best total payment to itself; greedy's answer first, so
ties keep it. Same worlds, same
playouts and same answers as the kernel: the move-for-move tests compare them.
"""

from __future__ import annotations

from zipai_sim.game.reference import Stream
from zipai_sim.kernels.play import layout as kl
from zipai_sim.kernels.play.rollout import MAX_K, ROLLOUT_SALT, WORLD_TRIES, survivors, world_stages
from zipai_sim.play.bots import GreedyPolicy, StudyPolicy
from zipai_sim.play.bots_learned import LearnedPolicy
from zipai_sim.play.engine import Game
from zipai_sim.play.learned import value_weights
from zipai_sim.play.registry import DEFAULT_K
from zipai_sim.play.rollout import beats
from zipai_sim.play.table import Meld

_C3 = (0, 0, 0, 1, 4)
DISCARD, PENG, CHI, HU = kl.RO_DISCARD, kl.RO_PENG, kl.RO_CHI, kl.RO_HU


class WorldScript:
    """The scripted answers of a world's first step (``kernels.play.script``), greedy after."""

    def __init__(self, seat: int, kind: int, val: int, c0: int, fast=None,
                 analysis: bool = False):
        self.on, self.seat, self.kind, self.val, self.c0 = True, seat, kind, val, c0
        self.analysis = analysis  # the hand analysis's worlds: no other seat wins in the script
        self.greedy = GreedyPolicy() if fast is None else fast  # who plays on after the script
        self.steps = 0

    def step(self, game: Game, turn: tuple[str, int]) -> None:
        self.steps += 1
        if self.steps > 1:
            self.on = False

    def discard(self, game, seat: int, options: list[int]) -> int:
        if self.on:
            if seat == self.seat and self.kind == DISCARD:
                self.on = False
                return self.val
            c0, self.c0 = self.c0, -1
            if c0 in options:
                return c0
            self.on = False
        return self.greedy.discard(game, seat, options)

    def peng(self, game, seat: int, card: int) -> bool:
        if self.on:
            if seat == self.seat and self.kind == PENG:
                self.on = False
                return self.val == 1
            return False
        return self.greedy.peng(game, seat, card)

    def chi(self, game, seat: int, card: int, options: list) -> int:
        if self.on:
            if seat == self.seat and self.kind == CHI:
                self.on = False
                return self.val
            return -1
        return self.greedy.chi(game, seat, card, options)

    def hu(self, game, seat: int, card: int, huxi: int) -> bool:
        if self.on and seat == self.seat:  # ``kernels.play.script.hu_declined``
            if self.kind == HU:
                self.on = False
                return self.val == 1
            return False  # in the real hand it reached a later question: it declined
        return not (self.on and self.analysis)


def world(step0: tuple, seat: int, kind: int, card: int, nr: int, k: int,
          analysis: bool = False) -> tuple[Game, int]:
    """World ``k`` of seat ``seat``'s ``nr``-th rollout question (``kind``, ``card`` on offer or
    -1) from the step snapshot ``step0 = (turn, game)``: a fork with the unseen cards redealt
    (``kernels.play.rollout.build_world``). Returns the world and the shown discard it must
    replay first (-1 none). ``analysis``: a hand analysis's world, which also keeps the 偎/提/跑
    that did not come before the question (``limit``)."""
    (rest, s0), g0 = step0
    g = g0.fork([])
    rest0 = rest == "rest"
    c0 = card if rest0 and kind != DISCARD else -1
    start = 0 if rest0 else 1  # a drawn card on offer stays on top of the stock
    cx = -1 if not analysis or kind == DISCARD else c0 if rest0 else g.stock[0]
    lim = {s: limit(s, seat, s0, rest0, kind, cx) for s in range(g.seats)}
    others = [s for s in range(g.seats) if s != seat]
    pool = [0] * 20
    for s in others:
        for q in range(20):
            pool[q] += g.players[s].hand[q]
        if s == s0 and c0 >= 0:
            pool[c0] -= 1
        for m in g.players[s].melds:
            if m.name == "wei":
                pool[m.cards[0]] += 3
    for q in g.stock[start:]:
        pool[q] += 1
    rng = Stream(g.key ^ ROLLOUT_SALT ^ (seat << 48) ^ (nr << 24), g.j * MAX_K + k)
    for s in others:
        melds = g.players[s].melds
        for i, m in enumerate(melds):
            if m.name != "wei":
                continue
            ex = cx if lim[s] < 4 else -1  # no 偎 of the card on offer
            if sum(_C3[n] for q, n in enumerate(pool) if q != ex) == 0:
                ex = -1
            x = rng.below(sum(_C3[n] for q, n in enumerate(pool) if q != ex))
            q = 0
            while q == ex or x >= _C3[pool[q]]:
                if q != ex:
                    x -= _C3[pool[q]]
                q += 1
            pool[q] -= 3
            melds[i] = Meld("wei", (q,) * 3, g.pts("wei", q))
    cards = [q for q in range(20) for _ in range(pool[q])]
    sizes = {s: sum(g.players[s].hand) - (1 if s == s0 and c0 >= 0 else 0) for s in others}
    for _ in range(WORLD_TRIES):
        for i in range(len(cards) - 1, 0, -1):
            x = rng.below(i + 1)
            cards[i], cards[x] = cards[x], cards[i]
        if _no_four(cards, others, sizes, s0, c0, cx, lim):
            break
    pos = 0
    for s in others:
        hand = [0] * 20
        for q in cards[pos:pos + sizes[s]]:
            hand[q] += 1
        pos += sizes[s]
        if s == s0 and c0 >= 0:
            hand[c0] += 1
        pl = g.players[s]
        pl.hand = hand
        pl.chou = {m[2][0] for m in g.moves if m[0] == s and m[1] == "discards"}
        pl.passed_peng = set()
    g.stock[start:] = cards[pos:]
    return g, c0


def oracle_world(step0: tuple, seat: int, kind: int, card: int, nr: int,
                 k: int) -> tuple[Game, int]:
    """The ceiling's world ``k`` (``kernels.play.search``; ``build_world(oracle=1)``): a fork
    with every hand, 偎 and mark as they are and only the stock after the card on offer
    shuffled, from the stream ``world`` draws from. Returns the world and its shown discard."""
    (rest, _s0), g0 = step0
    g = g0.fork([])
    rest0 = rest == "rest"
    c0 = card if rest0 and kind != DISCARD else -1
    start = 0 if rest0 else 1
    rng = Stream(g.key ^ ROLLOUT_SALT ^ (seat << 48) ^ (nr << 24), g.j * MAX_K + k)
    st = g.stock
    for i in range(len(st) - 1, start, -1):
        x = start + rng.below(i - start + 1)
        st[i], st[x] = st[x], st[i]
    return g, c0


def limit(s: int, r: int, s0: int, rest0: bool, kind: int, cx: int) -> int:
    """Seat ``s``'s world hand holds fewer than this many of the card on offer ``cx`` in a hand
    analysis's world: 2 for the seat that drew it (no 偎/提 came, RULES.md §3); 3 for the seat
    that discarded it, the discard counted (a 坎 is never discarded, §5.7), and for the others
    before a 碰/吃 question (no 跑 came); else 4 (no hand keeps four of a kind)."""
    if cx < 0 or s == r:
        return 4
    if s == s0:
        return 2 if not rest0 else 3
    if kind in (PENG, CHI):
        return 3
    return 4


def _no_four(cards: list[int], others: list[int], sizes: dict, s0: int, c0: int, cx: int,
             lim: dict) -> bool:
    pos = 0
    for s in others:
        cnt = [0] * 20
        if s == s0 and c0 >= 0:
            cnt[c0] = 1
        for q in cards[pos:pos + sizes[s]]:
            cnt[q] += 1
            if cnt[q] == 4 or (q == cx and cnt[q] >= lim[s]):
                return False
        pos += sizes[s]
    return True


class RolloutPolicy:
    """Answer each discard/碰/吃 question by K greedy playouts per candidate (``k`` worlds);
    always win. ``wants_steps``: the engine keeps ``Game.step0`` for it."""

    wants_steps = True

    teacher = False  # TeacherPolicy: keep the fast bot's answer unless another beats it

    def __init__(self, k: int = DEFAULT_K):
        self.k = k
        self.greedy = GreedyPolicy()  # the fast bot: the default answer and the playouts

    def _counted(self, game: Game, seat: int) -> int | None:
        """This seat's count of rollout questions so far (then one more), or None once the
        hand's list is full (``MAX_RO``: greedy answers)."""
        counts = game.__dict__.setdefault("ro_count", [0] * game.seats)
        if sum(counts) >= kl.MAX_RO:
            return None
        counts[seat] += 1
        return counts[seat] - 1

    def _best(self, game: Game, seat: int, kind: int, card: int, cands: list[int]) -> int:
        nr = self._counted(game, seat)
        if nr is None:
            return cands[0]
        cands = cands[:kl.MAX_CANDS]
        turn = game.step0[0]
        total = [0.0] * len(cands)
        gains = [[0.0] * self.k for _ in cands]
        alive = list(range(len(cands)))
        stages = world_stages(self.k)
        for si, (lo, hi) in enumerate(stages):
            if len(alive) == 1:  # decided: the worlds left are not played
                break
            part = [0.0] * len(cands)  # a stage's sums, added to the totals at its end (the
            for k in range(lo, hi):  # driver's order of float additions)
                w, c0 = self._world(game.step0, seat, kind, card, nr, k)
                for c in alive:
                    script = WorldScript(seat, kind, cands[c], c0, self.greedy)
                    g = w.fork([script] * w.seats)
                    gains[c][k] = self._play(g, turn, script.step, seat)
                    part[c] += gains[c][k]
            for c in alive:
                total[c] += part[c]
            if si < len(stages) - 1:  # successive halving: the best totals go on
                if self.teacher:  # the fast bot's answer (first) stays in play
                    rest = sorted(alive[1:], key=lambda c: -total[c])
                    rest = rest[:max(survivors(len(alive)) - 1, 1)]
                    alive = [0] + sorted(c for c in rest if total[c] > total[0])
                else:
                    best = sorted(alive, key=lambda c: -total[c])[:survivors(len(alive))]
                    alive = sorted(best)
        best = max(alive, key=lambda c: (total[c], -c))
        if self.teacher and best != 0 and not beats(gains[best], gains[0]):
            best = 0
        return cands[best]

    def _world(self, step0: tuple, seat: int, kind: int, card: int, nr: int, k: int):
        return world(step0, seat, kind, card, nr, k)

    def _play(self, g: Game, turn: tuple[str, int], on_step, seat: int) -> float:
        """The world played to the end (``on_step``: its script's hook) and settled: the seat's
        payment (RULES.md §7)."""
        from zipai_sim.play.payoffs import outcome_row, settle_outcomes

        out = g.play_from(turn, on_step)
        return float(settle_outcomes(g.v, outcome_row(g, out)[None, :])[0][0, seat])

    def discard(self, game, seat: int, options: list[int]) -> int:
        d = self.greedy.discard(game, seat, options)
        if len(options) == 1:
            return d
        return self._best(game, seat, DISCARD, -1, [d] + [o for o in options if o != d])

    def peng(self, game, seat: int, card: int) -> bool:
        d = 1 if self.greedy.peng(game, seat, card) else 0
        return self._best(game, seat, PENG, card, [d, 1 - d]) == 1

    def chi(self, game, seat: int, card: int, options: list) -> int:
        d = self.greedy.chi(game, seat, card, options)
        return self._best(game, seat, CHI, card,
                          [d] + [v for v in range(-1, len(options)) if v != d])

    def hu(self, game, seat: int, card: int, huxi: int) -> bool:
        return True


class TeacherPolicy(RolloutPolicy):
    """The teacher (``teacher``, issue 39): ``RolloutPolicy`` with ``study`` as the fast bot
    (its answer first, every seat playing on as study in the worlds) that keeps the fast bot's
    answer in play to the end and leaves it only for an answer whose paired payments beat it
    (``play.rollout.beats``: mean difference above ``Z`` standard errors over the K worlds)."""

    teacher = True

    def __init__(self, k: int = DEFAULT_K):
        super().__init__(k)
        self.greedy = StudyPolicy()


class _Cut(Exception):
    """A search world reached its cut (``SearchPolicy._play``)."""


class SearchPolicy(TeacherPolicy):
    """The search (``search``, issue 47; ``kernels.play.search``): ``TeacherPolicy`` with
    ``learned`` as the fast bot, every seat playing on as learned in the worlds, and each world
    cut after ``CUT_DRAWS`` draws at the start of the next draw step, where it is worth
    ``(V_r − Σ_{s≠r} V_s) / 2`` to the asking seat ``r`` (``V_s``: the cut value of seat ``s``'s
    rest hand from its own seat, ``play.learned.value_weights``); a world that ends before its
    cut is settled (RULES.md §7)."""

    def __init__(self, k: int = DEFAULT_K):
        super().__init__(k)
        self.greedy = LearnedPolicy()

    def _play(self, g: Game, turn: tuple[str, int], on_step, seat: int) -> float:
        from zipai_sim.kernels.play.search import CUT_DRAWS

        at = g.draws + CUT_DRAWS

        def step(game: Game, t: tuple[str, int]) -> None:
            if t[0] == "draw" and game.draws >= at:
                raise _Cut
            on_step(game, t)

        try:
            return super()._play(g, turn, step, seat)
        except _Cut:
            return self.cut_value(g, seat)

    def cut_value(self, g: Game, seat: int) -> float:
        """The world's worth to ``seat`` at its cut (every seat at rest; the class docstring)."""
        vw = [float(x) for x in value_weights(g.v)]
        a = b = 0.0
        for s in range(g.seats):
            pl = g.players[s]
            f = self.greedy.features(g, s, pl.hand, pl.table_huxi(), pl.fours(),
                                     self.greedy.view(g, s, -1))
            x = 0.0
            for w, y in zip(vw, f):
                x += w * y
            if s == seat:
                a = x
            else:
                b += x
        return (a - b) * 0.5


class OraclePolicy(SearchPolicy):
    """The ceiling (``oracle``; ``kernels.play.search``): ``SearchPolicy`` in worlds that keep
    every hand as it is and shuffle only the stock (``oracle_world``). It sees the other seats'
    hands: a cheat, no player."""

    cheats = True

    def _world(self, step0: tuple, seat: int, kind: int, card: int, nr: int, k: int):
        return oracle_world(step0, seat, kind, card, nr, k)

