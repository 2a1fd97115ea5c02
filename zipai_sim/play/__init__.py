"""Whole hands at the table (RULES.md §5–§7): the readable reference engine and its policies.

``engine.Game`` is the executable spec of play, step by step; ``kernels.play`` is its numba twin
and plays the same seeded hand move for move. ``balance`` runs and settles many hands,
``match`` plays sequences of hands with running totals, ``observation`` and ``policies`` are the
hook for a user's own policy; ``bots`` and ``bots_rollout`` are the shipped bots' readable twins,
``rollout`` drives the rollout bot on the numba engine.
"""

#: the shipped bots the numba engine plays, in the order of their codes (``kernels.play``:
#: POL_RANDOM = 0, POL_GREEDY = 1, POL_LOOKAHEAD = 2, POL_ROLLOUT = 3: ``play.rollout`` drives
#: it); all also play on the reference engine
POLICY_NAMES = ("random", "greedy", "lookahead", "rollout")

#: hands a match plays under the goal "hands" unless told (``simulate_matches``, ``match``)
MATCH_HANDS = 8
