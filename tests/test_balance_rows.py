"""Sampled per-hand rows of the balance study (issue 3 §5): which hands are kept, what a row
says, and that the sample does not depend on the engine or the thread count."""

import polars as pl
import pytest

import zipai_sim as zs
from zipai_sim.game.settle import settle
from zipai_sim.play.trace import hand_result, play_seeded
from zipai_sim.studies.balance import simulate_hands


def test_rows_are_the_first_k_hands_of_every_chunk():
    """35 hands in chunks of 16: chunks 0, 1 keep hands 0–4 and 16–20; chunk 2 holds only
    hands 32–34, so it keeps 3."""
    table, rows = simulate_hands("guangxi-81", 35, 7, "random", chunk_size=16, rows=5)
    assert rows["deal"].to_list() == [0, 1, 2, 3, 4, 16, 17, 18, 19, 20, 32, 33, 34]
    assert rows["chunk"].to_list() == [0] * 5 + [1] * 5 + [2] * 3
    assert table.equals(simulate_hands("guangxi-81", 35, 7, "random", chunk_size=16))
    assert simulate_hands("guangxi-81", 0, 7, rows=5)[1].height == 0


@pytest.mark.parametrize("variant", ["guangxi-81", "liuhu-dao", "changsha-paohuzi"])
def test_a_row_is_the_hand_played_alone(variant):
    """With one chunk of 65536, hand j is deal j of ``play_seeded``: same winner, how, 胡息,
    翻信, draws and payments (settled by ``settle``), which sum to 0 (RULES.md §7.2)."""
    v = zs.load_variant(variant)
    _, rows = simulate_hands(v, 8, 13, "random", chunk_size=65536, rows=8)
    seats = v.layout.players
    for r in rows.iter_rows(named=True):
        game, out = play_seeded(v, 13, r["deal"], "random")
        money = settle(v, hand_result(game, out))
        assert (r["winner"], r["how"], r["payer"], r["huxi"], r["fanxing"], r["draws"]) == (
            out.winner, out.how or None, out.payer, out.huxi, out.fanxing, out.draws)
        assert [r[f"pay_seat{s}"] for s in range(seats)] == list(money.payments)
        assert (r["units"], r["fanxing_units"]) == (money.units, money.fanxing_units)
        assert sum(money.payments) == 0
        assert (r["win_card"] is None) == (r["winner"] < 0)


def test_rows_agree_across_engines_and_threads():
    a = simulate_hands("changde-paohuzi", 48, 2, "random", chunk_size=16, rows=4)[1]
    b = simulate_hands("changde-paohuzi", 48, 2, "random", chunk_size=16, rows=4,
                       engine="reference")[1]
    c = simulate_hands("changde-paohuzi", 48, 2, "random", chunk_size=16, rows=4, threads=1)[1]
    assert a.equals(b) and a.equals(c)
    with pytest.raises(ValueError, match="rows"):
        simulate_hands("changde-paohuzi", 4, 2, rows=-1)


def test_balance_cli_writes_the_rows_with_run_metadata(tmp_path, capsys):
    from zipai_sim.cli import main
    from zipai_sim.runs.io import read_metadata

    out, rows_out = tmp_path / "b.parquet", tmp_path / "rows.parquet"
    assert main(["balance", "--variants", "guangxi-81", "liuhu-dao", "--hands", "50",
                 "--policy", "random", "--seed", "4", "--rows", "3", "--rows-out",
                 str(rows_out), "--out", str(out)]) == 0
    df = pl.read_parquet(rows_out)
    assert df["variant"].to_list() == ["guangxi-81"] * 3 + ["liuhu-dao"] * 3
    assert df.filter(pl.col("variant") == "guangxi-81")["pay_seat3"].is_null().all()
    meta = read_metadata(rows_out)
    want = {"variant_keys": "guangxi-81,liuhu-dao", "seed": "4", "n": "50",
            "policies": "random", "rows_per_chunk": "3", "chunk_size": "4096",
            "rules_hashes": ",".join(zs.load_variant(k).rules_hash
                                     for k in ("guangxi-81", "liuhu-dao")),
            "zipai_sim_version": zs.__version__}
    assert {k: meta[k] for k in want} == want
    assert main(["balance", "--hands", "5", "--rows", "2", "--out", str(out)]) == 0
    assert (tmp_path / "b.rows.parquet").exists()  # the default name next to --out
    assert main(["balance", "--hands", "5", "--rows-out", str(rows_out)]) == 2
    assert "--rows-out needs --rows" in capsys.readouterr().err
