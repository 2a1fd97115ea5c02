"""The fair-setting search (issue 41): ``studies.bracket`` on synthetic metrics whose crossing is
built in, and ``zs.fair`` on the 八一 荒庄 payment, whose crossing follows in closed form from
one run without any payment.

Closed form: with the dealer paying ``2x`` and each other seat receiving ``x`` on a 荒庄 (RULES.md
§7.2; the payment changes no move), the dealer's score on hand ``j`` is ``m_0(j) − 2x·h_j``, so on
``n`` decks its mean is ``M_0 − 2x·H/n`` and meets 0 at ``x* = M_0·n / (2H)``: ``M_0`` and ``H``
read from ``simulate_hands`` at ``x = 0`` (its own summary code), never from the search.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from test_cli import assert_one_line_error, run

import zipai_sim as zs
from zipai_sim.studies.bracket import bracket_search

HZ = {"settle.huangzhuang_dealer": -2}


def _synthetic(slope: float, cross: float, sd: float, common: bool):
    """``evaluate(x, n)``: per-hand values ``slope·(x − cross) + noise``; the noise of hand ``j``
    is the same at every ``x`` when ``common`` (common random numbers), else drawn per ``x``."""
    def evaluate(x: int, n: int) -> np.ndarray:
        rng = np.random.default_rng(7 if common else 1000 + x)
        return slope * (x - cross) + sd * rng.standard_normal(n)
    return evaluate


def test_the_search_finds_a_built_in_crossing_and_spends_hands_near_it():
    ans = bracket_search(_synthetic(1.0, 3.3, 5.0, common=False), 0, 10, 0.0, start=256,
                         max_n=1 << 16)
    assert ans.status == "crossing" and (ans.below, ans.above) == (3, 4)
    assert ans.ci_low <= 3.3 <= ans.ci_high and ans.closer == 3
    n = {p.x: p.n for p in ans.points}
    assert n[0] == n[10] == 256 and n[3] > 256  # far values are told at once
    assert ans.hands == sum(n.values())


def test_common_random_numbers_make_a_linear_metric_exact():
    """Noise shared across values cancels in the difference: the interpolated crossing is
    ``cross`` minus the mean noise over the slope, and nothing else."""
    ev = _synthetic(2.0, 6.25, 3.0, common=True)
    ans = bracket_search(ev, 0, 20, 0.0, start=512, max_n=1 << 15)
    noise = ev(0, ans.n_common) - 2.0 * (0 - 6.25)
    assert ans.estimate == pytest.approx(6.25 - noise.mean() / 2.0, abs=1e-9)


def test_no_value_in_range_unknown_and_on_target():
    ans = bracket_search(_synthetic(1.0, -4.0, 1.0, common=True), 0, 5, 0.0, start=64,
                         max_n=1024)
    assert ans.status == "none in range" and ans.side == "above"
    ans = bracket_search(_synthetic(0.0, 0.0, 50.0, common=False), 0, 5, 0.0, start=64,
                         max_n=256)
    assert ans.status == "unknown" and ans.points[0].n == 256
    ans = bracket_search(_synthetic(0.001, 2.0, 0.1, common=True), 0, 4, 0.0, start=4096,
                         max_n=1 << 16, tol=0.05)
    assert ans.status == "on target" and ans.estimate == 0.0
    with pytest.raises(ValueError):
        bracket_search(_synthetic(1, 0, 1, True), 3, 3, 0.0)


def test_fair_huangzhuang_payment_meets_the_closed_form():
    r = zs.fair("guangxi-81", "settle.huangzhuang_others", 0, 4, "score_seat0=0", link=HZ,
                seed=11)
    a = r.answer
    assert a.status == "crossing" and (a.above, a.below) == (0, 1)
    v0 = zs.load_variant("guangxi-81").with_knobs({"settle.huangzhuang_others": 0,
                                                   "settle.huangzhuang_dealer": 0})
    s = zs.simulate_hands(v0, a.n_common, 11)
    m0 = s.filter((pl.col("metric") == "score") & (pl.col("seat") == 0))["mean"][0]
    h = s.filter(pl.col("metric") == "huangzhuang")["rate"][0]
    assert a.estimate == pytest.approx(m0 / (2 * h), rel=1e-9)
    assert a.ci_low < a.estimate < a.ci_high and a.closer == 0
    assert r.points["n"].sum() == a.hands
    meta = r.metadata()
    assert meta["status"] == "crossing" and meta["knob"] == "settle.huangzhuang_others"


def test_fair_refuses_what_it_cannot_search():
    with pytest.raises(ValueError, match="unknown metric"):
        zs.fair("guangxi-81", "win.threshold", 10, 20, "score_seat9=0")
    with pytest.raises(zs.VariantError, match="link"):
        zs.fair("guangxi-81", "settle.huangzhuang_dealer", -8, 0)


def test_fair_on_the_command_line(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(["fair", "--knob", "settle.huangzhuang_others", "--link",
                          "settle.huangzhuang_dealer=-2", "--range", "0", "2", "--seed", "11",
                          "--start-hands", "4096", "--out", "f.parquet"], capsys)
    assert code == 0, err
    assert "crossed between settle.huangzhuang_others = 1 (below) and 0 (above)" in out
    meta = pl.read_parquet_metadata("f.parquet")
    assert meta["status"] == "crossing" and (meta["below"], meta["above"]) == ("1", "0")
    assert_one_line_error(*run(["fair", "--knob", "win.threshold", "--range", "5", "5"],
                               capsys), "--range")
    assert_one_line_error(*run(["fair", "--knob", "win.threshold", "--range", "10", "20",
                                "--link", "settle.x=two"], capsys), "--link")


def test_an_undecided_value_inside_keeps_the_bracket_and_an_estimate():
    """The crossing sits on 3 itself: no hand count tells 3's side, but 2 and 4 are told, and
    the interpolation between them holds 3."""
    ans = bracket_search(_synthetic(1.0, 3.0, 2.0, common=False), 0, 8, 0.0, start=256,
                         max_n=2048)
    assert ans.status == "unknown" and ans.undecided == 3
    assert (ans.below, ans.above) == (2, 4) and ans.ci_low <= 3.0 <= ans.ci_high
    assert not ans.closer_sure


def test_fair_resumes_from_its_checkpoint_without_playing_again(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["fair", "--knob", "settle.huangzhuang_others", "--link",
            "settle.huangzhuang_dealer=-2", "--range", "0", "2", "--seed", "3",
            "--start-hands", "4096", "--max-hands", "8192"]
    code, first, err = run([*args, "--out", "a.parquet", "--checkpoint", "ck"], capsys)
    assert code == 0, err

    def no_play(*a, **k):
        raise AssertionError("a resumed search played a hand")

    monkeypatch.setattr("zipai_sim.studies.fair.play_chunks", no_play)
    code, again, err = run([*args, "--out", "b.parquet", "--resume", "ck"], capsys)
    assert code == 0, err
    # the same table and answer (the header's seconds and the file written differ)
    assert first.splitlines()[1:-1] == again.splitlines()[1:-1]
    assert pl.read_parquet("a.parquet").equals(pl.read_parquet("b.parquet"))
