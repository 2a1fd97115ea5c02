"""``zipai-sim analyze`` (issue 40) on records of every variant, its Parquet file, and its page
stepped through in a real headless Chromium (``tests/browser.py``): the moves shown are the
record's, the values the Parquet file's, the stock the record's count."""

from __future__ import annotations

import json
import re

import polars as pl
import pytest
from browser import browser, step_through  # noqa: F401  (browser: the fixture)
from test_analysis import FEED, G81, VARIANTS, record

from zipai_sim.analysis.steps import move_text
from zipai_sim.cli.app import main
from zipai_sim.records.file import write_records
from zipai_sim.records.replay import replay
from zipai_sim.runs.io import read_metadata


def _analyze(tmp_path, rec, *extra: str) -> tuple[int, pl.DataFrame]:
    src = tmp_path / "hand.jsonl"
    write_records(rec, src)
    out = tmp_path / "a.parquet"
    code = main(["analyze", str(src), "--worlds", "4", "--out", str(out), *extra])
    return code, pl.read_parquet(out)


@pytest.mark.parametrize("key", VARIANTS)
def test_every_variant(tmp_path, capsys, key):
    """One row per legal answer, exactly one played and one best per decision, the best's loss
    0, every value inside its interval, chances in [0, 1]."""
    code, t = _analyze(tmp_path, record(key))
    assert code == 0
    assert capsys.readouterr().out.splitlines()[0].startswith(key)
    assert t.height > 0
    per = t.group_by("decision").agg(pl.col("played").sum(), pl.col("best").sum())
    assert per["played"].to_list() == [1] * per.height and per["best"].to_list() == [1] * per.height
    assert (t.filter(pl.col("best"))["loss"] == 0).all()
    assert ((t["value_lo"] <= t["value"]) & (t["value"] <= t["value_hi"])).all()
    assert ((t["win_lo"] <= t["win"]) & (t["win"] <= t["win_hi"])).all()
    assert t["win"].is_between(0, 1).all()
    # a 胡 taken wins in every world: nobody before it in turn won on the card in the real
    # hand, so nobody does in a world either (§5.2 order of claims)
    assert (t.filter((pl.col("kind") == "hu") & pl.col("answer").str.starts_with("胡"))["win"]
            == 1).all()
    meta = read_metadata(tmp_path / "a.parquet")
    assert meta["worlds"] == "4" and meta["seed"] == "20261129" and meta["header"].startswith(key)


@pytest.mark.parametrize("argv,needle", [
    (["analyze"], "one of them"),
    (["analyze", "--position", FEED, "--worlds", "1"], "worlds must be"),
    (["analyze", "--position", FEED, "--policy", "teacher"], "invalid choice"),
    (["analyze", "--position", FEED, "--out", "x.parquet"], "--out applies"),
    (["analyze", "--position", "seat: 0\nhand: 一一一一一"], "4 of each"),
])
def test_errors_are_one_line(argv, needle, capsys):
    try:
        code = main(argv)
    except SystemExit as e:  # argparse's own refusals
        code = e.code
    err = capsys.readouterr().err
    assert code == 2 and needle in err, err


def test_position_from_the_command_line(capsys):
    assert main(["analyze", "--position", FEED, "--variant", G81, "--worlds", "8"]) == 0
    out = capsys.readouterr().out
    assert "best" in out and "玖" in out


def test_page_in_a_real_browser(browser, tmp_path):  # noqa: F811
    rec = record(G81, 7, 2, "study")
    page = tmp_path / "a.html"
    code, t = _analyze(tmp_path, rec, "--seat", "0", "--html", str(page))
    assert code == 0
    m = re.search(r'<script type="application/json" id="data">(.*?)</script>',
                  page.read_text(encoding="utf-8"), re.S)
    data = json.loads(m.group(1))
    step_through(browser, page, data)
    # the moves are the record's (its replayed trace, in the page's Chinese words), in order
    moves = [s["move"] for s in data["steps"][1:] if s["decision"] is None]
    log = [move_text(x, "zh") for x in replay(rec).log]
    assert moves == log[1:1 + len(moves)] and "打" in moves[0]
    # every decision's answers are the Parquet file's rows, value for value
    decisions = [s["decision"] for s in data["steps"] if s["decision"] is not None]
    assert len(decisions) == t["decision"].n_unique()
    for k, d in enumerate(decisions):
        rows = t.filter(pl.col("decision") == k)
        assert [r["answer"] for r in d["rows"]] == rows["answer"].to_list()
        assert [r["value"] for r in d["rows"]] == rows["value"].to_list()
    # the stock drawn on each move step is the record's count: 80 less the dealt cards, the
    # draws and extra cards so far
    from selenium.webdriver.common.by import By

    h = rec.header
    dealt = sum(len(x) for x in rec.events[1]["hands"])
    taken = [0]
    for e in rec.events[2:]:
        if e["event"] in ("huang", "end", "settlement"):
            break
        taken.append(taken[-1] + (e["event"] in ("draw", "extra")))
    nxt = browser.find_element(By.ID, "next")
    browser.find_element(By.ID, "first").click()
    m = 0
    for i, s in enumerate(data["steps"]):
        if i:
            nxt.click()
        if s["decision"] is None and m < len(taken):
            shown = browser.find_element(By.CSS_SELECTOR, "#table g.stock")
            assert int(shown.get_attribute("data-count")) == 80 - dealt - taken[m], (i, h)
            m += 1


def test_ctrl_c_keeps_the_finished_decisions(tmp_path, monkeypatch, capsys):
    """Ctrl-C during the second batch of questions: the first batch's decisions are printed and
    written beside the requested name (``.partial.parquet``), the header says PARTIAL, exit 130;
    the finished decisions are the full run's, value for value."""
    import zipai_sim.analysis.hand as H

    rec = record(G81)
    src = tmp_path / "hand.jsonl"
    write_records(rec, src)
    whole = H.analyze(rec, worlds=4, progress=False)
    assert len(whole) > H.BATCH
    real, calls = H.question_values, []

    def stop(*args, **kw):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kw)

    monkeypatch.setattr(H, "question_values", stop)
    out = tmp_path / "a.parquet"
    assert main(["analyze", str(src), "--worlds", "4", "--out", str(out)]) == 130
    assert "PARTIAL" in capsys.readouterr().out.splitlines()[0]
    assert not out.exists()
    part = pl.read_parquet(tmp_path / "a.partial.parquet")
    assert part["decision"].n_unique() == H.BATCH
    assert part.equals(whole.table().filter(pl.col("decision") < H.BATCH))


def test_a_win_on_a_discard_wins_in_every_world(tmp_path):
    """八一, seed 11 deal 43: seat 2 may 胡 on seat 1's discard. In no world does the discarder
    hold a 坎 of the card it discarded (§5.7), so the discard is always replayed and the 胡
    answer wins in every world."""
    code, t = _analyze(tmp_path, record(G81, 11, 43), "--seat", "2", "--worlds", "64")
    assert code == 0
    hu = t.filter((pl.col("kind") == "hu") & pl.col("answer").str.starts_with("胡"))
    assert hu.height >= 1 and (hu["win"] == 1).all()
