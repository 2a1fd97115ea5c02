"""Deal-time tables: 天胡 and 地胡 rates by variant and threshold, and how an estimate converges
(RULES.md §6, §9), from ``simulate_deals``."""

from __future__ import annotations

import math
import os
from collections.abc import Sequence

import numpy as np
import polars as pl

from ..report import DEFAULT_SEED, ReportFrame
from ..simulate import SUMMARY_SCHEMA, simulate_deals
from ..variants import Variant, load_variant

VariantLike = str | os.PathLike | Variant

#: the metrics ``deal_table`` keeps by default (``simulate_deals`` summary names)
DEAL_METRICS = ("tianhu", "tianhu_complete", "tianhu_santi", "tianhu_wukan", "dihu")

DEAL_SCHEMA = {"variant": pl.String, "rules_hash": pl.String, "threshold": pl.Int64,
               "seed": pl.UInt64, **SUMMARY_SCHEMA}

#: the seeds a table takes: its ``seed`` column is UInt64 (the command line's 0 … 2**64−1)
MAX_TABLE_SEED = (1 << 64) - 1


def _table_seed(seed: object) -> int:
    """``seed`` checked (``chunks.check_seed``) and within a UInt64 column, or ValueError."""
    from ..chunks import check_seed

    seed = check_seed(seed)
    if seed > MAX_TABLE_SEED:
        raise ValueError(f"seed must be in 0..2**64-1 for a table (its seed column is "
                         f"UInt64), got {seed}")
    return seed


def _variants(variants: VariantLike | Sequence[VariantLike]) -> list[Variant]:
    if isinstance(variants, (str, os.PathLike, Variant)):
        variants = [variants]
    out = [load_variant(v) for v in variants]
    if not out:
        raise ValueError("give at least one variant")
    return out


def _runs(variants: list[Variant], thresholds: Sequence[int] | str | None) -> list[Variant]:
    """Each variant at each threshold: its own (None), its customary list ("customary", e.g.
    大字牌 15/20/25/30 油), or the given ones (``Variant.with_threshold``)."""
    if thresholds is None:
        return variants
    if isinstance(thresholds, str):
        if thresholds != "customary":
            raise ValueError(f"thresholds must be a list of integers, None or 'customary', "
                             f"got {thresholds!r}")
        return [v.with_threshold(t) for v in variants for t in v.win.thresholds]
    ts = list(thresholds)
    if not ts:
        raise ValueError("thresholds is empty")
    return [v.with_threshold(t) for v in variants for t in ts]


def deal_table(variants: VariantLike | Sequence[VariantLike], n: int = 1_000_000,
               seed: int = DEFAULT_SEED,
               thresholds: Sequence[int] | str | None = None,
               metrics: Sequence[str] | None = DEAL_METRICS, chunk_size: int | None = None,
               threads: int | None = None, progress: bool = False) -> pl.DataFrame:
    """天胡 and 地胡 rates (RULES.md §6, §9) of ``n`` deals per variant and threshold.

    ``thresholds``: None (each variant's own), a list of 起胡 values applied to every variant
    (``Variant.with_threshold``; in 胡息, 油 for 大字牌, 胡 for 六胡倒), or ``"customary"`` (each
    variant's ``[win].thresholds``: 15/20/25/30 油 for guangxi-dazipai). Every run deals the
    same decks (same ``seed``), so thresholds differ by the rule alone (common random numbers).

    Returns one row per variant, threshold and metric: ``variant`` (String), ``rules_hash``,
    ``threshold`` (Int64), ``seed`` (UInt64), ``metric`` (``DEAL_METRICS`` by default: ``tianhu`` =
    ``tianhu_complete`` + ``tianhu_santi`` + ``tianhu_wukan``, and ``dihu``, the §9 亮张
    definition; ``metrics=None`` keeps every ``simulate_deals`` summary row, 翻信 included),
    ``count`` and ``n`` (Int64), ``rate`` with its Wilson 95% ``ci_low``/``ci_high``
    (Float64), ``mean``/``se`` (only for ``fanxing_mean``).

    >>> t = deal_table("guangxi-dazipai", n=2000, seed=1, thresholds=[15, 30])
    >>> t.filter(metric="tianhu").select("threshold", "count", "n").rows()
    [(15, 2, 2000), (30, 0, 2000)]

    Raises ValueError (bad ``n``, thresholds, unknown metric; a seed outside 0 … 2**64−1, the
    range of the seed column) and VariantError.
    """
    seed = _table_seed(seed)
    runs = _runs(_variants(variants), thresholds)
    frames, seconds = [], 0.0
    for v in runs:
        r = simulate_deals(v, n, seed, threads=threads, chunk_size=chunk_size,
                           progress=progress)
        seconds += r.seconds
        s = r.summary
        if metrics is not None:
            unknown = sorted(set(metrics) - set(s["metric"].to_list()))
            if unknown:
                raise ValueError(f"unknown metric(s) {unknown}; simulate_deals reports "
                                 f"{s['metric'].to_list()[:14]} …")
            s = s.filter(pl.col("metric").is_in(list(metrics)))
        frames.append(s.select(pl.lit(v.key).alias("variant"),
                               pl.lit(v.rules_hash).alias("rules_hash"),
                               pl.lit(v.win.threshold, pl.Int64).alias("threshold"),
                               pl.lit(r.seed, pl.UInt64).alias("seed"), pl.all()))
    run = {"variants": [(v.key, v.rules_hash) for v in runs],
           "thresholds": [v.win.threshold for v in runs], "seed": r.seed, "n": n,
           "chunk_size": r.chunk_size, "threads": r.threads, "seconds": seconds}
    return ReportFrame.wrap(pl.concat(frames).cast(DEAL_SCHEMA), run)  # type: ignore[arg-type]


