"""``train --bot neural``: grow the neural bot's network by self-play (issue 58).

Deep Monte-Carlo (DouZero's recipe, ``docs/guide/neural.md``): each round plays ``hands``
hands with every seat ``neural`` at the current network, each seat answering at random with
chance ``eps`` (exploration), and notes at every decision the inputs of the answer it chose
(``kernels.play.neural``: its context, the position the answer leaves). The target of a row is
the payment (RULES.md §7, the variant's unit) its seat got when the hand was settled. The
network is then fitted to the rows by Adam on the mean squared error (``fit``, numpy: no
training library), starting from the round's network; every ``HOLD``-th chunk of hands is held
out and its loss reported. Each round's network meets ``learned`` in a duplicate arena
(``studies.arena``, decks of a seed of its own); the best network by that figure is the result.

Round 1 starts from ``learned``: the linear part is the variant's learned weights and the
network's output weights are 0, so round 1 plays learned's moves (ε aside) and each later
round plays the network the round before fitted.

Reproducible from ``(variant, seed, hands, rounds, eps, epochs, arena decks)`` on one machine:
the hands and arena decks come from seeds drawn from ``seed``, the rows are folded in chunk
order (independent of the thread count), the initial weights and the minibatch order from
``numpy.random.default_rng(SeedSequence(seed, spawn_key=(round, 3)))``. (The BLAS library's
sums may round differently on another machine.)
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from zipai_sim.kernels import play as kp
from zipai_sim.play.neural import Model, using
from zipai_sim.report import DEFAULT_SEED
from zipai_sim.runs.chunks import check_count, check_seed, chunk_keys, chunk_sizes
from zipai_sim.runs.driver import run_batches
from zipai_sim.studies.train import round_seed

DEFAULT_HANDS = 60_000
DEFAULT_ROUNDS = 4
DEFAULT_ARENA_DECKS = 4_000
DEFAULT_EPS = 0.05
DEFAULT_EPOCHS = 2
CHUNK = 256  # hands a chunk (≈ 17 rows a hand, all seats, of N_IN float32: ≈ 6 MB)
HOLD = 8  # every HOLD-th chunk is held out
BATCH = 1024  # rows a gradient step
LR = 1e-3
F0 = kp.N_CTX + kp.OX_FEAT  # where learned's features sit in a row


def start_model(v, seed: int) -> Model:
    """Round 1's network: the variant's learned weights as the linear part, small random first
    layers (He scale / 4) and a zero output layer, so it plays learned's answers."""
    from zipai_sim.play.learned import weights

    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(0, 3)))
    f32 = np.float32
    return Model(linear=weights(v).astype(f32),
                 w1=(rng.standard_normal((kp.N_IN, kp.H1)) * math.sqrt(2 / kp.N_IN) / 4).astype(f32),
                 b1=np.zeros(kp.H1, f32),
                 w2=(rng.standard_normal((kp.H1, kp.H2)) * math.sqrt(2 / kp.H1)).astype(f32),
                 b2=np.full(kp.H2, 0.01, f32), w3=np.zeros(kp.H2, f32), b3=np.float32(0.0),
                 ys=np.float32(1.0))


def selfplay_rows(v, m: Model, seed: int, hands: int, eps: float, progress, desc: str):
    """Play ``hands`` self-play hands at model ``m`` exploring with ``eps``; returns
    ``(x float32[n, N_IN], y float32[n], held bool[n], partial)``."""
    from zipai_sim.kernels.play.turn import record_net_chunks
    from zipai_sim.play.payoffs import OutcomeCache, settle_outcomes

    seats = v.layout.players
    codes = np.full(seats, kp.POL_NEURAL, np.int64)
    w = np.zeros((kp.MAX_SEATS, kp.W_COLS))
    w[:seats] = m.row(eps)
    cache = OutcomeCache(v)

    def work(first: int, k: int):
        keys, sizes = chunk_keys(seed, first, k), chunk_sizes(hands, CHUNK, first, k)
        n = int(sizes.max())
        out = np.zeros((k, n, kp.N_OUT), np.int64)
        rec = np.zeros((k, n, kp.MAX_REC, kp.N_IN), np.float32)
        rs = np.zeros((k, n, kp.MAX_REC), np.int64)
        nrec = np.zeros((k, n), np.int64)
        record_net_chunks(keys, sizes, v.params, int(v.win.choupai_win), codes, w, out, rec,
                          rs, nrec)
        xs, ys, hs = [], [], []
        for c in range(k):
            size = int(sizes[c])
            pay = settle_outcomes(v, out[c, :size], cache)[0]
            keep = np.arange(kp.MAX_REC) < nrec[c, :size, None]
            xs.append(rec[c, :size][keep])
            ys.append(pay[np.nonzero(keep)[0], rs[c, :size][keep]].astype(np.float32))
            hs.append(np.full(len(ys[-1]), (first + c) % HOLD == HOLD - 1))
        return np.concatenate(xs), np.concatenate(ys), np.concatenate(hs)

    import numba

    got = run_batches(hands, CHUNK, 2 * numba.get_num_threads(), work, lambda s, x: s + [x], [], unit="hand", desc=desc,
                      progress=progress, kernels=(record_net_chunks,))
    parts = got.state
    if not parts:
        return (np.zeros((0, kp.N_IN), np.float32), np.zeros(0, np.float32),
                np.zeros(0, bool), got.partial)
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]), got.partial)


