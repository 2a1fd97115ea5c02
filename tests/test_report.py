"""``zipai_sim.report``: the one number formatter, the header line, and results that display
themselves in Jupyter (issue 11).

Expected strings are worked out by hand: the Wilson interval from its closed form (below, not
scipy), the scale (per 10,000 or %), and the decimals that show the interval's width (or the
SE) to two significant digits.
"""

from __future__ import annotations

import inspect
import math

import polars as pl
import pytest

import zipai_sim as zs
from zipai_sim import report as R
from zipai_sim import tables as T

Z95 = 1.959963984540054  # the 97.5% normal quantile


def wilson(k: int, n: int) -> tuple[float, float]:
    """The Wilson score interval, closed form: (p + z²/2n ± z √(p(1−p)/n + z²/4n²)) / (1 + z²/n)."""
    p, z2 = k / n, Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return centre - half, centre + half


# --- the number formatter ---------------------------------------------------------------------

@pytest.mark.parametrize("k,n,scale,value,interval", [
    # 130/200,000 = 6.5 per 10,000; Wilson [5.475, 7.717]: width 2.24 → 1 decimal
    (130, 200_000, 10_000, "6.5", "[5.5, 7.7]"),
    # 12/200,000 = 0.60 per 10,000; [0.343, 1.049]: width 0.71 → 2 decimals
    (12, 200_000, 10_000, "0.60", "[0.34, 1.05]"),
    # 0/200,000: [0, 0.192] per 10,000: width 0.19 → 2 decimals
    (0, 200_000, 10_000, "0.00", "[0.00, 0.19]"),
    # 136/326 = 41.7%; [36.5, 47.1]: width 10.6 → no decimals
    (136, 326, 100, "42", "[36, 47]"),
    # 378/2,000 = 18.9%; [17.24, 20.67]: width 3.4 → 1 decimal
    (378, 2000, 100, "18.9", "[17.2, 20.7]"),
    # the same as a fraction: width 0.034 → 3 decimals
    (378, 2000, 1, "0.189", "[0.172, 0.207]"),
])
def test_rate_text_digits_follow_the_interval(k, n, scale, value, interval):
    lo, hi = wilson(k, n)
    assert R.rate_text(k / n, lo, hi, scale) == (value, interval)


def test_rate_text_without_interval_or_rate():
    assert R.rate_text(0.1646, None, None, 100) == ("16.5", "")   # 3 significant digits
    assert R.rate_text(None, None, None) == ("", "")
    assert R.rate_text(math.nan, math.nan, math.nan) == ("", "")


@pytest.mark.parametrize("mean,se,text", [
    (0.8252, 0.0469, "0.825 ± 0.047"),         # SE 0.047 (2 significant digits): 3 decimals
    (-1.5896, 0.00201, "-1.5896 ± 0.0020"),    # SE 0.0020: 4 decimals
    (14.6344, 0.12, "14.63 ± 0.12"),
    (6.0, 2.6, "6.0 ± 2.6"),
    (1234.5, 31.0, "1234 ± 31"),               # an SE ≥ 10: no decimals (round half to even)
    (8.0, 0.0, "8 ± 0"),                       # every value the same
    (0.5, math.nan, "0.5000"),                 # one value: no SE
])
def test_mean_text(mean, se, text):
    assert R.mean_text(mean, se) == text


def test_scales_and_per():
    assert R.scale_for("tianhu", None) == 10_000 and R.scale_for("dihu_seat1", None) == 10_000
    assert R.scale_for("haidi", None) == 10_000
    assert R.scale_for("win", None) == 100 and R.scale_for("fanxing_2", None) == 100
    assert R.scale_for("tianhu", 1) == 1
    assert [R.unit_label(s) for s in (10_000, 1000, 100, 1)] == ["per 10,000", "per 1,000", "%",
                                                                 "fraction"]
    assert R.check_per(None) is None and R.check_per(1000) == 1000
    for bad in (7, 0, -10, 10.0, True, "100"):
        with pytest.raises(ValueError, match="per must be a power of ten"):
            R.check_per(bad)


def test_header_fields_in_order_and_omitted_when_absent():
    h = R.header([("guangxi-81", "2bd4db2c7ba96a7d")], [15], seed=7, n=20_000, chunk_size=4096,
                 policies="greedy", threads=2, seconds=1.26, extra=["(5 deals/s)"])
    assert h == ("guangxi-81 (rules 2bd4db2c7ba96a7d), threshold 15, seed 7, 20,000 deals, "
                 "chunk 4,096, policy greedy, 2 threads, 1.3 s (5 deals/s)")
    assert R.header([("v", "h")], [10]) == "v (rules h), threshold 10"
    assert R.header([("v", "h")], [10], policies=["greedy", "random", "random"], n=3,
                    unit="matches") == "v (rules h), threshold 10, 3 matches, policies greedy, " \
                                       "random, random"
    # a threshold sweep names each run's rules hash with its threshold
    assert R.header([("dz", "a"), ("dz", "b")], [15, 20]) == \
        "dz at thresholds 15 (rules a), 20 (rules b)"


def test_flag_message_names_cli_flags():
    assert R.flag_message("max_hands must be ≥ 8, got 2") == "--max-hands must be ≥ 8, got 2"
    assert R.flag_message("points and start must be ≥ 1") == "--points and --start must be ≥ 1"
    # words that are not a parameter opening a complaint stay as they are
    assert R.flag_message("play simulation starts from the deal") == \
        "play simulation starts from the deal"


