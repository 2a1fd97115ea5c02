"""The turn loop: ``play_hand`` plays one dealt deck move for move as ``play.engine.Game`` does;
``play_chunks`` plays whole chunks in parallel.
"""

import numpy as np
from numba import njit, prange

from zipai_sim.game import params as p
from zipai_sim.kernels.deal import DECK, NO_SPARE, fresh_deck, shuffle_steps
from zipai_sim.kernels.play.claims import choose_discard, lay_opening_ti, on_discard, on_draw
from zipai_sim.kernels.play.layout import (
    A_DRAW,
    A_EXTRA,
    A_HUANG,
    CO_COLS,
    CO_SEAT,
    F_DRAWN,
    F_OWN,
    F_TIANHU,
    FL_REC,
    FL_REC_SEAT,
    FL_XREC,
    HOW_ZIMO,
    I_CHOUWIN,
    I_CUT,
    I_CUT_HIT,
    I_DRAWS,
    I_FIRST,
    I_H,
    I_HAVE,
    I_HELD,
    I_MODE,
    I_NMOV,
    I_NREC,
    I_POS,
    I_REC_ON,
    I_XRNG,
    I_LIANG,
    I_RO_FROZEN,
    I_SC_ON,
    I_SEATS,
    I_STEP_REST,
    I_STEP_SEAT,
    MAX_CO,
    MAX_MOVES,
    MOVE_COLS,
    N_FEAT,
    N_IN,
    N_RESET,
    O_CO,
    O_DRAWS,
    O_MOVES,
    O_PAYER,
    O_WIN_CARD,
    O_WINNER,
    SALT,
    SEAT_SHIFT,
    WIN,
    i64,
    make_scratch,
)
from zipai_sim.kernels.play.learned import put_weights
from zipai_sim.kernels.play.lookahead import memo_for
from zipai_sim.kernels.play.state import at_rest, say, seat, seat_fours, set_count
from zipai_sim.kernels.play.winning import can_win, deal_wins, take_win
from zipai_sim.kernels.rng import deal_state


@njit(cache=True, _nrt=False)
def play_hand(deck, P, choupai_win, policies, key, j, moves_out, out, S):
    """Play the dealt ``deck: int8[80]`` (``kernels.deal`` layout) as ``play.engine.Game`` does.

    P: the variant's params tuple; choupai_win: ``variant.win.choupai_win`` (0/1); policies:
    ``int64[seats]`` POL_RANDOM / POL_GREEDY / POL_LOOKAHEAD per seat (POL_ROLLOUT answers as
    greedy here: rollouts are run by ``kernels.play.rollout``); key (uint64), j: the
    deal's chunk key and index (seat s's policy stream is ``Stream(key ^ POLICY_SALT ^
    (s << 48), j)``); moves_out:
    ``int64[MAX_MOVES, MOVE_COLS]``; out: ``int64[N_OUT]``; S: ``new_scratch()``.
    Returns the number of move rows written (also ``out[O_MOVES]``)."""
    S[3][I_MODE] = 0
    return play_turns(deck, P, choupai_win, policies, key, j, moves_out, out, S,
                 (S[0], S[1], S[2], S[3], S[4]))


@njit(cache=True, _nrt=False)
def reset_out(out):
    """An outcome row before the hand: no winner, payer, card or co-winner."""
    out[:] = 0
    out[O_WINNER] = -1
    out[O_PAYER] = -1
    out[O_WIN_CARD] = -1
    for q in range(MAX_CO):
        out[O_CO + q * CO_COLS + CO_SEAT] = -1


@njit(cache=True, _nrt=False)
def snapshot(S, snap):
    """Copy the hand's state (hands, marks, table groups, scalars, streams) into ``snap``."""
    copy_state(S[0], S[1], S[2], S[3], S[4], snap[0], snap[1], snap[2], snap[3], snap[4])


@njit(cache=True, _nrt=False)
def copy_state(h, mk, md, it, rg, h2, mk2, md2, it2, rg2):
    """Copy hands, marks, table groups, scalars and streams (loops: no temporary arrays)."""
    for s in range(h.shape[0]):
        for k in range(20):
            h2[s, k] = h[s, k]
            for m in range(3):
                mk2[m, s, k] = mk[m, s, k]
        for i in range(md.shape[1]):
            for c in range(md.shape[2]):
                md2[s, i, c] = md[s, i, c]
    for i in range(it.shape[0]):
        it2[i] = it[i]
    for i in range(rg.shape[0]):
        rg2[i] = rg[i]


