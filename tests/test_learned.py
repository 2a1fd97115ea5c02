"""The learned bot (issue 47): the kernel and its readable twin move for move, its weights files,
and a small training run that must lower its own held-out loss and not lose to its start."""

import json
import math

import numba
import numpy as np
import pytest

import zipai_sim as zs
from zipai_sim.game import reference as ref
from zipai_sim.kernels import play as kp
from zipai_sim.play import learned
from zipai_sim.play.bots import StudyPolicy
from zipai_sim.play.bots_learned import LearnedPolicy
from zipai_sim.play.engine import Game
from zipai_sim.runs.chunks import chunk_keys

VARIANTS = zs.list_variants()
KEY = int(chunk_keys(4747, 0, 1)[0])
#: weights that give every feature a say (the shipped ones may leave some at 0)
W = np.random.default_rng(470).normal(0.0, 1.0, kp.N_FEAT)


def both_engines(v, j: int, codes: list[int], w: np.ndarray):
    """Deal ``j`` played by the kernel (``w`` for every learned seat) and by the reference with
    the twins; returns (kernel moves, reference moves, kernel outcome, reference outcome)."""
    deck = ref.shuffled_deck(KEY, j)
    pols = [LearnedPolicy(w) if c == kp.POL_LEARNED else StudyPolicy() for c in codes]
    g = Game(v, deck, pols, KEY, j)
    o = g.play()
    moves, out = kp.play_one(v, deck, codes, KEY, j, None, np.tile(w, (kp.MAX_SEATS, 1)))
    return [t for t in map(kp.move_tuple, moves) if t is not None], g.moves, out, o


@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_plays_the_twins_moves(variant):
    """Every move of every hand is the twin's, learned seats beside a study seat, and the
    outcome is the same winner and 胡息."""
    v = zs.load_variant(variant)
    seats = v.layout.players
    for j in range(8):
        codes = [kp.POL_LEARNED] * seats
        codes[j % seats] = kp.POL_STUDY
        got, want, out, o = both_engines(v, j, codes, W)
        assert got == want, (variant, j)
        assert (int(out[kp.O_WINNER]), int(out[kp.O_HUXI])) == (o.winner, o.huxi), (variant, j)


def test_twin_value_is_the_sum_in_order():
    """``value`` is Σ w[i] · f[i] over the features in index order: a hand worked by hand. The
    dealer's rest hand 一一 二 三 with nothing else: a pair, three free kinds in a run."""
    v = zs.load_variant("guangxi-81")
    deck = ref.shuffled_deck(KEY, 0)
    g = Game(v, deck, [StudyPolicy()] * 3, KEY, 0)
    hand = [0] * 20
    hand[0], hand[1], hand[2] = 2, 1, 1
    bot = LearnedPolicy(W)
    view = ([4 - x for x in hand], 76, 19)  # 76 unseen, a full stock
    f = bot.features(g, 0, hand, 0, 0, view)
    assert f[0] == 1.0 and f[9] == 4.0 and f[11] == 1.0 and f[10] == 0.0  # free, pairs, lonely
    assert f[12] == 1.0 and f[16] == 1.0 and f[17] == 0.0  # full stock, the dealer
    assert f[8] == 1.0 and f[7] == 0.0  # no 胡息 locked: all of 起胡 short
    want = 0.0
    for a, b in zip(W, f):
        want += a * b
    assert bot.value(g, 0, hand, 0, 0, view) == want


def test_lonely_counts_cards_no_group_can_use():
    """一 and 伍 alone; 九 with 十 near it; 二 with 十 (二七十) is not lonely."""
    hand = [0] * 20
    hand[0] = hand[14] = 1            # 一, 伍: nothing near
    hand[8] = hand[9] = 1             # 九 十: a run's start
    assert LearnedPolicy.lonely(hand) == 2
    hand[1] = 1                        # 二 joins 一 (a run) and 十 (二七十)
    assert LearnedPolicy.lonely(hand) == 1


