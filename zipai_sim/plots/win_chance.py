"""The win-chance figure (issue 40): an analysed hand's chance to win at each decision, one line
per seat, from the table ``zipai-sim analyze --out`` writes (``analysis.hand.Analysis.table``:
one row per answer of every decision), with the Wilson 95% intervals and the clear mistakes of
the answers played marked.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> import polars as pl
>>> t = pl.DataFrame({"decision": [0, 0, 1], "move": [0, 0, 1], "seat": [0, 0, 1],
...                   "answer": ["七", "八", "pass"], "win": [0.4, 0.5, 0.3],
...                   "win_lo": [0.3, 0.4, 0.2], "win_hi": [0.5, 0.6, 0.4],
...                   "loss": [0.0, -0.1, 0.0], "loss_lo": [0.0, -0.5, 0.0],
...                   "played": [True, False, True], "best": [True, False, True]})
>>> ax = plot_win_chance(t)
>>> ax.get_xlabel(), [ln.get_ydata().tolist() for ln in ax.lines if ln.get_gid() == "win"]
('decision (in the order asked)', [[40.0], [30.0]])
"""

from __future__ import annotations

import numpy as np
import polars as pl

from zipai_sim.plots.draw import errs, finish, integer_x, new_axes, variant_of
from zipai_sim.plots.labels import UNITS, check_lang, seat_name, text, unit_name
from zipai_sim.plots.runs import ID_COLS, label_runs, split_runs

#: the columns the figure reads from an analysis table
COLUMNS = ("decision", "seat", "win", "win_lo", "win_hi", "loss", "loss_lo", "played", "best")
MARKERS = ("o", "s", "^", "D", "v", "P")


def drawn_rows(df: pl.DataFrame) -> pl.DataFrame:
    """The row each decision is drawn from: the answer played, or for a typed position (no
    answer played) the best one, the first listed of several; in decision order, the identity
    columns kept. Raises ValueError naming a missing column of ``COLUMNS``."""
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"not an analysis file: missing column{'s' if len(missing) > 1 else ''} "
                         f"{', '.join(map(repr, missing))} (zipai-sim analyze --out writes one)")
    by = [c for c in ID_COLS if c in df.columns] + ["decision"]
    typed = ~pl.col("played").any().over(by)  # a typed position: nothing played, the best drawn
    rows = df.filter(pl.col("played") | (typed & pl.col("best")))
    return rows.unique(subset=by, keep="first", maintain_order=True).sort(
        "decision", maintain_order=True)


def _unit(unit: str | None, df: pl.DataFrame, lang: str) -> str:
    """The settlement unit to name a loss in: ``unit``, else the frame's ``unit`` column, else
    its variant's unit (``draw.unit_of``), else "units"; Chinese or pinyin after ``lang``, so
    a file whose metadata says 舵 reads "duo" on an English figure."""
    if unit is None and "unit" in df.columns and df["unit"].drop_nulls().len():
        unit = str(df["unit"].drop_nulls()[0])
    if unit is None and "variant" in df.columns:
        v = variant_of(str(df["variant"][0]))
        unit = v.settle.unit if v is not None else None
    unit = unit or "units"
    pinyin = {zh: py for py, zh in UNITS.items()}
    return unit_name(pinyin.get(unit, unit), lang)


