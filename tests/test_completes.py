"""The exact completability tests the deal loop asks before a 胡息 search (``kernels.completes``:
``completes``, ``completes_three``, ``all_groups``) against the checker's own pure-Python search
(``checker_hand``, written from RULES.md §3 and §6 alone): hands that are all groups by
construction, the same hands with one card changed, and random deals."""

import random

import numpy as np
import pytest
from _gen import FREE_GROUPS, complete_hands, random_hands
from checker_hand import best_free, counts
from numba import njit

from zipai_sim.game.variants import list_variants, load_variant
from zipai_sim.kernels.completes import all_groups, completes, completes_three
from zipai_sim.kernels.deal_filters import incoming_bonus, may_be_complete, may_win_on
from zipai_sim.kernels.hand import WORK, eval_packed, is_win
from zipai_sim.kernels.packed import W

NO_POINTS = (0, 0, 0, 0)  # shape only: every split scores 0


def packed(counts) -> int:
    return sum(int(n) << (W * k) for k, n in enumerate(counts))


@njit(cache=False)
def _completes(q, need):
    return completes(q, need)


@njit(cache=False)
def _completes_three(q, k, need):
    return completes_three(q, k, need)


@njit(cache=False)
def _all_groups(ps, lz):
    return all_groups(ps, lz)


def shape(free, need: int) -> bool:
    """The checker's answer: the free counts split into groups with exactly ``need`` pairs."""
    return best_free(tuple(int(x) for x in free), bool(need), NO_POINTS) >= 0


