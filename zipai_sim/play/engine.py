"""The reference play engine: one hand of 字牌 at the table, step by step (RULES.md §5–§6).

Readable on purpose: this is the executable spec that a numba engine must match move for move.
Hand evaluation uses the tested kernels (``kernels.hand.eval_hand``, checked against
``zipai_sim.game.reference``); everything else — turn order, forced and optional claims, 臭牌, 比,
discards, wins — is plain Python here. Choices where RULES.md is silent are in docs/decisions.md
("Play engine").

Discards follow §5.3's invariant: a player's cards at rest (hand + own table groups) number
``H + max(0, q − 1)`` (H: a non-dealer's dealt hand, q: their four-card groups); after an intake
the player discards only if they hold more. This covers the dealer's first discard, 重跑/重舵
(no discard after the second four-card group) and the two-提 rule (no discard, or a discard after
the extra card) alike.
"""

from __future__ import annotations

import copy

import numpy as np

from zipai_sim.game import params as p
from zipai_sim.game.cards import card_name
from zipai_sim.game.reference import Stream, decompositions, fanxing, instant
from zipai_sim.kernels import hand as khand
from zipai_sim.play.chi import chi_options, leaves_discard
from zipai_sim.play.table import CoWin, Meld, Outcome, Player, four_from

POLICY_SALT = 0x5A49504149  # seat s's policy stream: Stream(chunk_key ^ SALT ^ (s << 48), j)
SEAT_SHIFT = 48
RUNS = ("shun", "erqishi", "jiao")  # the free groups 对子胡 may not use (RULES.md §7.4)


