"""Exhaustive enumeration of opening hands (RULES.md §6, §9; ``zipai_sim.exact.opening``).

A depth-first walk over count vectors, one value (small and big kind) per level, steered by the
completability automaton of ``zipai_sim.kernels.automaton``: a prefix is dropped as soon as no split
of its free cards can be completed, so the walk visits only hands that are all groups. Each task
fixes the first two values; tasks run in parallel and add into their own row of counters, which
the caller sums in task order (results never depend on the thread count).

Counters are exact integers: each is two int64 words (``lo`` below 2⁶⁰, ``hi`` the carries).

Modes (the cards enumerated are ``c'``, ``n_cards`` of them; ``c`` is the hand before an incoming
card ``k``, ``c = c' - e_k``):

- ``MODE_DEALER``: ``c'`` is the dealer's dealt hand. Adds the weight of every complete hand, its
  胡息 histogram, the histogram weighted by the chance that no instant win (三提/五坎) took it
  first (× dealer cards, the 亮张 being one of them), and the 翻信 numerators.
- ``MODE_EXTRA``: ``c'`` is a dealer's hand with exactly two 提 plus the extra card ``k`` it draws
  (seed 000 ⑻, own draw: a pair makes a 偎, a 坎 a 提).
- ``MODE_DIHU``, ``MODE_DIHU_THREE``, ``MODE_DIHU_QZ``: ``c'`` is a non-dealer's hand plus the
  亮张 ``k``, another player's card (§6, §9). Plain mode counts the pairs ``(c, k)`` whose cards
  split with the 亮张 as a 碰/跑 or a free card; the other two count only the pairs that complete
  in no such way: the pair in hand and the 亮张 left as three free cards, or (抢招和) the 坎
  kept and the 亮张 free.
"""

import numpy as np
from numba import njit, prange

from zipai_sim.game import params as p
# `X as X`: layouts the drivers read as kernels.exact.X (exact.opening, exact.walk)
from zipai_sim.kernels.exact_leaf import (
    A_FX as A_FX,
    A_HIST as A_HIST,
    A_HIST_NI as A_HIST_NI,
    A_MISMATCH as A_MISMATCH,
    A_SLOW as A_SLOW,
    A_TOTAL as A_TOTAL,
    FX_BEN as FX_BEN,
    FX_GEN as FX_GEN,
    FX_NONE as FX_NONE,
    HIST as HIST,
    MODE_DEALER,
    MODE_DIHU as MODE_DIHU,
    MODE_DIHU_QZ,
    MODE_DIHU_THREE,
    MODE_EXTRA,
    N_ACC as N_ACC,
    comb,
    hand_fours,
    leaf,
)
from zipai_sim.kernels.hand import WORK


