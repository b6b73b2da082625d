"""Resolve what a section mentions into edges: grants, citations, limits, inheritance, references.

:func:`link_mentions` runs once per part of a system (:class:`~ingest.resolve.SystemResolver`),
after every node and name of the system is known; a name it cannot resolve becomes a concept
(:meth:`~ingest.resolve.SystemResolver.concept`), never a link to a wrong rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ingest import extract as ex
from ingest.models import Span
from kb.lemmas import lemma_key

if TYPE_CHECKING:
    from ingest.resolve import Part, SystemResolver


def link_grants(r: SystemResolver, p: Part) -> None:
    """The special rules a part gives its unit type (its special rules list, grant cues).

    Runs for every part of a system before :func:`link_mentions`, so a rule that a type grants
    further on is a known name already where an earlier section mentions it in passing.
    """
    own_type = r.type_of.get(p.id) or None
    if not own_type:
        return
    text = p.text
    grants: list[ex.Mention] = []
    sr = lemma_key(r.vocab.special_rules_heading)
    if lemma_key(p.section.title) == sr:
        grants.extend(ex.special_rules_list(text))
    grants.extend(ex.grant_cues(text))
    for g in grants:
        target = r.resolve_name(g.name)
        if target is None or target.startswith("@"):
            target = r.concept(g.name, category="special_rule")
        r.b.edge(own_type, target, "grants", evidence=f"{p.section.title}: {g.sentence}",
                 span=p.to_source(g.span), raw=g.raw)


def link_mentions(r: SystemResolver, p: Part) -> None:
    """Turn what a part's text mentions into edges of the graph.

    Page citations, limits, inheritance, and named references: cue names first (they may
    create concepts), then every name the system knows. Nothing links a part to itself, its
    ancestors or its descendants.
    """
    text = p.text
    own_type = r.type_of.get(p.id) or None
    related = _related(r, p.id)

    def sp(local: Span) -> Span:
        return p.to_source(local)

    # page citations
    for m in ex.page_citations(text):
        r.b.edge(p.id, r.page(int(m.name)), "cites_page", evidence=m.sentence,
                 span=sp(m.span), raw=m.raw)
    # limits and inheritance
    for m in ex.limits(text):
        target = r.type_node(m.name, m.sentence, sp(m.span))
        if target:
            r.b.edge(p.id, target, m.kind, evidence=m.sentence, span=sp(m.span),
                     raw=m.raw)
    if own_type:
        for m in ex.inherit_cues(text):
            target = r.type_node(m.name, m.sentence, sp(m.span))
            subject = _subject_type(r, text, m) or own_type
            if target and target != subject:
                r.b.edge(subject, target, "inherits", evidence=m.sentence,
                         span=sp(m.span), raw=m.raw)
    # named references: cue names first (they may create concepts), then all known names
    for m in ex.cue_names(text):
        target = r.resolve_name(m.name) or r.resolve_name(m.raw)
        if target is None and _prefix_of_name(r, m.raw):
            continue  # "правило Ядовитых атак": the name goes on; name matching finds it
        if target is None or target.startswith("@"):
            target = r.type_node(m.name, m.sentence, None) or r.concept(m.name)
        if target not in related:
            r.b.edge(p.id, target, "references", evidence=m.sentence, span=sp(m.span),
                     raw=m.raw)
    tokens = ex.lemma_tokens(text)
    for m in ex.name_mentions(tokens, r.keys, text):
        targets = [m.name]
        if m.name.startswith("@type:"):
            vname = m.name.removeprefix("@type:")
            if vname in r.vocab.combined:
                r.type_node(vname, m.sentence, sp(m.span))
                targets = [t for t in (r.type_node(x, m.sentence, None)
                                       for x in r.vocab.combined[vname]) if t]
            else:
                t = r.type_node(vname, m.sentence, None)
                targets = [t] if t else []
        for target in targets:
            if target not in related and target != own_type:
                r.b.edge(p.id, target, "references", evidence=m.sentence,
                         span=sp(m.span), raw=m.raw)


def _prefix_of_name(r: SystemResolver, raw: str) -> bool:
    key = tuple(lemma_key(raw).split())
    return bool(key) and any(k[: len(key)] == key and len(k) > len(key) for k in r.keys)


def _subject_type(r: SystemResolver, text: str, m: ex.Mention) -> str | None:
    """The type a sentence speaks of before its cue ("Прыжковая пехота … будет следовать
    правилам …"), when it names one; else None (the section's own type)."""
    start = text.rfind(m.sentence[:20], 0, m.span[0] + 1)
    prefix = text[start if start != -1 else 0: m.span[0]]
    for found in ex.name_mentions(ex.lemma_tokens(prefix), r.keys, prefix):
        if found.name.startswith("@type:"):
            return r.type_node(found.name.removeprefix("@type:"), m.sentence, None)
        if r.b.nodes.get(found.name) and r.b.nodes[found.name].kind == "unit_type":
            return found.name
    return None


def _related(r: SystemResolver, nid: str) -> set[str]:
    out = {nid}
    node = r.b.nodes[nid]
    parent = node.parent
    while parent:
        out.add(parent)
        parent = r.b.nodes[parent].parent
    if not r.children:
        for p in r.parts:
            if p.parent_id:
                r.children[p.parent_id].append(p.id)
    stack = [nid]
    while stack:
        for child in r.children.get(stack.pop(), []):
            if child not in out:
                out.add(child)
                stack.append(child)
    return out
