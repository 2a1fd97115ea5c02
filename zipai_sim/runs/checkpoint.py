"""Checkpoints (issue 10 §2): every finished batch of a run written as a Parquet part file, so
that an interrupted run can be resumed and end bit for bit as an uninterrupted one.

A checkpoint folder holds ``run.json`` (the identity of each run the command made, in order: a
command with several parts, e.g. ``table opening`` at three thresholds, makes several) and
``part-SSS-CCCCCCCCCCCC-KKKK.parquet``: run ``S``'s chunks ``C … C+K−1``, the value the batch
returned before it was folded into the aggregate (``runs.run_batches``). Because a batch's value
depends only on ``(seed, chunk_size, chunks)`` and aggregates are folded in chunk order, folding
the saved parts and computing the rest gives the same result for any batch size, thread count
or number of interruptions. Resuming checks each run's identity (variant rules hash, seed, n,
chunk size, policies …) and refuses a different run, naming the first key that differs.

Part files hold numpy arrays, numbers, strings, lists, tuples, dicts and the few aggregate
classes registered here, never pickles: a checkpoint read back runs no code.

>>> import tempfile, numpy as np
>>> d = tempfile.mkdtemp()
>>> with checkpoint(d) as c:
...     s = c.segment({"seed": 1})
...     s.save(0, 2, (np.arange(3), None, [{"a": 1.5}]))
>>> with checkpoint(d, resume=True) as c:
...     [(first, k, got[0].tolist(), got[2]) for first, k, got in c.segment({"seed": 1}).parts()]
[(0, 2, [0, 1, 2], [{'a': 1.5}])]
"""

from __future__ import annotations

import contextvars
import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import polars as pl

from zipai_sim.runs.io import write_parquet, write_text

_PART = re.compile(r"^part-(\d{3})-(\d{12})-(\d{4,})\.parquet$")
_ACTIVE: contextvars.ContextVar[Checkpoint | None] = contextvars.ContextVar(
    "zipai_checkpoint", default=None)
#: aggregate classes a part may hold (their instance attributes are encoded); nothing else
_CLASSES: dict[str, type] = {}


#: the identity keys a refused resume names first: the options a user gives
_ORDER = ("what", "unit", "variants", "thresholds", "seed", "n", "chunk_size", "policies",
          "engine", "rows", "sample_per_chunk", "rules_hash")


def _short(x: object) -> str:
    text = repr(x)
    return text if len(text) <= 80 else text[:77] + "…"


class CheckpointError(ValueError):
    """A checkpoint folder that cannot be used for this run: another run's, damaged, or not
    empty when starting afresh."""


def refuse_file(folder: str | os.PathLike, name: str = "--checkpoint") -> None:
    """CheckpointError (a ValueError) when ``folder``, given as ``name``, is a file: a checkpoint
    is a folder of parts."""
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise CheckpointError(f"{name} {os.fspath(folder)}: a file, not a folder; give a new "
                              f"or empty folder")


#: classes part files written before the package layout of 0.1 name by their old module path;
#: the state is the same, so such a checkpoint still resumes
_MOVED = {"zipai_sim.play.arena._Tally": "zipai_sim.studies.arena._Tally",
          "zipai_sim.play.balance._Sums": "zipai_sim.studies.balance_sums.Sums",
          "zipai_sim.play.compare._Paired": "zipai_sim.studies.compare._Paired",
          "zipai_sim.studies.train.Sums": "zipai_sim.studies.fitsums.Sums"}


