"""胡 (RULES.md §6, §9): who may win on a card (the forced 提/跑 a win must take, 臭牌), the win's
outcome row and move, the all-碰 shape for the 名堂, and the wins at the deal (天胡, 三提/五坎,
地胡 on the 亮张, shared wins).
"""

from numba import njit

from zipai_sim.game import params as p
from zipai_sim.kernels.deal import DECK
from zipai_sim.kernels.hand import eval_hand, instant_shape, is_win
from zipai_sim.kernels.opening import fanxing_value
from zipai_sim.kernels.packed import W
from zipai_sim.kernels.play.layout import (
    A_HU_DRAWN,
    A_HU_FANGPAO,
    A_HU_ZIMO,
    A_HU_ZIMO_SANTI,
    A_HU_ZIMO_WUKAN,
    CO_ALL_PUNGS,
    CO_BIG,
    CO_COLS,
    CO_FANXING,
    CO_INSTANT,
    CO_RED,
    CO_SEAT,
    CO_TOTAL,
    F_DIHU,
    F_DRAWN,
    F_HAIDI,
    F_IN_HAND,
    F_OWN,
    F_TIANHU,
    HOW_DRAWN,
    HOW_FANGPAO,
    HOW_ZIMO,
    I_CHOUWIN,
    I_DRAWS,
    I_H,
    I_NMELD,
    I_POS,
    I_SEATS,
    I_TRIPLE,
    MD_CARDS,
    MD_HUXI,
    MD_KIND,
    MD_LEN,
    MELD_CHI,
    MELD_CHOUWEI,
    MELD_KAN,
    MELD_PAO,
    MELD_PENG,
    MELD_TI,
    MELD_WEI,
    MK_CHOU,
    MK_PASSED_PENG,
    O_ALL_PUNGS,
    O_BIG,
    O_CO,
    O_DIHU,
    O_DRAWS,
    O_FANXING,
    O_HAIDI,
    O_HOW,
    O_HUXI,
    O_INSTANT,
    O_NCO,
    O_PAYER,
    O_RED,
    O_TIANHU,
    O_TOTAL,
    O_WIN_CARD,
    O_WINNER,
    RED_MASK,
    i64,
)
from zipai_sim.kernels.play.state import (
    may_eval,
    meld_points,
    pre,
    say,
    seat_fours,
    seat_pack,
    table_huxi,
)


@njit(cache=True, _nrt=False, inline="always")
def _four_from(melds, s, i, c, own, drawn):
    """The four-card group table group ``i`` of seat ``s`` becomes with card ``c`` (§6: a 偎
    makes 提 on an own draw and 跑 on another's card, a 碰 makes 跑 on a drawn card), or -1."""
    if melds[s, i, MD_LEN] != 3 or melds[s, i, MD_CARDS] != c:
        return -1
    kd = melds[s, i, MD_KIND]
    if kd == MELD_WEI or kd == MELD_CHOUWEI:
        return MELD_TI if own else MELD_PAO
    if kd == MELD_PENG and drawn:
        return MELD_PAO
    return -1


@njit(cache=True, _nrt=False, inline="always")
def _forced_at(P, melds, ints, s, c, own, drawn):
    """``Game.placements``' forced group: (index of the table group card ``c`` turns into a
    提/跑, its new kind, whether the card may still go to the hand), or (-1, -1, True). Only a
    跑 may be skipped, and only with 抢招和 (RULES.md §6)."""
    if (ints[I_TRIPLE + s] >> (W * c)) & 1 == 0:
        return i64(-1), i64(-1), True
    for i in range(ints[I_NMELD + s]):
        new = _four_from(melds, s, i, c, own, drawn)
        if new >= 0:
            return i, new, new == MELD_PAO and P[p.QIANGZHAO] == 1
    return i64(-1), i64(-1), True


@njit(cache=True, _nrt=False)
def _win_huxi(P, hands, melds, ints, work, s, c, own, drawn):
    """``Game.win_huxi``: best 胡息 of seat ``s`` winning on ``c`` (-1: cannot)."""
    th = table_huxi(melds, ints, s)
    fo = seat_fours(melds, ints, s)
    pk, nf, f4, _ = seat_pack(ints, s)
    best = i64(-1)
    i, new, free_ok = _forced_at(P, melds, ints, s, c, own, drawn)
    if i >= 0 and pre(pk, nf, fo + f4 + 1):
        best = eval_hand(hands[s], i64(-1), i64(1),
                         th - melds[s, i, MD_HUXI] + meld_points(P, new, c),
                         fo + 1, P, work)
    if free_ok and may_eval(P, pk, nf, fo + f4, c, own, hands[s, c]):
        best = max(best, eval_hand(hands[s], i64(c), i64(own), th, fo, P, work))
    return best


