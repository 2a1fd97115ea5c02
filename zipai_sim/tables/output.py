"""What every table shares on its way out: Wilson rows, Markdown, Parquet with run metadata."""

from __future__ import annotations

import math
import os
from collections.abc import Iterable

import polars as pl

from zipai_sim.stats import wilson

#: columns that identify a run rather than describe a result; ``to_markdown`` leaves them out
IDENTITY = ("rules_hash", "seed", "chunk_size")


def rate_cols(count: int, n: int) -> dict[str, float | int]:
    """``count, n, rate, ci_low, ci_high`` (Wilson 95%, ``stats.wilson``); NaNs for ``n = 0``."""
    lo, hi = wilson(count, n)
    return {"count": int(count), "n": int(n), "rate": count / n if n else math.nan,
            "ci_low": lo, "ci_high": hi}


def with_wilson(df: pl.DataFrame, count: str = "count", n: str = "n",
                names: tuple[str, str, str] = ("rate", "ci_low", "ci_high")) -> pl.DataFrame:
    """``df`` with the columns ``names`` (rate, Wilson 95% low, high) from its ``count``/``n``
    columns (null where ``n`` is null or 0)."""
    rates, lows, highs = [], [], []
    for c, m in zip(df[count].to_list(), df[n].to_list()):
        if c is None or not m:
            rates.append(None)
            lows.append(None)
            highs.append(None)
            continue
        lo, hi = wilson(c, m)
        rates.append(c / m)
        lows.append(lo)
        highs.append(hi)
    return df.with_columns(pl.Series(names[0], rates, pl.Float64),
                           pl.Series(names[1], lows, pl.Float64),
                           pl.Series(names[2], highs, pl.Float64))


def _cell(x: object, digits: int) -> str:
    if x is None:
        return ""
    if isinstance(x, float):
        if math.isnan(x):
            return ""
        return f"{x:.{digits}g}"
    if isinstance(x, bool):
        return "yes" if x else "no"
    return str(x).replace("|", "\\|")


def to_markdown(df: pl.DataFrame, digits: int = 4, drop: Iterable[str] = IDENTITY) -> str:
    """A GitHub Markdown table of ``df``: floats to ``digits`` significant digits, nulls and NaNs
    blank, booleans yes/no; the run-identity columns in ``drop`` are left out.

    >>> print(to_markdown(pl.DataFrame({"card": ["二"], "p": [0.123456]})))
    | card | p |
    |---|---|
    | 二 | 0.1235 |
    """
    keep = [c for c in df.columns if c not in set(drop)]
    lines = ["| " + " | ".join(keep) + " |", "|" + "---|" * len(keep)]
    for row in df.select(keep).iter_rows():
        lines.append("| " + " | ".join(_cell(x, digits) for x in row) + " |")
    return "\n".join(lines)


def formatted(df: pl.DataFrame, digits: int = 4, drop: Iterable[str] = IDENTITY) -> pl.DataFrame:
    """``df`` as text columns, formatted as ``to_markdown`` formats cells (for aligned printing)."""
    keep = [c for c in df.columns if c not in set(drop)]
    return pl.DataFrame({c: [_cell(x, digits) for x in df[c].to_list()] for c in keep},
                        schema={c: pl.String for c in keep})


def _joined(df: pl.DataFrame, col: str) -> str | None:
    if col not in df.columns:
        return None
    vals = df[col].drop_nulls().unique(maintain_order=True).to_list()
    return ",".join(str(v) for v in vals)


def table_metadata(df: pl.DataFrame, table: str = "", **run: object) -> dict[str, str]:
    """Key-value metadata for a table: ``table`` (its kind), the common keys (command line,
    versions: ``provenance.common_metadata``), the variants, rules hashes, thresholds and seeds
    found in its columns, then what its run says (``provenance.run_metadata`` of a
    ``ReportFrame``'s ``run``: n done and requested, partial, chunk size, policies …), and every
    ``run`` item (seed, n, chunk size, policies …) as text, over those."""
    from zipai_sim.runs.provenance import common_metadata, run_metadata

    meta = {"table": table, **common_metadata()}
    for col, key in (("variant", "variants"), ("rules_hash", "rules_hash"),
                     ("threshold", "thresholds"), ("seed", "seed")):
        v = _joined(df, col)
        if v is not None:
            meta[key] = v
    for k, v in run_metadata(getattr(df, "run", None) or {}).items():
        meta.setdefault(k, v)
    for k, v in run.items():
        if v is not None:
            meta[k] = ",".join(str(x) for x in v) if isinstance(v, (list, tuple)) else \
                str(v).lower() if isinstance(v, bool) else str(v)
    if "n" in meta:  # a table that does not say otherwise is its whole run
        meta.setdefault("n_requested", meta["n"])
        if "partial" not in meta and meta["n"].isdigit() and meta["n_requested"].isdigit():
            meta["partial"] = str(int(meta["n"]) < int(meta["n_requested"])).lower()
    return meta


def write_table(df: pl.DataFrame, path: str | os.PathLike, table: str = "",
                **run: object) -> dict[str, str]:
    """Write ``df`` to Parquet atomically (``io.write_parquet``) with ``table_metadata``; returns
    the metadata written. Raises OSError naming the path when it cannot be written."""
    from zipai_sim.runs.io import write_parquet

    meta = table_metadata(df, table, **run)
    write_parquet(df, path, meta)
    return meta
