"""A rulebook saved as PDF: its text layer, with the headings its type sizes show.

A book's PDF sets its headings in a larger type than its text, or in bold on a line of their
own; a copy of its text (what a PDF viewer copies, what ``pdftotext`` gives) keeps the words and
loses the sizes, and then a heading's level can only be guessed (the README's "a page in one
line" and "a PDF column's width"). Read from the PDF itself, each line comes with its type
size and font, so :func:`pdf_text` writes the text as Markdown, whose marks the pipeline reads
as headings at their levels (:mod:`ingest.clean_markdown`):

* the text's size is the size most of its characters are set in; each larger size that a
  line of a heading's length is set in is a level, the largest the first ("#", "##", "###";
  further sizes "###" too);
* a short line set in bold from end to end at the text's size (or a little smaller) is a
  heading below the larger sizes' levels (a rule's name over its text), each such size a
  level, the larger first;
* a heading's lines set one under another in one block are one heading; a run of them
  longer than a heading (:data:`HEADING_WORDS`, :data:`BOLD_WORDS` in bold) is text (a
  lead-in set large, a paragraph set in bold), and so are a bullet's line and a table's row;
* a page's blocks are read a column at a time, a table's cells row by row
  (:func:`reading_order`), the blocks in its top and bottom margins (a running header, the
  page's number) apart, before and after them;
* a table's cells set side by side (their tops level) are one line of its row ("2–7
  Держится");
* a word hyphenated across a page is set whole on the first page ("Лидер-" / "ство"), the
  cleaning joining it as in any line;
* a title set in spaced letters ("Ф А З А Д В И Ж Е Н И Я") is its words ("ФАЗА ДВИЖЕНИЯ"),
  parted where the letters' gaps widen;
* a letter alone in a larger type is a paragraph's drop capital, set before the rest of its
  word ("В оины"), which the cleaning joins;
* the lines of a block of text stay lines, a blank line between blocks (the pipeline joins
  a sentence wrapped over lines and a word hyphenated at a line's end, as in any copy).

A PDF's outline (its bookmarks), where it has one, names its headings and their depths: each
entry heads the line of its words on the page it leads to, whatever that line's type (a
heading set in the text's plain type, in italic, with a comma), at the entry's depth, and the
levels the type tells are set by the outline's depths (:func:`with_outline`).

Pages: each page opens with a mark "Страница N" (:func:`ingest.clean_pages.page_footer` reads
it as the page's number). N is the page's label where the PDF gives its pages labels in
digits (the numbers printed on them); else the number printed alone at the top or the
bottom of most pages, where it runs in step with the pages (the PDF of a chapter starts at its
page in the book), the printed number then standing as the mark (and the pages of front
matter before page 1 having none); else the page's place in the file. Text the PDF shows
nowhere (no text layer: a scan) is an error, not an empty file.

Typographic ligatures ("ﬁ", "ﬂ") are written as their letters. The book's template, the
lines its pages repeat from one another, is known by its place: a running head is the same
words (numbers aside) at the same height atop (or at the foot of) three pages or more, above
all of each page's text, whatever its type (a chapter's name set large a tenth of the page
down is no heading of a section a page); a line its margins repeat is the same words there on
three pages ("© Games Workshop Limited 2010"). Such lines stand each on a line of its own,
written as a Markdown comment ("<!-- колонтитул: ПСИХОЛОГИЯ -->", :data:`TEMPLATE_LINE`),
and :attr:`PdfReading.template` gives their spans, which the cleaning removes first,
accounted for (:func:`ingest.clean_pages.book_template`); a page's number alone is read as
its number. Other lines of a template (a site's, a copy's) stay, for the cleaning steps to
remove and account for as in any copy.

The layout analysis of a PDF's pages (pdfminer.six's, nearly all of the reading's cost: about
30 pages a second; :mod:`ingest.pdf_layout`) is shared out to one process a core for a book
of :data:`~ingest.pdf_layout.PARALLEL_PAGES` pages or more (:mod:`ingest.pool`), each process
reading a run of pages; the pages come back in their order, so the text is the same whatever
the number of processes.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace

from ingest.pdf_layout import Line, Page, PdfError, document_of, read_pages
from ingest.pdf_outline import MIN_OUTLINE, OutlineEntry, read_outline, with_outline
from ingest.pdf_template import mark_template
from ingest.pdf_type import (
    BOLD_WORDS,
    BULLETS,
    HEADING_WORDS,
    PdfType,
    body_size,
    drop_capital,
    heading_level,
    type_of,
)

SUFFIX = ".pdf"
PAGE_MARK = "Страница {}"
TEMPLATE_LINE = "<!-- колонтитул: {} -->"
"""How a line of the book's template is written in the text (:attr:`PdfReading.template`):
as a Markdown comment, which the cleaning of a text saved from ``rulekb build --text`` as
``.md`` removes too."""

CID_SHARE = 0.3
"""Share of a text's characters that may be glyphs with no letter ("(cid:42)": a font without
its map to Unicode) before the PDF counts as having no readable text."""

_CID = re.compile(r"\(cid:\d+\)")
_NUMBER = re.compile(r"[-–—\s]*(\d{1,4})[-–—\s]*")
_MARKLIKE = re.compile(r"#|[-=*_]{3,}$|[-=]+$")
"""A line of text that Markdown would read as a heading's mark or a break ("# 1", "-----")."""

