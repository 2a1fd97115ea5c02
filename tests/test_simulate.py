"""``simulate_deals``: chunking, reproducibility, Ctrl-C, summaries and Parquet output.

Expected values come from the rules (RULES.md §4, §6, §7.3, §9), from exact reasoning about the
chunk scheme documented in ``zipai_sim.runs.chunks`` (deal ``i`` depends on ``(seed, chunk_size, i)``
only), from the closed-form Wilson interval, or from the pure-Python ``zipai_sim.game.reference``
twin; never from a value the code under test printed earlier.
"""

from __future__ import annotations

import math
import os

import numba
import numpy as np
import polars as pl
import pytest

import zipai_sim
import zipai_sim.deals.simulate as zsim
from zipai_sim.game import reference as ref
from zipai_sim.game.cards import card_name
from zipai_sim.game.variants import VariantError, load_variant
from zipai_sim.runs.chunks import chunk_keys
from zipai_sim.runs.io import read_metadata
from zipai_sim.stats import wilson

CS = 4096  # small chunks, so that every run below spans several of them
Z = 1.959963984540054  # Φ⁻¹(0.975)

# deal-level metrics: their n is the number of deals
DEAL_METRICS = ["tianhu", "tianhu_complete", "tianhu_santi", "tianhu_wukan",
                "tianhu_extra_card", "dihu", "instant_nondealer", "dealer_two_ti",
                "dealer_complete"]
FANXING_RATES = ["fanxing_0", "fanxing_1", "fanxing_2", "fanxing_3", "fanxing_4plus"]


def sim(variant="guangxi-81", n=100_000, seed=7, **kw):
    kw.setdefault("chunk_size", CS)
    kw.setdefault("progress", False)
    return zipai_sim.simulate_deals(variant, n, seed, **kw)


def metric(summary: pl.DataFrame, name: str) -> dict:
    rows = summary.filter(pl.col("metric") == name)
    assert rows.height == 1, f"metric {name!r} appears {rows.height} times"
    return rows.row(0, named=True)


@pytest.fixture(scope="module")
def runs() -> dict[str, zipai_sim.SimResult]:
    """One 200 000-deal run per variant the partition tests look at (0.2 s each)."""
    return {v: sim(v, 200_000, 11) for v in ("guangxi-81", "guangxi-dazipai", "hunan-hengyang",
                                           "liuhu-dao")}


# --- thread count, reproducibility, prefix ----------------------------------------------------

def test_threads_do_not_change_the_result():
    before = numba.get_num_threads()
    r1 = sim(n=150_000, seed=3, threads=1, sample_per_chunk=2)
    r2 = sim(n=150_000, seed=3, threads=2, sample_per_chunk=2)
    assert numba.get_num_threads() == before  # the run restores numba's thread setting
    assert (r1.n, r2.n) == (150_000, 150_000)
    assert np.array_equal(r1.counts, r2.counts)
    assert np.array_equal(r1.huxi_hist, r2.huxi_hist)
    assert r1.summary.equals(r2.summary)
    assert r1.rows.equals(r2.rows)


def test_same_call_is_reproducible_and_seed_matters():
    a = sim(n=60_000, seed=123)
    b = sim(n=60_000, seed=123)
    c = sim(n=60_000, seed=124)
    assert np.array_equal(a.counts, b.counts)
    assert np.array_equal(a.huxi_hist, b.huxi_hist)
    assert a.summary.equals(b.summary)
    assert not np.array_equal(a.counts, c.counts)


