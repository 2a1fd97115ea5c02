"""Drawing helpers shared by the figures of ``zipai_sim.plots.figures``: a new Axes, the finishing
touches (provenance footer, Chinese font, layout), steps for discrete values, and the rows each
figure reads (per-hand rows, balance rows, seat names across table sizes)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from zipai_sim.plots.footer import add_footer, footer_space, footer_text
from zipai_sim.plots.labels import seat_name, unit_name
from zipai_sim.plots.runs import Run, id_cols, with_run_n


def new_axes(ax):
    """``ax``, or the Axes of a new 7 × 4.2 inch figure when ``ax`` is None."""
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(7, 4.2))
    return ax


def finish(ax, runs: Sequence[Run], lang: str, unit: str, own: bool):
    """Footer, Chinese font (``lang="zh"``), and the layout of a figure the helper made."""
    from matplotlib.text import Text

    from zipai_sim.plots.fonts import families

    fig = ax.figure
    add_footer(fig, footer_text(runs, lang, unit))
    # the runs drawn, for the saved file's metadata (plots.save.figure_run_metadata)
    fig._zipai_sim_runs = [*getattr(fig, "_zipai_sim_runs", []), *runs]
    if lang == "zh":
        fam = families(lang)
        for t in fig.findobj(Text):
            t.set_fontfamily(fam)
        for a in fig.axes:  # tick labels made at draw time copy these, not the Text objects'
            a.tick_params(labelfontfamily=fam)
    if own:
        fig.tight_layout(rect=(0, footer_space(fig), 1, 1))
    return ax


def need(df: pl.DataFrame, cols: Sequence[str], what: str) -> None:
    """ValueError naming ``what`` and the missing columns unless ``df`` has all ``cols``."""
    missing = [c for c in cols if c not in df.columns]
    if missing:
        raise ValueError(f"{what} needs the column(s) {missing}; got {df.columns}")


def errs(rate: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Error-bar extents ``float[2, n]`` (below, above) of rates ``float[n]`` with interval
    ``[lo, hi]``, never negative (an interval's rounding may put the rate just outside)."""
    return np.vstack([np.clip(rate - lo, 0, None), np.clip(hi - rate, 0, None)])


def integer_x(ax) -> None:
    """Ticks on whole numbers only, for an x axis of integer values (胡息, thresholds)."""
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def stairs(ax, values: np.ndarray, share: np.ndarray, label: str) -> None:
    """One bin per integer from the smallest to the largest value (zeros between), as steps."""
    keep = ~np.isnan(values.astype(float))
    values, share = values[keep], share[keep]
    lo, hi = int(values.min()), int(values.max())
    full = np.zeros(hi - lo + 1)
    full[values.astype(np.int64) - lo] = share
    ax.stairs(full, np.arange(lo, hi + 2) - 0.5, label=label, linewidth=1.6)


def hand_rows(df: pl.DataFrame) -> pl.DataFrame:
    """Per-hand rows (one per hand) with the identity columns, ``deal`` where present, and
    ``winner, huxi, fanxing`` from ``opening_records`` (seat rows) or ``simulate_hands`` rows;
    ``run_n`` counts every hand of the run, before a figure keeps only the won ones."""
    if "run_n" not in df.columns and "deal" in df.columns and "variant" in df.columns:
        df = df.with_columns(pl.col("deal").n_unique().over(id_cols(df)).alias("run_n"))
    if "won" in df.columns and "win_huxi" in df.columns:  # opening_records: keep the winner's row
        won = df.filter(pl.col("won"))
        lost = df.filter((pl.col("winner") < 0) & (pl.col("seat") == 0))
        df = pl.concat([won, lost]).drop("huxi", strict=False).rename({"win_huxi": "huxi"})
    need(df, ("variant", "winner", "huxi", "fanxing"), "per-hand rows")
    keep = id_cols(df) + (["deal"] if "deal" in df.columns else [])
    return df.select(*keep, pl.col("winner").cast(pl.Int64), pl.col("huxi").cast(pl.Int64),
                     pl.col("fanxing").cast(pl.Int64))


def metric_rows(df: pl.DataFrame, prefix: str) -> pl.DataFrame | None:
    """The rows of a metric table (``simulate`` / ``table deal``) whose metric starts with
    ``prefix``, with ``run_n``; None for a table without a ``metric`` column or such rows."""
    if "metric" not in df.columns:
        return None
    rows = with_run_n(df).filter(pl.col("metric").str.starts_with(prefix))
    return rows if rows.height else None


def balance_rows(balance: pl.DataFrame, metric: str) -> pl.DataFrame:
    """The ``metric`` rows of a balance table (``simulate_hands``); ValueError for a frame that
    is not one or has no such rows."""
    need(balance, ("variant", "metric", "seat", "rate", "ci_low", "ci_high", "mean", "se"),
          "a balance table (simulate_hands)")
    rows = balance.filter(pl.col("metric") == metric)
    if rows.height == 0:
        raise ValueError(f"the balance table has no {metric!r} rows")
    return rows


def seat_label(seat: int, sizes: Sequence[int], lang: str) -> str:
    """Seat ``seat``'s name across runs whose tables seat ``sizes`` players (庄家, 下家, …; a
    seat named differently at 3 and 4 players, e.g. 上家/对家, gets both names)."""
    names = [seat_name(seat, n, lang) for n in dict.fromkeys(sizes) if seat < n]
    return "/".join(dict.fromkeys(names)) or seat_name(seat, None, lang)


def pick(part: pl.DataFrame, metric: str, seat: int | None) -> tuple[float, float, float]:
    """``(rate, ci_low, ci_high)`` of ``metric`` (at ``seat`` if given) in one run's balance
    rows; NaNs when the run has no such row (a seat its table does not have)."""
    row = part.filter(pl.col("metric") == metric)
    if seat is not None:
        row = row.filter(pl.col("seat") == seat)
    if row.height == 0:
        return np.nan, np.nan, np.nan
    return row["rate"][0], row["ci_low"][0], row["ci_high"][0]


def variant_of(key: str):
    """The variant a result row names, or None when it cannot be loaded (a renamed file)."""
    from zipai_sim.game.variants import load_variant

    try:
        return load_variant(key)
    except (ValueError, OSError):
        return None


def unit_of(key: str, lang: str = "en") -> str:
    """The score unit (舵, 油, 囤, 排, 胡: RULES.md §7.1) of variant ``key`` in ``lang``; "units"
    when the variant cannot be loaded."""
    v = variant_of(key)
    return unit_name(v.settle.unit if v is not None else "units", lang)


def fanxing_enabled(key: str) -> bool:
    """Whether variant ``key`` plays 翻信 (RULES.md §7.3); True when it cannot be loaded, so a
    figure shows the rows the file holds."""
    v = variant_of(key)
    return bool(v.fanxing.enabled) if v is not None else True
