"""``train``: fit the learned bot's value to what its own play earned (issue 47).

Expert iteration's first loop, on self-play returns: each round plays ``hands`` hands with every
seat ``learned`` at the current weights (round 1 starts from ``play.learned.START``, lookahead's
two values), notes the features of every rest hand a discard left (``kernels.play.learned``)
and fits the weights by ridge regression to the payment (RULES.md §7, the variant's unit) the
noting seat got at the end of the hand: the value of a rest hand under the current bot, so that
choosing by it is one step of policy improvement. Every ``HOLD``-th chunk is held out: its
mean squared error is the round's held-out loss (the new fit's and the old weights'). The new
weights then meet the old ones in a duplicate arena (``studies.arena``: the same decks, from a
seed of their own, the new fit in each seat in turn) and ``study``; a round whose paired
interval against the old weights does not lie above 0 gained nothing measurable, and training
stops there, keeping the old weights.

Reproducible from ``(variant, seed, hands, rounds, arena decks)``: every round's hands and arena
decks come from seeds drawn from ``seed`` (``numpy.random.SeedSequence(seed, spawn_key=(round,
what))``), the sums are folded in chunk order (independent of the thread count), and a run in
a ``checkpoint`` block resumes round by round and batch by batch.

Two other label sources (``labels=``): ``"search"`` fits the weights to search answers
(``studies.expert``: one seat a hand asks, every discard candidate is played out in ``k``
worlds, the answers centred a question, so the fit learns to rank a question's candidates);
``"duel"`` fits nothing and searches the weights directly: a coordinate sweep (``STEPS``), each
weight moved one step and the move kept when the moved bot beats the current one in a
duplicate arena of ``hands`` decks, paired 95% interval above 0. The shipped weights
(``zipai_sim/weights``) come from the duel search, the only one of the three that gained in
the arena (``docs/guide/learned.md``).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from zipai_sim.play.learned import FEATURES, START, check, using
from zipai_sim.report import DEFAULT_SEED
from zipai_sim.studies.fitsums import RIDGE, Sums
from zipai_sim.runs.chunks import check_count, check_seed, chunk_keys, chunk_sizes
from zipai_sim.runs.driver import run_batches

DEFAULT_HANDS = 200_000
DEFAULT_ROUNDS = 4
DEFAULT_ARENA_DECKS = 4_000
DEFAULT_LABELS = "selfplay"
LABELS = ("selfplay", "search", "cut", "duel")
#: the duel search's step a weight, in its feature's scale (the others, the same for every
#: answer of a question, never change a choice and are not searched)
STEPS = {"vw": 0.25, "v1": 0.25, "waits_any": 1.0, "win_waits": 0.5, "waits": 0.2,
         "best_huxi": 0.5, "locked_huxi": 0.5, "huxi_short": 0.5, "free": 0.1, "lonely": 0.1,
         "pairs": 0.1, "vw_stock": 0.25, "v1_stock": 0.25, "locked_stock": 0.5}
DEFAULT_LABEL_K = 8  # worlds a searched question plays each candidate in
CHUNK = 1 << 10  # self-play hands a chunk (a chunk's noted rows: ≈ 14 MB of features)
SEARCH_CHUNK = 1 << 6  # searched hands a chunk (≈ 12 questions, 80 candidates each)
HOLD = 8  # every HOLD-th chunk is held out


def round_seed(seed: int, r: int, what: int) -> int:
    """The seed of round ``r``'s hands (``what`` 0) or arena decks (1)."""
    return int(np.random.SeedSequence(seed, spawn_key=(r, what)).generate_state(1, np.uint64)[0])


