"""Claims on a card (RULES.md §5–§6): the discard, the forced 提/偎/跑, the optional 碰 and 吃 (with
its 比) in seat order, the 臭牌 marks of passed claims, and what happens to a discarded
(``_on_discard``) or drawn (``_on_draw``) card.

The handlers are inlined into the turn loop (``inline="always"``): numba passes a tuple and
every array member by member, so a call to ``_on_draw`` took 168 machine words (the params
tuple's 39, each scratch array's 5 + 2 × ndim), more than a random seat's whole answer costs.
"""

from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from zipai_sim.game import params as p
from zipai_sim.kernels.chi import NO_GROUP, chi_options, chi_possible, gcard
from zipai_sim.kernels.packed import LOW, W
from zipai_sim.kernels.play.layout import (
    _I,
    A_CHI,
    A_CHI_BI,
    A_CHOUWEI,
    A_DEAL_TI,
    A_DISCARD,
    A_PAO,
    A_PENG,
    A_TI,
    A_WEI,
    F_DIHU,
    F_DRAWN,
    F_HAIDI,
    F_OWN,
    HOW_DRAWN,
    HOW_FANGPAO,
    HOW_ZIMO,
    I_DISC,
    I_FIRST,
    I_FULL,
    I_NMOV,
    I_NPASS,
    I_PASS,
    I_PK,
    I_SEATS,
    M_ACTION,
    M_AUX,
    M_CARDS,
    M_SEAT,
    MAX_CARDS,
    MELD_CHOUWEI,
    MELD_PAO,
    MELD_PENG,
    MELD_TI,
    MELD_WEI,
    MK_BESIDE,
    MK_CHOU,
    MK_PASSED_PENG,
    NONE,
    POL_LOOKAHEAD,
    RO_CHI,
    RO_DISCARD,
    RO_PENG,
    WIN,
)
from zipai_sim.kernels.play.lookahead import _look_chi, _look_discard, _look_peng
from zipai_sim.kernels.play.policies import _pol_chi, _pol_discard, _pol_peng
from zipai_sim.kernels.play.script import (
    freeze_discard,
    freeze_list,
    freezing,
    listed,
    next_listed,
    script_claim,
    script_discard,
    scripted,
)
from zipai_sim.kernels.play.state import (
    _add_group,
    _add_same,
    _chi_left,
    _del_meld,
    _meld_of,
    _say,
    _seat,
    _seat_pack,
    _set_count,
    _take_chi,
)
from zipai_sim.kernels.play.winning import _can_win, _win

# --- the hand -----------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def _lay_opening_ti(P, hands, melds, ints, moves, s):
    for k in range(20):
        if hands[s, k] == 4:
            _set_count(hands, ints, s, k, 0)
            _add_same(P, melds, ints, s, MELD_TI, k, 4)
            _say(moves, ints, s, A_DEAL_TI, 0, k, 4)


@njit(cache=True, _nrt=False, inline="always")
def _choose_discard(P, hands, marks, melds, ints, rng, work, tmp, fl, memo, opts, moves, policies,
                    s):
    """``Game.choose_discard``: the options are the free kinds in order (坎 are never
    discarded, §5.7), else, with only 坎 left, skip the discard or break a 坎
    (``[play].only_kan_discard``)."""
    full = ints[I_FULL + s]
    held = (full | (full >> 1) | (full >> 2)) & LOW
    opt = (ints[I_PK + s] | (ints[I_PK + s] >> 1)) & LOW
    if opt == 0:
        if P[p.ONLY_KAN_SKIP] == 1:
            return _I(-1)
        opt = held
    n = _I(0)
    while opt != 0:
        b = opt & -opt
        opt ^= b
        opts[n] = trailing_zeros(b) // W
        n += 1
    c = _I(-1)
    if scripted(ints):
        c = script_discard(ints, opts, _I(s), _I(n), _I(RO_DISCARD))
    if c < 0:
        if n > 1 and listed(ints, policies, s):
            c = next_listed(ints, _I(s))
        elif policies[s] == POL_LOOKAHEAD:
            c = _look_discard(P, hands, marks, melds, ints, tmp, fl, memo, opts, _I(s), _I(n))
        else:  # a rollout seat's own answer is greedy's
            c = _pol_discard(P, hands, melds, ints, rng, work, opts, policies, _I(s), _I(n))
            if n > 1 and freezing(ints, policies, s):
                freeze_discard(ints, _I(s), _I(RO_DISCARD), opts, _I(n), _I(c))
    _set_count(hands, ints, s, c, hands[s, c] - 1)
    marks[MK_CHOU, s, c] = 1  # never 吃/碰 one's own discard (§5.6)
    ints[I_DISC + s] |= _I(1) << c
    _say(moves, ints, s, A_DISCARD, 0, c, 1)
    return c


