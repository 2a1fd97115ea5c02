"""The sweep figure (issue 41): a balance metric's paired difference from the baseline against a
swept rule knob, with the 95% intervals of ``compare --sweep`` (``studies.compare``), a line at
0 (the variant as it is) and the knob's value of the baseline where the file names it."""

from __future__ import annotations

import json

import numpy as np
import polars as pl

from zipai_sim.plots.draw import finish, need, new_axes
from zipai_sim.plots.labels import check_lang, metric_name, text, unit_name
from zipai_sim.plots.runs import label_runs, split_runs


def knob_columns(table: pl.DataFrame) -> list[str]:
    """The swept knobs of a ``compare --sweep`` table: its ``SECTION.KEY`` columns."""
    return [c for c in table.columns if "." in c]


def plot_sweep(table: pl.DataFrame, ax=None, metric: str = "score_seat0",
               knob: str | None = None, baseline: object = None, lang: str = "en"):
    """``metric``'s difference from the baseline (run minus baseline, mean per hand with its
    paired 95% interval) at each value of ``knob`` (default: the first swept knob; a numeric knob
    on a numeric axis, any other in the order of the table), a line at 0 and, given the
    baseline's value of the knob (``baseline``, or the file's ``sweep_baseline`` metadata that
    ``load_result`` keeps), a marker there. y label "METRIC minus the variant as it is (UNIT)".
    Raises ValueError for a table that is not a sweep, an unknown metric or knob, a bad
    ``lang``."""
    lang = check_lang(lang)
    need(table, ("metric", "diff", "ci_low", "ci_high"), "plot_sweep")
    knobs = knob_columns(table)
    if not knobs:
        raise ValueError("plot_sweep draws a compare --sweep table: this one has no swept knob "
                         "(SECTION.KEY) column")
    knob = knob or knobs[0]
    if knob not in knobs:
        raise ValueError(f"knob {knob!r} was not swept; the table sweeps {', '.join(knobs)}")
    rows = table.filter(pl.col("metric") == metric)
    if rows.height == 0:
        have = table["metric"].unique(maintain_order=True).to_list()
        raise ValueError(f"metric {metric!r} is not in the table; it has {', '.join(have)}")
    runs = split_runs(rows, ("metric",), "plot_sweep")
    label_runs(runs, lang)
    own, ax = ax is None, new_axes(ax)
    values = rows[knob].to_list()
    numeric = rows[knob].dtype.is_integer()
    order = np.argsort(values) if numeric else np.arange(len(values))
    x = np.asarray(values, float)[order] if numeric else np.arange(len(values))
    d, lo, hi = (rows[c].to_numpy().astype(float)[order] for c in ("diff", "ci_low", "ci_high"))
    ax.errorbar(x, d, yerr=np.vstack([d - lo, hi - d]), fmt="o-", capsize=4,
                label=text("sweep_legend", lang))
    ax.axhline(0, color="0.5", lw=0.8, label=text("sweep_zero", lang))
    if baseline is None and "sweep_baseline" in table.columns:
        baseline = json.loads(table["sweep_baseline"][0]).get(knob)
    if numeric and isinstance(baseline, int) and not isinstance(baseline, bool):
        ax.plot([baseline], [0], "D", color="k", label=text("sweep_base", lang, value=baseline))
    if not numeric:
        ax.set_xticks(x, [str(values[i]) for i in order], rotation=20, ha="right")
    unit = rows["unit"][0] if "unit" in rows.columns else ""
    ax.set_xlabel(knob)
    ax.set_ylabel(text("sweep_y", lang, metric=metric_name(metric, lang),
                       unit=unit_name(unit, lang) if unit in ("duo", "you", "tun", "pai", "hu")
                       else unit))
    ax.legend(fontsize="small")
    ax.grid(alpha=0.3)
    return finish(ax, runs, lang, "hands", own)
