"""The Sphinx extension that renders KB nodes into the generated pages.

Directives take an ASCII key made by :class:`SiteLayout` (an anchor or a system slug), find the
node in the KB named by the ``rulekb_kb`` setting and return docutils nodes built by
:mod:`rulekb.site.render`, so no KB text ever passes through the rst parser.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from kb.lemmas import fold
from kb.store import load
from rulekb.site import render
from rulekb.site.layout import ANCHOR_PREFIX, SiteLayout, SystemLayout, relative_url
from rulekb.site.refmap import reference_map

_LAYOUTS: dict[Path, tuple[tuple[int, int], SiteLayout]] = {}


def _stamp(path: Path) -> tuple[int, int]:
    stat = path.stat()
    return stat.st_mtime_ns, stat.st_size


def remember(path: Path, layout: SiteLayout) -> None:
    """Reuse a layout already computed for the KB file at ``path`` (saves a reload)."""
    _LAYOUTS[path.resolve()] = (_stamp(path), layout)


def layout_of(path: Path) -> SiteLayout:
    """The layout of the KB file at ``path``, loaded once per file version."""
    path = path.resolve()
    cached = _LAYOUTS.get(path)
    if cached is not None and cached[0] == _stamp(path):
        return cached[1]
    layout = SiteLayout(load(path))
    _LAYOUTS[path] = (_stamp(path), layout)
    return layout


class _KBDirective(SphinxDirective):
    required_arguments = 1
    has_content = False

    def layout(self) -> SiteLayout:
        path = Path(self.env.srcdir) / self.config.rulekb_kb
        self.env.note_dependency(str(path))
        return layout_of(path)

    def system(self) -> tuple[SiteLayout, SystemLayout]:
        layout = self.layout()
        for system in layout.systems:
            if system.slug == self.arguments[0]:
                return layout, system
        raise self.error(f"Нет игровой системы «{self.arguments[0]}»")


class NodeDirective(_KBDirective):
    """``.. rulekb-node:: ANCHOR``: a section's text, links, facts and backlinks."""

    def run(self) -> list[nodes.Node]:
        layout = self.layout()
        node = layout.by_anchor(self.arguments[0])
        if node is None:
            raise self.error(f"Нет узла с якорем «{self.arguments[0]}»")
        return render.node_body(layout, node, self.env.docname)


class SystemDirective(_KBDirective):
    """``.. rulekb-system:: SLUG``: a system's start page."""

    def run(self) -> list[nodes.Node]:
        layout, system = self.system()
        doc = self.env.docname
        out: list[nodes.Node] = []
        rules = layout.graph.in_system(system.id, ["rule"])
        intro = (
            f"Разделов правил: {len(rules)}, типов подразделений: {len(system.unit_types)}, "
            f"понятий: {len(system.concepts)}. Исходные файлы: {len(system.sources)}."
        )
        out.append(nodes.paragraph("", intro))
        out.append(nodes.rubric("", "Разделы"))
        out.append(_link_list(layout, doc, [r.id for r in system.roots]))
        if system.unit_types:
            out.append(nodes.rubric("", "Типы подразделений"))
            out.append(_link_list(layout, doc, [t.id for t in system.unit_types]))
        out.append(nodes.rubric("", "Справочные страницы"))
        refs = nodes.bullet_list()
        for target, text in (
            (system.glossary_doc, "Глоссарий: все правила и понятия с другими названиями"),
            (system.pages_doc, "Страницы книги и исходные файлы"),
        ):
            para = nodes.paragraph()
            para += nodes.reference("", text, refuri=relative_url(doc, target), internal=True)
            refs += nodes.list_item("", para)
        out.append(refs)
        out.append(nodes.rubric("", "Схема ссылок"))
        drawn = reference_map(layout, system.id, doc)
        if drawn is None:
            out.append(nodes.paragraph("", "Правила этой системы не ссылаются друг на друга."))
        else:
            svg, shown, total = drawn
            note = "Стрелка ведёт от правила к правилу или понятию, которое оно называет; "
            note += "прямоугольники — ссылки на страницы."
            if shown < total:
                note += f" Показаны {shown} самых связанных из {total}."
            out.append(nodes.paragraph("", note))
            html = f'<div class="rulekb-refmap-box">{svg}</div>'
            out.append(nodes.raw("", html, format="html"))
        return out


