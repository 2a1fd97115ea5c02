"""Rule variants: the shipped TOML rule files and the validated `Variant` (RULES.md §8).

A variant is data, never a code fork: one TOML file per variant in ``zipai_sim/rules/`` holds
every knob of RULES.md §4–§8 in the sections ``[layout]`` (§2), ``[points]`` (§4, ``[small, big]``
胡息 pairs), ``[win]`` (§6), ``[deal]`` (§6 instant wins, §8 second table), ``[play]`` (§5.3,
§5.6 corners), ``[fanxing]`` (§7.3),
``[settle]`` (§7.1–§7.2) and ``[mingtang]`` (§7.4). A user copies a file, changes knobs and loads
it by path; unknown keys, missing keys, wrong types and out-of-range values are `VariantError`
naming the file and the key.

>>> v = load_variant("guangxi-81")
>>> v.win.threshold, v.settle.unit, v.points.ti, v.deal.santi
(15, 'duo', (9, 12), 3)
>>> from zipai_sim import params
>>> len(v.params) == params.N_PARAMS, v.params[params.THRESHOLD]
(True, 15)
>>> v.with_threshold(20).params[params.THRESHOLD]
20
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tomllib
from dataclasses import dataclass, field, fields
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Any

import polars

from zipai_sim.game import params as P
from zipai_sim.game.knobs import Want as _Want
from zipai_sim.game.knobs import convert as _convert
from zipai_sim.game.knobs import show as _show

__all__ = [
    "Deal", "Fanxing", "Layout", "Mingtang", "Play", "Points", "Settle", "Variant", "VariantError",
    "Win",
    "describe", "list_variants", "load_variant", "read_variant_file", "variants_table",
]

DECK_SIZE = 80  # RULES.md §1
MAX_VARIANT_BYTES = 1 << 20  # a variant TOML file read at most; the shipped ones are ~4 KiB
MAX_POINTS = 1000  # bound on 胡息 knobs: far above any real table, far below int overflow
PRIORITY_STEPS = ("ti_wei", "hu", "pao_peng", "chi")  # RULES.md §5.2 claims on a shown card
MINGTANG_NAMES = (  # RULES.md §7.4; 自摸 lives in [settle] (zimo_multiplier, zimo_bonus_units)
    "honghu", "dahong", "dianhu", "wuhu", "duizihu", "shibada", "shibaxiao", "shiliuxiao",
    "haidi", "tianhu", "dihu",
)
_MATCH_CODES = {"ben": P.MATCH_BEN, "shang": P.MATCH_SHANG, "xia": P.MATCH_XIA, "gen": P.MATCH_GEN}


class VariantError(ValueError):
    """An unknown variant name, an unreadable rule file, or a bad knob (RULES.md §8)."""


def _k(kind: str, **meta: Any) -> Any:
    """A dataclass field whose metadata says how the TOML value is checked (see `_convert`)."""
    return field(metadata={"kind": kind, **meta})


@dataclass(frozen=True)
class Layout:
    """``[layout]``: seats and deal sizes (RULES.md §2); the counts sum to 80 cards."""

    players: int = _k("int", choices=(3, 4))  # active players
    sitter: bool = _k("bool")  # 数信: a 4th, card-less seat (3-player tables only)
    dealer_cards: int = _k("int", lo=1, hi=DECK_SIZE)  # 亮张 included
    other_cards: int = _k("int", lo=1, hi=DECK_SIZE)
    stock: int = _k("int", lo=0, hi=DECK_SIZE)


@dataclass(frozen=True)
class Points:
    """``[points]``: 胡息 per group as ``(small, big)`` (RULES.md §4; 碰 split by colour)."""

    peng_black: tuple[int, int] = _k("pair")
    peng_red: tuple[int, int] = _k("pair")
    kan: tuple[int, int] = _k("pair")
    wei: tuple[int, int] = _k("pair")
    chou_wei: tuple[int, int] = _k("pair")
    pao: tuple[int, int] = _k("pair")
    ti: tuple[int, int] = _k("pair")
    yi_er_san: tuple[int, int] = _k("pair")
    er_qi_shi: tuple[int, int] = _k("pair")


@dataclass(frozen=True)
class Win:
    """``[win]``: what wins (RULES.md §3 pair rule, §5.2 priority, §6)."""

    threshold: int = _k("int", lo=0, hi=MAX_POINTS)  # 起胡
    thresholds: tuple[int, ...] = _k("ints")  # customary settings, for sweeps
    piaohu: bool = _k("bool")  # a complete hand with 0 胡息 also wins
    discard_win: bool = _k("bool")
    choupai_win: bool = _k("bool")  # a 臭 card may still be won on
    qiangzhao: bool = _k("bool")  # 抢招和
    pair_rule: str = _k("enum", choices=("one-pair-with-four",))
    kan_locked: bool = _k("bool", only=True)
    priority: tuple[str, ...] = _k("perm", choices=PRIORITY_STEPS)  # highest first


@dataclass(frozen=True)
class Deal:
    """``[deal]``: deal-time rules (RULES.md §6; §8 second table). 0 turns a shape off."""

    santi: int = _k("int", lo=0, hi=5)  # instant win with at least this many 提
    wukan: int = _k("int", lo=0, hi=7)  # instant win with at least this many 坎
    ti_counts_as_kan: bool = _k("bool")
    wukan_scope: str = _k("enum", choices=("all", "liangzhang"))
    two_ti: str = _k("enum", choices=("no_discard", "extra_card"))
    dihu: str = _k("enum", choices=("liangzhang", "first_discard"))


@dataclass(frozen=True)
class Play:
    """``[play]``: corners of the play rules a region decides (RULES.md §5.3, §5.6)."""

    # a passed 碰 bars later 碰 of that kind but still allows 吃 it (大字牌, seed 004 篇4
    # "若是另外一玩家再打出，则不可以碰，但可以吃"); false: a passed 碰 is 臭 for 吃 and 碰 (§5.6)
    passed_peng_chi: bool = _k("bool")
    # a forced 偎/提/跑 owes a discard and only 坎 remain in hand: "skip" the discard (the
    # debt stays; seed 001 "不能拆开 … 也不能打出去") or "break_kan" (discard one card of a 坎)
    only_kan_discard: str = _k("enum", choices=("skip", "break_kan"))


@dataclass(frozen=True)
class Fanxing:
    """``[fanxing]``: 翻信 / 翻醒 after a win (RULES.md §7.3)."""

    enabled: bool = _k("bool")
    match: str = _k("enum", choices=tuple(_MATCH_CODES))  # 本醒 上醒 下醒 跟醒
    count: str = _k("enum", choices=("all", "hand"))
    return_on_four: bool = _k("bool")
    wrap: bool = _k("bool")
    unit_per_match: int = _k("int", lo=0)  # settlement units per matching card
    sitter_max_shares: int = _k("int", lo=0)


@dataclass(frozen=True)
class Settle:
    """``[settle]``: units and payments (RULES.md §7.1–§7.2).

    Units of a win: ``unit_base + ⌊(胡 − t) / hu_per_unit⌋`` with ``t = threshold`` when
    ``unit_from_threshold`` else 0; exactly ``kahu_hu`` 胡 (卡胡) counts ``kahu_units``; a 飘胡
    counts ``piaohu_units``; plus ``red_bonus`` units for the listed red counts; with at least
    ``red_floor_from`` red cards the hand counts at least ``red_floor_units``; 自摸 adds
    ``zimo_bonus_units`` and multiplies by ``zimo_multiplier``. 0 turns a rule off.
    """

    unit: str = _k("enum", choices=("duo", "tun", "pai", "you", "hu"))  # 舵 囤 排 油 胡
    hu_per_unit: int = _k("int", lo=1)
    unit_base: int = _k("int", lo=0)
    unit_from_threshold: bool = _k("bool")
    kahu_hu: int = _k("int", lo=0)
    kahu_units: int = _k("int", lo=0)
    piaohu_units: int = _k("int", lo=0)
    red_bonus: tuple[tuple[int, int], ...] = _k("red_bonus")  # ((red count, units), ...)
    red_floor_from: int = _k("int", lo=0, hi=24)
    red_floor_units: int = _k("int", lo=0)
    zimo_bonus_units: int = _k("int", lo=0)
    zimo_multiplier: int = _k("int", lo=1)
    zimo_multiplies_fanxing: bool = _k("bool")
    fangpao: str = _k("enum", choices=("pays_all", "double", "triple", "none"))
    # a win on another player's drawn card: "zimo" counts it as 自摸 (seed 004 篇4), "plain":
    # every other player pays the amount without the 自摸 bonus / multiplier
    drawn_win: str = _k("enum", choices=("zimo", "plain"))
    huangzhuang_dealer: int = _k("int")  # units the dealer gets on 荒庄 (negative: pays)
    huangzhuang_others: int = _k("int")
    dealer_passes_after_huangzhuang: int = _k("int", lo=0)  # 0: never
    next_dealer: str = _k("enum", choices=("winner",))


@dataclass(frozen=True)
class Mingtang:
    """``[mingtang]``: hand-wide 名堂 (RULES.md §7.4) as 番 that multiply the units.

    ``values`` holds ``(name, 番)`` for the 名堂 that apply (names in `MINGTANG_NAMES`); with
    ``combine = "add"`` the 番 of all matching 名堂 add up, with ``"multiply"`` they multiply; no
    名堂 means ×1. ``honghu_per_extra_red``: 红胡 gains this many 番 per red card beyond 10.
    """

    combine: str = _k("enum", choices=("add", "multiply"))
    honghu_per_extra_red: int = _k("int", lo=0)
    values: tuple[tuple[str, int], ...] = _k("named", choices=MINGTANG_NAMES, lo=1)


_POINT_SLOTS = (  # [points] knob → its small and big params index
    ("peng_black", P.PENG_SMALL_BLACK, P.PENG_BIG_BLACK), ("kan", P.KAN_SMALL, P.KAN_BIG),
    ("peng_red", P.PENG_SMALL_RED, P.PENG_BIG_RED), ("wei", P.WEI_SMALL, P.WEI_BIG),
    ("chou_wei", P.CHOUWEI_SMALL, P.CHOUWEI_BIG), ("pao", P.PAO_SMALL, P.PAO_BIG),
    ("ti", P.TI_SMALL, P.TI_BIG), ("yi_er_san", P.YIERSAN_SMALL, P.YIERSAN_BIG),
    ("er_qi_shi", P.ERQISHI_SMALL, P.ERQISHI_BIG),
)
_SECTION = {"kind": "section"}  # field metadata of a Variant's rule sections
_SECTIONS = {"layout": Layout, "points": Points, "win": Win, "deal": Deal, "play": Play,
             "fanxing": Fanxing, "settle": Settle, "mingtang": Mingtang}


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
            P.FANXING: fx.enabled, P.FANXING_MATCH: _MATCH_CODES[fx.match],
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
        return dataclasses.replace(new, rules_hash=_hash(new))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict in the TOML file's shape, plus ``path`` and ``rules_hash``."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = _section_dict(value) if f.name in _SECTIONS else _plain(value)
        out["path"] = None if self.path is None else str(self.path)
        return out


def _build_fields(cls: type, table: Any, where: str, sec: str | None) -> dict[str, Any]:
    """Validate one TOML table against ``cls``'s fields (``sec=None``: the top level)."""
    label = "" if sec is None else f"[{sec}]"
    if not isinstance(table, dict):
        raise VariantError(f"{where}: {label} must be a table, got {_show(table)}")
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
            out[name] = _SECTIONS[name](**_build_fields(_SECTIONS[name], table[name], where, name))
            continue
        if name not in table:
            raise VariantError(f"{where}: missing key '{dotted}'")
        try:
            out[name] = _convert(table[name], m)
        except _Want as want:
            raise VariantError(f"{where}: {dotted} must be {want}, got {_show(table[name])}") \
                from None
    return out


