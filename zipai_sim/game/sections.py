"""The schema of a variant's TOML file: its eight rule sections as frozen dataclasses (RULES.md §8).

One dataclass per section — ``[layout]`` (§2), ``[points]`` (§4, ``[small, big]`` 胡息 pairs),
``[win]`` (§3 pair rule, §5.2 priority, §6), ``[deal]`` (§6 instant wins, §8 second table),
``[play]`` (§5.3, §5.6 corners), ``[fanxing]`` (§7.3), ``[settle]`` (§7.1–§7.2) and
``[mingtang]`` (§7.4) — each field a knob whose metadata (``kind`` and its bounds or choices) says
how ``knobs.convert`` checks the TOML value; plus the bounds and names the knobs refer to and
`VariantError`. The loader (``variants``) fills them; ``ruleset.Variant`` holds one of each.

>>> SECTIONS["win"] is Win, Win.__dataclass_fields__["threshold"].metadata["hi"] == MAX_POINTS
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from zipai_sim.game import params as P

__all__ = [
    "DECK_SIZE", "MATCH_CODES", "MAX_POINTS", "MINGTANG_NAMES", "PRIORITY_STEPS", "SECTIONS",
    "Deal", "Fanxing", "Layout", "Mingtang", "Play", "Points", "Settle", "VariantError", "Win",
    "knob",
]

DECK_SIZE = 80  # RULES.md §1
MAX_POINTS = 1000  # bound on 胡息 knobs: far above any real table, far below int overflow
PRIORITY_STEPS = ("ti_wei", "hu", "pao_peng", "chi")  # RULES.md §5.2 claims on a shown card
MINGTANG_NAMES = (  # RULES.md §7.4; 自摸 lives in [settle] (zimo_multiplier, zimo_bonus_units)
    "honghu", "dahong", "dianhu", "wuhu", "duizihu", "shibada", "shibaxiao", "shiliuxiao",
    "haidi", "tianhu", "dihu",
)
# [fanxing].match → its params.FANXING_MATCH code (RULES.md §7.3: 本醒 上醒 下醒 跟醒)
#: the units of score ([settle].unit, RULES.md §7) and their Chinese names
UNIT_NAMES = {"duo": "舵", "tun": "囤", "pai": "排", "you": "油", "hu": "胡"}
MATCH_CODES = {"ben": P.MATCH_BEN, "shang": P.MATCH_SHANG, "xia": P.MATCH_XIA, "gen": P.MATCH_GEN}


class VariantError(ValueError):
    """An unknown variant name, an unreadable rule file, or a bad knob (RULES.md §8)."""


def knob(kind: str, **meta: Any) -> Any:
    """A dataclass field whose metadata says how the TOML value is checked (see `knobs.convert`)."""
    return field(metadata={"kind": kind, **meta})


_k = knob  # short, for the field declarations below


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
    match: str = _k("enum", choices=tuple(MATCH_CODES))  # 本醒 上醒 下醒 跟醒
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


# the rule sections of a Variant, in the TOML file's order (RULES.md §8)
SECTIONS = {"layout": Layout, "points": Points, "win": Win, "deal": Deal, "play": Play,
            "fanxing": Fanxing, "settle": Settle, "mingtang": Mingtang}
