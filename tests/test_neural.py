"""The neural bot (issue 58): the kernel and its readable twin move for move, its decisions blind
to every card its seat has not seen, its model files (hash, damage, another variant's), and the
self-play training loop's parts (the Adam fit against a finite-difference gradient)."""

import json
import math

import numpy as np
import pytest

import zipai_sim as zs
from zipai_sim.game import reference as ref
from zipai_sim.kernels import play as kp
from zipai_sim.play import neural
from zipai_sim.play.bots import StudyPolicy
from zipai_sim.play.bots_neural import NeuralPolicy
from zipai_sim.play.engine import Game
from zipai_sim.runs.chunks import chunk_keys
from neural_model import random_model

VARIANTS = zs.list_variants()
KEY = int(chunk_keys(5858, 0, 1)[0])


MODEL = random_model()


def both_engines(v, j: int, codes: list[int], m: neural.Model):
    """Deal ``j`` played by the kernel (``m`` for every neural seat) and by the reference with
    the twins; returns (kernel moves, reference moves, kernel outcome, reference outcome)."""
    deck = ref.shuffled_deck(KEY, j)
    pols = [NeuralPolicy(m) if c == kp.POL_NEURAL else StudyPolicy() for c in codes]
    g = Game(v, deck, pols, KEY, j)
    o = g.play()
    w = np.tile(m.row(), (kp.MAX_SEATS, 1))
    moves, out = kp.play_one(v, deck, codes, KEY, j, None, w)
    return [t for t in map(kp.move_tuple, moves) if t is not None], g.moves, out, o


@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_plays_the_twins_moves(variant):
    """Every move of every hand is the twin's (the context from the seat's Observation, the
    forward pass in numpy), neural seats beside a study seat; the outcome is the same."""
    v = zs.load_variant(variant)
    seats = v.layout.players
    for j in range(6):
        codes = [kp.POL_NEURAL] * seats
        codes[j % seats] = kp.POL_STUDY
        got, want, out, o = both_engines(v, j, codes, MODEL)
        assert got == want, (variant, j)
        assert (int(out[kp.O_WINNER]), int(out[kp.O_HUXI])) == (o.winner, o.huxi), (variant, j)


def test_the_network_changes_answers():
    """The test network is not learned in disguise: on the same deals a linear-only seat (the
    network off) plays other moves."""
    v = zs.load_variant("guangxi-81")
    differ = 0
    for j in range(6):
        deck = ref.shuffled_deck(KEY, j)
        codes = [kp.POL_NEURAL] * 3
        a, _ = kp.play_one(v, deck, codes, KEY, j, None, np.tile(MODEL.row(), (kp.MAX_SEATS, 1)))
        lin = np.zeros((kp.MAX_SEATS, kp.N_FEAT))
        lin[:] = MODEL.linear
        b, _ = kp.play_one(v, deck, [kp.POL_LEARNED] * 3, KEY, j, None, lin)
        differ += not np.array_equal(a, b)
    assert differ >= 3


def test_value_is_the_formula():
    """The twin's value of one rest hand is the docstring's formula computed in plain numpy."""
    v = zs.load_variant("guangxi-81")
    deck = ref.shuffled_deck(KEY, 0)
    pol = NeuralPolicy(MODEL)
    g = Game(v, deck, [pol, StudyPolicy(), StudyPolicy()], KEY, 0)
    seat, hand = 1, list(g.players[1].hand)
    pol._start(g, seat, 0, -1)
    view = pol.view(g, seat, -1)
    f = pol.features(g, seat, hand, 0, 0, view)
    x = np.concatenate([pol.context(g, seat, 0, -1), np.array(hand) / 4.0, np.zeros(20), f])
    a = {k: arr.astype(np.float64) for k, arr in MODEL.arrays().items()}
    h1 = np.maximum(x @ a["w1"] + a["b1"], 0)
    h2 = np.maximum(h1 @ a["w2"] + a["b2"], 0)
    want = float(np.dot(a["linear"], f) + a["ys"] * (h2 @ a["w3"] + a["b3"]))
    assert pol.value(g, seat, hand, 0, 0, view) == pytest.approx(want, rel=1e-9, abs=1e-9)


# --- model files -------------------------------------------------------------------------------

def test_model_file_round_trip_and_hash(tmp_path):
    p = MODEL.save(tmp_path / "m.npz")
    m = neural.read(p)
    assert m.hash == MODEL.hash and len(m.hash) == 16
    assert np.array_equal(m.row(), MODEL.row())
    assert json.loads(json.dumps(m.meta))["layout"] == neural.LAYOUT
    other = random_model(59)
    assert other.hash != MODEL.hash