@dataclass(frozen=True)
class PdfReading:
    """A PDF as read: its text (Markdown marking its headings), and how its headings were
    told, in Russian, for ``rulekb build --explain``: "страниц 2; основной текст 10 пт;
    заголовки по шрифту: 18 пт — «#», …; закладок (оглавления PDF) нет" (a heading missed is
    then seen to be set in the text's size, with no bookmark to name it)."""

    text: str
    type: str
    template: tuple[tuple[int, int], ...] = ()
    """The spans of ``text`` that are the book's template, not its text: a running head at
    the top or the foot of its pages, a line its margins repeat ("Printed by …", "© 2020
    …"), each on a line of its own (:mod:`ingest.pdf_template`)."""


def pdf_text(data: bytes, outline: bool = True, jobs: int | None = None) -> str:
    """The text of a PDF, as Markdown marking its headings by their type (the module's
    docstring), and by its outline where it has one (``outline``: :func:`with_outline`);
    ``jobs`` as :func:`read_pdf`'s.

    Raises:
        PdfError: the file is no PDF, is locked by a password, or shows no text.
    """
    return read_pdf(data, outline, jobs).text


def read_pdf(data: bytes, outline: bool = True, jobs: int | None = None) -> PdfReading:
    """:func:`pdf_text`, and how its headings were told (:class:`PdfReading`); ``jobs``
    processes read its pages side by side (None: one a core for a PDF of
    :data:`~ingest.pdf_layout.PARALLEL_PAGES` pages or more, else one)."""
    document = document_of(data)
    pages = read_pages(data, document, jobs)
    chars = sum(len(line.text) for page in pages for line in page.lines)
    if not chars:
        raise PdfError("в PDF нет текстового слоя (скан страниц?): распознайте текст (OCR) и "
                       "сохраните его как .txt")
    cids = sum(len(m.group()) for page in pages for line in page.lines
               for m in _CID.finditer(line.text))
    if cids > CID_SHARE * chars:
        raise PdfError("текст PDF не читается: его шрифты не сопоставляют знакам букв (вместо "
                       "букв «(cid:…)»); распознайте текст страниц (OCR) и сохраните его как "
                       ".txt")
    mark_template(pages)
    body = body_size(pages)
    kind = type_of(pages, body)
    numbers = _page_numbers(pages)
    read = [_read_page(page, number, kind) for page, number in zip(pages, numbers, strict=True)]
    entries = read_outline(document) if outline else []
    read, starts = with_outline(read, entries)
    _carry_hyphens(read)
    # (marks of Markdown in a text of no heading would make it Markdown for nothing)
    marked = any(level for page in read for _, level in page)
    out: list[str] = []
    spans: list[tuple[int, int]] = []  # the template's lines, in the text written
    at = 0  # where the next page's text starts in it
    for k, (page_lines, number) in enumerate(zip(read, numbers, strict=True)):
        blocks: list[list[str]] = []
        kept: list[tuple[int, int]] = []  # (block, line) of the template's lines
        last_box = None
        last_margin = False
        heading: tuple[int, list[str]] | None = None
        for j, (line, level) in enumerate(page_lines):
            if line.template and not level:
                # (a line of the book's template stands apart, for the cleaning to remove,
                # written as a comment: the text saved as Markdown builds as the PDF does)
                blocks.append([TEMPLATE_LINE.format(line.text.replace("--", "- -"))])
                kept.append((len(blocks) - 1, 0))
                blocks.append([])
                last_box, last_margin, heading = None, True, None
                continue
            if line.box != last_box:
                last_box = line.box
                if not (heading is None and blocks and blocks[-1] and not level
                        and not (line.margin or last_margin)
                        and _goes_on(blocks[-1][-1], line.text)):
                    blocks.append([])  # (a block split off mid-sentence goes on: below; a
                    # running header goes on into nothing)
                heading = None
            last_margin = line.margin
            if level and heading is not None and heading[0] == level and (k, j) not in starts:
                heading[1].append(line.text)  # a heading's next line (not the next entry's)
                blocks[-1][-1] = "#" * level + " " + " ".join(heading[1])
                continue
            if level:
                if blocks[-1]:
                    blocks.append([])  # a heading stands apart from the text above it
                heading = (level, [line.text])
                blocks[-1].append("#" * level + " " + line.text)
                continue
            if heading is not None:
                blocks.append([])  # the text under a heading, apart from it
                heading = None
            text = line.text
            if blocks[-1] and blocks[-1][-1] in BULLETS:
                blocks[-1][-1] += " " + text  # "•" set apart from its item's words
                continue
            if marked and _MARKLIKE.match(text):
                text = "\\" + text  # a "#" of the text, a rule of "-" or "=", is no mark
            blocks[-1].append(text)
        mark = PAGE_MARK.format(number) + "\n\n" if number is not None else ""
        offset = len(mark)
        starts_of: dict[int, int] = {}
        shown = [b for b, block in enumerate(blocks) if block]
        for b in shown:
            starts_of[b] = offset
            offset += len("\n".join(blocks[b])) + 2
        part = mark + "\n\n".join("\n".join(blocks[b]) for b in shown)
        if not part.strip():
            continue
        if out:
            at += 2
        spans.extend((at + starts_of[b], at + starts_of[b] + len(blocks[b][0])) for b, _ in kept)
        out.append(part)
        at += len(part)
    return PdfReading("\n\n".join(out) + "\n",
                      _described(len(pages), kind, len(entries), len(starts)), tuple(spans))