class Game:
    """One hand of ``variant`` from a dealt ``deck`` (80 kinds in deal order, as
    ``kernels.deal`` lays them out) with one policy per seat; ``key``/``j`` seed the policies'
    random stream. ``play()`` returns the Outcome; ``log`` holds the readable trace."""

    def __init__(self, variant, deck: list[int], policies: list, key: int = 0, j: int = 0):
        self.v = variant
        self.P = variant.params
        P = self.P
        self.seats, self.h = P[p.SEATS], P[p.OTHER_CARDS]
        n = self.seats * self.h
        self.players = [Player([0] * 20) for _ in range(self.seats)]
        for s in range(self.seats):
            for k in deck[s * self.h:(s + 1) * self.h]:
                self.players[s].hand[k] += 1
        self.liangzhang = deck[n]
        self.players[0].hand[self.liangzhang] += 1
        self.stock = list(deck[n + 1:])
        self.policies = policies
        self.key, self.j = key, j
        # one policy stream per seat: a random seat's draws never depend on another seat's
        # decisions, so nothing a seat cannot see moves its choices (issue 9 §1)
        self.rngs = [Stream(key ^ POLICY_SALT ^ (s << SEAT_SHIFT), j) for s in range(self.seats)]
        self.log: list[str] = []
        self.moves: list[tuple[int, str, tuple[int, ...]]] = []
        self.first_discard = True
        self.draws = 0
        self.claimed: int | None = None
        self._work = np.zeros(khand.WORK, np.int64)

    # --- points and evaluation ------------------------------------------------------------
    def pts(self, name: str, k: int) -> int:
        """胡息 of a three/four of a kind (§4; 碰 by colour in the 油 table)."""
        P, big = self.P, k >= 10
        if name == "peng":
            red = k % 10 in (1, 6, 9)
            idx = (p.PENG_BIG_RED if red else p.PENG_BIG_BLACK) if big else (
                p.PENG_SMALL_RED if red else p.PENG_SMALL_BLACK)
            return P[idx]
        base = {"wei": p.WEI_SMALL, "chouwei": p.CHOUWEI_SMALL, "pao": p.PAO_SMALL,
                "ti": p.TI_SMALL, "kan": p.KAN_SMALL}[name]
        return P[base + 1] if big else P[base]

    def run_pts(self, cards: tuple[int, ...]) -> int:
        """胡息 of a 3-card free group: 一二三 and 二七十 score, others 0."""
        s = sorted(cards)
        size = s[0] // 10 * 10
        if s == [size, size + 1, size + 2] and s[0] % 10 == 0:
            return self.P[p.YIERSAN_BIG if size else p.YIERSAN_SMALL]
        if s == [size + 1, size + 6, size + 9]:
            return self.P[p.ERQISHI_BIG if size else p.ERQISHI_SMALL]
        return 0

    def eval(self, hand: list[int], inc: int, own: bool, th: int, fo: int) -> int:
        return int(khand.eval_hand(np.array(hand, np.int8), inc, 1 if own else 0, th, fo,
                                   self.P, self._work))

    def placements(self, s: int, c: int, own: bool, drawn: bool) -> list[tuple]:
        """The ways card ``c`` may enter seat ``s``'s cards in a win (RULES.md §6), each as
        ``eval``'s arguments ``(hand, inc, own, table 胡息, table fours)``.

        A card that completes a table 偎/臭偎 (→ 提 on an own draw, 跑 on another's card) or,
        drawn, a 碰 (→ 跑) makes that four-card group: the forced group binds the winner too
        (§6 "Forced four-card groups bind the winner too"; seed 001 "除非是扫穿来胡", seed 000 ⑴
        "必须跑牌"). Only a 跑 may be skipped, where the variant allows 抢招和 (seed 004 篇4).
        Otherwise the card goes to the hand, where ``eval`` applies §6 (提/偎 forced with a 坎
        or pair on an own draw)."""
        pl = self.players[s]
        th, fo = pl.table_huxi(), pl.fours()
        out = []
        free_ok = True
        for m in pl.melds:
            new = four_from(m, c, own, drawn)
            if new is not None:
                out.append((pl.hand, -1, True, th - m.huxi + self.pts(new, c), fo + 1))
                free_ok = new == "pao" and self.P[p.QIANGZHAO] == 1
        if free_ok:
            out.append((pl.hand, c, own, th, fo))
        return out

    def win_huxi(self, s: int, c: int, own: bool, drawn: bool) -> int:
        """Best 胡息 of seat ``s`` winning on card ``c`` (-1: cannot), over `placements`."""
        return max(self.eval(*pl) for pl in self.placements(s, c, own, drawn))

    def wins(self, huxi: int) -> bool:
        return huxi >= 0 and (huxi >= self.P[p.THRESHOLD] or (self.P[p.PIAOHU] == 1 and huxi == 0))

    # --- the hand ---------------------------------------------------------------------------
    def say(self, s: int, what: str, cards: tuple[int, ...] | list[int] = ()) -> None:
        """Log one move as text (``log``) and as data (``moves``: seat, what, card kinds)."""
        self.log.append(f"{s}: {what} {''.join(card_name(k) for k in cards)}".rstrip())
        self.moves.append((s, what, tuple(int(k) for k in cards)))

    def play(self) -> Outcome:
        """Play the hand to a win or 荒庄."""
        self.log.append("deal: " + " | ".join(
            "".join(card_name(k) for k in range(20) for _ in range(pl.hand[k]))
            for pl in self.players) + f" | 亮张 {card_name(self.liangzhang)}")
        out = self.deal_wins()
        if out is not None:
            return out
        for s in range(self.seats):
            self.lay_opening_ti(s)
        if self.P[p.TWO_TI_EXTRA] == 1:
            for s in range(self.seats):
                if self.players[s].fours() == 2 and self.stock:
                    k = self.stock.pop(0)
                    self.say(s, "extra card", [k])
                    # a drawn card is used at once, a win included (§3): the dealer's 天胡 on it
                    hx = self.can_win(s, k, own=True, drawn=True)
                    if hx >= 0 and self.policies[s].hu(self, s, k, hx):
                        return self.win(s, "zimo", k, hx, tianhu=s == 0)
                    self.players[s].hand[k] += 1
                    self.lay_opening_ti(s)
        hook = self.snap_step if any(getattr(q, "wants_steps", False) for q in self.policies) \
            else None
        return self.play_from(("rest", 0), hook)

    def play_from(self, turn: tuple[str, int], on_step=None) -> Outcome:
        """The turn loop from ``turn`` (``("rest", s)``: seat ``s`` owes its discard, ``("draw",
        s)``: seat ``s`` draws) to a win or 荒庄; ``on_step(game, turn)`` is called as each step
        starts (the rollout bot's snapshots and scripts, ``play.bots_rollout``)."""
        while True:
            if on_step is not None:
                on_step(self, turn)
            kind, s = turn
            if kind == "rest":
                pl = self.players[s]
                owed = sum(pl.hand) and pl.at_rest() > self.h + max(0, pl.fours() - 1)
                c = self.choose_discard(s) if owed else None
                if c is not None:
                    res = self.on_discard(s, c)
                    self.first_discard = False
                    if isinstance(res, Outcome):
                        return res
                    turn = ("rest", res) if res is not None else ("draw", (s + 1) % self.seats)
                else:
                    turn = ("draw", (s + 1) % self.seats)
            else:
                if not self.stock:
                    self.log.append("荒庄: the stock is empty")
                    return Outcome(draws=self.draws)
                c = self.stock.pop(0)
                self.draws += 1
                self.say(s, "draws", [c])
                res = self.on_draw(s, c, last=not self.stock)
                if isinstance(res, Outcome):
                    return res
                turn = ("rest", res) if res is not None else ("draw", (s + 1) % self.seats)

    def fork(self, policies: list) -> Game:
        """A copy of the hand as it stands, played on by ``policies`` (its own players, stock,
        streams and move list; no log)."""
        g = copy.copy(self)
        g.players = copy.deepcopy(self.players)
        g.stock = list(self.stock)
        g.rngs = copy.deepcopy(self.rngs)
        g.moves = list(self.moves)
        g.log = []
        g.policies = policies
        return g

    def snap_step(self, game: Game, turn: tuple[str, int]) -> None:
        """``play_from``'s hook when a seat's policy ``wants_steps``: keep the hand as each
        step starts (``step0``), the state its rollouts replay the step from."""
        self.step0 = (turn, self.fork(self.policies))

    def deal_wins(self) -> Outcome | None:
        """三提/五坎 and 天胡, then 地胡 on the 亮张 where the variant says (§6; decisions.md).

        Every seat with an instant shape (points: its 提/坎 胡息) and the dealer's complete 21
        cards (天胡, its best 胡息) are candidates; the most points win, and equal points all
        win (seed 000 ⑻ "油数大的那一方为胡牌方 … 两家皆胡")."""
        cands = []  # (points, seat, instant shape) in turn order from the dealer
        for s in range(self.seats):
            shape = instant(self.players[s].hand, self.P, s == 0, self.liangzhang)
            if shape:
                cands.append((self.locked_huxi(s), s, shape))
            elif s == 0:
                hx = self.eval(self.players[0].hand, -1, True, 0, 0)
                if self.wins(hx):
                    cands.append((hx, 0, ""))
        if cands:
            top = max(x[0] for x in cands)
            (hx, s, shape), *co = [x for x in cands if x[0] == top]
            # a non-dealer's instant win at the deal counts as its 地胡 (常德 "as 天胡/地胡")
            out = self.win(s, "zimo", self.liangzhang, hx, instant_=shape, tianhu=s == 0,
                           dihu=s != 0, in_hand=True)
            if co:
                out.cowinners = tuple(self.co_win(s2, shape2, hx) for _, s2, shape2 in co)
            return out
        if self.P[p.DIHU_LIANGZHANG] == 1:
            for s in range(1, self.seats):
                hx = self.eval(self.players[s].hand, self.liangzhang, False, 0, 0)
                if self.wins(hx) and self.policies[s].hu(self, s, self.liangzhang, hx):
                    return self.win(s, "drawn", self.liangzhang, hx, dihu=True, payer=-1)
        return None

    def co_win(self, s: int, shape: str, hx: int) -> CoWin:
        """The second (third) winner of a shared win at the deal: logged after the first."""
        cards = self.players[s].all_cards()
        fx = fanxing(cards, self.liangzhang, self.stock, self.P) if self.P[p.FANXING] else 0
        pungs = self.all_pungs(s, self.liangzhang, True, True, hx, in_hand=True)
        self.say(s, f"胡 (zimo{', ' + shape if shape else ''}) {hx} 胡息 on", [self.liangzhang])
        return CoWin(s, tuple(cards), shape, pungs, fx)

    def locked_huxi(self, s: int) -> int:
        h = self.players[s].hand
        return sum(self.pts("ti", k) if h[k] == 4 else self.pts("kan", k) if h[k] == 3 else 0
                   for k in range(20))

    def lay_opening_ti(self, s: int) -> None:
        pl = self.players[s]
        for k in range(20):
            if pl.hand[k] == 4:
                pl.hand[k] = 0
                pl.melds.append(Meld("ti", (k,) * 4, self.pts("ti", k)))
                self.say(s, "提 (dealt)", [k] * 4)

    def win(self, s: int, how: str, c: int, hx: int, *, payer: int = -1, tianhu: bool = False,
            dihu: bool = False, haidi: bool = False, instant_: str = "",
            in_hand: bool = False) -> Outcome:
        cards = self.players[s].all_cards()
        self.claimed = None if in_hand else c  # the card won on, now in no one's hand
        if not in_hand:
            cards[c] += 1
        fx = 0
        if self.P[p.FANXING] == 1:
            fx = fanxing(cards, c, self.stock, self.P)
        pungs = self.all_pungs(s, c, how == "zimo", how != "fangpao", hx, in_hand)
        self.say(s, f"胡 ({how}{', ' + instant_ if instant_ else ''}) {hx} 胡息 on", [c])
        return Outcome(s, how, payer, hx, tuple(cards), c, tianhu, dihu, haidi, instant_, fx,
                       self.draws, pungs)

    def all_pungs(self, s: int, c: int, own: bool, drawn: bool, hx: int, in_hand: bool) -> bool:
        """对子胡 (RULES.md §7.4): no 吃 on the table, and some way of winning at ``hx`` 胡息
        (`placements`; the dealt hand itself for a win at the deal) uses 坎/提/偎/碰/跑 and the
        one pair the pair rule owes only: no run, 二七十 or 绞."""
        pl = self.players[s]
        if any(m.name == "chi" for m in pl.melds):
            return False
        ways = ([(pl.hand, -1, True, pl.table_huxi(), pl.fours())] if in_hand
                else self.placements(s, c, own, drawn))
        return any(th + sum(g.huxi for g in d) == hx and not any(g.name in RUNS for g in d)
                   for hand, inc, o, th, fo in ways
                   for d in decompositions(hand, self.P, inc, o, th, fo))

    def choose_discard(self, s: int) -> int | None:
        """The owed discard of seat ``s``; None when only 坎 remain and the variant skips it
        (``[play].only_kan_discard``, RULES.md §5.3)."""
        pl = self.players[s]
        options = [k for k in range(20) if 0 < pl.hand[k] < 3]  # 坎 are never discarded (§5.7)
        if not options:
            if self.P[p.ONLY_KAN_SKIP] == 1:
                return None  # no 坎 is broken: the discard stays owed (decisions.md)
            options = [k for k in range(20) if pl.hand[k] > 0]
        c = self.policies[s].discard(self, s, options)
        pl.hand[c] -= 1
        pl.chou.add(c)  # never 吃/碰 one's own discard (§5.6)
        self.say(s, "discards", [c])
        return c

    def others(self, s: int) -> list[int]:
        return [(s + i) % self.seats for i in range(1, self.seats)]

    def can_win(self, s: int, c: int, own: bool, drawn: bool) -> int:
        pl = self.players[s]
        if (c in pl.chou or c in pl.passed_peng) and not self.v.win.choupai_win:
            return -1
        hx = self.win_huxi(s, c, own, drawn)
        return hx if self.wins(hx) else -1

    def on_discard(self, d: int, c: int) -> Outcome | int | None:
        """Claims on a discard, by priority (§5.2, §8): 胡 > 跑 > 碰 > 吃 (next player only).
        Returns the Outcome of a win, the seat that took the card, or None."""
        if self.P[p.DISCARD_WIN] == 1:
            for s in self.others(d):
                hx = self.can_win(s, c, own=False, drawn=False)
                if hx >= 0 and self.policies[s].hu(self, s, c, hx):
                    # 地胡 on the dealer's first discard only where that is the variant's 地胡
                    first = self.first_discard and d == 0 and self.P[p.DIHU_LIANGZHANG] == 0
                    return self.win(s, "fangpao", c, hx, payer=d, dihu=first)
        for s in self.others(d):
            if self.take_pao(s, c, drawn=False):
                return s
        return self.claim_rest(d, c, src_may_chi=False)

    def on_draw(self, t: int, c: int, last: bool) -> Outcome | int | None:
        """Claims on a drawn, shown card (§5.2): the drawer's 提/偎 (a win first if it wins),
        胡 (drawer first), 跑, 碰, then 吃 by the drawer or the next player."""
        pl = self.players[t]
        if pl.hand[c] == 3 or pl.meld_of(c, ("wei", "chouwei")) or pl.hand[c] == 2:
            hx = self.can_win(t, c, own=True, drawn=True)
            if hx >= 0 and self.policies[t].hu(self, t, c, hx):
                return self.win(t, "zimo", c, hx, haidi=last)
            if pl.hand[c] == 2:
                name = "chouwei" if c in pl.passed_peng else "wei"
                pl.hand[c] = 0
                pl.melds.append(Meld(name, (c,) * 3, self.pts(name, c)))
                self.say(t, "臭偎" if name == "chouwei" else "偎", [c] * 3)
            else:
                self.make_four(t, c, "ti")
            return t
        for s in [t] + self.others(t):
            hx = self.can_win(s, c, own=(s == t), drawn=True)
            if hx >= 0 and self.policies[s].hu(self, s, c, hx):
                return self.win(s, "zimo" if s == t else "drawn", c, hx, haidi=last)
        for s in self.others(t) + [t]:
            if self.take_pao(s, c, drawn=True):
                return s
        return self.claim_rest(t, c, src_may_chi=True)

    def claim_rest(self, src: int, c: int, src_may_chi: bool) -> int | None:
        """The optional claims on card ``c`` shown by ``src``: 碰 by the others, then 吃 by
        ``src`` itself (its own draw only, §5.4) and by the next seat; then the 臭牌 marks
        (§5.6), and an unclaimed card lies beside ``src``. Returns the taker or None."""
        passed: list[tuple[int, bool]] = []
        taker = self.offer_peng(self.others(src), c, passed)
        for s in ((src,) if src_may_chi else ()) + ((src + 1) % self.seats,):
            if taker is None and self.offer_chi(s, c, passed):
                taker = s
        self.mark_passed(c, passed, taker)
        if taker is None:
            self.players[src].beside.append(c)
        return taker

    def make_four(self, s: int, c: int, name: str) -> None:
        """提 or 跑: from a 坎 in hand, or onto the seat's own 偎/臭偎/碰 of ``c``."""
        pl = self.players[s]
        m = pl.meld_of(c, ("wei", "chouwei", "peng"))
        if m is not None:
            pl.melds.remove(m)
        else:
            pl.hand[c] = 0
        pl.melds.append(Meld(name, (c,) * 4, self.pts(name, c)))
        self.say(s, "提" if name == "ti" else "跑", [c] * 4)

    def take_pao(self, s: int, c: int, drawn: bool) -> bool:
        """Forced 跑 (§3): a 坎 in hand or a 偎 on the table takes another's card; one's own 碰
        takes any drawn card (never a discard, seed 001)."""
        pl = self.players[s]
        if pl.hand[c] == 3 or pl.meld_of(c, ("wei", "chouwei")) is not None or (
                drawn and pl.meld_of(c, ("peng",)) is not None):
            self.make_four(s, c, "pao")
            return True
        return False

    def offer_peng(self, seats: list[int], c: int, passed: list[tuple[int, bool]]) -> int | None:
        """Optional 碰 by a player holding a pair (§3) who has not passed it before (§5.6) and
        keeps a card to discard (§5.3 "a claim must leave a discard"); a pass is noted in
        ``passed``."""
        for s in seats:
            pl = self.players[s]
            if pl.hand[c] != 2 or c in pl.chou or c in pl.passed_peng:
                continue
            if not any(0 < pl.hand[k] < 3 for k in range(20) if k != c):
                continue
            if self.policies[s].peng(self, s, c):
                pl.hand[c] = 0
                pl.melds.append(Meld("peng", (c,) * 3, self.pts("peng", c)))
                self.say(s, "碰", [c] * 3)
                return s
            passed.append((s, True))
        return None

    def mark_passed(self, c: int, passed: list[tuple[int, bool]], taker: int | None) -> None:
        """§5.6 臭牌: a player who could 吃 or 碰 the card and did neither may not 吃/碰 it again
        (a passed 碰 may still be 吃 where ``[play].passed_peng_chi``); a passed 碰 also makes a
        later own draw of it a 臭偎 (seed 000 ⑴). Taking it oneself, or not being asked because
        a higher claim took it, is no pass."""
        for s, was_peng in passed:
            if s == taker:
                continue
            if was_peng:
                self.players[s].passed_peng.add(c)
            # 大字牌: a passed 碰 bars only later 碰 (seed 004 篇4 "不可以碰，但可以吃")
            if not (was_peng and self.P[p.PASSED_PENG_CHI] == 1):
                self.players[s].chou.add(c)

    def offer_chi(self, s: int, c: int, passed: list[tuple[int, bool]]) -> bool:
        """Optional 吃 with its 比 (§5.4–§5.5, ``chi.chi_options``) among the options that
        leave a card to discard (§5.3); a pass is noted."""
        pl = self.players[s]
        if c in pl.chou:
            return False
        opts = [o for o in chi_options(pl.hand, c) if leaves_discard(pl.hand, c, o)]
        if not opts:
            return False
        i = self.policies[s].chi(self, s, c, opts)
        if i < 0:
            passed.append((s, False))
            return False
        group, bi = opts[i]
        taken = list(group)
        taken.remove(c)
        for g in (group,) + bi:
            for k in (taken if g is group else g):
                pl.hand[k] -= 1
            pl.melds.append(Meld("chi", g, self.run_pts(g)))
        self.say(s, "吃" + (" + 比" if bi else ""), [k for g in (group,) + bi for k in g])
        return True
