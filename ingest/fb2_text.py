"""A rule text saved as a FictionBook e-book (``.fb2``, or zipped, ``.fb2.zip``): its sections,
their titles as headings at their depths.

FictionBook 2 is the e-book format of Russian libraries and readers: an XML file whose
``<body>`` holds nested ``<section>`` elements, each with its ``<title>``. Its structure is
the book's own, so :func:`fb2_text` writes it as Markdown through
:func:`ingest.document_text.markdown_of`, as :mod:`ingest.docx_text` does for a Word
document:

* the body's title (the book's) is a heading of the first level, each section's title a
  heading one level deeper than its parent section's; a title of several paragraphs ("Глава
  3", "Психология") is one heading, its parts joined by ". ";
* a ``<subtitle>`` (a rule's name inside a section) is a heading below the sections' (it is
  read as a paragraph in bold from end to end);
* a paragraph's words with their emphasis, links and code as words; a poem's lines one under
  another; an epigraph's and a citation's paragraphs as paragraphs, their author after a dash
  ("— Генерал Империи", as a printed book sets a flavour quote's); a table's rows as lines,
  its rows one block;
* a note (``<a l:href="#n1" type="note">``, its text in the book's notes body) is cited by its
  number in the order of citing ("[1]") and set as a paragraph after the paragraph citing
  it; the notes body itself is not read as text.

What the book holds beside its text is not read: its description (authors, annotation,
publisher), its pictures (``<binary>``) and the images in its text.

A file that is no FictionBook is an error with a Russian message (:class:`Fb2Error`): XML
that does not parse, a root other than ``<FictionBook>``, a zip archive with no ``.fb2`` in it.
"""

from __future__ import annotations

import io
import zipfile
from xml.etree import ElementTree

from ingest.document_text import (
    MAX_XML,
    Notes,
    Paragraph,
    Reading,
    markdown_of,
    not_too_deep,
    parse_xml,
)
from kb.damage import damage

SUFFIXES = (".fb2",)
"""The names of FictionBook files (a zipped one, ``book.fb2.zip``, is read too)."""
ZIPPED = ".fb2.zip"
NS = "{http://www.gribuser.ru/xml/fictionbook/2.0}"
_XLINK = "{http://www.w3.org/1999/xlink}href"


class Fb2Error(ValueError):
    """A file that is no readable FictionBook; the message is in Russian."""


Fb2Reading = Reading
"""How a FictionBook was read (:class:`ingest.document_text.Reading`)."""


def fb2_text(data: bytes) -> str:
    """The text of a FictionBook, as Markdown marking its headings (the module's docstring).

    Raises:
        Fb2Error: the file is no FictionBook.
    """
    return read_fb2(data).text


def read_fb2(data: bytes) -> Fb2Reading:
    """:func:`fb2_text`, and how its headings were told (:class:`Fb2Reading`)."""
    with not_too_deep("книга FictionBook", Fb2Error):
        return _read_fb2(data)


def _read_fb2(data: bytes) -> Fb2Reading:
    if data.startswith(b"PK"):
        data = _unzipped(data)
    root = parse_xml(data, "файл FictionBook", Fb2Error)
    if _local(root.tag) != "FictionBook":
        raise Fb2Error(f"не книга FictionBook (.fb2): корневой элемент XML — «{_local(root.tag)}»"
                       ", а не FictionBook")
    bodies = [child for child in root if _local(child.tag) == "body"]
    main = [b for b in bodies if b.get("name") not in ("notes", "comments")] or bodies[:1]
    notes = Notes({f"#{s.get('id')}": _note_words(s)
                   for b in bodies if b not in main for s in b.iter(f"{NS}section")
                   if s.get("id")})
    reader = _Reader(notes)
    for body in main:
        reader.block(body, 0)
    if not any(p.text.strip() for p in reader.out):
        raise Fb2Error("в книге FictionBook нет текста")
    written = markdown_of(reader.out)
    return Fb2Reading(written.text, (
        f"абзацев {written.paragraphs}; заголовков разделов {written.headings}; подзаголовков, "
        f"прочитанных как заголовки уровня {written.below}: {written.bold}; описание книги и "
        "картинки не читаются, сноски — абзацами после ссылки на них"))


