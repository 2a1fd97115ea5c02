"""Shuffle and deal kernels (RULES.md §2).

Deck layout after the shuffle, for ``S`` active seats and ``H`` cards a non-dealer gets:
seat ``s`` holds ``deck[s*H:(s+1)*H]``; the dealer's extra card, the shown 亮张, is
``deck[S*H]``; the stock (底牌) is ``deck[S*H+1:]`` in draw order. The shuffle is a forward
Fisher–Yates, so position ``i`` is final after step ``i``: a kernel that needs only the hands and
the top few stock cards can stop early and continue later with the same stream and get exactly
the cards a full shuffle gives. ``deal_steps`` takes the same steps but only sums the cards it
deals, leaving their positions stale (the deal loop reads the hands as sums, the stock from
the 亮张 on).
"""

import numpy as np
from numba import njit, prange

from zipai_sim.game import params as p
from zipai_sim.kernels.packed import popcount
from zipai_sim.kernels.rng import bounded, deal_state, pair_draws

N_KINDS = 20
DECK = 80
NO_SPARE = np.uint64(0)


@njit(cache=True, _nrt=False)
def fresh_deck(deck):
    """Write the unshuffled deck (kinds 0..19, four copies each) into ``deck: int8[80]``."""
    for i in range(DECK):
        deck[i] = i // 4


@njit(cache=True, _nrt=False, inline="always")
def _steps(deck, start, stop, state, spare, have, keep):
    """Fisher–Yates steps ``start..stop-1``: returns ``(state, spare, have, total)``, the stream
    and the sum of the cards the steps put at positions ``start..stop-1``. ``keep`` (a
    constant 1 or 0 at each call site, folded by the compiler): write those cards back, or
    leave ``deck[start:stop]`` stale for a caller that needs only their sum (each step then
    stores one card, not two). Positions from ``stop`` on are the same either way.

    Two steps per splitmix64 output where no draw can be rejected: step ``i`` takes the high
    half, step ``i + 1`` the low half, exactly as ``bounded`` hands them out. A pair whose
    products fall in the band where Lemire's method might reject (under 40 in a billion) goes
    through ``bounded`` one step at a time, so the cards are always those of the plain loop;
    about a third faster (no branch on ``have`` per step)."""
    i = start
    total = 0
    while True:
        if have == 0:
            while i + 2 <= stop:
                ok, nxt, r1, r2 = pair_draws(state, DECK - i)
                if not ok:
                    break  # one of the two might be rejected: let bounded decide
                state = nxt
                a = np.uint64(i)
                b = a + r1
                x = deck[b]
                deck[b] = deck[a]
                if keep == 1:
                    deck[a] = x
                total += x
                a += np.uint64(1)
                b = a + r2
                x = deck[b]
                deck[b] = deck[a]
                if keep == 1:
                    deck[a] = x
                total += x
                i += 2
        if i >= stop:
            return state, spare, have, total
        state, spare, have, r = bounded(state, spare, have, DECK - i)
        j = i + r
        x = deck[j]
        deck[j] = deck[i]
        if keep == 1:
            deck[i] = x
        total += x
        i += 1


@njit(cache=True, _nrt=False)
def shuffle_steps(deck, start, stop, state, spare, have):
    """Run Fisher–Yates steps ``start..stop-1`` on ``deck: int8[80]`` (or a ``fresh_powers``
    deck); takes and returns the stream ``(state, spare, have)``
    (``zipai_sim.kernels.rng.bounded``). A deal's stream starts as ``(deal_state(key, j), 0,
    0)``. Two steps per splitmix64 output where none can be rejected (``_steps``)."""
    state, spare, have, _ = _steps(deck, start, stop, state, spare, have, 1)
    return state, spare, have


@njit(cache=True, _nrt=False)
def deal_steps(deck, start, stop, state, spare, have):
    """Deal out positions ``start..stop-1`` of a ``fresh_powers`` deck (``int64[80]``): the
    same Fisher–Yates steps as ``shuffle_steps``, returning ``(state, spare, have, total)``
    where ``total`` is the packed counts of the cards dealt there. ``deck[start:stop]`` is left
    stale (each step stores one card instead of two, and the hand is summed as it is dealt,
    not read back); later positions are exactly ``shuffle_steps``'."""
    return _steps(deck, start, stop, state, spare, have, 0)


