"""The independent rules checker (tests/rules_checker.py) on both play engines, and the checker
itself on hand-made illegal move lists (RULES.md §3–§6).

Every shipped variant and both policies: hands from the numba engine (`kernels.play`) and the
reference engine (`play.engine.Game`) must replay with zero violations. The decks come from the
project's shuffle (`reference.shuffled_deck`), which is not rules code.
"""

import ast
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from rules_checker import check_hand, counts, hand_huxi

import zipai_sim as zs
from zipai_sim.game.reference import shuffled_deck
from zipai_sim.runs.chunks import chunk_keys

VARIANTS = zs.list_variants()
N_KERNEL = 300  # hands per variant and policy, numba engine (default suite)
N_REFERENCE = 50  # hands per variant and policy, reference engine (default suite)
N_SLOW = 10_000  # hands per variant and policy, numba engine (-m slow)


def kernel_moves(v, deck, policy: str, key: int, j: int):
    from zipai_sim.kernels import play as kp
    from zipai_sim.play.rollout import play_one

    pol = {"random": kp.POL_RANDOM, "greedy": kp.POL_GREEDY, "study": kp.POL_STUDY,
           "teacher": kp.POL_TEACHER, "learned": kp.POL_LEARNED, "search": kp.POL_SEARCH,
           "oracle": kp.POL_ORACLE, "neural": kp.POL_NEURAL}[policy]
    rows, _ = play_one(v, np.array(deck, np.int8), [pol] * v.layout.players, key, j, k=2)
    return [t for t in (kp.move_tuple(r) for r in rows) if t is not None]


def reference_moves(v, deck, policy: str, key: int, j: int):
    from zipai_sim.play.engine import Game
    from zipai_sim.play.policies import as_policy

    g = Game(v, deck, [as_policy(policy) for _ in range(v.layout.players)], key, j)
    g.play()
    return g.moves


def failures(v, engine, policy: str, seed: int, n: int):
    key = int(chunk_keys(seed, 0, 1)[0])
    bad = []
    for j in range(n):
        deck = [int(k) for k in shuffled_deck(key, j)]
        errors = check_hand(v, deck, engine(v, deck, policy, key, j))
        if errors:
            bad.append(f"seed {seed} deal {j}: " + " | ".join(errors[:3]))
    return bad


def assert_clean(bad, n):
    assert not bad, f"{len(bad)}/{n} hands break the rules; first ones:\n" + "\n".join(bad[:5])


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_hands_follow_the_rules(variant, policy):
    assert_clean(failures(zs.load_variant(variant), kernel_moves, policy, 2026, N_KERNEL), N_KERNEL)


@pytest.mark.parametrize("variant", VARIANTS)
def test_study_and_teacher_hands_follow_the_rules(variant):
    """The issue-39 bots (every seat study; every seat teacher at K = 2 worlds) break no rule."""
    v = zs.load_variant(variant)
    assert_clean(failures(v, kernel_moves, "study", 2028, 100), 100)
    assert_clean(failures(v, kernel_moves, "teacher", 2029, 3), 3)


@pytest.mark.parametrize("variant", VARIANTS)
def test_learned_hands_follow_the_rules(variant):
    """The issue-47 bot (every seat learned, the shipped weights) breaks no rule."""
    assert_clean(failures(zs.load_variant(variant), kernel_moves, "learned", 2030, 100), 100)


@pytest.mark.parametrize("variant", VARIANTS)
def test_neural_hands_follow_the_rules(variant):
    """The issue-58 bot (every seat neural, the shipped model) breaks no rule."""
    assert_clean(failures(zs.load_variant(variant), kernel_moves, "neural", 2033, 100), 100)


@pytest.mark.parametrize("variant", VARIANTS)
def test_search_and_oracle_hands_follow_the_rules(variant):
    """The issue-47 search and ceiling (every seat searching, K = 2 worlds) break no rule."""
    v = zs.load_variant(variant)
    assert_clean(failures(v, kernel_moves, "search", 2031, 3), 3)
    assert_clean(failures(v, kernel_moves, "oracle", 2032, 2), 2)


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_reference_hands_follow_the_rules(variant, policy):
    v = zs.load_variant(variant)
    assert_clean(failures(v, reference_moves, policy, 2027, N_REFERENCE), N_REFERENCE)


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_hands_follow_the_rules_many(variant, policy):
    assert_clean(failures(zs.load_variant(variant), kernel_moves, policy, 4242, N_SLOW), N_SLOW)


