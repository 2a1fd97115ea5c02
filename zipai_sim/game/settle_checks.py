"""Checks that a `HandResult` can come from a hand of the variant, before it is settled
(RULES.md §1 cards, §2 seats, §6 天胡 / 地胡 / 海底 and shared wins at the deal, §7.2 放炮);
`fail` raises the ``settle: …`` ValueError that ``settle`` also raises.

>>> from zipai_sim.game.hand_result import HandResult
>>> from zipai_sim.game.variants import load_variant
>>> check_result(load_variant("guangxi-81"), HandResult(seats=4, dealer=0, winner=-1))
Traceback (most recent call last):
...
ValueError: settle: seats = 4 but guangxi-81 has 3 active players
"""

from __future__ import annotations

from typing import NoReturn

import numpy as np

from zipai_sim.game.hand_result import HOWS, CoWinner, HandResult
from zipai_sim.game.ruleset import Variant

__all__ = ["check_result", "fail"]


def fail(message: str) -> NoReturn:
    """Raise ValueError with ``message``, prefixed ``settle:`` (an impossible hand result)."""
    raise ValueError(f"settle: {message}")


def _cards(cards: object) -> np.ndarray:
    try:
        arr = np.asarray(cards)
    except (TypeError, ValueError):
        arr = np.zeros(0)
    if arr.shape != (20,) or not np.issubdtype(arr.dtype, np.integer):
        fail(f"cards must be 20 integer counts (RULES.md §1 slots), got {cards!r}")
    if arr.min() < 0 or arr.max() > 4:
        fail(f"cards must hold 0..4 copies of each card, got {tuple(int(c) for c in arr)}")
    return arr.astype(np.int64)


def check_result(v: Variant, r: HandResult, counted: bool = False) -> np.ndarray | None:
    """Raise ValueError for a HandResult that cannot come from a hand of ``v``; with
    ``counted`` a winner's ``cards`` are not read (`settle_counts` takes their counts)."""
    n = v.layout.players
    for name in ("seats", "dealer", "winner", "huxi", "payer", "fanxing", "huangzhuang_streak"):
        x = getattr(r, name)
        if not isinstance(x, (int, np.integer)) or isinstance(x, bool):
            fail(f"{name} must be an integer, got {x!r}")
    if r.seats != n:
        fail(f"seats = {r.seats} but {v.key} has {n} active players")
    if not 0 <= r.dealer < n:
        fail(f"dealer must be a seat 0..{n - 1}, got {r.dealer}")
    if not -1 <= r.winner < n:
        fail(f"winner must be a seat 0..{n - 1} or -1 (荒庄), got {r.winner}")
    if r.huangzhuang_streak < 0:
        fail(f"huangzhuang_streak must be ≥ 0, got {r.huangzhuang_streak}")
    if r.winner == -1:
        if r.how or r.payer != -1 or r.huxi or r.fanxing or r.all_pungs or r.tianhu or r.dihu \
                or r.haidi or r.cowinners:
            fail("a 荒庄 (winner = -1) must leave how, payer, huxi, fanxing, cowinners and the "
                 "flags unset")
        return _cards(r.cards) if len(r.cards) else None
    cards = None if counted else _cards(r.cards)
    if cards is not None and cards.sum() == 0:
        fail("cards of a winner must not be empty")
    if r.how not in HOWS:
        fail(f"how must be one of {', '.join(HOWS)}, got {r.how!r}")
    if r.huxi < 0 or r.fanxing < 0:
        fail(f"huxi and fanxing must be ≥ 0, got {r.huxi} and {r.fanxing}")
    if r.fanxing and not v.fanxing.enabled:
        fail(f"fanxing = {r.fanxing} but {v.key} has no 翻信 ([fanxing].enabled = false)")
    if r.how == "fangpao":
        if not v.win.discard_win:
            fail(f"how = 'fangpao' but {v.key} allows no win on a discard")
        if not 0 <= r.payer < n:
            fail(f"how = 'fangpao' needs the discarder as payer (a seat 0..{n - 1}), "
                 f"got {r.payer}")
        if r.payer == r.winner:
            fail(f"payer == winner == {r.winner}: nobody discards to themselves")
    elif r.payer != -1:
        fail(f"payer is only for how = 'fangpao', got payer = {r.payer} with how = {r.how!r}")
    if r.tianhu and (r.winner != r.dealer or r.how != "zimo"):
        fail("天胡 is the dealer's win at the deal: needs winner == dealer and how = 'zimo'")
    if r.dihu and r.winner == r.dealer:
        fail("地胡 is a non-dealer's win: winner must not be the dealer")
    if r.haidi and (r.tianhu or r.dihu or r.how == "fangpao"):
        fail("海底 is a win on the last stock card: not with 天胡, 地胡 or a discard")
    if r.cowinners:
        _check_cowinners(v, r)
    return cards


def _check_cowinners(v: Variant, r: HandResult) -> None:
    """Raise ValueError for the other winners of a shared win at the deal that cannot be."""
    n = v.layout.players
    if not isinstance(r.cowinners, tuple) or not all(isinstance(c, CoWinner)
                                                      for c in r.cowinners):
        fail(f"cowinners must be a tuple of CoWinner, got {r.cowinners!r}")
    for c in r.cowinners:
        for name in ("seat", "reds", "bigs", "smalls", "fanxing"):
            x = getattr(c, name)
            if not isinstance(x, (int, np.integer)) or isinstance(x, bool):
                fail(f"cowinner {name} must be an integer, got {x!r}")
        if not (0 <= c.reds <= 24 and 0 <= c.bigs <= 40 and 0 <= c.smalls <= 40
                and 0 < c.bigs + c.smalls and c.reds <= c.bigs + c.smalls):
            fail(f"cowinner card counts reds={c.reds}, bigs={c.bigs}, smalls={c.smalls} cannot "
                 "be a winner's cards (RULES.md §1: 24 red, 40 big and 40 small cards)")
        if c.fanxing < 0 or (c.fanxing and not v.fanxing.enabled):
            fail(f"cowinner fanxing = {c.fanxing}: must be ≥ 0, and 0 where the variant has "
                 f"no 翻信")
    if r.how != "zimo":
        fail(f"a shared win (cowinners) is a win at the deal: how must be 'zimo', got {r.how!r}")
    if r.haidi:
        fail("a shared win (cowinners) is a win at the deal: not 海底")
    seats = [r.winner] + [c.seat for c in r.cowinners]
    if len(set(seats)) != len(seats) or not all(0 <= x < n for x in seats):
        fail(f"cowinners must be distinct seats 0..{n - 1} other than the winner, "
             f"got {seats[1:]}")
    order = [(x - r.dealer) % n for x in seats]
    if order[0] != min(order):
        fail(f"winner must be the first of a shared win's winners in turn order from the "
             f"dealer: winner {r.winner}, cowinners {seats[1:]}, dealer {r.dealer}")
