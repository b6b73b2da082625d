"""The rules reference site: pages and anchors, links, escaping, search index, browser search.

The site is built once per module from ``tests/data/site/mini_kb.json`` (expected results in
``mini_kb.expected.json`` beside it) and, for the checks that hold for any KB, also from the
project's corpus (or from the kb.json named by ``$RULEKB_SITE_TEST_KB``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial
from html.parser import HTMLParser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

from kb.models import KnowledgeBase
from kb.store import load
from rulekb.site import SiteBuildError, build_site
from rulekb.site.textlinks import place_links

DATA = Path(__file__).parent / "data" / "site"
MINI_KB = DATA / "mini_kb.json"
# titles and texts made to break rst, HTML and the layout (parent cycles, empty titles, ids
# that slug alike, a node of one system under another's section)
HOSTILE_KB = DATA / "hostile_kb.json"
EXPECTED: dict[str, Any] = json.loads((DATA / "mini_kb.expected.json").read_text("utf-8"))
REPO = Path(__file__).resolve().parents[1]
LISTED = ("rule", "unit_type", "concept")
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


# -- reading the built HTML ------------------------------------------------------------------
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
         "source", "track", "wbr"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    parents: tuple[str, ...]          # ids of the enclosing elements, outermost first
    text: list[str] = field(default_factory=list)

    @property
    def content(self) -> str:
        return " ".join("".join(self.text).split())


class Page(HTMLParser):
    """One HTML file: its elements with ids, links and scripts, with their text."""

    def __init__(self, path: Path) -> None:
        super().__init__(convert_charrefs=True)
        self.path = path
        self.ids: dict[str, Element] = {}
        self.links: list[Element] = []
        self.scripts: list[Element] = []
        self.tags: list[Element] = []
        self._open: list[Element] = []
        self.feed(path.read_text(encoding="utf-8"))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = self._element(tag, attrs)
        if tag not in _VOID:
            self._open.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._element(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i].tag == tag:
                del self._open[i:]
                return

    def handle_data(self, data: str) -> None:
        for element in self._open:
            element.text.append(data)

    def _element(self, tag: str, attrs: list[tuple[str, str | None]]) -> Element:
        values = {k: v or "" for k, v in attrs}
        parents = tuple(e.attrs["id"] for e in self._open if "id" in e.attrs)
        element = Element(tag, values, parents)
        self.tags.append(element)
        if "id" in values:
            self.ids[values["id"]] = element
        if tag == "a" and ("href" in values or "xlink:href" in values):
            self.links.append(element)
        if tag == "script":
            self.scripts.append(element)
        return element


class Site:
    """A built site: its folder and every page parsed on first use."""

    def __init__(self, root: Path, kb: KnowledgeBase, seconds: float) -> None:
        self.root = root
        self.kb = kb
        self.seconds = seconds
        self._pages: dict[Path, Page] = {}
        self.index: dict[str, Any] = json.loads(
            (root / "_static" / "rulekb-search-index.json").read_text("utf-8")
        )
        self.entries = {e["id"]: e for e in self.index["entries"]}

    def page(self, path: Path) -> Page:
        path = path.resolve()
        if path not in self._pages:
            self._pages[path] = Page(path)
        return self._pages[path]

    def html_files(self) -> list[Path]:
        return sorted(self.root.rglob("*.html"))

    def locate(self, node_id: str) -> tuple[Path, Element]:
        """The file and element of a node, found through the search index's URL.

        A page node (not in the index) is the list item that starts with its title.
        """
        if node_id not in self.entries:
            title = next(n.title for n in self.kb.nodes if n.id == node_id)
            for path in self.html_files():
                for element in self.page(path).ids.values():
                    if element.tag == "li" and element.content.startswith(title):
                        return path, element
            raise KeyError(node_id)
        file_part, _, anchor = self.entries[node_id]["url"].partition("#")
        path = self.root / file_part
        return path, self.page(path).ids[anchor]

    def resolve(self, page: Path, href: str) -> tuple[Path, str]:
        parts = urlsplit(href)
        target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
        return target, unquote(parts.fragment)

    def section_of(self, node_id: str) -> tuple[Page, Element]:
        path, element = self.locate(node_id)
        return self.page(path), element

    def links_in(self, node_id: str) -> list[tuple[Page, Element]]:
        """Links inside the node's own section (not inside its subsections)."""
        page, element = self.section_of(node_id)
        anchor = element.attrs["id"]
        return [
            (page, link) for link in page.links
            if link.parents and link.parents[-1] == anchor
        ]


