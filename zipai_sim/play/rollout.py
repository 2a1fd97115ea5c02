"""The rollout bot (``rollout``, the ladder's reference rung, issue 9 §1) and the other searching
bots' driver (``play_rollout``; ``play.chunks.play_chunks`` hands it a line-up with a searching
seat).

At each of its questions (discard, 碰, 吃; 胡 is always taken) a rollout seat plays every candidate
answer out to the end of the hand in up to K sampled worlds (the unseen cards redealt uniformly,
every seat greedy afterwards), settles each world (``settle``, RULES.md §7, payments in the
variant's unit) and keeps the answer with the best total payment to itself; ties go to greedy's
answer, then to the first in option order. The same worlds serve all candidates of a question
(paired comparisons), and successive halving spends them on the better candidates
(``kernels.play.rollout.world_stages``): all candidates play the first quarter of the worlds,
the best half goes on, and so on. What a world may
contain, and why it depends on nothing the seat cannot see, is in ``kernels.play.rollout``;
the readable twin is ``play.bots_rollout.RolloutPolicy``; docs/decisions.md "The rollout bot".

The teacher (``teacher``, issue 39) is the same search with ``study`` as its fast bot: study's
answer is the first candidate and stays in play to the end, every seat plays on as study in the
worlds, after each stage the answers not ahead of study's on the same worlds are dropped, and
the answer changes only to one that ``beats`` study's over all K worlds (paired mean above
``Z`` standard errors); twin: ``play.bots_rollout.TeacherPolicy``.

Hands are played in rounds (``kernels.play.rollout``): each round replays every unfinished hand
up to its next rollout question, plays the questions' candidates out in parallel and settles
them; results never depend on the thread count or on how hands are grouped.
"""

from __future__ import annotations

import numba
import numpy as np

from zipai_sim.kernels import play as kp
from zipai_sim.kernels.deal import DECK
from zipai_sim.kernels.play import rollout as kr
from zipai_sim.kernels.play import search as ks
from zipai_sim.kernels.play.learned import put_weights
from zipai_sim.play.learned import value_weights, weights_for
from zipai_sim.play.payoffs import OutcomeCache, settle_outcomes
from zipai_sim.play.registry import (
    BOTS,
    CUT_CODES,
    DEFAULT_K,
    SEARCH_CODES,
    TEACHING_CODES,
    bot,
)

GROUP = 512  # hands played together in rounds (memory: ≈ GROUP × candidates × K outcome rows)


def check_k(k: object) -> int:
    """``k`` as the number of worlds per candidate: an int in 1..MAX_K, else ValueError."""
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k <= kr.MAX_K:
        raise ValueError(f"rollout worlds k must be an integer in 1..{kr.MAX_K}, got {k!r}")
    return int(k)


#: a teacher leaves its fast bot's answer only for one whose paired mean payment is higher by
#: more than Z standard errors (``beats``)
Z = 2.0


def beats(a: np.ndarray, b: np.ndarray) -> bool:
    """True when the paired payments ``a`` (float64[K], world by world) beat ``b``: the mean
    difference above ``Z`` standard errors (sample sd, K − 1 degrees of freedom)."""
    d = np.asarray(a, np.float64) - np.asarray(b, np.float64)
    if len(d) < 2:
        return False
    return bool(d.mean() > Z * d.std(ddof=1) / np.sqrt(len(d)))


#: each code's playout bot: a searching bot's worlds are played by its fast bot (``Bot.fast``)
PLAYOUT_CODES = np.array([bot(b.fast).code if b.fast else b.code for b in BOTS], np.int64)


def searching(codes: np.ndarray) -> bool:
    """A line-up (kernel codes) with a seat that searches by playouts (rollout, teacher, search,
    oracle)."""
    return bool(np.isin(np.asarray(codes), SEARCH_CODES).any())


def _payoff(v):
    """Each seat's payment for kernel outcome rows, each distinct outcome settled once a call
    of ``play_rollout`` (``payoffs.OutcomeCache``)."""
    cache = OutcomeCache(v)
    return lambda rows: settle_outcomes(v, rows, cache)[0]


def empty_snaps(m: int) -> tuple[np.ndarray, ...]:
    """``m`` step states in ``replay_batch``'s snapshot layout (hands, marks, groups, ints,
    streams)."""
    return (np.zeros((m, kp.MAX_SEATS, 20), np.int8), np.zeros((m, 3, kp.MAX_SEATS, 20), np.int8),
            np.zeros((m, kp.MAX_SEATS, kp.MAX_MELDS, kp.MELD_COLS), np.int64),
            np.zeros((m, kp.N_INTS), np.int64), np.zeros((m, 2 * kp.MAX_SEATS), np.uint64))


