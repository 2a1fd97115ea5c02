"""Seat policies for the reference engine (issue 3 §3). A policy answers four questions:
``discard(game, seat, options) -> kind``, ``peng(game, seat, card) -> bool``,
``chi(game, seat, card, options) -> index or -1`` and ``hu(game, seat, card, huxi) -> bool``.

Both shipped policies always take a win (a declined 胡 only changes who wins later; see
docs/decisions.md). A user policy is any object with these four methods; ``game`` exposes the
observation (``game.players[seat]``: its hand and ``chou``; every seat's ``melds`` and ``beside``
cards; ``len(game.stock)``).
"""

from __future__ import annotations


class RandomPolicy:
    """Uniform over the legal choices (passing included), drawn from the hand's policy stream."""

    def discard(self, game, seat: int, options: list[int]) -> int:
        return options[game.rng.below(len(options))]

    def peng(self, game, seat: int, card: int) -> bool:
        return game.rng.below(2) == 1

    def chi(self, game, seat: int, card: int, options: list) -> int:
        return game.rng.below(len(options) + 1) - 1

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

    def chi(self, game, seat: int, card: int, options: list) -> int:
        pl = game.players[seat]
        th, fo = pl.table_huxi(), pl.fours()
        best, pick = self.score(game, seat, pl.hand, th, fo), -1
        for i, (group, bi) in enumerate(options):
            h = list(pl.hand)
            taken = list(group)
            taken.remove(card)
            for g in (group,) + bi:
                for k in (taken if g is group else g):
                    h[k] -= 1
            gain = sum(game.run_pts(g) for g in (group,) + bi)
            sc = self._after(game, seat, h, th + gain, fo)
            if sc > best:
                best, pick = sc, i
        return pick

    def hu(self, game, seat: int, card: int, huxi: int) -> bool:
        return True


POLICIES = {"random": RandomPolicy, "greedy": GreedyPolicy}
