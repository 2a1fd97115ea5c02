"""``zipai-sim table KIND``: the win-probability tables on the command line, with their bounds
(``cli_bounds``) and outputs that never destroy each other (``cli_outputs``)."""

from __future__ import annotations

import argparse

from .cli_bounds import CliError, at_least_one
from .cli_outputs import check_out, distinct_outputs, partial_path, save
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
    exact draw-model chance beside greedy play), waits (the hand calculator), convergence."""
    from . import cli_bounds as B
    from . import tables as T
    from .chunks import check_count
    from .variants import load_variant

    if a.out is not None:
        check_out(a.out)
    per = check_per(a.per, "--per")
    run: dict[str, object] = {}
    writes, partial, done = [], False, 0
    if a.kind == "deal":
        at_least_one(a.deals, "--deals")
        check_count(a.deals, "--deals")
        if a.customary and a.thresholds:
            raise CliError("give --customary or --thresholds, not both")
        ths = "customary" if a.customary else a.thresholds
        vs = [load_variant(v) for v in a.variants]
        runs = sum(len(v.win.thresholds) for v in vs) if a.customary else \
            len(vs) * len(a.thresholds or [0])
        B.time_cap(a.deals * runs, B.MAX_DEALS, "--deals", "deals", runs)
        df = T.deal_table(vs, a.deals, a.seed, thresholds=ths,
                          metrics=None if a.all_metrics else T.DEAL_METRICS,
                          chunk_size=a.chunk_size, threads=a.threads)
        run = {"n": a.deals, "chunk_size": a.chunk_size}
    elif a.kind in ("opening", "tenpai"):
        at_least_one(a.hands, "--hands")
        check_count(a.hands, "--hands")
        if a.records is not None:
            check_out(a.records)
        distinct_outputs([("--records", a.records), ("--out", a.out)])
        runs = [load_variant(v) for v in a.variants]
        if a.thresholds:
            runs = [v.with_threshold(t) for v in runs for t in a.thresholds]
        B.time_cap(a.hands * len(runs), B.MAX_HANDS, "--hands", "hands", len(runs))
        B.mem_cap(a.hands * len(runs), B.BYTES_RECORD_HAND, "--hands",
                  "hands of records", len(runs))
        from .report import combine

        got = []
        for v in runs:  # runs.run_batches: Ctrl-C keeps the finished batches of the run
            got.append(T.opening_records(v, a.hands, a.seed, a.policy, threads=a.threads))
            if got[-1].run["n"] < a.hands:  # cut short: keep what finished, start no more
                break
        rec = combine(got, show=False)
        done = got[-1].run["n"]
        partial = done < a.hands
        run = {"n": done, "n_requested": a.hands, "partial": str(partial).lower(),
               "seed": a.seed, "policies": a.policy}
        if partial and len(runs) > 1:  # the header must name the run cut short
            rec.run["extra"] = [_cut_short(runs, len(got), done, a.hands)]
            run["n_per_run"] = [a.hands] * (len(got) - 1) + [done]
        if a.kind == "opening":
            df = T.opening_table(rec, by=a.by, bins=_bins(a.bin))
        else:
            df = T.tenpai_table(rec, by=a.by, step=a.step)
        if a.records is not None:  # a partial run beside the name, never over it
            writes.append((rec, partial_path(a.records) if partial else a.records,
                           T.table_metadata(rec, "opening_records", **run),
                           f" ({'partial: ' if partial else ''}{rec.height:,} seat-hands)"))
    elif a.kind == "waits":
        B.time_cap(a.sims, B.MAX_SIMS, "--sims", "draws of the model", cores="one core")
        B.time_cap(a.play, B.MAX_PLAY, "--play", "hands played", cores="one core")
        df = T.calculate(a.text, a.variant, melds=a.meld, unseen=a.unseen, stock=a.stock,
                         seen=a.seen, own_draws=a.own_draws, discards=a.discards, sims=a.sims,
                         play=a.play, seat=a.seat, seed=a.seed)
        run = {"hand": a.text, "variant": a.variant, "seed": a.seed, "sims": a.sims,
               "play": a.play, "melds": ";".join(a.meld or []) or None}
    else:
        at_least_one(a.deals, "--deals")
        check_count(a.deals, "--deals")
        if not 1 <= a.points <= B.MAX_POINTS:
            raise CliError(f"--points must be in 1..{B.MAX_POINTS} (each value of n deals its "
                        f"n afresh), got {a.points}")
        ns = T.convergence_points(a.deals, a.points, a.start)
        B.time_cap(sum(ns), B.MAX_DEALS, "--deals", "deals over all --points")
        df = T.convergence_table(a.variant, a.metric, a.deals, a.seed, points=a.points,
                                 start=a.start, threads=a.threads)
        run = {"chunk_size": None}
    print(df.report(per).text(as_markdown=a.markdown))
    if a.out is not None:  # a partial run beside the requested name: that holds complete runs
        writes.append((df, partial_path(a.out) if partial else a.out,
                       T.table_metadata(df, a.kind, **run),
                       f" (partial: {done:,} of {a.hands:,} hands)" if partial else ""))
    if not save(writes):
        return 2
    return 130 if partial else 0


def _cut_short(runs: list, played: int, done: int, hands: int) -> str:
    """The header's note on a sweep that Ctrl-C stopped in run ``played`` (as ``balance``)."""
    v, left = runs[played - 1], len(runs) - played
    return (f"PARTIAL: run {played} of {len(runs)} ({v.key} at threshold {v.win.threshold}) "
            f"interrupted after {done:,} of {hands:,} hands"
            + ("" if not left else f"; run {len(runs)} not played" if left == 1
               else f"; runs {played + 1}–{len(runs)} not played"))
