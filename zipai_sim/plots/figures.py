"""Figures (issue 4 §2, issue 11): matplotlib helpers that draw saved results, never re-running
anything.

Every helper takes the table it draws, ``ax=None`` (a new figure when None) and ``lang``
(``"en"``, English / pinyin: huxi 胡息, tianhu 天胡, dihu 地胡, fanxing 翻信, huangzhuang 荒庄,
units duo 舵 / you 油 / tun 囤 / pai 排 / hu 胡; or ``"zh"``, the Chinese terms, set in the Noto
Sans SC font that zipai-sim installs: ``zipai_sim.plots.fonts``), returns the Axes and never calls
``plt.show()``. Intervals are the tables' Wilson 95% bounds, or mean ± 1.96 SE for means.
Discrete values (胡息, scores) are drawn as steps, one bin per integer, with integer ticks.

Each run (variant key, rules hash, threshold, bot, seed, file) stays its own line or bar, its
legend label naming what sets it apart; rows that no column tells apart are refused
(``plots.runs.split_runs``). Each figure carries a small footer with the provenance of what it
draws (variants and rules hashes, thresholds, ``n``, seeds, bots: whatever the data carry), which
``save_figure`` also writes into the file's metadata.

Inputs, by helper (all polars DataFrames, e.g. read back from Parquet with ``load_result``):

- ``plot_tianhu_threshold``: ``tables.deal_table`` (``variant, threshold, metric, rate,
  ci_low, ci_high``).
- ``plot_seat_shares``, ``plot_dealer_edge``: the balance table of
  ``studies.balance.simulate_hands``
  (``variant, metric, seat, rate, ci_low, ci_high, mean, se``; ``zipai-sim balance --out``).
- ``plot_huxi_distribution``, ``plot_score_distribution``, ``plot_fanxing``: per-hand rows,
  either ``tables.opening_records`` or the sampled rows of ``simulate_hands(rows=K)``; the
  翻信 and 胡息 plots also take a ``simulate_deals`` summary (``metric`` rows ``fanxing_k`` /
  ``dealer_huxi_H``) or a ``deal_table(metrics=None)``.
- ``plot_convergence``: ``tables.convergence_table`` (``variant, n, rate, ci_low, ci_high``).
- ``plot_win_chance``: an analysed hand (``Analysis.table()``, ``zipai-sim analyze --out``;
  ``plots.win_chance``), whose helper takes ``lang``, ``seat`` and ``ax`` by keyword.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> import polars as pl
>>> t = pl.DataFrame({"variant": ["guangxi-dazipai"] * 2, "threshold": [15, 30],
...                   "metric": ["tianhu"] * 2, "rate": [5.6e-4, 1e-4],
...                   "ci_low": [5.5e-4, 0.9e-4], "ci_high": [5.7e-4, 1.1e-4]})
>>> plot_tianhu_threshold(t).get_ylabel()
'tianhu per 10,000 deals'
>>> plot_tianhu_threshold(t, lang="zh").get_ylabel()
'天胡 (每 10,000 局)'
"""

from __future__ import annotations

import numpy as np
import polars as pl

from zipai_sim.plots.draw import (
    balance_rows,
    errs,
    fanxing_enabled,
    finish,
    hand_rows,
    integer_x,
    metric_rows,
    need,
    new_axes,
    pick,
    seat_label,
    stairs,
    unit_of,
)
from zipai_sim.plots.labels import check_lang, metric_name, text
from zipai_sim.plots.load import load_result
from zipai_sim.plots.runs import id_cols, label_runs, split_runs
from zipai_sim.plots.save import read_figure_metadata, save_figure
from zipai_sim.plots.sweep import plot_sweep
from zipai_sim.plots.win_chance import plot_win_chance

__all__ = [
    "PLOTS",
    "load_result",
    "plot_convergence",
    "plot_dealer_edge",
    "plot_fanxing",
    "plot_huxi_distribution",
    "plot_score_distribution",
    "plot_seat_shares",
    "plot_sweep",
    "plot_tianhu_threshold",
    "plot_win_chance",
    "read_figure_metadata",
    "save_figure",
]

Z95 = 1.959963984540054
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">")


