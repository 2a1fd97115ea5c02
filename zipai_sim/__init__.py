"""zipai-sim: a Monte Carlo toolkit for 字牌 (zipai), the 80-card Chinese paper-card family.

Cards are count vectors ``int8[20]`` (slots 0–9 small 一..十, 10–19 big 壹..拾); a variant is a
TOML rule set (RULES.md §8) compiled once into a tuple of integers for the numba kernels.
Importing the package compiles nothing; ``warmup()`` compiles every kernel (cached on disk).

>>> import zipai_sim as zs
>>> zs.evaluate_opening("一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十拾", "guangxi-81")["huxi"][0]
9
"""

from zipai_sim.analysis import (
    Analysis,
    Decision,
    Position,
    PositionError,
    analyze,
    analyze_position,
    position,
)
from zipai_sim.deals.deal import Deal, deal
from zipai_sim.deals.evaluate import Explanation, evaluate_opening, explain, waits
from zipai_sim.deals.simulate import SimResult, score_decks, simulate_deals
from zipai_sim.exact.opening import compare as compare_exact
from zipai_sim.exact.opening import exact_opening
from zipai_sim.game.cards import CardError, format_hand, parse_hand
from zipai_sim.game.variants import Variant, VariantError, list_variants, load_variant
from zipai_sim.pictures import Svg, draw_cards, draw_hand, draw_position
from zipai_sim.play.batch import BatchTable
from zipai_sim.play.external import BatchPolicy
from zipai_sim.play.observation import Observation
from zipai_sim.records.file import read_record, write_records
from zipai_sim.records.format import HandRecord, RecordError
from zipai_sim.records.replay import Replay, ReplayError, replay_record
from zipai_sim.runs.checkpoint import CheckpointError, checkpoint
from zipai_sim.studies.arena import arena
from zipai_sim.studies.balance import simulate_hands
from zipai_sim.studies.fair import FairResult, fair
from zipai_sim.studies.match import MatchResult, play_match, simulate_matches
from zipai_sim.tables import calculate
from zipai_sim.version import __version__


def warmup() -> None:
    """Compile (or load from the on-disk cache) every kernel, so that timings exclude it."""
    deal(1, "guangxi-81", 0)
    simulate_deals("guangxi-81", 1, 0, progress=False, sample_per_chunk=1)
    evaluate_opening("一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十拾", "guangxi-81")
    waits("一二三", "guangxi-81")
    explain("一二三", "guangxi-81")
    import numpy as _np

    from zipai_sim.kernels import deal as _kd
    from zipai_sim.runs.chunks import chunk_keys

    _kd.shuffle_floor(chunk_keys(0, 0, 1), _np.ones(1, _np.int64))
    simulate_hands("guangxi-81", 1, 0, "greedy")
    from zipai_sim.tables import opening_records

    opening_records("guangxi-81", 1, 0)  # the opening-feature kernel
    simulate_matches("guangxi-81", 1, 0, hands=1)


__all__ = [
    "Analysis",
    "BatchPolicy",
    "BatchTable",
    "CardError",
    "CheckpointError",
    "Deal",
    "Decision",
    "Explanation",
    "FairResult",
    "HandRecord",
    "MatchResult",
    "Observation",
    "Position",
    "PositionError",
    "RecordError",
    "Replay",
    "ReplayError",
    "SimResult",
    "Svg",
    "Variant",
    "VariantError",
    "__version__",
    "analyze",
    "analyze_position",
    "arena",
    "calculate",
    "checkpoint",
    "compare_exact",
    "deal",
    "draw_cards",
    "draw_hand",
    "draw_position",
    "evaluate_opening",
    "exact_opening",
    "explain",
    "fair",
    "format_hand",
    "list_variants",
    "load_variant",
    "parse_hand",
    "play_match",
    "position",
    "read_record",
    "replay_record",
    "score_decks",
    "simulate_deals",
    "simulate_hands",
    "simulate_matches",
    "waits",
    "warmup",
    "write_records",
]
