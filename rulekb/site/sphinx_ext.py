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
from rulekb.site import overview, render
from rulekb.site.layout import ANCHOR_PREFIX, SiteLayout, SystemLayout
from rulekb.site.refmap import reference_edges, reference_map

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


class StartDirective(SphinxDirective):
    """``.. rulekb-start::``: the start page (the systems and their most referred-to rules)."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        path = Path(self.env.srcdir) / self.config.rulekb_kb
        self.env.note_dependency(str(path))
        return overview.start_page(layout_of(path), self.env.docname)


class SystemDirective(_KBDirective):
    """``.. rulekb-system:: SLUG``: a system's start page."""

    def run(self) -> list[nodes.Node]:
        layout, system = self.system()
        return overview.system_page(layout, system, self.env.docname)


class MapDirective(_KBDirective):
    """``.. rulekb-map:: SLUG``: the picture of references between a system's rules."""

    def run(self) -> list[nodes.Node]:
        layout, system = self.system()
        drawn = reference_map(layout, system.id, self.env.docname)
        if drawn is None:
            return [nodes.paragraph("", "Правила этой системы не ссылаются друг на друга.")]
        svg, shown, total = drawn
        note = (
            "Стрелка ведёт от правила к правилу или понятию, которое оно называет; каждый "
            "прямоугольник — ссылка. Синие — правила, зелёные — типы подразделений, серые с "
            f"пунктиром — понятия, которые корпус только называет ({render.UNDEFINED})."
        )
        if shown < total:
            note += f" Показаны {shown} самых связанных из {total}."
        html = (
            '<div class="rulekb-map-tools" hidden>'
            '<button type="button" data-zoom="in" aria-label="Крупнее">+</button>'
            '<button type="button" data-zoom="out" aria-label="Мельче">−</button>'
            '<button type="button" data-zoom="fit">По ширине</button></div>'
            f'<div class="rulekb-refmap-box">{svg}</div>'
        )
        out: list[nodes.Node] = [nodes.paragraph("", note), nodes.raw("", html, format="html")]
        # the same references as a list: what a phone reads without zooming
        out.append(nodes.rubric("", "Те же ссылки списком"))
        items = nodes.bullet_list(classes=["rulekb-map-list"])
        cited: dict[str, list[str]] = {}
        for a, b in reference_edges(layout, system.id):
            cited.setdefault(a, []).append(b)
        doc = self.env.docname
        for source in sorted(cited, key=lambda n: (layout.display_title(n).lower(), n)):
            para = nodes.paragraph()
            para += render.link(layout, doc, source)
            para += nodes.Text(" → ")
            for i, target in enumerate(cited[source]):
                if i:
                    para += nodes.Text(", ")
                para += render.link(layout, doc, target)
            items += nodes.list_item("", para)
        out.append(items)
        return out


