"""``learned`` (issue 47) on the reference engine: the readable twin of
``kernels.play.learned`` (same features, same weights, the same floating-point operations in the
same order, so the same choices)."""

from __future__ import annotations

import math

from zipai_sim.game import params as p
from zipai_sim.play import learned
from zipai_sim.play.bots import StudyPolicy


class LearnedPolicy(StudyPolicy):
    """Win whenever allowed; otherwise choose the answer whose rest hand (the hand waiting for
    the next card, after the discard that follows a claim) has the highest learned value
    ``V = Σ w[i] · f[i]`` (``features``): a discard by its rest hand (ties: the more isolated
    card, ``shape``, then the first), a 碰 or 吃 when the best discard after it beats passing
    (the hand as it is). The weights are the variant's (``play.learned.weights``)."""

    def __init__(self, weights=None):
        super().__init__()
        self._w = None if weights is None else tuple(float(x) for x in weights)

    def _weights(self, game) -> tuple[float, ...]:
        if self._w is None:
            self._w = tuple(float(x) for x in learned.weights(game.v))
        return self._w

    def __deepcopy__(self, memo: dict) -> LearnedPolicy:
        twin = super().__deepcopy__(memo)
        twin._w = self._w
        return twin

    @staticmethod
    def lonely(hand: list[int]) -> int:
        """Kinds held once with no card of a kind that could join them in a group (within two
        in the size, the other size's same value, the other 二七十 of the size)."""
        n = 0
        for k in range(20):
            if hand[k] != 1:
                continue
            size, v = divmod(k, 10)
            row = hand[10 * size:10 * size + 10]
            near = hand[(k + 10) % 20] + sum(row[v + d] for d in (-2, -1, 1, 2) if 0 <= v + d <= 9)
            if v in (1, 6, 9):
                near += sum(row[w] for w in (1, 6, 9) if w != v)
            n += near == 0
        return n

    def features(self, game, seat: int, hand: list[int], th: int, fo: int, view) -> list[float]:
        """The ``N_FEAT`` features of the rest hand ``hand`` (20 counts; table 胡息 ``th``,
        four-card groups ``fo``) of ``seat`` (``kernels.play.learned`` lists them)."""
        P = game.P
        t = max(P[p.THRESHOLD], 1)
        _unseen, _utot, stock = view
        vw = self.wait_value(game, hand, th, fo, view)
        v1 = self.step_value(game, hand, th, fo, view) if vw == 0.0 else 0.0
        win, nw, best = self.score(game, seat, hand, th, fo)
        locked = th + sum(game.pts("kan" if x == 3 else "ti", k) for k, x in enumerate(hand)
                          if x >= 3)
        free = sum(x for x in hand if 0 < x < 3)
        sf = stock / P[p.STOCK_LEN]
        lk = min(locked, 2 * t) / t
        return [1.0, vw, v1, 1.0 if self._waits(game, hand, th, fo) else 0.0, float(win),
                float(nw), best / t, lk, max(t - locked, 0) / t, float(free),
                float(self.lonely(hand)), float(sum(1 for x in hand if x == 2)), sf, vw * sf,
                v1 * sf, lk * sf, 1.0 if seat == 0 else 0.0, 1.0 if seat == 1 else 0.0]

    def value(self, game, seat: int, hand: list[int], th: int, fo: int, view) -> float:
        """``V`` of a rest hand: the weights times ``features``, summed in index order."""
        v = 0.0
        for w, f in zip(self._weights(game), self.features(game, seat, hand, th, fo, view)):
            v += w * f
        return v

    def best_after(self, game, seat: int, hand: list[int], th: int, fo: int, view) -> float:
        """The highest ``value`` a discard of a free kind leaves from ``hand`` (one card over
        rest); -inf without one."""
        top = -math.inf
        for d in range(20):
            if 0 < hand[d] < 3:
                h = list(hand)
                h[d] -= 1
                top = max(top, self.value(game, seat, h, th, fo, view))
        return top

    def discard(self, game, seat: int, options: list[int]) -> int:
        pl = game.players[seat]
        th, fo = pl.table_huxi(), pl.fours()
        view = self.view(game, seat, -1)
        pick, top, tsh = -1, 0.0, 0
        for k in options:
            h = list(pl.hand)
            h[k] -= 1
            v = self.value(game, seat, h, th, fo, view)
            sh = self.shape(pl.hand, k)
            if pick < 0 or v > top or (v == top and sh < tsh):
                pick, top, tsh = k, v, sh
        return pick

    def laying(self, hand: list[int], left: list[int], card: int) -> None:
        """Called before a claim's answers are valued: the claim of ``card`` takes ``hand`` to
        ``left``. Nothing here; the neural twin notes the cards it lays."""

    def peng(self, game, seat: int, card: int) -> bool:
        pl = game.players[seat]
        th, fo = pl.table_huxi(), pl.fours()
        view = self.view(game, seat, card)
        now = self.value(game, seat, pl.hand, th, fo, view)
        h = list(pl.hand)
        h[card] = 0
        self.laying(pl.hand, h, card)
        return self.best_after(game, seat, h, th + game.pts("peng", card), fo, view) > now

    def chi(self, game, seat: int, card: int, options: list) -> int:
        pl = game.players[seat]
        th, fo = pl.table_huxi(), pl.fours()
        view = self.view(game, seat, card)
        best, pick = self.value(game, seat, pl.hand, th, fo, view), -1
        for i, (h, gain) in enumerate(self.chi_left(game, pl.hand, card, options)):
            self.laying(pl.hand, h, card)
            v = self.best_after(game, seat, h, th + gain, fo, view)
            if v > best:
                best, pick = v, i
        return pick
