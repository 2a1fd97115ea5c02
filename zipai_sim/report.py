"""Results as a person reads them: one number formatter, one header line, one HTML view.

Every command and every result object goes through here, so the terminal and a notebook show
the same text (issue 11):

- **Scale.** A rate over all deals or hands of a run (天胡, 地胡, 海底, 提/坎 shapes) is shown per
  10,000 (``DEFAULT_PER``); a share of a part (win shares, 荒庄, a distribution given a win) in
  %. ``per`` (CLI ``--per``) puts every rate on one scale instead: 10000, 1000, 100 (%) or 1.
- **Digits.** A rate and its Wilson 95% interval get the decimals that show the interval's width
  to two significant digits; a mean gets those of its standard error (two significant digits):
  enough to resolve the interval, no more. ``130`` of ``200,000`` deals is ``6.5 [5.5, 7.7]``
  per 10,000.
- **Header.** One line names the run: variant (key and rules hash), threshold, seed, n, chunk
  size, policies, threads, seconds; fields that do not apply are left out.

>>> rate_text(130 / 200_000, 0.000547482, 0.0007717, 10_000)
('6.5', '[5.5, 7.7]')
>>> mean_text(0.8252, 0.0469)
'0.825 ± 0.047'
>>> header([("guangxi-81", "2bd4db2c7ba96a7d")], [15], seed=7, n=20_000, chunk_size=4096)
'guangxi-81 (rules 2bd4db2c7ba96a7d), threshold 15, seed 7, 20,000 deals, chunk 4,096'
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import polars as pl

#: the root seed of every command and of every Python function that has a default seed
DEFAULT_SEED = 20261129
#: rare per-deal events are shown per this many deals (or hands)
DEFAULT_PER = 10_000
#: run-identity columns: they are in the header line, not repeated in the shown table
IDENTITY = ("rules_hash", "seed", "chunk_size")
# rates of events over the whole run (tiny numbers: per 10,000); every other rate is a share (%)
_RARE = re.compile(r"^(tianhu|dihu|instant|dealer_two_ti|dealer_complete|santi_seat|wukan_seat|"
                   r"two_ti_seat|haidi)")
# (value, low, high) columns of a rate and its Wilson interval, and (mean, SE) columns
_INTERVALS = (("rate", "ci_low", "ci_high"), ("p_sim", "sim_low", "sim_high"),
              ("p_play", "play_low", "play_high"))
_MEANS = (("mean", "se"), ("score_mean", "score_se"))
_PROBS = ("p_exact", "share", "wait_rate", "probability")  # chances shown without an interval


def check_per(per: object, name: str = "per") -> int | None:
    """``per`` as a power of ten ≥ 1 (or None: the default scales), else ValueError naming
    ``name``."""
    if per is None:
        return None
    ok = isinstance(per, int) and not isinstance(per, bool) and per >= 1
    if not ok or 10 ** round(math.log10(per)) != per:
        raise ValueError(f"{name} must be a power of ten: 1, 10, 100, 1000, 10000 …; got {per!r}")
    return per


def scale_for(metric: str | None, per: int | None) -> int:
    """The scale a rate is shown in: ``per`` if given, else ``DEFAULT_PER`` for a rare event over
    all deals or hands and 100 (%) for a share."""
    if per is not None:
        return per
    return DEFAULT_PER if metric is not None and _RARE.match(metric) else 100


def unit_label(scale: int) -> str:
    """``100`` → ``"%"``, ``1`` → ``"fraction"``, else ``"per 10,000"``."""
    return {100: "%", 1: "fraction"}.get(scale, f"per {scale:,}")


def decimals(width: float, sig: int = 2) -> int | None:
    """Decimals that show ``width`` (an interval's width or an SE) to ``sig`` significant digits
    (none for a width ≥ 10); None for a width that is 0, NaN or missing.

    >>> decimals(2.2425), decimals(0.0469), decimals(31.0), decimals(0.0)
    (1, 3, 0, None)
    """
    if width is None or not math.isfinite(width) or width <= 0:
        return None
    return min(12, max(0, sig - 1 - math.floor(math.log10(width))))


def fixed(x: float, d: int) -> str:
    """``x`` with ``d`` decimals, never ``-0``."""
    s = f"{x:.{d}f}"
    return s[1:] if s.startswith("-") and float(s) == 0 else s


def sig(x: float | None, k: int = 3) -> str:
    """``x`` to ``k`` significant digits in fixed notation (no exponent); "" for None/NaN."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    if x == 0:
        return "0"
    return fixed(x, max(0, k - 1 - math.floor(math.log10(abs(x)))))


def diff_text(mean: float, low: float, high: float) -> tuple[str, str]:
    """A signed difference (a paired score difference) and its interval, with the decimals of
    the interval's width (``decimals``); a zero-width interval keeps the exact value."""
    if mean is None or math.isnan(mean):
        return "", ""
    if math.isnan(low) or math.isnan(high):
        return sig(mean, 4), ""
    d = decimals(high - low)
    if d is None:  # a zero-width interval: every deck gave the same difference
        x = f"{mean:+g}" if mean else "0"
        return x, f"[{x}, {x}]"
    return (("+" if mean > 0 else "") + fixed(mean, d),
            f"[{fixed(low, d)}, {fixed(high, d)}]")


def rate_text(rate: float | None, low: float | None, high: float | None,
              scale: int = 100) -> tuple[str, str]:
    """A rate and its interval on ``scale`` (100 = %), with ``decimals`` of the interval's width:
    ``(value, "[low, high]")``; without an interval, the value to 3 significant digits."""
    if rate is None or (isinstance(rate, float) and math.isnan(rate)):
        return "", ""
    if low is None or high is None or math.isnan(low) or math.isnan(high):
        return sig(rate * scale), ""
    d = decimals((high - low) * scale)
    if d is None:
        return sig(rate * scale, 4), ""
    return fixed(rate * scale, d), f"[{fixed(low * scale, d)}, {fixed(high * scale, d)}]"


def mean_text(mean: float | None, se: float | None) -> str:
    """``mean ± SE`` with the SE to two significant digits and the mean to the same decimals;
    the mean alone (4 significant digits) when the SE is undefined."""
    if mean is None or (isinstance(mean, float) and math.isnan(mean)):
        return ""
    if se == 0:  # every value the same (e.g. hands per match under a fixed number of hands)
        return f"{mean:g} ± 0"
    d = decimals(se) if se is not None else None
    return sig(mean, 4) if d is None else f"{fixed(mean, d)} ± {fixed(se, d)}"


def header(variants: Iterable[tuple[str, str]] = (), thresholds: Iterable[int] = (), *,
           seed: int | None = None, n: int | None = None, unit: str = "deals",
           chunk_size: int | None = None, policies: str | Sequence[str] | None = None,
           threads: int | None = None, seconds: float | None = None,
           extra: Iterable[str] = (), partial: bool = False,
           n_requested: int | None = None, workers: int | None = None) -> str:
    """The one-line header of a run: ``variants`` as (key, rules hash) or keys, ``thresholds``,
    ``seed``, ``n`` ``unit`` (deals, hands, matches), ``chunk_size``, ``policies`` (one name or
    one per seat), ``threads`` (or ``workers``: the Dask workers the run went to, said in their
    place), ``seconds``, then ``extra`` phrases; None fields are left out.
    ``partial``: Ctrl-C stopped the run after ``n`` of ``n_requested`` (said last)."""
    vs = [(v, "") if isinstance(v, str) else tuple(v) for v in variants]
    ts = list(thresholds)
    ths = list(dict.fromkeys(t for t in ts if t is not None))
    parts = []
    if len(vs) > 1 and len(vs) == len(ts):  # several runs: each variant at its threshold
        keys: dict[str, list[str]] = {}
        for (k, h), t in dict.fromkeys(zip(vs, ts)):
            keys.setdefault(k, []).append(f"{t}" + (f" (rules {h})" if h else ""))
        parts.append("; ".join(f"{k} at threshold{'s' * (len(x) > 1)} {', '.join(x)}"
                               for k, x in keys.items()))
    else:
        seen = list(dict.fromkeys(vs))
        if seen:
            parts.append(", ".join(f"{k} (rules {h})" if h else k for k, h in seen))
        if ths:
            parts.append(f"threshold{'s' * (len(ths) > 1)} {', '.join(map(str, ths))}")
    if seed is not None:
        parts.append(f"seed {seed}")
    if n is not None:
        parts.append(f"{n:,} {unit[:-1] if n == 1 and unit.endswith('s') else unit}")
    if chunk_size is not None:
        parts.append(f"chunk {chunk_size:,}")
    if policies is not None:
        pols = [policies] if isinstance(policies, str) else list(policies)
        parts.append(("policy " if len(set(pols)) == 1 else "policies ")
                     + (pols[0] if len(set(pols)) == 1 else ", ".join(pols)))
    if workers is not None:  # this process's thread count says nothing about the work then
        parts.append(f"on Dask, {workers} worker{'s' * (workers != 1)}")
    elif threads is not None:
        parts.append(f"{threads} thread{'s' * (threads != 1)}")
    if seconds is not None:
        parts.append(f"{seconds:.1f} s")
    if partial:
        extra = [*extra, f"PARTIAL: interrupted after {n or 0:,} of {n_requested or 0:,} {unit}"]
    for x in extra:  # a phrase in parentheses qualifies the one before it
        if x.startswith("(") and parts:
            parts[-1] += " " + x
        else:
            parts.append(x)
    return ", ".join(parts)


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


def render(df: pl.DataFrame) -> str:
    """A text frame as the aligned table every command prints (Markdown-style ASCII)."""
    with pl.Config(tbl_formatting="ASCII_MARKDOWN", tbl_hide_column_data_types=True,
                   tbl_hide_dataframe_shape=True, tbl_rows=-1, tbl_cols=-1,
                   tbl_width_chars=1000, fmt_str_lengths=200):
        return str(df.fill_null(""))


def markdown(df: pl.DataFrame) -> str:
    """A text frame as a GitHub Markdown table (``|`` in cells escaped)."""
    rows = [[str(x or "").replace("|", "\\|") for x in row] for row in df.iter_rows()]
    lines = ["| " + " | ".join(df.columns) + " |", "|" + "---|" * len(df.columns)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def html_table(df: pl.DataFrame) -> str:
    """A text frame as a plain HTML table (for ``_repr_html_``)."""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in df.columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(x or ''))}</td>" for x in row)
                   + "</tr>" for row in df.iter_rows())
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


