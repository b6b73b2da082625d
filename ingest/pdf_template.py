"""A book's template in a PDF (:mod:`ingest.pdf_text`): the running heads (the same words at
the same height atop or at the foot of three pages or more, above all of each page's text) and
the lines its margins repeat, marked so that the cleaning removes them first, accounted for.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ingest.pdf_layout import Page

RUNNING_BAND = 0.2
"""Share of a page's height at its top and at its bottom where a book's running head or foot
may stand below (or above) the margin :data:`~ingest.pdf_layout.MARGIN_SHARE` keeps apart."""
RUNNING_PAGES = 3
"""Pages a line must stand on, in the same words at the same height, to be a running head."""
RUNNING_HEIGHT = 0.01
"""How far (share of a page's height) a running head's place may differ from page to page."""
_NOT_WORDS = re.compile(r"[\W\d_]+")


def mark_template(pages: list[Page]) -> None:
    """Mark the lines of the book's template (:attr:`Line.template`), which a page repeats
    from the pages around it and which are no part of the book's text: its running heads
    (:func:`_running_heads`, marked as the margin's too: no heading) and the lines its margins
    repeat, the same words (numbers aside) on :data:`RUNNING_PAGES` pages or more ("Printed by
    … on 1/27/2021", "© 2020 National …", the book's title over each page). A page's number
    alone is no such line (it has no words): the page's mark stands for it."""
    running = _running_heads(pages)
    pages_of: dict[str, set[int]] = {}
    for k, page in enumerate(pages):
        for j, line in enumerate(page.lines):
            if (k, j) in running:
                page.lines[j] = line = replace(line, margin=True)
            if line.margin and (key := _words_key(line.text)):
                pages_of.setdefault(key, set()).add(k)
    for page in pages:
        for j, line in enumerate(page.lines):
            if line.margin and len(pages_of.get(_words_key(line.text), ())) >= RUNNING_PAGES:
                page.lines[j] = replace(line, template=True)


def _words_key(text: str) -> str:
    """A line's words as a running head is compared by: in lower case, numbers and marks
    aside ("Глава 4 · 37" and "Глава 4 · 38" alike)."""
    return _NOT_WORDS.sub(" ", text.casefold()).strip()


def _running_heads(pages: list[Page]) -> set[tuple[int, int]]:
    """(page, line) of each running head: a line in the same words (:func:`_words_key`) at the
    same height (within :data:`RUNNING_HEIGHT`), within :data:`RUNNING_BAND` of the page's top
    or foot, on :data:`RUNNING_PAGES` pages or more, and on each of them above all the page's
    text (or below it, at the foot): a running head set in a heading's type below the margin
    :data:`~ingest.pdf_layout.MARGIN_SHARE` keeps apart ("NCCN Guidelines Version 2.2020" /
    "Thyroid Carcinoma" in 18 points atop each of a guideline's 137 pages, a chapter's name
    over each of its pages), not a heading that each of several pages holds under a title of
    its own (a datasheet's "Специальные правила" under its unit's name)."""
    places: dict[str, list[tuple[float, int, int]]] = {}
    for k, page in enumerate(pages):
        for j, line in enumerate(page.lines):
            if not line.margin and (line.top <= RUNNING_BAND or line.top >= 1 - RUNNING_BAND):
                key = _words_key(line.text)
                if key:
                    places.setdefault(key, []).append((line.top, k, j))
    candidates: list[list[tuple[float, int, int]]] = []
    for found in places.values():
        if len({k for _, k, _ in found}) < RUNNING_PAGES:
            continue
        found.sort()
        first = 0  # runs of places within RUNNING_HEIGHT of the run's first
        for i in range(1, len(found) + 1):
            if i == len(found) or found[i][0] - found[first][0] > RUNNING_HEIGHT:
                candidates.append(found[first:i])
                first = i
    marked = {(k, j) for run in candidates for _, k, j in run}
    out: set[tuple[int, int]] = set()
    for run in candidates:
        # (on each page above (or below) every line of the page's own: the margin's, and
        # lines of other runs, may stand beside it)
        outer = [(k, j) for top, k, j in run if all(
            other.margin or (k, i) in marked
            or (other.top >= top if top <= RUNNING_BAND else other.top <= top)
            for i, other in enumerate(pages[k].lines))]
        if len({k for k, _ in outer}) >= RUNNING_PAGES:
            out.update(outer)
    return out
