"""Match mode (issue 3 §2): running totals, the next dealer and the end rules, checked against
hands played one by one (``play_seeded``) and against hand-worked sequences of results."""

import polars as pl
import pytest

import zipai_sim as zs
from zipai_sim.game.hand_result import HandResult
from zipai_sim.game.settle import settle
from zipai_sim.play.trace import hand_result, play_seeded
from zipai_sim.runs.chunks import DEFAULT_CHUNK
from zipai_sim.studies.match import EndRule, match_end, play_match, simulate_matches


def win(winner: int, huxi: int, seats: int = 3) -> HandResult:
    """A won hand as the end rules see it (players, not seats); the cards do not matter."""
    return HandResult(seats=seats, dealer=0, winner=winner, huxi=huxi, cards=(1,) * 20,
                      how="zimo")


HUANG = HandResult(seats=3, dealer=0, winner=-1)


@pytest.mark.parametrize("variant, seed, match, hands", [
    ("guangxi-81", 3, 1, 10),  # 荒庄 pays: dealer −4, others +2 (seed 001)
    ("hunan-hengyang", 5, 13, 8),  # four 荒庄 in a row: the 3rd passes the deal (seed 000 ⑴)
])
def test_hand_count_match_is_the_sum_of_its_hands(variant, seed, match, hands):
    """Hand h of match m is deal m·65536 + h of ``play_seeded`` with seat 0 dealing; the totals
    are its seat payments turned to players, the winner deals next, a 荒庄 keeps the dealer
    except on the 3rd in a row in 衡阳, where the 下家 deals (RULES.md §7.2)."""
    v = zs.load_variant(variant)
    n = v.layout.players
    passes = v.settle.dealer_passes_after_huangzhuang
    got = play_match(variant, seed, match, hands=hands)
    assert got.height == hands
    dealer, streak, totals, passed = 0, 0, [0] * n, 0
    for h, row in enumerate(got.iter_rows(named=True)):
        game, out = play_seeded(variant, seed, match * DEFAULT_CHUNK + h, "greedy")
        pay = settle(v, hand_result(game, out)).payments  # seats, seat 0 = dealer
        assert sum(pay) == 0
        mine = [pay[(p - dealer) % n] for p in range(n)]
        winner = (dealer + out.winner) % n if out.winner >= 0 else -1
        assert (row["dealer"], row["winner"], row["huangzhuang_streak"]) == (dealer, winner,
                                                                             streak)
        assert [row[f"pay_p{p}"] for p in range(n)] == mine
        totals = [t + x for t, x in zip(totals, mine)]
        assert [row[f"total_p{p}"] for p in range(n)] == totals
        if winner >= 0:
            dealer, streak = winner, 0
        else:
            streak += 1
            if passes and streak % passes == 0:
                dealer, passed = (dealer + 1) % n, passed + 1
        assert row["next_dealer"] == dealer
    if passes:
        assert passed >= 1  # the chosen match does exercise the 3-荒庄 rule
    res = simulate_matches(variant, match + 1, seed, hands=hands)
    last = res.matches.row(match, named=True)
    assert [last[f"total_p{p}"] for p in range(n)] == totals
    assert last["hands"] == hands and last["ended"]
    assert last["huangzhuang"] == sum(got["winner"] == -1)
    top = max(totals)
    assert last["winner"] == (totals.index(top) if totals.count(top) == 1 else -1)


@pytest.mark.parametrize("variant", ["guangxi-81", "liuhu-dao"])
def test_numba_and_reference_engines_play_the_same_matches(variant):
    n = zs.load_variant(variant).layout.players
    pols = ["greedy"] + ["random"] * (n - 1)  # each player's policy follows them round
    kw = {"goal": "hu100", "policies": pols, "first_dealer": "rotate", "target": 60}
    a = simulate_matches(variant, 3, 11, engine="numba", **kw)
    b = simulate_matches(variant, 3, 11, engine="reference", **kw)
    assert a.matches.equals(b.matches) and a.summary.equals(b.summary)
    assert a.matches["first_dealer"].to_list() == [0, 1, 2]


