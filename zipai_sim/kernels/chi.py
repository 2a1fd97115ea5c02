"""吃 with 比 (下比/下伙) for the numba play engine: the twin of ``zipai_sim.play.chi``.

The options come out in exactly the order ``play.chi.chi_options`` lists them (the random policy
indexes them, the greedy one breaks ties by that order), with the same de-duplication.

A 3-card group is one int: ``a * 400 + b * 20 + c`` for its sorted kinds ``a <= b <= c``, so
comparing codes compares the sorted tuples the reference sorts. An option is a row
``[the 吃 group, 比 group, 比 group]`` of ``cs[:, 0:3]``, the 比 groups sorted and padded with
``NO_GROUP``. Hands are packed counts (3 bits per kind, ``kernels.packed``), so the search
copies no arrays.

Why the search is two levels deep: ``chi_options`` refuses a card held 3 or 4 times, so the player
holds at most two more X; every 比 group holds at least one X, so at most two 比 groups are laid.
"""

import numpy as np
from numba import njit

NO_GROUP = -1
MAX_GW = 6  # groups that contain a kind: ≤ 3 runs + 二七十 + 2 绞
MAX_BI = MAX_GW + MAX_GW * MAX_GW  # 比 lists of one card's _bi: one group, or two
MAX_CHI = MAX_GW * MAX_GW * MAX_GW  # bound before de-duplication: 吃 group × two 比 groups
CHI_COLS = 10  # chi scratch row: 0..2 option, 3..5 its sorted key, 6..7 a 比 list, 8..9 its key


@njit(cache=True, _nrt=False, inline="always")
def gcode(a, b, c):
    """Code of the group with sorted kinds ``a <= b <= c``."""
    return a * 400 + b * 20 + c


