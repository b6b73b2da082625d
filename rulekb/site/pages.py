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


def site_documents(layout: SiteLayout) -> dict[str, str]:
    """Every generated page: docname → rst text."""
    docs: dict[str, str] = {}
    intro = (
        "Правила из текстов корпуса, по игровым системам. У каждого раздела правил своя "
        "страница, у подразделов — якоря на ней; ссылки в тексте ведут к правилам, на "
        "которые он ссылается. Поиск понимает опечатки и любые формы слов."
    )
    docs[f"{RULES_ROOT}/index"] = "\n".join(
        [
            label("rulekb-rules"),
            heading("Справочник правил", 0),
            rst_escape(intro) + "\n",
            toctree([f"{s.slug}/index" for s in layout.systems], hidden=False),
        ]
    )
    for system in layout.systems:
        prefix = f"{RULES_ROOT}/{system.slug}/"
        sections = [layout.root_doc[r.id].removeprefix(prefix) for r in system.roots]
        docs[system.index_doc] = "\n".join(
            [
                label(f"sys-{system.slug}"),
                heading(system.title, 0),
                f".. rulekb-system:: {system.slug}\n",
                toctree([*sections, "glossary", "pages"], hidden=True),
            ]
        )
        docs[system.glossary_doc] = "\n".join(
            [
                label(f"glossary-{system.slug}"),
                heading("Глоссарий", 0),
                f".. rulekb-glossary:: {system.slug}\n",
            ]
        )
        docs[system.pages_doc] = "\n".join(
            [
                label(f"pages-{system.slug}"),
                heading("Страницы книги и файлы", 0),
                f".. rulekb-pages:: {system.slug}\n",
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
