"""Claims on a card (RULES.md §5–§6): the discard, the forced 提/偎/跑, the optional 碰 and 吃 (with
its 比) in seat order, the 臭牌 marks of passed claims, and what happens to a discarded
(``on_discard``) or drawn (``on_draw``) card.

The handlers are inlined into the turn loop (``inline="always"``): numba passes a tuple and
every array member by member, so a call to ``on_draw`` took 168 machine words (the params
tuple's 39, each scratch array's 5 + 2 × ndim), more than a random seat's whole answer costs.
"""

from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from zipai_sim.game import params as p
from zipai_sim.kernels.chi import NO_GROUP, chi_options, chi_possible, gcard
from zipai_sim.kernels.packed import LOW, W
from zipai_sim.kernels.play.layout import (
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
    I_OBS_ON,
    I_NPASS,
    I_PASS,
    I_PK,
    I_RO_FROZEN,
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
    RO_HU,
    RO_DISCARD,
    RO_PENG,
    WIN,
    i64,
)
from zipai_sim.kernels.play.learned import learned_chi, learned_discard, learned_peng
from zipai_sim.kernels.play.observe import observe, observe_chi
from zipai_sim.kernels.play.lookahead import look_chi, look_discard, look_peng
from zipai_sim.kernels.play.policies import pol_chi, pol_discard, pol_peng
from zipai_sim.kernels.play.script import (
    plays_learned,
    plays_study,
    freeze_discard,
    freeze_list,
    freezing,
    hu_declined,
    listed,
    next_listed,
    script_claim,
    script_discard,
    scripted,
)
from zipai_sim.kernels.play.state import (
    add_group,
    add_same,
    chi_left,
    del_meld,
    meld_of,
    say,
    seat,
    seat_pack,
    set_count,
    take_chi,
)
from zipai_sim.kernels.play.study import study_discard
from zipai_sim.kernels.play.winning import can_win, take_win

# --- the hand -----------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def lay_opening_ti(P, hands, melds, ints, moves, s):
    """Seat ``s`` lays every four of a kind it was dealt as 提 on the table (RULES.md §6)."""
    for k in range(20):
        if hands[s, k] == 4:
            set_count(hands, ints, s, k, 0)
            add_same(P, melds, ints, s, MELD_TI, k, 4)
            say(moves, ints, s, A_DEAL_TI, 0, k, 4)


@njit(cache=True, _nrt=False, inline="always")
def _noted(ints, was):
    """The freeze just made froze this question and the batched table wants its observation
    (``kernels.play.observe``)."""
    return was == 0 and ints[I_RO_FROZEN] == 1 and ints[I_OBS_ON] == 1


@njit(cache=True, _nrt=False)
def _hu_declined(hands, marks, melds, ints, fl, tmp, policies, s, c):
    """``script.hu_declined``, noting the observation when it froze the 胡 question."""
    was = ints[I_RO_FROZEN]
    d = hu_declined(ints, policies, s, c)
    if _noted(ints, was):
        observe(hands, marks, melds, ints, fl, tmp[7], s, i64(RO_HU), c)
    return d


