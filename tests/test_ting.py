"""The 听 filter of the bots (``kernels.ting``) against the pure-Python reference (RULES.md §3
groups, §6 waits): where it answers False, no card completes the hand (``ting``), or the hand
left by any free discard (``ting_after_discard``), on an own draw as the greedy score counts
waits (``reference.best``, which never reads the filter's tables).

Hands are drawn near a win: whole groups (runs, 二七十, 绞, 坎 and a pair), then one or two cards
swapped, so that many of them wait.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import zipai_sim as zs
from zipai_sim.game import reference as ref
from zipai_sim.kernels.ting import ting, ting_after_discard
from zipai_sim.kernels.ting_masks import ting_after_discards, ting_discards

P = zs.load_variant("guangxi-81").params

# every group of RULES.md §3 as kinds (0..9 small, 10..19 big)
GROUPS = ([[s + v, s + v + 1, s + v + 2] for s in (0, 10) for v in range(8)]
          + [[s + 1, s + 6, s + 9] for s in (0, 10)]
          + [[v, v, v + 10] for v in range(10)] + [[v, v + 10, v + 10] for v in range(10)]
          + [[k, k, k] for k in range(20)])


def _near_win(rng_groups: list[int], pair: int, out: list[int], into: list[int]) -> list[int]:
    """Counts of the groups ``rng_groups`` (indices into GROUPS; one is skipped where a kind
    would reach three outside a 坎, which would lock it) and a pair of ``pair`` (-1: none),
    then the ``out[i]``-th cards held taken and the kinds ``into`` added (where under four)."""
    hand = [0] * 20
    for g in rng_groups:
        cards = GROUPS[g]
        kan = len(set(cards)) == 1
        if all(hand[k] == 0 if kan else hand[k] + cards.count(k) <= 2 for k in cards):
            for k in cards:
                hand[k] += 1
    if pair >= 0 and hand[pair] == 0:
        hand[pair] += 2
    for i in out:  # the i-th card held (cyclically)
        held = [k for k in range(20) for _ in range(hand[k])]
        if held:
            hand[held[i % len(held)]] -= 1
    for k in into:
        if hand[k] < 4:
            hand[k] += 1
    return hand


def _words(hand: list[int], fours: int) -> tuple[int, int, int]:
    """The filter's arguments: free cards packed 3 bits a kind, the 坎 as a spaced mask, and 1
    when a four-card group (a 提 in hand, or ``fours`` on the table) owes a pair."""
    pk = sum(c << (3 * k) for k, c in enumerate(hand) if c in (1, 2))
    k3 = sum(1 << (3 * k) for k, c in enumerate(hand) if c == 3)
    return pk, k3, int(fours > 0 or 4 in hand)


def _waits(hand: list[int], fours: int) -> bool:
    """Whether some card completes ``hand`` on an own draw (the reference search)."""
    return any(ref.best(hand, P, k, True, 0, fours)[0] >= 0 for k in range(20) if hand[k] < 4)


def _waits_after_discard(hand: list[int], fours: int) -> bool:
    for b in range(20):
        if 0 < hand[b] < 3:
            left = list(hand)
            left[b] -= 1
            if _waits(left, fours):
                return True
    return False


def _hands(net: int):
    """Near-win hands: groups and a pair, then ``k`` cards out and ``k + net`` in, k = 1..2."""
    return st.integers(1, 2).flatmap(lambda k: st.builds(
        _near_win, st.lists(st.integers(0, len(GROUPS) - 1), min_size=5, max_size=7),
        st.integers(-1, 19), st.lists(st.integers(0, 30), min_size=k, max_size=k),
        st.lists(st.integers(0, 19), min_size=k + net, max_size=k + net)))


@settings(max_examples=300, derandomize=True, deadline=None)
@given(_hands(-1), st.integers(0, 1))
def test_no_ting_means_no_wait(hand, fours):
    if not ting(*_words(hand, fours)):
        assert not _waits(hand, fours), hand


@settings(max_examples=80, derandomize=True, deadline=None)
@given(_hands(0), st.integers(0, 1))
def test_no_ting_after_discard_means_no_discard_leaves_a_wait(hand, fours):
    if not ting_after_discard(*_words(hand, fours)):
        assert not _waits_after_discard(hand, fours), hand


@settings(max_examples=80, derandomize=True, deadline=None)
@given(_hands(0), st.integers(0, 1))
def test_ting_discards_names_every_discard_that_leaves_a_wait(hand, fours):
    """The discards ``ting_discards`` names are exactly those after which ``ting`` says True
    (so that a caller may skip the others and not ask ``ting`` again), and every discard that
    leaves a wait by the reference search is among them."""
    pk, k3, need0 = _words(hand, fours)
    mask = ting_discards(pk, k3, need0)
    assert (mask != 0) == ting_after_discard(pk, k3, need0), hand
    for b in range(20):
        named = bool(mask >> (3 * b) & 1)
        if not 0 < hand[b] < 3:
            assert not named, (hand, b)
            continue
        assert named == ting(pk - (1 << (3 * b)), k3, need0), (hand, b)
        left = list(hand)
        left[b] -= 1
        if not named:
            assert not _waits(left, fours), (hand, b)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(_hands(1), st.integers(0, 1))
def test_ting_after_discards_names_the_first_discards_that_keep_a_wait_in_reach(hand, fours):
    """``ting_after_discards`` names exactly the discards after which ``ting_after_discard``
    says True (a hand one card long, as after a draw: two discards to a wait); every first
    discard that the reference finds a wait behind (a second discard, then a wait) is among
    them."""
    pk, k3, need0 = _words(hand, fours)
    mask = ting_after_discards(pk, k3, need0)
    for d in range(20):
        named = bool(mask >> (3 * d) & 1)
        if not 0 < hand[d] < 3:
            assert not named, (hand, d)
            continue
        assert named == ting_after_discard(pk - (1 << (3 * d)), k3, need0), (hand, d)
        if not named:
            left = list(hand)
            left[d] -= 1
            assert not _waits_after_discard(left, fours), (hand, d)


def test_the_masks_on_random_hands_equal_one_filter_per_discard():
    """The same identities on 20,000 random free-card hands (counts 0..2, 0..2 坎), most of
    which the near-win hands above do not look like; both name a discard for some of them."""
    rng = np.random.default_rng(20261204)
    named = named2 = 0
    for _ in range(20_000):
        counts = np.minimum(np.bincount(rng.integers(0, 20, rng.integers(5, 24)),
                                        minlength=20), 2)
        pk = sum(int(c) << (3 * k) for k, c in enumerate(counts))
        k3 = sum(1 << (3 * int(k)) for k in rng.integers(0, 20, rng.integers(0, 3))
                 if counts[k] == 0)
        need0 = int(rng.integers(0, 2))
        want = sum(1 << (3 * k) for k in range(20)
                   if counts[k] and ting(pk - (1 << (3 * k)), k3, need0))
        assert ting_discards(pk, k3, need0) == want, (counts.tolist(), k3, need0)
        want2 = sum(1 << (3 * k) for k in range(20)
                    if counts[k] and ting_after_discard(pk - (1 << (3 * k)), k3, need0))
        assert ting_after_discards(pk, k3, need0) == want2, (counts.tolist(), k3, need0)
        named += want != 0
        named2 += want2 != 0
    assert named >= 200 and named2 >= 200, (named, named2)


def test_the_filter_answers_false_for_most_hands_without_a_wait():
    """Not vacuous: near-win hands wait often, and the filter tells most of the others apart
    (it may answer True only where (a) adds a kind held as 坎 or 提; module docstring)."""
    rng = np.random.default_rng(20261203)
    seen = {True: 0, False: 0}
    told = 0
    for _ in range(300):
        g = rng.integers(0, len(GROUPS), rng.integers(5, 8)).tolist()
        k = int(rng.integers(1, 3))
        hand = _near_win(g, int(rng.integers(-1, 20)), rng.integers(0, 30, k).tolist(),
                         rng.integers(0, 20, k - 1).tolist())
        fours = int(rng.integers(0, 2))
        truth = _waits(hand, fours)
        said = ting(*_words(hand, fours))
        assert said or not truth, hand
        seen[truth] += 1
        told += (not truth) and (not said)
    assert seen[True] >= 30 and seen[False] >= 30, seen
    assert told >= 0.9 * seen[False], (told, seen)
