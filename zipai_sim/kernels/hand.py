"""Hand evaluation kernels: is a hand all groups, and its best 胡息 (RULES.md §3, §4, §6).

A hand is ``int8[20]`` counts. Inside it, a count of 4 is a 提 and a count of 3 a 坎: both are
locked (seed 001 打牌规则 4, seed 004 篇3) and score as hidden groups. The other cards are
"free" and must form runs (顺), 二七十, 绞 and, when the player holds a four-card group, exactly
one pair (§3 pair rule). Groups already on the table enter as their 胡息 total and their number of
four-card groups, so the play engine can call the same kernel.

The free-card search is a depth-first search on the lowest remaining slot: every decomposition is
visited once per distinct choice of group for that card, so the maximum over all decompositions is
exact (e.g. 一二三 + 四五六 beats 二三四 + ...).
"""

import numpy as np
from numba import njit

from .. import params as p

NO_HAND = -1  # returned 胡息 when the cards do not form a winning shape
WORK = 48  # length of the int8 scratch a caller passes to eval_hand


@njit(cache=True, inline="always")
def _apply(c, i, o, sign):
    """Take (sign=-1) or give back (sign=+1) the cards of option ``o`` at slot ``i``:
    0 pair, 1 run from i, 2 二七十 from the 二, 3 绞 two small + one big, 4 绞 one small + two big."""
    if o == 0:
        c[i] += 2 * sign
    elif o == 1:
        c[i] += sign
        c[i + 1] += sign
        c[i + 2] += sign
    elif o == 2:
        c[i] += sign
        c[i + 5] += sign
        c[i + 8] += sign
    elif o == 3:
        c[i] += 2 * sign
        c[i + 10] += sign
    else:
        c[i] += sign
        c[i + 10] += 2 * sign


@njit(cache=True, inline="always")
def _fits(c, i, o, pl):
    """Whether option ``o`` can take the card at slot ``i`` (the lowest slot left)."""
    v = i % 10
    if o == 0:
        return pl == 1 and c[i] >= 2
    if o == 1:
        return v <= 7 and c[i + 1] > 0 and c[i + 2] > 0
    if o == 2:
        return v == 1 and c[i + 5] > 0 and c[i + 8] > 0
    # a big card's small twin is a lower slot, already used up: 绞 are found from the small card
    if i >= 10:
        return False
    if o == 3:
        return c[i] >= 2 and c[i + 10] >= 1
    return c[i + 10] >= 2


@njit(cache=True)
def free_best(c, need_pair, ys_s, ys_b, eq_s, eq_b, st_i, st_o):
    """Best bonus 胡息 of the free cards ``c: int8[20]``, or -1 when they are not all groups.

    ``need_pair`` (0/1): exactly one pair is owed. ``c`` is restored on return. Only
    一二三/壹贰叁 (ys_*) and 二七十/贰柒拾 (eq_*) score among free groups (§4). ``st_i``/``st_o``
    are scratch stacks (≥ 12 entries): an explicit stack instead of recursion because numba's
    cache does not reload recursive kernels reliably, and no allocation in the hot path.
    """
    i = 0
    while i < 20 and c[i] == 0:
        i += 1
    if i == 20:
        return 0 if need_pair == 0 else -1
    best = -1
    acc = 0
    pl = need_pair
    d = 0
    st_i[0] = i
    st_o[0] = 0
    while d >= 0:
        i = st_i[d]
        o = st_o[d]
        if o > 0:  # undo the option tried last at this level
            u = o - 1
            _apply(c, i, u, 1)
            if u == 0:
                pl = 1
            elif u == 1 and i % 10 == 0:
                acc -= ys_b if i >= 10 else ys_s
            elif u == 2:
                acc -= eq_b if i >= 10 else eq_s
        while o < 5 and not _fits(c, i, o, pl):
            o += 1
        if o == 5:
            d -= 1
            continue
        _apply(c, i, o, -1)
        if o == 0:
            pl = 0
        elif o == 1 and i % 10 == 0:
            acc += ys_b if i >= 10 else ys_s
        elif o == 2:
            acc += eq_b if i >= 10 else eq_s
        st_o[d] = o + 1
        j = i
        while j < 20 and c[j] == 0:
            j += 1
        if j == 20:
            if pl == 0 and acc > best:
                best = acc
            continue
        d += 1
        st_i[d] = j
        st_o[d] = 0
    return best


@njit(cache=True, inline="always")
def group_points(P, small_idx, k):
    """胡息 of a group kind for slot ``k``: ``P[small_idx]`` small, ``P[small_idx + 1]`` big."""
    return P[small_idx + 1] if k >= 10 else P[small_idx]


