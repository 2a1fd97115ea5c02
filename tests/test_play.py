"""The reference play engine (RULES.md §5–§6): invariants over many seeded hands, and scenarios
built from stacked decks, each quoting the rule it checks."""

import numpy as np
import pytest

import zipai_sim as zs
from zipai_sim.game import reference as ref
from zipai_sim.game.cards import parse_hand
from zipai_sim.play.engine import Game
from zipai_sim.play.policies import GreedyPolicy, RandomPolicy
from zipai_sim.runs.chunks import chunk_keys

KEY = int(chunk_keys(3, 0, 1)[0])


def all_cards(g: Game) -> np.ndarray:
    c = np.zeros(20, int)
    for pl in g.players:
        c += np.array(pl.all_cards())
        for k in pl.beside:
            c[k] += 1
    for k in g.stock:
        c[k] += 1
    return c


@pytest.mark.parametrize("variant", zs.list_variants())
def test_seeded_hands_conserve_cards_and_keep_the_rest_invariant(variant):
    v = zs.load_variant(variant)
    seats, h = v.layout.players, v.layout.other_cards
    for j in range(40):
        pol = RandomPolicy if j % 2 else GreedyPolicy
        g = Game(v, ref.shuffled_deck(KEY, j), [pol() for _ in range(seats)], KEY, j)
        out = g.play()
        c = all_cards(g)
        if g.claimed is not None:
            c[g.claimed] += 1
        assert (c == 4).all()  # every card is somewhere, once (§1)
        if out.winner >= 0:
            assert sum(out.cards) == g.players[out.winner].at_rest() + (g.claimed is not None)
        for s, pl in enumerate(g.players):
            # §5.3: at rest a player holds H + max(0, q − 1) cards; the dealer's 21st card
            # makes one more only if a win at the deal stopped the hand before the discard, and
            # a discard owed with only 坎 in hand waits ([play].only_kan_discard = "skip")
            only_kan = all(x in (0, 3) for x in pl.hand)
            assert pl.at_rest() <= h + max(0, pl.fours() - 1) + (s == 0) + only_kan


def test_same_seed_same_hand():
    v = zs.load_variant("guangxi-81")
    a = Game(v, ref.shuffled_deck(KEY, 5), [RandomPolicy() for _ in range(3)], KEY, 5)
    b = Game(v, ref.shuffled_deck(KEY, 5), [RandomPolicy() for _ in range(3)], KEY, 5)
    a.play(), b.play()
    assert a.log == b.log


class Script:
    """A policy that discards from a list (then the highest slot) and answers 碰/吃 as told."""

    def __init__(self, discards=(), peng=False, chi=-1):
        self.discards, self.peng_answer, self.chi_answer = list(discards), peng, chi

    def discard(self, game, seat, options):
        while self.discards:
            k = self.discards.pop(0)
            if k in options:
                return k
        return max(options)

    def peng(self, game, seat, card):
        return self.peng_answer

    def chi(self, game, seat, card, options):
        return self.chi_answer if self.chi_answer < len(options) else -1

    def hu(self, game, seat, card, huxi):
        return True


def stacked(hands: list[str], liangzhang: str, stock: list[str], seats: int = 3, h: int = 20):
    """A deck: the given hands (seat order, the dealer without the 亮张), then the 亮张, then the
    stock starting with ``stock``; unnamed cards fill hands and stock in a fixed order."""
    left = np.full(20, 4)
    named = [list(np.repeat(np.arange(20), parse_hand(x))) for x in hands]
    lz = int(np.argmax(parse_hand(liangzhang)))
    top = [int(np.argmax(parse_hand(c))) for c in stock]
    for cards in named + [[lz], top]:
        for k in cards:
            left[k] -= 1
    assert (left >= 0).all()
    # fillers round-robin over the kinds, so filled hands hold few pairs and no 坎
    pool = [k for r in range(4) for k in range(20) if left[k] > r]
    deck = []
    for s in range(seats):
        mine = named[s] if s < len(named) else []
        need = h - len(mine)
        deck += mine + pool[:need]
        pool = pool[need:]
    return [int(x) for x in deck + [lz] + top + pool]