# -- building ----------------------------------------------------------------------------------
def _build(kb: KnowledgeBase, out: Path) -> Site:
    started = time.monotonic()
    index = build_site(kb, out)
    seconds = time.monotonic() - started
    assert index == out / "index.html" and index.is_file()
    return Site(out, kb, seconds)


def _corpus_kb() -> KnowledgeBase:
    given = os.environ.get("RULEKB_SITE_TEST_KB")
    if given:
        return load(given)
    try:
        from ingest import build
        from ingest import load as load_corpus
        from rulekb.defaults import corpus_dir

        return build(load_corpus([corpus_dir()])).kb
    except Exception as exc:  # the pipeline is optional for these tests
        pytest.skip(f"no corpus KB to build the site from: {type(exc).__name__}: {exc}")


@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return _build(load(MINI_KB), tmp_path_factory.mktemp("mini") / "site")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return _build(_corpus_kb(), tmp_path_factory.mktemp("corpus") / "site")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return _build(load(HOSTILE_KB), tmp_path_factory.mktemp("hostile") / "site")


@pytest.fixture(params=["mini", "hostile", "corpus"])
def site(request: pytest.FixtureRequest) -> Site:
    built: Site = request.getfixturevalue(request.param)
    return built


# -- checks for any KB -------------------------------------------------------------------------
def test_every_rule_type_and_concept_has_a_page_or_anchor(site: Site) -> None:
    missing = []
    for node in site.kb.nodes:
        if node.kind not in LISTED:
            continue
        if node.id not in site.entries:
            missing.append(node.id)
            continue
        path, element = site.locate(node.id)
        # the anchor is the node's own heading (section) or glossary term
        words = node.title.split()
        assert not words or words[0] in element.content, (node.id, element.content[:80])
    assert missing == []


def test_every_internal_link_resolves(site: Site) -> None:
    broken = []
    checked = 0
    for path in site.html_files():
        page = site.page(path)
        for link in page.links:
            href = link.attrs.get("href") or link.attrs.get("xlink:href", "")
            if urlsplit(href).scheme or href.startswith("//"):
                continue
            target, fragment = site.resolve(path, href)
            checked += 1
            if not target.is_file():
                broken.append((path.name, href, "no file"))
            elif fragment and target.suffix == ".html" and fragment not in site.page(target).ids:
                broken.append((path.name, href, "no anchor"))
    assert broken == []
    assert checked > 50


def test_site_works_offline(site: Site) -> None:
    for path in site.html_files():
        for element in site.page(path).tags:
            for attr in ("src", "href", "xlink:href"):
                value = element.attrs.get(attr, "")
                assert not value.startswith(("http:", "https:", "//")), (path.name, value)


def test_search_index_lists_every_rule_type_and_concept(site: Site) -> None:
    listed = {n.id for n in site.kb.nodes if n.kind in LISTED}
    assert set(site.entries) == listed
    script = (site.root / "_static" / "rulekb-search-index.js").read_text("utf-8")
    assert script.startswith("window.RULEKB_SEARCH = {")
    assert "<" not in script
    for entry in site.index["entries"]:
        assert entry["keys"] and all(k == k.lower() for k in entry["keys"])


def test_every_system_page_draws_its_references(site: Site) -> None:
    for system in site.index["systems"]:
        listed = {n.id for n in site.kb.nodes if n.system == system and n.kind in LISTED}
        cites = any(
            e.kind == "references" and e.source != e.target and {e.source, e.target} <= listed
            for e in site.kb.edges
        )
        start = Page(site.root / "rules" / system / "index.html")
        svgs = [e for e in start.tags if e.tag == "svg"]
        assert len(svgs) == (1 if cites else 0), system
        if cites:
            boxes = [a for a in start.links if "xlink:href" in a.attrs]
            assert boxes and all(a.content for a in boxes)


def test_full_build_is_fast(site: Site) -> None:
    assert site.seconds < 60


# -- what the mini KB must show ----------------------------------------------------------------
@pytest.mark.parametrize("case", EXPECTED["links"], ids=lambda c: c["text"])
def test_reference_in_text_links_to_its_target(mini: Site, case: dict[str, str]) -> None:
    links = [(p, a) for p, a in mini.links_in(case["in"]) if a.content == case["text"]]
    assert len(links) == 1, [a.content for _, a in mini.links_in(case["in"])]
    page, link = links[0]
    target, fragment = mini.resolve(page.path, link.attrs["href"])
    want_path, want = mini.locate(case["target"])
    assert (target, fragment) == (want_path.resolve(), want.attrs["id"])