def plot_tianhu_threshold(table: pl.DataFrame, ax=None, metric: str = "tianhu",
                          per: int = 10_000, log: bool = False, lang: str = "en"):
    """``metric`` (default 天胡) per ``per`` deals against the 起胡 threshold, one line per run
    (its own marker, shifted a little sideways so overlapping lines and intervals stay
    visible), with Wilson 95% interval bars; thresholds as integer ticks. ``log=True`` draws
    the rates on a log scale (zero rates are then left out). x label "threshold (huxi / you /
    hu)", y label "``metric`` per ``per`` deals", a legend of the runs. Raises ValueError when
    the table lacks the columns of ``tables.deal_table`` or the metric, for a bad ``lang``,
    or for runs that cannot be told apart."""
    lang = check_lang(lang)
    need(table, ("variant", "threshold", "metric", "rate", "ci_low", "ci_high"),
          "plot_tianhu_threshold")
    if "seat" in table.columns or "width" in table.columns:  # a balance or convergence table
        raise ValueError("plot_tianhu_threshold needs deal rates (tables.deal_table, `table deal "
                         "--out`), not a balance or convergence table")
    rows = table.filter(pl.col("metric") == metric).sort("variant", "threshold",
                                                         maintain_order=True)
    if rows.height == 0:
        raise ValueError(f"no {metric!r} rows to plot")
    # a threshold's rules hash differs from the next one's: both are drawn along x, not apart
    runs = split_runs(rows, ("threshold",), "plot_tianhu_threshold",
                      exclude=("threshold", "rules_hash"))
    label_runs(runs, lang)
    own, ax = ax is None, new_axes(ax)
    ths = np.unique(rows["threshold"].drop_nulls().to_numpy())
    step = float(np.diff(ths).min()) if len(ths) > 1 else 1.0
    k = len(runs)
    for i, r in enumerate(runs):
        part = r.rows.sort("threshold")
        shift = (i / (k - 1) - 0.5) * 0.3 * step if k > 1 else 0.0
        x = part["threshold"].to_numpy().astype(float) + shift
        rate, lo, hi = (part[c].to_numpy().astype(float) * per
                        for c in ("rate", "ci_low", "ci_high"))
        if log:
            rate = np.where(rate > 0, rate, np.nan)
        ax.errorbar(x, rate, yerr=errs(rate, lo, hi), marker=MARKERS[i % len(MARKERS)],
                    markersize=5, capsize=3, alpha=0.9, label=r.label)
    if log:
        ax.set_yscale("log")
    if 0 < len(ths) <= 12:
        ax.set_xticks(ths)  # the thresholds run, integers all
    else:
        integer_x(ax)
    ax.set_xlabel(text("threshold_x", lang))
    ax.set_ylabel(text("per_deals", lang, metric=metric_name(metric, lang), per=per))
    ax.legend(title=text("variant", lang))
    ax.grid(alpha=0.3)
    return finish(ax, runs, lang, "deals", own)


def plot_huxi_distribution(data: pl.DataFrame, ax=None, lang: str = "en"):
    """胡息 of winning hands: share of wins at each 胡息, as steps (one bin per 胡息), one per run.

    From per-hand rows (``opening_records`` or ``simulate_hands(rows=K)``: every won hand); from
    a ``simulate_deals`` summary (``dealer_huxi_H`` rows) it is the complete dealer hands at the
    deal instead, the ones at or above the threshold being the 天胡. x label "huxi of the
    winning hand", y label "share of winning hands", legend of runs. Raises ValueError for no
    won hands, a bad ``lang``, or runs that cannot be told apart."""
    lang = check_lang(lang)
    summ = metric_rows(data, "dealer_huxi_")
    if summ is not None:
        need(summ, ("variant", "rate"), "plot_huxi_distribution")
        runs = split_runs(summ, ("metric",), "plot_huxi_distribution")
        unit, xl, yl = "deals", "huxi_dealer_x", "share_dealer"
    else:
        rows = hand_rows(data).filter(pl.col("winner") >= 0)
        if rows.height == 0:
            raise ValueError("no won hands to plot")
        runs = split_runs(rows, ("deal",), "plot_huxi_distribution")
        unit, xl, yl = "hands", "huxi_win_x", "share_win_hands"
    label_runs(runs, lang)
    own, ax = ax is None, new_axes(ax)
    for r in runs:
        if summ is not None:
            h = r.rows["metric"].str.extract(r"(\d+)").cast(pl.Int64).to_numpy()
            stairs(ax, h, r.rows["rate"].to_numpy(), r.label)
        else:
            vc = r.rows["huxi"].value_counts()
            stairs(ax, vc["huxi"].to_numpy(), vc["count"].to_numpy() / r.rows.height, r.label)
    integer_x(ax)
    ax.set_xlabel(text(xl, lang))
    ax.set_ylabel(text(yl, lang))
    ax.legend(title=text("variant", lang))
    ax.grid(alpha=0.3)
    return finish(ax, runs, lang, unit, own)


