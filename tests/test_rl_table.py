"""The batched table (issue 48; ``play.batch.BatchTable``, ``kernels.play.table``): the
contract with the kernel, what an observation holds, what it may not hold, and bad input.

1. Contract: answering every question with the hint (the kernel's own greedy, study or learned
   answer, read back through the interface) plays byte-identical hands to the kernel playing
   that bot itself: the same outcome rows and the same move logs.
2. The observation is the asking seat's view at its question, column for column as the
   reference engine's hand gives it (``play.engine.Game`` played by the greedy twin, loaded
   with ``analysis.state.load``), and it does not change when every card the seat cannot see
   is dealt again (tests/test_hidden.py ``redeal``, written from RULES.md).
3. Any legal answers make legal hands: hands played by a random legal policy replay without a
   violation in the independent move-log checker (tests/rules_checker.py).
4. A hand's play depends only on its deal and its answers: not on the batch size or threads.
5. Bad input: one clear error naming the hand, the seat and the action; nothing changes.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from rules_checker import check_hand
from test_hidden import redeal

import zipai_sim as zs
from zipai_sim.analysis.state import load
from zipai_sim.game.reference import shuffled_deck
from zipai_sim.kernels import play as kp
from zipai_sim.kernels.play.observe import observe, observe_chi
from zipai_sim.play import actions as pa
from zipai_sim.play.batch import BatchTable
from zipai_sim.play.engine import Game
from zipai_sim.play.policies import GreedyPolicy
from zipai_sim.play.chunks import play_chunks
from zipai_sim.play.rollout import empty_snaps
from zipai_sim.runs.chunks import chunk_keys

VARIANTS = zs.list_variants()
CODES = {"greedy": kp.POL_GREEDY, "lookahead": kp.POL_LOOKAHEAD, "study": kp.POL_STUDY,
         "learned": kp.POL_LEARNED, "random": kp.POL_RANDOM}


def play_out(t: BatchTable, policy) -> tuple[dict, list]:
    """Run table ``t`` to its end with ``policy(questions) -> actions``; returns ({hand:
    (payments, rows, answers)}, every Questions batch seen)."""
    got, seen = {}, []
    q = t.reset()
    while True:
        f = t.finished()
        for i, h in enumerate(f.hand):
            got[int(h)] = (f.payments[i], f.rows[i], f.answers[i])
        if t.done:
            return got, seen
        seen.append(q)
        q = t.step(policy(q))


def kernel_rows(v, seed: int, n: int, names) -> np.ndarray:
    """Hands 0..n-1 of ``seed`` (one chunk) played by the kernel with bots ``names``."""
    out = np.zeros((1, n, kp.N_OUT), np.int64)
    play_chunks(v, chunk_keys(seed, 0, 1), np.array([n]), np.array([CODES[x] for x in names]),
                out)
    return out[0]


# --- 1. the contract -------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_hint_answers_play_the_kernels_own_hands(variant):
    v = zs.load_variant(variant)
    t = BatchTable(variant, hands=150, seed=11, batch=64)
    got, seen = play_out(t, lambda q: q.hint)
    want = kernel_rows(v, 11, 150, ["greedy"] * v.layout.players)
    assert sorted(got) == list(range(150))
    assert np.array_equal(np.array([got[h][1] for h in range(150)]), want)
    assert sum(len(q) for q in seen) > 150 * 10  # every seat's questions came through
    kinds = np.concatenate([q.kind for q in seen])
    assert {0, 1, 2} <= set(kinds.tolist())
    key = chunk_keys(11, 0, 1)
    for h in (0, 7, 149):  # the move logs too
        deck = np.array(shuffled_deck(int(key[0]), h), np.int8)
        moves, _ = kp.play_one(v, deck, [kp.POL_GREEDY] * v.layout.players, int(key[0]), h)
        assert np.array_equal(t.moves(h, got[h][2]), moves)


@pytest.mark.parametrize("variant,hint,seats,bots", [
    ("guangxi-81", "study", "all", "greedy"),
    ("hunan-hengyang", "learned", [1], "study"),
    ("liuhu-dao", "greedy", [0, 2], "lookahead"),
    ("changde-paohuzi", "study", [2], "learned"),
    ("guangxi-dazipai", "learned", [0], "random"),
])
def test_hint_answers_match_any_lineup(variant, hint, seats, bots):
    v = zs.load_variant(variant)
    n = v.layout.players
    t = BatchTable(variant, hands=120, seed=12, batch=50, hint=hint, seats=seats, bots=bots)
    got, _ = play_out(t, lambda q: q.hint)
    mine = range(n) if seats == "all" else seats
    names = [hint if s in mine else bots for s in range(n)]
    want = kernel_rows(v, 12, 120, names)
    assert np.array_equal(np.array([got[h][1] for h in range(120)]), want)
    assert all(got[h][0].sum() == 0 for h in got)  # settlements are zero-sum without a sitter


# --- 2. the observation ----------------------------------------------------------------------

def reference_obs(game: Game, seat: int, kind: int, card: int, chi_opts=None) -> np.ndarray:
    """The observation of ``seat``'s question on the reference engine's hand as it stands: the
    hand loaded into the kernel's arrays, then ``observe``."""
    src = ("rest", seat)
    for s, what, _ in reversed(game.moves):  # the card on offer: the last draw or discard
        if what in ("draws", "discards"):
            src = ("draw" if what == "draws" else "rest", s)
            break
    snaps = empty_snaps(1)
    load(game, src, [0] * game.seats, 0, snaps, 0)
    hands, marks, melds, ints, _ = (a[0] for a in snaps)
    ints[kp.I_LIANG] = game.liangzhang
    fl = np.zeros(kp.FL_SIZE)
    observe(hands, marks, melds, ints, fl, np.zeros(20, np.int8), np.int64(seat), np.int64(kind),
            np.int64(card))
    if chi_opts is not None:
        cs = np.full((len(chi_opts) + 1, kp.CHI_COLS), -1, np.int64)
        for j, (group, bis) in enumerate(chi_opts):
            for g, grp in enumerate((group, *bis)):
                a, b, c = sorted(grp)
                cs[j, g] = a * 400 + b * 20 + c
        observe_chi(fl, cs, np.int64(len(chi_opts)))
    return fl[kp.FL_OBS:kp.FL_OBS + kp.OBS_SIZE].astype(np.float32)


