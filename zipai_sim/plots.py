"""Figures (issue 4 §2): matplotlib helpers that draw saved results, never re-running anything.

Every helper takes the table it draws and ``ax=None`` (a new figure when None), returns the
Axes and never calls ``plt.show()``. Labels are ASCII / pinyin (huxi 胡息, tianhu 天胡, dihu 地胡,
fanxing 翻信, huangzhuang 荒庄, units duo 舵 / you 油 / tun 囤 / pai 排 / hu 胡), so no CJK font
is needed. Intervals are the tables' Wilson 95% bounds, or mean ± 1.96 SE for means.

Inputs, by helper (all polars DataFrames, e.g. read back from Parquet with ``load_result``):

- ``plot_tianhu_threshold``: ``tables.deal_table`` (``variant, threshold, metric, rate,
  ci_low, ci_high``).
- ``plot_seat_shares``, ``plot_dealer_edge``: the balance table of ``play.balance.simulate_hands``
  (``variant, metric, seat, rate, ci_low, ci_high, mean, se``; ``zipai-sim balance --out``).
- ``plot_huxi_distribution``, ``plot_score_distribution``, ``plot_fanxing``: per-hand rows,
  either ``tables.opening_records`` or the sampled rows of ``simulate_hands(rows=K)``; the
  翻信 and 胡息 plots also take a ``simulate_deals`` summary (``metric`` rows ``fanxing_k`` /
  ``dealer_huxi_H``) or a ``deal_table(metrics=None)``.
- ``plot_convergence``: ``tables.convergence_table`` (``variant, n, rate, ci_low, ci_high``).

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> import polars as pl
>>> t = pl.DataFrame({"variant": ["guangxi-dazipai"] * 2, "threshold": [15, 30],
...                   "metric": ["tianhu"] * 2, "rate": [5.6e-4, 1e-4],
...                   "ci_low": [5.5e-4, 0.9e-4], "ci_high": [5.7e-4, 1.1e-4]})
>>> plot_tianhu_threshold(t).get_ylabel()
'tianhu per 10,000 deals'
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import polars as pl

Z95 = 1.959963984540054


def _axes(ax):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(7, 4.2))
    return ax


def _need(df: pl.DataFrame, cols: Sequence[str], what: str) -> None:
    missing = [c for c in cols if c not in df.columns]
    if missing:
        raise ValueError(f"{what} needs the column(s) {missing}; got {df.columns}")


def _label(key: str, threshold: object, several: bool) -> str:
    return f"{key} @{threshold}" if several and threshold is not None else key


def _runs(df: pl.DataFrame) -> list[tuple[str, object, pl.DataFrame]]:
    """(variant, threshold, rows) per run, in first-seen order."""
    keys = ["variant"] + (["threshold"] if "threshold" in df.columns else [])
    out = []
    for key, part in df.group_by(keys, maintain_order=True):
        out.append((str(key[0]), key[1] if len(key) > 1 else None, part))
    return out


def _several(df: pl.DataFrame) -> bool:
    return "threshold" in df.columns and df.select("variant", "threshold").unique().height > \
        df["variant"].n_unique()


def _errs(rate: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return np.vstack([np.clip(rate - lo, 0, None), np.clip(hi - rate, 0, None)])


def plot_tianhu_threshold(table: pl.DataFrame, ax=None, metric: str = "tianhu",
                          per: int = 10_000):
    """``metric`` (default 天胡) per ``per`` deals against the 起胡 threshold, one line per variant,
    with Wilson 95% interval bars. x label "threshold (huxi / you / hu)", y label
    "``metric`` per ``per`` deals", a legend of the variant keys. Raises ValueError when the
    table lacks the columns of ``tables.deal_table`` or the metric."""
    _need(table, ("variant", "threshold", "metric", "rate", "ci_low", "ci_high"),
          "plot_tianhu_threshold")
    if "seat" in table.columns or "width" in table.columns:  # a balance or convergence table
        raise ValueError("plot_tianhu_threshold needs deal rates (tables.deal_table, `table deal "
                         "--out`), not a balance or convergence table")
    rows = table.filter(pl.col("metric") == metric).sort("variant", "threshold")
    if rows.height == 0:
        raise ValueError(f"no {metric!r} rows to plot")
    ax = _axes(ax)
    for key, part in rows.group_by("variant", maintain_order=True):
        r, lo, hi = (part[c].to_numpy() * per for c in ("rate", "ci_low", "ci_high"))
        ax.errorbar(part["threshold"].to_numpy(), r, yerr=_errs(r, lo, hi), marker="o",
                    capsize=3, label=str(key[0]))
    ax.set_xlabel("threshold (huxi / you / hu)")
    ax.set_ylabel(f"{metric} per {per:,} deals")
    ax.legend(title="variant")
    ax.grid(alpha=0.3)
    return ax


def _hand_rows(df: pl.DataFrame) -> pl.DataFrame:
    """Per-hand rows (one per hand) with ``variant, threshold, winner, huxi, fanxing`` from
    ``opening_records`` (seat rows) or ``simulate_hands`` sampled rows."""
    if "won" in df.columns and "win_huxi" in df.columns:  # opening_records: keep the winner's row
        won = df.filter(pl.col("won"))
        lost = df.filter((pl.col("winner") < 0) & (pl.col("seat") == 0))
        return pl.concat([won, lost]).select(
            "variant", pl.col("threshold") if "threshold" in df.columns else pl.lit(None)
            .alias("threshold"), pl.col("winner").cast(pl.Int64),
            pl.col("win_huxi").cast(pl.Int64).alias("huxi"),
            pl.col("fanxing").cast(pl.Int64))
    _need(df, ("variant", "winner", "huxi", "fanxing"), "per-hand rows")
    return df.select("variant", pl.col("threshold") if "threshold" in df.columns else
                     pl.lit(None).alias("threshold"), pl.col("winner").cast(pl.Int64),
                     pl.col("huxi").cast(pl.Int64), pl.col("fanxing").cast(pl.Int64))


def _metric_rows(df: pl.DataFrame, prefix: str) -> pl.DataFrame | None:
    if "metric" not in df.columns:
        return None
    rows = df.filter(pl.col("metric").str.starts_with(prefix))
    return rows if rows.height else None


def plot_huxi_distribution(data: pl.DataFrame, ax=None):
    """胡息 of winning hands per variant: share of wins at each 胡息 (a line per variant).

    From per-hand rows (``opening_records`` or ``simulate_hands(rows=K)``: every won hand); from
    a ``simulate_deals`` summary (``dealer_huxi_H`` rows) it is the complete dealer hands at the
    deal instead, the ones at or above the threshold being the 天胡. x label "huxi of the
    winning hand", y label "share of winning hands", legend of variants."""
    ax = _axes(ax)
    summ = _metric_rows(data, "dealer_huxi_")
    if summ is not None:
        _need(summ, ("variant", "rate"), "plot_huxi_distribution")
        several = _several(summ)
        for key, t, part in _runs(summ):
            h = part["metric"].str.extract(r"(\d+)").cast(pl.Int64).to_numpy()
            o = np.argsort(h)
            ax.plot(h[o], part["rate"].to_numpy()[o], marker=".",
                    label=_label(key, t, several))
        ax.set_xlabel("huxi of the complete dealer hand (at the deal)")
        ax.set_ylabel("share of complete dealer hands")
    else:
        rows = _hand_rows(data).filter(pl.col("winner") >= 0)
        if rows.height == 0:
            raise ValueError("no won hands to plot")
        several = _several(rows)
        for key, t, part in _runs(rows):
            vc = part["huxi"].value_counts().sort("huxi")
            share = vc["count"].to_numpy() / part.height
            ax.plot(vc["huxi"].to_numpy(), share, marker=".",
                    label=_label(key, t, several))
        ax.set_xlabel("huxi of the winning hand")
        ax.set_ylabel("share of winning hands")
    ax.legend(title="variant")
    ax.grid(alpha=0.3)
    return ax