def plot_seat_shares(balance: pl.DataFrame, ax=None, huangzhuang: bool = True,
                     lang: str = "en"):
    """Win share of each seat per run (grouped bars, Wilson 95% bars), and the 荒庄 share beside
    them when ``huangzhuang``. x: runs (``key @threshold`` in a threshold sweep); y label
    "share of hands"; legend "seat 0 (dealer)", "seat 1", …, "no winner (huangzhuang)" (庄家,
    下家, 对家, 上家, 荒庄 in Chinese). Raises ValueError for a table that is not a balance
    table, a bad ``lang``, or runs that cannot be told apart."""
    lang = check_lang(lang)
    wins = balance_rows(balance, "win")
    want = ["win", "huangzhuang"] if huangzhuang else ["win"]
    runs = split_runs(balance.filter(pl.col("metric").is_in(want)), ("metric", "seat"),
                      "plot_seat_shares")
    label_runs(runs, lang)
    sizes = [int(r.rows.filter(pl.col("metric") == "win")["seat"].max() or 0) + 1 for r in runs]
    seats = int(wins["seat"].max()) + 1
    with_hz = huangzhuang and (balance["metric"] == "huangzhuang").any()
    groups = seats + (1 if with_hz else 0)
    width = 0.8 / groups
    own, ax = ax is None, new_axes(ax)
    x = np.arange(len(runs))
    bars = [("win", s, seat_label(s, sizes, lang), None) for s in range(seats)]
    if with_hz:
        bars.append(("huangzhuang", None, text("no_winner", lang), "0.7"))
    for g, (metric, seat, label, color) in enumerate(bars):
        r, lo, hi = (np.asarray(v, float) for v in zip(*(pick(run.rows, metric, seat)
                                                         for run in runs)))
        ax.bar(x + (g - (groups - 1) / 2) * width, r, width, yerr=errs(r, lo, hi), capsize=2,
               color=color, label=label)
    ax.set_xticks(x, [r.label for r in runs], rotation=20, ha="right")
    ax.set_ylabel(text("share_hands", lang))
    ax.legend(fontsize="small")
    ax.grid(axis="y", alpha=0.3)
    return finish(ax, runs, lang, "hands", own)


def plot_dealer_edge(balance: pl.DataFrame, ax=None, lang: str = "en"):
    """Dealer edge per run: seat 0's mean settled score per hand ± 1.96 SE, in the variant's
    unit (named under each run: duo, you, tun, pai, hu; 舵, 油, 囤, 排, 胡), with a line at 0.
    y label "dealer edge (units per hand)"; legend "dealer mean score, 95% interval". Raises
    ValueError for a table that is not a balance table, a bad ``lang``, or runs that cannot be
    told apart."""
    lang = check_lang(lang)
    rows = balance_rows(balance, "score").filter(pl.col("seat") == 0)
    runs = split_runs(rows, ("metric", "seat"), "plot_dealer_edge")
    label_runs(runs, lang)
    own, ax = ax is None, new_axes(ax)
    m = np.array([r.rows["mean"][0] for r in runs], float)
    se = np.array([r.rows["se"][0] for r in runs], float)
    x = np.arange(len(runs))
    ax.errorbar(x, m, yerr=Z95 * np.nan_to_num(se), fmt="o", capsize=4,
                label=text("edge_legend", lang))
    ax.axhline(0, color="0.5", lw=0.8)
    ax.set_xticks(x, [f"{r.label}\n({unit_of(r.key, lang)})" for r in runs], rotation=20,
                  ha="right")
    ax.set_ylabel(text("edge_y", lang))
    ax.legend(fontsize="small")
    ax.grid(axis="y", alpha=0.3)
    return finish(ax, runs, lang, "hands", own)


