"""Win-probability tables (issue 4 §1): exact draw-model chances against sums written here with
math.comb and brute-force enumeration, opening features of hand-written deals worked out from
RULES.md §1–§4, a pure-Python twin of the feature kernel on shuffled decks, and bookkeeping
identities of the tables (counts sum to n, Wilson bounds hold the rate, the records agree with
``simulate_hands``, which plays the same decks)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import numpy as np
import polars as pl
import pytest
from scipy.stats import hypergeom
from test_cli import run

import zipai_sim as zs
from zipai_sim import tables as T
from zipai_sim.game import reference as ref
from zipai_sim.game.cards import CardError, parse_hand
from zipai_sim.kernels import features as kf
from zipai_sim.runs.chunks import chunk_keys
from zipai_sim.runs.io import read_metadata

WAIT20 = "一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十"  # README: 听 二 十 拾
RED = (1, 6, 9, 11, 16, 19)  # 二七十 贰柒拾 (§1)


# --- the draw model, exactly ---------------------------------------------------------------------

def brute_none(types: list[str], d: int, e: int, D: int = 0) -> Fraction:
    """P(no win) by enumerating every ordered draw of d + e + D distinct cards; ``types[i]`` lists
    the sources card i wins from: "s" own draw, "o" another's draw, "x" a discard."""
    n_ok = n_all = 0
    for seq in itertools.permutations(range(len(types)), d + e + D):
        n_all += 1
        own, oth, dis = seq[:d], seq[d:d + e], seq[d + e:]
        if not (any("s" in types[i] for i in own) or any("o" in types[i] for i in oth)
                or any("x" in types[i] for i in dis)):
            n_ok += 1
    return Fraction(n_ok, n_all)


def closed_none(U, d, e, a, b, c) -> Fraction:
    """Σ_i C(c,i) C(N,d−i) C(b+N−d+i, e) / (C(U,d) C(U−d,e)), N = U − a − b − c."""
    N = U - a - b - c
    num = sum(comb(c, i) * comb(N, d - i) * comb(b + N - d + i, e)
              for i in range(min(c, d) + 1) if d - i <= N)
    return Fraction(num, comb(U, d) * comb(U - d, e))


@pytest.mark.parametrize("a,b,c,n,d,e", [(1, 2, 1, 3, 2, 2), (0, 1, 2, 4, 3, 1),
                                         (2, 0, 0, 5, 1, 3), (0, 0, 3, 3, 2, 2)])
def test_p_any_draw_against_enumeration(a, b, c, n, d, e):
    types = ["so"] * a + ["s"] * b + ["o"] * c + [""] * n
    want = brute_none(types, d, e)
    assert closed_none(len(types), d, e, a, b, c) == want
    assert kf.p_any_draw(len(types), d, e, a, b, c) == pytest.approx(float(1 - want), abs=1e-12)


def test_p_none_with_discards_against_enumeration():
    # kinds 0: wins every way; 1: own draw only; 2: a drawn card but not a discard (a 碰 → 跑)
    unseen = np.zeros(20, np.int64)
    unseen[[0, 1, 2, 3]] = [1, 1, 2, 3]
    wins = np.zeros((20, 3), bool)
    wins[0] = True
    wins[1] = (True, False, False)
    wins[2] = (False, True, False)
    types = ["sox", "s", "o", "o", "", "", ""]
    assert T.p_none(unseen, wins, (2, 1, 2)) == brute_none(types, 2, 1, 2)


def test_single_class_is_the_hypergeometric_zero():
    """Every wait winning every way: P(none) = C(U − w, S) / C(U, S) (scipy's hypergeom)."""
    unseen = np.full(20, 3, np.int64)
    wins = np.zeros((20, 3), bool)
    wins[[4, 7]] = True
    got = T.p_none(unseen, wins, (7, 12, 0))
    assert got == Fraction(comb(54, 19), comb(60, 19))
    assert float(got) == pytest.approx(hypergeom(60, 6, 19).pmf(0), rel=1e-12)


# --- the calculator ------------------------------------------------------------------------------

def close(estimate: float, p: float, n: int, k: float = 4.0) -> bool:
    """``estimate`` within ``k`` standard errors sqrt(p(1 − p)/n) of ``p`` (exactly p at 0, 1)."""
    return abs(estimate - p) <= k * (p * (1 - p) / n) ** 0.5 + 1e-12


