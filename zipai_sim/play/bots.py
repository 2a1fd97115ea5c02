"""The shipped seat policies of the reference engine (``play.policies`` for the protocol and
the adapters of user policies): ``random``, ``greedy`` and ``lookahead``, twins of the numba
kernel's (``kernels.play.policies``, ``kernels.play.lookahead``; issue 3 §3, issue 9)."""

from __future__ import annotations

import numpy as np

from zipai_sim.game import params as p
from zipai_sim.kernels import hand as khand
from zipai_sim.kernels.play.study import ERQISHI, PAIR
from zipai_sim.play.observation import HIDDEN, observe


class RandomPolicy:
    """Uniform over the legal choices (passing included), drawn from the seat's own policy
    stream (``Game.rngs[seat]``)."""

    def discard(self, game, seat: int, options: list[int]) -> int:
        return options[game.rngs[seat].below(len(options))]

    def peng(self, game, seat: int, card: int) -> bool:
        return game.rngs[seat].below(2) == 1

    def chi(self, game, seat: int, card: int, options: list) -> int:
        return game.rngs[seat].below(len(options) + 1) - 1

    def hu(self, game, seat: int, card: int, huxi: int) -> bool:
        return True


class GreedyPolicy:
    """Win whenever allowed; discard the card that keeps the most winning waits, then the most
    waits, then the highest 胡息 among them; take a 碰/吃 only when the hand it leaves (after its
    best discard) scores higher by that same measure than the hand without it."""

    def score(self, game, seat: int, hand: list[int], melds_huxi: int, fours: int) -> tuple:
        win = waits = best = 0
        for k in range(20):
            if hand[k] >= 4:
                continue
            hx = game.eval(hand, k, True, melds_huxi, fours)
            if hx >= 0:
                waits += 1
                best = max(best, hx)
                win += game.wins(hx)
        return (win, waits, best)

    def best_discard(self, game, seat: int, hand: list[int], th: int, fo: int,
                     options: list[int]) -> tuple[tuple, int]:
        top = None
        for k in options:
            h = list(hand)
            h[k] -= 1
            sc = self.score(game, seat, h, th, fo)
            if top is None or sc > top[0]:
                top = (sc, k)
        return top

    def discard(self, game, seat: int, options: list[int]) -> int:
        pl = game.players[seat]
        return self.best_discard(game, seat, pl.hand, pl.table_huxi(), pl.fours(), options)[1]

    def _after(self, game, seat: int, hand: list[int], th: int, fo: int) -> tuple:
        opts = [k for k in range(20) if 0 < hand[k] < 3]
        if not opts:
            return (0, 0, 0)
        return self.best_discard(game, seat, hand, th, fo, opts)[0]

    def peng(self, game, seat: int, card: int) -> bool:
        pl = game.players[seat]
        th, fo = pl.table_huxi(), pl.fours()
        now = self.score(game, seat, pl.hand, th, fo)
        h = list(pl.hand)
        h[card] = 0
        return self._after(game, seat, h, th + game.pts("peng", card), fo) > now

    @staticmethod
    def chi_left(game, hand: list[int], card: int, options: list) -> list[tuple[list[int], int]]:
        """Per 吃 option: (the hand it leaves, 胡息 of the groups it lays)."""
        out = []
        for group, bi in options:
            h = list(hand)
            taken = list(group)
            taken.remove(card)
            for g in (group,) + bi:
                for k in (taken if g is group else g):
                    h[k] -= 1
            out.append((h, sum(game.run_pts(g) for g in (group,) + bi)))
        return out

    def chi(self, game, seat: int, card: int, options: list) -> int:
        pl = game.players[seat]
        th, fo = pl.table_huxi(), pl.fours()
        best, pick = self.score(game, seat, pl.hand, th, fo), -1
        for i, (h, gain) in enumerate(self.chi_left(game, pl.hand, card, options)):
            sc = self._after(game, seat, h, th + gain, fo)
            if sc > best:
                best, pick = sc, i
        return pick

    def hu(self, game, seat: int, card: int, huxi: int) -> bool:
        return True


