"""Every bot sees only what a player sees (issue 9 §1): changing the cards a seat cannot see never
changes its decision, for the shipped bots ``greedy`` and ``random``, in both engines.

What a seat sees (RULES.md §1–§5, and the visible-information definition the ``Observation`` of
``play/observation.py`` documents, seed 000 ⑴):

- its own hand (§2) and its own table groups;
- every other seat's table groups: 吃 (with 比), 碰 and 跑 face up, 提 and 臭偎 with one card up,
  so their kinds are known — except a 偎, which lies face down (§3 "偎 … hidden", seed 000 ⑴
  "不能明示给其它玩家"): another seat sees three cards, not their kind;
- the cards beside every seat, own discards and unused draws, face up (§5.2);
- the card on offer: a discard, or a drawn card, which is shown (§5.2);
- the dealer's 亮张, shown to all (§2), and any two-提 extra card (a drawn card, §3, §6): known to
  be in that seat's hand until the seat makes its first move (it can only leave the hand in a
  move everyone sees);
- the number of cards in every hand and in the stock (the deal sizes of §2 and what was played).

Hidden from it: the other seats' hands (but for those pinned cards), the kinds of their face-down
偎, and the content and order of the stock (§2 "draws take its top card"). The checker counts the
seen cards from the list above (not from ``observe``, the code under test's own idea of
visibility), takes the rest of the 80 cards (§1: four of each kind) as the unseen pool, checks that
it fills exactly the hidden places, and redeals it: hidden 偎 kinds, other hands of their sizes,
the stock, uniform over the ways of placing the unseen cards (copies told apart) that keep what a
player can rule out: no hand holds four of a kind (dealt 提 are laid down, a fourth card makes a
提/跑, §3), and the owner of a face-down 偎 holds no fourth copy (it would have made a 提).
Whether another seat once passed a 碰 or 吃 (its 臭 marks, §5.6) is not a card and is left alone.

Three checks:

1. Reference engine, every question (``discard``, ``peng``, ``chi``, ``hu``, the 地胡 and
   two-提 extra-card 胡 included), every seat, all-greedy, all-random and mixed tables, every
   shipped variant: the policy answers the question on copies of the game whose hidden cards are
   redealt, then on the real game; the answers agree, and so does the policy stream after the
   answer (the random bot draws the same number of values whatever the hidden cards).
2. Both engines, stock order: permuting the stock cards not yet drawn at some point of a hand
   changes nothing the seats did before the next draw (every decision made before it, by either
   bot, in either engine: ``kernels.play.play_one`` is the public hook of the numba kernel, which
   takes a whole deck, so hidden hands cannot be swapped mid-hand there; its policies are the
   move-for-move twins of the reference ones, tests/test_play_kernel.py).
3. The policy stream itself: see ``test_random_stream_position_depends_on_hidden_hands`` (a
   finding, not a bot reading hidden cards).
"""

from __future__ import annotations

import copy
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import zipai_sim as zs
from zipai_sim.game import params
from zipai_sim.game.reference import shuffled_deck
from zipai_sim.kernels import play as kp
from zipai_sim.play.bots_learned import LearnedPolicy
from zipai_sim.play.bots_neural import NeuralPolicy
from zipai_sim.play.engine import Game
from zipai_sim.play.policies import GreedyPolicy, LookaheadPolicy, RandomPolicy, StudyPolicy
from zipai_sim.play.table import Meld
from zipai_sim.runs.chunks import chunk_keys
from neural_model import random_model

VARIANTS = zs.list_variants()
QUESTIONS = ("discard", "peng", "chi", "hu")
SEATINGS = ("greedy", "random", "mixed")
KEY = int(chunk_keys(909, 0, 1)[0])
DEAL_MOVES = ("提 (dealt)", "extra card")  # the only moves before a seat's first own choice