def _balance_rows(balance: pl.DataFrame, metric: str) -> pl.DataFrame:
    _need(balance, ("variant", "metric", "seat", "rate", "ci_low", "ci_high", "mean", "se"),
          "a balance table (simulate_hands)")
    rows = balance.filter(pl.col("metric") == metric)
    if rows.height == 0:
        raise ValueError(f"the balance table has no {metric!r} rows")
    return rows


def plot_seat_shares(balance: pl.DataFrame, ax=None, huangzhuang: bool = True):
    """Win share of each seat per variant (grouped bars, Wilson 95% bars), and the 荒庄 share
    beside them when ``huangzhuang``. x: variants (``key @threshold`` in a threshold sweep);
    y label "share of hands"; legend "seat 0 (dealer)", "seat 1", …, "no winner
    (huangzhuang)"."""
    wins = _balance_rows(balance, "win")
    hz = balance.filter(pl.col("metric") == "huangzhuang") if huangzhuang else None
    ax = _axes(ax)
    runs = _runs(wins)
    several = _several(wins)
    seats = int(wins["seat"].max()) + 1
    groups = seats + (1 if hz is not None and hz.height else 0)
    width = 0.8 / groups
    x = np.arange(len(runs))
    for s in range(seats):
        r, lo, hi = [], [], []
        for _, _, part in runs:
            row = part.filter(pl.col("seat") == s)
            r.append(row["rate"][0] if row.height else np.nan)
            lo.append(row["ci_low"][0] if row.height else np.nan)
            hi.append(row["ci_high"][0] if row.height else np.nan)
        r, lo, hi = map(np.asarray, (r, lo, hi))
        ax.bar(x + (s - (groups - 1) / 2) * width, r, width, yerr=_errs(r, lo, hi), capsize=2,
               label="seat 0 (dealer)" if s == 0 else f"seat {s}")
    if groups > seats:
        r, lo, hi = [], [], []
        for key, t, _ in runs:
            row = hz.filter(pl.col("variant") == key)
            if t is not None and "threshold" in hz.columns:
                row = row.filter(pl.col("threshold") == t)
            r.append(row["rate"][0] if row.height else np.nan)
            lo.append(row["ci_low"][0] if row.height else np.nan)
            hi.append(row["ci_high"][0] if row.height else np.nan)
        r, lo, hi = map(np.asarray, (r, lo, hi))
        ax.bar(x + (seats - (groups - 1) / 2) * width, r, width, yerr=_errs(r, lo, hi),
               capsize=2, color="0.7", label="no winner (huangzhuang)")
    ax.set_xticks(x, [_label(k, t, several) for k, t, _ in runs], rotation=20, ha="right")
    ax.set_ylabel("share of hands")
    ax.legend(fontsize="small")
    ax.grid(axis="y", alpha=0.3)
    return ax


