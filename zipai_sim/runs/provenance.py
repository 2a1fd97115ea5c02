"""What every output file says about the run that made it (issue 10 §4): the command line, the
zipai_sim and numba versions (``common_metadata``, added by ``io.write_parquet`` to every file
it writes and by ``plots.save_figure`` to every figure), and a run's identity (variants, rules
hashes, thresholds, seed, ``n`` done and requested, chunk size, policies, engine, partial) as
text (``run_metadata``).

>>> common_metadata()["command"]  # written from Python, not from the command line
'python'
>>> run_metadata({"variants": [("guangxi-81", "2bd4db2c7ba96a7d")], "thresholds": [15],
...               "seed": 7, "n": 900, "n_requested": 1000, "chunk_size": 256})["partial"]
'true'
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the command line imports this module before parsing: polars only when used
    import polars as pl

#: the command lines being run (``zipai-sim …``), innermost last; empty: written from Python
_COMMANDS: list[str] = []


@contextmanager
def command_line(argv: Sequence[str]) -> Iterator[str]:
    """Record ``argv`` (``zipai-sim`` and its arguments) as the command of every file written
    inside the block; yields the line as a shell would take it back (``shlex.join``)."""
    line = shlex.join(argv)
    _COMMANDS.append(line)
    try:
        yield line
    finally:
        _COMMANDS.pop()


def command() -> str:
    """The command line being run, or ``"python"`` outside the command line."""
    return _COMMANDS[-1] if _COMMANDS else "python"


@cache
def numba_version() -> str:
    """numba's version, read from the installed package (numba is not imported for it)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("numba")
    except PackageNotFoundError:  # pragma: no cover - numba is a dependency
        return "unknown"


def common_metadata() -> dict[str, str]:
    """The part of every file's metadata that does not depend on the run: ``command``,
    ``zipai_sim_version``, ``numba_version``."""
    from zipai_sim.version import __version__

    return {"command": command(), "zipai_sim_version": __version__,
            "numba_version": numba_version()}


def _text(x: object) -> str:
    if isinstance(x, bool):
        return str(x).lower()
    if isinstance(x, (list, tuple)):
        return ",".join(_text(y) for y in x)
    return str(x)


def run_metadata(run: Mapping[str, object]) -> dict[str, str]:
    """A run's identity as Parquet key-value text, from the ``header`` keywords a result carries
    (``ReportFrame.run``): ``variants`` (keys), ``rules_hash`` (one per run, in order, comma
    separated), ``thresholds``, ``seed``, ``n`` (done), ``n_requested`` (``n`` when not given),
    ``partial`` (``n < n_requested`` when not given), ``chunk_size``, ``policies``, ``engine``,
    ``weights_hash`` (from ``weights``: the learned weights' hash of each run, ``-`` for a run
    that read none); fields the run lacks are left out. Booleans are ``"true"``/``"false"``."""
    out: dict[str, str] = {}
    vs = [(v, None) if isinstance(v, str) else tuple(v) for v in run.get("variants") or ()]
    if vs:
        out["variants"] = ",".join(dict.fromkeys(str(k) for k, _ in vs))
        hashes = [h for _, h in vs if h]
        if hashes:
            out["rules_hash"] = ",".join(dict.fromkeys(hashes))
    ths = [t for t in run.get("thresholds") or () if t is not None]
    if ths:
        out["thresholds"] = ",".join(dict.fromkeys(str(t) for t in ths))
    ws = run.get("weights")
    ws = [ws] if isinstance(ws, str) else list(ws or ())
    if any(ws):  # the learned weights each run's line-up read (``play.learned.weights_hash``)
        out["weights_hash"] = ",".join(w or "-" for w in ws)
    for key in ("seed", "n", "n_requested", "chunk_size", "policies", "engine"):
        if run.get(key) is not None:
            out[key] = _text(run[key])
    if "n" in out:
        out.setdefault("n_requested", out["n"])
    if run.get("partial") is not None:
        out["partial"] = _text(bool(run["partial"]))
    elif "n" in out and out["n"].isdigit() and out["n_requested"].isdigit():
        out["partial"] = _text(int(out["n"]) < int(out["n_requested"]))
    return out


def with_rules_hash(frames: Sequence[pl.DataFrame], hashes: Sequence[str]) -> pl.DataFrame:
    """``frames`` (one per run) concatenated (columns unioned) with a ``rules_hash`` column, each
    frame's rows taking its run's hash, placed after ``threshold`` (else ``variant``): rows of
    several runs in one file then say which rule set made them, even for two rule sets under one
    variant key. A frame that has the column keeps it."""
    import polars as pl

    parts = []
    for df, h in zip(frames, hashes):
        if "rules_hash" not in df.columns:
            after = next((c for c in ("threshold", "variant") if c in df.columns), None)
            df = df.with_columns(pl.lit(h, pl.String).alias("rules_hash"))
            if after is not None:
                cols = [c for c in df.columns if c != "rules_hash"]
                i = cols.index(after) + 1
                df = df.select([*cols[:i], "rules_hash", *cols[i:]])
        parts.append(df)
    return pl.concat(parts, how="diagonal")
