"""Seeded hands as readable traces (OpenSpiel-style playthroughs) for the CLI and regression
tests: deal ``i`` of a seed is the same deck ``deal``/``simulate_deals`` use."""

from __future__ import annotations

import os

from ..chunks import DEFAULT_CHUNK, check_count, check_seed, chunk_keys
from ..reference import shuffled_deck
from ..variants import Variant, load_variant
from .engine import Game, Outcome
from .policies import POLICIES


def play_seeded(variant: str | os.PathLike | Variant, seed: int, deal: int = 0,
                policy: str = "greedy") -> tuple[Game, Outcome]:
    """Play deal ``deal`` of ``seed`` (chunk size 65536, as ``simulate_deals``) with ``policy``
    ("greedy" or "random") at every seat; returns the game (its ``log``) and the outcome.
    Raises ValueError for a bad seed, deal index or policy; VariantError for the variant."""
    v = load_variant(variant)
    seed = check_seed(seed)
    deal = check_count(deal, "deal")
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; known: {', '.join(POLICIES)}")
    key = int(chunk_keys(seed, deal // DEFAULT_CHUNK, 1)[0])
    j = deal % DEFAULT_CHUNK
    game = Game(v, shuffled_deck(key, j), [POLICIES[policy]() for _ in range(v.layout.players)],
                key, j)
    out = game.play()
    if out.winner >= 0:
        game.log.append(f"result: seat {out.winner} wins ({out.how}), {out.huxi} 胡息"
                        + (f", 翻信 {out.fanxing}" if v.fanxing.enabled else ""))
    else:
        game.log.append("result: 荒庄")
    return game, out
