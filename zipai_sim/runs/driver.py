"""The run driver (issue 10 §1): chunks → batches → one aggregate, with a progress bar and Ctrl-C.

A long run (``simulate_deals``, ``simulate_hands``, ``simulate_matches``) is fixed chunks
(``zipai_sim.runs.chunks``) computed a batch at a time: ``work(first, count)`` computes chunks
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

import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Generic, TypeVar

from tqdm.auto import tqdm

from zipai_sim.runs.chunks import chunk_sizes, n_chunks

S = TypeVar("S")
T = TypeVar("T")
#: measured with an empty cache on 2 cores (``benchmarks/coldstart.py --compile-only``)
COMPILING = ("compiling the kernels once into numba's cache (the first time only: about half a "
             "minute for deals, 4 to 5 minutes for whole hands on 2 cores)")


@dataclass
class Run(Generic[S]):
    """What ``run_batches`` finished: the aggregate, the items (deals, hands, matches) it
    holds, and whether Ctrl-C stopped the run before all ``n``."""

    state: S
    done: int
    partial: bool
    resumed: int = 0  # of ``done``, the items read back from a checkpoint
    workers: int | None = None  # the Dask workers it ran on (None: this process's threads)


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
    """Say on stderr, once per cold cache, that the first call compiles (``COMPILING``, with
    the measured times): without it a fresh clone's first run sits silent (issue 10). ``progress=False`` is quiet."""
    if progress is not False and cold(*kernels):
        print(COMPILING, file=sys.stderr, flush=True)


def run_batches(n: int, chunk_size: int, batch: int, work: Callable[[int, int], T],
                add: Callable[[S, T], S], state: S, *, unit: str = "deal", desc: str = "",
                progress: bool | None = None, kernels: tuple[object, ...] = (),
                identity: dict[str, object] | None = None, client: object = None) -> Run[S]:
    """Run the ``n`` items (``chunk_size`` per chunk) in batches of ``batch`` chunks, folding
    each into ``state`` with ``add`` (which must return a new aggregate, leaving ``state`` as it
    was). A tqdm bar on stderr shows after two seconds unless ``progress=False``; ``kernels``
    are the numba dispatchers the work calls, for ``compile_note``. Ctrl-C stops at the next
    batch boundary: the result holds the finished batches, ``partial = True``.

    Inside a ``checkpoint.checkpoint`` block every batch's value is saved as it finishes, and
    a resumed run folds the saved batches before computing the rest; ``identity`` (what,
    beside ``n`` and ``chunk_size``, makes the run: variant rules hash, seed, policies …) is
    recorded and checked. Raises CheckpointError for a checkpoint of another run.

    ``client`` (a ``dask.distributed.Client``): the batches run as tasks on its workers, a few
    per worker thread in flight, and are folded in chunk order as they arrive, so the result
    is the local one bit for bit, whatever the number of workers or the completion order."""
    from zipai_sim.runs.checkpoint import active

    chunks = n_chunks(n, chunk_size)
    store = active()
    seg = None if store is None else store.segment(
        {"unit": unit, "n": n, "chunk_size": chunk_size, **(identity or {})})
    # (aggregate, chunks done, items done): replaced in one assignment, so that an interrupt
    # lands before or after a whole batch
    got = (state, 0, 0)
    if seg is not None and store.resume:
        for first, k, value in seg.parts():
            items = int(chunk_sizes(n, chunk_size, first, k).sum())
            got = (add(got[0], value), first + k, got[2] + items)
    resumed = got[2]
    if got[1] < chunks and client is None:
        compile_note(*kernels, progress=progress)
    bar = tqdm(total=n, initial=got[2], unit=unit, unit_scale=True, delay=2.0, leave=False,
               disable=(progress is False), desc=desc or None)
    # lazy: a run of 2**50 items has billions of batches, and a list of them would fill memory
    ranges = ((c, min(batch, chunks - c)) for c in range(got[1], chunks, batch))
    values = _local(work, ranges) if client is None else _on_dask(client, work, ranges)
    _guard(False)
    try:
        if _DEFER["on"] and _DEFER["got"]:  # a Ctrl-C between two runs of a command: stop
            _DEFER["got"] = False
            raise KeyboardInterrupt
        for first, k, value in values:
            items = int(chunk_sizes(n, chunk_size, first, k).sum())
            if seg is not None:  # saved before it counts: a part on disk is a finished batch
                seg.save(first, k, value)
            got = (add(got[0], value), first + k, got[2] + items)
            bar.update(items)
    except KeyboardInterrupt:
        pass  # partial: got is the last whole batch
    finally:
        _guard(True)  # from here until the next run, a Ctrl-C keeps what finished
        values.close()  # on Dask: the tasks still queued are cancelled
        bar.close()
    workers = None if client is None else len(client.nthreads())  # type: ignore[attr-defined]
    return Run(got[0], got[2], got[2] < n, resumed, workers)


