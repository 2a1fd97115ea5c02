"""The duplicate arena (issue 9 §2): ``zs.arena`` and ``zipai-sim arena``.

The reference values are recomputed from ``simulate_hands`` per-hand rows of separate runs
(one per challenger seat, one all baseline; the same seed and chunk size deal the same decks
with the same policy streams), with scipy's one-sample t test and Wilson intervals: a route
that shares nothing with the arena's integer sums but the play kernel and the settlement.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats
from test_cli import run as _cli

import zipai_sim as zs
from zipai_sim.runs.io import read_metadata
from zipai_sim.stats import wilson
from zipai_sim.studies.arena import check_policy
from zipai_sim.studies.balance import simulate_hands


def test_the_same_bot_ties_on_every_deck():
    # greedy against greedy: every game of a deck is the same game, so each deck's difference
    # is exactly 0 and so is the interval's width; the win rates are the same counts
    r = zs.arena("hunan-hengyang", "greedy", "greedy", 300, seed=4, chunk_size=128)
    row = r.row(0, named=True)
    assert (row["score_diff"], row["ci_low"], row["ci_high"], row["se_diff"]) == (0, 0, 0, 0)
    assert row["win_rate_challenger"] == row["win_rate_baseline"] > 0
    assert row["win_ci_low_challenger"] == row["win_ci_low_baseline"]
    assert row["decks"] == 300 and row["seats"] == 3


def _slow(variant: str, challenger: str, baseline: str, decks: int, seed: int, cs: int):
    """The arena's figures from per-hand rows of ``seats + 1`` separate ``simulate_hands`` runs:
    ``(score_diff, ci_low, ci_high, wins_challenger, wins_baseline, games)``."""
    v = zs.load_variant(variant)
    n = v.layout.players

    def rows(pols):
        _, r = simulate_hands(v, decks, seed, pols, chunk_size=cs, rows=cs)
        return r.sort("deal")

    def won(r, s):
        return np.array([w == s or s in co for w, co in zip(r["winner"], r["cowinners"])])

    own, wins_c = np.zeros(decks), 0
    for s in range(n):
        r = rows([challenger if q == s else baseline for q in range(n)])
        assert r["deal"].to_list() == list(range(decks))
        own += r[f"pay_seat{s}"].to_numpy()
        wins_c += int(won(r, s).sum())
    base_rows = rows([baseline] * n)
    base = sum(base_rows[f"pay_seat{s}"].to_numpy() for s in range(n))
    wins_b = sum(int(won(base_rows, s).sum()) for s in range(n))
    d = (own - base) / n
    ci = stats.ttest_1samp(d, 0.0).confidence_interval(0.95)
    return d.mean(), ci.low, ci.high, wins_c, wins_b, decks * n


def _sitter_variant(tmp_path):
    """guangxi-81 with the 数信 sitter on (``[layout].sitter = true``, RULES.md §7.3)."""
    from importlib.resources import files

    text = (files("zipai_sim") / "rules" / "guangxi-81.toml").read_text(encoding="utf-8")
    path = tmp_path / "sitter.toml"
    path.write_text(text.replace('key = "guangxi-81"', 'key = "sitter-81"')
                    .replace("sitter = false", "sitter = true", 1), encoding="utf-8")
    return str(path)


# 3 and 4 seats, and 3 seats with a sitter who pays and is paid but takes no seat
@pytest.mark.parametrize("variant", ["guangxi-81", "liuhu-dao", "sitter"])
def test_paired_difference_matches_separate_runs(variant, tmp_path):
    # 300 decks in chunks of 128: two full chunks and a partial one
    decks, seed, cs = 300, 11, 128
    sitter = variant == "sitter"
    if sitter:
        variant = _sitter_variant(tmp_path)
    r = zs.arena(variant, "greedy", "random", decks, seed=seed, chunk_size=cs).row(0, named=True)
    diff, lo, hi, wc, wb, games = _slow(variant, "greedy", "random", decks, seed, cs)
    assert r["score_diff"] == pytest.approx(diff, rel=1e-12, abs=1e-12)
    assert (r["ci_low"], r["ci_high"]) == pytest.approx((lo, hi), rel=1e-9)
    assert r["win_rate_challenger"] == wc / games
    assert r["win_rate_baseline"] == wb / games
    assert (r["win_ci_low_challenger"], r["win_ci_high_challenger"]) == wilson(wc, games)
    assert (r["win_ci_low_baseline"], r["win_ci_high_baseline"]) == wilson(wb, games)
    if sitter:  # the sitter's 翻信 shares come out of the seats: a table of equals loses them
        assert r["score_baseline"] < 0
    else:  # the seats' payments sum to 0: an all-baseline table scores 0
        assert r["score_baseline"] == 0 and r["score_challenger"] == pytest.approx(diff)


def test_no_deck_and_one_deck():
    r = zs.arena("guangxi-81", "greedy", "random", 0).row(0, named=True)
    assert r["decks"] == 0 and np.isnan(r["score_diff"]) and np.isnan(r["win_rate_baseline"])
    one = zs.arena("guangxi-81", "greedy", "random", 1)
    assert np.isnan(one["ci_low"][0]) and not np.isnan(one["score_diff"][0])
    assert "guangxi-81" in str(one.report())  # an interval of one deck is left blank


def test_greedy_beats_random():
    # Observed on guangxi-81: greedy vs random +2.4 舵 a hand with a per-deck SD of about 3.3,
    # so at 300 decks the SE is about 0.19 and the interval's low end sits ~10 SE above 0
    # (the assertion asks for > 1 舵, itself ~7 SE below the observed difference)
    r = zs.arena("guangxi-81", "greedy", "random", 300, seed=2026).row(0, named=True)
    assert r["ci_low"] > 1.0
    assert r["win_ci_low_challenger"] > r["win_ci_high_baseline"]


def test_lookahead_beats_greedy():
    # Observed on guangxi-81 (seed 20261202, 1,000 decks): lookahead − greedy +2.13 舵 a hand,
    # interval [1.90, 2.37], so a per-deck SD of about 3.7: at 300 decks the SE is about 0.21
    # and the assertion (> 0.8 舵) sits ~6 SE below the observed difference
    r = zs.arena("guangxi-81", "lookahead", "greedy", 300, seed=2026).row(0, named=True)
    assert r["ci_low"] > 0.8
    assert r["win_ci_low_challenger"] > r["win_ci_high_baseline"]


@pytest.mark.slow
@pytest.mark.parametrize("variant", zs.list_variants())
def test_lookahead_beats_greedy_in_every_variant(variant):
    """Issue 9 §2: lookahead beats greedy in every shipped variant, the interval above 0."""
    r = zs.arena(variant, "lookahead", "greedy", 1000, seed=7).row(0, named=True)
    assert r["ci_low"] > 0


def test_result_does_not_depend_on_threads():
    runs = [zs.arena(["guangxi-81", "changsha-paohuzi"], "random", "greedy", 400, seed=9,
                     threads=t, chunk_size=64) for t in (1, 2)]
    assert runs[0].height == 2
    assert runs[0].equals(runs[1])


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError,
                       match="challenger must be one of greedy, learned, lookahead, neural, oracle, random, "
                             "rollout"):
        zs.arena("guangxi-81", "mcts", "greedy", 10)
    with pytest.raises(ValueError, match="rollout worlds k must be an integer in 1..4096"):
        zs.arena("guangxi-81", "rollout", "greedy", 10, rollout_k=0)
    with pytest.raises(ValueError, match="decks must be ≥ 0"):
        zs.arena("guangxi-81", "greedy", "greedy", -1)
    with pytest.raises(ValueError, match="threads"):
        zs.arena("guangxi-81", "greedy", "greedy", 10, threads=0)
    assert check_policy("random", "baseline") == "random"


def test_cli_prints_and_writes(tmp_path, capsys):
    path = tmp_path / "a.parquet"
    code, out, err = _cli(["arena", "--variant", "guangxi-81", "--variant", "liuhu-dao",
                           "--challenger", "greedy", "--baseline", "random", "--decks", "200",
                           "--seed", "5", "--out", str(path)], capsys)
    assert code == 0, err
    assert "seed 5, 200 decks" in out and "challenger greedy vs baseline random" in out
    assert "score diff" in out and f"wrote {path}" in out
    df = pl.read_parquet(path)
    assert df["variant"].to_list() == ["guangxi-81", "liuhu-dao"]
    same = zs.arena(["guangxi-81", "liuhu-dao"], "greedy", "random", 200, seed=5)
    assert df.equals(pl.DataFrame(same))
    meta = read_metadata(path)
    assert (meta["challenger"], meta["baseline"], meta["decks"], meta["seed"]) == (
        "greedy", "random", "200", "5")
    assert meta["rules_hashes"] == ",".join(df["rules_hash"])


def test_cli_chunk_size(tmp_path, capsys):
    """``--chunk-size`` reaches the run (its chunks, its streams) and the file's metadata."""
    path = tmp_path / "a.parquet"
    code, out, err = _cli(["arena", "--challenger", "greedy", "--baseline", "random", "--decks",
                           "60", "--seed", "5", "--chunk-size", "16", "--out", str(path)], capsys)
    assert code == 0, err
    assert "chunk 16" in out
    same = zs.arena("guangxi-81", "greedy", "random", 60, seed=5, chunk_size=16)
    assert pl.read_parquet(path).equals(pl.DataFrame(same))
    assert read_metadata(path)["chunk_size"] == "16"


