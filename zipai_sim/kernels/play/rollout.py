"""The rollout bot's kernels (``POL_ROLLOUT``): replay a hand up to its next rollout question, and
play that question's candidate answers out in sampled worlds.

A rollout question cannot be answered inside the turn loop (that would make the loop call
itself), so ``play.rollout`` drives each hand in rounds: ``replay_batch`` replays the hand from
the deal with the answers decided so far (mode 1, ``kernels.play.script``) and stops at the first
question beyond them, keeping the snapshot of that turn-loop step; ``playout_batch`` then plays
each candidate answer in K worlds built from the snapshot (``build_world``) with every seat
greedy, and the driver settles them and appends the best answer. The same K worlds serve every
candidate of a question, so their differences are paired.

A world is what the rollout seat may believe (seed 000 ⑴: others' hands, their face-down 偎 and
the stock are hidden): the unseen cards are pooled (a multiset the seat can count), each hidden
偎 gets a kind drawn with weight C(n, 3) from the pool's n copies, the rest is shuffled into the
others' hands (sizes kept; a world where a hand holds four of a kind, which the rules never
leave in a hand, is reshuffled up to ``WORLD_TRIES`` times) and the stock. The other seats keep
only their public 臭 (their own discards). World k of the rollout seat R's n-th question in deal
j of chunk key ``key`` draws from ``Stream(key ^ ROLLOUT_SALT ^ (R << 48) ^ (n << 24),
j · MAX_K + k)``: it depends on nothing the seat cannot see.
"""

import numpy as np
from numba import njit, prange

from zipai_sim.kernels.deal import DECK, NO_SPARE, fresh_deck, shuffle_steps
from zipai_sim.kernels.packed import W
from zipai_sim.kernels.play.layout import (
    FZ_CARD,
    FZ_COLS,
    FZ_KIND,
    FZ_NR,
    FZ_SEAT,
    I_ASK_HU,
    I_DISC,
    I_FZ,
    I_HELD,
    I_MODE,
    I_NMELD,
    I_POS,
    I_RO_D,
    I_RO_FROZEN,
    I_RO_N,
    I_SC_C0,
    I_SC_KIND,
    I_SC_ON,
    I_SC_SEAT,
    I_SC_VAL,
    I_SEATS,
    I_STEP_REST,
    I_STEP_SEAT,
    I_TH,
    I_TRIPLE,
    MAX_MELDS,
    MAX_MOVES,
    MAX_SEATS,
    MD_CARDS,
    MD_HUXI,
    MD_KIND,
    MD_LEN,
    MELD_CHI,
    MELD_COLS,
    MELD_WEI,
    MK_CHOU,
    MK_PASSED_PENG,
    MOVE_COLS,
    N_INTS,
    POL_GREEDY,
    RO_CHI,
    RO_DISCARD,
    RO_PENG,
    i64,
    make_scratch,
)
from zipai_sim.kernels.play.learned import put_weights
from zipai_sim.kernels.play.state import meld_points, set_count
from zipai_sim.kernels.play.turn import copy_state, play_from, play_turns, reset_out
from zipai_sim.kernels.rng import bounded, deal_state

ROLLOUT_SALT = 0x524F4C4C4F5554  # "ROLLOUT"
MAX_K = 4096  # worlds per question at most (world k's stream index is j · MAX_K + k)
WORLD_TRIES = 16
SALT = np.uint64(ROLLOUT_SALT)
_C3 = (0, 0, 0, 1, 4)  # C(n, 3): the ways a 偎 takes three of n unseen copies


def world_stages(k: int) -> list[tuple[int, int]]:
    """Successive halving (issue 9 §1): the worlds a question's candidates are played in, in
    stages ``[lo, hi)``: the first quarter, the second quarter, the last half (empty stages
    dropped). After every stage but the last only ``survivors(n)`` of the ``n`` candidates
    still in play go on: those with the best totals so far (ties: the earlier in the list)."""
    q = (k + 3) // 4
    cuts = [0, q, min(2 * q, k), k]
    return [(a, b) for a, b in zip(cuts, cuts[1:]) if b > a]


