"""Resolve the numbers of a section into facts, and the facts that change others into overrides.

:func:`add_facts` runs once per part of a system (:class:`~ingest.resolve.SystemResolver`),
after its references; :func:`add_overrides` once per system, after every part's facts.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from ingest.facts import find_facts
from ingest.models import Span
from ingest.sections import PRICE, unparen
from kb.lemmas import lemma_key
from kb.models import Fact

if TYPE_CHECKING:
    from ingest.resolve import Part, SystemResolver


def add_facts(r: SystemResolver, p: Part) -> None:
    """Find the facts of a part: the parameter its heading allows, then the numbers of its text.

    A fact about a unit type the clause names applies to that type, else to the part's own.
    """
    text = p.text
    own_type = r.type_of.get(p.id) or None

    def sp(local: Span) -> Span:
        return p.to_source(local)

    # the parameter a heading allows ("Сопротивление магии (1-3)"), then the text's facts
    heading = p.section.heading
    for f in find_facts(heading, [], {}, None):
        if f.kind == "range":
            hs = p.section.heading_span[0]
            span = p.cleaned.to_source_span(hs + f.span[0], hs + f.span[1])
            r.b.facts[p.id].append(Fact(
                name=f.name, kind="range", value=f.value,  # type: ignore[arg-type]
                text=f.text, applies_to=None, evidence=heading.strip(), span=span,
                topic=lemma_key(unparen(p.section.title)),
                evidence_span=p.cleaned.to_source_span(*p.section.heading_span)))
    # an army book's entry's price ("Клинок из Морского Золота - 50 очков")
    price = PRICE.search(heading.rstrip())
    if price is not None:
        hs = p.section.heading_span[0]
        span = p.cleaned.to_source_span(hs + price.start(1), hs + price.end(1))
        r.b.facts[p.id].append(Fact(
            name="points", kind="points", value=int(price.group(2)),
            text=price.group(1), applies_to=None,
            evidence=" ".join(heading.split()), span=span,
            topic=lemma_key(unparen(p.section.title)),
            evidence_span=p.cleaned.to_source_span(*p.section.heading_span)))
    unit_names = _unit_lemmas(r)
    default_topic = _default_topic(r, p)
    for f in find_facts(text, list(r.vocab.topics), unit_names, default_topic):
        applies = None
        if f.unit:
            applies = r.type_ids.get(f.unit) or r.type_node(f.unit, f.sentence, None)
        applies = applies or own_type
        r.b.facts[p.id].append(Fact(
            name=f.name, kind=f.kind, value=f.value, text=f.text,  # type: ignore[arg-type]
            applies_to=applies, evidence=f.sentence, span=sp(f.span), topic=f.topic,
            evidence_span=sp(f.sentence_span),
        ))


def _default_topic(r: SystemResolver, p: Part) -> str | None:
    key = " " + lemma_key(p.section.title) + " "
    for form, topic in r.vocab.topics:
        if f" {form} " in key:
            return topic
    return None


def _unit_lemmas(r: SystemResolver) -> dict[str, str]:
    """Lemma key → type name, for telling which type a clause speaks of."""
    out = {}
    for name in r.type_ids:
        out[lemma_key(unparen(name))] = name
    return out


def add_overrides(r: SystemResolver) -> None:
    """Link a rule that changes another one with ``overrides`` edges.

    A type's fact overrides the same fact (topic, name, kind) with another value of a type it
    inherits from; a ``not_…`` fact ("на 3D6, а не на 2D6") overrides the general rule it
    names.
    """
    inherits: dict[str, list[str]] = defaultdict(list)
    for e in r.b.edges:
        if e.kind == "inherits" and e.source in r.b.nodes and \
                r.b.nodes[e.source].system == r.system:
            inherits[e.source].append(e.target)
    facts_by_type: dict[str, list[tuple[str, Fact]]] = defaultdict(list)
    for p in r.parts:
        for f in r.b.facts.get(p.id, []):
            owner = r.type_of.get(p.id)
            if owner:
                facts_by_type[owner].append((p.id, f))
    for t in list(inherits):
        ancestors = _ancestors(t, inherits)
        for node_id, fact in facts_by_type.get(t, []):
            for anc in ancestors:
                for other_id, other in facts_by_type.get(anc, []) + _inherited_facts(
                        anc, facts_by_type):
                    if (other.topic, other.name, other.kind) == (
                            fact.topic, fact.name, fact.kind) and other.value != fact.value \
                            and fact.topic:
                        r.b.edge(node_id, other_id, "overrides", evidence=fact.evidence,
                                 span=fact.evidence_span, raw=fact.text)
    # "на 3D6", а не на 2D6", как многие другие": the type's rule changes the general one
    for p in r.parts:
        for f in r.b.facts.get(p.id, []):
            if f.name.startswith("not_") and f.topic:
                if lemma_key(f.topic) == lemma_key(p.section.title):
                    continue  # the section is the type's own rule of it; nothing to link
                general = r.resolve_name(f.topic)
                if general is None or general.startswith("@") or general == p.id:
                    general = r.concept(f.topic[:1].upper() + f.topic[1:])
                r.b.edge(p.id, general, "overrides", evidence=f.evidence,
                         span=f.evidence_span, raw=f.text)


def _ancestors(t: str, inherits: dict[str, list[str]]) -> list[str]:
    out: list[str] = []
    stack = list(inherits.get(t, []))
    while stack:
        cur = stack.pop(0)
        if cur not in out:
            out.append(cur)
            stack.extend(inherits.get(cur, []))
    return out


def _inherited_facts(anc: str, facts_by_type: dict[str, list[tuple[str, Fact]]]
                     ) -> list[tuple[str, Fact]]:
    # facts stated for a type inside another type's section ("а гравициклы … 24"")
    return [(nid, f) for facts in facts_by_type.values() for nid, f in facts
            if f.applies_to == anc]
