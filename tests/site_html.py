"""Shared by the site tests: reading the built HTML, building a site, the expected tables.

Not a test module: ``test_site.py`` and ``test_site_browser.py`` import it.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

from kb.models import KnowledgeBase
from rulekb.site import build_site

DATA = Path(__file__).parent / "data" / "site"
MINI_KB = DATA / "mini_kb.json"
# titles and texts made to break rst, HTML and the layout (parent cycles, empty titles, ids
# that slug alike, a node of one system under another's section)
HOSTILE_KB = DATA / "hostile_kb.json"
EXPECTED: dict[str, Any] = json.loads((DATA / "mini_kb.expected.json").read_text("utf-8"))
CORPUS_EXPECTED: dict[str, Any] = json.loads(
    (DATA / "corpus.expected.json").read_text("utf-8")
)
# lines holding HTML, <script> and rst markup, written into a copy of a corpus file just
# before the line of HOSTILE_BEFORE: a section of their own under a hostile heading
HOSTILE_LINES = (DATA / "hostile_corpus.txt").read_text("utf-8")
# (its "<b>" tags are left unclosed: ingest reads a tag closed around words, "<b>жирно</b>", as
# the markup's leftovers and removes it, so it would not reach the site to be escaped)
HOSTILE_FILE = "001_ba20f991b5661e29.txt"
HOSTILE_BEFORE = "\nРегенерация\n"
REPO = Path(__file__).resolve().parents[1]
LISTED = ("rule", "unit_type", "concept")


# -- reading the built HTML ------------------------------------------------------------------
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
         "source", "track", "wbr"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    parents: tuple[str, ...]          # ids of the enclosing elements, outermost first
    text: list[str] = field(default_factory=list)
    within: frozenset[str] = frozenset()   # classes of the enclosing elements

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
        within = frozenset(c for e in self._open for c in e.attrs.get("class", "").split())
        element = Element(tag, values, parents, within=within)
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

    def __init__(self, root: Path, kb: KnowledgeBase, seconds: float, work: Path) -> None:
        self.root = root
        self.kb = kb
        self.seconds = seconds
        self.work = work       # build_site's work_dir: the rst sources and warnings.txt
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
def build_into(kb: KnowledgeBase, folder: Path) -> Site:
    """Build the site of ``kb`` into ``folder/site`` (Sphinx's sources in ``folder/work``)."""
    out, work = folder / "site", folder / "work"
    started = time.monotonic()
    index = build_site(kb, out, work_dir=work)
    seconds = time.monotonic() - started
    assert index == out / "index.html" and index.is_file()
    return Site(out, kb, seconds, work)


def corpus_folder() -> Path:
    from rulekb.defaults import DefaultsError, corpus_dir

    try:
        return corpus_dir()
    except DefaultsError as exc:
        pytest.skip(f"no corpus to build the site from: {exc}")


def kb_of(corpus: Path) -> KnowledgeBase:
    from ingest import build
    from ingest import load as load_corpus

    return build(load_corpus([corpus])).kb


def right_first(site: Site, case: dict[str, str], first: str | None) -> bool:
    """Whether ``first`` is the right first hit of a search case of the corpus table."""
    if "first" in case:
        return first == case["first"]
    node = next((n for n in site.kb.nodes if n.id == first), None)
    return node is not None and node.kind == "rule" and any(
        f.text == case["first_states"] for f in node.facts
    )
