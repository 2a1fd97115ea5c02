"""The seat state and its small operations: move rows, the policy stream, table groups and their
胡息, packed hands, and ``eval_hand``'s own first tests run on packed cards (``may_eval``) so
that most "can this seat win?" questions cost no call (RULES.md §3, §6).
"""

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from zipai_sim.game import params as p
from zipai_sim.kernels.chi import NO_GROUP, gcard
from zipai_sim.kernels.hand import group_points, peng_points
from zipai_sim.kernels.packed import LOW, W, orphans
from zipai_sim.kernels.play.layout import (
    I_F4,
    I_FO,
    I_FULL,
    I_HAVE,
    I_HELD,
    I_NF,
    I_NMELD,
    I_NMOV,
    I_NTAB,
    I_PK,
    I_TH,
    I_TRIPLE,
    M_ACTION,
    M_AUX,
    M_CARDS,
    M_SEAT,
    MAX_CARDS,
    MD_CARDS,
    MD_HUXI,
    MD_KIND,
    MD_LEN,
    MELD_CHI,
    MELD_CHOUWEI,
    MELD_COLS,
    MELD_PAO,
    MELD_PENG,
    MELD_TI,
    MELD_WEI,
    i64,
)
from zipai_sim.kernels.rng import bounded

# --- small helpers ------------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def say(moves, ints, s, a, aux, k, n):
    """One move row: ``n`` copies of kind ``k``."""
    r = ints[I_NMOV]
    moves[r, M_SEAT] = s
    moves[r, M_ACTION] = a
    moves[r, M_AUX] = aux
    for i in range(MAX_CARDS):
        moves[r, M_CARDS + i] = k if i < n else -1
    ints[I_NMOV] = r + 1


@njit(cache=True, _nrt=False, inline="always")
def seat(x, seats):
    """``x % seats`` for ``0 ≤ x < 2 · seats`` (a seat plus up to ``seats`` places in turn
    order): a compare, not a division on the turn loop's path."""
    return x - seats if x >= seats else x


@njit(cache=True, _nrt=False, inline="always")
def below(rng, ints, s, m):
    """``Stream.below(m)`` on seat ``s``'s policy stream (each seat its own: what one seat
    draws never moves another's stream)."""
    st, sp, hv, v = bounded(rng[2 * s], rng[2 * s + 1], ints[I_HAVE + s], m)
    rng[2 * s] = st
    rng[2 * s + 1] = sp
    ints[I_HAVE + s] = hv
    return v


@njit(cache=True, _nrt=False, inline="always")
def meld_points(P, kind, k):
    """胡息 of a three/four of a kind (``Game.pts``)."""
    if kind == MELD_PENG:
        return peng_points(P, k)
    if kind == MELD_WEI:
        return group_points(P, p.WEI_SMALL, k)
    if kind == MELD_CHOUWEI:
        return group_points(P, p.CHOUWEI_SMALL, k)
    if kind == MELD_PAO:
        return group_points(P, p.PAO_SMALL, k)
    if kind == MELD_TI:
        return group_points(P, p.TI_SMALL, k)
    return group_points(P, p.KAN_SMALL, k)


