"""Scenarios from stacked decks for the six classes of illegal play found by the independent
replay (issue 13), each quoting the rule it checks (RULES.md §5.3, §5.6, §6, §7.3, §7.4).

The reference engine plays them with scripted policies; the numba kernel plays the same decks
where the scenario does not hang on a scripted choice (the two engines agree move for move on
every shipped policy: test_play_kernel.py)."""

import dataclasses

import numpy as np
import pytest
from test_play import Script, lines, stacked

import zipai_sim as zs
from zipai_sim.game.hand_result import CoWinner, HandResult
from zipai_sim.game.settle import settle, settle_counts
from zipai_sim.kernels import play as kp
from zipai_sim.play.engine import Game
from zipai_sim.play.trace import hand_result


class Seq(Script):
    """A Script whose 吃 answers come from a list (then -1)."""

    def __init__(self, discards=(), peng=False, chi=()):
        super().__init__(discards, peng)
        self.chis = list(chi)

    def chi(self, game, seat, card, options):
        return self.chis.pop(0) if self.chis else -1


def kernel(variant, deck, policy=kp.POL_GREEDY):
    v = zs.load_variant(variant)
    rows, out = kp.play_one(v, deck, [policy] * v.layout.players)
    return [t for t in (kp.move_tuple(r) for r in rows) if t is not None], out


# --- 1. a win never skips a forced 提 or 跑 (§6 "Forced four-card groups bind the winner too")

# seat 1: 五五 四六 一二三 壹贰叁 七八九 肆伍陆 柒捌玖 拾 (the 衡阳 example)
SEAT1_WEI = "五五 四六 一二三 壹贰叁 七八九 肆伍陆 柒捌玖 拾"
DEALER_WEI = "九 十十 二二 三三 贰贰 叁叁 陆陆 捌捌 玖玖 拾拾"


@pytest.mark.parametrize("variant", ["hunan-hengyang", "guangxi-81"])
def test_own_draw_onto_own_wei_is_a_ti_even_to_win(variant):
    """Seed 001 扫穿 "即使是自己要胡，都不给，除非是扫穿来胡": seat 1 偎 五五五, later draws the
    fourth 五. Used freely in 四五六 it would complete 12 胡息 (偎 3 + 一二三 3 + 壹贰叁 6); as the
    forced 提 the hand (四六 + five groups) is not complete, so the 提 is made and play goes
    on. No 抢招和 reaches a 提 (八一 has 抢招和 for 跑 only)."""
    deck = stacked([DEALER_WEI, SEAT1_WEI], "八", ["五", "一", "壹", "五"])
    v = zs.load_variant(variant).with_threshold(10)
    g = Game(v, deck, [Script([8]), Script([19]), Script()], 0, 0)
    out = g.play()
    log = lines(g)
    assert log[:4] == ["0: discards 九", "1: draws 五", "1: 偎 五五五", "1: discards 拾"]
    assert "1: 提 五五五五" in log
    assert not (out.winner == 1 and out.win_card == 4)


PENG_WAIT = "四六 一二三 壹贰叁 七八九 肆伍陆 柒捌玖 五五 拾"


def test_drawn_card_onto_own_peng_must_pao_without_qiangzhao():
    """Seed 000 ⑴ 跑 ② "玩家桌面已有碰的牌，当自己或其他玩家摸出相同的牌后，必须跑牌" and §6: a
    drawn card onto one's 碰 wins only as that 跑 where 抢招和 is off (衡阳); with 抢招和 (八一,
    seed 001 "自己胡牌的话就可以不开舵") the winner may use it freely (四五六: 12 胡息 at threshold
    10)."""
    # the dealer discards 五, seat 1 碰 and discards 拾; seat 2 then draws the 4th 五
    deck = stacked(["五 十十 二二 三三 贰贰 叁叁 陆陆 捌捌 玖玖 拾", PENG_WAIT], "八",
                   ["五", "一"])
    pol = [Script([4]), Script([19], peng=True), Script()]
    g = Game(zs.load_variant("hunan-hengyang"), deck, pol, 0, 0)
    out = g.play()
    assert lines(g)[:4] == ["0: discards 五", "1: 碰 五五五", "1: discards 拾", "2: draws 五"]
    assert lines(g)[4] == "1: 跑 五五五五" and not (out.winner == 1 and out.win_card == 4)
    pol = [Script([4]), Script([19], peng=True), Script()]
    g = Game(zs.load_variant("guangxi-81").with_threshold(10), deck, pol, 0, 0)
    out = g.play()
    assert (out.winner, out.how, out.win_card, out.huxi) == (1, "drawn", 4, 1 + 3 + 6)


