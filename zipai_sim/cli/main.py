"""The ``zipai-sim`` command line (argparse). Every error is one line on stderr and exit 2."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import polars as pl

from zipai_sim.cli.bounds import CliError as _Fail
from zipai_sim.cli.bounds import Repeatable, seed_arg
from zipai_sim.cli.bounds import at_least_one as _at_least_one
from zipai_sim.cli.checkpoint import add_checkpoint, checkpointing
from zipai_sim.cli.dask import dask_client
from zipai_sim.cli.hands import add_balance_match
from zipai_sim.cli.outputs import (
    check_out,
    distinct_outputs,
    partial_path,
    rows_path,
    save,
    stdout_guard,
)
from zipai_sim.cli.table import add_table
from zipai_sim.play import POLICY_NAMES
from zipai_sim.report import DEFAULT_SEED


def _print_table(df: pl.DataFrame) -> None:
    with pl.Config(tbl_formatting="ASCII_MARKDOWN", tbl_hide_column_data_types=True,
                   tbl_hide_dataframe_shape=True, tbl_rows=-1, tbl_cols=-1, tbl_width_chars=200,
                   fmt_str_lengths=80):
        print(df)


def cmd_simulate(a: argparse.Namespace) -> int:
    """Deal many hands; print 天胡, 地胡, instant-win, two-提 and 翻信 rates with 95% intervals."""
    from zipai_sim.cli import bounds as B
    from zipai_sim.runs.chunks import check_chunk_size, check_count, n_chunks
    from zipai_sim.deals.simulate import simulate_deals
    from zipai_sim.game.variants import load_variant

    v = load_variant(a.variant)
    if a.threshold is not None:
        v = v.with_threshold(a.threshold)
    _at_least_one(a.deals, "--deals")
    check_count(a.deals, "--deals")
    B.time_cap(a.deals, B.MAX_DEALS, "--deals", "deals")
    cs = check_chunk_size(a.chunk_size, "--chunk-size")
    check_count(a.sample_rows, "--sample-rows")
    B.mem_cap(min(a.sample_rows, cs) * n_chunks(a.deals, cs), B.BYTES_SAMPLE_ROW,
              "--sample-rows", "sampled rows (K per chunk)")
    per = _per(a)
    # the rules hash in the default name keeps an edited copy of a variant apart from it
    path = a.out if a.out is not None else Path(
        f"{v.key}-{v.rules_hash[:8]}-seed{a.seed}-n{a.deals}.parquet")
    check_out(path)
    r = simulate_deals(v, a.deals, a.seed, threads=a.threads, chunk_size=cs,
                       sample_per_chunk=min(a.sample_rows, cs), client=a.client)
    print(r.report(per))  # before the write: a failed write still shows the figures
    note = ""
    if r.partial:  # beside the name, never over it: a file under PATH is a complete run
        path = partial_path(path)
        note = f" (partial: {r.n:,} of {r.n_requested:,} deals)"
    meta = {**r.metadata, "thresholds": str(v.win.threshold)}  # --threshold included
    writes = [(r.summary, path, meta, note)]
    if a.sample_rows > 0 and r.rows is not None:
        writes.append((r.rows, rows_path(path), meta, f" ({r.rows.height:,} rows)"))
    if not save(writes):
        return 2
    return 130 if r.partial else 0


def cmd_hand(a: argparse.Namespace) -> int:
    """Print the best decomposition, 胡息, complete/win, and the waits (听) of a hand."""
    from zipai_sim.deals.evaluate import as_counts, explain, waits
    from zipai_sim.report import header
    from zipai_sim.game.variants import load_variant

    v = load_variant(a.variant)
    # one size check before any output: the analysis takes 2..22 cards, an incoming card
    # 1..21 (RULES.md §2 hand sizes + one card), and the waits need room for one more card
    size, most = int(as_counts(a.text).sum()), v.layout.dealer_cards
    lo, hi = (1, most) if a.incoming is not None else (2, most + 1)
    if not lo <= size <= hi:
        raise _Fail(f"the hand holds {size} card{'s' * (size != 1)}; `hand` takes {lo}..{hi} "
                    + ("with --incoming" if a.incoming is not None else
                       f"(1..{most} with --incoming)"))
    print(header([(v.key, v.rules_hash)], [v.win.threshold]))
    e = explain(a.text, v, incoming=a.incoming, source=a.source, liangzhang=a.liangzhang)
    print(e)
    if a.incoming is None and size > most:
        print(f"completing cards (听): none (a hand of {size} cards takes no further card)")
    elif a.incoming is None:
        win = v.win

        def wins(hx: int | None) -> bool:
            return hx is not None and hx >= 0 and (hx >= win.threshold
                                                   or (win.piaohu and hx == 0))

        w = waits(a.text, v)
        if w.height:
            print("completing cards (听; 胡息 as own draw / as another's card; * wins at the "
                  "threshold): " + ", ".join(
                      f"{r['card']}{'*' if wins(r['huxi_self']) or wins(r['huxi_other']) else ''}"
                      f" ({_hx(r['huxi_self'])} self / {_hx(r['huxi_other'])} other)"
                      for r in w.iter_rows(named=True)))
        else:
            print("completing cards (听): none")
    return 0


def _hx(x: int | None) -> str:
    return "-" if x is None else f"{x} 胡息"


def cmd_play(a: argparse.Namespace) -> int:
    """Play one seeded hand with the reference engine and print it move by move."""
    from zipai_sim.play.trace import play_seeded

    if a.deal < 0:
        raise _Fail(f"--deal must be ≥ 0, got {a.deal}")
    if a.jsonl is not None:
        check_out(a.jsonl, (".jsonl",))
    game, out = play_seeded(a.variant, a.seed, a.deal, a.policy)
    from zipai_sim.report import play_header

    print(play_header(game.v.key, game.v.rules_hash, game.v.win.threshold, game.seats, a.seed,
                      a.deal, a.policy))
    print("\n".join(game.log))
    if a.jsonl is not None:  # the hand record (docs/records.md); stdout stays the trace alone
        from zipai_sim.records.build import record_from_game
        from zipai_sim.records.file import write_records

        write_records(record_from_game(game, out, seed=a.seed, deal=a.deal,
                                       policies=[a.policy] * game.seats), a.jsonl)
        print(f"wrote {a.jsonl}", file=sys.stderr)
    return 0


def cmd_replay(a: argparse.Namespace) -> int:
    """Replay hand records (JSON lines, docs/records.md) through the reference engine, checking
    every move and the settlement; print each hand's trace as ``zipai-sim play`` printed it."""
    from zipai_sim.records.replay import replay_lines

    print("\n".join(replay_lines(a.file, a.hand, a.variant)))
    return 0


