"""A rule text saved as a Word 97–2003 document: its paragraphs read with the headings its
styles and its type show (``ingest/doc_text.py``). The pages of rules are
``data/doc/whfb_psychology.doc`` and ``data/doc/whfb_notes.doc`` (written by LibreOffice:
``data/docx/make_docx.sh``), the real documents ``data/doc/real/`` (``SOURCES.tsv``)."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import olefile
import pytest
from click.testing import CliRunner
from damaged import damaged_copies

from ingest import build, load
from ingest.build import prepare
from ingest.doc_text import DocError, doc_text, read_doc
from ingest.docx_text import docx_text
from ingest.load import LoadError
from rulekb.cli import cli

DATA = Path(__file__).parent / "data" / "doc"
REAL = DATA / "real"
BOOK = DATA / "whfb_psychology.doc"
NOTES = DATA / "whfb_notes.doc"


def test_a_page_reads_as_its_docx_does() -> None:
    """The page of rules saved by LibreOffice as .doc and as .docx reads to the same text: its
    headings in Word's heading styles, a rule's name in bold a level below, the numbered list's
    numbers and the bulleted list's bullets (from Word's list tables), the dice table's rows."""
    docx = Path(__file__).parent / "data" / "docx" / "whfb_psychology.docx"
    assert doc_text(BOOK.read_bytes()) == docx_text(docx.read_bytes())


def test_notes_sizes_a_table_and_a_field() -> None:
    """A document formatted by hand (titles in 16 and 13 points over text in 11, a rule's name
    in bold) is cut by its type; a footnote and an endnote follow the paragraph that cites
    them; a table's rows are lines; a field (the page's number) shows its result."""
    assert doc_text(NOTES.read_bytes()) == (
        "# Психология\n\n"
        "Некоторые подразделения не знают страха[1] и не проходят тестов психологии.\n\n"
        "[1] Кроме тех, кто бежит.\n\n"
        "## Паника\n\n"
        "Подразделение, потерявшее 25% моделей, проходит тест на Панику (см. с. 57).[2]\n\n"
        "[2] Так сказано в книге правил.\n\n"
        "### Сплочённость\n\n"
        "Бросьте 2D6 и сравните результат с Лидерством подразделения:\n\n"
        "2–7 Держится\n8–12 Бежит\n\n"
        "Бегущее подразделение не может стрелять; страница 1.\n")


def test_a_text_box_is_read_after_the_text() -> None:
    """A sidebar in a text box, which Word keeps in a part of its own: its paragraphs after
    the document's text (they were not read at all)."""
    assert doc_text((DATA / "whfb_text_box.doc").read_bytes()) == (
        "# Паника\n\nПодразделение проходит тест.\n\nПотом бросок.\n\n"
        "Совет: держите генерала рядом.\n")


def test_a_word_document_builds_sections_with_their_references() -> None:
    [source] = load([BOOK])
    assert (source.system, source.encoding) == ("whfb8", "doc")
    _, seg = prepare(source)
    parents = {s.title: seg.sections[s.parent].title if s.parent is not None else None
               for s in seg.sections}
    assert parents["Иммунитет к психологии"] == "Ужас"
    assert parents["Тесты на панику"] == "Паника"
    kb = build([source]).kb
    titles = {n.id: n.title for n in kb.nodes}
    terror = next(n for n in kb.nodes if n.title == "Ужас")
    assert any(e.source == terror.id and titles[e.target] == "Страх" for e in kb.edges)


def test_text_and_explain_say_how_it_was_read(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["build", str(NOTES), "--text"])
    assert result.exit_code == 0, result.output
    assert result.output == doc_text(NOTES.read_bytes())
    result = CliRunner().invoke(cli, ["build", str(NOTES), "--explain", "--system", "whfb8"])
    assert result.exit_code == 0, result.output
    assert "Word: абзацев" in result.output
    assert "набранных крупнее текста: 2" in result.output
    assert "rulekb build ФАЙЛ.doc --text" in result.output


@pytest.mark.parametrize(("name", "text"), [
    # Word's "Heading 1" (its built-in style, whatever the name), paragraphs in other sizes
    ("harmless-clean.doc", "# Test\n\nThis is a harmless test document.\n\n"),
    ("test-ole-file.doc", "Test OLE file, saved as Word 97-2003 Document.\n"),
    # an embedded object's field: its code ("EMBED Package") is no text, nor its picture
    ("embedded-simple-2007.doc", "This document contains an embedded file:\n\n"
                                 "Have fun parsing it (\n"),
])
def test_real_word_documents(name: str, text: str) -> None:
    assert doc_text((REAL / name).read_bytes()).startswith(text)


def test_unicode_beyond_the_8_bit_pieces() -> None:
    assert "ünicöde-ßtringß" in doc_text((REAL / "harmless-clean.doc").read_bytes())


