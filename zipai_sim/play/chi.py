"""吃 with 比 (下比/下伙): which 吃 a player may make on a card (RULES.md §5.4–§5.5).

A 吃 takes the card X into a run, 二七十 or 绞 with two of the player's free hand cards (坎 are
never broken: seed 004 篇3 "手中有3张或4张相同的牌不能拆牌来吃"). If the player still holds X
afterwards, every such X must be laid down at once in another such group with hand cards (比;
seeds 000 ⑴, 001 下比, 004 下伙); where it cannot be, the 吃 is not allowed. A 比 group may hold
two X (e.g. 一一壹), which lays both down.
"""

from __future__ import annotations

Group3 = tuple[int, int, int]


def groups_with(x: int) -> list[Group3]:
    """Every 3-card group shape that contains kind ``x``: runs of one size, 二七十/贰柒拾, 绞."""
    size, v = (x // 10) * 10, x % 10
    out: list[Group3] = []
    for start in range(max(0, v - 2), min(7, v) + 1):
        out.append((size + start, size + start + 1, size + start + 2))
    if v in (1, 6, 9):
        out.append((size + 1, size + 6, size + 9))
    twin = x + 10 if x < 10 else x - 10
    out.append(tuple(sorted((x, x, twin))))
    out.append(tuple(sorted((x, twin, twin))))
    return out


def _take(hand: list[int], cards: list[int]) -> list[int] | None:
    """``hand`` less ``cards`` using free cards only (counts ≤ 2 are free), or None."""
    h = list(hand)
    for k in cards:
        if h[k] <= 0 or hand[k] >= 3:
            return None
        h[k] -= 1
    return h


def _bi(hand: list[int], x: int) -> list[list[Group3]]:
    """Ways to lay every X left in ``hand`` into groups with hand cards (each a list of groups)."""
    if hand[x] == 0:
        return [[]]
    out = []
    seen = set()
    for g in groups_with(x):
        rest = _take(hand, list(g))
        if rest is None:
            continue
        for more in _bi(rest, x):
            key = tuple(sorted([g] + more))
            if key not in seen:
                seen.add(key)
                out.append([g] + more)
    return out


def chi_options(hand: list[int], x: int) -> list[tuple[Group3, tuple[Group3, ...]]]:
    """All legal 吃 of card ``x`` for a player holding ``hand`` (counts, 坎 inside locked):
    ``(the 吃 group, the 比 groups)`` each, without duplicates. Empty if none is allowed."""
    if hand[x] >= 3:
        return []
    out, seen = [], set()
    for g in groups_with(x):
        cards = list(g)
        cards.remove(x)
        rest = _take(hand, cards)
        if rest is None:
            continue
        for bi in _bi(rest, x):
            laid = tuple(sorted([g] + bi))  # the same cards laid as the same groups: one option
            if laid not in seen:
                seen.add(laid)
                out.append((g, tuple(sorted(bi))))
    return out


def leaves_discard(hand: list[int], c: int, option: tuple) -> bool:
    """Whether 吃 ``option`` = (group, 比 groups) of card ``c`` leaves a free card (held once or
    twice, not part of a 坎) to discard: RULES.md §5.3 "a claim must leave a discard"."""
    h = list(hand)
    group, bi = option
    taken = list(group)
    taken.remove(c)
    for k in taken + [k for g in bi for k in g]:
        h[k] -= 1
    return any(0 < n < 3 for n in h)
