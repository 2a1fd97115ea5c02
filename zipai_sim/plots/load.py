"""Saved results read for a figure: Parquet files into one frame, each row keeping the run it
came from (``load_result``), with the identity columns a table lacks filled from its file's
key-value metadata (``with_provenance``)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import polars as pl


def _single(meta: dict[str, str], *keys: str) -> str | None:
    for k in keys:
        v = meta.get(k)
        if v is not None and v != "" and "," not in v:
            return v
    return None


def _line_up(meta: dict[str, str]) -> str | None:
    """The bot of a file's run: its name when every seat played it, else the seats' bots in
    seat order (dealer first) joined by "/" ("lookahead/greedy/random"): a file's ``policies``
    lists one bot per seat, and a figure's caption joins the bots of its runs with commas."""
    v = meta.get("policies") or meta.get("policy")
    if not v:
        return None
    seats = v.split(",")
    return seats[0] if len(set(seats)) == 1 else "/".join(seats)


def with_provenance(df: pl.DataFrame, meta: dict[str, str], source: str) -> pl.DataFrame:
    """``df`` with the identity columns it lacks filled from its file's metadata: ``rules_hash``
    (``rules_hash``, or per variant and threshold from ``variant_keys``/``thresholds``/
    ``rules_hashes``), ``seed``, ``bot`` (``policies``/``policy``), ``run_n`` (``n``), and
    ``source`` (the file name)."""
    add = []
    if "rules_hash" not in df.columns:
        one = _single(meta, "rules_hash")
        if one is not None:
            add.append(pl.lit(one).alias("rules_hash"))
        elif {"variant_keys", "thresholds", "rules_hashes"} <= meta.keys() and \
                "threshold" in df.columns:
            keys, ths, hs = (meta[k].split(",") for k in ("variant_keys", "thresholds",
                                                          "rules_hashes"))
            found: dict[tuple[str, str], set[str]] = {}
            if len(keys) == len(ths) == len(hs):
                for k, t, h in zip(keys, ths, hs):
                    found.setdefault((k, t), set()).add(h)
            # a key and threshold run under two rule sets stays unknown (null), so the runs
            # show up as ones nothing tells apart instead of taking one hash by chance
            hashes = [next(iter(found[(str(v), str(t))])) if len(found.get(
                (str(v), str(t)), ())) == 1 else None for v, t in zip(df["variant"],
                                                                      df["threshold"])]
            add.append(pl.Series("rules_hash", hashes, pl.String))
    seed, n = _single(meta, "seed"), _single(meta, "n")
    bot = _line_up(meta)
    # seeds are UInt64 (0 … 2**64−1, every command's range) in every frame, so files from
    # tables (UInt64 since issue 10), older tables (Int64) and simulate metadata concatenate
    # without a cast to a float; a Python-only seed beyond 2**64 stays text, never merged
    if "seed" in df.columns and df.schema["seed"].is_integer():
        df = df.with_columns(pl.col("seed").cast(pl.UInt64, strict=False))
    elif "seed" not in df.columns and seed is not None and seed.isdigit():
        big = int(seed) >= 1 << 64
        add.append(pl.lit(seed if big else int(seed), pl.String if big else pl.UInt64)
                   .alias("seed"))
    if "bot" not in df.columns and bot is not None:
        add.append(pl.lit(bot).alias("bot"))
    # a sample of a run's hands (balance --rows: ``rows_per_chunk``) is drawn from its rows, so
    # its size is theirs (``_run_n`` counts its deals), not the run's n
    if "run_n" not in df.columns and n is not None and n.isdigit() and \
            "rows_per_chunk" not in meta:
        add.append(pl.lit(int(n), pl.Int64).alias("run_n"))
    if "source" not in df.columns:
        add.append(pl.lit(source).alias("source"))
    return df.with_columns(add) if add else df


def load_result(paths: str | os.PathLike | Sequence[str | os.PathLike]) -> pl.DataFrame:
    """Read saved Parquet results into one frame (columns unioned), each row keeping the run it
    came from: a file without a ``variant`` column (a ``simulate`` summary) gets it from its
    metadata, and ``with_provenance`` adds ``rules_hash``, ``seed``, ``bot``, ``run_n`` and
    ``source`` (the file name) where the table lacks them. Raises OSError for a missing file,
    ValueError for one that is not Parquet or for the same file given twice."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    frames = []
    seen: set[Path] = set()
    for path in paths:
        path = Path(path)
        if path.is_dir():
            raise ValueError(f"{path} is a folder: give a Parquet result file")
        if not path.is_file():
            raise FileNotFoundError(f"no such file: {path}")
        if path.resolve() in seen:
            raise ValueError(f"{path} is given twice: give each result file once")
        seen.add(path.resolve())
        try:
            df = pl.read_parquet(path)
            meta = pl.read_parquet_metadata(path)
        except (pl.exceptions.PolarsError, OSError) as e:  # not Parquet
            raise ValueError(f"cannot read {path} as Parquet: {str(e).splitlines()[0]}") from None
        if "variant" not in df.columns:
            df = df.with_columns(pl.lit(meta.get("variant", path.stem)).alias("variant"))
        frames.append(with_provenance(df, meta, path.name))
    return pl.concat(frames, how="diagonal_relaxed")