@pytest.mark.parametrize("argv, flag", [
    (["--challenger", "mcts", "--baseline", "greedy"], "--challenger"),
    (["--challenger", "rollout", "--baseline", "greedy", "--rollout-k", "0"], "--rollout-k"),
    (["--challenger", "rollout", "--baseline", "greedy", "--rollout-k", "x"], "--rollout-k"),
    (["--challenger", "greedy", "--baseline", "best"], "--baseline"),
    (["--challenger", "greedy", "--baseline", "random", "--decks", "-5"], "--decks"),
    (["--challenger", "greedy", "--baseline", "random", "--decks", "0"], "--decks"),
    (["--challenger", "greedy", "--baseline", "random", "--decks", str(10**11)], "--decks"),
    (["--challenger", "greedy", "--baseline", "random", "--threads", "0"], "--threads"),
    (["--challenger", "greedy", "--baseline", "random", "--chunk-size", "0"], "--chunk-size"),
    (["--challenger", "greedy", "--baseline", "random", "--variant", "guangxi-81", "--variant",
      "guangxi-81"], "guangxi-81 at threshold 15 is asked for twice"),
])
def test_cli_errors_name_the_flag(argv, flag, tmp_path, capsys):
    code, out, err = _cli(["arena", *argv, "--out", str(tmp_path / "x.parquet")], capsys)
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("zipai-sim: error:") and flag in lines[0]
    assert not (tmp_path / "x.parquet").exists()


