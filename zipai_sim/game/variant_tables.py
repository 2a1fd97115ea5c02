"""Describing rule variants for people: the table of the shipped variants and the readable dump
of one variant, for ``zipai-sim variants`` and ``zipai-sim variants show KEY`` (RULES.md §8).

>>> variants_table().columns[:4], describe("guangxi-81").startswith("guangxi-81: ")
(['key', 'name', 'players', 'threshold'], True)
"""

from __future__ import annotations

import os

import polars

from zipai_sim.game.knobs import show as _show
from zipai_sim.game.ruleset import Variant
from zipai_sim.game.sections import SECTIONS, Deal
from zipai_sim.game.variants import list_variants, load_variant

__all__ = ["describe", "variants_table"]


def _instant(d: Deal) -> str:
    parts = [f"≥{d.santi} 提"] if d.santi else []
    if d.wukan:
        kan = f"≥{d.wukan} 坎" + (" (提 count)" if d.ti_counts_as_kan else "")
        parts.append(kan + (" via the 亮张" if d.wukan_scope == "liangzhang" else ""))
    return " or ".join(parts) or "none"


def variants_table() -> polars.DataFrame:
    """One row per shipped variant (RULES.md §8), for ``zipai-sim variants``.

    Columns: key, name, players, threshold, unit, discard_win, instant (the instant-win shapes
    at the deal), two_ti, dihu, fanxing (the 翻信 match, or "off"), rules_hash.
    Raises `VariantError` if a shipped file is invalid.
    """
    import polars as pl

    rows = []
    for key in list_variants():
        v = load_variant(key)
        rows.append({
            "key": v.key, "name": v.name, "players": v.layout.players,
            "threshold": v.win.threshold, "unit": v.settle.unit,
            "discard_win": v.win.discard_win, "instant": _instant(v.deal),
            "two_ti": v.deal.two_ti, "dihu": v.deal.dihu,
            "fanxing": v.fanxing.match if v.fanxing.enabled else "off",
            "rules_hash": v.rules_hash,
        })
    return pl.DataFrame(rows)


def describe(variant: str | os.PathLike[str] | Variant) -> str:
    """A readable multi-line dump of a variant, for ``zipai-sim variants show KEY``.

    Takes whatever `load_variant` takes and raises what it raises. Sections and knobs are in
    the TOML file's order and spelling (RULES.md §8).
    """
    v = load_variant(variant)
    d = v.to_dict()
    lines = [f"{v.key}: {v.name}", f"region: {v.region}", f"rules_hash: {v.rules_hash}",
             f"file: {d['path']}", "sources:", *(f"  - {s}" for s in v.sources), "",
             v.description, ""]
    for sec in SECTIONS:
        lines.append(f"[{sec}]")
        lines += [f"  {k} = {_show(val)}" for k, val in d[sec].items()]
    return "\n".join(lines)