def _variant(key: str):
    """The variant a result row names, or None when it cannot be loaded (a renamed file)."""
    from .variants import load_variant

    try:
        return load_variant(key)
    except (ValueError, OSError):
        return None


def _unit(key: str) -> str:
    v = _variant(key)
    return v.settle.unit if v is not None else "units"


def plot_dealer_edge(balance: pl.DataFrame, ax=None):
    """Dealer edge per variant: seat 0's mean settled score per hand ± 1.96 SE, in the variant's
    unit (named under each variant: duo, you, tun, pai, hu), with a line at 0. y label "dealer
    edge (units per hand)"; legend "dealer mean score, 95% interval"."""
    rows = _balance_rows(balance, "score").filter(pl.col("seat") == 0)
    ax = _axes(ax)
    runs = _runs(rows)
    several = _several(rows)
    m = np.array([part["mean"][0] for _, _, part in runs], float)
    se = np.array([part["se"][0] for _, _, part in runs], float)
    x = np.arange(len(runs))
    ax.errorbar(x, m, yerr=Z95 * np.nan_to_num(se), fmt="o", capsize=4,
                label="dealer mean score, 95% interval")
    ax.axhline(0, color="0.5", lw=0.8)
    ax.set_xticks(x, [f"{_label(k, t, several)}\n({_unit(k)})" for k, t, _ in runs],
                  rotation=20, ha="right")
    ax.set_ylabel("dealer edge (units per hand)")
    ax.legend(fontsize="small")
    ax.grid(axis="y", alpha=0.3)
    return ax