@dataclass
class Report:
    """What a command prints: the ``header`` line, the ``table`` (text columns) and ``notes``
    (legend lines). ``str(report)`` is the terminal text; in Jupyter it shows as HTML."""

    header: str
    table: pl.DataFrame
    notes: list[str] = field(default_factory=list)

    def text(self, as_markdown: bool = False) -> str:
        """The header, the table (aligned text, or Markdown) and the notes, one per line."""
        body = markdown(self.table) if as_markdown else render(self.table)
        return "\n".join([self.header, body, *self.notes])

    def __str__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        notes = "".join(f"<p>{html.escape(x)}</p>" for x in self.notes)
        return (f"<p><code>{html.escape(self.header)}</code></p>" + html_table(self.table)
                + notes)


class ReportFrame(pl.DataFrame):
    """A result table (a ``polars.DataFrame``: every frame operation works, and returns a plain
    frame) that keeps its run's header fields (``run``, keyword arguments of ``header``) and
    ``notes``, so that in a notebook it shows what the command line prints (``report``)."""

    run: dict | None = None
    notes: list[str] | None = None
    show: bool = True

    @classmethod
    def wrap(cls, df: pl.DataFrame, run: dict, notes: Sequence[str] = (),
             show: bool = True) -> ReportFrame:
        """``df`` with its run (``header`` keywords: variants, thresholds, seed, n, unit …);
        ``show=False`` for raw rows (records) that only carry the run to the tables made of
        them and display as a plain frame."""
        f = cls(df)
        f.run, f.notes, f.show = dict(run), list(notes), show
        return f

    def report(self, per: int | None = None) -> Report:
        """The header line, the formatted table (``frame_view``) and the notes."""
        return Report(header(**(self.run or {})), frame_view(self, check_per(per)),
                      list(self.notes or []))

    def _repr_html_(self, *args, **kwargs) -> str:
        if self.run is None or not self.show:  # raw rows, or unpickled (the run is not kept)
            return super()._repr_html_(*args, **kwargs)
        return self.report()._repr_html_()


