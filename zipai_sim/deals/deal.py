"""``deal``: shuffled decks as per-seat count vectors and the stock (RULES.md §2)."""

from __future__ import annotations

import os

import numpy as np

from zipai_sim.game import params as p
from zipai_sim.game.variants import Variant, load_variant
from zipai_sim.kernels import deal as kdeal
from zipai_sim.runs.chunks import (
    check_chunk_size,
    check_count,
    check_seed,
    chunk_keys,
    chunk_sizes,
    n_chunks,
)


class Deal(tuple):
    """``(hands, stock)``, unpackable as a pair, with the 亮张 as ``.liangzhang``.

    hands: int8[n, seats, 20], the dealer (seat 0) holding 21 cards (15 in 六胡倒) with the 亮张;
    stock: int8[n, stock_len], card kinds in draw order; liangzhang: int8[n], the dealer's shown
    card. A 数信 sitter gets no cards and has no row.
    """

    hands: np.ndarray
    stock: np.ndarray
    liangzhang: np.ndarray

    def __new__(cls, hands: np.ndarray, stock: np.ndarray, liangzhang: np.ndarray) -> Deal:
        self = super().__new__(cls, (hands, stock))
        self.hands, self.stock, self.liangzhang = hands, stock, liangzhang
        return self


def deal(n: int, variant: str | os.PathLike | Variant, seed: int,
         chunk_size: int | None = None) -> Deal:
    """Deal ``n`` hands of ``variant`` from ``seed``: reproducible from ``(n, variant, seed)``.

    Deal ``i`` is the same deal ``simulate_deals`` scores as its ``i``-th with the same seed and
    chunk size, whatever the thread count (see ``zipai_sim.runs.chunks``). Memory is about
    ``n * (20 * seats + stock)`` bytes: for large studies use ``simulate_deals``.

    >>> hands, stock = deal(2, "guangxi-81", seed=7)
    >>> hands.shape, stock.shape, int(hands[0, 0].sum()), int(hands[0, 1].sum())
    ((2, 3, 20), (2, 19), 21, 20)

    Raises ValueError for a negative or non-integer ``n``, a bad seed or chunk size, and
    VariantError for an unknown variant.
    """
    v = load_variant(variant)
    n = check_count(n)
    seed = check_seed(seed)
    cs = check_chunk_size(chunk_size)
    P = v.params
    m = n_chunks(n, cs)
    hands = np.zeros((n, P[p.SEATS], 20), np.int8)
    stock = np.zeros((n, P[p.STOCK_LEN]), np.int8)
    lz = np.zeros(n, np.int8)
    if n:
        kdeal.deal_chunks(chunk_keys(seed, 0, m), chunk_sizes(n, cs, 0, m),
                          np.arange(m, dtype=np.int64) * cs, P, hands, stock, lz)
    return Deal(hands, stock, lz)