def survivors(n: int) -> int:
    """Candidates kept after a stage: half (rounded up), never fewer than two."""
    return min(n, max(2, (n + 1) // 2))


@njit(cache=True, parallel=True)
def deal_decks(keys, js, decks):
    """``decks[i]``: deal ``js[i]`` of chunk key ``keys[i]``, as ``play_chunks`` deals it."""
    for i in prange(keys.shape[0]):
        fresh_deck(decks[i])
        shuffle_steps(decks[i], 0, DECK - 1, deal_state(keys[i], js[i]), NO_SPARE, 0)


@njit(cache=True, _nrt=False)
def replay_moves(deck, key, j, P, choupai_win, policies, answers, n_answers, moves, out, S):
    """Play one hand with all its rollout answers known (``answers[:n_answers]``), writing its
    moves and outcome as ``play_hand`` does; returns the number of move rows."""
    ints = S[3]
    ints[I_MODE] = 1
    ints[I_RO_N] = n_answers
    for q in range(n_answers):
        ints[I_RO_D + q] = answers[q]
    return play_turns(deck, P, choupai_win, policies, key, j, moves, out, S,
                 (S[0], S[1], S[2], S[3], S[4]))


@njit(cache=True)
def snap_arrays():
    """Empty arrays of one hand's saved state, the ``snap`` of ``turn.snapshot``: hands
    ``int8[MAX_SEATS, 20]``, marks ``int8[3, MAX_SEATS, 20]``, table groups
    ``int64[MAX_SEATS, MAX_MELDS, MELD_COLS]``, scalars ``int64[N_INTS]`` and the seats' policy
    streams ``uint64[2 * MAX_SEATS]``. Raises nothing."""
    return (np.zeros((MAX_SEATS, 20), np.int8), np.zeros((3, MAX_SEATS, 20), np.int8),
            np.zeros((MAX_SEATS, MAX_MELDS, MELD_COLS), np.int64), np.zeros(N_INTS, np.int64),
            np.zeros(2 * MAX_SEATS, np.uint64))


@njit(cache=True, parallel=True)
def replay_batch(decks, keys, js, P, choupai_win, policies, answers, n_answers, out, frozen,
                 fz, snaps, blocks, ask_hu, weights):
    """Replay hands ``i`` (dealt ``decks[i]``: int8[n, 80], policy streams of deal ``js[i]`` of
    chunk key ``keys[i]``) with the rollout answers
    ``answers[i, :n_answers[i]]`` (int64[n, MAX_RO]). A hand that meets no further rollout
    question is finished: ``frozen[i] = 0``, ``out[i]`` its outcome row. Otherwise ``frozen[i] =
    1``, ``fz[i]`` the question (``FZ_*`` columns) and ``snaps`` (hands int8[n, 4, 20], marks
    int8[n, 3, 4, 20], groups int64[n, 4, 12, 7], ints int64[n, N_INTS], streams uint64[n, 8])
    the state at the start of its turn-loop step. ``blocks``: prange iterations (any number
    gives the same results). ``ask_hu`` 1: a win on offer is a question too (``I_ASK_HU``, the
    hand analysis); the bots pass 0. ``weights``: each seat's learned weights
    (float64[MAX_SEATS, W_COLS] or [MAX_SEATS, N_FEAT], ``kernels.play.learned``)."""
    n = keys.shape[0]
    sh, sm, sd, si, sr = snaps
    for b in prange(blocks):
        S = make_scratch()
        put_weights(S[9], weights)
        snap = snap_arrays()
        moves = np.empty((MAX_MOVES, MOVE_COLS), np.int64)
        ints = S[3]
        ints[I_ASK_HU] = ask_hu
        for i in range(b * n // blocks, (b + 1) * n // blocks):
            ints[I_MODE] = 1
            ints[I_RO_N] = n_answers[i]
            for q in range(n_answers[i]):
                ints[I_RO_D + q] = answers[i, q]
            play_turns(decks[i], P, choupai_win, policies, keys[i], js[i], moves, out[i], S, snap)
            frozen[i] = ints[I_RO_FROZEN]
            if frozen[i] == 1:
                sh[i] = snap[0]
                sm[i] = snap[1]
                sd[i] = snap[2]
                si[i] = snap[3]
                sr[i] = snap[4]
                for q in range(FZ_COLS):
                    fz[i, q] = ints[I_FZ + q]


@njit(cache=True, _nrt=False)
def build_world(P, S, snap, fz, deck, key, j, k, val, pool, cards, oracle):
    """World ``k`` of a frozen question (``fz``, its step's ``snap``) in scratch ``S`` and
    ``deck`` (the dealt deck, its stock redealt in place), scripted with candidate ``val``.
    ``oracle`` 1: the ceiling's world (``kernels.play.search``), every hand, 偎 and mark as they
    are, only the order of the stock drawn. Returns the step to play from: ``(rest 1/0, seat)``."""
    hands, marks, melds, ints, rng = S[0], S[1], S[2], S[3], S[4]
    copy_state(snap[0], snap[1], snap[2], snap[3], snap[4], hands, marks, melds, ints, rng)
    seats = ints[I_SEATS]
    r = fz[FZ_SEAT]
    kind = fz[FZ_KIND]
    rest0 = ints[I_STEP_REST]
    s0 = ints[I_STEP_SEAT]
    c0 = fz[FZ_CARD] if (rest0 == 1 and kind != RO_DISCARD) else i64(-1)  # the shown discard
    start = ints[I_POS] + (0 if rest0 == 1 else 1)  # a drawn card on offer stays where it is
    # the hand analysis's worlds (``I_ASK_HU``) also keep what did not happen before the
    # question: a drawer holding a pair or 偎 of its card would have made 偎/提 (RULES.md §3),
    # a discarder never breaks a 坎 (§5.7), and before a 碰/吃 question a 坎 or 偎 of the card
    # elsewhere would have made 跑
    cx = i64(-1)
    if ints[I_ASK_HU] == 1 and kind != RO_DISCARD:
        cx = c0 if rest0 == 1 else i64(deck[ints[I_POS]])
    st = deal_state(key ^ SALT ^ (np.uint64(r) << np.uint64(48))
                    ^ (np.uint64(fz[FZ_NR]) << np.uint64(24)), j * MAX_K + k)
    sp = NO_SPARE
    hv = i64(0)
    if oracle == 1:  # the ceiling sees every hand: only the stock's order is unknown
        for i in range(DECK - 1, start, -1):
            st, sp, hv, x = bounded(st, sp, hv, i - start + 1)
            t = deck[i]
            deck[i] = deck[start + x]
            deck[start + x] = t
        _script(ints, r, kind, val, c0)
        return rest0, s0
    for q in range(20):
        pool[q] = 0
    for s in range(seats):
        if s == r:
            continue
        for q in range(20):
            pool[q] += hands[s, q]
        if s == s0 and c0 >= 0:
            pool[c0] -= 1
        for m in range(ints[I_NMELD + s]):
            if melds[s, m, MD_KIND] == MELD_WEI:
                pool[melds[s, m, MD_CARDS]] += 3
    for q in range(start, DECK):
        pool[deck[q]] += 1
    for s in range(seats):  # each hidden 偎: a kind with weight C(n, 3)
        if s == r:
            continue
        for m in range(ints[I_NMELD + s]):
            if melds[s, m, MD_KIND] != MELD_WEI:
                continue
            ex = cx if _limit(s, r, s0, rest0, kind, cx) < 4 else i64(-1)  # no 偎 of it
            tot = i64(0)
            for q in range(20):
                if q != ex:
                    tot += _C3[pool[q]]
            if tot == 0:  # only that kind is left for it: the world cannot avoid it
                ex = i64(-1)
                for q in range(20):
                    tot += _C3[pool[q]]
            st, sp, hv, x = bounded(st, sp, hv, tot)
            q = i64(0)
            while q == ex or x >= _C3[pool[q]]:
                if q != ex:
                    x -= _C3[pool[q]]
                q += 1
            pool[q] -= 3
            hx = meld_points(P, MELD_WEI, q)
            ints[I_TH + s] += hx - melds[s, m, MD_HUXI]
            melds[s, m, MD_HUXI] = hx
            for t in range(3):
                melds[s, m, MD_CARDS + t] = q
        triple = i64(0)  # the kinds of its three-card groups, from scratch: a new 偎 kind may be
        for m in range(ints[I_NMELD + s]):  # another 偎's old one
            if melds[s, m, MD_KIND] != MELD_CHI and melds[s, m, MD_LEN] == 3:
                triple |= i64(1) << (W * melds[s, m, MD_CARDS])
        ints[I_TRIPLE + s] = triple
    n = i64(0)
    for q in range(20):
        for _t in range(pool[q]):
            cards[n] = q
            n += 1
    for _a in range(WORLD_TRIES):
        for i in range(n - 1, 0, -1):
            st, sp, hv, x = bounded(st, sp, hv, i + 1)
            t = cards[i]
            cards[i] = cards[x]
            cards[x] = t
        if _no_four(ints, cards, pool, r, s0, c0, seats, cx, rest0, kind):
            break
    pos = i64(0)
    for s in range(seats):
        if s == r:
            continue
        size = ints[I_HELD + s] - (1 if (s == s0 and c0 >= 0) else 0)
        for q in range(20):
            set_count(hands, ints, s, q, 0)
        for _t in range(size):
            q = cards[pos]
            set_count(hands, ints, s, q, hands[s, q] + 1)
            pos += 1
        if s == s0 and c0 >= 0:
            set_count(hands, ints, s, c0, hands[s, c0] + 1)
        for q in range(20):  # only what was shown: its own discards stay 臭 to it
            marks[MK_CHOU, s, q] = (ints[I_DISC + s] >> q) & 1
            marks[MK_PASSED_PENG, s, q] = 0
    for q in range(start, DECK):
        deck[q] = cards[pos]
        pos += 1
    _script(ints, r, kind, val, c0)
    return rest0, s0


@njit(cache=True, _nrt=False, inline="always")
def _script(ints, r, kind, val, c0):
    """A world's first step is scripted (``kernels.play.script``): seat ``r``'s question of
    ``kind`` gets ``val``; ``c0`` the shown discard replayed first (-1 none)."""
    ints[I_MODE] = 2
    ints[I_SC_ON] = 1
    ints[I_SC_SEAT] = r
    ints[I_SC_KIND] = kind
    ints[I_SC_VAL] = val
    ints[I_SC_C0] = c0


@njit(cache=True, _nrt=False, inline="always")
def _limit(s, r, s0, rest0, kind, cx):
    """Seat ``s``'s world hand holds fewer than this many of the card on offer ``cx`` (an
    analysis world, ``build_world``): 2 for the seat that drew it (no 偎/提 came); 3 for the
    seat that discarded it, the discard counted (a 坎 is never discarded, RULES.md §5.7), and
    for the others before a 碰/吃 question (no 跑 came); else 4 (no hand keeps four of a kind)."""
    if cx < 0 or s == r:
        return i64(4)
    if s == s0:
        return i64(2) if rest0 == 0 else i64(3)
    if kind == RO_PENG or kind == RO_CHI:
        return i64(3)
    return i64(4)


@njit(cache=True, _nrt=False)
def _no_four(ints, cards, cnt, r, s0, c0, seats, cx, rest0, kind):
    """No other seat's world hand holds four of a kind, nor ``_limit`` copies of the card on
    offer ``cx`` (``cnt``: scratch int64[20])."""
    pos = i64(0)
    for s in range(seats):
        if s == r:
            continue
        for q in range(20):
            cnt[q] = 0
        if s == s0 and c0 >= 0:
            cnt[c0] = 1
        size = ints[I_HELD + s] - (1 if (s == s0 and c0 >= 0) else 0)
        for _t in range(size):
            q = cards[pos]
            cnt[q] += 1
            if cnt[q] == 4 or (q == cx and cnt[q] >= _limit(s, r, s0, rest0, kind, cx)):
                return False
            pos += 1
    return True


@njit(cache=True, parallel=True)
def playout_batch(task_hand, task_val, task_k, task_pol, decks, keys, js, P, fz, snaps, out,
                  blocks, weights):
    """Play task ``t``: candidate ``task_val[t]`` of hand ``task_hand[t]``'s frozen question
    (``replay_batch``'s ``fz``, ``snaps``) in world ``task_k[t]``, every seat then playing the
    policy ``task_pol[t]`` (greedy for a rollout seat's question, study for a teacher's); its
    outcome row in ``out[t]`` (int64[T, N_OUT]); ``weights`` as ``replay_batch``'s."""
    n = task_hand.shape[0]
    sh, sm, sd, si, sr = snaps
    for b in prange(blocks):
        S = make_scratch()
        put_weights(S[9], weights)
        snap = snap_arrays()
        deck = np.empty(DECK, np.int8)
        moves = np.empty((MAX_MOVES, MOVE_COLS), np.int64)
        pool = np.zeros(20, np.int64)
        cards = np.zeros(DECK, np.int64)
        pols = np.full(MAX_SEATS, POL_GREEDY, np.int64)
        for t in range(b * n // blocks, (b + 1) * n // blocks):
            i = task_hand[t]
            for q in range(MAX_SEATS):
                pols[q] = task_pol[t]
            for q in range(DECK):
                deck[q] = decks[i, q]
            rest0, s0 = build_world(P, S, (sh[i], sm[i], sd[i], si[i], sr[i]), fz[i], deck,
                                    keys[i], js[i], task_k[t], task_val[t], pool, cards, i64(0))
            reset_out(out[t])
            play_from(P, S, deck, moves, out[t], pols, i64(rest0), i64(s0), snap)


#: the kernels a run with a rollout seat compiles (``runs.compile_note`` checks them)
ROLLOUT_KERNELS = (deal_decks, replay_batch, playout_batch)
