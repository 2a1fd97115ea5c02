"""Invariants (hypothesis): card conservation, size symmetry, order independence."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import zipai_sim as zs
from zipai_sim.game.cards import card_name

VARIANTS = st.sampled_from(["guangxi-81", "hunan-hengyang", "liuhu-dao", "guangxi-dazipai"])
hands21 = st.permutations(list(np.repeat(np.arange(20), 4))).map(
    lambda cards: np.bincount(cards[:21], minlength=20).astype(np.int8))


@settings(max_examples=30, deadline=None)
@given(variant=VARIANTS, seed=st.integers(0, 2**64), n=st.integers(1, 40),
       chunk=st.integers(1, 16))
def test_every_deal_uses_each_kind_four_times(variant, seed, n, chunk):
    hands, stock = zs.deal(n, variant, seed, chunk_size=chunk)
    v = zs.load_variant(variant)
    counts = hands.sum(axis=1).astype(int)
    for i in range(n):
        counts[i] += np.bincount(stock[i], minlength=20)
    assert (counts == 4).all()
    assert hands[:, 0].sum(axis=1).tolist() == [v.layout.dealer_cards] * n
    assert (hands[:, 1:].sum(axis=2) == v.layout.other_cards).all()


def swap_sizes(h):
    return np.concatenate([h[10:], h[:10]])


@settings(max_examples=300, deadline=None)
@given(hand=hands21)
def test_decomposability_is_unchanged_by_swapping_small_and_big(hand):
    df = zs.evaluate_opening(np.stack([hand, swap_sizes(hand)]), "guangxi-81")
    a, b = df["complete"].to_list()
    assert a == b


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_huxi_does_not_depend_on_card_order(data):
    from _gen import complete_hands

    seed = data.draw(st.integers(0, 10_000))
    hand = complete_hands(1, seed)[0]
    cards = [card_name(k) for k in range(20) for _ in range(hand[k])]
    shuffled = data.draw(st.permutations(cards))
    ascii_cards = [card_name(k, ascii=True) for k in range(20) for _ in range(hand[k])]
    a = zs.evaluate_opening("".join(cards), "guangxi-81").row(0)
    b = zs.evaluate_opening("".join(shuffled), "guangxi-81").row(0)
    c = zs.evaluate_opening(" ".join(data.draw(st.permutations(ascii_cards))), "guangxi-81").row(0)
    assert a == b == c
    assert a[1] is not None and a[1] % 3 == 0  # every scoring opening group is worth 3 or 6
