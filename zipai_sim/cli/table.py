"""``zipai-sim table KIND``: the win-probability tables on the command line, with their bounds
(``cli.bounds``) and outputs that never destroy each other (``cli.outputs``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from zipai_sim.cli.bounds import (
    CliError,
    Repeatable,
    add_set,
    add_thresholds,
    add_variants,
    at_least_one,
    seed_arg,
)
from zipai_sim.cli.checkpoint import add_checkpoint
from zipai_sim.cli.outputs import check_out, distinct_outputs, partial_path, save
from zipai_sim.play import POLICY_NAMES
from zipai_sim.report import DEFAULT_SEED, check_per
from zipai_sim.runs.provenance import with_rules_hash


def _bins(items: list[str] | None) -> dict[str, int]:
    out = {}
    for item in items or []:
        col, _, width = item.partition("=")
        if not width.isdigit() or int(width) < 1:
            raise CliError(f"--bin takes COLUMN=WIDTH with a width ≥ 1, got {item!r}")
        out[col] = int(width)
    return out


def _table_deal(a: argparse.Namespace) -> tuple:
    """``table deal``: 天胡/地胡 by variant and threshold."""
    from zipai_sim import tables as T
    from zipai_sim.cli import bounds as B
    from zipai_sim.runs.chunks import check_count

    at_least_one(a.deals, "--deals")
    check_count(a.deals, "--deals")
    if a.customary and a.thresholds:
        raise CliError("give --customary or --thresholds, not both")
    ths = "customary" if a.customary else a.thresholds
    vs = [B.load(a, v) for v in a.variants]
    B.distinct_runs([v.with_threshold(t) for v in vs for t in a.thresholds or
                     [v.win.threshold]])
    runs = sum(len(v.win.thresholds) for v in vs) if a.customary else \
        len(vs) * len(a.thresholds or [0])
    B.time_cap(a.deals * runs, B.MAX_DEALS, "--deals", "deals", runs)
    df = T.deal_table(vs, a.deals, a.seed, thresholds=ths,
                      metrics=None if a.all_metrics else T.DEAL_METRICS,
                      chunk_size=a.chunk_size, threads=a.threads, progress=None,
                      client=a.client)
    done, partial = df.run["n"], df.run["partial"]
    run = {"n": done, "n_requested": a.deals, "partial": str(partial).lower(),
           "chunk_size": df.run["chunk_size"]}
    return df, run, done, a.deals, partial, []


def _table_records(a: argparse.Namespace) -> tuple:
    """``table opening`` / ``table tenpai``: played hands' records, grouped."""
    import polars as pl

    from zipai_sim import tables as T
    from zipai_sim.cli import bounds as B
    from zipai_sim.report import ReportFrame, combine
    from zipai_sim.runs.chunks import check_count
    from zipai_sim.tables.opening import RECORD_SCHEMA, check_by

    at_least_one(a.hands, "--hands")
    check_count(a.hands, "--hands")
    # the records' columns are known before the hands are played: refuse a bad --by now,
    # with the check the tables make (on no rows of the records' columns)
    check_by(pl.DataFrame(schema={**RECORD_SCHEMA, "rules_hash": pl.String}), a.by)
    if a.records is not None:
        check_out(a.records)
    distinct_outputs([("--records", a.records), ("--out", a.out)])
    runs = [B.load(a, v) for v in a.variants]
    if a.thresholds:
        runs = [v.with_threshold(t) for v in runs for t in a.thresholds]
    B.distinct_runs(runs)
    B.time_cap(a.hands * len(runs), B.MAX_HANDS, "--hands", "hands", len(runs))
    B.mem_cap(a.hands * len(runs), B.BYTES_RECORD_HAND, "--hands",
              "hands of records", len(runs))
    # every run on the same hands, in lockstep: Ctrl-C stops them at the same chunk
    got = T.opening_runs(runs, a.hands, a.seed, a.policy, threads=a.threads,
                         client=a.client)
    rec = combine(got, show=False)
    # rows of several runs: each says its rule set (two may share a key and threshold)
    rec = ReportFrame.wrap(with_rules_hash(got, [v.rules_hash for v in runs]), rec.run,
                           show=False)
    done = got[0].run["n"]
    partial = done < a.hands
    run = {"n": done, "n_requested": a.hands, "partial": str(partial).lower(),
           "seed": a.seed, "policies": a.policy, "engine": "numba"}
    by = ["rules_hash", *(c for c in a.by if c != "rules_hash")]  # runs stay apart
    if a.kind == "opening":
        df = T.opening_table(rec, by=by, bins=_bins(a.bin))
    else:
        df = T.tenpai_table(rec, by=by, step=a.step)
    writes = []
    if a.records is not None:  # a partial run beside the name, never over it
        writes.append((rec, partial_path(a.records) if partial else a.records,
                       T.table_metadata(rec, "opening_records", **run),
                       f" ({'partial: ' if partial else ''}{rec.height:,} seat-hands)"))
    return df, run, done, a.hands, partial, writes


