"""``zipai-sim arena``: a bot against another by duplicate play (issue 9 §2; ``studies.arena``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from zipai_sim.cli.bounds import CliError, Repeatable, add_set, at_least_one


def cmd_arena(a: argparse.Namespace) -> int:
    """Duplicate arena: every deck played once per seat the challenger can take (the baseline in
    the other seats) and once all baseline; print the challenger's score minus the baseline's
    with a paired 95% interval, and both win rates."""
    from zipai_sim.cli import bounds as B
    from zipai_sim.cli.outputs import check_out, save_one
    from zipai_sim.play import DEFAULT_HAND_CHUNK, POLICY_NAMES
    from zipai_sim.runs.chunks import check_chunk_size, check_count
    from zipai_sim.runs.provenance import run_metadata
    from zipai_sim.version import __version__

    sides = []
    for flag, name in (("--challenger", a.challenger), ("--baseline", a.baseline)):
        if name not in POLICY_NAMES and ":" not in str(name):  # argparse says it too
            raise CliError(f"{flag} must be one of {', '.join(sorted(POLICY_NAMES))} or "
                           f"MODULE:ATTR (a batch policy), got {name!r}")
        sides.append(B.resolve_policy(name, flag))
    at_least_one(a.decks, "--decks")
    check_count(a.decks, "--decks")
    if a.threads is not None:
        at_least_one(a.threads, "--threads")
    check_out(a.out)
    keys = a.variant or ["guangxi-81"]
    vs = [B.load(a, v) for v in keys]
    B.distinct_runs(vs)
    # seats + 1 hands per deck and variant, against balance's cap on played hands
    B.time_cap(sum(a.decks * (v.layout.players + 1) for v in vs), B.MAX_HANDS, "--decks",
               f"hands (seats + 1 per deck, {len(vs)} variant{'s' * (len(vs) > 1)})")
    cs = check_chunk_size(DEFAULT_HAND_CHUNK if a.chunk_size is None else a.chunk_size,
                          "--chunk-size")  # = studies.arena.DEFAULT_ARENA_CHUNK
    # the study (numba, polars, scipy) loads once the arguments are known to be good
    from zipai_sim.studies.arena import arena

    df = arena(vs, sides[0], sides[1], a.decks, a.seed, threads=a.threads, progress=None,
               client=a.client, rollout_k=a.rollout_k, chunk_size=cs)
    print(df.report())
    done = df.run["n"]
    partial = done < a.decks
    meta = {"variants": ",".join(keys),
            "variant_keys": ",".join(v.key for v in vs),
            "rules_hashes": ",".join(v.rules_hash for v in vs),
            "thresholds": ",".join(str(v.win.threshold) for v in vs),
            "challenger": a.challenger, "baseline": a.baseline, "decks": str(a.decks),
            "n": str(done), "n_requested": str(a.decks), "partial": str(partial).lower(),
            "seed": str(a.seed), "chunk_size": str(cs),
            "policies": f"{a.challenger},{a.baseline}", "engine": "numba",
            "rollout_k": str(a.rollout_k),
            **{k: x for k, x in run_metadata(df.run).items() if k == "weights_hash"},
            "zipai_sim_version": __version__}
    return save_one(df, a.out, meta, done, a.decks, "decks")


def add_rollout_k(p) -> None:
    """``--rollout-k``: the rollout bot's worlds per candidate answer (``play.rollout``)."""
    from zipai_sim.play.registry import DEFAULT_K, SEARCH_POLICIES, names_text

    def k(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
        from zipai_sim.play.rollout import check_k  # numba: only for a number to check

        try:
            return check_k(n)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    p.add_argument("--rollout-k", type=k, default=DEFAULT_K, metavar="K",
                   help=f"worlds a {names_text(SEARCH_POLICIES)} seat plays per candidate "
                   "answer (default: %(default)s)")


def add_arena(sub, doc) -> None:
    """The ``arena`` subcommand on the subparsers ``sub`` (``doc``: a docstring as help)."""
    from zipai_sim.play import DEFAULT_HAND_CHUNK, POLICY_NAMES
    from zipai_sim.play.registry import cheat_text, names_text

    names = sorted(POLICY_NAMES)
    ar = sub.add_parser("arena", help=doc(cmd_arena), description=cmd_arena.__doc__)
    ar.add_argument("--variant", "--variants", dest="variant", action=Repeatable, nargs="+",
                    default=None, metavar="VARIANT",
                    help="variant keys or TOML paths, as --variants A B (the other commands' "
                    "form) or --variant A --variant B (default: guangxi-81)")
    from zipai_sim.cli.bounds import policy_arg

    ar.add_argument("--challenger", required=True, type=policy_arg(names), metavar="POLICY",
                    help=f"the policy measured: {names_text()}, or MODULE:ATTR (a batch "
                    f"policy: an outside model, docs/guide/rl.md){cheat_text()}")
    ar.add_argument("--baseline", required=True, type=policy_arg(names), metavar="POLICY",
                    help=f"the policy it is measured against: {names_text()}, or "
                    "MODULE:ATTR")
    ar.add_argument("--decks", type=int, default=10_000, metavar="N",
                    help="decks per variant, each played seats + 1 times (default: "
                    "%(default)s)")
    ar.add_argument("--out", type=Path, default=Path("arena.parquet"), metavar="FILE",
                    help="Parquet file (default: %(default)s)")
    add_rollout_k(ar)
    from zipai_sim.cli.checkpoint import add_checkpoint, add_chunk_size, add_seed_threads

    add_seed_threads(ar)
    add_chunk_size(ar, "decks", DEFAULT_HAND_CHUNK)  # = studies.arena.DEFAULT_ARENA_CHUNK
    add_checkpoint(ar)
    add_set(ar)
    ar.set_defaults(func=cmd_arena)