@njit(cache=True, _nrt=False)
def _make_four(P, hands, melds, ints, moves, s, c, kind):
    """``Game.make_four``: 提 or 跑 from a 坎 in hand or onto the seat's 偎/臭偎/碰 of ``c``."""
    i = _meld_of(melds, ints, s, c, True, True)
    if i >= 0:
        _del_meld(melds, ints, s, i)
    else:
        _set_count(hands, ints, s, c, 0)
    _add_same(P, melds, ints, s, kind, c, 4)
    _say(moves, ints, s, A_TI if kind == MELD_TI else A_PAO, 0, c, 4)


@njit(cache=True, _nrt=False, inline="always")
def _take_pao(P, hands, melds, ints, moves, s, c, drawn):
    """``Game.take_pao``: the forced 跑."""
    if (hands[s, c] == 3 or _meld_of(melds, ints, s, c, False, True) >= 0
            or (drawn == 1 and _meld_of(melds, ints, s, c, True, False) >= 0)):
        _make_four(P, hands, melds, ints, moves, _I(s), _I(c), _I(MELD_PAO))
        return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def _note_pass(ints, s, was_peng):
    n = ints[I_NPASS]
    ints[I_PASS + 2 * n] = s
    ints[I_PASS + 2 * n + 1] = was_peng
    ints[I_NPASS] = n + 1


@njit(cache=True, _nrt=False, inline="always")
def _keeps_discard(ints, s, c):
    """Seat ``s`` holds a free card (held once or twice) of a kind other than ``c``."""
    pk = ints[I_PK + s]
    return ((pk | (pk >> 1)) & LOW & ~(_I(1) << (W * c))) != 0


@njit(cache=True, _nrt=False, inline="always")
def _chi_leaves_discard(P, ints, cs, s, c, i):
    """``play.chi.leaves_discard`` for 吃 option ``cs[i]`` of card ``c``: some free card (held
    once or twice) stays, on the packed hand."""
    full = _chi_left(P, ints[I_FULL + s], cs, c, i)[0]
    b0 = full & LOW
    b1 = (full >> 1) & LOW
    b2 = (full >> 2) & LOW
    return ((b0 ^ b1) & ~b2) != 0  # held once (b0) or twice (b1), not 3 (both) or 4 (b2)


@njit(cache=True, _nrt=False, inline="always")
def _offer_peng(P, hands, marks, melds, ints, rng, work, tmp, fl, memo, opts, moves, policies,
                first, c):
    """``Game.offer_peng`` by the seats after ``first`` in turn order (``others(first)``)."""
    seats = ints[I_SEATS]
    taker = _I(NONE)
    for i in range(1, seats):
        s = _seat(first + i, seats)
        if hands[s, c] != 2 or marks[MK_CHOU, s, c] != 0 or marks[MK_PASSED_PENG, s, c] != 0:
            continue
        if not _keeps_discard(ints, s, c):  # §5.3: a claim must leave a discard
            continue
        if scripted(ints):
            yes = script_claim(ints, _I(s), _I(RO_PENG), _I(0)) == 1
        elif listed(ints, policies, s):
            yes = next_listed(ints, _I(s)) == 1
        elif policies[s] == POL_LOOKAHEAD:
            yes = _look_peng(P, hands, marks, melds, ints, tmp, fl, memo, _I(s), _I(c))
        else:
            yes = _pol_peng(P, hands, melds, ints, rng, work, tmp, opts, policies, _I(s), _I(c))
            if freezing(ints, policies, s):
                freeze_list(ints, _I(s), _I(RO_PENG), _I(c), _I(1 if yes else 0), _I(0), _I(2))
        if yes:
            _set_count(hands, ints, s, c, 0)
            _add_same(P, melds, ints, s, MELD_PENG, c, 3)
            _say(moves, ints, s, A_PENG, 0, c, 3)
            taker = s
            break
        _note_pass(ints, s, 1)
    return taker