def replay_to_question(v, decks, keys, js, codes, answers, n_answers, w, blocks: int):
    """Replay hands ``decks`` (int8[m, 80]; policy streams of deal ``js[i]`` of chunk key
    ``keys[i]``, line-up ``codes``) following their ``answers`` (int64[m, MAX_RO], the first
    ``n_answers[i]`` used) until each ends or meets its next search question. Returns ``(out
    int64[m, N_OUT], frozen int64[m] (1: stopped at a question), fz int64[m, FZ_COLS] (the
    question: seat, kind, candidates), snaps (``empty_snaps`` layout, the state there))``."""
    m = len(keys)
    o = np.zeros((m, kp.N_OUT), np.int64)
    frozen = np.zeros(m, np.int64)
    fz = np.zeros((m, kp.FZ_COLS), np.int64)
    snaps = empty_snaps(m)
    kr.replay_batch(decks, keys, js, v.params, int(v.win.choupai_win), codes, answers,
                    n_answers, o, frozen, fz, snaps, min(blocks, m), 0, w)
    return o, frozen, fz, snaps


def candidate_index(fz: np.ndarray, pend: np.ndarray):
    """The candidates of the frozen questions ``fz[pend]`` laid end to end: ``(ncand int64[q],
    start int64[q] (a question's first candidate), owner int64[c] (its question's row in
    ``fz``), slot int64[c] (its place among the question's options))``."""
    ncand = fz[pend, kp.FZ_N]
    start = np.concatenate([[0], np.cumsum(ncand)[:-1]]).astype(np.int64)
    owner = np.repeat(pend, ncand)
    slot = np.arange(ncand.sum()) - np.repeat(start, ncand)
    return ncand, start, owner, slot


def _worlds(v, th, val, world, codes, decks, keys, js, fz, snaps, w, vw, payoff,
            blocks: int) -> np.ndarray:
    """Play candidate ``val[t]`` of question ``th[t]`` in world ``world[t]`` for every task
    ``t``; returns the asking seat's payment in each (float64[T], the variant's unit): a
    rollout's or teacher's whole-hand world settled (greedy or study playing on), a search's
    or oracle's world settled if it ended before its cut, else its cut value
    (``kernels.play.search``)."""
    seat = fz[th, kp.FZ_SEAT]
    cut = np.isin(codes[seat], CUT_CODES)
    gain = np.zeros(len(th))
    P = v.params
    for mine in (np.flatnonzero(~cut), np.flatnonzero(cut)):
        if mine.size == 0:
            continue
        t = th[mine]
        rows = np.zeros((len(t), kp.N_OUT), np.int64)
        if cut[mine[0]]:
            est = np.zeros(len(t))
            hit = np.zeros(len(t), np.int64)
            ks.search_batch(t, val[mine], world[mine], codes, decks, keys, js, P, fz, snaps,
                            rows, est, hit, min(blocks, len(t)), w, vw, ks.CUT_DRAWS)
        else:
            pol = PLAYOUT_CODES[codes[seat[mine]]]
            kr.playout_batch(t, val[mine], world[mine], pol, decks, keys, js, P, fz, snaps,
                             rows, min(blocks, len(t)), w)
            hit = np.zeros(len(t), np.int64)
        pay = payoff(rows)[np.arange(len(t)), seat[mine]].astype(np.float64)
        gain[mine] = np.where(hit == 1, est if cut[mine[0]] else 0.0, pay)
    return gain


