"""The search rung (``POL_SEARCH``, issue 47) and the ceiling (``POL_ORACLE``): the teacher's
paired worlds played out by the learned bot and cut short by a value.

A search seat's question is answered as the teacher's (``play.rollout``): the learned bot's
answer first, every candidate played in the same K worlds, successive halving, and the answer
changes only to one that beats the learned bot's over all K worlds. Each world is built as the
teacher's (``rollout.build_world``: the unseen cards redealt from what the seat saw), every
seat then plays ``learned`` with the searching seat's weights, and after ``cut`` draws the world
is *cut* at the start of the next draw step: every seat is at rest there (nobody owes a card),
and the world is worth, to the searching seat ``r``,

    est = (V_r − Σ_{s ≠ r} V_s) / 2,

``V_s`` the cut value of seat ``s``'s rest hand seen from its own seat: the features of
``kernels.play.learned`` times the variant's value weights (``FL_V``), fitted to the payments
self-play hands ended with (``studies.value``; units of the variant: 舵, 囤, 油 …). Payments
are zero-sum, so ``V_r`` and ``−Σ V_s`` both estimate the seat's payment; their mean is the
estimate. A world that ends before its cut (a win, 荒庄) is settled by the rules (RULES.md §7)
as a teacher's world is. Far fewer draws a world than a whole hand: less noise a world and
about five times the worlds a second.

The ceiling (``oracle``) is the same search in worlds that keep every hand, hidden 偎 and mark
as they are and draw only the order of the stock (``build_world(oracle=1)``). It sees the other
seats' hands, which no player does: it is named as cheating wherever it appears, the
hidden-card test does not apply to it and ``analyze`` refuses it. Its gap to the best honest
rung bounds what better inference about the hidden cards could still win.
"""

import numpy as np
from numba import njit, prange

from zipai_sim.kernels.deal import DECK
from zipai_sim.kernels.play.layout import (
    FL_F,
    FL_V,
    FL_W,
    FZ_SEAT,
    I_CUT,
    I_CUT_HIT,
    I_DRAWS,
    I_SEATS,
    MAX_MOVES,
    MAX_SEATS,
    MOVE_COLS,
    N_FEAT,
    W_COLS,
    POL_LEARNED,
    POL_ORACLE,
    i64,
    make_scratch,
)
from zipai_sim.kernels.play.learned import rest_value, seat_view
from zipai_sim.kernels.play.lookahead import memo_for
from zipai_sim.kernels.play.rollout import build_world, snap_arrays
from zipai_sim.kernels.play.turn import play_from, reset_out

#: draws a search world plays before it is cut (the next draw step is not played)
CUT_DRAWS = 6


@njit(cache=True, _nrt=False)
def cut_value(P, S, r):
    """``est`` of the module docstring for seat ``r`` in the scratch ``S`` of a cut world (every
    seat at rest; ``S[9][FL_V:]`` the value weights)."""
    hands, marks, melds, ints, _rng, _work, tmp, _cs, _opts, fl, memo = S
    a = 0.0
    b = 0.0
    for s in range(ints[I_SEATS]):
        U, utot, stock, full, th, fo = seat_view(hands, marks, melds, ints, tmp, fl, i64(s),
                                                 i64(-1))
        rest_value(P, memo, full, th, fo, U, utot, stock, fl, i64(s))
        v = 0.0
        for i in range(N_FEAT):
            v += fl[FL_V + i] * fl[FL_F + i]
        if s == r:
            a = v
        else:
            b += v
    return (a - b) * 0.5


@njit(cache=True, parallel=True)
def search_batch(task_hand, task_val, task_k, codes, decks, keys, js, P, fz, snaps, out, est,
                 cut_hit, blocks, weights, vweights, cut):
    """Play task ``t``: candidate ``task_val[t]`` of hand ``task_hand[t]``'s frozen question
    (``rollout.replay_batch``'s ``fz``, ``snaps``) in world ``task_k[t]`` (an oracle world when
    the asking seat's code in ``codes`` is ``POL_ORACLE``), every seat then playing learned with
    the asking seat's weights (``weights[r]``, float64[MAX_SEATS, W_COLS] or [MAX_SEATS, N_FEAT]) until the hand ends
    (``out[t]``, ``cut_hit[t] = 0``) or the world is cut ``cut`` draws on (``cut_hit[t] = 1``,
    ``est[t]`` the asking seat's cut value by ``vweights``: float64[N_FEAT])."""
    n = task_hand.shape[0]
    sh, sm, sd, si, sr = snaps
    for b in prange(blocks):
        S = make_scratch()
        memo_for(P, S[10])
        fl = S[9]
        ints = S[3]
        for i in range(N_FEAT):
            fl[FL_V + i] = vweights[i]
        snap = snap_arrays()
        deck = np.empty(DECK, np.int8)
        moves = np.empty((MAX_MOVES, MOVE_COLS), np.int64)
        pool = np.zeros(20, np.int64)
        cards = np.zeros(DECK, np.int64)
        pols = np.full(MAX_SEATS, POL_LEARNED, np.int64)
        last = i64(-1)
        for t in range(b * n // blocks, (b + 1) * n // blocks):
            i = task_hand[t]
            r = fz[i, FZ_SEAT]
            if r != last:  # a row is 22,870 floats: copied when the asking seat changes
                last = r
                for s in range(MAX_SEATS):
                    for q in range(W_COLS):
                        fl[FL_W + s * W_COLS + q] = weights[r, q] if q < weights.shape[1] else 0.0
            for q in range(DECK):
                deck[q] = decks[i, q]
            oracle = i64(1) if codes[r] == POL_ORACLE else i64(0)
            rest0, s0 = build_world(P, S, (sh[i], sm[i], sd[i], si[i], sr[i]), fz[i], deck,
                                    keys[i], js[i], task_k[t], task_val[t], pool, cards, oracle)
            ints[I_CUT] = ints[I_DRAWS] + cut if cut > 0 else i64(0)
            ints[I_CUT_HIT] = 0
            reset_out(out[t])
            play_from(P, S, deck, moves, out[t], pols, i64(rest0), i64(s0), snap)
            cut_hit[t] = ints[I_CUT_HIT]
            est[t] = cut_value(P, S, r) if ints[I_CUT_HIT] == 1 else 0.0
            ints[I_CUT] = 0
            ints[I_CUT_HIT] = 0


#: the kernels a run with a search or oracle seat compiles besides ``ROLLOUT_KERNELS``
SEARCH_KERNELS = (search_batch,)
