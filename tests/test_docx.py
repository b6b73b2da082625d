"""A rule text saved as a Word document: its paragraphs read with the headings its styles show
(``ingest/docx_text.py``). The page of rules is ``data/docx/whfb_psychology.docx`` (written by
LibreOffice: ``data/docx/make_docx.sh``), the real documents ``data/docx/real/``
(``SOURCES.tsv``)."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from damaged import damaged_copies

from ingest import build, load
from ingest.build import prepare
from ingest.docx_text import DocxError, docx_text, read_docx
from ingest.load import LoadError, load_file
from rulekb.cli import cli

DATA = Path(__file__).parent / "data" / "docx"
REAL = DATA / "real"
BOOK = DATA / "whfb_psychology.docx"


def _headings(text: str) -> list[tuple[int, str]]:
    return [(len(m.group(1)), m.group(2)) for m in re.finditer(r"(?m)^(#+) (.*)$", text)]


def test_headings_by_their_styles_and_a_rule_name_in_bold() -> None:
    text = docx_text(BOOK.read_bytes())
    assert _headings(text) == [(1, "ПСИХОЛОГИЯ"), (2, "Страх"), (2, "Ужас"),
                               (4, "Иммунитет к психологии"), (2, "Паника"),
                               (3, "Тесты на панику")]


def test_lists_tables_and_marks_of_the_text() -> None:
    """A numbered list's items keep their numbers, a bulleted list's open with "•", one under
    another; a table's rows are lines of one block (its head in bold is no heading); a line
    opening with "#" is escaped, no heading."""
    text = docx_text(BOOK.read_bytes())
    assert ("1. Бросьте 2D6 и сравните результат с Лидерством подразделения.\n"
            "2. Если результат больше, подразделение бежит от ближайшего врага.\n"
            "• Бегущее подразделение не может стрелять.\n"
            "• Бегущее подразделение не может нападать.") in text
    assert "2D6 Итог теста\n2–7 Держится\n8–12 Бежит" in text
    assert "\n\\#1 в списке целей" in text


def test_a_word_document_builds_sections_with_their_references(tmp_path: Path) -> None:
    [source] = load([BOOK])
    assert (source.system, source.encoding) == ("whfb8", "docx")
    _, seg = prepare(source)
    parents = {s.title: seg.sections[s.parent].title if s.parent is not None else None
               for s in seg.sections}
    assert parents["Страх"] == "Психология"
    assert parents["Иммунитет к психологии"] == "Ужас"
    assert parents["Тесты на панику"] == "Паника"
    kb = build([source]).kb
    titles = {n.id: n.title for n in kb.nodes}
    terror = next(n for n in kb.nodes if n.title == "Ужас")
    assert any(e.source == terror.id and titles[e.target] == "Страх" for e in kb.edges)


def test_text_prints_what_a_document_is_read_as_and_builds_as_markdown(tmp_path: Path) -> None:
    """``rulekb build FILE.docx --text`` prints the text the build reads; saved as .md it is
    cut into the same sections, at the same offsets."""
    result = CliRunner().invoke(cli, ["build", str(BOOK), "--text"])
    assert result.exit_code == 0, result.output
    assert result.output == docx_text(BOOK.read_bytes())
    (tmp_path / "book.md").write_text(result.output, encoding="utf-8")

    def sections(path: Path) -> list[tuple[str, tuple[int, int]]]:
        _, seg = prepare(load_file(path).model_copy(update={"system": "whfb8"}))
        return [(s.title, s.heading_span) for s in seg.sections]

    assert sections(tmp_path / "book.md") == sections(BOOK)


def test_explain_says_how_a_document_was_read() -> None:
    result = CliRunner().invoke(cli, ["build", str(BOOK), "--explain"])
    assert result.exit_code == 0, result.output
    assert "Word: абзацев" in result.output
    assert "полужирных абзацев, прочитанных как заголовки уровня 4: 1" in result.output


@pytest.mark.parametrize(("name", "text"), [
    # Word's own heading style, and the paragraphs beside it in other styles
    ("test.docx", "# python-docx was here!\n\npython-docx was here too!\n"),
    ("par-known-styles.docx", "no specified style\n\nmissing style\n\n# Heading 1\n\nBody Text\n"),
    # a paragraph in a numbered list's style
    ("num-having-numbering-part.docx", "1. Paragraph having List Number style.\n"),
    # a link's words are the paragraph's
    ("par-hyperlinks.docx", "No hyperlinks\n\nOne awesome hyperlink.\n\nThree hyperlinks: the "
                            "first one here, the second one, and the third.\n"),
    # headers and footers on odd and even pages, and comments: not the document's text
    ("doc-odd-even-hdrs.docx", "First Page.\n\nSecond Page.\n"),
    ("hdr-header-footer.docx", "section with header\n\nsection without header of its own.\n"),
])
def test_real_word_documents(name: str, text: str) -> None:
    assert docx_text((REAL / name).read_bytes()) == text


def test_comments_and_page_breaks_are_no_text() -> None:
    comments = docx_text((REAL / "comments-rich-para.docx").read_bytes())
    assert "Document text" in comments and "hyperlink" not in comments
    breaks = docx_text((REAL / "par-rendered-page-breaks.docx").read_bytes())
    assert "Two page>><<breaks>><<in one run." in breaks


def test_a_table_in_a_table_style_is_its_rows() -> None:
    text = docx_text((REAL / "tbl-having-applied-style.docx").read_bytes())
    assert text.startswith("foobar barfoo\nfoo bar\nbar foo\n")


def _docx(document: bytes, **parts: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("word/document.xml", document)
        for name, data in parts.items():
            z.writestr(f"word/{name}.xml", data)
    return out.getvalue()


_W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


@pytest.mark.parametrize(("data", "message"), [
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(500), "старом формате (.doc) или защищён паролем"),
    ("Паника\n".encode() * 10, "не является zip-архивом"),
    (_docx(b"x", ), "XML не читается"),
    (_docx(f"<w:document {_W}><w:body><w:p/></w:body></w:document>".encode()), "нет текста"),
])
def test_a_file_that_is_no_readable_document_is_refused_saying_why(data: bytes,
                                                                   message: str) -> None:
    with pytest.raises(DocxError, match=re.escape(message)):
        read_docx(data)


def test_an_archive_with_no_document_is_refused() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("content.xml", "<office/>")  # an OpenDocument's part, say
    with pytest.raises(DocxError, match=r"нет документа Word \(word/document.xml\)"):
        read_docx(out.getvalue())


def test_a_document_that_would_unpack_too_large_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import ingest.document_text as reader

    monkeypatch.setattr(reader, "MAX_XML", 1000)
    with pytest.raises(DocxError, match="слишком велик"):
        read_docx(BOOK.read_bytes())


def test_a_damaged_document_is_refused_never_a_traceback() -> None:
    """Cut, overwritten or scrambled bytes of a document: a text, or a DocxError saying what is
    wrong; no other exception."""
    damaged = damaged_copies(BOOK.read_bytes(), 44)
    for bad in damaged:
        try:
            docx_text(bad)
        except DocxError as exc:
            assert str(exc)


def test_a_word_document_is_read_by_what_it_is_whatever_its_name(tmp_path: Path) -> None:
    """A Word 97–2003 document named .docx is read as one (Word opens it so), and a .docx
    named .doc; a damaged one is refused with exit 2, saying so."""
    old = DATA.parent / "doc" / "whfb_psychology.doc"
    (tmp_path / "old.docx").write_bytes(old.read_bytes())
    (tmp_path / "new.doc").write_bytes(BOOK.read_bytes())
    texts = {t.name: t for t in load([tmp_path], system="whfb8")}
    assert (texts["old.docx"].encoding, texts["new.doc"].encoding) == ("doc", "docx")
    assert texts["old.docx"].text == texts["new.doc"].text == docx_text(BOOK.read_bytes())
    bad = tmp_path / "rules.docx"
    bad.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(500))
    result = CliRunner().invoke(cli, ["build", str(bad), "-o", str(tmp_path / "kb.json")])
    assert result.exit_code == 2
    assert "rules.docx: документ Word (.doc) повреждён и не читается" in result.output
    assert "Traceback" not in result.output


def test_a_folder_gives_its_word_documents(tmp_path: Path) -> None:
    (tmp_path / "psychology.docx").write_bytes(BOOK.read_bytes())
    (tmp_path / "notes.doc").write_bytes(b"\x00\x01 binary")  # (no document: reported)
    errors: list[LoadError] = []
    [source] = load([tmp_path], on_error=errors.append)
    assert source.name == "psychology.docx"
    assert [str(e).split(": ", 1)[1] for e in errors] == [
        "не документ Word (.doc): файл не является составным файлом OLE"]
    with pytest.raises(LoadError, match="psychology.docx: документ Word повреждён|XML"):
        bad = tmp_path / "psychology.docx"
        bad.write_bytes(_docx(b"<w:document"))
        load([bad])


def test_a_russian_words_own_style_ids() -> None:
    """A Russian Word names its styles' ids its own way ("1" for "heading 1", "a" for the
    default "Normal", "a3" for "Title"): the styles' names and the default mark tell them."""
    styles = (f'<w:styles {_W}>'
              '<w:style w:type="paragraph" w:default="1" w:styleId="a"><w:name w:val="Normal"/>'
              '</w:style>'
              '<w:style w:type="paragraph" w:styleId="1"><w:name w:val="heading 1"/>'
              '<w:basedOn w:val="a"/></w:style>'
              '<w:style w:type="paragraph" w:styleId="a3"><w:name w:val="Title"/></w:style>'
              '<w:style w:type="character" w:styleId="a5"><w:name w:val="Strong"/>'
              '<w:rPr><w:b/></w:rPr></w:style></w:styles>').encode()

    def p(text: str, style: str = "", run_style: str = "") -> str:
        ppr = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
        rpr = f'<w:rPr><w:rStyle w:val="{run_style}"/></w:rPr>' if run_style else ""
        return f"<w:p>{ppr}<w:r>{rpr}<w:t>{text}</w:t></w:r></w:p>"

    document = (f"<w:document {_W}><w:body>" + p("Правила", "a3") + p("Психология", "1")
                + p("Страх", run_style="a5") + p("Подразделение проходит тест.")
                + "</w:body></w:document>").encode()
    assert docx_text(_docx(document, styles=styles)) == (
        "# Правила\n\n# Психология\n\n## Страх\n\nПодразделение проходит тест.\n")