def test_unsafe_text_is_shown_as_text(mini: Site) -> None:
    path, section = mini.locate(EXPECTED["unsafe_node"])
    page = mini.page(path)
    html = path.read_text("utf-8")
    for text in EXPECTED["unsafe_texts"]:
        assert text in section.content, text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert all("alert" not in script.content for script in page.scripts)
    inline = [script.content for script in page.scripts if "src" not in script.attrs]
    assert all(text.startswith("document.getElementById('searchbox')") for text in inline)
    assert not [e for e in page.tags if e.tag in ("b", "i") or e.attrs.get("class") == "raw"]


def test_unsafe_text_stays_text_in_the_search_index(mini: Site) -> None:
    entry = mini.entries[EXPECTED["unsafe_node"]]
    assert "<i>курсив</i>" in entry["title"]


def test_search_index_keys_and_words(mini: Site) -> None:
    vocabulary = mini.index["vocabulary"]
    for node_id, keys in EXPECTED["index_keys"].items():
        assert mini.entries[node_id]["keys"] == keys
    for node_id, words in EXPECTED["index_words"].items():
        entry = mini.entries[node_id]
        known = {vocabulary[i] for i in entry["text_words"] + entry["fact_words"]}
        assert set(words) <= known


@pytest.mark.parametrize("node_id,rules", EXPECTED["effective_rules"].items())
def test_unit_type_lists_the_rules_it_grants_and_inherits(
    mini: Site, node_id: str, rules: list[str]
) -> None:
    page, section = mini.section_of(node_id)
    listed = [a for a in page.links if section.attrs["id"] in a.parents]
    hrefs = {mini.resolve(page.path, a.attrs["href"]) for a in listed}
    for rule in rules:
        path, element = mini.locate(rule)
        assert (path.resolve(), element.attrs["id"]) in hrefs, rule
    if node_id == "whfb8:type-pehota-chudovishch":
        assert "наследует" in section.content


@pytest.mark.parametrize("node_id,sources", EXPECTED["backlinks"].items())
def test_backlinks(mini: Site, node_id: str, sources: list[str]) -> None:
    page, section = mini.section_of(node_id)
    assert "На это правило ссылаются" in section.content
    for source in sources:
        title = next(n.title for n in mini.kb.nodes if n.id == source)
        assert title in [a.content for _, a in mini.links_in(node_id)]


@pytest.mark.parametrize("node_id,texts", EXPECTED["facts"].items())
def test_facts_table(mini: Site, node_id: str, texts: list[str]) -> None:
    page, section = mini.section_of(node_id)
    tables = [e for e in page.tags if e.tag == "table" and section.attrs["id"] in e.parents]
    assert len(tables) == 1
    for text in texts:
        assert text in tables[0].content


def test_glossary_marks_undefined_concepts_and_lists_aliases(mini: Site) -> None:
    for node_id in EXPECTED["undefined_concepts"]:
        path, term = mini.locate(node_id)
        assert path.name == "glossary.html" and term.tag == "dt"
        tags = mini.page(path).tags
        definition = next(e for e in tags[tags.index(term) :] if e.tag == "dd")
        assert "не описано в корпусе" in definition.content
    glossary = (mini.root / "rules" / "whfb8" / "glossary.html").read_text("utf-8")
    for alias in ("Regeneration", "Killing Blow", "Flaming Attacks", "Monstrous Infantry"):
        assert alias in glossary


def test_project_docs_are_built(mini: Site) -> None:
    from rulekb.cli import cli as group

    cli = Page(mini.root / "cli.html")
    headings = {e.content.rstrip("¶").strip() for e in cli.tags if e.tag == "h2"}
    assert {f"rulekb {name}" for name in group.commands if not group.commands[name].hidden} <= (
        headings
    )
    assert "Usage: rulekb build" in cli.ids["rulekb-cli"].content
    formats = (mini.root / "formats.html").read_text("utf-8")
    assert "Knowledge base export" in formats and "rulekb.kb/1" in formats
    assert (mini.root / "benchmarks.html").is_file()
    assert (mini.root / "quickstart.html").is_file()
    assert (mini.root / "architecture.html").is_file()


def test_repository_docs_stay_clean(mini: Site) -> None:
    docs = REPO / "docs"
    assert not (docs / "rules").exists()
    assert not (docs / "_generated").exists()
    assert not (docs / "_static" / "rulekb-search-index.js").exists()


