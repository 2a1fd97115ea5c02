"""The ``study`` seat policy (``POL_STUDY``, issue 39), twin of ``zipai_sim.play.bots.StudyPolicy``:
lookahead that weighs 放炮 (点炮, a win on one's discard) before it lets a card go.

``lookahead`` ranks a discard by what the hand it leaves may win and never asks what the other
seats wait for; with every seat lookahead a quarter to a third of the hands end in a 放炮 in the
variants that allow one (RULES.md §6, ``[win] discard_win``), and there the discarder pays for
everyone (or double, or 3×: §7.2). ``study`` keeps lookahead's value of each discard option and
subtracts its danger:

- ``a(k)``: lookahead's wait value ``vw`` of the hand left by discarding ``k`` when some option
  keeps a live winning wait, else its one-draw value ``v1`` (``kernels.play.lookahead``);
- ``danger(k)``: over ``WORLDS`` sampled worlds (the cards the seat has not seen dealt to the
  other seats' hands, their sizes kept, without replacement), the summed value ``max(胡息 −
  起胡, 0) + 3`` of the other seats' winning waits on ``k`` (each hand valued as if the card
  were its own draw: ``policies.cands`` / ``wait_huxi``; another seat's table 胡息 as the seat
  sees it, a face-down 偎 counted at the small 偎's 胡息);
- the pick is the first option with the largest ``a(k) − DANGER · danger(k) / WORLDS``, ties to
  greedy's score; 碰/吃 are lookahead's.

In variants without 放炮 the danger is 0 and ``study`` plays as lookahead. The worlds are drawn
from a stream keyed by what the seat sees (its own hand, the stock left and its seat:
``Stream(STUDY_SALT ^ hand, stock · 4 + seat)``), so no hidden card and no hand key moves them.
"""

import numpy as np
from numba import njit

from zipai_sim.game import params as p
from zipai_sim.kernels.deal import DECK, NO_SPARE
from zipai_sim.kernels.hand import group_points, is_win
from zipai_sim.kernels.packed import LOW, W, orphans
from zipai_sim.kernels.play.layout import (
    FL_DG,
    FL_T0,
    I_FO,
    I_FULL,
    I_HELD,
    I_NMELD,
    I_POS,
    I_SEATS,
    MD_HUXI,
    MD_KIND,
    MELD_WEI,
    MEMO_COLS,
    MEMO_JM,
    i64,
)
from zipai_sim.kernels.play.lookahead import draws_worth, step_value, wait_value
from zipai_sim.kernels.play.policies import (
    cands,
    dead,
    kind_of_bit,
    minus,
    pair_owed,
    reach,
    score,
    wait_huxi,
    words,
)
from zipai_sim.kernels.play.state import seat_fours, table_huxi
from zipai_sim.kernels.play.unseen import U_ROW, tables, unseen
from zipai_sim.kernels.rng import bounded, deal_state
from zipai_sim.kernels.ting import ting
from zipai_sim.kernels.ting_masks import ting_discards

STUDY_SALT = 0x5354554459  # "STUDY"
SALT = np.uint64(STUDY_SALT)
WORLDS = 16  # sampled worlds a discard decision asks
DANGER = 1.0  # weight of the danger against the wait value (both in the same 胡息-like units)
LEFT_ROW = 7  # the row of ``tmp`` holding a world's cards not yet dealt


