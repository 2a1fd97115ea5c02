"""Deal-time tables: 天胡 and 地胡 rates by variant and threshold, and how an estimate converges
(RULES.md §6, §9), from ``simulate_deals``."""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence

import numba
import numpy as np
import polars as pl

from zipai_sim.deals.simulate import (
    BATCH_DEALS,
    SUMMARY_SCHEMA,
    SimResult,
    deal_runs,
    simulate_deals,
)
from zipai_sim.game import params as p
from zipai_sim.game.variants import Variant, load_variant
from zipai_sim.kernels import opening as ko
from zipai_sim.report import DEFAULT_SEED, ReportFrame
from zipai_sim.runs.chunks import (
    check_chunk_size,
    check_column_seed,
    check_count,
    check_threads,
    chunk_keys,
    chunk_sizes,
)
from zipai_sim.runs.driver import run_batches

VariantLike = str | os.PathLike | Variant

#: the metrics ``deal_table`` keeps by default (``simulate_deals`` summary names)
DEAL_METRICS = ("tianhu", "tianhu_complete", "tianhu_santi", "tianhu_wukan", "dihu")

DEAL_SCHEMA = {"variant": pl.String, "rules_hash": pl.String, "threshold": pl.Int64,
               "seed": pl.UInt64, **SUMMARY_SCHEMA}

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
               threads: int | None = None, progress: bool = False,
               client: object = None) -> pl.DataFrame:
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

    The runs go in lockstep (``runs.run_parts``): Ctrl-C keeps the same finished deals in
    every run (the header says PARTIAL). ``client``: a ``dask.distributed.Client`` whose
    workers deal the chunks (the same table, bit for bit).

    Raises ValueError (bad ``n``, thresholds, unknown metric; a seed outside 0 … 2**64−1, the
    range of the seed column) and VariantError.
    """
    seed = check_column_seed(seed, "a table")
    runs = _runs(_variants(variants), thresholds)
    n = check_count(n)
    cs = check_chunk_size(chunk_size)
    results = deal_runs(runs, n, seed, check_threads(threads), cs, progress=progress,
                        client=client)
    frames = []
    for v, r in zip(runs, results):
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
    r = results[0]  # every run stopped at the same chunk (runs.run_parts)
    run = {"variants": [(v.key, v.rules_hash) for v in runs],
           "thresholds": [v.win.threshold for v in runs], "seed": r.seed, "n": r.n,
           "n_requested": n, "partial": r.partial, "chunk_size": r.chunk_size,
           "threads": r.threads, "seconds": r.seconds, "workers": r.workers}
    return ReportFrame.wrap(pl.concat(frames).cast(DEAL_SCHEMA), run)  # type: ignore[arg-type]


def convergence_points(n: int, points: int = 12, start: int = 1000) -> list[int]:
    """The values of n ``convergence_table`` reports: ``points`` spaced evenly in log from
    ``start`` to ``n``, rounded, without repeats (``[n]`` for one point); ``[0]`` for
    ``n = 0``.

    >>> convergence_points(1_000_000, 4, 1000)
    [1000, 10000, 100000, 1000000]

    Raises ValueError for ``points < 1`` or ``start < 1``.
    """
    if points < 1 or start < 1:
        raise ValueError(f"points and start must be ≥ 1, got {points}, {start}")
    if not n:
        return [0]
    if points == 1:  # the run itself (geomspace would give the start alone)
        return [n]
    start = min(start, n)
    return sorted({round(float(x)) for x in np.geomspace(start, n, points)})


def _prefix_part(v: Variant, n: int, seed: int, cs: int, ns: list[int]) -> tuple:
    """``(work, add, state)`` of a deal run of ``n`` that also keeps the totals after the first
    ``m`` deals for every ``m`` in ``ns`` (``runs.run_batches``). A deal's cards depend on
    ``(seed, chunk_size, index)`` only, so the first ``m`` deals are whole chunks plus the head
    of chunk ``m // cs``, dealt again with size ``m % cs``: one run of ``n`` and at most
    ``len(ns)`` partial chunks, not a fresh run per point."""
    P = v.params

    def owner(m: int) -> int:  # the chunk whose batch completes the first m deals
        return m // cs if m % cs else m // cs - 1

    def work(first: int, k: int) -> tuple:
        sizes = chunk_sizes(n, cs, first, k)
        c_out = np.zeros((k, ko.N_COUNTS), np.int64)
        h_out = np.zeros((k, ko.HIST), np.int64)
        ko.analyze_chunks(chunk_keys(seed, first, k), sizes, P, c_out, h_out, 0,
                          np.zeros((k, 0, ko.N_SAMPLE), np.int64))
        snaps = []
        for m in ns:
            q, r = divmod(m, cs)
            if m and first <= owner(m) < first + k:
                c, h = c_out[: q - first].sum(0), h_out[: q - first].sum(0)
                if r:  # the head of chunk q, dealt again at size r: its first r deals
                    c1, h1 = np.zeros((1, ko.N_COUNTS), np.int64), np.zeros((1, ko.HIST),
                                                                           np.int64)
                    ko.analyze_chunks(chunk_keys(seed, q, 1), np.array([r], np.int64), P, c1,
                                      h1, 0, np.zeros((1, 0, ko.N_SAMPLE), np.int64))
                    c, h = c + c1[0], h + h1[0]
                snaps.append((m, c, h))
        return c_out.sum(0), h_out.sum(0), snaps

    def add(state: tuple, got: tuple) -> tuple:
        c, h, snaps = state
        return (c + got[0], h + got[1],
                snaps + tuple((m, c + dc, h + dh) for m, dc, dh in got[2]))

    zero = (0, np.zeros(ko.N_COUNTS, np.int64), np.zeros(ko.HIST, np.int64))
    return work, add, (np.zeros(ko.N_COUNTS, np.int64), np.zeros(ko.HIST, np.int64),
                       (zero,) if 0 in ns else ())


def convergence_table(variant: VariantLike, metric: str = "tianhu", n: int = 1_000_000,
                      seed: int = DEFAULT_SEED, points: int = 12, start: int = 1000,
                      chunk_size: int | None = None, threads: int | None = None,
                      progress: bool = False, client: object = None) -> pl.DataFrame:
    """How an estimate settles as deals accumulate: ``metric`` (a ``simulate_deals`` rate, e.g.
    ``tianhu``, ``dihu``) after the first ``n_k`` deals, ``points`` values of ``n_k`` spaced
    evenly in log from ``start`` to ``n``.

    One run of ``n`` deals (same seed and chunk size: ``zipai_sim.runs.chunks``) read at each
    ``n_k``, so the rows are one growing sample and each equals ``simulate_deals(variant,
    n_k, seed)``. Returns ``variant, threshold, seed, metric, deals`` (``n_k``), ``count, n``
    (the rate's denominator, as in ``simulate_deals``' summary: the deals for a per-deal
    rate, the complete dealer hands for ``dealer_huxi_H``, the 天胡 and 地胡 for
    ``fanxing_K``, the 天胡 for ``fanxing_tianhu_K``), ``rate, ci_low, ci_high`` (Wilson 95%)
    and ``width`` (``ci_high - ci_low``, which shrinks about as 1/√n).
    Ctrl-C keeps the rows whose ``n_k`` was reached (the header says PARTIAL); ``client``
    as in ``deal_table``.

    Raises ValueError for a metric that is not a rate, ``points < 1`` or ``start < 1``, a seed
    outside 0 … 2**64−1 (the ``seed`` column is UInt64).
    """
    v = load_variant(variant)
    seed = check_column_seed(seed, "a table")
    n = check_count(n)
    cs = check_chunk_size(chunk_size)
    th = check_threads(threads)
    ns = convergence_points(n, points, start)
    # the rate names (a 0-deal run has every row but the 胡息 distribution's), checked first
    names = simulate_deals(v, 0, seed, progress=False).summary.filter(
        pl.col("rate").is_not_null())["metric"].to_list()
    if metric not in names and not metric.startswith("dealer_huxi_"):
        raise ValueError(f"metric {metric!r} is not a rate of simulate_deals; the rates are "
                         f"{', '.join(names)} and dealer_huxi_H (H: a 胡息 value)")
    t0 = time.perf_counter()
    old = numba.get_num_threads()
    numba.set_num_threads(th)
    try:
        run = run_batches(n, cs, max(4 * th, BATCH_DEALS // cs), *_prefix_part(v, n, seed, cs,
                          ns), unit="deal", desc=v.key, progress=progress,
                          kernels=(ko.analyze_chunks,),
                          identity={"what": "convergence", "variants": [v.key],
                                    "rules_hash": [v.rules_hash], "seed": str(seed),
                                    "thresholds": [v.win.threshold], "points": ns},
                          client=client)
    finally:
        numba.set_num_threads(old)
    P, rows = v.params, []
    for m, c, h in run.state[2]:
        r = SimResult(v.key, v.rules_hash, seed, m, m, cs, False, P[p.SEATS],
                      P[p.FANXING] == 1, c, h, threshold=v.win.threshold)
        s = r.summary.filter(metric=metric)
        if s.height == 0 or s["rate"][0] is None and m:
            raise ValueError(f"metric {metric!r} is not a rate of simulate_deals")
        x = s.row(0, named=True)
        rows.append({"variant": v.key, "threshold": v.win.threshold, "seed": seed,
                     "metric": metric, "deals": m, "count": x["count"], "n": x["n"],
                     "rate": x["rate"], "ci_low": x["ci_low"], "ci_high": x["ci_high"],
                     "width": (x["ci_high"] - x["ci_low"]) if x["n"] else math.nan})
    df = pl.DataFrame(rows, schema={"variant": pl.String, "threshold": pl.Int64,
                                    "seed": pl.UInt64, "metric": pl.String, "deals": pl.Int64,
                                    "count": pl.Int64, "n": pl.Int64, "rate": pl.Float64,
                                    "ci_low": pl.Float64, "ci_high": pl.Float64,
                                    "width": pl.Float64})
    head = {"variants": [(v.key, v.rules_hash)], "thresholds": [v.win.threshold],
            "seed": seed, "n": run.done, "n_requested": n, "partial": run.partial,
            "chunk_size": cs, "threads": th, "seconds": time.perf_counter() - t0,
            "workers": run.workers,
            "extra": [f"{metric} after {len(rows)} number{'s' * (len(rows) != 1)} of deals"]}
    return ReportFrame.wrap(df, head)
