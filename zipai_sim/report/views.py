"""Result frames as text frames: every rate with its interval, every mean with its SE, in
the digits ``numbers`` sets; run-identity columns left to the header line (issue 11)."""

from __future__ import annotations

import math
from collections.abc import Callable

import polars as pl

from zipai_sim.report.numbers import (
    decimals,
    fixed,
    mean_text,
    rate_text,
    scale_for,
    sig,
    unit_label,
)

#: run-identity columns: they are in the header line, not repeated in the shown table
IDENTITY = ("rules_hash", "seed", "chunk_size")
# (value, low, high) columns of a rate and its Wilson interval, and (mean, SE) columns
_INTERVALS = (("rate", "ci_low", "ci_high"), ("p_sim", "sim_low", "sim_high"),
              ("p_play", "play_low", "play_high"))
_MEANS = (("mean", "se"), ("score_mean", "score_se"))
_PROBS = ("p_exact", "share", "wait_rate", "probability")  # chances shown without an interval


def _cell(x: object) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, float):
        return f"{x:g}" if x == round(x, 6) else sig(x, 4)
    return str(x)


def metric_view(df: pl.DataFrame, per: int | None = None,
                scale: Callable[[str | None, int | None], int] = scale_for) -> pl.DataFrame:
    """A summary frame (``metric, count, n, rate, ci_low, ci_high`` and/or ``mean, se[, sd]``,
    keyed by ``variant, threshold, seat, player, deals`` where present) as text: the keys,
    ``count, n, unit, value, 95% interval`` (and ``width`` where the frame has it). A key with
    one value (one variant, one threshold) is left out: the header names it."""
    keys = [c for c in ("variant", "threshold", "metric", "seat", "player", "deals")
            if c in df.columns and (c in ("metric", "seat", "player", "deals")
                                    or df[c].n_unique() > 1)]
    out: dict[str, list[str]] = {c: [] for c in keys + ["count", "n", "unit", "value",
                                                          "95% interval"]}
    if "width" in df.columns:
        out["width"] = []
    for r in df.iter_rows(named=True):
        for c in keys:
            out[c].append(_cell(r[c]))
        out["count"].append(_cell(r.get("count")))
        out["n"].append(_cell(r.get("n")))
        s = scale(r.get("metric"), per)
        if r.get("mean") is not None:
            sd = r.get("sd")
            tail = f" (sd {sig(sd, 3)})" if sd is not None and math.isfinite(sd) else ""
            value, ci, unit = mean_text(r["mean"], r.get("se")) + tail, "", "mean ± SE"
        else:
            value, ci = rate_text(r.get("rate"), r.get("ci_low"), r.get("ci_high"), s)
            unit = unit_label(s) if value else ""
        out["unit"].append(unit)
        out["value"].append(value)
        out["95% interval"].append(ci)
        if "width" in out:
            d = decimals((r["ci_high"] - r["ci_low"]) * s) if r.get("ci_high") is not None \
                else None
            out["width"].append("" if d is None else fixed(r["width"] * s, d))
    return pl.DataFrame(out, schema={c: pl.String for c in out})


def frame_view(df: pl.DataFrame, per: int | None = None) -> pl.DataFrame:
    """Any result table as text: each rate with its Wilson interval (``rate``/``ci_low``/
    ``ci_high``, ``p_sim``/``sim_low``/``sim_high``, ``p_play``/…) as a value and an interval
    column, in % (or on ``per``), digits set by the interval; means ± SE; other chances in % to
    3 significant digits; run-identity columns left out. A frame with a ``metric`` column is a
    summary: ``metric_view``."""
    if df.height:  # columns of an unrun part (e.g. no play simulation) stay in the frame only
        df = df.select([c for c in df.columns if df[c].null_count() < df.height])
    if "metric" in df.columns and ("rate" in df.columns or "mean" in df.columns):
        return metric_view(df, per)
    s = 100 if per is None else per
    drop = set(IDENTITY) | {c for t in _INTERVALS for c in t[1:]} | {m[1] for m in _MEANS}
    out: dict[str, list[str]] = {}
    for c in df.columns:
        if c in drop:
            continue
        col = df[c].to_list()
        trio = next((t for t in _INTERVALS if t[0] == c and set(t) <= set(df.columns)), None)
        pair = next((m for m in _MEANS if m[0] == c and m[1] in df.columns), None)
        if trio:
            texts = [rate_text(v, lo, hi, s) for v, lo, hi in
                     zip(col, df[trio[1]].to_list(), df[trio[2]].to_list())]
            out[c] = [t[0] for t in texts]
            out["95% interval" if c == "rate" else f"{c} 95%"] = [t[1] for t in texts]
        elif pair:
            out[c.removesuffix("_mean")] = [mean_text(m, e) for m, e in
                                            zip(col, df[pair[1]].to_list())]
        elif c == "band":  # a band's lower edge: a round number
            out[c] = [_cell(None if x is None else round(x * s, 6)) for x in col]
        elif c in _PROBS:
            out[c] = [sig(x * s if x is not None else None, 3) for x in col]
        else:
            out[c] = [_cell(x) for x in col]
    return pl.DataFrame(out, schema={c: pl.String for c in out})


def exact_view(df: pl.DataFrame, per: int | None = None) -> pl.DataFrame:
    """Exact values (``exact_opening``: ``metric, threshold, probability`` or ``mean``,
    ``numerator, denominator``) as text: ``metric, threshold, unit, value`` (4 significant
    digits on the rate's scale: nothing to resolve) and the ``exact`` fraction."""
    out: dict[str, list[str]] = {c: [] for c in ("metric", "threshold", "unit", "value",
                                                 "exact")}
    for r in df.iter_rows(named=True):
        prob = r.get("probability")
        s = scale_for(r["metric"], per)
        out["metric"].append(r["metric"])
        out["threshold"].append(_cell(r.get("threshold")))
        out["unit"].append(unit_label(s) if prob is not None else "mean")
        out["value"].append(sig(prob * s, 4) if prob is not None else sig(r.get("mean"), 4))
        out["exact"].append(f"{r['numerator']}/{r['denominator']}")
    return pl.DataFrame(out, schema={c: pl.String for c in out})
