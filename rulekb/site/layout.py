"""Where every KB node lives on the site: its page (Sphinx docname) and its anchor.

One page per top-level section keeps the build fast: a section's subsections are anchors on
its page, concepts are anchors on the system's glossary, cited pages anchors on the system's
page list. Page names and anchors are ASCII, unique and derived from node ids only, so the same
KB always gives the same URLs.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from kb.graph import Graph
from kb.lemmas import fold
from kb.models import SYSTEM_TITLES, KnowledgeBase, Node

# Node kinds that form the section tree shown as pages and subsections.
SECTION_KINDS = frozenset({"rule", "unit_type"})
# Node kinds that the site must give a page or an anchor to (and the search index lists).
LISTED_KINDS = frozenset({"rule", "unit_type", "concept"})
RULES_ROOT = "rules"
# every node anchor starts so; nothing else on the site does
ANCHOR_PREFIX = "n-"
_RESERVED_PAGES = frozenset({"index", "glossary", "pages", "map", "genindex", "search"})


def slug(text: str) -> str:
    """An ASCII slug: lower-case letters and digits joined by single hyphens.

    >>> slug("whfb8:Smertelnyi_Udar")
    'whfb8-smertelnyi-udar'
    """
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _fold(text: str) -> str:
    return " ".join(fold(text).split())


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


@dataclass(frozen=True)
class Place:
    """A node's location: the page (docname, no suffix) and the HTML id on it."""

    docname: str
    anchor: str


@dataclass
class SystemLayout:
    """The pages of one game system."""

    id: str
    title: str
    slug: str
    roots: list[Node] = field(default_factory=list)
    unit_types: list[Node] = field(default_factory=list)
    concepts: list[Node] = field(default_factory=list)
    pages: list[Node] = field(default_factory=list)
    sources: list[Node] = field(default_factory=list)

    @property
    def index_doc(self) -> str:
        """The system's start page."""
        return f"{RULES_ROOT}/{self.slug}/index"

    @property
    def glossary_doc(self) -> str:
        """The glossary of rules and concepts."""
        return f"{RULES_ROOT}/{self.slug}/glossary"

    @property
    def pages_doc(self) -> str:
        """The list of cited book pages and the books the texts come from."""
        return f"{RULES_ROOT}/{self.slug}/pages"

    @property
    def map_doc(self) -> str:
        """The map of references between the system's rules."""
        return f"{RULES_ROOT}/{self.slug}/map"