def _fanxing_enabled(key: str) -> bool:
    v = _variant(key)
    return bool(v.fanxing.enabled) if v is not None else True


def plot_fanxing(data: pl.DataFrame, ax=None):
    """翻信 distribution: share of wins whose 翻信 turned 0, 1, 2, 3, 4+ matching cards, bars per
    variant (Wilson 95% bars), for the variants that play 翻信 (RULES.md §7.3).

    From a ``simulate_deals`` summary or ``deal_table(metrics=None)`` (``fanxing_k`` rows: wins
    at the deal) or from per-hand rows (every won hand). x label "fanxing matches", y label
    "share of wins", legend of variants. Raises ValueError when no variant has 翻信."""
    from .stats import wilson

    summ = _metric_rows(data, "fanxing_")
    bins = ["0", "1", "2", "3", "4+"]
    series = []
    if summ is not None:
        summ = summ.filter(pl.col("metric") != "fanxing_mean")
        several = _several(summ)
        for key, t, part in _runs(summ):
            get = {m: r for m, r in zip(part["metric"], part.iter_rows(named=True))}
            names = ["fanxing_0", "fanxing_1", "fanxing_2", "fanxing_3", "fanxing_4plus"]
            if not all(nm in get for nm in names):
                continue
            series.append((_label(key, t, several),
                           *(np.array([get[nm][c] for nm in names], float)
                             for c in ("rate", "ci_low", "ci_high"))))
    else:
        rows = _hand_rows(data).filter(pl.col("winner") >= 0)
        several = _several(rows)
        for key, t, part in _runs(rows):
            if not _fanxing_enabled(key):
                continue
            fx = np.minimum(part["fanxing"].to_numpy(), 4)
            n = len(fx)
            counts = np.bincount(fx, minlength=5)[:5]
            ci = np.array([wilson(int(c), n) for c in counts])
            series.append((_label(key, t, several), counts / n, ci[:, 0], ci[:, 1]))
    if not series:
        raise ValueError("no 翻信 (fanxing) data: only variants with [fanxing] enabled "
                         "(guangxi-81, liuhu-dao) turn it")
    ax = _axes(ax)
    width = 0.8 / len(series)
    x = np.arange(5)
    for i, (label, r, lo, hi) in enumerate(series):
        ax.bar(x + (i - (len(series) - 1) / 2) * width, r, width, yerr=_errs(r, lo, hi),
               capsize=2, label=label)
    ax.set_xticks(x, bins)
    ax.set_xlabel("fanxing matches")
    ax.set_ylabel("share of wins")
    ax.legend(title="variant")
    ax.grid(axis="y", alpha=0.3)
    return ax


def plot_convergence(table: pl.DataFrame, ax=None):
    """An estimate against the number of deals (log x), its Wilson 95% interval shaded: the band
    narrows about as 1/√n. One line per variant; x label "deals (n)", y label "``metric``
    rate"; legend: the variants and "95% interval". Raises ValueError for a table that is not
    ``tables.convergence_table``'s (several metrics, or no ``width`` column)."""
    _need(table, ("variant", "n", "rate", "ci_low", "ci_high", "width"), "plot_convergence")
    if "seat" in table.columns or ("metric" in table.columns and table["metric"].n_unique() > 1):
        raise ValueError("plot_convergence needs one metric's growing sample "
                         "(tables.convergence_table, `table convergence --out`)")
    rows = table.filter(pl.col("n") > 0).sort("n")
    if rows.height == 0:
        raise ValueError("no rows with n > 0 to plot")
    ax = _axes(ax)
    several = _several(rows)
    first = True
    for key, t, part in _runs(rows):
        n = part["n"].to_numpy()
        line, = ax.plot(n, part["rate"].to_numpy(), marker=".", label=_label(key, t, several))
        ax.fill_between(n, part["ci_low"].to_numpy(), part["ci_high"].to_numpy(),
                        color=line.get_color(), alpha=0.2,
                        label="95% interval" if first else None)
        first = False
    ax.set_xscale("log")
    ax.set_xlabel("deals (n)")
    metric = rows["metric"][0] if "metric" in rows.columns else "estimate"
    ax.set_ylabel(f"{metric} rate")
    ax.legend()
    ax.grid(alpha=0.3, which="both")
    return ax