@njit(cache=True, inline="always")
def peng_points(P, k):
    """碰 胡息 by size and colour (大字牌 油 table scores red 碰 higher, §4)."""
    v = k % 10
    red = v == 1 or v == 6 or v == 9
    if k >= 10:
        return P[p.PENG_BIG_RED] if red else P[p.PENG_BIG_BLACK]
    return P[p.PENG_SMALL_RED] if red else P[p.PENG_SMALL_BLACK]


_RUN_STARTS = (0xFF << 10) | 0xFF  # a run may start at values 1..8 of either size
_EQS_SMALL = (1 << 1) | (1 << 6) | (1 << 9)  # 二七十
_EQS_BIG = _EQS_SMALL << 10  # 贰柒拾
_LOW10 = 0x3FF


@njit(cache=True, inline="always")
def orphans(m1, m2, pl):
    """Bit mask of free kinds that can join no group at all, from ``m1`` (kinds present) and
    ``m2`` (kinds held twice or more); bit k is slot k. A cheap test that rejects most random
    hands before the search."""
    r = m1 & (m1 >> 1) & (m1 >> 2) & _RUN_STARTS
    cov = r | (r << 1) | (r << 2)
    if m1 & _EQS_SMALL == _EQS_SMALL:
        cov |= _EQS_SMALL
    if m1 & _EQS_BIG == _EQS_BIG:
        cov |= _EQS_BIG
    j = (m1 & (m1 >> 10) & _LOW10) & ((m2 | (m2 >> 10)) & _LOW10)
    cov |= j | (j << 10)
    if pl == 1:
        cov |= m2
    return m1 & ~cov


@njit(cache=True)
def solve_free(work, fours, base, P):
    """Total 胡息 (``base`` + best free bonus) or -1, with the pair owed iff ``fours >= 1``.
    ``work: int8[WORK]`` holds the free counts in ``[:20]`` and the search stacks after them."""
    free = work[:20]
    n = 0
    m1 = 0
    m2 = 0
    for k in range(20):
        x = free[k]
        n += x
        if x > 0:
            m1 |= 1 << k
            if x > 1:
                m2 |= 1 << k
    need = 1 if fours >= 1 else 0
    rest = n - 2 * need
    if rest < 0 or rest % 3 != 0:
        return NO_HAND
    if orphans(m1, m2, need) != 0:
        return NO_HAND
    b = free_best(free, need, P[p.YIERSAN_SMALL], P[p.YIERSAN_BIG],
                  P[p.ERQISHI_SMALL], P[p.ERQISHI_BIG], work[20:34], work[34:48])
    if b < 0:
        return NO_HAND
    return base + b


@njit(cache=True)
def eval_hand(hand, inc, inc_self, table_huxi, table_fours, P, work):
    """Best 胡息 of ``hand`` (+ the incoming card ``inc``), or -1 when not all groups.

    hand: int8[20] counts, 坎 (3) and 提 (4) inside are locked. inc: incoming kind, -1 for none.
    inc_self: 1 when the incoming card is the player's own draw, 0 when another player's.
    table_huxi / table_fours: 胡息 and number of four-card groups already on the table.
    work: int8[WORK] scratch. How the incoming card scores follows §6: with a 坎 it makes a 提
    (own draw) or 跑 (another's; with 抢招和 the 坎 may stay and the card go elsewhere); with a
    pair it makes a 偎 (own draw, forced) or may make a 碰 (another's); otherwise it is free.
    """
    free = work[:20]
    locked = table_huxi
    fours = table_fours
    for k in range(20):
        n = hand[k]
        if n == 4:
            locked += group_points(P, p.TI_SMALL, k)
            fours += 1
            free[k] = 0
        elif n == 3:
            locked += group_points(P, p.KAN_SMALL, k)
            free[k] = 0
        else:
            free[k] = n
    if inc < 0:
        return solve_free(work, fours, locked, P)
    n = hand[inc]
    if n == 3:
        kan = group_points(P, p.KAN_SMALL, inc)
        if inc_self == 1:
            return solve_free(work, fours + 1, locked - kan + group_points(P, p.TI_SMALL, inc), P)
        best = solve_free(work, fours + 1, locked - kan + group_points(P, p.PAO_SMALL, inc), P)
        if P[p.QIANGZHAO] == 1:
            free[inc] = 1
            r = solve_free(work, fours, locked, P)
            free[inc] = 0
            if r > best:
                best = r
        return best
    if n == 2:
        free[inc] = 0
        if inc_self == 1:
            return solve_free(work, fours, locked + group_points(P, p.WEI_SMALL, inc), P)
        best = solve_free(work, fours, locked + peng_points(P, inc), P)
        free[inc] = 3
        r = solve_free(work, fours, locked, P)
        free[inc] = 2
        return r if r > best else best
    if n >= 4:
        return NO_HAND
    free[inc] = n + 1
    return solve_free(work, fours, locked, P)