@njit(cache=True, _nrt=False, inline="always")
def gcard(code, i):
    """Kind ``i`` (0..2) of a group code, in sorted order."""
    if i == 0:
        return code // 400
    if i == 1:
        return (code // 20) % 20
    return code % 20


@njit(cache=True, _nrt=False, inline="always")
def group_at(x, i):
    """Group ``i`` of ``play.chi.groups_with(x)`` (runs by start, 二七十, then the two 绞), or
    NO_GROUP past the last."""
    size = (x // 10) * 10
    v = x % 10
    lo = v - 2 if v >= 2 else 0
    hi = min(7, v)
    nr = hi - lo + 1
    if i < nr:
        st = size + lo + i
        return gcode(st, st + 1, st + 2)
    i -= nr
    if v == 1 or v == 6 or v == 9:
        if i == 0:
            return gcode(size + 1, size + 6, size + 9)
        i -= 1
    if i == 0:
        return gcode(x, x, x + 10) if x < 10 else gcode(x - 10, x, x)
    if i == 1:
        return gcode(x, x + 10, x + 10) if x < 10 else gcode(x - 10, x - 10, x)
    return NO_GROUP


def _group_tables() -> tuple[np.ndarray, np.ndarray]:
    """``group_at`` for every kind and index as tables: codes ``int64[20, MAX_GW]`` and their
    sorted kinds ``int64[20, MAX_GW, 3]`` (NO_GROUP / -1 past the last), so the 吃 search
    decodes no group codes."""
    codes = np.full((20, MAX_GW), NO_GROUP, np.int64)
    kinds = np.full((20, MAX_GW, 3), -1, np.int64)
    for x in range(20):
        for i in range(MAX_GW):
            g = group_at.py_func(x, i)
            if g == NO_GROUP:
                break
            codes[x, i] = g
            kinds[x, i] = (g // 400, (g // 20) % 20, g % 20)
    return codes, kinds


GROUPS, GROUP_KINDS = _group_tables()


@njit(cache=True, _nrt=False, inline="always")
def count(pk, k):
    """Count of kind ``k`` in a packed hand (3 bits per kind, ``kernels.packed``)."""
    return (pk >> (3 * k)) & 7


@njit(cache=True, _nrt=False, inline="always")
def take_at(src, x, i, skip):
    """The packed hand ``src`` less the cards of group ``GROUPS[x, i]`` (less one copy of
    ``skip``, -1 for none), free cards only (a kind held 3+ times in ``src`` is locked, seed 001
    打牌规则 4); -1 when impossible (``play.chi._take``)."""
    dst = src
    for t in range(3):
        k = GROUP_KINDS[x, i, t]
        if k == skip:
            skip = -1
            continue
        if count(dst, k) <= 0 or count(src, k) >= 3:
            return -1
        dst -= np.int64(1) << (3 * k)
    return dst


@njit(cache=True, _nrt=False, inline="always")
def chi_possible(pk, x):
    """Necessary test for ``chi_options`` (packed hand ``pk``): some group with ``x`` can be
    made from free hand cards. False means there is no option."""
    if count(pk, x) >= 3:
        return False
    for i in range(MAX_GW):
        if GROUPS[x, i] == NO_GROUP:
            return False
        if take_at(pk, x, i, x) >= 0:
            return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def _sort3(a, b, c):
    """(a, b, c) sorted ascending, NO_GROUP (-1) entries moved to the end."""
    big = 1 << 40
    x = a if a >= 0 else big
    y = b if b >= 0 else big
    z = c if c >= 0 else big
    if x > y:
        x, y = y, x
    if y > z:
        y, z = z, y
    if x > y:
        x, y = y, x
    if x == big:
        x = -1
    if y == big:
        y = -1
    if z == big:
        z = -1
    return x, y, z


@njit(cache=True, _nrt=False, inline="always")
def _add_bi(cs, nb, g1, g2):
    """Append the 比 list ``[g1, g2]`` (g2 may be NO_GROUP) to ``cs[:, 6:10]`` unless the same
    groups are already there (``_bi``'s ``seen``); returns the new count."""
    if g2 == NO_GROUP or g1 <= g2:
        k0, k1 = g1, g2
    else:
        k0, k1 = g2, g1
    for i in range(nb):
        if cs[i, 8] == k0 and cs[i, 9] == k1:
            return nb
    cs[nb, 6] = g1
    cs[nb, 7] = g2
    cs[nb, 8] = k0
    cs[nb, 9] = k1
    return nb + 1


@njit(cache=True, _nrt=False)
def chi_options(pk, x, cs):
    """Every legal 吃 of card ``x`` for the packed hand ``pk`` (``kernels.packed`` layout; 坎
    inside, locked) into ``cs[:, 0:3]`` (the 吃 group, then its 比 groups sorted,
    NO_GROUP-padded), in ``play.chi.chi_options`` order; returns how many.
    Scratch: ``cs: int64[MAX_CHI, CHI_COLS]``."""
    if count(pk, x) >= 3:
        return 0
    n = 0
    for a in range(MAX_GW):
        g = GROUPS[x, a]
        if g == NO_GROUP:
            break
        rest = take_at(pk, x, a, x)
        if rest < 0:
            continue
        if count(rest, x) == 0:  # no 比: the option (g) differs from every one before it
            cs[n, 0] = g
            cs[n, 1] = NO_GROUP
            cs[n, 2] = NO_GROUP
            cs[n, 3] = g
            cs[n, 4] = NO_GROUP
            cs[n, 5] = NO_GROUP
            n += 1
            continue
        # _bi(rest, x): every way to lay the X still held, de-duplicated by sorted groups
        nb = 0
        for b in range(MAX_GW):
            g1 = GROUPS[x, b]
            if g1 == NO_GROUP:
                break
            t1 = take_at(rest, x, b, -1)
            if t1 < 0:
                continue
            if count(t1, x) == 0:
                nb = _add_bi(cs, nb, g1, NO_GROUP)
                continue
            for c in range(MAX_GW):
                g2 = GROUPS[x, c]
                if g2 == NO_GROUP:
                    break
                t2 = take_at(t1, x, c, -1)
                if t2 < 0:
                    continue
                if count(t2, x) != 0:  # cannot happen: at most two X are left (module doc)
                    continue
                nb = _add_bi(cs, nb, g1, g2)
        # the options of this 吃 group, in _bi order; one per distinct set of laid groups
        for i in range(nb):
            b0 = cs[i, 6]
            b1 = cs[i, 7]
            k0, k1, k2 = _sort3(g, b0, b1)
            dup = False
            for r in range(n):
                if cs[r, 3] == k0 and cs[r, 4] == k1 and cs[r, 5] == k2:
                    dup = True
                    break
            if dup:
                continue
            s0, s1, _ = _sort3(b0, b1, NO_GROUP)
            cs[n, 0] = g
            cs[n, 1] = s0
            cs[n, 2] = s1
            cs[n, 3] = k0
            cs[n, 4] = k1
            cs[n, 5] = k2
            n += 1
    return n


def pack_hand(hand) -> int:
    """Packed counts of a count vector (``kernels.packed`` layout)."""
    return sum(int(c) << (3 * k) for k, c in enumerate(hand))


def chi_options_py(hand, x):
    """``chi_options`` as the reference's Python list of ``(group, 比 groups)`` (for tests)."""
    cs = np.zeros((MAX_CHI, CHI_COLS), np.int64)
    n = chi_options(np.int64(pack_hand(hand)), int(x), cs)
    out = []
    for r in range(n):
        grp = tuple(int(gcard(cs[r, 0], i)) for i in range(3))
        bi = tuple(tuple(int(gcard(cs[r, c], i)) for i in range(3))
                   for c in (1, 2) if cs[r, c] != NO_GROUP)
        out.append((grp, bi))
    return out
