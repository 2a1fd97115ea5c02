"""Balance study over whole hands (issue 3 §5): bookkeeping identities that hold by the rules."""

import warnings

import pytest

import zipai_sim as zs
from zipai_sim.play.trace import play_seeded
from zipai_sim.studies.balance import simulate_hands


@pytest.mark.parametrize("variant", ["guangxi-81", "liuhu-dao", "changde-paohuzi"])
def test_every_hand_is_won_once_or_drawn_and_money_balances(variant):
    df = simulate_hands(variant, 60, seed=4, policies="random", engine="reference")
    seats = zs.load_variant(variant).layout.players
    get = {(r["metric"], r["seat"]): r for r in df.iter_rows(named=True)}
    wins = sum(get[("win", s)]["count"] for s in range(seats))
    assert wins + get[("huangzhuang", None)]["count"] == 60  # §6/§5.8: one winner or 荒庄
    for s in range(seats):
        assert get[("zimo", s)]["count"] <= get[("win", s)]["count"]
    # §7.2: every hand's payments sum to zero, so the seats' mean scores do too
    assert abs(sum(get[("score", s)]["mean"] for s in range(seats))) < 1e-9
    fangpao = sum(get[("fangpao", s)]["count"] for s in range(seats))
    assert fangpao == 0 if not zs.load_variant(variant).win.discard_win else fangpao <= wins


def test_same_layout_variants_play_the_same_decks():
    """Common random numbers: the deal line of a seeded hand is the same for two variants."""
    a, _ = play_seeded("guangxi-81", 11, 3, "random")
    b, _ = play_seeded("changsha-paohuzi", 11, 3, "random")
    assert a.log[0] == b.log[0]


def test_reproducible_and_policy_names_checked():
    a = simulate_hands("hunan-hengyang", 20, seed=8, policies=["greedy", "random", "random"])
    b = simulate_hands("hunan-hengyang", 20, seed=8, policies=["greedy", "random", "random"])
    assert a.equals(b)
    with pytest.raises(ValueError, match="policies"):
        simulate_hands("hunan-hengyang", 5, seed=8, policies="clever")


@pytest.mark.parametrize("variant", zs.list_variants())
def test_settle_rows_equals_settle_hand_by_hand(variant):
    """The batch settlement is the per-hand `settle` on each row (hands from the engine)."""
    import numpy as np

    from zipai_sim.game.cards import IS_BIG, IS_RED
    from zipai_sim.game.hand_result import HOWS
    from zipai_sim.game.settle import settle
    from zipai_sim.game.settle_batch import settle_rows
    from zipai_sim.play.trace import hand_result

    rows, want = [], []
    for deal in range(25):
        game, out = play_seeded(variant, 5, deal, "random")
        r = hand_result(game, out)
        want.append(settle(variant, r).payments)
        c = np.array(r.cards if r.winner >= 0 else [0] * 20)
        rows.append([r.winner, HOWS.index(r.how) + 1 if r.how else 0, r.payer, r.huxi,
                     int(c[IS_RED].sum()), int(c[IS_BIG].sum()), int(c[~IS_BIG].sum()),
                     r.all_pungs, r.tianhu, r.dihu, r.haidi, r.fanxing])
    pay, _ = settle_rows(variant, np.array(rows))
    assert [tuple(p) for p in pay.tolist()] == want


@pytest.mark.parametrize("variant", ["guangxi-81", "liuhu-dao", "changde-paohuzi"])
def test_numba_and_reference_engines_give_the_same_table(variant):
    a = simulate_hands(variant, 40, seed=6, policies="random", chunk_size=16, engine="numba")
    b = simulate_hands(variant, 40, seed=6, policies="random", chunk_size=16,
                       engine="reference")
    assert a.equals(b)


def test_thread_count_does_not_change_the_table():
    a = simulate_hands("hunan-hengyang", 300, seed=2, policies="random", chunk_size=32, threads=1)
    b = simulate_hands("hunan-hengyang", 300, seed=2, policies="random", chunk_size=32, threads=2)
    assert a.equals(b)


def test_threshold_sweep_on_the_cli(tmp_path, capsys):
    """大字牌 15/20/25/30 as one sweep. With the random policy (whose choices do not depend on
    the threshold) a hand that is 荒庄 at 15 had no win ≥ 15 and so none ≥ 30: it plays the same
    and is 荒庄 at 30 too, so the 荒庄 count cannot fall as the 起胡 rises (§6)."""
    import polars as pl

    from zipai_sim.cli import main

    out = tmp_path / "sweep.parquet"
    assert main(["balance", "--variants", "guangxi-dazipai", "--hands", "400", "--policy",
                 "random", "--thresholds", "15", "30", "--out", str(out)]) == 0
    df = pl.read_parquet(out)
    huang = dict(df.filter(pl.col("metric") == "huangzhuang")
                 .select("threshold", "count").iter_rows())
    assert set(huang) == {15, 30} and huang[30] >= huang[15]


def test_one_policy_per_seat_on_the_cli(tmp_path, capsys):
    """``--policy greedy random random``: the dealer greedy, the others random — the same hands
    as ``simulate_hands`` with that line-up, and the header and metadata say so."""
    import polars as pl

    from zipai_sim.cli import main
    from zipai_sim.runs.io import read_metadata
    from zipai_sim.studies.balance import simulate_hands

    out = tmp_path / "lineup.parquet"
    assert main(["balance", "--hands", "300", "--seed", "4", "--policy", "greedy", "random",
                 "random", "--out", str(out)]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert "policies greedy, random, random" in head
    assert read_metadata(out)["policies"] == "greedy,random,random"
    want = simulate_hands("guangxi-81", 300, seed=4, policies=["greedy", "random", "random"],
                          progress=False)
    cols = ["metric", "seat", "count", "n"]
    assert pl.read_parquet(out).select(cols).equals(pl.DataFrame(want).select(cols))
    assert main(["balance", "--hands", "10", "--policy", "greedy", "random"]) == 2
    assert "policies must be" in capsys.readouterr().err


@pytest.mark.parametrize("bad", [0, 1.7, True, "2"])
def test_threads_must_be_a_positive_int(bad):
    """``1.7`` or ``True`` threads used to run (and be printed as given in the header)."""
    with pytest.raises(ValueError, match="threads must be a positive integer"):
        simulate_hands("hunan-hengyang", 5, seed=8, threads=bad)


def test_threads_above_numba_s_count_warn_and_are_capped():
    """More threads than numba has run on numba's count, with a warning naming both (the
    header used to show the smaller count without a word)."""
    import numba

    from zipai_sim.runs.chunks import check_threads

    cores = numba.config.NUMBA_NUM_THREADS
    with pytest.warns(UserWarning, match=rf"threads={cores + 3} is more than numba's {cores}"):
        assert check_threads(cores + 3) == cores
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert check_threads(cores) == cores and check_threads(None) == cores


def test_policies_must_be_a_name_or_a_list():
    with pytest.raises(ValueError, match=r"policies must be .* \(hunan-hengyang has 3 seats: "
                                         r"names, or policy objects"):
        simulate_hands("hunan-hengyang", 5, seed=8, policies=None)
