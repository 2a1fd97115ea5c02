"""Whether a hand can be waiting (听), as it is or after one discard: a filter in front of the
bots' scores (RULES.md §3 groups, §6 waits).

For a hand whose free cards are ``pk`` (packed, counts 0..2, ``kernels.packed``), ``ting``
answers whether some card ``k`` completes it on an own draw, and ``ting_after_discard`` whether
some free discard ``b`` can leave such a hand, counting a wait the three ways
``policies._score`` counts one (written here with the discard):

(a) ``k`` joins the free cards (a kind held at most once): ``pk − b + k`` splits with ``need0``
    pairs (one pair is owed once a four-card group is held);
(b) ``k`` makes a held pair a 偎: ``pk − b − 2k`` splits with ``need0`` pairs, that is
    ``pk − b`` splits with ``need0 + 1`` pairs (a pair of a split is a kind held twice);
(c) ``k`` makes a 坎 a 提, owing the pair: ``pk − b`` splits with exactly one pair.

``ting_discards`` names the discards themselves: exactly the free kinds ``b`` for which
``ting(pk − b)`` says True, so that a bot scores only those and does not ask ``ting`` again.

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

from .freetab import N_CODES, POW3, TAB, code_of
from .packed import LOW, LOW10, TWIN, W

# bit i of SIZE_BITS[code]
_NAMES = ("T0", "T1", "T2", "A0", "A1", "R0", "R1", "R2", "S0", "S1")
_BIT = {n: 1 << i for i, n in enumerate(_NAMES)}


def _size_bits() -> tuple[np.ndarray, np.ndarray]:
    """``SIZE_BITS: uint16[N_CODES]`` (the ``_NAMES`` bits of each size code) and ``PAIR_OFF``
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


def _ways(discard: int, need0: int, kan: int, added: int) -> list[tuple[str, str]]:
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
    out = np.zeros((16, 1 << len(_NAMES)), np.uint16)
    for mode in range(16):
        ways = _ways(1 - (mode >> 3), mode & 1, (mode >> 1) & 1, (mode >> 2) & 1)
        for small in range(1 << len(_NAMES)):
            for a, b in ways:
                if small & _BIT[a]:
                    out[mode, small] |= _BIT[b]
    return out.reshape(-1)


SIZE_BITS, PAIR_OFF = _size_bits()
PARTNERS = _partners()
# the names that take a card out (a discard), in the order of the discard masks' columns
_REMOVE = ("R0", "R1", "R2", "S0", "S1")