# --- 2. a claim must leave a discard (§5.3) ------------------------------------------------

ALL_KAN = "一一一 三三三 五五五 七七七 壹壹壹 叁叁叁"  # six 坎: 18 cards


def test_peng_and_chi_that_leave_only_kan_are_not_offered():
    """§5.3 "A claim must leave a discard": seat 1 holds six 坎 and 九九; 碰 九 would leave only
    坎, so it is not offered (not a pass either: 九 is not 臭). Same for a 吃 of 九 with 八十."""
    for hold, card in (("九九", "九"), ("八十", "九")):
        dealer = card + " 二四六 贰肆陆 捌捌 拾拾 二四六 贰肆陆 捌"
        deck = stacked([dealer, ALL_KAN + hold], "四", [])
        v = zs.load_variant("hunan-hengyang").with_threshold(100)
        pol = [Script([8]), Script(peng=True, chi=0), Script()]
        g = Game(v, deck, pol, 0, 0)
        g.play()
        assert lines(g)[0] == "0: discards 九"
        assert lines(g)[1].startswith("1: draws"), lines(g)[:3]  # no 碰, no 吃
        assert 8 not in g.players[1].chou


def test_only_kan_left_skips_the_owed_discard():
    """§5.3 corner, ``[play].only_kan_discard = "skip"`` (seed 001: a 坎 "不能拆开作其它牌型，也
    不能打出去"): seat 1 吃 四五六, discards 九, then draws 一 onto its pair: the forced 偎
    leaves only 坎 in hand, so no discard follows (the next seat draws). With "break_kan" a card
    of a 坎 is discarded instead."""
    seat1 = "三三三 七七七 八八八 壹壹壹 叁叁叁 一一 四六 九"
    deck = stacked(["五 十十 二二 贰贰 柒柒 捌捌 玖玖 拾拾 七 肆 陆 伍", seat1], "伍",
                   ["贰", "柒", "一"])
    v = zs.load_variant("hunan-hengyang").with_threshold(100)
    g = Game(v, deck, [Script([4]), Seq([8], chi=[0]), Script()], 0, 0)
    g.play()
    log = lines(g)
    i = log.index("1: 偎 一一一")
    assert log[:3] == ["0: discards 五", "1: 吃 四五六", "1: discards 九"]
    assert log[i + 1].startswith("2: draws")
    hand = g.players[1].hand
    assert all(n in (0, 3) for n in hand)
    v2 = dataclasses.replace(v, play=dataclasses.replace(v.play, only_kan_discard="break_kan"))
    g = Game(v2, deck, [Script([4]), Seq([8], chi=[0]), Script()], 0, 0)
    g.play()
    log = lines(g)
    assert log[log.index("1: 偎 一一一") + 1].startswith("1: discards")


# --- 3. 名堂 read the same on both engines (§7.4 对子胡) ---------------------------------------

def test_instant_win_without_a_decomposition_is_not_duizihu():
    """RULES.md §10: 三三三 五五五 八八八 壹壹壹 玖玖玖 一二 肆伍 六七 wins at once (五坎) though
    not complete: its free cards need runs, so 常德 pays no 对子胡 (8 番) on it."""
    dealer = "三三三 五五五 八八八 壹壹壹 玖玖玖 一二 肆伍 六"
    deck = stacked([dealer], "七", [])
    g = Game(zs.load_variant("changde-paohuzi"), deck, [Script()] * 3, 0, 0)
    out = g.play()
    assert (out.winner, out.instant, out.all_pungs) == (0, "wukan", False)
    money = settle("changde-paohuzi", hand_result(g, out))
    assert "duizihu" not in dict(money.mingtang)
    moves, row = kernel("changde-paohuzi", deck)
    assert moves == g.moves and row[kp.O_ALL_PUNGS] == 0


# --- 4. two instant wins at the deal (§6; seed 000 ⑻) ------------------------------------------

SMALL_TI = "一一一一 二二二二 三三三三"  # 三提, 9 × 3 = 27 胡息 (油)
OTHER_SMALL_TI = "四四四四 五五五五 六六六六"  # 27
BIG_TI = "肆肆肆肆 伍伍伍伍 陆陆陆陆"  # 12 × 3 = 36