def plot_fanxing(data: pl.DataFrame, ax=None, lang: str = "en"):
    """翻信 distribution: share of wins whose 翻信 turned 0, 1, 2, 3, 4+ matching cards, bars per
    run (Wilson 95% bars), for the variants that play 翻信 (RULES.md §7.3; the others are left
    out, as they turn none).

    From a ``simulate_deals`` summary or ``deal_table(metrics=None)`` (``fanxing_k`` rows: wins
    at the deal) or from per-hand rows (every won hand). x label "fanxing matches", y label
    "share of wins", legend of runs. Raises ValueError when no variant has 翻信, for a bad
    ``lang``, or for runs that cannot be told apart."""
    from zipai_sim.stats import wilson

    lang = check_lang(lang)
    names = ["fanxing_0", "fanxing_1", "fanxing_2", "fanxing_3", "fanxing_4plus"]
    if "metric" in data.columns and not data["metric"].str.starts_with("fanxing_").any():
        raise ValueError("this table has no 翻信 rows: its variants turn no 翻信 (RULES.md "
                         "§7.3), or it keeps 天胡/地胡 only (`table deal --all-metrics`, "
                         "deal_table(metrics=None), keep them all)")
    summ = metric_rows(data, "fanxing_")
    series = []
    if summ is not None:
        summ = summ.filter(pl.col("metric").is_in(names))
        runs = split_runs(summ, ("metric",), "plot_fanxing")
        label_runs(runs, lang)
        for r in runs:
            get = {m: row for m, row in zip(r.rows["metric"], r.rows.iter_rows(named=True))}
            if all(nm in get for nm in names):
                series.append((r, *(np.array([get[nm][c] for nm in names], float)
                                    for c in ("rate", "ci_low", "ci_high"))))
        unit = "deals"
    else:
        rows = hand_rows(data).filter(pl.col("winner") >= 0)
        runs = split_runs(rows, ("deal",), "plot_fanxing")
        label_runs(runs, lang)
        for r in runs:
            if not fanxing_enabled(r.key):
                continue
            fx = np.minimum(r.rows["fanxing"].to_numpy(), 4)
            n = len(fx)
            counts = np.bincount(fx, minlength=5)[:5]
            ci = np.array([wilson(int(c), n) for c in counts])
            series.append((r, counts / n, ci[:, 0], ci[:, 1]))
        unit = "hands"
    if not series:
        raise ValueError("no 翻信 (fanxing) data: only variants with [fanxing] enabled "
                         "(guangxi-81, liuhu-dao) turn it")
    own, ax = ax is None, new_axes(ax)
    width = 0.8 / len(series)
    x = np.arange(5)
    for i, (r, rate, lo, hi) in enumerate(series):
        ax.bar(x + (i - (len(series) - 1) / 2) * width, rate, width,
               yerr=errs(rate, lo, hi), capsize=2, label=r.label)
    ax.set_xticks(x, ["0", "1", "2", "3", "4+"])
    ax.set_xlabel(text("fanxing_x", lang))
    ax.set_ylabel(text("share_wins", lang))
    ax.legend(title=text("variant", lang))
    ax.grid(axis="y", alpha=0.3)
    return finish(ax, [s[0] for s in series], lang, unit, own)