def register(cls: type) -> type:
    """Allow instances of ``cls`` (a plain class whose state is its ``vars()``) in part files."""
    _CLASSES[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return cls


def _encode(x: object, arrays: list[np.ndarray]) -> object:
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, np.bool_):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return {"i": str(int(x))}  # JSON numbers would lose ints above 2**53 in other readers
    if isinstance(x, (float, np.floating)):
        return {"f": float(x).hex()}  # exact, nan and inf included
    if isinstance(x, np.ndarray):
        arrays.append(np.ascontiguousarray(x))
        return {"a": len(arrays) - 1}
    if isinstance(x, tuple):
        return {"t": [_encode(y, arrays) for y in x]}
    if isinstance(x, list):
        return {"l": [_encode(y, arrays) for y in x]}
    if isinstance(x, dict):
        return {"d": [[_encode(k, arrays), _encode(v, arrays)] for k, v in x.items()]}
    name = f"{type(x).__module__}.{type(x).__qualname__}"
    if name in _CLASSES:
        return {"o": name, "v": _encode(vars(x), arrays)}
    raise TypeError(f"a checkpoint cannot hold a {name}")


def _decode(x: object, arrays: list[np.ndarray]) -> object:
    if x is None or isinstance(x, (bool, str)):
        return x
    assert isinstance(x, dict)
    if "i" in x:
        return int(x["i"])
    if "f" in x:
        return float.fromhex(x["f"])
    if "a" in x:
        return arrays[x["a"]]
    if "t" in x:
        return tuple(_decode(y, arrays) for y in x["t"])
    if "l" in x:
        return [_decode(y, arrays) for y in x["l"]]
    if "d" in x:
        return {_decode(k, arrays): _decode(v, arrays) for k, v in x["d"]}
    name = _MOVED.get(x.get("o"), x.get("o"))
    if name in _CLASSES:
        obj = object.__new__(_CLASSES[name])
        vars(obj).update(_decode(x["v"], arrays))  # type: ignore[arg-type]
        return obj
    raise CheckpointError(f"a part file holds an unknown value {str(x)[:60]}")


def _to_frame(value: object) -> tuple[pl.DataFrame, str]:
    arrays: list[np.ndarray] = []
    tree = json.dumps(_encode(value, arrays))
    df = pl.DataFrame({"dtype": [a.dtype.str for a in arrays],
                       "shape": [list(a.shape) for a in arrays],
                       "data": [a.tobytes() for a in arrays]},
                      schema={"dtype": pl.String, "shape": pl.List(pl.Int64),
                              "data": pl.Binary})
    return df, tree


def _from_frame(path: Path) -> object:
    try:
        df = pl.read_parquet(path)
        tree = pl.read_parquet_metadata(path).get("tree")
        if tree is None:
            raise ValueError("not a zipai-sim part file")
        arrays = [np.frombuffer(d, np.dtype(t)).reshape(s).copy()
                  for t, s, d in zip(df["dtype"], df["shape"], df["data"])]
        return _decode(json.loads(tree), arrays)
    except CheckpointError:
        raise
    except Exception as e:  # polars, numpy, JSON: one message, not a traceback
        why = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise CheckpointError(f"part file {path} is damaged ({why[:120]}); delete it and resume "
                              f"again: that batch and the ones after it are computed "
                              f"anew") from None


class Segment:
    """One run of a checkpointed command: its saved parts and where new ones go."""

    def __init__(self, owner: Checkpoint, index: int) -> None:
        self.owner, self.index = owner, index

    def parts(self) -> Iterator[tuple[int, int, object]]:
        """The saved batches ``(first chunk, chunks, value)``, in chunk order and contiguous
        from chunk 0 (a gap ends them: the batches after it are computed again)."""
        found = {}
        for f in self.owner.folder.iterdir():
            m = _PART.match(f.name)
            if m and int(m[1]) == self.index:
                found[int(m[2])] = (int(m[3]), f)
        first, chain = 0, []
        while first in found:
            chain.append((first, *found[first]))
            first += found[first][0]
        for f in self.owner.folder.iterdir():  # anything off the chain is computed again
            m = _PART.match(f.name)
            if m and int(m[1]) == self.index and f not in [c[2] for c in chain]:
                f.unlink()
        for first, k, f in chain:
            yield first, k, _from_frame(f)

    def save(self, first: int, k: int, value: object) -> None:
        """Write batch ``first … first+k−1``'s value (atomically: a part is whole or absent)."""
        df, tree = _to_frame(value)
        name = f"part-{self.index:03d}-{first:012d}-{k:04d}.parquet"
        write_parquet(df, self.owner.folder / name, {"tree": tree, "run": str(self.index)})


