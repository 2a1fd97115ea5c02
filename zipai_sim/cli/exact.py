"""``zipai-sim exact``: exact deal-time probabilities by enumeration, on the command line."""

from __future__ import annotations

import argparse
from pathlib import Path

from zipai_sim.cli import bounds as B
from zipai_sim.cli.bounds import CliError as _Fail
from zipai_sim.cli.bounds import Repeatable
from zipai_sim.cli.outputs import check_out, distinct_outputs, save


def cmd_exact(a: argparse.Namespace) -> int:
    """Exact deal-time probabilities by enumeration (天胡, 地胡 of one seat, 翻信 given 天胡,
    胡息 of complete dealer hands, 提/坎 shapes): exact rationals, no sampling. The variants'
    customary thresholds are shipped and print at once; other thresholds take minutes."""
    import time

    import polars as pl
    from tqdm.auto import tqdm

    from zipai_sim.exact import opening as ex

    v = B.load(a, a.variant)
    from zipai_sim.report import check_per

    per = check_per(a.per, "--per")
    ths = a.thresholds if a.thresholds else list(v.win.thresholds)
    from zipai_sim.game.sections import MAX_POINTS

    for t in ths:  # the range of every threshold knob: above it no hand wins, only work is done
        if not 0 <= t <= MAX_POINTS:
            raise _Fail(f"--thresholds must be in 0..{MAX_POINTS}, got {t}")
    path = a.out if a.out is not None else Path(f"exact-{v.key}-{v.rules_hash[:8]}.parquet")
    check_out(path)
    distinct_outputs([("--out", path), ("--checkpoint", a.checkpoint)])
    bar = None

    def progress(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = tqdm(total=total, unit="task", desc=f"{v.key} exact", leave=False, delay=2.0)
        bar.update(done - bar.n)

    have = ex.stored(v)
    shipped = (not a.recompute and have is not None
               and set(ths) <= set(have["threshold"].drop_nulls().to_list()))
    t0 = time.perf_counter()
    try:
        df = ex.exact_opening(v, ths, progress, a.checkpoint, a.recompute)
    finally:
        if bar is not None:
            bar.close()
    secs = time.perf_counter() - t0
    source = "the shipped table" if shipped else "enumerated"
    from zipai_sim.report import Report, exact_view, header

    shown = df if a.all else df.filter(~pl.col("metric").str.starts_with("dealer_huxi_"))
    print(Report(header([(v.key, v.rules_hash)], sorted(set(ths)), seconds=secs,
                        extra=[f"exact values ({source})"]), exact_view(shown, per)))
    return 0 if save([(df, path, ex.metadata(v, sorted(set(ths)), secs, source), "")]) else 2


def add_exact(sub, doc, add_per) -> None:
    """The ``exact`` subcommand on the subparsers ``sub`` (``doc``: a docstring as help,
    ``add_per``: the --per flag)."""
    ex = sub.add_parser("exact", help=doc(cmd_exact), description=cmd_exact.__doc__)
    ex.add_argument("--variant", default="guangxi-81", help="variant key or path to a TOML file "
                    "(default: %(default)s)")
    ex.add_argument("--thresholds", type=int,
                    action=Repeatable, nargs="+", default=None, metavar="T",
                    help="起胡 thresholds to report (default: the variant's customary ones)")
    ex.add_argument("--out", type=Path, default=None, metavar="FILE",
                    help="Parquet file (default: exact-VARIANT-HASH.parquet)")
    add_per(ex)
    ex.add_argument("--checkpoint", type=Path, default=None, metavar="DIR",
                    help="folder keeping each finished part, so a stopped run resumes")
    ex.add_argument("--recompute", action="store_true",
                    help="enumerate even when the shipped table has these thresholds")
    ex.add_argument("--all", action="store_true",
                    help="also print the 胡息 distribution rows (always written)")
    B.add_set(ex)
    ex.set_defaults(func=cmd_exact)
