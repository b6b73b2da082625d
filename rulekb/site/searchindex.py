"""The site's own search index: every rule, unit type and concept with its words and lemmas.

Shipped as ``_static/rulekb-search-index.js`` (``window.RULEKB_SEARCH = {...}``, so it loads
from ``file://`` too) and as a JSON twin for tools and tests. ``rulekb-search.js`` matches a
query against it with typo tolerance; the words are folded exactly as the script folds them
(lower case, ё→е, every run of other characters a space).
"""

from __future__ import annotations

import json
import re
from typing import Any

from kb.lemmas import lemma_key, lemma_words
from kb.models import Node
from rulekb.site.layout import LISTED_KINDS, SiteLayout
from rulekb.site.textlinks import own_ranges

INDEX_SCHEMA = "rulekb.site-search/1"
MAX_TEXT_WORDS = 600
_NON_WORD = re.compile(r"[^0-9a-zа-я]+")
_COMPOUND = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)+")


def fold_words(text: str) -> list[str]:
    """Words as the search script sees them.

    >>> fold_words("Турбо-ускорение (3D6), Ёж")
    ['турбо', 'ускорение', '3d6', 'еж']
    """
    return _NON_WORD.sub(" ", text.lower().replace("ё", "е")).split()


class _Vocabulary:
    def __init__(self) -> None:
        self.ids: dict[str, int] = {}

    def add(self, words: list[str]) -> list[int]:
        out: dict[int, None] = {}
        for word in words:
            out[self.ids.setdefault(word, len(self.ids))] = None
        return list(out)


def build_index(layout: SiteLayout) -> dict[str, Any]:
    """The index as a JSON-ready dict: ``vocabulary``, ``systems`` and ``entries``."""
    vocab = _Vocabulary()
    entries: list[dict[str, Any]] = []
    for system in layout.systems:
        for node in layout.graph.in_system(system.id, LISTED_KINDS):
            place = layout.places.get(node.id)
            if place is None:
                continue
            entries.append(_entry(layout, node, f"{place.docname}.html#{place.anchor}", vocab))
    # the script needs the words by id: invert the id map
    vocabulary = [""] * len(vocab.ids)
    for word, i in vocab.ids.items():
        vocabulary[i] = word
    return {
        "schema": INDEX_SCHEMA,
        "systems": {s.id: s.title for s in layout.systems},
        "slugs": {s.id: s.slug for s in layout.systems},
        "vocabulary": vocabulary,
        "entries": entries,
    }


def _entry(layout: SiteLayout, node: Node, url: str, vocab: _Vocabulary) -> dict[str, Any]:
    names = [node.title, *node.aliases]
    name_words: list[str] = []
    for name in names:
        name_words += fold_words(name)
        name_words += [w for lemma in lemma_words(name) for w in fold_words(lemma)]
        # a hyphenated word is often typed as one: «турбоускорение», «тёмноэльдарские»
        name_words += ["".join(fold_words(c)) for c in _COMPOUND.findall(name)]
    own = " ".join(node.text[a:b] for a, b in own_ranges(node, layout.section_children(node)))
    text_words = [w for lemma in lemma_words(own) for w in fold_words(lemma)]
    text_words += [w for w in fold_words(own) if any(c.isdigit() for c in w)]
    fact_words: list[str] = []
    for fact in node.facts:
        fact_words += fold_words(f"{fact.name} {fact.text} {fact.topic or ''}")
    parent = layout.parent(node)
    return {
        "id": node.id,
        "title": node.title,
        "aliases": list(node.aliases),
        "kind": node.kind,
        "system": node.system,
        "defined": node.defined,
        "context": parent.title if parent is not None and parent.kind != "source" else "",
        "url": url,
        "keys": list(dict.fromkeys(lemma_key(n) for n in names)),
        "title_words": vocab.add(fold_words(node.title)),
        "name_words": vocab.add(name_words),
        "fact_words": vocab.add(fact_words),
        "text_words": vocab.add(list(dict.fromkeys(text_words))[:MAX_TEXT_WORDS]),
    }


def index_json(index: dict[str, Any]) -> str:
    """The index as JSON text (stable: the same KB gives the same bytes)."""
    return json.dumps(index, ensure_ascii=False, separators=(",", ":"))


def index_script(index: dict[str, Any]) -> str:
    """The index as a script that sets ``window.RULEKB_SEARCH``.

    ``<`` is written as ``\\u003c`` so no data can close a script element, even inline.
    """
    return "window.RULEKB_SEARCH = " + index_json(index).replace("<", "\\u003c") + ";\n"
