"""Kernels against their pure-Python twins (zipai_sim.reference), on random and constructed
hands and on whole deals. The twin enumerates explicit groups; the kernel searches counts."""

import random

import numpy as np
import pytest
from _gen import complete_hands, random_hands

import zipai_sim as zs
from zipai_sim import reference as ref
from zipai_sim.chunks import chunk_keys

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
