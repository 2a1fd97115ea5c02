"""The ``zipai-sim`` command line, run in-process through ``zipai_sim.cli.main``.

Hand results are worked out by hand from RULES.md §3, §4 and the §10 examples; variant facts
from the §8 tables. One test runs the installed console script in a subprocess.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from zipai_sim.cli import main
from zipai_sim.runs.io import read_metadata

KEYS = ["guangxi-81", "guangxi-dazipai", "hunan-hengyang", "changsha-paohuzi",
        "changde-paohuzi", "liuhu-dao"]
EX1 = "一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十拾"  # §10: 9 胡息
EX2 = "拾拾拾 壹壹壹 一二三 二七十 四五六 柒捌玖 八八捌"  # §10: 18 胡息


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    """``main(argv)`` → (exit code, stdout, stderr); argparse errors exit through SystemExit."""
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code: int, out: str, err: str, *needles: str) -> str:
    assert code == 2, (code, out, err)
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("zipai-sim: error:"), err
    assert "Traceback" not in err + out
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


# --- simulate --------------------------------------------------------------------------------

def test_simulate_writes_the_summary(tmp_path, capsys):
    out_path = tmp_path / "x.parquet"
    code, out, err = run(["simulate", "--deals", "20000", "--seed", "5", "--out", str(out_path),
                          "--chunk-size", "4096", "--threads", "2"], capsys)
    assert code == 0, err
    assert "Traceback" not in err
    assert "tianhu" in out and "dihu" in out
    assert "guangxi-81" in out and "20,000 deals" in out and "threshold 15" in out
    assert f"wrote {out_path}" in out
    assert out_path.exists()
    meta = read_metadata(out_path)
    assert (meta["seed"], meta["n"], meta["chunk_size"], meta["variant"]) == \
        ("5", "20000", "4096", "guangxi-81")
    s = pl.read_parquet(out_path)
    tianhu = s.filter(pl.col("metric") == "tianhu").row(0, named=True)
    assert tianhu["n"] == 20_000
    # the printed table shows the count and n of the file's tianhu row
    line = next(ln for ln in out.splitlines() if re.match(r"\|\s*tianhu\s*\|", ln))
    cells = [c.strip() for c in line.strip("|").split("|")]
    assert cells[:3] == ["tianhu", str(tianhu["count"]), "20000"]


def test_simulate_other_variant_and_threshold(tmp_path, capsys):
    out_path = tmp_path / "h.parquet"
    code, out, err = run(["simulate", "--variant", "hunan-hengyang", "--deals", "5000",
                          "--seed", "1", "--out", str(out_path), "--chunk-size", "1024",
                          "--threshold", "30", "--sample-rows", "2"], capsys)
    assert code == 0, err
    assert "hunan-hengyang" in out and "threshold 30" in out
    assert read_metadata(out_path)["variant"] == "hunan-hengyang"
    rows = pl.read_parquet(tmp_path / "h.rows.parquet")
    assert rows["deal"].to_list() == [c * 1024 + j for c in range(5) for j in range(2)]


# --- hand ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,huxi,win", [
    (EX1, 9, "no"),      # 一二三 3 + 壹贰叁 6; 绞 十十拾 0; below 15
    (EX2, 18, "yes"),    # 坎 拾 6 + 坎 壹 6 + 一二三 3 + 二七十 3
    ("贰贰贰贰 一二三 二七十 四五六 伍陆柒 捌捌八 玖玖", 18, "yes"),  # 提 12 + 3 + 3, pair 玖玖
    ("一一二二三三四四七八九十壹贰叁肆肆伍陆柒柒", 12, "no"),  # 一二三 ×2 + 壹贰叁
])
def test_hand_complete_examples(text, huxi, win, capsys):
    code, out, err = run(["hand", text, "--variant", "guangxi-81"], capsys)
    assert code == 0 and err == ""
    assert "complete" in out and "not complete" not in out
    assert f"complete, {huxi} 胡息" in out
    assert f"win: {win} (threshold 15 胡息)" in out


@pytest.mark.parametrize("text", [
    "一二三 一二三 壹贰叁 柒捌玖 二七十 四五六 九九玖",   # the three 二 are a locked 坎
    "贰贰贰贰 拾拾拾拾 一二三 四五六 七八九 壹叁 伍陆",  # two 提 leave 13 free cards
])
def test_hand_not_complete_examples(text, capsys):
    code, out, err = run(["hand", text], capsys)
    assert code == 0 and err == ""
    assert "not complete" in out
    assert "win: no" in out


def test_hand_instant_win_example(capsys):
    code, out, err = run(["hand", "三三三 五五五 八八八 壹壹壹 玖玖玖 一二 肆伍 六七"], capsys)
    assert code == 0
    assert "not complete" in out
    assert "五坎" in out and "win: yes" in out


def test_hand_threshold_depends_on_variant(capsys):
    # 9 胡息 is below 15 (guangxi-81) and below 10 (衡阳); EX2's 18 is above both
    code, out, _ = run(["hand", EX1, "--variant", "hunan-hengyang"], capsys)
    assert code == 0 and "win: no (threshold 10 胡息)" in out
    code, out, _ = run(["hand", EX2, "--variant", "hunan-hengyang"], capsys)
    assert code == 0 and "win: yes (threshold 10 胡息)" in out


def test_hand_waits_on_20_cards(capsys):
    # 20 cards: 一..十 and 壹..拾 once each. 21 cards and no four → seven threes, and one value
    # must give a 绞 (vX vX + the other size); both sizes minus value v must then split into
    # runs: v ∈ {1, 4, 7, 10} (e.g. 123 567 8910 for v = 4). 胡息: v = 1 leaves 234 567 8910
    # and 贰叁肆 伍陆柒 捌玖拾 (0); v = 4, 7, 10 keep 一二三 3 + 壹贰叁 6 = 9. No pair or 坎 in
    # hand, so the card's source does not matter.
    text = "一二三 四五六 七八九 十 壹贰叁 肆伍陆 柒捌玖 拾"
    code, out, err = run(["hand", text], capsys)
    assert code == 0 and err == ""
    assert "not complete" in out
    waits = [ln for ln in out.splitlines() if ln.startswith("completing cards")]
    assert len(waits) == 1

    def w(card, h):
        return f"{card} ({h} 胡息 self / {h} 胡息 other)"

    want = ", ".join([w("一", 0), w("四", 9), w("七", 9), w("十", 9),
                      w("壹", 0), w("肆", 9), w("柒", 9), w("拾", 9)])
    # guangxi-81 (the default) needs 15 胡息: no card is starred as a win
    head = "completing cards (听; 胡息 as own draw / as another's card; * wins at the threshold): "
    assert waits[0] == head + want


def test_hand_with_incoming_card(capsys):
    # the 20 cards above + 十 from another player: 绞 十十拾 0, 一二三 3, 壹贰叁 6
    text = "一二三 四五六 七八九 十 壹贰叁 肆伍陆 柒捌玖 拾"
    code, out, err = run(["hand", text, "--incoming", "十", "--source", "other"], capsys)
    assert code == 0 and err == ""
    assert "+ 十: complete, 9 胡息" in out
    assert "win: no" in out
    assert not [ln for ln in out.splitlines() if ln.startswith("waits")]


def test_hand_incoming_completes_a_peng_from_other(capsys):
    # §6: a pair in hand + another player's card is a 碰 (small 1), self-drawn a 偎 (small 3).
    # 一一 + 一 | 二七十 3 | 四五六 | 七八九 | 壹贰叁 6 | 肆伍陆 | 柒捌玖 → 1+3+6 = 10 vs 3+3+6 = 12
    text = "一一 二七十 四五六 七八九 壹贰叁 肆伍陆 柒捌玖"
    code, out, _ = run(["hand", text, "--incoming", "一", "--source", "other"], capsys)
    assert code == 0 and "complete, 10 胡息" in out
    code, out, _ = run(["hand", text, "--incoming", "s1", "--source", "self"], capsys)
    assert code == 0 and "complete, 12 胡息" in out


# --- variants --------------------------------------------------------------------------------

def test_variants_lists_all_six(capsys):
    code, out, err = run(["variants"], capsys)
    assert code == 0 and err == ""
    for key in KEYS:
        assert re.search(rf"\|\s*{re.escape(key)}\s*\|", out), key
    # §8 thresholds, read from the table rows
    want = {"guangxi-81": 15, "guangxi-dazipai": 15, "hunan-hengyang": 10,
            "changsha-paohuzi": 10, "changde-paohuzi": 15, "liuhu-dao": 6}
    lines = out.splitlines()
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    col = header.index("threshold")
    for ln in lines[2:]:
        cells = [c.strip() for c in ln.strip("|").split("|")]
        assert int(cells[col]) == want[cells[0]]


def test_variants_show(capsys):
    code, out, err = run(["variants", "show", "hunan-hengyang"], capsys)
    assert code == 0 and err == ""
    assert out.startswith("hunan-hengyang")
    assert re.search(r"^\s*threshold = 10$", out, re.MULTILINE)
    code, out, _ = run(["variants", "show", "liuhu-dao"], capsys)
    assert re.search(r"^\s*threshold = 6$", out, re.MULTILINE)
    assert re.search(r"^\s*players = 4$", out, re.MULTILINE)


@pytest.mark.parametrize("argv", [[], ["--help"]])
def test_top_level_help(argv, capsys):
    code, out, err = run(argv, capsys)
    assert code == 0 and "Traceback" not in err
    assert "simulate" in out and "hand" in out and "variants" in out


@pytest.mark.parametrize("sub", ["simulate", "hand", "variants"])
def test_subcommand_help(sub, capsys):
    code, out, _ = run([sub, "--help"], capsys)
    assert code == 0 and "usage: zipai-sim " + sub in out


# --- errors ----------------------------------------------------------------------------------

def test_bad_hand_text_names_token_and_position(capsys):
    line = assert_one_line_error(*run(["hand", "一二三x"], capsys), "'x'")
    assert re.search(r"\b3\b", line)  # 'x' is the 4th character: 0-based position 3


def test_fifth_copy_is_an_error(capsys):
    line = assert_one_line_error(*run(["hand", "三三三三三"], capsys), "三")
    assert "5" in line or "fifth" in line


def test_incoming_fifth_copy_is_an_error(capsys):
    assert_one_line_error(*run(["hand", "三三三三 一二", "--incoming", "三"], capsys), "三")


@pytest.mark.parametrize("cmd", [
    ["hand", EX1, "--variant", "no-such-variant"],
    ["simulate", "--variant", "no-such-variant", "--deals", "10"],
])
def test_unknown_variant(cmd, tmp_path, capsys):
    if cmd[0] == "simulate":
        cmd += ["--out", str(tmp_path / "u.parquet")]
    assert_one_line_error(*run(cmd, capsys), "no-such-variant")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("args,needle", [
    (["--deals", "-5"], "--deals"),
    (["--deals", "abc"], "abc"),
    (["--deals", "1.5"], "1.5"),
    (["--threads", "0"], "threads"),
    (["--chunk-size", "0"], "chunk"),
    (["--seed", "-3"], "seed"),
])
def test_simulate_bad_numbers(args, needle, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the default output path would land here
    cmd = ["simulate", "--deals", "100", "--out", str(tmp_path / "b.parquet")] + args
    assert_one_line_error(*run(cmd, capsys), needle)
    assert not list(tmp_path.iterdir())


def test_table_waits_refuses_zero_threads(capsys):
    """table waits plays on one core, but like every command it refuses --threads 0."""
    assert_one_line_error(*run(["table", "waits", "一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十",
                                "--play", "10", "--threads", "0"], capsys), "--threads")


def test_table_waits_policy_needs_play(capsys):
    """--policy plays the --play hands; without --play it would be silently ignored."""
    assert_one_line_error(*run(["table", "waits", "一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十",
                                "--policy", "random"], capsys), "--play")


def test_simulate_unwritable_path(capsys, tmp_path):
    assert_one_line_error(*run(["simulate", "--deals", "100", "--out",
                                "/nonexistent-dir/x.parquet"], capsys),
                          "folder /nonexistent-dir does not exist")  # io's words, in Python too
    assert not Path("/nonexistent-dir").exists()
    (tmp_path / "f").write_text("")
    assert_one_line_error(*run(["simulate", "--deals", "100", "--out",
                                str(tmp_path / "f" / "x.parquet")], capsys), "is a file")


def test_variants_show_unknown(capsys):
    assert_one_line_error(*run(["variants", "show", "nope"], capsys), "nope")


# --- the installed console script ------------------------------------------------------------

def _console_script() -> str | None:
    found = shutil.which("zipai-sim")
    if found:
        return found
    here = Path(sys.executable).parent / "zipai-sim"
    return str(here) if here.exists() else None


def test_console_script():
    exe = _console_script()
    if exe is None:
        pytest.skip("the zipai-sim console script is not installed")
    p = subprocess.run([exe, "variants"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    for key in KEYS:
        assert key in p.stdout
    # a real exit status and one stderr line through ``run`` (sys.exit)
    p = subprocess.run([exe, "hand", "一二三x"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2
    assert p.stderr.startswith("zipai-sim: error:") and len(p.stderr.splitlines()) == 1
    assert "Traceback" not in p.stderr


@pytest.mark.parametrize("argv,needle", [
    (["simulate", "--deals", "0"], "--deals must be ≥ 1"),
    (["balance", "--hands", "0"], "--hands must be ≥ 1"),
    (["match", "--matches", "0"], "--matches must be ≥ 1"),
    (["balance", "--hands", "10", "--rows", "5000"], "K must be ≤ 4096"),
    (["match", "--goal", "hands", "--target", "50"], "--target applies to --goal hu100 only"),
    (["match", "--goal", "hu100", "--hands", "20"], "--hands applies to --goal hands only"),
    (["match", "--goal", "yinghuzi", "--hands", "8"], "--hands applies to --goal hands only"),
    (["table", "deal", "--customary", "--thresholds", "10"], "not both"),
    (["simulate", "--deals", "10", "--out", "x.csv"], "must end in .parquet"),
    # one rule set at one threshold twice: rows nothing could tell apart
    (["balance", "--variants", "guangxi-81", "guangxi-81", "--hands", "10"], "asked for twice"),
    (["balance", "--thresholds", "15", "15", "--hands", "10"], "asked for twice"),
    (["table", "deal", "--thresholds", "15", "15", "--deals", "10"], "asked for twice"),
    (["table", "opening", "--variants", "liuhu-dao", "liuhu-dao", "--hands", "5"],
     "asked for twice"),
])
def test_cli_refuses_flags_that_would_be_ignored_or_empty(argv, needle, capsys, tmp_path,
                                                          monkeypatch):
    """Zero counts and flags that do not apply are one-line errors (exit 2), not empty or
    silently different runs; nothing is written."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(argv, capsys)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


