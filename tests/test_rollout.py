"""The rollout bot (issue 9 §1): the numba driver (``play.rollout``, ``kernels.play.rollout``)
plays move for move as its readable twin (``play.bots_rollout.RolloutPolicy`` on the reference
engine), whatever the thread count or grouping; its answers ignore the cards it cannot see; its
worlds keep every card (RULES.md §1: 80 cards, four of each kind); it beats greedy.

What a world must be is taken from the rules, not from the code: the seat's own hand and table
groups, every shown card and every public count stay; the unseen cards (80 less the seen ones)
fill exactly the hidden places (others' hands at their sizes, their face-down 偎 as three of a
kind, the stock at its size), no other hand holds four of a kind (RULES.md §3: it would have
been a 提)."""

from __future__ import annotations

import copy
import random

import numba
import numpy as np
import pytest
from test_hidden import redeal

import zipai_sim as zs
from zipai_sim.game import params
from zipai_sim.game.reference import shuffled_deck
from zipai_sim.kernels import play as kp
from zipai_sim.kernels.play.rollout import survivors, world_stages
from zipai_sim.play import rollout as pr
from zipai_sim.play.chunks import play_chunks
from zipai_sim.play.bots_rollout import DISCARD, RolloutPolicy, TeacherPolicy, world
from zipai_sim.play.engine import Game
from zipai_sim.play.payoffs import outcome_row
from zipai_sim.play.policies import GreedyPolicy, LookaheadPolicy, RandomPolicy, StudyPolicy
from zipai_sim.runs.chunks import chunk_keys
from zipai_sim.runs.io import read_metadata

VARIANTS = zs.list_variants()
KEY = int(chunk_keys(4242, 0, 1)[0])
BOTS = {kp.POL_RANDOM: RandomPolicy, kp.POL_GREEDY: GreedyPolicy,
        kp.POL_LOOKAHEAD: LookaheadPolicy, kp.POL_STUDY: StudyPolicy}
LINEUPS = {"rollout-greedy": (3, 1), "ladder": (3, 2, 1, 0), "rollout-all": (3,),
           "teacher-study": (5, 4), "teacher-rollout": (5, 3, 2)}


def codes_of(v, lineup: str) -> list[int]:
    names = LINEUPS[lineup]
    return [names[s % len(names)] for s in range(v.layout.players)]


def reference_hand(v, j: int, codes: list[int], k: int):
    pols = [RolloutPolicy(k) if c == kp.POL_ROLLOUT else TeacherPolicy(k)
            if c == kp.POL_TEACHER else BOTS[c]() for c in codes]
    g = Game(v, shuffled_deck(KEY, j), pols, KEY, j)
    out = g.play()
    return g.moves, outcome_row(g, out)


def kernel_deck(v, deck: list[int], codes: list[int], j: int, k: int = 2):
    rows, out = pr.play_one(v, np.array(deck, np.int8), codes, KEY, j, k=k)
    return [m for m in (kp.move_tuple(r) for r in rows) if m is not None], out


def kernel_hand(v, j: int, codes: list[int], k: int):
    return kernel_deck(v, shuffled_deck(KEY, j), codes, j, k)


def check_twins(variant: str, lineup: str, hands: range, k: int) -> None:
    v = zs.load_variant(variant)
    codes = codes_of(v, lineup)
    for j in hands:
        moves, row = reference_hand(v, j, codes, k)
        kmoves, krow = kernel_hand(v, j, codes, k)
        assert kmoves == moves, (variant, lineup, j)
        assert (krow[:kp.O_MOVES] == row[:kp.O_MOVES]).all(), (variant, lineup, j)


@pytest.mark.parametrize("variant", VARIANTS)
def test_rollout_kernel_plays_as_its_twin(variant):
    check_twins(variant, "rollout-greedy", range(2), 2)
    check_twins(variant, "ladder", range(2, 3), 2)


@pytest.mark.parametrize("variant", ["guangxi-81", "changsha-paohuzi", "liuhu-dao"])
def test_teacher_kernel_plays_as_its_twin(variant):
    """The teacher (issue 39): study playouts, study's answer kept unless a paired
    interval says otherwise; a teacher beside a rollout seat keeps each one's playouts."""
    check_twins(variant, "teacher-study", range(1), 3)
    check_twins(variant, "teacher-rollout", range(1, 2), 3)


def test_beats_is_a_paired_interval():
    """``beats``: mean paired difference above Z standard errors, worked by hand."""
    assert pr.beats([3, 3, 3, 3], [1, 1, 1, 1]) is True  # sd 0, mean 2 > 0
    assert pr.beats([0, 3], [0, 0]) is False  # mean 1.5, se 1.5: 1.5 ≤ 2 · 1.5
    assert pr.beats([1, 2], [0, 0]) is True  # mean 1.5, se 0.5: 1.5 > 2 · 0.5
    assert pr.beats([4, 5, 4, 5], [0, 0, 0, 0]) is True  # mean 4.5, se 0.289
    assert pr.beats([5], [0]) is False  # one world: no interval


