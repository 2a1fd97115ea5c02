"""The analysis page (``zipai_sim.analysis.page``) in a real headless Chromium: every step shown
as in its data, the navigation (buttons, keys, slider, curve), no network, no console error.

Skipped without Chromium/ChromeDriver unless ``ZIPAI_BROWSER_REQUIRED=1`` (CI sets it).
"""

from __future__ import annotations

import pytest
from browser import browser, sample_data, step_through  # noqa: F401  (browser: the fixture)

from zipai_sim.analysis.page import write_page


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_page_steps_through_in_chromium(browser, tmp_path, lang):  # noqa: F811
    data = sample_data(lang)
    last = step_through(browser, write_page(data, tmp_path / f"hand-{lang}.html"), data)
    # the sample's first curve point is its first decision, step 1 (tests/browser.py)
    assert last == str(data["curve"][0]["step"]) == "1"


def test_page_labels_follow_the_language(browser, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By

    for lang, prev, best in (("zh", "上一步", "最佳"), ("en", "prev", "best")):
        data = sample_data(lang)
        browser.get(write_page(data, tmp_path / f"l-{lang}.html").resolve().as_uri())
        assert prev in browser.find_element(By.ID, "prev").text
        browser.find_element(By.ID, "next").click()
        best_row = browser.find_element(By.CSS_SELECTOR, "#values tr.best")
        assert best_row.get_attribute("data-answer") == "十"
        assert best in best_row.text
        assert "0.10 [-0.55, 0.75]" in best_row.text and "30.5%" in best_row.text
        assert browser.execute_script("return window.__injected === undefined && "
                                      "document.scripts.length") == 3
