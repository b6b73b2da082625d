"""A rule text saved as a Word document (``.docx``): its paragraphs, with the headings its
styles show.

A translation of a rulebook is often kept as a Word document (or exported as one from Google
Docs or LibreOffice), where a heading is a paragraph in a heading style ("Heading 2",
"Заголовок 2"), and a rule's name over its text a short paragraph set in bold. Copied out as
text, the styles are lost; read from the file, :func:`docx_text` writes the text as Markdown,
whose marks the pipeline reads as headings at their levels (:mod:`ingest.clean_markdown`),
as :mod:`ingest.pdf_text` does for a PDF:

* a paragraph in a heading style, or in a style (or with a paragraph mark) that gives it an
  outline level, is a heading of that level ("Heading 1" "#", "Heading 2" "##", …); the
  document's title ("Title", "Название") is a heading of the first level;
* a short paragraph set in bold from end to end (by its runs or its style) that ends in no
  sentence's stop is a heading one level below the deepest heading style the document uses
  (a rule's name over its text, :data:`ingest.document_text.BOLD_WORDS` words at most);
* a list's item opens with "•", or with its number where its list is numbered ("1.", "2.");
* a table's row is one line, its cells' words in order ("2–7 Держится"), its rows one block;
* a line break inside a paragraph is a line; a soft hyphen is nothing, a non-breaking
  hyphen a hyphen, a tab a space; deleted text (tracked changes) is left out, inserted text
  read;
* a line of text that Markdown would read as a mark ("# 1", "-----") is escaped.

A footnote or an endnote is cited by its number in the order of citing ("[1]") and its text
set as a paragraph after the paragraph that cites it ("[1] …"), in the section the note
belongs to. What the document holds outside its body is not read: the pages' headers and
footers (the document's template, as a book's running heads) and comments (a reader's notes
on the text, not the text). A text box's paragraphs (a sidebar, a designer's note) follow the
paragraph it is anchored in. Word keeps no page numbers (a page is where its reader's layout
breaks it), so the text has no page marks.

A file that is no Word document of this kind is an error with a Russian message
(:class:`DocxError`): a Word 97–2003 document (``.doc``, or a ``.docx`` locked by a
password, which Word stores in the older container), a file that is no zip archive, an
archive with no document in it, or one whose document would unpack to more than
:data:`ingest.document_text.MAX_XML` bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from xml.etree import ElementTree

from ingest.document_text import (
    HEADING_STYLE,
    TITLE_STYLE,
    Notes,
    Paragraph,
    Reading,
    described,
    markdown_of,
    not_too_deep,
    parse_xml,
    zip_parts,
)

SUFFIX = ".docx"
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
"""The signature of the older Word container (a ``.doc``; a ``.docx`` locked by a password)."""


_Notes = Notes[tuple[str, str]]
"""The document's footnotes and endnotes by (kind, id): ("footnote", "2")."""


class DocxError(ValueError):
    """A file that is no readable Word document; the message is in Russian."""


DocxReading = Reading
"""How a Word document was read (:class:`ingest.document_text.Reading`)."""


@dataclass(frozen=True)
class _Style:
    level: int | None  # the heading level it gives (None: none)
    bold: bool
    list_format: str | None  # the list (its id) its paragraphs are items of
    size: float = 0.0  # its type size in points (0: it sets none, nor does its base)


def docx_text(data: bytes) -> str:
    """The text of a Word document, as Markdown marking its headings (the module's docstring).

    Raises:
        DocxError: the file is no Word document, or one this reader cannot open.
    """
    return read_docx(data).text


def read_docx(data: bytes) -> DocxReading:
    """:func:`docx_text`, and how its headings were told (:class:`DocxReading`)."""
    with not_too_deep("документ Word", DocxError):
        return _read_docx(data)


def _read_docx(data: bytes) -> DocxReading:
    parts = _parts(data)
    styles = _styles(parts.get("word/styles.xml"))
    numbering = _numbering(parts.get("word/numbering.xml"))
    document = parts.get("word/document.xml")
    if document is None:
        raise DocxError("в архиве нет документа Word (word/document.xml): это не .docx")
    body = _xml(document).find(f"{W}body")
    notes = _Notes(_notes(parts.get("word/footnotes.xml"), "footnote")
                   | _notes(parts.get("word/endnotes.xml"), "endnote"))
    paragraphs = list(_paragraphs(body, styles, numbering, notes)) if body is not None else []
    if not any(p.text.strip() for p in paragraphs):
        raise DocxError("в документе Word нет текста")
    written = markdown_of(paragraphs)
    return DocxReading(written.text, described(written, "Word"))