@njit(cache=True, _nrt=False, inline="always")
def can_win(P, hands, marks, melds, ints, work, s, c, own, drawn):
    """``Game.can_win``: the 胡息 of a win of seat ``s`` on ``c``, or -1. The exact pre-tests
    run here first, so that most calls call nothing."""
    if (marks[MK_CHOU, s, c] != 0 or marks[MK_PASSED_PENG, s, c] != 0) and ints[I_CHOUWIN] == 0:
        return i64(-1)
    fo = seat_fours(melds, ints, s)
    pk, nf, f4, _ = seat_pack(ints, s)
    i, _new, free_ok = _forced_at(P, melds, ints, s, c, own, drawn)
    may = i >= 0 and pre(pk, nf, fo + f4 + 1)
    if not may and free_ok:
        may = may_eval(P, pk, nf, fo + f4, c, own, hands[s, c])
    if not may:
        return i64(-1)
    hx = _win_huxi(P, hands, melds, ints, work, i64(s), i64(c), i64(own), i64(drawn))
    return hx if is_win(hx, P) else i64(-1)


@njit(cache=True, _nrt=False, inline="always")
def _pungs_only(free, fours):
    """Free cards that need no run, 二七十 or 绞: none (no four-card group) or exactly one pair
    (with one: the §3 pair rule)."""
    n = i64(0)
    pairs = i64(0)
    for k in range(20):
        n += free[k]
        if free[k] == 2:
            pairs += 1
    if fours == 0:
        return n == 0
    return n == 2 and pairs == 1


@njit(cache=True, _nrt=False)
def _all_pungs(P, S, s, c, flags, hx):
    """1 when the winner holds no 吃 group and the win at ``hx`` 胡息 is made with 坎/提/偎/碰/跑
    only (+ the pair the pair rule owes): some placement of the winning card that reaches
    ``hx`` leaves the free hand cards empty or exactly one pair. Placements are those of
    ``Game.placements``: the card completes a table 偎 (提/跑) or, drawn, a 碰 (跑), and only
    where that group is not forced (none, or a 跑 under 抢招和) may it go to the hand: completing
    a 坎 (提/跑), a pair (偎/碰) or staying free."""
    hands, melds, ints, tmp = S[0], S[2], S[3], S[6]
    own = (flags & F_OWN) != 0
    drawn = (flags & F_DRAWN) != 0
    for i in range(ints[I_NMELD + s]):
        if melds[s, i, MD_KIND] == MELD_CHI:
            return 0
    th = table_huxi(melds, ints, s)
    fo = seat_fours(melds, ints, s)
    free = tmp[5]
    locked = th
    for k in range(20):
        n = hands[s, k]
        if n == 4:
            locked += meld_points(P, MELD_TI, k)
            fo += 1
            free[k] = 0
        elif n == 3:
            locked += meld_points(P, MELD_KAN, k)
            free[k] = 0
        else:
            free[k] = n
    if flags & F_IN_HAND:
        return 1 if (_pungs_only(free, fo) and locked == hx) else 0
    fi, fnew, free_ok = _forced_at(P, melds, ints, s, c, i64(own), i64(drawn))
    if fi >= 0 and _pungs_only(free, fo + 1) and \
            locked - melds[s, fi, MD_HUXI] + meld_points(P, fnew, c) == hx:
        return 1
    if not free_ok:
        return 0
    n = hands[s, c]
    if n == 3:
        new = MELD_TI if own else MELD_PAO
        if _pungs_only(free, fo + 1) and \
                locked - meld_points(P, MELD_KAN, c) + meld_points(P, new, c) == hx:
            return 1
    elif n == 2:
        free[c] = 0
        add = meld_points(P, MELD_WEI, c) if own else meld_points(P, MELD_PENG, c)
        if _pungs_only(free, fo) and locked + add == hx:
            return 1
        free[c] = 2
    elif n <= 1:
        free[c] = n + 1
        if _pungs_only(free, fo) and locked == hx:
            return 1
        free[c] = n
    return 0


@njit(cache=True, _nrt=False)
def take_win(P, S, deck, moves, out, s, how, c, hx, payer, flags, instant):
    """``Game.win``: the outcome row and the 胡 move; ``flags``: F_* bits."""
    in_hand = (flags & F_IN_HAND) != 0
    hands, melds, ints, tmp = S[0], S[2], S[3], S[6]
    cards = tmp[4]
    for k in range(20):
        cards[k] = hands[s, k]
    for i in range(ints[I_NMELD + s]):
        for t in range(melds[s, i, MD_LEN]):
            cards[melds[s, i, MD_CARDS + t]] += 1
    if not in_hand:
        cards[c] += 1
    fx = i64(0)
    if P[p.FANXING] == 1:
        fx = fanxing_value(cards, c, deck, ints[I_POS], DECK, P)
    red = i64(0)
    big = i64(0)
    total = i64(0)
    for k in range(20):
        total += cards[k]
        if (RED_MASK >> k) & 1:
            red += cards[k]
        if k >= 10:
            big += cards[k]
    out[O_WINNER] = s
    out[O_HOW] = how
    out[O_PAYER] = payer
    out[O_HUXI] = hx
    out[O_TIANHU] = 1 if flags & F_TIANHU else 0
    out[O_DIHU] = 1 if flags & F_DIHU else 0
    out[O_HAIDI] = 1 if flags & F_HAIDI else 0
    out[O_INSTANT] = instant
    out[O_FANXING] = fx
    out[O_DRAWS] = ints[I_DRAWS]
    out[O_RED] = red
    out[O_BIG] = big
    out[O_TOTAL] = total
    out[O_ALL_PUNGS] = _all_pungs(P, S, i64(s), i64(c), i64(flags), i64(hx))
    out[O_WIN_CARD] = c
    if how == HOW_ZIMO:
        a = A_HU_ZIMO if instant == 0 else (A_HU_ZIMO_SANTI if instant == 1 else A_HU_ZIMO_WUKAN)
    elif how == HOW_FANGPAO:
        a = A_HU_FANGPAO
    else:
        a = A_HU_DRAWN
    say(moves, ints, s, a, hx, c, 1)


