"""``compare``: balance metrics of rule variants or thresholds on the same hands, with paired
intervals and a Holm correction over the sweep (issue 9 §3).

Every run (a variant at a threshold) plays the same decks: hand ``j`` of chunk ``c`` is dealt
from ``SeedSequence(seed, spawn_key=(c,))`` as in ``simulate_hands``, and its policy stream is
the same, so the difference of a metric between two runs is measured hand by hand. For each run
after the first (the baseline) and each metric ``m``, ``d_j = m_run(j) − m_baseline(j)``;
``diff`` is the mean of the ``d_j`` with a Student t 95% interval from their spread
(``decks − 1`` degrees of freedom, scipy.stats.t) and the two-sided paired t test's ``p_value``,
not two independent intervals. ``p_holm`` is the Holm step-down adjustment of every p value in
the table (statsmodels ``multipletests``), and ``holm`` says whether the difference survives it
at ``alpha`` (0.05): a sweep of many thresholds × metrics would otherwise find "significant"
differences by chance.

Per-hand metrics (RULES.md §6, §7; seat 0 deals): ``score_seatS`` (the seat's settled payment,
in the variant's unit: 舵, 油, 囤, 排, 胡), ``win_seatS`` (the seat won; a shared win at the deal
counts for every winner), ``huangzhuang`` (荒庄: nobody won), ``zimo`` (自摸), ``fangpao`` (放炮),
``tianhu``, ``dihu``, ``draws`` (stock cards drawn). 0/1 metrics' means are shares of hands.

Memory is flat: per batch only exact integer sums (Σ m per run, Σ d and Σ d² per run after the
first) are kept, in chunk order, so the result is the same for any thread count or Dask
cluster (``runs.run_batches``).
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Mapping, Sequence

import numpy as np
import polars as pl

from zipai_sim.game.variants import Variant, load_variant
from zipai_sim.play import DEFAULT_HAND_CHUNK
from zipai_sim.play.learned import lineup_weights
from zipai_sim.play.payoffs import OutcomeCache, settle_outcomes
from zipai_sim.play.chunks import play_chunks
from zipai_sim.report import DEFAULT_SEED, Report, ReportFrame, diff_text, header, sig
from zipai_sim.runs.checkpoint import register
from zipai_sim.runs.chunks import (
    check_chunk_size,
    check_count,
    check_seed,
    check_threads,
    chunk_keys,
    chunk_sizes,
)
from zipai_sim.runs.driver import run_batches
from zipai_sim.studies.arena import seats_won
from zipai_sim.studies.sweep import knob_of, sweep_runs

#: hand-level 0/1 metrics after the per-seat ones, in table order
SHARES = ("huangzhuang", "zimo", "fangpao", "tianhu", "dihu")


def metric_names(seats: int) -> list[str]:
    """The metrics of a ``seats``-player comparison, in table order."""
    return ([f"score_seat{s}" for s in range(seats)] + [f"win_seat{s}" for s in range(seats)]
            + list(SHARES) + ["draws"])


def hand_metrics(v: Variant, rows: np.ndarray, cache: OutcomeCache | None = None) -> np.ndarray:
    """``int64[k, n_metrics]``: the per-hand metrics of kernel outcome rows ``int64[k, N_OUT]``
    (``cache``: ``settle_outcomes``')."""
    from zipai_sim.kernels import play as kp

    seats = v.layout.players
    pay = settle_outcomes(v, rows, cache)[0][:, :seats]
    won = seats_won(rows, seats).astype(np.int64)
    how = rows[:, kp.O_HOW]
    extra = np.stack([rows[:, kp.O_WINNER] < 0, how == kp.HOW_ZIMO, how == kp.HOW_FANGPAO,
                      rows[:, kp.O_TIANHU], rows[:, kp.O_DIHU], rows[:, kp.O_DRAWS]],
                     axis=1).astype(np.int64)
    return np.concatenate([pay.astype(np.int64), won, extra], axis=1)


@register
class _Paired:
    """Exact integer sums: ``n`` hands, ``total[r, m]`` = Σ metric, ``d[r, m]`` = Σ (run r −
    run 0), ``d_sq[r, m]`` = Σ (run r − run 0)² (row 0 of ``d``, ``d_sq`` stays 0)."""

    def __init__(self, runs: int, metrics: int) -> None:
        self.n = 0
        self.total = np.zeros((runs, metrics), np.int64)
        self.d = np.zeros((runs, metrics), np.int64)
        self.d_sq = np.zeros((runs, metrics), np.int64)

    def merged(self, other: _Paired) -> _Paired:
        """A new sum of both, neither changed (``runs.run_batches``)."""
        out = _Paired(*self.total.shape)
        for name in ("n", "total", "d", "d_sq"):
            setattr(out, name, getattr(self, name) + getattr(other, name))
        return out


def _runs(variants, thresholds: Sequence[int] | None) -> list[Variant]:
    many = isinstance(variants, Sequence) and not isinstance(variants, (str, os.PathLike))
    vs = [load_variant(x) for x in (variants if many else [variants])]
    if thresholds is not None:
        ts = list(thresholds)
        if not ts:
            raise ValueError("thresholds is empty")
        if len(set(ts)) < len(ts):
            raise ValueError(f"thresholds has a repeated value: {ts}")
        vs = [v.with_threshold(t) for v in vs for t in ts]
    if len(vs) < 2:
        raise ValueError("compare needs at least two runs: two variants, or one variant at two "
                         "or more thresholds")
    seats = {v.layout.players for v in vs}
    if len(seats) > 1:
        raise ValueError(f"the runs must have the same number of players to be compared seat "
                         f"by seat, got {', '.join(f'{v.key}: {v.layout.players}' for v in vs)}")
    return vs


def compare(variants, n: int, seed: int = DEFAULT_SEED, thresholds: Sequence[int] | None = None,
            policies: str | Sequence[str] = "greedy", chunk_size: int | None = None,
            threads: int | None = None, alpha: float = 0.05, progress: bool | None = False,
            client: object = None, sweep: Mapping | None = None) -> ReportFrame:
    """Balance metrics of ``variants`` (keys, TOML paths or ``Variant``s; with ``thresholds``,
    each variant at each threshold) on the same ``n`` hands, each run against the first: the
    paired difference, its Student t 95% interval, the paired t test's p value and its Holm
    adjustment over the whole table (module docstring).

    Returns a ``report.ReportFrame``, one row per run after the first and metric:
    ``variant, threshold, rules_hash, unit, baseline, baseline_threshold,
    baseline_rules_hash, baseline_unit, metric, n`` (Int64), ``baseline_mean, mean, diff,
    se, ci_low, ci_high, p_value, p_holm`` (Float64) and ``holm`` (Boolean: ``p_holm <
    alpha``). A zero-width interval means every hand gave the same difference (p = 1 when
    it is 0, else 0). Runs that score in different units (舵, 油 …) get no score rows.
    ``sweep`` (``studies.sweep``): one variant, the baseline, against each setting of some of
    its knobs, e.g. ``{"win.threshold": [12, 18]}`` or ``{("settle.huangzhuang_dealer",
    "settle.huangzhuang_others"): [(-2, 1), (0, 0)]}`` (several keys: their grid); the table
    then has one column per swept knob with the run's value (the header names the
    baseline's) and no ``thresholds``.
    Policies: a bot of ``play.registry`` (a searching one with ``play.registry.DEFAULT_K``
    worlds per candidate answer) or a ``BatchPolicy``, one for every seat or one per seat.
    Progress, Ctrl-C (a partial result, the header says so), checkpoints and ``client``
    as in every driver (``runs.run_batches``).

    Raises ValueError for fewer than two runs, runs with different numbers of players, bad
    counts, seeds, policies, threads or ``alpha``; VariantError.
    """
    import numba

    from zipai_sim.kernels import play as kp
    from zipai_sim.play.external import lineup_ident, seat_lineup

    settings: list[dict] = []
    if sweep is not None:
        if thresholds is not None:
            raise ValueError("give thresholds or a sweep, not both (sweep win.threshold instead)")
        if isinstance(variants, Sequence) and not isinstance(variants, (str, os.PathLike)):
            raise ValueError("a sweep varies one variant: give one, not a list")
        base, settings, runs = sweep_runs(variants, sweep)
        vs = _runs([base, *runs], None)
    else:
        vs = _runs(variants, thresholds)
    n, seed = check_count(n), check_seed(seed)
    cs = check_chunk_size(chunk_size if chunk_size is not None else DEFAULT_HAND_CHUNK)
    if not (isinstance(alpha, float) and 0 < alpha < 1):
        raise ValueError(f"alpha must be a float in (0, 1), got {alpha!r}")
    seats = vs[0].layout.players
    codes, external, pols = seat_lineup(policies, seats, vs[0].key)
    th = check_threads(threads)
    names = metric_names(seats)
    caches = [OutcomeCache(v) for v in vs]

    def work(first: int, k: int) -> _Paired:
        keys, sizes = chunk_keys(seed, first, k), chunk_sizes(n, cs, first, k)
        outs = []
        for v in vs:
            out = np.zeros((k, int(sizes.max()), kp.N_OUT), np.int64)
            play_chunks(v, keys, sizes, codes, out, external=external)
            outs.append(out)
        t = _Paired(len(vs), len(names))
        for c in range(k):  # chunk order; integer sums: exact, thread-independent
            ms = [hand_metrics(v, out[c, : sizes[c]], cache)
                  for v, out, cache in zip(vs, outs, caches)]
            t.n += int(sizes[c])
            for r, m in enumerate(ms):
                t.total[r] += m.sum(axis=0)
                diff = m - ms[0]
                t.d[r] += diff.sum(axis=0)
                t.d_sq[r] += (diff * diff).sum(axis=0)
        return t

    ws = lineup_weights(vs, pols)
    t0 = time.perf_counter()
    old = numba.get_num_threads()
    numba.set_num_threads(th)
    try:
        got = run_batches(n, cs, 2 * numba.get_num_threads(), work, _Paired.merged,
                          _Paired(len(vs), len(names)), unit="hand", progress=progress,
                          kernels=(kp.play_chunks,), client=client,
                          identity={"what": "compare", "variants": [v.key for v in vs],
                                    "rules_hash": [v.rules_hash for v in vs],
                                    "thresholds": [v.win.threshold for v in vs],
                                    "seed": str(seed),
                                    "policies": lineup_ident(policies, seats),
                                    **({"weights_hash": ws} if ws else {})})
    finally:
        numba.set_num_threads(old)
    units = sorted({v.settle.unit for v in vs})
    shown = [m for m in names if len(units) == 1 or not m.startswith("score_")]
    df = _table(vs, names, got.state, alpha, shown)
    if settings:  # one column per swept knob: the run's value (Int64 where all are integers)
        per_row = [settings[i] for i in range(len(vs) - 1) for _ in shown]
        df = df.with_columns([_knob_column(k, [x[k] for x in per_row]) for k in settings[0]])
    run = dict(variants=[(v.key, v.rules_hash) for v in vs],
               thresholds=[v.win.threshold for v in vs], seed=seed, n=got.done, unit="hands",
               chunk_size=cs, policies=pols, threads=th, workers=got.workers,
               seconds=time.perf_counter() - t0, partial=got.partial, n_requested=n, weights=ws,
               extra=[f"each run against {vs[0].key} at threshold {vs[0].win.threshold}"
                      + (f" ({', '.join(f'{k}={_text(knob_of(vs[0], k))}' for k in settings[0])})"
                         if settings else "") + ", paired on the same hands"])
    notes = [f"diff: run minus baseline, mean over hands with a Student t 95% interval from the "
             f"per-hand differences; p: paired t test; Holm: adjusted over all {df.height} "
             f"rows, ✓ where p_holm < {alpha}"]
    if len(units) > 1:  # 舵 minus 油 means nothing: the score rows are left out
        notes.append(f"score rows left out: the runs score in different units "
                     f"({', '.join(units)})")
    return CompareFrame.wrap(df, run, notes=notes)


def _text(x: object) -> str:
    return json.dumps(x, ensure_ascii=False) if not isinstance(x, str) else x


def _knob_column(name: str, values: list) -> pl.Series:
    if all(isinstance(x, int) and not isinstance(x, bool) for x in values):
        return pl.Series(name, values, dtype=pl.Int64)
    return pl.Series(name, [_text(x) for x in values], dtype=pl.String)


SCHEMA = {"variant": pl.String, "threshold": pl.Int64, "rules_hash": pl.String,
          "unit": pl.String, "baseline": pl.String, "baseline_threshold": pl.Int64,
          "baseline_rules_hash": pl.String, "baseline_unit": pl.String, "metric": pl.String,
          "n": pl.Int64, "baseline_mean": pl.Float64, "mean": pl.Float64, "diff": pl.Float64,
          "se": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
          "p_value": pl.Float64, "p_holm": pl.Float64, "holm": pl.Boolean}


def _unit(v: Variant, metric: str) -> str:
    if metric.startswith("score_"):
        return v.settle.unit
    return "cards" if metric == "draws" else "share of hands"


def _table(vs: list[Variant], names: list[str], t: _Paired, alpha: float,
           shown: list[str]) -> pl.DataFrame:
    from scipy.stats import t as student
    from statsmodels.stats.multitest import multipletests

    rows, n, base = [], t.n, vs[0]
    for r, v in enumerate(vs[1:], start=1):
        for m, name in enumerate(names):
            if name not in shown:
                continue
            d, dsq = int(t.d[r, m]), int(t.d_sq[r, m])
            mean = d / n if n else math.nan
            se = p = half = math.nan
            if n > 1:  # var of d from exact integers: (n Σd² − (Σd)²) / (n (n − 1))
                se = math.sqrt(max(n * dsq - d * d, 0) / (n * (n - 1)) / n)
                half = float(student.ppf(0.975, n - 1)) * se
                p = (1.0 if d == 0 else 0.0) if se == 0 else \
                    float(2 * student.sf(abs(mean) / se, n - 1))
            rows.append({"variant": v.key, "threshold": v.win.threshold,
                         "rules_hash": v.rules_hash, "unit": _unit(v, name),
                         "baseline": base.key, "baseline_threshold": base.win.threshold,
                         "baseline_rules_hash": base.rules_hash, "baseline_unit": _unit(base, name),
                         "metric": name, "n": n,
                         "baseline_mean": int(t.total[0, m]) / n if n else math.nan,
                         "mean": int(t.total[r, m]) / n if n else math.nan, "diff": mean,
                         "se": se, "ci_low": mean - half, "ci_high": mean + half,
                         "p_value": p})
    ps = np.array([x["p_value"] for x in rows])
    ok = ~np.isnan(ps)
    adj = np.full(len(ps), math.nan)
    if ok.any():
        adj[ok] = multipletests(ps[ok], alpha=alpha, method="holm")[1]
    for x, a in zip(rows, adj):
        x["p_holm"] = float(a)
        x["holm"] = bool(a < alpha) if not math.isnan(a) else None
    return pl.DataFrame(rows, schema=SCHEMA)


class CompareFrame(ReportFrame):
    """The comparison table; as text: run, metric, both means, the difference with its
    interval, p and Holm-adjusted p, ✓ where the difference survives Holm."""

    def report(self, per: int | None = None) -> Report:
        return Report(header(**(self.run or {})), compare_view(self), list(self.notes or []))


def _p(x: float | None) -> str:
    if x is None or math.isnan(x):
        return ""
    return "< 0.0001" if x < 1e-4 else sig(x, 2)


def compare_view(df: pl.DataFrame) -> pl.DataFrame:
    """The table as strings (``CompareFrame.report``)."""
    out: dict[str, list[str]] = {k: [] for k in (
        "run", "metric", "unit", "baseline", "mean", "diff", "95% interval", "p", "p (Holm)",
        "Holm")}
    for r in df.iter_rows(named=True):
        diff, ci = diff_text(r["diff"], r["ci_low"], r["ci_high"])
        knobs = [c for c in df.columns if c not in SCHEMA]
        out["run"].append(", ".join(f"{k.rsplit('.', 1)[-1]}={r[k]}" for k in knobs) if knobs
                          else f"{r['variant']} @ {r['threshold']}")
        out["metric"].append(r["metric"])
        out["unit"].append(r["unit"])
        out["baseline"].append(sig(r["baseline_mean"], 4))
        out["mean"].append(sig(r["mean"], 4))
        out["diff"].append(diff)
        out["95% interval"].append(ci)
        out["p"].append(_p(r["p_value"]))
        out["p (Holm)"].append(_p(r["p_holm"]))
        out["Holm"].append("✓" if r["holm"] else "")
    return pl.DataFrame(out)
