"""A rule text saved as an RTF document: its paragraphs read with the headings its styles
and its type show (``ingest/rtf_text.py``). The pages of rules are ``data/rtf/*.rtf``
(LibreOffice's, written from the sources of ``data/docx`` and ``data/doc``, and one in the
form a Russian Word 97 writes, by hand), the real document ``data/rtf/real/`` (``SOURCES.tsv``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from damaged import damaged_copies

from ingest import build, load
from ingest.build import prepare
from ingest.doc_text import doc_text
from ingest.docx_text import docx_text
from ingest.load import LoadError
from ingest.rtf_text import RtfError, read_rtf, rtf_text
from rulekb.cli import cli

DATA = Path(__file__).parent / "data"
RTF = DATA / "rtf"
WORD97 = RTF / "whfb_word97.rtf"
SPEC = RTF / "real" / "RTF-Spec-1.7.rtf"


def test_pages_read_as_their_word_documents_do() -> None:
    """LibreOffice's RTF of a page reads to the text its .docx (headings in heading styles, a
    rule's name in bold, lists, a table) and its .doc (sizes, notes, a field) read to."""
    assert rtf_text((RTF / "whfb_psychology.rtf").read_bytes()) == docx_text(
        (DATA / "docx" / "whfb_psychology.docx").read_bytes())
    assert rtf_text((RTF / "whfb_notes.rtf").read_bytes()) == doc_text(
        (DATA / "doc" / "whfb_notes.doc").read_bytes())


def test_a_russian_word_97_document() -> None:
    """Bytes in the fonts' code page (cp1251), heading styles by their names and a style based
    on one, a footnote where it is cited, list numbers and a Symbol bullet as Word writes them
    for readers of no list tables, a table's rows, a field's result without its code; the
    header, a picture, a bookmark, an unknown destination and an object (its result aside)
    are no text."""
    assert rtf_text(WORD97.read_bytes()) == (
        "# ПСИХОЛОГИЯ\n\n"
        "Подразделения проходят тесты психологии[1] — см. с. 57.\n\n"
        "[1] Кроме бесстрашных.\n\n"
        "## Паника\n\n"
        "Бросьте 2D6:\n\n"
        "1. сравните результат с Лидерством;\n"
        "2. если он больше, подразделение бежит.\n"
        "• Бегущие не стреляют.\n\n"
        "## Сплочённость\n\n"
        "2–7 Держится\n8–12 Бежит\n\n"
        "Ужас — страх, см. «Страх».\n\n"
        "Конец.\n")


def test_a_text_box_follows_its_anchor() -> None:
    """A sidebar in a text box (a drawing's ``\\shptxt``; its properties and its fallback for
    older readers, ``\\shprslt``, are no text): its paragraphs after the paragraph anchoring
    it, as a .docx's (they were not read at all)."""
    assert rtf_text((RTF / "whfb_text_box.rtf").read_bytes()) == (
        "# Паника\n\nПодразделение проходит тест.\n\nСовет: держите генерала рядом.\n\n"
        "Потом бросок.\n")
    word = (rb"{\rtf1 Text.{\shp{\*\shpinst{\sp{\sn shapeType}{\sv 202}}{\shptxt Box"
            rb"\par}}{\shprslt{\*\do Fallback}}}\par After.\par}")
    assert rtf_text(word) == "Text.\n\nBox\n\nAfter.\n"


def test_the_rtf_specification_made_in_word_for_mac() -> None:
    """Microsoft's RTF 1.7 specification as Word 2002 for Mac saved it (Mac Roman bytes, 2 MB):
    its headings at their levels, its contents' page numbers as fields' results."""
    text = rtf_text(SPEC.read_bytes())
    headings = [(len(m.group(1)), m.group(2)) for m in re.finditer(r"(?m)^(#+) (.*)$", text)]
    assert headings[:6] == [(1, "Introduction"), (1, "RTF Syntax"),
                            (1, "Conventions of an RTF Reader"), (1, "Formal Syntax"),
                            (1, "Contents of an RTF File"), (2, "Header")]
    assert len([h for h in headings if h[0] <= 3]) > 60
    assert "Microsoft® MS-DOS®, Windows®" in text
    assert "\nFootnotes 127\n" in text  # (a contents' entry: PAGEREF's result, not its code)
    assert "_Toc" not in text  # (the entries' fields' code: "PAGEREF _Toc503…")


