"""``--dask-workers N`` and ``--scheduler ADDRESS`` (issue 10 §6): the long commands on a Dask
cluster, an in-process ``LocalCluster`` or an existing one, with the local result bit for bit
(``runs.run_batches``). Dask is the optional extra ``zipai-sim[dask]``."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from zipai_sim.cli.bounds import CliError

MAX_WORKERS = 1024


def add_dask(q: argparse.ArgumentParser) -> None:
    """The two flags, on a command whose work goes through ``runs.run_batches``."""
    g = q.add_mutually_exclusive_group()
    g.add_argument("--dask-workers", type=int, default=None, metavar="N",
                   help="run the batches on N local Dask worker processes (needs "
                        "zipai-sim[dask]; default: no Dask, this process's threads)")
    g.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run the batches on an existing Dask cluster, e.g. "
                        "tcp://10.0.0.5:8786 (zipai-sim installed on every worker)")


def local_cluster(workers: int):
    """A ``LocalCluster`` of ``workers`` processes of one thread, the machine's cores shared
    between them (``NUMBA_NUM_THREADS`` per worker): N processes each running numba on every
    core would oversubscribe the machine N times."""
    import os

    import distributed

    cores = max(1, (os.cpu_count() or 1) // workers)
    # Ctrl-C reaches every process of the terminal's group: the worker processes would print a
    # KeyboardInterrupt traceback each while this process stops the run and keeps its batches.
    # Started with SIGINT ignored, they inherit that (Python installs no SIGINT handler in a
    # process that starts with it ignored); this process's own handler comes back at once.
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        # the workers' own warnings (a task cancelled by Ctrl-C) are noise to a user
        return distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                         dashboard_address=":0", silence_logs=logging.ERROR,
                                         env={"NUMBA_NUM_THREADS": str(cores)})
    finally:
        signal.signal(signal.SIGINT, old)


def _connect(distributed, address: str, timeout: object):
    """``Client(address)``, given up after the connect timeout and a few seconds more: a port
    that answers but is no Dask scheduler (an HTTP server) would hold the handshake forever."""
    import threading

    import dask

    seconds = float(dask.utils.parse_timedelta(timeout, default="seconds")) + 5
    got: list = []

    def connect() -> None:
        try:
            got.append(distributed.Client(address, timeout=timeout))
        except Exception as e:  # handed to the caller's thread
            got.append(e)

    t = threading.Thread(target=connect, daemon=True)
    t.start()
    t.join(seconds)
    if not got:
        raise TimeoutError(f"no Dask scheduler answered within {seconds:.0f} s")
    if isinstance(got[0], Exception):
        raise got[0]
    return got[0]


@contextmanager
def dask_client(a: argparse.Namespace) -> Iterator[None]:
    """Set ``a.client``: None, or a ``dask.distributed.Client`` for the flags, closed after."""
    workers, address = getattr(a, "dask_workers", None), getattr(a, "scheduler", None)
    a.client = None
    if workers is None and address is None:
        yield
        return
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise CliError(f"--dask-workers must be in 1..{MAX_WORKERS}, got {workers}")
    try:
        import distributed
    except ImportError:
        flag = "--dask-workers" if workers is not None else "--scheduler"
        raise CliError(f"{flag} needs Dask: pip install 'zipai-sim[dask]' (or "
                       f"uv sync --extra dask)") from None
    cluster = None
    try:
        if workers is not None:
            cluster = local_cluster(workers)
            client = distributed.Client(cluster)
        else:
            import dask

            # the wait for a scheduler is Dask's distributed.comm.timeouts.connect (30 s), also
            # for the handshake with something that is not a scheduler
            client = _connect(distributed, address,
                              dask.config.get("distributed.comm.timeouts.connect"))
    except Exception as e:  # an OSError, a timeout, or garbage from a port that is no scheduler
        if cluster is not None:
            cluster.close()
        why = str(e).strip().splitlines()[0][:120] if str(e).strip() else type(e).__name__
        if workers is not None:
            raise CliError(f"--dask-workers {workers}: cannot start the cluster ({why})") \
                from None
        raise CliError(f"--scheduler {address}: cannot connect ({why})") from None
    if not client.nthreads():  # a scheduler without workers would hold every batch forever
        import dask

        wait = dask.config.get("distributed.comm.timeouts.connect")
        try:
            client.wait_for_workers(1, timeout=wait)
        except Exception:  # a TimeoutError (its type moved between distributed versions)
            client.close()
            raise CliError(f"--scheduler {address}: no worker joined within {wait}; start "
                           f"`dask worker {address}` on the worker hosts") from None
    print(f"dask: {len(client.nthreads())} workers, "
          f"{sum(client.nthreads().values())} threads", file=sys.stderr)
    a.client = client
    # A Ctrl-C that lands while distributed's ``sync`` is still setting up its future makes
    # that function's cancel callback fail with a NameError, which tornado logs as a traceback
    # (distributed 2026.8); the run itself stops cleanly and keeps its batches, so the log is
    # noise to a user who pressed Ctrl-C.
    tornado_log = logging.getLogger("tornado.application")
    level = tornado_log.level
    tornado_log.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        tornado_log.setLevel(level)
        client.close()
        if cluster is not None:
            cluster.close()