def _per(a: argparse.Namespace) -> int | None:
    """``--per``, checked (a power of ten) before any work is done."""
    from zipai_sim.report import check_per

    return check_per(a.per, "--per")


def cmd_plot(a: argparse.Namespace) -> int:
    """Draw a figure from saved Parquet results, without re-running: tianhu-threshold, huxi,
    seat-shares, dealer-edge, fanxing, convergence, scores (zipai_sim.plots.figures)."""
    import matplotlib

    matplotlib.use("Agg")
    from zipai_sim.plots import figures as plots

    if a.out.suffix.lower() not in (".png", ".svg"):
        raise _Fail(f"--out must end in .png or .svg, got {a.out.name!r}")
    check_out(a.out, (".png", ".svg"))
    df = plots.load_result(a.from_)
    kw: dict[str, object] = {}
    for flag, value, kind in (("--metric", a.metric, "tianhu-threshold"),
                              ("--seat", a.seat, "scores"),
                              ("--log", a.log or None, "tianhu-threshold")):
        if value is not None and a.kind != kind:
            raise _Fail(f"{flag} applies to `plot {kind}` only, not `plot {a.kind}`")
    kw["lang"] = a.lang
    if a.kind == "tianhu-threshold":
        kw["metric"] = a.metric or "tianhu"
        kw["log"] = a.log
        have = df["metric"].unique(maintain_order=True).to_list() if "metric" in df.columns \
            else []
        if a.metric is not None and have and a.metric not in have:  # name the valid ones
            raise _Fail(f"--metric {a.metric!r} is not in the file; it has {', '.join(have)}")
    if a.kind == "scores":
        kw["seat"] = a.seat or 0
    ax = plots.PLOTS[a.kind](df, **kw)
    if a.title:
        ax.set_title(a.title)
    plots.save_figure(ax, a.out, a.from_)  # carrying on the run metadata of the files
    print(f"wrote {a.out}")
    return 0


def cmd_exact(a: argparse.Namespace) -> int:
    """Exact deal-time probabilities by enumeration (天胡, 地胡 of one seat, 翻信 given 天胡,
    胡息 of complete dealer hands, 提/坎 shapes): exact rationals, no sampling. The variants'
    customary thresholds are shipped and print at once; other thresholds take minutes."""
    import time

    from tqdm.auto import tqdm

    from zipai_sim.exact import opening as ex
    from zipai_sim.game.variants import load_variant

    v = load_variant(a.variant)
    per = _per(a)
    ths = a.thresholds if a.thresholds else list(v.win.thresholds)
    from zipai_sim.game.variants import MAX_POINTS

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


