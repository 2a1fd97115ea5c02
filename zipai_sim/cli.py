"""The ``zipai-sim`` command line (argparse). Every error is one line on stderr and exit 2."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import polars as pl


class _Fail(Exception):
    """An expected failure: bad input or an unwritable path."""


def _value(r: dict) -> str:
    """A summary row's value: a rate with its Wilson interval (4 significant digits), or a mean
    ± its SE with the SE to 2 significant digits (and the SD when the row has one)."""
    if r.get("rate") is not None and r.get("ci_low") is not None:
        return f"{r['rate']:.4g} [{r['ci_low']:.4g}, {r['ci_high']:.4g}]"
    if r.get("mean") is not None:
        se = r.get("se")
        if se is None or not math.isfinite(se):
            return f"{r['mean']:.4g}"
        d = max(0, 1 - math.floor(math.log10(se))) if se > 0 else 3
        sd = f" (sd {r['sd']:.3g})" if r.get("sd") is not None else ""
        return f"{r['mean']:.{d}f} ± {se:.{d}f}{sd}"
    return _fmt_rate(r.get("rate"))


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


def check_out(path: Path, suffixes: tuple[str, ...] = (".parquet",)) -> None:
    """Refuse an output path that cannot be written or whose suffix is not one of ``suffixes``,
    before any work is done."""
    import os

    if str(path) in ("", "."):
        raise _Fail("--out needs a file name")
    if path.suffix.lower() not in suffixes:
        raise _Fail(f"output file must end in {' or '.join(suffixes)}, got {path.name!r}")
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
    _at_least_one(a.deals, "--deals")
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
            f"({r.n / max(r.seconds, 1e-9):,.0f} deals/s, thread start-up not counted)")
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
        from .variants import load_variant

        win = load_variant(a.variant).win

        def wins(hx: int | None) -> bool:
            return hx is not None and hx >= 0 and (hx >= win.threshold
                                                   or (win.piaohu and hx == 0))

        w = waits(a.text, a.variant)
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
    _at_least_one(a.hands, "--hands")
    check_out(a.out)
    check_count(a.rows, "--rows")
    from .play.balance import DEFAULT_HAND_CHUNK

    if a.rows > DEFAULT_HAND_CHUNK:
        raise _Fail(f"--rows keeps the first K hands of every {DEFAULT_HAND_CHUNK}-hand chunk: "
                    f"K must be ≤ {DEFAULT_HAND_CHUNK}, got {a.rows}")
    rows_out = a.rows_out
    if rows_out is not None and a.rows == 0:
        raise _Fail("--rows-out needs --rows K > 0 (hands kept per chunk)")
    if a.rows and rows_out is None:
        rows_out = Path(str(a.out).removesuffix(".parquet") + ".rows.parquet")
    if rows_out is not None:
        check_out(rows_out)
    from .variants import load_variant

    runs = [load_variant(v) for v in a.variants]
    if a.thresholds:  # a sweep: every variant at every threshold (大字牌 15/20/25/30)
        runs = [v.with_threshold(t) for v in runs for t in a.thresholds]
    got = [simulate_hands(v, a.hands, a.seed, a.policy, threads=a.threads, engine=a.engine,
                          rows=a.rows) for v in runs]
    frames = [g[0] for g in got] if a.rows else got
    df = pl.concat(frames)
    shown = df.with_columns(pl.Series("value", [_value(r) for r in df.iter_rows(named=True)]))
    _print_table(shown.select("variant", "threshold", "metric", "seat", "count", "n", "value"))
    from .play.balance import DEFAULT_HAND_CHUNK

    meta = {"variants": ",".join(a.variants), "variant_keys": ",".join(v.key for v in runs),
            "rules_hashes": ",".join(v.rules_hash for v in runs),
            "thresholds": ",".join(str(v.win.threshold) for v in runs), "seed": str(a.seed),
            "hands": str(a.hands), "n": str(a.hands), "chunk_size": str(DEFAULT_HAND_CHUNK),
            "policy": a.policy, "policies": a.policy, "engine": a.engine,
            "zipai_sim_version": __version__}
    write_parquet(df, a.out, meta)
    print(f"wrote {a.out}")
    if rows_out is not None:  # first K hands of every chunk, every run (RULES.md §9 rows)
        rows = pl.concat([g[1] for g in got], how="diagonal")
        write_parquet(rows, rows_out, {**meta, "rows_per_chunk": str(a.rows)})
        print(f"wrote {rows_out} ({rows.height:,} hands)")
    return 0


def cmd_match(a: argparse.Namespace) -> int:
    """Play matches (sequences of hands with running totals, the deal passing per the variant)
    to a goal: a number of hands, 100 胡 from wins, or 硬胡子 three wins reaching 50 胡."""
    from .play.match import simulate_matches

    if a.out is not None:
        check_out(a.out)
    first = a.first_dealer if a.first_dealer == "rotate" else _int_arg(a.first_dealer,
                                                                        "--first-dealer")
    pols = a.policies[0] if len(a.policies) == 1 else a.policies
    _at_least_one(a.matches, "--matches")
    if a.target is not None and a.goal != "hu100":
        raise _Fail(f"--target applies to --goal hu100 only, not --goal {a.goal}")
    r = simulate_matches(a.variant, a.matches, a.seed, goal=a.goal, hands=a.hands,
                         target=100 if a.target is None else a.target, policies=pols,
                         engine=a.engine, first_dealer=first,
                         max_hands=a.max_hands)
    print(f"{r.variant} (rules {r.rules_hash}): {r.n:,} matches, goal {r.goal}"
          + (f" ({r.hands} hands)" if r.goal == "hands" else f" ({r.target} 胡)" if r.goal ==
             "hu100" else "") + f", seed {r.seed}, policies {', '.join(r.policies)}")
    shown = r.summary.with_columns(
        pl.Series("value", [_value(x) for x in r.summary.iter_rows(named=True)]))
    _print_table(shown.select("metric", "player", "count", "n", "value"))
    if a.out is not None:
        r.to_parquet(a.out)
        print(f"wrote {a.out}")
    return 0


def _at_least_one(n: int, flag: str) -> None:
    """A run of zero deals, hands or matches is a mistake on the command line (Python accepts
    ``n = 0`` and returns an empty summary)."""
    if n == 0:
        raise _Fail(f"{flag} must be ≥ 1, got 0")


def _int_arg(x: str, name: str) -> int:
    try:
        return int(x)
    except ValueError:
        raise _Fail(f"{name} must be a whole number or 'rotate', got {x!r}") from None


def _bins(items: list[str] | None) -> dict[str, int]:
    out = {}
    for item in items or []:
        col, _, width = item.partition("=")
        if not width.isdigit() or int(width) < 1:
            raise _Fail(f"--bin takes COLUMN=WIDTH with a width ≥ 1, got {item!r}")
        out[col] = int(width)
    return out


def cmd_table(a: argparse.Namespace) -> int:
    """Win-probability tables (zipai_sim.tables): deal (天胡/地胡 by variant and threshold),
    opening (P(win) and mean score by seat and opening features), tenpai (听 at the deal:
    exact draw-model chance beside greedy play), waits (the hand calculator), convergence."""
    from . import tables as T
    from .chunks import check_count

    if a.out is not None:
        check_out(a.out)
    run: dict[str, object] = {}
    if a.kind == "deal":
        check_count(a.deals, "--deals")
        _at_least_one(a.deals, "--deals")
        if a.customary and a.thresholds:
            raise _Fail("give --customary or --thresholds, not both")
        ths = "customary" if a.customary else a.thresholds
        df = T.deal_table(a.variants, a.deals, a.seed, thresholds=ths,
                          metrics=None if a.all_metrics else T.DEAL_METRICS,
                          chunk_size=a.chunk_size, threads=a.threads)
        run = {"n": a.deals, "chunk_size": a.chunk_size}
    elif a.kind in ("opening", "tenpai"):
        check_count(a.hands, "--hands")
        _at_least_one(a.hands, "--hands")
        if a.records is not None:
            check_out(a.records)
        from .variants import load_variant

        runs = [load_variant(v) for v in a.variants]
        if a.thresholds:
            runs = [v.with_threshold(t) for v in runs for t in a.thresholds]
        rec = pl.concat([T.opening_records(v, a.hands, a.seed, a.policy, threads=a.threads)
                         for v in runs])
        run = {"n": a.hands, "seed": a.seed, "policies": a.policy}
        if a.kind == "opening":
            df = T.opening_table(rec, by=a.by, bins=_bins(a.bin))
        else:
            df = T.tenpai_table(rec, by=a.by, step=a.step)
        if a.records is not None:
            T.write_table(rec, a.records, "opening_records", **run)
            print(f"wrote {a.records} ({rec.height:,} seat-hands)")
    elif a.kind == "waits":
        df = T.calculate(a.text, a.variant, melds=a.meld, unseen=a.unseen, stock=a.stock,
                         seen=a.seen, own_draws=a.own_draws, discards=a.discards, sims=a.sims,
                         play=a.play, seat=a.seat, seed=a.seed)
        run = {"hand": a.text, "variant": a.variant, "seed": a.seed, "sims": a.sims,
               "play": a.play, "melds": ";".join(a.meld or []) or None}
    else:
        check_count(a.deals, "--deals")
        _at_least_one(a.deals, "--deals")
        df = T.convergence_table(a.variant, a.metric, a.deals, a.seed, points=a.points,
                                 start=a.start, threads=a.threads)
        run = {"chunk_size": None}
    shown = df.select([c for c in df.columns if df[c].null_count() < df.height]) \
        if df.height else df  # columns of an unrun part (e.g. no --play) stay in the file only
    if a.markdown:
        print(T.to_markdown(shown))
    else:
        with pl.Config(tbl_formatting="ASCII_MARKDOWN", tbl_hide_column_data_types=True,
                       tbl_hide_dataframe_shape=True, tbl_rows=-1, tbl_cols=-1,
                       tbl_width_chars=1000, fmt_str_lengths=80):
            print(T.formatted(shown))
    if a.out is not None:
        T.write_table(df, a.out, a.kind, **run)
        print(f"wrote {a.out}")
    return 0


def cmd_plot(a: argparse.Namespace) -> int:
    """Draw a figure from saved Parquet results, without re-running: tianhu-threshold, huxi,
    seat-shares, dealer-edge, fanxing, convergence, scores (zipai_sim.plots)."""
    import matplotlib

    matplotlib.use("Agg")
    from . import plots

    if a.out.suffix.lower() not in (".png", ".svg"):
        raise _Fail(f"--out must end in .png or .svg, got {a.out.name!r}")
    check_out(a.out, (".png", ".svg"))
    df = plots.load_result(a.from_)
    kw: dict[str, object] = {}
    for flag, value, kind in (("--metric", a.metric, "tianhu-threshold"),
                              ("--seat", a.seat, "scores")):
        if value is not None and a.kind != kind:
            raise _Fail(f"{flag} applies to `plot {kind}` only, not `plot {a.kind}`")
    if a.kind == "tianhu-threshold":
        kw["metric"] = a.metric or "tianhu"
    if a.kind == "scores":
        kw["seat"] = a.seat or 0
    ax = plots.PLOTS[a.kind](df, **kw)
    if a.title:
        ax.set_title(a.title)
    plots.save_figure(ax, a.out)
    print(f"wrote {a.out}")
    return 0


def cmd_exact(a: argparse.Namespace) -> int:
    """Exact deal-time probabilities by enumeration (天胡, 地胡 of one seat, 翻信 given 天胡,
    胡息 of complete dealer hands, 提/坎 shapes): exact rationals, no sampling. The variants'
    customary thresholds are shipped and print at once; other thresholds take minutes."""
    import time

    from tqdm.auto import tqdm

    from . import exact as ex
    from .io import write_parquet
    from .variants import load_variant

    v = load_variant(a.variant)
    ths = a.thresholds if a.thresholds else list(v.win.thresholds)
    for t in ths:
        if t < 0:
            raise _Fail(f"--thresholds must be non-negative, got {t}")
    path = a.out if a.out is not None else Path(f"exact-{v.key}-{v.rules_hash[:8]}.parquet")
    check_out(path)
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
    write_parquet(df, path, ex.metadata(v, sorted(set(ths)), secs, source))
    print(f"{v.key} (rules {v.rules_hash}): exact values ({source}), thresholds "
          f"{', '.join(str(t) for t in sorted(set(ths)))}, {secs:.1f} s")
    show = df.with_columns(
        pl.coalesce("probability", "mean").map_elements(lambda x: f"{x:.6g}",
                                                        return_dtype=pl.String).alias("value"),
        (pl.col("numerator").cast(pl.String) + "/" + pl.col("denominator").cast(pl.String))
        .alias("exact")).select("metric", "threshold", "value", "exact")
    if not a.all:
        show = show.filter(~pl.col("metric").str.starts_with("dealer_huxi_"))
    _print_table(show)
    print(f"wrote {path}")
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


def _add_table_plot(sub) -> None:
    """The ``table KIND`` and ``plot KIND`` subcommands."""
    from .plots import PLOTS

    ta = sub.add_parser("table", help=_doc(cmd_table), description=cmd_table.__doc__)
    kinds = ta.add_subparsers(dest="kind", parser_class=_Parser, required=True)

    def common(q: argparse.ArgumentParser, seed: bool = True) -> None:
        q.add_argument("--out", type=Path, default=None,
                       help="also write the table to this Parquet file, with run metadata")
        q.add_argument("--markdown", action="store_true",
                       help="print a GitHub Markdown table instead of aligned text")
        if seed:
            q.add_argument("--seed", type=int, default=20261129,
                           help="root seed (default: %(default)s)")
        q.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
        q.set_defaults(func=cmd_table)

    de = kinds.add_parser("deal", help="天胡/地胡 rates by variant and threshold (simulate_deals)")
    de.add_argument("--variants", nargs="+", default=["guangxi-81"], help="variant keys or paths")
    de.add_argument("--deals", type=int, default=1_000_000,
                    help="deals per variant and threshold (default: %(default)s)")
    de.add_argument("--thresholds", type=int, nargs="+", default=None,
                    help="起胡 thresholds to sweep for every variant (e.g. 15 20 25 30)")
    de.add_argument("--customary", action="store_true",
                    help="sweep each variant's customary thresholds ([win].thresholds)")
    de.add_argument("--all-metrics", action="store_true",
                    help="keep every simulate_deals metric (翻信 included), not only 天胡/地胡")
    de.add_argument("--chunk-size", type=int, default=None, help="deals per chunk")
    common(de)
    for name, text in (("opening", "P(the seat wins) and mean score by seat and opening "
                        "features, from whole greedy hands"),
                       ("tenpai", "听 at the deal: exact draw-model chance beside greedy play")):
        q = kinds.add_parser(name, help=text, description=text)
        q.add_argument("--variants", nargs="+", default=["guangxi-81"],
                       help="variant keys or paths")
        q.add_argument("--hands", type=int, default=20_000,
                       help="hands per variant (default: %(default)s)")
        q.add_argument("--thresholds", type=int, nargs="+", default=None,
                       help="起胡 thresholds to sweep for every variant")
        q.add_argument("--policy", choices=("greedy", "random"), default="greedy")
        q.add_argument("--by", nargs="*", default=["seat"],
                       help="record columns to group by (default: seat); features: "
                       "opening_huxi ti kan red tenpai waits")
        q.add_argument("--records", type=Path, default=None,
                       help="also write the per-seat-hand records to this Parquet file")
        if name == "opening":
            q.add_argument("--bin", action="append", default=None, metavar="COLUMN=WIDTH",
                           help="floor a numeric column to bins, e.g. opening_huxi=6")
        else:
            q.add_argument("--step", type=float, default=0.1,
                           help="width of the p_draw bands (default: %(default)s)")
        common(q)
    wa = kinds.add_parser("waits", help="the hand calculator: waits (听), 胡息, chances")
    wa.add_argument("text", help="the hand, e.g. '一二三 四五六 …' or 's1 s2 s3 …'")
    wa.add_argument("--variant", default="guangxi-81", help="variant key or TOML path")
    wa.add_argument("--meld", action="append", default=None,
                    help="a group on the table, e.g. '碰 五五五' or 'chi s1 s2 s3' (repeat)")
    wa.add_argument("--unseen", default=None,
                    help="the cards the player cannot see (default: all not in hand/table/seen)")
    wa.add_argument("--seen", default=None, help="other cards the player has seen")
    wa.add_argument("--stock", type=int, default=None,
                    help="cards left in the stock (default: the variant's whole stock)")
    wa.add_argument("--own-draws", type=int, default=None,
                    help="stock cards the player draws (default: ⌈stock / players⌉)")
    wa.add_argument("--discards", type=int, default=0,
                    help="other players' discards the player will yet see (default: 0)")
    wa.add_argument("--sims", type=int, default=20_000,
                    help="Monte Carlo draws of the model (default: %(default)s)")
    wa.add_argument("--play", type=int, default=0,
                    help="greedy hands played from the deal with this hand (a dealt hand only)")
    wa.add_argument("--seat", type=int, default=1, help="the hand's seat for --play (default 1)")
    common(wa)
    co = kinds.add_parser("convergence", help="one simulate_deals rate as deals accumulate")
    co.add_argument("--variant", default="guangxi-81", help="variant key or TOML path")
    co.add_argument("--metric", default="tianhu", help="a simulate_deals rate (default: tianhu)")
    co.add_argument("--deals", type=int, default=1_000_000, help="largest n (default: %(default)s)")
    co.add_argument("--points", type=int, default=12, help="values of n (default: %(default)s)")
    co.add_argument("--start", type=int, default=1000, help="smallest n (default: %(default)s)")
    common(co)

    po = sub.add_parser("plot", help=_doc(cmd_plot), description=cmd_plot.__doc__)
    po.add_argument("kind", choices=sorted(PLOTS), help="which figure")
    po.add_argument("--from", dest="from_", type=Path, nargs="+", required=True,
                    help="saved Parquet result(s): table, balance, simulate or records files")
    po.add_argument("--out", type=Path, required=True, help="FILE.png or FILE.svg")
    po.add_argument("--metric", default=None,
                    help="tianhu-threshold only: the deal_table metric (default: tianhu)")
    po.add_argument("--seat", type=int, default=None,
                    help="scores only: the seat (default: 0, dealer)")
    po.add_argument("--title", default=None, help="a title for the figure")
    po.set_defaults(func=cmd_plot)


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
    ba.add_argument("--rows", type=int, default=0,
                    help="keep the first K hands of every chunk (4096 hands) as per-hand rows")
    ba.add_argument("--rows-out", type=Path, default=None,
                    help="Parquet file for the --rows sample (default: OUT.rows.parquet)")
    ba.add_argument("--out", type=Path, default=Path("balance.parquet"),
                    help="Parquet file (default: %(default)s)")
    ba.set_defaults(func=cmd_balance)
    ma = sub.add_parser("match", help=_doc(cmd_match), description=cmd_match.__doc__)
    ma.add_argument("--variant", default="guangxi-81", help="variant key or TOML path")
    ma.add_argument("--matches", type=int, default=1000,
                    help="number of matches (default: %(default)s)")
    ma.add_argument("--seed", type=int, default=20261129, help="root seed (default: %(default)s)")
    ma.add_argument("--goal", choices=("hands", "hu100", "yinghuzi"), default="hands",
                    help="end rule: HANDS hands, first to TARGET 胡 from wins, or 硬胡子 "
                    "(default: %(default)s)")
    ma.add_argument("--hands", type=int, default=8,
                    help="hands per match for --goal hands (default: %(default)s)")
    ma.add_argument("--target", type=int, default=None,
                    help="胡 to reach for --goal hu100 (default: 100)")
    ma.add_argument("--policies", nargs="+", choices=("greedy", "random"), default=["greedy"],
                    help="one policy for every player, or one per player: four with a 数信 "
                    "sitter, who sit out in turn (default: greedy)")
    ma.add_argument("--engine", choices=("numba", "reference"), default="numba",
                    help="numba kernel or the readable reference engine (default: numba)")
    ma.add_argument("--first-dealer", default="0",
                    help="player who deals the first hand (0..3 with a 数信 sitter), or "
                    "'rotate' (default: 0)")
    ma.add_argument("--max-hands", type=int, default=1000,
                    help="stop a match that has not reached its goal (default: %(default)s)")
    ma.add_argument("--out", type=Path, default=None,
                    help="Parquet file for the per-match rows (default: none)")
    ma.set_defaults(func=cmd_match)
    _add_table_plot(sub)
    ex = sub.add_parser("exact", help=_doc(cmd_exact), description=cmd_exact.__doc__)
    ex.add_argument("--variant", default="guangxi-81", help="variant key or path to a TOML file "
                    "(default: %(default)s)")
    ex.add_argument("--thresholds", type=int, nargs="+", default=None, metavar="T",
                    help="起胡 thresholds to report (default: the variant's customary ones)")
    ex.add_argument("--out", type=Path, default=None,
                    help="Parquet file (default: exact-VARIANT-HASH.parquet)")
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
