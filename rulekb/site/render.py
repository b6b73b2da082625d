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
# What a fact's number is, for the reader (fact names are identifiers: ingest/facts.py).
FACT_LABELS = {
    "distance": "расстояние",
    "within_distance": "в пределах",
    "max_distance": "не дальше",
    "min_distance": "не ближе",
    "not_distance": "вместо расстояния",
    "dice": "бросок кубиков",
    "not_dice": "вместо броска",
    "roll": "результат броска",
    "roll_min": "бросок не меньше",
    "roll_range": "результаты броска",
    "natural_roll": "выпавшее на кубике",
    "threshold": "порог",
    "modifier": "модификатор",
    "count": "количество",
    "max_count": "не больше",
    "max_angle": "наибольший угол",
    "profile": "профиль",
    "parameter_range": "значения параметра",
}
# the same by fact kind, for a name this table does not know yet
FACT_KIND_LABELS = {
    "distance": "расстояние",
    "dice": "бросок кубиков",
    "roll": "результат броска",
    "threshold": "порог",
    "range": "диапазон",
    "count": "количество",
    "profile": "профиль",
    "modifier": "модификатор",
    "angle": "угол",
}
_QUOTE_LIMIT = 200


def link(layout: SiteLayout, docname: str, node_id: str, text: str | None = None) -> nodes.Node:
    """A link to a node's page or anchor; plain text when the node has no place."""
    label = text if text is not None else layout.display_title(node_id)
    url = layout.url(docname, node_id)
    # a concept the corpus only names looks different wherever it is linked
    classes = ["rulekb-undefined"] if _undefined(layout, node_id) else []
    if url is None:
        return nodes.inline("", label, classes=classes)
    ref = nodes.reference("", label, refuri=url, internal=True, classes=classes)
    if classes:
        ref["reftitle"] = UNDEFINED  # Sphinx writes it as the link's title (a tooltip)
    return ref


def node_body(layout: SiteLayout, node: Node, docname: str) -> list[nodes.Node]:
    """Everything shown under a section's heading, in reading order."""
    out: list[nodes.Node] = [meta_line(layout, node, docname)]
    children = layout.section_children(node)
    links, unplaced = place_links(node, layout.graph.out_edges(node.id))
    paras, unfit = paragraphs(node.text, own_ranges(node, children), links)
    for pieces in paras:
        out.append(_paragraph(layout, docname, pieces))
    shown = [p.link.edge for pieces in paras for p in pieces if p.link is not None]
    cited = ("references", "cites_page")
    extra = _dedupe([e for e in [*unplaced, *(lk.edge for lk in unfit)] if e.kind in cited])
    if extra:
        out.append(_labelled_links(layout, docname, "Также ссылается на: ", extra))
    undefined = _dedupe([e for e in [*shown, *extra] if _undefined(layout, e.target)])
    if undefined:
        out.append(_labelled_links(layout, docname, "Не описаны в корпусе: ", undefined))
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
    """The rules a unit type grants and inherits, grouped by the path of types that gives them.

    «Даёт сам тип: …», then for each inherited type «Тип наследует по пути A → B → C: …»,
    every type and rule a link.
    """
    applied = layout.graph.effective_rules(node.id)
    title = nodes.paragraph(classes=["rulekb-label"])
    title += nodes.strong("", "Правила типа")
    if not applied:
        return [title, nodes.paragraph("", "Корпус не называет правил этого типа.")]
    groups: dict[tuple[str, ...], list[Node]] = {}
    for rule in applied:
        groups.setdefault(tuple(rule.path[:-1]), []).append(rule.rule)
    items = nodes.bullet_list(classes=["rulekb-effective"])
    for path, rules in groups.items():
        item = nodes.paragraph()
        if len(path) <= 1:
            item += nodes.Text("Даёт сам тип: ")
        else:
            item += nodes.Text("Тип наследует по пути ")
            for i, step in enumerate(path):
                if i:
                    item += nodes.Text(" → ")
                item += link(layout, docname, step)
            item += nodes.Text(": ")
        for i, granted in enumerate(rules):
            if i:
                item += nodes.Text(", ")
            item += link(layout, docname, granted.id)
            if granted.kind == "concept" and not granted.defined:
                item += nodes.Text(f" ({UNDEFINED})")
        items += nodes.list_item("", item)
    return [title, items]


def fact_label(fact: Fact) -> str:
    """What a fact's number is, in Russian, with its topic: «не дальше (турбо-ускорение)»."""
    label = FACT_LABELS.get(fact.name) or FACT_KIND_LABELS.get(fact.kind, "величина")
    return f"{label} ({fact.topic})" if fact.topic else label


def facts_table(layout: SiteLayout, docname: str, facts: Sequence[Fact]) -> nodes.table:
    """The numbers a rule states: what, as written, what it applies to, the sentence.

    Facts of one sentence in a row share one quote cell.
    """
    table = nodes.table(classes=["rulekb-facts"])
    group = nodes.tgroup(cols=4)
    table += group
    for width in (18, 10, 20, 52):
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    group += head
    head += _row([nodes.Text(h) for h in ("Что", "В тексте", "Относится к", "Цитата")])
    body = nodes.tbody()
    group += body
    runs: list[list[Fact]] = []
    for fact in facts:
        if runs and runs[-1][0].evidence == fact.evidence:
            runs[-1].append(fact)
        else:
            runs.append([fact])
    for run in runs:
        for i, fact in enumerate(run):
            applies: nodes.Node = nodes.Text("—")
            if fact.applies_to:
                applies = link(layout, docname, fact.applies_to)
            cells = [nodes.Text(fact_label(fact)), nodes.Text(fact.text), applies]
            row = _row(cells)
            if i == 0:
                quote = _entry(nodes.Text(fact.evidence))
                if len(run) > 1:
                    quote["morerows"] = len(run) - 1
                row += quote
            body += row
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


def _undefined(layout: SiteLayout, node_id: str) -> bool:
    target = layout.node(node_id)
    return target is not None and not target.defined


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
        row += _entry(cell)
    return row


def _entry(cell: nodes.Node) -> nodes.entry:
    entry = nodes.entry()
    para = nodes.paragraph()
    para += cell
    entry += para
    return entry


def _shorten(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _QUOTE_LIMIT else text[: _QUOTE_LIMIT - 1].rstrip() + "…"