def cmd_variants(a: argparse.Namespace) -> int:
    """List the shipped variants, or print every knob of one (``variants show KEY``)."""
    from zipai_sim.game.variants import describe, variants_table

    if a.action is None:
        _print_table(variants_table().drop("rules_hash"))
        return 0
    if a.action != "show" or a.key is None:
        raise _Fail("usage: zipai-sim variants [show KEY|PATH]")
    print(describe(a.key))
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit 2) instead of usage + error."""

    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"zipai-sim: error: {message} (see zipai-sim --help)", file=sys.stderr)
        sys.exit(2)


def _doc(f: object) -> str:
    """A command's docstring as argparse help text (argparse %-formats help strings)."""
    return (getattr(f, "__doc__", "") or "").replace("%", "%%")


def _add_table_plot(sub) -> None:
    """The ``table KIND`` and ``plot KIND`` subcommands."""
    from zipai_sim.plots.figures import PLOTS

    add_table(sub, _doc, _add_per, _Parser)

    po = sub.add_parser("plot", help=_doc(cmd_plot), description=cmd_plot.__doc__)
    po.add_argument("kind", choices=sorted(PLOTS), help="which figure")
    po.add_argument("--from", dest="from_", type=Path,
                    action=Repeatable, nargs="+", required=True, metavar="FILE",
                    help="saved Parquet result(s): table, balance, simulate or records files")
    po.add_argument("--out", type=Path, required=True, metavar="FILE",
                    help="FILE.png or FILE.svg")
    po.add_argument("--metric", default=None,
                    help="tianhu-threshold only: the deal_table metric (default: tianhu)")
    po.add_argument("--seat", type=int, default=None, metavar="S",
                    help="scores only: the seat (default: 0, dealer)")
    po.add_argument("--log", action="store_true",
                    help="tianhu-threshold only: rates on a log scale (default: linear)")
    po.add_argument("--lang", choices=("en", "zh"), default="en",
                    help="words on the figure: en (English / pinyin) or zh (天胡, 荒庄, 庄家 …, "
                    "in the bundled Noto Sans SC font) (default: %(default)s)")
    po.add_argument("--title", default=None, help="a title for the figure")
    po.set_defaults(func=cmd_plot)


