"""Figures (issue 4 §2, issue 11): each helper draws a small real result on the Agg backend,
returns its Axes with the labels and legend its docstring promises, and the saved image is not
blank; every figure renders in English and Chinese with no missing glyph, carries its provenance
(footer and file metadata), saves reproducible SVG, and never merges distinct runs; the
``zipai-sim plot`` command renders saved Parquet results."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import warnings

import matplotlib.image as mpimg
import matplotlib.pyplot as plt
import numpy as np
import polars as pl
import pytest
from test_cli import run

import zipai_sim as zs
from zipai_sim import tables as T
from zipai_sim.plots import figures as plots
from zipai_sim.plots import fonts
from zipai_sim.plots import labels as plots_labels
from zipai_sim.studies.balance import simulate_hands


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def deal():
    return T.deal_table(["guangxi-dazipai", "changsha-paohuzi"], n=3000, seed=1,
                        thresholds=[10, 15, 20])


@pytest.fixture(scope="module")
def balance():
    return pl.concat([simulate_hands(v, 150, 2) for v in ("guangxi-81", "liuhu-dao")])


@pytest.fixture(scope="module")
def records():
    return pl.concat([T.opening_records(v, 200, seed=3) for v in ("guangxi-81", "liuhu-dao")])


def not_blank(ax, path) -> None:
    plots.save_figure(ax, path)
    assert path.stat().st_size > 1000
    if path.suffix == ".png":
        img = mpimg.imread(path)
        assert img.ndim == 3 and img.shape[0] > 100 and img.shape[1] > 100
        assert np.ptp(img[..., :3]) > 0.5  # drawn on, not one flat colour
    else:
        assert "<svg" in path.read_text()[:500]


def legend_texts(ax) -> list[str]:
    leg = ax.get_legend()
    assert leg is not None
    return [t.get_text() for t in leg.get_texts()]


def test_tianhu_threshold(deal, tmp_path):
    ax = plots.plot_tianhu_threshold(deal)
    assert ax.get_xlabel() == "threshold (huxi / you / hu)"
    assert ax.get_ylabel() == "tianhu per 10,000 deals"
    assert legend_texts(ax) == ["changsha-paohuzi", "guangxi-dazipai"]
    not_blank(ax, tmp_path / "t.png")
    _, given = plt.subplots()
    assert plots.plot_tianhu_threshold(deal, ax=given, metric="dihu") is given
    assert given.get_ylabel() == "dihu per 10,000 deals"
    with pytest.raises(ValueError, match="no 'nope' rows"):
        plots.plot_tianhu_threshold(deal, metric="nope")


def test_huxi_distribution_from_records_and_summary(records, tmp_path):
    ax = plots.plot_huxi_distribution(records)
    assert ax.get_xlabel() == "huxi of the winning hand"
    assert ax.get_ylabel() == "share of winning hands"
    assert legend_texts(ax) == ["guangxi-81", "liuhu-dao"]
    # discrete 胡息 as steps, one bin per integer, integer ticks; the shares add up to 1
    steps = ax.patches[0].get_data()
    assert steps.values.sum() == pytest.approx(1.0)
    assert np.all(np.diff(steps.edges) == 1)
    assert not ax.get_lines()
    ax.figure.canvas.draw()
    assert all(float(x).is_integer() for x in ax.get_xticks())
    assert "n = 200 hands each" in _footer(ax)  # every hand of the run, not only the won ones
    not_blank(ax, tmp_path / "h.svg")
    s = zs.simulate_deals("guangxi-81", 20_000, 1).summary.with_columns(
        pl.lit("guangxi-81").alias("variant"))
    ax2 = plots.plot_huxi_distribution(s)
    assert ax2.get_xlabel() == "huxi of the complete dealer hand (at the deal)"


def test_seat_shares(balance, tmp_path):
    ax = plots.plot_seat_shares(balance)
    assert ax.get_ylabel() == "share of hands"
    assert legend_texts(ax) == ["seat 0 (dealer)", "seat 1", "seat 2", "seat 3",
                                "no winner (huangzhuang)"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["guangxi-81", "liuhu-dao"]
    not_blank(ax, tmp_path / "s.png")


def test_dealer_edge(balance, tmp_path):
    ax = plots.plot_dealer_edge(balance)
    assert ax.get_ylabel() == "dealer edge (units per hand)"
    assert legend_texts(ax) == ["dealer mean score, 95% interval"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["guangxi-81\n(duo)", "liuhu-dao\n(hu)"]
    not_blank(ax, tmp_path / "e.png")
    with pytest.raises(ValueError, match="balance table"):
        plots.plot_dealer_edge(pl.DataFrame({"variant": ["x"]}))


def test_fanxing_from_summary_and_records(records, tmp_path):
    s = T.deal_table(["guangxi-81", "changsha-paohuzi"], n=20_000, seed=5, metrics=None)
    ax = plots.plot_fanxing(s)
    assert ax.get_xlabel() == "fanxing matches" and ax.get_ylabel() == "share of wins"
    assert legend_texts(ax) == ["guangxi-81"]  # 长沙 turns no 翻信 (§8)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "1", "2", "3", "4+"]
    not_blank(ax, tmp_path / "f.png")
    ax2 = plots.plot_fanxing(records)
    assert legend_texts(ax2) == ["guangxi-81", "liuhu-dao"]
    heights = [p.get_height() for p in ax2.patches[:5]]
    assert sum(heights) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="no 翻信"):
        plots.plot_fanxing(records.filter(pl.col("variant") == "x"))


def test_convergence(tmp_path):
    t = T.convergence_table("changsha-paohuzi", "tianhu", n=30_000, seed=2, points=6)
    ax = plots.plot_convergence(t)
    assert ax.get_xlabel() == "deals" and ax.get_ylabel() == "tianhu rate"
    assert ax.get_xscale() == "log"
    assert legend_texts(ax) == ["changsha-paohuzi", "95% interval"]
    not_blank(ax, tmp_path / "c.png")


def test_score_distribution(records, balance, tmp_path):
    ax = plots.plot_score_distribution(records, seat=1)
    assert ax.get_xlabel() == "score of seat 1 (units per hand)"
    assert ax.get_ylabel() == "share of hands"
    assert legend_texts(ax) == ["guangxi-81 (duo)", "liuhu-dao (hu)"]
    assert ax.patches[0].get_data().values.sum() == pytest.approx(1.0)
    assert not ax.get_lines()
    not_blank(ax, tmp_path / "d.png")
    zh = plots.plot_score_distribution(records, seat=0, lang="zh")
    assert zh.get_xlabel() == "庄家 每局得分 (计分单位)"
    assert legend_texts(zh) == ["guangxi-81 (舵)", "liuhu-dao (胡)"]


def test_save_figure_refuses_other_formats(deal, tmp_path):
    ax = plots.plot_tianhu_threshold(deal)
    with pytest.raises(ValueError, match=".png or .svg"):
        plots.save_figure(ax, tmp_path / "x.jpg")


# --- issue 11: both languages, no missing glyph, provenance, reproducible files, runs ---

@pytest.fixture(scope="module")
def convergence():
    return T.convergence_table("changsha-paohuzi", "tianhu", n=20_000, seed=2, points=4)


@pytest.fixture(scope="module")
def summary():
    return zs.simulate_deals("guangxi-81", 20_000, 1, progress=False).summary.with_columns(
        pl.lit("guangxi-81").alias("variant"))


@pytest.fixture(scope="module")
def sweep():
    from zipai_sim.studies.compare import compare

    return compare("guangxi-81", 300, seed=4,
                   sweep={("settle.huangzhuang_dealer", "settle.huangzhuang_others"):
                          [(0, 0), (-2, 1)]})


#: every figure kind, from each kind of input it takes: name → (fixture, draw(data, lang))
FIGURES = {
    "tianhu-threshold": ("deal", lambda d, lang: plots.plot_tianhu_threshold(d, lang=lang)),
    "tianhu-threshold-log": ("deal", lambda d, lang: plots.plot_tianhu_threshold(
        d, metric="dihu", log=True, lang=lang)),
    "huxi": ("records", lambda d, lang: plots.plot_huxi_distribution(d, lang=lang)),
    "huxi-summary": ("summary", lambda d, lang: plots.plot_huxi_distribution(d, lang=lang)),
    "seat-shares": ("balance", lambda d, lang: plots.plot_seat_shares(d, lang=lang)),
    "dealer-edge": ("balance", lambda d, lang: plots.plot_dealer_edge(d, lang=lang)),
    "fanxing": ("records", lambda d, lang: plots.plot_fanxing(d, lang=lang)),
    "fanxing-summary": ("summary", lambda d, lang: plots.plot_fanxing(d, lang=lang)),
    "convergence": ("convergence", lambda d, lang: plots.plot_convergence(d, lang=lang)),
    "scores": ("records", lambda d, lang: plots.plot_score_distribution(d, seat=2, lang=lang)),
    "sweep": ("sweep", lambda d, lang: plots.plot_sweep(d, baseline=-4, lang=lang)),
    "win-chance": ("analysis", lambda d, lang: plots.plot_win_chance(d, lang=lang)),
}


def test_every_kind_is_covered():
    assert {k.removesuffix("-log").removesuffix("-summary") for k in FIGURES} == set(plots.PLOTS)


def test_missing_glyphs_are_caught():
    """The check below has teeth: matplotlib's missing-glyph warning, made an error, stops a
    Chinese label in the default font; the bundled font has every word the figures use."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig, ax = plt.subplots()
        ax.set_title("天胡")
        with pytest.raises(UserWarning, match="missing from font"):
            fig.canvas.draw()
    for lang in plots_labels.LANGS:
        assert fonts.missing_glyphs(plots_labels.every_text(lang), lang) == []
    assert fonts.missing_glyphs("天胡 荒庄", "en") == ["天", "胡", "荒", "庄"]


