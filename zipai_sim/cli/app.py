"""The ``zipai-sim`` command line (argparse). Every error is one line on stderr and exit 2."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from zipai_sim.cli.bounds import CliError as _Fail
from zipai_sim.cli.bounds import add_set, seed_arg
from zipai_sim.cli.bounds import at_least_one as _at_least_one
from zipai_sim.cli.checkpoint import add_checkpoint, checkpointing
from zipai_sim.cli.dask import dask_client
from zipai_sim.cli.exact import add_exact
from zipai_sim.cli.fair import add_fair
from zipai_sim.cli.hand import add_hand
from zipai_sim.cli.hands import add_balance_match
from zipai_sim.cli.outputs import (
    check_out,
    partial_path,
    rows_path,
    save,
    stdout_guard,
)
from zipai_sim.cli.plot import add_plot
from zipai_sim.cli.table import add_table
from zipai_sim.report import DEFAULT_SEED

if TYPE_CHECKING:  # polars is imported by the commands that print, never before parsing
    import polars as pl


def _print_table(df: pl.DataFrame) -> None:
    import polars as pl

    with pl.Config(tbl_formatting="ASCII_MARKDOWN", tbl_hide_column_data_types=True,
                   tbl_hide_dataframe_shape=True, tbl_rows=-1, tbl_cols=-1, tbl_width_chars=200,
                   fmt_str_lengths=80):
        print(df)


def cmd_simulate(a: argparse.Namespace) -> int:
    """Deal many hands; print 天胡, 地胡, instant-win, two-提 and 翻信 rates with 95% intervals."""
    from zipai_sim.cli import bounds as B
    from zipai_sim.deals.simulate import simulate_deals
    from zipai_sim.runs.chunks import check_chunk_size, check_count, n_chunks

    v = B.load(a, a.variant)
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


def _per(a: argparse.Namespace) -> int | None:
    """``--per``, checked (a power of ten) before any work is done."""
    from zipai_sim.report import check_per

    return check_per(a.per, "--per")


def cmd_variants(a: argparse.Namespace) -> int:
    """List the shipped variants, or print every knob of one (``variants show KEY``)."""
    from zipai_sim.game.variant_tables import describe, variants_table

    if a.action is None:
        _print_table(variants_table().drop("rules_hash"))
        return 0
    if a.action != "show" or a.key is None:
        raise _Fail("usage: zipai-sim variants [show KEY|PATH]")
    print(describe(a.key))
    return 0


def cmd_bots(a: argparse.Namespace) -> int:  # noqa: ARG001 (no options)
    """List the shipped bots: what each does, what it sees, whether it searches (K worlds) or
    reads the variant's learned weights, its kernel and readable twin (the bot table)."""
    from zipai_sim.play.registry import markdown_table

    print(markdown_table())
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit 2) instead of usage + error."""

    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"zipai-sim: error: {message} (see zipai-sim --help)", file=sys.stderr)
        sys.exit(2)


def _doc(f: object) -> str:
    """A command's docstring as argparse help text (argparse %-formats help strings)."""
    return (getattr(f, "__doc__", "") or "").replace("%", "%%")




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
    add_set(sim)
    add_checkpoint(sim)
    sim.set_defaults(func=cmd_simulate)
    add_hand(sub, _doc)
    add_balance_match(sub, _doc, _add_per)
    add_table(sub, _doc, _add_per, _Parser)
    add_plot(sub, _doc)
    from zipai_sim.cli.arena import add_arena

    add_arena(sub, _doc)
    from zipai_sim.cli.compare import add_compare

    add_compare(sub, _doc)
    add_exact(sub, _doc, _add_per)
    add_fair(sub, _doc)
    from zipai_sim.cli.analyze import add_analyze

    add_analyze(sub, _doc)
    from zipai_sim.cli.train import add_train

    add_train(sub, _doc)
    bo = sub.add_parser("bots", help=_doc(cmd_bots), description=cmd_bots.__doc__)
    bo.set_defaults(func=cmd_bots)
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
