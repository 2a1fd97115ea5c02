"""Whether packed free cards are all groups: the completability automaton as one flat table
(RULES.md §3), for kernels that must reject most hands before a 胡息 search.

``kernels.automaton`` builds the automaton (plain mode: every kind holds 0..2 free cards); here
it is laid out for a walk of ten dependent lookups, one per value (its small and big kind read
together, the two kinds a 绞 joins). The greedy and lookahead policies ask it before
``free_tab`` enumerates 绞 choices; the deal loop asks ``all_groups`` before
``hand.eval_packed``.
"""

import numpy as np
from numba import njit

from zipai_sim.kernels.automaton import build as build_automaton
from zipai_sim.kernels.packed import EQS_SMALL, W, classes


def _flat_automaton() -> tuple[np.ndarray, np.ndarray]:
    """The completability automaton (``kernels.automaton``, plain mode) as one flat table and
    its level offsets: at levels 0..8, entry ``START[v] + 9 * state + symbol`` (symbol
    ``3 * small + big``, the value's free counts) is the next state (-1: no split survives); at
    level 9 it is the accept mask (bit 0: complete with no pair, bit 1: with exactly one pair).
    int16 keeps it under numba's 1 MB limit for arrays frozen into cached code."""
    tab = build_automaton()
    plain, acc = tab["plain"], tab["plain_accept"]
    live = [int((plain[v] >= 0).any(axis=1).nonzero()[0].max()) + 1 for v in range(10)]
    start = np.concatenate([[0], np.cumsum([n * 9 for n in live])]).astype(np.int64)
    flat = np.full(int(start[-1]), -1, np.int16)
    for v in range(10):
        nxt = plain[v, :live[v]]
        val = nxt if v < 9 else np.where(nxt >= 0, acc[np.maximum(nxt, 0)], 0)
        flat[start[v]:start[v + 1]] = val.reshape(-1)
    return flat, start


AUTOMATON, START = _flat_automaton()


@njit(cache=True, _nrt=False, inline="always")
def completes(q, need):
    """Whether the packed free cards ``q: int64`` (counts 0..2, ``kernels.packed``) are all
    groups with exactly ``need`` (0 or 1) pairs: the automaton read one value (small + big
    kind) at a time. Exact, whatever the 胡息; counts of 3 or more are outside its alphabet."""
    m = np.int64(0)
    for v in range(9):
        m = np.int64(AUTOMATON[START[v] + 9 * m + 3 * ((q >> (W * v)) & 7)
                               + ((q >> (W * (v + 10))) & 7)])
        if m < 0:
            return False
    acc = AUTOMATON[START[9] + 9 * m + 3 * ((q >> (W * 9)) & 7) + ((q >> (W * 19)) & 7)]
    return (acc >> need) & 1 == 1


@njit(cache=True, _nrt=False, inline="always")
def _holds(q, g):
    """Whether the packed cards ``q`` hold every card of the packed group ``g`` (one each)."""
    return ((q | (q >> 1)) & g) == g


@njit(cache=True, _nrt=False, inline="always")
def completes_three(q, k, need):
    """``completes`` for packed free cards ``q`` holding three of kind ``k`` (another player's
    card left free beside a pair, RULES.md §6), the other kinds 0..2: at most two copies can
    be the pair, so some other group holds a copy of ``k`` (a run or 二七十 through it, a 绞
    with its twin), and the rest, which holds at most two of ``k``, must be all groups."""
    v = k % 10
    size = k - v
    b = np.int64(1) << (W * k)
    for s in range(max(0, v - 2), min(7, v) + 1):  # the runs s, s+1, s+2 through v
        g = ((np.int64(1) << (W * (size + s))) + (np.int64(1) << (W * (size + s + 1)))
             + (np.int64(1) << (W * (size + s + 2))))
        if _holds(q, g) and completes(q - g, need):
            return True
    if v == 1 or v == 6 or v == 9:
        g = np.int64(EQS_SMALL) << (W * size)  # 二七十 of k's size
        if _holds(q, g) and completes(q - g, need):
            return True
    t = np.int64(1) << (W * ((k + 10) % 20))  # the twin: a 绞 takes two of one, one of other
    nt = (q >> (W * ((k + 10) % 20))) & 7
    if nt >= 1 and completes(q - 2 * b - t, need):
        return True
    return nt >= 2 and completes(q - b - 2 * t, need)


@njit(cache=True, _nrt=False, inline="always")
def all_groups(ps, lz):
    """Whether the packed cards ``ps`` can be all groups (RULES.md §3: 坎 and 提 locked, the
    pair owed when a four-card group is held), alone (``lz`` = -1) or with another player's
    card of kind ``lz`` taken in any way §6 allows: free, 碰 with a pair (or left free beside
    it), 跑 over a 坎, or free beside the 坎 (抢招和). The completability automaton's answer
    (``completes``, ``completes_three``), whatever the 胡息: exact where the variant has
    抢招和, and a necessary test where it has not (that way is asked whatever the variant).
    ``ps: int64`` packed counts (``kernels.packed``), ``lz``: a kind 0..19 or -1. Most hands
    that pass the deal loop's cheap tests fail here, in a few table lookups instead of a 胡息
    search."""
    n1, n2, n3, n4 = classes(ps)
    free = ps & ~((n3 | n4) * 7)
    need = 1 if n4 != 0 else 0
    if lz < 0:
        return completes(free, need)
    b = 1 << (W * lz)
    x = (ps >> (W * lz)) & 7
    if x == 3:  # the 跑 makes a four-card group, so the pair is owed
        return completes(free, 1) or completes(free + b, need)
    if x == 2:
        return completes(free - 2 * b, need) or completes_three(free + b, lz, need)
    return completes(free + b, need)
