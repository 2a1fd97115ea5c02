"""The seat policies, twins of ``zipai_sim.play.policies``: ``random`` draws from the policy
stream; ``greedy`` scores each option by (win, number of waits, best 胡息) of the hand it leaves.
A score reads the hand's free cards packed (``kernels.packed``) and asks the lookup tables of
``kernels.freetab``, not the search, for each wait.
"""

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from zipai_sim.game import params as p
from zipai_sim.kernels.completes import completes as _completes
from zipai_sim.kernels.freetab import free_tab
from zipai_sim.kernels.hand import group_points, is_win, locked_points
from zipai_sim.kernels.packed import LOW, W, orphans, popcount
from zipai_sim.kernels.play.layout import (
    I_FO,
    I_FULL,
    I_NEXT_KEY,
    I_NOW,
    I_NOW_KEY,
    I_TH,
    MELD_PENG,
    POL_RANDOM,
    i64,
)
from zipai_sim.kernels.play.state import below, chi_left, meld_points, seat_fours, table_huxi
from zipai_sim.kernels.ting import ting, ting_after_discard
from zipai_sim.kernels.ting_masks import ting_discards


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
# by a card in every orphan's neighbourhood: ``score`` asks about those kinds only.
NEIGHBOURS = np.array([_neighbours(o) for o in range(20)], np.int64)


SCORE_WIN = 1_000_000  # greedy score (win, waits, best) as one int: waits ≤ 20, 胡息 < 1000
SCORE_WAITS = 1_000
MAX_HUXI = SCORE_WAITS - 1  # a bound on one wait's 胡息 (the score packs it below the waits)


# --- greedy: a hand as packed words --------------------------------------------------------------
#
# A hand is scored as ``(pk, nf, k3, h4, locked, fours)``: the free cards packed (counts 0..2,
# ``kernels.packed``) and their number, the spaced masks of the kinds held three (坎) and four
# (提) times, the 胡息 of the locked groups (table groups + 坎/提 in hand) and the number of
# four-card groups. Each option's hand (a discard, a 碰, a 吃) is derived from it in a few bit
# operations instead of a pass over 20 counts.

@njit(cache=True, _nrt=False, inline="always")
def kind_of_bit(low):
    """The kind of a spaced one-bit mask."""
    return trailing_zeros(low) // W


@njit(cache=True, _nrt=False, inline="always")
def words(P, full, th, fo):
    """The packed words of a whole hand packed as ``full`` (counts 0..4) with table 胡息
    ``th`` and four-card table groups ``fo``: classes, counts and the 胡息 of the 坎 and 提 by
    bit operations (``hand.locked_points``), with no branch per kind."""
    b0 = full & LOW
    b1 = (full >> 1) & LOW
    h4 = (full >> 2) & LOW
    k3 = b0 & b1
    pk = full & ~((k3 | h4) * 7)
    nf = i64(popcount(pk & LOW) + 2 * popcount((pk >> 1) & LOW))
    locked = i64(th) + locked_points(P, k3, h4)
    fours = i64(fo) + popcount(h4)
    return pk, nf, k3, h4, locked, fours


@njit(cache=True, _nrt=False, inline="always")
def minus(P, k, pk, nf, k3, h4, locked, fours):
    """The packed words after one card of kind ``k`` leaves the hand (a discard; a 坎 or 提 is
    broken only when nothing else is left, ``[play].only_kan_discard``)."""
    b = i64(1) << (W * k)
    if k3 & b:
        return (pk + 2 * b, nf + 2, k3 ^ b, h4, locked - group_points(P, p.KAN_SMALL, k),
                fours)
    if h4 & b:
        return (pk, nf, k3 | b, h4 ^ b,
                locked - group_points(P, p.TI_SMALL, k) + group_points(P, p.KAN_SMALL, k),
                fours - 1)
    return pk - b, nf - 1, k3, h4, locked, fours


