"""Speed of the batched table (issue 48): decisions/s through the Python batch interface
(``play.batch.BatchTable``) with a trivial numpy policy, every variant, 2 threads, in one run.

Rows, every seat answered by the caller (the aim: ≥ 50,000 decisions/s in the 3-player
variants):

- ``table``: a batch of 1,024 hands; the policy is the argmax of a fixed random score over
  each row's legal mask (``np.where(mask, score, -1).argmax(axis=1)``); decisions/s counts the
  answers given, hands/s the hands finished;
- ``kernel greedy``: the numba kernel playing every seat greedy itself on the same decks
  (``play.chunks.play_chunks``), and the table's hands/s as a share of it;
- memory: the process's peak resident set after the first and after all the table's hands
  (flat when the table holds only its batch).

Prints a Markdown table and writes ``benchmarks/rl-results.md``.

    uv run python benchmarks/rl.py [--quick]
"""

from __future__ import annotations

import argparse
import resource
import time

import numba
import numpy as np
from results import run_line, write_results  # benchmarks/results.py, beside this script

import zipai_sim as zs
from zipai_sim.kernels import play as kp
from zipai_sim.play.actions import N_ACTIONS
from zipai_sim.play.batch import BatchTable
from zipai_sim.play.chunks import play_chunks
from zipai_sim.runs.chunks import chunk_keys, chunk_sizes

SEED = 20261206
AIM = 50_000  # decisions/s, 3-player variants, 2 threads
BATCH = 1024


def peak_mib() -> float:
    """The process's peak resident set so far, MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def table_rate(key: str, n: int) -> tuple[float, float, float, float]:
    """(decisions/s, hands/s, peak MiB after the first tenth, peak MiB at the end)."""
    score = np.random.default_rng(0).random(N_ACTIONS)
    BatchTable(key, hands=8, seed=SEED, batch=8).reset()  # compile outside the clock
    t = BatchTable(key, hands=n, seed=SEED, batch=BATCH)
    t0 = time.perf_counter()
    q = t.reset()
    asked, early = 0, None
    while not t.done:
        asked += len(q)
        q = t.step(np.where(q.mask, score, -1.0).argmax(axis=1))
        if early is None and t._next >= n // 10:
            early = peak_mib()
        t.finished()
    dt = time.perf_counter() - t0
    return asked / dt, n / dt, early or peak_mib(), peak_mib()


def kernel_rate(key: str, n: int) -> float:
    v = zs.load_variant(key)
    cs = 4096
    m = -(-n // cs)
    keys, sizes = chunk_keys(SEED, 0, m), chunk_sizes(n, cs, 0, m)
    out = np.zeros((m, cs, kp.N_OUT), np.int64)
    codes = np.full(v.layout.players, kp.POL_GREEDY, np.int64)
    play_chunks(v, keys[:1], np.minimum(sizes[:1], 4), codes, out[:1])
    t = time.perf_counter()
    play_chunks(v, keys, sizes, codes, out)
    return n / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (about a minute)")
    a = ap.parse_args()
    n = 4_096 if a.quick else 40_960
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    rows = []
    for key in zs.list_variants():
        seats = zs.load_variant(key).layout.players
        dps, hps, early, late = table_rate(key, n)
        k = kernel_rate(key, n)
        ok = "" if seats != 3 else ("yes" if dps >= AIM else "NO") + f" (≥ {AIM:,})"
        rows.append((key, n, dps, hps, k, hps / k, early, late, ok))
        print(rows[-1], flush=True)
    head = run_line("rl.py", a.quick, f"seed {SEED}", f"batch {BATCH}")
    table = ("| variant | hands | decisions/s | hands/s | kernel greedy hands/s | table ÷ kernel "
             "| peak MiB at 10% → end | aim met |\n|---|---|---|---|---|---|---|---|\n"
             + "\n".join(f"| `{k}` | {m:,} | {d:,.0f} | {h:,.0f} | {g:,.0f} | {x:.3f} | "
                         f"{e:,.0f} → {z:,.0f} | {ok} |"
                         for k, m, d, h, g, x, e, z, ok in rows))
    write_results("rl-results.md", "Batched table speed (issue 48)", head, table)


if __name__ == "__main__":
    main()
