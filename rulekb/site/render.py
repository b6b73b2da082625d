"""Docutils nodes for what the site shows of a KB node: text with links, facts, backlinks.

Every piece of KB text becomes a ``nodes.Text`` here and is never parsed as markup, so a rule
whose text holds reStructuredText directives or HTML is shown as written and cannot change
the page.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from docutils import nodes

from kb.books import book_title
from kb.lemmas import fold
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
    "points": "стоимость в очках",
}


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
    links, _ = place_links(node, layout.graph.out_edges(node.id))
    paras, _ = paragraphs(node.text, own_ranges(node, children), links)
    for pieces in paras:
        out.append(_paragraph(layout, docname, pieces))
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
        out.append(facts_table(layout, docname, node.facts, node.text, node.title))
    out.extend(neighbourhood(layout, node, docname))
    return out


def meta_line(layout: SiteLayout, node: Node, docname: str) -> nodes.paragraph:
    """«правило · Warhammer Fantasy Battle, 8-я редакция — стр. 72 · другие названия: …».

    The book is named by its title (never the file name); the page links to the list of
    the book's pages.
    """
    para = nodes.paragraph(classes=["rulekb-meta"])
    para += nodes.inline("", KIND_LABELS.get(node.kind, node.kind), classes=["rulekb-kind"])
    if node.kind == "concept" and not node.defined:
        para += nodes.Text(f" ({UNDEFINED})")
    page_numbers = list(node.pages) or ([node.page] if node.page is not None else [])
    if node.source or page_numbers:
        para += nodes.Text(" · ")
        book = nodes.inline("", book_title(layout.graph, node), classes=["rulekb-book"])
        para += book
        if page_numbers:
            para += nodes.Text(" — стр. ")
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


def fact_label(fact: Fact, title: str = "") -> str:
    """What a fact's number is, in Russian, with its topic: «не дальше (турбо-ускорение)».

    The topic is left out when it is the rule's own title (``title``): on the page of
    «Регенерация» every number is about regeneration.
    """
    label = FACT_LABELS.get(fact.name) or FACT_KIND_LABELS.get(fact.kind, "величина")
    if not fact.topic or (title and fold(fact.topic) in fold(title)):
        return label
    return f"{label} ({fact.topic})"


_FACT_COLUMNS = (("what", "Что"), ("text", "В тексте"), ("applies", "Относится к"),
                 ("quote", "Цитата"))


def facts_table(
    layout: SiteLayout, docname: str, facts: Sequence[Fact], shown_text: str = "",
    title: str = "",
) -> nodes.table:
    """The numbers a rule states: what, as written, what it applies to, the sentence.

    Only the columns that say something: «Относится к» only when a fact applies to a unit
    type, «Цитата» only when some sentence is not in the text shown above the table. Facts
    of one sentence in a row share one quote cell. Every cell has a class naming its column
    (``rulekb-col-…``), so that on a narrow screen the rows fold into labelled lists.
    """
    flat = " ".join(shown_text.split())
    quoted = any(" ".join(f.evidence.split()) not in flat for f in facts)
    columns = [
        (key, head) for key, head in _FACT_COLUMNS
        if (key != "applies" or any(f.applies_to for f in facts)) and (key != "quote" or quoted)
    ]
    table = nodes.table(classes=["rulekb-facts"])
    group = nodes.tgroup(cols=len(columns))
    table += group
    widths = {"what": 18, "text": 10, "applies": 20, "quote": 52}
    for key, _ in columns:
        group += nodes.colspec(colwidth=widths[key])
    head = nodes.thead()
    group += head
    head += _row([nodes.Text(h) for _, h in columns], [k for k, _ in columns])
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
            cells: list[nodes.Node] = [nodes.Text(fact_label(fact, title)), nodes.Text(fact.text)]
            keys = ["what", "text"]
            if any(k == "applies" for k, _ in columns):
                applies: nodes.Node = nodes.Text("")
                if fact.applies_to:
                    applies = link(layout, docname, fact.applies_to)
                cells.append(applies)
                keys.append("applies")
            row = _row(cells, keys)
            if i == 0 and quoted:
                quote = _entry(nodes.Text(fact.evidence), "quote")
                if len(run) > 1:
                    quote["morerows"] = len(run) - 1
                row += quote
            body += row
    return table


def neighbourhood(layout: SiteLayout, node: Node, docname: str) -> list[nodes.Node]:
    """The node's small neighbourhood: what it refers to, and what refers to it.

    «Ссылается на: …» lists every rule, unit type and concept its text names (those linked
    in the text too), «На это правило ссылаются: …» the sections whose text names it.
    """
    cites = [
        e for e in layout.graph.out_edges(node.id)
        if e.kind in ("references", "overrides", "cites_page") and e.target != node.id
        and layout.url(docname, e.target) is not None
    ]
    citing: list[str] = []
    for edge in layout.graph.cited_by(node.id):
        if edge.source != node.id and edge.source not in citing:
            citing.append(edge.source)
    if not cites and not citing:
        return []
    box = nodes.container(classes=["rulekb-neighbours"])
    if cites:
        box += _labelled_links(layout, docname, "Ссылается на: ", _dedupe(cites))
    if citing:
        para = nodes.paragraph(classes=["rulekb-relations", "rulekb-backlinks"])
        para += nodes.strong("", "На это правило ссылаются: ")
        for i, source in enumerate(citing):
            if i:
                para += nodes.Text(", ")
            para += link(layout, docname, source)
        box += para
    return [box]


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
    para += nodes.strong("", label)
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


def _row(cells: Sequence[nodes.Node], keys: Sequence[str]) -> nodes.row:
    row = nodes.row()
    for cell, key in zip(cells, keys, strict=True):
        row += _entry(cell, key)
    return row


def _entry(cell: nodes.Node, key: str) -> nodes.entry:
    entry = nodes.entry(classes=[f"rulekb-col-{key}"])
    para = nodes.paragraph()
    para += cell
    entry += para
    return entry