@njit(cache=True, _nrt=False, inline="always")
def cands(pk, nf, k3, h4, fours):
    """The kinds worth asking about as waits of a packed hand (``score``): a spaced mask, and
    ``need0`` (1: a pair is owed, the hand holds a four-card group).

    A wait ``k`` is ``eval_hand(hand, k, own draw)``: a 坎 becomes a 提, a pair a 偎, any other
    card one more free card (§6). Exact necessary tests pick the kinds worth asking: the count
    test of each case, and the orphans (``packed.orphans``) of the hand, which only a card in
    every orphan's neighbourhood removes (a free card), which only the pair's own kind may hold
    (a 偎 takes cards away, it covers nothing), or which must be none with the pair owed (a 提)."""
    need0 = i64(1) if fours >= 1 else i64(0)
    m1 = (pk | (pk >> 1)) & LOW
    m2 = (pk >> 1) & LOW
    o0 = orphans(m1, m2, need0)
    cand = i64(0)
    r = nf + 1 - 2 * need0
    if r >= 0 and r % 3 == 0:  # one more free card: kinds held 0 or 1 times
        cf = LOW & ~m2 & ~k3 & ~h4
        o = o0
        while o != 0 and cf != 0:
            low = o & -o
            cf &= NEIGHBOURS[kind_of_bit(low)]
            o ^= low
        cand |= cf
    r = nf - 2 - 2 * need0
    if r >= 0 and r % 3 == 0 and (o0 & (o0 - 1)) == 0:  # a 偎: at most the pair an orphan
        cand |= m2 if o0 == 0 else (o0 & m2)
    if k3 != 0 and nf >= 2 and (nf - 2) % 3 == 0:  # a 提 from a 坎: the pair is owed
        if (o0 if need0 == 1 else orphans(m1, m2, i64(1))) == 0:
            cand |= k3
    return cand, need0


@njit(cache=True, _nrt=False, inline="always")
def wait_huxi(P, b, pk, nf, k3, locked, need0):
    """胡息 of the packed hand completed by one card of the candidate kind ``b`` (a one-bit
    mask from ``cands``) on an own draw, or -1 when it does not complete: ``eval_hand``'s own
    tests, then the lookup tables (``free_tab``)."""
    k = kind_of_bit(b)
    need = need0
    base = locked
    m2 = (pk >> 1) & LOW
    if k3 & b:
        q = pk
        m = nf
        need = i64(1)
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
        return i64(-1)
    if orphans((q | (q >> 1)) & LOW, (q >> 1) & LOW, need) != 0:
        return i64(-1)
    # about 9 in 10 hands asked about fail here, in a few lookups, before free_tab enumerates
    # the 绞 choices
    if not _completes(q, need):
        return i64(-1)
    x = free_tab(q, need, P[p.YIERSAN_SMALL], P[p.YIERSAN_BIG], P[p.ERQISHI_SMALL],
                 P[p.ERQISHI_BIG])
    if x < 0:
        return i64(-1)
    return base + x


@njit(cache=True, _nrt=False)
def score(P, pk, nf, k3, h4, locked, fours, floor):
    """``GreedyPolicy.score`` of a packed hand as one int: win * SCORE_WIN + waits *
    SCORE_WAITS + best 胡息 over the waits (the kinds of ``cands``, each ``wait_huxi``).

    ``floor``: the caller only needs scores above it (the best so far); once the kinds left
    cannot lift the score above ``floor`` (each adds at most one win and one wait) the answer
    is some value ≤ ``floor``. Exact whenever the true score is above ``floor``. A hand that
    ``ting.ting`` finds without a wait (most hands asked about) scores 0 unsearched."""
    cand, need0 = cands(pk, nf, k3, h4, fours)
    if cand != 0 and not ting(pk, k3, need0):
        return i64(0)
    win = i64(0)
    waits = i64(0)
    best = i64(0)
    left = i64(0)
    c = cand
    while c != 0:
        c &= c - 1
        left += 1
    while cand != 0:
        if (win + left) * SCORE_WIN + (waits + left) * SCORE_WAITS + MAX_HUXI <= floor:
            return floor
        left -= 1
        b = cand & -cand
        cand ^= b
        hx = wait_huxi(P, b, pk, nf, k3, locked, need0)
        if hx < 0:
            continue
        waits += 1
        best = max(best, hx)
        if is_win(hx, P):
            win += 1
    return win * SCORE_WIN + waits * SCORE_WAITS + best


@njit(cache=True, _nrt=False, inline="always")
def _score_now(P, ints, s, pk, nf, k3, h4, locked, fours, th, fo):
    """``score`` of seat ``s``'s hand as it is, remembered until its cards or table change."""
    key = ints[I_FULL + s] | (i64(1) << 62)
    key2 = (th << 8) | fo
    if ints[I_NOW_KEY + s] == key and ints[I_NOW_KEY + 4 + s] == key2:
        return ints[I_NOW + s]
    sc = score(P, pk, nf, k3, h4, locked, fours, i64(-1))
    ints[I_NOW_KEY + s] = key
    ints[I_NOW_KEY + 4 + s] = key2
    ints[I_NOW + s] = sc
    return sc