def test_higher_points_wins_when_two_players_hold_instant_wins():
    """Seed 000 ⑻ "油数大的那一方为胡牌方": seat 1's 三提 of 36 油 beats the dealer's 27."""
    deck = stacked([SMALL_TI + " 七八九 柒捌", BIG_TI + " 七八九 柒捌"], "玖", [])
    g = Game(zs.load_variant("guangxi-dazipai"), deck, [Script()] * 3, 0, 0)
    out = g.play()
    assert (out.winner, out.huxi, out.instant, out.cowinners) == (1, 36, "santi", ())
    assert settle("guangxi-dazipai", hand_result(g, out)).payments == (-36, 72, -36)
    moves, row = kernel("guangxi-dazipai", deck)
    assert moves == g.moves and (row[kp.O_WINNER], row[kp.O_HUXI], row[kp.O_NCO]) == (1, 36, 0)


def test_equal_points_both_win_and_the_third_pays_each():
    """Seed 000 ⑻ "油数相同，两家皆胡，没有胡的那一家最后各给予两家一倍的油数": the dealer and seat
    1 each hold 三提 of 27 油; seat 2 pays each 27 (大字牌 自摸 ×1)."""
    deck = stacked([SMALL_TI + " 七八九 柒捌", OTHER_SMALL_TI + " 七八九 柒捌"], "玖", [])
    g = Game(zs.load_variant("guangxi-dazipai"), deck, [Script()] * 3, 0, 0)
    out = g.play()
    assert (out.winner, out.huxi, out.tianhu) == (0, 27, True)
    assert [(c.seat, c.instant) for c in out.cowinners] == [(1, "santi")]
    assert [m[1] for m in g.moves] == ["胡 (zimo, santi) 27 胡息 on"] * 2
    money = settle("guangxi-dazipai", hand_result(g, out))
    assert money.payments == (27, 27, -54) and money.next_dealer == 0
    moves, row = kernel("guangxi-dazipai", deck)
    assert moves == g.moves
    assert (row[kp.O_NCO], row[kp.O_CO + kp.CO_SEAT], row[kp.O_CO + kp.CO_INSTANT]) == (1, 1, 1)
    from zipai_sim.play.payoffs import settle_outcomes
    pay, _ = settle_outcomes(zs.load_variant("guangxi-dazipai"), row[None, :])
    assert pay.tolist() == [[27, 27, -54]]


def test_dealer_tianhu_is_a_candidate_against_an_instant_win():
    """§6 "the dealer's 天胡 included": the dealer's complete 21 cards (18 胡息, RULES.md §10)
    lose to seat 1's 三提 of 33 油 (九 9 + 贰 12 + 叁 12)."""
    dealer = "拾拾拾 壹壹壹 一二三 二七十 四五六 柒捌玖 八八"  # + the 亮张 捌
    deck = stacked([dealer, "九九九九 贰贰贰贰 叁叁叁叁"], "捌", [])
    g = Game(zs.load_variant("guangxi-dazipai"), deck, [Script()] * 3, 0, 0)
    out = g.play()
    assert (out.winner, out.huxi, out.instant, out.cowinners) == (1, 33, "santi", ())
    assert kernel("guangxi-dazipai", deck)[0] == g.moves


# --- 5. 大字牌: a passed 碰 may still be 吃 (§5.6, seed 004 篇4) --------------------------------

class ChiOn(Script):
    """Passes every 碰; takes the first 吃 option of ``card`` only."""

    def __init__(self, card):
        super().__init__()
        self.card = card

    def chi(self, game, seat, card, options):
        return 0 if card == self.card else -1


def test_passed_peng_may_still_be_chi_in_dazipai_only():
    """Seed 004 篇4 "若是另外一玩家再打出，则不可以碰，但可以吃": seat 1 passes the 碰 of the 五
    seat 2 draws, then the dealer draws the last 五: in 大字牌 seat 1 may 吃 it (with 比 of its
    other two 五) though not 碰 it; elsewhere (§5.6) the passed 五 is 臭 for 吃 and 碰 alike."""
    seat1 = "四六 五五 伍 一一 七七 壹壹 叁叁 柒柒 九九 玖玖 十"
    dealer = "二 三三 八八 贰贰 肆肆 陆陆 捌捌"
    deck = stacked([dealer, seat1], "九", ["拾", "五", "五"])
    for variant, takes in (("guangxi-dazipai", True), ("guangxi-81", False)):
        v = zs.load_variant(variant).with_threshold(100)
        g = Game(v, deck, [Script([1]), ChiOn(4), Script()], 0, 0)
        g.play()
        log = lines(g)
        assert log[:4] == ["0: discards 二", "1: draws 拾", "2: draws 五", "0: draws 五"], log[:6]
        assert 4 in g.players[1].passed_peng
        assert log[4].startswith("1: 吃") == takes, log[4]
        assert "1: 碰 五五五" not in log


