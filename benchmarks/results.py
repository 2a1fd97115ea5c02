"""What every benchmark script shares: the line that says when, on what and how a table was
measured, and the Markdown file it is written to (``benchmarks/*-results.md``)."""

from __future__ import annotations

import datetime
from pathlib import Path

import numba

HERE = Path(__file__).parent


def run_line(script: str, quick: bool, *facts: str) -> str:
    """``<now>, <threads> threads, <facts…>[ (quick)]: `uv run python benchmarks/<script>[
    --quick]``` — the line above a result table."""
    flag = " --quick" if quick else ""
    return (f"{datetime.datetime.now().astimezone().isoformat(timespec='seconds')}, "
            f"{numba.get_num_threads()} threads, {', '.join(facts)}"
            f"{' (quick)' if quick else ''}: `uv run python benchmarks/{script}{flag}`")


def write_results(name: str, title: str, head: str, table: str) -> None:
    """Print ``head`` and ``table`` and write them under ``# title`` to ``benchmarks/name``."""
    print("\n" + head + "\n\n" + table)
    (HERE / name).write_text(f"# {title}\n\n{head}\n\n{table}\n", encoding="utf-8")
