"""Stacked decks at the deal: 天胡, the two-提 extra card, 地胡 and 翻信 worked by hand
(RULES.md §6, §7.3; seed 000 ⑻ for the extra card, seed 001 for 翻信)."""

import numpy as np
import pytest

import zipai_sim as zs
from zipai_sim.game.cards import parse_hand


def stacked(dealer21: str, liangzhang: str, stock_top: list[str], seat1: str | None = None):
    """A 3-player deck: the dealer's 21 cards (the 亮张 one of them), optionally seat 1's 20,
    then the stock starting with ``stock_top``; the other cards in a fixed shuffled order."""
    d = parse_hand(dealer21).astype(int)
    lz = int(np.argmax(parse_hand(liangzhang)))
    d[lz] -= 1
    left = 4 - parse_hand(dealer21).astype(int)
    top = [int(np.argmax(parse_hand(c))) for c in stock_top]
    s1 = parse_hand(seat1).astype(int) if seat1 else None
    for k in top:
        left[k] -= 1
    if s1 is not None:
        left -= s1
    assert (left >= 0).all()
    rest = np.repeat(np.arange(20), left)
    np.random.default_rng(0).shuffle(rest)
    rest = list(rest)
    dealer20 = list(np.repeat(np.arange(20), d))
    if s1 is not None:
        seat1_cards = list(np.repeat(np.arange(20), s1))
    else:
        seat1_cards, rest = rest[:20], rest[20:]
    seat2, rest = rest[:20], rest[20:]
    deck = dealer20 + seat1_cards + seat2 + [lz] + top + rest
    assert len(deck) == 80
    return np.array([deck], dtype=np.int8)


TIANHU_18 = "拾拾拾 壹壹壹 一二三 二七十 四五六 柒捌玖 八八捌"  # §10: 18 胡息


def test_tianhu_and_benxing_counts_the_dealers_copies():
    # 本醒 (guangxi-81): the turned 拾 matches the dealer's three 拾 -> 3 舵; 二 -> two 二
    r = zs.score_decks(stacked(TIANHU_18, "一", ["拾"]), "guangxi-81").row(0, named=True)
    assert (r["tianhu"], r["dealer_huxi"], r["fanxing"]) == ("complete", 18, 3)
    r = zs.score_decks(stacked(TIANHU_18, "一", ["二"]), "guangxi-81").row(0, named=True)
    assert r["fanxing"] == 2
    r = zs.score_decks(stacked(TIANHU_18, "一", ["三"]), "guangxi-81").row(0, named=True)
    assert r["fanxing"] == 1
    # 大字牌 has no 翻信, and the same hand is a 天胡 there too (15 油)
    r = zs.score_decks(stacked(TIANHU_18, "一", ["拾"]), "guangxi-dazipai").row(0, named=True)
    assert (r["tianhu"], r["fanxing"]) == ("complete", None)


TWO_TI = "贰贰贰贰 拾拾拾拾 一二三 四五六 七八九 柒捌 十十"  # 2 提 + 13 free: not complete


def test_two_ti_extra_card_can_complete_the_dealer():
    # 大字牌: the extra 玖 makes 柒捌玖 and the pair 十十: 提 12 + 12 + 一二三 3 = 27 ≥ 15
    deck = stacked(TWO_TI, "十", ["玖"])
    r = zs.score_decks(deck, "guangxi-dazipai").row(0, named=True)
    assert (r["tianhu"], r["dealer_huxi"]) == ("complete", None)
    # without the extra-card rule the dealer's 21 are not complete: no 天胡
    assert zs.score_decks(deck, "guangxi-81").row(0, named=True)["tianhu"] == ""


def test_dihu_with_the_liangzhang():
    # seat 1: 20 cards waiting on 十 with a pair of 十: 碰 makes 一二三 3 + 壹贰叁 6 + 1 = 10
    seat1 = "一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十"
    dealer = "二二 三三 五五 六六 八八 九九 贰贰 叁叁 伍伍 陆陆 十"  # 十 is the 亮张
    deck = stacked(dealer, "十", ["捌"], seat1=seat1)
    hy = zs.score_decks(deck, "hunan-hengyang").row(0, named=True)  # threshold 10
    assert (hy["tianhu"], hy["dihu_seat"]) == ("", 1)
    v81 = zs.score_decks(deck, "guangxi-81").row(0, named=True)  # threshold 15: too few
    assert v81["dihu_seat"] is None


def test_score_decks_rejects_a_bad_deck():
    deck = stacked(TIANHU_18, "一", ["拾"])
    deck[0, 0] = deck[0, 1] if deck[0, 0] != deck[0, 1] else (deck[0, 0] + 1) % 20
    with pytest.raises(ValueError, match="not a full deck"):
        zs.score_decks(deck, "guangxi-81")
