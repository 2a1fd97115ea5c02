"""``fit_value``: the search's cut value (issue 47; ``kernels.play.search``).

The search cuts its worlds after a few draws and values each seat's rest hand there by the
learned features (``kernels.play.learned``) times a second set of weights, the *cut value*:
what such a hand is worth in payments (RULES.md §7, the variant's unit a hand) when every seat
plays on as ``learned``. It is fitted here by ridge regression (``studies.train.Sums``) on
self-play hands with every seat ``learned`` at the variant's shipped policy weights: each rest
hand a discard left, labelled with the payment its seat got at the end of the hand. Every
``HOLD``-th chunk is held out; the held-out loss of the fit and of the best constant (the mean
payment) say how much of the payment the features explain.

Reproducible from ``(variant, seed, hands)`` and the policy weights: the hands come from
``round_seed(seed, 0, 0)``, the sums are folded in chunk order (independent of the thread
count), and a run in a ``checkpoint`` block resumes batch by batch; Ctrl-C keeps the batches
finished (``partial``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from zipai_sim.report import DEFAULT_SEED
from zipai_sim.runs.chunks import check_count, check_seed
from zipai_sim.runs.driver import run_batches
from zipai_sim.studies.train import CHUNK, HOLD, RIDGE, Sums, round_seed, selfplay_work

DEFAULT_VALUE_HANDS = 100_000


@dataclass
class ValueFit:
    """What ``fit_value`` found: the cut value ``value`` (``N_FEAT`` floats, the variant's unit a
    hand), the policy weights it was fitted under, the held-out mean squared error of the fit
    and of the mean payment (squared units a noted rest hand), the rows used, and the run."""

    variant: str
    seed: int
    hands: int
    value: tuple[float, ...]
    policy: tuple[float, ...]
    loss_fit: float
    loss_mean: float
    rows: int
    partial: bool
    seconds: float

    def meta(self) -> dict:
        """The ``value_trained`` metadata a weights file keeps beside ``value``."""
        return {"value_trained": {
            "command": f"zipai-sim train --variant {self.variant} --labels value --seed "
                       f"{self.seed} --hands {self.hands}",
            "seed": self.seed, "hands": self.hands, "rows": self.rows,
            "data": "self-play returns: every seat learned at this file's weights, the "
                    "payment of the seat whose discard left each rest hand",
            "held_out_loss": self.loss_fit, "held_out_loss_of_the_mean": self.loss_mean,
            "partial": self.partial, "seconds": round(self.seconds, 1)}}


def fit_value(variant, hands: int = DEFAULT_VALUE_HANDS, seed: int = DEFAULT_SEED,
              progress: bool | None = False, policy=None) -> ValueFit:
    """Fit the cut value of ``variant`` (a key, TOML path or ``Variant``) on ``hands`` self-play
    hands (module docstring). ``policy``: the learned weights every seat plays (``N_FEAT``
    floats; default the variant's, ``play.learned.weights``). Raises ValueError for a bad count
    or seed, fewer than ``2 · HOLD · CHUNK`` hands (two held-out chunks), or no weights;
    VariantError."""
    from zipai_sim.game.variants import load_variant
    from zipai_sim.kernels.play.turn import record_chunks
    from zipai_sim.play.learned import check, weights

    v = load_variant(variant)
    hands, seed = check_count(hands, "hands"), check_seed(seed)
    if hands < 2 * HOLD * CHUNK:
        raise ValueError(f"hands must be at least {2 * HOLD * CHUNK} to fit a cut value (a "
                         f"held-out chunk in every {HOLD}, twice), got {hands}")
    w = check(weights(v) if policy is None else policy, "policy")
    t0 = time.perf_counter()
    got = run_batches(hands, CHUNK, 2, selfplay_work(v, w, round_seed(seed, 0, 0), hands),
                      lambda s, x: s.merged(x), Sums(), unit="hand", desc=f"{v.key} value",
                      progress=progress, kernels=(record_chunks,),
                      identity={"what": "value", "variants": [v.key],
                                "rules_hash": [v.rules_hash], "seed": str(seed),
                                "weights": list(w)})
    s = got.state
    fit = tuple(float(x) for x in s.fit(RIDGE)) if s.n else tuple(0.0 for _ in w)
    mean = np.zeros(len(w))
    mean[0] = s.xy[0] / max(s.n, 1)  # the constant's fit: the training rows' mean payment
    return ValueFit(v.key, seed, hands, fit, w, s.loss(fit), s.loss(mean), s.n + s.hn,
                    got.partial, time.perf_counter() - t0)
