"""Kernels against their pure-Python twins (zipai_sim.game.reference), on random and constructed
hands and on whole deals. The twin enumerates explicit groups; the kernel searches counts."""

import itertools
import random

import numpy as np
import pytest
from _gen import complete_hands, random_hands

import zipai_sim as zs
from zipai_sim.game import reference as ref
from zipai_sim.runs.chunks import chunk_keys

VARIANTS = zs.list_variants()


def kernel_huxi(hands, variant):
    return zs.evaluate_opening(hands, variant)["huxi"].fill_null(-1).to_list()


def test_random_dealer_hands_agree():
    hands = random_hands(10_000, seed=11)
    P = zs.load_variant("guangxi-81").params
    assert kernel_huxi(hands, "guangxi-81") == [ref.best(h, P)[0] for h in hands]


def test_constructed_complete_hands_agree_and_are_complete():
    hands = np.stack(complete_hands(10_000, seed=12))
    P = zs.load_variant("guangxi-81").params
    got = kernel_huxi(hands, "guangxi-81")
    assert min(got) >= 0
    assert got == [ref.best(h, P)[0] for h in hands]


@pytest.mark.parametrize("variant", ["guangxi-dazipai", "changsha-paohuzi", "liuhu-dao"])
def test_other_points_tables_agree(variant):
    v = zs.load_variant(variant)
    hands = np.stack(complete_hands(1_500, seed=13, size=v.layout.dealer_cards))
    P = v.params
    assert kernel_huxi(hands, variant) == [ref.best(h, P)[0] for h in hands]


@pytest.mark.parametrize("variant", ["guangxi-81", "changsha-paohuzi", "guangxi-dazipai"])
def test_incoming_cards_agree(variant):
    """A complete hand less one card, the card coming back from either source (§6)."""
    rng = random.Random(14)
    P = zs.load_variant(variant).params
    for h in complete_hands(1_000, seed=15):
        k = rng.choice([i for i in range(20) if h[i]])
        rest = h.copy()
        rest[k] -= 1
        for src in ("self", "other"):
            want = ref.best(rest, P, k, src == "self")[0]
            assert zs.explain(rest, variant, incoming=k, source=src).huxi == want


def test_waits_agree():
    P = zs.load_variant("guangxi-81").params
    rng = random.Random(16)
    hands = [h for h in random_hands(150, seed=17, size=20)]
    for h in complete_hands(150, seed=18):
        h = h.copy()
        h[rng.choice([i for i in range(20) if h[i]])] -= 1
        hands.append(h)
    for h in hands:
        w = zs.waits(h, "guangxi-81")
        got = {r["kind"]: (r["huxi_self"] if r["huxi_self"] is not None else -1,
                           r["huxi_other"] if r["huxi_other"] is not None else -1)
               for r in w.iter_rows(named=True)}
        assert got == ref.waits(h, P)


# the same opening hands, every column of evaluate_opening from the reference (RULES.md §3-§6)
INSTANT_HANDS = ["一一一一 二二二二 三三三三 四五六 七八九 壹贰叁",  # 三提
                 "一一一一 二二二二 三三三 四四四 五五五 六七八九",  # 2 提 + 3 坎
                 "三三三 五五五 八八八 壹壹壹 玖玖玖 一二 肆伍 六七"]  # 五坎 (三 a 坎)


@pytest.mark.parametrize("variant,liangzhang", [
    ("guangxi-81", None), ("changsha-paohuzi", None), ("liuhu-dao", None),
    ("hunan-hengyang", "三"),  # 五坎 only when the 亮张 makes the fifth 坎
])
def test_opening_batch_columns_agree(variant, liangzhang):
    v = zs.load_variant(variant)
    P, size = v.params, v.layout.dealer_cards
    hands = [zs.parse_hand(h) for h in INSTANT_HANDS if len(h.replace(" ", "")) == size]
    hands += list(random_hands(1_500, seed=21, size=size))
    hands += complete_hands(1_500, seed=22, size=size)
    lz = -1
    if liangzhang is not None:
        lz = zs.parse_hand(liangzhang).argmax()
        hands = [h for h in hands if h[lz]]
    got = zs.evaluate_opening(np.stack(hands), variant, liangzhang=liangzhang)
    want = []
    for h in hands:
        huxi = ref.best(h, P)[0]
        inst = ref.instant(h, P, True, lz)
        want.append((huxi >= 0, huxi if huxi >= 0 else None, sum(1 for x in h if x == 4),
                     sum(1 for x in h if x == 3), inst, bool(inst) or ref.is_win(huxi, P)))
    assert got.rows() == want
    assert {r[4] for r in want} >= ({"", "wukan"} if variant != "liuhu-dao" else {""})