@njit(cache=True, _nrt=False, inline="always")
def choose_discard(P, hands, marks, melds, ints, rng, work, tmp, fl, memo, opts, moves, policies,
                    s):
    """``Game.choose_discard``: the options are the free kinds in order (坎 are never
    discarded, §5.7), else, with only 坎 left, skip the discard or break a 坎
    (``[play].only_kan_discard``)."""
    full = ints[I_FULL + s]
    held = (full | (full >> 1) | (full >> 2)) & LOW
    opt = (ints[I_PK + s] | (ints[I_PK + s] >> 1)) & LOW
    if opt == 0:
        if P[p.ONLY_KAN_SKIP] == 1:
            return i64(-1)
        opt = held
    n = i64(0)
    while opt != 0:
        b = opt & -opt
        opt ^= b
        opts[n] = trailing_zeros(b) // W
        n += 1
    c = i64(-1)
    if scripted(ints):
        c = script_discard(ints, opts, i64(s), i64(n), i64(RO_DISCARD))
    if c < 0:
        if n > 1 and listed(ints, policies, s):
            c = next_listed(ints, i64(s))
        else:
            if policies[s] == POL_LOOKAHEAD:
                c = look_discard(P, hands, marks, melds, ints, tmp, fl, memo, opts, i64(s),
                                 i64(n))
            elif plays_learned(policies[s]):
                c = learned_discard(P, hands, marks, melds, ints, tmp, fl, memo, opts, i64(s),
                                    i64(n))
            elif plays_study(policies[s]):  # a teacher seat's own answer is study's
                c = study_discard(P, hands, marks, melds, ints, tmp, fl, memo, opts, i64(s),
                                  i64(n))
            else:  # a rollout seat's own answer is greedy's
                c = pol_discard(P, hands, melds, ints, rng, work, opts, policies, i64(s), i64(n))
            if n > 1 and freezing(ints, policies, s):
                was = ints[I_RO_FROZEN]
                freeze_discard(ints, i64(s), i64(RO_DISCARD), opts, i64(n), i64(c))
                if _noted(ints, was):
                    observe(hands, marks, melds, ints, fl, tmp[7], i64(s), i64(RO_DISCARD),
                            i64(-1))
    set_count(hands, ints, s, c, hands[s, c] - 1)
    marks[MK_CHOU, s, c] = 1  # never 吃/碰 one's own discard (§5.6)
    ints[I_DISC + s] |= i64(1) << c
    say(moves, ints, s, A_DISCARD, 0, c, 1)
    return c


@njit(cache=True, _nrt=False)
def _make_four(P, hands, melds, ints, moves, s, c, kind):
    """``Game.make_four``: 提 or 跑 from a 坎 in hand or onto the seat's 偎/臭偎/碰 of ``c``."""
    i = meld_of(melds, ints, s, c, True, True)
    if i >= 0:
        del_meld(melds, ints, s, i)
    else:
        set_count(hands, ints, s, c, 0)
    add_same(P, melds, ints, s, kind, c, 4)
    say(moves, ints, s, A_TI if kind == MELD_TI else A_PAO, 0, c, 4)


@njit(cache=True, _nrt=False, inline="always")
def _take_pao(P, hands, melds, ints, moves, s, c, drawn):
    """``Game.take_pao``: the forced 跑."""
    if (hands[s, c] == 3 or meld_of(melds, ints, s, c, False, True) >= 0
            or (drawn == 1 and meld_of(melds, ints, s, c, True, False) >= 0)):
        _make_four(P, hands, melds, ints, moves, i64(s), i64(c), i64(MELD_PAO))
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
    return ((pk | (pk >> 1)) & LOW & ~(i64(1) << (W * c))) != 0


@njit(cache=True, _nrt=False, inline="always")
def _chi_leaves_discard(P, ints, cs, s, c, i):
    """``play.chi.leaves_discard`` for 吃 option ``cs[i]`` of card ``c``: some free card (held
    once or twice) stays, on the packed hand."""
    full = chi_left(P, ints[I_FULL + s], cs, c, i)[0]
    b0 = full & LOW
    b1 = (full >> 1) & LOW
    b2 = (full >> 2) & LOW
    return ((b0 ^ b1) & ~b2) != 0  # held once (b0) or twice (b1), not 3 (both) or 4 (b2)