def test_a_run_is_a_prefix_of_any_longer_run():
    c, k = 1000, 3
    n1 = 3 * c                     # a multiple of the chunk size: chunks 0, 1, 2
    n2 = 5 * c + 2                 # chunk 5 holds 2 deals, fewer than k
    short = sim(n=n1, seed=99, chunk_size=c, sample_per_chunk=k)
    long = sim(n=n2, seed=99, chunk_size=c, sample_per_chunk=k)
    # the first k deals of every chunk, by hand
    assert short.rows["deal"].to_list() == [ch * c + j for ch in range(3) for j in range(k)]
    assert long.rows["deal"].to_list() == ([ch * c + j for ch in range(5) for j in range(k)]
                                           + [5 * c, 5 * c + 1])
    shared = long.rows.filter(pl.col("deal") < n1)
    assert shared.equals(short.rows)

    # ``deal`` re-creates the same deals: its 亮张 is the sampled rows' 亮张
    d = zipai_sim.deal(n2, "guangxi-81", 99, chunk_size=c)
    idx = np.array(long.rows["deal"].to_list())
    assert [card_name(int(x)) for x in d.liangzhang[idx]] == long.rows["liangzhang"].to_list()
    # §2: the 亮张 is the dealer's 21st card, so the dealer holds it
    assert all(d.hands[i, 0, d.liangzhang[i]] >= 1 for i in idx)
    assert (d.hands[:, 0].sum(axis=1) == 21).all() and (d.hands[:, 1:].sum(axis=2) == 20).all()
    d1 = zipai_sim.deal(n1, "guangxi-81", 99, chunk_size=c)
    assert np.array_equal(d1.hands, d.hands[:n1]) and np.array_equal(d1.stock, d.stock[:n1])


@pytest.mark.parametrize("variant", ["guangxi-81", "guangxi-dazipai", "hunan-hengyang",
                                     "changsha-paohuzi", "liuhu-dao"])
