"""Docutils nodes for what the site shows of a KB node: text with links, facts, backlinks.

Every piece of KB text becomes a ``nodes.Text`` here and is never parsed as markup, so a rule
whose text holds reStructuredText directives or HTML is shown as written and cannot change
the page.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from docutils import nodes

from kb.models import Edge, Fact, Node
from rulekb.site.layout import SiteLayout
from rulekb.site.textlinks import Piece, own_ranges, paragraphs, place_links

KIND_LABELS = {
    "rule": "правило",
    "unit_type": "тип подразделения",
    "concept": "понятие",
    "page": "страница",
    "source": "файл",
}
UNDEFINED = "не описано в корпусе"
_QUOTE_LIMIT = 200


def link(layout: SiteLayout, docname: str, node_id: str, text: str | None = None) -> nodes.Node:
    """A link to a node's page or anchor; plain text when the node has no place."""
    target = layout.node(node_id)
    label = text if text is not None else (target.title if target else node_id)
    url = layout.url(docname, node_id)
    if url is None:
        return nodes.inline("", label)
    return nodes.reference("", label, refuri=url, internal=True)


def node_body(layout: SiteLayout, node: Node, docname: str) -> list[nodes.Node]:
    """Everything shown under a section's heading, in reading order."""
    out: list[nodes.Node] = [meta_line(layout, node, docname)]
    children = layout.section_children(node)
    links, unplaced = place_links(node, layout.graph.out_edges(node.id))
    paras, unfit = paragraphs(node.text, own_ranges(node, children), links)
    for pieces in paras:
        out.append(_paragraph(layout, docname, pieces))
    extra = _dedupe([e for e in unplaced if e.kind in ("references", "cites_page")])
    extra += _dedupe([lk.edge for lk in unfit if lk.edge.kind in ("references", "cites_page")])
    if extra:
        out.append(_labelled_links(layout, docname, "Также ссылается на: ", extra))
    if node.kind == "unit_type":
        out.extend(effective_rules(layout, node, docname))
    for kind, label in (
        ("overrides", "Изменяет правило: "),
        ("applies_to", "Действует только для: "),
        ("excludes", "Не действует для: "),
    ):
        edges = _dedupe(layout.graph.out_edges(node.id, kind))  # type: ignore[arg-type]
        if edges:
            out.append(_labelled_links(layout, docname, label, edges))
    granted_by = layout.graph.in_edges(node.id, "grants")
    if granted_by:
        out.append(_labelled_sources(layout, docname, "Это правило дают типы: ", granted_by))
    if node.facts:
        out.append(facts_table(layout, docname, node.facts))
    out.extend(backlinks(layout, node, docname))
    return out


def meta_line(layout: SiteLayout, node: Node, docname: str) -> nodes.paragraph:
    """«Правило · источник: файл, стр. 72 · другие названия: Regeneration»."""
    para = nodes.paragraph(classes=["rulekb-meta"])
    para += nodes.inline("", KIND_LABELS.get(node.kind, node.kind), classes=["rulekb-kind"])
    if node.kind == "concept" and not node.defined:
        para += nodes.Text(f" ({UNDEFINED})")
    if node.source:
        para += nodes.Text(" · источник: ")
        source_id = layout.source_node(node.system, node.source)
        if source_id:
            para += link(layout, docname, source_id, node.source)
        else:
            para += nodes.literal("", node.source)
    page_numbers = list(node.pages) or ([node.page] if node.page is not None else [])
    if page_numbers:
        para += nodes.Text(", стр. " if node.source else " · стр. ")
        for i, number in enumerate(page_numbers):
            if i:
                para += nodes.Text(", ")
            page_id = layout.page_node(node.system, number)
            if page_id:
                para += link(layout, docname, page_id, str(number))
            else:
                para += nodes.Text(str(number))
    if node.aliases:
        para += nodes.Text(" · другие названия: " + ", ".join(node.aliases))
    return para


