"""Dask scaling of ``simulate_deals`` (issue 10 §6): the same run locally (1 and 2 threads) and
on an in-process ``LocalCluster`` of 1 and 2 worker processes (``cli.dask.local_cluster``, as
``--dask-workers``: one thread each, the cores shared between them). Prints a table, writes
``benchmarks/dask-results.md``, and checks every row gives the same counts.

    uv run --extra dask python benchmarks/dask_scaling.py [DEALS]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

import zipai_sim as zs
from zipai_sim.cli.dask import local_cluster

VARIANT, SEED = "guangxi-81", 20261129


def _warm() -> None:
    zs.simulate_deals(VARIANT, 10_000, SEED, progress=False)


def timed(**kw) -> tuple[float, np.ndarray]:
    t0 = time.perf_counter()
    r = zs.simulate_deals(VARIANT, N, SEED, progress=False, **kw)
    return time.perf_counter() - t0, r.counts


def main() -> None:
    import distributed

    zs.simulate_deals(VARIANT, 100_000, SEED, progress=False)  # compile / load the cache
    rows, ref = [], None
    for threads in (1, 2):
        sec, counts = timed(threads=threads)
        ref = counts if ref is None else ref
        rows.append((f"local, {threads} thread{'s' * (threads > 1)}", sec,
                     np.array_equal(counts, ref)))
    for workers in (1, 2):
        with local_cluster(workers) as cluster, distributed.Client(cluster) as client:
            client.run(_warm)  # every worker loads the kernels before the clock
            sec, counts = timed(client=client)
        rows.append((f"Dask LocalCluster, {workers} worker{'s' * (workers > 1)}", sec,
                     np.array_equal(counts, ref)))
    base = rows[0][1]
    lines = ["| run | deals | seconds | deals/s | speed-up vs local 1 thread | same counts |",
             "|---|---|---|---|---|---|"]
    for name, sec, same in rows:
        lines.append(f"| {name} | {N:,} | {sec:.2f} | {N / sec:,.0f} | {base / sec:.2f}× | "
                     f"{'yes' if same else 'NO'} |")
    text = "\n".join(lines)
    print(text)
    Path(__file__).with_name("dask-results.md").write_text(
        f"# Dask scaling ({time.strftime('%Y-%m-%d')}, {VARIANT}, seed {SEED})\n\n{text}\n",
        encoding="utf-8")
    if not all(same for _, _, same in rows):
        sys.exit("the counts differ between runs")


if __name__ == "__main__":
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000_000
    main()