# --- issue 11: one header line, one number format, help texts ------------------------------

Z95 = 1.959963984540054


def _wilson(k: int, n: int) -> tuple[float, float]:
    """Wilson score interval, closed form (independent of scipy)."""
    p, z2 = k / n, Z95 * Z95
    c = (p + z2 / (2 * n)) / (1 + z2 / n)
    h = Z95 * (p * (1 - p) / n + z2 / (4 * n * n)) ** 0.5 / (1 + z2 / n)
    return c - h, c + h


def _row(out: str, first: str) -> list[str]:
    line = next(ln for ln in out.splitlines() if re.match(rf"\|\s*{re.escape(first)}\s*\|", ln))
    return [c.strip() for c in line.strip("|").split("|")]


def test_simulate_prints_rates_per_10000_with_interval_digits(tmp_path, capsys):
    path = tmp_path / "s.parquet"
    code, out, err = run(["simulate", "--deals", "20000", "--seed", "5", "--chunk-size", "4096",
                          "--out", str(path)], capsys)
    assert code == 0, err
    first = out.splitlines()[0]
    assert first.startswith("guangxi-81 (rules 2bd4db2c7ba96a7d), threshold 15, seed 5, "
                            "20,000 deals, chunk 4,096, ")
    k = pl.read_parquet(path).filter(metric="tianhu")["count"][0]
    lo, hi = _wilson(k, 20_000)
    width = (hi - lo) * 10_000
    d = max(0, 1 - math.floor(math.log10(width)))  # the width to 2 significant digits
    want = [f"{k / 20_000 * 10_000:.{d}f}", f"[{lo * 10_000:.{d}f}, {hi * 10_000:.{d}f}]"]
    cells = _row(out, "tianhu")
    assert cells[3:6] == ["per 10,000", *want]
    assert "e-0" not in out  # no exponent notation anywhere
    code, out, _ = run(["simulate", "--deals", "20000", "--seed", "5", "--chunk-size", "4096",
                        "--out", str(path), "--per", "100"], capsys)
    assert code == 0 and _row(out, "tianhu")[3] == "%"