def test_damaged_or_foreign_files_are_one_clear_error(tmp_path, monkeypatch):
    p = tmp_path / "guangxi-81.npz"
    p.write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="cannot be read as a model"):
        neural.read(p)
    a = MODEL.arrays()
    a["w1"] = a["w1"][:10]
    np.savez(p, meta=np.array("{}"), **a)
    with pytest.raises(ValueError, match="w1 has shape"):
        neural.read(p)
    m = random_model()
    m.meta = {"variant": "guangxi-81"}
    m.save(p)
    with np.load(p) as z:
        d = {k: z[k] for k in z.files}
    d["b3"] = np.float32(5.0)
    np.savez(p, **d)
    with pytest.raises(ValueError, match="damaged"):
        neural.read(p)
    m.meta = {"variant": "changsha-paohuzi"}
    m.save(p)
    monkeypatch.setenv(neural.ENV, str(tmp_path))
    with pytest.raises(ValueError, match="is for variant 'changsha-paohuzi'"):
        neural.model(zs.load_variant("guangxi-81"))
    monkeypatch.setenv(neural.ENV, str(tmp_path / "nope"))
    with pytest.raises(ValueError, match="is not a folder"):
        neural.model(zs.load_variant("guangxi-81"))


def test_a_run_names_its_model():
    """A line-up with a neural seat carries its model's hash; another model, another hash."""
    from zipai_sim.play.learned import weights_hash

    v = zs.load_variant("guangxi-81")
    with neural.using(v, MODEL):
        a = weights_hash(v, ["neural", "greedy", "greedy"])
    with neural.using(v, random_model(59)):
        b = weights_hash(v, ["neural", "greedy", "greedy"])
    assert a and b and a != b


# --- training's parts --------------------------------------------------------------------------

def test_fit_gradient_matches_finite_differences():
    """One Adam step moves each weight against the sign of the loss's slope, which is checked
    by central differences on a few weights (the backward pass is written by hand)."""
    from zipai_sim.studies import neural as sn

    rng = np.random.default_rng(1)
    m = random_model(3, scale=0.2)
    x = rng.normal(0, 1, (sn.BATCH, kp.N_IN)).astype(np.float32)
    y = rng.normal(0, 3, sn.BATCH).astype(np.float32)
    new = sn.fit(m, x, y, 1, np.random.default_rng(0))
    for name, idx in (("w1", (5, 7)), ("w2", (3, 4)), ("w3", (2,)), ("linear", (4,))):
        base = getattr(m, name).astype(np.float64)
        h = 1e-3
        lo, hi = base.copy(), base.copy()
        lo[idx] -= h
        hi[idx] += h
        ml = neural.Model(**{**m.arrays(), name: lo.astype(np.float32)})
        mh = neural.Model(**{**m.arrays(), name: hi.astype(np.float32)})
        slope = (sn.loss(mh, x, y) - sn.loss(ml, x, y)) / (2 * h)
        step = float(getattr(new, name)[idx]) - float(base[idx])
        if abs(slope) > 1e-2:
            assert math.copysign(1, step) == -math.copysign(1, slope), name


def test_training_is_reproducible_and_thread_independent(tmp_path, capsys):
    """The same command gives the same model, bit for bit, on 2 threads and on 1; the CLI
    prints its stages and round table and writes a model file the bot then reads."""
    import numba

    from zipai_sim.cli.app import main
    from zipai_sim.studies.neural import train_neural

    a = train_neural("guangxi-81", hands=4096, rounds=1, seed=11, arena_decks=16)
    numba.set_num_threads(1)
    try:
        b = train_neural("guangxi-81", hands=4096, rounds=1, seed=11, arena_decks=16)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    assert a.model.hash == b.model.hash
    r = a.rounds[0]
    assert r.rows > 4096 * 5 and r.loss_fit < r.loss_start  # the fit learns its own rows
    out = tmp_path / "guangxi-81.npz"
    assert main(["train", "--bot", "neural", "--variant", "guangxi-81", "--hands", "4096",
                 "--rounds", "1", "--arena-decks", "16", "--seed", "11", "--out",
                 str(out)]) == 0
    text = capsys.readouterr().out
    assert "round 1/1: 4,096 self-play hands" in text and "| 1 | " in text
    m = neural.read(out)
    assert m.hash == a.model.hash
    assert m.meta["trained"]["command"].startswith("zipai-sim train --bot neural --variant "
                                                   "guangxi-81 --seed 11 --hands 4096 --rounds 1")


def test_bad_training_arguments_are_named():
    from zipai_sim.studies.neural import train_neural

    with pytest.raises(ValueError, match="eps must be"):
        train_neural("guangxi-81", hands=4096, eps=1.5)
    with pytest.raises(ValueError, match="hands must be at least 4096"):
        train_neural("guangxi-81", hands=100)
