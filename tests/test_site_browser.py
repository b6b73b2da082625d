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
    HOSTILE_KB,
    MINI_KB,
    REPO,
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


def start_browser(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Headless Chromium with a 1280×1000 viewport; the test is skipped when it is missing.

    Shared by the browser tests of the site and of the organiser's HTML report.
    """
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
    # a window at least as large as any viewport: pointer events outside it are dropped
    driver.set_window_size(1400, 1200)
    _viewport(driver, (1280, 1000))
    return driver


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    driver = start_browser(tmp_path_factory)
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


# -- a player at the table: a phone (390×844) and a laptop (1280×900) ---------------------------
VIEWPORTS = {"phone": (390, 844), "laptop": (1280, 900)}
SCREENSHOTS = REPO / "build" / "screenshots"
"""Where the run saves its screenshots for review (git-ignored); printed by the test."""


def _viewport(driver: Any, size: tuple[int, int]) -> None:
    """Make the page's viewport exactly ``size``.

    Chromium's device-metrics override sets the layout viewport at once; resizing the window
    and measuring its frame raced with the resize on a loaded machine (a stale inner width
    gave a negative window width).
    """
    width, height = size
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


@pytest.fixture(scope="module", params=sorted(VIEWPORTS))
def viewport(request: pytest.FixtureRequest) -> str:
    """The name of a viewport of VIEWPORTS."""
    name: str = request.param
    return name


@pytest.fixture
def sized(browser: Any, viewport: str) -> Iterator[tuple[Any, str]]:
    """The browser at one viewport, for one test (other tests size it as they need)."""
    _viewport(browser, VIEWPORTS[viewport])
    yield browser, viewport
    _viewport(browser, (1280, 1000))


_MEASURE = """
const box = document.querySelector('form.rulekb-search-form input[name="q"]');
const r = box ? box.getBoundingClientRect() : null;
return {scroll: document.documentElement.scrollWidth, width: document.documentElement.clientWidth,
        height: window.innerHeight,
        box: r ? [r.top, r.bottom, r.width, getComputedStyle(box).visibility] : null};
"""


@pytest.fixture(scope="module")
def measured(
    corpus: Site, served: str, browser: Any, viewport: str
) -> dict[str, dict[str, Any]]:
    """Every page of the corpus site, loaded at one viewport: its widths and search box."""
    _viewport(browser, VIEWPORTS[viewport])
    out = {}
    try:
        for path in corpus.html_files():
            rel = path.relative_to(corpus.root).as_posix()
            browser.get(served + rel)
            out[rel] = browser.execute_script(_MEASURE)
    finally:
        _viewport(browser, (1280, 1000))
    return out


def test_no_page_is_wider_than_the_screen(measured: dict[str, dict[str, Any]]) -> None:
    assert len(measured) > 40
    wide = {page: (m["scroll"], m["width"]) for page, m in measured.items()
            if m["scroll"] > m["width"]}
    assert wide == {}


def test_search_box_is_on_screen_without_scrolling(measured: dict[str, dict[str, Any]]) -> None:
    hidden = {page: m["box"] for page, m in measured.items()
              if m["box"] is None or not (0 <= m["box"][0] and m["box"][1] <= m["height"])
              or m["box"][2] < 150 or m["box"][3] != "visible"}
    assert hidden == {}


def _tip_of(driver: Any, seconds: float = 20) -> str:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ready
    from selenium.webdriver.support.ui import WebDriverWait

    tip = WebDriverWait(driver, seconds).until(
        ready.visibility_of_element_located((By.CSS_SELECTOR, "div.rulekb-tip"))
    )
    return str(tip.text)


def _tip_after(driver: Any, gesture: Any, tries: int = 3) -> str:
    """The tip a gesture (a hover, a tap) shows. A synthetic gesture on a loaded machine is
    sometimes lost before the page sees it (the pointer's move or the touch is dispatched
    while Chromium is still busy with the page), so it is made again while no tip shows: the
    test is of what the page does with a gesture it gets."""
    from selenium.common.exceptions import TimeoutException

    for attempt in range(tries):
        gesture()
        try:
            return _tip_of(driver, 5 if attempt < tries - 1 else 20)
        except TimeoutException:
            if attempt == tries - 1:
                raise
    raise AssertionError("unreachable")


def test_hovering_or_tapping_a_reference_shows_its_first_sentence(
    sized: tuple[Any, str], served: str, corpus: Site
) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    from rulekb.site.layout import SiteLayout
    from rulekb.site.tips import first_sentence, tip

    driver, name = sized
    case = CORPUS_EXPECTED["link"]
    layout = SiteLayout(corpus.kb)
    target = layout.node(case["target"])
    assert target is not None
    expected = tip(layout, target)
    assert expected[2] and expected[2] == first_sentence(expected[2])
    assert " ".join(target.text.split()).find(expected[2].rstrip("…")) >= 0
    source, goal = corpus.entries[case["in"]]["url"], corpus.entries[case["target"]]["url"]
    touch = name == "phone"
    if touch:
        # the pointer the other size's case left over the link must not hover it (a hovered
        # link's tip is the page's already, and a tap on it follows it)
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 0, "y": 0})
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True})
    try:
        # a page of its own: the same address with its #anchor would not load again, and the
        # tip the other size's case left shown would still be the page's
        driver.get("about:blank")
        driver.get(served + source)
        link = _link_in_text(driver, source, case["text"])
        if not touch:
            shown = _tip_after(driver, lambda: ActionChains(driver).move_by_offset(0, 0)
                               .move_to_element(link).perform())
            assert driver.current_url.endswith(source)
        else:
            # the first tap shows the tip, with a link to open the rule; the page stays
            shown = _tip_after(driver, lambda: _tap(driver, link))
            assert driver.current_url.endswith(source)
            opener = driver.find_element(By.CSS_SELECTOR, "div.rulekb-tip a.rulekb-tip-open")
            assert (opener.get_attribute("href") or "").endswith(goal)
        rect = driver.execute_script(
            "const r = document.querySelector('div.rulekb-tip').getBoundingClientRect();"
            "return [r.left, r.right, document.documentElement.clientWidth]"
        )
        assert 0 <= rect[0] and rect[1] <= rect[2]   # the tip itself fits the screen
        if touch:
            from selenium.webdriver.support.ui import WebDriverWait

            _tap(driver, link)                        # the second tap follows the link
            # the navigation it starts ends when it ends (a loaded machine is slower): wait
            WebDriverWait(driver, 20).until(lambda d: d.current_url.endswith(goal))
    finally:
        if touch:
            driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
    assert expected[0] in shown and expected[2] in shown


def _link_in_text(driver: Any, url: str, text: str) -> Any:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    # the page laid out for good (its fonts and pictures in): a link found earlier may move
    # under the finger that taps where it was
    WebDriverWait(driver, 20).until(lambda d: d.execute_script(
        "return document.readyState === 'complete' && document.fonts.status === 'loaded'"))

    section = driver.find_element(By.ID, url.partition("#")[2])
    link = section.find_element(
        By.XPATH, f".//p[contains(@class, 'rulekb-text')]//a[normalize-space() = '{text}']"
    )
    # instantly: the theme scrolls smoothly, and a pointer moved mid-scroll misses the link
    driver.execute_script(
        "arguments[0].scrollIntoView({block: 'center', behavior: 'instant'})", link)
    return link


def _tap(driver: Any, element: Any) -> None:
    """A finger's tap on the middle of ``element`` (touch emulation must be on)."""
    x, y = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return [r.left + r.width / 2, r.top + r.height / 2]", element)
    driver.execute_cdp_cmd("Input.dispatchTouchEvent",
                           {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


_MAP_LABELS = """
const out = [];
const holder = document.querySelector('div.rulekb-refmap-box');
const box = holder.getBoundingClientRect();
const svg = holder.querySelector('svg').getBoundingClientRect();
for (const a of document.querySelectorAll('svg.rulekb-refmap a[data-node]')) {
  const rect = a.querySelector('rect').getBBox();
  const lines = [...a.querySelectorAll('tspan')];
  const widest = Math.max(...lines.map(t => t.getComputedTextLength()));
  const text = lines.map(t => t.textContent).join(' ');
  const title = a.querySelector('title').textContent;
  out.push([text, title, widest, rect.width]);
}
return {labels: out, svg: [svg.left, svg.right], box: [box.left, box.right]};
"""


@pytest.mark.parametrize("system", ["wh40k6", "whfb8", "killteam2018"])
def test_map_page_shows_every_label_uncut_and_every_column(
    sized: tuple[Any, str], served: str, system: str
) -> None:
    from selenium.webdriver.common.by import By

    driver, _ = sized
    driver.get(served + f"rules/{system}/map.html")
    found = driver.execute_script(_MAP_LABELS)
    assert len(found["labels"]) > 5
    for text, title, widest, width in found["labels"]:
        assert " ".join(text.split()) == " ".join(title.split()), title   # the whole title
        assert "…" not in text or "…" in title  # (a passage's title, its first words, has one)
        assert widest + 8 <= width, (title, widest, width)                 # inside its box
    # fitted to the screen at first: no column is cut off at the right
    assert found["box"][0] - 1 <= found["svg"][0] and found["svg"][1] <= found["box"][1] + 1
    # and it zooms: «+» makes it larger than its box, which then scrolls
    before = found["svg"][1] - found["svg"][0]
    driver.find_element(By.CSS_SELECTOR, "div.rulekb-map-tools button[data-zoom='in']").click()
    driver.find_element(By.CSS_SELECTOR, "div.rulekb-map-tools button[data-zoom='in']").click()
    after = driver.execute_script(
        "return document.querySelector('div.rulekb-refmap-box svg').getBoundingClientRect().width"
    )
    assert after > before * 2
    assert driver.execute_script("return document.documentElement.scrollWidth") <= (
        driver.execute_script("return document.documentElement.clientWidth")
    )


def test_search_puts_the_readers_system_first(browser: Any, served: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ready
    from selenium.webdriver.support.ui import WebDriverWait

    for page, system in (("rules/killteam2018/index.html", "Kill Team (2018)"),
                         ("rules/wh40k6/index.html", "Warhammer 40,000, 6-я редакция")):
        browser.get(served + page)
        box = browser.find_element(By.CSS_SELECTOR, "form.rulekb-search-form input[name='q']")
        box.send_keys("летать")
        first = WebDriverWait(browser, 10).until(
            ready.visibility_of_element_located((By.CSS_SELECTOR, "ul.rulekb-suggest li"))
        )
        assert system in first.find_element(By.CSS_SELECTOR, ".rulekb-hit-info").text, page


def _luminance(css: str) -> float:
    import re

    r, g, b = (int(v) / 255 for v in re.findall(r"[\d.]+", css)[:3])

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else float(((c + 0.055) / 1.055) ** 2.4)

    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def _contrast(fore: str, back: str) -> float:
    a, b = sorted((_luminance(fore), _luminance(back)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def test_search_button_and_suggestions_read_well(browser: Any, served: str) -> None:
    """The button says «Найти»; suggestion texts keep WCAG AA contrast (4.5:1)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ready
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(served + "index.html")
    button = browser.find_element(By.CSS_SELECTOR, "form.rulekb-search-form button")
    assert button.text == "Найти"
    assert _contrast(button.value_of_css_property("color"),
                     button.value_of_css_property("background-color")) >= 4.5
    box = browser.find_element(By.CSS_SELECTOR, "form.rulekb-search-form input[name='q']")
    box.send_keys("регенерация")
    WebDriverWait(browser, 10).until(
        ready.visibility_of_element_located((By.CSS_SELECTOR, "ul.rulekb-suggest li a"))
    )
    back = browser.find_element(By.CSS_SELECTOR, "ul.rulekb-suggest").value_of_css_property(
        "background-color")
    for selector in ("ul.rulekb-suggest li a", "ul.rulekb-suggest .rulekb-hit-info"):
        for element in browser.find_elements(By.CSS_SELECTOR, selector):
            ratio = _contrast(element.value_of_css_property("color"), back)
            assert ratio >= 4.5, (selector, element.value_of_css_property("color"), ratio)


def test_screenshots_for_review(sized: tuple[Any, str], served: str, corpus: Site) -> None:
    """The start page, a rule page and a map, saved for a person to look at."""
    import base64

    driver, name = sized
    width, _ = VIEWPORTS[name]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    rule = corpus.entries[CORPUS_EXPECTED["link"]["target"]]["url"].partition("#")[0]
    for label, page in (("start", "index.html"), ("rule", rule),
                        ("map", "rules/wh40k6/map.html"),
                        ("search", "search.html?q=%D0%BB%D0%B5%D1%82%D0%B0%D1%82%D1%8C"
                                   "&sys=killteam2018")):
        driver.get(served + page)
        height = min(int(driver.execute_script(
            "return document.documentElement.scrollHeight")), 4000)
        shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
            "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1},
        })
        path = SCREENSHOTS / f"{label}-{name}.png"
        path.write_bytes(base64.b64decode(shot["data"]))
        assert path.stat().st_size > 5000
    print(f"screenshots for review: {SCREENSHOTS}")


def test_hostile_titles_and_texts_fit_a_phone(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Titles and texts made to break layouts (long words, markup) still fit 390 px."""
    site = build_into(load(HOSTILE_KB), tmp_path_factory.mktemp("hostile"))
    _viewport(browser, VIEWPORTS["phone"])
    try:
        with _serve(site.root) as url:
            wide = {}
            for path in site.html_files():
                rel = path.relative_to(site.root).as_posix()
                browser.get(url + rel)
                m = browser.execute_script(_MEASURE)
                if m["scroll"] > m["width"]:
                    wide[rel] = (m["scroll"], m["width"])
    finally:
        _viewport(browser, (1280, 1000))
    assert wide == {}