def _parts(data: bytes) -> dict[str, bytes]:
    """The document's XML parts that the reading needs, unpacked
    (:func:`ingest.document_text.zip_parts`)."""
    if data.startswith(_OLE):
        raise DocxError("документ Word в старом формате (.doc) или защищён паролем: откройте "
                        "его в Word или LibreOffice и сохраните как .docx (без пароля) или .txt")
    return zip_parts(data, ("word/document.xml", "word/styles.xml", "word/numbering.xml",
                            "word/footnotes.xml", "word/endnotes.xml"),
                     "документ Word", SUFFIX, DocxError)


def _xml(data: bytes) -> ElementTree.Element:
    return parse_xml(data, "документ Word", DocxError)


def _on(element: ElementTree.Element | None) -> bool:
    """Whether a toggle property ("<w:b/>", "<w:b w:val="0"/>") is on."""
    if element is None:
        return False
    return element.get(f"{W}val", "true").lower() not in ("0", "false", "off", "none")


def _styles(data: bytes | None) -> dict[str, _Style]:
    """Each paragraph style's id → what it gives its paragraphs (its own properties, else its
    base style's); under "" the default paragraph style's (Word's "Normal", whatever its id)."""
    if data is None:
        return {"": _Style(None, False, None, 10.0)}  # (Word's own default size)
    root = _xml(data)
    raw: dict[str, tuple[str | None, int | None, bool | None, str | None, float]] = {}
    default: str | None = None
    for style in root.iter(f"{W}style"):
        if style.get(f"{W}type") not in ("paragraph", "character", None):
            continue
        sid = style.get(f"{W}styleId") or ""
        if style.get(f"{W}type") == "paragraph" and style.get(f"{W}default") in ("1", "true"):
            default = sid  # the style of a paragraph that names none ("Normal"; "a" in a
            # Russian Word, whose style ids are its own)
        name_element = style.find(f"{W}name")
        name = (name_element.get(f"{W}val") or "") if name_element is not None else ""
        level: int | None = None
        m = HEADING_STYLE.match(name.strip()) or HEADING_STYLE.match(sid)
        if m:
            level = int(m.group(1))
        elif TITLE_STYLE.match(name.strip()) or TITLE_STYLE.match(sid):
            level = 1
        ppr = style.find(f"{W}pPr")
        outline = ppr.find(f"{W}outlineLvl") if ppr is not None else None
        if level is None and outline is not None:
            value = outline.get(f"{W}val", "9")
            level = int(value) + 1 if value.isdigit() and int(value) < 9 else None
        rpr = style.find(f"{W}rPr")
        bold = _on(rpr.find(f"{W}b")) if rpr is not None and rpr.find(f"{W}b") is not None \
            else None
        num = ppr.find(f"{W}numPr/{W}numId") if ppr is not None else None
        based = style.find(f"{W}basedOn")
        raw[sid] = (based.get(f"{W}val") if based is not None else None, level, bold,
                    num.get(f"{W}val") if num is not None else None, _size(rpr))
    out: dict[str, _Style] = {}

    def resolve(sid: str, depth: int = 0) -> _Style:
        if sid in out:
            return out[sid]
        base_id, level, bold, num, size = raw[sid]
        base = resolve(base_id, depth + 1) if base_id in raw and depth < 20 else None
        style = _Style(level if level is not None else base.level if base else None,
                       bold if bold is not None else bool(base and base.bold),
                       num or (base.list_format if base else None),
                       size or (base.size if base else 0.0))
        out[sid] = style
        return style

    defaults = root.find(f"{W}docDefaults/{W}rPrDefault/{W}rPr")
    document_size = _size(defaults) or 10.0  # (Word's own default: 10 points)
    for sid in raw:
        resolve(sid)
    normal = out.get(default or "", _Style(None, False, None))
    # (under "": what a paragraph naming no style gets, its size the document's at least)
    out[""] = replace(normal, size=normal.size or document_size)
    return out


