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

from zipai_sim.game import params as p
from zipai_sim.kernels.freetab import free_tab, small_counts
from zipai_sim.kernels.packed import LOW, TWIN, W, classes, orphans, popcount

NO_HAND = -1  # returned 胡息 when the cards do not form a winning shape
WORK = 80  # length of the int64 scratch a caller passes to eval_hand


@njit(cache=True, _nrt=False, inline="always")
def _count(p, k):
    return (p >> (W * k)) & 7


@njit(cache=True, _nrt=False, inline="always")
def _free_masks(p):
    """(kinds held at least once, at least twice) of packed free cards (counts 0..3)."""
    b0 = p & LOW
    b1 = (p >> 1) & LOW
    return b0 | b1, b1


@njit(cache=True, _nrt=False)
def free_best(p0, need_pair, ys_s, ys_b, eq_s, eq_b, work, off):
    """Best bonus 胡息 of the packed free cards ``p0`` (``zipai_sim.kernels.packed``), or -1
    when they are not all groups; ``need_pair`` (0/1): exactly one pair (将) is owed.

    Depth-first on the lowest kind left: that card must be in a pair, a run starting at it, an
    二七十 starting at its 二, or a 绞 found from its small card (its lower slots are used up).
    Only 一二三/壹贰叁 (ys_*) and 二七十/贰柒拾 (eq_*) score among free groups (§4). After every
    group the orphan test prunes remainders with a card that can join nothing. An explicit stack
    in ``work[off:off + 60]`` (int64; numba's cache does not reload recursive kernels reliably),
    indexed, not sliced: a slice is an array view, and its reference count costs two atomic
    operations per call (most of the play engine's time before)."""
    if p0 == 0:
        return 0 if need_pair == 0 else -1
    i = 0
    while _count(p0, i) == 0:
        i += 1
    best = -1
    d = 0
    work[off] = p0
    work[off + 12] = i
    work[off + 24] = 0
    work[off + 36] = 0
    work[off + 48] = need_pair
    while d >= 0:
        p = work[off + d]
        i = work[off + 12 + d]
        o = work[off + 24 + d]
        pl = work[off + 48 + d]
        v = i % 10
        big = i >= 10
        q = -1
        gain = 0
        npl = pl
        while o < 5 and q < 0:
            if o == 0:
                if pl == 1 and _count(p, i) >= 2:
                    q = p - (2 << (W * i))
                    npl = 0
            elif o == 1:
                if v <= 7 and _count(p, i + 1) > 0 and _count(p, i + 2) > 0:
                    q = p - (1 << (W * i)) - (1 << (W * (i + 1))) - (1 << (W * (i + 2)))
                    if v == 0:
                        gain = ys_b if big else ys_s
            elif o == 2:
                if v == 1 and _count(p, i + 5) > 0 and _count(p, i + 8) > 0:
                    q = p - (1 << (W * i)) - (1 << (W * (i + 5))) - (1 << (W * (i + 8)))
                    gain = eq_b if big else eq_s
            elif o == 3:
                if not big and _count(p, i) >= 2 and _count(p, i + 10) >= 1:
                    q = p - (2 << (W * i)) - (1 << (W * (i + 10)))
            else:
                if not big and _count(p, i + 10) >= 2:
                    q = p - (1 << (W * i)) - (2 << (W * (i + 10)))
            o += 1
        work[off + 24 + d] = o
        if q < 0:
            d -= 1
            continue
        acc = work[off + 36 + d] + gain
        if q == 0:
            if npl == 0 and acc > best:
                best = acc
            continue
        m1, m2 = _free_masks(q)
        if orphans(m1, m2, npl) != 0:
            continue
        j = i
        while _count(q, j) == 0:
            j += 1
        d += 1
        work[off + d] = q
        work[off + 12 + d] = j
        work[off + 24 + d] = 0
        work[off + 36 + d] = acc
        work[off + 48 + d] = npl
    return best