def test_a_footnote_follows_the_paragraph_that_cites_it() -> None:
    """A footnote is cited by its number in the order of citing and set as a paragraph after
    the paragraph citing it (in that paragraph's section); Word's separators are no note."""
    notes = (f'<w:footnotes {_W}><w:footnote w:type="separator" w:id="-1"><w:p><w:r>'
             '<w:separator/></w:r></w:p></w:footnote>'
             '<w:footnote w:id="2"><w:p><w:r><w:t>Кроме бесстрашных.</w:t></w:r></w:p>'
             '</w:footnote></w:footnotes>').encode()
    document = (f"<w:document {_W}><w:body>"
                '<w:p><w:pPr><w:outlineLvl w:val="0"/></w:pPr><w:r><w:t>Паника</w:t></w:r></w:p>'
                "<w:p><w:r><w:t>Подразделение бежит</w:t></w:r><w:r><w:footnoteReference "
                'w:id="2"/></w:r><w:r><w:t>.</w:t></w:r></w:p>'
                "<w:p><w:r><w:t>Потом собирается.</w:t></w:r></w:p></w:body></w:document>"
                ).encode()
    assert docx_text(_docx(document, footnotes=notes)) == (
        "# Паника\n\nПодразделение бежит[1].\n\n[1] Кроме бесстрашных.\n\nПотом собирается.\n")


