"""The ``lookahead`` seat policy, twin of ``zipai_sim.play.bots.LookaheadPolicy`` (issue 9).

It ranks the hands an option leaves by a key compared in order:

1. ``vw``, the wait value: over the winning waits (``policies.cands`` / ``wait_huxi``), the
   live copies ``L = Σ unseen[k]`` and the value ``A = Σ unseen[k] · (max(胡息 − 起胡, 0) + 3)``
   (a 囤-like step of 3 胡息); ``vw = hit(L) · A / L``, where ``hit(L) = 1 − C(U − L, S) /
   C(U, S)`` is the exact hypergeometric chance that one of the ``L`` live cards lies among the
   ``S`` stock cards, the stock being a uniform draw of the ``U`` cards the seat has not seen;
2. ``v1``, the one-step look-ahead, asked only when ``vw`` is 0: for each unseen kind ``j``
   (chance ``unseen[j] / U``) the best ``vw`` after drawing ``j`` and discarding a free card
   (``U − 1`` unseen, ``S − 1`` in the stock, one copy of ``j`` fewer);
3. ``g``, the greedy score (``policies.score``: win, waits, best 胡息), for ties.

Unseen counts come from what the seat sees (``play.observation.observe``): 4 copies a kind
minus its hand, every seat's face-up table cards (another seat's 偎 is face down), the cards
beside every seat and the card on offer. ``hit`` is a product of ``L`` ratios, the same
floating-point operations in the twin, so both engines make the same choices.
"""

from numba import njit

from zipai_sim.game import params as p
from zipai_sim.kernels.hand import group_points
from zipai_sim.kernels.packed import LOW, W, orphans
from zipai_sim.kernels.play.layout import (
    FL_T0,
    FL_T1,
    FL_WAITS,
    I_FULL,
    MELD_PENG,
    MEMO,
    MEMO_COLS,
    MEMO_HEAD,
    MEMO_JM,
    STEP_MEMO,
    i64,
)
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
from zipai_sim.kernels.play.state import chi_left, meld_points, seat_fours, table_huxi
from zipai_sim.kernels.play.unseen import U_ROW, tables, unseen
from zipai_sim.kernels.ting import ting, ting_after_discard
from zipai_sim.kernels.ting_masks import ting_after_discards, ting_discards


