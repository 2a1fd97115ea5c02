"""Hand analysis (issue 40): what each choice of a recorded hand or a typed position was worth,
the chance to win from there, and the page that steps through it.

- ``hand.analyze``: every decision of a record's seats valued (``Analysis``, ``Decision``);
- ``position.position`` / ``analyze_position``: one decision typed as text;
- ``page``: the self-contained HTML page; ``values``: the play-outs and their intervals;
- ``walk``: the record through the reference engine, question by question; ``state``: a step's
  state for the kernel.
"""

from zipai_sim.analysis.hand import (
    DEFAULT_POLICY,
    DEFAULT_WORLDS,
    PLAYOUT_POLICIES,
    Analysis,
    Decision,
    analyze,
    analyze_position,
)
from zipai_sim.analysis.position import Position, PositionError, position

__all__ = ["DEFAULT_POLICY", "DEFAULT_WORLDS", "PLAYOUT_POLICIES", "Analysis", "Decision",
           "Position", "PositionError", "analyze", "analyze_position", "position"]