def plot_score_distribution(data: pl.DataFrame, ax=None, seat: int = 0):
    """Settled score of ``seat`` (0 = dealer) per hand, share of hands at each value, one line
    per variant (in the variant's unit; RULES.md §7). From ``opening_records`` or
    ``simulate_hands(rows=K)`` rows (``pay_seatS``). x label "score of seat S (units per
    hand)", y label "share of hands", legend of variants."""
    if "score" in data.columns and "seat" in data.columns:
        rows = data.filter(pl.col("seat") == seat).select(
            "variant", pl.col("threshold") if "threshold" in data.columns else
            pl.lit(None).alias("threshold"), pl.col("score").cast(pl.Int64))
    else:
        col = f"pay_seat{seat}"
        _need(data, ("variant", col), "plot_score_distribution")
        rows = data.select("variant", pl.col("threshold") if "threshold" in data.columns else
                           pl.lit(None).alias("threshold"), pl.col(col).alias("score"))
    if rows.height == 0:
        raise ValueError(f"no hands of seat {seat} to plot")
    ax = _axes(ax)
    several = _several(rows)
    for key, t, part in _runs(rows):
        vc = part["score"].value_counts().sort("score")
        ax.plot(vc["score"].to_numpy(), vc["count"].to_numpy() / part.height, marker=".",
                label=f"{_label(key, t, several)} ({_unit(key)})")
    ax.set_xlabel(f"score of seat {seat} (units per hand)")
    ax.set_ylabel("share of hands")
    ax.legend(title="variant")
    ax.grid(alpha=0.3)
    return ax


PLOTS = {
    "tianhu-threshold": plot_tianhu_threshold,
    "huxi": plot_huxi_distribution,
    "seat-shares": plot_seat_shares,
    "dealer-edge": plot_dealer_edge,
    "fanxing": plot_fanxing,
    "convergence": plot_convergence,
    "scores": plot_score_distribution,
}


def load_result(paths: str | os.PathLike | Sequence[str | os.PathLike]) -> pl.DataFrame:
    """Read saved Parquet results into one frame (columns unioned); a file without a ``variant``
    column (a ``simulate`` summary) gets it from its metadata. Raises OSError for a missing
    file and ValueError for one that is not Parquet."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    frames = []
    for path in paths:
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"no such file: {path}")
        try:
            df = pl.read_parquet(path)
            meta = pl.read_parquet_metadata(path)
        except (pl.exceptions.PolarsError, OSError) as e:  # not Parquet
            raise ValueError(f"cannot read {path} as Parquet: {str(e).splitlines()[0]}") from None
        if "variant" not in df.columns:
            df = df.with_columns(pl.lit(meta.get("variant", path.stem)).alias("variant"))
        frames.append(df)
    return pl.concat(frames, how="diagonal_relaxed")


def save_figure(ax, path: str | os.PathLike) -> None:
    """Save ``ax``'s figure as PNG or SVG (by the file's suffix) and close it. Raises ValueError
    for another suffix."""
    path = Path(path)
    if path.suffix.lower() not in (".png", ".svg"):
        raise ValueError(f"--out must end in .png or .svg, got {path.name!r}")
    import matplotlib.pyplot as plt

    fig = ax.figure
    fig.tight_layout()
    fig.savefig(path, dpi=150)
    plt.close(fig)