@njit(cache=True, _nrt=False, inline="always")
def pair_owed(fours):
    """1 when a four-card group is held, so that a win owes a pair (``cands``' ``need0``)."""
    return i64(1) if fours >= 1 else i64(0)


@njit(cache=True, _nrt=False, inline="always")
def reach(o):
    """The kinds whose arrival could fix every orphan in the spaced mask ``o`` (all kinds for
    none): the intersection of their ``NEIGHBOURS``."""
    r = LOW
    while o != 0:
        b = o & -o
        o ^= b
        r &= NEIGHBOURS[kind_of_bit(b)]
    return r


@njit(cache=True, _nrt=False, inline="always")
def dead(o1, reach_all, b):
    """True when discarding the free kind ``b`` (one-bit mask) certainly leaves a hand with no
    wait, so that its score is 0. ``o1``: the hand's orphans with a pair allowed
    (``orphans(…, 1)``), ``reach_all = reach(o1)``. A discard only takes cover away, so every
    orphan but the discarded kind stays one; a wait (a free card, a 偎 or a 提: ``score``)
    needs one kind that fixes them all."""
    if o1 & b:
        return reach(o1 ^ b) == 0
    return reach_all == 0


@njit(cache=True, _nrt=False)
def _after(P, pk, nf, k3, h4, locked, fours, floor):
    """``GreedyPolicy._after`` as far as a caller comparing it with ``floor ≥ 0`` needs: the
    best discard's score of a packed hand (options: the free kinds in order) when it is above
    ``floor``, else ``floor`` (also without a free card, where the reference says 0). Discards
    that leave no wait (score 0 ≤ ``floor``) are skipped unscored (``dead``, and those that
    ``ting_masks.ting_discards`` leaves out), and all of them when no discard can leave a wait
    (``ting.ting_after_discard``: about 4 hands in 5)."""
    if not ting_after_discard(pk, k3, pair_owed(fours)):
        return i64(floor), i64(-1)
    # only the discards after which ting says True can score above 0 (ting_masks.ting_discards)
    opt = ting_discards(pk, k3, pair_owed(fours))
    o1 = orphans((pk | (pk >> 1)) & LOW, (pk >> 1) & LOW, i64(1))
    reach_all = reach(o1)
    top = i64(floor)
    arg = i64(-1)
    while opt != 0:
        b = opt & -opt
        opt ^= b
        if dead(o1, reach_all, b):
            continue
        sc = score(P, pk - b, nf - 1, k3, h4, locked, fours, top)
        if sc > top:
            top = sc
            arg = kind_of_bit(b)
    return top, arg


@njit(cache=True, _nrt=False, inline="always")
def _keep_next(ints, s, full, th, fo, kind):
    """Remember ``kind`` as seat ``s``'s best discard of the hand ``full`` (table 胡息 ``th``,
    fours ``fo``) that the 碰/吃 it takes leaves (``_after``'s first best, above the floor)."""
    ints[I_NEXT_KEY + s] = full | (i64(1) << 62)
    ints[I_NEXT_KEY + 4 + s] = (th << 8) | fo
    ints[I_NEXT_KEY + 8 + s] = kind


@njit(cache=True, _nrt=False, inline="always")
def _kept_next(ints, s, full, th, fo):
    """The kind ``_keep_next`` kept for this hand of seat ``s``, or -1 (another hand)."""
    if ints[I_NEXT_KEY + s] == full | (i64(1) << 62) and ints[I_NEXT_KEY + 4 + s] == (th << 8) | fo:
        return ints[I_NEXT_KEY + 8 + s]
    return i64(-1)


@njit(cache=True, _nrt=False, inline="always")
def pol_discard(P, hands, melds, ints, rng, work, opts, policies, s, nopt):
    """``policy.discard`` among ``opts[:nopt]``. Inlined into the turn loop: a call that
    passes the whole state costs more than a random seat's answer, so only greedy calls."""
    if policies[s] == POL_RANDOM:
        return opts[below(rng, ints, s, nopt)]
    return _greedy_discard(P, ints, i64(s), ints[I_FULL + s], table_huxi(melds, ints, s),
                           seat_fours(melds, ints, s), opts, nopt)


