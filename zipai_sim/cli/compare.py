"""``zipai-sim compare``: rule variants or thresholds on the same hands, paired differences of
the balance metrics and a Holm correction (issue 9 §3; ``studies.compare``)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from zipai_sim.cli.bounds import (
    CliError,
    Repeatable,
    add_set,
    at_least_one,
    policy_arg,
    resolve_policy,
)


def cmd_compare(a: argparse.Namespace) -> int:
    """Compare variants or thresholds on the same hands: each run's balance metrics minus the
    first run's, with paired 95% intervals, paired t p values and their Holm adjustment."""
    from zipai_sim.cli import bounds as B
    from zipai_sim.cli.outputs import check_out, save_one
    from zipai_sim.runs.chunks import check_chunk_size, check_count

    at_least_one(a.hands, "--hands")
    check_count(a.hands, "--hands")
    if a.chunk_size is not None:
        check_chunk_size(a.chunk_size, "--chunk-size")
    check_out(a.out)
    if a.sweep:
        return _sweep(a)
    runs = len(a.variants) * len(a.thresholds or [0])
    if runs < 2:
        raise CliError("compare needs at least two runs: two --variants, or --thresholds with "
                       "two or more values")
    vs = [B.load(a, v) for v in a.variants]
    B.distinct_runs([v.with_threshold(t) for v in vs for t in a.thresholds or
                     [v.win.threshold]])
    B.time_cap(a.hands * runs, B.MAX_HANDS, "--hands", "hands", runs)
    # the study (numba, polars, scipy) loads once the arguments are known to be good
    from zipai_sim.studies.compare import compare
    from zipai_sim.tables import table_metadata

    df = compare(vs, a.hands, a.seed, thresholds=a.thresholds, policies=resolve_policy(a.policy),
                 threads=a.threads, alpha=a.alpha, progress=None, client=a.client,
                 chunk_size=a.chunk_size)
    print(df.report())
    done = df.run["n"]
    partial = done < a.hands
    runs_meta = {"variants": [k for k, _ in df.run["variants"]],  # the baseline included
                 "rules_hash": [h for _, h in df.run["variants"]],
                 "thresholds": df.run["thresholds"]}
    meta = table_metadata(df, "compare", **runs_meta, n=done, n_requested=a.hands,
                          partial=str(partial).lower(), policies=a.policy, engine="numba",
                          alpha=a.alpha)
    return save_one(df, a.out, meta, done, a.hands, "hands")


def _sweep(a: argparse.Namespace) -> int:
    """``compare --sweep``: one variant against each setting of its swept knobs."""
    from zipai_sim.cli import bounds as B
    from zipai_sim.cli.outputs import save_one
    from zipai_sim.studies.compare import compare
    from zipai_sim.studies.sweep import knob_of, sweep_runs
    from zipai_sim.tables import table_metadata

    if len(a.variants) != 1 or a.thresholds:
        raise CliError("--sweep varies one variant: give one --variants and no --thresholds "
                       "(sweep win.threshold instead)")
    sweep = dict(a.sweep)
    if len(sweep) < len(a.sweep):
        raise CliError("--sweep names a knob twice")
    base = B.load(a, a.variants[0])
    try:
        _, settings, runs = sweep_runs(base, sweep)
    except ValueError as e:
        raise CliError(f"--sweep: {e}") from None
    B.time_cap(a.hands * (len(runs) + 1), B.MAX_HANDS, "--hands", "hands", len(runs) + 1)
    df = compare(base, a.hands, a.seed, policies=resolve_policy(a.policy), threads=a.threads,
                 alpha=a.alpha, progress=None, client=a.client, sweep=sweep,
                 chunk_size=a.chunk_size)
    print(df.report())
    done = df.run["n"]
    knobs = list(settings[0])
    meta = table_metadata(df, "compare", variants=[k for k, _ in df.run["variants"]],
                          rules_hash=[h for _, h in df.run["variants"]],
                          thresholds=df.run["thresholds"], n=done, n_requested=a.hands,
                          partial=str(done < a.hands).lower(), policies=a.policy,
                          engine="numba", alpha=a.alpha, sweep_knobs=knobs,
                          sweep_baseline=json.dumps({k: knob_of(base, k) for k in knobs},
                                                    ensure_ascii=False))
    return save_one(df, a.out, meta, done, a.hands, "hands")


def _sweep_arg(text: str):
    from zipai_sim.studies.sweep import parse_sweep

    try:
        knobs, values = parse_sweep(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return (knobs[0] if len(knobs) == 1 else knobs), [v[0] if len(v) == 1 else v for v in values]


def add_compare(sub, doc) -> None:
    """The ``compare`` subcommand on the subparsers ``sub`` (``doc``: a docstring as help)."""
    from zipai_sim.cli.checkpoint import add_checkpoint, add_chunk_size, add_seed_threads
    from zipai_sim.play import DEFAULT_HAND_CHUNK, POLICY_NAMES
    from zipai_sim.play.registry import cheat_text, names_text

    co = sub.add_parser("compare", help=doc(cmd_compare), description=cmd_compare.__doc__)
    co.add_argument("--variants",
                    action=Repeatable, nargs="+", default=["guangxi-81"], metavar="VARIANT",
                    help="variant keys or TOML paths; the first is the baseline (default: "
                    "guangxi-81)")
    co.add_argument("--thresholds", type=int,
                    action=Repeatable, nargs="+", default=None, metavar="T",
                    help="起胡 thresholds: every variant at each (default: each variant's own)")
    co.add_argument("--sweep", type=_sweep_arg, action="append", default=None,
                    metavar="KNOB=VALUES",
                    help="compare one variant with each setting of a rule knob (SECTION.KEY as "
                    "in its TOML file), e.g. win.threshold=12,18; knobs that change together "
                    "as KNOB/KNOB2=V1/W1,V2/W2; repeated: every combination (docs/knobs.md)")
    co.add_argument("--hands", type=int, default=20_000, metavar="N",
                    help="hands, the same for every run (default: %(default)s)")
    co.add_argument("--policy", type=policy_arg(sorted(POLICY_NAMES)), default="greedy",
                    help=f"policy of every seat: {names_text()}, or MODULE:ATTR, a batch "
                    f"policy (default: %(default)s{cheat_text()})")
    co.add_argument("--alpha", type=float, default=0.05, metavar="A",
                    help="family-wise level of the Holm correction (default: %(default)s)")
    co.add_argument("--out", type=Path, default=Path("compare.parquet"), metavar="FILE",
                    help="Parquet file (default: %(default)s)")
    add_seed_threads(co)
    add_chunk_size(co, "hands", DEFAULT_HAND_CHUNK)
    add_checkpoint(co)
    add_set(co)
    co.set_defaults(func=cmd_compare)

