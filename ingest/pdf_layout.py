"""A PDF's pages laid out (pdfminer.six's layout analysis, :mod:`ingest.pdf_text` writes the
text from them): each page's lines in reading order, each with its type size, whether it is
set in bold, its block and whether it stands in the page's top or bottom margin; a table's
row of one-line cells one line, a title set in spaced letters its words; the pages of a long
PDF read on several processes, a run of pages each, back in their order."""

from __future__ import annotations

import io
import logging
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ingest.clean_edits import LETTER_RE
from ingest.pdf_order import reading_order
from kb.damage import damage
from kb.lemmas import is_known

if TYPE_CHECKING:
    from pdfminer.layout import LTChar, LTPage, LTTextLine
    from pdfminer.pdfdocument import PDFDocument

MARGIN_SHARE = 0.08
"""Share of a page's height at its top and at its bottom where a running header and a page's
number are printed (a block standing whole in it is the margin's)."""
PARALLEL_PAGES = 24
"""Pages from which a PDF's layout analysis is shared out to several processes (below it,
starting them costs more than they save: a process starts in some 50 ms, a page is read in
30)."""
RUNS_A_PROCESS = 2
"""Runs of pages each process gets (pages differ in cost: a run left for last is short)."""
_BOLD = re.compile(r"bold|black|heavy|semibold|demi", re.IGNORECASE)
_LIGATURES = str.maketrans({"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl",
                            "ﬅ": "st", "ﬆ": "st"})

class PdfError(ValueError):
    """A PDF that holds no readable text; the message is in Russian."""


@dataclass
class Line:
    text: str
    size: float  # the type size most of its characters are set in, to half a point
    bold: bool  # every letter of it set in a bold font
    box: int  # the block of text it stands in, counted over the page
    margin: bool  # at the page's top or bottom (where a page's number is printed)
    row: bool = False  # a table's row of cells (its head in bold is no heading)
    top: float = 0.0  # its top's distance from the page's top, a share of the page's height
    template: bool = False  # the book's template, not its text (:mod:`ingest.pdf_template`)


@dataclass
class Page:
    label: str | None
    lines: list[Line]


def document_of(data: bytes) -> PDFDocument:
    """The PDF's document (its cross-references and catalogue, parsed once for its pages and
    its outline), the parser's failures turned into :class:`PdfError`."""
    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfparser import PDFParser

    if b"%PDF-" not in data[:1024]:  # (the standard lets a header stand after other bytes)
        raise PdfError("не PDF: нет заголовка «%PDF-» в начале файла")
    # (the parser warns in English of what it mends in a malformed file, "Could not get
    # FontBBox …": the user is told only what stops the reading, in Russian)
    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    with _parser_failures():
        return PDFDocument(PDFParser(io.BytesIO(data)))


@contextmanager
def _parser_failures() -> Iterator[None]:
    """The parser's failures on a damaged or locked file as :class:`PdfError` (only the
    parser's: this module's own errors are not taken for a damaged file)."""
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect

    try:
        yield
    except (PDFPasswordIncorrect, PDFEncryptionError) as exc:
        raise PdfError("PDF защищён паролем: откройте его и сохраните текст как .txt") from exc
    except RecursionError as exc:
        raise PdfError("PDF повреждён и не читается (его объекты ссылаются по кругу)") from exc
    except Exception as exc:  # noqa: BLE001 (a damaged file makes the parser fail anywhere:
        # PSEOF, PDFSyntaxError, a KeyError of a missing object, a zlib error of a cut stream)
        raise PdfError(f"PDF повреждён и не читается ({damage(exc)})") from exc


_SHARED: bytes | None = None
"""The PDF whose pages the processes of :func:`read_pages` read (set before they are
forked, so that each has it without its bytes crossing a pipe)."""


def read_pages(data: bytes, document: PDFDocument, jobs: int | None) -> list[Page]:
    """:func:`_pages` of the whole document, runs of its pages read on several processes
    (:func:`ingest.pool.in_order`) when it is long enough to share (the module's docstring)."""
    from pdfminer.pdfpage import PDFPage

    from ingest.pool import cores, jobs_for

    with _parser_failures():
        count = sum(1 for _ in PDFPage.create_pages(document))
    wanted = jobs if jobs is not None else cores() if count >= PARALLEL_PAGES else 1
    runs = page_runs(count, max(1, wanted) * RUNS_A_PROCESS)
    sizes = [stop - start for start, stop in runs]
    if wanted <= 1 or jobs_for(sizes, wanted) <= 1:
        return _pages(document)
    from ingest.pool import in_order

    global _SHARED
    _SHARED = data
    try:
        return [page for run in in_order(_pages_in, runs, sizes, wanted) for page in run]
    finally:
        _SHARED = None


def page_runs(count: int, parts: int) -> list[tuple[int, int]]:
    """``count`` pages cut into at most ``parts`` runs of consecutive pages, as even as they
    go: (first, after last) of each, in order.

    >>> page_runs(10, 4)
    [(0, 3), (3, 6), (6, 8), (8, 10)]
    """
    parts = max(1, min(parts, count))
    size, extra = divmod(count, parts)
    out, start = [], 0
    for k in range(parts):
        stop = start + size + (k < extra)
        out.append((start, stop))
        start = stop
    return [run for run in out if run[1] > run[0]]


def _pages_in(run: tuple[int, int]) -> list[Page]:
    """:func:`_pages` of one run of :data:`_SHARED`'s pages (in a worker process)."""
    assert _SHARED is not None
    return _pages(document_of(_SHARED), range(*run))


