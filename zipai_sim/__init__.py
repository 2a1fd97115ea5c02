"""zipai-sim: a Monte Carlo toolkit for 字牌 (zipai), the 80-card Chinese paper-card family.

Cards are count vectors ``int8[20]`` (slots 0–9 small 一..十, 10–19 big 壹..拾); a variant is a
TOML rule set (RULES.md §8) compiled once into a tuple of integers for the numba kernels.
Importing the package compiles nothing; ``warmup()`` compiles every kernel (cached on disk).

>>> import zipai_sim as zs
>>> zs.evaluate_opening("一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十拾", "guangxi-81")["huxi"][0]
9
"""

import importlib
from typing import TYPE_CHECKING, Any

from zipai_sim.version import __version__

# Every public name, loaded on first use: importing the package (and so the CLI's --help) must
# not pull numba, polars or scipy, which take seconds. "module" exports the same name,
# "module:attr" another one.
_LAZY: dict[str, str] = {
    "Analysis": "zipai_sim.analysis",
    "Decision": "zipai_sim.analysis",
    "Position": "zipai_sim.analysis",
    "PositionError": "zipai_sim.analysis",
    "analyze": "zipai_sim.analysis",
    "analyze_position": "zipai_sim.analysis",
    "position": "zipai_sim.analysis",
    "Deal": "zipai_sim.deals.deal",
    "deal": "zipai_sim.deals.deal",
    "Explanation": "zipai_sim.deals.evaluate",
    "evaluate_opening": "zipai_sim.deals.evaluate",
    "explain": "zipai_sim.deals.evaluate",
    "waits": "zipai_sim.deals.evaluate",
    "SimResult": "zipai_sim.deals.simulate",
    "score_decks": "zipai_sim.deals.simulate",
    "simulate_deals": "zipai_sim.deals.simulate",
    "compare_exact": "zipai_sim.exact.opening:compare",
    "exact_opening": "zipai_sim.exact.opening",
    "CardError": "zipai_sim.game.cards",
    "format_hand": "zipai_sim.game.cards",
    "parse_hand": "zipai_sim.game.cards",
    "Variant": "zipai_sim.game.variants",
    "VariantError": "zipai_sim.game.variants",
    "list_variants": "zipai_sim.game.variants",
    "load_variant": "zipai_sim.game.variants",
    "Svg": "zipai_sim.pictures",
    "draw_cards": "zipai_sim.pictures",
    "draw_hand": "zipai_sim.pictures",
    "draw_position": "zipai_sim.pictures",
    "BatchTable": "zipai_sim.play.batch",
    "BatchPolicy": "zipai_sim.play.external",
    "Observation": "zipai_sim.play.observation",
    "read_record": "zipai_sim.records.file",
    "write_records": "zipai_sim.records.file",
    "HandRecord": "zipai_sim.records.format",
    "RecordError": "zipai_sim.records.format",
    "Replay": "zipai_sim.records.replay",
    "ReplayError": "zipai_sim.records.replay",
    "replay_record": "zipai_sim.records.replay",
    "CheckpointError": "zipai_sim.runs.checkpoint",
    "checkpoint": "zipai_sim.runs.checkpoint",
    "arena": "zipai_sim.studies.arena",
    "simulate_hands": "zipai_sim.studies.balance",
    "FairResult": "zipai_sim.studies.fair",
    "fair": "zipai_sim.studies.fair",
    "MatchResult": "zipai_sim.studies.match",
    "play_match": "zipai_sim.studies.match",
    "simulate_matches": "zipai_sim.studies.match",
    "calculate": "zipai_sim.tables",
}

if TYPE_CHECKING:  # the same names for type checkers and the API reference (griffe reads these)
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


def __getattr__(name: str) -> Any:
    target = _LAZY.get(name)
    if target is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, _, attr = target.partition(":")
    value = getattr(importlib.import_module(module), attr or name)
    globals()[name] = value  # the next look-up is an ordinary attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


def warmup() -> None:
    """Compile (or load from the on-disk cache) every kernel, so that timings exclude it."""
    import numpy as _np

    from zipai_sim.deals.deal import deal
    from zipai_sim.deals.evaluate import evaluate_opening, explain, waits
    from zipai_sim.deals.simulate import simulate_deals
    from zipai_sim.kernels import deal as _kd
    from zipai_sim.runs.chunks import chunk_keys
    from zipai_sim.studies.balance import simulate_hands
    from zipai_sim.studies.match import simulate_matches
    from zipai_sim.tables import opening_records

    deal(1, "guangxi-81", 0)
    simulate_deals("guangxi-81", 1, 0, progress=False, sample_per_chunk=1)
    evaluate_opening("一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十拾", "guangxi-81")
    waits("一二三", "guangxi-81")
    explain("一二三", "guangxi-81")
    _kd.shuffle_floor(chunk_keys(0, 0, 1), _np.ones(1, _np.int64))
    simulate_hands("guangxi-81", 1, 0, "greedy")
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