def test_worlds_that_swap_two_hidden_wei_kinds():
    """Hand 12 of 大字牌 with two rollout seats: a world gives seat 1's first hidden 偎 the kind
    its second one had; the kernel once lost track of the first (no forced 跑 onto it, RULES.md
    §3), and played another hand than the twin."""
    check_twins("guangxi-dazipai", "rollout-greedy", range(12, 13), 3)


@pytest.mark.slow
@pytest.mark.parametrize("lineup", sorted(LINEUPS))
@pytest.mark.parametrize("variant", VARIANTS)
def test_rollout_kernel_plays_as_its_twin_large(variant, lineup):
    check_twins(variant, lineup, range(3, 23), 3)


@pytest.mark.parametrize("codes", [(3, 1, 1), (5, 4, 4)], ids=["rollout", "teacher"])
def test_batches_threads_and_groups_change_nothing(monkeypatch, codes):
    """``play_chunks`` with a rollout (or teacher) seat: the same rows as hand-by-hand
    ``play_one``, on 1 or 2 threads, in groups of 512 hands or 3."""
    v = zs.load_variant("guangxi-81")
    codes = np.array(codes, np.int64)
    keys = chunk_keys(77, 0, 2)
    sizes = np.array([5, 4], np.int64)
    runs = []
    for threads, group in ((2, 512), (1, 3)):
        monkeypatch.setattr(pr, "GROUP", group)
        old = numba.get_num_threads()
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
        try:
            out = np.zeros((2, 5, kp.N_OUT), np.int64)
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


class _Probe(RolloutPolicy):
    """A rollout seat that answers every question twice: on the hand, and on the hand with every
    card it cannot see at its question redealt at the start of the step its worlds start from;
    the answers must agree. It also checks every world it builds (``check_world``)."""

    def __init__(self, k: int, rnd: random.Random):
        super().__init__(k)
        self.rnd = rnd
        self.asked = 0

    def _best(self, game, seat, kind, card, cands):
        counts = list(game.__dict__.get("ro_count", [0] * game.seats))
        got = super()._best(game, seat, kind, card, cands)
        (rest, s0), g0 = game.step0
        g1 = g0.fork(g0.policies)
        pending = -1
        if rest == "rest" and kind != DISCARD:
            pending = card  # the shown discard: seen, and in s0's hand at the step's start
            g1.players[s0].hand[card] -= 1
        elif rest == "draw":
            pending = g1.stock.pop(0)  # the drawn card on offer: seen
        g2 = redeal(g1, seat, pending, self.rnd)
        if rest == "rest" and kind != DISCARD:
            g2.players[s0].hand[card] += 1
        elif rest == "draw":
            g2.stock.insert(0, pending)
        twin = copy.copy(game)
        twin.step0 = ((rest, s0), g2)
        twin.ro_count = counts
        assert super()._best(twin, seat, kind, card, cands) == got
        for k in range(self.k):
            check_world(game, seat, kind, card, counts[seat], k)
        self.asked += 1
        return got


@pytest.mark.parametrize("variant", ["guangxi-dazipai", "liuhu-dao"])
def test_undrawn_stock_order_changes_no_earlier_rollout_decision(variant):
    """Permuting the stock cards not yet drawn at some point (RULES.md §2: the stock is hidden)
    changes none of the moves before the next draw, with a rollout seat, on the numba engine."""
    v = zs.load_variant(variant)
    codes = codes_of(v, "rollout-greedy")
    n0 = v.layout.players * v.params[params.OTHER_CARDS] + 1  # hands and the 亮张 (§2)
    rnd = random.Random(11)
    for j in range(3):
        deck = shuffled_deck(KEY, 200 + j)
        moves, _ = kernel_deck(v, deck, codes, 200 + j)
        draws = [i for i, m in enumerate(moves) if m[1] in ("draws", "extra card")]
        d = rnd.randrange(len(draws) + 1)
        tail = deck[n0 + d:]
        rnd.shuffle(tail)
        moves2, _ = kernel_deck(v, deck[:n0 + d] + tail, codes, 200 + j)
        cut = draws[d] if d < len(draws) else len(moves)
        draws2 = [i for i, m in enumerate(moves2) if m[1] in ("draws", "extra card")]
        cut2 = draws2[d] if d < len(draws2) else len(moves2)
        assert moves2[:cut2] == moves[:cut], (variant, j, d)


