"""The type a PDF's text is read by (:mod:`ingest.pdf_text`): the size most of its characters
are set in, each larger size a heading-shaped line is set in a level (the largest first), and
each size of the short lines set in bold at about the text's size a level below them.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ingest.clean_edits import LETTER_RE

if TYPE_CHECKING:
    from ingest.pdf_layout import Line, Page

HEADING_RATIO = 1.12
"""How much larger than the text's size a line's type must be to be a heading's."""
HEADING_WORDS = 15
"""Words a heading may have at most (a longer line in a larger type is a lead-in, a quote)."""
BOLD_WORDS = 10
"""Words a bold line at the text's size may have at most to be a heading."""
BOLD_SMALLER = 0.85
"""How much smaller than the text a heading in bold may be set (a subheading in bold italic
at 10 points in a text of 11)."""
MAX_LEVEL = 3
"""Levels of headings told by size; larger sizes beyond are this level too."""
_SENTENCE_END = re.compile(r"[,;:]$")
BULLETS = frozenset("•●▪■◦–-*")
"""A list item's bullets, alone or opening a line."""


def body_size(pages: list[Page]) -> float:
    """The size most characters of the text are set in."""
    sizes: Counter[float] = Counter()
    for page in pages:
        for line in page.lines:
            sizes[line.size] += len(line.text)
    return sizes.most_common(1)[0][0]


def heading_shaped(line: Line) -> bool:
    words = line.text.split()
    return not line.row and 0 < len(words) <= HEADING_WORDS \
        and len(LETTER_RE.findall(line.text)) >= 2 and not _SENTENCE_END.search(line.text) \
        and line.text[0] not in BULLETS


def drop_capital(line: Line, body: float) -> bool:
    """A letter alone in a larger type: a paragraph's drop capital (a heading has words)."""
    return len(line.text) == 1 and line.text.isupper() and line.size >= body * HEADING_RATIO \
        and not line.margin


@dataclass(frozen=True)
class PdfType:
    """The type a PDF's text is read by: the text's size and each heading's level."""

    body: float
    sizes: dict[float, int]  # a size larger than the text's → its level
    bold: dict[float, int]  # the size of a heading in bold at about the text's → its level


def type_of(pages: list[Page], body: float) -> PdfType:
    """Each size larger than the text's that a heading-shaped line is set in → its level, the
    largest first; then each size of the headings in bold at about the text's size, the
    larger first, below them ("Epidemiology" in bold at the text's 11 points over "Familial
    Syndromes" in bold italic at 10)."""
    lines = [line for page in pages for line in page.lines
             if not line.margin and heading_shaped(line)]
    larger = sorted({line.size for line in lines if line.size >= body * HEADING_RATIO},
                    reverse=True)
    sizes = {size: min(k + 1, MAX_LEVEL) for k, size in enumerate(larger)}
    base = max(sizes.values(), default=0) + 1
    bold = sorted({line.size for line in lines if bold_heading(line, body)}, reverse=True)
    return PdfType(body, sizes, {size: min(base + k, 6) for k, size in enumerate(bold)})


def bold_heading(line: Line, body: float) -> bool:
    """A line set in bold at about the text's size (a little smaller too), short, with no
    comma (a name in bold with commas is a credit's or a list's)."""
    return line.bold and body * BOLD_SMALLER <= line.size < body * HEADING_RATIO \
        and len(line.text.split()) <= BOLD_WORDS and "," not in line.text


def heading_level(line: Line, kind: PdfType) -> int:
    """The heading level of a line, 0 for a line of text."""
    if line.margin or not heading_shaped(line):
        return 0
    if line.size in kind.sizes:
        return kind.sizes[line.size]
    if bold_heading(line, kind.body):
        return kind.bold[line.size]
    return 0
