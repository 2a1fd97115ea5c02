"""Tests for zipai_sim.game.cards against RULES.md §1 (expected values derived from the rule text)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from zipai_sim.game.cards import (
    BIG_NAMES,
    COPIES,
    DECK_SIZE,
    IS_BIG,
    IS_RED,
    N_KINDS,
    RED_SLOTS,
    SMALL_NAMES,
    CardError,
    card_name,
    format_hand,
    full_deck_counts,
    is_big,
    is_red,
    parse_card,
    parse_hand,
    validate_counts,
    value_of,
)


def hand(**slots: int) -> np.ndarray:
    """Build an expected hand from slot counts written as k<slot>=count."""
    h = np.zeros(20, dtype=np.int8)
    for key, n in slots.items():
        h[int(key[1:])] = n
    return h


valid_hands = hnp.arrays(np.int8, 20, elements=st.integers(0, 4))


# --- constants vs. RULES.md §1 -------------------------------------------------------------

def test_deck_constants():
    assert (N_KINDS, COPIES, DECK_SIZE) == (20, 4, 80)
    assert full_deck_counts().dtype == np.int8
    assert full_deck_counts().tolist() == [4] * 20


def test_red_cards_are_2_7_10_of_both_sizes():
    # Rule text: red = 二七十 贰柒拾.
    red_chars = "二七十贰柒拾"
    assert sorted(parse_card(c) for c in red_chars) == list(RED_SLOTS)
    assert IS_RED.dtype == np.bool_ and IS_RED.shape == (20,)
    assert [k for k in range(20) if IS_RED[k]] == list(RED_SLOTS)
    assert all(is_red(k) == bool(IS_RED[k]) for k in range(20))
    deck = full_deck_counts()
    assert int(deck[IS_RED].sum()) == 24
    assert int(deck[~IS_RED].sum()) == 56


def test_size_and_value():
    assert IS_BIG.dtype == np.bool_ and IS_BIG.sum() == 10
    assert [is_big(k) for k in range(20)] == [False] * 10 + [True] * 10
    assert [value_of(k) for k in range(20)] == list(range(1, 11)) * 2
    assert SMALL_NAMES[2] == "三" and BIG_NAMES[9] == "拾"
    with pytest.raises(ValueError):
        value_of(20)


def test_card_name():
    assert card_name(0) == "一" and card_name(9) == "十"
    assert card_name(10) == "壹" and card_name(19) == "拾"
    assert card_name(2, ascii=True) == "s3" and card_name(19, ascii=True) == "b10"
    with pytest.raises(ValueError):
        card_name(-1)


# --- parsing --------------------------------------------------------------------------------

def test_parse_chinese_with_whitespace():
    got = parse_hand("一二三 四五六 十十拾")
    assert got.dtype == np.int8 and got.shape == (20,)
    assert got.tolist() == hand(k0=1, k1=1, k2=1, k3=1, k4=1, k5=1, k9=2, k19=1).tolist()
    assert parse_hand("一\t二\n 三").tolist() == parse_hand("一二三").tolist()


def test_empty_text_is_empty_hand():
    assert parse_hand("").tolist() == [0] * 20
    assert parse_hand("  , ").tolist() == [0] * 20


@pytest.mark.parametrize("trad, simp", [("貳", "贰"), ("參", "叁"), ("叄", "叁"), ("陸", "陆")])
def test_traditional_characters(trad, simp):
    assert parse_card(trad) == parse_card(simp)
    assert parse_hand(trad + simp)[parse_card(simp)] == 2


def test_traditional_slots():
    # 贰=big 2 -> slot 11, 叁=big 3 -> 12, 陆=big 6 -> 15.
    assert [parse_card(c) for c in "貳參叄陸"] == [11, 12, 12, 15]


def test_ascii_tokens_case_and_separators():
    expected = hand(k0=1, k1=1, k2=1, k19=1)
    for text in ["s1 s2 s3, b10", "s1,s2,s3,b10", "S1  s2 ,S3 ,, B10", "s1, s2\ts3\nb10"]:
        assert parse_hand(text).tolist() == expected.tolist(), text
    assert parse_card("B7") == 16 and parse_card(" s4 ") == 3


def test_ten_parses_greedily():
    assert parse_card("s10") == 9 and parse_card("b10") == 19
    # s10 is one small 十, not s1 followed by junk; b10 likewise.
    assert parse_hand("s10 b10").tolist() == hand(k9=1, k19=1).tolist()
    assert parse_hand("s10,s1").tolist() == hand(k0=1, k9=1).tolist()


def test_mixed_notation():
    got = parse_hand("一二s3, 十 b10拾")
    assert got.tolist() == hand(k0=1, k1=1, k2=1, k9=1, k19=2).tolist()


# --- round trip -----------------------------------------------------------------------------

def test_format_examples():
    h = hand(k0=1, k1=1, k2=1, k9=2, k19=1)
    assert format_hand(h) == "一二三十十拾"
    assert format_hand(h, ascii=True) == "s1 s2 s3 s10 s10 b10"
    assert format_hand(h, ascii=True, sep=",") == "s1,s2,s3,s10,s10,b10"
    assert format_hand(h.astype(np.int64)) == "一二三十十拾"
    assert format_hand(np.zeros(20, dtype=np.int8)) == ""


@settings(max_examples=200, deadline=None)
@given(valid_hands, st.booleans())
def test_round_trip(h, ascii):
    assert parse_hand(format_hand(h, ascii=ascii)).tolist() == h.tolist()


@settings(max_examples=50, deadline=None)
@given(valid_hands)
def test_round_trip_comma_separated(h):
    assert parse_hand(format_hand(h, ascii=True, sep=", ")).tolist() == h.tolist()


# --- parse errors ---------------------------------------------------------------------------

def test_unknown_token_names_token_and_position():
    # "b1 s x7": b=0 1=1 ' '=2 s=3 -> the bare 's' at offset 3 is the first bad token.
    with pytest.raises(CardError, match=r"'s' at position 3") as ei:
        parse_hand("b1 s x7")
    assert (ei.value.token, ei.value.position) == ("s", 3)
    with pytest.raises(CardError, match=r"'x7' at position 3") as ei:
        parse_hand("b1 x7")
    assert (ei.value.token, ei.value.position) == ("x7", 3)


@pytest.mark.parametrize("text, token, pos", [
    ("一二零", "零", 2),   # 零 is no card
    ("s11", "s11", 0),     # values stop at 10
    ("s0 s1", "s0", 0),
    ("s1s2", "s1s2", 0),   # ASCII tokens need a separator
    ("一 b 2", "b", 2),
    ("三弍", "弍", 1),     # only the traditional forms in §1 are accepted
    ("s1;s2", ";", 2),
])
def test_bad_tokens(text, token, pos):
    with pytest.raises(CardError) as ei:
        parse_hand(text)
    assert (ei.value.token, ei.value.position) == (token, pos)
    assert repr(token) in str(ei.value) and f"position {pos}" in str(ei.value)


def test_parse_card_rejects_non_single_card():
    for bad in ["一二", "", "s", "x1"]:
        with pytest.raises(CardError):
            parse_card(bad)


@pytest.mark.parametrize("text, n", [("三三三三三", 5), ("三三三 s3 參 三 s3", 6)])
def test_too_many_copies(text, n):
    # 參 is big 3 (叁), so it does not add to small 三.
    with pytest.raises(CardError, match=rf"{n} copies of 三 \(s3\)") as ei:
        parse_hand(text)
    assert "the deck holds 4 of each card" in str(ei.value)
    assert isinstance(ei.value, ValueError)


def test_four_copies_allowed():
    assert parse_hand("三三三三 參參參參")[[2, 12]].tolist() == [4, 4]


# --- validate_counts ------------------------------------------------------------------------

def test_validate_returns_contiguous_int8():
    out = validate_counts([1] * 20)
    assert out.dtype == np.int8 and out.flags.c_contiguous and out.shape == (20,)
    batch = np.ones((20, 3), dtype=np.int64).T  # Fortran-ordered view
    out = validate_counts(batch)
    assert out.dtype == np.int8 and out.flags.c_contiguous and out.shape == (3, 20)


@pytest.mark.parametrize("shape", [(19,), (3, 21), (2, 2, 20), ()])
def test_wrong_shape(shape):
    with pytest.raises(CardError, match=r"shape .*expected \(20,\) or \(n, 20\)") as ei:
        validate_counts(np.zeros(shape, dtype=np.int8))
    assert str(shape) in str(ei.value)


def test_negative():
    with pytest.raises(CardError, match="negative"):
        validate_counts([0] * 5 + [-1] + [0] * 14)


def test_non_integer():
    with pytest.raises(CardError, match="integer"):
        validate_counts(np.full(20, 0.5))
    with pytest.raises(CardError, match="integer"):
        validate_counts(["a"] * 20)
    assert validate_counts(np.full(20, 2.0)).tolist() == [2] * 20


def test_too_many_copies_names_card_and_row():
    rows = np.zeros((3, 20), dtype=np.int64)
    rows[2, 2] = 6  # six small 三 in row 2
    with pytest.raises(CardError, match=r"row 2.*6 copies of 三 \(s3\)"):
        validate_counts(rows)
    with pytest.raises(CardError, match=r"300 copies"):  # must not wrap through int8
        validate_counts([300] + [0] * 19)


def test_total_mismatch_names_row():
    rows = np.full((4, 20), 1, dtype=np.int8)
    rows[3, 0] = 0
    with pytest.raises(CardError, match=r"row 3 totals 19 cards; expected 20"):
        validate_counts(rows, total=20)
    assert validate_counts(rows[:3], total=20).shape == (3, 20)
    with pytest.raises(CardError, match=r"hand totals 2 cards; expected 3"):
        validate_counts(parse_hand("一二"), name="hand", total=3)


def test_format_validates():
    with pytest.raises(CardError):
        format_hand(np.full(20, 5))
    with pytest.raises(CardError):
        format_hand(np.zeros((2, 20), dtype=np.int8))


def test_constants_and_helpers_usable_in_numba():
    import numba

    @numba.njit
    def red_points(h):
        # Count red cards and sum face values of big ones, reading module globals.
        red = 0
        big_values = 0
        for k in range(N_KINDS):
            if IS_RED[k] and is_red(k):
                red += h[k]
            if IS_BIG[k] and is_big(k):
                big_values += h[k] * value_of(k)
        return red, big_values

    # Red: 二 二 拾 -> 3 (三 and 壹 are black); big face values: 拾 10 + 壹 1 = 11.
    assert red_points(parse_hand("二二拾壹三")) == (3, 11)