class LookaheadPolicy(GreedyPolicy):
    """Win whenever allowed; rank each option (discard, 碰, 吃, pass) by the hand it leaves,
    from what the seat sees (``observe``): first the wait value ``vw`` (the exact
    hypergeometric chance that one of the live winning cards lies in the stock, times their mean
    value ``max(胡息 − 起胡, 0) + 3``), then, for hands not yet waiting, ``v1`` (the expected
    ``vw`` after the next unseen card and the best discard), then the greedy score. The twin of
    ``kernels.play.lookahead`` (same choices, same floating-point operations); see there and
    docs/decisions.md for the definitions."""

    eager = False  # StudyPolicy: an equal key with 胡息 laid takes the claim

    def __init__(self):
        self._memo: dict = {}  # (hand, table 胡息, fours) -> its winning waits [(kind, 胡息)]
        self._params: tuple = ()  # the variant's params the memo holds waits for

    def __deepcopy__(self, memo: dict) -> LookaheadPolicy:
        twin = type(self)()  # the memo holds pure functions of its keys: shared
        twin._memo, twin._params = self._memo, self._params
        return twin

    def view(self, game, seat: int, card: int) -> tuple[list[int], int, int]:
        """(unseen counts per kind, cards unseen, stock) from the seat's ``Observation``."""
        obs = observe(game, seat, card)
        seen = list(obs.hand)
        for groups in obs.melds:
            for g in groups:
                for k in g.cards:
                    if k != HIDDEN:
                        seen[k] += 1
        for pile in obs.beside:
            for k in pile:
                seen[k] += 1
        if obs.pending >= 0:
            seen[obs.pending] += 1
        unseen = [4 - x for x in seen]
        return unseen, sum(unseen), obs.stock

    @staticmethod
    def hit(utot: int, stock: int, live: int) -> float:
        """1 − C(utot − live, stock) / C(utot, stock): the chance that the ``stock`` cards,
        a uniform draw of the ``utot`` unseen, hold one of the ``live`` winning cards."""
        m = 1.0
        for w in range(live):
            a = utot - w - stock
            if a <= 0:
                return 1.0
            m = m * a / (utot - w)
        return 1.0 - m

    def _waits(self, game, hand: list[int], th: int, fo: int) -> list[tuple[int, int]]:
        if self._params is not game.P and self._params != tuple(game.P):
            self._memo.clear()
            self._params = tuple(game.P)
        key = (tuple(hand), th, fo)
        got = self._memo.get(key)
        if got is None:  # game.eval(hand, k, True, th, fo) for every kind, in one call
            out = np.empty((20, 2), np.int64)
            khand.waits(np.array(hand, np.int8), th, fo, game.P, out)
            got = [(k, int(out[k, 0])) for k in range(20)
                   if hand[k] < 4 and game.wins(int(out[k, 0]))]
            if len(self._memo) > 100_000:
                self._memo.clear()
            self._memo[key] = got
        return got

    def wait_value(self, game, hand: list[int], th: int, fo: int, view, drawn: int = -1,
                   step: int = 0) -> float:
        """``vw`` of ``hand`` (20 counts at rest; table 胡息 ``th``, four-card groups ``fo``):
        ``hit(U − step, S − step, L) · A / L`` over its winning own-draw waits, ``L`` their
        unseen copies (one fewer of ``drawn``), ``A`` = Σ copies · (max(胡息 − 起胡, 0) + 3);
        0.0 without a live winning wait. ``view``: ``(unseen, U, S)`` from ``view()``."""
        unseen, utot, stock = view
        t = game.P[p.THRESHOLD]
        live = acc = 0
        for k, hx in self._waits(game, hand, th, fo):
            u = unseen[k] - (k == drawn)
            if u > 0:
                live += u
                acc += u * (max(hx - t, 0) + 3)
        if live == 0:
            return 0.0
        return self.hit(utot - step, max(stock - step, 0), live) * acc / live

    def step_value(self, game, hand: list[int], th: int, fo: int, view) -> float:
        """``v1`` of ``hand`` at rest: Σ_j unseen[j] · max over free cards d of
        ``wait_value(hand + j − d, drawn=j, step=1)``, divided by U (0.0 with nothing
        unseen)."""
        unseen, utot, _ = view
        tot = 0.0
        for j in range(20):
            if unseen[j] <= 0:
                continue
            h = list(hand)
            h[j] += 1
            best = 0.0
            for d in range(20):
                if 0 < h[d] < 3:
                    h[d] -= 1
                    best = max(best, self.wait_value(game, h, th, fo, view, j, 1))
                    h[d] += 1
            tot += unseen[j] * best
        return tot / utot if utot > 0 else 0.0

    def rest_key(self, game, seat: int, hand: list[int], th: int, fo: int, view) -> tuple:
        """The key ``(vw, v1, greedy score)`` of ``hand`` as it is (``v1`` only when ``vw`` is
        0, else 0.0): what passing a claim keeps."""
        vw = self.wait_value(game, hand, th, fo, view)
        v1 = self.step_value(game, hand, th, fo, view) if vw == 0.0 else 0.0
        return (vw, v1, self.score(game, seat, hand, th, fo))

    def option_values(self, game, hand: list[int], th: int, fo: int, options: list[int],
                      view) -> tuple[dict, float]:
        """Per discard option ``k`` of ``hand`` (20 counts, one card over rest): the hand it
        leaves and that hand's ``wait_value``; and the largest of those values."""
        left = {}
        for k in options:
            h = list(hand)
            h[k] -= 1
            left[k] = (h, self.wait_value(game, h, th, fo, view))
        return left, max(v for _, v in left.values())

    def best_key(self, game, seat: int, hand: list[int], th: int, fo: int, options: list[int],
                 view) -> tuple[tuple, int]:
        """``(key, kind)`` of the best discard among ``options`` from ``hand`` (one card over
        rest): the largest ``rest_key`` of the hand it leaves, the first on ties;
        ``((0.0, 0.0, (0, 0, 0)), -1)`` without an option."""
        if not options:
            return (0.0, 0.0, (0, 0, 0)), -1
        left, top = self.option_values(game, hand, th, fo, options, view)
        best = None
        for k in options:
            h, vw = left[k]
            if vw != top:
                continue
            v1 = self.step_value(game, h, th, fo, view) if top == 0.0 else 0.0
            key = (vw, v1, self.score(game, seat, h, th, fo))
            if best is None or key > best[0]:
                best = (key, k)
        return best

    def discard(self, game, seat: int, options: list[int]) -> int:
        pl = game.players[seat]
        return self.best_key(game, seat, pl.hand, pl.table_huxi(), pl.fours(), options,
                             self.view(game, seat, -1))[1]

    def _free(self, hand: list[int]) -> list[int]:
        return [k for k in range(20) if 0 < hand[k] < 3]

    def peng(self, game, seat: int, card: int) -> bool:
        pl = game.players[seat]
        th, fo = pl.table_huxi(), pl.fours()
        view = self.view(game, seat, card)
        now = self.rest_key(game, seat, pl.hand, th, fo, view)
        h = list(pl.hand)
        h[card] = 0
        gain = game.pts("peng", card)
        key = self.best_key(game, seat, h, th + gain, fo, self._free(h), view)[0]
        return key > now or (self.eager and gain > 0 and key == now)

    def chi(self, game, seat: int, card: int, options: list) -> int:
        pl = game.players[seat]
        th, fo = pl.table_huxi(), pl.fours()
        view = self.view(game, seat, card)
        best, pick, bgain = self.rest_key(game, seat, pl.hand, th, fo, view), -1, 0
        for i, (h, gain) in enumerate(self.chi_left(game, pl.hand, card, options)):
            key = self.best_key(game, seat, h, th + gain, fo, self._free(h), view)[0]
            if key > best or (self.eager and gain > bgain and key == best):
                best, pick, bgain = key, i, gain
        return pick