def selfplay_work(v, w: tuple[float, ...], seed: int, hands: int):
    """``run_batches`` work of one round: chunks of self-play by ``learned`` at ``w``."""
    from zipai_sim.kernels import play as kp
    from zipai_sim.kernels.play.turn import record_chunks
    from zipai_sim.play.payoffs import OutcomeCache, settle_outcomes

    seats = v.layout.players
    codes = np.full(seats, kp.POL_LEARNED, np.int64)
    ws = np.zeros((kp.MAX_SEATS, kp.N_FEAT))
    ws[:seats] = w
    cache = OutcomeCache(v)

    def work(first: int, k: int) -> Sums:
        keys, sizes = chunk_keys(seed, first, k), chunk_sizes(hands, CHUNK, first, k)
        m = int(sizes.max())
        out = np.zeros((k, m, kp.N_OUT), np.int64)
        rec = np.zeros((k, m, kp.MAX_REC, kp.N_FEAT))
        rs = np.zeros((k, m, kp.MAX_REC), np.int64)
        nrec = np.zeros((k, m), np.int64)
        record_chunks(keys, sizes, v.params, int(v.win.choupai_win), codes, ws, out, rec, rs,
                      nrec)
        got = Sums()
        for c in range(k):
            size = int(sizes[c])
            pay = settle_outcomes(v, out[c, :size], cache)[0]
            keep = np.arange(kp.MAX_REC) < nrec[c, :size, None]
            x = rec[c, :size][keep]
            y = pay[np.nonzero(keep)[0], rs[c, :size][keep]].astype(np.float64)
            if (first + c) % HOLD == HOLD - 1:
                got.hxx += x.T @ x
                got.hxy += x.T @ y
                got.hyy += float(y @ y)
                got.hn += len(y)
            else:
                got.xx += x.T @ x
                got.xy += x.T @ y
                got.yy += float(y @ y)
                got.n += len(y)
        return got

    return work


def _search_work(v, w: tuple[float, ...], seed: int, hands: int, k: int, cut: int = 0):
    """``run_batches`` work of one round of search labels (``studies.expert``; ``cut`` > 0:
    the cut search's worlds, valued by the variant's cut value)."""
    from zipai_sim.kernels.deal import DECK
    from zipai_sim.kernels.play import rollout as kr
    from zipai_sim.play.payoffs import OutcomeCache, settle_outcomes
    from zipai_sim.studies.expert import CenteredSums, label_hands

    cache = OutcomeCache(v)
    vw = None
    if cut:
        from zipai_sim.play.learned import value_weights

        vw = value_weights(v)

    def payoff(rows):
        return settle_outcomes(v, rows, cache)[0]

    def work(first: int, count: int) -> CenteredSums:
        keys, sizes = chunk_keys(seed, first, count), chunk_sizes(hands, SEARCH_CHUNK, first,
                                                                  count)
        hk = np.repeat(keys, sizes)
        hj = np.concatenate([np.arange(s, dtype=np.int64) for s in sizes])
        held = np.repeat((first + np.arange(count)) % HOLD == HOLD - 1, sizes)
        decks = np.zeros((len(hk), DECK), np.int8)
        kr.deal_decks(hk, hj, decks)
        got = CenteredSums()
        label_hands(v, decks, hk, hj, w, k, held, payoff, got, cut, vw)
        return got

    return work


@dataclass
class Round:
    """One training round: the weights it played with and fitted, the held-out loss of both
    (squared units a noted rest hand), the new fit against the old in the arena and against
    ``study`` (mean payment a hand, paired 95% t interval), and whether it was kept."""

    round: int
    hands: int
    rows: int
    start: tuple[float, ...]
    fit: tuple[float, ...]
    loss_start: float
    loss_fit: float
    vs_start: tuple[float, float, float]
    vs_study: tuple[float, float, float]
    kept: bool


