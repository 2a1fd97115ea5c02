"""Which discards the 听 filter lets through, not only whether one does (RULES.md §3 groups, §6
waits): the bots value only those hands and ask no filter again.

- ``ting_discards(pk, k3, need0)``: exactly the free kinds ``b`` for which ``ting.ting(pk − b,
  k3, need0)`` says True (0 exactly where ``ting_after_discard`` says False);
- ``ting_after_discards(pk, k3, need0)``: exactly the free kinds ``d`` for which
  ``ting.ting_after_discard(pk − d, k3, need0)`` says True: the first discards after which a
  draw and a second discard may still leave a wait (the lookahead bot's one-step look-ahead).

How. ``ting``'s search with a discard checks ways ``(small bit, big bit)`` of per-size table
bits (``ting.jiao_ways``), the discard taken from one size. Here a card taken from a size is read
from masks per size code: a field of 10 bits per table bit ``N``, bit ``v`` set when the code
less one card of value ``v`` shows ``N`` (``SIZE_BITS``, or ``PAIR_OFF`` once two cards of a
value went into a 绞 with the added card). ``ting_discards`` takes the card ahead of the way's
removal bits (``R_f``, ``S_f``: a card taken, then what ``R``/``S`` say is ``T``/``A``), so its
masks read ``T``/``A`` after one card; ``ting_after_discards`` takes one more card ahead of any
bit of the way. Every way of the search is asked, so the masks are exact: the tests compare them
with one call of the filter per discard.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros as trailing

from zipai_sim.kernels.freetab import N_CODES, POW3, code_of
from zipai_sim.kernels.packed import TWIN, W
from zipai_sim.kernels.ting import (
    BIT,
    MODE,
    NAMES,
    PAIR_OFF,
    SIZE_BITS,
    jiao_next,
    jiao_setup,
    jiao_taken,
    jiao_ways,
)

FIELDS = 6  # 10-bit fields per int64 word; a mask table holds two words a code


def _masks_after_one(source: np.ndarray, names: tuple[str, ...]) -> np.ndarray:
    """``int64[2 * N_CODES]``: for each code, field ``i`` (word ``i // FIELDS``) holds bit
    ``v`` when ``source[code − 3^v]`` (``uint16`` table bits) has the bit ``names[i]``."""
    codes = np.arange(N_CODES)
    digits = (codes[:, None] // POW3[None, :]) % 3
    out = np.zeros((N_CODES, 2), np.int64)
    for i, name in enumerate(names):
        field = np.zeros(N_CODES, np.int64)
        for v in range(10):
            held = digits[:, v] >= 1
            field[held] |= (source[codes[held] - POW3[v]] & BIT[name] != 0).astype(np.int64) << v
        out[:, i // FIELDS] |= field << (10 * (i % FIELDS))
    return out.reshape(-1)


def _enables(names: tuple[str, ...], first: bool) -> tuple[np.ndarray, np.ndarray]:
    """``(ES, EB)``: ``ES[mode * 1024 + big bits]`` is the set (bit ``i``: ``names[i]``) of the
    small size's bits whose way, with the big size showing ``big bits``, holds; ``EB`` the
    same for the big size. ``mode``: the discard modes of ``ting._partners`` (``need0 + 2 *
    (a 坎 held) + 4 * (the added card went into a 绞)``). ``first``: the card is taken ahead of
    the whole way (``ting_after_discards``: any bit of either size); else ahead of the way's
    removal bit only (``ting_discards``: each way takes its discard from exactly one size)."""
    es = np.zeros((8, MODE), np.uint16)
    eb = np.zeros((8, MODE), np.uint16)
    for mode in range(8):
        for a, b in jiao_ways(1, mode & 1, (mode >> 1) & 1, (mode >> 2) & 1):
            assert first or (a in names) != (b in names), (a, b)
            for other in range(MODE):
                if a in names and other & BIT[b]:
                    es[mode, other] |= 1 << names.index(a)
                if b in names and other & BIT[a]:
                    eb[mode, other] |= 1 << names.index(b)
    return es.reshape(-1), eb.reshape(-1)


def _select(n: int) -> np.ndarray:
    """``int64[2 * 2**n]``: the fields (two words) that a set of ``n`` names selects."""
    out = np.zeros((1 << n, 2), np.int64)
    for m in range(1 << n):
        for i in range(n):
            if m >> i & 1:
                out[m, i // FIELDS] |= 1023 << (10 * (i % FIELDS))
    return out.reshape(-1)


def tables(names: tuple[str, ...], after: tuple[str, ...], first: bool) -> tuple:
    """One mask function's tables: the card taken ahead of the bits ``after[i]`` reads as the
    removal name ``names[i]``. ``(w0, w1, es, eb, sel)``: ``w0`` holds, per code, the first
    word of the mask after one card (``SIZE_BITS``) and of the mask after a 绞 pair
    (``PAIR_OFF``) side by side; ``w1`` their second words (fields ``FIELDS``.. of more than
    ``FIELDS`` names; unused, two words, where there are not more). A search reads both kinds
    for the same code, so they share a cache line, and the second words only where a name
    there is asked; the tables outgrow the core's L2 cache, and the two layouts were measured
    1.5-3 % and 2-4 % faster on the lookahead bot (A/B pairs, docs/decisions.md). The words
    stay in two arrays: one would pass numba's 1 MB limit on arrays frozen into cached code."""
    dm = _masks_after_one(SIZE_BITS, after)
    pm = _masks_after_one(PAIR_OFF, after)
    es, eb = _enables(names, first)
    w0 = np.ascontiguousarray(np.stack([dm[0::2], pm[0::2]], axis=1).reshape(-1))
    w1 = np.ascontiguousarray(np.stack([dm[1::2], pm[1::2]], axis=1).reshape(-1))
    if len(names) <= FIELDS:
        w1 = w1[:2]
    return w0, w1, es, eb, _select(len(names))


# ting_discards: R_f is T_f after the card, S_f is A_f after it
_REMOVE = ("R0", "R1", "R2", "S0", "S1")
D_W0, D_W1, D_ES, D_EB, D_SEL = tables(_REMOVE, ("T0", "T1", "T2", "A0", "A1"), False)
# ting_after_discards: every bit, after one more card
F_W0, F_W1, F_ES, F_EB, F_SEL = tables(NAMES, NAMES, True)
# a 10-bit mask of values, spread to one bit per kind (bit W * v)
SPREAD = np.array([sum(1 << (W * v) for v in range(10) if m >> v & 1) for m in range(1024)],
                  np.int64)


@njit(cache=True, _nrt=False, inline="always")
def _fold(x):
    """The OR of the six 10-bit fields of ``x``."""
    x |= x >> 30
    x |= x >> 20
    x |= x >> 10
    return x & 1023


@njit(cache=True, _nrt=False, inline="always")
def _taken(w0, w1, pair, sel, names, code, wide):
    """The values whose card may be taken from the size ``code`` ahead of the bits ``names``:
    the OR of their fields in ``tables``' words (``pair``: 0 for the mask after one card, 1
    for the one after a 绞 pair; ``wide``: masks have a second word)."""
    m = _fold(w0[2 * code + pair] & sel[2 * names])
    if wide:
        s1 = sel[2 * names + 1]
        if s1 != 0:
            m |= _fold(w1[2 * code + pair] & s1)
    return m


@njit(cache=True, _nrt=False, inline="always")
def _search(pk, k3, need0, w0, w1, es, eb, sel, wide):
    """``ting._ting``'s search with a discard, each way asking which card (``_taken``) instead
    of whether one; a spaced mask of kinds."""
    plain = (need0 + (2 if k3 != 0 else 0)) * MODE
    added = plain + 4 * MODE
    both, nv, vals, allow = jiao_setup(pk)
    cs0 = code_of(pk, 0)
    cb0 = code_of(pk, TWIN)
    ms = 0  # values whose small card may go, and big card
    mb = 0
    digs = 0
    while digs >= 0:
        cs, cb, busy = jiao_taken(cs0, cb0, digs, nv, vals)
        xs = SIZE_BITS[cs]
        xb = SIZE_BITS[cb]
        ms |= _taken(w0, w1, 0, sel, es[plain + xb], cs, wide)
        mb |= _taken(w0, w1, 0, sel, eb[plain + xs], cb, wide)
        # the added card completes a 绞 with two small cards, or two big ...
        ms |= _taken(w0, w1, 1, sel, es[added + xb], cs, wide)
        mb |= _taken(w0, w1, 0, sel, eb[added + PAIR_OFF[cs]], cb, wide)
        ms |= _taken(w0, w1, 0, sel, es[added + PAIR_OFF[cb]], cs, wide)
        mb |= _taken(w0, w1, 1, sel, eb[added + xs], cb, wide)
        # ... or with one card of each size of its value
        y = both & ~busy
        while y != 0:
            low = y & -y
            y ^= low
            pw = POW3[trailing(low) // W]
            ms |= _taken(w0, w1, 0, sel, es[added + SIZE_BITS[cb - pw]], cs - pw, wide)
            mb |= _taken(w0, w1, 0, sel, eb[added + SIZE_BITS[cs - pw]], cb - pw, wide)
        digs = jiao_next(digs, nv, allow)
    return SPREAD[ms] | (SPREAD[mb] << TWIN)


@njit(cache=True, _nrt=False)
def ting_discards(pk, k3, need0):
    """The free discards after which ``ting.ting`` says True, as a spaced mask of kinds (bit
    ``W * k``); 0 exactly where ``ting_after_discard`` says False. Arguments as
    ``ting.ting_after_discard`` reads them (free cards ``pk``: int64, 3 bits a kind, counts
    0..2; 坎 ``k3``: spaced mask; ``need0``: 1 when a pair is owed). RULES.md §3 groups, §6
    waits on an own draw. Raises nothing."""
    return _search(pk, k3, need0, D_W0, D_W1, D_ES, D_EB, D_SEL, False)


@njit(cache=True, _nrt=False)
def ting_after_discards(pk, k3, need0):
    """The free discards after which ``ting.ting_after_discard`` says True (another discard may
    still leave a wait), as a spaced mask of kinds; arguments, rules and errors as
    ``ting_discards``."""
    return _search(pk, k3, need0, F_W0, F_W1, F_ES, F_EB, F_SEL, True)
