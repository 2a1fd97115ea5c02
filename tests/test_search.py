"""The search rung and the ceiling (issue 47; ``kernels.play.search``, ``play.rollout``): the
numba driver plays move for move as the readable twins (``play.bots_rollout.SearchPolicy``,
``OraclePolicy``), whatever the thread count or grouping; the search's answers ignore the cards
it cannot see; the ceiling's worlds keep every hand; its cut value (``studies.value``) explains
part of the payment; the search beats the learned bot it is built on.

The twins are a second opinion on the driver, not on the rules: the rules checker
(``test_rules_checker``) judges their moves from RULES.md alone."""

from __future__ import annotations

import random

import numba
import numpy as np
import pytest
from test_rollout import KEY, _Probe
from test_rollout import LINEUPS as ROLLOUT_LINEUPS

import zipai_sim as zs
from zipai_sim.game.reference import shuffled_deck
from zipai_sim.kernels import play as kp
from zipai_sim.play import POLICY_NAMES
from zipai_sim.play import learned as pl
from zipai_sim.play import rollout as pr
from zipai_sim.play.chunks import play_chunks
from zipai_sim.play.bots_learned import LearnedPolicy
from zipai_sim.play.bots_rollout import SearchPolicy, oracle_world
from zipai_sim.play.engine import Game
from zipai_sim.play.payoffs import outcome_row
from zipai_sim.play.policies import as_policy
from zipai_sim.runs.chunks import chunk_keys

LINEUPS = {"search-learned": (7, 6), "oracle-learned": (8, 6), "teacher-learned": (5, 6),
           "search-oracle-study": (7, 8, 4)}


def codes_of(v, lineup: str) -> list[int]:
    names = LINEUPS[lineup]
    return [names[s % len(names)] for s in range(v.layout.players)]


def check_twins(variant: str, lineup: str, hands: range, k: int) -> None:
    v = zs.load_variant(variant)
    codes = codes_of(v, lineup)
    for j in hands:
        g = Game(v, shuffled_deck(KEY, j), [as_policy(POLICY_NAMES[c], k) for c in codes],
                 KEY, j)
        row = outcome_row(g, g.play())
        rows, krow = pr.play_one(v, np.array(shuffled_deck(KEY, j), np.int8), codes, KEY, j, k=k)
        kmoves = [m for m in (kp.move_tuple(r) for r in rows) if m is not None]
        assert kmoves == g.moves, (variant, lineup, j)
        assert (krow[:kp.O_MOVES] == row[:kp.O_MOVES]).all(), (variant, lineup, j)


@pytest.mark.parametrize("variant", ["guangxi-81", "changsha-paohuzi", "liuhu-dao"])
def test_search_and_oracle_kernels_play_as_their_twins(variant):
    check_twins(variant, "search-learned", range(2), 3)
    check_twins(variant, "oracle-learned", range(2, 3), 3)


def test_learned_seats_beside_a_searching_seat_play_their_weights():
    """A learned seat in a line-up with a searching one plays by its weights in the replayed
    hand too (the replay once left them at zero: every answer a tie)."""
    check_twins("guangxi-81", "teacher-learned", range(2), 2)


@pytest.mark.slow
@pytest.mark.parametrize("lineup", sorted(LINEUPS))
@pytest.mark.parametrize("variant", zs.list_variants())
def test_search_kernels_play_as_their_twins_large(variant, lineup):
    check_twins(variant, lineup, range(3, 13), 3)


def test_search_batches_threads_and_groups_change_nothing(monkeypatch):
    """``play_chunks`` with a search and an oracle seat: the same rows as hand-by-hand
    ``play_one``, on 1 or 2 threads, in groups of 512 hands or 3."""
    v = zs.load_variant("guangxi-81")
    codes = np.array([7, 8, 6], np.int64)
    keys = chunk_keys(78, 0, 2)
    sizes = np.array([4, 3], np.int64)
    runs = []
    for threads, group in ((2, 512), (1, 3)):
        monkeypatch.setattr(pr, "GROUP", group)
        old = numba.get_num_threads()
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
        try:
            out = np.zeros((2, 4, kp.N_OUT), np.int64)
            play_chunks(v, keys, sizes, codes, out, 4)
        finally:
            numba.set_num_threads(old)
        runs.append(out)
    assert (runs[0] == runs[1]).all()
    for c in range(2):
        for j in range(int(sizes[c])):
            deck = np.array(shuffled_deck(int(keys[c]), j), np.int8)
            _, row = pr.play_one(v, deck, codes, int(keys[c]), j, k=4)
            assert (row[:kp.O_MOVES] == runs[0][c, j, :kp.O_MOVES]).all()


class _SearchProbe(_Probe, SearchPolicy):
    """``test_rollout._Probe`` for the search: its answers must agree on the hand and on the
    hand with every card it cannot see redealt; every world it builds is checked."""

    teacher = True