def plot_win_chance(df: pl.DataFrame, *, lang: str = "en", seat: int | None = None, ax=None,
                    unit: str | None = None):
    """The chance to win the hand (y, 0–100%) at each decision of an analysed hand (x: the
    decision number, 0-based, in the order asked), one line per seat (or only ``seat``), each
    point the answer played (a typed position: the best answer), with its Wilson 95% interval
    as error bars.

    ``df``: an analysis table (``Analysis.table()``, ``zipai-sim analyze --out``; ``load_result``
    reads it), one row per answer with at least ``decision, seat, win, win_lo, win_hi, loss,
    loss_lo, played, best`` (``win*`` 0..1; ``loss*`` in the variant's unit). Decisions whose
    answer played is a clear mistake (``loss_lo > 0``: worse than the best at 95%) get a red
    cross, and the costliest of them (largest ``loss``) its loss written beside it ("−3.2 duo",
    "−3.2 舵"), in ``unit`` (default: the frame's ``unit`` column, else its variant's unit).
    Seats are named as in the other figures (``labels.seat_name``: "seat 0 (dealer)", 庄家,
    下家, …; by number when the variant is unknown). x label "decision (in the order asked)",
    y label "chance to win the hand"; legend: the seats, "95% interval" and, where there is
    one, "clear mistake (loss > 0 at 95%)". Returns the Axes; the data line of each seat has
    gid ``"win"``, the mistakes' markers gid ``"mistake"``.

    Raises ValueError for a frame without the columns of an analysis ("not an analysis file:
    missing column 'win'"), no decisions, a ``seat`` the frame does not hold, several analyses
    in one frame, or a bad ``lang``."""
    lang = check_lang(lang)
    rows = drawn_rows(df)
    if rows.height == 0:
        raise ValueError("the analysis has no decisions to plot")
    have = sorted(rows["seat"].unique().to_list())
    if seat is not None and seat not in have:
        raise ValueError(f"seat {seat} is not in the analysis: it has seat"
                         f"{'s' if len(have) > 1 else ''} {', '.join(map(str, have))}")
    if "variant" not in rows.columns:  # a frame built by hand: a run needs a key to be named by
        rows = rows.with_columns(pl.lit("analysis").alias("variant"))
    if "run_n" not in rows.columns:  # the file's n is its decisions (Analysis.metadata)
        rows = rows.with_columns(pl.col("decision").n_unique().over(
            [c for c in ID_COLS if c in rows.columns]).alias("run_n"))
    runs = split_runs(rows, ("decision",), "plot_win_chance")
    if len(runs) > 1:  # two hands' decisions would share one axis
        raise ValueError(f"plot_win_chance draws one analysed hand; these rows hold "
                         f"{len(runs)} ({', '.join(r.label for r in runs)}): plot them apart")
    label_runs(runs, lang)
    v = variant_of(runs[0].key)
    players = v.layout.players if v is not None else None
    loss_unit = _unit(unit, df, lang)
    own, ax = ax is None, new_axes(ax)
    worst = None  # (loss, x, y) of the costliest clear mistake
    mistakes = []
    for i, s in enumerate([seat] if seat is not None else have):
        part = rows.filter(pl.col("seat") == s)
        x = part["decision"].to_numpy().astype(float)
        win, lo, hi = (part[c].to_numpy().astype(float) * 100 for c in ("win", "win_lo",
                                                                         "win_hi"))
        line, = ax.plot(x, win, marker=MARKERS[i % len(MARKERS)], markersize=5, gid="win",
                        label=seat_name(int(s), players, lang))
        ax.errorbar(x, win, yerr=errs(win, lo, hi), fmt="none", ecolor=line.get_color(),
                    capsize=3, alpha=0.6, label=text("interval", lang) if i == 0 else None)
        loss, loss_lo = (part[c].to_numpy().astype(float) for c in ("loss", "loss_lo"))
        bad = loss_lo > 0  # NaN (a single world: no interval) is no clear mistake
        mistakes += [(xx, yy) for xx, yy in zip(x[bad], win[bad])]
        for xx, yy, ls in zip(x[bad], win[bad], loss[bad]):
            if worst is None or ls > worst[0]:
                worst = (ls, xx, yy)
    if mistakes:
        mx, my = zip(*mistakes)
        ax.plot(mx, my, "X", color="crimson", markersize=10, markeredgecolor="k",
                markeredgewidth=0.6, linestyle="none", zorder=3, gid="mistake",
                label=text("win_mistake", lang))
    if worst is not None:
        ls, xx, yy = worst
        ax.annotate(text("win_loss", lang, loss=ls, unit=loss_unit), (xx, yy),
                    xytext=(8, 14 if yy < 80 else -18), textcoords="offset points",
                    color="crimson", fontsize="small",
                    arrowprops={"arrowstyle": "-", "color": "crimson", "lw": 0.8})
    ax.set_ylim(-3, 103)  # the whole 0–100% range, the intervals at its ends not cut off
    ax.set_yticks(np.arange(0, 101, 20), [f"{t}%" for t in range(0, 101, 20)])
    integer_x(ax)
    ax.set_xlabel(text("win_x", lang))
    ax.set_ylabel(text("win_y", lang))
    ax.legend(fontsize="small")
    ax.grid(alpha=0.3)
    return finish(ax, runs, lang, "decisions", own)
