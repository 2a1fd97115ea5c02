"""``--checkpoint DIR`` and ``--resume DIR`` on the long commands (issue 10 §2): every finished
batch saved as it completes, and an interrupted run continued to the result an uninterrupted
run gives, bit for bit (``zipai_sim.runs.checkpoint``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from zipai_sim.cli.bounds import CliError


def add_seed_threads(q: argparse.ArgumentParser) -> None:
    """``--seed`` and ``--threads`` of a command on the run driver: neither changes a result
    beyond the seed itself (chunks are seeded from it, the thread count never matters)."""
    from zipai_sim.cli.bounds import seed_arg
    from zipai_sim.report import DEFAULT_SEED

    q.add_argument("--seed", type=seed_arg, default=DEFAULT_SEED,
                   help="root seed (default: %(default)s)")
    q.add_argument("--threads", type=int, default=None, metavar="N",
                   help="threads (default: all cores); the result does not depend on it")


def add_chunk_size(q: argparse.ArgumentParser, unit: str, default: int) -> None:
    """``--chunk-size N`` of a long command: ``unit``s a chunk holds (its own random stream, a
    checkpoint step, a progress tick). A result depends on it, as on the seed: a search run of
    a few hundred ``unit``s wants small chunks, so that ``--checkpoint`` saves as it goes."""
    q.add_argument("--chunk-size", type=int, default=None, metavar="N",
                   help=f"{unit} per chunk: each chunk is seeded on its own, saved by "
                   f"--checkpoint and shown by the progress bar as it ends; the result depends "
                   f"on it as on the seed (default: {default})")


def add_checkpoint(q: argparse.ArgumentParser) -> None:
    """The two flags, on a command that runs through ``runs.run_batches``, and the Dask ones
    (``cli.dask``): both are the run model's."""
    from zipai_sim.cli.dask import add_dask

    add_dask(q)
    g = q.add_mutually_exclusive_group()
    g.add_argument("--checkpoint", dest="run_checkpoint", type=Path, metavar="DIR", default=None,
                   help="save every finished batch in DIR (a new or empty folder) as it "
                        "completes, so that an interrupted run can be resumed")
    g.add_argument("--resume", dest="run_resume", type=Path, metavar="DIR", default=None,
                   help="continue the run saved in DIR: give the same command and options; "
                        "the result equals an uninterrupted run's")


@contextmanager
def checkpointing(a: argparse.Namespace) -> Iterator[list[int]]:
    """Run the command inside a checkpoint block when ``--checkpoint``/``--resume`` is given.
    The caller puts the command's exit code in the yielded list; on 130 (interrupted) the
    folder and the way to continue are printed on stderr."""
    # own dests: `exact --checkpoint FILE` is another thing (the enumeration's progress file)
    folder = getattr(a, "run_checkpoint", None) or getattr(a, "run_resume", None)
    code: list[int] = []
    if folder is None:
        yield code
        return
    from zipai_sim.runs.checkpoint import CheckpointError, checkpoint

    flag = "--resume" if getattr(a, "run_resume", None) else "--checkpoint"
    try:
        block = checkpoint(folder, resume=flag == "--resume")
        c = block.__enter__()
    except CheckpointError as e:
        raise CliError(str(e)) from None
    except OSError as e:
        raise CliError(f"{flag} {folder}: {e.strerror or e}") from None
    try:
        yield code
    except KeyboardInterrupt:
        code.append(130)
        raise
    finally:
        block.__exit__(None, None, None)
        if code and code[0] == 130 and any(c.folder.glob("part-*.parquet")):
            print(f"zipai-sim: the finished batches are saved in {c.folder}; run the same "
                  f"command with --resume {c.folder} to continue", file=sys.stderr)
        elif code and code[0] == 130:
            print(f"zipai-sim: no batch had finished; --resume {c.folder} starts the run over",
                  file=sys.stderr)
