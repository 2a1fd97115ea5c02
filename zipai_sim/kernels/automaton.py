"""The completability automaton behind the exact enumeration (RULES.md §3 groups, §6).

A hand's free cards (counts 0..2 once 坎 and 提 are locked) must split into runs (顺), 二七十,
绞 and at most one pair (§3). Read the hand one value at a time, its small and big kind together
(the two kinds a 绞 joins): every split of the cards read so far leaves a *decomposition state*
(the 二七十 guessed per size, the runs still waiting for cards, whether the pair is used), and the
set of states the splits can be in is the automaton's state (the subset construction). A
depth-first enumeration of hands abandons a prefix as soon as that set is empty, so it visits only
hands that can still be all groups.

Two modes: *plain* (every kind holds 0..2 free cards) and *three* (exactly one kind, chosen at
some value, holds three free cards: the pair in hand plus another player's card left free instead
of a 碰, §6). The automaton decides only whether cards can be all groups; the 胡息 of an accepted
hand comes from the hand kernel. It is the same for every variant; it is built once (about a
minute) and cached on disk beside this module.
"""

from __future__ import annotations

import os
import tempfile
from functools import lru_cache
from itertools import product

import numpy as np

N_VALUES = 10
ERQISHI = (1, 6, 9)  # 二七十 / 贰柒拾 value slots
N_PLAIN = 9  # plain column symbol: 3 * small free count + big free count, counts 0..2
THREE_SYMS = ((3, 0), (3, 1), (3, 2), (0, 3), (1, 3), (2, 3))  # entering the three mode
VERSION = 2


def _covers(ls: int, lb: int, pair_free: bool):
    """Ways (pairs used) to use exactly ``ls`` small and ``lb`` big leftover cards of one value
    with 绞 (two small + one big, or one small + two big) and at most one pair."""
    out = set()
    for ja, jb in product(range(2), range(2)):
        rs, rb = ls - 2 * ja - jb, lb - ja - 2 * jb
        if rs < 0 or rb < 0:
            continue
        if rs == 0 and rb == 0:
            out.add(0)
        elif pair_free and ((rs == 2 and rb == 0) or (rs == 0 and rb == 2)):
            out.add(1)
    return out


def _step(state, v: int, a: int, b: int) -> list:
    """Decomposition states after value ``v`` holding ``a`` small and ``b`` big free cards.
    A state is ``(二七十 small, 二七十 big, runs started at v-1 and v-2 small, same big, pair)``."""
    es, eb, r1s, r2s, r1b, r2b, pr = state
    use = v in ERQISHI
    xs = a - (es if use else 0) - r1s - r2s
    xb = b - (eb if use else 0) - r1b - r2b
    if xs < 0 or xb < 0:
        return []
    out = []
    for ns in range((xs if v <= 7 else 0) + 1):
        for nb in range((xb if v <= 7 else 0) + 1):
            for used in _covers(xs - ns, xb - nb, pr == 0):
                out.append((es, eb, ns, r1s, nb, r1b, pr + used))
    return out


def _forward():
    start = frozenset((es, eb, 0, 0, 0, 0, 0) for es in range(3) for eb in range(3))
    plain = [{start: 0}]
    three = [{}]
    p_rows, e_rows, t_rows = [], [], []
    memo: dict = {}

    def move(meta, v, a, b):
        out = set()
        for st in meta:
            key = (st, v, a, b)
            nx = memo.get(key)
            if nx is None:
                nx = memo[key] = _step(st, v, a, b)
            out.update(nx)
        return frozenset(out)

    for v in range(N_VALUES):
        np_: dict = {}
        nt: dict = {}
        pr_, er_, tr_ = [], [], []
        for meta in plain[v]:
            pr_.append([np_.setdefault(m, len(np_)) if (m := move(meta, v, a, b)) else -1
                        for a, b in product(range(3), range(3))])
            er_.append([nt.setdefault(m, len(nt)) if (m := move(meta, v, a, b)) else -1
                        for a, b in THREE_SYMS])
        for meta in three[v]:
            tr_.append([nt.setdefault(m, len(nt)) if (m := move(meta, v, a, b)) else -1
                        for a, b in product(range(3), range(3))])
        p_rows.append(pr_)
        e_rows.append(er_)
        t_rows.append(tr_)
        plain.append(np_)
        three.append(nt)

    def accept(layer):
        acc = np.zeros(len(layer), np.int8)
        for meta, i in layer.items():
            for es, eb, r1s, r2s, r1b, r2b, pr in meta:
                if r1s == r2s == r1b == r2b == 0:
                    acc[i] |= 1 << pr
        return acc

    return p_rows, e_rows, t_rows, accept(plain[N_VALUES]), accept(three[N_VALUES])