class GlossaryDirective(_KBDirective):
    """``.. rulekb-glossary:: SLUG``: every rule, unit type and concept, A to Я."""

    def run(self) -> list[nodes.Node]:
        layout, system = self.system()
        doc = self.env.docname
        entries = layout.graph.in_system(system.id, ["rule", "unit_type", "concept"])
        entries.sort(key=lambda n: (fold(n.title), n.id))
        out: list[nodes.Node] = [
            nodes.paragraph(
                "",
                f"{system.title}: все правила, типы подразделений и понятия с другими названиями "
                "(в том числе английскими). Понятия, которые корпус только называет, "
                f"отмечены «{render.UNDEFINED}».",
            )
        ]
        letter = None
        items = nodes.definition_list()
        for node in entries:
            first = (fold(node.title)[:1] or "#").upper()
            if first != letter:
                if len(items):
                    out.append(items)
                out.append(nodes.rubric("", first))
                items = nodes.definition_list()
                letter = first
            items += self._entry(layout, doc, node)
        if len(items):
            out.append(items)
        return out

    def _entry(self, layout: SiteLayout, doc: str, node: Any) -> nodes.definition_list_item:
        term = nodes.term()
        if node.kind == "concept":
            place = layout.places.get(node.id)
            if place is not None:
                term["ids"].append(place.anchor)
            term += nodes.Text(node.title)
        else:
            term += render.link(layout, doc, node.id)
        body = nodes.paragraph()
        body += nodes.Text(render.KIND_LABELS.get(node.kind, node.kind))
        if node.kind == "concept" and not node.defined:
            body += nodes.Text(f" — {render.UNDEFINED}")
        if node.aliases:
            body += nodes.Text(". Другие названия: " + ", ".join(node.aliases))
        parent = layout.parent(node)
        if parent is not None and parent.kind in ("rule", "unit_type"):
            body += nodes.Text(". Раздел: ")
            body += render.link(layout, doc, parent.id)
        citing = list(dict.fromkeys(e.source for e in layout.graph.cited_by(node.id)))
        if node.kind == "concept" and citing:
            body += nodes.Text(". Упоминается в: ")
            for i, source in enumerate(citing):
                if i:
                    body += nodes.Text(", ")
                body += render.link(layout, doc, source)
        granting = list(dict.fromkeys(e.source for e in layout.graph.in_edges(node.id, "grants")))
        if granting:
            body += nodes.Text(". Дают типы: ")
            for i, source in enumerate(granting):
                if i:
                    body += nodes.Text(", ")
                body += render.link(layout, doc, source)
        definition = nodes.definition("", body)
        return nodes.definition_list_item("", term, definition)


class PagesDirective(_KBDirective):
    """``.. rulekb-pages:: SLUG``: cited book pages and the source files."""

    def run(self) -> list[nodes.Node]:
        layout, system = self.system()
        doc = self.env.docname
        out: list[nodes.Node] = [
            nodes.paragraph("", f"{system.title}: страницы книги, на которые ссылается текст, "
                            "и файлы корпуса."),
            nodes.rubric("", "Страницы книги"),
        ]
        if not system.pages:
            out.append(nodes.paragraph("", "Текст не ссылается на страницы книги."))
        pages = nodes.bullet_list()
        for page in system.pages:
            item = nodes.list_item(ids=[layout.anchor(page.id)])
            para = nodes.paragraph("", page.title)
            on_page = [e.target for e in layout.graph.out_edges(page.id, "on_page")]
            citing = [e.source for e in layout.graph.in_edges(page.id, "cites_page")]
            for label, ids in (("; на ней: ", on_page), ("; на неё ссылаются: ", citing)):
                ids = list(dict.fromkeys(ids))
                if ids:
                    para += nodes.Text(label)
                    for i, node_id in enumerate(ids):
                        if i:
                            para += nodes.Text(", ")
                        para += render.link(layout, doc, node_id)
            item += para
            pages += item
        if len(pages):
            out.append(pages)
        out.append(nodes.rubric("", "Исходные файлы"))
        files = nodes.bullet_list()
        for source in system.sources:
            item = nodes.list_item(ids=[layout.anchor(source.id)])
            para = nodes.paragraph()
            name = source.source or source.title
            para += nodes.literal("", name)
            if source.title and source.title != name:
                para += nodes.Text(" — " + source.title)
            item += para
            files += item
        if len(files):
            out.append(files)
        else:
            out.append(nodes.paragraph("", "Файлы не указаны."))
        return out


def _link_list(layout: SiteLayout, doc: str, node_ids: list[str]) -> nodes.bullet_list:
    items = nodes.bullet_list()
    for node_id in node_ids:
        para = nodes.paragraph()
        para += render.link(layout, doc, node_id)
        items += nodes.list_item("", para)
    return items


def _anchors_first(app: Sphinx, doctree: nodes.document) -> None:
    # A section gets an id from its title too ("advancing" for "ADVANCING"); HTML shows
    # only the first id on the element. Put the node anchor first so that it names the
    # section itself, not an empty span inside it.
    for section in doctree.findall(nodes.section):
        ids = section["ids"]
        mine = [i for i in ids if i.startswith(ANCHOR_PREFIX)]
        if mine and ids[0] not in mine:
            section["ids"] = mine + [i for i in ids if i not in mine]


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directives and the ``rulekb_kb`` setting (KB path, relative to sources)."""
    app.add_config_value("rulekb_kb", "_generated/kb.json", "env", types=(str,))
    app.add_directive("rulekb-node", NodeDirective)
    app.add_directive("rulekb-system", SystemDirective)
    app.add_directive("rulekb-glossary", GlossaryDirective)
    app.add_directive("rulekb-pages", PagesDirective)
    app.connect("doctree-read", _anchors_first)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
