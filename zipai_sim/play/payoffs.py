"""Kernel outcome rows settled (RULES.md §7): ``settle_outcomes`` turns ``kernels.play`` outcome
rows into payments with ``settle_batch.settle_rows``; an ``OutcomeCache`` keeps each distinct
outcome's settlement across calls; ``outcome_row`` writes a reference-engine outcome as such a row.

A run settles chunk after chunk (``simulate_hands``, the arena, a rollout seat's playouts), and
the same outcomes come back in every chunk: a win is settled from twelve small fields (winner,
how, payer, 胡息, card counts, flags, 翻醒), so a few thousand distinct outcomes cover most of a
million hands. Settling each distinct outcome once per run, instead of once per chunk, took a
quarter of ``simulate_hands``' time away (docs/decisions.md "Play speed"). The cache only
decides which rows ``settle_rows`` sees: every payment still comes from the settlement code.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import numpy as np

from zipai_sim.game.hand_result import HOWS, CoWinner, HandResult, card_counts
from zipai_sim.game.settle import settle_counts
from zipai_sim.game.settle_batch import settle_rows
from zipai_sim.game.variants import Variant

if TYPE_CHECKING:
    from zipai_sim.play.engine import Game

# the outcome columns a settlement reads, each as (column, lowest value, bits) in a packed key;
# a row outside these ranges is settled without the cache (``OutcomeCache.MAX_ROWS`` caps it)
_FIELDS = (("O_WINNER", -1, 3), ("O_HOW", 0, 2), ("O_PAYER", -1, 3), ("O_HUXI", 0, 10),
           ("O_RED", 0, 6), ("O_BIG", 0, 6), ("O_TOTAL", 0, 6), ("O_ALL_PUNGS", 0, 1),
           ("O_TIANHU", 0, 1), ("O_DIHU", 0, 1), ("O_HAIDI", 0, 1), ("O_FANXING", 0, 8))


def row_result(v: Variant, row: np.ndarray, streak: int = 0) -> tuple[HandResult, int, int,
                                                                       int]:
    """A kernel outcome row (``kernels.play`` O_* columns, the dealer at seat 0) as the input
    of ``settle.settle_counts``: ``(HandResult, reds, bigs, smalls)`` of the (first) winner,
    the other winners of a shared win at the deal in ``cowinners``."""
    from zipai_sim.kernels import play as kp

    w = int(row[kp.O_WINNER])
    n = v.layout.players
    if w < 0:
        return HandResult(seats=n, dealer=0, winner=-1, huangzhuang_streak=streak), 0, 0, 0
    co = []
    for q in range(int(row[kp.O_NCO])):
        b = kp.O_CO + q * kp.CO_COLS
        co.append(CoWinner(int(row[b + kp.CO_SEAT]), int(row[b + kp.CO_RED]),
                           int(row[b + kp.CO_BIG]),
                           int(row[b + kp.CO_TOTAL] - row[b + kp.CO_BIG]),
                           bool(row[b + kp.CO_ALL_PUNGS]), int(row[b + kp.CO_FANXING])))
    r = HandResult(seats=n, dealer=0, winner=w, huxi=int(row[kp.O_HUXI]),
                   how=HOWS[int(row[kp.O_HOW]) - 1], payer=int(row[kp.O_PAYER]),
                   all_pungs=bool(row[kp.O_ALL_PUNGS]), tianhu=bool(row[kp.O_TIANHU]),
                   dihu=bool(row[kp.O_DIHU]), haidi=bool(row[kp.O_HAIDI]),
                   fanxing=int(row[kp.O_FANXING]), huangzhuang_streak=streak,
                   cowinners=tuple(co))
    return r, int(row[kp.O_RED]), int(row[kp.O_BIG]), int(row[kp.O_TOTAL] - row[kp.O_BIG])


def _settle_plain(v: Variant, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``settle_outcomes`` without a cache."""
    from zipai_sim.kernels import play as kp

    win = rows[:, kp.O_WINNER]
    keys = np.stack([win, rows[:, kp.O_HOW], rows[:, kp.O_PAYER], rows[:, kp.O_HUXI],
                     rows[:, kp.O_RED], rows[:, kp.O_BIG], rows[:, kp.O_TOTAL] - rows[:, kp.O_BIG],
                     rows[:, kp.O_ALL_PUNGS], rows[:, kp.O_TIANHU], rows[:, kp.O_DIHU],
                     rows[:, kp.O_HAIDI], rows[:, kp.O_FANXING]], axis=1)
    keys[win < 0] = 0
    keys[win < 0, 0] = -1
    keys[win < 0, 2] = -1
    pay, units = settle_rows(v, keys)
    for i in np.flatnonzero(rows[:, kp.O_NCO] > 0):  # shared wins at the deal: rare
        money = settle_counts(v, *row_result(v, rows[i]))
        pay[i], units[i] = money.payments, (money.units, money.fanxing_units)
    return pay, units


def _packed_keys(rows: np.ndarray) -> np.ndarray | None:
    """One int64 per row from the columns of ``_FIELDS``, or None when a value is out of range."""
    from zipai_sim.kernels import play as kp

    key = np.zeros(len(rows), np.int64)
    shift = 0
    for name, lo, bits in _FIELDS:
        x = rows[:, getattr(kp, name)] - lo
        if x.min() < 0 or x.max() >= 1 << bits:
            return None
        key |= x << shift
        shift += bits
    return key


