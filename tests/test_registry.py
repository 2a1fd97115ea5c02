"""The bot table (issue 55 §1–§3): every list of bots is made from ``play.registry.BOTS``, the
kernel agrees with its codes and traits, the docs' table is the registry's, and a run names
the weights its line-up played with (checkpoints, headers, metadata)."""

import hashlib
import json
import re
from pathlib import Path

import numpy as np
import pytest

import zipai_sim as zs
from zipai_sim.kernels import play as kp
from zipai_sim.kernels.play import script
from zipai_sim.play import learned, registry
from zipai_sim.play.policies import as_policy

DOCS = Path(__file__).parent.parent / "docs"


@pytest.mark.parametrize("b", registry.BOTS, ids=lambda b: b.name)
def test_each_bot_is_one_entry_the_kernel_agrees_with(b):
    """Its code is the kernel's ``POL_*`` constant, and the turn loop's predicates (who
    searches, whose own answer is learned's or study's) are the entry's traits."""
    assert getattr(kp, f"POL_{b.name.upper()}") == b.code
    assert bool(script.searches(b.code)) == b.searches
    # a neural seat is learned's one ply with a network's value
    assert bool(script.plays_learned(b.code)) == ("learned" in (b.name, b.fast) or b.model)
    assert bool(script.plays_study(b.code)) == ("study" in (b.name, b.fast))
    assert (b.code in learned.LEARNED_CODES) == b.weights
    assert isinstance(as_policy(b.name, 4), b.twin_class)  # its twin on the reference engine
    assert b.cheats == (b.sees == registry.SEES_ALL)
    if b.searches:
        assert b.fast in registry.FAST_POLICIES


def test_derived_lists():
    """The lists the drivers branch on, worked out from the traits by hand."""
    assert registry.POLICY_NAMES == ("random", "greedy", "lookahead", "rollout", "study",
                                     "teacher", "learned", "search", "oracle", "neural")
    assert registry.SEARCH_POLICIES == ("rollout", "teacher", "search", "oracle")
    assert registry.FAST_POLICIES == ("random", "greedy", "lookahead", "study", "learned",
                                      "neural")
    assert registry.MODEL_CODES == (kp.POL_NEURAL,)
    assert registry.CHEATING_POLICIES == ("oracle",)
    assert registry.HINT_CODES == {"greedy": kp.POL_ROLLOUT, "study": kp.POL_TEACHER,
                                   "learned": kp.POL_SEARCH}
    assert zs.play.POLICY_NAMES is registry.POLICY_NAMES


def test_the_docs_bot_table_is_the_registrys():
    text = (DOCS / "guide" / "arena.md").read_text(encoding="utf-8")
    got = re.search(r"<!-- bots:start[^>]*-->\n(.*?)\n<!-- bots:end -->", text, re.S)
    assert got is not None, "docs/guide/arena.md lost its bot table markers"
    assert got.group(1) == registry.markdown_table(), (
        "docs/guide/arena.md's bot table is stale: paste registry.markdown_table() there")


def test_an_unknown_bot_names_the_known_ones():
    with pytest.raises(ValueError, match="unknown bot 'gredy'; known: random, greedy, .* or "
                                         "neural"):
        registry.bot("gredy")
    with pytest.raises(ValueError, match="unknown policy 'gredy'; known: random, greedy"):
        as_policy("gredy")


# --- the weights a run played with ------------------------------------------------------------

def _copy_weights(folder: Path, key: str, scale: float = 1.0) -> Path:
    d = learned.read(learned.shipped_path(key))
    d["weights"] = [x * scale for x in d["weights"]]
    f = folder / f"{key}.json"
    f.write_text(json.dumps(d), encoding="utf-8")
    return f


def test_weights_hash_names_the_weights(tmp_path, monkeypatch):
    """No seat that reads weights: no hash (such runs keep their identity); changed weights:
    another hash; explicit weights for a seat count instead of the file's."""
    v = zs.load_variant("guangxi-81")
    assert learned.weights_hash(v, ["greedy", "study", "random"]) is None
    shipped = learned.weights_hash(v, ["learned", "greedy", "greedy"])
    raw = json.loads(learned.shipped_path(v.key).read_text(encoding="utf-8"))["weights"]
    assert shipped == hashlib.sha256(np.array(raw, "<f8").tobytes()).hexdigest()[:16]
    # the weights, not the seats: every line-up that reads only the file's gets its hash
    assert learned.weights_hash(v, ["learned"] * 3) == learned.weights_hash(
        v, ["greedy", "learned"]) == shipped
    assert learned.weights_hash(v, ["search", "greedy", "greedy"]) != shipped  # + cut value
    _copy_weights(tmp_path, v.key, 1.0)
    monkeypatch.setenv(learned.ENV, str(tmp_path))
    assert learned.weights_hash(v, ["learned", "greedy", "greedy"]) == shipped
    _copy_weights(tmp_path, v.key, 2.0)
    assert learned.weights_hash(v, ["learned", "greedy", "greedy"]) != shipped
    w = tuple(np.arange(kp.N_FEAT, dtype=float))
    a = learned.weights_hash(v, ["learned", "greedy"], [w, None])
    assert a == learned.weights_hash(v, ["learned", "greedy"], [w, None]) != shipped
    assert learned.lineup_weights([v, v], "greedy") is None
    assert learned.lineup_weights([v], "learned") == [
        learned.weights_hash(v, ["learned"])]


