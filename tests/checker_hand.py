"""The checker's own cards, groups and 胡息 search (RULES.md §1, §3, §4, §6), for
``rules_checker``: written from RULES.md alone, sharing nothing with the engines' hand code."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

SMALL = "一二三四五六七八九十"
BIG = "壹贰叁肆伍陆柒捌玖拾"
RED = frozenset({1, 6, 9, 11, 16, 19})  # 二七十 贰柒拾 (§1)


def name(k: int) -> str:
    return SMALL[k] if k < 10 else BIG[k - 10]


def names(cards) -> str:
    return "".join(name(k) for k in cards)


def counts(text: str) -> list[int]:
    """Count vector of a hand written in Chinese numerals (simplified), e.g. "一二三拾"."""
    c = [0] * 20
    for ch in text:
        if ch.isspace():
            continue
        c[SMALL.index(ch) if ch in SMALL else BIG.index(ch) + 10] += 1
    return c


# --- §3 groups ----------------------------------------------------------------------------------

def _all_groups() -> list[tuple[int, int, int]]:
    """Every free 3-card group (§3): runs of one size, 二七十 of one size, 绞 (two of one size
    and one of the other, same value). Three identical cards are not a free group: they are a
    坎 (locked) or a 碰/偎 made with an incoming card."""
    out = []
    for size in (0, 10):
        for v in range(8):
            out.append((size + v, size + v + 1, size + v + 2))
        out.append((size + 1, size + 6, size + 9))
    for v in range(10):
        out.append((v, v, v + 10))
        out.append((v, v + 10, v + 10))
    return out


ALL_GROUPS = _all_groups()
GROUPS_BY_LOW: dict[int, list[tuple[int, int, int]]] = {}
GROUPS_WITH: dict[int, list[tuple[int, int, int]]] = {}
for _g in ALL_GROUPS:
    GROUPS_BY_LOW.setdefault(_g[0], []).append(_g)
    for _k in set(_g):
        GROUPS_WITH.setdefault(_k, []).append(_g)


def is_group(cards) -> bool:
    return tuple(sorted(cards)) in set(ALL_GROUPS)


def run_points(v, g) -> int:
    """§4: 一二三 / 壹贰叁 and 二七十 / 贰柒拾 score; other runs and 绞 score 0."""
    s = tuple(sorted(g))
    size = s[0] // 10 * 10
    big = 1 if size else 0
    if s == (size, size + 1, size + 2):
        return v.points.yi_er_san[big]
    if s == (size + 1, size + 6, size + 9):
        return v.points.er_qi_shi[big]
    return 0


def same_points(v, what: str, k: int) -> int:
    """§4 points of three/four of a kind ``k``: peng (by colour: 大字牌 table), kan, wei,
    chouwei, pao, ti."""
    big = 1 if k >= 10 else 0
    if what == "peng":
        return (v.points.peng_red if k in RED else v.points.peng_black)[big]
    field_ = {"kan": "kan", "wei": "wei", "chouwei": "chou_wei", "pao": "pao", "ti": "ti"}[what]
    return getattr(v.points, field_)[big]


def group_points(v, grp: tuple[str, tuple[int, ...]]) -> int:
    what, cards = grp
    return run_points(v, cards) if what == "chi" else same_points(v, what, cards[0])


# --- §3/§4 the 胡息 search ----------------------------------------------------------------------

@lru_cache(maxsize=1 << 20)
def best_free(free: tuple[int, ...], need_pair: bool, rp: tuple[int, int, int, int]) -> int:
    """Best 胡息 of the free cards ``free`` (counts) split into free groups, with exactly one
    pair when ``need_pair`` (§3 pair rule); -1 when impossible. ``rp``: (一二三 small, big,
    二七十 small, big) points."""
    k = next((i for i in range(20) if free[i]), -1)
    if k < 0:
        return -1 if need_pair else 0
    best = -1
    c = list(free)
    if need_pair and c[k] >= 2:
        c[k] -= 2
        best = max(best, best_free(tuple(c), False, rp))
        c[k] += 2
    for g in GROUPS_BY_LOW.get(k, ()):
        need = Counter(g)
        if any(c[x] < n for x, n in need.items()):
            continue
        for x, n in need.items():
            c[x] -= n
        r = best_free(tuple(c), need_pair, rp)
        for x, n in need.items():
            c[x] += n
        if r >= 0:
            size = k // 10 * 10
            big = 1 if size else 0
            pts = 0
            if g == (size, size + 1, size + 2):
                pts = rp[big]
            elif g == (size + 1, size + 6, size + 9):
                pts = rp[2 + big]
            best = max(best, r + pts)
    return best


def hand_huxi(v, hand, extra_free=(), table_points: int = 0, table_fours: int = 0) -> int:
    """Best 胡息 of a complete hand (-1: not complete): ``hand`` counts with 坎 (3) and 提 (4)
    locked, ``extra_free`` kinds added as free cards (an incoming card that joins a group),
    plus table groups worth ``table_points`` holding ``table_fours`` four-card groups.
    The pair is owed exactly when the player holds a four-card group (§3)."""
    locked = 0
    q = table_fours
    free = [0] * 20
    for k, n in enumerate(hand):
        if n == 3:
            locked += same_points(v, "kan", k)
        elif n == 4:
            locked += same_points(v, "ti", k)
            q += 1
        elif n:
            free[k] = n
    for k in extra_free:
        free[k] += 1
    need_pair = q >= 1
    if sum(free) % 3 != (2 if need_pair else 0):
        return -1
    rp = (*v.points.yi_er_san, *v.points.er_qi_shi)
    r = best_free(tuple(free), need_pair, rp)
    return -1 if r < 0 else r + locked + table_points


def wins(v, hx: int) -> bool:
    """§6 threshold (起胡), or 飘胡 (0 胡息) where the variant has it."""
    return hx >= 0 and (hx >= v.win.threshold or (v.win.piaohu and hx == 0))


# --- variant knobs this checker reads ------------------------------------------------------------

def passed_peng_allows_chi(v) -> bool:
    """§5.6 大字牌 knob: a passed 碰 still allows 吃 of later copies."""
    return bool(getattr(getattr(v, "play", None), "passed_peng_chi", v.key == "guangxi-dazipai"))


def only_kan_discard(v) -> str:
    """§5.3 corner knob: a forced intake owes a discard and only 坎 remain in hand: "skip" (no
    discard, the debt stays) or "break_kan" (a 坎 card is discarded)."""
    return str(getattr(getattr(v, "play", None), "only_kan_discard", "skip"))
