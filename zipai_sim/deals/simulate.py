"""``simulate_deals``: millions of deals scored at the deal, aggregated per chunk (RULES.md §9).

Chunks are the unit of work, randomness and bookkeeping (``zipai_sim.runs.chunks``): a batch of
chunks runs in one parallel kernel call, each chunk adds into its own row of counts, and rows
are summed in chunk order, so the result is bit-identical for any thread count. A batch is
about ``BATCH_DEALS`` deals (at least ``4 × threads`` chunks): each kernel call waits for its
slowest thread, which on a busy machine can cost milliseconds, so calls are few. Memory is flat
in ``n``. Ctrl-C between batches stops the run and keeps every finished chunk.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field

import numba
import numpy as np
import polars as pl

from zipai_sim.game import params as p
from zipai_sim.game.variants import Variant, load_variant
from zipai_sim.kernels import opening as ko
from zipai_sim.report import DEFAULT_SEED, Report, check_per, header, metric_view, sig
from zipai_sim.runs.chunks import (
    check_chunk_size,
    check_count,
    check_seed,
    check_threads,
    chunk_keys,
    chunk_sizes,
)
from zipai_sim.runs.driver import cold, compile_note, cons_list, run_parts
from zipai_sim.stats import mean_se, wilson
from zipai_sim.version import __version__

SUMMARY_SCHEMA = {"metric": pl.String, "count": pl.Int64, "n": pl.Int64, "rate": pl.Float64,
                  "ci_low": pl.Float64, "ci_high": pl.Float64, "mean": pl.Float64,
                  "se": pl.Float64}
_TIANHU = {0: "", 1: "complete", 2: "santi", 3: "wukan"}
BATCH_DEALS = 1 << 21  # deals per kernel call (whole chunks): ~0.2 s of work on 2 threads
_threads_started = False  # numba's thread pool has run a parallel loop in this process


@dataclass
class SimResult:
    """Totals of a ``simulate_deals`` run, with the run's identity.

    counts: int64[N_COUNTS] (columns in ``zipai_sim.kernels.opening``); huxi_hist: int64[128],
    胡息 of complete dealer hands; rows: sampled per-deal rows or None. ``n`` is the number of
    deals done (less than ``n_requested`` when ``partial``).
    """

    variant: str
    rules_hash: str
    seed: int
    n: int
    n_requested: int
    chunk_size: int
    partial: bool
    seats: int
    fanxing: bool
    counts: np.ndarray
    huxi_hist: np.ndarray
    rows: pl.DataFrame | None = None
    seconds: float = 0.0  # the run's wall time, without numba's one-time thread start-up
    threads: int = 1
    threshold: int | None = None  # the variant's 起胡 threshold for this run (胡息)
    resumed: int = 0  # deals read back from a checkpoint (``checkpoint``), not dealt here
    workers: int | None = None  # the Dask workers the run went to (None: local threads)
    _summary: pl.DataFrame | None = field(default=None, repr=False)

    def report(self, per: int | None = None) -> Report:
        """What ``zipai-sim simulate`` prints: the header line (variant, rules hash, threshold,
        seed, n, chunk size, threads, seconds), the summary with rates per 10,000 deals (shares
        of a part in %; ``per`` puts all on one scale: 10000, 1000, 100, 1) and their Wilson 95%
        intervals, and the 胡息 distribution of complete dealer hands. Raises ValueError for a
        ``per`` that is not a power of ten."""
        per = check_per(per)
        speed = (self.n - self.resumed) / max(self.seconds, 1e-9)
        extra = [f"({speed:,.0f} deals/s, " + ("the workers' start-up counted)" if self.workers
                                                else "thread start-up and compiling not counted)")]
        if self.resumed:
            extra.append(f"{self.resumed:,} deals resumed from a checkpoint")
        if self.partial:
            extra.append(f"PARTIAL: interrupted after {self.n:,} of {self.n_requested:,} deals")
        head = header([(self.variant, self.rules_hash)], [self.threshold], seed=self.seed,
                      n=self.n, chunk_size=self.chunk_size, threads=self.threads,
                      seconds=self.seconds, extra=extra, workers=self.workers)
        s = self.summary.filter(~pl.col("metric").str.starts_with("dealer_huxi_"))
        dist = self.huxi_distribution
        notes = ["胡息 of complete dealer hands (% of them): " + ", ".join(
            f"{h}: {sig(100 * rate, 3)}" for h, rate in zip(dist["huxi"], dist["rate"]))
            ] if dist.height else []
        return Report(head, metric_view(s, per), notes)

    def _repr_html_(self) -> str:
        return self.report()._repr_html_()

    @property
    def metadata(self) -> dict[str, str]:
        """Parquet key-value metadata identifying the run."""
        return {"variant": self.variant, "rules_hash": self.rules_hash, "seed": str(self.seed),
                "n": str(self.n), "n_requested": str(self.n_requested),
                "chunk_size": str(self.chunk_size), "partial": str(self.partial).lower(),
                "zipai_sim_version": __version__}

    @property
    def summary(self) -> pl.DataFrame:
        """One row per metric: ``metric, count, n, rate, ci_low, ci_high`` (Wilson 95%) for
        rates; ``mean, se`` for ``fanxing_mean`` (翻信 units given a 天胡 or 地胡)."""
        if self._summary is None:
            self._summary = _summarize(self)
        return self._summary

    @property
    def huxi_distribution(self) -> pl.DataFrame:
        """胡息 of complete dealer hands: ``huxi, count, n, rate, ci_low, ci_high`` (the row
        ``huxi = 127`` counts 127 and more)."""
        return (self.summary.filter(pl.col("metric").str.starts_with("dealer_huxi_"))
                .with_columns(pl.col("metric").str.strip_prefix("dealer_huxi_")
                              .str.strip_suffix("plus").cast(pl.Int64)
                              .alias("huxi")).drop("metric", "mean", "se")
                .select("huxi", "count", "n", "rate", "ci_low", "ci_high"))

    def to_parquet(self, path: str | os.PathLike, rows: bool = False) -> None:
        """Write the summary (and the sampled rows as ``PATH.rows.parquet`` if asked) with the
        run metadata; each file is written to a temporary name and renamed, so an interrupted
        write never leaves a half file under ``path``. Raises OSError if it cannot be written."""
        from zipai_sim.runs.io import write_parquet

        write_parquet(self.summary, path, self.metadata)
        if rows and self.rows is not None:
            base = os.fspath(path)
            stem = base.removesuffix(".parquet")
            write_parquet(self.rows, stem + ".rows.parquet", self.metadata)


def _rate(metric: str, count: int, n: int) -> dict:
    lo, hi = wilson(count, n)
    return {"metric": metric, "count": int(count), "n": int(n),
            "rate": count / n if n else math.nan, "ci_low": lo, "ci_high": hi,
            "mean": None, "se": None}


def _fanxing_rows(c: np.ndarray, name: str, col: int) -> list[dict]:
    """``NAME_mean`` (± SE) and the rates of values 0..4+ from a 翻信 block of the count row:
    wins, sum, sum of squares, then the five value counts, from column ``col``."""
    wins = int(c[col])
    mean, se = mean_se(float(c[col + 1]), float(c[col + 2]), wins)
    rows = [{"metric": f"{name}_mean", "count": wins, "n": wins, "rate": None, "ci_low": None,
             "ci_high": None, "mean": mean, "se": se}]
    for k in range(5):
        rows.append(_rate(f"{name}_{k}" if k < 4 else f"{name}_4plus", c[col + 3 + k], wins))
    return rows


def _summarize(r: SimResult) -> pl.DataFrame:
    c, n = r.counts, r.n
    rows = [_rate(name, c[col], n) for name, col in (
        ("tianhu", ko.C_TIANHU), ("tianhu_complete", ko.C_TIANHU_COMPLETE),
        ("tianhu_santi", ko.C_TIANHU_SANTI), ("tianhu_wukan", ko.C_TIANHU_WUKAN),
        ("tianhu_extra_card", ko.C_TIANHU_EXTRA), ("dihu", ko.C_DIHU),
        ("instant_nondealer", ko.C_INSTANT_NONDEALER), ("dealer_two_ti", ko.C_DEALER_TWO_TI),
        ("dealer_complete", ko.C_DEALER_COMPLETE))]
    for s in range(1, r.seats):
        rows.append(_rate(f"dihu_seat{s}", c[ko.C_DIHU_SEAT + s], n))
    for s in range(r.seats):
        rows.append(_rate(f"santi_seat{s}", c[ko.C_SANTI_SEAT + s], n))
        rows.append(_rate(f"wukan_seat{s}", c[ko.C_WUKAN_SEAT + s], n))
        rows.append(_rate(f"two_ti_seat{s}", c[ko.C_TWO_TI_SEAT + s], n))
    if r.fanxing:
        rows += _fanxing_rows(c, "fanxing", ko.C_FX_WINS)
        rows += _fanxing_rows(c, "fanxing_tianhu", ko.C_FXT_WINS)
    complete = int(c[ko.C_DEALER_COMPLETE])
    for h in np.nonzero(r.huxi_hist)[0]:
        # the last bin holds every 胡息 from HIST - 1 up (only custom point tables reach it)
        name = f"dealer_huxi_{int(h)}" + ("plus" if h == ko.HIST - 1 else "")
        rows.append(_rate(name, r.huxi_hist[h], complete))
    return pl.DataFrame(rows, schema=SUMMARY_SCHEMA)


def simulate_deals(variant: str | os.PathLike | Variant, n: int = 1_000_000,
                   seed: int = DEFAULT_SEED,
                   threads: int | None = None, chunk_size: int | None = None,
                   sample_per_chunk: int = 0, progress: bool | None = None,
                   client: object = None) -> SimResult:
    """Deal ``n`` hands of ``variant`` and measure 天胡, 地胡, instant wins, two 提 and 翻信.

    Reproducible from ``(variant, seed, n, chunk_size)`` (default seed 20261129, as on the
    command line: ``report.DEFAULT_SEED``); identical for any ``threads`` (default: all cores).
    ``sample_per_chunk`` keeps the first deals of each chunk as rows (deal index, 亮张, 天胡
    kind, dealer 胡息, 地胡 seat, 翻信); ``deal(n, variant, seed)`` re-creates their cards.
    ``client``: a ``dask.distributed.Client`` whose workers deal the chunks (the same result,
    bit for bit; ``runs.run_batches``).
    A progress bar appears after two seconds unless ``progress=False``. On Ctrl-C the finished
    chunks are returned with ``partial=True``. ``seconds`` times the run itself: the
    first parallel call of a process starts numba's threads (≈ 0.3 s), and the first run on a
    cold cache compiles the kernel (about half a minute on 2 cores), both before the clock.

    Metrics (RULES.md §6, §7.3, §9): ``tianhu`` = ``tianhu_complete`` + ``tianhu_santi`` +
    ``tianhu_wukan`` (the dealer's 21 cards win at once; ``tianhu_extra_card`` is the part of
    ``tianhu_complete`` won on the two-提 extra card); ``dihu`` (no 天胡, and a non-dealer's
    20 + the 亮张 win, the §9 definition, measured for every variant); ``instant_nondealer``;
    ``dealer_two_ti``; per-seat 三提/五坎/two-提 shapes; ``fanxing_mean`` (units per 天胡/地胡)
    and ``fanxing_tianhu_mean`` (per 天胡, with its distribution ``fanxing_tianhu_K``);
    the 胡息 distribution of complete dealer hands (``dealer_huxi_H``).

    >>> r = simulate_deals("guangxi-81", 2000, seed=1, progress=False)
    >>> r.summary.filter(metric="tianhu").select("count", "n").row(0)   # 2 天胡 in 2,000 deals
    (2, 2000)
    >>> [round(x, 5) for x in r.summary.filter(metric="tianhu").select("ci_low", "ci_high").row(0)]
    [0.00027, 0.00364]

    Raises ValueError for a negative ``n``, a bad seed, thread count or chunk size;
    VariantError for an unknown variant.
    """
    v = load_variant(variant)
    n = check_count(n)
    seed = check_seed(seed)
    cs = check_chunk_size(chunk_size)
    sample_per_chunk = check_count(sample_per_chunk, "sample_per_chunk")
    return deal_runs([v], n, seed, check_threads(threads), cs, sample_per_chunk, progress,
                     client)[0]


def deal_runs(variants: list[Variant], n: int, seed: int, threads: int, chunk_size: int,
              sample_per_chunk: int = 0, progress: bool | None = None,
              client: object = None) -> list[SimResult]:
    """``simulate_deals`` of several variants (or thresholds) on the same ``n`` decks, in
    lockstep (``runs.run_parts``): a Ctrl-C leaves every run with the same finished chunks.
    Arguments already checked (``simulate_deals`` checks them)."""
    cs, th = chunk_size, threads
    batch = max(4 * th, BATCH_DEALS // cs)
    k = min(sample_per_chunk, cs)
    parts = [_deal_part(v, n, seed, cs, k) for v in variants]
    identity = {"what": "deals", "variants": [v.key for v in variants],
                "rules_hash": [v.rules_hash for v in variants],
                "thresholds": [v.win.threshold for v in variants], "seed": str(seed),
                "sample_per_chunk": k}
    old_threads = numba.get_num_threads()
    numba.set_num_threads(th)
    _start_threads()
    if client is None and cold(ko.analyze_chunks):  # compile (half a minute) before the clock
        compile_note(ko.analyze_chunks, progress=progress)
        for work, _, _ in parts:
            work(0, 0)
    t0 = time.perf_counter()
    try:
        run = run_parts(n, cs, batch, parts, unit="deal",
                        desc=variants[0].key if len(variants) == 1 else "",
                        progress=progress, kernels=(ko.analyze_chunks,), identity=identity,
                        client=client)
    finally:
        numba.set_num_threads(old_threads)
    seconds = time.perf_counter() - t0
    out = []
    for v, (counts, hist, cells) in zip(variants, run.state):
        rows = _rows_frame(cons_list(cells)) if sample_per_chunk else None
        P = v.params
        out.append(SimResult(v.key, v.rules_hash, seed, run.done, n, cs, run.partial,
                             P[p.SEATS], P[p.FANXING] == 1, counts, hist, rows, seconds, th,
                             v.win.threshold, run.resumed, run.workers))
    return out


def _deal_part(v: Variant, n: int, seed: int, cs: int, k: int) -> tuple:
    """``(work, add, state)`` of one variant's deal run (``runs.run_parts``)."""
    P = v.params

    def work(first: int, m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        sizes = chunk_sizes(n, cs, first, m)
        c_out = np.zeros((m, ko.N_COUNTS), np.int64)
        h_out = np.zeros((m, ko.HIST), np.int64)
        s_out = np.full((m, k, ko.N_SAMPLE), -2, np.int64)
        ko.analyze_chunks(chunk_keys(seed, first, m), sizes, P, c_out, h_out, k, s_out)
        if not k:
            return c_out.sum(0), h_out.sum(0), None
        s_out[:, :, ko.S_DEAL] += (np.arange(first, first + m) * cs)[:, None]
        return c_out.sum(0), h_out.sum(0), _valid_rows(s_out, sizes, k)

    def add(state: tuple, got: tuple) -> tuple:  # a new aggregate: runs.run_batches
        return (state[0] + got[0], state[1] + got[1],
                state[2] if got[2] is None else (got[2], state[2]))

    return work, add, (np.zeros(ko.N_COUNTS, np.int64), np.zeros(ko.HIST, np.int64), None)


def _start_threads() -> None:
    """Once per process, a trivial parallel loop: it starts numba's thread pool (≈ 0.3 s on the
    first parallel call), so that a run's clock leaves it out."""
    global _threads_started
    if not _threads_started:
        ko.start_threads(numba.get_num_threads())
        _threads_started = True


def _valid_rows(s_out: np.ndarray, sizes: np.ndarray, k: int) -> np.ndarray:
    keep = np.arange(k)[None, :] < sizes[:, None]
    return s_out[keep]


def _rows_frame(samples: list[np.ndarray]) -> pl.DataFrame:
    a = np.concatenate(samples) if samples else np.zeros((0, ko.N_SAMPLE), np.int64)
    from zipai_sim.game.cards import card_name

    def nullable(col: np.ndarray) -> pl.Series:
        return pl.Series(col, dtype=pl.Int64).set(pl.Series(col < 0), None) if len(col) else \
            pl.Series([], dtype=pl.Int64)

    return pl.DataFrame({
        "deal": a[:, ko.S_DEAL],
        "liangzhang": [card_name(int(x)) for x in a[:, ko.S_LIANGZHANG]],
        "tianhu": [_TIANHU[int(x)] for x in a[:, ko.S_TIANHU]],
        "dealer_huxi": nullable(a[:, ko.S_DEALER_HUXI]),
        "dihu_seat": nullable(a[:, ko.S_DIHU_SEAT]),
        "fanxing": nullable(a[:, ko.S_FANXING]),
    }, schema={"deal": pl.Int64, "liangzhang": pl.String, "tianhu": pl.String,
               "dealer_huxi": pl.Int64, "dihu_seat": pl.Int64, "fanxing": pl.Int64})


def score_decks(decks: np.ndarray, variant: str | os.PathLike | Variant) -> pl.DataFrame:
    """Score given deals at the deal, as ``simulate_deals`` does: stacked decks for scenarios.

    decks: ``int[n, 80]`` card kinds (0..19) in deal order (seat ``s`` gets ``deck[s*H:(s+1)*H]``,
    the 亮张 is ``deck[S*H]``, the stock follows; ``zipai_sim.kernels.deal``). Returns one row per
    deck: ``deal, liangzhang, tianhu ("", "complete", "santi", "wukan"), dealer_huxi, dihu_seat,
    fanxing`` (nulls where not applicable). Raises ValueError when a row is not a full deck
    (each kind exactly four times).

    A stacked deck that deals the dealer 拾拾拾 壹壹壹 一二三 二七十 四五六 柒捌玖 八八捌 (18
    胡息, a complete 天胡 at 15; the 21st card, 拾, is the 亮张 at position 60):

    >>> from zipai_sim import parse_hand
    >>> hand = parse_hand("拾拾拾 壹壹壹 一二三 二七十 四五六 柒捌玖 八八捌")
    >>> dealer = np.repeat(np.arange(20), hand)
    >>> rest = np.repeat(np.arange(20), 4 - np.bincount(dealer, minlength=20))
    >>> deck = np.concatenate([dealer[:20], rest[:40], dealer[20:], rest[40:]])
    >>> score_decks(deck, "guangxi-81").row(0)   # deal, 亮张, 天胡, 胡息, 地胡 seat, 翻信
    (0, '拾', 'complete', 18, None, 0)
    """
    v = load_variant(variant)
    d = np.asarray(decks)
    if d.ndim == 1:
        d = d[None, :]
    if d.ndim != 2 or d.shape[1] != 80:
        raise ValueError(f"decks must have shape (n, 80), got {d.shape}")
    if not np.issubdtype(d.dtype, np.integer):
        raise ValueError(f"decks must hold integer card kinds, got dtype {d.dtype}")
    if d.size and (d.min() < 0 or d.max() > 19):
        raise ValueError("decks must hold card kinds 0..19")
    d = np.ascontiguousarray(d, dtype=np.int8)
    for i, row in enumerate(d):
        if (np.bincount(row, minlength=20) != 4).any():
            raise ValueError(f"decks row {i} is not a full deck: each of the 20 kinds must "
                             f"appear exactly 4 times")
    out = np.zeros((d.shape[0], ko.N_SAMPLE), np.int64)
    if d.shape[0]:
        ko.analyze_decks(d, v.params, out)
    return _rows_frame([out])
