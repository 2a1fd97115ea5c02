"""Outputs of the command line that never destroy each other (issue 10 §3): two outputs of one
command on one path are refused before any work; a partial run never takes the name of a
complete result; a failed final write keeps the result in a temporary file and says where.

>>> partial_path(Path("guangxi-81-n2000000.parquet")).name
'guangxi-81-n2000000.partial.parquet'
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from zipai_sim.cli.bounds import CliError
from zipai_sim.cli.locks import lock_output

if TYPE_CHECKING:  # annotations only: polars takes most of a second to import, --help none
    import polars as pl


def check_out(path: Path, suffixes: tuple[str, ...] = (".parquet",)) -> None:
    """Refuse an output path that cannot be written or whose suffix is not one of ``suffixes``,
    before any work is done, and lock it for this command (``cli.locks``: a second run on the
    same path is refused)."""
    if str(path) in ("", "."):
        raise CliError("--out needs a file name")
    if path.is_dir():  # before the suffix: "got 'rv'" would hide that rv is a folder
        raise CliError(f"cannot write {path}: it is a folder")
    if path.suffix.lower() not in suffixes:
        raise CliError(f"output file must end in {' or '.join(suffixes)}, got {str(path)!r}")
    folder = path.resolve().parent
    if not folder.is_dir():  # the words io's writers use
        raise CliError(f"cannot write {path}: folder {folder} "
                       f"{'is a file' if folder.exists() else 'does not exist'}")
    if not os.access(folder, os.W_OK):
        raise CliError(f"cannot write {path}: folder {folder} is not writable")
    lock_output(path)


def partial_path(path: Path) -> Path:
    """Where a partial result of ``path`` goes: ``NAME.partial.parquet`` beside ``NAME.parquet``,
    so a file under the requested name is always a complete run."""
    return path.with_name(path.name.removesuffix(".parquet") + ".partial.parquet")


def rows_path(path: Path) -> Path:
    """The sampled rows beside a summary: ``NAME.rows.parquet``."""
    return path.with_name(path.name.removesuffix(".parquet") + ".rows.parquet")


def _same(a: Path, b: Path) -> bool:
    # realpath sees through symlinks and ".."; samefile also through hard links
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def distinct_outputs(outputs: Sequence[tuple[str, Path | None]]) -> None:
    """Refuse two of ``outputs`` (``(flag, path)``; None: not written) that name one file,
    before any work: the second write would replace the first without a word."""
    given = [(flag, Path(p)) for flag, p in outputs if p is not None]
    for i, (flag, path) in enumerate(given):
        for other, there in given[:i]:
            if _same(path, there):
                raise CliError(f"{other} and {flag} both name {path}: one would overwrite the "
                               f"other; give them different files")


def save_one(df: pl.DataFrame, path: Path, meta: dict[str, str], done: int, requested: int,
             unit: str) -> int:
    """Write one result (``save``): a partial run (``done < requested``) beside ``path`` as
    ``NAME.partial.parquet``, never over it. Returns the exit code: 0, 130 (partial) or 2 (the
    write failed)."""
    partial = done < requested
    note = f" (partial: {done:,} of {requested:,} {unit})" if partial else ""
    if not save([(df, partial_path(path) if partial else path, meta, note)]):
        return 2
    return 130 if partial else 0


def save(writes: Sequence[tuple[pl.DataFrame, Path, dict[str, str], str]]) -> bool:
    """Write each ``(frame, path, metadata, note)`` atomically and print ``wrote PATH NOTE``.
    A write that fails keeps its result in a temporary file (``io.write_parquet(keep=True)``),
    printed on stderr, and the others are still written; returns whether all were written."""
    from zipai_sim.runs.io import write_parquet

    ok = True
    for df, path, meta, note in writes:
        try:
            write_parquet(df, path, meta, keep=True)
        except OSError as e:  # KeptError, or not even kept: the message says which
            print(f"zipai-sim: error: {e}", file=sys.stderr)
            ok = False
            continue
        print(f"wrote {path}{note}")
        _drop_stale_partial(path)
    return ok


def _drop_stale_partial(path: Path) -> None:
    """After a complete result is written at ``path``, remove what an earlier interrupted run
    of the same output left beside it (``NAME.partial.parquet``, its rows
    ``NAME.partial.rows.parquet``), saying so: left there, it reads as a result of this run."""
    name = path.name
    if name.endswith(".partial.parquet") or name.endswith(".partial.rows.parquet"):
        return  # this run is the partial one
    stale = [partial_path(path)]
    if name.endswith(".rows.parquet"):
        stale.append(path.with_name(name.removesuffix(".rows.parquet") + ".partial.rows.parquet"))
    for old in stale:
        if old.is_file():
            try:
                old.unlink()
            except OSError:
                continue
            print(f"removed {old} (an earlier interrupted run of this output)")


class _PipeGuard:
    """``sys.stdout`` that stops printing, without failing, once its reader has gone (``| head``,
    ``| true``): the command goes on and still writes its files. Printing comes before writing,
    so a ``BrokenPipeError`` left to end the command lost the output file with exit status 0."""

    def __init__(self, stream) -> None:
        self._stream = stream
        self.broken = False

    def write(self, text: str) -> int:
        if not self.broken:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self._gone()
        return len(text)

    def flush(self) -> None:
        if not self.broken:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._gone()

    def _gone(self) -> None:
        self.broken = True
        try:  # the interpreter flushes stdout at exit: give its descriptor a sink
            os.dup2(os.open(os.devnull, os.O_WRONLY), self._stream.fileno())
        except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
            pass

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


@contextmanager
def stdout_guard() -> Iterator[_PipeGuard]:
    """Print through ``_PipeGuard`` for the duration of a command."""
    old = sys.stdout
    sys.stdout = guard = _PipeGuard(old)
    try:
        yield guard
    finally:
        sys.stdout = old