@njit(cache=True, _nrt=False)
def memo_for(P, memo):
    """Clear the memo when ``P`` is not the params tuple its entries were computed with (a
    scratch tuple reused for another variant); called once a hand."""
    same = True
    for i in range(len(P)):
        if memo[MEMO_HEAD + i // MEMO_COLS, i % MEMO_COLS] != P[i]:
            same = False
    if not same:
        for r in range(MEMO_HEAD):
            for q in range(MEMO_COLS):
                memo[r, q] = 0
        for i in range(len(P)):
            memo[MEMO_HEAD + i // MEMO_COLS, i % MEMO_COLS] = P[i]
    return same


@njit(cache=True, _nrt=False, inline="always")
def _slot(full, aux):
    """The memo row of a hand (a multiplicative hash of its key)."""
    return ((full * i64(-7046029254386353131)) ^ aux) >> 40 & (MEMO - 1)


@njit(cache=True, _nrt=False, inline="always")
def wait_value(P, memo, pk, nf, k3, h4, locked, fours, U, drawn, fl, off, tinged):
    """``vw`` of a packed hand at rest (``drawn``: a kind with one unseen copy fewer, or -1).
    ``fl[FL_WAITS]`` is left 1.0 when the hand has a winning wait at all, live or not (a fact of
    the hand alone, which ``step_value`` remembers), else 0.0.

    A hand's winning waits depend on its cards and table only, not on what is unseen: they are
    kept in ``memo`` (``layout.MEMO``; a row per hash of the key (whole hand, locked 胡息,
    fours): the key, a spaced mask of the waits, their 胡息 packed 9 bits each; hands with at
    most 7 winning waits). ``tinged``: 1 when the caller knows that ``ting.ting`` says True
    for the hand (``ting_masks.ting_discards``), so it is not asked again; else 0."""
    full = pk + 3 * k3 + 4 * h4
    aux = (locked << 8) | fours
    r = _slot(full, aux)
    th = P[p.THRESHOLD]
    live = i64(0)
    acc = i64(0)
    if memo[r, 0] == full and memo[r, 1] == aux:
        mask = memo[r, 2]
        pack = memo[r, 3]
        waits = mask != 0
        while mask != 0:
            b = mask & -mask
            mask ^= b
            k = kind_of_bit(b)
            hx = pack & 511
            pack >>= 9
            u = i64(U[k]) - (1 if k == drawn else 0)
            if u > 0:
                live += u
                acc += u * (max(hx - th, 0) + 3)
    else:
        cand, need0 = cands(pk, nf, k3, h4, fours)
        if cand != 0 and tinged == 0 and not ting(pk, k3, need0):
            cand = i64(0)  # no wait at all
        mask = i64(0)
        pack = i64(0)
        n = i64(0)
        keep = True
        waits = False
        while cand != 0:
            b = cand & -cand
            cand ^= b
            hx = wait_huxi(P, b, pk, nf, k3, locked, need0)
            if hx < 0 or not (hx >= th or (P[p.PIAOHU] == 1 and hx == 0)):
                continue
            waits = True
            if n < 7 and hx < 512:
                pack |= hx << (9 * n)
                mask |= b
                n += 1
            else:
                keep = False
            k = kind_of_bit(b)
            u = i64(U[k]) - (1 if k == drawn else 0)
            if u > 0:
                live += u
                acc += u * (max(hx - th, 0) + 3)
        if keep:
            memo[r, 0] = full
            memo[r, 1] = aux
            memo[r, 2] = mask
            memo[r, 3] = pack
    fl[FL_WAITS] = 1.0 if waits else 0.0
    if live == 0:
        return 0.0
    return (1.0 - fl[off + live]) * acc / live


@njit(cache=True, _nrt=False, inline="always")
def _plus(P, k, pk, nf, k3, h4, locked, fours):
    """The packed words (``policies.words``) after one card of kind ``k`` joins the hand: a
    free card, a pair made 坎, a 坎 made 提 in hand."""
    b = i64(1) << (W * k)
    if k3 & b:
        return (pk, nf, k3 ^ b, h4 | b,
                locked - group_points(P, p.KAN_SMALL, k) + group_points(P, p.TI_SMALL, k),
                fours + 1)
    if (pk >> (W * k)) & 2:
        return (pk - 2 * b, nf - 2, k3 | b, h4, locked + group_points(P, p.KAN_SMALL, k),
                fours)
    return pk + b, nf + 1, k3, h4, locked, fours


@njit(cache=True, _nrt=False, inline="always")
def _step_slot(full, aux):
    """The ``v1`` memo row of a hand at rest (another hash than ``_slot``'s)."""
    return MEMO + (((full ^ (aux << 23)) * i64(-4658895280553007687)) >> 48 & (STEP_MEMO - 1))


@njit(cache=True, _nrt=False)
def step_value(P, memo, full, th, fo, U, utot, fl, draws):
    """``v1`` of the packed whole hand ``full`` at rest (table 胡息 ``th``, fours ``fo``).

    Which (draw ``j``, discard ``d``) leave a hand with a winning wait does not depend on what
    is unseen: a hand's pairs (at most 6) are kept in the ``v1`` rows of ``memo`` with the draws
    explored, and a hand met again evaluates only them. The sum skips the other draws, whose
    terms are ``u · 0.0``: the same doubles in the same order. A draw after which no discard
    can leave a wait (``ting.ting_after_discard``) is not explored: ``draws`` (bit ``j``: kind
    ``j``) holds the draws that may leave one when the caller knows them
    (``ting_masks.ting_after_discards``), else -1 (every draw, each asked)."""
    w0, w1, w2, w3, w4, w5 = words(P, full, th, fo)
    aux = (th << 8) | fo | (i64(1) << 62)
    r = _step_slot(full, aux)
    want = i64(0)
    for j in range(20):
        if U[j] > 0:
            want |= i64(1) << j
    tot = 0.0
    if memo[r, 0] == full and memo[r, 1] == aux and want & ~(memo[r, 3] >> 8) == 0:
        pairs = memo[r, 2]
        left = memo[r, 3] & 255
        while left > 0:
            j = pairs & 31
            pk, nf, k3, h4, locked, fours = _plus(P, j, w0, w1, w2, w3, w4, w5)
            best = 0.0
            while left > 0 and pairs & 31 == j:
                v = wait_value(P, memo, pk - (i64(1) << (W * ((pairs >> 5) & 31))), nf - 1, k3,
                                h4, locked, fours, U, j, fl, i64(FL_T1), i64(0))
                if v > best:
                    best = v
                pairs >>= 10
                left -= 1
            u = i64(U[j])
            if u > 0:
                tot += u * best
        return tot / utot if utot > 0 else 0.0
    pairs = i64(0)
    n = i64(0)
    keep = True
    for j in range(20):
        u = i64(U[j])
        if u <= 0 or (draws >> j) & 1 == 0:
            continue  # no discard leaves a wait: the term is u · 0.0
        pk, nf, k3, h4, locked, fours = _plus(P, j, w0, w1, w2, w3, w4, w5)
        if draws == -1 and not ting_after_discard(pk, k3, pair_owed(fours)):
            continue
        # the discards after which ting says True: the others leave no wait (value 0.0)
        opt = ting_discards(pk, k3, pair_owed(fours))
        if opt == 0:
            continue
        o1 = orphans((pk | (pk >> 1)) & LOW, (pk >> 1) & LOW, i64(1))
        reach_all = reach(o1)
        best = 0.0
        while opt != 0:
            b = opt & -opt
            opt ^= b
            if dead(o1, reach_all, b):
                continue
            v = wait_value(P, memo, pk - b, nf - 1, k3, h4, locked, fours, U, i64(j), fl,
                            i64(FL_T1), i64(1))
            if fl[FL_WAITS] != 0.0:
                if n < 6:
                    pairs |= (j | (kind_of_bit(b) << 5)) << (10 * n)
                    n += 1
                else:
                    keep = False
            if v > best:
                best = v
        tot += u * best
    if keep:
        memo[r, 0] = full
        memo[r, 1] = aux
        memo[r, 2] = pairs
        memo[r, 3] = n | (want << 8)
    return tot / utot if utot > 0 else 0.0


@njit(cache=True, _nrt=False)
def draws_worth(P, memo, pk, nf, k3, h4, locked, fours, U):
    """For each free discard option ``d`` of the packed whole hand, write into ``memo``'s
    ``MEMO_JM`` rows the unseen draws ``j`` (bit ``j``) after which some discard may still
    leave a wait, that is ``ting_after_discard`` of the hand less ``d`` plus ``j``: one
    ``ting_masks.ting_after_discards`` of the hand plus ``j`` per draw, not one filter per
    (option, draw). ``d`` is free in the hand plus ``j`` unless ``j`` is its kind: that draw
    gives back the whole hand, so the caller adds it when ``ting_after_discard`` of the whole
    hand says True. ``pk``..``fours``: the whole hand's packed words (``policies.words``)."""
    for i in range(20):
        memo[MEMO_JM + i // MEMO_COLS, i % MEMO_COLS] = 0
    for j in range(20):
        if U[j] <= 0:
            continue
        a1, a2, a3, a4, a5, a6 = _plus(P, j, pk, nf, k3, h4, locked, fours)
        m = ting_after_discards(a1, a3, pair_owed(a6))
        while m != 0:
            b = m & -m
            m ^= b
            d = kind_of_bit(b)
            memo[MEMO_JM + d // MEMO_COLS, d % MEMO_COLS] |= i64(1) << j


@njit(cache=True, _nrt=False, inline="always")
def options_vw(P, memo, pk, nf, k3, h4, locked, fours, m1, o1, reach_all, tm, optmask, U, fl):
    """``vw`` (胡息-like units) of the hand each discard of the spaced mask ``optmask`` leaves,
    written to ``fl[kind]`` (float64), for the packed whole hand ``pk``..``fours``
    (``policies.words``) with its free kinds ``m1``, orphans ``o1``, ``reach_all = reach(o1)``
    and ``tm = ting_masks.ting_discards``: a free discard that leaves no wait is 0.0 unasked.
    Returns the largest (0.0 without an option)."""
    top = 0.0
    x = optmask
    while x != 0:
        b = x & -x
        x ^= b
        k = kind_of_bit(b)
        v = 0.0
        if not (m1 & b and (tm & b == 0 or dead(o1, reach_all, b))):
            a1, a2, a3, a4, a5, a6 = minus(P, k, pk, nf, k3, h4, locked, fours)
            v = wait_value(P, memo, a1, a2, a3, a4, a5, a6, U, i64(-1), fl, i64(FL_T0),
                           i64(1) if m1 & b else i64(0))
        fl[k] = v
        if v > top:
            top = v
    return top


@njit(cache=True, _nrt=False, inline="always")
def _above(vw, v1, g, tvw, tv1, tg):
    return vw > tvw or (vw == tvw and (v1 > tv1 or (v1 == tv1 and g > tg)))


@njit(cache=True, _nrt=False)
def _best_key(P, memo, full, th, fo, optmask, U, utot, fl):
    """The best option's key ``(vw, v1, g)`` and kind among the kinds of ``optmask`` (a spaced
    mask, tried in increasing kind; the first best wins) for the packed whole hand ``full``;
    ``(0.0, 0.0, 0, -1)`` without an option. ``fl: float64[≥ 20]`` scratch."""
    pk, nf, k3, h4, locked, fours = words(P, full, th, fo)
    m1 = (pk | (pk >> 1)) & LOW
    o1 = orphans(m1, (pk >> 1) & LOW, i64(1))
    reach_all = reach(o1)
    # the free discards that may leave a wait (ting says True); the others score vw = 0.0 and
    # g = 0 unasked
    tm = ting_discards(pk, k3, pair_owed(fours))
    none = tm == 0
    top = options_vw(P, memo, pk, nf, k3, h4, locked, fours, m1, o1, reach_all, tm, optmask, U,
                     fl)
    if top == 0.0:
        draws_worth(P, memo, pk, nf, k3, h4, locked, fours, U)
        # a discard then a draw of its kind leaves the hand as it is
        same = not none
    tv1 = 0.0
    tg = i64(-1)
    pick = i64(-1)
    x = optmask
    while x != 0:
        b = x & -x
        x ^= b
        k = kind_of_bit(b)
        if fl[k] != top:
            continue
        v1 = 0.0
        if top == 0.0:
            # the draws that may leave a wait after this discard (every draw where the
            # discard breaks a 坎 or 提)
            draws = i64(-1)
            if m1 & b:
                draws = memo[MEMO_JM + k // MEMO_COLS, k % MEMO_COLS]
                if same:
                    draws |= i64(1) << k
            v1 = step_value(P, memo, full - b, th, fo, U, utot, fl, draws)
            if v1 < tv1:
                continue
        if m1 & b and (tm & b == 0 or dead(o1, reach_all, b)):
            g = i64(0)  # what score answers for a hand without a wait
        else:
            a1, a2, a3, a4, a5, a6 = minus(P, k, pk, nf, k3, h4, locked, fours)
            g = score(P, a1, a2, a3, a4, a5, a6, tg if v1 == tv1 else i64(-1))
        if pick < 0 or v1 > tv1 or g > tg:
            tv1 = v1
            tg = g
            pick = k
    if pick < 0:
        return 0.0, 0.0, i64(0), i64(-1)
    return top, tv1, tg, pick


@njit(cache=True, _nrt=False)
def _rest_key(P, memo, full, th, fo, U, utot, fl):
    """The key ``(vw, v1, g)`` of the packed whole hand ``full`` as it is (passing a claim)."""
    pk, nf, k3, h4, locked, fours = words(P, full, th, fo)
    vw = wait_value(P, memo, pk, nf, k3, h4, locked, fours, U, i64(-1), fl, i64(FL_T0), i64(0))
    v1 = step_value(P, memo, full, th, fo, U, utot, fl, i64(-1)) if vw == 0.0 else 0.0
    return vw, v1, score(P, pk, nf, k3, h4, locked, fours, i64(-1))


@njit(cache=True, _nrt=False, inline="always")
def free_kinds(full):
    """The free kinds (held once or twice) of a packed whole hand, as a spaced mask."""
    b0 = full & LOW
    b1 = (full >> 1) & LOW
    b2 = (full >> 2) & LOW
    return (b0 ^ b1) & ~b2


@njit(cache=True, _nrt=False)
def look_discard(P, hands, marks, melds, ints, tmp, fl, memo, opts, s, nopt):
    """``LookaheadPolicy.discard`` among ``opts[:nopt]`` (kinds in increasing order)."""
    U = tmp[U_ROW]
    utot, stock = unseen(hands, marks, melds, ints, s, i64(-1), U)
    tables(fl, utot, stock)
    mask = i64(0)
    for i in range(nopt):
        mask |= i64(1) << (W * opts[i])
    th = table_huxi(melds, ints, s)
    return _best_key(P, memo, ints[I_FULL + s], th, seat_fours(melds, ints, s), mask, U, utot,
                     fl)[3]


@njit(cache=True, _nrt=False, inline="always")
def _claim_now(P, hands, marks, melds, ints, tmp, fl, memo, s, c):
    """What a 碰/吃 decision on card ``c`` starts from: (unseen counts, cards unseen, table 胡息,
    fours, packed hand, and the key of passing)."""
    U = tmp[U_ROW]
    utot, stock = unseen(hands, marks, melds, ints, s, c, U)
    tables(fl, utot, stock)
    th = table_huxi(melds, ints, s)
    fo = seat_fours(melds, ints, s)
    full = ints[I_FULL + s]
    return U, utot, th, fo, full, _rest_key(P, memo, full, th, fo, U, utot, fl)


@njit(cache=True, _nrt=False)
def look_peng(P, hands, marks, melds, ints, tmp, fl, memo, s, c, eager):
    """``LookaheadPolicy.peng``: 碰 when the best discard after it has the higher key; with
    ``eager`` 1 (``study``) also on an equal key when the 碰 lays 胡息."""
    U, utot, th, fo, full, now = _claim_now(P, hands, marks, melds, ints, tmp, fl, memo, s, c)
    left = full - 2 * (i64(1) << (W * c))
    gain = meld_points(P, MELD_PENG, c)
    vw, v1, g, _k = _best_key(P, memo, left, th + gain, fo, free_kinds(left), U, utot, fl)
    if eager == 1 and gain > 0 and vw == now[0] and v1 == now[1] and g == now[2]:
        return True
    return _above(vw, v1, g, now[0], now[1], now[2])


@njit(cache=True, _nrt=False)
def look_chi(P, hands, marks, melds, ints, tmp, fl, memo, cs, s, c, nopt, eager):
    """``LookaheadPolicy.chi`` over the options ``cs[:nopt]``: index or -1; with ``eager`` 1
    (``study``) an option with a key equal to the best so far wins when it lays more 胡息."""
    U, utot, th, fo, full, now = _claim_now(P, hands, marks, melds, ints, tmp, fl, memo, s, c)
    bvw, bv1, bg = now
    bgain = i64(0)
    pick = i64(-1)
    for i in range(nopt):
        left, gain = chi_left(P, full, cs, c, i)
        vw, v1, g, _k = _best_key(P, memo, left, th + gain, fo, free_kinds(left), U, utot, fl)
        if _above(vw, v1, g, bvw, bv1, bg) or (
                eager == 1 and gain > bgain and vw == bvw and v1 == bv1 and g == bg):
            bvw, bv1, bg = vw, v1, g
            bgain = gain
            pick = i
    return pick
