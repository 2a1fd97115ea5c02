"""Cold start of zipai-sim (issue 55): how long a fresh process waits before it does any work.

Sections (each a function returning a Markdown table; all run unless one is picked):

- ``import_times``: wall time of ``python -c "import zipai_sim"``, ``zipai-sim --help`` and
  ``zipai-sim simulate --deals abc`` (an argument error), each the best of 5 fresh processes,
  beside the bare interpreter's start; the aim is ≤ 1 s (the heavy libraries, numba, polars
  and scipy, load only when a command runs: tests/test_imports.py holds that).

- ``compile_times``: the first call of each entry a new user meets, in a fresh process with an
  empty numba cache (``NUMBA_CACHE_DIR`` a new empty folder): the first greedy
  ``simulate_hands``, the first ``arena`` of learned against greedy, the first ``analyze`` of a
  played hand, and the main job's first ``simulate_deals``; wall and CPU seconds, one process
  after another (run it on a quiet machine: each takes minutes). Issue 55's aims: 60, 90 and
  90 s for the first three on 2 cores.

Prints the tables and writes each to ``benchmarks/coldstart-NAME-results.md`` (one file a
section, so a run of one section keeps the other's last table).

    uv run python benchmarks/coldstart.py [--imports-only | --compile-only]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from results import write_results  # benchmarks/results.py, beside this script

REPEATS = 5
AIM_S = 1.0  # issue 55: import, --help and an argument error answer within a second


def _cli() -> str:
    """The ``zipai-sim`` console script of this interpreter's environment."""
    here = Path(sys.executable).with_name("zipai-sim")
    return str(here) if here.exists() else (shutil.which("zipai-sim") or "zipai-sim")


def best_wall(argv: list[str], repeats: int = REPEATS) -> float:
    """The shortest wall time of ``repeats`` fresh runs of ``argv``, in seconds (the best, as the
    other benchmarks take: a busy machine only ever adds time)."""
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        best = min(best, time.perf_counter() - t)
    return best


def import_times(repeats: int = REPEATS) -> str:
    """The cold-start table: each command's best wall time of ``repeats`` fresh processes."""
    py, cli = sys.executable, _cli()
    rows = [("`python -c pass` (the interpreter alone)", [py, "-c", "pass"], False),
            ('`python -c "import zipai_sim"`', [py, "-c", "import zipai_sim"], True),
            ("`zipai-sim --help`", [cli, "--help"], True),
            ("`zipai-sim simulate --deals abc` (argument error)",
             [cli, "simulate", "--deals", "abc"], True)]
    lines = [f"| command | best of {repeats} (s) | aim met (≤ 1 s) |", "|---|---|---|"]
    for label, argv, aimed in rows:
        s = best_wall(argv, repeats)
        ok = ("yes" if s <= AIM_S else "NO") if aimed else ""
        lines.append(f"| {label} | {s:.3f} | {ok} |")
        print(lines[-1], flush=True)
    return "\n".join(lines)


#: the first calls ``compile_times`` makes, each in its own fresh process: (label, code, aim s)
FIRST_CALLS = (
    ("first greedy `simulate_hands` (guangxi-81, 100 hands)",
     "zs.simulate_hands('guangxi-81', 100, seed=1, progress=False)", 60.0),
    ("first `arena` learned vs greedy (guangxi-81, 20 decks)",
     "zs.arena('guangxi-81', 'learned', 'greedy', 20, seed=1, progress=False)", 90.0),
    ("first `analyze` (a greedy hand, seat 0)",
     "s, r = zs.simulate_hands('guangxi-81', 1, seed=1, records=1, progress=False); "
     "zs.analyze(r[0], seat=0)", 90.0),
    ("first `simulate_deals` (the main job, 10,000 deals)",
     "zs.simulate_deals('guangxi-81', 10_000, seed=1, progress=False)", None),
)

_CHILD = """
import resource, sys, time
t = time.perf_counter()
import zipai_sim as zs
{code}
ru = resource.getrusage(resource.RUSAGE_SELF)
print(f"{{time.perf_counter() - t:.1f}} {{ru.ru_utime + ru.ru_stime:.1f}}")
"""


def compile_times() -> str:
    """The first-call table: wall and CPU seconds of each ``FIRST_CALLS`` entry in a fresh
    process whose numba cache starts empty (2 threads: the machine the aims are set for)."""
    import tempfile

    lines = ["| first call (empty numba cache) | wall (s) | CPU (s) | aim (s) | met |",
             "|---|---|---|---|---|"]
    for label, code, aim in FIRST_CALLS:
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache, "NUMBA_NUM_THREADS": "2"}
            got = subprocess.run([sys.executable, "-c", _CHILD.format(code=code)], env=env,
                                 capture_output=True, text=True, check=False)
        if got.returncode != 0:
            lines.append(f"| {label} | failed: {got.stderr.strip().splitlines()[-1]} | | | |")
        else:
            wall, cpu = (float(x) for x in got.stdout.split()[-2:])
            met = "" if aim is None else "yes" if wall <= aim else "NO"
            lines.append(f"| {label} | {wall:.0f} | {cpu:.0f} | "
                         f"{'' if aim is None else f'{aim:.0f}'} | {met} |")
        print(lines[-1], flush=True)
    return "\n".join(lines)


#: section name → its table; a new measurement is one entry here and its --NAME-only flag
SECTIONS: dict[str, Callable[[], str]] = {"imports": import_times, "compile": compile_times}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in SECTIONS:
        ap.add_argument(f"--{name}-only", dest="only", action="store_const", const=name,
                        help=f"run only the {name} section")
    a = ap.parse_args()
    for name in [a.only] if a.only else list(SECTIONS):
        table = SECTIONS[name]()
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        head = (f"{datetime.datetime.now().astimezone().isoformat(timespec='seconds')}, "
                f"{os.cpu_count()} cores, load average {load} (a loaded machine adds time), "
                f"Python {platform.python_version()}, fresh processes straight from the "
                f"environment (no `uv run`): `uv run python benchmarks/coldstart.py "
                f"--{name}-only`")
        write_results(f"coldstart-{name}-results.md", f"Cold start: {name} (issue 55)", head,
                      table)


if __name__ == "__main__":
    main()