@njit(cache=True, _nrt=False, inline="always")
def _offer_peng(P, hands, marks, melds, ints, rng, work, tmp, fl, memo, opts, moves, policies,
                first, c):
    """``Game.offer_peng`` by the seats after ``first`` in turn order (``others(first)``)."""
    seats = ints[I_SEATS]
    taker = i64(NONE)
    for i in range(1, seats):
        s = seat(first + i, seats)
        if hands[s, c] != 2 or marks[MK_CHOU, s, c] != 0 or marks[MK_PASSED_PENG, s, c] != 0:
            continue
        if not _keeps_discard(ints, s, c):  # §5.3: a claim must leave a discard
            continue
        if scripted(ints):
            yes = script_claim(ints, i64(s), i64(RO_PENG), i64(0)) == 1
        elif listed(ints, policies, s):
            yes = next_listed(ints, i64(s)) == 1
        else:
            if plays_learned(policies[s]):
                yes = learned_peng(P, hands, marks, melds, ints, tmp, fl, memo, i64(s), i64(c))
            elif policies[s] == POL_LOOKAHEAD or plays_study(policies[s]):
                yes = look_peng(P, hands, marks, melds, ints, tmp, fl, memo, i64(s), i64(c),
                                i64(1) if plays_study(policies[s]) else i64(0))
            else:
                yes = pol_peng(P, hands, melds, ints, rng, work, tmp, opts, policies, i64(s),
                               i64(c))
            if freezing(ints, policies, s):
                was = ints[I_RO_FROZEN]
                freeze_list(ints, i64(s), i64(RO_PENG), i64(c), i64(1 if yes else 0), i64(0),
                            i64(2))
                if _noted(ints, was):
                    observe(hands, marks, melds, ints, fl, tmp[7], i64(s), i64(RO_PENG), i64(c))
        if yes:
            set_count(hands, ints, s, c, 0)
            add_same(P, melds, ints, s, MELD_PENG, c, 3)
            say(moves, ints, s, A_PENG, 0, c, 3)
            taker = s
            break
        _note_pass(ints, s, 1)
    return taker


@njit(cache=True, _nrt=False, inline="always")
def _chi_take(P, hands, marks, melds, ints, rng, work, tmp, fl, memo, cs, opts, moves, policies, s,
              c):
    """``Game.offer_chi`` once the card is known not 臭: options, the policy, the 吃."""
    pk = seat_pack(ints, s)[3]
    m = chi_options(pk, c, cs)
    n = i64(0)
    for i in range(m):  # keep the options that leave a discard (§5.3), in order
        if _chi_leaves_discard(P, ints, cs, i64(s), i64(c), i64(i)):
            for col in range(3):
                cs[n, col] = cs[i, col]
            n += 1
    if n == 0:
        return False
    if scripted(ints):
        i = script_claim(ints, i64(s), i64(RO_CHI), i64(-1))
    elif listed(ints, policies, s):
        i = next_listed(ints, i64(s))
    else:
        if plays_learned(policies[s]):
            i = learned_chi(P, hands, marks, melds, ints, tmp, fl, memo, cs, i64(s), i64(c),
                            i64(n))
        elif policies[s] == POL_LOOKAHEAD or plays_study(policies[s]):
            i = look_chi(P, hands, marks, melds, ints, tmp, fl, memo, cs, i64(s), i64(c), i64(n),
                         i64(1) if plays_study(policies[s]) else i64(0))
        else:
            i = pol_chi(P, hands, melds, ints, rng, work, tmp, cs, opts, policies, i64(s),
                        i64(c), i64(n))
        if freezing(ints, policies, s):
            was = ints[I_RO_FROZEN]
            freeze_list(ints, i64(s), i64(RO_CHI), i64(c), i64(i), i64(-1), i64(n + 1))
            if _noted(ints, was):
                observe(hands, marks, melds, ints, fl, tmp[7], i64(s), i64(RO_CHI), i64(c))
                observe_chi(fl, cs, n)
    if i < 0:
        _note_pass(ints, s, 0)
        return False
    take_chi(P, hands, ints, cs, s, c, i)
    r = ints[I_NMOV]
    nc = i64(0)
    for g in range(3):
        code = cs[i, g]
        if code == NO_GROUP:
            continue
        for t in range(3):
            moves[r, M_CARDS + nc] = gcard(code, t)
            nc += 1
        add_group(P, melds, ints, s, code)
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
    if not chi_possible(seat_pack(ints, s)[3], c):
        return False
    return _chi_take(P, hands, marks, melds, ints, rng, work, tmp, fl, memo, cs, opts, moves,
                     policies, i64(s), i64(c))


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
    nxt = seat(src + 1, ints[I_SEATS])
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
def on_discard(P, S, deck, moves, out, policies, d, c):
    """``Game.on_discard``: WIN, the seat that took ``c``, or NONE."""
    hands, marks, melds, ints, rng, work, tmp, cs, opts, fl, memo = S
    seats = ints[I_SEATS]
    if P[p.DISCARD_WIN] == 1:
        for i in range(1, seats):
            s = seat(d + i, seats)
            hx = can_win(P, hands, marks, melds, ints, work, i64(s), i64(c), i64(0), i64(0))
            if hx >= 0 and not _hu_declined(hands, marks, melds, ints, fl, tmp, policies, i64(s),
                                             i64(c)):
                how_fl = F_DIHU if (P[p.DIHU_LIANGZHANG] == 0 and ints[I_FIRST] == 1 and d == 0
                                and s != 0) else 0
                take_win(P, S, deck, moves, out, i64(s), i64(HOW_FANGPAO), i64(c), i64(hx), i64(d),
                     i64(how_fl), i64(0))
                return WIN
    for i in range(1, seats):
        s = seat(d + i, seats)
        if _take_pao(P, hands, melds, ints, moves, s, c, 0):
            return s
    return _peng_chi_or_pass(P, S, moves, policies, d, c, i64(0))