def test_calculate_worked_hand():
    """长沙 (10 胡息): 二 → 一二三 3 + 二七十 3 + 壹贰叁 6 = 12 either way; 十 as an own draw makes a
    偎 (3) → 12, as another's card a small 碰 (1) → 10; 拾 makes a 绞 → 9 < 10 (§4, §6). Unseen:
    the 60 cards not in hand; 19 stock cards, 7 of them the player's own draws."""
    t = T.calculate(WAIT20, "changsha-paohuzi", sims=4000, seed=3)
    rows = {r["card"]: r for r in t.iter_rows(named=True)}
    assert [r for r in rows] == ["二", "十", "拾", "any"]
    assert (rows["二"]["huxi_self"], rows["二"]["huxi_drawn"]) == (12, 12)
    # 长沙 has no win on a discard (RULES.md §8): no discard 胡息 to show
    assert (rows["十"]["huxi_self"], rows["十"]["huxi_drawn"], rows["十"]["huxi_discard"]) == \
        (12, 10, None)
    assert rows["拾"]["win_self"] is False and rows["拾"]["p_exact"] == 0
    assert rows["二"]["p_exact"] == pytest.approx(1 - comb(57, 19) / comb(60, 19), abs=1e-12)
    assert rows["十"]["p_exact"] == pytest.approx(1 - comb(58, 19) / comb(60, 19), abs=1e-12)
    assert rows["any"]["p_exact"] == pytest.approx(1 - comb(55, 19) / comb(60, 19), abs=1e-12)
    assert rows["any"]["unseen"] == 5
    for r in rows.values():  # the Monte Carlo of the same model agrees within 4 SE
        assert r["sim_n"] == 4000 and close(r["p_sim"], r["p_exact"], 4000)
    # guangxi-81 (15 胡): the same waits, none reaches the threshold
    g = T.calculate(WAIT20, "guangxi-81")
    assert g["card"].to_list() == ["二", "十", "拾", "any"] and g["p_exact"].max() == 0
    # 八一 wins on a discard: without table groups a discard completes as another's draw does
    assert g["huxi_discard"].to_list() == g["huxi_drawn"].to_list()
    assert g["p_sim"].null_count() == g.height  # not run


def test_calculate_own_draws_only_and_stock():
    """An in-play hand: 5 stock cards left, all drawn by the player, 30 unseen cards, a wait
    that wins only as an own draw: 1 − C(30 − u, 5) / C(30, 5)."""
    t = T.calculate(WAIT20, "changsha-paohuzi", unseen="二二二 十十 "
                    "五五五 六六六 八八八 九九九 壹壹壹 贰贰贰 叁叁叁 肆肆肆 伍", stock=5, own_draws=5)
    rows = {r["card"]: r for r in t.iter_rows(named=True)}
    assert rows["二"]["unseen"] == 3 and rows["any"]["unseen"] == 5
    U = 3 + 2 + 8 * 3 + 1
    assert rows["any"]["p_exact"] == pytest.approx(1 - comb(U - 5, 5) / comb(U, 5), abs=1e-12)


def test_calculate_meld_turns_peng_into_pao_on_a_drawn_card_only():
    """A 碰 柒柒柒 on the table: another player's drawn 柒 makes it a 跑 (9, §4), a discard cannot
    (seed 001), an own draw can (a drawn card). Hand 17 + 碰 3 = 20 cards at rest (§5.3)."""
    t = T.calculate("一二三 四五六 七八九 壹贰叁 肆伍陆 十十", "changsha-paohuzi",
                    melds="碰 柒柒柒")
    r = t.filter(card="柒").row(0, named=True)
    # 跑 9 + 一二三 3 + 壹贰叁 6 = 18, the pair 十十 owed with the four-card group (§3)
    assert (r["huxi_self"], r["huxi_drawn"], r["huxi_discard"]) == (18, 18, None)
    assert r["win_drawn"] and not r["win_discard"]