def _minimize(p_rows, e_rows, t_rows, p_acc, t_acc):
    """Merge states with the same future (layer by layer, from the last value back), so the
    tables keep one row per distinct future."""
    p_cls = [int(x) for x in p_acc]
    t_cls = [int(x) for x in t_acc]
    P, E, T = [None] * N_VALUES, [None] * N_VALUES, [None] * N_VALUES
    # a last state that completes no split (mask 0) is dead: -1, and death propagates back
    p_final, t_final = sorted(set(p_cls) - {0}), sorted(set(t_cls) - {0})
    p_map = [p_final.index(c) if c else -1 for c in p_cls]
    t_map = [t_final.index(c) if c else -1 for c in t_cls]
    pa = np.array(p_final, np.int8)
    ta = np.array(t_final, np.int8)

    def cls(keys, rows, key):
        if all(x < 0 for x in key):
            return -1
        if key not in keys:
            keys[key] = len(keys)
            rows.append(key)
        return keys[key]

    for v in range(N_VALUES - 1, -1, -1):
        keys: dict = {}
        rows: list = []
        new_t = [cls(keys, rows, tuple(t_map[x] if x >= 0 else -1 for x in row))
                 for row in t_rows[v]]
        T[v] = np.array(rows, np.int32).reshape(-1, N_PLAIN)
        keys, prows = {}, []
        new_p = [cls(keys, prows, tuple(p_map[x] if x >= 0 else -1 for x in row)
                     + tuple(t_map[x] if x >= 0 else -1 for x in erw))
                 for row, erw in zip(p_rows[v], e_rows[v])]
        prow = [k[:N_PLAIN] for k in prows]
        erow = [k[N_PLAIN:] for k in prows]
        P[v] = np.array(prow, np.int32).reshape(-1, N_PLAIN)
        E[v] = np.array(erow, np.int32).reshape(-1, len(THREE_SYMS))
        p_map, t_map = new_p, new_t
    return P, E, T, pa, ta


def _stack(tables, width):
    m = max(t.shape[0] for t in tables)
    out = np.full((N_VALUES, m, width), -1, np.int32)
    for v, t in enumerate(tables):
        out[v, :t.shape[0]] = t
    return out


def _cache_path() -> str:
    here = os.path.join(os.path.dirname(__file__), "__pycache__")
    try:
        os.makedirs(here, exist_ok=True)
        if os.access(here, os.W_OK):
            return os.path.join(here, f"automaton-v{VERSION}.npz")
    except OSError:
        pass
    return os.path.join(tempfile.gettempdir(), f"zipai-sim-automaton-v{VERSION}.npz")


@lru_cache(maxsize=1)
def build() -> dict[str, np.ndarray]:
    """The automaton tables (loaded from the disk cache, or built and cached).

    ``plain: int32[10, M, 9]``: the state after value ``v`` from plain state ``m`` on symbol
    ``3 * small + big`` (free counts 0..2), -1 when no split survives; state 0 is the start.
    ``enter: int32[10, M, 6]``: the three-mode state after value ``v`` when one kind of that value
    holds three free cards (symbols in ``THREE_SYMS`` order). ``three: int32[10, M3, 9]``: plain
    symbols in the three mode. ``plain_accept: int8[·]``, ``three_accept: int8[·]``: for the
    states after the last value, bit 0 when a split with no pair completes, bit 1 when one with
    exactly one pair does.
    """
    path = _cache_path()
    if os.path.exists(path):
        try:
            with np.load(path) as z:
                return {k: z[k] for k in z.files}
        except (OSError, ValueError):
            pass
    P, E, T, pa, ta = _minimize(*_forward())
    out = {"plain": _stack(P, N_PLAIN), "enter": _stack(E, len(THREE_SYMS)),
           "three": _stack(T, N_PLAIN), "plain_accept": pa, "three_accept": ta}
    tmp = f"{path}.{os.getpid()}.tmp.npz"
    try:
        np.savez_compressed(tmp, **out)
        os.replace(tmp, path)
    except OSError:
        pass
    return out


def accepts(counts) -> bool:
    """Whether a dealt hand ``counts: int[20]`` (坎 and 提 locked, §3) is all groups, read through
    the automaton (one exactly-owed pair when it holds a 提)."""
    tab = build()
    m = 0
    for v in range(N_VALUES):
        a, b = int(counts[v]), int(counts[10 + v])
        m = int(tab["plain"][v, m, 3 * (a if a <= 2 else 0) + (b if b <= 2 else 0)])
        if m < 0:
            return False
    bit = 2 if any(int(c) == 4 for c in counts) else 1
    return bool(tab["plain_accept"][m] & bit)
