"""The user-policy hook of the reference engine (issue 3 §3): the ``Observation`` a policy sees,
its legal options, and the checks on its answers."""

import pytest

import zipai_sim as zs
from zipai_sim.game import params as p
from zipai_sim.play.observation import HIDDEN, observe
from zipai_sim.play.policies import GamePolicy, ObservingPolicy, Policy, as_policy
from zipai_sim.play.trace import play_seeded
from zipai_sim.studies.balance import simulate_hands


class HighestNeverClaims:
    """Discard the highest kind, never 碰 or 吃, take every 胡; keeps what it was shown."""

    def __init__(self):
        self.seen = []  # (question, obs, card on offer or -1, options, answer)
        self.discarded = []

    def discard(self, obs, options):
        c = max(options)
        self.seen.append(("discard", obs, -1, options, c))
        self.discarded.append(c)
        return c

    def peng(self, obs, card):
        self.seen.append(("peng", obs, card, None, False))
        return False

    def chi(self, obs, card, options):
        self.seen.append(("chi", obs, card, options, -1))
        return -1

    def hu(self, obs, card, huxi):
        self.seen.append(("hu", obs, card, None, True))
        return True


def check_observation(obs, stock_len: int, my_discards: list[int]) -> None:
    """What RULES.md fixes about any seat's view: 80 cards (§1–§2) — hands, table groups, the
    piles beside each seat, the stock and the card on offer; a hand of 20 counts 0..4; 坎 kinds
    (§5.7) and own discards (§5.6) behave; another seat's 偎 is face down (seed 000 ⑴)."""
    placed = (sum(obs.hand_sizes) + sum(len(g.cards) for gs in obs.melds for g in gs)
              + sum(len(b) for b in obs.beside) + obs.stock + (1 if obs.pending >= 0 else 0))
    assert placed == 80
    assert len(obs.hand) == 20 and all(0 <= x <= 4 for x in obs.hand)
    assert obs.hand_sizes[obs.seat] == sum(obs.hand)
    assert obs.stock == stock_len - obs.draws  # guangxi-81: no two-提 extra card
    assert obs.dealer == 0 and obs.seats == 3 and obs.variant == "guangxi-81"
    assert set(my_discards) <= obs.chou  # never 吃/碰 one's own discard
    for s, groups in enumerate(obs.melds):
        for g in groups:
            hidden = g.name == "wei" and s != obs.seat
            assert (g.cards == (HIDDEN,) * 3 and g.huxi == HIDDEN) if hidden else \
                min(g.cards) >= 0 and g.huxi >= 0


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_user_policy_sees_consistent_observations_and_plays_its_moves(seat):
    v = zs.load_variant("guangxi-81")
    stock_len = v.params[p.STOCK_LEN]
    for deal in range(6):
        user = HighestNeverClaims()
        pols = ["greedy", "greedy", "greedy"]
        pols[seat] = user
        game, _ = play_seeded(v, 21, deal, pols)
        mine = []
        for question, obs, card, options, answer in user.seen:
            assert obs.seat == seat
            check_observation(obs, stock_len, mine)
            if question == "discard":
                # the legal discards: every held kind but 坎 (§5.7), unless only 坎 are left
                held = [k for k in range(20) if obs.hand[k]]
                assert options == ([k for k in held if obs.hand[k] < 3] or held)
                assert obs.pending == -1
                mine.append(answer)
            else:  # a discard or drawn card on offer lies nowhere else; the 亮张 is in a hand
                assert obs.pending == card or (obs.pending == -1 and card == obs.liangzhang)
        # the engine did what the policy said: its discards, no 碰 and no 吃 for this seat
        assert [m[2][0] for m in game.moves if m[0] == seat and m[1] == "discards"] == mine
        assert not [m for m in game.moves if m[0] == seat and m[1].startswith(("碰", "吃"))]


def test_observation_matches_the_game_at_each_question():
    """``observe`` against the engine's own state (a game-level spy policy)."""

    class Spy:
        def __init__(self):
            self.calls = 0

        def check(self, game, seat, card=-1):
            obs = observe(game, seat, card)
            pl = game.players[seat]
            assert obs.hand == tuple(pl.hand) and obs.chou == frozenset(pl.chou)
            assert [g.cards for g in obs.melds[seat]] == [m.cards for m in pl.melds]
            assert obs.hand_sizes == tuple(sum(q.hand) for q in game.players)
            assert obs.beside == tuple(tuple(q.beside) for q in game.players)
            assert obs.stock == len(game.stock) and obs.liangzhang == game.liangzhang
            self.calls += 1

        def discard(self, game, seat, options):
            self.check(game, seat)
            return max(options)

        def peng(self, game, seat, card):
            self.check(game, seat, card)
            return True

        def chi(self, game, seat, card, options):
            self.check(game, seat, card)
            return 0

        def hu(self, game, seat, card, huxi):
            self.check(game, seat, card)
            return True

    spy = Spy()
    for deal in range(4):
        play_seeded("hunan-hengyang", 8, deal, [spy, spy, spy])
    assert spy.calls > 50