def test_calculate_meld_and_discards_exact_against_monte_carlo():
    """Three sources (own draws, others' draws, discards) and a 碰 that only a drawn card turns
    into a 跑: the exact count and the Monte Carlo of the same model agree (八一 wins on a
    discard, §8)."""
    t = T.calculate("一二三 四五六 七八九 壹贰叁 肆伍陆 十十", "guangxi-81", melds="碰 柒柒柒",
                    seen="五五 六", stock=11, own_draws=4, discards=6, sims=20_000, seed=8)
    assert t["card"].to_list() == ["二", "十", "柒", "拾", "any"]
    assert t.filter(card="柒")["win_discard"].to_list() == [False]
    for r in t.iter_rows(named=True):
        assert close(r["p_sim"], r["p_exact"], 20_000), r


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["changsha-paohuzi", "guangxi-81", "liuhu-dao"])
def test_calculate_exact_against_monte_carlo_on_dealt_waits(variant):
    """Dealt hands with a winning wait (found by the feature kernel): exact vs 40,000 draws."""
    v = zs.load_variant(variant)
    seats = v.layout.players
    keys, sizes = chunk_keys(21, 0, 1), np.array([3000], np.int64)
    feat = np.zeros((1, 3000, seats, kf.N_FEAT), np.int64)
    prob = np.zeros((1, 3000, seats))
    kf.features_chunks(keys, sizes, v.params, feat, prob)
    hits = np.argwhere(feat[0, :, 1:, kf.F_WAITS] > 0)[:12]
    assert len(hits)
    for j, s in hits:
        hands, _, lz = ref.deal_from_deck(ref.shuffled_deck(int(keys[0]), int(j)), v.params)
        d = kf.own_draws(v.params, int(s) + 1)
        seen = np.zeros(20, np.int64)
        seen[lz] = 1
        t = T.calculate(np.array(hands[s + 1], np.int8), v, seen=seen, own_draws=d, sims=40_000,
                        seed=int(j))
        anyrow = t.filter(card="any").row(0, named=True)
        assert anyrow["p_exact"] == pytest.approx(prob[0, j, s + 1], abs=1e-9)
        for r in t.iter_rows(named=True):
            assert close(r["p_sim"], r["p_exact"], 40_000, 4.5), (variant, j, r)


@pytest.mark.parametrize("kwargs,err,needle", [
    ({"hand": "四四 一二三 五六七 八九十 壹贰叁 肆伍陆", "melds": "碰 四四四"}, CardError, "5 copies of 四"),
    ({"hand": WAIT20, "unseen": "十十十十"}, CardError, "6 copies of 十"),
    ({"hand": WAIT20 + " 拾"}, CardError, "discard first"),
    ({"hand": WAIT20, "unseen": "拾拾拾拾 二二二"}, ValueError, "only 7 unseen"),
    ({"hand": WAIT20, "stock": 30}, ValueError, "stock must be ≤ 19"),
    ({"hand": WAIT20, "discards": 2, "variant": "changsha-paohuzi"}, ValueError,
     "no win on a discard"),
    ({"hand": WAIT20, "own_draws": 25}, ValueError, "own_draws"),
    ({"hand": WAIT20, "melds": "碰 一二三"}, CardError, "3 identical cards"),
    ({"hand": WAIT20, "melds": "扛 一一一"}, CardError, "start with its kind"),
    ({"hand": WAIT20, "stock": 5, "play": 10}, ValueError, "starts from the deal"),
    ({"hand": "一二三 一一一 一"}, CardError, "5 copies"),
    # a dropped card turned a 听 hand into "no waits" (RULES.md §5.3: 20 at rest)
    ({"hand": "一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十"}, CardError,
     "hold 19 cards; a player at rest holds 20"),
    ({"hand": "一二三 四五六 七八九"}, CardError, "a card or a table group is missing"),
    ({"hand": "一二三 四五六 七八九 壹贰", "melds": "碰 柒柒柒; 提 捌捌捌捌"},
     CardError, "hold 18 cards; a player at rest holds 20"),
])
def test_calculate_errors(kwargs, err, needle):
    kwargs = {"variant": "guangxi-81", **kwargs}
    hand = kwargs.pop("hand")
    variant = kwargs.pop("variant")
    with pytest.raises(err, match=needle):
        T.calculate(hand, variant, **kwargs)


def test_calculate_takes_a_hand_at_rest_with_table_groups():
    """13 in hand + a 碰 + a 提 (its fourth card replacing a discard) is 20 cards at rest."""
    t = T.calculate("一二三 四五六 七八九 壹贰叁 十", "guangxi-81", melds="碰 柒柒柒; 提 捌捌捌捌")
    assert t["card"][-1] == "any"