def test_bi_example_of_seed_000():
    """Seed 000 ⑴: holding 一二二三贰, the previous player discards 二: the 吃 must lay the
    other 二 down too (一二三 + 二二贰); passing makes 二 臭 for the player."""
    # seat 1 holds 一二二三贰 and fillers; the dealer (seat 0) discards 二 first
    deck = stacked(["二四四六六八八十十 肆肆陆陆捌捌拾拾壹壹玖", "一二二三贰 五七九 叁伍柒玖 五七九 叁伍柒玖 四"],
                   "五", ["三"])
    v = zs.load_variant("hunan-hengyang")
    g = Game(v, deck, [Script(discards=[1]), Script(chi=0), Script()], 0, 0)
    g.play()
    assert g.log[1] == "0: discards 二"
    assert g.log[2] == "1: 吃 + 比 一二三二二贰"
    assert [m.cards for m in g.players[1].melds[:2]] == [(0, 1, 2), (1, 1, 11)]
    g2 = Game(v, deck, [Script(discards=[1]), Script(chi=-1), Script()], 0, 0)
    g2.play()
    assert 1 in g2.players[1].chou


def lines(g):
    return g.log[1:]


def test_passed_peng_then_own_draw_is_chouwei():
    """§5.6 / seed 000 ⑴: 五 passed for 碰 is 臭; the player's own later 五 must be 臭偎."""
    deck = stacked(["五 一一二二三三 壹壹贰贰叁叁 肆肆陆陆捌 九", "五五 四六七八 柒捌玖拾 四六七八 柒捌玖拾 十十"],
                   "九", ["五"])
    g = Game(zs.load_variant("hunan-hengyang"), deck, [Script([4]), Script(), Script()], 0, 0)
    g.play()
    assert lines(g)[:3] == ["0: discards 五", "1: draws 五", "1: 臭偎 五五五"]
    assert 4 in g.players[1].chou


def test_second_four_needs_no_discard():
    """§5.3 重跑: after the second four-card group the player does not discard."""
    deck = stacked(["三 一一二二 壹壹贰贰叁叁 肆肆伍伍陆陆捌 九", "三三三 七七七 四五六 捌玖拾 四五六 捌玖拾 十十"],
                   "九", ["七"])
    g = Game(zs.load_variant("hunan-hengyang"), deck, [Script([2]), Script([9]), Script()], 0, 0)
    g.play()
    log = lines(g)
    assert log[:3] == ["0: discards 三", "1: 跑 三三三三", "1: discards 十"]
    i = log.index("1: 跑 七七七七")
    assert log[i - 1] == "2: draws 七" and log[i + 1] == "2: draws " + log[i + 1][9:]


H_QZ = "三三三 一二 四五六 七八九 壹贰叁 肆伍陆 柒捌玖"  # 坎 + 17; with a 三: 3 + 3 + 6 = 12


def test_qiangzhao_win_keeps_the_kan_where_allowed():
    """§6 / seed 004 篇4 抢招和: the 坎 may stay and the 三 go into 一二三 (12 胡息)."""
    deck = stacked(["三 一 十十 壹 拾拾 贰贰 伍伍 陆陆 捌捌 九九 玖玖 二", H_QZ], "十", [])
    v = zs.load_variant("guangxi-81").with_threshold(10)
    out = Game(v, deck, [Script([2]), Script(), Script()], 0, 0).play()
    assert (out.winner, out.how, out.huxi, out.payer) == (1, "fangpao", 12, 0)
    g = Game(zs.load_variant("hunan-hengyang"), deck, [Script([2]), Script(), Script()], 0, 0)
    g.play()
    assert lines(g)[1] == "1: 跑 三三三三"  # no 抢招和 in 衡阳: the 跑 is forced


WAIT_SHI = "一二三 四五六 壹贰叁 肆伍陆 柒捌玖 贰柒拾 八九"  # + 十: 八九十; 3 + 6 + 6 = 15


def test_hu_beats_a_nearer_peng():
    """§5.2 priority 胡 > 碰: seat 2 wins on the 十 that seat 1 could 碰."""
    deck = stacked(["十 一二三 七七 壹 陆陆 捌捌 玖玖 拾拾 五五 四", "十十", WAIT_SHI], "九", [])
    out = Game(zs.load_variant("hunan-hengyang"), deck,
               [Script([9]), Script(peng=True), Script()], 0, 0).play()
    assert (out.winner, out.how, out.huxi, out.payer) == (2, "fangpao", 15, 0)