@njit(cache=True)
def _task(t0, t1, mode, plain, enter, three, pacc, tacc, copies, n_cards, fx, excl, P, lo, hi):
    """Walk every hand whose first two values take choices ``t0`` and ``t1``."""
    hand = np.zeros(20, np.int8)
    work = np.empty(WORK, np.int64)
    fxbuf = np.zeros(5, np.int64)
    metas = np.zeros(11, np.int64)  # plain state before each value (the alternatives start there)
    cur = np.zeros(11, np.int64)  # state before each value in the walk's own mode
    in3 = np.zeros(11, np.int64)
    nn = np.zeros(11, np.int64)
    ww = np.zeros(11, np.int64)
    idx = np.zeros(11, np.int64)
    dk = np.full(11, -1, np.int64)
    cap = np.zeros(11, np.int64)  # cards the values after v can still hold
    for v in range(8, -1, -1):
        cap[v] = cap[v + 1] + copies[v + 1] + copies[11 + v]
    designate = mode == MODE_DIHU_THREE or mode == MODE_DIHU_QZ
    # the two-提 extra card: the dealer's cards hold exactly two 提 before it; a non-dealer's
    # 20 hold two, and its extra card and the 亮张 may each make one more
    tmin, tmax = 0, 20
    if mode == MODE_EXTRA:
        tmin, tmax = 2, 2
    elif mode != MODE_DEALER and n_cards == P[p.OTHER_CARDS] + 2:
        tmin, tmax = 2, 4
    tt = np.zeros(11, np.int64)
    dcount = 3 if mode == MODE_DIHU_THREE else 4
    n_choice = 35 if designate else 25
    ww[0] = 1
    idx[0] = t0
    d = 0
    while d >= 0:
        if d == 10:
            if nn[10] == n_cards and (dk[10] >= 0 or not designate):
                ti = hand_fours(hand)
                if mode == MODE_DIHU_QZ:
                    ti -= 1  # the designated four is a 坎 and an incoming card
                bit = 2 if ti >= 1 else 1
                acc = tacc if in3[10] == 1 else pacc
                if (acc[cur[10]] & bit) != 0:
                    leaf(mode, hand, ww[10], metas, plain, enter, three, pacc, tacc, copies,
                          n_cards, fx, excl, P, work, fxbuf, lo, hi, dk[10])
            d -= 1
            if d >= 0:
                hand[d] = 0
                hand[10 + d] = 0
            continue
        i = idx[d]
        last = n_choice
        if d == 0:
            last = t0 + 1
        elif d == 1:
            last = t1 + 1
        if i >= last:
            d -= 1
            if d >= 0:
                hand[d] = 0
                hand[10 + d] = 0
            continue
        idx[d] = i + 1
        v = d
        newk = -1
        if i < 25:
            cs = i // 5
            cb = i % 5
        elif dk[d] >= 0:
            continue
        elif i < 30:
            cs = dcount
            cb = i - 25
            newk = v
        else:
            cs = i - 30
            cb = dcount
            newk = 10 + v
        if cs > copies[v] or cb > copies[10 + v]:
            continue
        n = nn[d] + cs + cb
        if n > n_cards or n + cap[v] < n_cards:
            continue
        t4 = tt[d] + (1 if cs == 4 else 0) + (1 if cb == 4 else 0)
        if t4 > tmax or n + 4 * max(0, tmin - t4) > n_cards:
            continue
        fs = cs if cs <= 2 else 0
        fb = cb if cb <= 2 else 0
        m = cur[d]
        if newk >= 0 and mode == MODE_DIHU_THREE:
            m = enter[v, m, fb if newk < 10 else 3 + fs]
            nin3 = 1
        else:
            if newk >= 0:  # 抢招和: the designated kind keeps its 坎, one card free
                if newk < 10:
                    fs = 1
                else:
                    fb = 1
            nin3 = in3[d]
            if nin3 == 1:
                m = three[v, m, 3 * fs + fb]
            else:
                m = plain[v, m, 3 * fs + fb]
        if m < 0:
            continue
        hand[v] = cs
        hand[10 + v] = cb
        # the plain state before the next value, for the alternatives' checks
        if d < 9:
            pm = metas[d]
            if pm >= 0:
                pm = plain[v, pm, 3 * (cs if cs <= 2 else 0) + (cb if cb <= 2 else 0)]
            metas[d + 1] = pm
        cur[d + 1] = m
        in3[d + 1] = nin3
        nn[d + 1] = n
        tt[d + 1] = t4
        ww[d + 1] = ww[d] * comb(copies[v], cs) * comb(copies[10 + v], cb)
        dk[d + 1] = newk if newk >= 0 else dk[d]
        d += 1
        if d < 10:
            idx[d] = t1 if d == 1 else 0


@njit(cache=True, parallel=True)
def enumerate_tasks(tasks, mode, plain, enter, three, pacc, tacc, copies, n_cards, fx, excl, P,
                    lo, hi):
    """Run ``tasks: int64[m, 2]`` (choices of the first two values; a choice is ``5 * small +
    big`` counts, or 25..34 for a designated kind) in parallel; task ``i`` adds into ``lo[i]``,
    ``hi[i]`` (int64[m, N_ACC])."""
    for i in prange(tasks.shape[0]):
        _task(tasks[i, 0], tasks[i, 1], mode, plain, enter, three, pacc, tacc, copies, n_cards,
              fx, excl, P, lo[i], hi[i])