def _renamed_stream(data: bytes, old: str, new: str) -> bytes:
    """``data`` with a stream's name in its OLE directory changed (the same length)."""
    assert len(old) == len(new)
    return data.replace(old.encode("utf-16-le"), new.encode("utf-16-le"))


def _with_fib_version(data: bytes, nfib: int) -> bytes:
    """``data`` with the version of its FIB set to ``nfib`` (Word 6.0/95: 101–105)."""
    ole = olefile.OleFileIO(data)
    word = bytearray(ole.openstream("WordDocument").read())
    start = data.find(bytes(word[:64]))
    assert start > 0
    struct.pack_into("<H", word, 2, nfib)
    return data[:start] + bytes(word[:64]) + data[start + 64:]


@pytest.mark.parametrize(("data", "message"), [
    ((REAL / "encrypted.doc").read_bytes(), "защищён паролем"),
    (_with_fib_version(BOOK.read_bytes(), 0x65), "документ Word 6.0/95 (старше Word 97)"),
    (_renamed_stream(BOOK.read_bytes(), "WordDocument", "WordDocumenX"),
     "нет документа Word (это другой документ Office"),
    (_renamed_stream(BOOK.read_bytes(), "1Table", "1Tablx"), "нет потока 1Table"),
    ((Path(__file__).parent / "data" / "docx" / "whfb_psychology.docx").read_bytes(),
     "нового формата (.docx) с расширением .doc: переименуйте его в .docx"),
    (b"{\\rtf1\\ansi Panic}", "документ RTF с расширением .doc"),
    ("Паника\n".encode() * 10, "не является составным файлом OLE"),
])
def test_a_file_that_is_no_readable_document_is_refused_saying_why(data: bytes,
                                                                   message: str) -> None:
    with pytest.raises(DocError, match=re.escape(message)):
        read_doc(data)


def test_a_damaged_document_is_refused_never_a_traceback() -> None:
    """Cut, overwritten or scrambled bytes of a document: a text, or a DocError saying what is
    wrong; no other exception."""
    for path, seed in ((BOOK, 45), (NOTES, 46), (REAL / "harmless-clean.doc", 47)):
        for bad in damaged_copies(path.read_bytes(), seed):
            try:
                doc_text(bad)
            except DocError as exc:
                assert str(exc)


def test_a_folder_gives_its_old_word_documents_and_the_cli_refuses_a_locked_one(
        tmp_path: Path) -> None:
    (tmp_path / "psychology.doc").write_bytes(BOOK.read_bytes())
    (tmp_path / "locked.doc").write_bytes((REAL / "encrypted.doc").read_bytes())
    errors: list[LoadError] = []
    [source] = load([tmp_path], on_error=errors.append)
    assert source.name == "psychology.doc"
    assert [str(e) for e in errors] == [
        f"{tmp_path / 'locked.doc'}: документ Word защищён паролем: откройте его в Word или "
        "LibreOffice и сохраните без пароля как .docx или .txt"]
    result = CliRunner().invoke(cli, ["build", str(tmp_path / "locked.doc"),
                                      "-o", str(tmp_path / "kb.json")])
    assert result.exit_code == 2
    assert "locked.doc: документ Word защищён паролем" in result.output
    assert "Traceback" not in result.output


def test_a_piece_table_whose_property_changes_run_backwards_is_refused() -> None:
    """A damaged piece table whose first property change gives its size as -3 (read as a
    signed number, it sent the reader back to where it started, for ever): refused."""
    from ingest.doc_binary import Fib, WordBinary

    clx = b"\x01" + struct.pack("<h", -3) + b"\x00" * 8
    places = tuple((0, len(clx)) if k == 33 else (0, 0) for k in range(34))
    reader = WordBinary.__new__(WordBinary)
    reader.word, reader.table = b"", clx
    reader.fib = Fib("1Table", (0,) * 6, places)
    with pytest.raises(DocError, match="нет таблицы частей текста"):
        reader._pieces()


def test_a_damaged_table_of_properties_costs_what_it_tells_not_the_text() -> None:
    """A list table whose count runs past its end (a damaged file): the document is read with
    its headings and without its lists' numbers; it was refused whole."""
    from ingest.doc_binary import streams

    data = BOOK.read_bytes()
    _, table, fib = streams(data)
    start, _ = fib.place(73)  # the list table (PlfLst)
    at = data.find(table[start:start + 28])
    assert at > 0 and data.count(table[start:start + 28]) == 1
    damaged = bytearray(data)
    struct.pack_into("<H", damaged, at, 0x7FFF)
    text = doc_text(bytes(damaged))
    assert text.startswith("# ПСИХОЛОГИЯ\n") and "## Паника" in text
    assert "Бросьте 2D6 и сравните" in text and "1. Бросьте" not in text