@njit(cache=True, _nrt=False)
def danger(P, melds, ints, s, U, left, fl):
    """Write into ``fl[FL_DG + k]`` the summed value of the other seats' winning waits on kind
    ``k`` over ``WORLDS`` worlds (module docstring); all 0 where the variant has no 放炮.
    ``U: int8[20]`` the seat's unseen counts, ``left: int8[20]`` scratch."""
    for k in range(20):
        fl[FL_DG + k] = 0.0
    if P[p.DISCARD_WIN] == 0:
        return
    seats = ints[I_SEATS]
    st = deal_state(SALT ^ np.uint64(ints[I_FULL + s]), (DECK - ints[I_POS]) * 4 + s)
    sp = NO_SPARE
    hv = i64(0)
    wei = group_points(P, p.WEI_SMALL, 0)
    th0 = P[p.THRESHOLD]
    for _w in range(WORLDS):
        n = i64(0)
        for k in range(20):
            left[k] = U[k]
            n += U[k]
        for o in range(seats):
            if o == s:
                continue
            full = i64(0)
            for _t in range(ints[I_HELD + o]):
                if n <= 0:
                    break
                st, sp, hv, x = bounded(st, sp, hv, n)
                k = i64(0)
                while x >= left[k]:
                    x -= left[k]
                    k += 1
                left[k] -= 1
                n -= 1
                full += i64(1) << (W * k)
            th = i64(0)
            for m in range(ints[I_NMELD + o]):
                th += wei if melds[o, m, MD_KIND] == MELD_WEI else melds[o, m, MD_HUXI]
            pk, nf, k3, h4, locked, fours = words(P, full, th, ints[I_FO + o])
            cand, need0 = cands(pk, nf, k3, h4, fours)
            if cand == 0 or not ting(pk, k3, need0):
                continue
            while cand != 0:
                b = cand & -cand
                cand ^= b
                hx = wait_huxi(P, b, pk, nf, k3, locked, need0)
                if is_win(hx, P):
                    fl[FL_DG + kind_of_bit(b)] += max(hx - th0, 0) + 3


@njit(cache=True, _nrt=False)
def study_discard(P, hands, marks, melds, ints, tmp, fl, memo, opts, s, nopt):
    """``StudyPolicy.discard`` among ``opts[:nopt]`` (kinds in increasing order)."""
    U = tmp[U_ROW]
    utot, stock = unseen(hands, marks, melds, ints, s, i64(-1), U)
    tables(fl, utot, stock)
    danger(P, melds, ints, s, U, tmp[LEFT_ROW], fl)
    full = ints[I_FULL + s]
    th = table_huxi(melds, ints, s)
    fo = seat_fours(melds, ints, s)
    pk, nf, k3, h4, locked, fours = words(P, full, th, fo)
    m1 = (pk | (pk >> 1)) & LOW
    o1 = orphans(m1, (pk >> 1) & LOW, i64(1))
    reach_all = reach(o1)
    tm = ting_discards(pk, k3, pair_owed(fours))
    top = 0.0
    for i in range(nopt):
        k = opts[i]
        b = i64(1) << (W * k)
        v = 0.0
        if not (m1 & b and (tm & b == 0 or dead(o1, reach_all, b))):
            a1, a2, a3, a4, a5, a6 = minus(P, k, pk, nf, k3, h4, locked, fours)
            v = wait_value(P, memo, a1, a2, a3, a4, a5, a6, U, i64(-1), fl, i64(FL_T0),
                           i64(1) if m1 & b else i64(0))
        fl[k] = v
        if v > top:
            top = v
    if top == 0.0:
        draws_worth(P, memo, pk, nf, k3, h4, locked, fours, U)
    ta = 0.0
    tg = i64(-1)
    pick = i64(-1)
    for i in range(nopt):
        k = opts[i]
        b = i64(1) << (W * k)
        a = fl[k]
        if top == 0.0:  # lookahead's v1, with the draws worth exploring (``_best_key``)
            draws = i64(-1)
            if m1 & b:
                draws = memo[MEMO_JM + k // MEMO_COLS, k % MEMO_COLS]
                if tm != 0:  # a discard then a draw of its kind leaves the hand as it is
                    draws |= i64(1) << k
            a = step_value(P, memo, full - b, th, fo, U, utot, fl, draws)
        a -= DANGER * fl[FL_DG + k] / WORLDS
        if pick >= 0 and a < ta:
            continue
        if m1 & b and (tm & b == 0 or dead(o1, reach_all, b)):
            g = i64(0)  # what score answers for a hand without a wait
        else:
            a1, a2, a3, a4, a5, a6 = minus(P, k, pk, nf, k3, h4, locked, fours)
            g = score(P, a1, a2, a3, a4, a5, a6, i64(-1))
        if pick < 0 or a > ta or g > tg:
            ta = a
            tg = g
            pick = k
    return pick
