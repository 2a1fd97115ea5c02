"""Knob overrides and sweeps (issue 41): ``Variant.with_knobs`` / ``--set KNOB=VALUE`` checked
exactly as a TOML file is, and ``compare --sweep`` measured against a closed form.

The closed form: the 荒庄 payments (RULES.md §7.2) are paid only on a 荒庄 and change no move
(no bot reads them), so on the same decks a run whose dealer gets ``Δ`` more on a 荒庄 differs
from the baseline by exactly ``Δ·h_j`` on hand ``j`` (``h_j``: the hand was a 荒庄). Its mean
difference is ``Δ·H/n`` and its standard error ``|Δ|·sqrt((nH − H²)/(n(n − 1))/n)`` with ``H`` 荒庄
hands of ``n``: numbers worked out from the count alone, never from the settlement code.
"""

from __future__ import annotations

import math
import re

import polars as pl
import pytest
from test_cli import assert_one_line_error, run

import zipai_sim as zs
from zipai_sim.game.variants import VariantError, knob_value, with_knobs
from zipai_sim.studies.compare import compare
from zipai_sim.studies.sweep import MAX_SWEEP_RUNS, knob_of, parse_sweep, sweep_runs

HZ = ("settle.huangzhuang_dealer", "settle.huangzhuang_others")


def _toml_with(key: str, section: str, knob: str, value: str) -> str:
    """The shipped file of ``key`` with ``[section].knob`` rewritten to ``value`` (TOML text)."""
    from importlib import resources

    text = (resources.files("zipai_sim") / "rules" / f"{key}.toml").read_text(encoding="utf-8")
    head, sep, rest = text.partition(f"[{section}]")
    new, n = re.subn(rf"(?m)^{knob}\s*=.*$", f"{knob} = {value}", rest, count=1)
    assert sep and n == 1, (section, knob)
    return head + sep + new


@pytest.mark.parametrize("section,knob,value,python", [
    ("settle", "huangzhuang_dealer", "-2", -2),            # 荒庄 no longer sums to 0
    ("win", "threshold", "-3", -3),                         # out of range
    ("win", "threshold", "true", True),                     # a bool is not an integer
    ("points", "ti", "[9]", [9]),                           # not a [small, big] pair
    ("fanxing", "match", '"sideways"', "sideways"),         # an unknown choice
])
def test_a_bad_override_is_refused_with_the_files_message(tmp_path, section, knob, value, python):
    """The same change made in a copy of the TOML file and made with ``with_knobs`` is refused
    with the same words after the ``where:`` prefix."""
    path = tmp_path / "edited.toml"
    path.write_text(_toml_with("guangxi-81", section, knob, value), encoding="utf-8")
    with pytest.raises(VariantError) as by_file:
        zs.load_variant(path)
    with pytest.raises(VariantError) as by_knob:
        zs.load_variant("guangxi-81").with_knobs({f"{section}.{knob}": python})
    assert str(by_knob.value).startswith(f"guangxi-81 with {section}.{knob}=")
    assert str(by_file.value).split(": ", 1)[1] == str(by_knob.value).split(": ", 1)[1]


def test_a_good_override_equals_the_edited_file(tmp_path):
    path = tmp_path / "edited.toml"
    text = _toml_with("guangxi-81", "settle", "huangzhuang_dealer", "-2")
    path.write_text(text.replace("huangzhuang_others = 2", "huangzhuang_others = 1"), "utf-8")
    v = zs.load_variant("guangxi-81").with_knobs(dict(zip(HZ, (-2, 1))))
    assert v == zs.load_variant(path) and v.rules_hash == zs.load_variant(path).rules_hash
    assert (v.settle.huangzhuang_dealer, v.settle.huangzhuang_others) == (-2, 1)
    assert v.key == "guangxi-81"


@pytest.mark.parametrize("name", ["nope.x", "settle", "settle.nope", "mingtang.values.x.y"])
def test_an_unknown_knob_is_named(name):
    with pytest.raises(VariantError, match=re.escape(name.split(".")[-1])):
        with_knobs("guangxi-81", {name: 1})


def test_the_rules_hash_follows_the_knobs():
    v = zs.load_variant("hunan-hengyang")
    assert v.with_knobs({}).rules_hash == v.rules_hash
    assert v.with_knobs({"win.threshold": v.win.threshold}).rules_hash == v.rules_hash
    assert v.with_knobs({"win.threshold": 12}).rules_hash == v.with_threshold(12).rules_hash
    hashes = {v.with_knobs({"settle.zimo_multiplier": m}).rules_hash for m in (1, 2, 3)}
    assert len(hashes) == 3


def test_knob_values_read_as_toml_or_text():
    assert knob_value("-2") == -2 and knob_value("true") is True
    assert knob_value("[9, 12]") == [9, 12] and knob_value('"same"') == "same"
    assert knob_value("same") == "same"


def test_parse_sweep_and_its_errors():
    assert parse_sweep("win.threshold=12,18") == (("win.threshold",), [(12,), (18,)])
    for bad in ("win.threshold", "win.threshold=", "a/b=1,2/3", "win.threshold=12,12"):
        with pytest.raises(ValueError):
            parse_sweep(bad)