@njit(cache=True, _nrt=False, inline="always")
def fresh_powers(deck):
    """Write the unshuffled deck as packed single cards into ``deck: int64[80]``: a card of
    kind ``k`` is ``1 << (3 * k)`` (``zipai_sim.kernels.packed``), so the sum of a hand's
    cards is its packed counts. Same order as ``fresh_deck``, so the same stream shuffles both
    alike."""
    for i in range(DECK):
        deck[i] = 1 << (3 * (i // 4))


@njit(cache=True, _nrt=False, inline="always")
def kind_of(card):
    """Kind of a card of a ``fresh_powers`` deck: ``1 << (3 * k)`` has ``3 * k`` lower bits."""
    return popcount(card - 1) // 3


@njit(cache=True, _nrt=False, inline="always")
def shuffle_deal_packed(deck, h, seats, state, spare, have, packed):
    """Shuffle a ``fresh_powers`` deck just far enough to fix every hand and the 亮张 (steps
    ``0..seats*h``), and write each seat's packed counts into ``packed: int64[≥seats]``: a
    card is its own packed count, so a hand is the sum of its cards. The dealer's count
    includes the 亮张, which stays at ``deck[seats*h]``; the hands' positions
    ``deck[:seats*h]`` are left stale (``deal_steps``). Returns the stream ``(state, spare,
    have)``.

    Summing each hand as it is dealt, with one store a step, took a deal of guangxi-81 from
    95 to 72 ns on one core (shuffle and hands only) against reading the hands back after a
    full shuffle of those positions."""
    for s in range(seats):
        state, spare, have, x = deal_steps(deck, s * h, (s + 1) * h, state, spare, have)
        packed[s] = x
    end = seats * h
    state, spare, have, lz = deal_steps(deck, end, end + 1, state, spare, have)
    deck[end] = lz
    packed[0] += lz  # the last card dealt is the dealer's 亮张
    return state, spare, have


@njit(cache=True)
def seeded_deck(key, h, deck):
    """Deal hand ``h`` of chunk key ``key`` into ``deck: int8[80]`` as ``kernels.play.play_chunks``
    deals it (= ``game.reference.shuffled_deck(key, h)``); ``key: uint64``, ``h: int64``."""
    fresh_deck(deck)
    shuffle_steps(deck, 0, DECK - 1, deal_state(key, h), NO_SPARE, 0)


@njit(cache=True, _nrt=False)
def hands_from_deck(deck, P, hands):
    """Count vectors of each active seat from a dealt deck; ``hands: int8[seats, 20]``."""
    seats = P[p.SEATS]
    h = P[p.OTHER_CARDS]
    for s in range(seats):
        row = hands[s]
        row[:] = 0
        for i in range(s * h, (s + 1) * h):
            row[deck[i]] += 1
    hands[0, deck[seats * h]] += 1


@njit(cache=True, parallel=True)
def deal_chunks(keys, sizes, starts, P, hands_out, stock_out, lz_out):
    """Deal every deal of every chunk (one prange iteration per chunk).

    keys: uint64[m] chunk keys; sizes: int64[m] deals per chunk; starts: int64[m] row of the
    chunk's first deal in the outputs. hands_out: int8[n, seats, 20]; stock_out: int8[n, stock];
    lz_out: int8[n] the 亮张 kind.
    """
    seats = P[p.SEATS]
    h = P[p.OTHER_CARDS]
    stock_len = P[p.STOCK_LEN]
    for c in prange(keys.shape[0]):
        deck = np.empty(DECK, np.int8)
        for j in range(sizes[c]):
            row = starts[c] + j
            fresh_deck(deck)
            shuffle_steps(deck, 0, DECK - 1, deal_state(keys[c], j), NO_SPARE, 0)
            hands_from_deck(deck, P, hands_out[row])
            lz_out[row] = deck[seats * h]
            for t in range(stock_len):
                stock_out[row, t] = deck[seats * h + 1 + t]


@njit(cache=True, parallel=True)
def shuffle_floor(keys, sizes):
    """Benchmark floor: the bare shuffle of each deal, no dealing or evaluation.
    Returns the sum of the first cards so the work cannot be optimised away."""
    total = np.zeros(keys.shape[0], np.int64)
    for c in prange(keys.shape[0]):
        deck = np.empty(DECK, np.int8)
        acc = 0
        for j in range(sizes[c]):
            fresh_deck(deck)
            shuffle_steps(deck, 0, DECK - 1, deal_state(keys[c], j), NO_SPARE, 0)
            acc += deck[0]
        total[c] = acc
    return total.sum()
