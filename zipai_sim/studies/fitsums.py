"""The sums a least-squares fit of the learned value needs (``Sums``), mergeable chunk by chunk
and kept in checkpoints: ``studies.train`` folds self-play rows into them, ``studies.expert``
(``CenteredSums``) search labels centred within their question.
"""

from __future__ import annotations

import math

import numpy as np

from zipai_sim.play.learned import FEATURES
from zipai_sim.runs.checkpoint import register

RIDGE = 1e-4  # ridge penalty per noted row (self-play) or question (search), intercept free


@register
class Sums:
    """Sufficient statistics of a least-squares fit, for the training and the held-out rows:
    ``xx = XᵀX``, ``xy = Xᵀy``, ``yy = yᵀy`` and the number of rows (float64 sums folded in
    chunk order)."""

    def __init__(self) -> None:
        n = len(FEATURES)
        self.xx = np.zeros((n, n))
        self.xy = np.zeros(n)
        self.yy = 0.0
        self.n = 0
        self.hxx = np.zeros((n, n))
        self.hxy = np.zeros(n)
        self.hyy = 0.0
        self.hn = 0

    def merged(self, other: Sums) -> Sums:
        """A new sum of both, neither changed (``runs.run_batches``)."""
        out = type(self)()
        for name, x in vars(self).items():
            setattr(out, name, x + getattr(other, name))
        return out

    def fit(self, ridge: float = RIDGE) -> np.ndarray:
        """The ridge weights of the training rows (the intercept unpenalised)."""
        pen = np.full(len(FEATURES), ridge * max(self.n, 1))
        pen[0] = 0.0
        return np.linalg.solve(self.xx + np.diag(pen), self.xy)

    def loss(self, w: np.ndarray) -> float:
        """Held-out mean squared error of the weights ``w`` (squared units a row)."""
        if self.hn == 0:
            return math.nan
        w = np.asarray(w, np.float64)
        return float((self.hyy - 2 * w @ self.hxy + w @ self.hxx @ w) / self.hn)
