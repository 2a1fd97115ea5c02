"""Settlement of one hand (RULES.md §7), worked by hand from the rules, the knobs and the seeds.

Every expected number is derived in the comment next to it from RULES.md §7 / §8, the variant
TOML knobs and the seed lines they cite, never from the code under test. Payments are listed
per seat (dealer 0, 1, 2[, 3]) plus the 数信 sitter's entry where the variant has one.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zipai_sim.game.cards import parse_hand
from zipai_sim.game.hand_result import HandResult, Settlement
from zipai_sim.game.settle import settle
from zipai_sim.game.variants import list_variants, load_variant

V81, DZP, HY, CS, CD, LHD = ("guangxi-81", "guangxi-dazipai", "hunan-hengyang",
                              "changsha-paohuzi", "changde-paohuzi", "liuhu-dao")


def hand(text: str) -> tuple[int, ...]:
    return tuple(int(c) for c in parse_hand(text))


def reds(r: int, total: int = 21) -> tuple[int, ...]:
    """``total`` cards of which exactly ``r`` are red (二七十贰柒拾), 4 per kind, small first."""
    counts = [0] * 20
    for slots, k in (((1, 6, 9, 11, 16, 19), r),
                     ((0, 2, 3, 4, 5, 7, 8, 10, 12, 13, 14, 15, 17, 18), total - r)):
        for s in slots:
            counts[s], k = min(4, k), k - min(4, k)
    return tuple(counts)


PLAIN = reds(2)  # 21 cards, 2 red: no red 名堂 or red bonus anywhere


def win(variant: str, winner: int, huxi: int, how: str, cards=PLAIN, **kw) -> Settlement:
    seats = load_variant(variant).layout.players
    return settle(variant, HandResult(seats=seats, dealer=kw.pop("dealer", 0), winner=winner,
                                      huxi=huxi, cards=cards, how=how, **kw))


def huang(variant, dealer: int = 0, streak: int = 0) -> Settlement:
    seats = load_variant(variant).layout.players
    return settle(variant, HandResult(seats, dealer, -1, huangzhuang_streak=streak))


def with_knobs(key: str, section: str, **knobs):
    v = load_variant(key)
    return dataclasses.replace(v, **{section: dataclasses.replace(getattr(v, section), **knobs)})


def test_reds_helper():
    assert sum(reds(13)) == 21 and sum(reds(13)[s] for s in (1, 6, 9, 11, 16, 19)) == 13


# --- guangxi-81: 舵 = ⌊胡/5⌋, 自摸 ×2 (翻信 too), 放炮 pays all, 荒庄 −4/+2 (seed 001) ----------

def test_81_zimo_with_fanxing():
    # 17 胡 → ⌊17/5⌋ = 3 舵 (游戏结算 2: 15–19胡为3舵); 自摸×2 → 6 舵 (结算 5);
    # 翻信 2 matches × 1 舵 = 2, ×2 (对翻信同样有效) = 4; each loser pays 6 + 4 = 10
    # (收两家钱), the winner gets 20.
    s = win(V81, 1, 17, "zimo", fanxing=2)
    assert (s.units, s.fanxing_units, s.mingtang) == (6, 4, ())
    assert s.payments == (-10, 20, -10) and s.next_dealer == 1  # 谁胡牌谁做庄


def test_81_fangpao_pays_for_both():
    # same hand on seat 2's discard: no 自摸 ×2; 3 舵 + 2 翻信 = 5 per player;
    # 放炮 "负担2个人的钱" → seat 2 pays 2 × 5 = 10, seat 0 nothing.
    s = win(V81, 1, 17, "fangpao", payer=2, fanxing=2)
    assert (s.units, s.fanxing_units, s.payments) == (3, 2, (0, 10, -10))


def test_81_win_on_drawn_card_is_plain():
    # drawn_win = "plain" (decision): both others pay 3 + 2 = 5, no ×2.
    assert win(V81, 1, 17, "drawn", fanxing=2).payments == (-5, 10, -5)


@pytest.mark.parametrize("huxi,duo", [(15, 3), (19, 3), (20, 4), (24, 4), (25, 5), (29, 5),
                                      (30, 6)])
def test_81_duo_boundaries(huxi, duo):
    # RULES.md §7.1: 15–19 → 3, 20–24 → 4, 25–29 → 5; 放炮 by seat 0: pays 2 × 舵.
    s = win(V81, 2, huxi, "fangpao", payer=0, dealer=1)
    assert s.units == duo and s.payments == (-2 * duo, 0, 2 * duo)


def test_81_huangzhuang():
    # 过庄: 庄家罚除4舵，每个闲家得2舵 (seed 001); the dealer stays (decision: no limit)
    assert huang(V81).payments == (-4, 2, 2) and huang(V81).next_dealer == 0
    s = huang(V81, dealer=1, streak=7)
    assert (s.units, s.payments, s.next_dealer) == (0, (2, -4, 2), 1)


def test_81_fanxing_not_doubled_when_the_knob_says_so():
    # zimo_multiplies_fanxing = false: 3 舵 × 2 = 6, 翻信 2 × 1 = 2 → each loser pays 8.
    v = with_knobs(V81, "settle", zimo_multiplies_fanxing=False)
    s = settle(v, HandResult(3, 0, 0, 17, PLAIN, "zimo", fanxing=2))
    assert (s.units, s.fanxing_units, s.payments) == (6, 2, (16, -8, -8))


# --- the 数信 sitter (seed 000 ⑼, seed 001 数信: one share per match, at most 3) -----------

def test_sitter_zimo_capped_at_three_shares():
    # guangxi-81 with sitter: 17 胡 自摸, 4 matches. 3 舵 ×2 = 6; 翻信 4 × 2 = 8; each loser
    # pays 14, the winner gets 28 and pays the sitter min(4, 3) = 3 shares → 25; sitter +3.
    v = with_knobs(V81, "layout", sitter=True)
    s = settle(v, HandResult(3, 0, 1, 17, PLAIN, "zimo", fanxing=4))
    assert s.payments == (-14, 25, -14, 3) and sum(s.payments) == 0


def test_sitter_fangpao_and_huangzhuang():
    v = with_knobs(V81, "layout", sitter=True)
    # 20 胡 on seat 0's discard, 1 match: 4 舵 + 1 = 5, seat 0 pays 2 × 5 = 10;
    # the winner (seat 2) passes 1 share to the sitter: +9, sitter +1.
    s = settle(v, HandResult(3, 1, 2, 20, PLAIN, "fangpao", payer=0, fanxing=1))
    assert s.payments == (-10, 0, 9, 1)
    # no match: the sitter gets nothing; 荒庄: −4/+2 and the sitter 0
    assert settle(v, HandResult(3, 0, 1, 15, PLAIN, "zimo")).payments == (-6, 12, -6, 0)
    assert settle(v, HandResult(3, 0, -1)).payments == (-4, 2, 2, 0)


# --- guangxi-dazipai: 1 油 = 1 point (seed 000 ⑶), 点炮 double (seed 004 篇4) ------------

def test_dazipai_zimo_fangpao_drawn():
    # 自摸: 输家所扣积分为获胜玩家所得油数 → each loser 18, the winner 2 × 18 = 36 (相应加倍)
    assert win(DZP, 1, 18, "zimo").payments == (-18, 36, -18)
    # 点炮玩家承担胡牌玩家双倍的油数 → the discarder alone pays 2 × 18 = 36
    assert win(DZP, 1, 18, "fangpao", payer=0).payments == (-36, 36, 0)
    # 通过其他玩家摸的牌胡牌，即为自摸 (seed 004 篇4): as the 自摸 above
    assert win(DZP, 1, 18, "drawn").payments == (-18, 36, -18)
    assert win(DZP, 1, 25, "zimo").units == 25


# --- hunan-hengyang: 囤 = 1 + ⌊(胡 − 10)/3⌋, discarder pays 3× (RULES.md §7.1, §8) -----------

def test_hengyang_tun_and_triple():
    # 16 胡: 1 + ⌊6/3⌋ = 3 囤; 放炮 by seat 2 → 3 × 3 = 9
    assert win(HY, 0, 16, "fangpao", payer=2).payments == (9, 0, -9)
    # 自摸 (no bonus, seed 000 ⑴): each other pays 3
    assert win(HY, 0, 16, "zimo").payments == (6, -3, -3)
    # 12 胡 → 1 + 0 = 1; 13 胡 → 1 + 1 = 2; 10 胡 → 1
    assert [win(HY, 1, h, "drawn").units for h in (10, 12, 13)] == [1, 1, 2]


def test_hengyang_dealer_passes_after_three_huangzhuang():
    # 连续3次荒庄，则由庄家的下家做庄 (seed 000 ⑴); nothing is paid (RULES.md §7.2)
    assert [huang(HY, 1, k).next_dealer for k in (0, 1, 2, 3, 5)] == [1, 1, 2, 1, 2]
    assert huang(HY, 2, 2).next_dealer == 0  # the 下家 of seat 2 is seat 0
    assert huang(HY, 2, 2).payments == (0, 0, 0)


# --- changsha-paohuzi: 排 (seed 000 ⑷) ----------------------------------------------------

@pytest.mark.parametrize("huxi,red,how,pai", [
    (10, 2, "drawn", 5),    # 10胡算卡胡计5排
    (11, 2, "drawn", 3),    # 3胡算一排: ⌊11/3⌋ = 3
    (12, 0, "zimo", 6),     # 4 + 自摸加2排
    (12, 1, "drawn", 5),    # 4 + 1、4、7个红加一排
    (12, 3, "drawn", 4),    # 3 reds: no bonus
    (12, 4, "drawn", 5),
    (12, 7, "drawn", 5),
    (12, 10, "drawn", 6),   # 10~12个红字加二排
    (12, 12, "drawn", 6),
    (15, 13, "zimo", 12),   # ⌊15/3⌋ = 5 < 13个红以上算10排 → 10, + 自摸 2
    (36, 13, "drawn", 12),  # 12 排 is already above the 10-排 floor
    (10, 10, "zimo", 9),    # 卡胡 5 + 2 (10 reds) + 2 自摸
    (0, 2, "drawn", 5),     # 飘胡5排的底
    (0, 4, "zimo", 8),      # 飘胡 5 + 1 (4 reds, 红的算法和有胡子的一样) + 2 自摸
])
def test_changsha_pai(huxi, red, how, pai):
    s = win(CS, 1, huxi, how, cards=reds(red))
    assert s.units == pai and s.payments == (-pai, 2 * pai, -pai)  # both others pay


# --- changde-paohuzi: 囤 = 1 + ⌊(胡 − 15)/3⌋, 自摸 +1 囤, 名堂 番 added (RULES.md §8) --------

RED12 = hand("二二二 七七七 十十十 贰柒拾 四五六 八八八 玖玖玖")  # 3+3+3+3 = 12 red
WU = hand("一一一 三四五 四五六 八八八 肆伍陆 捌捌捌 玖玖玖")  # no red (一二三 would hold 二)
DIAN = hand("一一一 三四五 八八八 叁肆伍 陆柒捌 玖玖玖 九九九")  # one red: 柒
PUNGS = hand("一一一 三三三 四四四 八八八 壹壹壹 叁叁叁 玖玖玖")  # no red, all 坎
FIVE = hand("二七十 一二三 四五六 壹贰叁 肆伍陆 捌捌捌 玖玖玖")  # 二七十 + 二 + 贰 = 5 red


def test_changde_honghu():
    # 24 胡: 1 + ⌊9/3⌋ = 4 囤; 红胡 12 reds: 3 + (12 − 10) = 5 番 → 20; both others pay 20
    s = win(CD, 1, 24, "drawn", cards=RED12)
    assert (s.units, s.mingtang, s.payments) == (20, (("honghu", 5),), (-20, 40, -20))
    # 自摸 +1 囤 before the 番: (4 + 1) × 5 = 25
    assert win(CD, 1, 24, "zimo", cards=RED12).units == 25


def test_changde_wuhu_dianhu_duizihu():
    # 乌胡: 18 胡 (坎 一 3, 八 3, 捌 6, 玖 6) → 1 + ⌊3/3⌋ = 2 囤 × 8 = 16
    s = win(CD, 2, 18, "drawn", cards=WU)
    assert (s.units, s.mingtang) == (16, (("wuhu", 8),))
    # 点胡: 15 胡 (坎 一 3, 八 3, 玖 6, 九 3) → 1 囤, 自摸 +1 = 2, × 6 = 12; each other pays 12
    s = win(CD, 2, 15, "zimo", cards=DIAN)
    assert (s.mingtang, s.payments) == ((("dianhu", 6),), (-12, -12, 24))
    # 对子胡 + 乌胡 added: 30 胡 → 1 + ⌊15/3⌋ = 6 囤 × (8 + 8) = 96
    s = win(CD, 1, 30, "drawn", cards=PUNGS, all_pungs=True)
    assert s.units == 96 and dict(s.mingtang) == {"wuhu": 8, "duizihu": 8}
    # 5 reds: no 名堂, × 1 → 24 胡 = 4 囤
    assert win(CD, 1, 24, "drawn", cards=FIVE).mingtang == ()
    assert win(CD, 1, 24, "drawn", cards=FIVE).units == 4


def test_changde_tianhu_dihu_haidi():
    # 天胡 (dealer, at the deal, 自摸): 24 胡 → 4 + 1 = 5 囤 × 6 = 30; each other pays 30
    s = win(CD, 0, 24, "zimo", cards=FIVE, tianhu=True)
    assert (s.units, s.payments, s.next_dealer) == (30, (60, -30, -30), 0)
    # 地胡 on the 亮张 (not a discard → "drawn"): 4 囤 × 6 = 24
    assert win(CD, 1, 24, "drawn", cards=FIVE, dihu=True).units == 24
    # 海胡 自摸 on the last stock card: (4 + 1) × 6 = 30
    assert win(CD, 2, 24, "zimo", cards=FIVE, haidi=True).units == 30
    # 天胡 + 红胡 12 reds added: 5 囤 × (6 + 5) = 55
    assert win(CD, 0, 24, "zimo", cards=RED12, tianhu=True).units == 55


def test_mingtang_multiply_and_other_names():
    # combine = "multiply": 天胡 6 × 红胡 5 = 30 番 → 5 囤 × 30 = 150
    v = with_knobs(CD, "mingtang", combine="multiply")
    s = settle(v, HandResult(3, 0, 0, 24, RED12, "zimo", tianhu=True))
    assert s.units == 150
    # 大红 (≥13 red) replaces 红胡; 十八大 ≥ 18 big; 十六小 ≥ 16 small (十八小 replaces it)
    v = with_knobs(CD, "mingtang", values=(("dahong", 10), ("honghu", 3), ("shibada", 4),
                                           ("shibaxiao", 7), ("shiliuxiao", 2)))
    # 二×4 七×4 十 贰×4 (13 red) + 壹×4 叁×4: 9 small, 12 big
    red13 = tuple([0, 4, 0, 0, 0, 0, 4, 0, 0, 1] + [4, 4, 4, 0, 0, 0, 0, 0, 0, 0])
    s = settle(v, HandResult(3, 0, 1, 15, red13, "drawn"))
    assert dict(s.mingtang) == {"dahong": 10} and s.units == 10
    big18 = tuple([0] * 10 + [4, 0, 4, 4, 4, 0, 0, 2, 0, 0])  # 18 big, 0 red
    assert dict(settle(v, HandResult(3, 0, 1, 15, big18, "drawn")).mingtang) == {"shibada": 4}
    small16 = tuple([4, 0, 4, 4, 4, 0, 0, 0, 0, 0] + [0, 0, 4, 1, 0, 0, 0, 0, 0, 0])  # 16 small
    assert dict(settle(v, HandResult(3, 0, 1, 15, small16, "drawn")).mingtang) == {
        "shiliuxiao": 2}
    small18 = tuple([4, 0, 4, 4, 4, 2, 0, 0, 0, 0] + [0, 0, 3, 0, 0, 0, 0, 0, 0, 0])
    assert dict(settle(v, HandResult(3, 0, 1, 15, small18, "drawn")).mingtang) == {
        "shibaxiao": 7}


# --- liuhu-dao: 4 players, 1 unit per 胡, as 八一 otherwise (docs/decisions.md) -------------

def test_liuhu_dao():
    # 8 胡 自摸 by seat 2, 1 翻信: 8 × 2 = 16, 翻信 1 × 2 = 2 → three losers pay 18 each
    s = win(LHD, 2, 8, "zimo", cards=reds(2, 15), fanxing=1)
    assert (s.units, s.fanxing_units, s.payments) == (16, 2, (-18, -18, 54, -18))
    # on seat 3's discard: 8 + 1 = 9 for each of 3 others → seat 3 pays 27
    s = win(LHD, 2, 8, "fangpao", cards=reds(2, 15), payer=3, fanxing=1)
    assert s.payments == (0, 0, 27, -27) and s.next_dealer == 2
    assert huang(LHD, 3).payments == (0, 0, 0, 0) and huang(LHD, 3).next_dealer == 3


# --- every shipped variant: payments balance (hypothesis) ---------------------------------

VARIANTS = [load_variant(k) for k in list_variants()] + [with_knobs(V81, "layout", sitter=True)]


@st.composite
def results(draw):
    v = draw(st.sampled_from(VARIANTS))
    n = v.layout.players
    dealer, winner = draw(st.integers(0, n - 1)), draw(st.integers(-1, n - 1))
    streak = draw(st.integers(0, 10))
    if winner == -1:
        return v, HandResult(n, dealer, -1, huangzhuang_streak=streak)
    cards = draw(st.lists(st.integers(0, 4), min_size=20, max_size=20).filter(any))
    how = draw(st.sampled_from(["zimo", "drawn"] + (["fangpao"] if v.win.discard_win else [])))
    payer = draw(st.sampled_from([s for s in range(n) if s != winner])) if how == "fangpao" \
        else -1
    ok = ["", "tianhu"] if how == "zimo" and winner == dealer else [""]
    ok += ["dihu"] if winner != dealer else []
    ok += ["haidi"] if how != "fangpao" else []
    when = draw(st.sampled_from(ok))  # at most one of 天胡 / 地胡 / 海底
    return v, HandResult(
        n, dealer, winner, draw(st.integers(0, 80)), tuple(cards), how, payer,
        all_pungs=draw(st.booleans()), tianhu=when == "tianhu", dihu=when == "dihu",
        haidi=when == "haidi",
        fanxing=draw(st.integers(0, 6)) if v.fanxing.enabled else 0,
        huangzhuang_streak=streak)


@settings(max_examples=300, deadline=None)
@given(results())
def test_payments_sum_to_zero(vr):
    v, r = vr
    s = settle(v, r)
    assert sum(s.payments) == 0
    assert len(s.payments) == v.layout.players + v.layout.sitter
    assert 0 <= s.next_dealer < v.layout.players
    if r.winner >= 0:
        assert s.next_dealer == r.winner and s.units >= 0
        losers = [p for i, p in enumerate(s.payments[:r.seats]) if i != r.winner]
        assert all(p <= 0 for p in losers) and s.payments[r.winner] >= 0
        if r.how != "fangpao":  # every other active player pays the same amount
            assert len(set(losers)) == 1


# --- inconsistent input ------------------------------------------------------------------

@pytest.mark.parametrize("variant,kw,message", [
    (V81, {"winner": 3}, "winner must be a seat 0..2 or -1"),
    (V81, {"winner": -2}, "winner must be a seat"),
    (V81, {"dealer": 3}, "dealer must be a seat"),
    (V81, {"seats": 4}, "seats = 4 but guangxi-81 has 3"),
    (V81, {"how": "fangpao"}, "needs the discarder as payer"),
    (V81, {"how": "fangpao", "payer": 1}, "payer == winner"),
    (V81, {"payer": 2}, "payer is only for how = 'fangpao'"),
    (V81, {"how": "ron"}, "how must be one of zimo, fangpao, drawn"),
    (V81, {"cards": (1,) * 19}, "cards must be 20 integer counts"),
    (V81, {"cards": (5,) + (0,) * 19}, "0..4 copies"),
    (V81, {"cards": (0,) * 20}, "must not be empty"),
    (V81, {"cards": ()}, "cards must be 20 integer counts"),
    (V81, {"huxi": -1}, "huxi and fanxing must be ≥ 0"),
    (V81, {"huxi": 1.5}, "huxi must be an integer"),
    (V81, {"tianhu": True}, "天胡"),  # winner 1 is not the dealer
    (V81, {"winner": 0, "dihu": True}, "地胡"),
    (V81, {"how": "fangpao", "payer": 2, "haidi": True}, "海底"),
    (DZP, {"fanxing": 1}, "has no 翻信"),
    (CD, {"how": "fangpao", "payer": 2}, "allows no win on a discard"),
    (V81, {"winner": -1}, "荒庄"),  # a 荒庄 with how = "zimo" and 胡息
    (V81, {"winner": 0, "huangzhuang_streak": -1}, "huangzhuang_streak"),
])
def test_errors(variant, kw, message):
    base = {"seats": 3, "dealer": 0, "winner": 1, "huxi": 17, "cards": PLAIN, "how": "zimo"}
    with pytest.raises(ValueError, match=message):
        settle(variant, HandResult(**{**base, **kw}))


def test_unbalanced_huangzhuang_knobs():
    v = with_knobs(V81, "settle", huangzhuang_dealer=-5)  # −5 + 2 × 2 ≠ 0
    with pytest.raises(ValueError, match="not 0"):
        settle(v, HandResult(3, 0, -1))
