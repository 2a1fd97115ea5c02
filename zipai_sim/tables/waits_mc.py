"""The two Monte Carlo runs of the hand calculator (``tables.waits.calculate``) on the run
driver (``runs.run_batches``): the draw model (``sims``) and hands played from the deal
(``play``). Both are chunked and seeded per chunk, so a run's first trials are those of any
longer run, a progress bar shows, and Ctrl-C keeps the trials finished."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from zipai_sim.game import params as p
from zipai_sim.game.variants import Variant
from zipai_sim.runs.chunks import chunk_sizes
from zipai_sim.runs.driver import Run, run_batches

#: trials per chunk of the two Monte Carlo runs (draw model, play): chunk ``c`` draws from
#: ``SeedSequence(seed, spawn_key=(c,))``, so a run's first trials are those of a longer run
SIM_CHUNK, PLAY_CHUNK = 4096, 256


def _chunk_rng(seed: int, c: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(c,)))


def _add_counts(state: tuple[int, list[int]], got: tuple[int, list[int]]) -> tuple:
    return state[0] + got[0], [a + b for a, b in zip(state[1], got[1])]


def simulate_draws(unseen: np.ndarray, wins: np.ndarray, kinds: list[int],
                    draws: tuple[int, int, int], sims: int, seed: int,
                    progress: bool | None = False, client: object = None) -> Run:
    """Monte Carlo of the draw model on the run driver (``runs.run_batches``): state (trials
    with a win, trials with a win on each kind); ``done`` trials."""
    d, e, D = draws
    pool = np.repeat(np.arange(20), unseen)
    src = np.concatenate([np.zeros(d, int), np.ones(e, int), np.full(D, 2)])

    def work(first: int, k: int) -> tuple[int, list[int]]:
        hits, per = 0, [0] * len(kinds)  # running counts: memory flat for any sims
        for c, m in zip(range(first, first + k), chunk_sizes(sims, SIM_CHUNK, first, k)):
            order = np.argsort(_chunk_rng(seed, c).random((int(m), len(pool))),
                               axis=1)[:, : d + e + D]
            cards = pool[order]
            win_at = wins[cards, src[None, :]]
            hits += int(win_at.any(axis=1).sum())
            for t, kind in enumerate(kinds):
                per[t] += int((win_at & (cards == kind)).any(axis=1).sum())
        return hits, per

    return run_batches(sims, SIM_CHUNK, 16, work, _add_counts, (0, [0] * len(kinds)),
                       unit="draw", progress=progress, client=client,
                       identity={"what": "waits draw model", "seed": str(seed),
                                 "unseen": unseen.tolist(), "wins": wins.tolist(),
                                 "draws": list(draws)})


def simulate_play(v: Variant, hand: np.ndarray, seat: int, kinds: list[int], plays: int,
                   policies: str | Sequence[str], seed: int,
                   progress: bool | None = False, client: object = None) -> Run:
    """Deal ``hand`` to ``seat``, shuffle the rest around it, play hands on the run driver:
    state (hands the seat won, hands it won on each kind); ``done`` hands."""
    from zipai_sim.kernels import play as kp
    from zipai_sim.play import policy_codes
    from zipai_sim.play.rollout import play_one

    P = v.params
    seats, h = P[p.SEATS], P[p.OTHER_CARDS]
    codes = policy_codes(policies, seats, v.key)
    rest = np.repeat(np.arange(20), 4 - hand.astype(np.int64)).astype(np.int8)
    mine = np.repeat(np.arange(20), hand.astype(np.int64)).astype(np.int8)
    scratch = kp.new_scratch()
    key = seed & ((1 << 64) - 1)
    idx = {k: t for t, k in enumerate(kinds)}

    def work(first: int, k: int) -> tuple[int, list[int]]:
        won, per = 0, [0] * len(kinds)
        for c, m in zip(range(first, first + k), chunk_sizes(plays, PLAY_CHUNK, first, k)):
            rng = _chunk_rng(seed, c)
            for j in range(c * PLAY_CHUNK, c * PLAY_CHUNK + int(m)):
                others = rng.permutation(rest)
                deck = np.concatenate([others[: seat * h], mine, others[seat * h:]])
                _, out = play_one(v, deck, codes, key, j, scratch)
                if out[kp.O_WINNER] == seat:
                    won += 1
                    t = idx.get(int(out[kp.O_WIN_CARD]))
                    if t is not None:
                        per[t] += 1
        return won, per

    return run_batches(plays, PLAY_CHUNK, 1, work, _add_counts, (0, [0] * len(kinds)),
                       unit="hand", progress=progress, kernels=(kp.play_hand,), client=client,
                       identity={"what": "waits play", "rules_hash": v.rules_hash,
                                 "seed": str(seed), "hand": hand.tolist(), "seat": seat,
                                 "policies": policies})