class Watch(GreedyPolicy):
    """The greedy twin noting, at each question the kernel freezes (a discard with a choice, a
    碰, a 吃), what ``look(game, seat, kind, card, opts)`` returns."""

    def __init__(self, look, log: list):
        super().__init__()
        self.look, self.log = look, log

    def discard(self, game, seat, options):
        if len(options) > 1:
            self.log.append(self.look(game, seat, kp.RO_DISCARD, -1, None))
        return super().discard(game, seat, options)

    def peng(self, game, seat, card):
        self.log.append(self.look(game, seat, kp.RO_PENG, card, None))
        return super().peng(game, seat, card)

    def chi(self, game, seat, card, options):
        self.log.append(self.look(game, seat, kp.RO_CHI, card, options))
        return super().chi(game, seat, card, options)


@pytest.mark.parametrize("variant", VARIANTS)
def test_observation_is_the_seats_view_at_its_question(variant):
    v = zs.load_variant(variant)
    n_hands = 12
    t = BatchTable(variant, hands=n_hands, seed=13, batch=n_hands)
    _, seen = play_out(t, lambda q: q.hint)
    table_obs: dict = {}
    for q in seen:
        for i, h in enumerate(q.hand):
            table_obs.setdefault(int(h), []).append((int(q.seat[i]), int(q.kind[i]), q.obs[i]))
    key = int(chunk_keys(13, 0, 1)[0])
    checked = 0
    for h in range(n_hands):
        log: list = []
        pols = [Watch(lambda g, s, k, c, o: (s, k, reference_obs(g, s, k, c, o)), log)
                for _ in range(v.layout.players)]
        Game(v, shuffled_deck(key, h), pols, key, h).play()
        mine = table_obs.get(h, [])
        assert [(s, k) for s, k, _ in log] == [(s, k) for s, k, _ in mine]
        for (s, k, a), (_, _, b) in zip(log, mine):
            bad = np.flatnonzero(a != b)
            names = pa.obs_names()
            assert bad.size == 0, (h, s, k, [(names[i], a[i], b[i]) for i in bad[:5]])
            checked += 1
    assert checked > 150