@dataclass
class Training:
    """What ``train`` found: the rounds, the weights it ends with (``weights``: the last kept
    fit, or the start when none was kept) and the run's settings."""

    variant: str
    seed: int
    hands: int
    arena_decks: int
    rounds: list[Round] = field(default_factory=list)
    weights: tuple[float, ...] = START
    partial: bool = False
    seconds: float = 0.0
    labels: str = DEFAULT_LABELS
    k: int = DEFAULT_LABEL_K
    start_from: str = "start"  # the command's --start: the hand-set START or the shipped file

    def meta(self) -> dict:
        """The metadata a weights file keeps (``play.learned.write``)."""
        best = [r for r in self.rounds if r.kept]
        last = best[-1] if best else None
        return {"trained": {
            "command": f"zipai-sim train --variant {self.variant} --seed {self.seed} --hands "
                       f"{self.hands} --rounds {len(self.rounds)} --arena-decks "
                       f"{self.arena_decks} --labels {self.labels} --label-k {self.k}"
                       + (" --start shipped" if self.start_from == "shipped" else ""),
            "seed": self.seed, "hands_per_round": self.hands, "arena_decks": self.arena_decks,
            "labels": self.labels, "label_k": self.k,
            # the first round's weights: --start shipped names a file that may change later
            "start": list(self.rounds[0].start) if self.rounds else list(self.weights),
            "data": _DATA[self.labels].format(k=self.k),
            "partial": self.partial, "seconds": round(self.seconds, 1),
            "held_out_loss": None if last is None else _num(last.loss_fit),
            "arena_vs_study": None if last is None else list(last.vs_study),
            "rounds": [{"round": r.round, "rows": r.rows, "loss_start": _num(r.loss_start),
                        "loss_fit": _num(r.loss_fit), "vs_start": list(r.vs_start),
                        "vs_study": list(r.vs_study), "kept": r.kept} for r in self.rounds]}}


_DATA = {
    "selfplay": "self-play returns: every seat learned, the payment of the noting seat",
    "search": "search labels: one searching seat a hand, every discard candidate played out "
              "in the same {k} worlds by learned seats, centred a question",
    "cut": "cut search labels: one searching seat a hand, every discard candidate played in "
           "the same {k} worlds by learned seats, each world cut after the search's draws and "
           "valued by the cut value (settled when it ends first), centred a question",
    "duel": "duel search: each weight moved one step, kept when the moved bot beats the "
            "current one in a duplicate arena (paired 95% interval above 0); no fit, no loss"}


def _num(x: float) -> float | None:
    """``x`` for a JSON file: None for NaN (a duel round has no loss)."""
    return None if math.isnan(x) else x


def _triple(row: dict) -> tuple[float, float, float]:
    return (float(row["score_diff"]), float(row["ci_low"]), float(row["ci_high"]))


def _duel_round(v, w: tuple[float, ...], seed: int, r: int, decks: int, arena_decks: int,
                progress) -> Round | None:
    """One sweep of the duel search: each searched weight (``STEPS``) in turn is moved one step
    up, else down, and the move is kept when the moved weights beat the current ones in a
    duplicate arena of ``decks`` decks (a seed per step), paired 95% interval above 0. The
    sweep's result then meets its start and ``study`` on ``arena_decks`` fresh decks. None when
    Ctrl-C stopped it."""
    from zipai_sim.studies.arena import arena

    start = w
    tried = 0
    for i, f in enumerate(FEATURES):
        if f not in STEPS:
            continue
        for sign in (1, -1):
            cand = list(w)
            cand[i] += sign * STEPS[f]
            d = arena(v, "learned", "learned", decks, seed=round_seed(seed, r, 2 + 2 * i + (
                sign < 0)), progress=progress, challenger_weights=cand, baseline_weights=w)
            if d.run["partial"]:
                return None
            tried += 1
            if float(d.row(0, named=True)["ci_low"]) > 0:
                w = tuple(cand)
                break
    got = _confirm(v, w, start, seed, r, arena_decks, progress)
    if got is None:
        return None
    vs_start = got[0] if w != start else (0.0, 0.0, 0.0)
    return Round(r, decks, tried, start, w, math.nan, math.nan, vs_start, got[1],
                 w != start and vs_start[1] > 0)


def _confirm(v, fit, start, seed: int, r: int, arena_decks: int, progress):
    """Round ``r``'s measure of ``fit``: against ``start`` and against ``study`` on
    ``arena_decks`` duplicate decks of the round's own seed, as (diff, ci_low, ci_high) triples
    (the variant's unit a hand); None when Ctrl-C stopped either arena."""
    from zipai_sim.studies.arena import arena

    a_seed = round_seed(seed, r, 1)
    duel = arena(v, "learned", "learned", arena_decks, seed=a_seed, progress=progress,
                 challenger_weights=fit, baseline_weights=start)
    with using(v, fit):
        yard = arena(v, "learned", "study", arena_decks, seed=a_seed, progress=progress)
    if duel.run["partial"] or yard.run["partial"]:
        return None
    return _triple(duel.row(0, named=True)), _triple(yard.row(0, named=True))


