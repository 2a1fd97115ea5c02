"""Seeds and chunks: how ``(seed, n, chunk_size)`` maps onto independent random streams.

Deal ``i`` of a run belongs to chunk ``i // chunk_size``; chunk ``c`` is keyed by
``SeedSequence(seed, spawn_key=(c,))`` (the ``c``-th child of ``SeedSequence(seed).spawn``), and
inside a chunk each deal's stream is a hash of that key and the deal's index. So the cards of a
deal depend on ``(seed, chunk_size, i)`` only: never on the thread count, and a run of ``n`` deals
is the first ``n`` deals of any longer run with the same seed.
"""

from __future__ import annotations

import warnings

import numpy as np

DEFAULT_CHUNK = 1 << 16  # deals per chunk; part of a result's identity, stored with it
MAX_SEED = (1 << 128) - 1
MAX_DEALS = 1 << 50  # ~1e15: beyond any run (years of CPU), and safe in int64 arithmetic
MAX_CHUNK = 1 << 24


def check_count(n: object, what: str = "n") -> int:
    """``n`` as a non-negative int, or ValueError naming it (bools and floats are refused)."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise ValueError(f"{what} must be a whole number, got {n!r}")
    if n < 0:
        raise ValueError(f"{what} must be ≥ 0, got {n}")
    if n > MAX_DEALS:
        raise ValueError(f"{what} must be ≤ 2**50, got {n}")
    return int(n)


def check_threads(threads: object) -> int:
    """The threads a kernel call uses: ``threads`` (None: all of numba's) capped at numba's
    thread count, or ValueError for anything but a positive int (bools, floats and strings are
    refused: ``1.7`` or ``True`` threads would be printed in a run's header as given). A cap
    warns (``UserWarning``), naming both counts: the results are the same for any thread count,
    but a run asked for 8 threads should not report 2 without a word."""
    import numba

    cores = numba.config.NUMBA_NUM_THREADS
    if threads is None:
        return cores
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
        raise ValueError(f"threads must be a positive integer, got {threads!r}")
    if threads > cores:
        warnings.warn(f"threads={int(threads)} is more than numba's {cores} "
                      f"(NUMBA_NUM_THREADS, by default the cores); using {cores}",
                      stacklevel=2)
    return min(int(threads), cores)


def check_seed(seed: object) -> int:
    """``seed`` as an int in [0, 2**128), or ValueError."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be in [0, 2**128), got {seed}")
    return int(seed)


#: the seeds a result with a ``seed`` column takes: UInt64 (the command line's 0 … 2**64−1)
MAX_COLUMN_SEED = (1 << 64) - 1


def check_column_seed(seed: object, what: str) -> int:
    """``seed`` checked (``check_seed``) and within the UInt64 ``seed`` column of ``what`` (a
    table, an arena), or ValueError."""
    seed = check_seed(seed)
    if seed > MAX_COLUMN_SEED:
        raise ValueError(f"seed must be in 0..2**64-1 for {what} (its seed column is UInt64), "
                         f"got {seed}")
    return seed


def check_chunk_size(chunk_size: object, what: str = "chunk_size") -> int:
    """Default chunk size for ``None``; else an int in 1..2**24, or ValueError naming ``what``."""
    if chunk_size is None:
        return DEFAULT_CHUNK
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, (int, np.integer)):
        raise ValueError(f"{what} must be a positive integer, got {chunk_size!r}")
    if not 1 <= chunk_size <= MAX_CHUNK:
        raise ValueError(f"{what} must be in 1..2**24, got {chunk_size}")
    return int(chunk_size)


def chunk_keys(seed: int, first: int, count: int) -> np.ndarray:
    """Keys ``uint64[count]`` of chunks ``first .. first+count-1``."""
    return np.array(
        [np.random.SeedSequence(seed, spawn_key=(c,)).generate_state(1, np.uint64)[0]
         for c in range(first, first + count)],
        dtype=np.uint64,
    )


def chunk_sizes(n: int, chunk_size: int, first: int, count: int) -> np.ndarray:
    """Deals in each of chunks ``first .. first+count-1`` of a run of ``n`` deals: ``int64``."""
    starts = np.arange(first, first + count, dtype=np.int64) * chunk_size
    return np.clip(n - starts, 0, chunk_size).astype(np.int64)


def n_chunks(n: int, chunk_size: int) -> int:
    """Number of chunks a run of ``n`` deals takes."""
    return -(-n // chunk_size)