@njit(cache=True, _nrt=False, inline="always")
def _chi_take(P, hands, marks, melds, ints, rng, work, tmp, fl, memo, cs, opts, moves, policies, s,
              c):
    """``Game.offer_chi`` once the card is known not 臭: options, the policy, the 吃."""
    pk = _seat_pack(ints, s)[3]
    m = chi_options(pk, c, cs)
    n = _I(0)
    for i in range(m):  # keep the options that leave a discard (§5.3), in order
        if _chi_leaves_discard(P, ints, cs, _I(s), _I(c), _I(i)):
            for col in range(3):
                cs[n, col] = cs[i, col]
            n += 1
    if n == 0:
        return False
    if scripted(ints):
        i = script_claim(ints, _I(s), _I(RO_CHI), _I(-1))
    elif listed(ints, policies, s):
        i = next_listed(ints, _I(s))
    elif policies[s] == POL_LOOKAHEAD:
        i = _look_chi(P, hands, marks, melds, ints, tmp, fl, memo, cs, _I(s), _I(c), _I(n))
    else:
        i = _pol_chi(P, hands, melds, ints, rng, work, tmp, cs, opts, policies, _I(s), _I(c),
                     _I(n))
        if freezing(ints, policies, s):
            freeze_list(ints, _I(s), _I(RO_CHI), _I(c), _I(i), _I(-1), _I(n + 1))
    if i < 0:
        _note_pass(ints, s, 0)
        return False
    _take_chi(P, hands, ints, cs, s, c, i)
    r = ints[I_NMOV]
    nc = _I(0)
    for g in range(3):
        code = cs[i, g]
        if code == NO_GROUP:
            continue
        for t in range(3):
            moves[r, M_CARDS + nc] = gcard(code, t)
            nc += 1
        _add_group(P, melds, ints, s, code)
    for t in range(nc, MAX_CARDS):
        moves[r, M_CARDS + t] = -1
    moves[r, M_SEAT] = s
    moves[r, M_ACTION] = A_CHI_BI if cs[i, 1] != NO_GROUP else A_CHI
    moves[r, M_AUX] = 0
    ints[I_NMOV] = r + 1
    return True


@njit(cache=True, _nrt=False, inline="always")
def _offer_chi(P, hands, marks, melds, ints, rng, work, tmp, fl, memo, cs, opts, moves, policies, s,
               c):
    """``Game.offer_chi``: the optional 吃 (with its 比) of seat ``s``."""
    if marks[MK_CHOU, s, c] != 0:
        return False
    if not chi_possible(_seat_pack(ints, s)[3], c):
        return False
    return _chi_take(P, hands, marks, melds, ints, rng, work, tmp, fl, memo, cs, opts, moves,
                     policies, _I(s), _I(c))


@njit(cache=True, _nrt=False, inline="always")
def _mark_passed(P, marks, ints, c, taker):
    """``Game.mark_passed``: 臭 for the seats that passed ``c`` (and 碰-passed for a 碰)."""
    for i in range(ints[I_NPASS]):
        s = ints[I_PASS + 2 * i]
        if s == taker:
            continue
        if ints[I_PASS + 2 * i + 1] == 1:
            marks[MK_PASSED_PENG, s, c] = 1
            if P[p.PASSED_PENG_CHI] == 1:  # 大字牌: a passed 碰 may still be 吃 (seed 004 篇4)
                continue
        marks[MK_CHOU, s, c] = 1
    ints[I_NPASS] = 0


