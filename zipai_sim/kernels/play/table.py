"""The batched table's kernel (issue 48; driven by ``play.batch.BatchTable``): advance many
hands, each to the next question of a seat the caller answers, and say what that seat sees.

The caller's seats are search seats to the engine (``script.searches``: rollout, teacher or
search codes, whose own answers are greedy's, study's and learned's: the *hint*): in mode 1 a
hand replays its list of answers and freezes the first question beyond it
(``kernels.play.script``), and with ``I_OBS_ON`` set the freeze also writes the asking seat's
observation (``kernels.play.observe``). Every other seat plays its own bot inside the kernel.

A hand is never replayed from the deal: the state at the start of the frozen question's
turn-loop step is kept (``turn.snapshot``) and the next call plays on from there with the new
answer appended to the list, reading the answers of that step again from where the step began
(``I_RO_I`` is part of the state). The engine is deterministic given the state, so this plays
exactly the moves a replay from the deal would (the contract test in tests/test_rl_table.py
compares whole hands with the kernel playing the hint itself).
"""

import numpy as np
from numba import njit, prange

from zipai_sim.kernels.play.layout import (
    FL_OBS,
    FZ_COLS,
    I_ASK_HU,
    I_FZ,
    I_MODE,
    I_OBS_ON,
    I_RO_D,
    I_RO_FROZEN,
    I_RO_N,
    I_STEP_REST,
    I_STEP_SEAT,
    MAX_MOVES,
    MOVE_COLS,
    OBS_SIZE,
    i64,
    make_scratch,
)
from zipai_sim.kernels.play.learned import put_weights
from zipai_sim.kernels.play.lookahead import memo_for
from zipai_sim.kernels.play.rollout import snap_arrays
from zipai_sim.kernels.play.turn import copy_state, play_from, play_turns, reset_out


@njit(cache=True, parallel=True)
def table_batch(todo, decks, keys, js, P, choupai_win, policies, answers, n_answers, started,
                out, frozen, fz, snaps, obs, blocks, ask_hu, weights):
    """Advance hands ``todo`` (int64[t], rows of the arrays below) to their next caller
    question or their end. Hand ``i``: dealt ``decks[i]`` (int8[n, 80]), policy streams of
    deal ``js[i]`` of chunk key ``keys[i]``, line-up ``policies`` (int64[seats]), answers so
    far ``answers[i, :n_answers[i]]`` (int64[n, MAX_RO]); ``started[i]`` 0: from the deal, 1:
    from its kept step state ``snaps`` (``replay_batch``'s layout, updated in place). On
    return ``frozen[i]`` 1: waiting, ``fz[i]`` its question (``FZ_*``), ``obs[i]``
    (float32[n, OBS_SIZE]) what the seat sees; 0: finished, ``out[i]`` its outcome row.
    ``ask_hu`` 1: a win on offer is a question too; ``weights`` each seat's learned weights.
    ``blocks``: prange iterations (any number gives the same results)."""
    n = todo.shape[0]
    sh, sm, sd, si, sr = snaps
    for b in prange(blocks):
        S = make_scratch()
        put_weights(S[9], weights)
        memo_for(P, S[10])
        snap = snap_arrays()
        moves = np.empty((MAX_MOVES, MOVE_COLS), np.int64)
        hands, marks, melds, ints, rng = S[0], S[1], S[2], S[3], S[4]
        fl = S[9]
        for x in range(b * n // blocks, (b + 1) * n // blocks):
            i = todo[x]
            if started[i] == 0:
                ints[I_MODE] = 1
                ints[I_ASK_HU] = ask_hu
                ints[I_OBS_ON] = 1
                ints[I_RO_N] = n_answers[i]
                for q in range(n_answers[i]):
                    ints[I_RO_D + q] = answers[i, q]
                play_turns(decks[i], P, choupai_win, policies, keys[i], js[i], moves, out[i],
                           S, snap)
            else:
                copy_state(sh[i], sm[i], sd[i], si[i], sr[i], hands, marks, melds, ints, rng)
                ints[I_RO_FROZEN] = 0
                ints[I_RO_N] = n_answers[i]
                for q in range(n_answers[i]):
                    ints[I_RO_D + q] = answers[i, q]
                reset_out(out[i])
                play_from(P, S, decks[i], moves, out[i], policies, i64(ints[I_STEP_REST]),
                          i64(ints[I_STEP_SEAT]), snap)
            started[i] = 1
            frozen[i] = ints[I_RO_FROZEN]
            if frozen[i] == 1:
                sh[i] = snap[0]
                sm[i] = snap[1]
                sd[i] = snap[2]
                si[i] = snap[3]
                sr[i] = snap[4]
                for q in range(FZ_COLS):
                    fz[i, q] = ints[I_FZ + q]
                for q in range(OBS_SIZE):
                    obs[i, q] = fl[FL_OBS + q]
