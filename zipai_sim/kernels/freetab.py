"""Free-card lookup tables: ``hand.free_best``'s answer without its search (RULES.md §3, §4).

Free cards (counts 0..2 per kind once 坎 and 提 are locked) must split into runs (顺), 二七十,
绞 (two small + one big of a value, or one small + two big) and, when a four-card group is held,
exactly one pair (将). Only a 绞 joins the two sizes, so once the 绞 are chosen each size splits
on its own. Per size, the ten counts form a base-3 code (3¹⁰ = 59,049 codes); ``TAB[f, code]``
is the set of ``(一二三 groups, 二七十 groups)`` numbers, 0..2 each, that some split of that
size into runs and 二七十 (plus exactly ``f`` pairs) reaches, as a 9-bit mask (bit ``3a + b``;
0: no split). Scores are applied at lookup time, so one table serves every variant: the best
bonus is the largest ``a·一二三 + b·二七十`` over the mask's bits.

``free_tab`` enumerates the 绞 choices (at most one per value: a second needs three of each
size) and combines the two sizes' masks; it answers exactly what ``free_best`` answers for
counts 0..2 (a count of 3, which only ``eval_hand`` meets, goes to the search). The tables are
built once by a small numba loop and cached beside this module (``__pycache__``).
"""

from __future__ import annotations

import os
import tempfile

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from zipai_sim.kernels.packed import LOW, LOW10, TWIN, W, run_cover

N_CODES = 3 ** 10
VERSION = 1
POW3 = np.array([3 ** i for i in range(10)], np.int64)


@njit(cache=True)
def _build(tab):
    """Fill ``tab: uint16[2, N_CODES]`` in increasing code order: the lowest card left must
    start a pair, a run or (being a 二) an 二七十, and what is left is a smaller code."""
    pw = np.empty(10, np.int64)
    x = 1
    for i in range(10):
        pw[i] = x
        x *= 3
    tab[0, 0] = 1  # the empty split: (0, 0)
    tab[1, 0] = 0
    for code in range(1, N_CODES):
        d = np.empty(10, np.int64)
        r = code
        for i in range(10):
            d[i] = r % 3
            r //= 3
        i = 0
        while d[i] == 0:
            i += 1
        for f in range(2):
            m = 0
            if f == 1 and d[i] == 2:
                m |= tab[0, code - 2 * pw[i]]
            if i <= 7 and d[i + 1] > 0 and d[i + 2] > 0:
                sub = tab[f, code - pw[i] - pw[i + 1] - pw[i + 2]]
                if i == 0:  # 一二三: one more a (a ≤ 2 since only two 一 are free)
                    sub = (sub << 3) & 0x1FF
                m |= sub
            if i == 1 and d[6] > 0 and d[9] > 0:
                sub = tab[f, code - pw[1] - pw[6] - pw[9]]
                # one more b: bits with b = 2 would overflow into the next a; they cannot occur
                # (two 二七十 use both free 二) but are masked for safety
                m |= (sub & 0b011011011) << 1
            tab[f, code] = m
    return tab


def _path() -> str:
    return os.path.join(os.path.dirname(__file__), "__pycache__", f"freetab-v{VERSION}.npy")


def load() -> np.ndarray:
    """The tables ``uint16[2, 59049]``: from the cache file, else built (milliseconds once the
    builder is compiled) and written atomically beside this module."""
    path = _path()
    try:
        tab = np.load(path)
        if tab.shape == (2, N_CODES) and tab.dtype == np.uint16:
            return tab
    except (OSError, ValueError):
        pass
    tab = _build(np.zeros((2, N_CODES), np.uint16))
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".npy")
        with os.fdopen(fd, "wb") as fh:
            np.save(fh, tab)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only install still works, it just builds again next time
    return tab


TAB = load()
BOTH = (TAB[0].astype(np.int32) | (TAB[1].astype(np.int32) << 9))  # one lookup per size


def _code5() -> np.ndarray:
    """Base-3 code of five packed kinds (15 bits, counts 0..2; other counts never looked up)."""
    out = np.zeros(1 << (5 * W), np.int32)
    for x in range(1 << (5 * W)):
        c, m = 0, 1
        for i in range(5):
            c += min((x >> (W * i)) & 7, 2) * m
            m *= 3
        out[x] = c
    return out


CODE5 = _code5()
_M15 = (1 << (5 * W)) - 1


@njit(cache=True, _nrt=False, inline="always")
def code_of(p, shift):
    """Base-3 code of the ten kinds of packed ``p`` starting at bit ``shift`` (0 or TWIN)."""
    return CODE5[(p >> shift) & _M15] + 243 * CODE5[(p >> (shift + 5 * W)) & _M15]


LOWBIT = np.array([0] + [(m & -m).bit_length() - 1 for m in range(1, 512)], np.int8)


@njit(cache=True, _nrt=False, inline="always")
def mask_best(m, ys, eq):
    """Largest ``a·ys + b·eq`` over the bits ``3a + b`` of ``m``; -1 for an empty mask."""
    best = -1
    while m != 0:
        i = LOWBIT[m]
        a = i // 3
        v = a * ys + (i - 3 * a) * eq
        if v > best:
            best = v
        m &= m - 1
    return best