def _group(v, decks, keys, js, codes, k, payoff, out,
           weights=None) -> tuple[np.ndarray, np.ndarray]:
    """Play hands ``decks[i]`` (policy streams of deal ``js[i]`` of chunk key ``keys[i]``) to
    the end: their outcome rows into ``out[i]``; returns their rollout answers ``(int64[n,
    MAX_RO], int64[n])``: each hand's list in the order its questions came, and its length."""
    n = len(keys)
    w = weights_for(v, codes) if weights is None else weights
    vw = value_weights(v) if np.isin(codes, CUT_CODES).any() else np.zeros(kp.N_FEAT)
    blocks = 4 * numba.get_num_threads()
    answers = np.zeros((n, kp.MAX_RO), np.int64)
    n_answers = np.zeros(n, np.int64)
    active = np.arange(n)
    while active.size:
        o, frozen, fz, snaps = replay_to_question(v, decks[active], keys[active], js[active],
                                                  codes, answers[active], n_answers[active], w,
                                                  blocks)
        done = frozen == 0
        out[active[done]] = o[done]
        pend = np.flatnonzero(~done)
        if pend.size == 0:
            break
        ncand, start, owner, slot = candidate_index(fz, pend)
        totals = np.zeros(ncand.sum())
        gains = np.zeros((ncand.sum(), k))  # the paired payments, world by world
        alive = np.ones(ncand.sum(), bool)
        teach = np.isin(codes[fz[pend, kp.FZ_SEAT]], TEACHING_CODES)
        stages = kr.world_stages(k)
        for si, (lo, hi) in enumerate(stages):
            # a question left with one answer is decided: its worlds are not played
            left = np.add.reduceat(alive.astype(np.int64), start)
            busy = alive & np.repeat(left > 1, ncand)
            if not busy.any():
                break
            cand = np.repeat(np.flatnonzero(busy), hi - lo)  # task t: candidate, world
            world = np.tile(np.arange(lo, hi, dtype=np.int64), int(busy.sum()))
            gain = _worlds(v, owner[cand], fz[owner[cand], kp.FZ_OPTS + slot[cand]], world,
                           codes, decks[active], keys[active], js[active], fz, snaps, w, vw,
                           payoff, blocks)
            totals += np.bincount(cand, weights=gain, minlength=len(totals))
            gains[cand, world] = gain
            if si < len(stages) - 1:
                for q in range(len(pend)):
                    c = start[q] + np.flatnonzero(alive[start[q]:start[q] + ncand[q]])
                    if teach[q]:  # the fast bot's answer stays in play to the end; an answer
                        c = c[1:]  # not ahead of it goes (most questions end after a stage)
                        order = c[np.argsort(-totals[c], kind="stable")]
                        alive[order[max(kr.survivors(len(c) + 1) - 1, 1):]] = False
                        alive[c[totals[c] <= totals[start[q]]]] = False
                    else:
                        order = c[np.argsort(-totals[c], kind="stable")]
                        alive[order[kr.survivors(len(c)):]] = False
        for q, i in enumerate(pend):
            c = start[q] + np.flatnonzero(alive[start[q]:start[q] + ncand[q]])
            best = c[int(np.argmax(totals[c]))]  # the first best: the fast bot's leads
            if teach[q] and best != start[q] and not beats(gains[best], gains[start[q]]):
                best = start[q]
            best -= start[q]
            h = active[i]
            answers[h, n_answers[h]] = fz[i, kp.FZ_OPTS + best]
            n_answers[h] += 1
        active = active[pend]
    return answers, n_answers


def play_rollout(v, keys: np.ndarray, sizes: np.ndarray, codes: np.ndarray, out: np.ndarray,
                 k: int = DEFAULT_K, weights: np.ndarray | None = None) -> None:
    """``kernels.play.play_chunks`` for a line-up with rollout seats (``codes`` int64[seats],
    ``POL_ROLLOUT`` = 3 among them): deal ``j`` of chunk ``c`` into ``out[c, j]`` (int64[m, ≥
    max(sizes), N_OUT]), with ``k`` worlds per candidate answer."""
    k = check_k(k)
    hk = np.repeat(np.asarray(keys, np.uint64), sizes)
    hc = np.repeat(np.arange(len(sizes)), sizes)
    hj = np.concatenate([np.arange(s, dtype=np.int64) for s in sizes]) if len(sizes) else hc
    payoff = _payoff(v)
    codes = np.asarray(codes, np.int64)
    for a in range(0, len(hk), GROUP):
        b = min(a + GROUP, len(hk))
        rows = np.zeros((b - a, kp.N_OUT), np.int64)
        decks = np.zeros((b - a, DECK), np.int8)
        kr.deal_decks(hk[a:b], hj[a:b], decks)
        _group(v, decks, hk[a:b], hj[a:b], codes, k, payoff, rows, weights)
        out[hc[a:b], hj[a:b]] = rows


def play_one(v, deck, codes, key: int = 0, j: int = 0, scratch=None,
             k: int = DEFAULT_K) -> tuple[np.ndarray, np.ndarray]:
    """``kernels.play.play_one`` for any line-up: one dealt ``deck`` (int8[80]) with the bot
    codes ``codes``; returns ``(moves int64[n, MOVE_COLS], out int64[N_OUT])``."""
    codes = np.asarray(codes, np.int64)
    if not searching(codes):
        return kp.play_one(v, deck, codes, key, j, scratch, weights_for(v, codes))
    k = check_k(k)
    deck = np.asarray(deck, np.int8).reshape(1, DECK)
    keys, js = np.array([key], np.uint64), np.array([j], np.int64)
    out = np.zeros((1, kp.N_OUT), np.int64)
    answers, n_answers = _group(v, deck, keys, js, codes, k, _payoff(v), out)
    S = kp.new_scratch() if scratch is None else scratch
    put_weights(S[9], weights_for(v, codes))
    moves = np.empty((kp.MAX_MOVES, kp.MOVE_COLS), np.int64)
    row = np.empty(kp.N_OUT, np.int64)
    n = kr.replay_moves(deck[0], np.uint64(key), j, v.params, int(v.win.choupai_win), codes,
                        answers[0], n_answers[0], moves, row, S)
    S[3][kp.I_MODE] = 0
    return moves[:n].copy(), row
