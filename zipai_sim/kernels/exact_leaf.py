"""What a finished hand adds to the exact enumeration's counters (``zipai_sim.kernels.exact``).

The walk hands every completable count vector ``c'`` here with its weight (its number of card
sets); the mode says how to read it (the dealer's hand, the dealer's hand plus the two-提 extra
card, or a non-dealer's hand plus the 亮张) and which counters the hand adds to: its 胡息
histogram, weighted by the chance that no instant win came first, and the 翻信 numerators
(RULES.md §6, §7.3, §9; seed 000 ⑴ ⑻). Counters are exact: two int64 words each.
"""

from numba import njit

from zipai_sim.game import params as p
from zipai_sim.kernels.hand import count_ti_kan, eval_hand, group_points, peng_points

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
def comb(n, k):
    """The binomial coefficient C(n, k) in int64 (0 outside 0 ≤ k ≤ n)."""
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


@njit(cache=True, _nrt=False, inline="always")
def hand_fours(hand):
    """The number of 提 (four of a kind) in ``hand: int8[20]``."""
    return count_ti_kan(hand)[0]


@njit(cache=True, _nrt=False)
def _dihu_weight(hand, w, k, copies, n_cards, P):
    """Weight of (hand ``c = c' - e_k``, 亮张 ``k``) for a non-dealer: ``w`` is ``c'``'s weight.
    With the two-提 extra card (seed 000 ⑻) a 20-card hand with exactly two 提 is judged with
    its extra card, so the 21-card pass counts hands with two 提 only through their extra card
    (``n_cards == 22``), and the 21-card weights carry the extra card's 59 to share a
    denominator."""
    q = copies[k]
    ck = hand[k] - 1
    wc = w // comb(q, ck + 1) * comb(q, ck)
    extra = P[p.TWO_TI_EXTRA] == 1
    seat_cards = P[p.OTHER_CARDS]
    total = 0
    for j in range(20):
        total += copies[j]
    if n_cards == seat_cards + 1:
        if extra and hand_fours(hand) - (1 if hand[k] == 4 else 0) == 2:
            return 0
        return wc * (q - ck) * ((total - seat_cards - 1) if extra else 1)
    # seat_cards + 2: c holds the extra card j; sum over which card it was
    hand[k] -= 1
    t_c = hand_fours(hand)
    out = 0
    for j in range(20):
        cj = hand[j]
        if cj == 0:
            continue
        if t_c - (1 if cj == 4 else 0) != 2:
            continue
        w20 = wc // comb(copies[j], cj) * comb(copies[j], cj - 1)
        hand[j] -= 1
        out += w20 * (q - hand[k]) * (copies[j] - hand[j] - (1 if j == k else 0))
        hand[j] += 1
    hand[k] += 1
    return out


@njit(cache=True, _nrt=False)
def leaf(mode, hand, w, metas, plain, enter, three, pacc, tacc, copies, n_cards, fx, excl,
          P, work, fxbuf, lo, hi, desig):
    """Add complete hand ``hand: int8[20]`` of weight ``w`` (its card sets) to the counters
    ``lo``/``hi`` as ``mode`` reads it (module docstring; ``MODE_*``, ``A_*``)."""
    total = 0
    for j in range(20):
        total += copies[j]
    if mode == MODE_DEALER:
        hx = eval_hand(hand, -1, 1, 0, 0, P, work)
        if hx < 0:
            _add(lo, hi, A_MISMATCH, 1)
            return
        h = min(hx, HIST - 1)
        ti, kan = count_ti_kan(hand)
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
        if hand_fours(hand) != 2:
            return
        for j in range(20):
            cj = hand[j]
            if cj == 0 or cj == 4:
                continue
            hand[j] -= 1
            ni = no_instant_weight(2, count_ti_kan(hand)[1], P)
            if ni > 0:
                wc = w // comb(copies[j], cj) * comb(copies[j], cj - 1) * (copies[j] - cj + 1)
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
    t_all = hand_fours(hand)
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