def test_search_ranking(mini: Site, tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed; the browser test checks the ranking")
    static = mini.root / "_static"
    runner = tmp_path / "rank.js"
    runner.write_text(
        "global.window = {}; global.document = {readyState: 'complete', documentElement: "
        "{dataset: {}}, getElementById: () => null, querySelectorAll: () => [], "
        "addEventListener() {}};\n"
        f"require({json.dumps(str(static / 'rulekb-search-index.js'))});\n"
        f"require({json.dumps(str(static / 'rulekb-search.js'))});\n"
        "const queries = JSON.parse(process.argv[2]);\n"
        "console.log(JSON.stringify(queries.map(q => (window.rulekbSearch(q)[0] || "
        "{entry: {}}).entry.id)));\n",
        encoding="utf-8",
    )
    queries = [c["query"] for c in EXPECTED["search"]]
    out = subprocess.run(
        [node, str(runner), json.dumps(queries)], capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == [c["first"] for c in EXPECTED["search"]]


def test_textlinks_use_spans_of_exact_slices_and_raw_words_otherwise() -> None:
    kb = load(MINI_KB)
    by_id = {n.id: n for n in kb.nodes}
    for node_id, raw in (("whfb8:regeneraciya", "Огненные атаки"),
                         ("whfb8:smertelnyi-udar", "Регенерацию")):
        node = by_id[node_id]
        edges = [e for e in kb.edges if e.source == node_id and e.raw == raw]
        links, unplaced = place_links(node, edges)
        assert unplaced == [] and len(links) == 1
        assert node.text[links[0].start : links[0].end] == raw


def test_missing_cli_fails_the_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "rulekb.cli", None)   # import now raises ImportError
    with pytest.raises(SiteBuildError, match="rulekb.cli"):
        build_site(load(MINI_KB), tmp_path / "site")


def test_a_sphinx_warning_fails_the_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(REPO / "docs", docs)
    (docs / "broken.rst").write_text("Сломано\n======\n\n.. no-such-directive::\n", "utf-8")
    monkeypatch.setattr("rulekb.site.build.DOCS_DIR", docs)
    with pytest.raises(SiteBuildError, match="Sphinx не собрал сайт"):
        build_site(load(MINI_KB), tmp_path / "site")


# -- in a browser --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def served(mini: Site) -> Iterator[str]:
    handler = partial(_QuietHandler, directory=str(mini.root))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (stdlib name)
        pass


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        pytest.skip("needs Debian's chromium and chromium-driver (/usr/bin/chromium, "
                    "/usr/bin/chromedriver): apt-get install chromium chromium-driver")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run",
                 f"--user-data-dir={tmp_path_factory.mktemp('chromium')}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(30)
    driver.set_window_size(1280, 1000)
    try:
        yield driver
    finally:
        driver.quit()


def _first_hit(driver: Any, served: str, query: str) -> tuple[str, str]:
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


@pytest.mark.browser
@pytest.mark.parametrize("query,node_id", [("регенирация", "whfb8:regeneraciya"),
                                           ("турбо ускорение", "wh40k6:turbo-uskorenie")])
def test_browser_search_finds_the_rule_first(
    browser: Any, served: str, mini: Site, query: str, node_id: str
) -> None:
    text, href = _first_hit(browser, served, query)
    entry = mini.entries[node_id]
    assert text == entry["title"]
    assert href == served + entry["url"]


@pytest.mark.browser
def test_browser_follows_a_reference_to_its_target(browser: Any, served: str, mini: Site) -> None:
    from selenium.webdriver.common.by import By

    case = EXPECTED["links"][0]
    source = mini.entries[case["in"]]["url"]
    target = mini.entries[case["target"]]["url"]
    browser.get(served + source)
    section = browser.find_element(By.ID, source.partition("#")[2])
    section.find_element(By.LINK_TEXT, case["text"]).click()
    assert browser.current_url == served + target
    landed = browser.find_element(By.ID, target.partition("#")[2])
    assert landed.find_element(By.CSS_SELECTOR, "h1, h2, h3").text.startswith(
        mini.entries[case["target"]]["title"]
    )


@pytest.mark.browser
def test_browser_runs_no_script_from_the_data(browser: Any, served: str, mini: Site) -> None:
    from selenium.common.exceptions import NoAlertPresentException

    browser.get(served + mini.entries[EXPECTED["unsafe_node"]]["url"])
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text  # noqa: B018 (reading it is the check)
    assert "<script>alert(1)</script>" in browser.page_source.replace("&lt;", "<").replace(
        "&gt;", ">"
    )
