"""名堂: the hand-wide patterns that multiply a win's units (RULES.md §7.4), and which of them a
hand earns under the variant's ``[mingtang]`` knobs (RULES.md §8). How their 番 combine and
multiply the units is step 4 of ``settle``.
"""

from __future__ import annotations

from zipai_sim.game.hand_result import HandResult
from zipai_sim.game.sections import MINGTANG_NAMES, Mingtang

__all__ = ["mingtang_of"]


def mingtang_of(m: Mingtang, result: HandResult, reds: int, bigs: int,
                smalls: int) -> tuple[tuple[str, int], ...]:
    """The 名堂 of RULES.md §7.4 that the hand earns, as ``(name, 番)`` in `MINGTANG_NAMES` order.

    红胡 ≥ 10 reds (+ ``honghu_per_extra_red`` per red beyond 10), 大红 ≥ 13 (replaces 红胡
    when both are listed), 点胡 exactly 1 red, 乌胡 no red, 对子胡 ``all_pungs``, 十八大 ≥ 18
    big cards, 十八小 ≥ 18 small, 十六小 ≥ 16 small (replaced by 十八小 when both are listed and
    it holds), 海底 / 天胡 / 地胡 from the flags. Only names in ``m.values`` count.

    >>> from zipai_sim.game.variants import load_variant
    >>> r = HandResult(seats=3, dealer=0, winner=1, huxi=21, how="zimo")
    >>> mingtang_of(load_variant("changde-paohuzi").mingtang, r, reds=0, bigs=12, smalls=9)
    (('wuhu', 8),)
    """
    values = dict(m.values)
    hits = {
        "honghu": reds >= 10 and not ("dahong" in values and reds >= 13),
        "dahong": reds >= 13, "dianhu": reds == 1, "wuhu": reds == 0,
        "duizihu": result.all_pungs, "shibada": bigs >= 18, "shibaxiao": smalls >= 18,
        "shiliuxiao": smalls >= 16 and not ("shibaxiao" in values and smalls >= 18),
        "haidi": result.haidi, "tianhu": result.tianhu, "dihu": result.dihu,
    }
    out = []
    for name in MINGTANG_NAMES:
        if name in values and hits[name]:
            extra = m.honghu_per_extra_red * (reds - 10) if name == "honghu" else 0
            out.append((name, values[name] + extra))
    return tuple(out)
