"""``zipai-sim table KIND``: the win-probability tables on the command line, with their bounds
(``cli_bounds``) and outputs that never destroy each other (``cli_outputs``)."""

from __future__ import annotations

import argparse

from .cli_bounds import CliError, at_least_one
from .cli_outputs import check_out, distinct_outputs, partial_path, save
from .provenance import with_rules_hash
from .report import check_per


def _bins(items: list[str] | None) -> dict[str, int]:
    out = {}
    for item in items or []:
        col, _, width = item.partition("=")
        if not width.isdigit() or int(width) < 1:
            raise CliError(f"--bin takes COLUMN=WIDTH with a width ≥ 1, got {item!r}")
        out[col] = int(width)
    return out


def cmd_table(a: argparse.Namespace) -> int:
    """Win-probability tables (zipai_sim.tables): deal (天胡/地胡 by variant and threshold),
    opening (P(win) and mean score by seat and opening features), tenpai (听 at the deal:
    exact draw-model chance beside what the bot's play won), waits (the hand calculator),
    convergence; opening, tenpai and waits --play hands are played by ``--policy``."""
    from . import cli_bounds as B
    from . import tables as T
    from .chunks import check_count
    from .variants import load_variant

    if a.out is not None:
        check_out(a.out)
    if a.threads is not None:  # table waits runs on one core, but a bad value is still refused
        at_least_one(a.threads, "--threads")
    per = check_per(a.per, "--per")
    run: dict[str, object] = {}
    writes, partial, done, requested = [], False, 0, 0
    if a.kind == "deal":
        at_least_one(a.deals, "--deals")
        check_count(a.deals, "--deals")
        if a.customary and a.thresholds:
            raise CliError("give --customary or --thresholds, not both")
        ths = "customary" if a.customary else a.thresholds
        vs = [load_variant(v) for v in a.variants]
        B.distinct_runs([v.with_threshold(t) for v in vs for t in a.thresholds or
                         [v.win.threshold]])
        runs = sum(len(v.win.thresholds) for v in vs) if a.customary else \
            len(vs) * len(a.thresholds or [0])
        B.time_cap(a.deals * runs, B.MAX_DEALS, "--deals", "deals", runs)
        df = T.deal_table(vs, a.deals, a.seed, thresholds=ths,
                          metrics=None if a.all_metrics else T.DEAL_METRICS,
                          chunk_size=a.chunk_size, threads=a.threads, progress=None,
                          client=a.client)
        done, partial, requested = df.run["n"], df.run["partial"], a.deals
        run = {"n": done, "n_requested": a.deals, "partial": str(partial).lower(),
               "chunk_size": df.run["chunk_size"]}
    elif a.kind in ("opening", "tenpai"):
        at_least_one(a.hands, "--hands")
        check_count(a.hands, "--hands")
        # the records' columns are known before the hands are played: refuse a bad --by now,
        # with the check the tables make (on no rows of the records' columns)
        import polars as pl

        from .tables.opening import RECORD_SCHEMA, _check_by
        _check_by(pl.DataFrame(schema={**RECORD_SCHEMA, "rules_hash": pl.String}), a.by)
        if a.records is not None:
            check_out(a.records)
        distinct_outputs([("--records", a.records), ("--out", a.out)])
        runs = [load_variant(v) for v in a.variants]
        if a.thresholds:
            runs = [v.with_threshold(t) for v in runs for t in a.thresholds]
        B.distinct_runs(runs)
        B.time_cap(a.hands * len(runs), B.MAX_HANDS, "--hands", "hands", len(runs))
        B.mem_cap(a.hands * len(runs), B.BYTES_RECORD_HAND, "--hands",
                  "hands of records", len(runs))
        from .report import ReportFrame, combine

        # every run on the same hands, in lockstep: Ctrl-C stops them at the same chunk
        got = T.opening_runs(runs, a.hands, a.seed, a.policy, threads=a.threads,
                             client=a.client)
        rec = combine(got, show=False)
        # rows of several runs: each says its rule set (two may share a key and threshold)
        rec = ReportFrame.wrap(with_rules_hash(got, [v.rules_hash for v in runs]), rec.run,
                               show=False)
        done, requested = got[0].run["n"], a.hands
        partial = done < a.hands
        run = {"n": done, "n_requested": a.hands, "partial": str(partial).lower(),
               "seed": a.seed, "policies": a.policy, "engine": "numba"}
        by = ["rules_hash", *(c for c in a.by if c != "rules_hash")]  # runs stay apart
        if a.kind == "opening":
            df = T.opening_table(rec, by=by, bins=_bins(a.bin))
        else:
            df = T.tenpai_table(rec, by=by, step=a.step)
        if a.records is not None:  # a partial run beside the name, never over it
            writes.append((rec, partial_path(a.records) if partial else a.records,
                           T.table_metadata(rec, "opening_records", **run),
                           f" ({'partial: ' if partial else ''}{rec.height:,} seat-hands)"))
    elif a.kind == "waits":
        B.time_cap(a.sims, B.MAX_SIMS, "--sims", "draws of the model", cores="one core")
        B.time_cap(a.play, B.MAX_PLAY, "--play", "hands played", cores="one core")
        if a.policy is not None and not a.play:
            raise CliError("--policy plays the --play hands: give --play N too")
        a.policy = a.policy or "greedy"
        df = T.calculate(a.text, a.variant, melds=a.meld, unseen=a.unseen, stock=a.stock,
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
    else:
        at_least_one(a.deals, "--deals")
        check_count(a.deals, "--deals")
        if not 1 <= a.points <= B.MAX_POINTS:
            raise CliError(f"--points must be in 1..{B.MAX_POINTS}, got {a.points}")
        B.time_cap(a.deals, B.MAX_DEALS, "--deals", "deals")
        df = T.convergence_table(a.variant, a.metric, a.deals, a.seed, points=a.points,
                                 start=a.start, threads=a.threads, progress=None,
                                 client=a.client)
        done, partial, requested = df.run["n"], df.run["partial"], a.deals
        run = {"n": done, "n_requested": a.deals, "partial": str(partial).lower(),
               "chunk_size": df.run["chunk_size"]}
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

