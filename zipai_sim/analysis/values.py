"""What every answer of a question is worth: each legal answer played out in the same K worlds
(paired), every seat then playing one bot, each world settled (RULES.md §7, the variant's
unit) and summed up as a mean with its 95% interval, the loss against the best answer with a
paired interval, and the chance to win (issue 40).

A question's worlds are the teacher's (``kernels.play.rollout.build_world``): the cards the
asking seat cannot see are redealt from what it can count, world k of the seat's n-th question
drawing from a stream of (analysis seed, seat, n, k) only, so no value depends on a hidden card.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.stats import t as student_t

from zipai_sim.analysis.state import load
from zipai_sim.analysis.walk import KINDS, Question
from zipai_sim.kernels import play as kp
from zipai_sim.kernels.deal import DECK
from zipai_sim.kernels.play import rollout as kr
from zipai_sim.play.learned import weights_for
from zipai_sim.play.payoffs import OutcomeCache, settle_outcomes
from zipai_sim.play.rollout import empty_snaps
from zipai_sim.stats import wilson

CONFIDENCE = 0.95


@dataclass
class Values:
    """One question's answers (in ``Question.vals`` order): ``pay`` int64[n_answers, K], the
    asking seat's settled payment in each world; ``won`` bool[n_answers, K]: it won there."""

    question: Question
    pay: np.ndarray
    won: np.ndarray


def question_values(v, questions: list[Question], worlds: int, policy: int, seed: int,
                    cache: OutcomeCache | None = None) -> list[Values]:
    """Play every answer of each question out in ``worlds`` worlds with every seat then
    playing the kernel policy ``policy`` (``play.POLICY_NAMES`` code, not a searching one),
    each world settled under variant ``v`` (RULES.md §7, its unit). Returns one ``Values`` a
    question: ``pay`` int64[len(vals), worlds], ``won`` bool[len(vals), worlds]. ``seed``
    (0 ≤ seed < 2**64) keys the worlds with the seat and its question count; ``cache``: an
    ``OutcomeCache`` of ``v`` shared across calls (the numbers do not depend on it). The
    questions must have a step (``Question.start``; the caller checks: a win at the deal has
    none) and legal ``vals``; nothing is validated here."""
    m = len(questions)
    snaps = empty_snaps(m)
    decks = np.zeros((m, DECK), np.int8)
    fz = np.zeros((m, kp.FZ_COLS), np.int64)
    for i, q in enumerate(questions):
        counts = [0] * v.layout.players
        counts[q.seat] = q.nr
        decks[i] = load(q.start, q.step, counts, seed, snaps, i)
        fz[i, [kp.FZ_SEAT, kp.FZ_KIND, kp.FZ_CARD, kp.FZ_NR, kp.FZ_N]] = (
            q.seat, KINDS[q.kind], q.card, q.nr, len(q.vals))
    n_ans = np.array([len(q.vals) for q in questions], np.int64)
    hand = np.repeat(np.arange(m), n_ans * worlds)
    val = np.concatenate([np.repeat(np.asarray(q.vals, np.int64), worlds) for q in questions])
    k = np.concatenate([np.tile(np.arange(worlds, dtype=np.int64), len(q.vals))
                        for q in questions])
    rows = np.zeros((len(hand), kp.N_OUT), np.int64)
    keys = np.full(m, np.uint64(seed), np.uint64)
    js = np.zeros(m, np.int64)
    pol = np.full(len(hand), policy, np.int64)
    blocks = 4 * max(1, _threads())
    kr.playout_batch(hand, val, k, pol, decks, keys, js, v.params, fz, snaps, rows,
                     min(blocks, len(hand)), weights_for(v, [policy] * v.layout.players))
    pay = settle_outcomes(v, rows, cache if cache is not None else OutcomeCache(v))[0]
    seat = fz[hand, kp.FZ_SEAT]
    mine = pay[np.arange(len(hand)), seat]
    won = rows[:, kp.O_WINNER] == seat
    for c in range(kp.MAX_CO):
        won |= rows[:, kp.O_CO + c * kp.CO_COLS + kp.CO_SEAT] == seat
    out, at = [], 0
    for q in questions:
        n = len(q.vals) * worlds
        out.append(Values(q, mine[at:at + n].reshape(len(q.vals), worlds),
                          won[at:at + n].reshape(len(q.vals), worlds)))
        at += n
    return out


def _threads() -> int:
    import numba

    return numba.get_num_threads()


def _half(x: np.ndarray) -> float:
    """Half-width of the 95% Student-t interval of the mean of ``x`` (NaN under 2 values)."""
    n = len(x)
    if n < 2:
        return math.nan
    return float(student_t.ppf(0.5 + CONFIDENCE / 2, n - 1) * x.std(ddof=1) / math.sqrt(n))


@dataclass
class AnswerRow:
    """One answer's summary: ``value`` (mean settled payment to the seat, variant unit) in
    [``lo``, ``hi``]; ``loss`` = best's value − this one's, in [``loss_lo``, ``loss_hi``]
    (paired over the same worlds); ``win`` the chance to win the hand in [``win_lo``,
    ``win_hi``] (Wilson)."""

    answer: str
    val: int
    value: float
    lo: float
    hi: float
    loss: float
    loss_lo: float
    loss_hi: float
    win: float
    win_lo: float
    win_hi: float
    played: bool
    best: bool


def summarize(x: Values) -> list[AnswerRow]:
    """The answers of one question as rows (``AnswerRow``), in ``Question.vals`` order. The
    best answer: the highest mean payment; among equal means the answer played, then the
    first listed. Values and losses in the variant's unit (t intervals at ``CONFIDENCE``, the
    loss paired over the same worlds), chances in 0..1 (Wilson); with K < 2 worlds the value
    and loss intervals are NaN."""
    q = x.question
    means = x.pay.mean(axis=1)
    top = means.max()
    tied = [i for i in range(len(q.vals)) if means[i] == top]
    ip = q.vals.index(q.played) if q.played is not None else -1  # -1: a typed position
    b = ip if ip in tied else tied[0]
    rows = []
    K = x.pay.shape[1]
    for i, val in enumerate(q.vals):
        h = _half(x.pay[i].astype(np.float64))
        d = (x.pay[b] - x.pay[i]).astype(np.float64)
        hd = _half(d) if i != b else 0.0
        wl, wh = wilson(int(x.won[i].sum()), K)
        rows.append(AnswerRow(q.labels[i], int(val), float(means[i]), float(means[i] - h),
                              float(means[i] + h), float(d.mean()), float(d.mean() - hd),
                              float(d.mean() + hd), float(x.won[i].mean()), wl, wh,
                              i == ip, i == b))
    return rows