#: a network whose every layer has a say (random weights, ``tests/neural_model.py``)
NEURAL_MODEL = random_model()
#: weights that give every learned feature a say (the shipped ones may leave some at 0)
LEARNED_W = tuple(float(x) for x in np.random.default_rng(47).normal(0.0, 1.0, kp.N_FEAT))
BOTS = {"greedy": GreedyPolicy, "random": RandomPolicy, "lookahead": LookaheadPolicy,
        "study": StudyPolicy, "learned": lambda: LearnedPolicy(LEARNED_W),
        "neural": lambda: NeuralPolicy(NEURAL_MODEL)}
LINEUPS = {"mixed": ("greedy", "random"), "ladder": ("lookahead", "greedy", "random")}


def table(v, seating: str, probe=None) -> list:
    """The policies of a table: all one bot, "mixed" (greedy at even seats, random at odd) or
    "ladder" (lookahead, greedy, random in turn)."""
    names = LINEUPS.get(seating, (seating,))
    pols = [BOTS[names[s % len(names)]]() for s in range(v.layout.players)]
    return pols if probe is None else [probe(p, s) for s, p in enumerate(pols)]


# --- what a seat sees, from RULES.md ---------------------------------------------------------

def on_table(game: Game) -> int:
    """Cards in hands, table groups, beside piles and the stock (80 less a card on offer)."""
    return sum(sum(pl.hand) + sum(len(m.cards) for m in pl.melds) + len(pl.beside)
               for pl in game.players) + len(game.stock)


def pinned(game: Game, o: int) -> list[int]:
    """Cards every seat knows to be in seat ``o``'s hand: the dealer's 亮张 (§2) and ``o``'s
    two-提 extra cards (drawn, so shown), while ``o`` has made no move but those of the deal."""
    if any(s == o and what not in DEAL_MOVES for s, what, _ in game.moves):
        return []
    out = [game.liangzhang] if o == 0 else []
    return out + [cards[0] for s, what, cards in game.moves if s == o and what == "extra card"]


def seen(game: Game, seat: int, card: int) -> tuple[list[int], dict[int, list[int]]]:
    """The cards ``seat`` sees (counts per kind), and per other seat the cards it knows are in
    that seat's hand (``pinned``, capped by what is left of each kind)."""
    c = list(game.players[seat].hand)
    for s, pl in enumerate(game.players):
        for m in pl.melds:
            if s == seat or m.name != "wei":
                for k in m.cards:
                    c[k] += 1
        for k in pl.beside:
            c[k] += 1
    if card >= 0 and on_table(game) == 79:  # the card on offer lies nowhere else
        c[card] += 1
    pins = {}
    for o in range(game.seats):
        if o == seat:
            continue
        pins[o] = []
        for k in pinned(game, o):
            if c[k] < 4:  # a pinned card is gone when a table group holds all four
                c[k] += 1
                pins[o].append(k)
    return c, pins


def view(game: Game, seat: int) -> tuple:
    """Everything ``seat`` sees (the list in the module docstring), to check that a redeal
    changed nothing of it."""
    me = game.players[seat]
    groups = tuple(tuple((m.name, m.cards, m.huxi) if s == seat or m.name != "wei"
                         else ("wei", len(m.cards)) for m in pl.melds)
                   for s, pl in enumerate(game.players))
    return (tuple(me.hand), groups, tuple(tuple(pl.beside) for pl in game.players),
            tuple(sum(pl.hand) for pl in game.players), len(game.stock), game.draws,
            game.liangzhang, frozenset(me.chou), frozenset(me.passed_peng), game.first_discard)