@njit(cache=True, _nrt=False)
def _greedy_discard(P, ints, s, full, th, fo, opts, nopt):
    """``GreedyPolicy.best_discard`` of seat ``s``'s packed whole hand ``full`` (table 胡息
    ``th``, fours ``fo``) among ``opts[:nopt]``: the first best option. Where the options are
    the hand's free kinds, the answer is ``_after``'s: the one the 碰/吃 just taken found
    (``_keep_next``), else none scores above 0 when ``ting_after_discard`` says so (the first)."""
    pk, nf, k3, h4, locked, fours = words(P, full, th, fo)
    m1 = (pk | (pk >> 1)) & LOW
    asked = i64(0)
    for i in range(nopt):
        asked |= i64(1) << (W * opts[i])
    if asked == m1:
        kept = _kept_next(ints, s, full, th, fo)
        if kept >= 0:
            return kept
    if asked & ~m1 == 0 and not ting_after_discard(pk, k3, pair_owed(fours)):
        return opts[0]  # every option scores 0: the first is the first best
    tm = ting_discards(pk, k3, pair_owed(fours))  # the free discards that may score above 0
    o1 = orphans(m1, (pk >> 1) & LOW, i64(1))
    reach_all = reach(o1)
    top = i64(-1)
    pick = i64(-1)
    for i in range(nopt):
        k = opts[i]
        bk = i64(1) << (W * k)
        if m1 & bk and (tm & bk == 0 or dead(o1, reach_all, bk)):
            sc = i64(0)  # what score answers for a hand without a wait
        else:
            a, b, c, d, e, f = minus(P, k, pk, nf, k3, h4, locked, fours)
            sc = score(P, a, b, c, d, e, f, top)
        if pick < 0 or sc > top:
            top = sc
            pick = k
    return pick


@njit(cache=True, _nrt=False, inline="always")
def pol_peng(P, hands, melds, ints, rng, work, tmp, opts, policies, s, c):
    """``policy.peng``: 碰 when the best discard after it scores more than the hand now."""
    if policies[s] == POL_RANDOM:
        return below(rng, ints, s, 2) == 1
    return _greedy_peng(P, ints, i64(s), i64(c))


@njit(cache=True, _nrt=False)
def _greedy_peng(P, ints, s, c):
    """``GreedyPolicy.peng`` of seat ``s`` on card ``c``."""
    th = ints[I_TH + s]
    fo = ints[I_FO + s]
    pk, nf, k3, h4, locked, fours = words(P, ints[I_FULL + s], th, fo)
    now = _score_now(P, ints, s, pk, nf, k3, h4, locked, fours, th, fo)
    b = i64(1) << (W * c)
    gain = meld_points(P, MELD_PENG, c)
    top, arg = _after(P, pk - 2 * b, nf - 2, k3, h4, locked + gain, fours, now)
    if top > now:
        _keep_next(ints, s, ints[I_FULL + s] - 2 * b, th + gain, fo, arg)
    return top > now


@njit(cache=True, _nrt=False, inline="always")
def pol_chi(P, hands, melds, ints, rng, work, tmp, cs, opts, policies, s, c, nopt):
    """``policy.chi`` over the options ``cs[:nopt]``: index or -1."""
    if policies[s] == POL_RANDOM:
        return below(rng, ints, s, nopt + 1) - 1
    return _greedy_chi(P, ints, cs, i64(s), i64(c), i64(nopt))


@njit(cache=True, _nrt=False)
def _greedy_chi(P, ints, cs, s, c, nopt):
    """``GreedyPolicy.chi`` of seat ``s`` over the 吃 options ``cs[:nopt]`` of card ``c``."""
    th = ints[I_TH + s]
    fo = ints[I_FO + s]
    full = ints[I_FULL + s]
    pk, nf, k3, h4, locked, fours = words(P, full, th, fo)
    best = _score_now(P, ints, s, pk, nf, k3, h4, locked, fours, th, fo)
    pick = i64(-1)
    for i in range(nopt):
        left, gain = chi_left(P, full, cs, c, i)
        a, b, x, d, e, f = words(P, left, th + gain, fo)
        sc, arg = _after(P, a, b, x, d, e, f, best)
        if sc > best:
            best = sc
            pick = i
            _keep_next(ints, s, left, th + gain, fo, arg)
    return pick
