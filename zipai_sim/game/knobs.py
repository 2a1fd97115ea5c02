"""Checking one TOML knob against its declared kind, for the variant loader (RULES.md §8).

A variant's dataclass fields carry metadata (``kind`` = int, bool, enum, pair, ...) with bounds or
choices; `convert` returns the checked value or raises `Want` with what was expected, which the
loader turns into an error naming the file and the key.
"""

from __future__ import annotations

import json
import re
from typing import Any

LIMIT = 10**6  # default bound of integer knobs


class Want(Exception):
    """Raised by `convert` with what the value should have been."""


def is_int(x: Any) -> bool:
    """An int that is not a bool (bool is an int subclass in Python)."""
    return isinstance(x, int) and not isinstance(x, bool)  # bool is an int subclass


def convert(v: Any, m: dict[str, Any]) -> Any:
    """Check one TOML value against field metadata ``m`` (``kind`` and its bounds or choices):
    the converted value (tuples for lists), or raise `Want` saying what was expected."""
    kind, choices = m["kind"], m.get("choices", ())
    quoted = ", ".join(f'"{c}"' for c in choices)
    if kind == "int":
        # every integer knob is bounded, so no value can overflow the kernels' int64 tuple
        lo, hi = m.get("lo", -LIMIT), m.get("hi", LIMIT)
        if is_int(v) and (lo is None or v >= lo) and (hi is None or v <= hi) and (
                not choices or v in choices):
            return v
        raise Want("one of " + ", ".join(map(str, choices)) if choices else
                    f"an integer in {lo}..{hi}" if hi is not None else
                    f"an integer ≥ {lo}" if lo is not None else "an integer")
    if kind == "bool":
        if isinstance(v, bool) and m.get("only", v) == v:
            return v
        raise Want(f"{show(m['only'])} (the only rule implemented)" if "only" in m
                    else "a boolean")
    if kind in ("str", "key"):
        if isinstance(v, str) and v.strip() and (
                kind == "str" or re.fullmatch(r"[a-z0-9][a-z0-9_-]*", v)):
            return v.strip()
        raise Want("a non-empty string" if kind == "str" else 'a lower-case name like "my-rules"')
    if kind == "enum":
        if isinstance(v, str) and v in choices:
            return v
        raise Want(f"one of {quoted}")
    if kind == "perm":
        if isinstance(v, list) and all(isinstance(s, str) for s in v) and sorted(v) == sorted(
                choices):
            return tuple(v)
        raise Want(f"a list holding each of {quoted} once")
    if kind == "named":  # a table of known names → integers ≥ lo
        if isinstance(v, dict) and all(k in choices and is_int(x) and x >= m["lo"]
                                       for k, x in v.items()):
            return tuple(sorted(v.items()))
        raise Want(f"a table of names from {', '.join(choices)} → integers ≥ {m['lo']}")
    if not isinstance(v, list):
        raise Want(_LIST_WANT[kind])
    if kind == "strs" and v and all(isinstance(s, str) and s.strip() for s in v):
        return tuple(s.strip() for s in v)
    if kind == "pair" and len(v) == 2 and all(is_int(x) and 0 <= x <= 1000 for x in v):
        return tuple(v)
    if kind == "ints" and v and all(is_int(x) and x >= 0 for x in v) and len(set(v)) == len(v):
        return tuple(sorted(v))
    if kind == "red_bonus" and all(
        isinstance(r, list) and len(r) == 2 and all(is_int(x) for x in r)
        and 1 <= r[0] <= 24 and r[1] >= 0 for r in v
    ) and len({r[0] for r in v}) == len(v):
        return tuple(sorted(tuple(r) for r in v))
    raise Want(_LIST_WANT[kind])


_LIST_WANT = {
    "strs": "a non-empty list of strings",
    "pair": "a [small, big] pair of integers in 0..1000",
    "ints": "a non-empty list of distinct integers ≥ 0",
    "red_bonus": "a list of [red count 1..24, units ≥ 0] pairs, each red count once",
}


def show(v: Any) -> str:
    """A value as TOML spells it, for error messages."""
    return json.dumps(v, ensure_ascii=False, default=str)
