"""The numba play engine (``kernels.play``) against the reference engine (``play.engine.Game``):
the same seeded hands, move for move (logs and move lists), with the same outcomes, for every
shipped variant and for random, greedy and mixed seatings; plus the 吃/比 enumeration against
``play.chi`` and ``play_chunks`` against ``play_hand``.

The outcome fields that the reference ``Outcome`` does not carry are derived here independently:
red / big counts from ``Outcome.cards`` (RULES.md §1), and 对子胡-style ``all_pungs`` from the
slow decomposer ``reference.decompositions`` (RULES.md §3, §6) on the winner's final state."""

import random

import numpy as np
import pytest

import zipai_sim as zs
from zipai_sim.game import params
from zipai_sim.game import reference as ref
from zipai_sim.game.settle import settle, settle_counts
from zipai_sim.kernels import deal as kd
from zipai_sim.kernels import play as kp
from zipai_sim.kernels.chi import chi_options_py, chi_possible, pack_hand
from zipai_sim.play.chi import chi_options
from zipai_sim.play.engine import Game
from zipai_sim.play.payoffs import row_result, settle_outcomes
from zipai_sim.play.policies import GreedyPolicy, LookaheadPolicy, RandomPolicy, StudyPolicy
from zipai_sim.play.table import Outcome, four_from
from zipai_sim.play.trace import hand_result
from zipai_sim.runs.chunks import chunk_keys

VARIANTS = zs.list_variants()
KEY = int(chunk_keys(2024, 0, 1)[0])
KEY_SLOW = int(chunk_keys(2024, 1, 1)[0])
RED = {1, 6, 9, 11, 16, 19}  # 二七十 贰柒拾 (§1)
PUNG_GROUPS = {"ti", "pao", "kan", "wei", "peng", "jiang"}
HOW = {"": kp.HOW_NONE, "zimo": kp.HOW_ZIMO, "fangpao": kp.HOW_FANGPAO, "drawn": kp.HOW_DRAWN}
INSTANT = {"": 0, "santi": 1, "wukan": 2}


def seating(name: str, seats: int) -> list[int]:
    if name == "random":
        return [kp.POL_RANDOM] * seats
    if name == "greedy":
        return [kp.POL_GREEDY] * seats
    if name == "mixed":  # greedy dealer, then alternating
        return [kp.POL_GREEDY if s % 2 == 0 else kp.POL_RANDOM for s in range(seats)]
    if name == "mixed2":
        return [kp.POL_RANDOM if s % 2 == 0 else kp.POL_GREEDY for s in range(seats)]
    if name == "lookahead":
        return [kp.POL_LOOKAHEAD] * seats
    if name == "study":  # study dealer, then lookahead, study, …
        return [(kp.POL_STUDY, kp.POL_LOOKAHEAD)[s % 2] for s in range(seats)]
    if name == "ladder":  # lookahead dealer, then greedy, random, lookahead
        return [(kp.POL_LOOKAHEAD, kp.POL_GREEDY, kp.POL_RANDOM)[s % 3] for s in range(seats)]
    raise ValueError(name)


def policy_objects(codes):
    bots = {kp.POL_RANDOM: RandomPolicy, kp.POL_GREEDY: GreedyPolicy,
            kp.POL_LOOKAHEAD: LookaheadPolicy, kp.POL_STUDY: StudyPolicy}
    return [bots[c]() for c in codes]