def test_sampled_rows_match_the_reference_and_add_up_to_the_counts(variant):
    """Every deal sampled (sample_per_chunk = chunk size): the rows must add up to the counts,
    and each row with an event, plus a spread of the others, must match the pure-Python
    reference deal (``reference.shuffled_deck`` + ``opening_outcome``, written from RULES.md)."""
    n, c = 20_000, CS
    r = sim(variant, n, 5, chunk_size=c, sample_per_chunk=c)
    rows = r.rows
    assert rows.height == n and rows["deal"].to_list() == list(range(n))
    s = r.summary
    assert (rows["tianhu"] != "").sum() == metric(s, "tianhu")["count"]
    for kind in ("complete", "santi", "wukan"):
        assert (rows["tianhu"] == kind).sum() == metric(s, f"tianhu_{kind}")["count"]
    assert rows["dihu_seat"].is_not_null().sum() == metric(s, "dihu")["count"]
    assert rows["dealer_huxi"].is_not_null().sum() == metric(s, "dealer_complete")["count"]
    fx = rows["fanxing"].drop_nulls()
    if r.fanxing:
        assert fx.len() == metric(s, "fanxing_mean")["count"]
        assert metric(s, "fanxing_mean")["mean"] == pytest.approx(fx.mean())
    else:
        assert fx.len() == 0

    P = load_variant(variant).params
    keys = chunk_keys(5, 0, -(-n // c))
    event = (rows["tianhu"] != "") | rows["dihu_seat"].is_not_null() | \
        rows["dealer_huxi"].is_not_null()
    picked = set(rows.filter(event)["deal"].to_list()) | set(range(0, n, 37))
    assert len(picked) > 540
    for row in rows.filter(pl.col("deal").is_in(sorted(picked))).iter_rows(named=True):
        i = row["deal"]
        deck = ref.shuffled_deck(int(keys[i // c]), i % c)
        want = ref.opening_outcome(deck, P)
        _, _, lz = ref.deal_from_deck(deck, P)
        got = (row["liangzhang"], row["tianhu"], row["dealer_huxi"], row["dihu_seat"],
               row["fanxing"])
        assert got == (card_name(lz), want["tianhu"],
                       None if want["dealer_huxi"] < 0 else want["dealer_huxi"],
                       None if want["dihu_seat"] < 0 else want["dihu_seat"],
                       want["fanxing"]), f"deal {i}"


# --- summaries -------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", ["guangxi-81", "guangxi-dazipai", "hunan-hengyang",
                                     "liuhu-dao"])
def test_summary_partitions_and_consistency(runs, variant):
    r = runs[variant]
    s = r.summary
    n = 200_000
    assert r.n == r.n_requested == n and not r.partial
    get = {name: metric(s, name) for name in s["metric"]}
    cnt = {name: row["count"] for name, row in get.items()}
    # §6/§9: 天胡 is split into complete hands and the two instant shapes
    assert cnt["tianhu"] == cnt["tianhu_complete"] + cnt["tianhu_santi"] + cnt["tianhu_wukan"]
    assert cnt["tianhu_extra_card"] <= cnt["tianhu_complete"]
    assert cnt["tianhu"] > 0 and cnt["dihu"] > 0  # ~0.05–0.2 %: hundreds in 200 000 deals
    seats = 4 if variant == "liuhu-dao" else 3
    per_seat = [f"{m}_seat{x}" for x in range(seats) for m in ("santi", "wukan", "two_ti")]
    assert f"santi_seat{seats}" not in get
    # two 提 at the deal is exactly the dealer's two_ti shape
    assert cnt["dealer_two_ti"] == cnt["two_ti_seat0"]
    for name in DEAL_METRICS + per_seat:
        row = get[name]
        assert row["n"] == n, name
        assert row["rate"] == row["count"] / n, name
    # 地胡 (no 天胡, seats in turn) happens only where some seat wins judged alone
    alone = [cnt[f"dihu_seat{x}"] for x in range(1, seats)]
    assert max(alone) <= cnt["dihu"] + cnt["tianhu"] and cnt["dihu"] <= sum(alone)
    if r.fanxing:  # 翻信 given a 天胡 is turned for every 天胡
        assert get["fanxing_tianhu_mean"]["n"] == cnt["tianhu"]
        assert sum(cnt[f"fanxing_tianhu_{k}"] for k in ("0", "1", "2", "3", "4plus")) \
            == cnt["tianhu"]
    for name, row in get.items():
        if name in ("fanxing_mean", "fanxing_tianhu_mean"):
            continue
        assert row["rate"] == row["count"] / row["n"], name
        assert row["ci_low"] <= row["rate"] <= row["ci_high"], name
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(
            wilson_closed(row["count"], row["n"]), rel=1e-9, abs=1e-12), name
        assert row["mean"] is None and row["se"] is None, name
    # 胡息 distribution of complete dealer hands
    huxi = {int(name.removeprefix("dealer_huxi_")): row for name, row in get.items()
            if name.startswith("dealer_huxi_")}
    assert sum(row["count"] for row in huxi.values()) == cnt["dealer_complete"]
    assert all(row["n"] == cnt["dealer_complete"] for row in huxi.values())
    # §4: at the deal every group scores 0, 3, 6, 9 or 12 (runs, 二七十, 坎, 提): multiples of 3
    assert huxi and all(h % 3 == 0 for h in huxi)
    dist = r.huxi_distribution
    assert dist["huxi"].to_list() == sorted(huxi)
    assert dist["count"].to_list() == [huxi[h]["count"] for h in sorted(huxi)]
    # a complete dealer hand at or above the threshold is a 天胡 (complete, or instant when the
    # shape is also instant), and a complete 天胡 on 21 cards is such a hand
    thr = load_variant(variant).win.threshold
    at_least = sum(row["count"] for h, row in huxi.items() if h >= thr)
    on21 = cnt["tianhu_complete"] - cnt["tianhu_extra_card"]
    assert on21 <= at_least <= on21 + cnt["tianhu_santi"] + cnt["tianhu_wukan"]


@pytest.mark.parametrize("variant", ["guangxi-81", "liuhu-dao"])
def test_fanxing_metrics_present_when_enabled(runs, variant):
    s = runs[variant].summary
    assert runs[variant].fanxing
    mean = metric(s, "fanxing_mean")
    dist = [metric(s, name) for name in FANXING_RATES]
    assert sum(row["count"] for row in dist) == mean["count"] == mean["n"]
    assert all(row["n"] == mean["count"] for row in dist)
    # §7.3: every win at the deal (天胡, or else 地胡) turns 翻信
    assert mean["count"] == metric(s, "tianhu")["count"] + metric(s, "dihu")["count"]
    assert mean["rate"] is None and mean["ci_low"] is None
    lower = sum(k * row["count"] for k, row in enumerate(dist)) / mean["count"]
    if dist[4]["count"] == 0:
        assert mean["mean"] == pytest.approx(lower)
    else:
        assert mean["mean"] >= lower
    assert mean["se"] > 0


@pytest.mark.parametrize("variant", ["guangxi-dazipai", "hunan-hengyang"])
def test_fanxing_metrics_absent_when_disabled(runs, variant):
    assert load_variant(variant).fanxing.enabled is False
    names = runs[variant].summary["metric"].to_list()
    assert not runs[variant].fanxing
    assert not [m for m in names if m.startswith("fanxing")]


def wilson_closed(k: int, n: int) -> tuple[float, float]:
    """Wilson score interval, closed form (no continuity correction)."""
    if n == 0:
        return math.nan, math.nan
    phat = k / n
    denom = 1 + Z * Z / n
    centre = (phat + Z * Z / (2 * n)) / denom
    half = Z / denom * math.sqrt(phat * (1 - phat) / n + Z * Z / (4 * n * n))
    return centre - half, centre + half


@pytest.mark.parametrize("k,n", [(0, 1), (1, 1), (0, 10), (10, 10), (3, 10), (1, 200_000),
                                 (500, 1000), (999, 1000), (123, 456)])
def test_wilson_matches_closed_form(k, n):
    lo, hi = wilson(k, n)
    elo, ehi = wilson_closed(k, n)
    assert lo == pytest.approx(elo, rel=1e-9, abs=1e-12)
    assert hi == pytest.approx(ehi, rel=1e-9, abs=1e-12)
    assert 0 <= lo <= k / n <= hi <= 1


def test_wilson_hand_values_and_empty():
    # k = 0: the interval is [0, z²/(n+z²)]; k = n: [n/(n+z²), 1]
    assert wilson(0, 10) == pytest.approx((0.0, Z * Z / (10 + Z * Z)), abs=1e-12)
    assert wilson(10, 10) == pytest.approx((10 / (10 + Z * Z), 1.0), abs=1e-12)
    assert all(math.isnan(x) for x in wilson(0, 0))


def test_a_cold_cache_compiles_before_the_clock(monkeypatch):
    """On a cold cache the kernel is called once on no chunks (it compiles, about half a minute
    on a fresh clone) before ``seconds`` starts, so the printed rate describes the work."""
    real = zsim.ko.analyze_chunks
    calls: list[int] = []

    def counted(keys, *args):
        calls.append(len(keys))
        real(keys, *args)

    monkeypatch.setattr(zsim.ko, "analyze_chunks", counted)
    monkeypatch.setattr(zsim, "cold", lambda *k: True)
    r = sim(n=1000, seed=3)
    assert calls == [0, 1] and not r.partial and r.n == 1000


# --- Ctrl-C ----------------------------------------------------------------------------------

@pytest.mark.parametrize("when", ["before", "after"])
@pytest.mark.parametrize("threads", [1, 2])
def test_keyboard_interrupt_keeps_finished_chunks(monkeypatch, when, threads):
    real = zsim.ko.analyze_chunks
    seen: list[int] = []  # deals handed to each kernel call

    def flaky(keys, sizes, *args):
        seen.append(int(sizes.sum()))
        if len(seen) == 3 and when == "before":
            raise KeyboardInterrupt
        real(keys, sizes, *args)
        if len(seen) == 3 and when == "after":
            raise KeyboardInterrupt  # the batch's output is computed but must not be kept

    monkeypatch.setattr(zsim.ko, "analyze_chunks", flaky)
    monkeypatch.setattr(zsim, "BATCH_DEALS", CS)  # batches of 4 × threads chunks: several here
    n_req, k = 400_000, 2
    r = sim(n=n_req, seed=21, threads=threads, sample_per_chunk=k)
    assert r.partial is True
    assert len(seen) == 3
    assert seen[0] == seen[1] and seen[0] % CS == 0  # whole batches of whole chunks
    assert r.n == seen[0] + seen[1] < n_req and r.n_requested == n_req
    assert r.n % seen[0] == 0
    assert r.rows["deal"].to_list() == [c * CS + j for c in range(r.n // CS) for j in range(k)]
    assert r.metadata["partial"] == "true" and r.metadata["n"] == str(r.n)

    monkeypatch.setattr(zsim.ko, "analyze_chunks", real)
    fresh = sim(n=r.n, seed=21, threads=threads, sample_per_chunk=k)
    assert not fresh.partial
    assert np.array_equal(r.counts, fresh.counts)
    assert np.array_equal(r.huxi_hist, fresh.huxi_hist)
    assert r.summary.equals(fresh.summary)
    assert r.rows.equals(fresh.rows)


# --- Parquet ---------------------------------------------------------------------------------

def test_parquet_round_trip_and_metadata(tmp_path):
    r = sim(n=20_000, seed=5, sample_per_chunk=3)
    path = tmp_path / "s.parquet"
    r.to_parquet(path)
    assert pl.read_parquet(path).equals(r.summary)
    meta = read_metadata(path)
    v = load_variant("guangxi-81")
    want = {"variant": "guangxi-81", "rules_hash": v.rules_hash, "seed": "5", "n": "20000",
            "chunk_size": str(CS), "zipai_sim_version": zipai_sim.__version__}
    assert {key: meta.get(key) for key in want} == want
    assert not (tmp_path / "s.rows.parquet").exists()  # rows only when asked

    r.to_parquet(path, rows=True)
    rows_path = tmp_path / "s.rows.parquet"
    assert rows_path.exists()
    got = pl.read_parquet(rows_path)
    assert got.equals(r.rows) and got.height == 5 * 3  # 20 000 deals = 5 chunks of 4096
    assert read_metadata(rows_path)["seed"] == "5"
    assert sorted(os.listdir(tmp_path)) == ["s.parquet", "s.rows.parquet"]


def test_parquet_write_is_atomic(tmp_path, monkeypatch):
    r = sim(n=5_000, seed=1)
    old = tmp_path / "old.parquet"
    r.to_parquet(old)
    old_bytes = old.read_bytes()

    def broken(self, file, *args, **kwargs):
        with open(file, "wb") as fh:
            fh.write(b"PAR1 half a file")
        raise OSError("simulated disk full")

    monkeypatch.setattr(pl.DataFrame, "write_parquet", broken)
    new = tmp_path / "new.parquet"
    with pytest.raises(OSError, match="simulated disk full"):
        r.to_parquet(new)
    with pytest.raises(OSError, match="simulated disk full"):
        r.to_parquet(old)  # an existing file is left as it was
    assert not new.exists()
    assert old.read_bytes() == old_bytes
    assert os.listdir(tmp_path) == ["old.parquet"]  # no .zipai-*.tmp left behind


# --- arguments -------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs,match", [
    ({"n": -1}, r"\bn\b"),
    ({"n": 1.5}, r"\bn\b"),
    ({"n": True}, r"\bn\b"),
    ({"seed": -1}, "seed"),
    ({"seed": "x"}, "seed"),
    ({"seed": 2 ** 128}, "seed"),
    ({"threads": 0}, "threads"),
    ({"threads": 1.0}, "threads"),
    ({"chunk_size": 0}, "chunk"),
    ({"chunk_size": 2.5}, "chunk"),
    ({"sample_per_chunk": -1}, "sample_per_chunk"),
    ({"variant": "no-such-variant"}, "unknown variant"),
])
def test_bad_arguments_raise_value_error(kwargs, match):
    args = {"variant": "guangxi-81", "n": 10, "seed": 0, "chunk_size": CS, "progress": False}
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        zipai_sim.simulate_deals(args.pop("variant"), args.pop("n"), args.pop("seed"), **args)


def test_unknown_variant_is_a_variant_error():
    with pytest.raises(VariantError, match="no-such-variant"):
        zipai_sim.simulate_deals("no-such-variant", 10, 0, progress=False)


def test_zero_deals(tmp_path):
    r = sim(n=0, seed=4, sample_per_chunk=2)
    assert (r.n, r.n_requested, r.partial) == (0, 0, False)
    assert not r.counts.any() and not r.huxi_hist.any()
    s = r.summary
    assert s.height > 0
    assert (s["count"] == 0).all() and (s["n"] == 0).all()
    rates = s.filter(pl.col("metric") != "fanxing_mean")
    assert rates["rate"].is_nan().all()
    assert r.huxi_distribution.height == 0
    assert r.rows is not None and r.rows.height == 0
    r.to_parquet(tmp_path / "zero.parquet", rows=True)
    assert read_metadata(tmp_path / "zero.parquet")["n"] == "0"


def test_chunk_size_not_dividing_n():
    # 10 001 deals in chunks of 4096: 4096 + 4096 + 1809, last chunk partial
    r = sim(n=10_001, seed=8, sample_per_chunk=1)
    assert r.n == 10_001 and metric(r.summary, "tianhu")["n"] == 10_001
    assert r.rows["deal"].to_list() == [0, 4096, 8192]