@pytest.mark.parametrize("lang", plots_labels.LANGS)
@pytest.mark.parametrize("kind", sorted(FIGURES))
def test_every_figure_in_both_languages_has_every_glyph(kind, lang, request, tmp_path):
    from matplotlib.text import Text

    name, draw = FIGURES[kind]
    data = request.getfixturevalue(name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "Glyph … missing from font(s)" among them
        ax = draw(data, lang)
        ax.set_title({"en": "zipai", "zh": "字牌"}[lang])
        ax.figure.canvas.draw()
        texts = "".join(t.get_text() for t in ax.figure.findobj(Text) if t.get_visible())
        not_blank(ax, tmp_path / "f.svg")
        ax = draw(data, lang)
        not_blank(ax, tmp_path / "f.png")
    assert fonts.missing_glyphs(texts, lang) == []
    has_han = any("\u4e00" <= ch <= "\u9fff" for ch in texts)
    assert has_han == (lang == "zh")


def test_chinese_terms(deal, balance, records, convergence):
    ax = plots.plot_seat_shares(balance, lang="zh")
    # seat 2 is 上家 at a 3-player table (guangxi-81) and 对家 at a 4-player one (liuhu-dao)
    assert legend_texts(ax) == ["庄家", "下家", "上家/对家", "上家", "荒庄 (无人胡牌)"]
    assert ax.get_ylabel() == "占总局数的比例"
    ax = plots.plot_tianhu_threshold(deal, metric="dihu", lang="zh")
    assert ax.get_ylabel() == "地胡 (每 10,000 局)"
    assert ax.get_xlabel() == "起胡 (胡息 / 油 / 胡)"
    assert ax.get_legend().get_title().get_text() == "玩法"
    assert plots.plot_fanxing(records, lang="zh").get_xlabel() == "翻信 (相同牌张数)"
    assert plots.plot_huxi_distribution(records, lang="zh").get_xlabel() == "胡牌的胡息"
    assert plots.plot_convergence(convergence, lang="zh").get_ylabel() == "天胡 比率"
    edge = plots.plot_dealer_edge(balance, lang="zh")
    assert [t.get_text() for t in edge.get_xticklabels()] == ["guangxi-81\n(舵)",
                                                              "liuhu-dao\n(胡)"]
    with pytest.raises(ValueError, match="lang must be 'en'.*'zh'"):
        plots.plot_fanxing(records, lang="fr")


def test_tianhu_threshold_overlapping_lines_stay_readable(deal):
    ax = plots.plot_tianhu_threshold(deal, log=True)
    assert ax.get_yscale() == "log"
    lines = [c.lines[0] for c in ax.containers]
    assert len({ln.get_marker() for ln in lines}) == len(lines) == 2  # a marker per line
    x0, x1 = (ln.get_xdata() for ln in lines)
    assert np.all(x0 != x1) and np.all(np.abs(x0 - x1) < 2.5)  # shifted sideways, a little
    assert list(ax.get_xticks()) == [10, 15, 20]


def _footer(ax) -> str:
    from zipai_sim.plots.footer import FOOTER_GID

    (foot,) = [t for t in ax.figure.texts if t.get_gid() == FOOTER_GID]
    return foot.get_text()


def test_provenance_in_footer_and_file_metadata(deal, tmp_path):
    from PIL import Image

    ax = plots.plot_tianhu_threshold(deal)
    foot = _footer(ax).replace("\n", " ")  # wrapped at about 110 characters
    assert foot.startswith("changsha-paohuzi threshold 10/15/20 rules ")
    assert "guangxi-dazipai threshold 10/15/20 rules " in foot
    assert "n = 3,000 deals each" in foot and "seed 1" in foot
    assert "bot" not in foot  # deals scored at the deal: no bot played them
    plots.save_figure(ax, tmp_path / "t.png")
    meta = Image.open(tmp_path / "t.png").text
    assert meta["Description"] == foot
    assert meta["Software"].startswith(f"zipai-sim {zs.__version__}")
    ax = plots.plot_tianhu_threshold(deal, lang="zh")
    assert "n = 3,000 局 每组" in _footer(ax) and "种子 1" in _footer(ax)
    plots.save_figure(ax, tmp_path / "t.svg")
    svg = (tmp_path / "t.svg").read_text()
    assert f"<dc:description>{_footer(ax).replace(chr(10), ' ')}</dc:description>" in svg
    assert "<dc:date>" not in svg


def test_provenance_from_parquet_metadata(records, tmp_path):
    """Per-hand records hold no seed or bot: the file's key-value metadata does."""
    path = tmp_path / "rec.parquet"
    T.write_table(records, path, "opening_records", n=200, seed=3, policies="greedy")
    df = plots.load_result(path)
    assert df.select("seed", "bot", "run_n", "source").unique().rows() == [
        (3, "greedy", 200, "rec.parquet")]
    foot = _footer(plots.plot_huxi_distribution(df))
    assert "n = 200 hands each · seed 3 · bot greedy" in foot


def test_a_mixed_line_up_is_named_in_seat_order(records, tmp_path):
    """A run with a bot per seat names its line-up, dealer first; one bot at every seat stays
    one name. A mixed line-up used to lose its bot (the caption said nothing)."""
    for pols, bot in ((["lookahead", "greedy", "random"], "lookahead/greedy/random"),
                      (["greedy"] * 3, "greedy")):
        path = tmp_path / "rec.parquet"
        T.write_table(records, path, "opening_records", n=200, seed=3, policies=pols)
        df = plots.load_result(path)
        assert df["bot"].unique().to_list() == [bot]
        assert f"bot {bot}" in _footer(plots.plot_huxi_distribution(df))


def test_svg_is_reproducible(records, tmp_path):
    ax = plots.plot_huxi_distribution(records, lang="zh")
    plots.save_figure(ax, tmp_path / "a.svg")
    plots.save_figure(ax, tmp_path / "b.svg")
    plots.save_figure(plots.plot_huxi_distribution(records, lang="zh"), tmp_path / "c.svg")
    a = (tmp_path / "a.svg").read_bytes()
    assert a == (tmp_path / "b.svg").read_bytes() == (tmp_path / "c.svg").read_bytes()


def test_distinct_runs_stay_distinct_or_are_refused(deal):
    a, b = simulate_hands("guangxi-81", 100, 1), simulate_hands("guangxi-81", 100, 2)
    with pytest.raises(ValueError, match="nothing tells apart.*repeated variant key"):
        plots.plot_seat_shares(pl.concat([a, b]))  # two seeds, no seed column: refused
    seeded = pl.concat([a.with_columns(seed=pl.lit(1)), b.with_columns(seed=pl.lit(2))])
    ax = plots.plot_dealer_edge(seeded)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["guangxi-81 seed 1\n(duo)",
                                                            "guangxi-81 seed 2\n(duo)"]
    bots = pl.concat([a.with_columns(bot=pl.lit("greedy")), a.with_columns(bot=pl.lit("random"))])
    assert [t.get_text() for t in plots.plot_seat_shares(bots).get_xticklabels()] == [
        "guangxi-81 bot greedy", "guangxi-81 bot random"]
    with pytest.raises(ValueError, match="nothing tells apart"):
        plots.plot_tianhu_threshold(pl.concat([deal, deal]))  # a variant key given twice
    other_rules = deal.with_columns(pl.col("rules_hash") + "x")
    with pytest.raises(ValueError, match="differ in rules hash"):
        plots.plot_tianhu_threshold(pl.concat([deal, other_rules]))
    ax = plots.plot_fanxing(T.deal_table("guangxi-81", n=3000, seed=1, metrics=None)
                            .vstack(T.deal_table("guangxi-81", n=3000, seed=2, metrics=None)))
    assert legend_texts(ax) == ["guangxi-81 seed 1", "guangxi-81 seed 2"]
    # a deal table of 天胡/地胡 only, or a summary of a variant without 翻信: said as such
    for table in (T.deal_table("guangxi-81", n=1000, seed=1),
                  zs.simulate_deals("changsha-paohuzi", 1000, seed=1, progress=False).summary):
        with pytest.raises(ValueError, match="this table has no 翻信 rows"):
            plots.plot_fanxing(table)


def test_cli_plot_from_saved_results(deal, records, tmp_path, capsys):
    dpath, rpath = tmp_path / "deal.parquet", tmp_path / "rec.parquet"
    T.write_table(deal, dpath, "deal")
    T.write_table(records, rpath, "opening_records")
    for kind, src, out in (("tianhu-threshold", dpath, "a.png"), ("huxi", rpath, "b.svg"),
                           ("scores", rpath, "c.png"), ("fanxing", rpath, "d.png")):
        code, _, err = run(["plot", kind, "--from", str(src), "--out", str(tmp_path / out),
                            "--title", "test"], capsys)
        assert code == 0, err
        assert (tmp_path / out).stat().st_size > 1000


def test_cli_plot_simulate_and_balance_files(tmp_path, capsys):
    """A ``simulate`` summary has no variant column (its metadata names it); balance files come
    from ``zipai-sim balance``."""
    sim = tmp_path / "sim.parquet"
    code, _, err = run(["simulate", "--variant", "liuhu-dao", "--deals", "20000", "--out",
                        str(sim)], capsys)
    assert code == 0, err
    code, _, err = run(["plot", "fanxing", "--from", str(sim), "--out",
                        str(tmp_path / "f.png")], capsys)
    assert code == 0, err
    bal = tmp_path / "bal.parquet"
    code, _, err = run(["balance", "--variants", "guangxi-81", "--hands", "100", "--out",
                        str(bal)], capsys)
    assert code == 0, err
    for kind in ("seat-shares", "dealer-edge"):
        code, _, err = run(["plot", kind, "--from", str(bal), "--out",
                            str(tmp_path / f"{kind}.svg")], capsys)
        assert code == 0, err


@pytest.mark.parametrize("argv,needle", [
    (["plot", "huxi", "--from", "/no/such.parquet", "--out", "x.png"], "no such file"),
    (["plot", "huxi", "--from", "README.md", "--out", "x.gif"], ".png or .svg"),
    (["plot", "pie", "--from", "a", "--out", "x.png"], "invalid choice"),
    (["plot", "huxi", "--from", "tests", "--out", "x.png"], "tests is a folder"),
])
def test_cli_plot_errors(argv, needle, capsys):
    code, _, err = run(argv, capsys)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and needle in err


def test_cli_plot_wrong_table(tmp_path, capsys):
    path = tmp_path / "w.parquet"
    T.write_table(T.calculate("一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十", "guangxi-81"), path)
    code, _, err = run(["plot", "dealer-edge", "--from", str(path), "--out",
                        str(tmp_path / "x.png")], capsys)
    assert code == 2 and "balance table" in err and len(err.strip().splitlines()) == 1


def test_cli_plot_lang_and_log(deal, tmp_path, capsys):
    path = tmp_path / "deal.parquet"
    T.write_table(deal, path, "deal", n=3000)
    code, _, err = run(["plot", "tianhu-threshold", "--from", str(path), "--lang", "zh", "--log",
                        "--out", str(tmp_path / "t.svg")], capsys)
    assert code == 0, err
    svg = (tmp_path / "t.svg").read_text()
    assert "起胡 10/15/20" in svg and "<dc:date>" not in svg  # the footer, in the metadata
    code, _, err = run(["plot", "huxi", "--from", str(path), "--log", "--out",
                        str(tmp_path / "h.png")], capsys)
    assert code == 2 and "--log applies to `plot tianhu-threshold` only" in err
    code, _, err = run(["plot", "huxi", "--from", str(path), "--lang", "fr", "--out",
                        str(tmp_path / "h.png")], capsys)
    assert code == 2 and "invalid choice" in err


def test_cli_plot_several_files(deal, tmp_path, capsys):
    """Several --from files: the same run twice, or one file twice, is refused in one line;
    runs that differ (here the seed) are drawn apart, their labels saying how."""
    a, b, c = (tmp_path / f"{x}.parquet" for x in "abc")
    T.write_table(deal, a, "deal", n=3000)
    T.write_table(deal, b, "deal", n=3000)
    T.write_table(T.deal_table(["guangxi-dazipai", "changsha-paohuzi"], n=3000, seed=2,
                               thresholds=[10, 15, 20]), c, "deal", n=3000)
    out = str(tmp_path / "x.png")
    for files, needle in (([a, b], "a.parquet and b.parquet hold the same run"),
                          ([a, a], "is given twice")):
        code, _, err = run(["plot", "tianhu-threshold", "--from", *map(str, files), "--out",
                            out], capsys)
        assert code == 2 and needle in err and len(err.strip().splitlines()) == 1, err
    code, _, err = run(["plot", "tianhu-threshold", "--from", str(a), str(c), "--out", out],
                       capsys)
    assert code == 0, err
    ax = plots.plot_tianhu_threshold(plots.load_result([a, c]))
    assert legend_texts(ax) == ["changsha-paohuzi seed 1", "changsha-paohuzi seed 2",
                                "guangxi-dazipai seed 1", "guangxi-dazipai seed 2"]


def test_a_rows_sample_is_counted_as_its_hands(tmp_path, capsys):
    """balance --rows keeps the first K hands of every chunk: a figure drawn from that file
    counts the sampled hands (its distinct deals), not the run's n."""
    out = tmp_path / "b.parquet"
    code, _, err = run(["balance", "--variants", "guangxi-81", "--hands", "600", "--rows", "4",
                        "--out", str(out)], capsys)
    assert code == 0, err
    rows = pl.read_parquet(tmp_path / "b.rows.parquet")
    sampled = rows["deal"].n_unique()
    assert sampled < 600
    foot = _footer(plots.plot_huxi_distribution(plots.load_result(tmp_path / "b.rows.parquet")))
    assert f"n = {sampled:,} hands" in foot and "n = 600" not in foot


# --- issue 40: the chance to win at each decision of an analysed hand ---

def analysis_frame(variant: str | None = "guangxi-81") -> pl.DataFrame:
    """A hand-made ``Analysis.table()``: seats 0 and 1, four decisions each (interleaved), two or
    three answers a decision; seat 0's decision 2 and seat 1's decision 5 are clear mistakes
    (``loss_lo > 0``), 5 the costlier; decision 7 is a typed position (nothing played)."""
    rows = []
    # decision, seat, [(answer, win, loss, loss_lo, played, best), ...]
    plan = [(0, 0, [("七", .40, 0.0, 0.0, True, True), ("八", .35, .5, -.2, False, False)]),
            (1, 1, [("pass", .30, 0.0, 0.0, True, True), ("peng", .28, .2, -.4, False, False)]),
            (2, 0, [("三", .20, 1.5, .4, True, False), ("四", .45, 0.0, 0.0, False, True),
                    ("五", .41, .3, -.1, False, False)]),
            (3, 1, [("chi", .33, .1, -.3, True, False), ("pass", .35, 0.0, 0.0, False, True)]),
            (4, 0, [("九", .50, 0.0, 0.0, True, True), ("十", .48, .1, -.2, False, False)]),
            (5, 1, [("pass", .10, 3.2, 1.1, True, False), ("hu", .90, 0.0, 0.0, False, True)]),
            (6, 0, [("二", 1.0, 0.0, 0.0, True, True), ("六", .95, .4, -.1, False, False)]),
            (7, 1, [("壹", .05, .2, -.6, False, False), ("贰", .08, 0.0, 0.0, False, True),
                    ("叁", .02, .9, -.2, False, False)])]
    for d, seat, answers in plan:
        for answer, win, loss, loss_lo, played, best in answers:
            rows.append({"decision": d, "move": 2 * d, "seat": seat, "kind": "discard",
                         "card": None, "answer": answer, "value": -loss, "value_lo": -loss - 1,
                         "value_hi": -loss + 1, "loss": loss, "loss_lo": loss_lo,
                         "loss_hi": loss + 1, "win": win, "win_lo": max(0.0, win - .1),
                         "win_hi": min(1.0, win + .1), "played": played, "best": best})
    df = pl.DataFrame(rows)
    return df.with_columns(pl.lit(variant).alias("variant")) if variant else df


@pytest.fixture(scope="module")
def analysis():
    return analysis_frame()


def win_lines(ax) -> dict[str, list[float]]:
    return {ln.get_label(): list(ln.get_ydata()) for ln in ax.lines if ln.get_gid() == "win"}


def test_win_chance_draws_the_played_rows(analysis, tmp_path):
    ax = plots.plot_win_chance(analysis)
    # the answer played at each decision, the typed position 7 its best answer
    assert win_lines(ax) == {"seat 0 (dealer)": [40.0, 20.0, 50.0, 100.0],
                             "seat 1": [30.0, 33.0, 10.0, 8.0]}
    xs = [list(ln.get_xdata()) for ln in ax.lines if ln.get_gid() == "win"]
    assert xs == [[0, 2, 4, 6], [1, 3, 5, 7]]
    bars = [c for c in ax.containers if type(c).__name__ == "ErrorbarContainer"]
    assert len(bars) == 2  # one Wilson interval set per seat
    segs = bars[0].lines[2][0].get_segments()
    assert np.array([(s[0][1], s[1][1]) for s in segs]) == pytest.approx(
        np.array([(30, 50), (10, 30), (40, 60), (90, 100)]))
    mistake, = (ln for ln in ax.lines if ln.get_gid() == "mistake")
    assert sorted(zip(mistake.get_xdata(), mistake.get_ydata())) == [(2, 20.0), (5, 10.0)]
    note, = ax.texts
    assert note.get_text() == "−3.2 duo" and note.xy == (5, 10.0)  # the costliest mistake
    assert ax.get_xlabel() == "decision (in the order asked)"
    assert ax.get_ylabel() == "chance to win the hand"
    assert ax.get_ylim() == (-3, 103)
    assert legend_texts(ax) == ["seat 0 (dealer)", "seat 1", "clear mistake (loss > 0 at 95%)",
                                "95% interval"]
    assert "n = 8 decisions" in _footer(ax)
    not_blank(ax, tmp_path / "w.png")


def test_win_chance_seat_and_chinese(analysis):
    ax = plots.plot_win_chance(analysis, seat=1, lang="zh")
    assert win_lines(ax) == {"下家": [30.0, 33.0, 10.0, 8.0]}
    assert ax.get_xlabel() == "决策序号 (按提问顺序)" and ax.get_ylabel() == "胡牌概率"
    assert legend_texts(ax) == ["下家", "明显失误 (95% 区间内损失 > 0)", "95% 区间"]
    assert ax.texts[0].get_text() == "−3.2 舵"
    ax = plots.plot_win_chance(analysis, seat=0, lang="zh")
    assert list(win_lines(ax)) == ["庄家"]
    assert ax.texts[0].get_text() == "−1.5 舵"  # seat 0's only clear mistake
    _, given = plt.subplots()
    assert plots.plot_win_chance(analysis, ax=given, unit="油") is given
    assert given.texts[0].get_text() == "−3.2 you"  # a Chinese unit named in pinyin in English


def test_win_chance_unknown_variant_and_no_mistake():
    df = analysis_frame(variant=None).with_columns(
        pl.when(pl.col("loss_lo") > 0).then(0.0).otherwise(pl.col("loss_lo")).alias("loss_lo"))
    ax = plots.plot_win_chance(df, lang="zh")
    assert list(win_lines(ax)) == ["庄家", "1 号位"]  # no variant: the table size is unknown
    assert not ax.texts and not [ln for ln in ax.lines if ln.get_gid() == "mistake"]


@pytest.mark.parametrize("change,needle", [
    (lambda d: d.drop("win"), "not an analysis file: missing column 'win'"),
    (lambda d: d.drop("win_lo", "played"), "missing columns 'win_lo', 'played'"),
    (lambda d: d.clear(), "no decisions to plot"),
    (lambda d: pl.concat([d.with_columns(pl.lit(s).alias("seed")) for s in (1, 2)]),
     "one analysed hand; these rows hold 2"),
])
def test_win_chance_errors(analysis, change, needle):
    with pytest.raises(ValueError, match=needle):
        plots.plot_win_chance(change(analysis))
    with pytest.raises(ValueError, match="seat 2 is not in the analysis: it has seats 0, 1"):
        plots.plot_win_chance(analysis, seat=2)
    with pytest.raises(ValueError, match="lang must be"):
        plots.plot_win_chance(analysis, lang="fr")


def test_cli_plot_win_chance(tmp_path, capsys):
    from zipai_sim.cli.app import main
    from zipai_sim.runs.io import write_parquet

    p = tmp_path / "analysis.parquet"
    write_parquet(analysis_frame(variant=None), p, {"unit": "舵", "variants": "guangxi-81",
                                                   "n": "8", "seed": "5", "policies": "study"})
    assert main(["plot", "win-chance", "--from", str(p), "--out", str(tmp_path / "w.png")]) == 0
    assert (tmp_path / "w.png").stat().st_size > 1000
    meta = plots.read_figure_metadata(tmp_path / "w.png")
    assert meta["variants"] == "guangxi-81" and "n = 8 decisions" in meta["Description"]
    code, _, err = run(["plot", "win-chance", "--from", str(p), "--seat", "1", "--lang", "zh",
                        "--out", str(tmp_path / "w.svg")], capsys)
    assert code == 0, err
    code, _, err = run(["plot", "win-chance", "--from", str(p), "--seat", "3", "--out",
                        str(tmp_path / "x.png")], capsys)
    assert code == 2 and "seat 3 is not in the analysis" in err
    assert len(err.strip().splitlines()) == 1
    code, _, err = run(["plot", "huxi", "--from", str(p), "--seat", "1", "--out",
                        str(tmp_path / "x.png")], capsys)
    assert code == 2 and "--seat applies to `plot scores / win-chance` only" in err
    bal = tmp_path / "other.parquet"
    write_parquet(analysis_frame().drop("win"), bal, {})
    code, _, err = run(["plot", "win-chance", "--from", str(bal), "--out",
                        str(tmp_path / "x.png")], capsys)
    assert code == 2 and "not an analysis file: missing column 'win'" in err