# --- 6. the 数信 sitter moves with the deal (§7.3) --------------------------------------------

def test_sitter_is_the_new_dealers_opposite_in_matches(tmp_path):
    """§7.3 / seed 001 "以后谁胡牌谁就是庄家，对家数信": with a sitter four players sit round the
    table; each hand the dealer's opposite sits out and only receives shares."""
    from test_match import sitter_variant

    v = sitter_variant(tmp_path)
    m = zs.play_match(v, seed=3, hands=30)
    assert (m["sitter"] == (m["dealer"] + 2) % 4).all()
    pays = m.select([f"pay_p{i}" for i in range(4)]).to_numpy()
    assert (pays.sum(axis=1) == 0).all()
    sat = pays[np.arange(m.height), m["sitter"].to_numpy()]
    assert (sat >= 0).all()
    assert m["sitter"].n_unique() > 1  # the role moved with the deal
    assert (m["dealer"][1:].to_numpy() == m["next_dealer"][:-1].to_numpy()).all()


def test_calculator_waits_respect_forced_groups():
    """The 听 table reads §6 as the engines do: with 偎 五五五 on the table, a 五 makes a 提 (own
    draw) or a 跑 (another's card), and the hand 四六 + five groups is not complete with either;
    only 抢招和 (八一) lets another player's 五 go into 四五六 (偎 3 + 一二三 3 + 壹贰叁 6 = 12)."""
    from zipai_sim.tables import calculate

    hand = "四六 一二三 壹贰叁 七八九 肆伍陆 柒捌玖"
    hy = calculate(hand, "hunan-hengyang", melds="偎 五五五")
    assert "五" not in hy["card"].to_list()
    r = calculate(hand, "guangxi-81", melds="偎 五五五").filter(card="五").row(0, named=True)
    assert (r["huxi_self"], r["huxi_drawn"], r["huxi_discard"]) == (None, 12, 12)


def test_shared_win_pays_each_winner_once_without_the_zimo_multiplier():
    """Seed 000 ⑻ "各给予两家一倍的油数" worked by hand (RULES.md §7.1): 八一, two 三提 of 27 胡
    = 5 舵 each; the 自摸 ×2 is not applied ("一倍"): seat 2 pays 5 to each. 常德: 1 + ⌊(27 −
    15)/3⌋ = 5 囤, + 1 自摸 = 6, × 天胡 (dealer) or 地胡 (seat 1) 6 番 = 36 each (4 reds: no
    colour 名堂)."""
    co = (CoWinner(1, reds=4, bigs=0, smalls=20),)
    r = HandResult(seats=3, dealer=0, winner=0, huxi=27, how="zimo", tianhu=True, cowinners=co)
    assert settle_counts("guangxi-81", r, 4, 0, 21).payments == (5, 5, -10)
    money = settle_counts("changde-paohuzi", r, 4, 0, 21)
    assert money.payments == (36, 36, -72) and money.next_dealer == 0


@pytest.mark.parametrize(("change", "message"), [
    ({"cowinners": (2,)}, "tuple of CoWinner"),
    ({"cowinners": ("x",)}, "tuple of CoWinner"),
    ({"how": "fangpao", "payer": 1, "tianhu": False, "winner": 2,
      "cowinners": (CoWinner(0, 4, 0, 21),)}, "how must be 'zimo'"),
    ({"winner": 1, "tianhu": False, "dihu": True}, "first of a shared win"),
])
def test_shared_win_bad_input_is_named(change, message):
    base = HandResult(seats=3, dealer=0, winner=0, huxi=27, how="zimo", tianhu=True,
                      cowinners=(CoWinner(2, 4, 0, 20),))
    if change.get("winner") == 1:
        base = dataclasses.replace(base, cowinners=(CoWinner(0, 4, 0, 21),))
    with pytest.raises(ValueError, match=message):
        settle_counts("guangxi-dazipai", dataclasses.replace(base, **change), 4, 0, 21)
    with pytest.raises(ValueError, match="cannot be a winner's cards"):
        settle_counts("guangxi-dazipai", dataclasses.replace(
            base, cowinners=(CoWinner(2, 30, 40, 40),)), 4, 0, 21)
    with pytest.raises(ValueError, match="cowinners"):
        settle_counts("guangxi-dazipai", HandResult(seats=3, dealer=0, winner=-1,
                                                    cowinners=(CoWinner(2, 4, 0, 20),)), 0, 0, 0)