def test_shipped_weights_load_for_every_variant():
    for key in VARIANTS:
        v = zs.load_variant(key)
        w = learned.weights(v)
        assert w.shape == (kp.N_FEAT,) and np.isfinite(w).all()
        d = learned.read(learned.shipped_path(key))
        assert d["variant"] == key and d["rules_hash"] == v.rules_hash
        assert d["trained"]["seed"] >= 0 and d["trained"]["rounds"]


def test_weights_errors_name_the_file(tmp_path, monkeypatch):
    v = zs.load_variant("guangxi-81")
    bad = tmp_path / "guangxi-81.json"
    bad.write_text("{not json", encoding="utf-8")
    monkeypatch.setenv(learned.ENV, str(tmp_path))
    with pytest.raises(ValueError, match="guangxi-81.json: cannot be read as JSON"):
        learned.weights(v)
    bad.write_text(json.dumps({"features": list(learned.FEATURES), "weights": [1.0] * 3}))
    with pytest.raises(ValueError, match="'weights' must be 18 finite numbers"):
        learned.weights(v)
    d = {"features": list(learned.FEATURES), "weights": [math.nan] * kp.N_FEAT}
    bad.write_text(json.dumps(d).replace("NaN", "NaN"))
    with pytest.raises(ValueError, match="finite"):
        learned.weights(v)
    mine = list(np.arange(kp.N_FEAT, dtype=float))
    learned.write(bad, v, mine, {"trained": {}})
    assert learned.weights(v).tolist() == mine  # the folder's file comes before the shipped one


def test_a_variant_without_weights_is_one_clear_error(tmp_path):
    v = zs.load_variant("guangxi-81")
    text = v.path.read_text(encoding="utf-8").replace('key = "guangxi-81"', 'key = "my-81"')
    f = tmp_path / "my-81.toml"
    f.write_text(text, encoding="utf-8")
    mine = zs.load_variant(f)
    assert mine.key == "my-81"
    with pytest.raises(ValueError, match="no learned weights for variant 'my-81'.*zipai-sim train"):
        zs.simulate_hands(mine, 10, seed=1, policies="learned")
    zs.simulate_hands(mine, 10, seed=1, policies="study")  # other bots need no file


def test_weights_given_to_a_side_that_is_not_learned():
    with pytest.raises(ValueError, match="challenger_weights are for a learned challenger"):
        zs.arena("guangxi-81", "study", "learned", 10, challenger_weights=W)


def one_and_two_threads(work, first: int, k: int):
    """``work(first, k)`` with one thread, then with the usual number."""
    n = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = work(first, k)
        numba.set_num_threads(n)
        return one, work(first, k)
    finally:
        numba.set_num_threads(n)


def test_record_is_thread_independent():
    """The sums a training round folds are the same with one thread or two."""
    from zipai_sim.studies.train import selfplay_work

    v = zs.load_variant("changsha-paohuzi")
    one, two = one_and_two_threads(selfplay_work(v, tuple(W), 11, 3000), 0, 3)
    assert one.n + one.hn > 1000 and (one.xx == two.xx).all() and (one.xy == two.xy).all()
    assert one.yy == two.yy


def test_search_labels_are_thread_independent():
    """The centred sums of a round of search labels are the same with one thread or two, and
    hold questions with candidates that differ."""
    from zipai_sim.studies.train import _search_work

    v = zs.load_variant("guangxi-81")
    one, two = one_and_two_threads(_search_work(v, tuple(W), 12, 1024, 2), 0, 2)
    assert one.n > 50 and np.trace(one.xx) > 0
    assert (one.xx == two.xx).all() and (one.xy == two.xy).all() and one.yy == two.yy
    w = one.fit(1e-4)
    assert [w[i] for i, f in enumerate(learned.FEATURES) if f in ("one", "stock")] == [0.0, 0.0]