def redeal(game: Game, seat: int, card: int, rnd: random.Random) -> Game:
    """A copy of ``game`` in which everything ``seat`` cannot see is dealt again from the cards it
    has not seen (module docstring); the seat's view is unchanged."""
    counts, pins = seen(game, seat, card)
    assert all(0 <= x <= 4 for x in counts), counts
    pool = [k for k in range(20) for _ in range(4 - counts[k])]
    others = [o for o in range(game.seats) if o != seat]
    weis = {o: [i for i, m in enumerate(game.players[o].melds) if m.name == "wei"]
            for o in others}
    sizes = {o: sum(game.players[o].hand) - len(pins[o]) for o in others}
    # §1: the unseen cards fill exactly the hidden places
    assert len(pool) == sum(sizes.values()) + 3 * sum(map(len, weis.values())) + len(game.stock)
    for _ in range(1000):
        left = list(pool)
        wei_kinds = {}
        for o in others:
            wei_kinds[o] = []
            for _i in weis[o]:
                n = [left.count(k) for k in range(20)]
                k = rnd.choices(range(20), [math.comb(x, 3) for x in n])[0]
                for _j in range(3):
                    left.remove(k)
                wei_kinds[o].append(k)
        rnd.shuffle(left)
        hands = {}
        for o in others:
            h = [0] * 20
            for k in pins[o] + left[:sizes[o]]:
                h[k] += 1
            del left[:sizes[o]]
            hands[o] = h
        if all(max(h) < 4 and all(h[k] == 0 for k in wei_kinds[o]) for o, h in hands.items()):
            break
    else:
        raise AssertionError("no consistent redeal found")
    g = copy.copy(game)
    g.players = [copy.deepcopy(pl) for pl in game.players]
    for o in others:
        pl = g.players[o]
        pl.hand = hands[o]
        for i, k in zip(weis[o], wei_kinds[o]):
            pl.melds[i] = Meld("wei", (k,) * 3, game.pts("wei", k))
    g.stock = left
    g.rngs = copy.deepcopy(game.rngs)
    g._work = np.zeros_like(game._work)
    g.log, g.moves = list(game.log), list(game.moves)
    assert view(g, seat) == view(game, seat)
    return g


class _Asks:
    """The engine's four questions, each handed to ``self._ask(question, game, seat, card,
    *args)`` (``card``: the card on offer, -1 for a discard)."""

    def discard(self, game, seat, options):
        return self._ask("discard", game, seat, -1, options)

    def peng(self, game, seat, card):
        return self._ask("peng", game, seat, card, card)

    def chi(self, game, seat, card, options):
        return self._ask("chi", game, seat, card, card, options)

    def hu(self, game, seat, card, huxi):
        return self._ask("hu", game, seat, card, card, huxi)


class Probe(_Asks):
    """A seat's policy that, before each answer, answers the same question on ``k`` redealt
    copies of the game and checks that the answers and the policy stream after them agree."""

    def __init__(self, policy, seat: int, k: int, rnd: random.Random, asked: dict):
        self.policy, self.seat, self.k, self.rnd, self.asked = policy, seat, k, rnd, asked

    def _ask(self, q: str, game: Game, seat: int, card: int, *args):
        assert seat == self.seat
        alts = []
        for _ in range(self.k):
            g = redeal(game, seat, card, self.rnd)
            alt = getattr(copy.deepcopy(self.policy), q)(g, seat, *copy.deepcopy(args))
            alts.append((alt, g.rngs[seat].state, tuple(g.rngs[seat].halves)))
        answer = getattr(self.policy, q)(game, seat, *args)
        real = (answer, game.rngs[seat].state, tuple(game.rngs[seat].halves))
        for alt in alts:
            assert alt == real, (type(self.policy).__name__, q, seat, card, alt[0], answer)
        self.asked[q] = self.asked.get(q, 0) + 1
        return answer



# --- 1. reference engine: every question, hidden cards redealt -------------------------------

def probe_hands(variant: str, hands: int, k: int, seed: int, seatings=SEATINGS) -> dict:
    """Play ``hands`` deals of ``variant`` (seatings in turn) with every seat probed by ``k``
    redeals per question; returns how many questions of each kind were checked."""
    v = zs.load_variant(variant)
    asked: dict = {}
    rnd = random.Random(seed)
    for j in range(hands):
        pols = table(v, seatings[j % len(seatings)],
                     lambda p, s: Probe(p, s, k, rnd, asked))
        Game(v, shuffled_deck(KEY, j), pols, KEY, j).play()
    return asked


