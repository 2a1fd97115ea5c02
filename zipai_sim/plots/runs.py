"""Which runs a figure draws and what each is called (issue 11).

A *run* is one simulation: a variant (key and rules hash) at a threshold, with a bot (for played
hands), a seed and a size ``n``, read from one file. Figures never merge two runs into one line
or bar: runs that differ stay apart and their legend labels say how (``split_runs``,
``label_runs``); rows that cannot be told apart (a variant key given twice with nothing to
separate the runs) are refused with a one-line ValueError, as is the same run given twice.

A run is told by the identity columns of the frame (``ID_COLS`` and ``run_n``), which
``plots.load.load_result`` fills from each file's metadata where the table lacks them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl

from zipai_sim.plots.labels import text

#: columns that tell runs apart, in the order their differences are named in a label
ID_COLS = ("variant", "threshold", "rules_hash", "bot", "seed", "source")


@dataclass
class Run:
    """One run's identity (None where the data do not say) and its rows."""

    key: str
    threshold: int | None
    rules_hash: str | None
    bot: str | None
    seed: int | None
    source: str | None
    n: int | None
    rows: pl.DataFrame
    label: str = ""

    def describe(self) -> str:
        """The variant key, and ``@threshold`` when the run names one."""
        return self.key + (f" @{self.threshold}" if self.threshold is not None else "")


def id_cols(df: pl.DataFrame) -> list[str]:
    """The identity columns ``df`` has (``ID_COLS`` and ``run_n``), to carry through a select."""
    return [c for c in (*ID_COLS, "run_n") if c in df.columns]


def with_run_n(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` with ``run_n``, each run's largest ``n`` (its deals), where it has an ``n`` column
    and no ``run_n``: kept before a figure picks rows whose ``n`` counts something else (the
    wins of a ``fanxing_k`` row, the complete hands of a ``dealer_huxi_H`` row)."""
    if "run_n" in df.columns or "n" not in df.columns:
        return df
    by = [c for c in ID_COLS if c in df.columns]
    return df.with_columns(pl.col("n").max().over(by).alias("run_n"))


def _run_n(rows: pl.DataFrame) -> int | None:
    """The run's size: its ``run_n`` (from the file's metadata), else the largest ``n`` of its
    rows (deals or hands of a table), else the number of distinct ``deal`` rows."""
    for col, how in (("run_n", "first"), ("n", "max"), ("deal", "n_unique")):
        if col in rows.columns and rows[col].drop_nulls().len():
            s = rows[col].drop_nulls()
            return int(s[0] if how == "first" else s.max() if how == "max" else s.n_unique())
    return None


def split_runs(df: pl.DataFrame, unique: Sequence[str], what: str,
               exclude: Sequence[str] = ()) -> list[Run]:
    """The runs of ``df`` in first-seen order, labelled (``label_runs`` in English).

    ``unique``: columns whose values appear once per run (e.g. ``("metric", "seat")`` in a
    balance table, ``("deal",)`` in per-hand rows); ``exclude``: identity columns drawn along an
    axis rather than told apart (``threshold`` in ``plot_tianhu_threshold``). Raises ValueError
    (``what`` names the figure) when a run's ``unique`` values repeat — two runs with nothing
    in the data to tell them apart, e.g. a repeated variant key — or when two files hold the
    same run."""
    cols = [c for c in ID_COLS if c in df.columns and c not in exclude]
    runs = []
    for key, part in df.group_by(cols, maintain_order=True):
        ident = dict(zip(cols, key))
        runs.append(Run(str(ident["variant"]), ident.get("threshold"), ident.get("rules_hash"),
                        ident.get("bot"), ident.get("seed"), ident.get("source"),
                        _run_n(part), part))
    for r in runs:
        u = [c for c in unique if c in r.rows.columns]
        dup = r.rows.filter(r.rows.select(u).is_duplicated()) if u else r.rows.clear()
        differ = [c.replace("_", " ") for c in exclude if dup.height and c in dup.columns
                  and c not in u and (dup.group_by(u).agg(pl.col(c).n_unique())[c].max()) > 1]
        if differ:  # e.g. two rule sets under one key, in a figure that draws a key as one line
            raise ValueError(f"{what}: {r.key} comes as runs that differ in {', '.join(differ)} "
                             f"(two rule sets under one variant key?), which this figure would "
                             f"draw as one line: give them different keys or plot them apart")
        if dup.height:
            same = [c.replace("_", " ") for c in cols if c != "source"]
            raise ValueError(
                f"{what}: {r.describe()} appears as two runs that nothing tells apart (same "
                f"{', '.join(same)}{' and file' if 'source' in cols else ''}): a repeated "
                f"variant key? Give each run once, or runs that differ in threshold, seed or bot")
    for i, a in enumerate(runs):
        for b in runs[i + 1:]:
            if a.source != b.source and _same_run(a, b):
                raise ValueError(f"{what}: {a.source} and {b.source} hold the same run "
                                 f"({a.describe()}): give it once")
    label_runs(runs, "en")
    return runs


def _same_run(a: Run, b: Run) -> bool:
    ident = ("key", "threshold", "rules_hash", "bot", "seed", "n")
    if any(getattr(a, f) != getattr(b, f) for f in ident):
        return False
    ra, rb = (r.rows.drop("source", strict=False) for r in (a, b))
    return ra.columns == rb.columns and ra.equals(rb)


def _field(run: Run, f: str, lang: str) -> str:
    v = getattr(run, f)
    if f == "threshold":
        return f"@{v}"
    if f == "rules_hash":
        return f"#{str(v)[:8]}"
    if f == "n":
        return f"n={v:,}" if v is not None else "n=?"
    if f == "source":
        return str(v)
    return f"{text(f, lang)} {v}"


def label_runs(runs: list[Run], lang: str) -> list[str]:
    """Set and return each run's legend label: its variant key, then what tells it apart from
    the other runs of the same key, in this order: ``@threshold``, ``#rules-hash`` (between runs
    at one threshold), bot, seed, ``n=…``, and the file name where nothing else does
    (``guangxi-81 @15``, ``guangxi-81 #3f2a9c1d``, ``guangxi-81 bot random``).
    """
    fields = ("threshold", "rules_hash", "bot", "seed", "n")
    for r in runs:
        same = [q for q in runs if q.key == r.key]
        # the rules hash covers the threshold too: it is news only between runs at one threshold
        shown = [f for f in fields if len({getattr(q, f) for q in same if f != "rules_hash"
                                           or q.threshold == r.threshold}) > 1]
        r.label = " ".join([r.key] + [_field(r, f, lang) for f in shown])
    labels = [r.label for r in runs]
    for r in runs:  # the file name only where nothing else tells two runs apart
        if labels.count(r.label) > 1 and r.source:
            r.label += f" {r.source}"
    return [r.label for r in runs]
