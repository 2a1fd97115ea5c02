"""The free-card lookup tables (``kernels.freetab``) against the search they replace
(``hand.free_best``) and a pure-Python split of one size (RULES.md §3 groups, §4 胡息).

Every base-3 code of each size is checked, for both pair states and several score weights; the
two sizes together (the 绞) on random hands rich in shared values."""

from functools import lru_cache

import numpy as np
import pytest
from numba import njit

from zipai_sim.kernels import freetab as ft
from zipai_sim.kernels.hand import WORK, free_best
from zipai_sim.kernels.packed import W

WEIGHTS = ((1, 0), (0, 1), (3, 6), (6, 3), (1, 1))


@njit(cache=False)
def _mismatches_one_size(big, need, ys, eq, work):
    """Codes of one size where free_tab and free_best disagree (the other size empty)."""
    bad = 0
    for code in range(3 ** 10):
        pk = 0
        r = code
        for i in range(10):
            pk += (r % 3) << (W * (i + 10 * big))
            r //= 3
        if big:
            a = ft.free_tab(pk, need, 0, ys, 0, eq)
            b = free_best(pk, need, 0, ys, 0, eq, work, 0)
        else:
            a = ft.free_tab(pk, need, ys, 0, eq, 0)
            b = free_best(pk, need, ys, 0, eq, 0, work, 0)
        if a != b:
            bad += 1
    return bad


@pytest.mark.parametrize("big", [0, 1])
@pytest.mark.parametrize("need", [0, 1])
def test_every_code_of_one_size_matches_the_search(big, need):
    work = np.zeros(WORK, np.int64)
    for ys, eq in WEIGHTS:
        assert _mismatches_one_size(big, need, ys, eq, work) == 0, (ys, eq)


@njit(cache=False)
def _mismatches_two_sizes(n, seed, work, out):
    """Random free hands (0..21 cards, counts ≤ 2) crowded onto few values so that 绞 abound;
    ``out[0]`` mismatches, ``out[1]`` hands that complete."""
    np.random.seed(seed)
    for _ in range(n):
        vals = np.random.randint(2, 11)
        m = np.random.randint(0, 22)
        cnt = np.zeros(20, np.int64)
        pk = 0
        for _t in range(m):
            k = np.random.randint(0, vals) + 10 * np.random.randint(0, 2)
            if cnt[k] < 2:
                cnt[k] += 1
                pk += 1 << (W * k)
        for need in range(2):
            a = ft.free_tab(pk, need, 2, 5, 4, 7)
            b = free_best(pk, need, 2, 5, 4, 7, work, 0)
            if a != b:
                out[0] += 1
            if b >= 0:
                out[1] += 1


def test_both_sizes_with_jiao_match_the_search():
    out = np.zeros(2, np.int64)
    _mismatches_two_sizes(300_000, 20261201, np.zeros(WORK, np.int64), out)
    assert out[0] == 0
    assert out[1] > 10_000  # enough complete hands to mean something


@lru_cache(maxsize=None)
def _splits(counts: tuple, pairs: int) -> frozenset:
    """Pure Python: the (一二三, 二七十) numbers of every split of one size's ``counts`` into
    runs, 二七十 and exactly ``pairs`` pairs."""
    if not any(counts):
        return frozenset({(0, 0)}) if pairs == 0 else frozenset()
    i = next(k for k in range(10) if counts[k])
    out = set()

    def take(ks):
        c = list(counts)
        for k in ks:
            c[k] -= 1
        return tuple(c) if min(c) >= 0 else None

    if pairs and (c := take((i, i))):
        out |= _splits(c, 0)
    if i <= 7 and (c := take((i, i + 1, i + 2))):
        out |= {(a + (i == 0), b) for a, b in _splits(c, pairs)}
    if (c := take((1, 6, 9))) and i == 1:
        out |= {(a, b + 1) for a, b in _splits(c, pairs)}
    return frozenset(out)


def test_tables_hold_every_split_of_a_pure_python_search():
    rng = np.random.default_rng(7)
    codes = list(rng.integers(0, 3 ** 10, 3000)) + [0, 3 ** 10 - 1]
    for code in codes:
        counts = tuple((int(code) // 3 ** i) % 3 for i in range(10))
        for f in (0, 1):
            mask = sum(1 << (3 * a + b) for a, b in _splits(counts, f))
            assert int(ft.TAB[f, code]) == mask, (counts, f)


def test_a_hand_worked_by_hand():
    # small 一二三, 二七十 pieces: 贰柒拾 big, 四四肆 (绞), 伍伍 (the pair owed): 一二三 scores
    # ys_s, 贰柒拾 eq_b, the 绞 and the pair nothing
    kinds = [0, 1, 2, 11, 16, 19, 3, 3, 13, 14, 14]
    pk = sum(1 << (W * k) for k in kinds)
    assert ft.free_tab(pk, 1, 3, 6, 5, 9) == 3 + 9
    assert ft.free_tab(pk, 0, 3, 6, 5, 9) == -1  # the pair is not allowed without a 提


def test_stale_numba_caches_are_dropped_when_a_kernel_source_changes(tmp_path):
    from zipai_sim.kernels import drop_stale_caches

    src = tmp_path / "kernels" / "hand.py"
    src.parent.mkdir()
    src.write_text("x = 1\n")
    cache = tmp_path / "kernels" / "__pycache__"
    cache.mkdir()
    stamp = cache / "kernel-sources.sha1"
    (cache / "opening.f-1.py311.nbi").write_text("")
    assert drop_stale_caches(tmp_path, [src], stamp)  # no stamp yet: dropped
    (cache / "opening.f-1.py311.nbi").write_text("")
    assert not drop_stale_caches(tmp_path, [src], stamp)  # unchanged sources: kept
    assert (cache / "opening.f-1.py311.nbi").exists()
    src.write_text("x = 2\n")
    assert drop_stale_caches(tmp_path, [src], stamp)
    assert not (cache / "opening.f-1.py311.nbi").exists()
