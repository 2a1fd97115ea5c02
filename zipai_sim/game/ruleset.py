"""`Variant`: one validated rule set — its eight sections, its ``rules_hash`` and the plain
integer tuple the numba kernels read (RULES.md §8; sections in ``sections``, indices in
``params``).

A `Variant` is built by ``Variant.from_data``, which checks every knob first (``rulecheck``;
``variants.load_variant`` reads the files); this module holds the frozen result and what is
computed from it: ``params`` (RULES.md §2, §4–§7.3 knobs
compiled to integers), the hash of the rules, a copy at another 起胡 threshold (§6) and the
plain dict in the TOML file's shape.

>>> from zipai_sim.game.variants import load_variant
>>> v = load_variant("guangxi-81")
>>> hash_rules(v) == v.rules_hash, v.with_threshold(20).rules_hash != v.rules_hash
(True, True)
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import cached_property
from pathlib import Path
from typing import Any

from zipai_sim.game import params as P
from zipai_sim.game.knobs import Want as _Want
from zipai_sim.game.knobs import convert as _convert
from zipai_sim.game.knobs import show as _show
from zipai_sim.game.rulecheck import build_fields, check_together
from zipai_sim.game.sections import (
    MATCH_CODES,
    MAX_POINTS,
    SECTIONS,
    Deal,
    Fanxing,
    Layout,
    Mingtang,
    Play,
    Points,
    Settle,
    VariantError,
    Win,
)
from zipai_sim.game.sections import knob as _k

__all__ = ["Variant", "hash_rules", "section_dict"]

_POINT_SLOTS = (  # [points] knob → its small and big params index
    ("peng_black", P.PENG_SMALL_BLACK, P.PENG_BIG_BLACK), ("kan", P.KAN_SMALL, P.KAN_BIG),
    ("peng_red", P.PENG_SMALL_RED, P.PENG_BIG_RED), ("wei", P.WEI_SMALL, P.WEI_BIG),
    ("chou_wei", P.CHOUWEI_SMALL, P.CHOUWEI_BIG), ("pao", P.PAO_SMALL, P.PAO_BIG),
    ("ti", P.TI_SMALL, P.TI_BIG), ("yi_er_san", P.YIERSAN_SMALL, P.YIERSAN_BIG),
    ("er_qi_shi", P.ERQISHI_SMALL, P.ERQISHI_BIG),
)
_SECTION = {"kind": "section"}  # field metadata of a Variant's rule sections


@dataclass(frozen=True)
class Variant:
    """A validated rule variant (RULES.md §8); build it with `load_variant`.

    Frozen and hashable. ``rules_hash`` is the first 16 hex digits of the sha256 of the
    canonical JSON of the eight rule sections (not of the file bytes, and not of the
    key/name/region/sources/description metadata): comments and layout of the file do not
    change it, any knob does. ``path`` (the file it was read from) takes no part in equality.
    """

    key: str = _k("key")
    name: str = _k("str")
    region: str = _k("str")
    sources: tuple[str, ...] = _k("strs")
    description: str = _k("str")
    layout: Layout = field(metadata=_SECTION)
    points: Points = field(metadata=_SECTION)
    win: Win = field(metadata=_SECTION)
    deal: Deal = field(metadata=_SECTION)
    play: Play = field(metadata=_SECTION)
    fanxing: Fanxing = field(metadata=_SECTION)
    settle: Settle = field(metadata=_SECTION)
    mingtang: Mingtang = field(metadata=_SECTION)
    path: Path | None = field(default=None, compare=False)
    rules_hash: str = ""

    @cached_property
    def params(self) -> tuple[int, ...]:
        """The integer tuple the numba kernels receive, length ``params.N_PARAMS``.

        Each index is named in `zipai_sim.game.params`; booleans become 0/1, ``FANXING_MATCH`` is
        0 本醒 / 1 上醒 / 2 下醒 / 3 跟醒, ``SANTI_MIN`` / ``WUKAN_MIN`` are 0 when off.
        """
        lay, pts, win, deal, fx = self.layout, self.points, self.win, self.deal, self.fanxing
        slots = {
            P.SEATS: lay.players, P.DEALER_CARDS: lay.dealer_cards,
            P.OTHER_CARDS: lay.other_cards, P.STOCK_LEN: lay.stock,
            P.THRESHOLD: win.threshold, P.PIAOHU: win.piaohu,
            P.QIANGZHAO: win.qiangzhao, P.DISCARD_WIN: win.discard_win,
            P.SANTI_MIN: deal.santi, P.WUKAN_MIN: deal.wukan,
            P.TI_COUNTS_AS_KAN: deal.ti_counts_as_kan,
            P.WUKAN_LIANGZHANG: deal.wukan_scope == "liangzhang",
            P.TWO_TI_EXTRA: deal.two_ti == "extra_card",
            P.DIHU_LIANGZHANG: deal.dihu == "liangzhang",
            P.FANXING: fx.enabled, P.FANXING_MATCH: MATCH_CODES[fx.match],
            P.FANXING_COUNT_ALL: fx.count == "all",
            P.FANXING_RETURN_ON_FOUR: fx.return_on_four, P.FANXING_WRAP: fx.wrap,
            P.PASSED_PENG_CHI: self.play.passed_peng_chi,
            P.ONLY_KAN_SKIP: self.play.only_kan_discard == "skip",
        }
        for name, small, big in _POINT_SLOTS:
            slots[small], slots[big] = getattr(pts, name)
        missing = sorted(set(range(P.N_PARAMS)) - set(slots))
        if missing:  # params.py gained an index that this module does not fill yet
            raise RuntimeError(f"variants.Variant.params does not fill params index {missing}")
        return tuple(int(slots[i]) for i in range(P.N_PARAMS))

    def with_threshold(self, threshold: int) -> Variant:
        """A copy with another 起胡 threshold (RULES.md §6) and its own ``rules_hash``.

        ``win.thresholds`` (the customary settings) is kept as is; any integer in
        0..MAX_POINTS is accepted, else `VariantError` (bool is rejected).
        """
        try:
            t = _convert(threshold, {"kind": "int", "lo": 0, "hi": MAX_POINTS})
        except _Want as want:
            raise VariantError(f"{self.key}: [win].threshold must be {want}, "
                               f"got {_show(threshold)}") from None
        new = dataclasses.replace(self, win=dataclasses.replace(self.win, threshold=t))
        return dataclasses.replace(new, rules_hash=hash_rules(new))

    def with_knobs(self, knobs: Mapping[str, Any]) -> Variant:
        """A copy with some knobs set otherwise (``{"settle.huangzhuang_dealer": -2, …}``:
        ``SECTION.KEY`` as in the TOML file), checked as a file is, with its own ``rules_hash``
        (``variants.with_knobs``; RULES.md §8). Raises `VariantError` naming the knob."""
        if not isinstance(knobs, Mapping):
            raise TypeError(f"knobs must be a mapping of SECTION.KEY to a value, not "
                            f"{type(knobs).__name__}")
        data = self.to_dict()
        path, _ = data.pop("path"), data.pop("rules_hash")
        where = f"{self.key} with " + ", ".join(f"{k}={_show(x)}" for k, x in knobs.items())
        for name, value in knobs.items():
            parts = name.split(".") if isinstance(name, str) else []
            if len(parts) < 2 or parts[0] not in SECTIONS:
                raise VariantError(f"{where}: unknown knob {_show(name)}: a knob is SECTION.KEY "
                                   f"with SECTION one of {', '.join(SECTIONS)}")
            table = data
            for i, part in enumerate(parts[:-1]):
                table = table.get(part)
                if not isinstance(table, dict):
                    raise VariantError(f"{where}: unknown knob {_show(name)}: "
                                       f"{'.'.join(parts[:i + 1])} is not a table")
            # an unknown last key is left for the checks to refuse, naming the known keys
            table[parts[-1]] = value
        return Variant.from_data(data, where, None if path is None else Path(path))

    @classmethod
    def from_data(cls, data: dict[str, Any], where: str, path: Path | None) -> Variant:
        """A `Variant` from a rule set's data in the TOML file's shape, every knob checked
        (``rulecheck``); ``where`` starts each error message. Raises `VariantError`."""
        v = cls(**build_fields(cls, data, where, None), path=path)
        check_together(v, where)
        return dataclasses.replace(v, rules_hash=hash_rules(v))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict in the TOML file's shape, plus ``path`` and ``rules_hash``."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = section_dict(value) if f.name in SECTIONS else _plain(value)
        out["path"] = None if self.path is None else str(self.path)
        return out


def _plain(x: Any) -> Any:
    return [_plain(i) for i in x] if isinstance(x, tuple) else x


def section_dict(section: Any) -> dict[str, Any]:
    """One rule section as a plain dict in the TOML file's shape (lists for tuples, a table for
    ``[mingtang.values]``)."""
    return {f.name: dict(getattr(section, f.name)) if f.metadata["kind"] == "named"
            else _plain(getattr(section, f.name)) for f in fields(section)}


def hash_rules(v: Variant) -> str:
    """``Variant.rules_hash``: the first 16 hex digits of the sha256 of the canonical JSON of the
    eight rule sections (RULES.md §8)."""
    rules = {name: section_dict(getattr(v, name)) for name in SECTIONS}
    text = json.dumps(rules, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
