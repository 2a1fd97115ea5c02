"""Drive the enumeration kernel (``zipai_sim.kernels.exact``): tasks, exact totals."""

from __future__ import annotations

import numpy as np

from zipai_sim.kernels import exact as ke
from zipai_sim.kernels.automaton import build

FULL_DECK = np.full(20, 4, np.int64)


def tasks_for(mode: int) -> np.ndarray:
    """Every choice of the first two values, ``int64[m, 2]``, in a fixed interleaved order so
    that the threads' contiguous shares mix heavy and light tasks."""
    n = 35 if mode in (ke.MODE_DIHU_THREE, ke.MODE_DIHU_QZ) else 25
    t = np.array([(a, b) for a in range(n) for b in range(n)], np.int64)
    order = np.random.default_rng(0).permutation(len(t))
    return t[order]


BATCH = 64  # tasks per kernel call: Ctrl-C and the progress bar answer within seconds


def run(P: tuple, mode: int, n_cards: int, copies: np.ndarray = FULL_DECK, fx: int = ke.FX_NONE,
        excl: int = 0, tasks: np.ndarray | None = None, tick=None) -> list[int]:
    """Exact totals (Python ints, length ``N_ACC``) of one enumeration ``mode`` over hands of
    ``n_cards`` cards drawn from a deck with ``copies: int64[20]`` cards of each kind.
    ``tick(k)`` is called after every batch of ``k`` finished tasks."""
    tab = build()
    if tasks is None:
        tasks = tasks_for(mode)
    lo = np.zeros((len(tasks), ke.N_ACC), np.int64)
    hi = np.zeros((len(tasks), ke.N_ACC), np.int64)
    args = (tab["plain"], tab["enter"], tab["three"], tab["plain_accept"], tab["three_accept"],
            np.asarray(copies, np.int64), n_cards, fx, excl, np.asarray(P, np.int64))
    for a in range(0, len(tasks), BATCH):
        b = min(len(tasks), a + BATCH)
        ke.enumerate_tasks(tasks[a:b], mode, *args, lo[a:b], hi[a:b])
        if tick is not None:
            tick(b - a)
    return totals(lo, hi)


def totals(lo: np.ndarray, hi: np.ndarray) -> list[int]:
    """Sum per-task two-word counters into Python ints."""
    out = []
    for j in range(lo.shape[1]):
        out.append(int(lo[:, j].astype(object).sum()) + (int(hi[:, j].astype(object).sum()) << 60))
    return out