def _described(pages: int, kind: PdfType, entries: int, named: int) -> str:
    """How a PDF's headings were told (:class:`PdfReading`)."""
    parts = [f"{size:g} пт — «{'#' * level}»" for size, level in kind.sizes.items()]
    parts += [f"полужирные строки {size:g} пт — «{'#' * level}»"
              for size, level in kind.bold.items()]
    found = (f"страниц {pages}; основной текст {kind.body:g} пт; заголовки по шрифту: "
             f"{', '.join(parts) or 'не найдены (все строки набраны одним размером)'}")
    if not entries:
        return found + "; закладок (оглавления PDF) нет"
    used = "уровни заголовков — по закладкам" if named >= MIN_OUTLINE else "не учтены"
    return found + f"; закладок (оглавления PDF) {entries}, названных строк текста {named}: {used}"


def outline_entries(data: bytes) -> list[OutlineEntry]:
    """The entries of a PDF's outline (``benchmarks/pdf.py`` measures the headings by them).

    Raises:
        PdfError: the file is no PDF or cannot be opened.
    """
    return read_outline(document_of(data))


_HYPHENATED = re.compile(r"[^\W\d_]-$")
_WORD_REST = re.compile(r"([a-zа-яё]+)\s*(.*)\Z", re.DOTALL)