@pytest.mark.parametrize("variant", VARIANTS)
def test_reference_decisions_ignore_hidden_cards(variant):
    asked = probe_hands(variant, 36, 3, seed=1)
    assert asked.get("discard", 0) > 200 and asked.get("hu", 0) > 0
    assert asked.get("peng", 0) > 20 and asked.get("chi", 0) > 20


@pytest.mark.parametrize("variant", ["guangxi-81", "changde-paohuzi"])
def test_lookahead_decisions_ignore_hidden_cards(variant):
    """The lookahead bot reads unseen counts: the cards it has not seen are redealt and its
    answer stays (its chance uses only their number and kinds, never where they lie)."""
    asked = probe_hands(variant, 4, 2, seed=5, seatings=("lookahead", "ladder"))
    assert asked.get("discard", 0) > 30 and asked.get("chi", 0) > 5


@pytest.mark.parametrize("variant", ["guangxi-81", "liuhu-dao"])
def test_study_decisions_ignore_hidden_cards(variant):
    """The study bot reads unseen counts and its own hand's shape: the cards it has not seen
    are redealt and its answer stays."""
    asked = probe_hands(variant, 6, 2, seed=7, seatings=("study",))
    assert asked.get("discard", 0) > 30


@pytest.mark.parametrize("variant", ["guangxi-81", "liuhu-dao"])
def test_learned_decisions_ignore_hidden_cards(variant):
    """The learned bot reads unseen counts, the stock's size and its own hand (every feature
    weighted, ``LEARNED_W``): the cards it has not seen are redealt and its answer stays."""
    asked = probe_hands(variant, 6, 2, seed=9, seatings=("learned",))
    assert asked.get("discard", 0) > 30


@pytest.mark.parametrize("variant", ["guangxi-81", "changsha-paohuzi"])
def test_neural_decisions_ignore_hidden_cards(variant):
    """The neural bot reads every seat's shown groups, beside piles and hand sizes, its own 臭
    and passed marks, its unseen counts and the stock (the twin's context, from the seat's
    Observation; the kernel plays the twin's moves, tests/test_neural.py): the cards it has
    not seen are redealt and its answer stays."""
    asked = probe_hands(variant, 6, 2, seed=58, seatings=("neural",))
    assert asked.get("discard", 0) > 30 and asked.get("peng", 0) + asked.get("chi", 0) > 3


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_neural_decisions_ignore_hidden_cards_large(variant):
    # 24 hands: the random test network wins rarely, and 12 长沙 hands offered it no 胡
    asked = probe_hands(variant, 24, 3, seed=59, seatings=("neural",))
    assert all(asked.get(q, 0) > 0 for q in QUESTIONS)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_learned_decisions_ignore_hidden_cards_large(variant):
    asked = probe_hands(variant, 12, 3, seed=10, seatings=("learned",))
    assert all(asked.get(q, 0) > 0 for q in QUESTIONS)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_study_decisions_ignore_hidden_cards_large(variant):
    asked = probe_hands(variant, 12, 3, seed=8, seatings=("study",))
    assert all(asked.get(q, 0) > 0 for q in QUESTIONS)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_lookahead_decisions_ignore_hidden_cards_large(variant):
    asked = probe_hands(variant, 16, 3, seed=6, seatings=("lookahead", "ladder"))
    assert all(asked.get(q, 0) > 0 for q in QUESTIONS)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_reference_decisions_ignore_hidden_cards_large(variant):
    asked = probe_hands(variant, 300, 4, seed=2)
    assert all(asked.get(q, 0) > 0 for q in QUESTIONS)


class Peek(GreedyPolicy):
    """A greedy bot that cheats in one way (``how``): the checker must catch it."""

    def __init__(self, how: str):
        self.how = how

    def discard(self, game, seat, options):
        if self.how == "stock":  # the order of the stock
            return options[sum(i * k for i, k in enumerate(game.stock)) % len(options)]
        if self.how == "hand":  # the next seat's hand
            nxt = game.players[(seat + 1) % game.seats].hand
            return min(options, key=lambda k: (nxt[k], k))
        weis = [m.cards[0] for s, pl in enumerate(game.players) if s != seat
                for m in pl.melds if m.name == "wei"]  # another seat's face-down 偎
        return options[sum(weis) % len(options)]