def test_calculate_play_counts():
    """Greedy play from the deal: the seat's wins on a card never exceed its wins in all."""
    t = T.calculate(WAIT20, "changsha-paohuzi", play=40, seed=5)
    anyrow = t.filter(card="any").row(0, named=True)
    assert anyrow["play_n"] == 40 and anyrow["play_low"] <= anyrow["p_play"] <= anyrow["play_high"]
    assert t.filter(pl.col("card") != "any")["play_count"].sum() <= anyrow["play_count"]


# --- opening features ----------------------------------------------------------------------------

def make_deck(hands: list[str], liangzhang: str) -> np.ndarray:
    """A deck in the kernels' layout (seat s: deck[s*20:(s+1)*20], 亮张 deck[60], stock after),
    the stock being the cards left over, in kind order."""
    left = np.full(20, 4, np.int64)
    deck = []
    for text in hands:
        c = parse_hand(text)
        assert c.sum() == 20
        deck += [k for k in range(20) for _ in range(c[k])]
        left -= c
    lz = int(np.argmax(parse_hand(liangzhang)))
    deck.append(lz)
    left[lz] -= 1
    assert (left >= 0).all()
    deck += [k for k in range(20) for _ in range(left[k])]
    return np.array(deck, np.int8)


SEAT1 = WAIT20
SEAT2 = "拾拾拾拾 贰贰贰 一二三 二七十 七八 壹壹 捌玖 九"
DEALER = "四四四 六六六 叁叁叁 一三五七八九十 壹肆伍陆"  # + 亮张 五


def test_features_of_a_hand_written_deal():
    v = zs.load_variant("changsha-paohuzi")
    deck = make_deck([DEALER, SEAT1, SEAT2], "五")
    feat = np.zeros((3, kf.N_FEAT), np.int64)
    prob = np.zeros(3)
    kf.deck_features(deck, v.params, feat, prob)
    # seat 1: 一二三 3 + 壹贰叁 6 (二 is needed by both 一二三 and 二七十: one of them); reds
    # 二 七 十十 贰 柒 = 6; waits 二 and 十 (10 胡息 threshold); it draws stock cards 0, 3, …, 18
    # (7), the others 12; 59 unseen (the 亮张 五 is shown), 5 of them 二 / 十
    assert feat[1, [kf.F_HUXI, kf.F_TI, kf.F_KAN, kf.F_RED, kf.F_WAITS]].tolist() == [9, 0, 0, 6, 2]
    assert feat[1, kf.F_MASK] == (1 << 1) | (1 << 9) and feat[1, kf.F_DISCARD] == -1
    assert prob[1] == pytest.approx(1 - comb(54, 19) / comb(59, 19), abs=1e-12)
    # seat 2: 提 拾 12 + 坎 贰 6 + 一二三 3 + 二七十 3 (two 二 free) = 24; reds 4 + 3 + 2 + 2 + 1
    assert feat[2, [kf.F_HUXI, kf.F_TI, kf.F_KAN, kf.F_RED]].tolist() == [24, 1, 1, 12]
    # dealer (21 with the 亮张): 坎 四 3 + 坎 六 3 + 坎 叁 6 = 12 (no 二: no 一二三); reds 七 十
    assert feat[0, [kf.F_HUXI, kf.F_TI, kf.F_KAN, kf.F_RED]].tolist() == [12, 0, 3, 2]
    assert (kf.own_draws(v.params, 0), kf.own_draws(v.params, 1), kf.own_draws(v.params, 2)) \
        == (6, 7, 6)


def twin_opening_huxi(hand: np.ndarray, P: tuple) -> int:
    """Locked 提/坎 plus the best set of disjoint scoring groups, by trying every subset (§4)."""
    from zipai_sim.game import params as p

    total = 0
    free = [int(x) if x < 3 else 0 for x in hand]
    for k in range(20):
        big = k >= 10
        if hand[k] == 4:
            total += P[p.TI_BIG if big else p.TI_SMALL]
        elif hand[k] == 3:
            total += P[p.KAN_BIG if big else p.KAN_SMALL]
    groups = [((0, 1, 2), P[p.YIERSAN_SMALL]), ((1, 6, 9), P[p.ERQISHI_SMALL]),
              ((10, 11, 12), P[p.YIERSAN_BIG]), ((11, 16, 19), P[p.ERQISHI_BIG])] * 2
    best = 0
    for r in range(len(groups) + 1):
        for pick in itertools.combinations(groups, r):
            need = [0] * 20
            for cards, _ in pick:
                for k in cards:
                    need[k] += 1
            if all(need[k] <= free[k] for k in range(20)):
                best = max(best, sum(x for _, x in pick))
    return total + best


