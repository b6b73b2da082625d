"""Resolve what a section mentions into edges: grants, citations, limits, inheritance, references.

:func:`link_mentions` runs once per part of a system (:class:`~ingest.resolve.SystemResolver`),
after every node and name of the system is known; a name it cannot resolve becomes a concept
(:meth:`~ingest.resolve.SystemResolver.concept`), never a link to a wrong rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ingest import extract as ex
from ingest.models import Span
from ingest.sections import unparen
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
        target = r.named_rule(target) if target else None
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
                targets = [f"@type:{x}" for x in r.vocab.combined[vname]]
        for target in targets:
            target = _reference_target(r, p, m, target)
            if target is None or target in related or target == own_type \
                    or _shortened_own_type(r, own_type, target):
                continue
            r.b.edge(p.id, r.named_rule(target), "references", evidence=m.sentence,
                     span=sp(m.span), raw=m.raw)


def _reference_target(r: SystemResolver, p: Part, m: ex.Mention, target: str) -> str | None:
    """What a name found in running text refers to, or None when the words are ordinary words
    that merely equal a name.

    A plain section ("Перемещение", "Вражеские модели") is referred to only by words written
    as a name (:func:`~ingest.extract.written_as_name`); a rule the corpus only names, by
    several words or words written as a name ("опасного ландшафта", "тест на Разгром", not
    "при отступлении"); a unit type the corpus only names, never in passing ("на технику",
    "монстры"): limits and cues name those, and so does a section's title ("Ядовитые атаки и
    боевые машины" is about war machines). Rules of a kind (special, deployment, tests,
    phases) and described unit types are terms wherever they stand.
    """
    if target.startswith("@type:"):
        # the type's node, or the concept of a type the corpus only names (made even so: the
        # KB knows the type exists, which checks of lists and games need)
        found = r.type_node(target.removeprefix("@type:"), m.sentence, None)
        if found is None:
            return None
        target = found
    if target.startswith("@rule:"):
        kind, category = "concept", None
    else:
        node = r.b.nodes[target]
        kind, category = node.kind, node.category
    if kind == "concept" and category == "unit_type":
        return target if _names_in_title(r, p, target) else None
    single = len(ex.lemma_tokens(m.raw)) == 1
    text = p.text
    if (kind == "rule" and category == "section") or (kind == "concept" and single
                                                      and category != "special_rule"):
        return target if ex.written_as_name(text, m.span) else None
    return target


def _names_in_title(r: SystemResolver, p: Part, nid: str) -> bool:
    """Whether the part's title holds the node's name (in any form)."""
    name = lemma_key(unparen(r.b.nodes[nid].title)).split()
    title = lemma_key(p.section.title).split()
    return any(title[i: i + len(name)] == name for i in range(len(title)))


def _shortened_own_type(r: SystemResolver, own_type: str | None, target: str) -> bool:
    """"Пехота может …" in a section of "Пехота Чудовищ": the first words of the own type's
    name stand for it, not for the type they also name."""
    if not own_type or target not in r.type_ids.values():
        return False
    own = lemma_key(r.b.nodes[own_type].title).split()
    other = lemma_key(r.b.nodes[target].title).split()
    return len(other) < len(own) and own[: len(other)] == other


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
    # "Мотоциклы и гравициклы" is two types, each one of the section's own
    for whole, names in r.vocab.split.items():
        if r.type_ids.get(whole) in out:
            out.update(r.type_ids[n] for n in names if n in r.type_ids)
    return out