def expected_all_pungs(g: Game, out) -> int:
    """1 when the winner has no 吃 group and some decomposition of the win at ``out.huxi`` uses
    only 提/跑/坎/偎/碰 and the pair: by ``reference.decompositions``, for the winning card in the
    hand, or completing a table 偎 (提/跑) or, when drawn, a 碰 (跑), as ``Game.win_huxi``."""
    if out.winner < 0:
        return 0
    pl = g.players[out.winner]
    if any(m.name == "chi" for m in pl.melds):
        return 0
    P, c = g.P, out.win_card
    th, fo = pl.table_huxi(), pl.fours()
    own, drawn = out.how == "zimo", out.how in ("zimo", "drawn")
    cands = []
    if out.tianhu or out.instant:  # the win at the deal: the cards are all in hand
        cands.append((th, ref.decompositions(pl.hand, P, -1, True, th, fo)))
    else:
        free = True  # §6: a forced 提/跑 binds the winner; only a 跑 yields to 抢招和
        for m in pl.melds:
            new = four_from(m, c, own, drawn)
            if new is None:
                continue
            free = new == "pao" and bool(P[params.QIANGZHAO])
            base = th - m.huxi + g.pts(new, c)
            cands.append((base, ref.decompositions(pl.hand, P, -1, True, base, fo + 1)))
        if free:
            cands.append((th, ref.decompositions(pl.hand, P, c, own, th, fo)))
    for base, ds in cands:
        for d in ds:
            if all(x.name in PUNG_GROUPS for x in d) and base + sum(x.huxi for x in d) == out.huxi:
                return 1
    return 0


def check_same_hand(v, key: int, j: int, codes: list[int],
                    S) -> tuple[np.ndarray, np.ndarray, Game, Outcome]:
    """Play deal ``j`` of chunk ``key`` in both engines; assert identical logs, moves and
    outcomes. Returns the kernel's (moves, out) and the reference's (game, outcome)."""
    deck = ref.shuffled_deck(key, j)
    g = Game(v, deck, policy_objects(codes), key, j)
    o = g.play()
    moves, out = kp.play_one(v, deck, codes, key, j, S)
    where = f"{v.key} deal {j} seating {codes}"
    log = [kp.deal_line(deck, v.params)] + kp.moves_to_log(moves, len(moves))
    assert log == g.log, where
    assert [t for t in map(kp.move_tuple, moves) if t is not None] == g.moves, where
    assert out[kp.O_MOVES] == len(moves)
    cards = list(o.cards) if o.cards else [0] * 20
    want = {
        kp.O_WINNER: o.winner, kp.O_HOW: HOW[o.how], kp.O_PAYER: o.payer, kp.O_HUXI: o.huxi,
        kp.O_TIANHU: int(o.tianhu), kp.O_DIHU: int(o.dihu), kp.O_HAIDI: int(o.haidi),
        kp.O_INSTANT: INSTANT[o.instant], kp.O_FANXING: o.fanxing, kp.O_DRAWS: o.draws,
        kp.O_WIN_CARD: o.win_card,
        kp.O_RED: sum(cards[k] for k in RED), kp.O_BIG: sum(cards[10:]),
        kp.O_ALL_PUNGS: expected_all_pungs(g, o),
    }
    got = {col: int(out[col]) for col in want}
    assert got == want, where
    assert o.all_pungs == bool(want[kp.O_ALL_PUNGS]), where
    # settlement for settlement: units, 名堂, 翻信, payments (RULES.md §7)
    money = settle(v, hand_result(g, o))
    assert settle_counts(v, *row_result(v, out)) == money, where
    return moves, out, g, o


def check_settled_rows(v, rows: list[np.ndarray], games: list) -> None:
    """The vectorized settlement of kernel rows equals `settle` of the reference hands."""
    pay, units = settle_outcomes(v, np.array(rows))
    for i, (g, o) in enumerate(games):
        money = settle(v, hand_result(g, o))
        assert tuple(pay[i]) == money.payments and tuple(units[i]) == (
            money.units, money.fanxing_units)


@pytest.fixture(scope="module")
def scratch():
    return kp.new_scratch()


@pytest.mark.parametrize(("policy", "count"), [("random", 300), ("greedy", 300), ("mixed", 60),
                                               ("lookahead", 6), ("ladder", 6), ("study", 6)])
