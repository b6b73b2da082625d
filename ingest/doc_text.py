"""A rule text saved as a Word 97–2003 document (``.doc``): its paragraphs, with the headings
its styles and its type show.

Fan translations of rulebooks, FAQs and army books were passed around as ``.doc`` files for
years before ``.docx``. Such a file holds the Word Binary File Format, which
:mod:`ingest.doc_binary` reads: the text, the paragraphs' and characters' properties, the
styles, the lists and the notes. :func:`doc_text` makes paragraphs of them and writes them as
Markdown through :func:`ingest.document_text.markdown_of`, as :mod:`ingest.docx_text` does
for a ``.docx``:

* a paragraph in a heading style (Word's built-in "heading 1" … "heading 9", whatever the
  language of the Word that named it, or a style based on one), in a style named "Заголовок N"
  or "Heading N", or with an outline level of its own, is a heading of that level; the
  document's title (Word's "Title") is a heading of the first level;
* a short paragraph set in a larger type than the text's, or in bold from end to end, is a
  heading below them (a document formatted by hand, :func:`ingest.document_text.markdown_of`);
* a table's row is one line, its cells' words in order, its rows one block;
* a field shows its result, not its code ("PAGEREF _Toc123 \\h" of a contents entry); a line
  break inside a paragraph is a line, a non-breaking hyphen a hyphen, a soft hyphen nothing,
  a tab a space; a picture's or a drawing's anchor is nothing;
* a footnote or an endnote is cited by its number in the order of citing ("[1]") and its text
  set as a paragraph after the paragraph that cites it ("[1] …").

A text box's paragraphs (a sidebar, a designer's note) follow the document's text: Word keeps
them in a part of their own, apart from their anchors. What the document holds outside its
text is not read: the pages' headers and footers (its template) and comments. A list's item
opens with "•", or with its number where its list is numbered ("1.", "2."), which Word keeps
in its list tables, not in the text.

A file that is no such document is an error with a Russian message (:class:`DocError`): no
OLE file, an OLE file without a Word document (an Excel workbook), a document locked by a
password, one of Word 6.0/95 (whose format is older still), or a damaged one.
"""

from __future__ import annotations

import struct

from ingest.doc_binary import BULLET, OLE_SIGNATURE, DocError, WordBinary, streams
from ingest.document_text import Notes, Paragraph, Reading, described, markdown_of, typeset
from kb.damage import damage

__all__ = ["OLE_SIGNATURE", "SUFFIX", "DocError", "DocReading", "doc_text", "read_doc"]

SUFFIX = ".doc"
DocReading = Reading
"""How a Word 97–2003 document was read (:class:`ingest.document_text.Reading`)."""


def doc_text(data: bytes) -> str:
    """The text of a Word 97–2003 document, as Markdown marking its headings (the module's
    docstring).

    Raises:
        DocError: the file is no such document, or one this reader cannot open.
    """
    return read_doc(data).text


def read_doc(data: bytes) -> DocReading:
    """:func:`doc_text`, and how its headings were told (:class:`DocReading`)."""
    word, table, fib = streams(data)
    try:
        paragraphs = _paragraphs(WordBinary(word, table, fib))
    except DocError:
        raise
    except (struct.error, IndexError, ValueError) as exc:  # (a count or an offset of its
        # tables pointing past their ends)
        raise DocError(f"документ Word (.doc) повреждён и не читается ({damage(exc)})"
                       ) from exc
    if not any(p.text.strip() for p in paragraphs):
        raise DocError("в документе Word нет текста")
    written = markdown_of(paragraphs)
    return DocReading(written.text, described(written, "Word"))


def _paragraphs(doc: WordBinary) -> list[Paragraph]:
    """The main text's paragraphs, each note cited after the paragraph that cites it, then
    the text boxes' (Word keeps them in a part of their own, their anchors apart)."""
    notes = Notes({cp: words for cp, raw in doc.note_texts().items()
                   if (words := " ".join(_visible(raw, 0, None).split()))})
    return [*_story(doc, 0, doc.fib.ccp[0], notes), *_story(doc, *doc.text_boxes(), None)]


def _story(doc: WordBinary, first: int, end: int, notes: Notes[int] | None
           ) -> list[Paragraph]:
    """The paragraphs of the CPs ``first`` to ``end``: a table's rows as one paragraph, a
    list's items opening with their numbers or bullets."""
    text = doc.text(first, end)
    out: list[Paragraph] = []
    counters: dict[tuple[int, int], int] = {}
    rows: list[str] = []
    cells: list[str] = []
    start = 0
    flush = notes.flush if notes is not None else list
    for k, ch in enumerate(text):
        if ch not in "\r\x07\x0c":
            continue
        words = _visible(text, start, k, notes)
        props = doc.paragraph_props(first + k)
        letters = doc.letters(first + start, first + k, text, props.style, first)
        start = k + 1
        if ch == "\x07" or props.in_table:
            if props.row_end:
                if cells:
                    rows.append(" ".join(cells))
                cells = []
            elif words.strip():
                cells.append(" ".join(words.split()))
            continue
        if rows or cells:
            rows.extend([" ".join(cells)] if cells else [])
            out.append(Paragraph("\n".join(rows), None, False))
            out.extend(flush())
            rows, cells = [], []
        bold, size = typeset({(b, half_points / 2): n for (b, half_points), n in letters.items()})
        item = ""
        formats = doc.lists.get(props.list, ())
        if formats and words.strip():
            nfc = formats[min(props.list_level, len(formats) - 1)]
            if nfc in (BULLET, 0xFF):
                item = "• "
            else:
                key = (props.list, props.list_level)
                counters[key] = counters.get(key, 0) + 1
                for deeper in [d for d in counters if d[0] == props.list
                               and d[1] > props.list_level]:
                    del counters[deeper]  # (a deeper level starts again under it)
                item = f"{counters[key]}. "
        out.append(Paragraph(words, props.level, bold, item, size))
        out.extend(flush())
    if rows or cells:
        rows.extend([" ".join(cells)] if cells else [])
        out.append(Paragraph("\n".join(rows), None, False))
        out.extend(flush())
    return out


_KEPT = {"\x0b": "\n", "\t": " ", "\x1e": "-", "\xa0": "\xa0"}


def _visible(text: str, first: int, end: int | None, notes: Notes[int] | None = None) -> str:
    """The words a reader sees of ``text[first:end]``: a field's result without its code, a
    note's mark its number, control characters (a picture's anchor, a soft hyphen) nothing."""
    end = len(text) if end is None else end
    out: list[str] = []
    fields: list[bool] = []  # per open field: whether its result has begun
    for cp in range(first, end):
        ch = text[cp]
        if ch == "\x13":
            fields.append(False)
        elif ch == "\x14":
            if fields:
                fields[-1] = True
        elif ch == "\x15":
            if fields:
                fields.pop()
        elif fields and not all(fields):
            continue  # a field's code
        elif ch == "\x02":
            if notes is not None:  # (a note's own mark in its text is no citing)
                out.append(notes.cite(cp))
        elif ch in _KEPT:
            out.append(_KEPT[ch])
        elif ch < " " or ch == "\x1f" or ch == "\u00ad":
            continue
        else:
            out.append(ch)
    return "".join(out)


