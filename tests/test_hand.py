"""Hands worked by hand from RULES.md §3, §4, §6 and the §10 examples.

Points (standard table, §4): 碰 1/3, 坎 偎 3/6, 跑 6/9, 提 9/12, 一二三 and 二七十 3/6 (small/big);
大字牌 碰 by colour: small black 1, small red 3, big black 3, big red 6.
"""

import pytest

import zipai_sim as zs

V81 = "guangxi-81"  # threshold 15, 抢招和 allowed, 提 count as 坎
CHANGSHA = "changsha-paohuzi"  # threshold 10, 飘胡, no 抢招和, 提 not counted as 坎


def row(hand, variant=V81, **kw):
    return zs.evaluate_opening(hand, variant, **kw).row(0, named=True)


# §10: (hand, complete, 胡息 or None, instant)
SECTION_10 = [
    ("一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十拾", True, 9, ""),  # 3 + 6; 绞 0
    ("拾拾拾 壹壹壹 一二三 二七十 四五六 柒捌玖 八八捌", True, 18, ""),  # 坎 6+6, 3, 3
    ("贰贰贰贰 一二三 二七十 四五六 伍陆柒 捌捌八 玖玖", True, 18, ""),  # 提 12 + 3 + 3
    ("一一二二三三四四七八九十壹贰叁肆肆伍陆柒柒", True, 12, ""),  # best of 0..12
    ("一二三 一二三 壹贰叁 柒捌玖 二七十 四五六 九九玖", False, None, ""),  # 三 is a locked 坎
    ("贰贰贰贰 拾拾拾拾 一二三 四五六 七八九 壹叁 伍陆", False, None, ""),  # two 提: 13 free
    ("三三三 五五五 八八八 壹壹壹 玖玖玖 一二 肆伍 六七", False, None, "wukan"),
]


@pytest.mark.parametrize("hand,complete,huxi,instant", SECTION_10)
def test_section_10_examples(hand, complete, huxi, instant):
    r = row(hand)
    assert r["complete"] is complete
    assert r["huxi"] == huxi
    assert r["instant"] == instant
    assert zs.explain(hand, V81).huxi == (huxi if complete else -1)


def test_section_10_wins_against_threshold_15():
    assert [row(h)["win"] for h, *_ in SECTION_10] == [False, True, True, False, False, False, True]


def test_big_runs_and_both_erqishi_score():
    # 壹贰叁 6 + 贰柒拾 6 + 一二三 3 + 二七十 3 + 肆伍陆, 四五六, 七八九 0 = 18
    r = row("壹贰叁 贰柒拾 肆伍陆 一二三 二七十 四五六 七八九")
    assert (r["complete"], r["huxi"]) == (True, 18)


def test_ti_needs_exactly_one_pair():
    # 提 四 (9) + 一二三 3 + 五六七 + 壹贰叁 6 + 肆伍陆 + 柒捌玖 + pair 拾拾 = 18
    assert row("四四四四 一二三 五六七 壹贰叁 肆伍陆 柒捌玖 拾拾")["huxi"] == 18
    # no four-card group: a pair is not allowed (20 cards = six groups + 十十)
    assert row("一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十")["complete"] is False
    # a 提 with 16 free cards: 16 - 2 is not a multiple of 3
    assert row("四四四四 一二三 五六七 壹贰叁 肆伍陆 柒捌玖 拾")["complete"] is False


def test_jiao_both_ways_score_nothing():
    # 绞 五五伍 and 陆陆六 0; 一二三 3; 壹贰叁 6; 七八九, 柒捌玖, 贰叁肆 0 (one 壹: one 壹贰叁)
    r = row("五五伍 陆陆六 一二三 七八九 壹贰叁 柒捌玖 贰叁肆")
    assert (r["complete"], r["huxi"]) == (True, 3 + 6)


H20 = "一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十"  # 9 胡息 in runs, a pair of 十


def test_incoming_pair_makes_peng_or_wei():
    # from another player: 碰 十十十, small 碰 = 1 -> 3 + 6 + 1
    assert zs.explain(H20, V81, incoming="十", source="other").huxi == 10
    # own draw: 偎 (forced), small = 3 -> 12
    assert zs.explain(H20, V81, incoming="十", source="self").huxi == 12
    # 十十拾 绞 scores nothing
    assert zs.explain(H20, V81, incoming="拾", source="other").huxi == 9


