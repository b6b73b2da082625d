"""A PDF's outline (its bookmarks) read and matched to the lines of its pages
(:mod:`ingest.pdf_text`): each entry heads the line it names, at its depth, and the type sizes'
levels follow the outline's depths.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pdfminer.pdfdocument import PDFDocument

    from ingest.pdf_layout import Line


@dataclass(frozen=True)
class OutlineEntry:
    """An entry of a PDF's outline (its bookmarks): its depth, its title's key
    (:func:`heading_key`) and the page it leads to (its place in the file), if known."""

    depth: int
    key: str
    page: int | None


_SECTION_NUMBER = re.compile(
    r"^(?:(?:Appendix|Приложение)\s+)?(?:\d+(?:\.\d+)*\.?|[IVXLC]+\.|[A-Z](?:\.\d+)*\.?)"
    r"\s+(?=\S)")
"""A heading's number before its words ("2.1.", "II.", "A.1", an appendix's "Appendix A" and
"A"; not a Russian one-letter word, "В бою")."""


_KEY_MARKS = re.compile(r"[()\[\]{}«»\"“”„'’]")


def heading_key(title: str) -> str:
    """A heading's words as an outline and a page may both write them: its section number,
    case, hyphens, spaces and a closing period or colon aside ("2.1. Directory layout" and
    "Directory layout"; "Non-regular" and "Nonregular")."""
    words = re.sub("[-\u2010\u2011\u00ad]", "", _SECTION_NUMBER.sub("", title.strip()))
    # (brackets and quotes as one writes them and the other not: "Papillary Carcinoma
    # (PAP-1)" for the page's "Papillary Carcinoma PAP-1", «Паника» for "Паника")
    words = _KEY_MARKS.sub(" ", words)
    return " ".join(words.split()).casefold().rstrip(".:")


def read_outline(document: PDFDocument) -> list[OutlineEntry]:
    """The entries of a PDF's outline, in order; none when it has none or it cannot be read
    (the outline is a help to the reading, never a reason for it to fail)."""
    from pdfminer.pdfpage import PDFPage

    try:
        pages = {page.pageid: k for k, page in enumerate(PDFPage.create_pages(document))}
        found = list(document.get_outlines())
    except Exception:  # noqa: BLE001 (PDFNoOutlines, or a damaged catalogue: no outline)
        return []
    out = []
    for depth, title, dest, action, _ in found:
        if isinstance(title, str) and title.strip() and isinstance(depth, int):
            out.append(OutlineEntry(depth, heading_key(title), _target(document, pages, dest,
                                                                 action)))
    return out




def _target(document: object, pages: dict[object, int], dest: object,
            action: object) -> int | None:
    """The page (its place in the file) an outline entry leads to: its destination, given
    or named, or its action's."""
    from pdfminer.pdftypes import PDFObjRef, resolve1

    try:
        target = resolve1(dest)
        if target is None and action is not None:
            act = resolve1(action)
            target = resolve1(act.get("D")) if isinstance(act, dict) else None
        if isinstance(target, (bytes, str)) or hasattr(target, "name"):
            name = target.name if hasattr(target, "name") else target
            target = resolve1(document.get_dest(name))  # type: ignore[attr-defined]
        if isinstance(target, dict):
            target = resolve1(target.get("D"))
        if isinstance(target, list) and target and isinstance(target[0], PDFObjRef):
            return pages.get(target[0].objid)
    except Exception:  # noqa: BLE001 (a destination that leads nowhere: the entry is kept)
        return None
    return None


MIN_OUTLINE = 2
"""Entries of an outline that must head lines of the text for it to be read at all (an
outline of other words, a test's, describes nothing)."""


def with_outline(read: list[list[tuple[Line, int]]], entries: list[OutlineEntry]
                  ) -> tuple[list[list[tuple[Line, int]]], set[tuple[int, int]]]:
    """The pages' lines with their levels told by the PDF's outline too.

    An outline's entry heads the line it names (its words, or the words of the line and the
    next one of its block: a heading set on two lines) on the page it leads to or the next,
    or, when its page is not known, the first such line after the last entry's; that line is
    a heading at the entry's depth, whatever its type ("Age, Stage, and Sex at Diagnosis" in
    italic). The levels the type tells the other headings are then the outline's: a type
    whose headings the outline names mostly at one depth is that depth (a chapter's size the
    outline's first depth); a type larger than any it names stays above them (a document's
    title over its chapters), and the other types it does not name come below its deepest
    entries, in their order. An outline naming fewer than :data:`MIN_OUTLINE` lines changes
    nothing. Also returns the lines an entry opens (two entries' headings one under the other
    in one block stay two headings).
    """
    matched, starts = _outline_lines(read, entries)
    if len(starts) < MIN_OUTLINE:
        return read, set()
    by_type: dict[int, Counter[int]] = {}
    for (k, j), depth in matched.items():
        level = read[k][j][1]
        if level:
            by_type.setdefault(level, Counter())[depth] += 1
    mapped = {level: depths.most_common(1)[0][0] for level, depths in by_type.items()}
    types = {level for page in read for _, level in page if level}
    # (a type larger than any the outline names, a document's title over its chapters, stays
    # above them: the outline's depths go down by as many levels as there are such types)
    above = sorted(level for level in types - set(mapped)
                   if not mapped or level < min(mapped))
    shift = len(above)
    deepest = max(matched.values()) + shift
    levels = {level: min(depth + shift, 6) for level, depth in mapped.items()}
    levels.update({level: n + 1 for n, level in enumerate(above)})
    below = sorted(types - set(levels))
    levels.update({level: min(deepest + 1 + n, 6) for n, level in enumerate(below)})
    return [[(line, min(matched[(k, j)] + shift, 6) if (k, j) in matched
              else levels.get(level, 0)) for j, (line, level) in enumerate(page)]
            for k, page in enumerate(read)], starts


def _outline_lines(read: list[list[tuple[Line, int]]], entries: list[OutlineEntry]
                   ) -> tuple[dict[tuple[int, int], int], set[tuple[int, int]]]:
    """(page, line) → depth of each line an outline's entry heads (:func:`with_outline`),
    and the lines the entries open."""
    where: dict[str, list[tuple[int, int, int]]] = {}  # key → (page, line, lines it takes)
    for k, page in enumerate(read):
        for j, (line, _) in enumerate(page):
            if line.margin:
                continue
            where.setdefault(heading_key(line.text), []).append((k, j, 1))
            if j + 1 < len(page) and page[j + 1][0].box == line.box:
                both = f"{line.text} {page[j + 1][0].text}"
                where.setdefault(heading_key(both), []).append((k, j, 2))
    matched: dict[tuple[int, int], int] = {}
    starts: set[tuple[int, int]] = set()
    last = (-1, -1)
    for entry in entries:
        spots = [s for s in where.get(entry.key, []) if (s[0], s[1]) not in matched]
        if entry.page is not None:
            spot = next((s for s in spots if s[0] in (entry.page, entry.page + 1)), None)
        else:
            spot = next((s for s in spots if (s[0], s[1]) > last), None)
        if spot is None:
            continue
        k, j, span = spot
        for n in range(span):
            matched[(k, j + n)] = min(entry.depth, 6)
        starts.add((k, j))
        last = (k, j + span - 1)
    return matched, starts
