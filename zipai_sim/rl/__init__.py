"""Environments for outside models (issue 48; docs/guide/rl.md): PettingZoo's AEC ``env()`` /
``raw_env()`` (every seat an agent) and a Gymnasium ``GymEnv`` (one seat the agent, the others
a built-in bot), both on the batched table (``play.batch.BatchTable``), with its observation
(float32[OBS_SIZE]) and legal mask (int8[N_ACTIONS]) over the fixed action space of
``play.actions``.

Needs the optional extra: ``pip install "zipai-sim[rl]"`` (gymnasium, pettingzoo).

Episodes: episode ``e`` after ``reset(seed=s)`` is hand ``e`` of seed ``s`` (a reset without a
seed goes on to the next hand), the deal ``simulate_hands`` and ``arena`` play from that seed,
so an agent's hands pair with the built-in bots'. Rewards are 0 until the hand ends, then each
seat's settled payment (RULES.md §7) in the variant's unit (舵, 油, 囤, 排, 胡).
"""

from __future__ import annotations

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # pragma: no cover - the extra is in the dev group
    raise ImportError("zipai_sim.rl needs the optional extra: pip install 'zipai-sim[rl]' "
                      f"(gymnasium and pettingzoo): {e}") from None

from zipai_sim.play.actions import N_ACTIONS, OBS_SIZE
from zipai_sim.play.batch import BatchTable, is_int
from zipai_sim.runs.chunks import check_seed

__all__ = ["GymEnv", "RawEnv", "env", "raw_env"]

#: the largest value an observation column takes (a card count, stock or draw count)
OBS_HIGH = 80.0


def _spaces() -> tuple:
    obs = spaces.Dict({
        "observation": spaces.Box(0.0, OBS_HIGH, (OBS_SIZE,), np.float32),
        "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
    })
    return obs, spaces.Discrete(N_ACTIONS)


def _seed(seed: object) -> int:
    """A reset's seed as an int, or ValueError (an env keeps its old seed then)."""
    if not is_int(seed):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    return check_seed(int(seed))


def _action(action: object, q) -> int:
    """An AEC/Gym step's action as an int, or ValueError naming the hand and seat."""
    a = np.asarray(action)
    x = a.reshape(()).item() if a.size == 1 else None
    if isinstance(x, float) and np.isfinite(x) and x == round(x):
        x = int(x)
    if not is_int(x):
        raise ValueError(f"action {action!r} for hand {int(q.hand[0])} (seat {int(q.seat[0])}) "
                         f"is not an integer 0..{N_ACTIONS - 1}")
    return int(x)


def _render(table: BatchTable, q) -> str:
    """One line for ``render_mode="ansi"``: the waiting seat and its question."""
    if not len(q):
        return "hand over"
    from zipai_sim.play.actions import KIND_NAMES
    return (f"hand {int(q.hand[0])}: seat {int(q.seat[0])} to answer a "
            f"{KIND_NAMES[int(q.kind[0])]} question; legal "
            f"{np.flatnonzero(q.mask[0]).tolist()}, hint {int(q.hint[0])}")


class RawEnv(AECEnv):
    """The PettingZoo AEC environment: agents ``seat_0`` (the dealer) … ``seat_{n-1}``; the
    observation is a dict ``{"observation": float32[OBS_SIZE], "action_mask":
    int8[N_ACTIONS]}`` (an agent not to move sees its last observation and an all-zero mask);
    the action a ``Discrete(N_ACTIONS)`` index; ``infos[agent]["hint"]`` the ``hint`` bot's
    action. ``variant``: a key, TOML path or Variant; ``ask_hu``: wins on offer are 胡/pass
    questions. An illegal action raises ValueError naming the hand, seat and action."""

    metadata = {"name": "zipai_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, variant: object = "guangxi-81", seed: int = 0, hint: str = "greedy",
                 ask_hu: bool = False, render_mode: str | None = None) -> None:
        super().__init__()
        from zipai_sim.game.variants import load_variant

        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.v = load_variant(variant)
        self.render_mode = render_mode
        self._seed, self._episode, self._hint, self._ask_hu = seed, 0, hint, ask_hu
        BatchTable(self.v, hands=0, seed=seed, hint=hint)  # bad arguments fail here
        self.possible_agents = [f"seat_{s}" for s in range(self.v.layout.players)]
        obs, act = _spaces()
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: act for a in self.possible_agents}
        self._table = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seed, self._episode = _seed(seed), 0
        self._table = BatchTable(self.v, hands=1, first=self._episode, seed=self._seed,
                                 batch=1, hint=self._hint, ask_hu=self._ask_hu, threads=1)
        self._episode += 1
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._obs = {a: np.zeros(OBS_SIZE, np.float32) for a in self.agents}
        self._mask = np.zeros(N_ACTIONS, np.int8)
        self._take(self._table.reset())

    def _take(self, q) -> None:
        self._q = q
        if len(q):
            a = self.possible_agents[int(q.seat[0])]
            self.agent_selection = a
            self._obs[a] = q.obs[0]
            self._mask = q.mask[0].astype(np.int8)
            self.infos[a] = {"hint": int(q.hint[0]), "hand": int(q.hand[0])}
            return
        pay = self._table.finished().payments[0]
        for s, a in enumerate(self.possible_agents):
            self.rewards[a] = float(pay[s])
            self.terminations[a] = True
        self._mask = np.zeros(N_ACTIONS, np.int8)
        self.agent_selection = self.agents[0]

    def observe(self, agent):
        mine = len(self._q) and agent == self.agent_selection
        return {"observation": self._obs[agent].copy(),
                "action_mask": self._mask.copy() if mine else np.zeros(N_ACTIONS, np.int8)}

    def step(self, action) -> None:
        a = self.agent_selection
        if self.terminations[a] or self.truncations[a]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[a] = 0.0
        self._clear_rewards()
        self._take(self._table.step(np.array([_action(action, self._q)])))
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        return _render(self._table, self._q)

    def close(self) -> None:
        self._table = None


