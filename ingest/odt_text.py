"""A rule text saved as an OpenDocument text (``.odt``, LibreOffice's and OpenOffice's own
format): its paragraphs, with the headings its styles show.

Read as a Word document is (:mod:`ingest.docx_text`), and written as Markdown the same way
(:mod:`ingest.document_text`):

* a heading (``<text:h>``) is one at its outline level, and so is a paragraph whose style, or a
  style it is based on, gives an outline level or is a heading style ("Heading 2",
  "Заголовок 2"); the document's title ("Title", "Заглавие") is a heading of the first level;
* a short paragraph in bold from end to end (by its style or its spans' styles) that ends in
  no sentence's stop is a heading one level below the deepest heading used;
* a list's items open with "•", or with their number where the list's style numbers them;
* a table's row is one line, its cells' words in order, its rows one block;
* spaces (``<text:s text:c="3"/>``), tabs and line breaks are what they stand for; a soft
  hyphen is nothing; a link's words are the text's.

A footnote or an endnote is cited by its number in the order of citing ("[1]"), its text a
paragraph after the one that cites it; a text box's paragraphs (a frame's: a sidebar, a
designer's note) follow the paragraph it is anchored in. Not read: the pages' headers and
footers (they stand in the styles, not the text), comments, tracked changes' deleted text,
the sequence declarations. A document locked by a password (its parts encrypted), a file that
is no zip archive, an archive with no text in it (another kind of OpenDocument: a
spreadsheet, a presentation), a damaged archive or XML, and a text that would unpack to more
than :data:`ingest.document_text.MAX_XML` bytes are errors with a Russian message
(:class:`OdtError`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from xml.etree import ElementTree

from ingest.document_text import (
    Paragraph,
    Reading,
    described,
    markdown_of,
    not_too_deep,
    parse_xml,
    zip_parts,
)

SUFFIX = ".odt"
TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
FO = "{urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0}"
DRAW = "{urn:oasis:names:tc:opendocument:xmlns:drawing:1.0}"
_HEADING_NAME = re.compile(r"^(?:heading|заголовок)(?:[ _]|_20_)*(\d)$", re.IGNORECASE)
_TITLE_NAME = re.compile(r"^(?:title|заглавие|название)$", re.IGNORECASE)
_BOLD_WEIGHTS = frozenset({"bold", "600", "700", "800", "900"})
_SIZE = re.compile(r"(\d+(?:\.\d+)?)(pt|%)")
_SKIPPED = frozenset({f"{OFFICE}annotation", f"{TEXT}tracked-changes",
                      f"{TEXT}sequence-decls", f"{OFFICE}annotation-end", f"{TEXT}deletion"})
"""Elements whose words are not the text's: comments, changes' deleted text."""


class OdtError(ValueError):
    """A file that is no readable OpenDocument text; the message is in Russian."""


OdtReading = Reading
"""How an OpenDocument text was read (:class:`ingest.document_text.Reading`)."""


@dataclass(frozen=True)
class _Style:
    parent: str | None
    level: int | None
    bold: bool | None
    list_style: str | None
    size: str | None = None  # its type size as written: "14pt", "130%" (None: none)


def odt_text(data: bytes) -> str:
    """The text of an OpenDocument text, as Markdown marking its headings (the module's
    docstring).

    Raises:
        OdtError: the file is no OpenDocument text, or one this reader cannot open.
    """
    return read_odt(data).text


def read_odt(data: bytes) -> OdtReading:
    """:func:`odt_text`, and how its headings were told (:class:`OdtReading`)."""
    with not_too_deep("документ OpenDocument", OdtError):
        return _read_odt(data)


def _read_odt(data: bytes) -> OdtReading:
    parts = _parts(data)
    content = parts.get("content.xml")
    if content is None:
        raise OdtError("в архиве нет текста OpenDocument (content.xml): это не .odt")
    if b"encryption-data" in parts.get("META-INF/manifest.xml", b""):
        raise OdtError("документ OpenDocument защищён паролем: откройте его в LibreOffice и "
                       "сохраните без пароля")
    root = _xml(content)
    styles = _styles([_xml(parts["styles.xml"])] if "styles.xml" in parts else [], root)
    numbered = _numbered_lists([_xml(parts["styles.xml"])] if "styles.xml" in parts else [],
                               root)
    body = root.find(f"{OFFICE}body/{OFFICE}text")
    if body is None:
        raise OdtError("документ OpenDocument не текстовый (таблица или презентация?): "
                       "сохраните его как .odt, .docx или .txt")
    reader = _Reader(styles, numbered)
    reader.read(body)
    if not any(p.text.strip() for p in reader.out):
        raise OdtError("в документе OpenDocument нет текста")
    written = markdown_of(reader.out)
    return OdtReading(written.text, described(written, "документа"))


def _parts(data: bytes) -> dict[str, bytes]:
    """The document's parts that the reading needs, unpacked
    (:func:`ingest.document_text.zip_parts`)."""
    return zip_parts(data, ("content.xml", "styles.xml", "META-INF/manifest.xml"),
                     "документ OpenDocument", SUFFIX, OdtError)


def _xml(data: bytes) -> ElementTree.Element:
    return parse_xml(data, "документ OpenDocument", OdtError)


def _styles(roots: list[ElementTree.Element], content: ElementTree.Element
            ) -> dict[str, _Style]:
    """Each paragraph or text style's name → what it says itself (its parent resolves the
    rest: :meth:`_Reader.level`, :meth:`_Reader.bold`)."""
    out: dict[str, _Style] = {}
    for root in [*roots, content]:
        for style in root.iter(f"{STYLE}style"):
            name = style.get(f"{STYLE}name", "")
            display = style.get(f"{STYLE}display-name", "")
            level: int | None = None
            outline = style.get(f"{STYLE}default-outline-level", "")
            if outline.isdigit() and 0 < int(outline) <= 10:
                level = min(int(outline), 6)
            elif m := (_HEADING_NAME.match(display) or _HEADING_NAME.match(name)):
                level = min(int(m.group(1)), 6) or None
            elif _TITLE_NAME.match(display) or _TITLE_NAME.match(name):
                level = 1
            props = style.find(f"{STYLE}text-properties")
            weight = props.get(f"{FO}font-weight") if props is not None else None
            out[name] = _Style(style.get(f"{STYLE}parent-style-name"), level,
                               None if weight is None else weight in _BOLD_WEIGHTS,
                               style.get(f"{STYLE}list-style-name"),
                               props.get(f"{FO}font-size") if props is not None else None)
        for default in root.iter(f"{STYLE}default-style"):  # (the document's own size)
            props = default.find(f"{STYLE}text-properties")
            size = props.get(f"{FO}font-size") if props is not None else None
            if default.get(f"{STYLE}family") == "paragraph" and size:
                out[""] = _Style(None, None, None, None, size)
    return out


def _numbered_lists(roots: list[ElementTree.Element], content: ElementTree.Element
                    ) -> dict[tuple[str, int], bool]:
    """(list style, level from 1) → whether its items are numbered (else bulleted)."""
    out: dict[tuple[str, int], bool] = {}
    for root in [*roots, content]:
        for style in root.iter(f"{TEXT}list-style"):
            name = style.get(f"{STYLE}name", "")
            for child in style:
                level = child.get(f"{TEXT}level", "1")
                if level.isdigit():
                    out[(name, int(level))] = child.tag == f"{TEXT}list-level-style-number" \
                        and bool(child.get(f"{STYLE}num-format"))
    return out


def _rows(table: ElementTree.Element) -> list[ElementTree.Element]:
    """A table's own rows, those of its header and row groups too (a table in a cell is the
    cell's words, not rows of this table)."""
    out: list[ElementTree.Element] = []
    for child in table:
        if child.tag == f"{TABLE}table-row":
            out.append(child)
        elif child.tag in (f"{TABLE}table-header-rows", f"{TABLE}table-rows",
                           f"{TABLE}table-row-group"):
            out.extend(_rows(child))
    return out


