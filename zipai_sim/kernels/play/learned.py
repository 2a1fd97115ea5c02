"""The ``learned`` seat policy (``POL_LEARNED``, issue 47), twin of
``zipai_sim.play.bots_learned.LearnedPolicy``: one ply over its answers by a learned value.

The value of a rest hand (the seat's cards and table after its discard, waiting for the next
card) is linear in ``N_FEAT`` features of what the seat sees, ``V = Σ w[i] · f[i]`` summed in
index order (the twin sums in the same order: the same doubles). The weights are the variant's
shipped file (``play.learned``), fitted by ``zipai-sim train`` to the payments (the variant's
unit: 舵, 囤, 油 …) that self-play hands ended with (``studies.train``).

Features of a rest hand ``full`` (packed, ``kernels.packed``) of seat ``s``, with ``U`` its
unseen counts (``unseen.unseen``: what it sees, RULES.md §5), ``S`` the stock left and ``T`` the
variant's 起胡 (§6; ``max(T, 1)``):

====  =====================================================================================
 0    1 (the intercept)
 1    ``vw``: lookahead's wait value (the chance a live winning card is in the stock × their
      mean ``max(胡息 − 起胡, 0) + 3``, ``lookahead.wait_value``)
 2    ``v1``: lookahead's one-draw value (``lookahead.step_value``) when ``vw`` is 0, else 0
 3    1 when the hand has a winning wait at all, live or not
 4-6  greedy's score (``policies.score``): winning waits, waits, best 胡息 of a wait / T
 7    locked 胡息 (table groups, 坎 and 提 in hand; ``policies.words``) / T, at most 2
 8    what the locked 胡息 lacks of 起胡: max(T − locked, 0) / T
 9    free cards (kinds held once or twice)
 10   lonely cards: kinds held once with no card of a kind that could join them in a group
      (the kinds within two in their size, the other size's same value, the other 二七十)
 11   pairs among the free cards
 12   the stock left: S / the variant's stock
 13   ``vw`` × feature 12, 14: ``v1`` × feature 12, 15: feature 7 × feature 12
 16   1 for the dealer (庄家), 17: 1 for the seat after the dealer
====  =====================================================================================

A discard is the option whose rest hand has the highest value (ties: the more isolated card,
``study.shape``, then the first); a 碰 or 吃 is taken when the best discard after it leaves a
higher value than passing keeps (the hand as it is); a win is always taken (RULES.md §6).

Training record (``I_REC_ON``): a learned seat notes the features of the rest hand each of its
discards leaves, with its seat, in ``fl[FL_REC:]`` (``MAX_REC`` rows a hand);
``turn.record_chunks`` plays whole chunks and hands the rows out.
"""

import numpy as np
from numba import njit

from zipai_sim.game import params as p
from zipai_sim.kernels.packed import W
from zipai_sim.kernels.play.layout import (
    FL_F,
    FL_LAID,
    FL_REC,
    FL_REC_SEAT,
    FL_T0,
    FL_W,
    FL_WAITS,
    I_FULL,
    I_NREC,
    I_REC_ON,
    MAX_REC,
    MAX_SEATS,
    MELD_PENG,
    N_FEAT,
    W_COLS,
    i64,
)
from zipai_sim.kernels.play import neural
from zipai_sim.kernels.play.lookahead import free_kinds, step_value, wait_value
from zipai_sim.kernels.play.policies import SCORE_WAITS, SCORE_WIN, score, words
from zipai_sim.kernels.play.state import chi_left, meld_points, seat_fours, table_huxi
from zipai_sim.kernels.play.study import shape
from zipai_sim.kernels.play.unseen import U_ROW, tables, unseen


@njit(cache=True, _nrt=False, inline="always")
def _count(full, k):
    return (full >> (W * k)) & 7