def _unzipped(data: bytes) -> bytes:
    """The ``.fb2`` inside a zipped FictionBook (``book.fb2.zip``)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        names = [i for i in archive.infolist() if i.filename.lower().endswith(".fb2")]
        if not names:
            raise Fb2Error("в zip-архиве нет книги FictionBook (.fb2)")
        with archive.open(names[0]) as stream:
            content = stream.read(MAX_XML + 1)
    except Fb2Error:
        raise
    except Exception as exc:  # noqa: BLE001 (a damaged archive fails anywhere in zipfile)
        raise Fb2Error(f"архив FictionBook повреждён и не читается ({damage(exc)})"
                       ) from exc
    if len(content) > MAX_XML:
        raise Fb2Error(f"книга FictionBook слишком велика (больше {MAX_XML // 1_000_000} МБ в "
                       "распакованном виде)")
    return content


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _note_words(section: ElementTree.Element) -> str:
    """A note's words, its title (its number) aside."""
    return " ".join(" ".join(_words(p) for p in section if _local(p.tag) != "title").split())


def _words(element: ElementTree.Element, notes: Notes[str] | None = None) -> str:
    """The words of an inline element: its text and its children's (a note's mark its number
    in the order of citing; an image nothing)."""
    parts = [element.text or ""]
    for child in element:
        tag = _local(child.tag)
        if tag == "a" and child.get("type") == "note" and notes is not None:
            parts.append(notes.cite(child.get(_XLINK, "")))
        elif tag == "a" and child.get("type") == "note":
            pass  # (a note's mark inside a note: its own number)
        elif tag != "image":
            parts.append(_words(child, notes))
        parts.append(child.tail or "")
    return "".join(parts)


def _attribution(words: str) -> str:
    """An epigraph's or a citation's author as a printed book sets it, after a dash."""
    words = " ".join(words.split())
    return words if not words or words[0] in "—–-" else f"— {words}"


class _Reader:
    """The paragraphs of the book's bodies, in order."""

    def __init__(self, notes: Notes[str]) -> None:
        self.notes = notes
        self.out: list[Paragraph] = []

    def add(self, text: str, level: int | None = None, bold: bool = False) -> None:
        text = " ".join(text.split()) if "\n" not in text else text
        if text.strip():
            self.out.append(Paragraph(text, level, bold))
        self.out.extend(self.notes.flush())

    def block(self, element: ElementTree.Element, depth: int) -> None:
        """A body's or a section's children: its title at ``depth`` + 1, its sections deeper."""
        for child in element:
            tag = _local(child.tag)
            if tag == "title":
                title = ". ".join(w for p in child if (w := " ".join(
                    _words(p, self.notes).split()).rstrip(".")))
                self.add(title, min(depth + 1, 6))
            elif tag == "section":
                self.block(child, depth + 1)
            elif tag == "subtitle":
                self.add(_words(child, self.notes), bold=True)
            elif tag == "text-author":
                self.add(_attribution(_words(child, self.notes)))
            elif tag in ("p", "v", "date"):
                self.add(_words(child, self.notes))
            elif tag == "poem":
                self.poem(child)
            elif tag in ("epigraph", "cite", "annotation"):
                self.block(child, depth)
            elif tag == "table":
                rows = [" ".join(" ".join(_words(cell, self.notes).split()) for cell in row)
                        for row in child if _local(row.tag) == "tr"]
                self.add("\n".join(r for r in rows if r.strip()))

    def poem(self, poem: ElementTree.Element) -> None:
        for part in poem:
            tag = _local(part.tag)
            if tag == "stanza":
                lines = [" ".join(_words(v, self.notes).split()) for v in part
                         if _local(v.tag) in ("v", "title", "subtitle")]
                self.add("\n".join(line for line in lines if line))
            elif tag == "title":
                self.add(" ".join(_words(part, self.notes).split()), bold=True)
            elif tag == "epigraph":
                self.block(part, 0)
            elif tag == "text-author":
                self.add(_attribution(_words(part, self.notes)))
            elif tag == "date":
                self.add(_words(part, self.notes))
