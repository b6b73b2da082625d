"""The rules reference site in real headless Chromium (Debian's chromium and chromium-driver).

On the site of the project's corpus: search «регенирация», «турбо ускорение» and the other
queries of ``corpus.expected.json`` through the search box, check the first hit, follow a
cross-reference and land on its target; on the mini KB's site: run no script of the data.
Skipped only when chromium or chromedriver is not installed (setup.sh installs both).
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from site_html import (
    CORPUS_EXPECTED,
    EXPECTED,
    MINI_KB,
    Site,
    build_into,
    corpus_folder,
    kb_of,
    right_first,
)

from kb.store import load

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return build_into(load(MINI_KB), tmp_path_factory.mktemp("mini"))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return build_into(kb_of(corpus_folder()), tmp_path_factory.mktemp("corpus"))


@contextmanager
def _serve(root: Path) -> Iterator[str]:
    handler = partial(_QuietHandler, directory=str(root))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def served(corpus: Site) -> Iterator[str]:
    """The corpus site over HTTP."""
    with _serve(corpus.root) as url:
        yield url


@pytest.fixture(scope="module")
def served_mini(mini: Site) -> Iterator[str]:
    with _serve(mini.root) as url:
        yield url


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (stdlib name)
        pass


def _chromium() -> tuple[str, str] | None:
    """Debian's chromium and chromedriver, else any on PATH; None when either is missing."""
    browser = next((str(p) for p in (CHROMIUM,) if p.exists()), None) or shutil.which(
        "chromium"
    ) or shutil.which("chromium-browser")
    driver = str(CHROMEDRIVER) if CHROMEDRIVER.exists() else shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    found = _chromium()
    if found is None:
        pytest.skip("needs Debian's chromium and chromium-driver (/usr/bin/chromium, "
                    "/usr/bin/chromedriver), installed by setup.sh: "
                    "apt-get install chromium chromium-driver")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = found[0]
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run",
                 f"--user-data-dir={tmp_path_factory.mktemp('chromium')}"):
        options.add_argument(flag)
    # a browser that is installed but does not start is a failure, not a skip
    driver = webdriver.Chrome(service=Service(found[1]), options=options)
    driver.set_page_load_timeout(30)
    driver.set_window_size(1280, 1000)
    try:
        yield driver
    finally:
        driver.quit()


def _first_hit(driver: Any, served: str, query: str) -> tuple[str, str]:
    """Type ``query`` in the search box, press Enter; the first of our hits on search.html."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as ready
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(served + "index.html")
    box = driver.find_element(By.CSS_SELECTOR, "form input[name='q']")
    box.send_keys(query)
    WebDriverWait(driver, 10).until(
        ready.visibility_of_element_located((By.CSS_SELECTOR, "ul.rulekb-suggest li a"))
    )
    box.send_keys(Keys.ENTER)
    first = WebDriverWait(driver, 10).until(
        ready.presence_of_element_located((By.CSS_SELECTOR, "#rulekb-hits li a"))
    )
    # our hits stand above Sphinx's own results
    order = driver.execute_script(
        "const a = document.getElementById('rulekb-hits'), "
        "b = document.getElementById('search-results');"
        "return !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);"
    )
    assert order is True
    return first.text, first.get_attribute("href") or ""


@pytest.mark.parametrize("case", CORPUS_EXPECTED["search"], ids=lambda c: c["query"])
def test_browser_search_finds_the_rule_first(
    browser: Any, served: str, corpus: Site, case: dict[str, str]
) -> None:
    text, href = _first_hit(browser, served, case["query"])
    first = next((e for e in corpus.index["entries"] if served + e["url"] == href), None)
    assert first is not None, href
    assert text == first["title"]
    assert right_first(corpus, case, first["id"]), first["id"]


def test_browser_follows_a_reference_to_its_target(
    browser: Any, served: str, corpus: Site
) -> None:
    from selenium.webdriver.common.by import By

    case = CORPUS_EXPECTED["link"]
    source = corpus.entries[case["in"]]["url"]
    target = corpus.entries[case["target"]]["url"]
    browser.get(served + source)
    section = browser.find_element(By.ID, source.partition("#")[2])
    in_text = section.find_elements(
        By.XPATH, f".//p[contains(@class, 'rulekb-text')]//a[normalize-space() = '{case['text']}']"
    )
    assert len(in_text) == 1
    in_text[0].click()
    assert browser.current_url == served + target
    landed = browser.find_element(By.ID, target.partition("#")[2])
    assert landed.find_element(By.CSS_SELECTOR, "h1, h2, h3").text.startswith(
        corpus.entries[case["target"]]["title"]
    )
    # the target is scrolled into view
    assert browser.execute_script("return arguments[0].getBoundingClientRect().top", landed) < 200


def test_browser_runs_no_script_from_the_data(
    browser: Any, served_mini: str, mini: Site
) -> None:
    from selenium.common.exceptions import NoAlertPresentException

    browser.get(served_mini + mini.entries[EXPECTED["unsafe_node"]]["url"])
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text  # noqa: B018 (reading it is the check)
    assert "<script>alert(1)</script>" in browser.page_source.replace("&lt;", "<").replace(
        "&gt;", ">"
    )
