"""Exact enumeration (zipai_sim.exact.opening): reduced-deck brute force, closed forms, automaton."""

from fractions import Fraction

import numpy as np
import pytest
from exact_brute import deck_of, table

from zipai_sim.exact import counts as cnt
from zipai_sim.exact.opening import _table
from zipai_sim.game import params as p
from zipai_sim.game import reference as ref
from zipai_sim.game.variants import load_variant
from zipai_sim.kernels.automaton import accepts

# values 一二三 and 七十 small, 一二三 big: runs, 二七十, 绞, 坎, 提 and the pair rule all occur
KINDS = (0, 1, 2, 6, 9, 10, 11, 12)


def _params(base, **kw):
    q = list(load_variant(base).params)
    for name, val in kw.items():
        q[getattr(p, name)] = int(val)
    return tuple(q)


CASES = {
    # 衡阳-like: 五坎 only on the 亮张, two-提 extra card, 抢招和, 翻信 本醒 on hand cards only
    "liangzhang-extra": _params("guangxi-81", DEALER_CARDS=9, OTHER_CARDS=8, SANTI_MIN=3,
                                WUKAN_MIN=2, WUKAN_LIANGZHANG=1, TI_COUNTS_AS_KAN=0,
                                TWO_TI_EXTRA=1, QIANGZHAO=1, FANXING=1, FANXING_COUNT_ALL=0,
                                PIAOHU=1),
    # 三提 at two, 提 as 坎, no extra card, no 抢招和, 跟醒 on all cards
    "santi-gen": _params("guangxi-81", DEALER_CARDS=10, OTHER_CARDS=9, SANTI_MIN=2,
                         WUKAN_MIN=3, WUKAN_LIANGZHANG=0, TI_COUNTS_AS_KAN=1, TWO_TI_EXTRA=0,
                         QIANGZHAO=0, FANXING=1, FANXING_MATCH=p.MATCH_GEN,
                         FANXING_COUNT_ALL=1, PIAOHU=0),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_reduced_deck_equals_brute_force(case):
    P = CASES[case]
    copies = deck_of(KINDS)
    ths = [0, 3, 6, 9]
    got = _table(P, copies, ths)
    want = table(P, copies, ths)
    seen = {}
    for r in got.iter_rows(named=True):
        key = (r["metric"], r["threshold"])
        if "_bound_" in r["metric"]:
            continue
        seen[key] = Fraction(r["numerator"], r["denominator"])
    assert set(seen) == set(want)
    bad = {k: (seen[k], want[k]) for k in want if seen[k] != want[k]}
    assert not bad
    # the enumeration is not vacuous on this deck
    assert want[("tianhu_extra_card", 0)] > 0 or case != "liangzhang-extra"
    assert want[("tianhu_wukan", None)] > 0 and want[("dihu_seat", 6)] > 0


@pytest.mark.parametrize("n", [20, 21])
def test_ti_kan_closed_form_equals_enumeration(n):
    closed = cnt.ti_kan_closed(n)
    dp = {(t, k): v[0] for (t, k, _), v in cnt.count_dp(n, [4] * 20).items()}
    assert closed == dp
    from math import comb
    assert sum(closed.values()) == comb(80, n)


def test_automaton_decides_completeness():
    P = load_variant("guangxi-81").params
    rng = np.random.default_rng(7)
    deck = np.repeat(np.arange(20), 4)
    for _ in range(3000):  # random deals: almost all incomplete
        h = np.bincount(rng.permutation(deck)[:21], minlength=20)
        assert accepts(h) == (ref.best(list(h), P)[0] >= 0)
    complete = 0
    for k in range(300):
        # seven groups (runs, 二七十, 绞, 坎); a count reaching 3 or 4 locks and may break them
        h = np.zeros(20, int)
        for _ in range(7):
            g = rng.integers(4)
            s = 10 * rng.integers(2)
            if g == 0:
                v = rng.integers(8)
                idx = [s + v, s + v + 1, s + v + 2]
            elif g == 1:
                idx = [s + 1, s + 6, s + 9]
            elif g == 2:
                v = rng.integers(10)
                idx = [v, v, v + 10]
            else:
                idx = [s + rng.integers(10)] * 3
            for i in idx:
                h[i] += 1
        if h.max() > 4:
            continue
        want = ref.best(list(h), P)[0] >= 0
        complete += want
        assert accepts(h) == want
    assert complete > 0  # the group-built hands include complete ones


def test_checkpoint_resumes_without_recomputing(tmp_path, monkeypatch):
    import zipai_sim.exact.opening as ex

    P = CASES["santi-gen"]
    copies = deck_of(KINDS)
    first = _table(P, copies, [3], checkpoint=str(tmp_path))
    parts = list(tmp_path.glob("exact-part-*.json"))
    assert len(parts) == 3  # dealer, 地胡 plain, 地胡 three free (no 抢招和, no extra card)

    def boom(*a, **k):
        raise AssertionError("a checkpointed part was enumerated again")

    monkeypatch.setattr(ex, "run", boom)
    again = _table(P, copies, [3], checkpoint=str(tmp_path))
    assert again.equals(first)


def test_exact_opening_shipped_and_errors():
    import zipai_sim as zs

    t = zs.exact_opening("guangxi-81")
    row = t.filter(metric="tianhu", threshold=15).row(0, named=True)
    assert row["numerator"] > 0 and row["denominator"] > row["numerator"]
    assert row["probability"] == pytest.approx(row["numerator"] / row["denominator"])
    # the closed-form rows equal the closed form
    from math import comb
    dist = cnt.ti_kan_closed(21)
    two = sum(c for (ti, k), c in dist.items() if ti == 2)
    got = t.filter(metric="dealer_two_ti").row(0, named=True)
    assert Fraction(got["numerator"], got["denominator"]) == Fraction(two, comb(80, 21))
    with pytest.raises(ValueError, match="non-negative"):
        zs.exact_opening("guangxi-81", thresholds=[-1])
    with pytest.raises(ValueError, match="non-negative"):
        zs.exact_opening("guangxi-81", thresholds=[True])
    with pytest.raises(zs.VariantError):
        zs.exact_opening("no-such-variant")


def test_exact_checkpoint_that_is_a_file_is_refused(tmp_path, capsys):
    """A file where the checkpoint folder should go is named, in Python and on the command
    line (one line, exit 2), before any table is looked up or written."""
    import zipai_sim as zs
    from zipai_sim.cli import main

    f = tmp_path / "cp"
    f.write_text("not a folder")
    with pytest.raises(ValueError, match="a file, not a folder"):
        zs.exact_opening("guangxi-81", checkpoint=f)
    out = tmp_path / "e.parquet"
    assert main(["exact", "--variant", "guangxi-81", "--checkpoint", str(f),
                 "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "a file, not a folder" in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_cli_exact_writes_table(tmp_path, capsys):
    from zipai_sim.cli import main
    from zipai_sim.runs.io import read_metadata

    out = tmp_path / "e.parquet"
    assert main(["exact", "--variant", "guangxi-81", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "tianhu" in text and "wrote" in text
    meta = read_metadata(out)
    assert meta["variant"] == "guangxi-81" and meta["thresholds"] == "15"
    assert meta["source"] == "the shipped table" and "shipped table" in text
    assert main(["exact", "--thresholds", "-3", "--out", str(out)]) == 2


@pytest.mark.slow
def test_shipped_table_is_what_the_enumeration_gives():
    import zipai_sim as zs
    from zipai_sim.exact.opening import stored

    v = zs.load_variant("changde-paohuzi")
    fresh = zs.exact_opening(v, recompute=True)
    assert fresh.equals(stored(v))