def _table_waits(a: argparse.Namespace) -> tuple:
    """``table waits``: the hand calculator."""
    from zipai_sim import tables as T
    from zipai_sim.cli import bounds as B

    B.time_cap(a.sims, B.MAX_SIMS, "--sims", "draws of the model", cores="one core")
    B.time_cap(a.play, B.MAX_PLAY, "--play", "hands played", cores="one core")
    if a.policy is not None and not a.play:
        raise CliError("--policy plays the --play hands: give --play N too")
    a.policy = a.policy or "greedy"
    df = T.calculate(a.text, B.load(a, a.variant), melds=a.meld, unseen=a.unseen, stock=a.stock,
                     seen=a.seen, own_draws=a.own_draws, discards=a.discards, sims=a.sims,
                     play=a.play, seat=a.seat, seed=a.seed, policies=a.policy,
                     progress=None, client=a.client)
    # Ctrl-C keeps the trials finished (sim_n, play_n: the trials behind each count)
    done = int(df["sim_n"].max() or 0) if a.sims else int(df["play_n"].max() or 0)
    requested = a.sims if a.sims else a.play
    partial = any(int(df[c].max() or 0) < n for c, n in (("sim_n", a.sims),
                                                           ("play_n", a.play)) if n)
    run = {"hand": a.text, "variant": a.variant, "seed": a.seed, "sims": a.sims,
           "play": a.play, "melds": ";".join(a.meld or []) or None, "n": done,
           "n_requested": requested, "partial": str(partial).lower(),
           "policies": a.policy if a.play else None, "engine": "numba" if a.play else None}
    return df, run, done, requested, partial, []


def _table_convergence(a: argparse.Namespace) -> tuple:
    """``table convergence``: an estimate against the number of deals."""
    from zipai_sim import tables as T
    from zipai_sim.cli import bounds as B
    from zipai_sim.runs.chunks import check_count

    at_least_one(a.deals, "--deals")
    check_count(a.deals, "--deals")
    if not 1 <= a.points <= B.MAX_POINTS:
        raise CliError(f"--points must be in 1..{B.MAX_POINTS}, got {a.points}")
    B.time_cap(a.deals, B.MAX_DEALS, "--deals", "deals")
    df = T.convergence_table(B.load(a, a.variant), a.metric, a.deals, a.seed, points=a.points,
                             start=a.start, threads=a.threads, progress=None,
                             client=a.client)
    done, partial = df.run["n"], df.run["partial"]
    run = {"n": done, "n_requested": a.deals, "partial": str(partial).lower(),
           "chunk_size": df.run["chunk_size"]}
    return df, run, done, a.deals, partial, []


#: one function per ``table`` sub-command: (table, run metadata, done, requested, partial,
#: extra writes)
_KINDS = {"deal": _table_deal, "opening": _table_records, "tenpai": _table_records,
          "waits": _table_waits, "convergence": _table_convergence}


def cmd_table(a: argparse.Namespace) -> int:
    """Win-probability tables (zipai_sim.tables): deal (天胡/地胡 by variant and threshold),
    opening (P(win) and mean score by seat and opening features), tenpai (听 at the deal:
    exact draw-model chance beside what the bot's play won), waits (the hand calculator),
    convergence; opening, tenpai and waits --play hands are played by ``--policy``."""
    from zipai_sim import tables as T

    if a.out is not None:
        check_out(a.out)
    if a.threads is not None:  # table waits runs on one core, but a bad value is still refused
        at_least_one(a.threads, "--threads")
    per = check_per(a.per, "--per")
    df, run, done, requested, partial, writes = _KINDS[a.kind](a)
    unit = "deals" if a.kind in ("deal", "convergence") else \
        "draws" if a.kind == "waits" and a.sims else "hands"
    print(df.report(per).text(as_markdown=a.markdown))
    if a.out is not None:  # a partial run beside the requested name: that holds complete runs
        writes.append((df, partial_path(a.out) if partial else a.out,
                       T.table_metadata(df, a.kind, **run),
                       f" (partial: {done:,} of {requested:,} {unit})" if partial else ""))
    if not save(writes):
        return 2
    return 130 if partial else 0


