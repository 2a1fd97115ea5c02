"""``simulate_hands``: many whole hands per variant, settled, and the balance figures (issue 3 §5).

Hands are dealt exactly as ``simulate_deals`` deals them (chunk ``c`` keyed by
``SeedSequence(seed, spawn_key=(c,))``), so variants with the same deal layout play the same
shuffled decks (common random numbers) and a result depends on ``(variant, seed, n, chunk_size,
policies)`` only. Each hand is settled with ``zipai_sim.settle``; per chunk only sums are kept.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from ..chunks import check_chunk_size, check_count, check_seed, chunk_keys, chunk_sizes, n_chunks
from ..reference import shuffled_deck
from ..settle import settle, settle_rows
from ..stats import mean_se, wilson
from ..variants import Variant, load_variant
from .engine import Game
from .policies import POLICIES
from .trace import hand_result

DEFAULT_HAND_CHUNK = 1 << 12
SCHEMA = {"variant": pl.String, "metric": pl.String, "seat": pl.Int64, "count": pl.Int64,
          "n": pl.Int64, "rate": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
          "mean": pl.Float64, "se": pl.Float64, "sd": pl.Float64}


@dataclass
class _Sums:
    """Mergeable per-seat and per-hand totals."""

    seats: int

    def __post_init__(self) -> None:
        s = self.seats
        self.n = 0
        self.wins = np.zeros(s, np.int64)
        self.zimo = np.zeros(s, np.int64)
        self.fangpao = np.zeros(s, np.int64)  # the seat paid for a win on its discard
        self.score = np.zeros(s, np.float64)
        self.score_sq = np.zeros(s, np.float64)
        self.huang = self.tianhu = self.dihu = self.haidi = 0
        self.draws = self.draws_sq = 0.0
        self.fx = self.fx_sq = 0.0
        self.fx_units = self.win_units = 0.0

    def add(self, out, money) -> None:
        self.n += 1
        pay = np.array(money.payments[: self.seats], np.float64)
        self.score += pay
        self.score_sq += pay * pay
        self.draws += out.draws
        self.draws_sq += out.draws * out.draws
        if out.winner < 0:
            self.huang += 1
            return
        self.wins[out.winner] += 1
        self.zimo[out.winner] += out.how == "zimo"
        if out.payer >= 0:
            self.fangpao[out.payer] += 1
        self.tianhu += out.tianhu
        self.dihu += out.dihu
        self.haidi += out.haidi
        self.fx += out.fanxing
        self.fx_sq += out.fanxing * out.fanxing
        self.fx_units += money.fanxing_units
        self.win_units += money.units + money.fanxing_units


def _play_chunk(v: Variant, key: int, size: int, policies: Sequence[str], sums: _Sums) -> None:
    """The reference engine, hand by hand (the twin of the kernel path)."""
    for j in range(size):
        game = Game(v, shuffled_deck(key, j), [POLICIES[x]() for x in policies], key, j)
        out = game.play()
        sums.add(out, settle(v, hand_result(game, out)))


def _add_rows(v: Variant, rows: np.ndarray, sums: _Sums) -> None:
    """Settle kernel outcome rows (``kernels.play`` O_* columns) and add them to ``sums``."""
    from ..kernels import play as kp

    n = len(rows)
    if n == 0:
        return
    win = rows[:, kp.O_WINNER]
    keys = np.stack([win, rows[:, kp.O_HOW], rows[:, kp.O_PAYER], rows[:, kp.O_HUXI],
                     rows[:, kp.O_RED], rows[:, kp.O_BIG], rows[:, kp.O_TOTAL] - rows[:, kp.O_BIG],
                     rows[:, kp.O_ALL_PUNGS], rows[:, kp.O_TIANHU], rows[:, kp.O_DIHU],
                     rows[:, kp.O_HAIDI], rows[:, kp.O_FANXING]], axis=1)
    keys[win < 0] = 0
    keys[win < 0, 0] = -1
    keys[win < 0, 2] = -1
    pay, units = settle_rows(v, keys)
    pay = pay[:, : sums.seats].astype(np.float64)
    sums.n += n
    sums.score += pay.sum(axis=0)
    sums.score_sq += (pay * pay).sum(axis=0)
    d = rows[:, kp.O_DRAWS].astype(np.float64)
    sums.draws += d.sum()
    sums.draws_sq += (d * d).sum()
    won = win >= 0
    sums.huang += int((~won).sum())
    sums.wins += np.bincount(win[won], minlength=sums.seats)[: sums.seats]
    zimo = won & (rows[:, kp.O_HOW] == kp.HOW_ZIMO)
    sums.zimo += np.bincount(win[zimo], minlength=sums.seats)[: sums.seats]
    payer = rows[:, kp.O_PAYER]
    sums.fangpao += np.bincount(payer[payer >= 0], minlength=sums.seats)[: sums.seats]
    for name, col in (("tianhu", kp.O_TIANHU), ("dihu", kp.O_DIHU), ("haidi", kp.O_HAIDI)):
        setattr(sums, name, getattr(sums, name) + int(rows[won, col].sum()))
    fx = rows[won, kp.O_FANXING].astype(np.float64)
    sums.fx += fx.sum()
    sums.fx_sq += (fx * fx).sum()
    sums.fx_units += float(units[won, 1].sum())
    sums.win_units += float(units[won].sum())


def _rate(variant: str, metric: str, seat: int | None, count: int, n: int) -> dict:
    lo, hi = wilson(count, n)
    return {"variant": variant, "metric": metric, "seat": seat, "count": int(count), "n": n,
            "rate": count / n if n else math.nan, "ci_low": lo, "ci_high": hi,
            "mean": None, "se": None, "sd": None}


def _mean(variant: str, metric: str, seat: int | None, total: float, total_sq: float,
          n: int) -> dict:
    mean, se = mean_se(total, total_sq, n)
    sd = se * math.sqrt(n) if n > 1 else math.nan
    return {"variant": variant, "metric": metric, "seat": seat, "count": n, "n": n,
            "rate": None, "ci_low": None, "ci_high": None, "mean": mean, "se": se, "sd": sd}


def summarize(variant: str, s: _Sums, threshold: int | None = None) -> pl.DataFrame:
    """Balance table: per seat win/自摸/放炮 shares (Wilson 95%), score mean ± SE and SD (the
    dealer's is the dealer edge, seat 0); per hand 荒庄, 天胡, 地胡, 海底 rates, 翻信 per win and
    its share of winners' units, hand length in draws (RULES.md §9)."""
    rows = []
    for seat in range(s.seats):
        rows.append(_rate(variant, "win", seat, s.wins[seat], s.n))
        rows.append(_rate(variant, "zimo", seat, s.zimo[seat], s.n))
        rows.append(_rate(variant, "fangpao", seat, s.fangpao[seat], s.n))
        rows.append(_mean(variant, "score", seat, s.score[seat], s.score_sq[seat], s.n))
    for name, count in (("huangzhuang", s.huang), ("tianhu", s.tianhu), ("dihu", s.dihu),
                        ("haidi", s.haidi)):
        rows.append(_rate(variant, name, None, count, s.n))
    wins = int(s.wins.sum())
    rows.append(_mean(variant, "fanxing_per_win", None, s.fx, s.fx_sq, wins))
    share = s.fx_units / s.win_units if s.win_units else math.nan
    rows.append({"variant": variant, "metric": "fanxing_share_of_win_units", "seat": None,
                 "count": wins, "n": wins, "rate": share, "ci_low": None, "ci_high": None,
                 "mean": None, "se": None, "sd": None})
    rows.append(_mean(variant, "draws_per_hand", None, s.draws, s.draws_sq, s.n))
    return pl.DataFrame(rows, schema=SCHEMA).with_columns(
        pl.lit(threshold, dtype=pl.Int64).alias("threshold"))


def simulate_hands(variant: str | os.PathLike | Variant, n: int, seed: int,
                   policies: str | Sequence[str] = "greedy", chunk_size: int | None = None,
                   threads: int | None = None, engine: str = "numba") -> pl.DataFrame:
    """Play and settle ``n`` hands of ``variant`` from ``seed`` with ``policies`` (one name for
    every seat, or one per seat: "greedy", "random"); returns the balance table (``summarize``).

    ``engine="numba"`` (default) plays with ``kernels.play`` over all cores (``threads``);
    ``"reference"`` with the readable ``play.engine`` (about 100 hands/s): both play the same
    hands move for move. Results depend on ``(variant, seed, n, chunk_size, policies)`` only.
    Raises ValueError for bad counts, seeds, policy or engine names; VariantError.
    """
    import numba

    from ..kernels import play as kp

    v = load_variant(variant)
    n, seed = check_count(n), check_seed(seed)
    cs = check_chunk_size(chunk_size if chunk_size is not None else DEFAULT_HAND_CHUNK)
    seats = v.layout.players
    pols = [policies] * seats if isinstance(policies, str) else list(policies)
    if len(pols) != seats or any(x not in POLICIES for x in pols):
        raise ValueError(f"policies must be one of {sorted(POLICIES)} or a list of {seats} of "
                         f"them, got {policies!r}")
    if engine not in ("numba", "reference"):
        raise ValueError(f"engine must be 'numba' or 'reference', got {engine!r}")
    sums = _Sums(seats)
    m = n_chunks(n, cs)
    if engine == "reference":
        keys, sizes = chunk_keys(seed, 0, m), chunk_sizes(n, cs, 0, m)
        for key, size in zip(keys, sizes):
            _play_chunk(v, int(key), int(size), pols, sums)
        return summarize(v.key, sums, v.win.threshold)
    codes = np.array([kp.POL_GREEDY if x == "greedy" else kp.POL_RANDOM for x in pols],
                     np.int64)
    th = numba.config.NUMBA_NUM_THREADS if threads is None else int(threads)
    if th < 1:
        raise ValueError(f"threads must be a positive integer, got {threads!r}")
    old = numba.get_num_threads()
    numba.set_num_threads(min(th, numba.config.NUMBA_NUM_THREADS))
    try:
        batch = 2 * numba.get_num_threads()
        for first in range(0, m, batch):
            k = min(batch, m - first)
            keys, sizes = chunk_keys(seed, first, k), chunk_sizes(n, cs, first, k)
            out = np.zeros((k, int(sizes.max()), kp.N_OUT), np.int64)
            kp.play_chunks(keys, sizes, v.params, int(v.win.choupai_win), codes, out)
            for c in range(k):  # chunk order: sums are exact and thread-independent
                _add_rows(v, out[c, : sizes[c]], sums)
    finally:
        numba.set_num_threads(old)
    return summarize(v.key, sums, v.win.threshold)