#: the command line's Ctrl-C guard (``deferred_interrupts``): on between a run's end and the
#: command's end, so that a Ctrl-C while the finished result is summarized, printed and written
#: does not throw it away; "got" records one that came
_DEFER = {"on": False, "got": False}


def _defer(signum, frame) -> None:
    _DEFER["got"] = True


def _guard(on: bool) -> None:
    """Ctrl-C deferred (``on``) or back to raising KeyboardInterrupt; main thread only."""
    if _DEFER["on"] and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, _defer if on else signal.default_int_handler)


@contextmanager
def deferred_interrupts() -> Iterator[dict]:
    """For the command line: after each run of ``run_batches`` ends, a Ctrl-C is recorded
    (``["got"]``) instead of raised until the next run starts (which then stops at once, as a
    Ctrl-C at its first boundary) or the block ends; the handler is restored after."""
    old = signal.getsignal(signal.SIGINT)
    _DEFER.update(on=True, got=False)
    try:
        yield _DEFER
    finally:
        _DEFER.update(on=False, got=False)
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, old)


def _local(work: Callable[[int, int], T],
           ranges: Iterable[tuple[int, int]]) -> Iterator[tuple[int, int, T]]:
    for first, k in ranges:
        yield first, k, work(first, k)


#: one kernel call at a time in a worker process: numba's default threading layer does not
#: take parallel calls from two threads at once, and each call uses all the worker's cores
_KERNEL_LOCK = threading.Lock()


def _remote(work: Callable[[int, int], T], first: int, k: int) -> T:
    with _KERNEL_LOCK:
        return work(first, k)


def _on_dask(client, work: Callable[[int, int], T],
             ranges: Iterable[tuple[int, int]]) -> Iterator[tuple[int, int, T]]:
    """``work`` over ``ranges`` (read lazily) as Dask tasks, yielded in chunk order (a
    finished task waits for those before it); two tasks per worker thread in flight."""
    from distributed import wait

    window = max(2, 2 * sum(client.nthreads().values()))
    todo, pending, done = iter(ranges), {}, {}
    order: deque[tuple[int, int]] = deque()  # submitted, not yet yielded, in chunk order
    try:
        while True:
            while len(pending) < window:
                nxt = next(todo, None)
                if nxt is None:
                    break
                pending[nxt[0]] = client.submit(_remote, work, *nxt, pure=False)
                order.append(nxt)
            if not order:
                break
            first, k = order.popleft()
            while first not in done:
                wait(list(pending.values()), return_when="FIRST_COMPLETED")
                for c in [c for c, f in pending.items() if f.done()]:
                    done[c] = pending.pop(c).result()  # a task's error is raised here
            yield first, k, done.pop(first)
    finally:
        if pending:
            client.cancel(list(pending.values()))


def run_parts(n: int, chunk_size: int, batch: int,
              parts: Sequence[tuple[Callable[[int, int], T], Callable[[S, T], S], S]],
              **options: object) -> Run[list[S]]:
    """Several runs over the same chunks in lockstep (``parts``: ``(work, add, state)`` each;
    ``options`` as ``run_batches``): batch ``b`` of every part, then batch ``b + 1``. A Ctrl-C
    keeps the same finished chunks in every part, so the parts of a sweep (thresholds,
    variants, values of n) stay comparable: same decks, same ``n``."""
    parts = list(parts)

    def work(first: int, k: int) -> list:
        return [w(first, k) for w, _, _ in parts]

    def add(states: list, got: list) -> list:
        return [a(s, g) for (_, a, _), s, g in zip(parts, states, got)]

    return run_batches(n, chunk_size, batch, work, add, [s for _, _, s in parts],
                       **options)  # type: ignore[arg-type]


def cons_list(cells: tuple | None) -> list:
    """The items of a persistent list built as ``(item, rest)`` cells, oldest first: an
    aggregate that grows without changing the one before it (``run_batches``' ``add``)."""
    out = []
    while cells is not None:
        item, cells = cells
        out.append(item)
    return out[::-1]