def twin_seat(hand: np.ndarray, seat: int, lz: int, v) -> tuple:
    """(huxi, ti, kan, red, waits, mask, p) of one seat from RULES.md and the public ``waits``."""
    from zipai_sim.game import params as p

    P = v.params
    seats, S = P[p.SEATS], P[p.STOCK_LEN]
    d = sum(1 for t in range(S) if (1 + t) % seats == seat)

    def stats(h, unseen):
        w = zs.waits(h, v)
        win = {r["kind"]: (r["win_self"], r["win_other"]) for r in w.iter_rows(named=True)
               if r["win_self"] or r["win_other"]}
        a = sum(unseen[k] for k, (s, o) in win.items() if s and o)
        b = sum(unseen[k] for k, (s, o) in win.items() if s and not o)
        c = sum(unseen[k] for k, (s, o) in win.items() if o and not s)
        pr = float(1 - closed_none(int(unseen.sum()), d, S - d, a, b, c)) if win else 0.0
        return len(win), sum(1 << k for k in win), pr

    base = (twin_opening_huxi(hand, P), int((hand == 4).sum()), int((hand == 3).sum()),
            int(hand[list(RED)].sum()))
    unseen = 4 - hand.astype(np.int64)
    if seat:
        unseen[lz] -= 1
        return base + stats(hand, unseen)
    best = (0, 0, -1.0)
    for k in range(20):
        if hand[k] in (1, 2):
            h = hand.copy()
            h[k] -= 1
            n, m, pr = stats(h, unseen)
            if pr > best[2] or (pr == best[2] and n > best[0]):
                best = (n, m, pr)
    return base + (best[0], best[1], max(best[2], 0.0))


@pytest.mark.parametrize("variant", ["changsha-paohuzi", "guangxi-dazipai", "liuhu-dao"])
def test_features_kernel_against_twin_on_shuffled_decks(variant):
    v = zs.load_variant(variant)
    seats = v.layout.players
    keys, sizes = chunk_keys(11, 0, 2), np.array([4, 3], np.int64)
    feat = np.zeros((2, 4, seats, kf.N_FEAT), np.int64)
    prob = np.zeros((2, 4, seats))
    kf.features_chunks(keys, sizes, v.params, feat, prob)
    for c in range(2):
        for j in range(int(sizes[c])):
            deck = ref.shuffled_deck(int(keys[c]), j)
            hands, _, lz = ref.deal_from_deck(deck, v.params)
            for s in range(seats):
                want = twin_seat(np.array(hands[s], np.int8), s, lz, v)
                got = feat[c, j, s]
                assert (int(got[kf.F_HUXI]), int(got[kf.F_TI]), int(got[kf.F_KAN]),
                        int(got[kf.F_RED]), int(got[kf.F_WAITS]), int(got[kf.F_MASK])) \
                    == want[:6], (variant, c, j, s)
                assert prob[c, j, s] == pytest.approx(want[6], abs=1e-9)


def test_features_find_tenpai_hands():
    """Over many deals the kernel and the twin agree on the seats dealt a winning wait (长沙,
    10 胡息: common enough to meet several)."""
    v = zs.load_variant("changsha-paohuzi")
    keys, sizes = chunk_keys(5, 0, 1), np.array([400], np.int64)
    feat = np.zeros((1, 400, 3, kf.N_FEAT), np.int64)
    prob = np.zeros((1, 400, 3))
    kf.features_chunks(keys, sizes, v.params, feat, prob)
    hits = np.argwhere(feat[0, :, 1:, kf.F_WAITS] > 0)
    assert len(hits) >= 3
    for j, s in hits[:6]:
        deck = ref.shuffled_deck(int(keys[0]), int(j))
        hands, _, lz = ref.deal_from_deck(deck, v.params)
        want = twin_seat(np.array(hands[s + 1], np.int8), int(s) + 1, lz, v)
        assert feat[0, j, s + 1, kf.F_WAITS] == want[4]
        assert prob[0, j, s + 1] == pytest.approx(want[6], abs=1e-9)


