"""Outside models in the studies (issue 48; ``play.external.BatchPolicy``): a batch policy on
the numba engine plays the hands a reference-engine policy with the same strategy plays (a
second opinion: the readable engine asks one question at a time, the table answers batches),
in ``simulate_hands``, ``arena``, ``compare`` and ``fair``, and through the command line."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import zipai_sim as zs
from zipai_sim.play import actions as pa
from zipai_sim.play.external import BatchPolicy
from zipai_sim.studies.arena import arena
from zipai_sim.studies.balance import simulate_hands


def highest(claim: bool):
    """A strategy from the mask alone: discard the highest legal kind; 碰 and 吃 (the first
    option) whenever offered if ``claim``, else pass."""
    def fn(obs, mask):
        kinds = np.where(mask[:, :20], np.arange(20), -1).max(axis=1)
        act = np.where(kinds >= 0, kinds, pa.PASS)
        if claim:
            act = np.where(mask[:, pa.PENG], pa.PENG, np.where(mask[:, pa.CHI], pa.CHI, act))
        return act
    return BatchPolicy(fn, "highest_claim" if claim else "highest")


class Highest:
    """The same strategy on the reference engine (an observation policy, RULES.md §5)."""

    def __init__(self, claim: bool):
        self.claim = claim

    def discard(self, obs, options):
        return max(options)

    def peng(self, obs, card):
        return self.claim

    def chi(self, obs, card, options):
        return 0 if self.claim else -1


@pytest.mark.parametrize("variant", ["guangxi-81", "changsha-paohuzi", "liuhu-dao"])
@pytest.mark.parametrize("claim", [False, True])
def test_a_batch_policy_plays_the_reference_engines_hands(variant, claim):
    seats = zs.load_variant(variant).layout.players
    mixed = [highest(claim)] + ["greedy"] * (seats - 1)
    a = simulate_hands(variant, 120, seed=31, policies=mixed)
    b = simulate_hands(variant, 120, seed=31, engine="reference",
                       policies=[Highest(claim)] + ["greedy"] * (seats - 1))
    assert a.drop("policies", strict=False).equals(b.drop("policies", strict=False)), (a, b)


def test_arena_takes_batch_policies():
    p = highest(True)
    r = arena("guangxi-81", p, p, 60, seed=32)
    assert r.select("score_diff", "ci_low", "ci_high").row(0) == (0.0, 0.0, 0.0)
    r1 = arena("guangxi-81", p, "greedy", 200, seed=33, threads=1)
    r2 = arena("guangxi-81", p, "greedy", 200, seed=33, threads=2)
    assert r1["challenger"][0] == "highest_claim"
    assert r1.select("score_diff", "se_diff").row(0) == r2.select("score_diff", "se_diff").row(0)
    assert r1["ci_high"][0] < 0  # discarding the highest card loses to greedy


def test_compare_and_fair_take_batch_policies():
    from zipai_sim.studies.compare import compare
    from zipai_sim.studies.fair import fair

    c = compare("guangxi-81", 300, seed=34, thresholds=[10, 15], policies=highest(False))
    assert len(c) > 0
    f = fair("guangxi-81", "win.threshold", 10, 12, "score_seat0=0", seed=35,
             policies=highest(False), start_hands=4096, max_hands=4096)
    assert f.policies == "highest" and f.points.height > 0


def test_bad_batch_policies_are_named():
    with pytest.raises(ValueError, match="name"):
        BatchPolicy(lambda o, m: 0, "greedy")
    with pytest.raises(TypeError, match="callable"):
        BatchPolicy(3)
    bad = BatchPolicy(lambda o, m: np.full(len(o), 999), "wild")
    with pytest.raises(ValueError, match="'wild': action 999 is not legal for question 0 of "
                                         "the fingerprint probe"):
        simulate_hands("guangxi-81", 10, seed=36, policies=[bad, "greedy", "greedy"])
    calls = []

    def late(obs, mask):  # legal on the probe, then a masked-out action in play
        calls.append(1)
        return mask.argmax(axis=1) if len(calls) == 1 else np.full(len(obs), 69)

    with pytest.raises(ValueError, match=r"'late': action 69 is not legal for hand \d+ "
                                         r"\(seat 0\): legal actions are \["):
        simulate_hands("guangxi-81", 10, seed=36, policies=[BatchPolicy(late, "late"), "greedy",
                                                            "greedy"])
    for out, what in ((lambda o, m: np.array(["0"] * len(o)), "integer actions, got dtype <U1"),
                      (lambda o, m: 1 / 0, "failed on a batch of \\d+: ZeroDivisionError"),
                      (lambda o: o, "failed on a batch of \\d+: TypeError")):
        with pytest.raises(ValueError, match=what):
            arena("guangxi-81", BatchPolicy(out, "odd"), "greedy", 5, seed=36)
    short = BatchPolicy(lambda o, m: np.zeros(0, int), "short")
    with pytest.raises(ValueError, match="one action per row"):
        arena("guangxi-81", short, "greedy", 5, seed=36)
    with pytest.raises(ValueError, match="beside a searching seat"):
        simulate_hands("guangxi-81", 4, seed=36, policies=[highest(False), "teacher", "greedy"])
    with pytest.raises(ValueError, match="reference engine"):
        simulate_hands("guangxi-81", 4, seed=36, engine="reference",
                       policies=[highest(False), "greedy", "greedy"])


def test_the_command_line_loads_module_attr(tmp_path):
    (tmp_path / "mybot.py").write_text(textwrap.dedent("""
        import numpy as np
        def lowest(obs, mask):
            return mask.argmax(axis=1)
    """))
    cmd = [str(Path(sys.executable).with_name("zipai-sim")), "arena", "--challenger", "mybot:lowest",
           "--baseline", "greedy", "--decks", "30", "--seed", "37",
           "--out", str(tmp_path / "a.parquet")]
    r = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "| lowest " in r.stdout
    r = subprocess.run(cmd[:3] + ["nomodule:x"] + cmd[4:], cwd=tmp_path, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode != 0 and "cannot import 'nomodule'" in r.stderr


def test_ctrl_c_in_the_model_keeps_the_finished_hands_and_resumes(tmp_path):
    """A Ctrl-C while the model answers (KeyboardInterrupt raised inside its call) ends the
    run with the batches finished before it, saved in the checkpoint; the resumed run equals
    the uninterrupted one, number for number."""
    from zipai_sim.runs.checkpoint import checkpoint

    inner = highest(True).fn
    calls = {"n": 0, "stop": None}

    def fn(obs, mask):
        calls["n"] += 1
        if calls["stop"] is not None and calls["n"] >= calls["stop"]:
            raise KeyboardInterrupt
        return inner(obs, mask)

    model = BatchPolicy(fn, "stoppable")
    args = dict(n=16_384, seed=38, policies=[model, "greedy", "greedy"], chunk_size=512,
                threads=1, progress=False)
    whole = simulate_hands("guangxi-81", **args)
    calls.update(n=0, stop=calls["n"] // 2)  # half-way through the same run
    with checkpoint(tmp_path / "c"):
        cut = simulate_hands("guangxi-81", **args)
    assert cut.run["partial"] and 0 < cut.run["n"] < 16_384
    assert len(list((tmp_path / "c").glob("part-*.parquet"))) >= 1
    calls["stop"] = None
    with checkpoint(tmp_path / "c", resume=True):
        again = simulate_hands("guangxi-81", **args)
    assert again.run["n"] == 16_384 and not again.run["partial"]
    assert again.drop("policies", strict=False).equals(whole.drop("policies", strict=False))


def test_a_changed_model_does_not_resume_anothers_checkpoint(tmp_path):
    """A run's identity names a batch policy by its name and a fingerprint of its answers to a
    fixed probe, so a checkpoint made by one model is not resumed by another of the same name."""
    from zipai_sim.runs.checkpoint import CheckpointError, checkpoint

    args = dict(n=4096, seed=39, chunk_size=1024, progress=False)
    with checkpoint(tmp_path / "c"):
        simulate_hands("guangxi-81", policies=[highest(False), "greedy", "greedy"], **args)
    other = BatchPolicy(highest(True).fn, "highest")  # same name, claims: another model
    with pytest.raises(CheckpointError):
        with checkpoint(tmp_path / "c", resume=True):
            simulate_hands("guangxi-81", policies=[other, "greedy", "greedy"], **args)
    with checkpoint(tmp_path / "c", resume=True):  # the same model resumes
        simulate_hands("guangxi-81", policies=[highest(False), "greedy", "greedy"], **args)


def test_a_batch_policys_hands_are_recorded_replayed_and_analysed():
    """``records=`` with a batch policy: each record is the hand the reference engine plays
    with the same strategy as an observation policy (move for move, the same settlement), it
    replays by the rules, and ``analyze`` values its decisions."""
    _, got = simulate_hands("guangxi-81", 300, seed=40, records=6, progress=False,
                            policies=[highest(True), "greedy", "greedy"])
    _, want = simulate_hands("guangxi-81", 300, seed=40, records=6, progress=False,
                             engine="reference", policies=[Highest(True), "greedy", "greedy"])
    assert len(got) == len(want) == 6
    for g, w in zip(got, want):
        assert [e for _, e in g.moves()] == [e for _, e in w.moves()]
        assert g.settlement == w.settlement
        assert g.header["policies"] == ["highest_claim", "greedy", "greedy"]
        zs.replay_record(g)  # raises on any move the rules do not allow
    a = zs.analyze(got[0], seat=0, worlds=4)
    assert len(a.table()) > 0