def test_bad_per_is_one_line(capsys, tmp_path):
    assert_one_line_error(*run(["simulate", "--deals", "10", "--per", "7", "--out",
                                str(tmp_path / "p.parquet")], capsys), "--per", "power of ten")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("argv,head", [
    (["balance", "--hands", "200", "--seed", "3"],
     ("guangxi-81 (rules 2bd4db2c7ba96a7d), threshold 15, seed 3, 200 hands, chunk 4,096, "
      "policy greedy, ")),
    (["match", "--matches", "4", "--seed", "3"],
     "guangxi-81 (rules 2bd4db2c7ba96a7d), threshold 15, seed 3, 4 matches, policy greedy, "),
    (["table", "deal", "--deals", "2000", "--seed", "3"],
     "guangxi-81 (rules 2bd4db2c7ba96a7d), threshold 15, seed 3, 2,000 deals, chunk 65,536, "),
    (["table", "opening", "--hands", "100", "--seed", "3"],
     "guangxi-81 (rules 2bd4db2c7ba96a7d), threshold 15, seed 3, 100 hands, chunk 4,096, "),
    (["table", "tenpai", "--hands", "100", "--seed", "3"],
     "guangxi-81 (rules 2bd4db2c7ba96a7d), threshold 15, seed 3, 100 hands, "),
    (["table", "convergence", "--deals", "2000", "--points", "2", "--seed", "3"],
     "guangxi-81 (rules 2bd4db2c7ba96a7d), threshold 15, seed 3, 2,000 deals, "),
    (["table", "waits", EX1[:-1], "--variant", "hunan-hengyang", "--sims", "100"],
     "hunan-hengyang (rules "),
    (["hand", EX1, "--variant", "changsha-paohuzi"], "changsha-paohuzi (rules "),
    (["play", "--seed", "3", "--deal", "2"],
     ("guangxi-81 (rules 2bd4db2c7ba96a7d), threshold 15, seed 3, policy greedy, deal 2, "
      "dealer seat 0 (庄), then seats 1, 2")),
    (["exact", "--variant", "liuhu-dao"], "liuhu-dao (rules "),
])
def test_every_command_starts_with_its_header(argv, head, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(argv, capsys)
    assert code == 0, err
    assert out.splitlines()[0].startswith(head), out.splitlines()[0]


def test_table_waits_explains_its_columns(capsys):
    code, out, _ = run(["table", "waits", "一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十",
                        "--variant", "changsha-paohuzi", "--sims", "2000", "--play", "50"],
                       capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("changsha-paohuzi (rules ") and "threshold 10" in lines[0]
    legend = "\n".join(ln for ln in lines if not ln.startswith("|"))
    for word in ("p_exact (%)", "p_sim (%)", "p_play (%)", "any: "):
        assert word in legend, word
    # p_exact of 二 (RULES.md example in zipai_sim.tables: 0.6885) in %, 3 significant digits
    head = _row(out, "card")
    assert _row(out, "二")[head.index("p_exact")] == "68.8"
    # 长沙 has no win on a discard (RULES.md §8): no discard columns
    assert not any(c.endswith("_discard") for c in head)


@pytest.mark.parametrize("text,size", [("一", 1), (EX1 + " 一二", 23)])
def test_hand_of_wrong_size_is_one_message_and_no_analysis(text, size, capsys):
    code, out, err = run(["hand", text], capsys)
    line = assert_one_line_error(code, out, err, f"holds {size} card", "2..22")
    assert out == "" and "1..21 with --incoming" in line


def test_hand_of_22_cards_prints_no_contradiction(capsys):
    code, out, err = run(["hand", EX1 + " 一"], capsys)
    assert code == 0 and err == ""
    assert "completing cards (听): none (a hand of 22 cards takes no further card)" in out


@pytest.mark.parametrize("argv,needle", [
    (["match", "--first-dealer", "7", "--matches", "1"], "--first-dealer must be a player 0..2"),
    (["match", "--max-hands", "2", "--matches", "1"], "--max-hands must be ≥ 8"),
    (["simulate", "--deals", "-5"], "--deals must be ≥ 1, got -5"),
    (["simulate", "--deals", "0"], "--deals must be ≥ 1, got 0"),
    (["table", "convergence", "--metric", "nope", "--deals", "10"], "tianhu, tianhu_complete"),
])
def test_errors_name_flags_and_valid_values(argv, needle, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert_one_line_error(*run(argv, capsys), needle)
    assert list(tmp_path.iterdir()) == []


def _parsers(parser, path=("zipai-sim",)):
    import argparse

    yield path, parser
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            for name, sub in a.choices.items():
                yield from _parsers(sub, path + (name,))


def test_every_option_has_help_a_flag_like_metavar_and_its_default():
    import argparse

    from zipai_sim.cli.app import build_parser

    seen = 0
    for path, parser in _parsers(build_parser()):
        for a in parser._actions:
            if not a.option_strings or isinstance(a, argparse._HelpAction):
                continue
            seen += 1
            where = f"{' '.join(path)} {a.option_strings[0]}"
            assert a.help and a.help != argparse.SUPPRESS, f"{where}: no help"
            if a.nargs != 0:  # takes a value: its metavar reads like the flag's value
                mv = a.metavar if a.metavar is not None else (
                    "{" + ",".join(a.choices) + "}" if a.choices else a.dest.upper())
                ok = re.fullmatch(r"[A-Z][A-Z0-9]*([=_][A-Z0-9]+)*", mv) or \
                    re.fullmatch(r"\{[\w,-]+\}", mv)
                assert ok, f"{where}: metavar {mv!r}"
            if a.default not in (None, False) and a.nargs != 0:
                assert "default" in a.help, f"{where}: default {a.default!r} not stated"
    assert seen > 60


def test_plot_metric_error_lists_the_metrics(tmp_path, capsys):
    path = tmp_path / "d.parquet"
    code, _, err = run(["table", "deal", "--deals", "500", "--out", str(path)], capsys)
    assert code == 0, err
    assert_one_line_error(*run(["plot", "tianhu-threshold", "--from", str(path), "--out",
                                str(tmp_path / "x.png"), "--metric", "nope"], capsys),
                          "--metric 'nope'", "tianhu, tianhu_complete")
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("argv,dest,want", [
    (["plot", "tianhu-threshold", "--from", "a.parquet", "--from", "b.parquet", "--out",
      "x.png"], "from_", [Path("a.parquet"), Path("b.parquet")]),
    (["table", "deal", "--variants", "guangxi-81", "--variants", "liuhu-dao"], "variants",
     ["guangxi-81", "liuhu-dao"]),
    (["table", "deal", "--thresholds", "10", "--thresholds", "20", "30"], "thresholds",
     [10, 20, 30]),
    (["exact", "--thresholds", "10", "--thresholds", "20"], "thresholds", [10, 20]),
    (["balance", "--variants", "liuhu-dao"], "variants", ["liuhu-dao"]),  # replaces the default
    (["table", "deal"], "variants", ["guangxi-81"]),
    (["table", "opening", "--by", "seat", "--by", "ti"], "by", ["seat", "ti"]),
    (["arena", "--challenger", "greedy", "--baseline", "random", "--variant", "guangxi-81",
      "--variants", "liuhu-dao"], "variant", ["guangxi-81", "liuhu-dao"]),
])
def test_a_repeated_list_flag_extends_the_list(argv, dest, want):
    """``--from a --from b`` is ``--from a b``: argparse's plain list flags kept only the last
    use, silently dropping the files, variants or thresholds before it."""
    from zipai_sim.cli.app import build_parser

    assert getattr(build_parser().parse_args(argv), dest) == want