@njit(cache=True, _nrt=False)
def play_turns(deck, P, choupai_win, policies, key, j, moves_out, out, S, snap):
    """``play_hand``; in rollout mode 1 (``ints[I_MODE]``) each turn-loop step starts with a
    snapshot into ``snap`` until a question is frozen (``kernels.play.script``)."""
    hands, marks, melds, ints, rng, work, tmp, _cs, opts, fl, memo = S
    memo_for(P, memo)
    seats = P[p.SEATS]
    h = P[p.OTHER_CARDS]
    hands[:, :] = 0
    marks[:, :, :] = 0
    ints[:N_RESET] = 0
    ints[I_SEATS] = seats
    ints[I_H] = h
    ints[I_CHOUWIN] = choupai_win
    ints[I_FIRST] = 1
    n = seats * h
    for s in range(seats):
        for i in range(s * h, (s + 1) * h):
            k = deck[i]
            set_count(hands, ints, s, k, hands[s, k] + 1)
    set_count(hands, ints, 0, deck[n], hands[0, deck[n]] + 1)
    ints[I_POS] = n + 1
    ints[I_LIANG] = deck[n]  # the dealer's 亮张: public from the deal
    for s in range(seats):  # one policy stream per seat
        rng[2 * s] = deal_state(key ^ SALT ^ (np.uint64(s) << np.uint64(SEAT_SHIFT)), j)
        rng[2 * s + 1] = NO_SPARE
        ints[I_HAVE + s] = 0
    reset_out(out)
    if deal_wins(P, S, deck, moves_out, out, policies):
        out[O_MOVES] = ints[I_NMOV]
        return ints[I_NMOV]
    for s in range(seats):
        lay_opening_ti(P, hands, melds, ints, moves_out, i64(s))
    if P[p.TWO_TI_EXTRA] == 1:
        for s in range(seats):
            if seat_fours(melds, ints, s) == 2 and ints[I_POS] < DECK:
                k = i64(deck[ints[I_POS]])
                ints[I_POS] += 1
                say(moves_out, ints, s, A_EXTRA, 0, k, 1)
                hx = can_win(P, hands, marks, melds, ints, work, i64(s), k, i64(1), i64(1))
                if hx >= 0:  # the drawn extra card may win at once: the dealer's 天胡
                    fl = F_OWN | F_DRAWN | (F_TIANHU if s == 0 else 0)
                    take_win(P, S, deck, moves_out, out, i64(s), i64(HOW_ZIMO), k, i64(hx), i64(-1),
                         i64(fl), i64(0))
                    out[O_MOVES] = ints[I_NMOV]
                    return ints[I_NMOV]
                set_count(hands, ints, s, k, hands[s, k] + 1)
                lay_opening_ti(P, hands, melds, ints, moves_out, i64(s))
    return play_from(P, S, deck, moves_out, out, policies, i64(1), i64(0), snap)


@njit(cache=True, _nrt=False)
def play_from(P, S, deck, moves_out, out, policies, rest0, s, snap):
    """The turn loop from step (``rest0`` 1: the discard step of seat ``s``, 0: its draw) to the
    hand's end; returns the number of move rows (also ``out[O_MOVES]``). Mode 1 snapshots each
    step into ``snap`` until a question is frozen, then stops; mode 2 ends its script after the
    first step (``kernels.play.script``); a search world (``I_CUT`` set) stops at the start of
    the draw step that would pass its cut (``I_CUT_HIT`` = 1, no outcome)."""
    hands, marks, melds, ints, rng, work, tmp, _cs, opts, fl, memo = S
    seats = ints[I_SEATS]
    h = ints[I_H]
    rest = rest0 == 1
    first = True
    while True:
        if ints[I_MODE] == 1:
            if ints[I_RO_FROZEN] == 1:
                break  # the rest of this replay is never used
            ints[I_STEP_REST] = 1 if rest else 0
            ints[I_STEP_SEAT] = s
            snapshot(S, snap)
        elif ints[I_MODE] == 2 and not first:
            ints[I_SC_ON] = 0
        first = False
        if rest:
            fo = seat_fours(melds, ints, s)
            held = ints[I_HELD + s]
            c = i64(-1)
            if held > 0 and at_rest(hands, melds, ints, s) > h + max(0, fo - 1):
                c = choose_discard(P, hands, marks, melds, ints, rng, work, tmp, fl, memo, opts,
                                    moves_out, policies, i64(s))
            if c >= 0:
                res = on_discard(P, S, deck, moves_out, out, policies, i64(s), i64(c))
                ints[I_FIRST] = 0
                if res == WIN:
                    break
                if res >= 0:
                    s = res
                else:
                    rest = False
                    s = seat(s + 1, seats)
            else:
                rest = False
                s = seat(s + 1, seats)
        else:
            if ints[I_CUT] > 0 and ints[I_DRAWS] >= ints[I_CUT]:  # a search world cut short
                ints[I_CUT_HIT] = 1  # (``kernels.play.search``): every seat is at rest here
                break
            if ints[I_POS] >= DECK:
                say(moves_out, ints, -1, A_HUANG, 0, -1, 0)
                out[O_DRAWS] = ints[I_DRAWS]
                break
            c = i64(deck[ints[I_POS]])
            ints[I_POS] += 1
            ints[I_DRAWS] += 1
            say(moves_out, ints, s, A_DRAW, 0, c, 1)
            last = ints[I_POS] >= DECK
            res = on_draw(P, S, deck, moves_out, out, policies, i64(s), i64(c), last)
            if res == WIN:
                break
            if res >= 0:
                s = res
                rest = True
            else:
                s = seat(s + 1, seats)
    out[O_MOVES] = ints[I_NMOV]
    return ints[I_NMOV]