# --- the checker is independent -----------------------------------------------------------------

def test_checker_uses_no_engine_code():
    """The checker is a second opinion: no claim/win/chi/hand code of the engines."""
    tree = ast.parse((Path(__file__).parent / "rules_checker.py").read_text("utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append(node.module or "")
            names += [f"{node.module}.{a.name}" for a in node.names]
    banned = ("zipai_sim.play", "zipai_sim.kernels", "zipai_sim.game.reference", "zipai_sim.deals.evaluate")
    assert not [n for n in names if n.startswith(banned)]


# --- the checker's own 胡息 search on RULES.md §10 ---------------------------------------------

@pytest.mark.parametrize("hand, expected", [
    ("一二三四五六七八九壹贰叁肆伍陆柒捌玖十十拾", 9),
    ("拾拾拾壹壹壹一二三二七十四五六柒捌玖八八捌", 18),
    ("贰贰贰贰一二三二七十四五六伍陆柒捌捌八玖玖", 18),
    ("一一二二三三四四七八九十壹贰叁肆肆伍陆柒柒", 12),
    ("一二三一二三壹贰叁柒捌玖二七十四五六九九玖", -1),
    ("贰贰贰贰拾拾拾拾一二三四五六七八九壹叁伍陆", -1),
])
def test_huxi_search_on_the_worked_examples(hand, expected):
    h = counts(hand)
    assert sum(h) in (21, 22)
    assert hand_huxi(zs.load_variant("guangxi-81"), h) == expected


def test_huxi_search_peng_by_colour():
    """§4: the 大字牌 table scores a 碰 by colour; a pair + another's card is a 碰 (§6)."""
    from rules_checker import same_points
    dz, std = zs.load_variant("guangxi-dazipai"), zs.load_variant("guangxi-81")
    assert [same_points(dz, "peng", k) for k in (0, 1, 10, 11)] == [1, 3, 3, 6]
    assert [same_points(std, "peng", k) for k in (0, 1, 10, 11)] == [1, 1, 3, 3]


# --- hand-made illegal logs ---------------------------------------------------------------------

def kinds(text: str) -> list[int]:
    c = counts(text)
    return [k for k in range(20) for _ in range(c[k])]


def build_deck(v, hands: list[str], liangzhang: str, stock: str = "") -> list[int]:
    """A deck in deal order: the given hands (seat 0 = the dealer's 20 before the 亮张), the 亮张,
    then ``stock`` on top of the stock and the remaining cards below it."""
    h = v.layout.other_cards
    deck = []
    for text in hands:
        cards = kinds(text)
        assert len(cards) == h, text
        deck += cards
    deck += kinds(liangzhang)
    deck += kinds(stock)
    left = Counter({k: 4 for k in range(20)})
    left.subtract(deck)
    assert min(left.values()) >= 0, "more than four copies of a card"
    deck += [k for r in range(4) for k in range(20) if left[k] > r]
    assert len(deck) == 80
    return deck


def win(s: int, how: str, n: int, card: str, shape: str = ""):
    return (s, f"胡 ({how}{', ' + shape if shape else ''}) {n} 胡息 on", tuple(kinds(card)))


def mv(s: int, what: str, cards: str):
    return (s, what, tuple(kinds(cards)))


G81 = zs.load_variant("guangxi-81")
# seat 1 waits on 玖 (柒捌玖) with 壹贰叁 6 + 贰柒拾 6 + 一二三 3 = 15 胡息; seat 2 holds 八九
DECK_A = build_deck(G81, [
    "一二三三五五九九十十壹叁伍陆捌玖玖拾拾六",
    "壹贰叁贰柒拾一二三四五六七八九肆伍陆柒捌",
    "八九一一二二四四五六七七八八壹壹叁叁肆肆",
], "四")


def test_a_legal_win_on_a_discard_passes():
    moves = [mv(0, "discards", "玖"), win(1, "fangpao", 15, "玖")]
    assert check_hand(G81, DECK_A, moves) == []


def test_a_skipped_win_is_caught():
    """§6 + shipped policies: seat 1 can win on the dealer's 玖 and must."""
    moves = [mv(0, "discards", "玖"), (1, "draws", (DECK_A[61],))]
    errors = check_hand(G81, DECK_A, moves, partial=True)
    assert errors and "skipped win" in errors[0] and errors[0].startswith("#1 ")


def test_a_wrong_huxi_is_caught():
    moves = [mv(0, "discards", "玖"), win(1, "fangpao", 18, "玖")]
    errors = check_hand(G81, DECK_A, moves)
    assert len(errors) == 1 and "§4/§6" in errors[0] and "finds 15" in errors[0]


def test_chi_from_the_next_player_is_caught():
    """§5.4: seat 2 may not 吃 the dealer's discard (the dealer is seat 2's next player)."""
    moves = [mv(0, "discards", "十"), mv(2, "吃", "八九十")]
    errors = check_hand(G81, DECK_A, moves, partial=True)
    assert errors and "§5.4" in errors[0] and errors[0].startswith("#1 ")
    # the next seat's 吃 of the same card is fine
    assert check_hand(G81, DECK_A, [mv(0, "discards", "十"), mv(1, "吃", "八九十")],
                      partial=True) == []


def test_discarding_a_kan_card_is_caught():
    """§5.7: with the 亮张 三 the dealer holds the 坎 三三三 and may not discard from it."""
    deck = build_deck(G81, [
        "一二三三五五九九十十壹叁伍陆捌玖玖拾拾六",
        "壹贰叁贰柒拾一二三四五六七八九肆伍陆柒捌",
        "八九一一二二四四五六七七八八壹壹叁叁肆肆",
    ], "三")
    errors = check_hand(G81, deck, [mv(0, "discards", "三")], partial=True)
    assert errors and "§5.7" in errors[0] and errors[0].startswith("#0 ")
    assert check_hand(G81, deck, [mv(0, "discards", "五")], partial=True) == []


def test_a_win_that_skips_a_forced_ti_is_caught():
    """§6: seat 1 draws the 4th 贰 onto its 坎; as a free card it would complete 壹贰叁 (15 胡息)
    but the 提 is forced and, with the 提, 壹 and 叁 are left over: no win, the 提 is owed."""
    deck = build_deck(G81, [
        "一二三三五五九九十十壹叁伍陆捌玖玖拾拾六",
        "贰贰贰壹叁一二三四五六七八九肆伍陆柒捌玖",
        "八九一一二二四四五六七七八八壹壹肆肆伍陆",
    ], "四", stock="贰")
    start = [mv(0, "discards", "十"), mv(1, "draws", "贰")]
    errors = check_hand(G81, deck, start + [win(1, "zimo", 15, "贰")], partial=True)
    assert errors and "forced 提" in errors[0] and errors[0].startswith("#2 ")
    assert check_hand(G81, deck, start + [mv(1, "提", "贰贰贰贰")], partial=True) == []


# 六胡倒, a hand of the old numba engine (commit 76a5793, seed 11, deal 62, random): seat 1
# 碰 六 at move 35 and is left holding only 坎 (五五五 is on the table as a 碰, 六六六 ...)
LIUHU_DECK = [
    4, 14, 18, 9, 4, 0, 11, 6, 9, 6, 0, 17, 19, 3, 10, 15, 1, 5, 18, 11, 10, 5, 17, 7, 16, 8, 3,
    9, 19, 1, 0, 11, 4, 8, 8, 13, 6, 2, 14, 15, 10, 4, 13, 0, 6, 16, 7, 19, 18, 9, 16, 13, 7, 7,
    14, 2, 2, 17, 10, 3, 12, 8, 3, 12, 15, 1, 17, 19, 12, 2, 18, 14, 5, 13, 1, 5, 15, 16, 12, 11,
]
LIUHU_MOVES = [
    (0, "discards", (2,)), (1, "draws", (17,)), (1, "吃", (7, 17, 17)), (1, "discards", (16,)),
    (2, "draws", (10,)), (1, "碰", (10, 10, 10)), (1, "discards", (9,)), (2, "吃", (1, 6, 9)),
    (2, "discards", (19,)), (3, "draws", (3,)), (3, "吃", (3, 13, 13)), (3, "discards", (2,)),
    (0, "draws", (12,)), (1, "draws", (8,)), (1, "吃", (8, 8, 18)), (1, "discards", (15,)),
    (2, "draws", (3,)), (2, "吃", (2, 3, 4)), (2, "discards", (8,)), (3, "draws", (12,)),
    (0, "draws", (15,)), (1, "draws", (1,)), (1, "吃", (1, 1, 11)), (1, "discards", (3,)),
    (2, "draws", (17,)), (3, "draws", (19,)), (0, "吃", (9, 19, 19)), (0, "discards", (0,)),
    (1, "draws", (12,)), (2, "吃", (12, 13, 14)), (2, "discards", (0,)), (3, "draws", (2,)),
    (0, "draws", (18,)), (1, "draws", (14,)), (2, "draws", (5,)), (1, "碰", (5, 5, 5)),
]


def test_a_peng_that_leaves_no_discard_is_caught():
    """§5.3 "a claim must leave a discard": after that 碰 seat 1 holds only 坎."""
    v = zs.load_variant("liuhu-dao")
    errors = check_hand(v, LIUHU_DECK, LIUHU_MOVES, partial=True)
    assert len(errors) == 1 and "§5.3" in errors[0] and errors[0].startswith("#35 ")
    assert check_hand(v, LIUHU_DECK, LIUHU_MOVES[:-1], partial=True) == []


def test_two_instant_wins_at_the_deal():
    """§6: two 三提 at the deal: equal points both win (in turn order), else the higher."""
    fill = "七八九十壹贰叁肆"
    equal = build_deck(G81, [
        "七七八八九九十十伍伍陆陆柒柒捌捌玖玖拾拾",
        "一一一一二二二二三三三三" + fill,
        "四四四四五五五五六六六六" + fill,
    ], "拾")
    # seat 1: 一 二 三 提 = 27 胡息; seat 2: 四 五 六 提 = 27
    both = [win(1, "zimo", 27, "拾", "santi"), win(2, "zimo", 27, "拾", "santi")]
    assert check_hand(G81, equal, both) == []
    errors = check_hand(G81, equal, both[:1])
    assert errors and "skipped win" in errors[0]
    higher = build_deck(G81, [
        "七七八八九九十十伍伍六六柒柒捌捌玖玖拾拾",
        "一一一一二二二二三三三三" + fill,
        "四四四四五五五五陆陆陆陆" + fill,
    ], "拾")
    # seat 2: 9 + 9 + 12 = 30 beats seat 1's 27: seat 2 alone wins
    assert check_hand(G81, higher, [win(2, "zimo", 30, "拾", "santi")]) == []
    assert check_hand(G81, higher, both[:1])
    assert check_hand(G81, higher, [win(2, "zimo", 30, "拾", "santi"), both[0]])


def _stacked_decks():
    fill = "七八九十壹贰叁肆"
    rest = "七七八八九九十十伍伍"
    return {
        "two equal 三提": build_deck(G81, [rest + "陆陆柒柒捌捌玖玖拾拾", "一一一一二二二二三三三三" + fill,
                                      "四四四四五五五五六六六六" + fill], "拾"),
        "two unequal 三提": build_deck(G81, [rest + "六六柒柒捌捌玖玖拾拾", "一一一一二二二二三三三三" + fill,
                                        "四四四四五五五五陆陆陆陆" + fill], "拾"),
        "a win on the first discard": DECK_A,
        "a 坎 and its 4th on top": build_deck(G81, [
            "一二三三五五九九十十壹叁伍陆捌玖玖拾拾六", "贰贰贰壹叁一二三四五六七八九肆伍陆柒捌玖",
            "八九一一二二四四五六七七八八壹壹肆肆伍陆"], "四", stock="贰"),
    }


@pytest.mark.parametrize("deck_name", list(_stacked_decks()))
@pytest.mark.parametrize("variant", [k for k in VARIANTS if zs.load_variant(k).layout.players == 3])
def test_engines_on_stacked_decks(variant, deck_name):
    """Rare paths (shared wins at the deal, 地胡, forced 提) on stacked decks, both engines."""
    v, deck = zs.load_variant(variant), _stacked_decks()[deck_name]
    for j in range(4):
        for engine in (kernel_moves, reference_moves):
            for policy in ("random", "greedy"):
                moves = engine(v, deck, policy, 7, j)
                assert check_hand(v, deck, moves) == [], (engine.__name__, policy, j, moves[:6])
