"""Whether a hand can be waiting (听), as it is or after one discard: a filter in front of the
bots' scores (RULES.md §3 groups, §6 waits).

For a hand whose free cards are ``pk`` (packed, counts 0..2, ``kernels.packed``), ``ting``
answers whether some card ``k`` completes it on an own draw, and ``ting_after_discard`` whether
some free discard ``b`` can leave such a hand, counting a wait the three ways
``policies.score`` counts one (written here with the discard):

(a) ``k`` joins the free cards (a kind held at most once): ``pk − b + k`` splits with ``need0``
    pairs (one pair is owed once a four-card group is held);
(b) ``k`` makes a held pair a 偎: ``pk − b − 2k`` splits with ``need0`` pairs, that is
    ``pk − b`` splits with ``need0 + 1`` pairs (a pair of a split is a kind held twice);
(c) ``k`` makes a 坎 a 提, owing the pair: ``pk − b`` splits with exactly one pair.

``kernels.ting_masks`` names the discards themselves (which ones, not whether one).

False means no wait, so the score is 0 (every discard's, after a discard). True is a superset:
(a) is not told which kinds the hand holds as 坎 or 提 (where ``k`` would be case (c), or no
wait). Measured on the hands of 150 greedy deals and their one-card neighbours: of 600,153
hands 2.17 % wait and ``ting`` says True for 2.22 %; of 310,321 hands about to discard 18.0 %
can leave a wait and ``ting_after_discard`` says True for 18.3 %, in about 85 ns against about
500 for scoring the discards of those that cannot.

How. A split uses runs and 二七十 within one size, 绞 across the two sizes of one value, and
pairs. Once the 绞 are chosen, each size splits on its own, so one table per size code (the
base-3 code of ``freetab``) keeps as bits whether that size splits with ``f`` pairs (``T_f``),
after adding a card (``A_f``), after removing one (``R_f``), or both (``S_f``); ``PARTNERS``
turns the bits of the small size into the bits the big size must show for (a)–(c). The 绞 are
enumerated as ``freetab.free_tab`` enumerates them (none, 两小一大 or 一小两大 at each value
held in both sizes, two of one), and so are the 绞 that the added card completes: with one card
of each size of its value (per value), or with two of one size (``PAIR_OFF``: every value held
twice at once).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros as trailing

from zipai_sim.kernels.freetab import N_CODES, POW3, TAB, code_of
from zipai_sim.kernels.packed import LOW, LOW10, TWIN, W

# bit i of SIZE_BITS[code]
NAMES = ("T0", "T1", "T2", "A0", "A1", "R0", "R1", "R2", "S0", "S1")
BIT = {n: 1 << i for i, n in enumerate(NAMES)}


def _size_bits() -> tuple[np.ndarray, np.ndarray]:
    """``SIZE_BITS: uint16[N_CODES]`` (the ``NAMES`` bits of each size code) and ``PAIR_OFF``
    (the OR of ``SIZE_BITS`` over the codes left by taking two cards from one value held
    twice), from ``freetab.TAB`` by numpy over all codes."""
    codes = np.arange(N_CODES)
    digits = (codes[:, None] // POW3[None, :]) % 3
    t = [TAB[0] != 0, TAB[1] != 0, np.zeros(N_CODES, bool)]
    for v in range(10):  # two pairs: one pair taken out, one left in the split
        two = digits[:, v] == 2
        t[2][two] |= t[1][codes[two] - 2 * POW3[v]]
    add = [np.zeros(N_CODES, bool) for _ in range(2)]
    rem = [np.zeros(N_CODES, bool) for _ in range(3)]
    for v in range(10):
        room = digits[:, v] <= 1
        held = digits[:, v] >= 1
        for f in range(2):
            add[f][room] |= t[f][codes[room] + POW3[v]]
        for f in range(3):
            rem[f][held] |= t[f][codes[held] - POW3[v]]
    swap = [np.zeros(N_CODES, bool) for _ in range(2)]
    for v in range(10):  # remove at v, then add anywhere (at v again too: k = b)
        held = digits[:, v] >= 1
        for f in range(2):
            swap[f][held] |= add[f][codes[held] - POW3[v]]
    bits = np.zeros(N_CODES, np.uint16)
    for i, a in enumerate(t + add + rem + swap):
        bits |= a.astype(np.uint16) << i
    pair_off = np.zeros(N_CODES, np.uint16)
    for v in range(10):
        two = digits[:, v] == 2
        pair_off[two] |= bits[codes[two] - 2 * POW3[v]]
    return bits, pair_off


def jiao_ways(discard: int, need0: int, kan: int, added: int) -> list[tuple[str, str]]:
    """(small bit, big bit) pairs of which one must hold for (a)–(c), with a discard first or
    not; ``added``: the added card already went into a 绞, so only the split (and the discard)
    are left."""
    ways = []
    if discard:
        one_pair = [("R1", "T0"), ("R0", "T1"), ("T1", "R0"), ("T0", "R1")]
        if added:
            return [("R0", "T0"), ("T0", "R0")] if need0 == 0 else one_pair
        if need0 == 0:  # (a) with no pair; (b) and (c): one pair
            return [("S0", "T0"), ("T0", "S0"), ("R0", "A0"), ("A0", "R0")] + one_pair
        ways = [("S1", "T0"), ("S0", "T1"), ("T1", "S0"), ("T0", "S1"),  # (a) with the pair
                ("R1", "A0"), ("R0", "A1"), ("A1", "R0"), ("A0", "R1"),
                ("R2", "T0"), ("R1", "T1"), ("R0", "T2"),  # (b): two pairs
                ("T2", "R0"), ("T1", "R1"), ("T0", "R2")]
        return ways + one_pair if kan else ways  # (c) needs a 坎
    one_pair = [("T1", "T0"), ("T0", "T1")]
    if added:
        return [("T0", "T0")] if need0 == 0 else one_pair
    if need0 == 0:
        return [("A0", "T0"), ("T0", "A0")] + one_pair
    ways = [("A1", "T0"), ("A0", "T1"), ("T1", "A0"), ("T0", "A1"),
            ("T2", "T0"), ("T1", "T1"), ("T0", "T2")]
    return ways + one_pair if kan else ways


def _partners() -> np.ndarray:
    """``PARTNERS[mode * 1024 + small bits]``: the big-size bits of which one must be set, mode
    ``need0 + 2 * (a 坎 held) + 4 * (the added card went into a 绞) + 8 * (no discard)``."""
    out = np.zeros((16, 1 << len(NAMES)), np.uint16)
    for mode in range(16):
        ways = jiao_ways(1 - (mode >> 3), mode & 1, (mode >> 1) & 1, (mode >> 2) & 1)
        for small in range(1 << len(NAMES)):
            for a, b in ways:
                if small & BIT[a]:
                    out[mode, small] |= BIT[b]
    return out.reshape(-1)


SIZE_BITS, PAIR_OFF = _size_bits()
PARTNERS = _partners()
MODE = 1 << len(NAMES)
_NOW = 8 * MODE
_I0 = 0
# own 绞 choice o (0 none, 1 两小一大, 2 一小两大): cards taken from the small and big size
OWN_S = np.array([0, 2, 1], np.int64)
OWN_B = np.array([0, 1, 2], np.int64)


@njit(cache=True, _nrt=False, inline="always")
def jiao_setup(pk):
    """The 绞 a search of the free cards ``pk`` enumerates: ``(both, nv, vals, allow)``, the
    values held in both sizes (spaced mask: where the added card may complete a 绞 with one
    card of each size), and the ``nv`` values where the hand holds an own 绞 (4 bits each in
    ``vals``; in ``allow``, 3 bits each: choice ``o`` allowed at bit ``o``, 0 none, 1
    两小一大, 2 一小两大)."""
    c1 = pk & LOW & ~((pk >> 1) & LOW)
    c2 = (pk >> 1) & LOW
    s2 = c2 & LOW10
    b2 = (c2 >> TWIN) & LOW10
    sg = (c1 & LOW10) | s2
    bg = ((c1 >> TWIN) & LOW10) | b2
    nv = 0
    vals = 0
    allow = 0
    j = (s2 & bg) | (b2 & sg)
    while j != 0:
        low = j & -j
        j ^= low
        a = 1 | (2 if s2 & low else 0) | (4 if b2 & low else 0)
        vals |= (trailing(low) // W) << (4 * nv)
        allow |= a << (3 * nv)
        nv += 1
    return sg & bg, nv, vals, allow


@njit(cache=True, _nrt=False, inline="always")
def jiao_taken(cs0, cb0, digs, nv, vals):
    """The size codes left once the own 绞 of the choices ``digs`` (2 bits a value) are
    taken, and the values they use (spaced mask)."""
    cs = cs0
    cb = cb0
    busy = 0
    for t in range(nv):
        o = (digs >> (2 * t)) & 3
        if o != 0:
            v = (vals >> (4 * t)) & 15
            cs -= OWN_S[o] * POW3[v]
            cb -= OWN_B[o] * POW3[v]
            busy |= 1 << (W * v)
    return cs, cb, busy


@njit(cache=True, _nrt=False, inline="always")
def jiao_next(digs, nv, allow):
    """The next combination of own-绞 choices after ``digs``, or -1 after the last."""
    t = 0
    while t < nv:
        a = (allow >> (3 * t)) & 7
        d = ((digs >> (2 * t)) & 3) + 1
        while d < 3 and not (a >> d) & 1:
            d += 1
        if d < 3:
            return (digs & ~(3 << (2 * t))) | (d << (2 * t))
        digs &= ~(3 << (2 * t))
        t += 1
    return -1


@njit(cache=True, _nrt=False, inline="always")
def _fits(mode, cs, cb):
    return PARTNERS[mode + SIZE_BITS[cs]] & SIZE_BITS[cb] != 0


@njit(cache=True, _nrt=False)
def ting_after_discard(pk, k3, need0):
    """Whether some free discard of the hand with free cards ``pk`` (int64, packed 3 bits a
    kind, counts 0..2), 坎 ``k3`` (int64 spaced mask) and ``need0`` (1: a four-card group is
    held, a pair is owed) may leave a wait (RULES.md §3 groups, §6 waits on an own draw; module
    docstring). False: certainly none. A bool; raises nothing (counts above 2 in ``pk`` are
    not read correctly: the caller locks 坎 and 提 first)."""
    return _ting(pk, k3, need0, _I0)


@njit(cache=True, _nrt=False)
def ting(pk, k3, need0):
    """Whether the hand (arguments as ``ting_after_discard`` reads them) may have a wait as it
    is, with no discard first (RULES.md §6); False: certainly none."""
    return _ting(pk, k3, need0, _NOW)


@njit(cache=True, _nrt=False, inline="always")
def _ting(pk, k3, need0, now):
    """The search behind both answers; ``now``: 0, or ``_NOW`` for no discard."""
    mode = now + (need0 + (2 if k3 != 0 else 0)) * MODE
    added = mode + 4 * MODE
    both, nv, vals, allow = jiao_setup(pk)
    cs0 = code_of(pk, 0)
    cb0 = code_of(pk, TWIN)
    digs = 0  # the own-绞 choice per value, 2 bits each
    while True:
        cs, cb, busy = jiao_taken(cs0, cb0, digs, nv, vals)
        if _fits(mode, cs, cb):
            return True
        # the added card completes a 绞 with two cards of one size ...
        if PARTNERS[added + PAIR_OFF[cs]] & SIZE_BITS[cb] != 0:
            return True
        if PARTNERS[added + SIZE_BITS[cs]] & PAIR_OFF[cb] != 0:
            return True
        # ... or with one card of each size of its value
        y = both & ~busy
        while y != 0:
            low = y & -y
            y ^= low
            pw = POW3[trailing(low) // W]
            if _fits(added, cs - pw, cb - pw):
                return True
        digs = jiao_next(digs, nv, allow)
        if digs < 0:
            return False