def test_dazipai_red_peng_scores_by_colour():
    # 大字牌 油 table: small red 碰 (十) = 3 -> 3 + 6 + 3
    assert zs.explain(H20, "guangxi-dazipai", incoming="十", source="other").huxi == 12


H_KAN_PAO = "五五五 一二三 七八九 壹贰叁 肆伍陆 柒捌玖 拾拾"


def test_kan_with_incoming_makes_pao_or_ti_and_owes_the_pair():
    # another's 五: 跑 small 6, the pair 拾拾 is now owed: 6 + 3 + 6 = 15
    e = zs.explain(H_KAN_PAO, V81, incoming="五", source="other")
    assert (e.huxi, e.win) == (15, True)
    assert ("pao", "五五五五", 6) in e.groups
    # own draw: 提 small 9 -> 18
    assert zs.explain(H_KAN_PAO, V81, incoming="五", source="self").huxi == 18


H_QIANGZHAO = "三三三 一二 四五六 七八九 壹贰叁 肆伍陆 柒捌玖"


def test_qiangzhao_keeps_the_kan_only_where_allowed():
    # 跑 would owe a pair (一二 is none); keeping the 坎 and taking 一二三: 3 + 3 + 6 = 12
    assert zs.explain(H_QIANGZHAO, V81, incoming="三", source="other").huxi == 12
    assert zs.explain(H_QIANGZHAO, CHANGSHA, incoming="三", source="other").huxi == -1
    # own draw: 提 is forced, and the 17 free cards hold no pair
    assert zs.explain(H_QIANGZHAO, V81, incoming="三", source="self").huxi == -1


def test_wukan_counting_ti_is_a_knob():
    hand = "一一一一 二二二二 三三三 四四四 五五五 六七八九"  # 2 提 + 3 坎
    assert row(hand, V81)["instant"] == "wukan"  # 桂林: 提 count as 坎
    assert row(hand, CHANGSHA)["instant"] == ""


def test_santi_and_liuhu_has_no_instant_wins():
    assert row("一一一一 二二二二 三三三三 四五六 七八九 壹贰叁", V81)["instant"] == "santi"
    r = row("一一一一 二二二二 三三三三 四五六", "liuhu-dao")
    assert (r["instant"], r["win"]) == ("", False)


def test_hengyang_wukan_needs_the_liangzhang_to_make_the_fifth_kan():
    hand = SECTION_10[6][0]  # five 坎: 三 五 八 壹 玖
    hy = "hunan-hengyang"
    assert row(hand, hy, liangzhang="三")["instant"] == "wukan"
    assert row(hand, hy, liangzhang="一")["instant"] == ""
    assert row(hand, hy)["instant"] == ""  # 亮张 unknown
    assert row(hand, hy, liangzhang="三", dealer=False)["instant"] == ""


def test_piaohu_zero_huxi_wins_only_in_changsha():
    hand = "四五六 七八九 肆伍陆 柒捌玖 三四五 六七八 叁肆伍"  # no scoring group possible
    assert row(hand, CHANGSHA) == {"complete": True, "huxi": 0, "ti": 0, "kan": 0,
                                   "instant": "", "win": True}
    assert row(hand, V81)["win"] is False


def test_waits_of_a_twenty_card_hand():
    w = zs.waits(H20, V81)
    by = {r["card"]: r for r in w.iter_rows(named=True)}
    assert (by["十"]["huxi_self"], by["十"]["huxi_other"]) == (12, 10)
    assert (by["拾"]["huxi_self"], by["拾"]["huxi_other"]) == (9, 9)


def test_explain_lists_groups_with_their_huxi():
    e = zs.explain(SECTION_10[2][0], V81)
    assert ("ti", "贰贰贰贰", 12) in e.groups and ("jiang", "玖玖", 0) in e.groups
    assert sum(g[2] for g in e.groups) == e.huxi == 18
    assert "18 胡息" in str(e)


def test_batch_rows_match_single_rows():
    hands = [zs.parse_hand(h) for h, *_ in SECTION_10]
    import numpy as np

    df = zs.evaluate_opening(np.stack(hands), V81)
    assert df["huxi"].to_list() == [r[2] for r in SECTION_10]


@pytest.mark.parametrize("bad,match", [
    ("三三三三三", "5 copies of 三"),
    ("一二x", "'x' at position 2"),
])
def test_bad_hands_are_named(bad, match):
    with pytest.raises(zs.CardError, match=match):
        zs.evaluate_opening(bad, V81)


