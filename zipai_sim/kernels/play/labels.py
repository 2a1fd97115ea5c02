"""The learned bot's features at a search's frozen questions (issue 47, ``studies.expert``).

``replay_batch`` (``kernels.play.rollout``) stops a hand at a searching seat's question and keeps
the state at the start of that turn-loop step; a discard question is always the first thing of
its step (a seat's rest step: RULES.md §5.2, §5.7), so the kept state is the question's own.
``question_features`` reads, for each candidate discard, the features of the rest hand it
leaves (``learned.rest_value``), from what the asking seat sees only (its unseen counts, the
stock left: ``unseen.unseen``).
"""

from numba import njit

from zipai_sim.kernels.packed import W
from zipai_sim.kernels.play.layout import (
    FL_F,
    FZ_N,
    FZ_OPTS,
    FZ_SEAT,
    I_FULL,
    N_FEAT,
    i64,
    make_scratch,
)
from zipai_sim.kernels.play.learned import rest_value
from zipai_sim.kernels.play.lookahead import memo_for
from zipai_sim.kernels.play.state import seat_fours, table_huxi
from zipai_sim.kernels.play.turn import copy_state
from zipai_sim.kernels.play.unseen import U_ROW, tables, unseen


@njit(cache=True)
def question_features(P, snaps, fz, rows, out):
    """For each frozen discard question ``rows[t]`` (rows of ``fz: int64[n, FZ_COLS]`` and of
    ``snaps``, ``replay_batch``'s), the features of the rest hand each of its candidates
    ``fz[i, FZ_OPTS + c]`` (c < ``fz[i, FZ_N]``) leaves, into ``out[t, c]``
    (float64[len(rows), MAX_CANDS, N_FEAT])."""
    S = make_scratch()
    hands, marks, melds, ints, rng, _work, tmp, _cs, _opts, fl, memo = S
    memo_for(P, memo)
    sh, sm, sd, si, sr = snaps
    U = tmp[U_ROW]
    for t in range(rows.shape[0]):
        i = rows[t]
        copy_state(sh[i], sm[i], sd[i], si[i], sr[i], hands, marks, melds, ints, rng)
        s = fz[i, FZ_SEAT]
        utot, stock = unseen(hands, marks, melds, ints, s, i64(-1), U)
        tables(fl, utot, stock)
        full = ints[I_FULL + s]
        th = table_huxi(melds, ints, s)
        fo = seat_fours(melds, ints, s)
        for c in range(fz[i, FZ_N]):
            k = fz[i, FZ_OPTS + c]
            rest_value(P, memo, full - (i64(1) << (W * k)), th, fo, U, utot, stock, fl, s)
            for f in range(N_FEAT):
                out[t, c, f] = fl[FL_F + f]