def raw_env(**kwargs) -> RawEnv:
    """``RawEnv(**kwargs)``: the unwrapped AEC environment."""
    return RawEnv(**kwargs)


def env(**kwargs):
    """The AEC environment with PettingZoo's order-enforcing and bounds wrappers (``raw_env``'s
    arguments)."""
    e = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class GymEnv(gymnasium.Env):
    """A Gymnasium environment: the agent plays ``seat`` of ``variant``, ``bots`` the other
    seats (a fast bot name or one per seat); the observation dict and action space are
    ``RawEnv``'s, ``info`` holds ``action_mask`` (int8[N_ACTIONS]) and ``hint``
    (``action_masks()`` gives the mask too, for masked learners). The reward is the seat's
    settled payment when the hand ends (the variant's unit), else 0.

    An illegal action (one the mask rules out) follows ``illegal``: "end" (the default, what
    ``gymnasium.utils.env_checker`` needs, as it steps with unmasked samples) ends the episode
    at once with reward ``illegal_reward`` and ``info["illegal"] = True``, the hand not played
    on; "raise" raises ValueError naming the hand, seat and action."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, variant: object = "guangxi-81", seat: int = 0, bots: object = "greedy",
                 seed: int = 0, hint: str = "greedy", ask_hu: bool = False,
                 illegal: str = "end", illegal_reward: float = -10.0,
                 render_mode: str | None = None) -> None:
        from zipai_sim.game.variants import load_variant

        n = load_variant(variant).layout.players
        if not is_int(seat) or not 0 <= seat < n:
            raise ValueError(f"seat must be a seat number 0..{n - 1}, got {seat!r}")
        if illegal not in ("end", "raise"):
            raise ValueError(f"illegal must be 'end' or 'raise', got {illegal!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.v = load_variant(variant)
        self.seat, self.bots, self.hint, self.ask_hu = int(seat), bots, hint, ask_hu
        self.illegal, self.illegal_reward = illegal, float(illegal_reward)
        self.render_mode = render_mode
        self._seed, self._episode = seed, 0
        self._make(0, 0)  # bad arguments fail here
        self.observation_space, self.action_space = _spaces()

    def _make(self, first: int, hands: int = 1) -> BatchTable:
        return BatchTable(self.v, hands=hands, first=first, seed=self._seed, batch=1,
                          seats=[self.seat], bots=self.bots, hint=self.hint, ask_hu=self.ask_hu,
                          threads=1)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._seed, self._episode = _seed(seed), 0
        super().reset(seed=seed)
        self._table = self._make(self._episode)
        self._episode += 1
        q = self._table.reset()
        if not len(q):  # the hand ended before the seat was asked (a win at the deal): it
            return self.reset(options=options)  # has no decision, so deal on
        self._q = q
        return self._obs(), self._info()

    def _obs(self) -> dict:
        q = self._q
        if len(q):
            self._last = q.obs[0].copy()
            mask = q.mask[0].astype(np.int8)
        else:
            mask = np.zeros(N_ACTIONS, np.int8)
        return {"observation": self._last.copy(), "action_mask": mask}

    def _info(self) -> dict:
        q = self._q
        if not len(q):
            return {"action_mask": np.zeros(N_ACTIONS, np.int8), "hand": self._hand}
        return {"action_mask": q.mask[0].astype(np.int8), "hint": int(q.hint[0]),
                "hand": int(q.hand[0])}

    def action_masks(self) -> np.ndarray:
        """bool[N_ACTIONS]: the legal actions now."""
        return self._q.mask[0].copy() if len(self._q) else np.zeros(N_ACTIONS, bool)

    def step(self, action):
        if not len(self._q):
            raise RuntimeError("the episode is over: call reset()")
        a = _action(action, self._q)
        self._hand = int(self._q.hand[0])
        if self.illegal == "end" and not (0 <= a < N_ACTIONS and self._q.mask[0, a]):
            self._q = self._q.__class__(*(x[:0] for x in vars(self._q).values()))
            return self._obs(), self.illegal_reward, True, False, {
                "action_mask": np.zeros(N_ACTIONS, np.int8), "illegal": True, "hand": self._hand}
        self._q = self._table.step(np.array([a]))
        if len(self._q):
            return self._obs(), 0.0, False, False, self._info()
        pay = self._table.finished().payments[0]
        return self._obs(), float(pay[self.seat]), True, False, self._info()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return _render(self._table, self._q)