def _discard_masks() -> tuple[np.ndarray, np.ndarray]:
    """Which card each removal name takes out: field ``i`` (bits ``10 i .. 10 i + 9``) of
    ``DMASK[code]`` (``int64``) holds bit ``v`` when taking one card of value ``v`` from the
    size ``code`` leaves what the name ``_REMOVE[i]`` asks (``R_f``: splits with ``f`` pairs;
    ``S_f``: splits with ``f`` pairs after one more card); ``PMASK[code]`` the same for
    ``R0``/``R1`` once two cards of a value held twice went into a 绞 with the added card (OR
    over such values, as ``PAIR_OFF``). A field is non-zero exactly where ``SIZE_BITS`` sets
    the name's bit."""
    codes = np.arange(N_CODES)
    digits = (codes[:, None] // POW3[None, :]) % 3
    dm = np.zeros((N_CODES, len(_REMOVE)), np.uint16)
    for i, name in enumerate(_REMOVE):
        want = _BIT[("T" if name[0] == "R" else "A") + name[1]]
        for v in range(10):
            held = digits[:, v] >= 1
            ok = SIZE_BITS[codes[held] - POW3[v]] & want != 0
            dm[held, i] |= ok.astype(np.uint16) << v
        assert np.array_equal(dm[:, i] != 0, SIZE_BITS & _BIT[name] != 0)
    pm = np.zeros((N_CODES, 2), np.uint16)
    for v in range(10):
        two = digits[:, v] == 2
        pm[two] |= dm[codes[two] - 2 * POW3[v], :2]
    fields = 10 * np.arange(len(_REMOVE), dtype=np.int64)
    return ((dm.astype(np.int64) << fields).sum(axis=1),
            (pm.astype(np.int64) << fields[:2]).sum(axis=1))


def _enables() -> tuple[np.ndarray, np.ndarray]:
    """``ENABLE_S[mode * 1024 + big bits]``: the removal names (bit ``i``: ``_REMOVE[i]``)
    whose card may come from the small size, given the big size's ``SIZE_BITS``, for the
    discard modes of ``_partners`` (``need0 + 2 * (a 坎 held) + 4 * (the added card went into a
    绞)``); ``ENABLE_B[mode * 1024 + small bits]`` the same for a card from the big size. Each
    way of ``_ways`` with a discard takes its card from exactly one size."""
    es = np.zeros((8, 1 << len(_NAMES)), np.uint8)
    eb = np.zeros((8, 1 << len(_NAMES)), np.uint8)
    for mode in range(8):
        ways = _ways(1, mode & 1, (mode >> 1) & 1, (mode >> 2) & 1)
        for a, b in ways:
            assert (a in _REMOVE) != (b in _REMOVE), (a, b)
            assert mode < 4 or a in _REMOVE[:2] or b in _REMOVE[:2]  # PMASK's two columns
            for other in range(1 << len(_NAMES)):
                if a in _REMOVE and other & _BIT[b]:
                    es[mode, other] |= 1 << _REMOVE.index(a)
                if b in _REMOVE and other & _BIT[a]:
                    eb[mode, other] |= 1 << _REMOVE.index(b)
    return es.reshape(-1), eb.reshape(-1)


DMASK, PMASK = _discard_masks()
ENABLE_S, ENABLE_B = _enables()
# the fields of DMASK/PMASK that a set of removal names (bits over _REMOVE) selects
SELECT = np.array([sum(1023 << (10 * i) for i in range(len(_REMOVE)) if n >> i & 1)
                   for n in range(1 << len(_REMOVE))], np.int64)
# SIZE_BITS and PAIR_OFF of a code in one word (bits 0..15, 16..31): one lookup per size
SIZE_PAIR = SIZE_BITS.astype(np.uint32) | (PAIR_OFF.astype(np.uint32) << 16)
# a 10-bit mask of values, spread to one bit per kind (bit W * v)
SPREAD = np.array([sum(1 << (W * v) for v in range(10) if m >> v & 1) for m in range(1024)],
                  np.int64)
_MODE = 1 << len(_NAMES)
_NOW = 8 * _MODE
_I0 = 0
# own 绞 choice o (0 none, 1 两小一大, 2 一小两大): cards taken from the small and big size
OWN_S = np.array([0, 2, 1], np.int64)
OWN_B = np.array([0, 1, 2], np.int64)


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
def _taken(names, masks, code):
    """The values whose card the removal ``names`` (bits over ``_REMOVE``) may take from the
    size ``code``: the OR of their fields of ``masks[code]`` (``DMASK`` or ``PMASK``)."""
    x = masks[code] & SELECT[names]
    x |= x >> 20
    x |= x >> 10
    return (x | (x >> 40)) & 1023


@njit(cache=True, _nrt=False)
def ting_discards(pk, k3, need0):
    """The free discards that may leave a wait, as a spaced mask of kinds (bit ``W * k``):
    exactly the free kinds ``b`` for which ``ting(pk − b, k3, need0)`` is True (arguments as
    ``ting_after_discard`` reads them; 0 exactly where it answers False). The search of
    ``_ting`` with a discard, where each way that takes a card out reads which values it may
    take (``DMASK``, ``PMASK``) instead of whether there is one (RULES.md §3, §6). Raises
    nothing."""
    c1 = pk & LOW & ~((pk >> 1) & LOW)
    c2 = (pk >> 1) & LOW
    s2 = c2 & LOW10
    b2 = (c2 >> TWIN) & LOW10
    sg = (c1 & LOW10) | s2
    bg = ((c1 >> TWIN) & LOW10) | b2
    plain = (need0 + (2 if k3 != 0 else 0)) * _MODE
    added = plain + 4 * _MODE
    cs0 = code_of(pk, 0)
    cb0 = code_of(pk, TWIN)
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
    ms = 0  # values whose small card may go, and big card
    mb = 0
    digs = 0
    while True:
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
        ws = SIZE_PAIR[cs]
        wb = SIZE_PAIR[cb]
        xs = ws & 0xFFFF
        xb = wb & 0xFFFF
        ms |= _taken(ENABLE_S[plain + xb], DMASK, cs)
        mb |= _taken(ENABLE_B[plain + xs], DMASK, cb)
        # the added card completes a 绞 with two small cards, or two big ...
        ms |= _taken(ENABLE_S[added + xb], PMASK, cs)
        mb |= _taken(ENABLE_B[added + (ws >> 16)], DMASK, cb)
        ms |= _taken(ENABLE_S[added + (wb >> 16)], DMASK, cs)
        mb |= _taken(ENABLE_B[added + xs], PMASK, cb)
        # ... or with one card of each size of its value
        y = sg & bg & ~busy
        while y != 0:
            low = y & -y
            y ^= low
            pw = POW3[trailing(low) // W]
            ms |= _taken(ENABLE_S[added + SIZE_BITS[cb - pw]], DMASK, cs - pw)
            mb |= _taken(ENABLE_B[added + SIZE_BITS[cs - pw]], DMASK, cb - pw)
        t = 0
        while t < nv:
            a = (allow >> (3 * t)) & 7
            d = ((digs >> (2 * t)) & 3) + 1
            while d < 3 and not (a >> d) & 1:
                d += 1
            if d < 3:
                digs = (digs & ~(3 << (2 * t))) | (d << (2 * t))
                break
            digs &= ~(3 << (2 * t))
            t += 1
        if t == nv:
            return SPREAD[ms] | (SPREAD[mb] << TWIN)


@njit(cache=True, _nrt=False, inline="always")
def _ting(pk, k3, need0, now):
    """The search behind both answers; ``now``: 0, or ``_NOW`` for no discard."""
    c1 = pk & LOW & ~((pk >> 1) & LOW)
    c2 = (pk >> 1) & LOW
    s2 = c2 & LOW10
    b2 = (c2 >> TWIN) & LOW10
    sg = (c1 & LOW10) | s2
    bg = ((c1 >> TWIN) & LOW10) | b2
    mode = now + (need0 + (2 if k3 != 0 else 0)) * _MODE
    added = mode + 4 * _MODE
    cs0 = code_of(pk, 0)
    cb0 = code_of(pk, TWIN)
    nv = 0
    vals = 0  # values where an own 绞 can be taken, 4 bits each
    allow = 0  # per value, 3 bits: choice o allowed at bit o
    j = (s2 & bg) | (b2 & sg)
    while j != 0:
        low = j & -j
        j ^= low
        a = 1 | (2 if s2 & low else 0) | (4 if b2 & low else 0)
        vals |= (trailing(low) // W) << (4 * nv)
        allow |= a << (3 * nv)
        nv += 1
    digs = 0  # the own-绞 choice per value, 2 bits each
    while True:
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
        if _fits(mode, cs, cb):
            return True
        # the added card completes a 绞 with two cards of one size ...
        if PARTNERS[added + PAIR_OFF[cs]] & SIZE_BITS[cb] != 0:
            return True
        if PARTNERS[added + SIZE_BITS[cs]] & PAIR_OFF[cb] != 0:
            return True
        # ... or with one card of each size of its value
        y = sg & bg & ~busy
        while y != 0:
            low = y & -y
            y ^= low
            pw = POW3[trailing(low) // W]
            if _fits(added, cs - pw, cb - pw):
                return True
        t = 0  # the next combination of own-绞 choices
        while t < nv:
            a = (allow >> (3 * t)) & 7
            d = ((digs >> (2 * t)) & 3) + 1
            while d < 3 and not (a >> d) & 1:
                d += 1
            if d < 3:
                digs = (digs & ~(3 << (2 * t))) | (d << (2 * t))
                break
            digs &= ~(3 << (2 * t))
            t += 1
        if t == nv:
            return False