# --- one default seed -------------------------------------------------------------------------

def test_python_defaults_use_the_cli_seed():
    from zipai_sim.cli.app import build_parser

    for f in (zs.simulate_deals, zs.simulate_hands, zs.simulate_matches, zs.play_match,
              T.deal_table, T.convergence_table, T.opening_records, T.calculate):
        assert inspect.signature(f).parameters["seed"].default == 20261129, f.__name__
    assert R.DEFAULT_SEED == 20261129

    def seeds(parser):
        for a in parser._actions:
            if "--seed" in a.option_strings:
                yield a.default
            for sub in (a.choices or {}).values() if isinstance(a.choices, dict) else ():
                yield from seeds(sub)

    got = list(seeds(build_parser()))
    assert len(got) >= 9 and set(got) == {20261129}


# --- results that display themselves ----------------------------------------------------------

def test_simresult_report_and_html():
    r = zs.simulate_deals("guangxi-81", 20_000, seed=5, chunk_size=4096, progress=False)
    rep = r.report()
    assert rep.header.startswith("guangxi-81 (rules 2bd4db2c7ba96a7d), threshold 15, seed 5, "
                                 "20,000 deals, chunk 4,096, ")
    row = r.summary.filter(metric="tianhu").row(0, named=True)
    lo, hi = wilson(row["count"], 20_000)
    value, interval = R.rate_text(row["count"] / 20_000, lo, hi, 10_000)
    shown = rep.table.filter(metric="tianhu").row(0, named=True)
    assert (shown["unit"], shown["value"], shown["95% interval"]) == ("per 10,000", value,
                                                                      interval)
    text = str(rep)
    assert text.splitlines()[0] == rep.header and "胡息 of complete dealer hands" in text
    html = r._repr_html_()
    assert rep.header in html and "95% interval" in html and f"<td>{interval}</td>" in html
    assert r.report(per=100).table.filter(metric="tianhu")["unit"][0] == "%"


def test_balance_result_is_still_a_frame_and_shows_its_run():
    s = zs.simulate_hands("guangxi-81", 400, seed=1)
    assert isinstance(s, pl.DataFrame)
    assert s.filter(metric="win").select("seat", "count").rows() == [(0, 74), (1, 79), (2, 66)]
    assert pl.concat([s, s]).height == 2 * s.height   # callers that concatenate still work
    rep = s.report()
    assert rep.header.startswith("guangxi-81 (rules 2bd4db2c7ba96a7d), threshold 15, seed 1, "
                                 "400 hands, chunk 4,096, policy greedy, ")
    win0 = rep.table.filter(metric="win", seat="0").row(0, named=True)
    lo, hi = wilson(74, 400)   # 18.5% [15.0, 22.6]: width 7.6 → 1 decimal
    assert (win0["value"], win0["95% interval"]) == ("18.5", "[15.0, 22.6]")
    assert R.rate_text(74 / 400, lo, hi, 100) == ("18.5", "[15.0, 22.6]")
    assert rep.header in s._repr_html_()
    # a frame derived from it is a plain frame, shown as polars shows it
    assert type(s.filter(metric="win")) is pl.DataFrame


def test_match_result_html():
    m = zs.simulate_matches("hunan-hengyang", 3, seed=1, goal="yinghuzi")
    rep = m.report()
    assert rep.header.startswith("hunan-hengyang (rules ") and "threshold 10, seed 1, 3 matches"\
        in rep.header and "goal 硬胡子" in rep.header
    assert rep.header in m._repr_html_() and "match_win" in m._repr_html_()


def test_tables_show_their_run_and_legend():
    t = T.deal_table("guangxi-dazipai", n=2000, seed=1, thresholds=[15, 30])
    assert t.filter(metric="tianhu").select("threshold", "count", "n").rows() == \
        [(15, 2, 2000), (30, 0, 2000)]
    assert "guangxi-dazipai at thresholds 15 (rules " in t.report().header
    # 2 of 2,000 = 10 per 10,000, Wilson [2.7, 36.5]: width 34 → no decimals
    row = t.report().table.filter(metric="tianhu", threshold="15").row(0, named=True)
    assert (row["value"], row["95% interval"]) == ("10", "[3, 36]")
    w = T.calculate("一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十", "changsha-paohuzi")
    html = w._repr_html_()
    assert "changsha-paohuzi (rules" in html and "threshold 10" in html
    for word in ("p_exact (%)", "any: at least one of the winning cards"):
        assert word in html
    # unrun parts (no sims, no play) are neither shown nor explained
    assert "p_sim" not in html and "p_play" not in html
    # p_exact of 二: 0.6885 → 68.8 (%)
    assert w.report().table.filter(card="二")["p_exact"][0] == "68.8"


def test_ipython_picks_the_html_view():
    """Jupyter asks IPython's display formatter; it must find our HTML, not polars' own."""
    formatters = pytest.importorskip("IPython.core.formatters")
    s = zs.simulate_hands("guangxi-81", 100, seed=1)
    data, _ = formatters.DisplayFormatter().format(s)
    assert data["text/html"].startswith("<p><code>guangxi-81 (rules 2bd4db2c7ba96a7d), "
                                        "threshold 15, seed 1, 100 hands")
    assert "<th>95% interval</th>" in data["text/html"]