class StudyPolicy(LookaheadPolicy):
    """``lookahead`` with a player's tie-breaks: a discard is ranked by lookahead's value of the
    hand it leaves (``vw`` where some option keeps a live winning wait, else ``v1``), then
    greedy's score, then the most isolated card (``shape``); a 碰 or 吃 whose key equals
    passing's (or the best option's so far) is taken when it lays more 胡息 (``eager``). The
    twin of ``kernels.play.study`` (same choices, same floating-point operations)."""

    eager = True

    @staticmethod
    def shape(hand: list[int], k: int) -> int:
        """How much a card of kind ``k`` leaving ``hand`` still works with the rest: ``PAIR``
        per other copy, 2 per card of an adjacent kind and per copy of its 绞 (same value, other
        size), 1 per card two apart, ``ERQISHI`` per card of the other 二七十 of its size not
        counted already (``kernels.play.study``'s weights); the lower, the better discard."""
        size, v = divmod(k, 10)
        row = hand[10 * size:10 * size + 10]
        r = PAIR * (hand[k] - 1) + 2 * hand[(k + 10) % 20]
        r += sum((2 if abs(d) == 1 else 1) * row[v + d] for d in (-2, -1, 1, 2)
                 if 0 <= v + d <= 9)
        if v in (1, 6, 9):
            r += ERQISHI * sum(row[w] for w in (1, 6, 9) if abs(w - v) > 2)
        return r

    def discard(self, game, seat: int, options: list[int]) -> int:
        pl = game.players[seat]
        th, fo = pl.table_huxi(), pl.fours()
        view = self.view(game, seat, -1)
        left, top = self.option_values(game, pl.hand, th, fo, options, view)
        best = None
        for k in options:
            h, vw = left[k]
            a = vw if top > 0.0 else self.step_value(game, h, th, fo, view)
            key = (a, self.score(game, seat, h, th, fo), -self.shape(pl.hand, k))
            if best is None or key > best[0]:
                best = (key, k)
        return best[1]