class OutcomeCache:
    """The settlement of each distinct outcome met so far, for one variant: pass the same
    cache to ``settle_outcomes`` for every chunk of a run. Thread-safe; a pickled copy (a Dask
    worker's) starts empty. Holds at most ``MAX_ROWS`` outcomes (then starts over), so a run's
    memory stays flat in its number of hands."""

    MAX_ROWS = 1 << 18  # ≈ 15 MB of keys, payments and units

    def __init__(self, v: Variant) -> None:
        self.v = v
        self._lock = threading.Lock()
        self._clear()

    def _clear(self) -> None:
        w = self.v.layout.players + (1 if self.v.layout.sitter else 0)
        self.keys = np.zeros(0, np.int64)  # sorted
        self.pay = np.zeros((0, w), np.int64)
        self.units = np.zeros((0, 2), np.int64)

    def __getstate__(self) -> dict:
        return {"v": self.v}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["v"])

    def __len__(self) -> int:
        return len(self.keys)

    def settle(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``settle_outcomes(v, rows)``, each distinct outcome settled at most once per cache."""
        from zipai_sim.kernels import play as kp

        co = rows[:, kp.O_NCO] > 0
        key = _packed_keys(rows)
        if key is None or co.all():
            return _settle_plain(self.v, rows)
        solo = np.flatnonzero(~co)
        uniq, first, inv = np.unique(key[solo], return_index=True, return_inverse=True)
        with self._lock:
            if len(self.keys) + len(uniq) > self.MAX_ROWS:
                self._clear()
            pos = np.minimum(np.searchsorted(self.keys, uniq), max(len(self.keys) - 1, 0))
            new = np.flatnonzero(self.keys[pos] != uniq) if len(self.keys) else np.arange(
                len(uniq))
            if len(new):
                p, u = _settle_plain(self.v, rows[solo[first[new]]])
                keys = np.concatenate([self.keys, uniq[new]])
                order = np.argsort(keys, kind="stable")
                self.keys = keys[order]
                self.pay = np.concatenate([self.pay, p])[order]
                self.units = np.concatenate([self.units, u])[order]
            pos = np.searchsorted(self.keys, uniq)
            pay_u, units_u = self.pay[pos], self.units[pos]
        pay = np.empty((len(rows), pay_u.shape[1]), np.int64)
        units = np.empty((len(rows), 2), np.int64)
        inv = inv.reshape(-1)
        pay[solo], units[solo] = pay_u[inv], units_u[inv]
        if co.any():
            pay[co], units[co] = _settle_plain(self.v, rows[co])
        return pay, units


def settle_outcomes(v: Variant, rows: np.ndarray,
                    cache: OutcomeCache | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Settle kernel outcome rows ``int64[n, N_OUT]`` (``kernels.play`` O_* columns, the dealer
    at seat 0) with ``settle_rows`` (RULES.md §7); returns ``(payments int64[n, seats (+
    sitter)], units int64[n, 2])`` (units: the winner's amount and its 翻信 part). ``cache``
    (an ``OutcomeCache`` of ``v``): remember each distinct outcome's settlement for the next
    call; the answer is the same with or without it."""
    if len(rows) == 0:
        return np.zeros((0, 0), np.int64), np.zeros((0, 2), np.int64)
    if cache is None:
        return _settle_plain(v, rows)
    if cache.v is not v and cache.v != v:
        raise ValueError("settle_outcomes: the cache belongs to another variant")
    return cache.settle(rows)


def outcome_row(game: Game, out) -> np.ndarray:
    """A reference hand's outcome as a ``kernels.play`` outcome row (``int64[N_OUT]``, O_*
    columns; ``O_MOVES`` left 0), so both engines' sampled rows are built by one function."""
    from zipai_sim.kernels import play as kp

    instant = {name: code for code, name in kp.INSTANT_NAMES.items()}
    row = np.zeros(kp.N_OUT, np.int64)
    row[[kp.O_WINNER, kp.O_PAYER, kp.O_WIN_CARD]] = -1
    row[kp.O_CO + kp.CO_SEAT:kp.O_CO + kp.MAX_CO * kp.CO_COLS:kp.CO_COLS] = -1  # no co-winner
    row[kp.O_DRAWS] = out.draws
    if out.winner < 0:
        return row
    row[kp.O_WINNER], row[kp.O_PAYER], row[kp.O_HUXI] = out.winner, out.payer, out.huxi
    row[kp.O_HOW] = {"zimo": kp.HOW_ZIMO, "fangpao": kp.HOW_FANGPAO, "drawn": kp.HOW_DRAWN}[
        out.how]
    row[kp.O_TIANHU], row[kp.O_DIHU], row[kp.O_HAIDI] = out.tianhu, out.dihu, out.haidi
    row[kp.O_INSTANT] = instant[out.instant]
    row[kp.O_FANXING], row[kp.O_WIN_CARD] = out.fanxing, out.win_card
    reds, bigs, smalls = card_counts(out.cards)
    row[kp.O_RED], row[kp.O_BIG], row[kp.O_TOTAL] = reds, bigs, bigs + smalls
    row[kp.O_ALL_PUNGS] = out.all_pungs
    row[kp.O_NCO] = len(out.cowinners)
    for q, c in enumerate(out.cowinners):
        base = kp.O_CO + q * kp.CO_COLS
        reds, bigs, smalls = card_counts(c.cards)
        row[base + kp.CO_SEAT], row[base + kp.CO_FANXING] = c.seat, c.fanxing
        row[base + kp.CO_RED], row[base + kp.CO_BIG] = reds, bigs
        row[base + kp.CO_TOTAL], row[base + kp.CO_ALL_PUNGS] = bigs + smalls, c.all_pungs
        row[base + kp.CO_INSTANT] = instant[c.instant]
    return row
