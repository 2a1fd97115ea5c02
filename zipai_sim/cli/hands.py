"""``zipai-sim balance`` and ``zipai-sim match``: whole hands played and settled, and matches
of hands (``studies.balance``, ``studies.match``), on the run driver (``runs``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from zipai_sim.cli.arena import add_rollout_k
from zipai_sim.cli.bounds import CliError as _Fail
from zipai_sim.cli.bounds import (
    Repeatable,
    add_set,
    add_thresholds,
    add_variants,
    policy_arg,
    seed_arg,
)
from zipai_sim.cli.bounds import at_least_one as _at_least_one
from zipai_sim.cli.checkpoint import add_checkpoint, add_chunk_size, add_seed_threads
from zipai_sim.cli.outputs import check_out, distinct_outputs, partial_path, rows_path, save
from zipai_sim.play import (
    DEFAULT_HAND_CHUNK,
    MATCH_HANDS,
    POLICY_NAMES,
    SEARCH_POLICIES,
)
from zipai_sim.play.registry import cheat_text, names_text
from zipai_sim.report import DEFAULT_SEED, check_per


def _per(a: argparse.Namespace) -> int | None:
    """``--per``, checked (a power of ten) before any work is done."""
    return check_per(a.per, "--per")


def cmd_balance(a: argparse.Namespace) -> int:
    """Play and settle hands of each variant; print win/自摸/放炮 shares, scores and 荒庄 rates."""
    from zipai_sim.cli import bounds as B
    from zipai_sim.runs.chunks import check_chunk_size, check_count, n_chunks
    from zipai_sim.runs.provenance import run_metadata
    from zipai_sim.studies.balance import hands_runs
    from zipai_sim.version import __version__

    _at_least_one(a.hands, "--hands")
    check_count(a.hands, "--hands")
    check_out(a.out)
    check_count(a.rows, "--rows")
    from zipai_sim.studies import balance

    cs = check_chunk_size(balance.DEFAULT_HAND_CHUNK if a.chunk_size is None else a.chunk_size,
                          "--chunk-size")
    if a.rows > cs:
        raise _Fail(f"--rows keeps the first K hands of every {cs}-hand chunk: "
                    f"K must be ≤ {cs}, got {a.rows}")
    rows_out = a.rows_out
    if rows_out is not None and a.rows == 0:
        raise _Fail("--rows-out needs --rows K > 0 (hands kept per chunk)")
    if a.rows and rows_out is None:
        rows_out = rows_path(a.out)
    if rows_out is not None:
        check_out(rows_out)
    distinct_outputs([("--out", a.out), ("--rows-out", rows_out)])

    runs = [B.load(a, v) for v in a.variants]
    if a.thresholds:  # a sweep: every variant at every threshold (大字牌 15/20/25/30)
        runs = [v.with_threshold(t) for v in runs for t in a.thresholds]
    B.distinct_runs(runs)
    B.time_cap(a.hands * len(runs), B.MAX_HANDS, "--hands", "hands", len(runs))
    B.mem_cap(a.rows * n_chunks(a.hands, cs) * len(runs), B.BYTES_BALANCE_ROW,
              "--rows", "sampled hands (K per chunk)", len(runs))
    per = _per(a)
    # every run on the same hands, in lockstep: Ctrl-C stops them all at the same chunk
    pols = a.policy[0] if len(a.policy) == 1 else a.policy  # one for all, or one per seat
    pols = B.resolve_policy(pols)
    got = hands_runs(runs, a.hands, a.seed, pols, threads=a.threads, engine=a.engine,
                     rows=a.rows, client=a.client, rollout_k=a.rollout_k, chunk_size=cs)
    from zipai_sim.report import combine

    df = combine([g[0] for g in got] if a.rows else got)
    done = df.run["n"]
    partial = done < a.hands
    print(df.report(per))
    played = runs
    meta = {"variants": ",".join(a.variants), "variant_keys": ",".join(v.key for v in played),
            "rules_hashes": ",".join(v.rules_hash for v in played),
            "thresholds": ",".join(str(v.win.threshold) for v in played), "seed": str(a.seed),
            "hands": str(a.hands), "n": str(done), "n_requested": str(a.hands),
            "partial": str(partial).lower(), "chunk_size": str(cs),
            "policy": ",".join(a.policy), "policies": ",".join(a.policy), "engine": a.engine,
            **({"rollout_k": str(a.rollout_k)} if set(SEARCH_POLICIES) & set(a.policy) else {}),
            **{k: x for k, x in run_metadata(df.run).items() if k == "weights_hash"},
            "zipai_sim_version": __version__}
    out, note = a.out, ""
    if partial:  # beside the requested names, never over them: those hold complete runs only
        out, note = partial_path(a.out), f" (partial: {done:,} of {a.hands:,} hands)"
        if rows_out is not None:
            rows_out = rows_path(out) if a.rows_out is None else partial_path(rows_out)
    # rows of several runs: each says its rule set (two may share a key and threshold)
    from zipai_sim.runs.provenance import with_rules_hash

    hashes = [v.rules_hash for v in played]
    writes = [(with_rules_hash([g[0] if a.rows else g for g in got], hashes), out, meta, note)]
    if rows_out is not None:  # first K hands of every chunk, every run (RULES.md §9 rows)
        rows = with_rules_hash([g[1] for g in got], hashes)
        writes.append((rows, rows_out, {**meta, "rows_per_chunk": str(a.rows)},
                       f" ({rows.height:,} hands)"))
    if not save(writes):
        return 2
    return 130 if partial else 0


def cmd_match(a: argparse.Namespace) -> int:
    """Play matches (sequences of hands with running totals, the deal passing per the variant)
    to a goal: a number of hands, 100 胡 from wins, or 硬胡子 three wins reaching 50 胡."""
    from zipai_sim.studies.match import simulate_matches

    if a.out is not None:
        check_out(a.out)
    first = a.first_dealer if a.first_dealer == "rotate" else _int_arg(a.first_dealer,
                                                                        "--first-dealer")
    pols = a.policies[0] if len(a.policies) == 1 else a.policies
    _at_least_one(a.matches, "--matches")
    from zipai_sim.cli import bounds as B

    B.time_cap(a.matches, B.MAX_MATCHES, "--matches", "matches", cores="one core")
    B.mem_cap(a.matches, B.BYTES_MATCH, "--matches", "matches")
    if a.hands is not None and a.goal != "hands":  # silently ignored before
        raise _Fail(f"--hands applies to --goal hands only, not --goal {a.goal} "
                    "(--max-hands caps a match)")
    hands = MATCH_HANDS if a.hands is None else a.hands
    for flag, n in (("--hands", hands), ("--max-hands", a.max_hands)):
        B.check_cap(n, B.MAX_MATCH_HANDS, flag, "hands in a match",
                    "far beyond any session at one table")
    per = _per(a)
    if a.target is not None and a.goal != "hu100":
        raise _Fail(f"--target applies to --goal hu100 only, not --goal {a.goal}")
    r = simulate_matches(B.load(a, a.variant), a.matches, a.seed, goal=a.goal, hands=hands,
                         target=100 if a.target is None else a.target, policies=pols,
                         engine=a.engine, first_dealer=first,
                         max_hands=a.max_hands, client=a.client)
    print(r.report(per))
    out, note = a.out, ""
    if r.partial and out is not None:  # beside the requested name, never over it
        out, note = partial_path(out), f" (partial: {r.n:,} of {r.n_requested:,} matches)"
    if out is not None and not save([(r.matches, out, r.metadata, note)]):
        return 2
    return 130 if r.partial else 0


def _int_arg(x: str, name: str) -> int:
    try:
        return int(x)
    except ValueError:
        raise _Fail(f"{name} must be a whole number or 'rotate', got {x!r}") from None


def add_balance_match(sub, _doc, _add_per) -> None:
    """The ``balance`` and ``match`` subcommands on the subparsers ``sub`` (``_doc``: a docstring
    as help; ``_add_per``: the ``--per`` option)."""
    ba = sub.add_parser("balance", help=_doc(cmd_balance), description=cmd_balance.__doc__)
    add_variants(ba)
    ba.add_argument("--hands", type=int, default=20_000, metavar="N",
                    help="hands per variant (default: %(default)s)")
    add_thresholds(ba)
    ba.add_argument("--engine", choices=("numba", "reference"), default="numba",
                    help="numba kernel or the readable reference engine (default: numba)")
    ba.add_argument("--policy", "--policies", dest="policy",
                    action=Repeatable, nargs="+", type=policy_arg(POLICY_NAMES),
                    default=["greedy"],
                    metavar="POLICY",
                    help=f"{names_text()}: one for every seat, or one per seat from the dealer "
                    f"(seat 0) on (default: greedy{cheat_text()}); "
                    "MODULE:ATTR: a batch policy (an outside model on the numba engine)")
    add_rollout_k(ba)
    ba.add_argument("--rows", type=int, default=0, metavar="K",
                    help="keep the first K hands of every chunk (--chunk-size hands) as per-hand rows "
                    "(default: 0)")
    ba.add_argument("--rows-out", type=Path, default=None, metavar="FILE",
                    help="Parquet file for the --rows sample (default: OUT.rows.parquet)")
    ba.add_argument("--out", type=Path, default=Path("balance.parquet"), metavar="FILE",
                    help="Parquet file (default: %(default)s)")
    _add_per(ba)
    add_seed_threads(ba)
    add_chunk_size(ba, "hands", DEFAULT_HAND_CHUNK)
    add_checkpoint(ba)
    add_set(ba)
    ba.set_defaults(func=cmd_balance)
    ma = sub.add_parser("match", help=_doc(cmd_match), description=cmd_match.__doc__)
    ma.add_argument("--variant", default="guangxi-81",
                    help="variant key or TOML path (default: %(default)s)")
    ma.add_argument("--matches", type=int, default=1000, metavar="N",
                    help="number of matches (default: %(default)s)")
    ma.add_argument("--seed", type=seed_arg, default=DEFAULT_SEED,
                      help="root seed (default: %(default)s)")
    ma.add_argument("--goal", choices=("hands", "hu100", "yinghuzi"), default="hands",
                    help="end rule: --hands N hands, first to --target 胡 from wins, or 硬胡子 "
                    "(default: %(default)s)")
    ma.add_argument("--hands", type=int, default=None, metavar="N",
                    help=f"hands per match for --goal hands (default: {MATCH_HANDS})")
    ma.add_argument("--target", type=int, default=None, metavar="HU",
                    help="胡 to reach for --goal hu100 (default: 100)")
    ma.add_argument("--policies", "--policy", dest="policies",
                    action=Repeatable, nargs="+", choices=POLICY_NAMES,
                    default=["greedy"],
                    metavar="POLICY",
                    help=f"{names_text()}: one for every player, or one per player: four with a 数信 "
                    f"sitter, who sit out in turn (default: greedy{cheat_text()})")
    ma.add_argument("--engine", choices=("numba", "reference"), default="numba",
                    help="numba kernel or the readable reference engine (default: numba)")
    ma.add_argument("--first-dealer", default="0", metavar="PLAYER",
                    help="player who deals the first hand (0..3 with a 数信 sitter), or "
                    "'rotate' (default: 0)")
    ma.add_argument("--max-hands", type=int, default=1000, metavar="N",
                    help="stop a match that has not reached its goal (default: %(default)s)")
    ma.add_argument("--out", type=Path, default=None, metavar="FILE",
                    help="Parquet file for the per-match rows (default: none)")
    _add_per(ma)
    add_checkpoint(ma)
    add_set(ma)
    ma.set_defaults(func=cmd_match)
