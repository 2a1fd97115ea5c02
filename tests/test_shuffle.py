"""The kernels' Fisher–Yates shuffle against the reference stream where it is hardest: draws
that Lemire's method rejects, or might (RULES.md §2).

A random state meets the rejection band a few times in a billion draws, so the states here are
built: the splitmix64 finalizer is a bijection, and inverting it places any chosen 64-bit output
at any position of the stream.
"""

import numpy as np
import pytest

from zipai_sim.game import reference as ref
from zipai_sim.kernels.deal import (
    DECK,
    deal_steps,
    fresh_deck,
    fresh_powers,
    kind_of,
    shuffle_steps,
)

MASK = ref.MASK64


def _unshift(z: int, s: int) -> int:
    """Inverse of ``z ^ (z >> s)`` on 64 bits."""
    x = z
    for _ in range(64 // s + 1):
        x = z ^ (x >> s)
    return x & MASK


def unmix64(r: int) -> int:
    """Inverse of ``reference.mix64``."""
    z = _unshift(r, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK
    z = _unshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK
    return _unshift(z, 30)


def state_with_output(r: int, k: int) -> int:
    """A stream state whose ``k``-th splitmix64 output (1-based) is ``r``."""
    return (unmix64(r) - k * ref.GOLDEN) & MASK


def ref_steps(deck: list[int], start: int, stop: int, state: int) -> list[int]:
    """Fisher–Yates steps ``start..stop-1`` by the reference stream, from a bare state."""
    rs = ref.Stream(0, 0)
    rs.state, rs.halves = state, []
    for i in range(start, stop):
        k = i + rs.below(DECK - i)
        deck[i], deck[k] = deck[k], deck[i]
    return deck


def test_unmix64_inverts_mix64():
    for z in (0, 1, 12345, MASK, 0x9E3779B97F4A7C15):
        assert ref.mix64(unmix64(z)) == z


# (high half, low half) of one output: 0 is rejected for every m that does not divide 2**32
# (2**32 % m > 0); 0x3333_3334 gives (x * 80) % 2**32 = 64, inside the band (< 80) but kept
# for m = 80 (2**32 % 80 = 16); the rest are ordinary
HALVES = [(0, 0), (0, 0xDEAD_BEEF), (0xDEAD_BEEF, 0), (0x3333_3334, 0x1234_5678),
          (0x1234_5678, 0x3333_3334), (0, 1), (0xFFFF_FFFF, 0xFFFF_FFFF)]


@pytest.mark.parametrize("hi_lo", HALVES)
@pytest.mark.parametrize("k", [1, 2, 3, 17, 31])
@pytest.mark.parametrize("stop", [57, 61, 79, 80])
def test_rejection_band_matches_the_reference(hi_lo, k, stop):
    hi, lo = hi_lo
    state = state_with_output((hi << 32) | lo, k)
    want = ref_steps([i // 4 for i in range(DECK)], 0, stop, state)
    deck = np.empty(DECK, np.int8)
    fresh_deck(deck)
    shuffle_steps(deck, 0, stop, np.uint64(state), np.uint64(0), 0)
    assert deck.tolist() == want
    packed = np.empty(DECK, np.int64)
    fresh_powers(packed)
    shuffle_steps(packed, 0, stop, np.uint64(state), np.uint64(0), 0)
    assert [int(kind_of(c)) for c in packed] == want


@pytest.mark.parametrize("hi_lo", HALVES)
@pytest.mark.parametrize("split", [1, 2, 3, 40, 61])
def test_a_stopped_shuffle_continues_with_the_same_cards(hi_lo, split):
    """Stopping after ``split`` steps and continuing with the returned stream (possibly
    holding a spare half) gives the deck of one uninterrupted shuffle."""
    hi, lo = hi_lo
    state = state_with_output((hi << 32) | lo, 2)
    want = ref_steps([i // 4 for i in range(DECK)], 0, DECK - 1, state)
    deck = np.empty(DECK, np.int8)
    fresh_deck(deck)
    st, spare, have = shuffle_steps(deck, 0, split, np.uint64(state), np.uint64(0), 0)
    # typed as the kernels pass the stream on (a Python int 0 would compile a float version)
    shuffle_steps(deck, split, DECK - 1, np.uint64(st), np.uint64(spare), have)
    assert deck.tolist() == want


@pytest.mark.parametrize("hi_lo", HALVES)
@pytest.mark.parametrize("h", [14, 15, 20])
def test_dealing_sums_the_hands_and_keeps_the_stock(hi_lo, h):
    """``deal_steps`` per seat, then the 亮张 (``shuffle_deal_packed``'s order): each hand's
    packed sum is the reference's cards at its positions, and every position from the 亮张 on
    is the reference's, as is the stream a later shuffle continues with."""
    hi, lo = hi_lo
    state = state_with_output((hi << 32) | lo, 3)
    want = ref_steps([i // 4 for i in range(DECK)], 0, DECK - 1, state)
    deck = np.empty(DECK, np.int64)
    fresh_powers(deck)
    st, spare, have = np.uint64(state), np.uint64(0), 0
    for s in range(3):
        st, spare, have, total = deal_steps(deck, s * h, (s + 1) * h, np.uint64(st),
                                            np.uint64(spare), have)
        assert total == sum(1 << (3 * k) for k in want[s * h:(s + 1) * h])
    st, spare, have, lz = deal_steps(deck, 3 * h, 3 * h + 1, np.uint64(st), np.uint64(spare),
                                     have)
    assert lz == 1 << (3 * want[3 * h])
    deck[3 * h] = lz
    shuffle_steps(deck, 3 * h + 1, DECK - 1, np.uint64(st), np.uint64(spare), have)
    assert [int(kind_of(c)) for c in deck[3 * h:]] == want[3 * h:]