def add_table(sub, doc, add_per, parser_class) -> None:
    """The ``table KIND`` subcommands on the subparsers ``sub`` (``doc``: a docstring as help,
    ``add_per``: the --per flag, ``parser_class``: the command line's one-line-error parser)."""
    ta = sub.add_parser("table", help=doc(cmd_table), description=cmd_table.__doc__)
    kinds = ta.add_subparsers(dest="kind", parser_class=parser_class, required=True)

    def common(q: argparse.ArgumentParser, seed: bool = True) -> None:
        q.add_argument("--out", type=Path, default=None, metavar="FILE",
                       help="also write the table to this Parquet file, with run metadata")
        q.add_argument("--markdown", action="store_true",
                       help="print a GitHub Markdown table instead of aligned text")
        if seed:
            q.add_argument("--seed", type=seed_arg, default=DEFAULT_SEED,
                           help="root seed (default: %(default)s)")
        q.add_argument("--threads", type=int, default=None, metavar="N",
                       help="threads (default: all cores)")
        add_per(q)
        add_set(q)
        q.set_defaults(func=cmd_table)

    de = kinds.add_parser("deal", help="天胡/地胡 rates by variant and threshold (simulate_deals)")
    add_variants(de)
    de.add_argument("--deals", type=int, default=1_000_000, metavar="N",
                    help="deals per variant and threshold (default: %(default)s)")
    add_thresholds(de)
    de.add_argument("--customary", action="store_true",
                    help="sweep each variant's customary thresholds ([win].thresholds)")
    de.add_argument("--all-metrics", action="store_true",
                    help="keep every simulate_deals metric (翻信 included), not only 天胡/地胡")
    de.add_argument("--chunk-size", type=int, default=None, metavar="N",
                    help="deals per chunk (default: 65536)")
    common(de)
    add_checkpoint(de)
    for name, text in (("opening", "P(the seat wins) and mean score by seat and opening "
                        "features, from whole hands played by --policy"),
                       ("tenpai", "听 at the deal: exact draw-model chance beside what "
                        "--policy play won")):
        q = kinds.add_parser(name, help=text, description=text)
        add_variants(q)
        q.add_argument("--hands", type=int, default=20_000, metavar="N",
                       help="hands per variant (default: %(default)s)")
        add_thresholds(q)
        q.add_argument("--policy", choices=POLICY_NAMES, default="greedy",
                       help="policy of every seat (default: %(default)s)")
        q.add_argument("--by", action=Repeatable, nargs="*", default=["seat"], metavar="COLUMN",
                       help="record columns to group by (default: seat); features: "
                       "opening_huxi ti kan red tenpai waits")
        q.add_argument("--records", type=Path, default=None, metavar="FILE",
                       help="also write the per-seat-hand records to this Parquet file")
        if name == "opening":
            q.add_argument("--bin", action="append", default=None, metavar="COLUMN=WIDTH",
                           help="floor a numeric column to bins, e.g. opening_huxi=6 "
                           "(repeat; default: no bins)")
        else:
            q.add_argument("--step", type=float, default=0.1, metavar="P",
                           help="width of the p_draw bands (default: %(default)s)")
        common(q)
        add_checkpoint(q)
    wa = kinds.add_parser("waits", help="the hand calculator: waits (听), 胡息, chances")
    wa.add_argument("text", help="the hand, e.g. '一二三 四五六 …' or 's1 s2 s3 …'")
    wa.add_argument("--variant", default="guangxi-81",
                    help="variant key or TOML path (default: %(default)s)")
    wa.add_argument("--meld", action="append", default=None, metavar="GROUP",
                    help="a group on the table, e.g. '碰 五五五' or 'chi s1 s2 s3' (repeat; "
                    "default: none)")
    wa.add_argument("--unseen", default=None, metavar="CARDS",
                    help="the cards the player cannot see (default: all not in hand/table/seen)")
    wa.add_argument("--seen", default=None, metavar="CARDS",
                    help="other cards the player has seen (default: none)")
    wa.add_argument("--stock", type=int, default=None, metavar="N",
                    help="cards left in the stock (default: the variant's whole stock)")
    wa.add_argument("--own-draws", type=int, default=None, metavar="N",
                    help="stock cards the player draws (default: ⌈stock / players⌉)")
    wa.add_argument("--discards", type=int, default=0, metavar="N",
                    help="other players' discards the player will yet see (default: 0)")
    wa.add_argument("--sims", type=int, default=20_000, metavar="N",
                    help="Monte Carlo draws of the model (default: %(default)s)")
    wa.add_argument("--play", type=int, default=0, metavar="N",
                    help="hands played by --policy from the deal with this hand, a dealt hand "
                    "only (default: 0, none)")
    wa.add_argument("--seat", type=int, default=1, metavar="S",
                    help="the hand's seat for --play, a non-dealer (default: %(default)s)")
    wa.add_argument("--policy", choices=POLICY_NAMES, default=None,
                    help="policy of every seat in the --play hands (default: greedy)")
    common(wa)
    add_checkpoint(wa)
    co = kinds.add_parser("convergence", help="one simulate_deals rate as deals accumulate")
    co.add_argument("--variant", default="guangxi-81",
                    help="variant key or TOML path (default: %(default)s)")
    co.add_argument("--metric", default="tianhu",
                    help="a simulate_deals rate, e.g. tianhu, dihu, dealer_two_ti (default: "
                    "%(default)s)")
    co.add_argument("--deals", type=int, default=1_000_000, metavar="N",
                    help="largest n (default: %(default)s)")
    co.add_argument("--points", type=int, default=12, metavar="K",
                    help="values of n (default: %(default)s)")
    co.add_argument("--start", type=int, default=1000, metavar="N",
                    help="smallest n (default: %(default)s)")
    common(co)
    add_checkpoint(co)