def test_a_run_says_which_weights_played():
    """simulate_hands and the arena carry the hash in their header and Parquet metadata; a
    greedy run says nothing of weights."""
    v = zs.load_variant("guangxi-81")
    h = learned.weights_hash(v, ["learned"] * 3)
    got = zs.simulate_hands(v, 8, seed=3, policies="learned")
    assert f"weights {h}" in str(got.report())
    r = zs.arena(v, "learned", "greedy", 4, seed=3)
    ha = learned.weights_hash(v, ["learned", "greedy"])
    assert f"weights {ha}" in str(r.report())
    from zipai_sim.runs.provenance import run_metadata

    assert run_metadata(r.run)["weights_hash"] == ha
    assert "weights" not in str(zs.arena(v, "greedy", "random", 4, seed=3).report())


def test_changed_weights_never_resume_a_checkpoint(tmp_path, monkeypatch):
    """A checkpoint saved with one weights file is refused by a run under another."""
    from zipai_sim.runs.checkpoint import CheckpointError

    ck = tmp_path / "ck"
    with zs.checkpoint(ck):
        zs.arena("guangxi-81", "learned", "greedy", 8, seed=5, chunk_size=4)
    wdir = tmp_path / "w"
    wdir.mkdir()
    _copy_weights(wdir, "guangxi-81", 2.0)
    monkeypatch.setenv(learned.ENV, str(wdir))
    with pytest.raises(CheckpointError, match="played with other learned weights .*ZIPAI_SIM_WEIGHTS"), \
            zs.checkpoint(ck, resume=True):
        zs.arena("guangxi-81", "learned", "greedy", 8, seed=5, chunk_size=4)


def test_a_weights_folder_that_is_not_there_is_one_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv(learned.ENV, str(tmp_path / "nowhere"))
    with pytest.raises(ValueError, match=r"ZIPAI_SIM_WEIGHTS=.*nowhere is not a folder"):
        learned.weights(zs.load_variant("guangxi-81"))


def test_a_weights_file_for_other_rules_is_one_clear_error(tmp_path, monkeypatch):
    f = _copy_weights(tmp_path, "guangxi-81")
    monkeypatch.setenv(learned.ENV, str(tmp_path))
    v = zs.load_variant("guangxi-81")
    learned.weights(v.with_threshold(20))  # an override of the shipped rules keeps its weights
    d = json.loads(f.read_text(encoding="utf-8"))
    d["rules_hash"] = "0123456789abcdef"
    f.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(ValueError, match=r"guangxi-81.json was fitted under other rules of "
                                         r"guangxi-81 \(rules hash 0123456789abcdef"):
        learned.weights(v)
    d["variant"] = "liuhu-dao"
    f.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(ValueError, match="is for variant 'liuhu-dao', not 'guangxi-81'"):
        learned.weights(v)


def test_weights_fitted_under_overrides_play_at_another_threshold(tmp_path, monkeypatch):
    """A file fitted under knob overrides plays those rules at another 起胡 threshold too; under
    other overrides it is refused."""
    v = zs.load_variant("guangxi-81")
    x = v.with_knobs({"settle.huangzhuang_dealer": -2, "settle.huangzhuang_others": 1})
    f = _copy_weights(tmp_path, v.key)
    d = json.loads(f.read_text(encoding="utf-8"))
    d["rules_hash"] = x.rules_hash
    f.write_text(json.dumps(d), encoding="utf-8")
    monkeypatch.setenv(learned.ENV, str(tmp_path))
    learned.weights(x)
    learned.weights(x.with_threshold(20))
    with pytest.raises(ValueError, match="fitted under other rules"):
        learned.weights(v.with_knobs({"settle.huangzhuang_dealer": -4,
                                      "settle.huangzhuang_others": 2}))
