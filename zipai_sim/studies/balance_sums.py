"""The mergeable totals of a balance run (``Sums``: exact per-seat and per-hand sums, merged
chunk by chunk), settled kernel rows added to them (``add_rows``) and the balance table they
give (``summarize``: shares with Wilson 95% intervals, means ± SE; RULES.md §7, §9)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl

from zipai_sim.game.variants import Variant
from zipai_sim.play.payoffs import OutcomeCache, settle_outcomes
from zipai_sim.runs.checkpoint import register
from zipai_sim.stats import mean_se, wilson

SCHEMA = {"variant": pl.String, "metric": pl.String, "seat": pl.Int64, "count": pl.Int64,
          "n": pl.Int64, "rate": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
          "mean": pl.Float64, "se": pl.Float64, "sd": pl.Float64}


@register
@dataclass
class Sums:
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

    def merged(self, other: Sums) -> Sums:
        """A new total of both, neither changed, so a batch joins a run in one assignment
        (``runs.run_batches``). Every float here is a sum of whole numbers (payments, draws,
        翻信), exact below 2**53, so the grouping into batches does not change a result."""
        out = Sums(self.seats)
        for name, x in vars(self).items():
            if name != "seats":
                setattr(out, name, x + getattr(other, name))
        return out

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
        for c in out.cowinners:  # a shared win at the deal: every winner wins (RULES.md §6)
            self.wins[c.seat] += 1
            self.zimo[c.seat] += 1
            self.fx += c.fanxing
            self.fx_sq += c.fanxing * c.fanxing
        self.fx_units += money.fanxing_units
        self.win_units += money.units + money.fanxing_units


def add_rows(v: Variant, rows: np.ndarray, sums: Sums,
              cache: OutcomeCache | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Settle kernel outcome rows and add them to ``sums``; returns ``settle_outcomes``."""
    from zipai_sim.kernels import play as kp

    n = len(rows)
    if n == 0:
        return np.zeros((0, 0), np.int64), np.zeros((0, 2), np.int64)
    win = rows[:, kp.O_WINNER]
    pay_all, units = settle_outcomes(v, rows, cache)
    pay = pay_all[:, : sums.seats].astype(np.float64)
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
    for q in range(kp.MAX_CO):  # the other winners of shared wins at the deal (RULES.md §6)
        b = kp.O_CO + q * kp.CO_COLS
        seat = rows[:, b + kp.CO_SEAT]
        co = seat >= 0
        if co.any():
            sums.wins += np.bincount(seat[co], minlength=sums.seats)[: sums.seats]
            sums.zimo += np.bincount(seat[co], minlength=sums.seats)[: sums.seats]
            cfx = rows[co, b + kp.CO_FANXING].astype(np.float64)
            sums.fx += cfx.sum()
            sums.fx_sq += (cfx * cfx).sum()
    sums.fx_units += float(units[won, 1].sum())
    sums.win_units += float(units[won].sum())
    return pay_all, units


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


def summarize(variant: str, s: Sums, threshold: int | None = None) -> pl.DataFrame:
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
