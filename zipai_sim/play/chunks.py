"""``play_chunks``: the one entry every driver uses to play whole chunks with any line-up of
seats (RULES.md §5–§7). It picks the engine the line-up needs: the numba turn loop
(``kernels.play.play_chunks``) when every seat is a fast bot, the search driver
(``play.rollout.play_rollout``) when a seat searches, the batched table
(``play.external.play_external``) when a seat is a batch policy. It sits above the three so
that none of them imports another's driver.
"""

from __future__ import annotations

import numpy as np

from zipai_sim.kernels import play as kp
from zipai_sim.play.external import play_external
from zipai_sim.play.learned import weights_for
from zipai_sim.play.registry import FAST_POLICIES, names_text
from zipai_sim.play.rollout import DEFAULT_K, play_rollout, searching


def play_chunks(v, keys: np.ndarray, sizes: np.ndarray, codes: np.ndarray, out: np.ndarray,
                k: int = DEFAULT_K, weights: np.ndarray | None = None,
                external: dict | None = None) -> None:
    """Play whole chunks with the bot codes ``codes`` (``play.POLICY_NAMES`` order): the numba
    ``kernels.play.play_chunks`` unless a seat searches (``play.registry.SEARCH_POLICIES``),
    then ``play_rollout``; ``external`` ({seat: ``play.external.BatchPolicy``}, the codes of
    those seats from ``play.external.lineup``): ``play.external.play_external``.
    ``weights``: each seat's learned weights (float64[MAX_SEATS, W_COLS]: learned weights and networks); None: the
    variant's (``play.learned.weights_for``)."""
    codes = np.asarray(codes, np.int64)
    if external:
        others = np.delete(codes, list(external))
        if searching(others):
            raise ValueError(f"a batch policy plays beside the fast bots only "
                             f"({names_text(FAST_POLICIES)}), not beside a searching seat")
        play_external(v, keys, sizes, codes, out, external, weights)
    elif searching(codes):
        play_rollout(v, keys, sizes, codes, out, k, weights)
    else:
        kp.play_chunks(keys, sizes, v.params, int(v.win.choupai_win), codes, out,
                       weights_for(v, codes) if weights is None else weights)
