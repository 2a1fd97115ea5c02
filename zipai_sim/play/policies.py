"""Seat policies for the reference engine (issue 3 §3). A policy answers four questions
(the ``Policy`` protocol): ``discard(game, seat, options) -> kind``, ``peng(game, seat, card) ->
bool``, ``chi(game, seat, card, options) -> index or -1`` and ``hu(game, seat, card, huxi) ->
bool``.

The shipped bots (``play.bots``: ``random``, ``greedy``, ``lookahead``) always take a win (a
declined 胡 only changes who wins later; see docs/decisions.md).

A user policy is easiest written against an ``Observation`` (``play.observation``: own hand,
every seat's shown groups and beside cards, 臭 cards, stock size, …) instead of the whole game —
the ``ObservationPolicy`` protocol, every method but ``discard`` optional::

    class HighestDiscard:
        "Discard the highest kind; never 碰 or 吃; take every 胡."
        def discard(self, obs, options):      # options: legal kinds (坎 never, RULES.md §5.7)
            return max(options)

    simulate_hands("guangxi-81", 100, seed=1, engine="reference",
                   policies=[HighestDiscard(), "greedy", "greedy"])

``as_policy`` turns a name, a game-level object or an observation-level object into a
``Policy`` the engine calls; the user's answers are checked, and an illegal one (a kind not in
``options``, an index out of range, a non-bool) raises ValueError naming the policy, the seat,
the question and the answer. The two styles are told apart by ``discard``'s parameters:
``(obs, options)`` or ``(game, seat, options)``. User policies run on the reference engine only
(``engine="reference"``); the numba kernel has the shipped bots built in.
"""

from __future__ import annotations

import inspect
from typing import Any, Protocol, runtime_checkable

import numpy as np

from zipai_sim.game.cards import card_name
from zipai_sim.play.bots import GreedyPolicy, LookaheadPolicy, RandomPolicy, StudyPolicy
from zipai_sim.play.bots_learned import LearnedPolicy
from zipai_sim.play.bots_rollout import OraclePolicy, RolloutPolicy, SearchPolicy, TeacherPolicy
from zipai_sim.play.registry import BOTS, DEFAULT_K, SEARCH_POLICIES, names_text
from zipai_sim.play.observation import Observation, observe

# the shipped twins are re-exported: the tests and notebooks take them from here
__all__ = ["POLICIES", "GamePolicy", "GreedyPolicy", "LearnedPolicy", "LookaheadPolicy",
           "ObservationPolicy", "ObservingPolicy", "OraclePolicy", "Policy", "RandomPolicy",
           "RolloutPolicy", "SearchPolicy", "StudyPolicy", "TeacherPolicy", "as_policy",
           "is_named"]


@runtime_checkable
class Policy(Protocol):
    """The engine's four questions (``play.engine.Game`` calls them; ``game.players[seat]``
    holds the seat's hand, groups and 臭 cards). ``options`` of ``discard``: legal kinds;
    of ``chi``: ``(group, bi)`` pairs, ``group`` the 3 kinds of the 吃 (the claimed card
    included), ``bi`` the 比 groups laid with it (RULES.md §5.5)."""

    def discard(self, game: Any, seat: int, options: list[int]) -> int: ...

    def peng(self, game: Any, seat: int, card: int) -> bool: ...

    def chi(self, game: Any, seat: int, card: int, options: list) -> int: ...

    def hu(self, game: Any, seat: int, card: int, huxi: int) -> bool: ...


class ObservationPolicy(Protocol):
    """A user policy over observations. Only ``discard`` is required; missing methods default
    to: ``peng`` → False (decline), ``chi`` → -1 (decline), ``hu`` → True (take every win,
    as the shipped policies do). ``card``: the kind on offer; ``huxi``: the 胡息 the win would
    score; ``options`` as in ``Policy``."""

    def discard(self, obs: Observation, options: list[int]) -> int: ...


#: every bot's readable twin by name (``play.registry``)
POLICIES = {b.name: b.twin_class for b in BOTS}


def _is_bool(x: object) -> bool:
    return isinstance(x, (bool, np.bool_))


def _is_int(x: object) -> bool:
    return isinstance(x, (int, np.integer)) and not _is_bool(x)


class _Checked:
    """A user policy behind the ``Policy`` protocol, its answers checked (base of the two
    adapters). ``self.user`` is the user's object; ``_ask`` calls one of its methods."""

    def __init__(self, user: object):
        self.user = user
        self.name = type(user).__name__

    def _ask(self, seat: int, what: str, f, *args: object) -> object:
        """``f(*args)``, the user's method: an exception it raises goes on as it is, with a note
        naming the policy, the seat and the question (the drivers add the deal)."""
        try:
            return f(*args)
        except Exception as e:
            e.add_note(f"raised by policy {self.name} at seat {seat}, asked {what}")
            raise

    def _fail(self, seat: int, what: str, answer: object, legal: str) -> None:
        raise ValueError(f"policy {self.name} at seat {seat}: {what} returned {answer!r}, "
                         f"not {legal}")

    def _kind(self, seat: int, c: object, options: list[int]) -> int:
        if not _is_int(c) or int(c) not in options:
            self._fail(seat, "discard", c, "one of the legal cards "
                       + " ".join(card_name(k) for k in options) + f" (kinds {options})")
        return int(c)

    def _yes(self, seat: int, what: str, x: object) -> bool:
        if not _is_bool(x):
            self._fail(seat, what, x, "True or False")
        return bool(x)

    def _index(self, seat: int, i: object, options: list) -> int:
        if not _is_int(i) or not -1 <= int(i) < len(options):
            self._fail(seat, "chi", i, f"-1 (pass) or an option index 0..{len(options) - 1}")
        return int(i)