def plot_convergence(table: pl.DataFrame, ax=None, lang: str = "en"):
    """An estimate against the number of deals (log x; ``deals``, or ``n`` in files made before
    that column), its Wilson 95% interval shaded: the band narrows about as 1/√n. One line per
    run; x label "deals", y label "``metric`` rate"; legend: the runs and "95% interval".
    Raises ValueError for a table that is not ``tables.convergence_table``'s (several metrics,
    or no ``width`` column), a bad ``lang``, or runs that cannot be told apart."""
    lang = check_lang(lang)
    need(table, ("variant", "n", "rate", "ci_low", "ci_high", "width"), "plot_convergence")
    if "seat" in table.columns or ("metric" in table.columns and table["metric"].n_unique() > 1):
        raise ValueError("plot_convergence needs one metric's growing sample "
                         "(tables.convergence_table, `table convergence --out`)")
    x = "deals" if "deals" in table.columns else "n"  # files before the deals column: n = deals
    rows = table.filter(pl.col(x) > 0, pl.col("n") > 0).sort(x, maintain_order=True)
    if rows.height == 0:
        raise ValueError("no rows with n > 0 to plot")
    runs = split_runs(rows, (x,), "plot_convergence")
    label_runs(runs, lang)
    own, ax = ax is None, new_axes(ax)
    for i, r in enumerate(runs):
        n = r.rows[x].to_numpy()
        line, = ax.plot(n, r.rows["rate"].to_numpy(), marker=".", label=r.label)
        ax.fill_between(n, r.rows["ci_low"].to_numpy(), r.rows["ci_high"].to_numpy(),
                        color=line.get_color(), alpha=0.2,
                        label=text("interval", lang) if i == 0 else None)
    ax.set_xscale("log")
    ax.set_xlabel(text("deals_n", lang))
    metric = rows["metric"][0] if "metric" in rows.columns else "estimate"
    ax.set_ylabel(text("rate_y", lang, metric=metric_name(metric, lang)))
    ax.legend()
    ax.grid(alpha=0.3, which="both")
    return finish(ax, runs, lang, "deals", own)


def plot_score_distribution(data: pl.DataFrame, ax=None, seat: int = 0, lang: str = "en"):
    """Settled score of ``seat`` (0 = dealer) per hand: share of hands at each score, as steps
    (one bin per integer score), one per run, in the variant's unit (RULES.md §7). From
    ``opening_records`` or ``simulate_hands(rows=K)`` rows (``pay_seatS``). x label "score of
    seat S (units per hand)" (庄家/下家/… in Chinese), y label "share of hands", legend of runs
    with their units. Raises ValueError for no hands of the seat, a bad ``lang``, or runs that
    cannot be told apart."""
    lang = check_lang(lang)
    if "score" in data.columns and "seat" in data.columns:
        sizes = (data.group_by("variant").agg(pl.col("seat").max())["seat"] + 1).to_list()
        rows = data.filter(pl.col("seat") == seat).select(
            *id_cols(data), *(["deal"] if "deal" in data.columns else []),
            pl.col("score").cast(pl.Int64))
    else:
        col = f"pay_seat{seat}"
        need(data, ("variant", col), "plot_score_distribution")
        pays = [c for c in data.columns if c.removeprefix("pay_seat").isdigit()]
        sizes = [sum(row) for row in data.group_by("variant").agg(
            pl.col(c).is_not_null().any() for c in pays).drop("variant").iter_rows()]
        rows = data.select(*id_cols(data), *(["deal"] if "deal" in data.columns else []),
                           pl.col(col).cast(pl.Int64).alias("score"))
    rows = rows.filter(pl.col("score").is_not_null())
    if rows.height == 0:
        raise ValueError(f"no hands of seat {seat} to plot")
    runs = split_runs(rows, ("deal",), "plot_score_distribution")
    label_runs(runs, lang)
    own, ax = ax is None, new_axes(ax)
    for r in runs:
        vc = r.rows["score"].value_counts()
        stairs(ax, vc["score"].to_numpy(), vc["count"].to_numpy() / r.rows.height,
                f"{r.label} ({unit_of(r.key, lang)})")
    integer_x(ax)
    ax.set_xlabel(text("score_x", lang, seat=seat, name=seat_label(seat, sizes, lang)))
    ax.set_ylabel(text("share_hands", lang))
    ax.legend(title=text("variant", lang))
    ax.grid(alpha=0.3)
    return finish(ax, runs, lang, "hands", own)


PLOTS = {
    "tianhu-threshold": plot_tianhu_threshold,
    "huxi": plot_huxi_distribution,
    "seat-shares": plot_seat_shares,
    "dealer-edge": plot_dealer_edge,
    "fanxing": plot_fanxing,
    "convergence": plot_convergence,
    "scores": plot_score_distribution,
    "sweep": plot_sweep,
    "win-chance": plot_win_chance,
}