@njit(cache=True, _nrt=False, inline="always")
def group_points(P, small_idx, k):
    """胡息 of a group kind for slot ``k``: ``P[small_idx]`` small, ``P[small_idx + 1]`` big."""
    return P[small_idx + 1] if k >= 10 else P[small_idx]


@njit(cache=True, _nrt=False, inline="always")
def peng_points(P, k):
    """碰 胡息 by size and colour (大字牌 油 table scores red 碰 higher, §4)."""
    v = k % 10
    red = v == 1 or v == 6 or v == 9
    if k >= 10:
        return P[p.PENG_BIG_RED] if red else P[p.PENG_BIG_BLACK]
    return P[p.PENG_SMALL_RED] if red else P[p.PENG_SMALL_BLACK]


@njit(cache=True, _nrt=False)
def solve_free(pk, nf, fours, base, P, work):
    """Total 胡息 (``base`` + best free bonus) of the packed free cards ``pk`` (``nf`` cards),
    or -1, with the pair owed iff ``fours >= 1``. The count and orphan tests first; then the
    lookup tables (``kernels.freetab``) when no kind holds three free cards, else the search
    (``free_best``, its stack in ``work: int64[WORK]``)."""
    need = 1 if fours >= 1 else 0
    rest = nf - 2 * need
    if rest < 0 or rest % 3 != 0:
        return NO_HAND
    m1, m2 = _free_masks(pk)
    if orphans(m1, m2, need) != 0:
        return NO_HAND
    if small_counts(pk):
        b = free_tab(pk, need, P[p.YIERSAN_SMALL], P[p.YIERSAN_BIG], P[p.ERQISHI_SMALL],
                     P[p.ERQISHI_BIG])
    else:  # three free cards of a kind: another's card left beside a pair (§6)
        b = free_best(pk, need, P[p.YIERSAN_SMALL], P[p.YIERSAN_BIG],
                      P[p.ERQISHI_SMALL], P[p.ERQISHI_BIG], work, 20)
    if b < 0:
        return NO_HAND
    return base + b


@njit(cache=True, _nrt=False, inline="always")
def pack_hand(hand):
    """The counts ``hand: int8[20]`` (0..4 each) as one packed int64 (``kernels.packed``)."""
    full = np.int64(0)  # not the literal 0: callers would compile a second eval_packed for it
    for k in range(20):
        full += np.int64(hand[k]) << (W * k)
    return full


@njit(cache=True, _nrt=False, inline="always")
def locked_points(P, n3, n4):
    """胡息 of the 坎 and 提 held in hand (spaced masks ``n3``, ``n4`` of ``packed.classes``),
    counted per size (RULES.md §4: 小坎/大坎, 小提/大提)."""
    kan_big = popcount(n3 >> TWIN)
    ti_big = popcount(n4 >> TWIN)
    return ((popcount(n3) - kan_big) * P[p.KAN_SMALL] + kan_big * P[p.KAN_BIG]
            + (popcount(n4) - ti_big) * P[p.TI_SMALL] + ti_big * P[p.TI_BIG])


@njit(cache=True, _nrt=False)
def eval_packed(full, inc, inc_self, table_huxi, table_fours, P, work):
    """``eval_hand`` of the hand packed as ``full: int64`` (counts 0..4, ``kernels.packed``):
    best 胡息 or ``NO_HAND`` (RULES.md §3, §4, §6; no errors: counts are the caller's check).

    The 坎 and 提 come from bit operations on the packed word (``packed.classes``) and their
    胡息 from their counts per size, not from a branch per kind (mispredicted wherever a 坎 or
    提 sits, as in most complete hands); the free cards go to ``solve_free``."""
    n1, n2, k3, h4 = classes(full)
    pk = full & ~((k3 | h4) * 7)
    nf = popcount(n1) + 2 * popcount(n2)
    locked = table_huxi + locked_points(P, k3, h4)
    fours = table_fours + popcount(h4)
    if inc < 0:
        return solve_free(pk, nf, fours, locked, P, work)
    n = (full >> (W * inc)) & 7
    b = np.int64(1) << (W * inc)
    if n == 3:
        kan = group_points(P, p.KAN_SMALL, inc)
        if inc_self == 1:
            return solve_free(pk, nf, fours + 1, locked - kan + group_points(P, p.TI_SMALL, inc),
                              P, work)
        best = solve_free(pk, nf, fours + 1, locked - kan + group_points(P, p.PAO_SMALL, inc),
                          P, work)
        if P[p.QIANGZHAO] == 1:  # the 坎 stays, the card is free
            best = max(best, solve_free(pk + b, nf + 1, fours, locked, P, work))
        return best
    if n == 2:
        if inc_self == 1:
            return solve_free(pk - 2 * b, nf - 2, fours,
                              locked + group_points(P, p.WEI_SMALL, inc), P, work)
        best = solve_free(pk - 2 * b, nf - 2, fours, locked + peng_points(P, inc), P, work)
        return max(best, solve_free(pk + b, nf + 1, fours, locked, P, work))
    if n >= 4:
        return NO_HAND
    return solve_free(pk + b, nf + 1, fours, locked, P, work)