@njit(cache=True, _nrt=False, inline="always")
def run_pts(P, code):
    """胡息 of a 3-card free group (``Game.run_pts``): 一二三 and 二七十 score, others 0."""
    a = gcard(code, 0)
    b = gcard(code, 1)
    c = gcard(code, 2)
    size = (a // 10) * 10
    if a == size and b == size + 1 and c == size + 2:
        return P[p.YIERSAN_BIG] if size else P[p.YIERSAN_SMALL]
    if a == size + 1 and b == size + 6 and c == size + 9:
        return P[p.ERQISHI_BIG] if size else P[p.ERQISHI_SMALL]
    return 0


@njit(cache=True, _nrt=False, inline="always")
def table_huxi(melds, ints, s):
    """The 胡息 of seat ``s``'s table groups (``Player.table_huxi``)."""
    return ints[I_TH + s]


@njit(cache=True, _nrt=False, inline="always")
def seat_fours(melds, ints, s):
    """Seat ``s``'s four-card groups on the table (``Player.fours``)."""
    return ints[I_FO + s]


@njit(cache=True, _nrt=False, inline="always")
def at_rest(hands, melds, ints, s):
    """Seat ``s``'s cards at rest, hand and table (``Player.at_rest``; RULES.md §5.3)."""
    return ints[I_HELD + s] + ints[I_NTAB + s]


@njit(cache=True, _nrt=False, inline="always")
def set_count(hands, ints, s, k, n):
    """``hands[s, k] = n``, keeping the seat's packed words and card count."""
    o = i64(hands[s, k])
    n = i64(n)
    hands[s, k] = n
    b = i64(1) << (W * k)
    ints[I_FULL + s] += (n - o) * b
    ints[I_HELD + s] += n - o
    if o < 3:
        ints[I_PK + s] -= o * b
        ints[I_NF + s] -= o
    elif o == 4:
        ints[I_F4 + s] -= 1
    if n < 3:
        ints[I_PK + s] += n * b
        ints[I_NF + s] += n
    elif n == 4:
        ints[I_F4 + s] += 1


@njit(cache=True, _nrt=False, inline="always")
def meld_of(melds, ints, s, c, peng_ok, wei_ok):
    """Index of the first 偎/臭偎 (``wei_ok``) or 碰 (``peng_ok``) of kind ``c``, or -1."""
    if (ints[I_TRIPLE + s] >> (W * c)) & 1 == 0:
        return -1
    for i in range(ints[I_NMELD + s]):
        if melds[s, i, MD_CARDS] != c:
            continue
        kd = melds[s, i, MD_KIND]
        if wei_ok and (kd == MELD_WEI or kd == MELD_CHOUWEI):
            return i
        if peng_ok and kd == MELD_PENG:
            return i
    return -1


@njit(cache=True, _nrt=False, inline="always")
def add_same(P, melds, ints, s, kind, c, n):
    """Append a table group of ``n`` copies of ``c``."""
    i = ints[I_NMELD + s]
    melds[s, i, MD_KIND] = kind
    melds[s, i, MD_LEN] = n
    hx = meld_points(P, kind, c)
    melds[s, i, MD_HUXI] = hx
    for t in range(4):
        melds[s, i, MD_CARDS + t] = c if t < n else -1
    ints[I_TH + s] += hx
    ints[I_NTAB + s] += n
    if n == 4:
        ints[I_FO + s] += 1
    else:
        ints[I_TRIPLE + s] |= i64(1) << (W * c)
    ints[I_NMELD + s] = i + 1


@njit(cache=True, _nrt=False, inline="always")
def add_group(P, melds, ints, s, code):
    """Append a 吃/比 group (``MELD_CHI``)."""
    i = ints[I_NMELD + s]
    melds[s, i, MD_KIND] = MELD_CHI
    melds[s, i, MD_LEN] = 3
    hx = run_pts(P, code)
    melds[s, i, MD_HUXI] = hx
    for t in range(3):
        melds[s, i, MD_CARDS + t] = gcard(code, t)
    melds[s, i, MD_CARDS + 3] = -1
    ints[I_NMELD + s] = i + 1
    ints[I_TH + s] += hx
    ints[I_NTAB + s] += 3


@njit(cache=True, _nrt=False, inline="always")
def del_meld(melds, ints, s, i):
    """Remove seat ``s``'s table group ``i``, keeping the seat's 胡息 and card sums."""
    n = ints[I_NMELD + s]
    ints[I_TH + s] -= melds[s, i, MD_HUXI]
    ints[I_NTAB + s] -= melds[s, i, MD_LEN]
    if melds[s, i, MD_LEN] == 4:
        ints[I_FO + s] -= 1
    elif melds[s, i, MD_KIND] != MELD_CHI:
        ints[I_TRIPLE + s] &= ~(i64(1) << (W * melds[s, i, MD_CARDS]))
    for r in range(i, n - 1):
        for t in range(MELD_COLS):
            melds[s, r, t] = melds[s, r + 1, t]
    ints[I_NMELD + s] = n - 1


# --- evaluation ---------------------------------------------------------------------------------
#
# eval_hand costs a call and a packing pass; most hands it is asked about fail its first tests
# (free-card count mod 3, a free card that joins no group). ``may_eval`` runs exactly those
# tests of ``hand.solve_free`` on every branch ``eval_hand`` would try, on packed free cards:
# False means eval_hand returns NO_HAND for sure, True means it must be asked. Results are the
# same either way; only time changes.

@njit(cache=True, _nrt=False, inline="always")
def pre(pk, nf, fours):
    """``solve_free``'s tests before its search: count and orphan cards."""
    need = 1 if fours >= 1 else 0
    rest = nf - 2 * need
    if rest < 0 or rest % 3 != 0:
        return False
    m1 = (pk | (pk >> 1)) & LOW
    m2 = (pk >> 1) & LOW
    return orphans(m1, m2, need) == 0


@njit(cache=True, _nrt=False, inline="always")
def may_eval(P, pk, nf, fours, inc, own, hinc):
    """False when ``eval_hand`` on the hand packed as ``(pk, nf, fours)`` (fours: table + hand)
    with incoming ``inc`` (own draw: ``own``; ``hinc`` = hand[inc]) surely gives NO_HAND."""
    if inc < 0:
        return pre(pk, nf, fours)
    b = np.int64(1) << (W * inc)
    if hinc == 3:
        if pre(pk, nf, fours + 1):
            return True
        if own == 0 and P[p.QIANGZHAO] == 1:
            return pre(pk + b, nf + 1, fours)
        return False
    if hinc == 2:
        if pre(pk - 2 * b, nf - 2, fours):
            return True
        if own == 0:
            return pre(pk + b, nf + 1, fours)
        return False
    if hinc >= 4:
        return False
    return pre(pk + b, nf + 1, fours)


@njit(cache=True, _nrt=False, inline="always")
def seat_pack(ints, s):
    """(packed free cards, their number, 提 in hand, packed whole hand) of seat ``s``."""
    return ints[I_PK + s], ints[I_NF + s], ints[I_F4 + s], ints[I_FULL + s]


@njit(cache=True, _nrt=False, inline="always")
def chi_left(P, full, cs, c, i):
    """(packed hand left, 胡息 of the groups laid) after 吃 option ``cs[i]`` of card ``c`` on the
    packed hand ``full``: the 吃 group takes ``c`` from outside, its 比 groups all from hand."""
    gain = i64(0)
    for g in range(3):
        code = cs[i, g]
        if code == NO_GROUP:
            continue
        skip = c if g == 0 else -1
        for t in range(3):
            k = gcard(code, t)
            if k == skip:
                skip = -1
                continue
            full -= i64(1) << (W * k)
        gain += run_pts(P, code)
    return full, gain


@njit(cache=True, _nrt=False, inline="always")
def take_chi(P, hands, ints, cs, s, c, i):
    """Take 吃 option ``cs[i]`` of card ``c`` out of seat ``s``'s hand (counts and packed words,
    one ``set_count`` per kind that gives cards); returns the 胡息 of the groups laid."""
    full = ints[I_FULL + s]
    left, gain = chi_left(P, full, cs, c, i)
    taken = full - left  # per kind, the cards it gives (never more than it holds: no borrow)
    while taken != 0:
        k = trailing_zeros(taken) // W
        set_count(hands, ints, s, k, hands[s, k] - ((taken >> (W * k)) & 7))
        taken &= ~(i64(7) << (W * k))
    return gain