@njit(cache=True, inline="always")
def is_win(huxi, P):
    """A complete hand wins at or above the threshold, or at 0 胡息 where 飘胡 is allowed."""
    if huxi < 0:
        return False
    return huxi >= P[p.THRESHOLD] or (P[p.PIAOHU] == 1 and huxi == 0)


INSTANT_NONE = 0
INSTANT_SANTI = 1
INSTANT_WUKAN = 2


@njit(cache=True)
def instant_code(ti, kan, P, is_dealer, lz_makes_kan):
    """Instant-win shape from the numbers of 提 and 坎 at the deal (三提 / 五坎, §6; seeds
    000 ⑴ ⑻, 004 篇4): INSTANT_SANTI, INSTANT_WUKAN or INSTANT_NONE. ``lz_makes_kan`` (0/1):
    the dealer's 亮张 completed one of the 坎, which 衡阳 requires for 五坎 (seed 000 ⑴)."""
    if P[p.SANTI_MIN] > 0 and ti >= P[p.SANTI_MIN]:
        return INSTANT_SANTI
    if P[p.WUKAN_MIN] > 0:
        if P[p.TI_COUNTS_AS_KAN] == 1:
            kan += ti
        if kan >= P[p.WUKAN_MIN]:
            if P[p.WUKAN_LIANGZHANG] == 0:
                return INSTANT_WUKAN
            if is_dealer == 1 and lz_makes_kan == 1:
                return INSTANT_WUKAN
    return INSTANT_NONE


@njit(cache=True)
def instant_shape(hand, P, is_dealer, liangzhang):
    """Instant-win shape of a dealt hand ``int8[20]``; ``liangzhang`` is the dealer's shown card
    (-1 if unknown: then 衡阳's 亮张-made 五坎 cannot be seen)."""
    ti, kan = count_ti_kan(hand)
    lz_kan = 1 if liangzhang >= 0 and hand[liangzhang] == 3 else 0
    return instant_code(ti, kan, P, is_dealer, lz_kan)


@njit(cache=True)
def count_ti_kan(hand):
    """(number of 提, number of 坎) in a dealt hand."""
    ti = 0
    kan = 0
    for k in range(20):
        if hand[k] == 4:
            ti += 1
        elif hand[k] == 3:
            kan += 1
    return ti, kan


@njit(cache=True)
def waits(hand, table_huxi, table_fours, P, out):
    """听: for each kind, the 胡息 the hand reaches with that card as its own draw (out[k, 0]) and
    as another player's card (out[k, 1]); -1 where it does not complete. ``out: int64[20, 2]``."""
    work = np.empty(WORK, np.int8)
    for k in range(20):
        if hand[k] >= 4:
            out[k, 0] = NO_HAND
            out[k, 1] = NO_HAND
            continue
        out[k, 0] = eval_hand(hand, k, 1, table_huxi, table_fours, P, work)
        out[k, 1] = eval_hand(hand, k, 0, table_huxi, table_fours, P, work)


@njit(cache=True)
def summarize(hand):
    """One pass over a dealt hand: ``(m1, m2, ti, kan, fours_mask)`` where ``m1``/``m2`` are the
    bit masks of free kinds held at least once / twice (坎 and 提 excluded), ``ti``/``kan`` the
    numbers of 提 and 坎, and ``fours_mask`` the 提 kinds."""
    m1 = 0
    m2 = 0
    ti = 0
    kan = 0
    fm = 0
    for k in range(20):
        x = hand[k]
        if x == 0:
            continue
        if x == 4:
            ti += 1
            fm |= 1 << k
        elif x == 3:
            kan += 1
        else:
            m1 |= 1 << k
            if x == 2:
                m2 |= 1 << k
    return m1, m2, ti, kan, fm


@njit(cache=True, inline="always")
def may_complete(hand, m1, m2, ti, inc):
    """Necessary test, from ``summarize``'s masks, that the hand (+ ``inc``, -1 for none, from
    any source) could be all groups: False means it certainly is not. Adding the card as a free
    card covers every way §6 lets it score, so the test never rejects a complete hand."""
    pl = 1 if ti >= 1 else 0
    if inc < 0:
        return orphans(m1, m2, pl) == 0
    b = 1 << inc
    x = hand[inc]
    if x == 3:
        pl = 1  # a 跑/提 would add a four-card group
        m1 |= b
    elif x == 1:
        m2 |= b
    else:
        m1 |= b
    o = orphans(m1, m2, pl)
    if x >= 2:
        o &= ~b  # 碰/偎/跑/提 may take the card and its copies out of the free cards
    return o == 0
