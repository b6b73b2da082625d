"""The reference tooltips: for every place a link can lead to, its title and first sentence.

Built with the site (offline, no request at view time) as ``_static/rulekb-tips-data.js``
(``window.RULEKB_TIPS = {anchor: [title, what it is, first sentence]}``); ``rulekb-tips.js``
shows the entry of a link's target when the reader hovers, focuses or taps the link.
"""

from __future__ import annotations

import json
import re

from kb.books import book_label, book_title
from kb.models import Node
from rulekb.site.layout import SiteLayout
from rulekb.site.render import KIND_LABELS, UNDEFINED
from rulekb.site.textlinks import own_ranges

MAX_SENTENCE = 260
# a sentence ends at . ! ? … (or a closing quote after one) before a capital or a quote
_SENTENCE_END = re.compile(r"(?<=[.!?…])[»\"”)]?\s+(?=[«\"(]?[A-ZА-ЯЁ0-9])")


def first_sentence(text: str) -> str:
    """The first sentence of a text, whitespace collapsed, cut at a word near MAX_SENTENCE.

    >>> first_sentence("Модель может летать. Она двигается на 12\\".")
    'Модель может летать.'
    """
    flat = " ".join(text.split())
    m = _SENTENCE_END.search(flat)
    sentence = flat[: m.start()].rstrip() if m else flat
    if m and flat[m.start() : m.start() + 1] in "»\"”)":
        sentence = flat[: m.start() + 1]
    if len(sentence) > MAX_SENTENCE:
        cut = sentence[: MAX_SENTENCE - 1]
        sentence = cut[: cut.rfind(" ")].rstrip(" ,;:") + "…" if " " in cut else cut + "…"
    return sentence


def _own_text(layout: SiteLayout, node: Node) -> str:
    children = layout.section_children(node)
    return " ".join(node.text[a:b] for a, b in own_ranges(node, children)).strip()


def tip(layout: SiteLayout, node: Node) -> list[str]:
    """[title, what it is (kind, book and page), first sentence] of one node."""
    kind = KIND_LABELS.get(node.kind, node.kind)
    if node.kind in ("rule", "unit_type"):
        page = node.page if node.page is not None else (node.pages[0] if node.pages else None)
        kind = f"{kind} · {book_label(book_title(layout.graph, node), page)}"
    if node.kind == "concept" and not node.defined:
        citing = list(dict.fromkeys(
            layout.display_title(e.source) for e in layout.graph.cited_by(node.id)
        ))
        said = f"{UNDEFINED.capitalize()}."
        if citing:
            said += " Упоминается: " + ", ".join(citing[:4]) + ("…" if len(citing) > 4 else "")
        return [layout.display_title(node.id), kind, said]
    if node.kind == "page":
        on_page = list(dict.fromkeys(
            layout.display_title(e.target) for e in layout.graph.out_edges(node.id, "on_page")
        ))
        said = ("На ней: " + ", ".join(on_page[:5]) + ("…" if len(on_page) > 5 else "") + "."
                if on_page else "")
        return [node.title, f"страница книги · {layout.system(node.system).title}", said]
    text = _own_text(layout, node) or node.text
    return [layout.display_title(node.id), kind, first_sentence(text)]


def tips(layout: SiteLayout) -> dict[str, list[str]]:
    """anchor → tip, for every node that has a place on the site (stable order)."""
    out: dict[str, list[str]] = {}
    for node_id in sorted(layout.places):
        node = layout.node(node_id)
        if node is None or node.kind == "source":
            continue
        out[layout.places[node_id].anchor] = tip(layout, node)
    return out


def tips_script(data: dict[str, list[str]]) -> str:
    """The tips as a script; ``<`` is written ``\\u003c`` so no data can close a tag."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return "window.RULEKB_TIPS = " + text.replace("<", "\\u003c") + ";\n"