@njit(cache=True, _nrt=False)
def lonely(full):
    """Kinds held once in the packed hand ``full`` with no card of a kind that could join them
    in a group: the kinds within two in the same size, the same value in the other size (a 绞),
    the other two of 二七十 in its size."""
    n = i64(0)
    for k in range(20):
        if _count(full, k) != 1:
            continue
        size = (k // 10) * 10
        v = k - size
        near = _count(full, (k + 10) % 20)
        for d in range(-2, 3):
            if d != 0 and 0 <= v + d <= 9:
                near += _count(full, size + v + d)
        if v == 1 or v == 6 or v == 9:
            for w in (1, 6, 9):
                if w != v:
                    near += _count(full, size + w)
        if near == 0:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def rest_value(P, memo, full, th, fo, U, utot, stock, fl, s):
    """``V`` of the packed rest hand ``full`` (table 胡息 ``th``, four-card groups ``fo``) of
    seat ``s``: its features into ``fl[FL_F:FL_F + N_FEAT]``, then ``Σ w[i] · f[i]`` with the
    seat's weights ``w = fl[FL_W + s · W_COLS:]``, plus its network's value when it plays one
    (``kernels.play.neural``: its ``context`` of the decision came first).
    ``fl``'s miss tables must be the decision's (``unseen.tables``)."""
    pk, nf, k3, h4, locked, fours = words(P, full, th, fo)
    t = max(P[p.THRESHOLD], 1)
    vw = wait_value(P, memo, pk, nf, k3, h4, locked, fours, U, i64(-1), fl, i64(FL_T0), i64(0))
    waits_any = fl[FL_WAITS]
    v1 = 0.0
    if vw == 0.0:
        v1 = step_value(P, memo, full, th, fo, U, utot, fl, i64(-1))
    g = score(P, pk, nf, k3, h4, locked, fours, i64(-1))
    win = g // SCORE_WIN
    rem = g - win * SCORE_WIN
    nw = rem // SCORE_WAITS
    best = rem - nw * SCORE_WAITS
    pairs = i64(0)
    for k in range(20):
        if (pk >> (W * k)) & 7 == 2:
            pairs += 1
    sf = stock / P[p.STOCK_LEN]
    lk = min(locked, 2 * t) / t
    f = FL_F
    fl[f + 0] = 1.0
    fl[f + 1] = vw
    fl[f + 2] = v1
    fl[f + 3] = waits_any
    fl[f + 4] = float(win)
    fl[f + 5] = float(nw)
    fl[f + 6] = best / t
    fl[f + 7] = lk
    fl[f + 8] = max(t - locked, 0) / t
    fl[f + 9] = float(nf)
    fl[f + 10] = float(lonely(full))
    fl[f + 11] = float(pairs)
    fl[f + 12] = sf
    fl[f + 13] = vw * sf
    fl[f + 14] = v1 * sf
    fl[f + 15] = lk * sf
    fl[f + 16] = 1.0 if s == 0 else 0.0
    fl[f + 17] = 1.0 if s == 1 else 0.0
    v = 0.0
    w = FL_W + s * W_COLS
    for i in range(N_FEAT):
        v += fl[w + i] * fl[f + i]
    if neural.on(fl, s):
        v += neural.value(fl, s, full)
    return v


@njit(cache=True, _nrt=False, inline="always")
def _note(fl, ints, s):
    """Note the features ``rest_value`` last wrote (the chosen rest hand) for seat ``s``."""
    n = ints[I_NREC]
    if ints[I_REC_ON] != 1 or n >= MAX_REC:
        return
    for i in range(N_FEAT):
        fl[FL_REC + n * N_FEAT + i] = fl[FL_F + i]
    fl[FL_REC_SEAT + n] = float(s)
    ints[I_NREC] = n + 1


@njit(cache=True, _nrt=False, inline="always")
def seat_view(hands, marks, melds, ints, tmp, fl, s, c):
    """What seat ``s`` decides from (``c``: the card on offer, -1 while discarding): its unseen
    counts (``tmp[U_ROW]``), cards unseen, stock, packed hand, table 胡息 and four-card groups;
    the decision's miss tables written into ``fl``."""
    U = tmp[U_ROW]
    utot, stock = unseen(hands, marks, melds, ints, s, c, U)
    tables(fl, utot, stock)
    return U, utot, stock, ints[I_FULL + s], table_huxi(melds, ints, s), seat_fours(melds, ints, s)


@njit(cache=True, _nrt=False)
def learned_discard(P, hands, marks, melds, ints, tmp, fl, memo, opts, s, nopt):
    """``LearnedPolicy.discard`` of seat ``s`` among the kinds ``opts[:nopt]`` (increasing; the
    engine's options, RULES.md §5.7): the kind whose rest hand has the highest ``rest_value``,
    ties to the lower ``study.shape``, then the first. A neural seat values by its network
    (``kernels.play.neural``), explores in training and notes the kind it chose."""
    U, utot, stock, full, th, fo = seat_view(hands, marks, melds, ints, tmp, fl, s, i64(-1))
    net = neural.on(fl, s)
    if net:
        neural.context(hands, marks, melds, ints, fl, U, s, i64(0), i64(-1))
    h = hands[s]
    top = 0.0
    tsh = i64(0)
    pick = i64(-1)
    for i in range(nopt):
        k = opts[i]
        v = rest_value(P, memo, full - (i64(1) << (W * k)), th, fo, U, utot, stock, fl, s)
        sh = shape(h, k)
        if pick < 0 or v > top or (v == top and sh < tsh):
            top = v
            tsh = sh
            pick = k
    if net:
        x = neural.explore(fl, ints, s, nopt)
        if x >= 0:
            pick = opts[x]
    if ints[I_REC_ON] == 1:
        rest_value(P, memo, full - (i64(1) << (W * pick)), th, fo, U, utot, stock, fl, s)
        if net:
            neural.note(fl, ints, s)
        else:
            _note(fl, ints, s)
    return pick


@njit(cache=True, _nrt=False)
def _best_after(P, memo, left, th, fo, U, utot, stock, fl, s):
    """The highest ``rest_value`` a discard of a free kind leaves from the packed hand ``left``
    (one card over rest, after a claim), and that discard's bit; -inf without a free kind."""
    top = -np.inf
    pick = i64(0)
    x = free_kinds(left)
    while x != 0:
        b = x & -x
        x ^= b
        v = rest_value(P, memo, left - b, th, fo, U, utot, stock, fl, s)
        if v > top:
            top = v
            pick = b
    return top, pick


@njit(cache=True, _nrt=False)
def _lay(fl, full, left, c):
    """The cards a claim of card ``c`` lays on the table (the hand ``full`` less ``left``, and
    ``c``) as the neural value's ``FL_LAID``."""
    for k in range(20):
        fl[FL_LAID + k] = float(_count(full, k) - _count(left, k))
    fl[FL_LAID + c] += 1.0


@njit(cache=True, _nrt=False)
def _note_claim(P, memo, full, left, bit, th, gain, fo, U, utot, stock, fl, ints, s, c, took):
    """A neural seat's training row of its claim answer: the rest hand after the claim (its
    groups' 胡息 ``gain`` added to the table's ``th``) and its best discard (``bit``) when it
    ``took`` it, else the hand as it is."""
    if ints[I_REC_ON] != 1:
        return
    if took:
        _lay(fl, full, left, c)
        rest_value(P, memo, left - bit, th + gain, fo, U, utot, stock, fl, s)
    else:
        for k in range(20):
            fl[FL_LAID + k] = 0.0
        rest_value(P, memo, full, th, fo, U, utot, stock, fl, s)
    neural.note(fl, ints, s)


@njit(cache=True, _nrt=False)
def learned_peng(P, hands, marks, melds, ints, tmp, fl, memo, s, c):
    """``LearnedPolicy.peng``: 碰 card ``c`` when the best discard after it leaves a higher
    value than the hand as it is."""
    U, utot, stock, full, th, fo = seat_view(hands, marks, melds, ints, tmp, fl, s, c)
    net = neural.on(fl, s)
    if net:
        neural.context(hands, marks, melds, ints, fl, U, s, i64(1), c)
    now = rest_value(P, memo, full, th, fo, U, utot, stock, fl, s)
    left = full - 2 * (i64(1) << (W * c))
    gain = meld_points(P, MELD_PENG, c)
    if net:
        _lay(fl, full, left, c)
    top, bit = _best_after(P, memo, left, th + gain, fo, U, utot, stock, fl, s)
    yes = top > now
    if net:
        x = neural.explore(fl, ints, s, i64(2))
        if x >= 0:
            yes = x == 1
        _note_claim(P, memo, full, left, bit, th, gain, fo, U, utot, stock, fl, ints, s, c,
                    yes and bit != 0)
    return yes


@njit(cache=True, _nrt=False)
def learned_chi(P, hands, marks, melds, ints, tmp, fl, memo, cs, s, c, nopt):
    """``LearnedPolicy.chi`` over the 吃 options ``cs[:nopt]`` of card ``c``: the option whose
    best discard leaves the highest value, if above passing's (the first best), else -1."""
    U, utot, stock, full, th, fo = seat_view(hands, marks, melds, ints, tmp, fl, s, c)
    net = neural.on(fl, s)
    if net:
        neural.context(hands, marks, melds, ints, fl, U, s, i64(2), c)
    best = rest_value(P, memo, full, th, fo, U, utot, stock, fl, s)
    pick = i64(-1)
    for i in range(nopt):
        left, gain = chi_left(P, full, cs, c, i)
        if net:
            _lay(fl, full, left, c)
        v, _ = _best_after(P, memo, left, th + gain, fo, U, utot, stock, fl, s)
        if v > best:
            best = v
            pick = i
    if net:
        x = neural.explore(fl, ints, s, nopt + 1)
        if x >= 0:
            pick = x - 1
        if ints[I_REC_ON] == 1:
            if pick >= 0:
                left, gain = chi_left(P, full, cs, c, pick)
                _lay(fl, full, left, c)
                _, bit = _best_after(P, memo, left, th + gain, fo, U, utot, stock, fl, s)
                _note_claim(P, memo, full, left, bit, th, gain, fo, U, utot, stock, fl, ints,
                            s, c, bit != 0)
            else:
                _note_claim(P, memo, full, full, i64(0), th, i64(0), fo, U, utot, stock, fl,
                            ints, s, c, False)
    return pick


@njit(cache=True, _nrt=False)
def put_weights(fl, weights):
    """Copy each seat's weights row (``float64[MAX_SEATS, N_FEAT]`` learned's linear weights, or
    ``float64[MAX_SEATS, W_COLS]`` with a network after them, ``kernels.play.neural``) into a
    scratch's ``fl``; the columns a narrower array lacks are zeroed (no network)."""
    m = min(weights.shape[1], W_COLS)
    for s in range(MAX_SEATS):
        for i in range(W_COLS):
            fl[FL_W + s * W_COLS + i] = weights[s, i] if i < m else 0.0
