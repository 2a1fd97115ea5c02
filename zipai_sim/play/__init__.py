"""Whole hands at the table (RULES.md §5–§7): the readable reference engine and its policies.

``engine.Game`` is the executable spec of play, step by step; ``kernels.play`` is its numba twin
and plays the same seeded hand move for move. ``observation`` and ``policies`` are the hook for a
user's own policy; ``bots``, ``bots_learned`` and ``bots_rollout`` are the shipped bots'
readable twins; ``chunks`` plays whole chunks with any line-up (the numba turn loop, the
searching bots' driver ``rollout``, or the batched table ``batch`` for outside models,
``external``); ``payoffs`` settles kernel outcome rows and ``trace`` prints a seeded hand.
``registry`` is the bot table every list of bots is made from. Studies of many hands live in ``zipai_sim.studies``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

# the bot table is light (no numpy, no numba): the command line builds its parser from it
from zipai_sim.play.registry import (
    BOTS,
    CHEATING_POLICIES,
    FAST_POLICIES,
    POLICY_NAMES,
    SEARCH_POLICIES,
    Bot,
    bot,
)

if TYPE_CHECKING:
    import numpy as np

# the batched table and batch policies are ``zipai_sim.BatchTable`` / ``zipai_sim.BatchPolicy``
# (``play.batch``, ``play.external``): this package's root imports nothing above the bot table
__all__ = ["BOTS", "Bot", "CHEATING_POLICIES", "DEFAULT_HAND_CHUNK", "FAST_POLICIES",
           "MATCH_HANDS", "POLICY_NAMES", "SEARCH_POLICIES", "bot", "policy_codes"]


#: hands a match plays under the goal "hands" unless told (``simulate_matches``, ``match``)
MATCH_HANDS = 8

#: hands a chunk of whole hands holds unless told (a Dask task, a checkpoint step, a progress tick)
DEFAULT_HAND_CHUNK = 1 << 12


def policy_codes(policies: str | Sequence[str], seats: int, key: str) -> np.ndarray:
    """Kernel codes (``int64[seats]``, ``play.registry``) of one bot name or one per seat of
    variant ``key`` (``seats`` seats). Raises ValueError naming the bots for anything else."""
    import numpy as np

    pols = [policies] * seats if isinstance(policies, str) else \
        list(policies) if isinstance(policies, (list, tuple)) else None
    if pols is None or len(pols) != seats or any(x not in POLICY_NAMES for x in pols):
        raise ValueError(f"policies must be one of {list(POLICY_NAMES)} or a list of {seats} of "
                         f"them ({key} has {seats} seats), got {policies!r}")
    return np.array([bot(x).code for x in pols], np.int64)