class GamePolicy(_Checked):
    """A user's game-level policy (``Policy``'s four methods, all required), answers checked."""

    def __init__(self, user: object):
        super().__init__(user)
        missing = [m for m in ("discard", "peng", "chi", "hu") if not callable(
            getattr(user, m, None))]
        if missing:
            raise ValueError(f"policy {self.name} takes (game, seat, …) but lacks "
                             f"{', '.join(missing)} (a Policy needs discard, peng, chi, hu)")

    def discard(self, game, seat: int, options: list[int]) -> int:
        return self._kind(seat, self._ask(seat, "discard", self.user.discard, game, seat,
                                          list(options)), options)

    def peng(self, game, seat: int, card: int) -> bool:
        return self._yes(seat, "peng", self._ask(seat, "peng", self.user.peng, game, seat, card))

    def chi(self, game, seat: int, card: int, options: list) -> int:
        return self._index(seat, self._ask(seat, "chi", self.user.chi, game, seat, card,
                                           list(options)), options)

    def hu(self, game, seat: int, card: int, huxi: int) -> bool:
        return self._yes(seat, "hu", self._ask(seat, "hu", self.user.hu, game, seat, card, huxi))


class ObservingPolicy(_Checked):
    """An ``ObservationPolicy`` behind the ``Policy`` protocol: each question builds the seat's
    ``Observation`` (``observe``) and checks the answer; missing methods take the defaults."""

    def discard(self, game, seat: int, options: list[int]) -> int:
        c = self._ask(seat, "discard", self.user.discard, observe(game, seat), list(options))
        return self._kind(seat, c, options)

    def peng(self, game, seat: int, card: int) -> bool:
        f = getattr(self.user, "peng", None)
        return False if f is None else self._yes(
            seat, "peng", self._ask(seat, "peng", f, observe(game, seat, card), card))

    def chi(self, game, seat: int, card: int, options: list) -> int:
        f = getattr(self.user, "chi", None)
        if f is None:
            return -1
        return self._index(seat, self._ask(seat, "chi", f, observe(game, seat, card), card,
                                           list(options)), options)

    def hu(self, game, seat: int, card: int, huxi: int) -> bool:
        f = getattr(self.user, "hu", None)
        return True if f is None else self._yes(
            seat, "hu", self._ask(seat, "hu", f, observe(game, seat, card), card, huxi))


def _arity(f: object) -> tuple[int, int]:
    """The positional arguments ``f`` needs and takes (defaults counted in the second); (-1, -1)
    for a signature that does not say (``*args``, a builtin)."""
    try:
        params = inspect.signature(f).parameters.values()  # bound method: self excluded
    except (TypeError, ValueError):
        return -1, -1
    if any(q.kind in (q.VAR_POSITIONAL, q.VAR_KEYWORD) for q in params):
        return -1, -1
    positional = [q for q in params if q.kind in (q.POSITIONAL_ONLY, q.POSITIONAL_OR_KEYWORD)]
    return sum(1 for q in positional if q.default is q.empty), len(positional)


def as_policy(x: object, rollout_k: int = DEFAULT_K) -> Policy:
    """A ``Policy`` for the reference engine from ``x``: a shipped bot's name (``play.registry``:
    its twin, a new instance; a searching one with ``rollout_k`` worlds), a shipped or already adapted policy (as is), an object whose ``discard`` takes ``(obs,
    options)`` (→ ``ObservingPolicy``) or ``(game, seat, options)`` (→ ``GamePolicy``). Raises
    ValueError for an unknown name or an object that fits neither."""
    if isinstance(x, str):
        if x not in POLICIES:
            raise ValueError(f"unknown policy {x!r}; known: {names_text()}")
        return POLICIES[x](rollout_k) if x in SEARCH_POLICIES else POLICIES[x]()
    if isinstance(x, (RandomPolicy, GreedyPolicy, RolloutPolicy, _Checked)):  # + LookaheadPolicy
        return x  # type: ignore[return-value]
    if isinstance(x, type):  # the class itself: its methods would be unbound
        raise ValueError(f"policy {x.__name__}: pass an instance, {x.__name__}(), not the class")
    f = getattr(x, "discard", None)
    lo, hi = _arity(f) if callable(f) else (-1, -1)
    if lo <= 2 <= hi:
        return ObservingPolicy(x)  # type: ignore[return-value]
    if lo <= 3 <= hi:
        return GamePolicy(x)  # type: ignore[return-value]
    raise ValueError(f"policy {type(x).__name__}: needs a method discard(obs, options) or "
                     "discard(game, seat, options) (zipai_sim.play.policies)")


def is_named(x: object) -> bool:
    """True for a shipped policy name (the only policies the numba engine plays)."""
    return isinstance(x, str) and x in POLICIES
