"""The seat policies, twins of ``zipai_sim.play.policies``: ``random`` draws from the policy
stream; ``greedy`` scores each option by (win, number of waits, best 胡息) of the hand it leaves.
A score reads the hand's free cards packed (``kernels.packed``) and asks the lookup tables of
``kernels.freetab``, not the search, for each wait.
"""

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from ... import params as p
from ..freetab import free_tab
from ..hand import group_points, is_win
from ..packed import LOW, W, orphans
from .layout import _I, MELD_PENG, POL_RANDOM
from .state import _after_chi, _below, _fours, _pts, _table_huxi


def _neighbours(o: int) -> int:
    """Spaced mask of the kinds whose arrival can stop kind ``o`` being an orphan
    (``packed.orphans``): ``o`` itself (a pair, a 绞), its twin (a 绞), the kinds within two in
    the same size (a run) and the other 二七十 of its size."""
    size, v = (o // 10) * 10, o % 10
    ks = {o, (o + 10) % 20} | {size + x for x in range(max(0, v - 2), min(9, v + 2) + 1)}
    if v in (1, 6, 9):
        ks |= {size + 1, size + 6, size + 9}
    return sum(1 << (W * k) for k in ks)


# Orphans only disappear when a card joins them, so a hand with orphans can only be completed
# by a card in every orphan's neighbourhood: ``_score`` asks about those kinds only.
NEIGHBOURS = np.array([_neighbours(o) for o in range(20)], np.int64)

SCORE_WIN = 1_000_000  # greedy score (win, waits, best) as one int: waits ≤ 20, 胡息 < 1000
SCORE_WAITS = 1_000


# --- greedy: a hand as packed words --------------------------------------------------------------
#
# A hand is scored as ``(pk, nf, k3, h4, locked, fours)``: the free cards packed (counts 0..2,
# ``kernels.packed``) and their number, the spaced masks of the kinds held three (坎) and four
# (提) times, the 胡息 of the locked groups (table groups + 坎/提 in hand) and the number of
# four-card groups. Each option's hand (a discard, a 碰, a 吃) is derived from it in a few bit
# operations instead of a pass over 20 counts.

@njit(cache=True, _nrt=False, inline="always")
def _pack_hand(P, hand, th, fo):
    """The packed words of ``hand: int8[20]`` with table 胡息 ``th`` and four-card groups
    ``fo``."""
    pk = _I(0)
    nf = _I(0)
    k3 = _I(0)
    h4 = _I(0)
    fours = _I(fo)
    locked = _I(th)
    for k in range(20):
        n = _I(hand[k])
        b = _I(1) << (W * k)
        if n == 4:
            h4 |= b
            fours += 1
            locked += group_points(P, p.TI_SMALL, k)
        elif n == 3:
            k3 |= b
            locked += group_points(P, p.KAN_SMALL, k)
        else:
            pk += n * b
            nf += n
    return pk, nf, k3, h4, locked, fours


@njit(cache=True, _nrt=False, inline="always")
def _minus(P, k, pk, nf, k3, h4, locked, fours):
    """The packed words after one card of kind ``k`` leaves the hand (a discard; a 坎 or 提 is
    broken only when nothing else is left, ``[play].only_kan_discard``)."""
    b = _I(1) << (W * k)
    if k3 & b:
        return (pk + 2 * b, nf + 2, k3 ^ b, h4, locked - group_points(P, p.KAN_SMALL, k),
                fours)
    if h4 & b:
        return (pk, nf, k3 | b, h4 ^ b,
                locked - group_points(P, p.TI_SMALL, k) + group_points(P, p.KAN_SMALL, k),
                fours - 1)
    return pk - b, nf - 1, k3, h4, locked, fours


@njit(cache=True, _nrt=False, inline="always")
def _kind(low):
    """The kind of a spaced one-bit mask."""
    return trailing_zeros(low) // W


@njit(cache=True, _nrt=False)
def _score(P, pk, nf, k3, h4, locked, fours):
    """``GreedyPolicy.score`` of a packed hand as one int: win * SCORE_WIN + waits *
    SCORE_WAITS + best 胡息 over the waits.

    A wait ``k`` is ``eval_hand(hand, k, own draw)``: a 坎 becomes a 提, a pair a 偎, any other
    card one more free card (§6). Exact necessary tests pick the kinds worth asking: the count
    test of each case, and the orphans (``packed.orphans``) of the hand, which only a card in
    every orphan's neighbourhood removes (a free card), which only the pair's own kind may hold
    (a 偎 takes cards away, it covers nothing), or which must be none with the pair owed (a 提).
    Each remaining kind gets ``eval_hand``'s own tests and the lookup tables."""
    need0 = _I(1) if fours >= 1 else _I(0)
    m1 = (pk | (pk >> 1)) & LOW
    m2 = (pk >> 1) & LOW
    o0 = orphans(m1, m2, need0)
    cand = _I(0)
    r = nf + 1 - 2 * need0
    if r >= 0 and r % 3 == 0:  # one more free card: kinds held 0 or 1 times
        cf = LOW & ~m2 & ~k3 & ~h4
        o = o0
        while o != 0 and cf != 0:
            low = o & -o
            cf &= NEIGHBOURS[_kind(low)]
            o ^= low
        cand |= cf
    r = nf - 2 - 2 * need0
    if r >= 0 and r % 3 == 0 and (o0 & (o0 - 1)) == 0:  # a 偎: at most the pair an orphan
        cand |= m2 if o0 == 0 else (o0 & m2)
    if k3 != 0 and nf >= 2 and (nf - 2) % 3 == 0:  # a 提 from a 坎: the pair is owed
        if (o0 if need0 == 1 else orphans(m1, m2, _I(1))) == 0:
            cand |= k3
    win = _I(0)
    waits = _I(0)
    best = _I(0)
    while cand != 0:
        b = cand & -cand
        cand ^= b
        k = _kind(b)
        need = need0
        base = locked
        if k3 & b:
            q = pk
            m = nf
            need = _I(1)
            base += group_points(P, p.TI_SMALL, k) - group_points(P, p.KAN_SMALL, k)
        elif m2 & b:
            q = pk - 2 * b
            m = nf - 2
            base += group_points(P, p.WEI_SMALL, k)
        else:
            q = pk + b
            m = nf + 1
        rest = m - 2 * need
        if rest < 0 or rest % 3 != 0:
            continue
        if orphans((q | (q >> 1)) & LOW, (q >> 1) & LOW, need) != 0:
            continue
        x = free_tab(q, need, P[p.YIERSAN_SMALL], P[p.YIERSAN_BIG], P[p.ERQISHI_SMALL],
                     P[p.ERQISHI_BIG])
        if x < 0:
            continue
        hx = base + x
        waits += 1
        best = max(best, hx)
        if is_win(hx, P):
            win += 1
    return win * SCORE_WIN + waits * SCORE_WAITS + best


@njit(cache=True, _nrt=False)
def _after(P, pk, nf, k3, h4, locked, fours):
    """``GreedyPolicy._after``: the best discard's score of a packed hand (options: the free
    kinds in order), 0 without a free card."""
    opt = (pk | (pk >> 1)) & LOW
    if opt == 0:
        return _I(0)
    top = _I(-1)
    while opt != 0:
        b = opt & -opt
        opt ^= b
        sc = _score(P, pk - b, nf - 1, k3, h4, locked, fours)
        if sc > top:
            top = sc
    return top


@njit(cache=True, _nrt=False)
def _pol_discard(P, hands, melds, ints, rng, work, opts, policies, s, nopt):
    """``policy.discard`` among ``opts[:nopt]`` (``GreedyPolicy.best_discard``: the first
    best option)."""
    if policies[s] == POL_RANDOM:
        return opts[_below(rng, ints, nopt)]
    pk, nf, k3, h4, locked, fours = _pack_hand(P, hands[s], _table_huxi(melds, ints, s),
                                               _fours(melds, ints, s))
    top = _I(-1)
    pick = _I(-1)
    for i in range(nopt):
        k = opts[i]
        a, b, c, d, e, f = _minus(P, k, pk, nf, k3, h4, locked, fours)
        sc = _score(P, a, b, c, d, e, f)
        if pick < 0 or sc > top:
            top = sc
            pick = k
    return pick


@njit(cache=True, _nrt=False)
def _pol_peng(P, hands, melds, ints, rng, work, tmp, opts, policies, s, c):
    """``policy.peng``: 碰 when the best discard after it scores more than the hand now."""
    if policies[s] == POL_RANDOM:
        return _below(rng, ints, 2) == 1
    pk, nf, k3, h4, locked, fours = _pack_hand(P, hands[s], _table_huxi(melds, ints, s),
                                               _fours(melds, ints, s))
    now = _score(P, pk, nf, k3, h4, locked, fours)
    b = _I(1) << (W * c)
    return _after(P, pk - 2 * b, nf - 2, k3, h4, locked + _pts(P, MELD_PENG, c), fours) > now


@njit(cache=True, _nrt=False)
def _pol_chi(P, hands, melds, ints, rng, work, tmp, cs, opts, policies, s, c, nopt):
    """``policy.chi`` over the options ``cs[:nopt]``: index or -1."""
    if policies[s] == POL_RANDOM:
        return _below(rng, ints, nopt + 1) - 1
    th = _table_huxi(melds, ints, s)
    fo = _fours(melds, ints, s)
    pk, nf, k3, h4, locked, fours = _pack_hand(P, hands[s], th, fo)
    best = _score(P, pk, nf, k3, h4, locked, fours)
    pick = _I(-1)
    h = tmp[3]
    for i in range(nopt):
        gain = _after_chi(P, hands, cs, s, c, i, h)
        a, b, x, d, e, f = _pack_hand(P, h, th + gain, fo)
        sc = _after(P, a, b, x, d, e, f)
        if sc > best:
            best = sc
            pick = i
    return pick
