"""Search labels for the learned bot (issue 47): the paired values of every answer to a discard.

In each hand one seat searches (seat ``j mod seats`` of deal ``j``, the teacher's machinery,
``play.rollout``): at each of its discard questions every candidate is played out in the same
``k`` worlds (the cards it cannot see redealt, ``kernels.play.rollout``), every seat then
playing ``learned`` at the weights being improved, and each world is settled (RULES.md §7, the
variant's unit). The seat then plays the candidate with the best total (the search's answer,
so that the hands follow the stronger player); the other seats play ``learned``.

A question gives one row per candidate: the features of the rest hand it leaves
(``kernels.play.labels``) and its mean payment over the worlds. Only differences between the
candidates of one question matter to a choice, and the worlds are shared, so the fit is on
rows centred within their question (``CenteredSums``): the luck of the deal, the seat and the
stock cancel, and so do the weights of features that never differ between candidates (the
intercept, the stock, the seat: left at 0).
"""

from __future__ import annotations

import numba
import numpy as np

from zipai_sim.runs.checkpoint import register
from zipai_sim.studies.fitsums import Sums

#: features that are the same for every candidate of a question (not identified by a centred fit)
CONSTANT = ("one", "stock", "dealer", "after_dealer")


@register
class CenteredSums(Sums):
    """``Sums`` of candidate rows centred within their question: ``n``/``hn`` count questions
    (training, held out)."""

    def add(self, x: np.ndarray, y: np.ndarray, held: bool) -> None:
        """One question: ``x: float64[c, N_FEAT]`` its candidates' features, ``y: float64[c]``
        their mean payments."""
        x = x - x.mean(axis=0)
        y = y - y.mean()
        if held:
            self.hxx += x.T @ x
            self.hxy += x.T @ y
            self.hyy += float(y @ y)
            self.hn += 1
        else:
            self.xx += x.T @ x
            self.xy += x.T @ y
            self.yy += float(y @ y)
            self.n += 1

    def fit(self, ridge: float) -> np.ndarray:
        """The ridge weights (``ridge`` per question on each identified weight; the
        ``CONSTANT`` ones 0)."""
        from zipai_sim.play.learned import FEATURES

        free = np.array([f not in CONSTANT for f in FEATURES])
        a = self.xx[np.ix_(free, free)] + np.eye(free.sum()) * ridge * max(self.n, 1)
        w = np.zeros(len(FEATURES))
        w[free] = np.linalg.solve(a, self.xy[free])
        return w


def label_hands(v, decks, keys, js, w, k: int, held: np.ndarray, payoff,
                sums: CenteredSums, cut: int = 0, vw: np.ndarray | None = None) -> None:
    """Play hands ``decks[i]`` (int8[n, 80]; policy streams of deal ``js[i]`` of chunk key
    ``keys[i]``) with one searching seat each, adding every discard question's centred rows to
    ``sums`` (``held[i]``: hand ``i``'s questions are held out). ``w``: the learned weights
    (``N_FEAT`` floats) of every other seat and of every seat in the worlds; ``k`` worlds a
    question; ``payoff(rows)``: each seat's payment for outcome rows. ``cut`` > 0: each world
    is the search's (``kernels.play.search``): cut ``cut`` draws on and worth the cut value by
    ``vw`` (``N_FEAT`` floats, the variant's ``value``) there, settled by the rules when it
    ends first (the expert-iteration round of issue 47: labels of the cut search)."""
    from zipai_sim.kernels import play as kp
    from zipai_sim.kernels.play import rollout as kr
    from zipai_sim.kernels.play.labels import question_features
    from zipai_sim.play.rollout import candidate_index, replay_to_question

    n = len(keys)
    seats = v.layout.players
    P = v.params
    ws = np.zeros((kp.MAX_SEATS, kp.N_FEAT))
    ws[:] = w
    blocks = 4 * numba.get_num_threads()
    answers = np.zeros((n, kp.MAX_RO), np.int64)
    n_answers = np.zeros(n, np.int64)
    # a line-up per hand: seat j mod seats searches (the teacher's code, so that its questions
    # freeze), the others learned; hands are grouped by line-up for replay_batch
    for seat in range(seats):
        codes = np.full(seats, kp.POL_LEARNED, np.int64)
        codes[seat] = kp.POL_TEACHER
        active = np.flatnonzero(js % seats == seat)
        while active.size:
            _, frozen, fz, snaps = replay_to_question(v, decks[active], keys[active],
                                                      js[active], codes, answers[active],
                                                      n_answers[active], ws, blocks)
            pend = np.flatnonzero(frozen == 1)
            if pend.size == 0:
                break
            ncand, start, owner, slot = candidate_index(fz, pend)
            cand = np.repeat(np.arange(ncand.sum()), k)
            world = np.tile(np.arange(k, dtype=np.int64), int(ncand.sum()))
            th = owner[cand]
            rows = np.zeros((len(th), kp.N_OUT), np.int64)
            if cut > 0:
                from zipai_sim.kernels.play import search as ks

                est = np.zeros(len(th))
                hit = np.zeros(len(th), np.int64)
                ks.search_batch(th, fz[th, kp.FZ_OPTS + slot[cand]], world, codes,
                                decks[active], keys[active], js[active], P, fz, snaps, rows,
                                est, hit, min(blocks, len(th)), ws, vw, cut)
            else:
                pol = np.full(len(th), kp.POL_LEARNED, np.int64)
                kr.playout_batch(th, fz[th, kp.FZ_OPTS + slot[cand]], world, pol,
                                 decks[active], keys[active], js[active], P, fz, snaps, rows,
                                 min(blocks, len(th)), ws)
                est = hit = np.zeros(len(th), np.int64)
            gain = payoff(rows)[np.arange(len(th)), fz[th, kp.FZ_SEAT]].astype(np.float64)
            gain = np.where(hit == 1, est, gain)
            mean = gain.reshape(-1, k).mean(axis=1)  # per candidate, in candidate order
            disc = np.flatnonzero(fz[pend, kp.FZ_KIND] == kp.RO_DISCARD)
            feats = np.zeros((len(disc), kp.MAX_CANDS, kp.N_FEAT))
            question_features(P, snaps, fz, pend[disc], feats)
            for t, q in enumerate(disc):
                c = ncand[q]
                sums.add(feats[t, :c], mean[start[q]:start[q] + c], bool(held[active[pend[q]]]))
            for q, i in enumerate(pend):  # the search's answer: the best mean, the first best
                best = int(np.argmax(mean[start[q]:start[q] + ncand[q]]))
                h = active[i]
                answers[h, n_answers[h]] = fz[i, kp.FZ_OPTS + best]
                n_answers[h] += 1
            active = active[pend]
