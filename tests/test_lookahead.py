"""The lookahead bot (issue 9 §1), its numbers worked out again here: the chance that a wait
arrives is the hypergeometric tail, from ``math.comb`` and scipy; a hand's wait value and its
one-step look-ahead from the slow pure-Python decomposer (``reference.waits``, RULES.md §3–§6);
the unseen counts it reads from the table, against card conservation (RULES.md §1: 80 cards).

Kernel and twin move for move: tests/test_play_kernel.py; the bot sees only what a player sees:
tests/test_hidden.py; lookahead beats greedy: tests/test_arena.py.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from _gen import complete_hands
from scipy import stats

import zipai_sim as zs
from zipai_sim.game import params
from zipai_sim.game import reference as ref
from zipai_sim.play.engine import Game
from zipai_sim.play.policies import GreedyPolicy, LookaheadPolicy
from zipai_sim.runs.chunks import chunk_keys

KEY = int(chunk_keys(31, 0, 1)[0])


def test_hit_is_the_hypergeometric_tail():
    for utot in range(0, 50):
        for stock in range(0, utot + 1):
            for live in range(0, utot + 1):
                want = 1 - math.comb(utot - live, stock) / math.comb(utot, stock)
                assert LookaheadPolicy.hit(utot, stock, live) == pytest.approx(want, abs=1e-12)
    for utot, stock, live in [(40, 23, 3), (55, 30, 1), (12, 12, 1), (60, 5, 8)]:
        want = stats.hypergeom(utot, live, stock).sf(0)  # P(at least one live card drawn)
        assert LookaheadPolicy.hit(utot, stock, live) == pytest.approx(want, rel=1e-12)


def _game(variant: str) -> Game:
    v = zs.load_variant(variant)
    return Game(v, ref.shuffled_deck(KEY, 0), [GreedyPolicy()] * v.layout.players, KEY, 0)


def _waiting_hands(count: int, seed: int) -> list[list[int]]:
    """20-card hands one card short of a complete hand (a free card taken out of a complete
    21-card hand, tests/_gen.py): each waits at least on that card."""
    rng = random.Random(seed)
    out = []
    for h in complete_hands(4 * count, seed):
        free = [k for k in range(20) if 0 < h[k] < 3]
        if free:
            h = [int(x) for x in h]
            h[rng.choice(free)] -= 1
            out.append(h)
    return out[:count]


def _unseen(rng: random.Random, hand: list[int]) -> tuple[list[int], int, int]:
    u = [rng.randint(0, 4 - hand[k]) for k in range(20)]
    utot = sum(u)
    return u, utot, rng.randint(0, utot)


def _value_by_hand(hand, P, unseen, utot, stock, drawn=-1) -> float:
    """RULES.md §6 wins (threshold, 飘胡) among the own-draw waits of the slow decomposer; the
    value defined in docs/decisions.md: chance × mean (max(胡息 − 起胡, 0) + 3) over live cards."""
    live = acc = 0
    for k, (own, _other) in ref.waits(hand, P).items():
        u = unseen[k] - (k == drawn)
        if ref.is_win(own, P) and u > 0:
            live += u
            acc += u * (max(own - P[params.THRESHOLD], 0) + 3)
    if live == 0:
        return 0.0
    chance = 1 - math.comb(utot - live, stock) / math.comb(utot, stock)
    return chance * acc / live


@pytest.mark.parametrize("variant", ["guangxi-81", "changsha-paohuzi", "liuhu-dao"])
def test_wait_value_from_the_slow_decomposer(variant):
    game = _game(variant)
    rng = random.Random(5)
    bot = LookaheadPolicy()
    nonzero = 0
    for hand in _waiting_hands(25, seed=len(variant)):
        view = _unseen(rng, hand)
        got = bot.wait_value(game, hand, 0, 0, view)
        assert got == pytest.approx(_value_by_hand(hand, game.P, *view), abs=1e-12)
        nonzero += got > 0
    assert nonzero >= 5


def test_step_value_from_the_slow_decomposer():
    """v1: for each unseen kind j (chance unseen[j] / U), the best wait value after drawing it
    and discarding a free card, with one card fewer unseen and in the stock."""
    game = _game("guangxi-81")
    rng = random.Random(8)
    bot = LookaheadPolicy()
    for hand in _waiting_hands(2, seed=3):
        k = next(k for k in range(20) if 0 < hand[k] < 3)
        hand[k] -= 1  # now two cards short: it waits on nothing or little
        hand[next(j for j in range(20) if hand[j] == 0)] += 1
        unseen, utot, stock = _unseen(rng, hand)
        want = 0.0
        for j in range(20):
            if unseen[j] <= 0:
                continue
            best = 0.0
            for d in range(20):
                h = list(hand)
                h[j] += 1
                if 0 < h[d] < 3:
                    h[d] -= 1
                    best = max(best, _value_by_hand(h, game.P, unseen, utot - 1,
                                                    max(stock - 1, 0), drawn=j))
            want += unseen[j] * best
        got = bot.step_value(game, hand, 0, 0, (unseen, utot, stock))
        assert got == pytest.approx(want / utot, abs=1e-12)


class Watch(LookaheadPolicy):
    """A lookahead seat that checks its unseen counts at every question against the table."""

    def __init__(self, log: list):
        super().__init__()
        self.log = log

    def view(self, game, seat, card):
        unseen, utot, stock = super().view(game, seat, card)
        me = game.players[seat]
        hidden = sum(sum(pl.hand) + sum(len(m.cards) for m in pl.melds if m.name == "wei")
                     for s, pl in enumerate(game.players) if s != seat)
        assert min(unseen) >= 0 and utot == sum(unseen)
        assert utot == hidden + len(game.stock) and stock == len(game.stock)
        for k in range(20):  # §1: four of each kind; the seat's own cards are never unseen
            assert unseen[k] <= 4 - me.hand[k]
        self.log.append(utot)
        return unseen, utot, stock


@pytest.mark.parametrize("variant", ["guangxi-81", "hunan-hengyang"])
def test_unseen_cards_are_the_hidden_places(variant):
    v = zs.load_variant(variant)
    log: list = []
    for j in range(2):
        pols = [Watch(log) if s == 1 else GreedyPolicy() for s in range(v.layout.players)]
        Game(v, ref.shuffled_deck(KEY, j), pols, KEY, j).play()
    assert len(log) > 10


def test_lookahead_plays_on_the_numba_engine_by_name():
    got = zs.simulate_hands("guangxi-81", 64, seed=3, policies=["lookahead", "greedy", "random"])
    assert got.filter(metric="huangzhuang")["n"][0] == 64
    assert np.isfinite(zs.arena("guangxi-81", "lookahead", "random", 8, seed=1)
                       .row(0, named=True)["score_diff"])


@pytest.mark.parametrize("argv, says", [
    (["balance", "--variants", "hunan-hengyang", "--hands", "40", "--policy", "lookahead",
      "greedy", "random"], "policies lookahead, greedy, random"),
    (["arena", "--variant", "hunan-hengyang", "--challenger", "lookahead", "--baseline",
      "greedy", "--decks", "8"], "challenger lookahead vs baseline greedy"),
    (["table", "opening", "--variants", "hunan-hengyang", "--hands", "60", "--policy",
      "lookahead"], "lookahead"),
])
def test_commands_take_the_lookahead_bot(argv, says, tmp_path, capsys):
    from test_cli import run

    code, out, err = run([*argv, "--out", str(tmp_path / "x.parquet")], capsys)
    assert code == 0, err
    assert says in out
    assert (tmp_path / "x.parquet").exists()


def test_lookahead_hands_do_not_depend_on_what_the_memo_holds():
    """The kernel remembers, per hand it has valued, its winning waits and the (draw, discard)
    pairs of ``v1`` (facts of the hand, not of what is unseen): hands played one after another
    on one scratch, through two variants and back (the memo cleared for another ``P``), give
    the same moves and outcome rows as each hand on a fresh scratch."""
    from zipai_sim.kernels import play as kp

    shared = kp.new_scratch()
    for variant in ("guangxi-81", "hunan-hengyang", "guangxi-81"):
        v = zs.load_variant(variant)
        codes = [kp.POL_LOOKAHEAD] * v.layout.players
        for j in range(12):
            deck = ref.shuffled_deck(KEY, j)
            moves, out = kp.play_one(v, deck, codes, KEY, j, shared)
            fresh_moves, fresh_out = kp.play_one(v, deck, codes, KEY, j, kp.new_scratch())
            assert np.array_equal(moves, fresh_moves) and np.array_equal(out, fresh_out), \
                (variant, j)


def test_v1_memo_keeps_only_the_draws_it_explored():
    """``v1`` remembers a hand's (draw, discard) pairs with the draws it explored (those then
    unseen): valued first while a draw that counts had no unseen copy, the hand valued again
    once that draw is unseen gives the twin's ``step_value`` (the same double), not the sum
    without that draw."""
    from zipai_sim.kernels import play as kp
    from zipai_sim.kernels.play import lookahead as kl
    from zipai_sim.kernels.play.layout import FL_SIZE

    game = _game("guangxi-81")
    P = game.P
    bot = LookaheadPolicy()
    rng = random.Random(11)
    checked = 0
    for hand in _waiting_hands(12, seed=4):
        k = next(k for k in range(20) if 0 < hand[k] < 3)
        hand[k] -= 1  # two cards short
        hand[next(j for j in range(20) if hand[j] == 0)] += 1
        unseen = [4 - hand[x] for x in range(20)]
        stock = rng.randint(10, 30)
        full = sum(int(hand[x]) << (3 * x) for x in range(20))
        want = bot.step_value(game, hand, 0, 0, (unseen, sum(unseen), stock))
        for j in range(20):  # the draws whose term counts
            less = list(unseen)
            less[j] = 0
            if bot.step_value(game, hand, 0, 0, (less, sum(less), stock)) * sum(less) \
                    == want * sum(unseen):
                continue
            memo = kp.new_scratch()[10]
            kl.memo_for(P, memo)
            fl = np.zeros(FL_SIZE, np.float64)
            for u in (less, unseen):  # valued first without draw j, then with it
                U = np.array(u, np.int8)
                kl.tables(fl, sum(u), stock)
                got = kl.step_value(P, memo, full, 0, 0, U, sum(u), fl, -1)  # every draw
            assert got == want, (hand, j)
            checked += 1
            break
    assert checked >= 3