class SiteLayout:
    """Pages and anchors for every node of a KB.

    Example:
        >>> layout = SiteLayout(kb)                       # doctest: +SKIP
        >>> layout.url("rules/whfb8/index", "whfb8:regeneraciya")   # doctest: +SKIP
        'specialnye-pravila.html#n-whfb8-regeneraciya'
    """

    def __init__(self, kb: KnowledgeBase) -> None:
        self.kb = kb
        self.graph = Graph(kb)
        self.places: dict[str, Place] = {}
        self.root_doc: dict[str, str] = {}
        # each section page's nodes in reading order, with their depth below the page's root
        self.trees: dict[str, list[tuple[int, Node]]] = {}
        self.systems: list[SystemLayout] = []
        self._anchors: set[str] = set()
        self._anchor_of: dict[str, str] = {}
        self._node_of_anchor: dict[str, str] = {}
        self._page_nodes: dict[tuple[str, int], str] = {}
        self._source_nodes: dict[tuple[str, str], str] = {}
        # a section's parent is its ``parent`` field, else the target of its part_of edge
        self._parent: dict[str, str] = {}
        for e in sorted(kb.edges, key=lambda e: (e.source, e.target)):
            if e.kind == "part_of" and e.target in self.graph.nodes:
                self._parent.setdefault(e.source, e.target)
        for n in kb.nodes:
            if n.parent is not None and n.parent in self.graph.nodes:
                self._parent[n.id] = n.parent
        kids: dict[str, list[Node]] = {}
        for child_id, parent_id in self._parent.items():
            if child_id in self.graph.nodes:
                kids.setdefault(parent_id, []).append(self.graph.nodes[child_id])
        self._children: dict[str, list[Node]] = {
            parent: sorted(found, key=lambda n: (n.source or "", n.span or (0, 0), n.id))
            for parent, found in kids.items()
        }
        self._title_count: dict[tuple[str, str], int] = {}
        for n in kb.nodes:
            if n.kind in LISTED_KINDS:
                key = (n.system, _fold(n.title))
                self._title_count[key] = self._title_count.get(key, 0) + 1
        titles = {s.id: s.title for s in kb.systems}
        system_ids = [s.id for s in kb.systems]
        system_ids += sorted({n.system for n in kb.nodes} - set(system_ids))
        used_slugs: set[str] = set()
        for system_id in system_ids:
            sys_slug = _unique(slug(system_id) or "system", used_slugs, system_id)
            title = titles.get(system_id) or SYSTEM_TITLES.get(system_id, system_id)
            layout = SystemLayout(system_id, title, sys_slug)
            self.systems.append(layout)
            self._place_system(layout)

    # -- public queries ----------------------------------------------------------------
    def anchor(self, node_id: str) -> str:
        """The HTML id of a node (unique in the whole site, valid as a docutils id)."""
        found = self._anchor_of.get(node_id)
        if found is None:
            base = ANCHOR_PREFIX + (slug(node_id) or "node")
            if not node_id.isascii():
                base += "-" + _digest(node_id)
            found = _unique(base, self._anchors, node_id)
            self._anchor_of[node_id] = found
            self._node_of_anchor[found] = node_id
        return found

    def display_title(self, node_id: str) -> str:
        """A node's title for lists and links, told apart from its namesakes by its section.

        Many sections share a title ("Специальные правила" of every unit type); a list of them
        names each one's parent too: «Специальные правила (Кавалерия)».
        """
        node = self.graph.nodes.get(node_id)
        if node is None:
            return node_id
        title = node.title or node.id
        parent = self.parent(node)
        if self._title_count.get((node.system, _fold(node.title)), 0) > 1 and parent is not None:
            return f"{title} ({parent.title})"
        return title

    def url(self, from_doc: str, node_id: str) -> str | None:
        """The relative URL from page ``from_doc`` to a node, or None if it has no place."""
        place = self.places.get(node_id)
        if place is None:
            return None
        return relative_url(from_doc, place.docname) + "#" + place.anchor

    def by_anchor(self, anchor: str) -> Node | None:
        """The node whose anchor this is."""
        node_id = self._node_of_anchor.get(anchor)
        return self.graph.nodes.get(node_id) if node_id else None

    def page_node(self, system: str, number: int) -> str | None:
        """The id of the ``page`` node for a book page of a system, if the KB has one."""
        return self._page_nodes.get((system, number))

    def source_node(self, system: str, file_name: str) -> str | None:
        """The id of the ``source`` node for an input file, if the KB has one."""
        return self._source_nodes.get((system, file_name))

    def node(self, node_id: str) -> Node | None:
        """The node with this id, if the KB holds it."""
        return self.graph.nodes.get(node_id)

    def section_children(self, node: Node) -> list[Node]:
        """Subsections shown under a section (rules and unit types of the same system)."""
        return [c for c in self._children.get(node.id, []) if self._is_section_child(c, node)]

    def system(self, system_id: str) -> SystemLayout:
        """The layout of one system."""
        for s in self.systems:
            if s.id == system_id:
                return s
        raise KeyError(system_id)

    def section_docs(self) -> list[tuple[str, Node]]:
        """Every section page: (docname, root node), in system and text order."""
        return [(self.root_doc[r.id], r) for s in self.systems for r in s.roots]

    # -- placement ---------------------------------------------------------------------
    def parent(self, node: Node) -> Node | None:
        """The section a node belongs to (its ``parent``, else its part_of target)."""
        parent_id = self._parent.get(node.id)
        return self.graph.nodes.get(parent_id) if parent_id else None

    def _is_section_child(self, child: Node, parent: Node) -> bool:
        return (
            child.kind in SECTION_KINDS
            and parent.kind in SECTION_KINDS
            and child.system == parent.system
        )

    def _section_root(self, node: Node) -> bool:
        parent = self.parent(node)
        return parent is None or not self._is_section_child(node, parent)

    def _place_system(self, layout: SystemLayout) -> None:
        nodes = self.graph.in_system(layout.id)
        order = sorted(nodes, key=lambda n: (n.source or "", n.span or (0, 0), n.id))
        used_docs: set[str] = set(_RESERVED_PAGES)
        for node in order:
            if node.kind in SECTION_KINDS and self._section_root(node):
                layout.roots.append(node)
                name = _unique(slug(node.id.split(":", 1)[-1]) or "section", used_docs, node.id)
                doc = f"{RULES_ROOT}/{layout.slug}/{name}"
                self.root_doc[node.id] = doc
                self._place_tree(node, doc, set())
        for node in order:
            # a parent cycle in a damaged KB leaves sections without a root: give them pages
            if node.kind in SECTION_KINDS and node.id not in self.places:
                layout.roots.append(node)
                name = _unique(slug(node.id.split(":", 1)[-1]) or "section", used_docs, node.id)
                self.root_doc[node.id] = f"{RULES_ROOT}/{layout.slug}/{name}"
                self._place_tree(node, self.root_doc[node.id], set())
        for node in nodes:
            if node.kind == "unit_type":
                layout.unit_types.append(node)
            elif node.kind == "concept":
                layout.concepts.append(node)
                self.places[node.id] = Place(layout.glossary_doc, self.anchor(node.id))
            elif node.kind == "page":
                layout.pages.append(node)
                number = node.page
                if number is None:
                    digits = re.search(r"\d+", node.title)
                    number = int(digits.group()) if digits else None
                if number is not None:
                    self._page_nodes.setdefault((node.system, number), node.id)
                self.places[node.id] = Place(layout.pages_doc, self.anchor(node.id))
            elif node.kind == "source":
                layout.sources.append(node)
                for file_name in (node.source, node.title):
                    if file_name:
                        self._source_nodes.setdefault((node.system, file_name), node.id)
                self.places[node.id] = Place(layout.pages_doc, self.anchor(node.id))
        layout.unit_types.sort(key=lambda n: (n.title.lower(), n.id))
        layout.concepts.sort(key=lambda n: (n.title.lower(), n.id))
        layout.pages.sort(key=lambda n: (n.page if n.page is not None else 10**9, n.id))

    def _place_tree(self, root: Node, doc: str, seen: set[str]) -> None:
        tree: list[tuple[int, Node]] = []
        self.trees[root.id] = tree
        stack: list[tuple[int, Node]] = [(0, root)]
        while stack:
            depth, node = stack.pop()
            # ``seen`` guards against a parent cycle in a damaged KB.
            if node.id in seen or node.id in self.places:
                continue
            seen.add(node.id)
            tree.append((depth, node))
            self.places[node.id] = Place(doc, self.anchor(node.id))
            kids = self.section_children(node)
            stack.extend((depth + 1, child) for child in reversed(kids))


def relative_url(from_doc: str, to_doc: str) -> str:
    """The relative URL of ``to_doc``'s HTML file as seen from ``from_doc``'s.

    >>> relative_url("rules/whfb8/index", "rules/whfb8/glossary")
    'glossary.html'
    >>> relative_url("rules/whfb8/index", "index")
    '../../index.html'
    """
    src = from_doc.split("/")[:-1]
    dst = to_doc.split("/")
    common = 0
    while common < min(len(src), len(dst) - 1) and src[common] == dst[common]:
        common += 1
    return "/".join([".."] * (len(src) - common) + dst[common:]) + ".html"


def _unique(base: str, used: set[str], key: str) -> str:
    name = base
    if name in used:
        name = f"{base}-{_digest(key)}"
        n = 2
        while name in used:
            name = f"{base}-{_digest(key)}-{n}"
            n += 1
    used.add(name)
    return name
