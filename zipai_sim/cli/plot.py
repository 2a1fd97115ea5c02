"""``zipai-sim plot KIND``: a figure drawn from saved Parquet results, without re-running."""

from __future__ import annotations

import argparse
from pathlib import Path

from zipai_sim.cli.bounds import CliError as _Fail
from zipai_sim.cli.bounds import Repeatable
from zipai_sim.cli.outputs import check_out


def cmd_plot(a: argparse.Namespace) -> int:
    """Draw a figure from saved Parquet results, without re-running: tianhu-threshold, huxi,
    seat-shares, dealer-edge, fanxing, convergence, scores, sweep, win-chance (the chance to win
    at each decision of an `analyze --out` file) (zipai_sim.plots)."""
    import matplotlib

    matplotlib.use("Agg")
    from zipai_sim.plots import figures as plots

    if a.out.suffix.lower() not in (".png", ".svg"):
        raise _Fail(f"--out must end in .png or .svg, got {a.out.name!r}")
    check_out(a.out, (".png", ".svg"))
    df = plots.load_result(a.from_)
    kw: dict[str, object] = {}
    for flag, value, kinds in (("--metric", a.metric, ("tianhu-threshold", "sweep")),
                               ("--seat", a.seat, ("scores", "win-chance")),
                               ("--log", a.log or None, ("tianhu-threshold",)),
                               ("--knob", a.knob, ("sweep",))):
        if value is not None and a.kind not in kinds:
            raise _Fail(f"{flag} applies to `plot {' / '.join(kinds)}` only, not "
                        f"`plot {a.kind}`")
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
    if a.kind == "win-chance":
        import polars as pl

        from zipai_sim.runs.io import read_metadata

        kw["seat"] = a.seat
        meta = read_metadata(a.from_[0])
        kw["unit"] = meta.get("unit")
        # an analysis table has no variant column: its metadata names the one variant (which
        # names the seats and the unit), where load_result would take the file's name
        key = meta.get("variants", "")
        if len(a.from_) == 1 and key and "," not in key and \
                "variant" not in pl.read_parquet_schema(a.from_[0]):
            df = df.with_columns(pl.lit(key).alias("variant"))
    if a.kind == "sweep":
        import json

        from zipai_sim.runs.io import read_metadata

        kw["metric"] = a.metric or "score_seat0"
        kw["knob"] = a.knob
        base = json.loads(read_metadata(a.from_[0]).get("sweep_baseline") or "{}")
        kw["baseline"] = base.get(a.knob or next(iter(base), ""))
    ax = plots.PLOTS[a.kind](df, **kw)
    if a.title:
        ax.set_title(a.title)
    plots.save_figure(ax, a.out, a.from_)  # carrying on the run metadata of the files
    print(f"wrote {a.out}")
    return 0


#: the keys of ``plots.figures.PLOTS``, spelt out: importing plots pulls polars and matplotlib
#: before the arguments are parsed (tests/test_imports.py checks the two agree)
PLOT_KINDS = ("convergence", "dealer-edge", "fanxing", "huxi", "scores", "seat-shares",
              "sweep", "tianhu-threshold", "win-chance")


def add_plot(sub, doc) -> None:
    """The ``plot KIND`` subcommand on the subparsers ``sub`` (``doc``: a docstring as help)."""
    po = sub.add_parser("plot", help=doc(cmd_plot), description=cmd_plot.__doc__)
    po.add_argument("kind", choices=sorted(PLOT_KINDS), help="which figure")
    po.add_argument("--from", dest="from_", type=Path,
                    action=Repeatable, nargs="+", required=True, metavar="FILE",
                    help="saved Parquet result(s): table, balance, simulate or records files")
    po.add_argument("--out", type=Path, required=True, metavar="FILE",
                    help="FILE.png or FILE.svg")
    po.add_argument("--metric", default=None,
                    help="tianhu-threshold: the deal_table metric (default: tianhu); sweep: the "
                    "compare metric (default: score_seat0, the dealer edge)")
    po.add_argument("--knob", default=None, metavar="KNOB",
                    help="sweep only: the swept knob on the x axis (default: the first)")
    po.add_argument("--seat", type=int, default=None, metavar="S",
                    help="scores: the seat (default: 0, dealer); win-chance: draw only this "
                    "seat (default: every seat analysed)")
    po.add_argument("--log", action="store_true",
                    help="tianhu-threshold only: rates on a log scale (default: linear)")
    po.add_argument("--lang", choices=("en", "zh"), default="en",
                    help="words on the figure: en (English / pinyin) or zh (天胡, 荒庄, 庄家 …, "
                    "in the bundled Noto Sans SC font) (default: %(default)s)")
    po.add_argument("--title", default=None, help="a title for the figure")
    po.set_defaults(func=cmd_plot)
