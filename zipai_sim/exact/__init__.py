"""Exact opening-hand probabilities by exhaustive enumeration (RULES.md §6, §7.3, §9):
``exact_opening`` and ``compare`` (``opening``), the kind-by-kind counts (``counts``) and the
parallel walk over the completability automaton (``walk``)."""

from zipai_sim.exact.opening import compare, exact_opening, metadata, stored

__all__ = ["compare", "exact_opening", "metadata", "stored"]