def test_seed_column_is_uint64_whatever_the_seed():
    """The seed column is UInt64 for every seed an arena takes (0 … 2**64−1, every command's
    range), so results concatenate; it was Int128 from 2**63 on and Int64 below."""
    import polars as pl

    top = zs.arena("guangxi-81", "random", "random", 2, seed=2**64 - 1, chunk_size=2)
    low = zs.arena("guangxi-81", "random", "random", 2, seed=3, chunk_size=2)
    assert top.schema["seed"] == low.schema["seed"] == pl.UInt64
    assert pl.concat([top, low])["seed"].to_list() == [2**64 - 1, 3]
    with pytest.raises(ValueError, match=r"seed must be in 0\.\.2\*\*64-1 for an arena"):
        zs.arena("guangxi-81", "random", "random", 2, seed=2**64)


def test_cli_takes_variants_as_the_other_commands_do(tmp_path, capsys):
    """``--variants A B`` (balance, compare, table) and ``--variant A --variant B`` agree."""
    import polars as pl

    frames = []
    for i, form in enumerate((["--variants", "guangxi-81", "liuhu-dao"],
                              ["--variant", "guangxi-81", "--variant", "liuhu-dao"])):
        path = tmp_path / f"a{i}.parquet"
        code, _, err = _cli(["arena", *form, "--challenger", "random", "--baseline", "greedy",
                             "--decks", "4", "--seed", "5", "--out", str(path)], capsys)
        assert code == 0, err
        frames.append(pl.read_parquet(path))
    assert frames[0]["variant"].to_list() == ["guangxi-81", "liuhu-dao"]
    assert frames[0].equals(frames[1])