@njit(cache=True, _nrt=False, inline="always")
def _pair_best(cs, cb, need, ys_s, ys_b, eq_s, eq_b):
    """Best bonus of small code ``cs`` and big code ``cb`` split on their own, the pair (if
    owed) in either size; -1 when neither way works. One lookup per size: ``BOTH`` keeps the
    no-pair mask in bits 0..8 and the one-pair mask in bits 9..17."""
    ts = BOTH[cs]
    tb = BOTH[cb]
    if need == 0:
        ms = ts & 0x1FF
        mb = tb & 0x1FF
        if ms == 0 or mb == 0:
            return -1
        return mask_best(ms, ys_s, eq_s) + mask_best(mb, ys_b, eq_b)
    best = -1
    ms0 = ts & 0x1FF
    mb1 = tb >> 9
    if ms0 != 0 and mb1 != 0:
        best = mask_best(ms0, ys_s, eq_s) + mask_best(mb1, ys_b, eq_b)
    ms1 = ts >> 9
    mb0 = tb & 0x1FF
    if ms1 != 0 and mb0 != 0:
        best = max(best, mask_best(ms1, ys_s, eq_s) + mask_best(mb0, ys_b, eq_b))
    return best


def _next_choice() -> np.ndarray:
    """``NEXT[4a + o]``: the first 绞 choice after ``o`` allowed by the 3-bit mask ``a`` (3:
    none left, the odometer carries); ``o = 3`` asks for the first allowed choice."""
    t = np.zeros(32, np.int8)
    for a in range(8):
        for o in range(4):
            allowed = [q for q in range(0 if o == 3 else o + 1, 3) if (a >> q) & 1]
            t[4 * a + o] = allowed[0] if allowed else 3
    return t


NEXT = _next_choice()
# base-3 code decrements, in units of the value's code weight, of 绞 choice o: 0 none,
# 1 两小一大 (two small, one big), 2 一小两大
TAKE_S = np.array([0, 2, 1], np.int64)
TAKE_B = np.array([0, 1, 2], np.int64)


@njit(cache=True, _nrt=False)
def free_tab(p, need, ys_s, ys_b, eq_s, eq_b):
    """``hand.free_best(p, need, ...)`` for packed free cards ``p`` with every count 0..2: the
    best bonus 胡息 of a split into runs, 二七十, 绞 and exactly ``need`` pairs, or -1.

    The 绞 candidates are the values held in both sizes with two of one of them; each takes
    none, 两小一大 (two small held) or 一小两大 (two big held). "None" is ruled out where a
    card of the value then has no group: a single card no run or 二七十 of the hand covers, or
    (no pair owed) two such cards. An odometer over the allowed choices visits each remaining
    combination once, changing the two codes in place; the choices step through ``NEXT`` and
    the codes through ``TAKE_S``/``TAKE_B``, without branches on the choice."""
    cs = code_of(p, 0)
    cb = code_of(p, TWIN)
    m1 = (p | (p >> 1)) & LOW
    m2 = (p >> 1) & LOW
    j = (m1 & (m1 >> TWIN) & LOW10) & ((m2 | (m2 >> TWIN)) & LOW10)
    if j == 0:
        return _pair_best(cs, cb, need, ys_s, ys_b, eq_s, eq_b)
    cov = run_cover(m1)
    nv = 0
    vals = 0  # candidate values, 4 bits each
    allow = 0  # per candidate, 3 bits: choice o allowed at bit o
    digs = 0  # per candidate: the choice now applied, 2 bits each
    while j != 0:
        sh = trailing_zeros(j)  # the candidate's small kind starts at bit sh
        v = sh // W
        ns = (p >> sh) & 3
        nb = (p >> (sh + TWIN)) & 3
        cov_s = (cov >> sh) & 1
        cov_b = (cov >> (sh + TWIN)) & 1
        lone = (ns == 1 and cov_s == 0) or (nb == 1 and cov_b == 0)
        if need == 0:
            lone = lone or (ns == 2 and cov_s == 0) or (nb == 2 and cov_b == 0)
        a = 0 if lone else 1
        if ns == 2:
            a |= 2
        if nb == 2:
            a |= 4
        o = NEXT[4 * a + 3]
        pw = POW3[v]
        cs -= TAKE_S[o] * pw
        cb -= TAKE_B[o] * pw
        vals |= v << (4 * nv)
        allow |= a << (3 * nv)
        digs |= o << (2 * nv)
        nv += 1
        j &= j - 1
    best = -1
    while True:
        res = _pair_best(cs, cb, need, ys_s, ys_b, eq_s, eq_b)
        if res > best:
            best = res
        t = 0
        while t < nv:
            o = (digs >> (2 * t)) & 3
            a = (allow >> (3 * t)) & 7
            n = NEXT[4 * a + o]
            carry = n == 3
            if carry:
                n = NEXT[4 * a + 3]
            pw = POW3[(vals >> (4 * t)) & 15]
            cs += (TAKE_S[o] - TAKE_S[n]) * pw
            cb += (TAKE_B[o] - TAKE_B[n]) * pw
            digs ^= (o ^ n) << (2 * t)
            if not carry:
                break
            t += 1
        if t == nv:
            return best


@njit(cache=True, _nrt=False, inline="always")
def small_counts(p):
    """True when every kind of packed ``p`` holds at most two cards (``free_tab`` applies)."""
    return ((p & (p >> 1)) | (p >> 2)) & LOW == 0
