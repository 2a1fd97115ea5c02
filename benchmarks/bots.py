"""Speed of the issue-39, issue-47 and issue-58 bots: hands/s of whole hands on 2 threads, every variant,
in one run.

Rows (``play.chunks.play_chunks``: deal, play, outcome rows; no settlement):

- ``lookahead``, ``study``, ``learned`` (the shipped weights) and ``neural`` (the shipped
  models), every seat that bot (the aim of study, learned and neural: ≥ 1,000 hands/s with
  every seat playing it in the 3-player variants);
- ``teacher``: one teacher seat (the dealer, ``K`` worlds per candidate answer) among study
  seats (the aim: ≥ 10 hands/s);
- ``search`` and ``oracle`` (the ceiling, a cheat): one such seat among learned seats (the
  search's aim: ≥ 10 hands/s).

Each row also gives its ratio to lookahead's rate measured in the same run, so a noisy machine
moves both. Prints a Markdown table and writes ``benchmarks/bots-results.md``.

    uv run python benchmarks/bots.py [--quick]
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np
from results import run_line, write_results  # benchmarks/results.py, beside this script

import zipai_sim as zs
from zipai_sim.kernels import play as kp
from zipai_sim.play.chunks import play_chunks
from zipai_sim.runs.chunks import chunk_keys, chunk_sizes

SEED = 20261204
K = 32
TARGET = {"study": 1_000, "learned": 1_000, "neural": 1_000, "teacher": 10, "search": 10}  # hands/s on 2 threads, 3-player variants


def rate(v, codes: np.ndarray, n: int, cs: int) -> float:
    """Hands/s of ``n`` hands in chunks of ``cs`` (after an untimed call that compiles)."""
    m = -(-n // cs)
    keys, sizes = chunk_keys(SEED, 0, m), chunk_sizes(n, cs, 0, m)
    out = np.zeros((m, cs, kp.N_OUT), np.int64)
    play_chunks(v, keys[:1], np.minimum(sizes[:1], 4), codes, out[:1], K)
    t = time.perf_counter()
    play_chunks(v, keys, sizes, codes, out, K)
    return n / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (about a minute)")
    a = ap.parse_args()
    n = {"lookahead": 2_048, "study": 2_048, "learned": 2_048, "neural": 2_048, "teacher": 64,
         "search": 128, "oracle": 128}
    if a.quick:
        n = {"lookahead": 256, "study": 256, "learned": 256, "neural": 256, "teacher": 8,
             "search": 16, "oracle": 16}
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    rows = []
    for key in zs.list_variants():
        v = zs.load_variant(key)
        seats = v.layout.players
        got = {}
        for bot, code in (("lookahead", kp.POL_LOOKAHEAD), ("study", kp.POL_STUDY),
                          ("learned", kp.POL_LEARNED), ("neural", kp.POL_NEURAL),
                          ("teacher", kp.POL_TEACHER),
                          ("search", kp.POL_SEARCH), ("oracle", kp.POL_ORACLE)):
            codes = np.full(seats, code, np.int64)
            one = code in (kp.POL_TEACHER, kp.POL_SEARCH, kp.POL_ORACLE)  # one searching seat
            if one:
                codes[1:] = kp.POL_STUDY if bot == "teacher" else kp.POL_LEARNED
            got[bot] = rate(v, codes, n[bot], 8 if one else 128)
            aim = TARGET.get(bot) if seats == 3 else None
            rows.append((key, f"{bot} (1 seat, K = {K})" if one else bot,
                         n[bot], got[bot], got[bot] / got["lookahead"],
                         "" if aim is None else ("yes" if got[bot] >= aim else "NO") +
                         f" (≥ {aim:,})"))
            print(rows[-1], flush=True)
    head = run_line("bots.py", a.quick, f"seed {SEED}")
    table = ("| variant | bot | hands | hands/s | × lookahead | aim met |\n"
             "|---|---|---|---|---|---|\n" + "\n".join(
                 f"| `{k}` | {b} | {m:,} | {r:,.1f} | {x:.3f} | {ok} |"
                 for k, b, m, r, x, ok in rows))
    write_results("bots-results.md", "Bot speeds (issues 39, 47, 58)", head, table)


if __name__ == "__main__":
    main()