class Checkpoint:
    """A checkpoint folder in use (``checkpoint``): hands out one ``Segment`` per run, in the
    order the command makes its runs, and checks each run against the recorded identity."""

    def __init__(self, folder: Path, resume: bool) -> None:
        self.folder, self.resume = folder, resume
        self.file = folder / "run.json"
        self.runs: list[dict] = []
        if resume:
            if not self.file.is_file():
                raise CheckpointError(f"--resume {folder}: no checkpoint there (run.json "
                                      f"missing); start with --checkpoint {folder}")
            try:
                self.recorded = json.loads(self.file.read_text(encoding="utf-8"))["runs"]
            except (ValueError, KeyError, OSError) as e:
                raise CheckpointError(f"{self.file} is damaged: {e}") from None
        else:
            refuse_file(folder)
            if folder.exists() and any(folder.iterdir()):
                raise CheckpointError(
                    f"--checkpoint {folder}: not an empty folder; resume the run saved there "
                    f"with --resume {folder}, or give a new folder")
            folder.mkdir(parents=True, exist_ok=True)
            self.recorded = []

    def segment(self, identity: dict[str, object]) -> Segment:
        """The next run of the command, with its ``identity`` (JSON values). Raises
        CheckpointError when resuming and the recorded run differs."""
        ident = json.loads(json.dumps(identity, default=str))
        i = len(self.runs)
        if self.resume and i < len(self.recorded) and self.recorded[i] != ident:
            old = self.recorded[i]
            keys = [k for k in _ORDER if k in old or k in ident] + sorted(
                (set(old) | set(ident)) - set(_ORDER))
            key = next(k for k in keys if old.get(k) != ident.get(k))
            if key == "weights_hash":
                def hashes(x: object) -> str:
                    return ", ".join(map(str, x)) if isinstance(x, list) else str(x)

                raise CheckpointError(
                    f"--resume {self.folder}: the checkpoint was played with other learned "
                    f"weights (hash {hashes(old.get(key))}, now {hashes(ident.get(key))}): "
                    f"ZIPAI_SIM_WEIGHTS or a weights file changed since; resume with the "
                    f"weights it was made with, or start a new checkpoint")
            raise CheckpointError(
                f"--resume {self.folder}: the checkpoint is of another run ({key} was "
                f"{_short(old.get(key))}, now {_short(ident.get(key))}); give the same command "
                f"and options as the interrupted run")
        self.runs.append(ident)
        if i >= len(self.recorded):
            self.recorded.append(ident)
            write_text(self.file, json.dumps({"runs": self.recorded}, indent=1) + "\n")
        return Segment(self, i)


@contextmanager
def checkpoint(folder: str | os.PathLike, resume: bool = False) -> Iterator[Checkpoint]:
    """Checkpoint every run started inside the block (``simulate_deals``, ``simulate_hands``,
    ``simulate_matches``, the tables) in ``folder``: each finished batch is saved as it
    completes; with ``resume=True`` the saved batches are read back instead of computed.

    ``resume=False`` needs a new or empty folder. Raises CheckpointError (a ValueError) for a
    folder holding something else, or when resuming a different run (another variant, seed,
    n, chunk size, policies …).
    """
    c = Checkpoint(Path(folder), resume)
    token = _ACTIVE.set(c)
    try:
        yield c
    finally:
        _ACTIVE.reset(token)


def active() -> Checkpoint | None:
    """The checkpoint of the enclosing ``checkpoint`` block, if any."""
    return _ACTIVE.get()