def combine(frames: Sequence[pl.DataFrame], show: bool = True) -> ReportFrame:
    """Several results as one table (``pl.concat``) under one header (``run_of``)."""
    return ReportFrame.wrap(pl.concat(frames), run_of(frames), show=show)


def run_of(frames: Sequence[pl.DataFrame]) -> dict:
    """The ``header`` keywords of several ``ReportFrame`` results shown as one table (e.g. a
    threshold sweep): their variants and thresholds joined, the rest from the first; seconds
    summed."""
    runs = [f.run for f in frames if isinstance(f, ReportFrame) and f.run]
    if not runs:
        return {}
    out = dict(runs[0])
    out["variants"] = [v for r in runs for v in r.get("variants", ())]
    out["thresholds"] = [t for r in runs for t in r.get("thresholds", ())]
    if all(r.get("seconds") is not None for r in runs):
        out["seconds"] = sum(r["seconds"] for r in runs)
    return out


def play_header(key: str, rules_hash: str, threshold: int, seats: int, seed: int | None,
                deal: int | None, policies: str | Sequence[str]) -> str:
    """The header of one played hand (``zipai-sim play`` and its replay): the variant, seed, deal
    and policies, and the dealer: seat 0 (庄) deals, the others follow in turn (下家 seat 1)."""
    extra = [f"deal {deal}"] if deal is not None else []
    extra.append(f"dealer seat 0 (庄), then seats {', '.join(map(str, range(1, seats)))}")
    return header([(key, rules_hash)], [threshold], seed=seed, policies=policies, extra=extra)


