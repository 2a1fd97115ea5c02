"""The analysis page's HTML without a browser (``zipai_sim.analysis.page``): self-contained (no
URL but XML namespaces), its data JSON read back intact, no way out of the script block for a
text, malformed data refused with the key named. The browser half: tests/test_page_browser.py."""

from __future__ import annotations

import copy
import json
import re

import pytest
from browser import card_count, sample_data

from zipai_sim.analysis.page import render_page, script_json, write_page

NAMESPACES = {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xhtml",
              "http://www.w3.org/1999/xlink"}


def _data_block(page: str) -> str:
    m = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    assert m
    return m.group(1)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_page_is_self_contained(lang):
    page = render_page(sample_data(lang))
    assert page.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in page
    urls = set(re.findall(r"""(?i)\b(?:https?|ftp|wss?)://[^\s"'<>)\\]*""", page))
    assert urls <= NAMESPACES, urls - NAMESPACES
    assert not re.search(r"""(?i)<(?:link|img|iframe|object|embed)\b|src\s*=|@import|url\(""",
                         page)
    script = page.rsplit("<script>", 1)[1]
    assert not re.search(r"\beval\s*\(|\bfetch\s*\(|XMLHttpRequest|new\s+Function", script)


def test_data_round_trips():
    data = sample_data("zh")
    assert json.loads(_data_block(render_page(data))) == data
    odd = {"x": "</script><!-- \u2028 & <\\/"}
    assert "<" not in script_json(odd) and json.loads(script_json(odd)) == odd


def test_a_text_cannot_close_the_script():
    data = sample_data("en")
    data["steps"][0]["move"] = "</script><script>alert(1)</script></SCRIPT >"
    data["title"] = "<b>t</b> </script>"
    page = render_page(data)
    assert page.count("<script") == 3 and page.lower().count("</script") == 3
    assert "<b>t</b>" not in page and "&lt;b&gt;t&lt;/b&gt;" in page
    assert json.loads(_data_block(page))["steps"][0]["move"] == data["steps"][0]["move"]


def test_card_count_of_an_svg():
    svg = ('<svg><g class="card" data-kind="2"/><g class="x card y"></g><g class="cards"/>'
           "<g class='card'/><rect class=\"card\"/></svg>")
    assert card_count(svg) == 3


@pytest.mark.parametrize("path, key", [
    ((), "title"), ((), "steps"), ((), "curve"), (("steps", 1), "decision"),
    (("steps", 2), "svg"), (("steps", 1, "decision"), "rows"),
    (("steps", 1, "decision", "rows", 0), "loss"), (("curve", 2), "hi"),
])
def test_missing_keys_raise_value_error(path, key):
    data = copy.deepcopy(sample_data("zh"))
    node = data
    for p in path:
        node = node[p]
    del node[key]
    with pytest.raises(ValueError, match=re.escape(repr(key))):
        render_page(data)


@pytest.mark.parametrize("change, match", [
    (lambda d: d.update(lang="fr"), "lang"),
    (lambda d: d.update(steps=[]), "at least one step"),
    (lambda d: d["steps"][1]["decision"]["rows"][0].update(value=float("nan")), "value"),
    (lambda d: d["steps"][1]["decision"]["rows"][0].update(played="yes"), "played"),
    (lambda d: d["curve"][0].update(step=99), "step"),
    (lambda d: d["steps"].__setitem__(0, "deal"), r"steps\[0\]"),
])
def test_malformed_data_raise_value_error(change, match):
    data = copy.deepcopy(sample_data("en"))
    change(data)
    with pytest.raises(ValueError, match=match):
        render_page(data)


def test_write_page(tmp_path):
    data = sample_data("en")
    out = write_page(data, tmp_path / "p.html")
    assert out.read_text(encoding="utf-8") == render_page(data)


def test_numpy_numbers_are_accepted():
    np = pytest.importorskip("numpy")
    data = sample_data("en")
    data["seats"] = [np.int64(0), np.int64(1)]
    data["curve"][0]["win"] = np.float64(0.25)
    data["curve"][0]["step"] = np.int32(1)
    assert json.loads(_data_block(render_page(data)))["curve"][0] == {
        "step": 1, "seat": 0, "win": 0.25, "lo": 0.17, "hi": 0.25}
