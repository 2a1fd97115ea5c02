"""The run driver (issue 10 §1): chunks → batches → one aggregate, with a progress bar and Ctrl-C.

A long run (``simulate_deals``, ``simulate_hands``, ``simulate_matches``) is fixed chunks
(``zipai_sim.chunks``) computed a batch at a time: ``work(first, count)`` computes chunks
``first … first+count-1`` and ``add(state, got)`` folds the batch into the run's aggregate
*without changing the old one*. The pair (aggregate, chunks done) is then replaced in one
assignment, so a Ctrl-C (KeyboardInterrupt, raised by Python between two bytecodes, or as soon
as a numba kernel returns) lands before or after a whole batch, never inside one: the run stops
there and keeps every finished batch, with ``partial`` set. Python callers get the partial
result, as from ``simulate_deals``; the command line prints it, writes it beside the requested
name and exits 130.

>>> r = run_batches(10, 4, 2, lambda first, k: [list(range(first, first + k))],
...                 lambda s, got: s + got, [], progress=False)
>>> (r.state, r.done, r.partial)   # 10 items in 3 chunks of 4: batches of 2 chunks, then 1
([[0, 1], [2]], 10, False)
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from tqdm.auto import tqdm

from .chunks import chunk_sizes, n_chunks

S = TypeVar("S")
T = TypeVar("T")
COMPILING = "compiling the kernels once (about a minute)"


@dataclass
class Run(Generic[S]):
    """What ``run_batches`` finished: the aggregate, the items (deals, hands, matches) it
    holds, and whether Ctrl-C stopped the run before all ``n``."""

    state: S
    done: int
    partial: bool


def cold(*kernels: object) -> bool:
    """Whether calling ``kernels`` (numba dispatchers) will compile one of them: none has a
    signature compiled in this process and its on-disk cache index is missing or stale (another
    numba version, or the source changed). Cheap: it reads the index files, nothing more. False
    when numba is off (``NUMBA_DISABLE_JIT=1``: plain functions) or for a kernel without a
    cache; a callee whose source alone changed is not seen (numba's cache has the same blind
    spot), so the note is a hint, never a promise."""
    for k in kernels:
        if getattr(k, "signatures", None):
            continue
        index = getattr(getattr(k, "_cache", None), "_cache_file", None)
        try:
            if index is not None and not index._load_index():
                return True
        except Exception:  # an unreadable index is numba's business; it recompiles then
            return True
    return False


def compile_note(*kernels: object, progress: bool | None = None) -> None:
    """Say on stderr, once per cold cache, that the first call compiles for about a minute:
    without it a fresh clone's first run sits silent (issue 10). ``progress=False`` is quiet."""
    if progress is not False and cold(*kernels):
        print(COMPILING, file=sys.stderr, flush=True)


def run_batches(n: int, chunk_size: int, batch: int, work: Callable[[int, int], T],
                add: Callable[[S, T], S], state: S, *, unit: str = "deal", desc: str = "",
                progress: bool | None = None, kernels: tuple[object, ...] = ()) -> Run[S]:
    """Run the ``n`` items (``chunk_size`` per chunk) in batches of ``batch`` chunks, folding
    each into ``state`` with ``add`` (which must return a new aggregate, leaving ``state`` as it
    was). A tqdm bar on stderr shows after two seconds unless ``progress=False``; ``kernels``
    are the numba dispatchers the work calls, for ``compile_note``. Ctrl-C stops at the next
    batch boundary: the result holds the finished batches, ``partial = True``."""
    chunks = n_chunks(n, chunk_size)
    compile_note(*kernels, progress=progress)
    # (aggregate, chunks done, items done): replaced in one assignment, so that an interrupt
    # lands before or after a whole batch
    got = (state, 0, 0)
    bar = tqdm(total=n, unit=unit, unit_scale=True, delay=2.0, leave=False,
               disable=(progress is False), desc=desc or None)
    try:
        while got[1] < chunks:
            k = min(batch, chunks - got[1])
            items = int(chunk_sizes(n, chunk_size, got[1], k).sum())
            got = (add(got[0], work(got[1], k)), got[1] + k, got[2] + items)
            bar.update(items)
    except KeyboardInterrupt:
        pass  # partial: got is the last whole batch
    finally:
        bar.close()
    return Run(got[0], got[2], got[2] < n)


def cons_list(cells: tuple | None) -> list:
    """The items of a persistent list built as ``(item, rest)`` cells, oldest first: an
    aggregate that grows without changing the one before it (``run_batches``' ``add``)."""
    out = []
    while cells is not None:
        item, cells = cells
        out.append(item)
    return out[::-1]