# --- opening tables ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def records():
    return T.opening_records("guangxi-81", 400, seed=9)


def test_records_agree_with_simulate_hands(records):
    """Same seed and chunk size: the same hands, so the same wins and mean scores per seat."""
    from zipai_sim.studies.balance import simulate_hands

    b = simulate_hands("guangxi-81", 400, 9)
    t = T.opening_table(records, by="seat")
    for s in range(3):
        row = t.filter(seat=s).row(0, named=True)
        win = b.filter(metric="win", seat=s).row(0, named=True)
        score = b.filter(metric="score", seat=s).row(0, named=True)
        assert row["count"] == win["count"] and row["n"] == 400
        assert row["score_mean"] == pytest.approx(score["mean"], abs=1e-12)
    assert records.height == 1200 and records["deal"].n_unique() == 400


def test_records_bookkeeping(records):
    per_hand = records.group_by("deal").agg(pl.col("won").sum(), pl.col("winner").first(),
                                            pl.col("score").sum())
    # one winner or 荒庄 per hand (§6, §5.8); payments sum to 0 (§7.2)
    assert ((per_hand["won"] == 1) | (per_hand["winner"] == -1)).all()
    assert (per_hand["score"] == 0).all()
    assert (records.filter("won_on_wait")["won"]).all()
    assert (records["tenpai"] == (records["waits"] > 0)).all()
    assert records.filter(~pl.col("tenpai"))["p_draw"].max() == 0


@pytest.mark.parametrize("by", [["seat"], ["kan"], ["seat", "ti"], ["tenpai"], ["red"]])
def test_opening_table_counts_and_intervals(records, by):
    t = T.opening_table(records, by=by)
    assert t["n"].sum() == records.height  # every seat-hand in one group
    assert t["count"].sum() == records["won"].sum()
    assert (t["ci_low"] <= t["rate"]).all() and (t["rate"] <= t["ci_high"]).all()
    assert t["share"].sum() == pytest.approx(1.0)


def test_opening_table_bins_and_errors(records):
    t = T.opening_table(records, by=["opening_huxi"], bins={"opening_huxi": 6})
    assert set(t["opening_huxi"].to_list()) <= set(range(0, 200, 6))
    assert t["n"].sum() == records.height
    with pytest.raises(ValueError, match="cannot group by"):
        T.opening_table(records, by=["colour"])


def test_tenpai_table(records):
    t = T.tenpai_table(records, by=[])
    assert t["n"].sum() == records["tenpai"].sum()
    assert ((t["band"] <= t["p_exact"]) & (t["p_exact"] <= t["band"] + 0.1 + 1e-9)).all()
    assert (t["wait_count"] <= t["count"]).all()
    assert (t["ci_low"] <= t["rate"]).all() and (t["rate"] <= t["ci_high"]).all()


# --- deal tables ---------------------------------------------------------------------------------

def test_deal_table_threshold_sweep():
    """大字牌 at 15/20/25/30 油 on the same decks: a complete hand that wins at a higher threshold
    wins at a lower one and instant wins do not depend on it (§6), so 天胡 cannot rise."""
    t = T.deal_table("guangxi-dazipai", n=4000, seed=2, thresholds="customary")
    assert t["threshold"].unique().sort().to_list() == [15, 20, 25, 30]
    assert (t["n"] == 4000).all()
    th = t.filter(metric="tianhu").sort("threshold")["count"].to_list()
    assert th == sorted(th, reverse=True)
    for thr in (15, 30):
        part = {r["metric"]: r["count"] for r in t.filter(threshold=thr).iter_rows(named=True)}
        assert part["tianhu"] == part["tianhu_complete"] + part["tianhu_santi"] + \
            part["tianhu_wukan"]
        ref_run = zs.simulate_deals(zs.load_variant("guangxi-dazipai").with_threshold(thr), 4000,
                                    2).summary
        assert part["dihu"] == ref_run.filter(metric="dihu")["count"][0]
    ok = t.filter(pl.col("count") > 0)
    assert ((ok["ci_low"] <= ok["rate"]) & (ok["rate"] <= ok["ci_high"])).all()


