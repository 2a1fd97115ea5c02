"""Figures (issue 4 §2): each helper draws a small real result on the Agg backend, returns its
Axes with the labels and legend its docstring promises, and the saved image is not blank; the
``zipai-sim plot`` command renders saved Parquet results."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.image as mpimg
import matplotlib.pyplot as plt
import numpy as np
import polars as pl
import pytest
from test_cli import run

import zipai_sim as zs
from zipai_sim import plots
from zipai_sim import tables as T
from zipai_sim.play.balance import simulate_hands


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
    # the shares of one variant's winning hands add up to 1
    y = ax.get_lines()[0].get_ydata()
    assert y.sum() == pytest.approx(1.0)
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
    assert ax.get_xlabel() == "deals (n)" and ax.get_ylabel() == "tianhu rate"
    assert ax.get_xscale() == "log"
    assert legend_texts(ax) == ["changsha-paohuzi", "95% interval"]
    not_blank(ax, tmp_path / "c.png")


def test_score_distribution(records, balance, tmp_path):
    ax = plots.plot_score_distribution(records, seat=1)
    assert ax.get_xlabel() == "score of seat 1 (units per hand)"
    assert ax.get_ylabel() == "share of hands"
    assert legend_texts(ax) == ["guangxi-81 (duo)", "liuhu-dao (hu)"]
    assert ax.get_lines()[0].get_ydata().sum() == pytest.approx(1.0)
    not_blank(ax, tmp_path / "d.png")


def test_save_figure_refuses_other_formats(deal, tmp_path):
    ax = plots.plot_tianhu_threshold(deal)
    with pytest.raises(ValueError, match=".png or .svg"):
        plots.save_figure(ax, tmp_path / "x.jpg")




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