def test_a_table_in_a_cell_is_the_cells_words_once() -> None:
    def cell(inner: str) -> str:
        return f"<w:tc>{inner}</w:tc>"

    def para(text: str) -> str:
        return f"<w:p><w:r><w:t>{text}</w:t></w:r></w:p>"

    inner = f"<w:tbl><w:tr>{cell(para('2–7'))}{cell(para('Держится'))}</w:tr></w:tbl>"
    document = (f"<w:document {_W}><w:body><w:tbl>"
                f"<w:tr>{cell(para('Тест'))}{cell(para('Итог') + inner)}</w:tr>"
                f"<w:tr>{cell(para('Паника'))}{cell(para('Бежит'))}</w:tr>"
                "</w:tbl></w:body></w:document>").encode()
    assert docx_text(_docx(document)) == "Тест Итог 2–7 Держится\nПаника Бежит\n"


def test_a_text_box_follows_the_paragraph_it_is_anchored_in() -> None:
    """A sidebar in a text box, which Word writes twice (a drawing and its older fallback):
    its paragraphs once, after the paragraph anchoring it."""
    mc = 'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"'
    box = "<w:txbxContent><w:p><w:r><w:t>Совет: держите генерала рядом.</w:t></w:r></w:p>" \
          "</w:txbxContent>"
    document = (f"<w:document {_W} {mc}><w:body>"
                "<w:p><w:r><w:t>Подразделение проходит тест.</w:t></w:r><w:r>"
                f"<mc:AlternateContent><mc:Choice><w:drawing><x>{box}</x></w:drawing>"
                f"</mc:Choice><mc:Fallback><w:pict>{box}</w:pict></mc:Fallback>"
                "</mc:AlternateContent></w:r></w:p>"
                "<w:p><w:r><w:t>Потом бросок.</w:t></w:r></w:p></w:body></w:document>").encode()
    assert docx_text(_docx(document)) == (
        "Подразделение проходит тест.\n\nСовет: держите генерала рядом.\n\nПотом бросок.\n")