def _add_per(q: argparse.ArgumentParser) -> None:
    q.add_argument("--per", type=int, default=None, metavar="N",
                   help="show every rate per N (a power of ten: 10000, 1000, 100 for %%, 1 for "
                   "fractions); default: rare events (天胡, 地胡, 海底, 提/坎 shapes) per 10,000, "
                   "shares in %%")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``zipai-sim``."""
    ap = _Parser(prog="zipai-sim",
                 description="Monte Carlo toolkit for 字牌 (zipai): deals, 胡息 and rule variants.")
    sub = ap.add_subparsers(dest="command", parser_class=_Parser)
    sim = sub.add_parser("simulate", help=_doc(cmd_simulate), description=cmd_simulate.__doc__)
    sim.add_argument("--variant", default="guangxi-81", help="variant key or path to a TOML file "
                     "(default: %(default)s)")
    sim.add_argument("--deals", type=int, default=2_000_000, metavar="N", help="number of deals "
                     "(default: %(default)s)")
    sim.add_argument("--seed", type=seed_arg, default=DEFAULT_SEED,
                       help="root seed (default: %(default)s)")
    sim.add_argument("--out", type=Path, default=None, metavar="FILE",
                     help="Parquet file for the summary (default: "
                     "VARIANT-HASH-seedSEED-nN.parquet in the current folder); an interrupted "
                     "run is written beside it, as NAME.partial.parquet")
    sim.add_argument("--threads", type=int, default=None, metavar="N",
                     help="threads (default: all cores)")
    sim.add_argument("--threshold", type=int, default=None, metavar="T",
                     help="override the variant's 起胡 threshold, in 胡息 (default: the "
                     "variant's)")
    sim.add_argument("--chunk-size", type=int, default=None, metavar="N",
                     help="deals per chunk; part of the result's identity (default: 65536)")
    sim.add_argument("--sample-rows", type=int, default=0, metavar="K",
                     help="keep K per-deal rows per chunk, written to FILE.rows.parquet "
                     "(default: 0)")
    _add_per(sim)
    add_checkpoint(sim)
    sim.set_defaults(func=cmd_simulate)
    hd = sub.add_parser("hand", help=_doc(cmd_hand), description=cmd_hand.__doc__)
    hd.add_argument("text", help="the hand, e.g. '一二三 四五六 …' or 's1 s2 s3 …'")
    hd.add_argument("--variant", default="guangxi-81",
                    help="variant key or TOML path (default: %(default)s)")
    hd.add_argument("--incoming", default=None, metavar="CARD",
                    help="an incoming card, e.g. 十 or s10 (default: none; the waits are shown)")
    hd.add_argument("--source", choices=("self", "other"), default="self",
                    help="where the incoming card comes from (default: %(default)s)")
    hd.add_argument("--liangzhang", default=None, metavar="CARD",
                    help="the dealer's shown card, for 衡阳's 五坎 rule, e.g. 三 (default: none)")
    hd.set_defaults(func=cmd_hand)
    pl = sub.add_parser("play", help=_doc(cmd_play), description=cmd_play.__doc__)
    pl.add_argument("--variant", default="guangxi-81",
                    help="variant key or TOML path (default: %(default)s)")
    pl.add_argument("--seed", type=seed_arg, default=DEFAULT_SEED,
                      help="root seed (default: %(default)s)")
    pl.add_argument("--deal", type=int, default=0, metavar="I",
                    help="which deal of the seed's stream, as in simulate (default: 0)")
    pl.add_argument("--policy", choices=POLICY_NAMES, default="greedy",
                    help="policy of every seat (default: %(default)s)")
    pl.add_argument("--jsonl", type=Path, default=None, metavar="FILE",
                    help="also write the hand record to FILE.jsonl (docs/records.md; "
                    "`zipai-sim replay FILE` prints this trace again); default: none")
    pl.set_defaults(func=cmd_play)
    rp = sub.add_parser("replay", help=_doc(cmd_replay), description=cmd_replay.__doc__)
    rp.add_argument("file", type=Path, metavar="FILE", help="hand records, JSON lines")
    rp.add_argument("--hand", type=int, default=None, metavar="I",
                    help="replay only the I-th record of FILE, from 0 (default: all)")
    rp.add_argument("--variant", default=None,
                    help="variant key or TOML path the hands were played with (default: the "
                    "records' variant, checked against their rules hash)")
    rp.set_defaults(func=cmd_replay)
    add_balance_match(sub, _doc, _add_per)
    _add_table_plot(sub)
    from zipai_sim.cli.arena import add_arena

    add_arena(sub, _doc)
    from zipai_sim.cli.compare import add_compare

    add_compare(sub, _doc)
    ex = sub.add_parser("exact", help=_doc(cmd_exact), description=cmd_exact.__doc__)
    ex.add_argument("--variant", default="guangxi-81", help="variant key or path to a TOML file "
                    "(default: %(default)s)")
    ex.add_argument("--thresholds", type=int,
                    action=Repeatable, nargs="+", default=None, metavar="T",
                    help="起胡 thresholds to report (default: the variant's customary ones)")
    ex.add_argument("--out", type=Path, default=None, metavar="FILE",
                    help="Parquet file (default: exact-VARIANT-HASH.parquet)")
    _add_per(ex)
    ex.add_argument("--checkpoint", type=Path, default=None, metavar="DIR",
                    help="folder keeping each finished part, so a stopped run resumes")
    ex.add_argument("--recompute", action="store_true",
                    help="enumerate even when the shipped table has these thresholds")
    ex.add_argument("--all", action="store_true",
                    help="also print the 胡息 distribution rows (always written)")
    ex.set_defaults(func=cmd_exact)
    va = sub.add_parser("variants", help=_doc(cmd_variants), description=cmd_variants.__doc__)
    va.add_argument("action", nargs="?", choices=("show",), help="show one variant")
    va.add_argument("key", nargs="?", help="variant key or TOML path")
    va.set_defaults(func=cmd_variants)
    return ap


def main(argv: list[str] | None = None) -> int:
    """Run ``zipai-sim`` with ``argv``; expected errors become one stderr line and exit 2."""
    ap = build_parser()
    a = ap.parse_args(argv)
    if a.command is None:
        ap.print_help()
        return 0
    try:
        from zipai_sim.cli.bounds import check_variant_files
        from zipai_sim.cli.locks import output_locks
        from zipai_sim.runs.provenance import command_line

        for flag in ("--variant", "--variants"):  # a FIFO or /dev/zero: refused, never read
            check_variant_files(flag, getattr(a, flag[2:], None))
        # every file written records this command line; each output is locked while it runs
        words = ["zipai-sim", *(sys.argv[1:] if argv is None else argv)]
        from zipai_sim.runs.driver import deferred_interrupts

        with stdout_guard(), command_line(words), output_locks(), checkpointing(a) as code, \
                dask_client(a), deferred_interrupts() as ctrl_c:
            code.append(a.func(a))  # 130 (interrupted): checkpointing says how to resume
            if ctrl_c["got"] and code[0] == 0:
                print("zipai-sim: Ctrl-C came after the run had finished: the complete result "
                      "is printed and written", file=sys.stderr)
            return code[0]
    except BrokenPipeError:  # e.g. piped into head: the reader left, nothing to report
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print("zipai-sim: interrupted", file=sys.stderr)
        return 130
    except (_Fail, ValueError, OSError) as e:
        from zipai_sim.report import flag_message

        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        msg = msg if isinstance(e, (_Fail, OSError)) else flag_message(msg)
        print(f"zipai-sim: error: {msg}", file=sys.stderr)
        return 2


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