@njit(cache=True, _nrt=False, inline="always")
def _peng_chi_or_pass(P, S, moves, policies, src, c, src_may_chi):
    """The optional claims on card ``c`` shown by seat ``src`` (``Game.claim_rest``): 碰 by the
    others, then 吃 by ``src`` itself (a drawn card only) and by the next seat; then the 臭牌
    marks, and an unclaimed card lies beside ``src``. Returns the taker or NONE."""
    hands, marks, melds, ints, rng, work, tmp, cs, opts, fl, memo = S
    ints[I_NPASS] = 0
    taker = _offer_peng(P, hands, marks, melds, ints, rng, work, tmp, fl, memo, opts, moves,
                        policies, src, c)
    nxt = _seat(src + 1, ints[I_SEATS])
    for s in (src, nxt):
        if s == src and src_may_chi == 0:
            continue
        if taker == NONE and _offer_chi(P, hands, marks, melds, ints, rng, work, tmp, fl, memo, cs,
                                        opts, moves, policies, s, c):
            taker = s
    _mark_passed(P, marks, ints, c, taker)
    if taker == NONE:
        marks[MK_BESIDE, src, c] += 1
    return taker


@njit(cache=True, _nrt=False, inline="always")
def _on_discard(P, S, deck, moves, out, policies, d, c):
    """``Game.on_discard``: WIN, the seat that took ``c``, or NONE."""
    hands, marks, melds, ints, rng, work, tmp, cs, opts, fl, memo = S
    seats = ints[I_SEATS]
    if P[p.DISCARD_WIN] == 1:
        for i in range(1, seats):
            s = _seat(d + i, seats)
            hx = _can_win(P, hands, marks, melds, ints, work, _I(s), _I(c), _I(0), _I(0))
            if hx >= 0:
                fl = F_DIHU if (P[p.DIHU_LIANGZHANG] == 0 and ints[I_FIRST] == 1 and d == 0
                                and s != 0) else 0
                _win(P, S, deck, moves, out, _I(s), _I(HOW_FANGPAO), _I(c), _I(hx), _I(d),
                     _I(fl), _I(0))
                return WIN
    for i in range(1, seats):
        s = _seat(d + i, seats)
        if _take_pao(P, hands, melds, ints, moves, s, c, 0):
            return s
    return _peng_chi_or_pass(P, S, moves, policies, d, c, _I(0))


@njit(cache=True, _nrt=False, inline="always")
def _on_draw(P, S, deck, moves, out, policies, t, c, last):
    """``Game.on_draw``: WIN, the seat that took ``c``, or NONE."""
    hands, marks, melds, ints, rng, work, tmp, cs, opts, fl, memo = S
    seats = ints[I_SEATS]
    if hands[t, c] == 3 or _meld_of(melds, ints, t, c, False, True) >= 0 or hands[t, c] == 2:
        hx = _can_win(P, hands, marks, melds, ints, work, _I(t), _I(c), _I(1), _I(1))
        if hx >= 0:
            fl = F_OWN | F_DRAWN | (F_HAIDI if last else 0)
            _win(P, S, deck, moves, out, _I(t), _I(HOW_ZIMO), _I(c), _I(hx), _I(-1), _I(fl),
                 _I(0))
            return WIN
        if hands[t, c] == 2:
            kind = MELD_CHOUWEI if marks[MK_PASSED_PENG, t, c] != 0 else MELD_WEI
            _set_count(hands, ints, t, c, 0)
            _add_same(P, melds, ints, t, kind, c, 3)
            _say(moves, ints, t, A_CHOUWEI if kind == MELD_CHOUWEI else A_WEI, 0, c, 3)
        else:
            _make_four(P, hands, melds, ints, moves, _I(t), _I(c), _I(MELD_TI))
        return t
    for i in range(seats):
        s = _seat(t + i, seats)
        own = 1 if s == t else 0
        hx = _can_win(P, hands, marks, melds, ints, work, _I(s), _I(c), _I(own), _I(1))
        if hx >= 0:
            fl = F_DRAWN | (F_HAIDI if last else 0) | (F_OWN if s == t else 0)
            how = HOW_ZIMO if s == t else HOW_DRAWN
            _win(P, S, deck, moves, out, _I(s), _I(how), _I(c), _I(hx), _I(-1), _I(fl), _I(0))
            return WIN
    for i in range(1, seats + 1):
        s = _seat(t + i, seats)  # others(t), then t
        if _take_pao(P, hands, melds, ints, moves, s, c, 1):
            return s
    return _peng_chi_or_pass(P, S, moves, policies, t, c, _I(1))
