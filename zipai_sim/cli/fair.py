"""``zipai-sim fair``: the setting of one integer rule knob at which a balance metric meets a
target, found on the same hands for every value (issue 41; ``studies.fair``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from zipai_sim.cli import bounds as B
from zipai_sim.cli.bounds import CliError, at_least_one, policy_arg, resolve_policy


def cmd_fair(a: argparse.Namespace) -> int:
    """Find the value of a rule knob at which a metric meets its target (e.g. the 荒庄 payment
    that makes the dealer's seat worth nothing): the two integers around the crossing, the
    interpolated crossing with its 95% interval, which is closer, and the hands it took."""
    from zipai_sim.cli.outputs import check_out, save
    from zipai_sim.runs.chunks import check_count
    from zipai_sim.studies.fair import fair, parse_target

    for flag, x in (("--start-hands", a.start_hands), ("--max-hands", a.max_hands)):
        at_least_one(x, flag)
        check_count(x, flag)
    B.time_cap(a.max_hands * 8, B.MAX_HANDS, "--max-hands", "hands (up to 8 values)")
    lo, hi = a.range
    if lo >= hi:
        raise CliError(f"--range takes LO HI with LO < HI, got {lo} {hi}")
    check_out(a.out)
    link = {}
    for text in a.link or []:
        name, eq, factor = text.partition("=")
        try:
            link[name.strip()] = int(factor)
        except ValueError:
            raise CliError(f"--link takes KNOB=FACTOR with an integer factor, got {text!r}") \
                from None
        if not eq:
            raise CliError(f"--link takes KNOB=FACTOR, got {text!r}")
    metric, value = parse_target(a.target)
    r = fair(B.load(a, a.variant), a.knob, lo, hi, (metric, value), link=link,
             policies=resolve_policy(a.policy), seed=a.seed, alpha=a.alpha, tol=a.tol,
             start_hands=a.start_hands, max_hands=a.max_hands, threads=a.threads,
             progress=None, client=a.client)
    print(r.report())
    note = " (partial: interrupted)" if r.partial else ""
    out = a.out.with_name(a.out.stem + ".partial.parquet") if r.partial else a.out
    if not save([(r.points, out, r.metadata(), note)]):
        return 2
    return 130 if r.partial else 0


def add_fair(sub, doc) -> None:
    """The ``fair`` subcommand on the subparsers ``sub`` (``doc``: a docstring as help)."""
    from zipai_sim.cli.checkpoint import add_checkpoint, add_seed_threads
    from zipai_sim.play import POLICY_NAMES  # studies.arena.KERNEL_POLICIES' names, without numba
    from zipai_sim.play.registry import cheat_text, names_text

    fa = sub.add_parser("fair", help=doc(cmd_fair), description=cmd_fair.__doc__)
    fa.add_argument("--variant", default="guangxi-81",
                    help="variant key or TOML path (default: %(default)s)")
    fa.add_argument("--knob", required=True, metavar="KNOB",
                    help="the integer knob to search, e.g. settle.huangzhuang_others")
    fa.add_argument("--range", type=int, nargs=2, required=True, metavar="N",
                    help="LO HI: the values to search between")
    fa.add_argument("--target", default="score_seat0=0", metavar="METRIC=VALUE",
                    help="the metric (as compare names it) and the value it should take "
                    "(default: %(default)s, the dealer's seat worth nothing)")
    fa.add_argument("--link", action="append", default=None, metavar="KNOB=FACTOR",
                    help="another knob set to FACTOR × the searched value, e.g. "
                    "settle.huangzhuang_dealer=-2 (the 荒庄 payments sum to 0); repeatable")
    fa.add_argument("--policy", type=policy_arg(sorted(POLICY_NAMES)), default="greedy",
                    help=f"policy of every seat: {names_text()}, or MODULE:ATTR, a batch "
                    f"policy (default: %(default)s{cheat_text()})")
    fa.add_argument("--alpha", type=float, default=0.05, metavar="A",
                    help="chance that any side decision of the search is wrong, and 1 − the "
                    "interval's level (default: %(default)s)")
    fa.add_argument("--tol", type=float, default=None, metavar="T",
                    help="stop at a value whose metric is within ±T of the target (default: "
                    "only a crossing)")
    fa.add_argument("--start-hands", type=int, default=16_384, metavar="N",
                    help="hands first played at each value, doubled while its side is "
                    "unclear (default: %(default)s)")
    fa.add_argument("--max-hands", type=int, default=1_048_576, metavar="N",
                    help="most hands at one value (default: %(default)s)")
    fa.add_argument("--out", type=Path, default=Path("fair.parquet"), metavar="FILE",
                    help="Parquet file of the values looked at, the answer in its metadata "
                    "(default: %(default)s)")
    add_seed_threads(fa)
    add_checkpoint(fa)
    B.add_set(fa)
    fa.set_defaults(func=cmd_fair)