def _forward(p: dict, x: np.ndarray):
    z1 = x @ p["w1"] + p["b1"]
    h1 = np.maximum(z1, 0)
    z2 = h1 @ p["w2"] + p["b2"]
    h2 = np.maximum(z2, 0)
    o = h2 @ p["w3"] + p["b3"]
    lin = x[:, F0:F0 + kp.N_FEAT] @ p["linear"]
    return lin, o, (z1, h1, z2, h2)


def predict(m: Model, x: np.ndarray) -> np.ndarray:
    """The value ``m`` gives rows ``x`` (float32[n, N_IN]), in the variant's unit."""
    p = {k: a.astype(np.float64) for k, a in m.arrays().items()}
    lin, o, _ = _forward(p, x.astype(np.float64))
    return lin + float(p["ys"]) * o


def loss(m: Model, x: np.ndarray, y: np.ndarray) -> float:
    """Mean squared error of ``m`` on rows ``x`` with targets ``y`` (units² a row); NaN for no
    rows."""
    if len(y) == 0:
        return math.nan
    return float(np.mean((predict(m, x) - y) ** 2))


def fit(m: Model, x: np.ndarray, y: np.ndarray, epochs: int, rng) -> Model:
    """Adam (lr ``LR``, minibatches of ``BATCH`` rows in ``rng``'s order) on the squared error
    of ``(V − y) / ys`` from ``m``'s weights, ``epochs`` passes over the rows; returns the new
    ``Model`` (``ys`` kept)."""
    p = {k: a.astype(np.float32).copy() for k, a in m.arrays().items() if k != "ys"}
    ys = float(m.ys)
    mom = {k: np.zeros_like(a) for k, a in p.items()}
    vel = {k: np.zeros_like(a) for k, a in p.items()}
    b1, b2, t = 0.9, 0.999, 0
    n = len(y)
    for _ in range(epochs):
        order = rng.permutation(n)
        for i in range(0, n - BATCH + 1, BATCH):
            idx = np.sort(order[i:i + BATCH])
            xb, yb = x[idx], y[idx]
            lin, o, (z1, h1, z2, h2) = _forward(p, xb)
            r = (lin + ys * o - yb) / ys
            do = (2.0 / len(yb)) * r  # d loss / d o; d loss / d lin = do / ys
            g = {"linear": xb[:, F0:F0 + kp.N_FEAT].T @ (do / ys), "w3": h2.T @ do,
                 "b3": np.float32(do.sum())}
            dz2 = np.outer(do, p["w3"]) * (z2 > 0)
            g["w2"], g["b2"] = h1.T @ dz2, dz2.sum(0)
            dz1 = (dz2 @ p["w2"].T) * (z1 > 0)
            g["w1"], g["b1"] = xb.T @ dz1, dz1.sum(0)
            t += 1
            for k, gk in g.items():
                gk = np.asarray(gk, np.float32)
                mom[k] = b1 * mom[k] + (1 - b1) * gk
                vel[k] = b2 * vel[k] + (1 - b2) * gk * gk
                mh = mom[k] / (1 - b1 ** t)
                vh = vel[k] / (1 - b2 ** t)
                p[k] = (p[k] - LR * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
    return Model(**p, ys=np.float32(ys), meta=dict(m.meta))


@dataclass
class NeuralRound:
    """One round: rows noted, held-out loss (units² a row) of the network it played and of its
    fit, and the fit against ``learned`` in the arena (mean payment a hand, paired 95%)."""

    round: int
    rows: int
    loss_start: float
    loss_fit: float
    vs_learned: tuple[float, float, float]
    seconds: float


@dataclass
class NeuralTraining:
    """What ``train_neural`` found: its rounds, the best network (``model``: the round with the
    highest arena figure against learned) and the run's settings."""

    variant: str
    seed: int
    hands: int
    rounds_asked: int
    arena_decks: int
    eps: float
    epochs: int
    rounds: list[NeuralRound] = field(default_factory=list)
    model: Model | None = None
    best: int = 0
    partial: bool = False
    seconds: float = 0.0

    def command(self) -> str:
        return (f"zipai-sim train --bot neural --variant {self.variant} --seed {self.seed} "
                f"--hands {self.hands} --rounds {self.rounds_asked} --arena-decks "
                f"{self.arena_decks} --eps {self.eps} --epochs {self.epochs}")

    def meta(self) -> dict:
        from zipai_sim.version import __version__

        return {"trained": {
            "command": self.command(), "seed": self.seed, "hands_per_round": self.hands,
            "frames": sum(r.rows for r in self.rounds), "eps": self.eps, "epochs": self.epochs,
            "arena_decks": self.arena_decks, "best_round": self.best, "partial": self.partial,
            "seconds": round(self.seconds, 1), "code_version": __version__,
            "data": "Deep Monte-Carlo: every seat neural at the round's network, exploring "
                    "with chance eps; each chosen answer's inputs and the payment its seat got",
            "rounds": [{"round": r.round, "rows": r.rows, "loss_start": _num(r.loss_start),
                        "loss_fit": _num(r.loss_fit), "vs_learned": list(r.vs_learned),
                        "seconds": round(r.seconds, 1)} for r in self.rounds]}}


def _num(x: float) -> float | None:
    return None if math.isnan(x) else x


def versus_learned(v, m: Model, seed: int, decks: int, progress):
    """``m`` against ``learned`` on ``decks`` duplicate decks (seed ``seed``): (diff, ci_low,
    ci_high) in the variant's unit a hand, or None when Ctrl-C stopped it."""
    from zipai_sim.studies.arena import arena

    with using(v, m):
        d = arena(v, "neural", "learned", decks, seed=seed, progress=progress)
    if d.run["partial"]:
        return None
    row = d.row(0, named=True)
    return (float(row["score_diff"]), float(row["ci_low"]), float(row["ci_high"]))


def train_neural(variant, hands: int = DEFAULT_HANDS, rounds: int = DEFAULT_ROUNDS,
                 seed: int = DEFAULT_SEED, arena_decks: int = DEFAULT_ARENA_DECKS,
                 eps: float = DEFAULT_EPS, epochs: int = DEFAULT_EPOCHS,
                 progress: bool | None = False, say=None) -> NeuralTraining:
    """Train the neural bot of ``variant`` (a key, TOML path or ``Variant``) over ``rounds``
    rounds of ``hands`` self-play hands (module docstring). ``say``: called with one line of
    text as each stage starts and ends (the CLI prints them). Returns a ``NeuralTraining``;
    Ctrl-C stops at a batch boundary with the rounds finished (``partial``). Raises
    ValueError for a bad count, seed, ``eps`` (0 ≤ ε < 1) or ``epochs``; VariantError."""
    from zipai_sim.game.variants import load_variant

    v = load_variant(variant)
    hands, rounds = check_count(hands, "hands"), check_count(rounds, "rounds")
    arena_decks, seed = check_count(arena_decks, "arena_decks"), check_seed(seed)
    epochs = check_count(epochs, "epochs")
    if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not 0 <= eps < 1:
        raise ValueError(f"eps must be a number in [0, 1), got {eps!r}")
    if hands < 2 * HOLD * CHUNK:
        raise ValueError(f"hands must be at least {2 * HOLD * CHUNK} (a held-out chunk of "
                         f"{CHUNK} in every {HOLD}, twice), got {hands}")
    say = say or (lambda s: None)
    t0 = time.perf_counter()
    res = NeuralTraining(v.key, seed, hands, rounds, arena_decks, float(eps), epochs)
    m = start_model(v, seed)
    m.meta = {"variant": v.key, "rules_hash": v.rules_hash}
    best = -math.inf
    for r in range(1, rounds + 1):
        t1 = time.perf_counter()
        say(f"round {r}/{rounds}: {hands:,} self-play hands at the round's network (ε {eps})")
        x, y, held, partial = selfplay_rows(v, m, round_seed(seed, r, 0), hands, eps, progress,
                                            f"{v.key} round {r}")
        if partial:
            res.partial = True
            break
        if r == 1:
            m.ys = np.float32(max(float(np.std(y)), 1e-3))
        say(f"round {r}: fitting {int((~held).sum()):,} rows ({epochs} epochs, Adam)")
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(r, 3)))
        try:
            new = fit(m, x[~held], y[~held], epochs, rng)
            l0, l1 = loss(m, x[held], y[held]), loss(new, x[held], y[held])
        except KeyboardInterrupt:  # the rounds finished stay (the CLI writes the best)
            res.partial = True
            break
        del x
        say(f"round {r}: held-out loss {l0:.3f} → {l1:.3f}; arena against learned, "
            f"{arena_decks:,} decks")
        got = versus_learned(v, new, round_seed(seed, r, 1), arena_decks, progress)
        if got is None:
            res.partial = True
            break
        res.rounds.append(NeuralRound(r, len(y), l0, l1, got, time.perf_counter() - t1))
        say(f"round {r}: neural − learned {got[0]:+.3f} [{got[1]:+.3f}, {got[2]:+.3f}] "
            f"{v.settle.unit}/hand · {time.perf_counter() - t1:.0f} s")
        m = new
        if got[0] > best:
            best, res.best, res.model = got[0], r, new
    res.seconds = time.perf_counter() - t0
    if res.model is not None:
        res.model.meta = {"variant": v.key, "rules_hash": v.rules_hash, **res.meta()}
    return res