def test_deal_table_variants_and_metrics():
    t = T.deal_table(["guangxi-81", "liuhu-dao"], n=1500, seed=4, metrics=None)
    assert set(t["variant"]) == {"guangxi-81", "liuhu-dao"}
    assert "fanxing_mean" in t["metric"].to_list()
    with pytest.raises(ValueError, match="unknown metric"):
        T.deal_table("guangxi-81", n=10, metrics=["tianhu", "nonsense"])
    with pytest.raises(ValueError, match="thresholds"):
        T.deal_table("guangxi-81", n=10, thresholds="all")


def test_convergence_table_is_one_growing_sample():
    t = T.convergence_table("changsha-paohuzi", "tianhu", n=20_000, seed=1, points=5)
    assert t["n"].to_list() == sorted(t["n"].to_list()) and t["n"][-1] == 20_000
    assert t["count"].to_list() == sorted(t["count"].to_list())  # a prefix never loses a 天胡
    last = zs.simulate_deals("changsha-paohuzi", 20_000, 1).summary.filter(metric="tianhu")
    assert t["count"][-1] == last["count"][0]
    assert t["width"][-1] < t["width"][0]
    with pytest.raises(ValueError, match="not a rate"):
        T.convergence_table("guangxi-81", "fanxing_mean", n=100)


@pytest.mark.parametrize("metric", ["dealer_huxi_9", "fanxing_1", "fanxing_tianhu_0"])
def test_convergence_of_a_conditional_rate_counts_its_own_denominator(metric):
    """A share among complete dealer hands or among wins is read with its own n (the
    conditioning hands), as simulate_deals' summary gives it, beside the deals dealt: 76 of
    200,000 deals is not a 14 % rate."""
    t = T.convergence_table("guangxi-81", metric, n=20_000, seed=5, points=3, start=2000)
    assert t["deals"].to_list() == [2000, 6325, 20000]
    for m, count, n, rate in zip(t["deals"], t["count"], t["n"], t["rate"]):
        want = zs.simulate_deals("guangxi-81", m, 5, progress=False).summary.filter(
            metric=metric).row(0, named=True)
        assert (count, n) == (want["count"], want["n"]) and n < m, m
        assert rate == pytest.approx(count / n)
    tianhu = T.convergence_table("guangxi-81", "tianhu", n=20_000, seed=5, points=1)
    assert tianhu["deals"].to_list() == tianhu["n"].to_list() == [20_000]  # one point: the run


@pytest.mark.parametrize("metric", ["tianhu", "dihu", "dealer_two_ti"])
def test_convergence_rows_are_separate_runs_of_their_n(metric):
    """One run of n read at each point (chunk heads dealt again) equals a fresh simulate_deals
    of that many deals, at chunk boundaries and inside chunks."""
    t = T.convergence_table("guangxi-81", metric, n=10_000, seed=4, points=4, start=700,
                            chunk_size=1000)
    assert t["n"].to_list() == [700, 1698, 4121, 10000]  # 700 · (10000/700)^(k/3), rounded
    for m, count in zip(t["n"], t["count"]):
        fresh = zs.simulate_deals("guangxi-81", m, 4, chunk_size=1000, progress=False)
        assert count == fresh.summary.filter(metric=metric)["count"][0], m


# --- output --------------------------------------------------------------------------------------

def test_markdown_and_parquet_metadata(tmp_path):
    t = T.calculate(WAIT20, "changsha-paohuzi")
    md = T.to_markdown(t).splitlines()
    assert len(md) == t.height + 2 and md[0].startswith("| card | kind |")
    assert md[2].startswith("| 二 | 1 | 12 | 12 |  | yes | yes |  | 3 |")  # no discard win (§8)
    path = tmp_path / "w.parquet"
    meta = T.write_table(t, path, "waits", seed=3, hand=WAIT20)
    got = read_metadata(path)
    assert got["table"] == "waits" and got["seed"] == "3" and got["hand"] == WAIT20
    assert "zipai_sim_version" in got and meta == {k: got[k] for k in meta}
    assert pl.read_parquet(path).equals(t)




