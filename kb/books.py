"""The book a node comes from, as readers see it.

A label joins it with a page: «Warhammer Fantasy Battle, 8-я редакция — стр. 75».

A ``source`` node's title is its book's title (a ``corpus.toml`` title, else what the text
says of itself, else the system's title); a file name is for programs, never shown.

>>> book_label("Warhammer Fantasy Battle, 8-я редакция", 75)
'Warhammer Fantasy Battle, 8-я редакция — стр. 75'
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from kb.models import SYSTEM_TITLES, Node

if TYPE_CHECKING:
    from kb.graph import Graph

_SOURCE_TITLES: weakref.WeakKeyDictionary[Graph, dict[tuple[str, str], str]] = (
    weakref.WeakKeyDictionary()
)


def source_titles(graph: Graph) -> dict[tuple[str, str], str]:
    """(system, file name) → the book's title, for every ``source`` node of the graph."""
    found = _SOURCE_TITLES.get(graph)
    if found is None:
        found = {}
        for node in graph.nodes.values():
            if node.kind == "source" and node.source and node.title:
                found[(node.system, node.source)] = node.title
        _SOURCE_TITLES[graph] = found
    return found


def book_title(graph: Graph, node: Node) -> str:
    """The title of the book ``node`` comes from; the system's title when no source says.

    A title that is only a file name (a KB built before books had titles) is not shown.
    """
    if node.source:
        title = source_titles(graph).get((node.system, node.source))
        if title and title != node.source:
            return title
    return SYSTEM_TITLES.get(node.system, node.system)


def book_label(title: str, page: int | None) -> str:
    """A book and a page as one label; the book alone when the page is unknown."""
    return title if page is None else f"{title} — стр. {page}"