def test_a_numbered_heading_stays_a_heading() -> None:
    """Word numbers headings by a list linked to their style ("1. Психология"): the
    paragraph is a heading at its style's level, its number no list's item."""
    styles = (f'<w:styles {_W}><w:style w:type="paragraph" w:styleId="Heading1">'
              '<w:name w:val="heading 1"/><w:pPr><w:numPr><w:numId w:val="3"/></w:numPr>'
              "</w:pPr></w:style></w:styles>").encode()
    numbering = (f'<w:numbering {_W}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0">'
                 '<w:numFmt w:val="decimal"/></w:lvl></w:abstractNum><w:num w:numId="3">'
                 '<w:abstractNumId w:val="0"/></w:num></w:numbering>').encode()
    document = (f"<w:document {_W}><w:body>"
                '<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Психология</w:t>'
                "</w:r></w:p><w:p><w:r><w:t>Воины бегут.</w:t></w:r></w:p>"
                "</w:body></w:document>").encode()
    assert docx_text(_docx(document, styles=styles, numbering=numbering)) == (
        "# Психология\n\nВоины бегут.\n")


def test_a_document_formatted_by_hand_is_cut_by_its_type_sizes() -> None:
    """No heading styles: titles set by hand in 16 and 14 points bold over text in 11, a
    rule's name in bold at the text's size, a short line in 14 points that ends a sentence
    (no heading): the sizes are levels, the largest first, the bold names below them."""
    def p(text: str, size: int, bold: bool = False) -> str:
        b = "<w:b/>" if bold else ""
        return f'<w:p><w:r><w:rPr>{b}<w:sz w:val="{size * 2}"/></w:rPr><w:t>{text}</w:t>' \
               "</w:r></w:p>"

    styles = (f'<w:styles {_W}><w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="22"/></w:rPr>'
              "</w:rPrDefault></w:docDefaults></w:styles>").encode()
    text = "Подразделение проходит тест на Лидерство, когда теряет четверть моделей."
    document = (f"<w:document {_W}><w:body>" + p("ПСИХОЛОГИЯ", 16, True) + p(text, 11)
                + p("Паника", 14, True) + p(text, 11) + p("Иммунитет к панике", 11, True)
                + p(text, 11) + p("Это важно.", 14) + '<w:p><w:r><w:t>' + text + "</w:t></w:r>"
                "</w:p></w:body></w:document>").encode()
    assert _headings(docx_text(_docx(document, styles=styles))) == [
        (1, "ПСИХОЛОГИЯ"), (2, "Паника"), (3, "Иммунитет к панике")]


def test_a_part_in_an_encoding_the_xml_parser_cannot_read_is_refused() -> None:
    """A part whose declaration names an encoding expat does not read ("NaN": LookupError, not
    the ParseError of damaged XML) is refused as the document's error."""
    styles = b'<?xml version="1.0" encoding="NaN"?><w:styles ' + _W.encode() + b"/>"
    document = f"<w:document {_W}><w:body><w:p><w:r><w:t>Паника</w:t></w:r></w:p></w:body>" \
        "</w:document>"
    with pytest.raises(DocxError, match="документ Word не читается: в объявлении XML указана "
                                        "кодировка «NaN»"):
        read_docx(_docx(document.encode(), styles=styles))