def test_cli_table_deal_writes_parquet(tmp_path, capsys):
    path = tmp_path / "deal.parquet"
    code, out, err = run(["table", "deal", "--variants", "guangxi-dazipai", "--deals", "1000",
                          "--thresholds", "15", "30", "--seed", "3", "--out", str(path)],
                         capsys)
    assert code == 0, err
    assert "tianhu" in out and f"wrote {path}" in out
    meta = read_metadata(path)
    assert meta["table"] == "deal" and meta["thresholds"] == "15,30" and meta["seed"] == "3"
    assert meta["variants"] == "guangxi-dazipai" and meta["n"] == "1000"
    assert pl.read_parquet(path).height == 10


def test_cli_table_waits_markdown(capsys):
    code, out, err = run(["table", "waits", WAIT20, "--variant", "changsha-paohuzi",
                          "--sims", "0", "--markdown"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("changsha-paohuzi (rules ")  # the header line (issue 11)
    assert lines[1].startswith("| card |") and "p_sim" not in lines[1]  # unrun: not shown
    assert any(x.startswith("| any |") for x in lines)


def test_cli_table_opening_and_records(tmp_path, capsys):
    rec = tmp_path / "rec.parquet"
    code, out, err = run(["table", "opening", "--variants", "liuhu-dao", "--hands", "100",
                          "--by", "seat", "kan", "--records", str(rec)], capsys)
    assert code == 0, err
    assert pl.read_parquet(rec).height == 400 and read_metadata(rec)["table"] == \
        "opening_records"
    code, out, err = run(["table", "tenpai", "--variants", "changsha-paohuzi", "--hands", "60",
                          "--by"], capsys)
    assert code == 0, err
    assert "band" in out


@pytest.mark.parametrize("argv,needle", [
    (["table", "waits", "一一一一一"], "5 copies"),
    (["table", "waits", WAIT20, "--stock", "40"], "stock must be"),
    (["table", "opening", "--hands", "-3"], "--hands"),
    (["table", "opening", "--hands", "5", "--by", "nope"], "cannot group by"),
    (["table", "deal", "--variants", "nope"], "nope"),
    (["table", "waits", WAIT20, "--out", "/nonexistent-folder/x.parquet"], "cannot write"),
])
def test_cli_table_errors_are_one_line(argv, needle, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2, (out, err)
    assert len(err.strip().splitlines()) == 1 and needle in err and "Traceback" not in err


def test_cli_table_bad_by_is_refused_before_any_hand(monkeypatch, capsys):
    monkeypatch.setattr(T, "opening_runs",
                        lambda *a, **k: pytest.fail("hands played before --by was checked"))
    code, out, err = run(["table", "opening", "--hands", "5", "--by", "seat", "nope"], capsys)
    assert code == 2 and "cannot group by ['nope']" in err


def test_calculate_without_a_discard_win_shows_none_and_checks_its_seed():
    """长沙 has no win on a discard (RULES.md §8): no discard 胡息, no discard win; the seed is
    checked as every other seed is."""
    t = T.calculate(WAIT20, "changsha-paohuzi")
    waits = t.filter(pl.col("card") != "any")
    assert waits["huxi_discard"].null_count() == waits["win_discard"].null_count() == waits.height
    for bad in (-1, 1.5, "a", 2 ** 200):
        with pytest.raises(ValueError, match="seed must be"):
            T.calculate(WAIT20, "changsha-paohuzi", sims=10, seed=bad)


def test_calculate_interrupted_keeps_the_trials_finished(monkeypatch):
    """Ctrl-C in the draw model's second batch (16 chunks of 4,096 trials each): the counts are
    those of the first 65,536 trials, the same as a run of exactly that many, and the header
    says PARTIAL; the play run is not started."""
    from test_runmodel import _ctrl_c_after

    from zipai_sim.tables import waits_mc

    want = T.calculate(WAIT20, "changsha-paohuzi", sims=65_536, seed=5)
    _ctrl_c_after(monkeypatch, waits_mc, "_chunk_rng", 16)
    got = T.calculate(WAIT20, "changsha-paohuzi", sims=100_000, seed=5)
    assert set(got["sim_n"]) == {65_536}
    assert got["sim_count"].equals(want["sim_count"])
    assert "PARTIAL: interrupted after 65,536 of 100,000 draws" in str(got.report())
