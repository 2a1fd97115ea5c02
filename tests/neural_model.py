"""A test network for the neural bot's tests (tests/test_neural.py, tests/test_hidden.py)."""

import numpy as np

from zipai_sim.kernels import play as kp
from zipai_sim.play import neural


def random_model(seed: int = 58, scale: float = 1.0) -> neural.Model:
    """A network whose every layer has a say (random weights large enough to change learned's
    answers), for the twin and the hidden-card tests."""
    rng = np.random.default_rng(seed)
    f = np.float32
    return neural.Model(linear=rng.normal(0, 1, kp.N_FEAT).astype(f),
                        w1=rng.normal(0, 0.3 * scale, (kp.N_IN, kp.H1)).astype(f),
                        b1=rng.normal(0, 0.1, kp.H1).astype(f),
                        w2=rng.normal(0, 0.3, (kp.H1, kp.H2)).astype(f),
                        b2=rng.normal(0, 0.1, kp.H2).astype(f),
                        w3=rng.normal(0, 1, kp.H2).astype(f), b3=f(0.1), ys=f(2.0))
