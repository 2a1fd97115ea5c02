"""Speed of the hand analysis (issue 40): seconds per decision at the default worlds, every
variant, in one run, with the readable twin's speed on the same answers for the ratio.

For each variant one hand is played by study bots at every seat (``kernel_records``), and every
decision of every seat is analysed (``analyze``: every legal answer played out in
``DEFAULT_WORLDS`` worlds, every seat then study). The twin row plays a few answers of the
first decisions world by world on the reference engine (``play.bots_rollout.world`` and the
study twin, as ``tests/test_analysis.py`` compares them) and reports seconds per play-out; the
ratio is twin / kernel per play-out, measured in the same run. Prints a Markdown table and
writes ``benchmarks/analysis-results.md``.

    uv run python benchmarks/analysis.py [--quick]
"""

from __future__ import annotations

import argparse
import time

import numba
from results import run_line, write_results  # benchmarks/results.py, beside this script

import zipai_sim as zs
from zipai_sim.analysis.hand import DEFAULT_WORLDS
from zipai_sim.analysis.walk import KINDS, walk
from zipai_sim.play.bots_rollout import WorldScript, world
from zipai_sim.play.policies import StudyPolicy
from zipai_sim.records.build import kernel_records
from zipai_sim.records.replay import replay

SEED = 20261205


def twin_seconds(rec, plays: int) -> float:
    """Seconds per play-out of the reference twin over ``plays`` play-outs."""
    v = replay(rec).variant
    qs = [q for q in walk(rec, v).questions if q.start is not None]
    t, n = time.perf_counter(), 0
    for q in qs:
        for val in q.vals:
            w, c0 = world((q.step, q.start), q.seat, KINDS[q.kind], q.card, q.nr, 0, True)
            script = WorldScript(q.seat, KINDS[q.kind], val, c0, StudyPolicy(), analysis=True)
            w.fork([script] * w.seats).play_from(q.step, script.step)
            n += 1
            if n == plays:
                return (time.perf_counter() - t) / n
    return (time.perf_counter() - t) / max(n, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one hand, 4 twin play-outs")
    a = ap.parse_args()
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    hands, plays = (1, 4) if a.quick else (3, 24)
    rows = []
    for key in zs.list_variants():
        v = zs.load_variant(key)
        recs = kernel_records(v, SEED, 64, ["study"] * v.layout.players, hands)
        zs.analyze(recs[0], worlds=2, progress=False)  # compiles (or loads the cache)
        t = time.perf_counter()
        decisions = answers = 0
        for rec in recs:
            an = zs.analyze(rec, worlds=DEFAULT_WORLDS, progress=False)
            decisions += len(an)
            answers += sum(len(d.rows) for d in an.decisions)
        s = time.perf_counter() - t
        per_play = s / max(answers * DEFAULT_WORLDS, 1)
        twin = twin_seconds(recs[0], plays)
        rows.append((key, hands, decisions, answers / max(decisions, 1), s / max(decisions, 1),
                     per_play * 1e6, twin * 1e6, twin / per_play))
        print(rows[-1], flush=True)
    head = run_line("analysis.py", a.quick, f"seed {SEED}", f"{DEFAULT_WORLDS} worlds")
    table = ("| variant | hands | decisions | answers / decision | s / decision | µs / play-out "
             "| twin µs / play-out | twin ÷ kernel |\n|---|---|---|---|---|---|---|---|\n"
             + "\n".join(f"| `{k}` | {h} | {d:,} | {ans:.1f} | {s:.3f} | {p:,.0f} | {tw:,.0f} | "
                         f"{r:,.0f} |" for k, h, d, ans, s, p, tw, r in rows))
    write_results("analysis-results.md", "Hand analysis speed (issue 40)", head, table)


if __name__ == "__main__":
    main()