@pytest.mark.parametrize("variant,table_huxi,table_fours", [
    ("guangxi-81", 0, 0), ("changsha-paohuzi", 0, 0), ("guangxi-81", 6, 1),
])
def test_waits_batch_agrees(variant, table_huxi, table_fours):
    """One long frame for a batch: by hand, the kinds, 胡息 and wins of reference.waits."""
    P = zs.load_variant(variant).params
    rng = random.Random(23)
    hands = list(random_hands(100, seed=24, size=20))
    for h in complete_hands(100, seed=25):
        h = h.copy()
        h[rng.choice([i for i in range(20) if h[i]])] -= 1
        hands.append(h)
    got = zs.waits(np.stack(hands), variant, table_huxi, table_fours)
    want = []
    for i, h in enumerate(hands):
        for k, (a, b) in sorted(ref.waits(h, P, table_huxi, table_fours).items()):
            want.append((i, k, a if a >= 0 else None, b if b >= 0 else None,
                         ref.is_win(a, P), ref.is_win(b, P)))
    assert got.drop("card").rows() == want
    assert len(want) > 50 and any(r[4] for r in want)


def test_check_hands_agrees_with_numpy():
    """The one-pass batch checks (bytes four at a time; per count inside the evaluation) against
    plain numpy, on garbage counts."""
    from zipai_sim.kernels import batch as kbatch

    P81 = zs.load_variant("guangxi-81").params

    rng = np.random.default_rng(26)
    for (lo_count, hi_count), (lo, hi), bad_row in itertools.product(
            ((0, 4), (-1, 4), (0, 5), (-128, 127)), ((30, 50), (0, 80)), (-1, 0, 777, 4999)):
        c = rng.integers(0, 5, (5000, 20)).astype(np.int8)
        if bad_row >= 0:
            c[bad_row] = rng.integers(lo_count, hi_count + 1, 20)
        totals = c.sum(axis=1, dtype=np.int64)
        ok = (c >= 0).all(axis=1) & (c <= 4).all(axis=1) & (totals >= lo) & (totals <= hi)
        ti, kan = np.empty(5000, np.int64), np.empty(5000, np.int64)
        first = kbatch.check_hands(c.reshape(-1).view(np.uint32), lo, hi, ti, kan)
        assert first == (np.flatnonzero(~ok)[0] if (~ok).any() else -1)
        assert (ti[ok] == (c[ok] == 4).sum(axis=1)).all()
        assert (kan[ok] == (c[ok] == 3).sum(axis=1)).all()
        # the one-pass check inside evaluate_opening's kernel refuses the same first row
        out = [np.empty(5000, t) for t in (np.int64, np.int8, np.int8, np.int8, np.uint8)]
        first = kbatch.evaluate_checked(c, lo, hi, -1, 1, P81, *out)
        assert first == (np.flatnonzero(~ok)[0] if (~ok).any() else -1)
        head = slice(0, first if first >= 0 else 5000)  # rows before the refusal are evaluated
        assert (out[2][head] == (c[head] == 4).sum(axis=1)).all()
        assert (out[3][head] == (c[head] == 3).sum(axis=1)).all()