@njit(cache=True, _nrt=False)
def _deal_candidate(P, hands, work, s, lz):
    """(points, instant shape) of seat ``s`` as a winner at the deal, or (-1, 0): an instant
    shape scores its 提/坎 胡息, the dealer's complete 21 cards (天胡) their best 胡息."""
    shape = instant_shape(hands[s], P, 1 if s == 0 else 0, lz)
    if shape != 0:
        locked = i64(0)
        for k in range(20):
            if hands[s, k] == 4:
                locked += meld_points(P, MELD_TI, k)
            elif hands[s, k] == 3:
                locked += meld_points(P, MELD_KAN, k)
        return locked, i64(shape)
    if s == 0:
        hx = eval_hand(hands[0], i64(-1), i64(1), i64(0), i64(0), P, work)
        if is_win(hx, P):
            return i64(hx), i64(0)
    return i64(-1), i64(0)


@njit(cache=True, _nrt=False)
def _co_win(P, S, deck, moves, out, s, hx, shape):
    """``Game.co_win``: another winner of a shared win at the deal, in the next CO slot."""
    hands, tmp, ints = S[0], S[6], S[3]
    cards = tmp[4]
    red = i64(0)
    big = i64(0)
    total = i64(0)
    for k in range(20):
        cards[k] = hands[s, k]
        total += cards[k]
        if (RED_MASK >> k) & 1:
            red += cards[k]
        if k >= 10:
            big += cards[k]
    lz = i64(deck[ints[I_SEATS] * ints[I_H]])
    fx = i64(0)
    if P[p.FANXING] == 1:
        fx = fanxing_value(cards, lz, deck, ints[I_POS], DECK, P)
    q = out[O_NCO]
    base = O_CO + q * CO_COLS
    out[base + CO_SEAT] = s
    out[base + CO_RED] = red
    out[base + CO_BIG] = big
    out[base + CO_TOTAL] = total
    out[base + CO_FANXING] = fx
    out[base + CO_ALL_PUNGS] = _all_pungs(P, S, i64(s), lz, i64(F_IN_HAND | F_OWN | F_DRAWN),
                                          i64(hx))
    out[base + CO_INSTANT] = shape
    out[O_NCO] = q + 1
    a = A_HU_ZIMO if shape == 0 else (A_HU_ZIMO_SANTI if shape == 1 else A_HU_ZIMO_WUKAN)
    say(moves, ints, s, a, hx, lz, 1)


@njit(cache=True, _nrt=False)
def deal_wins(P, S, deck, moves, out, policies):
    """``Game.deal_wins``: True when the hand was won at the deal (the most points among the
    instant shapes and the dealer's 天胡; equal points all win)."""
    hands, ints, work = S[0], S[3], S[5]
    seats = ints[I_SEATS]
    lz = i64(deck[seats * ints[I_H]])
    top = i64(-1)
    first = i64(-1)
    for s in range(seats):
        pts, _shape = _deal_candidate(P, hands, work, i64(s), lz)
        if pts >= 0 and pts > top:
            top = pts
            first = s
    if first >= 0:
        pts, shape = _deal_candidate(P, hands, work, first, lz)
        fl = F_IN_HAND | F_OWN | F_DRAWN | (F_TIANHU if first == 0 else F_DIHU)
        take_win(P, S, deck, moves, out, first, i64(HOW_ZIMO), lz, top, i64(-1), i64(fl), shape)
        for s in range(first + 1, seats):
            pts, shape = _deal_candidate(P, hands, work, i64(s), lz)
            if pts == top:
                _co_win(P, S, deck, moves, out, i64(s), top, shape)
        return True
    if P[p.DIHU_LIANGZHANG] == 1:
        for s in range(1, seats):
            hx = eval_hand(hands[s], i64(lz), i64(0), i64(0), i64(0), P, work)
            if is_win(hx, P):
                take_win(P, S, deck, moves, out, i64(s), i64(HOW_DRAWN), lz, i64(hx), i64(-1),
                         i64(F_DIHU), i64(0))
                return True
    return False
