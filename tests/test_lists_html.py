"""``rulekb check-list FOLDER --format html``: one self-contained page for the whole folder.

Statically: the page loads nothing (no script, no external address, a CSP forbidding every
fetch), everything a list writes is escaped, every list and unit is there. In real headless
Chromium (Debian's chromium and chromium-driver, as the site's browser test): the table is
shown first and links to each list, units expand, verdicts show their quotes, the page asks
for no resource and runs no script a list smuggles in.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kb import store
from kb.graph import Graph
from rulekb.cli import cli

DATA = Path(__file__).parent / "data"
EVIL = """\
system: whfb8
name: "<script>alert('армия')</script>"
units:
  - {id: evil, name: "<img src=x onerror=alert(1)>Тролли", type: Пехота Чудовищ, models: 3,
     rules: ["Регенерация (7+)", "</details><script>alert(2)</script>"]}
"""


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory, corpus_graph: Graph) -> Path:
    """The page of a folder: a list with violations, a real roster, a broken file, an evil
    list."""
    folder = tmp_path_factory.mktemp("tournament")
    shutil.copy(DATA / "lists" / "checks" / "rule_parameters.yaml", folder / "a_trolls.yaml")
    shutil.copy(DATA / "rosters" / "real" / "huans-asuryani.ros", folder / "b_huans.ros")
    shutil.copy(DATA / "lists" / "bad" / "broken.json", folder / "c_broken.json")
    (folder / "d_evil.yaml").write_text(EVIL, encoding="utf-8")
    kb_file = folder.parent / "kb.json"
    store.save(corpus_graph.kb, kb_file)
    out = folder.parent / "report.html"
    result = CliRunner().invoke(cli, ["check-list", str(folder), "--format", "html",
                                      "-o", str(out), "--kb", str(kb_file)])
    assert result.exit_code == 1, result.output  # the broken file: the others were checked
    return out


def test_page_is_self_contained_and_escaped(page: Path) -> None:
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert "<script" not in html  # not ours, and not the evil list's
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:|//)""", html)
    assert "Content-Security-Policy" in html and "default-src 'none'" in html
    assert "&lt;script&gt;alert(&#x27;армия&#x27;)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;Тролли" in html
    assert html.count('<section class="list"') == 4
    assert html.count('<details class="unit"') == 3 + 10 + 1  # trolls', Huans' ten, evil
    assert "c_broken.json:4:39: ошибка синтаксиса JSON" in html


# --- in the browser ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from test_site_browser import start_browser

    driver = start_browser(tmp_path_factory)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.mark.browser
def test_page_in_the_browser(browser: Any, page: Path) -> None:
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.common.by import By

    browser.get(page.as_uri())
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text  # noqa: B018 (reading it is the check)
    # nothing fetched: no stylesheet, script, image or font from anywhere
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0
    # the table is shown first although it is written last
    summary = browser.find_element(By.ID, "summary")
    first_list = browser.find_element(By.ID, "list-1")
    top = "return arguments[0].getBoundingClientRect().top"
    assert browser.execute_script(top, summary) < browser.execute_script(top, first_list)
    rows = summary.find_elements(By.CSS_SELECTOR, "tbody tr")
    assert [r.find_element(By.TAG_NAME, "a").text.rsplit("/", 1)[-1] for r in rows] == [
        "a_trolls.yaml", "b_huans.ros", "c_broken.json", "d_evil.yaml"]
    assert rows[0].find_elements(By.CSS_SELECTOR, "td.n")[1].text == "8"  # violations
    assert "не прочитан" in rows[2].text
    # a unit with a violation is open and shows the deciding sentence
    trolls = browser.find_element(By.CSS_SELECTOR, "#list-1 details.unit")
    assert trolls.get_attribute("open") is not None
    assert "А спас бросок за Регенерацию (2+) вообще самый лучший" in trolls.text
    # a clean unit is closed; a click on its summary opens it and shows its verdicts
    huans = browser.find_elements(By.CSS_SELECTOR, "#list-2 details.unit")
    assert len(huans) == 10 and huans[0].get_attribute("open") is None
    quiet = huans[0].find_element(By.CSS_SELECTOR, ".verdict")
    assert not quiet.is_displayed()
    huans[0].find_element(By.TAG_NAME, "summary").click()
    assert huans[0].get_attribute("open") is not None and quiet.is_displayed()
    assert "В ростере: Kill Team List › Dire Avenger Exarch «Eldos the Unyielding Fire»" in \
        huans[0].text
    # a row of the table leads to its list
    rows[3].find_element(By.TAG_NAME, "a").click()
    assert browser.current_url.endswith("#list-4")
    evil = browser.find_element(By.ID, "list-4")
    assert "<script>alert('армия')</script>" in evil.text  # shown as text, never run
    assert 0 <= browser.execute_script(top, evil) < browser.execute_script("return innerHeight")
