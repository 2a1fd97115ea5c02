"""Exhaustive enumeration of opening hands (RULES.md §6, §9; ``zipai_sim.exact``).

A depth-first walk over count vectors, one value (small and big kind) per level, steered by the
completability automaton of ``zipai_sim.exact.automaton``: a prefix is dropped as soon as no split
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

from .. import params as p
from .hand import WORK, eval_hand, group_points, peng_points

MODE_DEALER = 0
MODE_EXTRA = 1
MODE_DIHU = 2
MODE_DIHU_THREE = 3
MODE_DIHU_QZ = 4

HIST = 128
A_TOTAL = 0  # weight of complete hands (dealer mode)
A_MISMATCH = 1  # automaton accepted a hand the hand kernel rejects: must stay 0
A_SLOW = 2  # hands whose 胡息 needed a full search of the alternatives (dihu modes)
A_HIST = 3  # 128: 胡息 histogram (weights per mode, see the module docstring)
A_HIST_NI = A_HIST + HIST  # 128: the same weighted by the no-instant chance (× dealer cards)
A_FX = A_HIST_NI + HIST  # 128 × 5: 翻信 value 0..4+ numerators by 胡息
N_ACC = A_FX + 5 * HIST
LIMB = 1 << 60

FX_NONE = 0  # no exact 翻信 (disabled, or a match rule the enumeration does not cover)
FX_BEN = 1  # 本醒: the turned card's own kind
FX_GEN = 2  # 跟醒: the winning card's kind, nothing turned


@njit(cache=True, _nrt=False, inline="always")
def _add(lo, hi, i, x):
    v = lo[i] + x
    if v >= LIMB:
        hi[i] += v >> 60
        v &= LIMB - 1
    lo[i] = v


@njit(cache=True, _nrt=False)
def _comb(n, k):
    if k < 0 or k > n:
        return 0
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


@njit(cache=True, _nrt=False)
def no_instant_weight(ti, kan, P):
    """Dealer cards × P(no instant win | hand) for a dealer hand with ``ti`` 提 and ``kan`` 坎:
    the 亮张 is one of the dealer's cards, so 衡阳's 亮张-made 五坎 (a 坎 kind, 3 cards of each)
    has chance ``3 kan / dealer cards`` (seed 000 ⑴)."""
    L = P[p.DEALER_CARDS]
    if P[p.SANTI_MIN] > 0 and ti >= P[p.SANTI_MIN]:
        return 0
    if P[p.WUKAN_MIN] > 0:
        k = kan + (ti if P[p.TI_COUNTS_AS_KAN] == 1 else 0)
        if k >= P[p.WUKAN_MIN]:
            return L - 3 * kan if P[p.WUKAN_LIANGZHANG] == 1 else 0
    return L


@njit(cache=True, _nrt=False)
def _fx_dealer(hand, copies, ni, fx, excl, unseen, lz_scope_instant, out):
    """翻信 numerators of a 21-card 天胡: ``out[x]`` = dealer cards × unseen × P(value x and no
    instant win); the 亮张 (the winning card) is uniform over the hand and the turned card over
    the unseen cards."""
    for x in range(5):
        out[x] = 0
    for t in range(20):
        c = hand[t]
        ok = 0 if (lz_scope_instant and c == 3) else 1
        lzw = c * ok  # weight of "the 亮张 is of kind t" (and no instant)
        if fx == FX_BEN:
            turn = copies[t] - c
            if turn > 0:
                out[min(c, 4)] += turn * (ni - excl * lzw)
                if excl == 1 and lzw > 0:
                    out[min(c - 1, 4)] += turn * lzw
        else:
            if lzw > 0:
                out[min(c - excl, 4)] += unseen * lzw


@njit(cache=True, _nrt=False)
def _fx_known(hand, copies, win, fx, excl, unseen, out):
    """翻信 numerators (× unseen) for a winner holding ``hand`` whose winning card ``win`` is
    known."""
    for x in range(5):
        out[x] = 0
    if fx == FX_GEN:
        out[min(hand[win] - excl, 4)] += unseen
        return
    for t in range(20):
        turn = copies[t] - hand[t]
        if turn > 0:
            v = hand[t] - (excl if t == win else 0)
            out[min(v, 4)] += turn


@njit(cache=True, _nrt=False)
def _finish(tab, acc, start, v0, hand, meta, need_bit):
    """Run the plain-symbol columns ``v0..9`` of ``hand`` through ``tab`` from state ``start``;
    True when the last state completes with the pair bit ``need_bit``."""
    m = start
    for v in range(v0, 10):
        a = hand[v]
        b = hand[10 + v]
        fa = a if a <= 2 else 0
        fb = b if b <= 2 else 0
        m = tab[v, m, 3 * fa + fb]
        if m < 0:
            return False
    return (acc[m] & need_bit) != 0


@njit(cache=True, _nrt=False)
def _alt_three(plain, enter, three, tacc, metas, hand, k, need_bit):
    """Can ``hand`` (``c'``) complete with kind ``k`` holding three free cards?"""
    v = k % 10
    m = metas[v]
    if m < 0:
        return False
    if k < 10:
        b = hand[10 + v]
        m = enter[v, m, b if b <= 2 else 0]
    else:
        a = hand[v]
        m = enter[v, m, 3 + (a if a <= 2 else 0)]
    if m < 0:
        return False
    return _finish(three, tacc, m, v + 1, hand, metas, need_bit)


@njit(cache=True, _nrt=False)
def _alt_symbol(plain, pacc, metas, hand, k, free_k, need_bit):
    """Can ``hand`` (``c'``) complete when kind ``k`` holds ``free_k`` free cards (the rest of
    its cards locked)?"""
    v = k % 10
    a = hand[v]
    b = hand[10 + v]
    fa = a if a <= 2 else 0
    fb = b if b <= 2 else 0
    if k < 10:
        fa = free_k
    else:
        fb = free_k
    if metas[v] < 0:
        return False
    m = plain[v, metas[v], 3 * fa + fb]
    if m < 0:
        return False
    return _finish(plain, pacc, m, v + 1, hand, metas, need_bit)


@njit(cache=True, _nrt=False)
def _fours(hand):
    n = 0
    for k in range(20):
        if hand[k] == 4:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def _threes(hand):
    n = 0
    for k in range(20):
        if hand[k] == 3:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def _dihu_weight(hand, w, k, copies, n_cards, P):
    """Weight of (hand ``c = c' - e_k``, 亮张 ``k``) for a non-dealer: ``w`` is ``c'``'s weight.
    With the two-提 extra card (seed 000 ⑻) a 20-card hand with exactly two 提 is judged with
    its extra card, so the 21-card pass counts hands with two 提 only through their extra card
    (``n_cards == 22``), and the 21-card weights carry the extra card's 59 to share a
    denominator."""
    q = copies[k]
    ck = hand[k] - 1
    wc = w // _comb(q, ck + 1) * _comb(q, ck)
    extra = P[p.TWO_TI_EXTRA] == 1
    seat_cards = P[p.OTHER_CARDS]
    total = 0
    for j in range(20):
        total += copies[j]
    if n_cards == seat_cards + 1:
        if extra and _fours(hand) - (1 if hand[k] == 4 else 0) == 2:
            return 0
        return wc * (q - ck) * ((total - seat_cards - 1) if extra else 1)
    # seat_cards + 2: c holds the extra card j; sum over which card it was
    hand[k] -= 1
    t_c = _fours(hand)
    out = 0
    for j in range(20):
        cj = hand[j]
        if cj == 0:
            continue
        if t_c - (1 if cj == 4 else 0) != 2:
            continue
        w20 = wc // _comb(copies[j], cj) * _comb(copies[j], cj - 1)
        hand[j] -= 1
        out += w20 * (q - hand[k]) * (copies[j] - hand[j] - (1 if j == k else 0))
        hand[j] += 1
    hand[k] += 1
    return out


@njit(cache=True, _nrt=False)
def _leaf(mode, hand, w, metas, plain, enter, three, pacc, tacc, copies, n_cards, fx, excl,
          P, work, fxbuf, lo, hi, desig):
    total = 0
    for j in range(20):
        total += copies[j]
    if mode == MODE_DEALER:
        hx = eval_hand(hand, -1, 1, 0, 0, P, work)
        if hx < 0:
            _add(lo, hi, A_MISMATCH, 1)
            return
        h = min(hx, HIST - 1)
        ti = _fours(hand)
        kan = _threes(hand)
        ni = no_instant_weight(ti, kan, P)
        _add(lo, hi, A_TOTAL, w)
        _add(lo, hi, A_HIST + h, w)
        _add(lo, hi, A_HIST_NI + h, w * ni)
        if fx != FX_NONE and ni > 0:
            lz_scope = ni != P[p.DEALER_CARDS]
            _fx_dealer(hand, copies, ni, fx, excl, total - n_cards, lz_scope, fxbuf)
            for x in range(5):
                if fxbuf[x] > 0:
                    _add(lo, hi, A_FX + 5 * h + x, w * fxbuf[x])
        return
    if mode == MODE_EXTRA:
        if _fours(hand) != 2:
            return
        for j in range(20):
            cj = hand[j]
            if cj == 0 or cj == 4:
                continue
            hand[j] -= 1
            ni = no_instant_weight(2, _threes(hand), P)
            if ni > 0:
                wc = w // _comb(copies[j], cj) * _comb(copies[j], cj - 1) * (copies[j] - cj + 1)
                hx = eval_hand(hand, j, 1, 0, 0, P, work)
                if hx < 0:
                    _add(lo, hi, A_MISMATCH, 1)
                else:
                    h = min(hx, HIST - 1)
                    _add(lo, hi, A_HIST + h, wc * ni)
                    if fx != FX_NONE:
                        hand[j] += 1
                        _fx_known(hand, copies, j, fx, excl, total - n_cards, fxbuf)
                        hand[j] -= 1
                        for x in range(5):
                            if fxbuf[x] > 0:
                                _add(lo, hi, A_FX + 5 * h + x, wc * ni * fxbuf[x])
            hand[j] += 1
        return
    t_all = _fours(hand)
    if mode == MODE_DIHU:
        base = eval_hand(hand, -1, 1, 0, 0, P, work)
        if base < 0:
            _add(lo, hi, A_MISMATCH, 1)
            return
        for k in range(20):
            ck = hand[k] - 1
            if ck < 0:
                continue
            wc = _dihu_weight(hand, w, k, copies, n_cards, P)
            if wc == 0:
                continue
            alt = False
            if ck == 2:
                alt = _alt_three(plain, enter, three, tacc, metas, hand, k,
                                 2 if t_all >= 1 else 1)
            elif ck == 3 and P[p.QIANGZHAO] == 1:
                alt = _alt_symbol(plain, pacc, metas, hand, k, 1, 2 if t_all - 1 >= 1 else 1)
            if alt:
                hand[k] -= 1
                hx = eval_hand(hand, k, 0, 0, 0, P, work)
                hand[k] += 1
                _add(lo, hi, A_SLOW, 1)
            elif ck == 2:
                hx = base - group_points(P, p.KAN_SMALL, k) + peng_points(P, k)
            elif ck == 3:
                hx = base - group_points(P, p.TI_SMALL, k) + group_points(P, p.PAO_SMALL, k)
            else:
                hx = base
            if hx < 0:
                _add(lo, hi, A_MISMATCH, 1)
                continue
            _add(lo, hi, A_HIST + min(hx, HIST - 1), wc)
        return
    # MODE_DIHU_THREE / MODE_DIHU_QZ: the designated kind; skip what the plain pass counted
    k = desig
    need_plain = 2 if t_all >= 1 else 1
    if _alt_symbol(plain, pacc, metas, hand, k, 0, need_plain):
        return
    wc = _dihu_weight(hand, w, k, copies, n_cards, P)
    if wc == 0:
        return
    hand[k] -= 1
    hx = eval_hand(hand, k, 0, 0, 0, P, work)
    hand[k] += 1
    _add(lo, hi, A_SLOW, 1)
    if hx < 0:
        _add(lo, hi, A_MISMATCH, 1)
        return
    _add(lo, hi, A_HIST + min(hx, HIST - 1), wc)


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
                ti = _fours(hand)
                if mode == MODE_DIHU_QZ:
                    ti -= 1  # the designated four is a 坎 and an incoming card
                bit = 2 if ti >= 1 else 1
                acc = tacc if in3[10] == 1 else pacc
                if (acc[cur[10]] & bit) != 0:
                    _leaf(mode, hand, ww[10], metas, plain, enter, three, pacc, tacc, copies,
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
        ww[d + 1] = ww[d] * _comb(copies[v], cs) * _comb(copies[10 + v], cb)
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