@pytest.mark.parametrize("variant", VARIANTS)
def test_observation_ignores_every_hidden_card(variant):
    v = zs.load_variant(variant)
    rnd = random.Random(14)
    moved = [0, 0]

    def look(game, seat, kind, card, opts):
        real = reference_obs(game, seat, kind, card, opts)
        for _ in range(3):
            g = redeal(game, seat, card, rnd)
            moved[1] += 1
            moved[0] += any(g.players[o].hand != game.players[o].hand
                            for o in range(game.seats) if o != seat)
            alt = reference_obs(g, seat, kind, card, opts)
            assert np.array_equal(alt, real), (seat, kind, card)
        return None

    key = int(chunk_keys(15, 0, 1)[0])
    for h in range(6):
        pols = [Watch(look, []) for _ in range(v.layout.players)]
        Game(v, shuffled_deck(key, h), pols, key, h).play()
    assert moved[1] > 100 and moved[0] > 0.9 * moved[1]  # the redeals did move hidden cards


def test_the_hidden_card_check_catches_a_peek():
    """The same check on an observation that also read the next seat's hand fails."""
    v = zs.load_variant("guangxi-81")
    rnd = random.Random(16)
    key = int(chunk_keys(15, 0, 1)[0])

    def peek(game, seat, kind, card, opts):
        real = np.append(reference_obs(game, seat, kind, card, opts),
                         game.players[(seat + 1) % game.seats].hand)
        g = redeal(game, seat, card, rnd)
        alt = np.append(reference_obs(g, seat, kind, card, opts),
                        g.players[(seat + 1) % g.seats].hand)
        assert np.array_equal(alt, real)

    with pytest.raises(AssertionError):
        pols = [Watch(peek, []) for _ in range(v.layout.players)]
        Game(v, shuffled_deck(key, 0), pols, key, 0).play()


def test_obs_names_cover_every_column():
    names = pa.obs_names()
    assert len(names) == pa.OBS_SIZE == kp.OBS_SIZE and len(set(names)) == len(names)
    assert names[kp.OB_HAND] == "hand.s1" and names[kp.OB_UNSEEN + 19] == "unseen.b10"
    assert names[kp.OB_Q + kp.Q_KIND + 2] == "question.kind.chi"


# --- 3. any legal answers make legal hands -------------------------------------------------

def random_legal(seed: int):
    rng = np.random.default_rng(seed)

    def pol(q):
        u = rng.random(q.mask.shape)
        return np.argmax(np.where(q.mask, u, -1.0), axis=1)
    return pol


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_legal_answers_replay_without_a_violation(variant):
    t = BatchTable(variant, hands=40, seed=17, batch=16)
    got, seen = play_out(t, random_legal(3))
    assert any((q.hint != random_legal(3)(q)).any() for q in seen[:3])  # not the hint's play
    key = int(chunk_keys(17, 0, 1)[0])
    for h in range(40):
        moves = [m for m in (kp.move_tuple(r) for r in t.moves(h, got[h][2])) if m is not None]
        assert check_hand(t.v, [int(k) for k in shuffled_deck(key, h)], moves) == [], h


def test_asked_wins_may_be_declined():
    t = BatchTable("guangxi-81", hands=60, seed=18, batch=30, ask_hu=True)
    declined = []

    def pol(q):
        a = q.hint.copy()
        hu = q.kind == kp.RO_HU
        assert (q.mask[hu, pa.HU] & q.mask[hu, pa.PASS]).all()
        a[hu] = pa.PASS
        declined.extend(q.hand[hu].tolist())
        return a

    got, _ = play_out(t, pol)
    assert len(got) == 60 and declined
    for h in set(declined):  # no seat won on the card it declined: the hand went on
        assert got[h][1][kp.O_MOVES] > 0


# --- 4. independence -------------------------------------------------------------------------

def test_play_does_not_depend_on_batch_or_threads():
    score = np.random.default_rng(19).random(pa.N_ACTIONS)

    def pol(q):  # deterministic in the observation: a fixed score over the legal actions
        return np.argmax(np.where(q.mask, score + 0.01 * q.obs[:, :pa.N_ACTIONS], -1.0), axis=1)

    runs = [play_out(BatchTable("hunan-hengyang", hands=90, seed=20, batch=b, threads=th,
                                bots="study", seats=[0, 2]), pol)[0]
            for b, th in ((7, 1), (90, 2), (32, 2))]
    for r in runs[1:]:
        assert sorted(r) == sorted(runs[0])
        assert all(np.array_equal(r[h][1], runs[0][h][1]) for h in r)