def _check_together(v: Variant, where: str) -> None:
    """Rules that tie knobs together (RULES.md §2, §6, §7.2); raises `VariantError`."""
    lay, o, fangpao = v.layout, v.layout.other_cards, _show(v.settle.fangpao)
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


def _plain(x: Any) -> Any:
    return [_plain(i) for i in x] if isinstance(x, tuple) else x


def _section_dict(section: Any) -> dict[str, Any]:
    return {f.name: dict(getattr(section, f.name)) if f.metadata["kind"] == "named"
            else _plain(getattr(section, f.name)) for f in fields(section)}


def _hash(v: Variant) -> str:
    rules = {name: _section_dict(getattr(v, name)) for name in _SECTIONS}
    text = json.dumps(rules, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _from_data(data: dict[str, Any], where: str, path: Path | None) -> Variant:
    v = Variant(**_build_fields(Variant, data, where, None), path=path)
    _check_together(v, where)
    return dataclasses.replace(v, rules_hash=_hash(v))


def _parse(text: str, where: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(f"{where}: not valid TOML: {exc}") from None


@cache
def _shipped() -> dict[str, Any]:
    folder = resources.files("zipai_sim.game") / "rules"
    return {r.name.removesuffix(".toml"): r for r in folder.iterdir() if r.name.endswith(".toml")}


@cache
def _load_shipped(key: str) -> Variant:
    res = _shipped()[key]
    v = _from_data(_parse(res.read_text(encoding="utf-8"), res.name), res.name, Path(str(res)))
    if v.key != key:
        raise VariantError(
            f"{res.name}: key must be {_show(key)} (the file name), got {_show(v.key)}")
    return v


def list_variants() -> list[str]:
    """The keys of the shipped variants (RULES.md §8), sorted."""
    return sorted(_shipped())


def read_variant_file(path: str | os.PathLike[str]) -> str:
    """The text of a variant TOML file: a regular file of at most ``MAX_VARIANT_BYTES`` (1 MiB),
    read without blocking (``files.read_small_file``), or VariantError naming the file."""
    from zipai_sim.game.files import read_small_file

    where = os.fspath(path)
    try:
        return read_small_file(where, MAX_VARIANT_BYTES)
    except UnicodeDecodeError as exc:
        raise VariantError(f"{where}: cannot read the variant file: not UTF-8 text "
                           f"({exc.reason})") from None
    except ValueError as exc:  # not a regular file, or too large: "PATH is …"
        raise VariantError(f"{where}: the variant file "
                           f"{str(exc).removeprefix(where).strip()}") from None
    except OSError as exc:
        raise VariantError(f"{where}: cannot read the variant file: {exc}") from None


def load_variant(name_or_path: str | os.PathLike[str] | Variant) -> Variant:
    """Load and validate a variant (RULES.md §8).

    ``name_or_path``: a shipped key (see `list_variants`), a path to a TOML file in the
    shipped schema (a ``str`` counts as a path when it ends in ``.toml`` or holds a ``/``),
    or a `Variant`, returned as is. Shipped variants are cached.

    Raises:
        VariantError: unknown variant name (the message lists the known keys); missing file;
            invalid TOML; unknown, missing, wrongly typed (a bool where an integer is wanted
            included) or out-of-range keys, unknown enum strings, a deal that does not add up
            to 80 cards; a path that is not a regular file (a folder, FIFO, device) or is
            over ``MAX_VARIANT_BYTES`` (1 MiB), refused before it is read. The message starts
            with the file name and names the key, e.g. ``my.toml: [win].threshold must be an
            integer ≥ 0, got -3``.
        TypeError: ``name_or_path`` is of another type.
    """
    if isinstance(name_or_path, Variant):
        return name_or_path
    if isinstance(name_or_path, str) and name_or_path in _shipped():
        return _load_shipped(name_or_path)
    if isinstance(name_or_path, os.PathLike) or (
        isinstance(name_or_path, str) and (name_or_path.endswith(".toml") or "/" in name_or_path
                                           or os.sep in name_or_path)
    ):
        path = Path(name_or_path)
        where = os.fspath(name_or_path)
        text = read_variant_file(where)
        return _from_data(_parse(text, where), where, path)
    if isinstance(name_or_path, str):
        raise VariantError(f"unknown variant {_show(name_or_path)}; known variants: "
                           f"{', '.join(list_variants())} (or give a path to a .toml file)")
    raise TypeError(f"load_variant takes a variant key, a path or a Variant, "
                    f"not {type(name_or_path).__name__}")


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
        v = _load_shipped(key)
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
    for sec in _SECTIONS:
        lines.append(f"[{sec}]")
        lines += [f"  {k} = {_show(val)}" for k, val in d[sec].items()]
    return "\n".join(lines)
