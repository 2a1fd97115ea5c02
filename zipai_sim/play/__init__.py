"""Whole hands at the table (RULES.md §5–§7): the readable reference engine and its policies.

``engine.Game`` is the executable spec of play, step by step; a numba twin comes later and must
play the same seeded hand move for move.
"""