@pytest.mark.parametrize("how", ["stock", "hand", "wei"])
def test_the_checker_catches_a_peeking_bot(how):
    v = zs.load_variant("guangxi-81")
    rnd = random.Random(3)
    with pytest.raises(AssertionError, match="'Peek', 'discard'"):
        for j in range(40):
            pols = [Probe(Peek(how), s, 3, rnd, {}) for s in range(v.layout.players)]
            Game(v, shuffled_deck(KEY, j), pols, KEY, j).play()


# --- 2. both engines: the stock not yet drawn is never read ----------------------------------

POPS_REF = ("draws", "extra card")  # the moves that take the stock's top card
POPS_KERNEL = (kp.A_DRAW, kp.A_EXTRA)
CODES = {"greedy": kp.POL_GREEDY, "random": kp.POL_RANDOM, "lookahead": kp.POL_LOOKAHEAD}


def before_pop(moves: list, pops: list[bool], d: int) -> list:
    """The moves before the ``d+1``-th stock pop (all of them if there is none)."""
    idx = [i for i, x in enumerate(pops) if x]
    return moves[:idx[d]] if d < len(idx) else moves


def ref_moves(v, deck, seating, j):
    pols = [Peek("stock")] * v.layout.players if seating == "peek" else table(v, seating)
    g = Game(v, list(deck), pols, KEY, j)
    g.play()
    return g.moves, [what in POPS_REF for _, what, _ in g.moves]


def kernel_moves(v, deck, seating, j):
    codes = [CODES[type(p).__name__.removesuffix("Policy").lower()] for p in table(v, seating)]
    rows, _ = kp.play_one(v, np.array(deck, np.int8), codes, KEY, j)
    return [tuple(int(x) for x in r) for r in rows], [int(r[kp.M_ACTION]) in POPS_KERNEL
                                                      for r in rows]


def check_stock_order(variant, j, seating, cut, seed, engine):
    v = zs.load_variant(variant)
    play = ref_moves if engine == "reference" else kernel_moves
    deck = shuffled_deck(KEY, j)
    moves, pops = play(v, deck, seating, j)
    d = round(cut * sum(pops))  # stock cards drawn so far at the chosen point
    n0 = v.params[params.SEATS] * v.params[params.OTHER_CARDS] + 1  # hands, 亮张 (§2)
    tail = deck[n0 + d:]
    random.Random(seed).shuffle(tail)
    deck2 = deck[:n0 + d] + tail
    moves2, pops2 = play(v, deck2, seating, j)
    assert before_pop(moves2, pops2, d) == before_pop(moves, pops, d)


@settings(max_examples=100, derandomize=True, deadline=None)
@given(variant=st.sampled_from(VARIANTS), j=st.integers(0, 65535),
       seating=st.sampled_from(SEATINGS), cut=st.floats(0, 1), seed=st.integers(0, 2**32))
@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_undrawn_stock_order_changes_no_earlier_decision(engine, variant, j, seating, cut, seed):
    check_stock_order(variant, j, seating, cut, seed, engine)


@pytest.mark.slow
@settings(max_examples=3000, derandomize=True, deadline=None)
@given(variant=st.sampled_from(VARIANTS), j=st.integers(0, 65535),
       seating=st.sampled_from(SEATINGS), cut=st.floats(0, 1), seed=st.integers(0, 2**32))
@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_undrawn_stock_order_changes_no_earlier_decision_large(engine, variant, j, seating, cut,
                                                               seed):
    check_stock_order(variant, j, seating, cut, seed, engine)