@pytest.mark.parametrize("variant", VARIANTS)
def test_deal_matches_reference_shuffle(variant):
    v = zs.load_variant(variant)
    hands, stock = d = zs.deal(300, variant, seed=5, chunk_size=128)
    for i in range(300):
        key = int(chunk_keys(5, i // 128, 1)[0])
        want_hands, want_stock, lz = ref.deal_from_deck(ref.shuffled_deck(key, i % 128), v.params)
        assert hands[i].tolist() == want_hands
        assert stock[i].tolist() == want_stock
        assert d.liangzhang[i] == lz


def _stacked_decks(variant, n, seed):
    """Decks whose dealer or a non-dealer holds a complete hand, so 天胡/地胡/翻信 paths run."""
    v = zs.load_variant(variant)
    P = v.params
    seats, h = P[0], P[2]
    rng = np.random.default_rng(seed)
    out = []
    for i, hand in enumerate(complete_hands(n, seed=seed, size=h + 1)):
        rest = np.repeat(np.arange(20), 4 - hand)
        cards = np.repeat(np.arange(20), hand)
        rng.shuffle(cards)
        rng.shuffle(rest)
        seat = i % seats
        if seat == 0:  # dealer: 20 + the 亮张
            hands_part = list(cards[:-1])
            lz = cards[-1]
            others = list(rest[: (seats - 1) * h])
            deck = hands_part + others + [lz] + list(rest[(seats - 1) * h:])
        else:  # a non-dealer holds 20 of it, the 亮张 is its last card
            lz = cards[-1]
            mine = list(cards[:-1])
            pool = list(rest)
            before = pool[: seat * h]
            after = pool[seat * h: (seats - 1) * h]
            deck = before + mine + after + [lz] + pool[(seats - 1) * h:]
        out.append(deck)
    return np.array(out, dtype=np.int8)


@pytest.mark.parametrize("variant", VARIANTS)
def test_opening_outcomes_agree_on_stacked_decks(variant):
    P = zs.load_variant(variant).params
    decks = _stacked_decks(variant, 600, seed=19)
    got = zs.score_decks(decks, variant)
    names = {"": "", "complete": "complete", "santi": "santi", "wukan": "wukan"}
    wins = 0
    for i, r in enumerate(got.iter_rows(named=True)):
        want = ref.opening_outcome(list(decks[i]), P)
        assert r["tianhu"] == names[want["tianhu"]]
        assert (r["dealer_huxi"] if r["dealer_huxi"] is not None else -1) == want["dealer_huxi"]
        assert (r["dihu_seat"] if r["dihu_seat"] is not None else -1) == want["dihu_seat"]
        assert r["fanxing"] == want["fanxing"]
        wins += bool(want["tianhu"]) or want["dihu_seat"] > 0
    assert wins > 50  # the stacked decks do exercise the win paths


def test_opening_outcomes_agree_on_random_deals():
    P = zs.load_variant("guangxi-81").params
    r = zs.simulate_deals("guangxi-81", 2_000, seed=21, chunk_size=1_000, sample_per_chunk=1_000,
                          progress=False)
    for row in r.rows.iter_rows(named=True):
        j = row["deal"]
        want = ref.opening_outcome(ref.shuffled_deck(int(chunk_keys(21, j // 1000, 1)[0]),
                                                     j % 1000), P)
        assert (row["dealer_huxi"] if row["dealer_huxi"] is not None else -1) == \
            want["dealer_huxi"]
        assert (row["dihu_seat"] if row["dihu_seat"] is not None else -1) == want["dihu_seat"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_locked_groups_of_both_sizes_score_as_the_reference_says(variant):
    """Hands built around 提 and 坎 of either size (evaluate_opening reads them from the packed
    hand, not kind by kind), their free cards all groups or one card off: the 胡息 of
    reference.best, and the 提/坎 counts by hand (RULES.md §3, §4)."""
    v = zs.load_variant(variant)
    P, size = v.params, v.layout.dealer_cards
    rng = random.Random(23)
    hands = []
    for h in complete_hands(600, seed=24, size=size):
        hands.append(h)
        broken = h.copy()
        k = rng.choice([i for i in range(20) if 0 < h[i] < 3])
        j = rng.choice([i for i in range(20) if h[i] < 2 and i != k])
        broken[k] -= 1
        broken[j] += 1
        hands.append(broken)
    assert {int((h == 4).sum()) for h in hands} >= ({0, 1, 2} if size >= 17 else {0, 1})
    assert any((h[10:] == 3).any() and (h[:10] == 4).any() for h in hands)
    got = zs.evaluate_opening(np.stack(hands), variant)
    assert got["huxi"].fill_null(-1).to_list() == [ref.best(h, P)[0] for h in hands]
    assert got["ti"].to_list() == [int((h == 4).sum()) for h in hands]
    assert got["kan"].to_list() == [int((h == 3).sum()) for h in hands]
