"""The ``zipai-sim`` command line (argparse). Every error is one line on stderr and exit 2."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import polars as pl


class _Fail(Exception):
    """An expected failure: bad input or an unwritable path."""


def _fmt_rate(x: float | None) -> str:
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.6g}"


def summary_table(summary: pl.DataFrame) -> pl.DataFrame:
    """The printable summary: rates with their Wilson 95% interval, means with their SE."""
    rows = []
    for r in summary.iter_rows(named=True):
        if r["mean"] is not None:
            val = f"{r['mean']:.4f} ± {r['se']:.4f} (SE)" if r["se"] is not None and not \
                math.isnan(r["se"]) else _fmt_rate(r["mean"])
            rows.append({"metric": r["metric"], "count": r["count"], "n": r["n"], "value": val,
                         "95% interval": ""})
        else:
            rows.append({"metric": r["metric"], "count": r["count"], "n": r["n"],
                         "value": _fmt_rate(r["rate"]),
                         "95% interval": f"[{_fmt_rate(r['ci_low'])}, {_fmt_rate(r['ci_high'])}]"
                         if r["n"] else ""})
    return pl.DataFrame(rows, schema={"metric": pl.String, "count": pl.Int64, "n": pl.Int64,
                                      "value": pl.String, "95% interval": pl.String})


def _print_table(df: pl.DataFrame) -> None:
    with pl.Config(tbl_formatting="ASCII_MARKDOWN", tbl_hide_column_data_types=True,
                   tbl_hide_dataframe_shape=True, tbl_rows=-1, tbl_cols=-1, tbl_width_chars=200,
                   fmt_str_lengths=80):
        print(df)


def check_out(path: Path) -> None:
    """Refuse an output path that cannot be written, before any work is done."""
    import os

    if str(path) in ("", "."):
        raise _Fail("--out needs a file name")
    if path.is_dir():
        raise _Fail(f"cannot write {path}: it is a folder")
    folder = path.resolve().parent
    if not folder.is_dir():
        raise _Fail(f"cannot write {path}: {folder} is not a folder")
    if not os.access(folder, os.W_OK):
        raise _Fail(f"cannot write {path}: folder {folder} is not writable")


def cmd_simulate(a: argparse.Namespace) -> int:
    """Deal many hands; print 天胡, 地胡, instant-win, two-提 and 翻信 rates with 95% intervals."""
    from .chunks import check_chunk_size, check_count
    from .simulate import simulate_deals
    from .variants import load_variant

    v = load_variant(a.variant)
    if a.threshold is not None:
        v = v.with_threshold(a.threshold)
    check_count(a.deals, "--deals")
    cs = check_chunk_size(a.chunk_size, "--chunk-size")
    check_count(a.sample_rows, "--sample-rows")
    # the rules hash in the default name keeps an edited copy of a variant apart from it
    path = a.out if a.out is not None else Path(
        f"{v.key}-{v.rules_hash[:8]}-seed{a.seed}-n{a.deals}.parquet")
    check_out(path)
    r = simulate_deals(v, a.deals, a.seed, threads=a.threads, chunk_size=cs,
                       sample_per_chunk=min(a.sample_rows, cs))
    r.to_parquet(path, rows=a.sample_rows > 0)
    head = (f"{v.key} (rules {v.rules_hash}, threshold {v.win.threshold}): {r.n:,} deals, "
            f"seed {a.seed}, chunk {r.chunk_size}, {r.threads} thread{'s' * (r.threads > 1)}, "
            f"{r.seconds:.1f} s "
            f"({r.n / max(r.seconds, 1e-9):,.0f} deals/s)")
    if r.partial:
        head += f"  PARTIAL: interrupted after {r.n:,} of {r.n_requested:,} deals"
    print(head)
    s = r.summary
    _print_table(summary_table(s.filter(~pl.col("metric").str.starts_with("dealer_huxi_"))))
    dist = r.huxi_distribution
    if dist.height:
        print("胡息 of complete dealer hands: " + ", ".join(
            f"{h}: {rate:.3g}" for h, rate in zip(dist["huxi"], dist["rate"])))
    print(f"wrote {path}")
    return 130 if r.partial else 0


def cmd_hand(a: argparse.Namespace) -> int:
    """Print the best decomposition, 胡息, complete/win, and the waits (听) of a hand."""
    from .evaluate import explain, waits

    e = explain(a.text, a.variant, incoming=a.incoming, source=a.source,
                liangzhang=a.liangzhang)
    print(e)
    if a.incoming is None:
        w = waits(a.text, a.variant)
        if w.height:
            print("waits (听): " + ", ".join(
                f"{r['card']} ({_hx(r['huxi_self'])} self / {_hx(r['huxi_other'])} other)"
                for r in w.iter_rows(named=True)))
        else:
            print("waits (听): none")
    return 0


def _hx(x: int | None) -> str:
    return "-" if x is None else f"{x} 胡息"


def cmd_play(a: argparse.Namespace) -> int:
    """Play one seeded hand with the reference engine and print it move by move."""
    from .play.trace import play_seeded

    if a.deal < 0:
        raise _Fail(f"--deal must be ≥ 0, got {a.deal}")
    game, out = play_seeded(a.variant, a.seed, a.deal, a.policy)
    print("\n".join(game.log))
    return 0


def cmd_balance(a: argparse.Namespace) -> int:
    """Play and settle hands of each variant; print win/自摸/放炮 shares, scores and 荒庄 rates."""
    from . import __version__
    from .chunks import check_count
    from .io import write_parquet
    from .play.balance import simulate_hands

    check_count(a.hands, "--hands")
    check_out(a.out)
    from .variants import load_variant

    runs = [load_variant(v) for v in a.variants]
    if a.thresholds:  # a sweep: every variant at every threshold (大字牌 15/20/25/30)
        runs = [v.with_threshold(t) for v in runs for t in a.thresholds]
    frames = [simulate_hands(v, a.hands, a.seed, a.policy, threads=a.threads, engine=a.engine)
              for v in runs]
    df = pl.concat(frames)
    shown = df.with_columns(
        pl.when(pl.col("rate").is_not_null() & pl.col("ci_low").is_not_null())
        .then(pl.format("{} [{}, {}]", pl.col("rate").round(4), pl.col("ci_low").round(4),
                        pl.col("ci_high").round(4)))
        .when(pl.col("mean").is_not_null())
        .then(pl.format("{} ± {} (sd {})", pl.col("mean").round(3), pl.col("se").round(3),
                        pl.col("sd").round(2)))
        .otherwise(pl.col("rate").round(4).cast(pl.String)).alias("value"))
    _print_table(shown.select("variant", "threshold", "metric", "seat", "count", "n", "value"))
    write_parquet(df, a.out, {"variants": ",".join(a.variants), "seed": str(a.seed),
                              "hands": str(a.hands), "policy": a.policy,
                              "zipai_sim_version": __version__})
    print(f"wrote {a.out}")
    return 0


def cmd_variants(a: argparse.Namespace) -> int:
    """List the shipped variants, or print every knob of one (``variants show KEY``)."""
    from .variants import describe, variants_table

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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``zipai-sim``."""
    ap = _Parser(prog="zipai-sim",
                 description="Monte Carlo toolkit for 字牌 (zipai): deals, 胡息 and rule variants.")
    sub = ap.add_subparsers(dest="command", parser_class=_Parser)
    sim = sub.add_parser("simulate", help=_doc(cmd_simulate), description=cmd_simulate.__doc__)
    sim.add_argument("--variant", default="guangxi-81", help="variant key or path to a TOML file "
                     "(default: %(default)s)")
    sim.add_argument("--deals", type=int, default=2_000_000, help="number of deals "
                     "(default: %(default)s)")
    sim.add_argument("--seed", type=int, default=20261129, help="root seed (default: %(default)s)")
    sim.add_argument("--out", type=Path, default=None,
                     help="Parquet file for the summary (default: VARIANT-seedS-nN.parquet)")
    sim.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    sim.add_argument("--threshold", type=int, default=None,
                     help="override the variant's 起胡 threshold (胡息)")
    sim.add_argument("--chunk-size", type=int, default=None,
                     help="deals per chunk; part of the result's identity (default: 65536)")
    sim.add_argument("--sample-rows", type=int, default=0,
                     help="keep this many per-deal rows per chunk, written to OUT.rows.parquet")
    sim.set_defaults(func=cmd_simulate)
    hd = sub.add_parser("hand", help=_doc(cmd_hand), description=cmd_hand.__doc__)
    hd.add_argument("text", help="the hand, e.g. '一二三 四五六 …' or 's1 s2 s3 …'")
    hd.add_argument("--variant", default="guangxi-81", help="variant key or TOML path")
    hd.add_argument("--incoming", default=None, help="an incoming card, e.g. 十 or s10")
    hd.add_argument("--source", choices=("self", "other"), default="self",
                    help="where the incoming card comes from (default: %(default)s)")
    hd.add_argument("--liangzhang", default=None,
                    help="the dealer's shown card, for 衡阳's 五坎 rule (e.g. 三)")
    hd.set_defaults(func=cmd_hand)
    pl = sub.add_parser("play", help=_doc(cmd_play), description=cmd_play.__doc__)
    pl.add_argument("--variant", default="guangxi-81", help="variant key or TOML path")
    pl.add_argument("--seed", type=int, default=20261129, help="root seed (default: %(default)s)")
    pl.add_argument("--deal", type=int, default=0,
                    help="which deal of the seed's stream, as in simulate (default: 0)")
    pl.add_argument("--policy", choices=("greedy", "random"), default="greedy",
                    help="policy of every seat (default: %(default)s)")
    pl.set_defaults(func=cmd_play)
    ba = sub.add_parser("balance", help=_doc(cmd_balance), description=cmd_balance.__doc__)
    ba.add_argument("--variants", nargs="+", default=["guangxi-81"], help="variant keys or paths")
    ba.add_argument("--hands", type=int, default=20_000,
                    help="hands per variant (default: %(default)s)")
    ba.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    ba.add_argument("--thresholds", type=int, nargs="+", default=None,
                    help="sweep these 起胡 thresholds for every variant (e.g. 15 20 25 30)")
    ba.add_argument("--engine", choices=("numba", "reference"), default="numba",
                    help="numba kernel or the readable reference engine (default: numba)")
    ba.add_argument("--seed", type=int, default=20261129, help="root seed (default: %(default)s)")
    ba.add_argument("--policy", choices=("greedy", "random"), default="greedy")
    ba.add_argument("--out", type=Path, default=Path("balance.parquet"),
                    help="Parquet file (default: %(default)s)")
    ba.set_defaults(func=cmd_balance)
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
        return a.func(a)
    except BrokenPipeError:  # e.g. piped into head: the reader left, nothing to report
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print("zipai-sim: interrupted", file=sys.stderr)
        return 130
    except (_Fail, ValueError, OSError) as e:
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        print(f"zipai-sim: error: {msg}", file=sys.stderr)
        return 2


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
