"""Settling many hands at once: the integer rows of finished hands that the numba play engine
reports (one hand a row, columns `ROW_FIELDS`), each distinct row settled once by the code of
``settle`` (RULES.md §7).
"""

from __future__ import annotations

import os

import numpy as np

from zipai_sim.game.hand_result import HOWS, HandResult
from zipai_sim.game.ruleset import Variant
from zipai_sim.game.settle import settle, settle_win
from zipai_sim.game.variants import load_variant

__all__ = ["ROW_FIELDS", "settle_rows"]

# columns of the rows `settle_rows` takes (one hand a row; how: 0 荒庄, 1 zimo, 2 fangpao, 3 drawn)
ROW_FIELDS = ("winner", "how", "payer", "huxi", "reds", "bigs", "smalls", "all_pungs", "tianhu",
              "dihu", "haidi", "fanxing")


def settle_rows(variant: Variant | str | os.PathLike[str], rows: np.ndarray,
                dealer: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Settle many hands at once: ``rows: int64[n, len(ROW_FIELDS)]`` → ``(payments:
    int64[n, seats (+1 sitter)], units: int64[n, 2])`` (win units, 翻信 units).

    Each distinct row is settled once by the same code as `settle` (hands repeat a lot: 胡息,
    red count and flags take few values), so this is exact and fast for millions of hands. A
    row holds one winner: a shared win at the deal (``HandResult.cowinners``) is settled with
    `settle_counts` (``play.payoffs.settle_outcomes`` does so for kernel rows).

    >>> rows = np.array([[1, 2, 2, 18, 9, 12, 9, 0, 0, 0, 0, 0],   # seat 1: 18 胡 on 2's discard
    ...                  [-1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0]])  # 荒庄
    >>> pay, units = settle_rows("guangxi-81", rows)
    >>> pay.tolist(), units.tolist()
    ([[0, 6, -6], [-4, 2, 2]], [[3, 0], [0, 0]])
    """
    v = load_variant(variant)
    rows = np.asarray(rows, dtype=np.int64)
    uniq, inverse = np.unique(rows, axis=0, return_inverse=True)
    n = v.layout.players
    pay, units = [], []
    huang = None
    for f in uniq.tolist():  # Python ints, one list a row, in ROW_FIELDS order
        winner, how, payer, huxi, reds, bigs, smalls, all_pungs, tianhu, dihu, haidi, fx = f
        if winner < 0:
            huang = huang or settle(v, HandResult(seats=n, dealer=dealer, winner=-1))
            res = huang
        else:
            r = HandResult(seats=n, dealer=dealer, winner=winner, huxi=huxi, how=HOWS[how - 1],
                           payer=payer, all_pungs=bool(all_pungs), tianhu=bool(tianhu),
                           dihu=bool(dihu), haidi=bool(haidi), fanxing=fx)
            res = settle_win(v, r, reds, bigs, smalls)
        pay.append(res.payments)
        units.append((res.units, res.fanxing_units))
    width = n + (1 if v.layout.sitter else 0)
    pay_u = np.array(pay, np.int64).reshape(len(uniq), width)
    units_u = np.array(units, np.int64).reshape(len(uniq), 2)
    inverse = inverse.reshape(-1)
    return pay_u[inverse], units_u[inverse]
