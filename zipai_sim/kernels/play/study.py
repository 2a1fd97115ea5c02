"""The ``study`` seat policy (``POL_STUDY``, issue 39), twin of ``zipai_sim.play.bots.StudyPolicy``:
lookahead with the tie-breaks a player would use.

``lookahead`` ranks every option by a key (``vw``, ``v1``, greedy's score) that is 0 for every
option early in a hand, before any draw can leave a winning wait; it then discards the lowest
kind, often out of a pair or a run, and passes every 碰/吃. The teacher's searches found those
answers wrong more often than any other (docs/decisions.md). ``study`` keeps lookahead's values
and changes what decides between equal ones:

- a discard: the options are ranked by lookahead's value of the hand each leaves (``vw`` of the
  hand when some option keeps a live winning wait, else ``v1``), then greedy's score, then the
  more isolated card (``shape``: the lower sum of its ties to the rest of the hand);
- a 碰 or 吃 whose key equals passing's (or the best option's so far) is taken when it lays more
  胡息 (``lookahead.look_peng`` / ``look_chi`` with ``eager`` 1).

Like lookahead it reads only what its seat sees (unseen counts), draws nothing at random, and
its twin makes the same choices with the same floating-point operations.
"""

from numba import njit

from zipai_sim.kernels.packed import LOW, W, orphans
from zipai_sim.kernels.play.layout import (
    I_FULL,
    MEMO_COLS,
    MEMO_JM,
    i64,
)
from zipai_sim.kernels.play.lookahead import draws_worth, options_vw, step_value
from zipai_sim.kernels.play.policies import (
    dead,
    minus,
    pair_owed,
    reach,
    score,
    words,
)
from zipai_sim.kernels.play.state import seat_fours, table_huxi
from zipai_sim.kernels.play.unseen import U_ROW, tables, unseen
from zipai_sim.kernels.ting_masks import ting_discards

PAIR = 4  # ``shape`` weights (tuned on seed 7, 4,000 decks: see docs/decisions.md)
ERQISHI = 2


@njit(cache=True, _nrt=False, inline="always")
def shape(h, k):
    """How much kind ``k`` (one card of it leaving the hand ``h: int8[20]``) still works with
    the rest: ``PAIR`` per copy left of it, 2 per card of an adjacent kind, 1 per card two
    apart (a run with a gap), 2 per copy of the same value in the other size (a 绞), ``ERQISHI``
    per card of the other two of 二七十 in its size not counted already; the more isolated
    card (the lower sum) is the better discard."""
    size = (k // 10) * 10
    v = k - size
    r = PAIR * (i64(h[k]) - 1) + 2 * i64(h[(k + 10) % 20])
    for d in range(-2, 3):
        if d != 0 and 0 <= v + d <= 9:
            r += (2 if d == 1 or d == -1 else 1) * i64(h[size + v + d])
    if v == 1 or v == 6 or v == 9:
        for w in (1, 6, 9):
            if w != v and (w - v > 2 or v - w > 2):
                r += ERQISHI * i64(h[size + w])
    return r


@njit(cache=True, _nrt=False)
def study_discard(P, hands, marks, melds, ints, tmp, fl, memo, opts, s, nopt):
    """``StudyPolicy.discard`` of seat ``s`` among the kinds ``opts[:nopt]`` (int64, increasing)
    from the play scratch (``layout.new_scratch``): the kind to discard (RULES.md §5.7, the
    options are the engine's)."""
    U = tmp[U_ROW]
    utot, stock = unseen(hands, marks, melds, ints, s, i64(-1), U)
    tables(fl, utot, stock)
    full = ints[I_FULL + s]
    th = table_huxi(melds, ints, s)
    fo = seat_fours(melds, ints, s)
    pk, nf, k3, h4, locked, fours = words(P, full, th, fo)
    m1 = (pk | (pk >> 1)) & LOW
    o1 = orphans(m1, (pk >> 1) & LOW, i64(1))
    reach_all = reach(o1)
    tm = ting_discards(pk, k3, pair_owed(fours))
    optmask = i64(0)
    for i in range(nopt):
        optmask |= i64(1) << (W * opts[i])
    top = options_vw(P, memo, pk, nf, k3, h4, locked, fours, m1, o1, reach_all, tm, optmask, U,
                     fl)
    if top == 0.0:
        draws_worth(P, memo, pk, nf, k3, h4, locked, fours, U)
    ta = 0.0
    tg = i64(-1)
    tsh = i64(0)
    pick = i64(-1)
    h = hands[s]
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
        if pick >= 0 and a < ta:
            continue
        if m1 & b and (tm & b == 0 or dead(o1, reach_all, b)):
            g = i64(0)  # what score answers for a hand without a wait
        else:
            a1, a2, a3, a4, a5, a6 = minus(P, k, pk, nf, k3, h4, locked, fours)
            g = score(P, a1, a2, a3, a4, a5, a6, i64(-1))
        sh = shape(h, k)
        if pick < 0 or a > ta or g > tg or (g == tg and sh < tsh):
            ta = a
            tg = g
            tsh = sh
            pick = k
    return pick