def free_hands(seed: int, count: int, top: int) -> list[list[int]]:
    """Free-card counts near complete: unions of free groups (runs, 二七十, 绞) and at most one
    pair, some with a card moved, each kind held 0..``top`` times."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        c = [0] * 20
        for _ in range(rng.randrange(1, 7)):
            for k in rng.choice(FREE_GROUPS):
                c[k] += 1
        if rng.random() < 0.5:
            c[rng.randrange(20)] += 2
        if rng.random() < 0.5:  # move a card
            held = [k for k in range(20) if c[k]]
            c[rng.choice(held)] -= 1
            c[rng.randrange(20)] += 1
        if max(c) <= top:
            out.append(c)
    return out


@pytest.mark.parametrize("need", [0, 1])
def test_completes_matches_the_checker(need):
    hands = free_hands(1, 3000, 2)
    got = [_completes(packed(c), need) for c in hands]
    want = [shape(c, need) for c in hands]
    assert got == want
    assert 300 < sum(want) < len(want) - 300  # both answers are exercised


@pytest.mark.parametrize("need", [0, 1])
def test_completes_three_matches_the_checker(need):
    hands = [c for c in free_hands(2, 6000, 3) if sorted(c)[-2] <= 2 and max(c) == 3]
    got = [_completes_three(packed(c), c.index(3), need) for c in hands]
    want = [shape(c, need) for c in hands]
    assert got == want
    assert 50 < sum(want) < len(want) - 50


def ways_with(hand, lz: int) -> bool:
    """RULES.md §6 with another player's card of kind ``lz``: a 坎 (3) and 提 (4) are locked, the
    pair is owed with a four-card group. The card may be free, make a 碰 with a pair (or stay free
    beside it), or a 跑 over a 坎 (or stay free beside it, 抢招和)."""
    c = [int(x) for x in hand]
    fours = sum(1 for x in c if x == 4)
    free = [x if x <= 2 else 0 for x in c]
    if lz < 0:
        return shape(free, int(fours >= 1))
    x = c[lz]
    with_card = free.copy()
    with_card[lz] += 1
    if shape(with_card, int(fours >= 1)):
        return True
    if x == 2:
        peng = free.copy()
        peng[lz] = 0
        return shape(peng, int(fours >= 1))
    return x == 3 and shape(free, 1)


def test_all_groups_matches_the_rules_for_dealt_and_incoming_cards():
    rng = random.Random(3)
    hands = list(complete_hands(300, 4)) + list(random_hands(300, 5))
    for h in list(hands):  # the complete hands with one card swapped
        h = h.copy()
        held = [k for k in range(20) if 0 < h[k]]
        h[rng.choice(held)] -= 1
        h[rng.choice([k for k in range(20) if h[k] < 4])] += 1
        hands.append(h)
    alone = [_all_groups(packed(h), -1) == ways_with(h, -1) for h in hands]
    assert all(alone)
    seen = set()
    for h in hands:  # a non-dealer's 20 cards and another's card, every kind the hand can take
        h20 = h.copy()
        h20[rng.choice([k for k in range(20) if h20[k]])] -= 1
        for lz in range(20):
            if h20[lz] < 4:
                want = ways_with(h20, lz)
                assert _all_groups(packed(h20), lz) == want, (list(h20), lz)
                seen.add((int(h20[lz]), want))
    assert {(x, True) for x in range(4)} <= seen  # a win on each count of the card's kind


@njit(cache=False)
def _filters_reject_a_win(hands, P, bonus, work):
    """Hands (and cards) that the deal loop's cheap tests refuse but the search completes:
    ``may_be_complete`` against the hand alone, ``may_win_on`` against each kind as another's
    card; ``bonus`` from ``incoming_bonus``. Both must be necessary tests: 0 and 0. Also counts
    the wins seen, so that the test knows it asked about some."""
    out = np.zeros(4, np.int64)
    for i in range(hands.shape[0]):
        ps = np.int64(0)
        for k in range(20):
            ps += np.int64(hands[i, k]) << (W * k)
        if eval_packed(ps, -1, 1, 0, 0, P, work) >= 0:
            out[2] += 1
            if not may_be_complete(ps):
                out[0] += 1
        for lz in range(20):
            if hands[i, lz] < 4 and is_win(eval_packed(ps, lz, 0, 0, 0, P, work), P):
                out[3] += 1
                if not may_win_on(ps, lz, P, bonus):
                    out[1] += 1
    return out


@pytest.mark.parametrize("key", list_variants())
def test_the_cheap_deal_tests_never_refuse_a_win(key):
    P = load_variant(key).params
    bonus = np.empty((2, 20), np.int64)
    incoming_bonus(P, bonus)
    rng = random.Random(6)
    n = load_variant(key).layout.other_cards
    whole = list(complete_hands(400, 7, n + 1))
    hands = list(whole)
    for h in whole:  # a non-dealer's cards: a complete hand less one card, and one card moved
        h = h.copy()
        h[rng.choice([k for k in range(20) if h[k]])] -= 1
        hands.append(h.copy())
        h[rng.choice([k for k in range(20) if h[k]])] -= 1
        h[rng.choice([k for k in range(20) if h[k] < 4])] += 1
        hands.append(h)
    got = _filters_reject_a_win(np.array(hands, np.int8), P, bonus, np.zeros(WORK, np.int64))
    assert got[0] == 0 and got[1] == 0
    assert got[2] >= 400 and got[3] > 100


@pytest.mark.parametrize("hand, lz, want", [
    ("一一二三壹", "一", True),   # free beside the pair: 一二三 + 一一壹 (绞); 碰 leaves 二三壹
    ("一一一二三", "一", True),   # 抢招和: the 坎 kept, 一二三; the 跑 owes a pair, leaves 二三
    ("一一一二四", "一", False),  # neither way: 二四 and 一二四 are no groups
    ("一一二三四", "一", True),   # 碰 一一一, leaving 二三四
])
def test_all_groups_worked_by_hand(hand, lz, want):
    """Each way a card joins a hand (RULES.md §6), one hand apiece, judged by hand."""
    c = counts(hand)
    k = counts(lz).index(1)
    assert _all_groups(packed(c), k) == want
    assert ways_with(c, k) == want
