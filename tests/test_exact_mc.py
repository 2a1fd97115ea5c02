"""Monte Carlo (simulate_deals) against the exact tables (zipai_sim.exact.opening), every metric.

The exact values come from the enumeration, checked on reduced decks against a plain-Python
brute force (test_exact.py); here an independent engine, the dealing kernel, must agree with
them. Rates: an exact two-sided binomial test at the 4σ level (p ≥ 6.3e-5), which stays valid
for the rare 胡息 bins; means: |z| ≤ 4 with the run's standard error.
"""

import math

import pytest
from scipy.stats import binomtest, norm

import zipai_sim as zs
from zipai_sim.exact.opening import stored

ALPHA = 2 * norm.sf(4)
VARIANTS = zs.list_variants()


def _check(key, n, seed, threshold=None):
    v = zs.load_variant(key)
    if threshold is not None:
        v = v.with_threshold(threshold)
    exact = stored(zs.load_variant(key))
    assert exact is not None, f"no shipped exact table for {key}"
    r = zs.simulate_deals(v, n, seed=seed, progress=False)
    cmp = zs.compare_exact(exact, r.summary, v.win.threshold)
    summary = {row["metric"]: row for row in r.summary.iter_rows(named=True)}
    bad = []
    for row in cmp.iter_rows(named=True):
        s = summary[exact.filter(metric=row["metric"])["simulate_metric"][0]]
        if s["mean"] is not None:
            if s["n"] > 30 and abs(row["z"]) > 4:
                bad.append((row["metric"], row["exact"], row["estimate"], row["z"]))
            continue
        pv = binomtest(int(s["count"]), int(s["n"]), min(max(row["exact"], 0.0), 1.0)).pvalue \
            if s["n"] else 1.0
        if pv < ALPHA:
            bad.append((row["metric"], row["exact"], row["estimate"], row["z"]))
    # every simulate rate that the exact table covers was compared
    assert cmp.height >= 20
    assert not bad, bad
    return cmp


@pytest.mark.parametrize("key", VARIANTS)
def test_simulate_agrees_with_exact(key):
    cmp = _check(key, 10_000_000, seed=20261201)
    names = set(cmp["metric"])
    assert {"tianhu", "dealer_complete", "dihu_seat", "santi_seat1"} <= names


@pytest.mark.slow
@pytest.mark.parametrize("key", VARIANTS)
def test_simulate_agrees_with_exact_1e8(key):
    for t in zs.load_variant(key).win.thresholds:
        cmp = _check(key, 100_000_000, seed=20261202 + t, threshold=t)
        assert set(cmp.filter(threshold=t)["metric"]) >= {"tianhu", "dihu_seat"}


def test_compare_needs_a_threshold_when_several():
    exact = stored(zs.load_variant("guangxi-dazipai"))
    r = zs.simulate_deals("guangxi-dazipai", 1000, seed=1, progress=False)
    with pytest.raises(ValueError, match="pass threshold"):
        zs.compare_exact(exact, r.summary)
    out = zs.compare_exact(exact, r.summary, 15)
    assert out.filter(metric="tianhu")["exact"][0] == pytest.approx(
        exact.filter(metric="tianhu", threshold=15)["probability"][0])
    assert math.isfinite(out.filter(metric="tianhu")["se"][0])


def test_compare_takes_the_run_and_refuses_another_variants_table():
    """A SimResult brings its threshold; an exact_opening table knows its variant, so a run of
    another variant is refused instead of giving z scores against the wrong truth."""
    exact = zs.exact_opening("guangxi-dazipai")  # customary thresholds: several
    r = zs.simulate_deals("guangxi-dazipai", 1000, seed=1, progress=False)
    assert zs.compare_exact(exact, r).equals(zs.compare_exact(exact, r.summary, r.threshold))
    with pytest.raises(ValueError, match="but the run was at"):
        zs.compare_exact(exact, r, r.threshold + 5)
    other = zs.simulate_deals("hunan-hengyang", 1000, seed=1, progress=False)
    with pytest.raises(ValueError, match="the exact table is guangxi-dazipai's and the run "
                                         "hunan-hengyang's"):
        zs.compare_exact(exact, other)