def _size(rpr: ElementTree.Element | None) -> float:
    """The type size a run's properties set, in points (``<w:sz w:val="28"/>``: half-points);
    0 when they set none."""
    sz = rpr.find(f"{W}sz") if rpr is not None else None
    value = sz.get(f"{W}val", "") if sz is not None else ""
    return int(value) / 2 if value.isdigit() else 0.0


def _numbering(data: bytes | None) -> dict[tuple[str, str], str]:
    """(list id, level) → the format of its numbers ("bullet", "decimal", …)."""
    if data is None:
        return {}
    root = _xml(data)
    abstract: dict[str, dict[str, str]] = {}
    for a in root.iter(f"{W}abstractNum"):
        levels: dict[str, str] = {}
        for lvl in a.iter(f"{W}lvl"):
            form = lvl.find(f"{W}numFmt")
            levels[lvl.get(f"{W}ilvl", "0")] = (form.get(f"{W}val", "decimal")
                                                if form is not None else "decimal")
        abstract[a.get(f"{W}abstractNumId", "")] = levels
    out: dict[tuple[str, str], str] = {}
    for num in root.iter(f"{W}num"):
        ref = num.find(f"{W}abstractNumId")
        levels = abstract.get(ref.get(f"{W}val", "") if ref is not None else "", {})
        for ilvl, kind in levels.items():
            out[(num.get(f"{W}numId", ""), ilvl)] = kind
    return out


def _paragraphs(body: ElementTree.Element, styles: dict[str, _Style],
                numbering: dict[tuple[str, str], str], notes: _Notes) -> list[Paragraph]:
    """The body's paragraphs in order, a table's row as one paragraph (its cells' words in
    order), the paragraphs of a content control's or a change's wrapper as the body's, and
    the notes a paragraph cites after it, each a paragraph ("[1] …")."""
    out: list[Paragraph] = []
    counters: dict[tuple[str, str], int] = {}
    for element in body:
        tag = element.tag
        if tag == f"{W}p":
            out.append(_paragraph(element, styles, numbering, counters, notes))
            out.extend(notes.flush())
            for box in _text_boxes(element):  # (a text box's paragraphs after its anchor's)
                out.extend(_paragraphs(box, styles, numbering, notes))
        elif tag == f"{W}tbl":  # (its rows one under another in one block)
            rows = []
            for row in element.findall(f"{W}tr"):  # (its own rows: a table in a cell is
                # the cell's words)
                cells = []
                for cell in row.findall(f"{W}tc"):
                    words = " ".join(_paragraph(p, styles, numbering, counters, notes)
                                     .text.replace("\n", " ").strip()
                                     for p in cell.iter(f"{W}p"))
                    if words.strip():
                        cells.append(" ".join(words.split()))
                if cells:
                    rows.append(" ".join(cells))
            if rows:
                out.append(Paragraph("\n".join(rows), None, False))
            out.extend(notes.flush())
        elif tag in (f"{W}sdt", f"{W}customXml", f"{W}ins"):
            content = element.find(f"{W}sdtContent") if tag == f"{W}sdt" else element
            if content is not None:
                out.extend(_paragraphs(content, styles, numbering, notes))
    return out


