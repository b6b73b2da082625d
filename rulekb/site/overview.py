"""What the start page and each system's page show: systems, their books, the rules most
referred to, the reference lists and the way to the map.

"Most looked-up" is read from the graph, not written by hand: the rules and unit types that
the most other sections refer to (or grant), per system.
"""

from __future__ import annotations

from collections import Counter

from docutils import nodes

from kb.books import book_label
from kb.models import Node
from rulekb.site import render
from rulekb.site.layout import SiteLayout, SystemLayout, relative_url

MOST_CITED = 8
_CITING_KINDS = ("references", "overrides", "grants")


def most_cited(layout: SiteLayout, system: SystemLayout, limit: int = MOST_CITED) -> list[Node]:
    """The rules and unit types of a system that the most other sections name or grant.

    Each citing section counts once per target; a section citing itself or its own
    subsection does not count. Ties go to the shorter, then alphabetically first title.
    """
    counts: Counter[str] = Counter()
    for node in [*system.roots, *_all_sections(layout, system)]:
        targets = {
            e.target for e in layout.graph.out_edges(node.id)
            if e.kind in _CITING_KINDS and e.target != node.id
        }
        for target in targets:
            found = layout.node(target)
            if found is None or found.system != system.id or not found.defined:
                continue
            if found.kind in ("rule", "unit_type") and layout.parent(found) != node:
                counts[target] += 1
    ranked = sorted(
        counts, key=lambda t: (-counts[t], len(layout.graph.nodes[t].title),
                               layout.graph.nodes[t].title, t)
    )
    return [layout.graph.nodes[t] for t in ranked[:limit]]


def _all_sections(layout: SiteLayout, system: SystemLayout) -> list[Node]:
    out: list[Node] = []
    for root in system.roots:
        out.extend(node for _, node in layout.trees.get(root.id, [])[1:])
    return out


def books(layout: SiteLayout, system: SystemLayout) -> list[tuple[Node, str]]:
    """Each source text of a system with its label: the book and the pages it covers."""
    out: list[tuple[Node, str]] = []
    for source in system.sources:
        pages = sorted({
            p for n in layout.graph.in_system(system.id, ["rule", "unit_type"])
            if n.source == source.source for p in (n.pages or ((n.page,) if n.page else ()))
        })
        title = source.title if source.title != source.source else system.title
        if not pages:
            out.append((source, title))
        elif len(pages) == 1:
            out.append((source, book_label(title, pages[0])))
        else:
            out.append((source, f"{title} — стр. {pages[0]}–{pages[-1]}"))
    return out


def start_page(layout: SiteLayout, doc: str) -> list[nodes.Node]:
    """The start page: one card per game system with its most referred-to rules."""
    out: list[nodes.Node] = [
        nodes.paragraph(
            "", "Правила настольных игр по русским текстам книг: каждое правило со ссылками "
            "на те, что оно называет, и с цитатой книги. Поиск понимает любые формы слов, "
            "опечатки и английские названия.", classes=["rulekb-lead"],
        )
    ]
    grid = nodes.container(classes=["rulekb-systems"])
    for system in layout.systems:
        card = nodes.container(classes=["rulekb-system-card"])
        title = nodes.paragraph(classes=["rulekb-card-title"])
        title += nodes.reference(
            "", system.title, refuri=relative_url(doc, system.index_doc), internal=True
        )
        card += title
        card += nodes.paragraph("", counts_line(layout, system), classes=["rulekb-card-info"])
        top = most_cited(layout, system)
        if top:
            card += nodes.paragraph("", "Чаще всего упоминаются:", classes=["rulekb-card-label"])
            card += link_list(layout, doc, [n.id for n in top], classes=["rulekb-top"])
        more = nodes.paragraph(classes=["rulekb-card-more"])
        for i, (target, text) in enumerate(
            ((system.glossary_doc, "Глоссарий"), (system.map_doc, "Схема ссылок"))
        ):
            if i:
                more += nodes.Text(" · ")
            more += nodes.reference("", text, refuri=relative_url(doc, target), internal=True)
        card += more
        grid += card
    out.append(grid)
    about = nodes.paragraph(classes=["rulekb-about-link"])
    about += nodes.Text("Как собран этот справочник и как проверить им список армии или "
                        "записанную партию — в разделе ")
    about += nodes.reference("", "О программе", refuri=relative_url(doc, "about/index"),
                             internal=True)
    about += nodes.Text(".")
    out.append(about)
    return out


def counts_line(layout: SiteLayout, system: SystemLayout) -> str:
    """«62 правила, 9 типов подразделений» in Russian plural forms."""
    rules = len(layout.graph.in_system(system.id, ["rule"]))
    types = len(system.unit_types)
    text = f"{rules} {_plural(rules, 'правило', 'правила', 'правил')}"
    if types:
        text += f", {types} {_plural(types, 'тип', 'типа', 'типов')} подразделений"
    return text


def _plural(n: int, one: str, few: str, many: str) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def system_page(layout: SiteLayout, system: SystemLayout, doc: str) -> list[nodes.Node]:
    """A system's page: its books, the rules most referred to, sections, unit types, lists."""
    out: list[nodes.Node] = []
    info = nodes.paragraph(classes=["rulekb-card-info"])
    info += nodes.Text(counts_line(layout, system) + ". ")
    for i, (target, text) in enumerate(
        ((system.map_doc, "Схема ссылок"), (system.glossary_doc, "Глоссарий"),
         (system.pages_doc, "Страницы книги"))
    ):
        if i:
            info += nodes.Text(" · ")
        info += nodes.reference("", text, refuri=relative_url(doc, target), internal=True)
    out.append(info)
    top = most_cited(layout, system)
    if top:
        out.append(nodes.rubric("", "Чаще всего упоминаются"))
        out.append(link_list(layout, doc, [n.id for n in top], classes=["rulekb-top"]))
    out.append(nodes.rubric("", "Разделы"))
    out.append(link_list(layout, doc, [r.id for r in system.roots]))
    if system.unit_types:
        out.append(nodes.rubric("", "Типы подразделений"))
        out.append(link_list(layout, doc, [t.id for t in system.unit_types]))
    found = books(layout, system)
    if found:
        out.append(nodes.rubric("", "Тексты"))
        items = nodes.bullet_list()
        for _, label in found:
            items += nodes.list_item("", nodes.paragraph("", label))
        out.append(items)
    return out


def link_list(
    layout: SiteLayout, doc: str, node_ids: list[str], classes: list[str] | None = None
) -> nodes.bullet_list:
    """A bullet list of links to nodes."""
    items = nodes.bullet_list(classes=classes or [])
    for node_id in node_ids:
        para = nodes.paragraph()
        para += render.link(layout, doc, node_id)
        items += nodes.list_item("", para)
    return items