def test_user_policy_in_simulate_hands_reference_engine():
    user = HighestNeverClaims()
    df = simulate_hands("guangxi-81", 12, seed=3, policies=[user, "random", "random"],
                        engine="reference")
    get = {(r["metric"], r["seat"]): r["count"] for r in df.iter_rows(named=True)}
    assert sum(get[("win", s)] for s in range(3)) + get[("huangzhuang", None)] == 12
    assert {q for q, *_ in user.seen} >= {"discard"}
    with pytest.raises(ValueError, match="reference"):
        simulate_hands("guangxi-81", 2, seed=3, policies=[user, "random", "random"])


class Bad:
    def __init__(self, discard=None, peng=False, chi=-1, hu=True):
        self.d, self.p, self.c, self.h = discard, peng, chi, hu

    def discard(self, obs, options):
        return self.d(obs, options) if callable(self.d) else self.d

    def peng(self, obs, card):
        return self.p

    def chi(self, obs, card, options):
        return self.c

    def hu(self, obs, card, huxi):
        return self.h


@pytest.mark.parametrize("policy, words", [
    (Bad(discard=99), ["Bad", "seat 0", "discard returned 99", "legal cards"]),
    (Bad(discard=True), ["discard returned True"]),  # a bool is not a card kind
    (Bad(discard=lambda obs, o: next(k for k in range(20) if obs.hand[k] == 3) if any(
        x == 3 for x in obs.hand) else 99), ["discard returned", "legal cards"]),  # a 坎
    (Bad(discard=lambda obs, o: o[0], peng="yes"), ["peng returned 'yes'", "True or False"]),
    (Bad(discard=lambda obs, o: o[0], peng=True, chi=7), ["chi returned 7", "-1 (pass)"]),
])
def test_illegal_answers_raise_a_named_value_error(policy, words):
    with pytest.raises(ValueError) as err:
        for deal in range(40):  # until the bad question comes up
            play_seeded("guangxi-81", 5, deal, [policy, "random", "random"])
    for w in words:
        assert w in str(err.value)


class Boom:
    """Raises its own error at its third discard (a bug in a user's policy)."""

    def __init__(self):
        self.asked = 0

    def discard(self, obs, options):
        self.asked += 1
        if self.asked == 3:
            raise RuntimeError("boom")
        return options[0]


def test_a_user_policys_own_error_says_where_it_came_from():
    """The user's exception goes on as it is, with notes naming the policy, seat and question
    and the deal (simulate_hands) or the match hand (simulate_matches) to replay."""
    with pytest.raises(RuntimeError, match="boom") as err:
        simulate_hands("guangxi-81", 20, seed=2, policies=["greedy", Boom(), "greedy"],
                       engine="reference", progress=False)
    notes = err.value.__notes__
    assert notes[0] == "raised by policy Boom at seat 1, asked discard"
    assert notes[1].startswith("while playing deal ") and "of seed 2 (guangxi-81" in notes[1]
    with pytest.raises(RuntimeError, match="boom") as err:
        zs.simulate_matches("guangxi-81", 2, seed=2, policies=["greedy", Boom(), "greedy"],
                            engine="reference", progress=False)
    assert err.value.__notes__[1].startswith("while playing hand ")
    assert "of match 0 of seed 2" in err.value.__notes__[1]


def test_as_policy_tells_the_two_styles_apart():
    class Obs:
        def discard(self, obs, options):
            return options[0]

    class Game4:
        def discard(self, game, seat, options):
            return options[0]

        def peng(self, game, seat, card):
            return False

        def chi(self, game, seat, card, options):
            return -1

        def hu(self, game, seat, card, huxi):
            return True

    class Half:
        def discard(self, game, seat, options):
            return options[0]

    assert isinstance(as_policy(Obs()), ObservingPolicy)
    assert isinstance(as_policy(Game4()), GamePolicy) and isinstance(as_policy("greedy"), Policy)
    with pytest.raises(ValueError, match="lacks peng, chi, hu"):
        as_policy(Half())
    with pytest.raises(ValueError, match="needs a method discard"):
        as_policy(object())
    with pytest.raises(ValueError, match="unknown policy"):
        as_policy("clever")

    class Defaulted:  # an argument with a default still takes the options
        def discard(self, obs, options=None):
            return options[0]

    assert isinstance(as_policy(Defaulted()), ObservingPolicy)
    with pytest.raises(ValueError, match=r"policy Obs: pass an instance, Obs\(\), not the class"):
        as_policy(Obs)
