"""``neural`` (issue 58) on the reference engine: the readable twin of ``kernels.play.neural``.

The context is built from the seat's ``Observation`` (``play.observation``), not from the
kernel's arrays; the forward pass is numpy in float64 over the model's float32 weights, each
sum taken in the kernel's order (an input at a time, a hidden unit at a time), so the values
are the kernel's to the last bit and the twin chooses the same answers.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from zipai_sim.kernels import play as kp
from zipai_sim.play import neural
from zipai_sim.play.bots_learned import LearnedPolicy
from zipai_sim.play.observation import HIDDEN, observe


class NeuralPolicy(LearnedPolicy):
    """Learned's one ply (``LearnedPolicy``: a discard by the rest hand it leaves, a 碰 or 吃
    when the best discard after it beats passing) valued by a network: ``V = Σ w[i] · f[i] +
    ys · net(x)`` (``kernels.play.neural`` gives the inputs ``x``). ``model``: a
    ``play.neural.Model``; None reads the variant's model file."""

    def __init__(self, model: neural.Model | None = None):
        super().__init__()
        self._m = model
        self._net: dict[str, np.ndarray] | None = None
        self._h0 = np.zeros(kp.H1)
        self._laid = np.zeros(20)

    def __deepcopy__(self, memo: dict) -> NeuralPolicy:
        twin = super().__deepcopy__(memo)
        twin._m, twin._net = self._m, self._net
        return twin

    def _netp(self, game) -> dict[str, np.ndarray]:
        if self._net is None:
            m = self._m if self._m is not None else neural.model(game.v)
            self._net = {k: a.astype(np.float64) for k, a in m.arrays().items()}
            self._w = tuple(float(x) for x in self._net["linear"])
        return self._net

    def _weights(self, game) -> tuple[float, ...]:
        self._netp(game)
        return self._w

    def context(self, game, seat: int, kind: int, card: int) -> np.ndarray:
        """The seat's context of its question (``CX_*`` of ``kernels.play.layout``; ``kind`` 0
        discard, 1 碰, 2 吃) from its ``Observation``: float64[N_CTX]."""
        obs = observe(game, seat, card)
        x = np.zeros(kp.N_CTX)
        for r in range(obs.seats):
            t = (seat + r) % obs.seats
            b = r * kp.CX_SIZE
            hidden = huxi = 0
            for g in obs.melds[t]:
                if g.cards and g.cards[0] == HIDDEN:
                    hidden += 1
                    continue
                for k in g.cards:
                    x[b + kp.CX_TABLE + k] += 1.0
                huxi += g.huxi
            for k, n in Counter(obs.beside[t]).items():
                x[b + kp.CX_BESIDE + k] = n
            x[b + kp.CX_HIDDEN] = hidden
            x[b + kp.CX_HELD] = obs.hand_sizes[t] / 10.0
            x[b + kp.CX_HUXI] = huxi / 10.0
            x[b + kp.CX_SEATED] = 1.0
        for k in obs.chou:
            x[kp.CX_CHOU + k] = 1.0
        for k in obs.no_peng:
            x[kp.CX_PASSED + k] = 1.0
        unseen = self.view(game, seat, card)[0]
        for k in range(20):
            x[kp.CX_UNSEEN + k] = unseen[k] / 4.0
        x[kp.CX_STOCK] = obs.stock / 20.0
        x[kp.CX_DRAWS] = obs.draws / 20.0
        x[kp.CX_KIND + kind] = 1.0
        if card >= 0:
            x[kp.CX_CARD + card] = 1.0
        x[kp.CX_SEAT + seat] = 1.0
        return x

    def _start(self, game, seat: int, kind: int, card: int) -> None:
        """Sum the first layer's context part for this decision (``kernels.play.neural``)."""
        p = self._netp(game)
        x = self.context(game, seat, kind, card)
        h0 = p["b1"].copy()
        for i in np.nonzero(x)[0]:
            h0 += x[i] * p["w1"][i]
        self._h0 = h0
        self._laid = np.zeros(20)

    def net(self, game, hand: list[int], feats: list[float]) -> float:
        """The network's part of ``V`` for the rest hand ``hand`` with learned's features
        ``feats`` and the cards laid this decision."""
        p = self._netp(game)
        x = np.concatenate([np.asarray(hand, np.float64) / 4.0, self._laid,
                            np.asarray(feats, np.float64)])
        h = self._h0.copy()
        for i in np.nonzero(x)[0]:
            h += x[i] * p["w1"][kp.N_CTX + i]
        z = p["b2"].copy()
        for j in np.nonzero(h > 0)[0]:
            z += h[j] * p["w2"][j]
        out = float(p["b3"])
        for q in range(kp.H2):
            if z[q] > 0:
                out += z[q] * p["w3"][q]
        return out * float(p["ys"])

    def value(self, game, seat: int, hand: list[int], th: int, fo: int, view) -> float:
        f = self.features(game, seat, hand, th, fo, view)
        v = 0.0
        for w, x in zip(self._weights(game), f):
            v += w * x
        return v + self.net(game, hand, f)

    def discard(self, game, seat: int, options: list[int]) -> int:
        self._start(game, seat, 0, -1)
        return super().discard(game, seat, options)

    def laying(self, hand: list[int], left: list[int], card: int) -> None:
        """The cards a claim lays on the table (``hand`` less ``left``, and ``card``): the
        answer's ``OX_LAID`` inputs."""
        self._laid = np.array([hand[k] - left[k] for k in range(20)], np.float64)
        self._laid[card] += 1.0

    def peng(self, game, seat: int, card: int) -> bool:
        self._start(game, seat, 1, card)
        return super().peng(game, seat, card)

    def chi(self, game, seat: int, card: int, options: list) -> int:
        self._start(game, seat, 2, card)
        return super().chi(game, seat, card, options)