@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_plays_the_reference_hands(variant, policy, count, scratch):
    """300 seeded hands per variant and shipped policy (60 mixed seatings; 6 with lookahead,
    whose reference twin takes about a second a hand): identical logs, moves, outcomes and
    settlements (units, 名堂, 翻信, payments)."""
    v = zs.load_variant(variant)
    codes = seating(policy, v.layout.players)
    rows, games = [], []
    for j in range(count):
        _, out, g, o = check_same_hand(v, KEY, j, codes, scratch)
        rows.append(out.copy())
        games.append((g, o))
    check_settled_rows(v, rows, games)


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_plays_the_reference_hands_20000(variant, policy, scratch):
    """2 × 10⁴ further seeded hands per variant and policy, move for move and settlement for
    settlement."""
    v = zs.load_variant(variant)
    codes = seating(policy, v.layout.players)
    for j in range(20_000):
        check_same_hand(v, KEY_SLOW, j, codes, scratch)


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["lookahead", "ladder", "study"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_plays_the_reference_lookahead_hands_300(variant, policy, scratch):
    """300 further seeded hands per variant with lookahead seats, move for move (the twin takes
    about a quarter of a second a hand)."""
    v = zs.load_variant(variant)
    codes = seating(policy, v.layout.players)
    for j in range(300):
        check_same_hand(v, KEY_SLOW, j, codes, scratch)


def rare_deals(v, key: int, n: int) -> dict[str, list[int]]:
    """Deals (of ``n`` in chunk ``key``) with a seat dealt three 提, five 坎 or two 提."""
    P = v.params
    seats = P[params.SEATS]
    hands = np.zeros((n, seats, 20), np.int8)
    stock = np.zeros((n, P[params.STOCK_LEN]), np.int8)
    lz = np.zeros(n, np.int8)
    kd.deal_chunks(np.array([key], np.uint64), np.array([n], np.int64), np.zeros(1, np.int64),
                   P, hands, stock, lz)
    ti = (hands == 4).sum(axis=2)
    kan = (hands == 3).sum(axis=2)
    return {"santi": list(np.flatnonzero((ti >= 3).any(axis=1))[:4]),
            "wukan": list(np.flatnonzero((kan + ti >= 5).any(axis=1))[:4]),
            "two_ti": list(np.flatnonzero((ti == 2).any(axis=1))[:4])}


@pytest.mark.parametrize("variant", VARIANTS)
def test_rare_events_agree(variant, scratch):
    """Deal-time wins (三提, 五坎), the two-提 rule, 臭偎, double 比, 地胡, 海底 and all-pungs
    wins are rare in 100 hands: find seeded deals that have them (kernel first, fast) and check
    those against the reference too."""
    v = zs.load_variant(variant)
    seats = v.layout.players
    found = rare_deals(v, KEY, 200_000)
    js = {int(j) for lst in found.values() for j in lst}
    want_codes = {kp.A_CHOUWEI, kp.A_TI, kp.A_EXTRA, kp.A_HU_ZIMO_SANTI, kp.A_HU_ZIMO_WUKAN}
    seen: dict[tuple, int] = {}
    for j in range(3000):
        for name in ("random", "greedy") if j < 300 else ("random",):
            codes = seating(name, seats)
            moves, out = kp.play_one(v, ref.shuffled_deck(KEY, j), codes, KEY, j, scratch)
            tags = {("a", int(a)) for a in moves[:, kp.M_ACTION] if int(a) in want_codes}
            if ((moves[:, kp.M_ACTION] == kp.A_CHI_BI) & (moves[:, kp.M_CARDS + 6] >= 0)).any():
                tags.add(("double_bi",))
            for col in (kp.O_DIHU, kp.O_HAIDI, kp.O_ALL_PUNGS, kp.O_TIANHU):
                if out[col]:
                    tags.add(("o", col, int(out[kp.O_HOW])))
            for t in tags:
                if seen.get(t, 0) < 3:
                    seen[t] = seen.get(t, 0) + 1
                    check_same_hand(v, KEY, j, codes, scratch)
    dealt = set()
    for j in sorted(js):
        for name in ("random", "greedy"):
            moves, out, _, _ = check_same_hand(v, KEY, j, seating(name, seats), scratch)
            dealt.update(int(a) for a in moves[:, kp.M_ACTION])
            dealt.add(("instant", int(out[kp.O_INSTANT])))
    # the scan did meet the rare paths it is meant to check
    assert found["two_ti"] and kp.A_DEAL_TI in dealt
    if v.params[params.SANTI_MIN] > 0:
        assert ("instant", 1) in dealt  # a 三提 win at the deal
    if v.params[params.TWO_TI_EXTRA] == 1:
        assert kp.A_EXTRA in dealt
    assert ("a", kp.A_CHOUWEI) in seen and ("double_bi",) in seen
    assert any(t[0] == "o" and t[1] == kp.O_ALL_PUNGS for t in seen)


def test_chi_options_match_the_reference():
    """吃/比 options: same list, same order (the random policy indexes it, RULES.md §5.5)."""
    rng = random.Random(5)
    for _ in range(20_000):
        hand = [0] * 20
        for _ in range(rng.randint(4, 21)):
            k = rng.randrange(20) if rng.random() < 0.3 else rng.choice(
                [0, 1, 2, 3, 10, 11, 12, 13, 5, 6, 9, 15, 16, 19])
            if hand[k] < 4:
                hand[k] += 1
        x = rng.randrange(20)
        if hand[x] < 4:
            want = chi_options(hand, x)
            assert chi_options_py(hand, x) == want, (hand, x)
            if not chi_possible(np.int64(pack_hand(hand)), x):  # the engine's quick pre-test
                assert want == [], (hand, x)
    # seed 000 ⑴: 一二二三贰 and an incoming 二: 一二三 must lay 二二贰 down as well
    hand = [0] * 20
    for k in (0, 1, 1, 2, 11):
        hand[k] += 1
    assert chi_options_py(hand, 1) == [((0, 1, 2), ((1, 1, 11),))]


@pytest.mark.parametrize("variant", VARIANTS)
def test_play_chunks_rows_equal_play_hand(variant, scratch):
    v = zs.load_variant(variant)
    seats = v.layout.players
    keys = chunk_keys(99, 0, 3)
    sizes = np.array([30, 0, 17], np.int64)
    codes = np.array(seating("mixed", seats), np.int64)
    out = np.full((3, 30, kp.N_OUT), -7, np.int64)
    kp.play_chunks(keys, sizes, v.params, int(v.win.choupai_win), codes, out,
                   np.zeros((kp.MAX_SEATS, kp.N_FEAT)))
    for c in range(3):
        for j in range(sizes[c]):
            deck = ref.shuffled_deck(int(keys[c]), j)
            _, want = kp.play_one(v, deck, codes, int(keys[c]), j, scratch)
            assert (out[c, j] == want).all(), (c, j)
        assert (out[c, sizes[c]:] == -7).all()  # rows past a chunk's size are not touched
    # thread count does not matter
    import numba

    n = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        one = np.full_like(out, -7)
        kp.play_chunks(keys, sizes, v.params, int(v.win.choupai_win), codes, one,
                       np.zeros((kp.MAX_SEATS, kp.N_FEAT)))
    finally:
        numba.set_num_threads(n)
    assert (one == out).all()


def test_move_rows_render_as_the_reference_log():
    """The log strings of each action code (Game.say / Game.win / the 荒庄 line)."""
    m = np.full((5, kp.MOVE_COLS), -1, np.int64)
    m[0, :5] = [0, kp.A_DEAL_TI, 0, 1, 1]
    m[0, 5:7] = 1
    m[1, :4] = [2, kp.A_HU_ZIMO_SANTI, 27, 19]
    m[2, :4] = [1, kp.A_HU_FANGPAO, 15, 9]
    m[3, :12] = [1, kp.A_CHI_BI, 0, 0, 1, 2, 1, 1, 11, -1, -1, -1]
    m[4, :3] = [-1, kp.A_HUANG, 0]
    assert kp.moves_to_log(m, 5) == ["0: 提 (dealt) 二二二二", "2: 胡 (zimo, santi) 27 胡息 on 拾",
                                     "1: 胡 (fangpao) 15 胡息 on 十", "1: 吃 + 比 一二三二二贰",
                                     "荒庄: the stock is empty"]