@njit(cache=True, parallel=True)
def play_chunks(keys, sizes, P, choupai_win, policies, out, weights):
    """Play every deal of every chunk (one prange iteration per chunk): deal ``j`` of chunk ``c``
    is ``reference.shuffled_deck(keys[c], j)``, seat ``s``'s policy stream keyed
    ``keys[c] ^ POLICY_SALT ^ (s << 48)``.
    keys: uint64[m]; sizes: int64[m]; out: int64[m, ≥ max(sizes), N_OUT] (row j of chunk c);
    weights: float64[MAX_SEATS, N_FEAT or W_COLS], each seat's weights row (``kernels.play.learned``)."""
    for c in prange(keys.shape[0]):
        S = make_scratch()
        put_weights(S[9], weights)
        deck = np.empty(DECK, np.int8)
        moves = np.empty((MAX_MOVES, MOVE_COLS), np.int64)
        for j in range(sizes[c]):
            fresh_deck(deck)
            shuffle_steps(deck, 0, DECK - 1, deal_state(keys[c], j), NO_SPARE, 0)
            play_hand(deck, P, choupai_win, policies, keys[c], j, moves, out[c, j], S)


@njit(cache=True, parallel=True)
def record_chunks(keys, sizes, P, choupai_win, policies, weights, out, rec, rec_seat, nrec):
    """``play_chunks`` with the learned seats noting the rest hands their discards leave
    (``kernels.play.learned``, ``I_REC_ON``): deal ``j`` of chunk ``c`` into ``out[c, j]``, its
    noted features into ``rec[c, j, :nrec[c, j]]`` (float64[m, n, MAX_REC, N_FEAT]) and their
    seats into ``rec_seat[c, j]`` (int64[m, n, MAX_REC])."""
    for c in prange(keys.shape[0]):
        S = make_scratch()
        fl = S[9]
        ints = S[3]
        put_weights(fl, weights)
        deck = np.empty(DECK, np.int8)
        moves = np.empty((MAX_MOVES, MOVE_COLS), np.int64)
        for j in range(sizes[c]):
            fresh_deck(deck)
            shuffle_steps(deck, 0, DECK - 1, deal_state(keys[c], j), NO_SPARE, 0)
            ints[I_REC_ON] = 1
            ints[I_NREC] = 0
            play_hand(deck, P, choupai_win, policies, keys[c], j, moves, out[c, j], S)
            n = ints[I_NREC]
            nrec[c, j] = n
            for r in range(n):
                rec_seat[c, j, r] = i64(fl[FL_REC_SEAT + r])
                for i in range(N_FEAT):
                    rec[c, j, r, i] = fl[FL_REC + r * N_FEAT + i]
        ints[I_REC_ON] = 0


@njit(cache=True, parallel=True)
def record_net_chunks(keys, sizes, P, choupai_win, policies, weights, out, xrec, rec_seat,
                      nrec):
    """``play_chunks`` with the neural seats noting the inputs of every answer they choose
    (``kernels.play.neural``, ``I_REC_ON``), exploring with their rows' ε from a stream keyed
    ``(keys[c], j)`` (``I_XRNG``): deal ``j`` of chunk ``c`` into ``out[c, j]``, its rows into
    ``xrec[c, j, :nrec[c, j]]`` (float32[m, n, MAX_REC, N_IN]) and their seats into
    ``rec_seat[c, j]`` (int64[m, n, MAX_REC]); weights: float64[MAX_SEATS, W_COLS]."""
    for c in prange(keys.shape[0]):
        S = make_scratch()
        fl = S[9]
        ints = S[3]
        put_weights(fl, weights)
        deck = np.empty(DECK, np.int8)
        moves = np.empty((MAX_MOVES, MOVE_COLS), np.int64)
        for j in range(sizes[c]):
            fresh_deck(deck)
            shuffle_steps(deck, 0, DECK - 1, deal_state(keys[c], j), NO_SPARE, 0)
            ints[I_REC_ON] = 1
            ints[I_NREC] = 0
            ints[I_XRNG] = i64(deal_state(keys[c] ^ np.uint64(0x6E657572616C), j))
            play_hand(deck, P, choupai_win, policies, keys[c], j, moves, out[c, j], S)
            n = ints[I_NREC]
            nrec[c, j] = n
            for r in range(n):
                rec_seat[c, j, r] = i64(fl[FL_REC_SEAT + r])
                for i in range(N_IN):
                    xrec[c, j, r, i] = fl[FL_XREC + r * N_IN + i]
        ints[I_REC_ON] = 0