@pytest.mark.parametrize("variant", ["guangxi-81", "liuhu-dao"])
def test_search_decisions_ignore_hidden_cards(variant):
    v = zs.load_variant(variant)
    rnd = random.Random(8)
    asked = 0
    for j in (130, 131):
        pols = [_SearchProbe(2, rnd)] + [LearnedPolicy() for _ in range(v.layout.players - 1)]
        assert isinstance(pols[0].greedy, LearnedPolicy)
        Game(v, shuffled_deck(KEY, j), pols, KEY, j).play()
        asked += pols[0].asked
    assert asked > 5


class _OracleLook(SearchPolicy):
    """A search seat that checks, at each question, that the ceiling's worlds would keep every
    hand, 偎 and mark as they are and only reorder the stock after the card on offer."""

    def __init__(self, k: int):
        super().__init__(k)
        self.asked = 0

    def _best(self, game, seat, kind, card, cands):
        (rest, _s0), g0 = game.step0
        start = 0 if rest == "rest" else 1
        for k in range(3):
            w, c0 = oracle_world(game.step0, seat, kind, card, 0, k)
            assert c0 == (card if rest == "rest" and kind != 0 else -1)
            for a, b in zip(w.players, g0.players):
                assert (a.hand, a.melds, a.beside, a.chou) == (b.hand, b.melds, b.beside, b.chou)
            assert w.stock[:start] == g0.stock[:start]
            assert sorted(w.stock) == sorted(g0.stock)
        self.asked += 1
        return super()._best(game, seat, kind, card, cands)


def test_the_ceiling_sees_every_hand_and_not_the_stock_order():
    v = zs.load_variant("guangxi-81")
    pols = [_OracleLook(2)] + [LearnedPolicy() for _ in range(v.layout.players - 1)]
    Game(v, shuffled_deck(KEY, 140), pols, KEY, 140).play()
    assert pols[0].asked > 5


def test_the_ceiling_is_named_a_cheat(tmp_path, capsys):
    from test_cli import run

    code, out, err = run(["arena", "--variant", "guangxi-81", "--challenger", "oracle",
                          "--baseline", "learned", "--decks", "2", "--rollout-k", "2",
                          "--out", str(tmp_path / "x.parquet")], capsys)
    assert code == 0, err
    assert "it cheats" in out and "oracle" in out
    code, out, err = run(["analyze", "--position", "x", "--policy", "oracle"], capsys)
    assert code == 2 and "invalid choice" in err


def test_the_cut_value_explains_part_of_the_payment():
    """The cut value fitted on self-play (two held-out chunks at the smallest size) predicts
    the held-out payments better than their mean does."""
    from zipai_sim.studies.value import fit_value

    r = fit_value("guangxi-81", 16_384, seed=3)
    assert not r.partial and r.rows > 10_000
    assert r.loss_fit < r.loss_mean
    assert r.policy == tuple(float(x) for x in pl.weights(zs.load_variant("guangxi-81")))


@pytest.mark.parametrize("bad, says", [(0, "hands must be"), (100, "at least 16384"),
                                       (-5, "hands must be")])
def test_fit_value_refuses_bad_counts(bad, says):
    from zipai_sim.studies.value import fit_value

    with pytest.raises(ValueError, match=says):
        fit_value("guangxi-81", bad)


def test_a_weights_file_without_a_cut_value_is_one_clear_error(tmp_path, monkeypatch):
    d = pl.read(pl.shipped_path("guangxi-81"))
    d.pop("value")
    (tmp_path / "guangxi-81.json").write_text(__import__("json").dumps(d), encoding="utf-8")
    monkeypatch.setenv(pl.ENV, str(tmp_path))
    with pytest.raises(ValueError, match=r"guangxi-81.json has no cut value .*--labels value"):
        pl.value_weights(zs.load_variant("guangxi-81"))
    d["value"] = [1.0] * 3
    (tmp_path / "guangxi-81.json").write_text(__import__("json").dumps(d), encoding="utf-8")
    with pytest.raises(ValueError, match="'value' must be 18 finite numbers"):
        pl.value_weights(zs.load_variant("guangxi-81"))


def test_the_rollout_lineups_are_not_changed_by_the_search():
    """The search's codes come after the older bots', whose line-ups keep their codes."""
    assert POLICY_NAMES.index("search") == kp.POL_SEARCH == 7
    assert POLICY_NAMES.index("oracle") == kp.POL_ORACLE == 8
    assert all(c < 7 for lu in ROLLOUT_LINEUPS.values() for c in lu)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["guangxi-81", "changde-paohuzi"])
def test_search_beats_learned(variant):
    """The duplicate arena: search (K = 32) against learned on 300 decks, the paired 95%
    interval above zero."""
    from zipai_sim.studies.arena import arena

    d = arena(variant, "search", "learned", 300, seed=4711)
    assert float(d.row(0, named=True)["ci_low"]) > 0
