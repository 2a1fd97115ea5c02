"""吃 with 比 (下比/下伙) for the numba play engine: the twin of ``zipai_sim.play.chi``.

The options come out in exactly the order ``play.chi.chi_options`` lists them (the random policy
indexes them, the greedy one breaks ties by that order), with the same de-duplication.

A 3-card group is one int: ``a * 400 + b * 20 + c`` for its sorted kinds ``a <= b <= c``, so
comparing codes compares the sorted tuples the reference sorts. An option is a row
``[the 吃 group, 比 group, 比 group]`` of ``opts: int64[MAX_CHI, 3]``, the 比 groups sorted and
padded with ``NO_GROUP``.

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


@njit(cache=True, inline="always")
def gcode(a, b, c):
    """Code of the group with sorted kinds ``a <= b <= c``."""
    return a * 400 + b * 20 + c


@njit(cache=True, inline="always")
def gcard(code, i):
    """Kind ``i`` (0..2) of a group code, in sorted order."""
    if i == 0:
        return code // 400
    if i == 1:
        return (code // 20) % 20
    return code % 20


@njit(cache=True)
def groups_with(x, gw):
    """Every 3-card group containing kind ``x`` into ``gw: int64[≥ MAX_GW]``, in the order of
    ``play.chi.groups_with``: runs by start, 二七十, then the two 绞. Returns their number."""
    size = (x // 10) * 10
    v = x % 10
    n = 0
    lo = v - 2 if v >= 2 else 0
    hi = v if v < 7 else 7
    for start in range(lo, hi + 1):
        gw[n] = gcode(size + start, size + start + 1, size + start + 2)
        n += 1
    if v == 1 or v == 6 or v == 9:
        gw[n] = gcode(size + 1, size + 6, size + 9)
        n += 1
    if x < 10:
        twin = x + 10
        gw[n] = gcode(x, x, twin)
        gw[n + 1] = gcode(x, twin, twin)
    else:
        twin = x - 10
        gw[n] = gcode(twin, x, x)
        gw[n + 1] = gcode(twin, twin, x)
    return n + 2


@njit(cache=True)
def take(src, dst, code, skip):
    """``dst`` = ``src`` less the cards of group ``code`` (less one copy of ``skip``, -1 for
    none), free cards only (a kind held 3+ times in ``src`` is locked). False when impossible
    (``dst`` is then partly written)."""
    for k in range(20):
        dst[k] = src[k]
    for i in range(3):
        k = gcard(code, i)
        if k == skip:
            skip = -1
            continue
        if dst[k] <= 0 or src[k] >= 3:
            return False
        dst[k] -= 1
    return True


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
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


@njit(cache=True)
def chi_options(hand, x, cs, gw, tmp):
    """Every legal 吃 of card ``x`` for ``hand: int8[20]`` (坎 inside, locked) into
    ``cs[:, 0:3]`` (the 吃 group, then its 比 groups sorted, NO_GROUP-padded); returns how many.
    Scratch: ``cs: int64[MAX_CHI, CHI_COLS]``, ``gw: int64[≥ MAX_GW]``, ``tmp: int8[≥ 3, 20]``."""
    if hand[x] >= 3:
        return 0
    ng = groups_with(x, gw)
    n = 0
    rest = tmp[0]
    t1 = tmp[1]
    t2 = tmp[2]
    for a in range(ng):
        g = gw[a]
        if not take(hand, rest, g, x):
            continue
        # _bi(rest, x): every way to lay the X still held, de-duplicated by sorted groups
        nb = 0
        if rest[x] == 0:
            cs[0, 6] = NO_GROUP
            cs[0, 7] = NO_GROUP
            nb = 1
        else:
            for b in range(ng):
                g1 = gw[b]
                if not take(rest, t1, g1, -1):
                    continue
                if t1[x] == 0:
                    nb = _add_bi(cs, nb, g1, NO_GROUP)
                    continue
                for c in range(ng):
                    g2 = gw[c]
                    if not take(t1, t2, g2, -1):
                        continue
                    if t2[x] != 0:  # cannot happen: at most two X are left (module doc)
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


def new_chi_scratch():
    """(cs, gw, tmp) scratch arrays for ``chi_options``."""
    return (np.zeros((MAX_CHI, CHI_COLS), np.int64), np.zeros(8, np.int64),
            np.zeros((3, 20), np.int8))


def chi_options_py(hand, x):
    """``chi_options`` as the reference's Python list of ``(group, 比 groups)`` (for tests)."""
    cs, gw, tmp = new_chi_scratch()
    n = chi_options(np.asarray(hand, np.int8), int(x), cs, gw, tmp)
    out = []
    for r in range(n):
        grp = tuple(int(gcard(cs[r, 0], i)) for i in range(3))
        bi = tuple(tuple(int(gcard(cs[r, c], i)) for i in range(3))
                   for c in (1, 2) if cs[r, c] != NO_GROUP)
        out.append((grp, bi))
    return out