def test_a_sweep_leaves_out_the_baseline_and_caps_its_grid():
    base, settings, runs = sweep_runs("guangxi-81", {"win.threshold": [15, 12, 18]})
    assert [s["win.threshold"] for s in settings] == [12, 18]  # 15 is the variant's own
    assert [v.win.threshold for v in runs] == [12, 18] and base.win.threshold == 15
    assert knob_of(runs[0], "win.threshold") == 12
    with pytest.raises(ValueError, match="more than"):
        sweep_runs("guangxi-81", {"win.threshold": list(range(MAX_SWEEP_RUNS + 2))})
    with pytest.raises(VariantError, match="荒庄"):
        sweep_runs("guangxi-81", {"settle.huangzhuang_dealer": [-2]})


def test_huangzhuang_payment_moves_the_dealer_edge_by_the_closed_form():
    n = 3000
    sweep = {HZ: [(-2, 1), (0, 0), (-8, 4)]}
    df = compare("guangxi-81", n, seed=41, sweep=sweep, progress=False)
    base = zs.load_variant("guangxi-81")
    hz = df.filter(pl.col("metric") == "huangzhuang")
    h = round(hz["baseline_mean"][0] * n)
    assert 0 < h < n and (hz["diff"] == 0).all()  # the payment changes no move
    for dealer, others in sweep[HZ]:
        row = df.filter((pl.col("metric") == "score_seat0")
                        & (pl.col("settle.huangzhuang_dealer") == dealer)).row(0, named=True)
        delta = dealer - base.settle.huangzhuang_dealer
        assert row["settle.huangzhuang_others"] == others
        assert row["diff"] == pytest.approx(delta * h / n, abs=1e-12)
        se = abs(delta) * math.sqrt((n * h - h * h) / (n * (n - 1)) / n)
        assert row["se"] == pytest.approx(se, rel=1e-9)
        other = df.filter((pl.col("metric") == "score_seat1")
                          & (pl.col("settle.huangzhuang_dealer") == dealer))["diff"][0]
        assert other == pytest.approx((others - base.settle.huangzhuang_others) * h / n,
                                      abs=1e-12)


def test_set_on_the_command_line_changes_the_rules_hash(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    want = zs.load_variant("guangxi-81").with_knobs(dict(zip(HZ, (0, 0)))).rules_hash
    for argv in (["simulate", "--deals", "2000", "--out", "s.parquet"],
                 ["play", "--deal", "3"],
                 ["table", "deal", "--variants", "guangxi-81", "--deals", "2000"],
                 ["arena", "--challenger", "greedy", "--baseline", "random", "--decks", "20",
                  "--out", "a.parquet"]):
        code, out, err = run([*argv, "--set", f"{HZ[0]}=0", "--set", f"{HZ[1]}=0"], capsys)
        assert code == 0, (argv, err)
        assert want in out, argv


def test_a_bad_set_is_one_line_naming_the_knob(capsys):
    assert_one_line_error(*run(["simulate", "--deals", "10", "--set", "settle.nope=1"], capsys),
                          "settle", "nope")
    assert_one_line_error(*run(["simulate", "--deals", "10", "--set", "win.threshold"], capsys),
                          "KNOB=VALUE")
    assert_one_line_error(*run(["simulate", "--deals", "10", "--set",
                                "settle.huangzhuang_dealer=-2"], capsys), "荒庄")


def test_compare_sweep_on_the_command_line(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(["compare", "--variants", "guangxi-dazipai", "--hands", "500",
                          "--sweep", "win.threshold=20,25", "--out", "sw.parquet"], capsys)
    assert code == 0, err
    df = pl.read_parquet("sw.parquet")
    assert sorted(set(df["win.threshold"].to_list())) == [20, 25]
    assert set(df["threshold"].to_list()) == {20, 25}
    assert "threshold=20" in out
    meta = pl.read_parquet_metadata("sw.parquet")
    assert meta["sweep_knobs"] == "win.threshold" and meta["sweep_baseline"] == '{"win.threshold": 15}'
    assert_one_line_error(*run(["compare", "--variants", "guangxi-81", "--hands", "10",
                                "--sweep", "win.threshold=15"], capsys), "own")


def test_plot_sweep_draws_each_setting_with_its_interval(capsys, tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    from zipai_sim.plots import plot_sweep

    monkeypatch.chdir(tmp_path)
    code, _, err = run(["compare", "--variants", "guangxi-81", "--hands", "600", "--sweep",
                        f"{HZ[0]}/{HZ[1]}=-2/1,0/0", "--out", "sw.parquet"], capsys)
    assert code == 0, err
    df = pl.read_parquet("sw.parquet")
    ax = plot_sweep(df, metric="score_seat0", baseline=-4)
    line = ax.lines[0]  # the error-bar line: one point per setting, sorted by the knob
    assert list(line.get_xdata()) == [-2, 0]
    want = df.filter(pl.col("metric") == "score_seat0").sort(HZ[0])["diff"].to_list()
    assert list(line.get_ydata()) == pytest.approx(want)
    with pytest.raises(ValueError, match="not swept"):
        plot_sweep(df, knob="win.threshold")
    code, out, err = run(["plot", "sweep", "--from", "sw.parquet", "--out", "sw.png"], capsys)
    assert code == 0 and (tmp_path / "sw.png").stat().st_size > 0, err
    assert_one_line_error(*run(["plot", "sweep", "--from", "sw.parquet", "--out", "x.png",
                                "--seat", "1"], capsys), "--seat")