def test_hu100_ends_when_a_players_won_huxi_reach_the_target():
    """胡息 add over a player's wins only; 100 exactly ends the match (issue 3: 100-胡 game)."""
    seq = [win(0, 60), win(1, 99), HUANG, win(2, 30), win(0, 39), win(0, 1), win(1, 50)]
    assert match_end(seq, "hu100") == (5, 0)  # player 0: 60 + 39 + 1 = 100
    assert match_end(seq[:5], "hu100") is None
    assert match_end(seq, "hu100", target=99) == (1, 1)


def test_yinghuzi_three_wins_reaching_50_first_at_least_15():
    """Seed 000 ⑷ 硬胡子: "胡3把牌要达到50胡以上。第一把不能少于15胡"."""
    seq = [
        win(1, 14),  # 0: below 15, opens no run for player 1
        win(1, 15),  # 1: opens player 1's run (15 is not less than 15)
        win(2, 40),  # 2: player 2's run: 40
        HUANG,       # 3
        win(1, 10),  # 4: player 1: 15 + 10
        win(1, 20),  # 5: player 1's third win: 45 < 50, the run is void
        win(2, 10),  # 6: player 2: 40 + 10 = 50 after two wins: not yet three
        win(1, 30),  # 7: player 1: a new run, 30
        win(0, 12),  # 8: player 0: below 15, nothing
        win(2, 11),  # 9: player 2's third win: 61 ≥ 50, player 2 wins the match
        win(1, 30),  # 10
    ]
    assert match_end(seq, "yinghuzi") == (9, 2)
    assert match_end(seq[:9], "yinghuzi") is None
    exactly = [win(0, 15), win(0, 15), win(0, 20)]  # 50 胡 is "50胡以上"
    assert match_end(exactly, "yinghuzi") == (2, 0)
    short = [win(0, 20), win(0, 10), win(0, 19), win(0, 14), win(0, 30), win(0, 6)]
    assert match_end(short, "yinghuzi") is None  # 49 void; 14 opens nothing; 30 + 6 = 36 so far
    assert match_end(short + [win(0, 14)], "yinghuzi") == (6, 0)  # 30 + 6 + 14 = 50


def test_hands_rule_and_bad_goals():
    seq = [HUANG, win(0, 20), win(1, 15)]
    assert match_end(seq, "hands", hands=3) == (2, -1)
    assert match_end(seq, "hands", hands=4) is None
    with pytest.raises(ValueError, match="goal"):
        EndRule("hu200", 3)
    with pytest.raises(ValueError, match="hands"):
        EndRule("hands", 3, hands=0)


def sitter_variant(tmp_path):
    """guangxi-81 with the 数信 sitter on (``[layout].sitter = true``), as a file."""
    from importlib.resources import files

    text = (files("zipai_sim") / "rules" / "guangxi-81.toml").read_text(encoding="utf-8")
    assert "sitter = false" in text
    path = tmp_path / "sitter.toml"
    path.write_text(text.replace('key = "guangxi-81"', 'key = "sitter-81"')
                    .replace("sitter = false", "sitter = true", 1), encoding="utf-8")
    return path


def test_totals_sum_to_zero_with_a_sitter(tmp_path):
    """With a 数信 sitter (RULES.md §7.3) four players share the table and their totals sum to
    0; in each hand the sitter only ever receives (one share per 翻信 match, seed 001)."""
    path = sitter_variant(tmp_path)
    m = simulate_matches(path, 6, 2, goal="hu100", policies="random").matches
    assert (m["total_p0"] + m["total_p1"] + m["total_p2"] + m["total_p3"] == 0).all()
    hands = play_match(path, 2, 0, goal="hu100", policies="random")
    pay = hands.select([f"pay_p{i}" for i in range(4)]).to_numpy()
    assert (pay.sum(axis=1) == 0).all()
    assert (pay[range(hands.height), hands["sitter"].to_numpy()] >= 0).all()