def test_incoming_fifth_copy_is_refused():
    with pytest.raises(zs.CardError, match="fifth"):
        zs.explain("一一一一 二三", V81, incoming="一")


# --- batches (issue 8: the public API at kernel speed) ---------------------------------------

def _section_10_batch():
    import numpy as np

    return np.stack([zs.parse_hand(h) for h, *_ in SECTION_10])


def test_batch_frame_has_the_documented_columns_and_dtypes():
    import polars as pl

    df = zs.evaluate_opening(_section_10_batch(), V81)
    assert df.schema == pl.Schema({"complete": pl.Boolean, "huxi": pl.Int64, "ti": pl.Int8,
                                   "kan": pl.Int8, "instant": pl.Enum(["", "santi", "wukan"]),
                                   "win": pl.Boolean})
    # the §10 table, row by row: 提 and 坎 counted by hand from the hands' text
    assert df["instant"].to_list() == [r[3] for r in SECTION_10]
    assert df["ti"].to_list() == [0, 0, 1, 0, 0, 2, 0]
    assert df["kan"].to_list() == [0, 2, 0, 0, 1, 0, 5]
    assert df.filter(pl.col("instant") == "wukan").height == 1  # compares as text


def test_instant_column_reads_the_kernel_codes():
    """The ``instant`` Enum built from the kernel's codes (``hand.INSTANT_*``) reads as the
    shapes' names, and the §10 batch's instant shapes come out of ``evaluate_opening``."""
    import numpy as np
    import polars as pl

    from zipai_sim.deals import evaluate
    from zipai_sim.kernels import hand as khand

    codes = np.array([khand.INSTANT_NONE, khand.INSTANT_SANTI, khand.INSTANT_WUKAN,
                      khand.INSTANT_WUKAN, khand.INSTANT_NONE, khand.INSTANT_SANTI], np.int8)
    want = ["", "santi", "wukan", "wukan", "", "santi"]
    col = pl.DataFrame({"c": codes.view(np.uint8)}).select(evaluate._INSTANT_EXPR).to_series()
    assert col.to_list() == want
    assert col.dtype == evaluate.INSTANT
    df = zs.evaluate_opening(_section_10_batch(), V81)
    assert df["instant"].to_list() == [r[3] for r in SECTION_10]
    assert df["instant"].dtype == evaluate.INSTANT


def test_batch_layouts_and_dtypes_give_the_same_frame():
    import numpy as np

    hands = _section_10_batch()
    want = zs.evaluate_opening(hands, V81)
    wide = np.zeros((len(hands), 3, 20), np.int8)
    wide[:, 1] = hands  # a strided view, as deal().hands[:, 1]
    frozen = hands.copy()
    frozen.setflags(write=False)
    for same in (hands.astype(np.int64), hands.tolist(), wide[:, 1], hands.astype(float), frozen):
        assert zs.evaluate_opening(same, V81).equals(want)
    assert zs.evaluate_opening(hands[2], V81).equals(want[2])  # one hand: one row


def test_empty_batch_gives_an_empty_frame():
    import numpy as np

    df = zs.evaluate_opening(np.zeros((0, 20), np.int8), V81)
    assert df.height == 0 and df.columns == ["complete", "huxi", "ti", "kan", "instant", "win"]
    w = zs.waits(np.zeros((0, 20), np.int8), V81)
    assert w.height == 0 and w.columns[0] == "hand"


def _bad(row, fix):
    """The §10 batch with row ``row`` changed by ``fix`` (counts int8[20] → None)."""
    hands = _section_10_batch()
    fix(hands[row])
    return hands


def _set(**kw):
    def fix(h):
        for name, x in kw.items():
            h[zs.parse_hand(name).argmax()] = x
    return fix


def _add(name, x):
    def fix(h):
        h[zs.parse_hand(name).argmax()] += x
    return fix


@pytest.mark.parametrize("row_,fix,match", [
    (3, _set(三=6), r"counts row 3: too many copies: 6 copies of 三"),  # a sixth 三
    (5, _set(五=-1), r"counts row 5: negative count: -1 of 五"),
    (1, _set(一=127), r"counts row 1: too many copies: 127 copies of 一"),
    (6, _set(一=-128), r"counts row 6: negative count: -128 of 一"),
    # the total stays 21: only the counts are wrong
    (4, lambda h: (_add("九", -2)(h), _add("二", 2)(h)), r"counts row 4: too many copies"),
    (2, _set(贰=0), r"an opening hand row 2 holds 17 cards; expected 20..22"),  # no 提 贰
    (0, _add("一", 2), r"an opening hand row 0 holds 23 cards; expected 20..22"),
])
def test_bad_rows_of_a_batch_are_named(row_, fix, match):
    with pytest.raises(zs.CardError, match=match):
        zs.evaluate_opening(_bad(row_, fix), V81)


