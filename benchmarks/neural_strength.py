"""Strength of the shipped neural models (issue 58): ``neural`` against ``learned`` and against
``study`` in duplicate arenas on decks of a seed no training or tuning used, every variant.

Each row is the mean payment a hand of the challenger's seat minus the baseline's on the same
decks (``studies.arena``: the challenger in each seat in turn), with its paired 95% t interval,
in the variant's unit; "beyond" says whether the interval lies above 0. Prints a Markdown table
and writes ``benchmarks/neural-results.md``.

    uv run python benchmarks/neural_strength.py [--decks N] [--quick]
"""

from __future__ import annotations

import argparse

import numba
from results import run_line, write_results  # benchmarks/results.py, beside this script

import zipai_sim as zs
from zipai_sim.play.neural import model

SEED = 58_2026_12_07  # used by no training or tuning run (training draws its seeds from --seed 58)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decks", type=int, default=10_000)
    ap.add_argument("--quick", action="store_true", help="200 decks (a pilot, not a strength)")
    a = ap.parse_args()
    decks = 200 if a.quick else a.decks
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    rows = []
    for key in zs.list_variants():
        v = zs.load_variant(key)
        m = model(v)
        for base in ("learned", "study"):
            r = zs.arena(v, "neural", base, decks, seed=SEED, progress=False).row(0, named=True)
            d, lo, hi = float(r["score_diff"]), float(r["ci_low"]), float(r["ci_high"])
            rows.append((key, m.hash, base, d, lo, hi, v.settle.unit,
                         "yes" if lo > 0 else ("no: below" if hi < 0 else "no: tie")))
            print(rows[-1], flush=True)
    head = run_line("neural_strength.py", a.quick, f"seed {SEED}", f"{decks:,} decks")
    table = ("| variant | model | neural − | a hand [95%] | unit | beyond the interval |\n"
             "|---|---|---|---|---|---|\n" + "\n".join(
                 f"| `{k}` | `{h}` | {b} | {d:+.3f} [{lo:+.3f}, {hi:+.3f}] | {u} | {ok} |"
                 for k, h, b, d, lo, hi, u, ok in rows))
    write_results("neural-results.md", "Neural bot strength (issue 58)", head, table)


if __name__ == "__main__":
    main()
