"""The PettingZoo and Gymnasium adapters (issue 48; ``zipai_sim.rl``): their own test suites
(``pettingzoo.test.api_test``, ``gymnasium.utils.env_checker.check_env``), and hands played
through them are the batched table's (and so the kernel's) hands."""

from __future__ import annotations

import numpy as np
import pytest

import zipai_sim as zs
from zipai_sim.kernels import play as kp
from zipai_sim.play import actions as pa
from zipai_sim.play.chunks import play_chunks
from zipai_sim.runs.chunks import chunk_keys

pytest.importorskip("pettingzoo")
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from zipai_sim import rl  # noqa: E402


@pytest.mark.parametrize("variant, seats", [("guangxi-81", 3), ("liuhu-dao", 4)])
def test_pettingzoo_api_test_passes(variant, seats):
    """api_test raises on any breach of the AEC contract. Beside it, the agents are the
    variant's seats (RULES.md §2: 八一 is played by 3, 六胡倒 by 4) and every agent's action
    space is the documented 70: 20 discards, 碰, 胡, pass and 47 吃 options."""
    e = rl.env(variant=variant, seed=3)
    api_test(e, num_cycles=300, verbose_progress=False)
    assert e.possible_agents == [f"seat_{s}" for s in range(seats)]
    assert all(e.action_space(a).n == 20 + 3 + 47 for a in e.possible_agents)


def test_gymnasium_check_env_passes():
    e = rl.GymEnv("hunan-hengyang", seat=1, bots="study", seed=4)
    check_env(e, skip_render_check=True)


def _greedy_payments(variant: str, seed: int, n: int) -> np.ndarray:
    v = zs.load_variant(variant)
    out = np.zeros((1, n, kp.N_OUT), np.int64)
    play_chunks(v, chunk_keys(seed, 0, 1), np.array([n]), np.full(v.layout.players,
                                                                    kp.POL_GREEDY), out)
    from zipai_sim.play.payoffs import settle_outcomes
    return settle_outcomes(v, out[0])[0]


def test_aec_episodes_are_the_kernels_hands():
    """Every agent following the hint in infos plays greedy's hands: episode e after
    reset(seed=s) is hand e of seed s, rewarded with its settlement."""
    e = rl.env(variant="changsha-paohuzi", seed=5)
    want = _greedy_payments("changsha-paohuzi", 5, 6)
    for h in range(6):
        e.reset(seed=5) if h == 0 else e.reset()
        total = {a: 0.0 for a in e.possible_agents}
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            total[agent] += reward
            if term or trunc:
                e.step(None)
                continue
            assert obs["action_mask"][info["hint"]] == 1
            e.step(info["hint"])
        assert [total[a] for a in e.possible_agents] == want[h].tolist()


def test_gym_episode_rewards_the_seat():
    want = _greedy_payments("guangxi-81", 6, 5)
    e = rl.GymEnv("guangxi-81", seat=2, bots="greedy", seed=6)
    got = []
    for h in range(5):
        obs, info = e.reset(seed=6) if h == 0 else e.reset()
        done, r = False, 0.0
        while not done:
            assert e.action_masks()[info["hint"]]
            obs, r, done, _, info = e.step(info["hint"])
        got.append(r)
    assert got == want[:5, 2].tolist()


def test_gym_illegal_actions():
    e = rl.GymEnv("guangxi-81", seed=7, illegal="raise")
    obs, info = e.reset(seed=7)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"action {bad} is not legal for hand 0 \\(seat 0"):
        e.step(bad)
    e2 = rl.GymEnv("guangxi-81", seed=7)
    e2.reset(seed=7)
    obs, r, term, trunc, info = e2.step(bad)
    assert term and r == -10.0 and info["illegal"]
    with pytest.raises(RuntimeError, match="reset"):
        e2.step(0)
    with pytest.raises(ValueError, match="illegal"):
        rl.GymEnv(illegal="ignore")


def test_observation_space_holds_every_observation():
    e = rl.GymEnv("liuhu-dao", seat=3, bots="lookahead", seed=8)
    rng = np.random.default_rng(0)
    for h in range(3):
        obs, info = e.reset()
        done = False
        while not done:
            assert e.observation_space.contains(obs)
            a = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, _, done, _, info = e.step(a)
    assert pa.N_ACTIONS == e.action_space.n


def test_env_arguments_and_actions_are_checked():
    g = rl.GymEnv(seed=3)
    g.reset()
    for a in (2.7, "a", np.nan):
        with pytest.raises(ValueError, match="is not an integer"):
            g.step(a)
    for seat in (1.5, True, 3):
        with pytest.raises(ValueError, match="seat must be"):
            rl.GymEnv(seat=seat)
    e = rl.env(seed=3)
    with pytest.raises(ValueError, match="seed"):
        e.reset(seed=-1)
    e.reset()  # the bad seed was not kept
    with pytest.raises(ValueError, match="seed must be an integer"):
        e.reset(seed=1.7)
