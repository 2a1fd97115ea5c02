"""The checks a rule set passes before it becomes a `Variant` (RULES.md §2, §6–§8): every TOML
table against its section's fields (``build_fields``: unknown or missing keys, each value's type
and range), then the rules that tie knobs together (``check_together``). The class is passed in,
so this module needs nothing of ``ruleset``, which builds every `Variant` through it
(``Variant.from_data``), whether from a file (``variants``) or from knob overrides
(``Variant.with_knobs``).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from zipai_sim.game.knobs import Want, convert, show
from zipai_sim.game.sections import DECK_SIZE, SECTIONS, VariantError

__all__ = ["build_fields", "check_together"]


def build_fields(cls: type, table: Any, where: str, sec: str | None) -> dict[str, Any]:
    """Validate one TOML table against ``cls``'s fields (``sec=None``: the top level)."""
    label = "" if sec is None else f"[{sec}]"
    if not isinstance(table, dict):
        raise VariantError(f"{where}: {label} must be a table, got {show(table)}")
    checked = [f for f in fields(cls) if "kind" in f.metadata]
    known = {f.name for f in checked}
    for k, v in table.items():
        if k not in known:
            what = (f"section [{k}]" if isinstance(v, dict) else f"key {k}") if sec is None \
                else f"key {label}.{k}"
            raise VariantError(f"{where}: unknown {what} (known: {', '.join(sorted(known))})")
    out: dict[str, Any] = {}
    for f in checked:
        name, m = f.name, f.metadata
        dotted = f"{label}.{name}" if sec else name
        if m["kind"] == "section":
            if name not in table:
                raise VariantError(f"{where}: missing section [{name}] (every section of the "
                                   "shipped files is required: `zipai-sim variants show "
                                   "guangxi-81` prints them with their knobs)")
            out[name] = SECTIONS[name](**build_fields(SECTIONS[name], table[name], where, name))
            continue
        if name not in table:
            raise VariantError(f"{where}: missing key '{dotted}'")
        try:
            out[name] = convert(table[name], m)
        except Want as want:
            raise VariantError(f"{where}: {dotted} must be {want}, got {show(table[name])}") \
                from None
    return out


def check_together(v: Any, where: str) -> None:
    """Rules that tie knobs together (RULES.md §2, §6, §7.2); raises `VariantError`."""
    lay, o, fangpao = v.layout, v.layout.other_cards, show(v.settle.fangpao)
    total = lay.dealer_cards + (lay.players - 1) * o + lay.stock
    hz = v.settle.huangzhuang_dealer + (lay.players - 1) * v.settle.huangzhuang_others
    checks = (
        (lay.dealer_cards != o + 1, (f"[layout].dealer_cards must be other_cards + 1 = {o + 1}"
                                     f" (the 亮张, RULES.md §2), got {lay.dealer_cards}")),
        (total != DECK_SIZE, (f"[layout] must deal {DECK_SIZE} cards: dealer_cards + (players − 1)"
                              f" × other_cards + stock = {lay.dealer_cards} + {lay.players - 1} × "
                              f"{o} + {lay.stock} = {total}")),
        (lay.sitter and lay.players != 3, ("[layout].sitter = true needs players = 3 (the sitter "
                                           f"is the 4th seat, RULES.md §2), got {lay.players}")),
        (v.deal.wukan_scope == "liangzhang" and not v.deal.wukan,
         '[deal].wukan_scope = "liangzhang" needs [deal].wukan > 0'),
        (v.win.discard_win and fangpao == '"none"',
         f'[settle].fangpao must name a payer when [win].discard_win is true, got {fangpao}'),
        (not v.win.discard_win and fangpao != '"none"',
         f'[settle].fangpao must be "none" when [win].discard_win is false, got {fangpao}'),
        (v.mingtang.honghu_per_extra_red and "honghu" not in dict(v.mingtang.values),
         "[mingtang].honghu_per_extra_red needs a [mingtang.values].honghu entry"),
        (hz != 0, ("[settle] 荒庄 payments must sum to 0 (RULES.md §7.2): huangzhuang_dealer + "
                   f"(players − 1) × huangzhuang_others = {v.settle.huangzhuang_dealer} + "
                   f"{lay.players - 1} × {v.settle.huangzhuang_others} = {hz}")),
    )
    for failed, message in checks:
        if failed:
            raise VariantError(f"{where}: {message}")