def test_matches_do_not_depend_on_how_many_are_played_and_summary_counts():
    a = simulate_matches("changsha-paohuzi", 5, 9, goal="yinghuzi")
    b = simulate_matches("changsha-paohuzi", 2, 9, goal="yinghuzi")
    assert a.matches.head(2).equals(b.matches)
    s = {(r["metric"], r["player"]): r for r in a.summary.iter_rows(named=True)}
    assert sum(s[("match_win", p)]["count"] for p in range(3)) + s[("no_winner", None)][
        "count"] == 5
    assert s[("hands_per_match", None)]["mean"] == a.matches["hands"].mean()
    assert s[("huangzhuang_per_hand", None)]["n"] == a.matches["hands"].sum()
    assert (a.matches["wins_p0"] + a.matches["wins_p1"] + a.matches["wins_p2"]
            + a.matches["huangzhuang"] == a.matches["hands"]).all()


def test_bad_arguments_are_named():
    class Mine:
        def discard(self, obs, options):
            return options[0]

    for kw, word in [({"goal": "x"}, "goal"), ({"hands": 0}, "hands"),
                     ({"first_dealer": 3}, "first_dealer"), ({"max_hands": 4}, "max_hands"),
                     ({"policies": [Mine(), "greedy", "greedy"]}, "reference"),
                     ({"policies": ["greedy", "clever", "greedy"]}, "policies"),
                     ({"engine": "gpu"}, "engine")]:
        with pytest.raises(ValueError, match=word):
            simulate_matches("guangxi-81", 1, 1, **kw)
    with pytest.raises(ValueError, match="matches"):
        simulate_matches("guangxi-81", -1, 1)


def test_user_policy_plays_matches_on_the_reference_engine():
    class Highest:
        def discard(self, obs, options):
            return max(options)

    r = simulate_matches("guangxi-81", 2, 4, hands=3, engine="reference",
                         policies=[Highest(), "greedy", "greedy"])
    assert r.matches["hands"].to_list() == [3, 3] and r.policies[0] == "Highest"


def test_match_cli_writes_rows_with_metadata(tmp_path, capsys):
    from zipai_sim.cli import main
    from zipai_sim.runs.io import read_metadata

    out = tmp_path / "m.parquet"
    assert main(["match", "--variant", "hunan-hengyang", "--matches", "4", "--seed", "3",
                 "--goal", "yinghuzi", "--policies", "greedy", "random", "random",
                 "--out", str(out)]) == 0
    df = pl.read_parquet(out)
    assert df.height == 4 and df["match"].to_list() == [0, 1, 2, 3]
    meta = read_metadata(out)
    assert meta["goal"] == "yinghuzi" and meta["seed"] == "3" and meta["policies"] == \
        "greedy,random,random" and meta["rules_hash"] == zs.load_variant("hunan-hengyang") \
        .rules_hash and "zipai_sim_version" in meta
    assert "match_win" in capsys.readouterr().out
    assert main(["match", "--matches", "1", "--first-dealer", "x"]) == 2
    assert "--first-dealer" in capsys.readouterr().err


def test_settle_counts_is_settle_on_the_card_counts():
    """Settlement reads only the winner's red / big / small counts (RULES.md §7.1, §7.4)."""
    from zipai_sim.game.settle import settle_counts

    cards = (0, 3, 0, 0, 0, 0, 4, 0, 0, 4, 0, 3, 0, 0, 0, 0, 3, 0, 0, 3)  # 20 red, 9 big
    for v in ("changde-paohuzi", "changsha-paohuzi", "guangxi-81"):
        r = HandResult(seats=3, dealer=1, winner=1, huxi=30, cards=cards, how="zimo")
        assert settle_counts(v, r, 20, 9, 11) == settle(v, r)
    with pytest.raises(ValueError, match="card counts"):
        settle_counts("guangxi-81", r, 25, 9, 11)
    assert settle_counts("guangxi-81", HUANG, 0, 0, 0).payments == (-4, 2, 2)


def test_policies_of_the_wrong_type_are_named():
    with pytest.raises(ValueError, match="policies must be"):
        simulate_matches("guangxi-81", 1, 1, policies=3)