def test_dihu_on_the_liangzhang_and_on_the_first_discard():
    """§6 地胡: 衡阳 on the 亮张 (seat 1: 碰 十 1 + 3 + 6 = 10); 八一 on the dealer's first
    discard (seat 1 waiting on 十 for 15)."""
    seat1 = "一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十"
    deck = stacked(["二二 三三 五五 六六 八八 九九 贰贰 叁叁 伍伍 陆陆", seat1], "十", [])
    out = Game(zs.load_variant("hunan-hengyang"), deck, [Script()] * 3, 0, 0).play()
    assert (out.winner, out.dihu, out.huxi, out.how) == (1, True, 10, "drawn")
    deck = stacked(["十 一二三 七七 壹 陆陆 捌捌 玖玖 拾拾 五五 四", WAIT_SHI], "九", [])
    out = Game(zs.load_variant("guangxi-81"), deck, [Script([9]), Script(), Script()], 0, 0).play()
    assert (out.winner, out.dihu, out.how, out.payer, out.huxi) == (1, True, "fangpao", 0, 15)


def test_santi_at_the_deal_and_the_two_ti_rule():
    """§6: three 提 dealt win at once (天胡 for the dealer); two 提: 衡阳 skips the discard,
    大字牌 draws one extra card and then discards."""
    three = "一一一一 二二二二 三三三三 四五六 七八九 壹贰"
    out = Game(zs.load_variant("guangxi-81"), stacked([three], "叁", []), [Script()] * 3).play()
    assert (out.winner, out.instant, out.tianhu, out.how) == (0, "santi", True, "zimo")
    two = "一一一一 二二二二 三 四五六 七八九 壹贰叁 肆"
    g = Game(zs.load_variant("hunan-hengyang"), stacked([two], "伍", ["拾"]), [Script()] * 3)
    g.play()
    assert lines(g)[:3] == ["0: 提 (dealt) 一一一一", "0: 提 (dealt) 二二二二", "1: draws 拾"]
    g = Game(zs.load_variant("guangxi-dazipai"), stacked([two], "伍", ["拾"]), [Script()] * 3)
    g.play()
    assert lines(g)[2:4] == ["0: extra card 拾", "0: discards 拾"]


TRACES = sorted((__import__("pathlib").Path(__file__).parent / "traces").glob("*.txt"))


@pytest.mark.parametrize("path", TRACES, ids=[t.stem for t in TRACES])
def test_stored_playthroughs_replay(path):
    """OpenSpiel-style playthroughs: a seeded hand replays line for line. The stored traces were
    read against RULES.md §5–§7 when written (claims, forced 偎/提/跑, discards by the §5.3
    invariant); a change of rules or policy shows up here as a diff to review."""
    from zipai_sim.play.trace import play_seeded

    head, *want = path.read_text(encoding="utf-8").splitlines()
    args = head.split()
    variant, seed = args[args.index("--variant") + 1], int(args[args.index("--seed") + 1])
    deal, policy = int(args[args.index("--deal") + 1]), args[args.index("--policy") + 1]
    game, _ = play_seeded(variant, seed, deal, policy)
    assert game.log == want


def _seeded(variant, seed, chunk, j, policy=GreedyPolicy):
    v = zs.load_variant(variant)
    key = int(chunk_keys(seed, chunk, 1)[0])
    g = Game(v, ref.shuffled_deck(key, j), [policy() for _ in range(v.layout.players)], key, j)
    return g, g.play()


def test_first_discard_win_is_dihu_only_where_dihu_is_on_the_first_discard():
    """衡阳's 地胡 is the 亮张 one (§8): a 放炮 on the dealer's first discard is not 地胡."""
    g, out = _seeded("hunan-hengyang", 1, 0, 1607)
    assert g.log[1] == "0: discards 一" and (out.winner, out.how) == (2, "fangpao")
    assert out.dihu is False


def test_two_ti_extra_card_can_win_at_once():
    """大字牌 two 提: the extra card is a draw and may complete the dealer's hand (天胡, §3, §6),
    as the deal-time kernel counts it."""
    g, out = _seeded("guangxi-dazipai", 5, 0, 154736)
    assert (out.winner, out.how, out.tianhu) == (0, "zimo", True)
    want = ref.opening_outcome(ref.shuffled_deck(int(chunk_keys(5, 0, 1)[0]), 154736),
                               zs.load_variant("guangxi-dazipai").params)
    assert want["extra_tianhu"] and out.huxi >= 15


def test_nondealer_instant_win_is_its_dihu():
    """常德: 三提/五坎 at the deal win "as 天胡/地胡" (§8): a non-dealer's is a 地胡."""
    _, out = _seeded("changde-paohuzi", 5, 0, 13984)
    assert (out.winner, out.instant, out.dihu, out.tianhu) == (1, "wukan", True, False)