def run_fields(v, *, started: float | None = None, policies: Sequence[object] | str | None = None,
               threads: int | None = None, engine: str | None = None, **kw: object) -> dict:
    """``header`` keywords of a run of variant ``v``: its key, rules hash and threshold, the
    policies by name (a user policy object by its class name), the threads it used (None: all
    cores), the seconds since ``started`` (``time.perf_counter()``), ``engine`` when it is not
    the default numba one, and ``kw`` as they are."""
    import time

    import numba

    cores = numba.config.NUMBA_NUM_THREADS
    pols = None if policies is None else [policies] if isinstance(policies, str) else [
        x if isinstance(x, str) else type(x).__name__ for x in policies]
    out = dict(variants=[(v.key, v.rules_hash)], thresholds=[v.win.threshold], policies=pols,
               threads=min(threads or cores, cores),
               seconds=None if started is None else time.perf_counter() - started, **kw)
    if engine not in (None, "numba"):
        out["extra"] = [*out.get("extra", ()), f"{engine} engine"]
    return out


#: library parameters and the command-line flags that set them, so that an error raised by the
#: library under a command names the flag the user typed (``first_dealer`` → ``--first-dealer``)
FLAGS = {"first_dealer": "--first-dealer", "max_hands": "--max-hands", "chunk_size":
         "--chunk-size", "sample_per_chunk": "--sample-rows", "own_draws": "--own-draws",
         "threads": "--threads", "seed": "--seed", "hands": "--hands", "target": "--target",
         "matches": "--matches", "sims": "--sims", "play": "--play", "stock": "--stock",
         "discards": "--discards", "seat": "--seat", "step": "--step", "points": "--points",
         "start": "--start", "metric": "--metric", "rows": "--rows", "deal": "--deal",
         "bins": "--bin", "thresholds": "--thresholds", "per": "--per"}
# not after a dot: ``[layout].stock`` names a variant file's key, not a flag
_PARAM = re.compile(r"(?<![\w.-])(" + "|".join(FLAGS) + r")\b(?= (must|and|is|\(|'))")


def flag_message(message: str) -> str:
    """A library error as the command line shows it: parameter names that open a complaint
    (``max_hands must be ≥ 8``) become flags (``--max-hands must be ≥ 8``).

    >>> flag_message("first_dealer must be a player 0..2 or 'rotate', got 7")
    "--first-dealer must be a player 0..2 or 'rotate', got 7"
    >>> flag_message("my.toml: [layout].stock must be an integer in 0..80, got -1")
    'my.toml: [layout].stock must be an integer in 0..80, got -1'
    """
    return _PARAM.sub(lambda m: FLAGS[m.group(1)], message)