# --- 5. bad input ----------------------------------------------------------------------------

def test_bad_actions_are_named_and_change_nothing():
    t = BatchTable("guangxi-81", hands=20, seed=21, batch=10)
    q = t.reset()
    bad = q.hint.copy()
    row = int(np.flatnonzero(q.kind == kp.RO_DISCARD)[0])
    bad[row] = int(np.flatnonzero(~q.mask[row])[0])
    with pytest.raises(ValueError, match=rf"action {bad[row]} is not legal for hand "
                                         rf"{q.hand[row]} \(seat {q.seat[row]}"):
        t.step(bad)
    with pytest.raises(ValueError, match="shape"):
        t.step(q.hint[:-1])
    with pytest.raises(ValueError, match="not an integer"):
        t.step(np.where(np.arange(len(q)) == 0, np.nan, q.hint.astype(float)))
    with pytest.raises(ValueError, match="not an integer"):
        t.step(q.hint + 0.5)
    with pytest.raises(ValueError, match="integers"):
        t.step(q.mask[:, 0])
    with pytest.raises(ValueError, match="not legal"):
        t.step(np.full(len(q), 999))
    q2 = t.step(q.hint.astype(float))  # a float model output with integer values is fine
    ref = BatchTable("guangxi-81", hands=20, seed=21, batch=10)
    r = ref.reset()
    r2 = ref.step(r.hint)
    assert np.array_equal(q2.obs, r2.obs) and np.array_equal(q2.hand, r2.hand)


@pytest.mark.parametrize("kw,msg", [
    ({"hands": -1}, "hands"), ({"seats": [3]}, "seats"), ({"seats": "two"}, "seats"),
    ({"bots": "teacher", "seats": [0]}, "seat 1 must be one of"), ({"hint": "oracle"}, "hint"),
    ({"bots": ["greedy"]}, "bots"), ({"batch": 0}, "batch"), ({"seed": -3}, "seed"),
    ({"seats": [0.5]}, "seats"), ({"seats": "12"}, "seats"), ({"seats": [True]}, "seats"),
    ({"bots": 5}, "bots"), ({"bots": "nope"}, "seat 0 must be a bot name"),
    ({"hint": ["greedy"]}, "hint"),
])
def test_bad_tables_are_named(kw, msg):
    with pytest.raises(ValueError, match=msg):
        BatchTable("guangxi-81", **kw)


def test_step_before_reset_is_refused():
    with pytest.raises(RuntimeError, match="reset"):
        BatchTable("guangxi-81", hands=2).step([])


def test_huge_actions_and_a_finished_table_are_named():
    t = BatchTable("guangxi-81", hands=2, seed=22)
    q = t.reset()
    with pytest.raises(ValueError, match="not legal for hand 0 .*actions are 0..69"):
        t.step(np.full(len(q), 2**64 - 1, np.uint64))  # must not wrap round to a legal one
    while not t.done:
        q = t.step(q.hint)
    with pytest.raises(RuntimeError, match="the table is done"):
        t.step([0])


def test_moves_refuses_answers_that_are_not_the_hands():
    """``moves`` replays a hand from its deal: answers of another hand, cut short, too many or
    illegal are refused (the kernel would read past them), and so is a hand it never dealt."""
    t = BatchTable("guangxi-81", hands=6, seed=23)
    q = t.reset()
    while not t.done:
        q = t.step(q.hint)
    f = t.finished()
    h, a = int(f.hand[0]), f.answers[0]
    assert len(t.moves(h, a)) > 0
    for bad, msg in ((np.full(len(a), 69), "answer 0 .* is not legal"), (a[:-1], "asks more"),
                     (np.append(a, 0), "ended after"), (a.astype(float), "1-D array of ints")):
        with pytest.raises(ValueError, match=msg):
            t.moves(h, bad)
    with pytest.raises(ValueError, match="not one of this table's hands"):
        t.moves(10**6, a)
