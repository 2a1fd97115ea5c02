"""Hand generators for the tests, written from RULES.md §3 (not from the kernels)."""

from __future__ import annotations

import random

import numpy as np

FREE_GROUPS: list[tuple[int, ...]] = (
    [(s + v, s + v + 1, s + v + 2) for s in (0, 10) for v in range(8)]  # runs, one size
    + [(1, 6, 9), (11, 16, 19)]  # 二七十 贰柒拾
    + [(v, v, v + 10) for v in range(10)] + [(v, v + 10, v + 10) for v in range(10)]  # 绞
)


def random_complete(rng: random.Random, size: int = 21) -> np.ndarray | None:
    """A hand that is all groups by construction (§3): some 提 (then one pair) and 坎 locked,
    the rest free 3-card groups. Returns None when the draw broke a rule (a free kind reaching
    three copies would be read as a 坎, so such draws are dropped, keeping the construction the
    hand's own reading)."""
    c = np.zeros(20, np.int64)
    locked = np.zeros(20, bool)
    n = 0
    q = rng.choice((0, 0, 0, 1, 1, 2)) if size >= 17 else rng.choice((0, 1))
    for _ in range(q):
        k = rng.randrange(20)
        if c[k]:
            return None
        c[k], locked[k], n = 4, True, n + 4
    if q == 2:
        size += 1  # two four-card groups: the rules' invariant gives one card more
    for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
        k = rng.randrange(20)
        if c[k]:
            return None
        c[k], locked[k], n = 3, True, n + 3
    if q:
        k = rng.randrange(20)
        if c[k]:
            return None
        c[k], n = 2, n + 2
    if (size - n) % 3:
        return None
    before = c.copy()
    while n < size:
        g = rng.choice(FREE_GROUPS)
        for k in g:
            c[k] += 1
        n += 3
    if n != size or any(c[k] != before[k] if locked[k] else c[k] > 2 for k in range(20)):
        return None
    return c.astype(np.int8)


def complete_hands(count: int, seed: int, size: int = 21) -> list[np.ndarray]:
    """``count`` distinct-draw complete hands."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        h = random_complete(rng, size)
        if h is not None:
            out.append(h)
    return out


def random_hands(count: int, seed: int, size: int = 21) -> np.ndarray:
    """Uniform random ``size``-card hands from the 80-card deck: ``int8[count, 20]``."""
    rng = np.random.default_rng(seed)
    deck = np.repeat(np.arange(20), 4)
    out = np.zeros((count, 20), np.int8)
    for i in range(count):
        out[i] = np.bincount(rng.choice(deck, size, replace=False), minlength=20)
    return out