def _layouts(document: PDFDocument, which: range | None = None
             ) -> Iterator[tuple[str | None, LTPage]]:
    """Each page's label and layout (pdfminer.six's analysis): of every page, or of the
    pages numbered ``which`` (from 0)."""
    from pdfminer.converter import PDFPageAggregator
    from pdfminer.layout import LAParams
    from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
    from pdfminer.pdfpage import PDFPage

    manager = PDFResourceManager()
    device = PDFPageAggregator(manager, laparams=LAParams())
    interpreter = PDFPageInterpreter(manager, device)
    with _parser_failures():
        for k, page in enumerate(PDFPage.create_pages(document)):
            if which is not None and k not in which:
                if k >= which.stop:
                    break
                continue
            interpreter.process_page(page)
            label = getattr(page, "label", None)
            yield (label if isinstance(label, str) else None), device.get_result()


def _pages(document: PDFDocument, which: range | None = None) -> list[Page]:
    """Each page's lines in reading order, with their type (of the pages ``which`` only, when
    given)."""
    from pdfminer.layout import LTTextContainer, LTTextLine

    pages: list[Page] = []
    for label, layout in _layouts(document, which):
        height = layout.height or 1.0
        lines: list[Line] = []
        top: list[Line] = []
        bottom: list[Line] = []
        box = 0
        texts = [e for e in layout if isinstance(e, LTTextContainer)]
        # (a running header or a page's number, centred in the margin, would join the
        # columns into one: the blocks of the page's margins are read apart, before and
        # after the text)
        inside = [e for e in texts if not _in_margin(e.y0, e.y1, height)]
        for group in [*([e] for e in texts if e.y0 >= height * (1 - MARGIN_SHARE)),
                      *reading_order(inside),
                      *([e] for e in texts if e.y1 <= height * MARGIN_SHARE)]:
            box += 1
            # (a block stands in a margin whole or not at all: a column's first line set
            # high on the page is the column's)
            at_top = group[0].y0 >= height * (1 - MARGIN_SHARE)
            at_bottom = group[0].y1 <= height * MARGIN_SHARE
            cells = [[_line_of(line, box, at_top or at_bottom, height) for line in element
                      if isinstance(line, LTTextLine)] for element in group]
            found = [[x for x in cell if x is not None] for cell in cells]
            if len(found) > 1 and all(len(cell) == 1 for cell in found):
                found = [[_row_line([cell[0] for cell in found])]]  # a table's row
            for cell in found:
                (top if at_top else bottom if at_bottom else lines).extend(cell)
        pages.append(Page(label, [*top, *lines, *bottom]))
    return pages


def _line_of(line: LTTextLine, box: int, margin: bool, height: float = 0.0) -> Line | None:
    """A line of the layout with its type (None for a line of no text)."""
    from pdfminer.layout import LTChar

    text = " ".join(line.get_text().translate(_LIGATURES).split())
    if not text:
        return None
    chars = [c for c in line if isinstance(c, LTChar)]
    sizes = Counter(round(c.size * 2) / 2 for c in chars if not c.get_text().isspace())
    size = sizes.most_common(1)[0][0] if sizes else 0.0
    letters = [c for c in chars if LETTER_RE.match(c.get_text())]
    bold = bool(letters) and all(_BOLD.search(c.fontname) for c in letters)
    tokens = text.split()
    if len(tokens) >= _SPACED_LETTERS and all(len(t) == 1 for t in tokens):
        text = _unspaced(chars) or text
    top = (height - line.y1) / height if height > 0 else 0.0
    return Line(text, size, bold, box, margin, top=round(top, 3))


_SPACED_LETTERS = 3
"""Letters set apart at least for a line to be read as a word set in spaced letters."""


def _unspaced(chars: list[LTChar]) -> str | None:
    """The words of a line set in spaced letters ("Ф А З А   Д В И Ж Е Н И Я", a title's
    tracking, which the layout analysis reads as a space after each letter): a gap wider than
    the letters' usual gap by a quarter of a letter's width parts words ("ФАЗА ДВИЖЕНИЯ").
    None unless every word so joined is one the dictionary knows (or a Latin word of three
    letters or more): an alphabet's row ("А Б В Г Д") stays as it is."""
    glyphs = [c for c in chars if not c.get_text().isspace()]
    if len(glyphs) < _SPACED_LETTERS:
        return None
    gaps = [b.x0 - a.x1 for a, b in zip(glyphs, glyphs[1:], strict=False)]
    usual = sorted(gaps)[len(gaps) // 2]
    width = sorted(c.width for c in glyphs)[len(glyphs) // 2]
    text = glyphs[0].get_text()
    for gap, glyph in zip(gaps, glyphs[1:], strict=True):
        text += (" " if gap > usual + width / 4 else "") + glyph.get_text()
    words = text.translate(_LIGATURES).split()
    if all(is_known(w) or (w.isascii() and w.isalpha() and len(w) >= 3) for w in words):
        return " ".join(words)
    return None


def _row_line(cells: list[Line]) -> Line:
    """A table's row of one-line cells as one line ("2–6 Подразделение держится"), in the
    type most of its characters are set in."""
    sizes: Counter[float] = Counter()
    for cell in cells:
        sizes[cell.size] += len(cell.text)
    return Line(" ".join(cell.text for cell in cells), sizes.most_common(1)[0][0],
                 all(cell.bold for cell in cells), cells[0].box, cells[0].margin, row=True,
                 top=min(cell.top for cell in cells))


def _in_margin(y0: float, y1: float, height: float) -> bool:
    """Whether a block stands in a page's top or bottom margin (:data:`MARGIN_SHARE`)."""
    return y0 >= height * (1 - MARGIN_SHARE) or y1 <= height * MARGIN_SHARE