def effective_rules(layout: SiteLayout, node: Node, docname: str) -> list[nodes.Node]:
    """The rules a unit type grants and inherits, each with the path that gives it."""
    applied = layout.graph.effective_rules(node.id)
    title = nodes.paragraph(classes=["rulekb-label"])
    title += nodes.strong("", "Правила типа")
    if not applied:
        return [title, nodes.paragraph("", "Корпус не называет правил этого типа.")]
    items = nodes.bullet_list(classes=["rulekb-effective"])
    for rule in applied:
        item = nodes.paragraph()
        item += link(layout, docname, rule.rule.id)
        if rule.rule.kind == "concept" and not rule.rule.defined:
            item += nodes.Text(f" ({UNDEFINED})")
        item += nodes.Text(" — " + rule.because + ". Путь: ")
        for i, step in enumerate(rule.path):
            if i:
                item += nodes.Text(" → ")
            item += link(layout, docname, step)
        items += nodes.list_item("", item)
    return [title, items]


def facts_table(layout: SiteLayout, docname: str, facts: Sequence[Fact]) -> nodes.table:
    """The numbers a rule states: name, text as written, what it applies to, the sentence."""
    table = nodes.table(classes=["rulekb-facts"])
    group = nodes.tgroup(cols=4)
    table += group
    for width in (14, 12, 20, 54):
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    group += head
    head += _row([nodes.Text(h) for h in ("Величина", "В тексте", "Относится к", "Цитата")])
    body = nodes.tbody()
    group += body
    for fact in facts:
        applies: nodes.Node = nodes.Text("—")
        if fact.applies_to:
            applies = link(layout, docname, fact.applies_to)
        cells = [nodes.literal("", fact.name), nodes.Text(fact.text), applies]
        body += _row([*cells, nodes.Text(fact.evidence)])
    return table


def backlinks(layout: SiteLayout, node: Node, docname: str) -> list[nodes.Node]:
    """«На это правило ссылаются»: the sections whose text names this node."""
    edges = layout.graph.cited_by(node.id)
    seen: set[str] = set()
    items = nodes.bullet_list(classes=["rulekb-backlinks"])
    for edge in edges:
        if edge.source in seen or edge.source == node.id:
            continue
        seen.add(edge.source)
        item = nodes.paragraph()
        item += link(layout, docname, edge.source)
        if edge.evidence:
            item += nodes.Text(": «" + _shorten(edge.evidence) + "»")
        items += nodes.list_item("", item)
    if not seen:
        return []
    label = nodes.paragraph(classes=["rulekb-label"])
    label += nodes.strong("", "На это правило ссылаются")
    return [label, items]


def _paragraph(layout: SiteLayout, docname: str, pieces: Iterable[Piece]) -> nodes.paragraph:
    para = nodes.paragraph(classes=["rulekb-text"])
    for piece in pieces:
        if piece.link is None:
            para += nodes.Text(piece.text)
        else:
            para += link(layout, docname, piece.link.edge.target, piece.text)
    return para


def _labelled_links(
    layout: SiteLayout, docname: str, label: str, edges: Sequence[Edge]
) -> nodes.paragraph:
    para = nodes.paragraph(classes=["rulekb-relations"])
    para += nodes.Text(label)
    for i, edge in enumerate(edges):
        if i:
            para += nodes.Text(", ")
        para += link(layout, docname, edge.target)
    return para


def _labelled_sources(
    layout: SiteLayout, docname: str, label: str, edges: Sequence[Edge]
) -> nodes.paragraph:
    para = nodes.paragraph(classes=["rulekb-relations"])
    para += nodes.Text(label)
    for i, source in enumerate(dict.fromkeys(e.source for e in edges)):
        if i:
            para += nodes.Text(", ")
        para += link(layout, docname, source)
    return para


def _dedupe(edges: Iterable[Edge]) -> list[Edge]:
    seen: set[str] = set()
    out: list[Edge] = []
    for edge in edges:
        if edge.target not in seen:
            seen.add(edge.target)
            out.append(edge)
    return out


def _row(cells: Sequence[nodes.Node]) -> nodes.row:
    row = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        para = nodes.paragraph()
        para += cell
        entry += para
        row += entry
    return row


def _shorten(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _QUOTE_LIMIT else text[: _QUOTE_LIMIT - 1].rstrip() + "…"