@njit(cache=True, _nrt=False)
def eval_hand(hand, inc, inc_self, table_huxi, table_fours, P, work):
    """Best 胡息 of ``hand`` (+ the incoming card ``inc``), or -1 when not all groups (RULES.md
    §3, §4, §6).

    hand: int8[20] counts 0..4, 坎 (3) and 提 (4) inside are locked. inc: incoming kind, -1 for
    none. inc_self: 1 when the incoming card is the player's own draw, 0 when another player's.
    table_huxi / table_fours: 胡息 and number of four-card groups already on the table.
    work: int64[WORK] scratch. How the incoming card scores follows §6: with a 坎 it makes a 提
    (own draw) or 跑 (another's; with 抢招和 the 坎 may stay and the card go elsewhere); with a
    pair it makes a 偎 (own draw, forced) or may make a 碰 (another's); otherwise it is free.
    """
    return eval_packed(pack_hand(hand), inc, inc_self, table_huxi, table_fours, P, work)


@njit(cache=True, _nrt=False, inline="always")
def is_win(huxi, P):
    """A complete hand wins at or above the threshold, or at 0 胡息 where 飘胡 is allowed."""
    if huxi < 0:
        return False
    return huxi >= P[p.THRESHOLD] or (P[p.PIAOHU] == 1 and huxi == 0)


INSTANT_NONE = 0
INSTANT_SANTI = 1
INSTANT_WUKAN = 2


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False, inline="always")
def instant_counts(full, P, is_dealer, liangzhang):
    """``(instant_shape code, 提 count, 坎 count)`` of a dealt hand packed as ``full: int64``
    (``kernels.packed``): the counts the shape is decided from, for callers that report them."""
    n1, n2, n3, n4 = classes(full)
    ti = popcount(n4)
    kan = popcount(n3)
    lz_kan = 1 if liangzhang >= 0 and (full >> (W * liangzhang)) & 7 == 3 else 0
    return instant_code(ti, kan, P, is_dealer, lz_kan), ti, kan


@njit(cache=True, _nrt=False)
def instant_shape(hand, P, is_dealer, liangzhang):
    """Instant-win shape of a dealt hand ``int8[20]`` (§6: INSTANT_SANTI, INSTANT_WUKAN or
    INSTANT_NONE); ``liangzhang`` is the dealer's shown card (-1 if unknown: then 衡阳's
    亮张-made 五坎 cannot be seen)."""
    return instant_counts(pack_hand(hand), P, is_dealer, liangzhang)[0]


@njit(cache=True, _nrt=False)
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
    work = np.empty(WORK, np.int64)
    full = pack_hand(hand)
    for k in range(20):
        if hand[k] >= 4:
            out[k, 0] = NO_HAND
            out[k, 1] = NO_HAND
            continue
        out[k, 0] = eval_packed(full, k, 1, table_huxi, table_fours, P, work)
        out[k, 1] = eval_packed(full, k, 0, table_huxi, table_fours, P, work)