class GlossaryDirective(_KBDirective):
    """``.. rulekb-glossary:: SLUG``: every rule, unit type and concept, A to Я.

    Each other name (an English one too) is also an entry of its own that points to the
    node, so a reader who knows only «Regeneration» finds it under R. A passage (rules text
    under no heading, titled by its first words) names nothing: it stands where its file puts
    it and in the search, not here.
    """

    def run(self) -> list[nodes.Node]:
        layout, system = self.system()
        doc = self.env.docname
        entries: list[tuple[str, str, Any, str | None]] = []
        for node in layout.graph.in_system(system.id, ["rule", "unit_type", "concept"]):
            if node.category == "passage":
                continue
            entries.append((fold(node.title), node.id, node, None))
            titles = {fold(node.title)}
            for alias in node.aliases:
                if fold(alias) not in titles:
                    titles.add(fold(alias))
                    entries.append((fold(alias), node.id, node, alias))
        entries.sort(key=lambda e: (_letter_rank(glossary_letter(e[0])), e[0], e[1], e[3] or ""))
        out: list[nodes.Node] = [
            nodes.paragraph(
                "",
                f"{system.title}: все правила, типы подразделений и понятия с другими названиями "
                "(в том числе английскими); другое название стоит и отдельной статьёй со "
                "ссылкой на основную. Понятия, которые корпус только называет, отмечены "
                f"«{render.UNDEFINED}».",
            )
        ]
        letter: str | None = None
        items = nodes.definition_list(classes=["rulekb-glossary"])
        for key, _, node, other_name in entries:
            first = glossary_letter(key)
            if first != letter:
                if len(items):
                    out.append(items)
                out.append(nodes.rubric("", first))
                items = nodes.definition_list(classes=["rulekb-glossary"])
                letter = first
            if other_name is None:
                items += self._entry(layout, doc, node)
            else:
                items += self._alias(layout, doc, node, other_name)
        if len(items):
            out.append(items)
        return out

    def _alias(
        self, layout: SiteLayout, doc: str, node: Any, alias: str
    ) -> nodes.definition_list_item:
        term = nodes.term("", alias)
        body = nodes.paragraph()
        body += nodes.Text("другое название: ")
        body += render.link(layout, doc, node.id)
        return nodes.definition_list_item("", term, nodes.definition("", body))

    def _entry(self, layout: SiteLayout, doc: str, node: Any) -> nodes.definition_list_item:
        term = nodes.term()
        if node.kind == "concept":
            place = layout.places.get(node.id)
            if place is not None:
                term["ids"].append(place.anchor)
            term += nodes.Text(node.title)
        else:
            term += render.link(layout, doc, node.id, node.title)
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
            _links(body, layout, doc, citing)
        granting = list(dict.fromkeys(e.source for e in layout.graph.in_edges(node.id, "grants")))
        if granting:
            body += nodes.Text(". Дают типы: ")
            _links(body, layout, doc, granting)
        body += nodes.Text(".")
        definition = nodes.definition("", body)
        return nodes.definition_list_item("", term, definition)


def glossary_letter(key: str) -> str:
    """The glossary group of a folded title: its first letter, or «0–9» for a number.

    >>> glossary_letter("+1 при стрельбе"), glossary_letter("регенерация")
    ('0–9', 'Р')
    """
    for ch in key:
        if ch.isdigit():
            return "0–9"
        if ch.isalpha():
            return ch.upper()
    return "…"


def _letter_rank(letter: str) -> int:
    # numbers first, then Russian А–Я, then the Latin letters of English names
    if letter == "0–9":
        return 0
    return 1 if "а" <= letter.lower() <= "я" or letter == "Ё" else 2


def _links(para: nodes.paragraph, layout: SiteLayout, doc: str, node_ids: list[str]) -> None:
    for i, node_id in enumerate(node_ids):
        if i:
            para += nodes.Text(", ")
        para += render.link(layout, doc, node_id)


class PagesDirective(_KBDirective):
    """``.. rulekb-pages:: SLUG``: cited book pages and the source files."""

    def run(self) -> list[nodes.Node]:
        layout, system = self.system()
        doc = self.env.docname
        out: list[nodes.Node] = [
            nodes.paragraph("", f"{system.title}: страницы книги, на которые ссылается текст, "
                            "и тексты, из которых собран справочник."),
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
        out.append(nodes.rubric("", "Тексты"))
        files = nodes.bullet_list()
        for source, label in overview.books(layout, system):
            item = nodes.list_item(ids=[layout.anchor(source.id)])
            item += nodes.paragraph("", label)
            files += item
        if len(files):
            out.append(files)
        else:
            out.append(nodes.paragraph("", "Тексты не указаны."))
        return out


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
    app.add_directive("rulekb-start", StartDirective)
    app.add_directive("rulekb-system", SystemDirective)
    app.add_directive("rulekb-map", MapDirective)
    app.add_directive("rulekb-glossary", GlossaryDirective)
    app.add_directive("rulekb-pages", PagesDirective)
    app.connect("doctree-read", _anchors_first)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