def _carry_hyphens(read: list[list[tuple[Line, int]]]) -> None:
    """A word hyphenated across a page ("Лидер-" at a page's foot, "ство сразу …" at the
    next page's head) is set whole on the first page: its rest goes on the line under the
    hyphen ("Лидер-" / "ство"), where the cleaning joins a hyphenated word as in any line
    (:func:`ingest.clean_words.hyphenation`), not beyond the next page's mark. Only what the
    text's own lines hold counts: a margin's lines and a heading are no part of a word."""
    for k in range(len(read) - 1):
        last = next((j for j in range(len(read[k]) - 1, -1, -1) if not read[k][j][0].margin),
                    None)
        first = next((j for j, (line, _) in enumerate(read[k + 1]) if not line.margin), None)
        if last is None or first is None or read[k][last][1] or read[k + 1][first][1]:
            continue
        line, after = read[k][last][0], read[k + 1][first][0]
        m = _WORD_REST.match(after.text)
        if not _HYPHENATED.search(line.text) or m is None:
            continue
        read[k].insert(last + 1, (replace(line, text=m.group(1)), 0))
        if m.group(2):
            read[k + 1][first] = (replace(after, text=m.group(2)), 0)
        else:
            del read[k + 1][first]


def _read_page(page: Page, number: int | None, kind: PdfType) -> list[tuple[Line, int]]:
    """A page's lines with their heading levels (0 for text): its printed number left out
    (the page's mark stands for it), a drop capital set before its word's rest ("В" /
    "оины на поле …" → "В оины на поле …", which the cleaning joins:
    :func:`ingest.clean_words.drop_capital`), and a run of heading lines in one block too
    long for a heading read as text (a lead-in set large, a paragraph set in bold)."""
    out: list[tuple[Line, int]] = []
    capital = ""
    for line in page.lines:
        printed = _NUMBER.fullmatch(line.text) if line.margin else None
        if printed is not None and int(printed.group(1)) == number:
            continue
        if drop_capital(line, kind.body):
            capital = line.text
            continue
        if capital:
            line = Line(f"{capital} {line.text}", line.size, line.bold, line.box, line.margin,
                         line.row)
            capital = ""
        out.append((line, heading_level(line, kind)))
    k = 0
    while k < len(out):
        end = k + 1
        while end < len(out) and out[k][1] and out[end][1] == out[k][1] \
                and out[end][0].box == out[k][0].box:
            end += 1
        words = sum(len(line.text.split()) for line, _ in out[k:end])
        bold = out[k][0].size not in kind.sizes
        if out[k][1] and words > (BOLD_WORDS if bold else HEADING_WORDS):
            out[k:end] = [(line, 0) for line, _ in out[k:end]]
        k = end
    return out


def _goes_on(last: str, line: str) -> bool:
    """Whether a block's first line goes on from the line before it: the layout analysis set
    a bullet apart from its item ("•" / "It must be …"), or cut a paragraph where it runs on
    in lower case ("… to add both new" / "rules for determining type")."""
    return last in BULLETS or (line[:1].islower() and not last.startswith("#")
                                and not last.endswith((".", "!", "?", ":", "»")))


def _page_numbers(pages: list[Page]) -> list[int | None]:
    """Each page's number: its label in digits where the PDF labels its pages (none for a
    page labelled otherwise: a front matter's "iii"), else the number printed alone in its
    margin where most pages' numbers run in step with the pages (none for the pages before
    page 1), else its place in the file."""
    labels = [page.label for page in pages]
    if any(label is not None and label.isdigit() for label in labels):
        return [int(label) if label is not None and label.isdigit() else None
                for label in labels]
    steps: Counter[int] = Counter()
    for k, page in enumerate(pages):
        for line in page.lines:
            m = _NUMBER.fullmatch(line.text) if line.margin else None
            if m is not None:
                steps[int(m.group(1)) - k] += 1
    if steps:
        step, count = steps.most_common(1)[0]
        if count >= 2 and count * 2 >= len(pages):
            # (a book's front matter before its page 1, numbered in Roman or not at all, has
            # no number of the text's)
            return [k + step if k + step >= 1 else None for k in range(len(pages))]
    return [k + 1 for k in range(len(pages))]

