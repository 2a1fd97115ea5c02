"""``compare`` (issue 9 §3): paired differences of balance metrics between runs on the same
hands, checked against the per-hand rows of ``simulate_hands`` and scipy's paired t test."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats
from test_cli import assert_one_line_error, run

import zipai_sim as zs
from zipai_sim.game.variants import load_variant
from zipai_sim.runs.io import read_metadata
from zipai_sim.studies.compare import compare, metric_names


def _per_hand(v, n, seed, cs) -> dict[str, np.ndarray]:
    """Per-hand metrics from simulate_hands' rows (every hand kept: rows = chunk size)."""
    _, rows = zs.simulate_hands(v, n, seed, chunk_size=cs, rows=cs, progress=False)
    rows = rows.sort("deal")
    seats = v.layout.players
    out = {f"score_seat{s}": rows[f"pay_seat{s}"].to_numpy() for s in range(seats)}
    winner = rows["winner"].to_numpy()
    co = rows["cowinners"].to_list()
    for s in range(seats):
        out[f"win_seat{s}"] = np.array([w == s or (c is not None and str(s) in str(c))
                                        for w, c in zip(winner, co)], np.int64)
    how = rows["how"].fill_null("").to_numpy()
    out |= {"huangzhuang": (winner < 0).astype(np.int64), "zimo": (how == "zimo") * 1,
            "fangpao": (how == "fangpao") * 1, "tianhu": rows["tianhu"].to_numpy() * 1,
            "dihu": rows["dihu"].to_numpy() * 1, "draws": rows["draws"].to_numpy()}
    return out


def test_paired_differences_match_the_per_hand_rows():
    v = load_variant("guangxi-dazipai")
    n, seed, cs = 400, 9, 100
    t = compare(v, n, seed, thresholds=[15, 30], chunk_size=cs)
    assert t.height == len(metric_names(3)) and set(t["threshold"]) == {30}
    a, b = _per_hand(v.with_threshold(15), n, seed, cs), _per_hand(v.with_threshold(30), n,
                                                                      seed, cs)
    for r in t.iter_rows(named=True):
        x, y = b[r["metric"]].astype(float), a[r["metric"]].astype(float)
        d = x - y
        assert r["n"] == n and r["diff"] == pytest.approx(d.mean(), abs=1e-12), r["metric"]
        assert r["mean"] == pytest.approx(x.mean()) and r["baseline_mean"] == pytest.approx(
            y.mean())
        if d.std() == 0:
            assert r["ci_low"] == r["ci_high"] == r["diff"]
            continue
        test = stats.ttest_rel(x, y)
        ci = test.confidence_interval(0.95)
        assert r["p_value"] == pytest.approx(test.pvalue, rel=1e-9), r["metric"]
        assert (r["ci_low"], r["ci_high"]) == pytest.approx((ci.low, ci.high), rel=1e-9)


def test_holm_over_the_whole_table():
    t = compare("guangxi-dazipai", 300, 2, thresholds=[15, 20, 30], chunk_size=100)
    p = t["p_value"].to_numpy()
    m = len(p)
    order = np.argsort(p)
    # Holm by hand: the i-th smallest p times (m − i), made non-decreasing, capped at 1
    want = np.minimum(np.maximum.accumulate(p[order] * (m - np.arange(m))), 1)
    assert np.allclose(t["p_holm"].to_numpy()[order], want)
    assert t["holm"].to_list() == [x < 0.05 for x in t["p_holm"]]


def test_a_run_against_itself_differs_by_nothing():
    t = compare(["changsha-paohuzi", "changsha-paohuzi"], 200, 1, chunk_size=50)
    assert set(t["diff"]) == {0.0} and set(t["p_value"]) == {1.0}
    assert not any(t["holm"]) and (t["ci_low"] == t["ci_high"]).all()


def test_scores_in_different_units_are_not_subtracted():
    t = compare(["guangxi-81", "guangxi-dazipai"], 100, 1, chunk_size=50)  # 舵 vs 油
    assert not any(m.startswith("score_") for m in t["metric"])
    assert "win_seat0" in t["metric"].to_list()
    assert any("different units (duo, you)" in x for x in t.notes)


def test_bad_runs_are_refused():
    with pytest.raises(ValueError, match="at least two runs"):
        compare("guangxi-81", 10)
    with pytest.raises(ValueError, match="same number of players"):
        compare(["guangxi-81", "liuhu-dao"], 10)
    with pytest.raises(ValueError, match="repeated"):
        compare("guangxi-dazipai", 10, thresholds=[15, 15, 20])
    with pytest.raises(ValueError, match="policies"):
        compare(["guangxi-81", "guangxi-dazipai"], 10, policies="mcts")


def test_cli_compare(tmp_path, capsys):
    out = tmp_path / "c.parquet"
    code, stdout, err = run(["compare", "--variants", "guangxi-dazipai", "--thresholds", "15",
                             "25", "--hands", "200", "--seed", "3", "--out", str(out)], capsys)
    assert code == 0, err
    head = stdout.splitlines()[0]
    assert "guangxi-dazipai at thresholds 15" in head and "200 hands" in head
    assert "| score_seat0 " in stdout and "Holm" in stdout
    df = pl.read_parquet(out)
    meta = read_metadata(out)
    assert df.height == len(metric_names(3)) and meta["n"] == "200"
    assert meta["thresholds"] == "15,25" and meta["partial"] == "false"
    assert_one_line_error(*run(["compare", "--variants", "guangxi-81", "--hands", "10"], capsys),
                          "at least two runs")
    # a run asked for twice would be compared with itself (every difference 0): refused
    assert_one_line_error(*run(["compare", "--variants", "guangxi-81", "guangxi-81", "--hands",
                                "10"], capsys), "guangxi-81 at threshold 15 is asked for twice")