def _paragraph(p: ElementTree.Element, styles: dict[str, _Style],
               numbering: dict[tuple[str, str], str],
               counters: dict[tuple[str, str], int], notes: _Notes) -> Paragraph:
    ppr = p.find(f"{W}pPr")
    style_element = ppr.find(f"{W}pStyle") if ppr is not None else None
    style = styles.get(style_element.get(f"{W}val", "") if style_element is not None else "",
                       styles[""])
    level = style.level
    outline = ppr.find(f"{W}outlineLvl") if ppr is not None else None
    if outline is not None:
        value = outline.get(f"{W}val", "9")
        level = int(value) + 1 if value.isdigit() and int(value) < 9 else None
    parts: list[str] = []
    bold_chars = plain_chars = 0
    sizes: dict[float, int] = {}
    for run in _runs(p):
        rpr = run.find(f"{W}rPr")
        run_style = rpr.find(f"{W}rStyle") if rpr is not None else None
        bold = style.bold
        size = style.size or styles[""].size
        if run_style is not None and (s := styles.get(run_style.get(f"{W}val", ""))):
            bold = bold or s.bold
            size = s.size or size
        size = _size(rpr) or size
        b = rpr.find(f"{W}b") if rpr is not None else None
        if b is not None:
            bold = _on(b)
        text = _run_text(run, notes)
        letters = sum(map(str.isalnum, text))
        sizes[size] = sizes.get(size, 0) + letters
        if bold:
            bold_chars += letters
        else:
            plain_chars += letters
        parts.append(text)
    item = ""
    num = ppr.find(f"{W}numPr") if ppr is not None else None
    if num is not None:
        num_id = num.find(f"{W}numId")
        ilvl = num.find(f"{W}ilvl")
        key = (num_id.get(f"{W}val", "") if num_id is not None else "",
               ilvl.get(f"{W}val", "0") if ilvl is not None else "0")
        if key[0] != "0":
            fmt = numbering.get(key, "bullet")
            if fmt in ("bullet", "none"):
                item = "• "
            else:
                counters[key] = counters.get(key, 0) + 1
                item = f"{counters[key]}. "
    elif style.list_format:  # (a list's style: "List Number", "List Bullet")
        key = (style.list_format, "0")
        if numbering.get(key, "bullet") in ("bullet", "none"):
            item = "• "
        else:
            counters[key] = counters.get(key, 0) + 1
            item = f"{counters[key]}. "
    return Paragraph("".join(parts), level, bold_chars > 0 and plain_chars == 0, item,
                     max(sizes, key=lambda k: (sizes[k], k)) if sizes
                     else style.size or styles[""].size)


_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"


def _text_boxes(element: ElementTree.Element) -> list[ElementTree.Element]:
    """The text boxes a paragraph anchors (a sidebar, a note in a frame): their contents, each
    once (Word writes a box twice, as a drawing and as its older fallback: the fallback is
    left out)."""
    out: list[ElementTree.Element] = []
    for child in element:
        if child.tag == f"{_MC}Fallback":
            continue
        if child.tag == f"{W}txbxContent":
            out.append(child)
        else:
            out.extend(_text_boxes(child))
    return out


def _notes(data: bytes | None, kind: str) -> dict[tuple[str, str], str]:
    """(kind, id) → the words of each footnote or endnote (Word's separators left out)."""
    if data is None:
        return {}
    out: dict[tuple[str, str], str] = {}
    for note in _xml(data).iter(f"{W}{kind}"):
        if note.get(f"{W}type") in ("separator", "continuationSeparator",
                                    "continuationNotice"):
            continue
        words = " ".join("".join(_run_text(r) for r in _runs(p)) for p in note.iter(f"{W}p"))
        if words.strip():
            out[(kind, note.get(f"{W}id", ""))] = " ".join(words.split())
    return out


def _runs(p: ElementTree.Element) -> list[ElementTree.Element]:
    """A paragraph's runs in order, those inside its links, fields and inserted text too (not
    deleted text's, nor a moved-from range's)."""
    out: list[ElementTree.Element] = []
    for child in p:
        if child.tag == f"{W}r":
            out.append(child)
        elif child.tag in (f"{W}hyperlink", f"{W}ins", f"{W}smartTag", f"{W}fldSimple",
                           f"{W}customXml", f"{W}moveTo", f"{W}sdt", f"{W}sdtContent",
                           f"{W}bdo", f"{W}dir"):
            out.extend(_runs(child))
    return out


def _run_text(run: ElementTree.Element, notes: _Notes | None = None) -> str:
    parts = []
    for child in run:
        tag = child.tag
        if tag in (f"{W}footnoteReference", f"{W}endnoteReference") and notes is not None:
            kind = "footnote" if tag == f"{W}footnoteReference" else "endnote"
            parts.append(notes.cite((kind, child.get(f"{W}id", ""))))
        elif tag == f"{W}t":
            parts.append(child.text or "")
        elif tag == f"{W}tab":
            parts.append(" ")
        elif tag in (f"{W}br", f"{W}cr"):
            parts.append("\n")
        elif tag == f"{W}noBreakHyphen":
            parts.append("-")
    return "".join(parts).replace("\u00ad", "")