def convergence_points(n: int, points: int = 12, start: int = 1000) -> list[int]:
    """The values of n ``convergence_table`` runs: ``points`` spaced evenly in log from ``start``
    to ``n``, rounded, without repeats; ``[0]`` for ``n = 0``. Each is dealt afresh, so the work
    is their sum (about 2×n at 12 points, 15×n at 100 from 1000 to 10⁶).

    >>> convergence_points(1_000_000, 4, 1000)
    [1000, 10000, 100000, 1000000]

    Raises ValueError for ``points < 1`` or ``start < 1``.
    """
    if points < 1 or start < 1:
        raise ValueError(f"points and start must be ≥ 1, got {points}, {start}")
    if not n:
        return [0]
    start = min(start, n)
    return sorted({round(float(x)) for x in np.geomspace(start, n, points)})


def convergence_table(variant: VariantLike, metric: str = "tianhu", n: int = 1_000_000,
                      seed: int = DEFAULT_SEED, points: int = 12, start: int = 1000,
                      chunk_size: int | None = None,
                      threads: int | None = None) -> pl.DataFrame:
    """How an estimate settles as deals accumulate: ``metric`` (a ``simulate_deals`` rate, e.g.
    ``tianhu``, ``dihu``) after the first ``n_k`` deals, ``points`` values of ``n_k`` spaced
    evenly in log from ``start`` to ``n``.

    A run of ``n_k`` deals is the first ``n_k`` deals of the run of ``n`` (same seed and chunk
    size; ``zipai_sim.chunks``), so the rows are one growing sample. Returns ``variant,
    threshold, seed, metric, n, count, rate, ci_low, ci_high`` (Wilson 95%) and ``width``
    (``ci_high - ci_low``, which shrinks about as 1/√n).

    Raises ValueError for a metric that is not a rate, ``points < 1`` or ``start < 1``, a seed
    outside 0 … 2**64−1 (the ``seed`` column is UInt64).
    """
    v = load_variant(variant)
    seed = _table_seed(seed)
    ns = convergence_points(n, points, start)
    # the rate names (a 0-deal run has every row but the 胡息 distribution's), checked first
    names = simulate_deals(v, 0, seed, progress=False).summary.filter(
        pl.col("rate").is_not_null())["metric"].to_list()
    if metric not in names and not metric.startswith("dealer_huxi_"):
        raise ValueError(f"metric {metric!r} is not a rate of simulate_deals; the rates are "
                         f"{', '.join(names)}")
    rows, seconds = [], 0.0
    for m in ns:
        r = simulate_deals(v, m, seed, threads=threads, chunk_size=chunk_size, progress=False)
        seconds += r.seconds
        s = r.summary.filter(metric=metric)
        if s.height == 0 or s["rate"][0] is None and m:
            raise ValueError(f"metric {metric!r} is not a rate of simulate_deals")
        x = s.row(0, named=True)
        rows.append({"variant": v.key, "threshold": v.win.threshold, "seed": seed,
                     "metric": metric, "n": m, "count": x["count"], "rate": x["rate"],
                     "ci_low": x["ci_low"], "ci_high": x["ci_high"],
                     "width": (x["ci_high"] - x["ci_low"]) if m else math.nan})
    df = pl.DataFrame(rows, schema={"variant": pl.String, "threshold": pl.Int64,
                                    "seed": pl.UInt64, "metric": pl.String, "n": pl.Int64,
                                    "count": pl.Int64, "rate": pl.Float64,
                                    "ci_low": pl.Float64, "ci_high": pl.Float64,
                                    "width": pl.Float64})
    run = {"variants": [(v.key, v.rules_hash)], "thresholds": [v.win.threshold], "seed": seed,
           "n": n, "chunk_size": r.chunk_size, "threads": r.threads, "seconds": seconds,
           "extra": [f"{metric} at {len(ns)} values of n"]}
    return ReportFrame.wrap(df, run)