def _cell_paragraphs(element: ElementTree.Element) -> list[ElementTree.Element]:
    """A table cell's paragraphs, in its lists and sections too, not those of a note or a
    text box inside them (their paragraphs' reading cites or queues those)."""
    out: list[ElementTree.Element] = []
    for child in element:
        if child.tag in (f"{TEXT}p", f"{TEXT}h"):
            out.append(child)
        elif child.tag in (f"{TEXT}list", f"{TEXT}list-item", f"{TEXT}list-header",
                           f"{TEXT}section"):
            out.extend(_cell_paragraphs(child))
    return out


class _Reader:
    """The body's paragraphs in order (:attr:`out`), lists' and tables' read as theirs."""

    def __init__(self, styles: dict[str, _Style], numbered: dict[tuple[str, int], bool]) -> None:
        self.styles = styles
        self.numbered = numbered
        self.out: list[Paragraph] = []
        self.counters: dict[tuple[str, int], int] = {}
        self.notes = 0
        self.cited: list[Paragraph] = []
        self.boxes: list[ElementTree.Element] = []  # text boxes met in a paragraph

    def _chain(self, name: str | None) -> list[_Style]:
        chain: list[_Style] = []
        while name and name in self.styles and len(chain) < 20:
            chain.append(self.styles[name])
            name = chain[-1].parent
        return chain

    def level(self, name: str | None) -> int | None:
        return next((s.level for s in self._chain(name) if s.level is not None), None)

    def bold(self, name: str | None) -> bool | None:
        """Whether a style, or the nearest style it is based on that says, sets bold (None:
        none says)."""
        return next((s.bold for s in self._chain(name) if s.bold is not None), None)

    def size(self, name: str | None, within: float | None = None) -> float | None:
        """A style's type size in points: the nearest size its chain sets in points, scaled by
        the percentages set on the way ("130%" of its base's); where the chain sets none, the
        size of what holds it (``within``: a span's paragraph), else the document's default
        (12 points when it gives none). None for a span whose chain sets no size."""
        scale = 1.0
        chain = self._chain(name)
        for style in chain if within is not None else [*chain, self.styles.get(
                "", _Style(None, None, None, None))]:
            m = _SIZE.fullmatch(style.size or "")
            if m and m.group(2) == "%":
                scale *= float(m.group(1)) / 100
            elif m:
                return round(float(m.group(1)) * scale * 2) / 2
        if within is not None:
            return round(within * scale * 2) / 2 if scale != 1.0 else None
        return round(12.0 * scale * 2) / 2

    def list_style(self, name: str | None) -> str | None:
        return next((s.list_style for s in self._chain(name) if s.list_style), None)

    def read(self, element: ElementTree.Element, lists: tuple[str, ...] = ()) -> None:
        for child in element:
            tag = child.tag
            if tag in _SKIPPED:
                continue
            if tag in (f"{TEXT}p", f"{TEXT}h"):
                self.out.append(self._paragraph(child, lists))
                self.out.extend(self.cited)  # (its notes after it)
                self.cited = []
                boxes, self.boxes = self.boxes, []
                for box in boxes:  # (a text box's paragraphs after its anchor's)
                    self.read(box, lists)
            elif tag == f"{TEXT}list":
                style = child.get(f"{TEXT}style-name") or (lists[-1] if lists else "")
                self.read(child, (*lists, style))
            elif tag in (f"{TEXT}list-item", f"{TEXT}list-header"):
                self.read(child, lists)
            elif tag == f"{TABLE}table":
                rows = []
                for row in _rows(child):
                    cells = []
                    for cell in row.findall(f"{TABLE}table-cell"):
                        words = " ".join(self._words(p)[0] for p in _cell_paragraphs(cell))
                        if words.strip():
                            cells.append(" ".join(words.split()))
                    if cells:
                        rows.append(" ".join(cells))
                if rows:
                    self.out.append(Paragraph("\n".join(rows), None, False))
                self.out.extend(self.cited)
                self.cited = []
                boxes, self.boxes = self.boxes, []
                for box in boxes:
                    self.read(box, lists)
            elif tag in (f"{TEXT}section", f"{TEXT}table-of-content", f"{TEXT}index-body",
                         f"{TEXT}alphabetical-index", f"{TEXT}illustration-index"):
                self.read(child, lists)

    def _paragraph(self, p: ElementTree.Element, lists: tuple[str, ...]) -> Paragraph:
        style = p.get(f"{TEXT}style-name")
        level: int | None = None
        if p.tag == f"{TEXT}h":
            outline = p.get(f"{TEXT}outline-level", "1")
            level = min(int(outline), 6) if outline.isdigit() and int(outline) > 0 else 1
        else:
            level = self.level(style)
        text, bold, size = self._words(p, bool(self.bold(style)), self.size(style) or 12.0)
        item = ""
        if p.tag == f"{TEXT}h":  # (a heading in a list, numbered by it: a heading still)
            return Paragraph(text, level, bold, item, size)
        list_style = lists[-1] if lists else self.list_style(style) if level is None else None
        if lists or list_style:
            depth = max(1, len(lists))
            key = (list_style or "", depth)
            if self.numbered.get(key, False):
                self.counters[key] = self.counters.get(key, 0) + 1
                item = f"{self.counters[key]}. "
            else:
                item = "• "
            level = None if lists else level
        return Paragraph(text, level, bold, item, size)

    def _cite(self, note: ElementTree.Element) -> str:
        """A footnote's or an endnote's mark in the text ("[1]", numbered in the order of
        citing), its words a paragraph after the one that cites it."""
        body = note.find(f"{TEXT}note-body")
        words = " ".join(self._words(p)[0] for p in (body.iter() if body is not None else ())
                         if p.tag in (f"{TEXT}p", f"{TEXT}h"))
        if not words.strip():
            return ""
        self.notes += 1
        self.cited.append(Paragraph(f"[{self.notes}] {' '.join(words.split())}", None, False))
        return f"[{self.notes}]"

    def _words(self, element: ElementTree.Element, bold: bool = False, size: float = 12.0
               ) -> tuple[str, bool, float]:
        """An element's words, whether every letter of them is set in bold (``bold``: its
        paragraph style's), and the type size most of its letters are set in (``size``: its
        paragraph style's)."""
        parts: list[str] = []
        letters = [0, 0]  # plain, bold
        sizes: dict[float, int] = {}

        def count(text: str, strong: bool, points: float) -> None:
            n = sum(map(str.isalnum, text))
            letters[strong] += n
            sizes[points] = sizes.get(points, 0) + n

        def walk(node: ElementTree.Element, strong: bool, points: float) -> None:
            if node.text:
                parts.append(node.text)
                count(node.text, strong, points)
            for child in node:
                tag = child.tag
                if tag in _SKIPPED:
                    pass
                elif tag == f"{TEXT}s":
                    spaces = child.get(f"{TEXT}c", "1")
                    parts.append(" " * (int(spaces) if spaces.isdigit() else 1))
                elif tag == f"{TEXT}tab":
                    parts.append(" ")
                elif tag == f"{TEXT}line-break":
                    parts.append("\n")
                elif tag == f"{TEXT}note":
                    parts.append(self._cite(child))
                elif tag == f"{DRAW}frame":
                    self.boxes.extend(box for box in child if box.tag == f"{DRAW}text-box")
                elif tag in (f"{TEXT}span", f"{TEXT}a", f"{TEXT}meta", f"{TEXT}ruby",
                             f"{TEXT}ruby-base", f"{TEXT}bookmark-ref", f"{TEXT}reference-ref",
                             f"{TEXT}sequence", f"{TEXT}hidden-text", f"{TEXT}date",
                             f"{TEXT}time", f"{TEXT}page-number", f"{TEXT}chapter",
                             f"{TEXT}user-field-get", f"{TEXT}variable-get"):
                    span = child.get(f"{TEXT}style-name")
                    own = self.bold(span)
                    walk(child, own if own is not None else strong,
                         self.size(span, within=points) or points)
                if child.tail:
                    parts.append(child.tail)
                    count(child.tail, strong, points)

        walk(element, bold, size)
        return ("".join(parts).replace("\u00ad", ""), letters[1] > 0 and letters[0] == 0,
                max(sizes, key=lambda k: (sizes[k], k)) if sizes else size)