@settings(max_examples=12, derandomize=True, deadline=None)
@given(variant=st.sampled_from(VARIANTS), j=st.integers(0, 65535),
       seating=st.sampled_from(("lookahead", "ladder")), cut=st.floats(0, 1),
       seed=st.integers(0, 2**32))
@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_undrawn_stock_order_changes_no_earlier_lookahead_decision(engine, variant, j, seating,
                                                                   cut, seed):
    check_stock_order(variant, j, seating, cut, seed, engine)


def test_the_stock_check_catches_a_bot_reading_the_stock():
    caught = 0
    for j in range(20):
        try:
            check_stock_order("guangxi-81", j, "peek", 0.3, j, "reference")
        except AssertionError:
            caught += 1
    assert caught >= 15


# --- 3. whole hands replayed with a hidden card moved: the policy stream ----------------------

class Record(_Asks):
    """A seat's policy that records, at each question, what the seat has seen so far (the public
    moves and its own ``view``), the question and the answer."""

    def __init__(self, policy, seat: int, log: list):
        self.policy, self.seat, self.log = policy, seat, log

    def _ask(self, q: str, game: Game, seat: int, card: int, *args):
        answer = getattr(self.policy, q)(game, seat, *args)
        self.log.append((tuple(game.moves), view(game, seat), q, card, args, answer))
        return answer



def replayed(variant: str, seating: list[str], seat: int, deals: int) -> tuple[int, int]:
    """Play each deal, and again with one card of another seat's dealt hand swapped with the
    last stock card (a hidden change, §2); compare ``seat``'s questions while everything it has
    seen is the same. Returns (questions compared, answers that differ)."""
    v = zs.load_variant(variant)
    h, n = v.params[params.OTHER_CARDS], v.params[params.SEATS] * v.params[params.OTHER_CARDS]
    others = [i for i in range(n) if i // h != seat]  # the 亮张 (index n) is shown
    rnd = random.Random(seat)
    compared = differ = 0
    for j in range(deals):
        deck = shuffled_deck(KEY, j)
        i = rnd.choice(others)
        moved = list(deck)
        moved[i], moved[-1] = moved[-1], moved[i]
        logs = []
        for dk in (deck, moved):
            log: list = []
            pols = [BOTS[x]() for x in seating]
            pols[seat] = Record(pols[seat], seat, log)
            Game(v, dk, pols, KEY, j).play()
            logs.append(log)
        for a, b in zip(*logs):
            if a[:5] != b[:5]:  # the seat has seen a difference: stop comparing
                break
            compared += 1
            differ += a[5] != b[5]
    return compared, differ


@pytest.mark.parametrize("seating", [("greedy", "random", "random"),
                                     ("random", "greedy", "greedy")])
def test_replayed_hand_with_a_hidden_card_moved(seating):
    """The watched seat (0) with a different hidden card elsewhere answers every question the
    same while all it has seen is the same: greedy reads only its own cards; a random seat among
    greedy ones draws from the policy stream at a point that only its own questions decide."""
    compared, differ = replayed("guangxi-81", list(seating), 0, 150)
    assert compared > 300
    assert differ == 0


def test_replayed_hand_lookahead_seat():
    """A lookahead seat (0) among greedy and random ones, a hidden card moved: same answers."""
    compared, differ = replayed("guangxi-81", ["lookahead", "greedy", "random"], 0, 12)
    assert compared > 30
    assert differ == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_seats_among_random_seats_ignore_hidden_cards(variant):
    """All seats random: a hidden card moved elsewhere changes none of the watched seat's answers
    while all it has seen is the same. (With one policy stream shared by the seats, another
    random seat drew from it for questions its hidden hand decided — a 碰 it may pass unseen,
    the number of kinds it may discard — and a few answers in 100 hands moved; each seat now
    draws from its own stream, ``Stream(key ^ POLICY_SALT ^ (seat << 48), j)``, in both
    engines.)"""
    compared, differ = replayed(variant, ["random"] * zs.load_variant(variant).layout.players,
                                0, 60)
    assert compared > 100
    assert differ == 0