def test_cut_search_labels_are_thread_independent_and_come_from_cut_worlds():
    """The labels of the cut search (``labels="cut"``: the search's worlds, cut after
    ``CUT_DRAWS`` draws and valued by the cut value) are the same with one thread or two, are
    not the whole-hand labels, and spread less within a question than they do: a cut world
    carries a sixth of a hand's draws, so less of its luck."""
    from zipai_sim.kernels.play.search import CUT_DRAWS
    from zipai_sim.studies.train import _search_work

    v = zs.load_variant("guangxi-81")
    one, two = one_and_two_threads(_search_work(v, tuple(W), 12, 1024, 2, CUT_DRAWS), 0, 2)
    assert one.n > 50 and np.trace(one.xx) > 0
    assert (one.xx == two.xx).all() and (one.xy == two.xy).all() and one.yy == two.yy
    whole = _search_work(v, tuple(W), 12, 1024, 2)(0, 2)
    assert one.xy.tolist() != whole.xy.tolist() and one.yy != whole.yy
    assert one.yy < whole.yy  # cut worlds carry less of the hand's luck


def test_training_lowers_its_held_out_loss_and_does_not_lose_to_its_start():
    """One round on a small budget: the fit predicts the held-out payments better than the
    starting weights, and the weights it ends with never lose to the start (the fit is kept
    only when its paired arena interval against the start lies above 0)."""
    from zipai_sim.studies.train import train

    r = train("guangxi-81", hands=16384, rounds=1, seed=3, arena_decks=600)
    x = r.rounds[0]
    assert x.rows > 50_000 and x.loss_fit < x.loss_start
    assert x.vs_start[1] <= x.vs_start[0] <= x.vs_start[2]
    assert x.vs_start[2] > 0  # the fit is not significantly worse than where it started
    assert r.weights == (x.fit if x.kept else learned.START)
    assert x.kept == (x.vs_start[1] > 0)


def test_duel_search_moves_by_whole_steps_and_keeps_only_measured_gains():
    """One duel sweep on a small budget: every weight ends a whole number of its steps from
    the start (at most one), a changed set is kept only when it beat the start on fresh decks,
    and the file's metadata is strict JSON (a duel round has no loss: null, not NaN)."""
    from zipai_sim.studies.train import STEPS, train

    r = train("guangxi-81", hands=80, rounds=1, seed=5, arena_decks=80, labels="duel")
    (x,) = r.rounds
    assert 0 < x.rows <= 2 * len(STEPS) and math.isnan(x.loss_fit)
    for f, a, b in zip(learned.FEATURES, x.start, x.fit):
        assert a == b or (f in STEPS and abs(abs(b - a) - STEPS[f]) < 1e-12), f
    assert x.kept == (x.fit != x.start and x.vs_start[1] > 0)
    assert r.weights == (x.fit if x.kept else learned.START)
    meta = json.loads(json.dumps(r.meta(), allow_nan=False))["trained"]
    assert meta["labels"] == "duel" and meta["rounds"][0]["loss_fit"] is None


def test_train_cli_writes_a_file_the_bot_reads(tmp_path, monkeypatch, capsys):
    from zipai_sim.cli import main

    out = tmp_path / "guangxi-81.json"
    code = main(["train", "--hands", "16384", "--rounds", "1", "--arena-decks", "200",
                 "--seed", "4", "--out", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    assert "| 1 |" in text and f"wrote {out}" in text
    d = learned.read(out)
    assert d["trained"]["command"].startswith("zipai-sim train --variant guangxi-81 --seed 4")
    monkeypatch.setenv(learned.ENV, str(tmp_path))
    assert learned.weights(zs.load_variant("guangxi-81")).tolist() == d["weights"]
    assert main(["train", "--hands", "0"]) == 2
    assert "--hands" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_train_reproduces_the_shipped_weights(variant):
    """The command recorded in a shipped weights file makes the same weights again."""
    from zipai_sim.studies.train import train

    d = learned.read(learned.shipped_path(variant))
    t = d["trained"]
    r = train(variant, t["hands_per_round"], len(t["rounds"]), t["seed"], t["arena_decks"],
              start=t.get("start"), labels=t["labels"], k=t["label_k"])
    assert list(r.weights) == d["weights"]
    assert [x.kept for x in r.rounds] == [x["kept"] for x in t["rounds"]]
