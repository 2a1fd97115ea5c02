"""Knob sweeps (RULES.md §8): one variant with some knobs set to each of a few values, every run
on the same decks, for ``compare`` (and ``fair``) to measure against the variant as it is.

A sweep maps a knob (``"SECTION.KEY"``, as in the variant's TOML file) to its values; knobs that
must change together (the 荒庄 payments of the dealer and the others sum to 0, RULES.md §7.2) are
one key of several names, ``("settle.huangzhuang_dealer", "settle.huangzhuang_others")``, with one
tuple of values per setting. Several keys make a grid (every combination), capped at
``MAX_SWEEP_RUNS``. Each setting is checked as a TOML file is (``variants.with_knobs``).

>>> parse_sweep("settle.huangzhuang_dealer/settle.huangzhuang_others=-4/2,-2/1,0/0")
(('settle.huangzhuang_dealer', 'settle.huangzhuang_others'), [(-4, 2), (-2, 1), (0, 0)])
>>> parse_sweep("points.ti=[9, 12],[6, 9]")
(('points.ti',), [([9, 12],), ([6, 9],)])
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from zipai_sim.game.variants import Variant, knob_value, load_variant, with_knobs

#: runs a sweep may ask for besides the baseline (a grid grows as the product of its knobs)
MAX_SWEEP_RUNS = 64

Knobs = tuple[str, ...]


def _split(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside brackets and quotes (a TOML list holds commas)."""
    out, depth, quote, cur = [], 0, "", ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == sep and depth == 0:
            out.append(cur)
            cur = ""
            continue
        cur += ch
    out.append(cur)
    return [x.strip() for x in out]


def parse_sweep(text: str) -> tuple[Knobs, list[tuple[Any, ...]]]:
    """``KNOB=V1,V2,…`` or ``KNOB/KNOB2=V1/W1,V2/W2,…`` (knobs that change together) as typed
    on the command line: the knob names and one tuple of values per setting (each value in TOML
    syntax, or else text). Raises ValueError naming what is wrong."""
    names, eq, values = text.partition("=")
    knobs = tuple(x.strip() for x in names.split("/"))
    if not eq or not all(knobs) or not values.strip():
        raise ValueError(f"--sweep takes KNOB=V1,V2,… (or KNOB/KNOB2=V1/W1,V2/W2,… for knobs "
                         f"that change together), got {text!r}")
    settings = []
    for item in _split(values, ","):
        parts = _split(item, "/")
        if len(parts) != len(knobs) or not all(parts):
            raise ValueError(f"--sweep {names.strip()}: each setting needs {len(knobs)} "
                             f"value{'s' * (len(knobs) > 1)} joined by '/', got {item!r}")
        settings.append(tuple(knob_value(p) for p in parts))
    if len({json.dumps(s) for s in settings}) < len(settings):
        raise ValueError(f"--sweep {names.strip()}: a setting is given twice")
    return knobs, settings


def _normal(sweep: Mapping) -> list[tuple[Knobs, list[tuple[Any, ...]]]]:
    out = []
    for key, values in sweep.items():
        knobs = (key,) if isinstance(key, str) else tuple(key)
        if not knobs or not all(isinstance(k, str) for k in knobs):
            raise ValueError(f"a sweep's key is a knob name or a tuple of them, got {key!r}")
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not values:
            raise ValueError(f"sweep {key!r}: give a non-empty list of values")
        sets = [tuple(x) if len(knobs) > 1 else (x,) for x in values]
        if any(len(s) != len(knobs) for s in sets):
            raise ValueError(f"sweep {key!r}: each setting needs one value per knob")
        out.append((knobs, sets))
    return out


def sweep_runs(variant: str | Variant, sweep: Mapping) -> tuple[Variant, list[dict[str, Any]],
                                                              list[Variant]]:
    """The baseline (``variant`` as given), each setting of the grid as a dict of knob → value,
    and its variant (settings whose rules equal the baseline's are left out: the baseline is
    that run). Raises ValueError (an empty or too large grid, a bad key) or VariantError (a
    setting a rule set may not have)."""
    base = load_variant(variant)
    axes = _normal(sweep)
    if not axes:
        raise ValueError("the sweep names no knob")
    grid = list(itertools.product(*[sets for _, sets in axes]))
    settings, runs = [], []
    for combo in grid:
        knobs = {k: x for (names, _), values in zip(axes, combo) for k, x in zip(names, values)}
        v = with_knobs(base, knobs)
        if v.rules_hash != base.rules_hash:
            settings.append(knobs)
            runs.append(v)
    if not runs:
        raise ValueError("every setting of the sweep is the variant's own: nothing to compare")
    if len(runs) > MAX_SWEEP_RUNS:
        raise ValueError(f"the sweep asks for {len(runs)} runs, more than {MAX_SWEEP_RUNS}: "
                         f"sweep fewer values or fewer knobs at once")
    return base, settings, runs


def knob_of(v: Variant, name: str) -> Any:
    """The value of knob ``name`` (``SECTION.KEY[.NAME]``) in ``v``, as the TOML file has it."""
    x: Any = v.to_dict()
    for part in name.split("."):
        x = x.get(part) if isinstance(x, dict) else None
    return x
