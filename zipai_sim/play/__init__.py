"""Whole hands at the table (RULES.md §5–§7): the readable reference engine and its policies.

``engine.Game`` is the executable spec of play, step by step; ``kernels.play`` is its numba twin
and plays the same seeded hand move for move. ``observation`` and ``policies`` are the hook for a
user's own policy; ``bots`` and ``bots_rollout`` are the shipped bots' readable twins,
``rollout`` drives the numba engine (and its rollout bot), ``payoffs`` settles kernel outcome rows
and ``trace`` prints a seeded hand. Studies of many hands live in ``zipai_sim.studies``.
"""

from collections.abc import Sequence

import numpy as np

__all__ = ["BatchPolicy", "BatchTable", "CHEATING_POLICIES", "DEFAULT_HAND_CHUNK", "MATCH_HANDS",
           "POLICY_NAMES", "SEARCH_POLICIES", "policy_codes"]


def __getattr__(name: str):
    # the batched table imports this module's constants: loaded on first use, not at import
    if name == "BatchTable":
        from zipai_sim.play.batch import BatchTable
        return BatchTable
    if name == "BatchPolicy":
        from zipai_sim.play.external import BatchPolicy
        return BatchPolicy
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

#: the shipped bots the numba engine plays, in the order of their codes (``kernels.play``:
#: POL_RANDOM = 0, POL_GREEDY = 1, POL_LOOKAHEAD = 2, POL_ROLLOUT = 3, POL_STUDY = 4,
#: POL_TEACHER = 5, POL_LEARNED = 6, POL_SEARCH = 7, POL_ORACLE = 8; ``play.rollout`` drives
#: rollout, teacher, search and oracle); all also play on the reference engine
POLICY_NAMES = ("random", "greedy", "lookahead", "rollout", "study", "teacher", "learned",
                "search", "oracle")

#: the bots that search by playouts (``play.rollout`` drives them; ``rollout_k`` worlds each)
SEARCH_POLICIES = ("rollout", "teacher", "search", "oracle")

#: the bots that see what no player sees: the ceiling (``kernels.play.search``), never a
#: player's answer (exempt from the hidden-card test, refused by ``analyze``)
CHEATING_POLICIES = ("oracle",)

#: hands a match plays under the goal "hands" unless told (``simulate_matches``, ``match``)
MATCH_HANDS = 8

#: hands a chunk of whole hands holds unless told (a Dask task, a checkpoint step, a progress tick)
DEFAULT_HAND_CHUNK = 1 << 12


def policy_codes(policies: str | Sequence[str], seats: int, key: str) -> np.ndarray:
    """Kernel codes of one bot name or one per seat of variant ``key`` (``seats`` seats)."""
    pols = [policies] * seats if isinstance(policies, str) else \
        list(policies) if isinstance(policies, (list, tuple)) else None
    if pols is None or len(pols) != seats or any(x not in POLICY_NAMES for x in pols):
        raise ValueError(f"policies must be one of {list(POLICY_NAMES)} or a list of {seats} of "
                         f"them ({key} has {seats} seats), got {policies!r}")
    return np.array([POLICY_NAMES.index(x) for x in pols], np.int64)