def check_world(game, seat, kind, card, nr, k) -> None:
    """A world keeps what ``seat`` sees and fills the hidden places with the unseen cards."""
    (rest, s0), g0 = game.step0
    w, c0 = world(game.step0, seat, kind, card, nr, k)
    assert c0 == (card if rest == "rest" and kind != DISCARD else -1)
    count = [0] * 20
    for pl in w.players:
        for q in range(20):
            count[q] += pl.hand[q]
        for m in pl.melds:
            for q in m.cards:
                count[q] += 1
        for q in pl.beside:
            count[q] += 1
    for q in w.stock:
        count[q] += 1
    assert count == [4] * 20  # §1: every card once
    assert w.players[seat].hand == g0.players[seat].hand
    assert len(w.stock) == len(g0.stock)
    for s, (a, b) in enumerate(zip(w.players, g0.players)):
        assert sum(a.hand) == sum(b.hand)
        assert a.beside == b.beside
        assert [m.name for m in a.melds] == [m.name for m in b.melds]
        if s == seat:
            assert a.melds == b.melds
        else:
            assert [m for m in a.melds if m.name != "wei"] == [m for m in b.melds
                                                               if m.name != "wei"]
            assert all(len(set(m.cards)) == 1 for m in a.melds if m.name == "wei")
            assert max(a.hand) < 4  # §3: a fourth card in hand would have been a 提
    if rest == "draw":
        assert w.stock[0] == g0.stock[0]
    if c0 >= 0:
        assert w.players[s0].hand[c0] >= 1


@pytest.mark.parametrize("variant", ["guangxi-81", "changde-paohuzi"])
def test_rollout_decisions_ignore_hidden_cards(variant):
    v = zs.load_variant(variant)
    rnd = random.Random(5)
    asked = 0
    for j in range(2):
        pols = [_Probe(2, rnd)] + [GreedyPolicy() for _ in range(v.layout.players - 1)]
        Game(v, shuffled_deck(KEY, 100 + j), pols, KEY, 100 + j).play()
        asked += pols[0].asked
    assert asked > 5


class _TeacherProbe(_Probe):
    """``_Probe`` for the teacher: study's answer first, study playouts, the paired gate."""

    teacher = True

    def __init__(self, k: int, rnd: random.Random):
        super().__init__(k, rnd)
        self.greedy = StudyPolicy()


def test_teacher_decisions_ignore_hidden_cards():
    """The teacher's answers (and its study bot's worlds) stay when every card it cannot see
    is redealt, in a variant with 放炮 (where study samples worlds of its own)."""
    v = zs.load_variant("guangxi-81")
    rnd = random.Random(6)
    pols = [_TeacherProbe(2, rnd)] + [StudyPolicy() for _ in range(v.layout.players - 1)]
    Game(v, shuffled_deck(KEY, 120), pols, KEY, 120).play()
    assert pols[0].asked > 5


def test_successive_halving_schedule():
    """The worlds are split in quarter, quarter, half (issue 9 §1 allows successive halving),
    each world once; half the candidates (at least two) go on after a stage."""
    assert world_stages(32) == [(0, 8), (8, 16), (16, 32)]
    assert world_stages(5) == [(0, 2), (2, 4), (4, 5)]
    assert world_stages(2) == [(0, 1), (1, 2)]
    assert world_stages(1) == [(0, 1)]
    for k in range(1, 300):
        assert [w for lo, hi in world_stages(k) for w in range(lo, hi)] == list(range(k))
    assert [survivors(n) for n in range(1, 10)] == [1, 2, 2, 2, 3, 3, 4, 4, 5]


@pytest.mark.parametrize("bad", [0, -1, 4097, 2.5, True, "8"])
def test_rollout_k_must_be_a_count(bad):
    with pytest.raises(ValueError, match="rollout worlds k"):
        pr.check_k(bad)


@pytest.mark.parametrize("argv, says", [
    (["balance", "--variants", "hunan-hengyang", "--hands", "6", "--policy", "rollout",
      "greedy", "greedy", "--rollout-k", "2"], "policies rollout, greedy, greedy"),
    (["arena", "--variant", "hunan-hengyang", "--challenger", "rollout", "--baseline",
      "greedy", "--decks", "2", "--rollout-k", "2"], "rollout: 2 worlds per candidate answer"),
])
def test_commands_take_the_rollout_bot(argv, says, tmp_path, capsys):
    from test_cli import run

    code, out, err = run([*argv, "--out", str(tmp_path / "x.parquet")], capsys)
    assert code == 0, err
    assert says in out
    assert read_metadata(tmp_path / "x.parquet")["rollout_k"] == "2"


def test_rollout_beats_greedy():
    """The duplicate arena (issue 9 §2): rollout (K = 32) against greedy on 100 decks of 八一,
    the paired 95% interval above zero."""
    r = zs.arena("guangxi-81", "rollout", "greedy", 100, seed=3, rollout_k=32)
    assert r["ci_low"][0] > 0, r.select("score_diff", "ci_low", "ci_high").row(0)
