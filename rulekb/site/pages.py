"""The reStructuredText sources of the rules reference: one page per top-level section.

The rst only carries structure (labels, headings, toctrees, directive calls). Every heading
is a KB title with all ASCII punctuation backslash-escaped, so no title can start a
directive, a role, a substitution or a link. Everything else a KB node holds is rendered by
the directives in :mod:`rulekb.site.sphinx_ext`, as text nodes that are never parsed.
"""

from __future__ import annotations

import string

from rulekb.site.layout import RULES_ROOT, SiteLayout

# Underline characters for heading levels 0, 1, 2 … of one page.
_UNDERLINES = "=-~^\"'`+*#"
_PUNCTUATION = frozenset(string.punctuation)


def rst_escape(text: str) -> str:
    r"""One line of rst that shows ``text`` as written: whitespace collapsed, markup escaped.

    >>> rst_escape(".. raw:: html `x`_ |sub|")
    '\\.\\. raw\\:\\: html \\`x\\`\\_ \\|sub\\|'
    """
    flat = " ".join(text.split())
    return "".join("\\" + ch if ch in _PUNCTUATION else ch for ch in flat)


def heading(title: str, level: int) -> str:
    """A section heading; the underline is long enough for any character width."""
    text = rst_escape(title) or "\\-"
    char = _UNDERLINES[min(level, len(_UNDERLINES) - 1)]
    return f"{text}\n{char * (2 * len(text) + 2)}\n"


def label(name: str) -> str:
    """An explicit target; ``name`` is an anchor made by :class:`SiteLayout` (ASCII, safe)."""
    return f".. _{name}:\n"


def toctree(entries: list[str], *, hidden: bool, maxdepth: int = 1) -> str:
    """A toctree over docnames relative to the page."""
    options = "   :hidden:\n" if hidden else f"   :maxdepth: {maxdepth}\n"
    body = "".join(f"   {entry}\n" for entry in entries)
    return f".. toctree::\n{options}\n{body}"


NOSEARCH = ":nosearch:\n"
"""Docinfo that keeps a page out of Sphinx's full-text search (lists, the map, the docs)."""
ABOUT_DOC = "about/index"


def site_documents(layout: SiteLayout) -> dict[str, str]:
    """Every generated page: docname → rst text (the start page too)."""
    docs: dict[str, str] = {}
    docs["index"] = "\n".join(
        [
            label("rulekb-start"),
            heading("Справочник правил", 0),
            ".. rulekb-start::\n",
            toctree([s.index_doc for s in layout.systems] + [ABOUT_DOC], hidden=True),
        ]
    )
    for system in layout.systems:
        prefix = f"{RULES_ROOT}/{system.slug}/"
        sections = [layout.root_doc[r.id].removeprefix(prefix) for r in system.roots]
        docs[system.index_doc] = "\n".join(
            [
                NOSEARCH,
                label(f"sys-{system.slug}"),
                heading(system.title, 0),
                f".. rulekb-system:: {system.slug}\n",
                toctree([*sections, "glossary", "map", "pages"], hidden=True),
            ]
        )
        for doc, name, title in (
            (system.glossary_doc, "glossary", "Глоссарий"),
            (system.map_doc, "map", "Схема ссылок"),
            (system.pages_doc, "pages", "Страницы книги"),
        ):
            docs[doc] = "\n".join(
                [
                    NOSEARCH,
                    label(f"{name}-{system.slug}"),
                    heading(title, 0),
                    f".. rulekb-{name}:: {system.slug}\n",
                ]
            )
    for docname, root in layout.section_docs():
        parts: list[str] = []
        for depth, node in layout.trees[root.id]:
            anchor = layout.anchor(node.id)
            parts += [label(anchor), heading(node.title or node.id, depth)]
            parts.append(f".. rulekb-node:: {anchor}\n")
        docs[docname] = "\n".join(parts)
    return docs