def test_first_bad_row_is_named_and_shape_and_type_errors_stay():
    hands = _section_10_batch()
    hands[6, 0] += 1
    hands[2, 0] = 5
    with pytest.raises(zs.CardError, match="counts row 2: too many copies: 5 copies of 一"):
        zs.evaluate_opening(hands, V81)
    with pytest.raises(zs.CardError, match=r"counts has shape \(7, 19\)"):
        zs.evaluate_opening(_section_10_batch()[:, :19], V81)
    floats = _section_10_batch().astype(float)
    floats[1, 0] = 0.5
    with pytest.raises(zs.CardError, match=r"must hold integers; got 0.5 at index \(1, 0\)"):
        zs.evaluate_opening(floats, V81)
    with pytest.raises(zs.CardError, match="liangzhang 九 is not in hand row 1"):
        zs.evaluate_opening(_section_10_batch(), "hunan-hengyang", liangzhang="九")


def test_opening_arguments_are_checked():
    h21 = "拾拾拾 壹壹壹 一二三 二七十 四五六 柒捌玖 八八捌"
    for bad in (True, 2.0, 20, -1):
        with pytest.raises(zs.CardError, match="liangzhang must be a card slot 0..19"):
            zs.evaluate_opening(h21, V81, liangzhang=bad)
    with pytest.raises(TypeError, match="dealer must be True or False, got 'no'"):
        zs.evaluate_opening(h21, V81, dealer="no")
    # explain checks the 亮张 as evaluate_opening does
    with pytest.raises(zs.CardError, match="liangzhang 九 is not in the hand"):
        zs.explain(h21, "hunan-hengyang", liangzhang="九")
    # 大坎 拾 6 + 大坎 壹 6 + 一二三 3 + 二七十 3, the runs and the 绞 八八捌 0 (RULES.md §4)
    assert zs.explain(h21, "hunan-hengyang", liangzhang="八").huxi == 18


def test_waits_batch_is_the_single_hand_frames_stacked():
    import numpy as np
    import polars as pl

    hands = [H20, H_KAN_PAO, "一二", "一二三 四五六 七八九", "一一一一 二三", "四四四四"]
    batch = np.stack([zs.parse_hand(h) for h in hands])
    got = zs.waits(batch, V81)
    singles = [zs.waits(h, V81) for h in hands]
    assert singles[0].columns == ["kind", "card", "huxi_self", "huxi_other", "win_self",
                                  "win_other"]  # one hand: no hand column, as before
    want = pl.concat([w.select(pl.lit(i, pl.Int64).alias("hand"), pl.all())
                      for i, w in enumerate(singles)])
    assert got.equals(want)
    assert sorted(set(got["hand"])) == [0, 1, 2]  # rows 3..5 have no wait
    # H20's three waits, from test_waits_of_a_twenty_card_hand and the waits docstring
    assert got.filter(pl.col("hand") == 0).select("card", "huxi_self", "huxi_other").rows() == [
        ("二", 12, 12), ("十", 12, 10), ("拾", 9, 9)]


def test_waits_batch_passes_the_table_and_names_bad_rows():
    import numpy as np

    batch = np.stack([zs.parse_hand(h) for h in (H20, H_KAN_PAO)])
    got = zs.waits(batch, V81, table_huxi=3, table_fours=1)
    for i, h in enumerate((H20, H_KAN_PAO)):
        one = zs.waits(h, V81, table_huxi=3, table_fours=1)
        assert got.filter(hand=i).drop("hand").equals(one)
    bad = batch.copy()
    bad[1] = 0
    with pytest.raises(zs.CardError, match="hand row 1 holds 0 cards; expected 1..21"):
        zs.waits(bad, V81)
    bad[1, 3] = 5
    with pytest.raises(zs.CardError, match="hand row 1: too many copies: 5 copies of 四"):
        zs.waits(bad, V81)
    with pytest.raises(ValueError, match="table_fours must be a non-negative integer"):
        zs.waits(batch, V81, table_fours=-1)