def test_a_document_builds_sections() -> None:
    [source] = load([WORD97])
    assert (source.system, source.encoding) == ("whfb8", "rtf")
    _, seg = prepare(source)
    parents = {s.title: seg.sections[s.parent].title if s.parent is not None else None
               for s in seg.sections}
    assert parents["Паника"] == "Психология"
    kb = build([source]).kb
    assert {"Паника", "Сплочённость"} <= {n.title for n in kb.nodes}


def test_explain_says_how_it_was_read() -> None:
    result = CliRunner().invoke(cli, ["build", str(WORD97), "--explain"])
    assert result.exit_code == 0, result.output
    assert "RTF: абзацев 13; заголовков по стилям 3" in result.output
    assert "rulekb build ФАЙЛ.rtf --text" in result.output


@pytest.mark.parametrize(("rtf", "text"), [
    # \u with its fallback skipped (\uc1 and \uc0), a hex byte a fallback too
    (rb"{\rtf1\uc1 \u1055?\u1072\'3f\u1085 ?\uc0\u1080\u1082\u1072\par}", "Паника\n"),
    # the document's code page where the font gives none; \bin's bytes are no text
    (rb"{\rtf1\ansi\ansicpg1251 \'cf\'e0\'ed\'e8\'ea\'e0{\bin3 a}b}\par}", "Паника\n"),
    # Mac Roman; a line break, a tab, a non-breaking space and hyphen, a soft hyphen
    (rb"{\rtf1\mac \'8e\line a\tab b\~c\_d\-e\par}", "é\na b\u00a0c-de\n"),
    # an outline level of a paragraph's own, reset by \pard
    (rb"{\rtf1 \pard\outlinelevel1 Panic\par\pard Text.\par}", "## Panic\n\nText.\n"),
    # a damaged escape (its mark dropped, its letters kept) or a negative length of binary
    # data (which moved the reader back, for ever): the text reads on
    (rb"{\rtf1 Pa\'zznic{\bin-5 }\par}", "Pazznic\n"),
    # the Symbol font's bullet, and its other signs as they are
    (rb"{\rtf1{\fonttbl{\f3\fcharset2 Symbol;}}{\f3 \'b7 ab}\par}", "• ab\n"),
    # bold from end to end: a heading below the styles' headings
    (rb"{\rtf1 {\b Panic}\par Units flee.\par}", "# Panic\n\nUnits flee.\n"),
])
def test_control_words(rtf: bytes, text: str) -> None:
    assert rtf_text(rtf) == text


@pytest.mark.parametrize(("data", "message"), [
    (b"Panic\n" * 10, "не начинается с «{\\rtf»"),
    (rb"{\rtf1{\fonttbl{\f0 Arial;}}\par}", "нет текста"),
])
def test_a_file_that_is_no_rtf_document_is_refused(data: bytes, message: str) -> None:
    with pytest.raises(RtfError, match=re.escape(message)):
        read_rtf(data)


def test_a_damaged_document_gives_a_text_or_an_rtf_error() -> None:
    for bad in damaged_copies(WORD97.read_bytes(), 48):
        try:
            rtf_text(bad)
        except RtfError as exc:
            assert str(exc)


def test_a_document_is_read_by_what_it_is_whatever_its_name(tmp_path: Path) -> None:
    """Word saves RTF and web pages as .doc, and sites give plain texts so; a .doc named .rtf
    is a Word document; what is none of them is reported."""
    (tmp_path / "rtf.doc").write_bytes(WORD97.read_bytes())
    (tmp_path / "word.rtf").write_bytes((DATA / "doc" / "whfb_psychology.doc").read_bytes())
    (tmp_path / "bad.rtf").write_bytes(b"not rtf")
    (tmp_path / "plain.doc").write_text("Паника: подразделение бежит.", encoding="cp1251")
    (tmp_path / "page.doc").write_text(  # (Word's "Web Page" saved as .doc)
        "<html><head><meta charset='windows-1251'></head><body><h1>Паника</h1>"
        "<p>Подразделение бежит.</p></body></html>", encoding="cp1251")
    errors: list[LoadError] = []
    texts = {t.name: t for t in load([tmp_path], system="whfb8", on_error=errors.append)}
    assert (texts["rtf.doc"].encoding, texts["word.rtf"].encoding) == ("rtf", "doc")
    assert texts["page.doc"].encoding == "windows-1251"
    assert (texts["plain.doc"].text, texts["plain.doc"].encoding) == (
        "Паника: подразделение бежит.", "cp1251")
    assert [s.title for s in prepare(texts["page.doc"])[1].sections] == ["Паника"]
    assert [str(e) for e in errors] == [
        f"{tmp_path / 'bad.rtf'}: не документ RTF (.rtf): файл не начинается с «{{\\rtf»"]
