"""Where the rulebook names a node, for a verdict's citation (:mod:`validator.armylist`'s
checks): a concept the KB only names is cited by the sentence that names it (an edge's
evidence, with the section whose text holds it), a unit type by its section's first sentence
that names it.
"""

from __future__ import annotations

import re

from kb.lemmas import fold
from kb.models import Node
from kb.text import sentences
from validator.rulebook import Rulebook
from validator.verdicts import RuleCitation

_MENTION_EDGES = ("grants", "applies_to", "excludes", "inherits", "references")


def cite_mention(book: Rulebook, node: Node) -> RuleCitation | None:
    """Where the rulebook names a node it does not define (a concept): the naming sentence.

    The sentence is an edge's evidence, cited with the section whose text holds it; failing
    that, the first sentence of the system that names it.
    """
    return book.remember(("cite_mention", node.id), lambda: _cite_mention(book, node))


def _cite_mention(book: Rulebook, node: Node) -> RuleCitation | None:
    graph = book.graph
    edges = sorted(graph.in_edges(node.id), key=lambda e: (
        _MENTION_EDGES.index(e.kind) if e.kind in _MENTION_EDGES else len(_MENTION_EDGES)))
    for edge in edges:
        source = graph.nodes.get(edge.source)
        if not edge.evidence or source is None or edge.kind not in _MENTION_EDGES:
            continue
        family = [source, *graph.sections_of_type(source.id)]
        quote = edge.evidence
        if edge.kind == "grants" and ":" in quote:
            # "Специальные правила: Проворность, молот ярости" — the list is the section's text
            quote = quote.split(":", 1)[1]
        holder = book.holder(quote, family)
        if holder is not None:
            return book.cite(holder, _sentence_with(holder.text, quote))
    found = book.mention(node.title)
    return found.citation() if found is not None else None


def cite_type(book: Rulebook, node: Node) -> RuleCitation:
    """A unit type cited with the sentence that says what it is.

    A combined type ("Прыжковая пехота") is cited with the sentence that joins its parts
    ("… будет следовать правилам прыжковых боевых единиц и пехоты"); another type with the
    first sentence of its own text.
    """
    return book.remember(("cite_type", node.id), lambda: _cite_type(book, node))


def _cite_type(book: Rulebook, node: Node) -> RuleCitation:
    graph = book.graph
    family = [n for n, _ in graph.inherited_types(node.id)]
    for edge in graph.out_edges(node.id, "inherits"):
        if edge.evidence:
            holder = book.holder(edge.evidence, family)
            if holder is not None:
                return book.cite(holder, " ".join(edge.evidence.split()))
    first = next(iter(sentences(node.text)), None)
    if first is not None:
        return book.cite(node, first)
    # a type the book describes only inside a wider section ("Гравициклы" in «Мотоциклы и
    # гравициклы»): the first sentence of that section that names it
    stem = fold(node.title)[: max(4, len(node.title) - 3)]
    for wider in family[1:]:
        found = book.sentence(wider, stem)
        if found is not None:
            return found.citation()
    return book.cite(node)


_SENTENCE_END = re.compile(r"[.!?…]")


def _sentence_with(text: str, quote: str) -> str:
    """The sentence of ``text`` that holds ``quote`` (the quote itself when none does).

    The flattened PDF starts some sentences in lower case, which :func:`kb.text.sentences`
    does not split at; the quote is widened to the nearest sentence ends around it instead.
    """
    key = " ".join(fold(quote).split()).rstrip(".!?… ")
    for sentence in sentences(text):
        at = fold(sentence).find(key)
        if at < 0:
            continue
        before = [m.end() for m in _SENTENCE_END.finditer(sentence, 0, at)]
        after = _SENTENCE_END.search(sentence, at + len(key))
        start = before[-1] if before else 0
        return sentence[start:after.end() if after else len(sentence)].strip()
    return " ".join(quote.split())