@njit(cache=True, _nrt=False, inline="always")
def on_draw(P, S, deck, moves, out, policies, t, c, last):
    """``Game.on_draw``: WIN, the seat that took ``c``, or NONE."""
    hands, marks, melds, ints, rng, work, tmp, cs, opts, fl, memo = S
    seats = ints[I_SEATS]
    if hands[t, c] == 3 or meld_of(melds, ints, t, c, False, True) >= 0 or hands[t, c] == 2:
        hx = can_win(P, hands, marks, melds, ints, work, i64(t), i64(c), i64(1), i64(1))
        if hx >= 0 and not _hu_declined(hands, marks, melds, ints, fl, tmp, policies, i64(t),
                                             i64(c)):
            how_fl = F_OWN | F_DRAWN | (F_HAIDI if last else 0)
            take_win(P, S, deck, moves, out, i64(t), i64(HOW_ZIMO), i64(c), i64(hx), i64(-1),
                     i64(how_fl), i64(0))
            return WIN
        if hands[t, c] == 2:
            kind = MELD_CHOUWEI if marks[MK_PASSED_PENG, t, c] != 0 else MELD_WEI
            set_count(hands, ints, t, c, 0)
            add_same(P, melds, ints, t, kind, c, 3)
            say(moves, ints, t, A_CHOUWEI if kind == MELD_CHOUWEI else A_WEI, 0, c, 3)
        else:
            _make_four(P, hands, melds, ints, moves, i64(t), i64(c), i64(MELD_TI))
        return t
    for i in range(seats):
        s = seat(t + i, seats)
        own = 1 if s == t else 0
        hx = can_win(P, hands, marks, melds, ints, work, i64(s), i64(c), i64(own), i64(1))
        if hx >= 0 and not _hu_declined(hands, marks, melds, ints, fl, tmp, policies, i64(s),
                                             i64(c)):
            how_fl = F_DRAWN | (F_HAIDI if last else 0) | (F_OWN if s == t else 0)
            how = HOW_ZIMO if s == t else HOW_DRAWN
            take_win(P, S, deck, moves, out, i64(s), i64(how), i64(c), i64(hx), i64(-1), i64(how_fl),
                     i64(0))
            return WIN
    for i in range(1, seats + 1):
        s = seat(t + i, seats)  # others(t), then t
        if _take_pao(P, hands, melds, ints, moves, s, c, 1):
            return s
    return _peng_chi_or_pass(P, S, moves, policies, t, c, i64(1))
