"""Parquet output through polars, written atomically (temporary file, then rename)."""

from __future__ import annotations

import os
import tempfile

import polars as pl


def write_parquet(df: pl.DataFrame, path: str | os.PathLike, metadata: dict[str, str]) -> None:
    """Write ``df`` to ``path`` with key-value ``metadata``. The file appears under its name only
    once complete. Raises OSError (e.g. PermissionError, FileNotFoundError) naming the path."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"cannot write {path}: folder {folder} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(prefix=".zipai-", suffix=".parquet.tmp", dir=folder)
    except OSError as exc:
        raise OSError(f"cannot write {path}: {exc.strerror or exc}") from None
    os.close(fd)
    try:
        df.write_parquet(tmp, metadata=metadata)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the file the usual mode
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def read_metadata(path: str | os.PathLike) -> dict[str, str]:
    """The key-value metadata of a Parquet file written by ``write_parquet``."""
    return pl.read_parquet_metadata(os.fspath(path))
