"""Parquet (through polars) and text output, written atomically: a temporary file beside the
target, then a rename, so a reader never sees half a file; a long run's result can be kept in
the temporary folder when its own write fails (``write_parquet(keep=True)``)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable

import polars as pl


class KeptError(OSError):
    """A write failed, but the result was kept in the temporary file ``kept``."""

    def __init__(self, message: str, kept: str) -> None:
        super().__init__(message)
        self.kept = kept


def _write_atomic(df: pl.DataFrame, path: str, metadata: dict[str, str]) -> None:
    _replace_with(path, lambda tmp: df.write_parquet(tmp, metadata=metadata))


def write_text(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically, as ``write_parquet`` writes a table: a
    reader sees the old file or the whole new one, never half of it."""
    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)

    _replace_with(os.fspath(path), write)


def _replace_with(path: str, write: Callable[[str], None]) -> None:
    """``write(tmp)`` to a temporary file beside ``path``, then rename it over ``path``."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"cannot write {path}: folder {folder} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(prefix=".zipai-", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise OSError(f"cannot write {path}: {exc.strerror or exc}") from None
    os.close(fd)
    try:
        write(tmp)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the file the usual mode
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_parquet(df: pl.DataFrame, path: str | os.PathLike, metadata: dict[str, str],
                  keep: bool = False) -> None:
    """Write ``df`` to ``path`` with key-value ``metadata``, over the keys every file carries
    (``provenance.common_metadata``: the command line, zipai_sim and numba versions). The file
    appears under its name only once complete. Raises OSError (e.g. PermissionError,
    FileNotFoundError) naming the path.

    ``keep=True``: a result that took long to compute is not lost when its write fails (the
    folder made read-only or removed during the run, a full disk): it is written to a new file
    in the system's temporary folder instead, and KeptError (an OSError) names both paths.
    """
    from zipai_sim.runs.provenance import common_metadata

    path = os.fspath(path)
    metadata = {**common_metadata(), **metadata}
    try:
        _write_atomic(df, path, metadata)
    except OSError as exc:
        if not keep:
            raise
        reason = str(exc) if str(exc).startswith("cannot write") else \
            f"cannot write {path}: {exc.strerror or exc}"
        stem = os.path.basename(path).removesuffix(".parquet") or "result"
        try:
            fd, kept = tempfile.mkstemp(prefix=f"zipai-{stem}-", suffix=".parquet")
            os.close(fd)
            df.write_parquet(kept, metadata=metadata)
        except OSError as again:
            raise OSError(f"{reason} (nor could it be kept in the temporary folder: "
                          f"{again.strerror or again})") from None
        raise KeptError(f"{reason}; the result is kept in {kept}", kept) from None


def read_metadata(path: str | os.PathLike) -> dict[str, str]:
    """The key-value metadata of a Parquet file written by ``write_parquet`` (the run's keys;
    Arrow's own ``ARROW:*`` entries left out)."""
    meta = pl.read_parquet_metadata(os.fspath(path))
    return {k: v for k, v in meta.items() if not k.startswith("ARROW:")}