def train(variant, hands: int = DEFAULT_HANDS, rounds: int = DEFAULT_ROUNDS,
          seed: int = DEFAULT_SEED, arena_decks: int = DEFAULT_ARENA_DECKS, start=None,
          progress: bool | None = False, stop: bool = True, labels: str = DEFAULT_LABELS,
          k: int = DEFAULT_LABEL_K) -> Training:
    """Fit the learned bot of ``variant`` (a key, TOML path or ``Variant``) over up to
    ``rounds`` rounds of ``hands`` self-play hands each (module docstring), each new fit
    measured on ``arena_decks`` duplicate decks against the weights it started from and
    against ``study``. ``start``: the first round's weights (``N_FEAT`` floats; default
    ``play.learned.START``). ``stop``: end at the first round without a measurable gain.
    ``labels``: ``"selfplay"``, ``"search"`` (``k`` worlds a searched question) or ``"duel"``
    (``hands``: decks a step's arena; module docstring).

    Returns a ``Training`` (``weights``: what to ship; ``meta()`` for the file). Ctrl-C stops at
    a batch boundary: the rounds finished stay, ``partial`` is set. Raises ValueError for a bad
    count, seed, start, ``labels`` or ``k`` (or fewer than two held-out chunks of hands
    with fitted labels); VariantError."""
    from zipai_sim.game.variants import load_variant
    from zipai_sim.kernels.play.turn import record_chunks

    v = load_variant(variant)
    hands, rounds = check_count(hands, "hands"), check_count(rounds, "rounds")
    arena_decks, seed = check_count(arena_decks, "arena_decks"), check_seed(seed)
    if labels not in LABELS:
        raise ValueError(f"labels must be one of {list(LABELS)}, got {labels!r}")
    cs = CHUNK if labels == "selfplay" else SEARCH_CHUNK
    if labels != "duel" and hands < 2 * HOLD * cs:
        raise ValueError(f"hands must be at least {2 * HOLD * cs} with {labels} labels (a "
                         f"held-out chunk in every {HOLD}, twice), got {hands}")
    from zipai_sim.play.rollout import check_k

    k = check_k(k)
    w = START if start is None else check(start, "start")
    t0 = time.perf_counter()
    res = Training(v.key, seed, hands, arena_decks, weights=w, labels=labels, k=k)
    for r in range(1, rounds + 1):
        if labels == "duel":
            got_round = _duel_round(v, w, seed, r, hands, arena_decks, progress)
            if got_round is None:
                res.partial = True
                break
            res.rounds.append(got_round)
            if got_round.kept:
                res.weights = w = got_round.fit
            elif stop:
                break
            continue
        rs = round_seed(seed, r, 0)
        if labels == "selfplay":
            work, state = selfplay_work(v, w, rs, hands), Sums()
        else:
            from zipai_sim.studies.expert import CenteredSums

            from zipai_sim.kernels.play.search import CUT_DRAWS

            cut = CUT_DRAWS if labels == "cut" else 0
            work, state = _search_work(v, w, rs, hands, k, cut), CenteredSums()
        got = run_batches(hands, cs, 2, work, lambda s, x: s.merged(x), state, unit="hand",
                          desc=f"{v.key} round {r}", progress=progress,
                          kernels=(record_chunks,),
                          identity={"what": "train", "variants": [v.key],
                                    "rules_hash": [v.rules_hash], "seed": str(seed),
                                    "round": r, "labels": labels, "k": k,
                                    "weights": list(w)})
        if got.partial:
            res.partial = True
            break
        sums = got.state
        fit = tuple(float(x) for x in sums.fit(RIDGE))
        got = _confirm(v, fit, w, seed, r, arena_decks, progress)
        if got is None:
            res.partial = True
            break
        vs_start, vs_study = got
        kept = vs_start[1] > 0
        res.rounds.append(Round(r, hands, sums.n + sums.hn, w, fit, sums.loss(w),
                                sums.loss(fit), vs_start, vs_study, kept))
        if kept:
            res.weights = w = fit
        elif stop:
            break
    res.seconds = time.perf_counter() - t0
    return res
