"""A real headless Chromium for page tests (Selenium): the ``browser`` fixture and
``step_through(driver, path, data)``, which walks an analysis page (``zipai_sim.analysis.page``)
step by step and checks it against the data it was rendered from.

Chromium and ChromeDriver are the Debian packages (``/usr/bin/chromium``,
``/usr/bin/chromedriver``; ``.ci/run`` installs them). Without them the tests that use the
fixture are skipped, unless ``ZIPAI_BROWSER_REQUIRED=1``: then they fail.

Use it from a test module (tests/ is on ``sys.path`` as for ``rules_checker``)::

    from browser import browser, step_through  # noqa: F401  (browser: the fixture)

    def test_page(browser, tmp_path):
        step_through(browser, write_page(data, tmp_path / "a.html"), data)
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
REQUIRED = os.environ.get("ZIPAI_BROWSER_REQUIRED") == "1"

_CARD = re.compile(r"""<g\b[^>]*?\bclass\s*=\s*(["'])([^"']*)\1""")

# one round trip: everything step_through compares at one step
_STATE_JS = """
const q = (s) => document.querySelector(s);
const idx = q('#step-index');
return {
  ready: document.body.getAttribute('data-ready'),
  index: idx.textContent.trim(), dataStep: idx.getAttribute('data-step'),
  move: q('#move').textContent,
  svgs: document.querySelectorAll('#table svg').length,
  cards: document.querySelectorAll('#table g.card').length,
  rows: Array.from(document.querySelectorAll('#values tr[data-answer]')).map((tr) => [
    tr.getAttribute('data-answer'), tr.getAttribute('data-value'),
    tr.classList.contains('played'), tr.classList.contains('best')]),
  slider: q('#slider').value, sliderMax: q('#slider').max,
  prevDisabled: q('#prev').disabled, nextDisabled: q('#next').disabled,
  firstDisabled: q('#first').disabled, lastDisabled: q('#last').disabled,
  resources: performance.getEntriesByType('resource').map((e) => e.name),
};
"""


def _find(path: str, name: str) -> str | None:
    return path if os.path.exists(path) else shutil.which(name)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium (Selenium WebDriver) with the browser console log on; skips (or,
    with ``ZIPAI_BROWSER_REQUIRED=1``, fails) when Selenium, Chromium or ChromeDriver is
    missing."""
    chromium = _find(CHROMIUM, "chromium")
    driver_bin = _find(CHROMEDRIVER, "chromedriver")
    missing = [n for n, p in (("chromium", chromium), ("chromedriver", driver_bin)) if not p]
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing.append("selenium (uv sync --group dev)")
    if missing:
        why = (f"browser tests need {', '.join(missing)} (Debian: apt-get install chromium "
               f"chromium-driver)")
        if REQUIRED:
            pytest.fail(f"ZIPAI_BROWSER_REQUIRED=1 but {why}")
        pytest.skip(why)
    with tempfile.TemporaryDirectory(prefix="zipai-chromium-") as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--window-size=1280,1000",
                    f"--user-data-dir={profile}"):
            options.add_argument(arg)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(options=options, service=Service(driver_bin))
        try:
            yield driver
        finally:
            driver.quit()


def card_count(svg: str) -> int:
    """The number of ``<g class="… card …">`` elements in SVG markup."""
    return sum("card" in m.group(2).split() for m in _CARD.finditer(svg))


def page_state(driver: Any) -> dict:
    """What the page shows now (step index, move text, table, answer rows, navigation)."""
    return driver.execute_script(_STATE_JS)


def check_step(driver: Any, data: dict, i: int) -> None:
    """The page shows step ``i`` of ``data``: index, move text, one svg with as many
    ``g.card`` as the step's svg, the slider and buttons in place, and the decision's answers
    (best value first; ``data-value`` parses back to the value exactly; ``played`` / ``best``
    classes as in the rows)."""
    step, n = data["steps"][i], len(data["steps"])
    st = page_state(driver)
    where = f"step {i} ({step['move']!r})"
    assert st["ready"] == "1", f"{where}: the page script did not finish"
    assert st["index"] == str(i) and st["dataStep"] == str(i), (where, st["index"])
    assert st["move"] == step["move"], where
    assert st["svgs"] >= 1, f"{where}: no svg in #table"
    assert st["cards"] == card_count(step["svg"]), (where, st["cards"])
    assert st["slider"] == str(i) and st["sliderMax"] == str(n - 1), where
    assert st["prevDisabled"] == st["firstDisabled"] == (i == 0), where
    assert st["nextDisabled"] == st["lastDisabled"] == (i == n - 1), where
    assert st["resources"] == [], f"{where}: the page loaded {st['resources']}"
    d = step["decision"]
    want = [] if d is None else sorted(d["rows"], key=lambda r: -r["value"])
    got = st["rows"]
    assert [r[0] for r in got] == [r["answer"] for r in want], where
    for (answer, value, played, best), row in zip(got, want):
        assert float(value) == float(row["value"]), (where, answer, value, row["value"])
        assert (played, best) == (bool(row["played"]), bool(row["best"])), (where, answer)


def _press(driver: Any, key: str) -> None:
    from selenium.webdriver.common.by import By

    driver.find_element(By.TAG_NAME, "body").send_keys(key)


def _console_errors(driver: Any) -> list[dict]:
    return [e for e in driver.get_log("browser")
            if e.get("level") == "SEVERE" or "Error" in str(e.get("message", ""))]


def step_through(driver: Any, path: str | os.PathLike[str], data: dict) -> str:
    """Open the analysis page at ``path`` (``file://``) in ``driver`` and check it against
    ``data`` (the dict it was rendered from): the title and the initial state (step 0), then
    every step reached with #next, the keyboard (Home, →, End, ←), #prev / #first / #last, the
    slider and a click on a curve point; finally the console holds no SEVERE entry or JS error.
    Raises AssertionError at the first difference; returns the step index the page shows last
    (the curve point clicked, else the middle step), as text."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    n = len(data["steps"])
    driver.get_log("browser")  # drop what earlier pages logged
    driver.get(Path(path).resolve().as_uri())
    assert driver.title == data["title"]
    assert driver.find_element(By.ID, "header-line").text == " ".join(data["header"].split())
    check_step(driver, data, 0)
    nxt = driver.find_element(By.ID, "next")
    for i in range(1, n):
        nxt.click()
        check_step(driver, data, i)
    nxt.click()  # disabled at the end: stays
    check_step(driver, data, n - 1)
    _press(driver, Keys.HOME)
    check_step(driver, data, 0)
    _press(driver, Keys.ARROW_RIGHT)
    check_step(driver, data, min(1, n - 1))
    _press(driver, Keys.END)
    check_step(driver, data, n - 1)
    _press(driver, Keys.ARROW_LEFT)
    check_step(driver, data, max(n - 2, 0))
    driver.find_element(By.ID, "prev").click()
    check_step(driver, data, max(n - 3, 0))
    driver.find_element(By.ID, "first").click()
    check_step(driver, data, 0)
    driver.find_element(By.ID, "last").click()
    check_step(driver, data, n - 1)
    driver.execute_script("const s = document.getElementById('slider');"
                          "s.value = arguments[0]; s.dispatchEvent(new Event('input'));", n // 2)
    check_step(driver, data, n // 2)
    points = driver.find_elements(By.CSS_SELECTOR, "#curve g.point")
    assert len(points) == len(data["curve"])
    if points:
        target = int(points[0].get_attribute("data-step"))
        points[0].click()
        check_step(driver, data, target)
    errors = _console_errors(driver)
    assert errors == [], errors
    return page_state(driver)["index"]


_SMALL = "一二三四五六七八九十"
_BIG = "壹贰叁肆伍陆柒捌玖拾"


def cards_svg(kinds: list[int], note: str = "") -> str:
    """A small hand-drawn table picture: one ``<g class="card" data-kind=…>`` per kind (0..19)
    in a row, and a ``note`` line under it."""
    w = max(1, len(kinds)) * 34 + 16
    cards = "".join(
        f'<g class="card" data-kind="{k}" transform="translate({8 + 34 * j},8)">'
        f'<rect width="30" height="44" rx="4" fill="#fffaf0" stroke="#8a7a5c"/>'
        f'<text x="15" y="29" text-anchor="middle" font-size="18" '
        f'fill="{"#b03a2e" if k in (1, 6, 9, 11, 16, 19) else "#222"}">'
        f'{(_SMALL + _BIG)[k]}</text></g>' for j, k in enumerate(kinds))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="84" '
            f'viewBox="0 0 {w} 84">{cards}<text x="8" y="74" font-size="12" fill="#555">'
            f'{note}</text></svg>')


def sample_data(lang: str = "zh") -> dict:
    """A synthetic analysis (6 steps, 3 decisions of 2–3 answers, two seats) for page tests;
    texts hold ``</script>``, ``<!--``, quotes and ``&`` to try the page's escaping."""
    zh = lang == "zh"
    hand = [0, 1, 2, 11, 12, 13, 5, 5, 9, 19]

    def row(answer, value, lo, hi, loss, win, played=False, best=False):
        return {"answer": answer, "value": value, "lo": lo, "hi": hi, "loss": loss, "win": win,
                "played": played, "best": best}

    steps = [
        {"move": "发牌" if zh else "deal", "svg": cards_svg(hand, "seat 0"), "decision": None},
        {"move": "1: 打出 三" if zh else "1: discards 三", "svg": cards_svg(hand[:2] + hand[3:]),
         "decision": {"seat": 0, "question": "打牌" if zh else "discard", "played": "三",
                      "best": "十",
                      "rows": [row("三", -0.4123456789012345, -1.1, 0.3, 0.5123456789, 0.21,
                                   played=True),
                               row("十", 0.1, -0.55, 0.75, 0.0, 0.305, best=True),
                               row("拾", -1.25, -2.0, -0.5, 1.35, 0.125)]}},
        {"move": '2: </script><script>alert("x")</script> <!-- & 碰?', "svg":
         '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><g class="card" '
         'data-kind="2"><rect width="10" height="20"/></g></svg>',
         "decision": {"seat": 1, "question": "碰 三", "played": "pass", "best": "碰",
                      "rows": [row("碰", 2.5, 1.0, 4.0, 0.0, 0.6, best=True),
                               row("pass", 1 / 3, -0.5, 1.2, 2.5 - 1 / 3, 0.45, played=True)]}},
        {"move": "3: draws 七", "svg": '<svg xmlns="http://www.w3.org/2000/svg" width="40" '
         'height="20"><rect width="40" height="20" fill="#ddd"/></svg>', "decision": None},
        {"move": "4: 吃 七 \"x\" & 'y'", "svg": cards_svg([6, 7, 8, 16]),
         "decision": {"seat": 0, "question": "吃 七", "played": "吃 <七八九>",
                      "best": "吃 <七八九>",
                      "rows": [row("吃 <七八九>", 3.0, 2.0, 4.0, 0.0, 0.7, played=True,
                                   best=True),
                               row("过 & \"pass\"", 1.0, 0.0, 2.0, 2.0, 0.5)]}},
        {"move": "0: 胡 on 七" if zh else "0: wins on 七", "svg": cards_svg([6, 6, 6]),
         "decision": None},
    ]
    curve = [{"step": 1, "seat": 0, "win": 0.21, "lo": 0.17, "hi": 0.25},
             {"step": 2, "seat": 1, "win": 0.45, "lo": 0.4, "hi": 0.5},
             {"step": 4, "seat": 0, "win": 0.7, "lo": 0.64, "hi": 0.76}]
    title = "手牌分析 · 种子 7" if zh else "hand analysis · seed 7"
    return {"title": title, "lang": lang, "unit": "舵" if zh else "points", "seats": [0, 1],
            "header": "guangxi-81 · seed 7 · 2000 worlds · seats 0, 1 · </script>", "steps": steps,
            "curve": curve}
