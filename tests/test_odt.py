"""A rule text saved as an OpenDocument text (``ingest/odt_text.py``). The page of rules is
``data/odt/whfb_psychology.odt`` (written by LibreOffice: ``data/docx/make_docx.sh``), the real
documents ``data/odt/real/`` (``SOURCES.tsv``)."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from damaged import damaged_copies

from ingest import load
from ingest.build import prepare
from ingest.docx_text import docx_text
from ingest.load import load_file
from ingest.odt_text import OdtError, odt_text, read_odt
from rulekb.cli import cli

DATA = Path(__file__).parent / "data" / "odt"
REAL = DATA / "real"
BOOK = DATA / "whfb_psychology.odt"


def test_the_same_page_reads_as_its_word_document_does() -> None:
    """The page of rules saved by LibreOffice as .odt and as .docx: the same text (headings
    by their outline levels, one in a style based on "Heading 1"; a rule's name in bold; the
    lists' numbers and bullets; the table's rows; a "#" escaped)."""
    docx = Path(__file__).parent / "data" / "docx" / "whfb_psychology.docx"
    assert odt_text(BOOK.read_bytes()) == docx_text(docx.read_bytes())


def test_an_odt_builds_sections_and_explains_how_it_was_read(tmp_path: Path) -> None:
    [source] = load([BOOK])
    assert (source.system, source.encoding) == ("whfb8", "odt")
    _, seg = prepare(source)
    assert [s.title for s in seg.sections] == ["Психология", "Страх", "Ужас",
                                               "Иммунитет к психологии", "Паника",
                                               "Тесты на панику"]
    result = CliRunner().invoke(cli, ["build", str(BOOK), "--explain"])
    assert result.exit_code == 0, result.output
    assert "OpenDocument: абзацев" in result.output
    text = CliRunner().invoke(cli, ["build", str(BOOK), "--text"]).output
    (tmp_path / "book.md").write_text(text, encoding="utf-8")
    _, again = prepare(load_file(tmp_path / "book.md").model_copy(update={"system": "whfb8"}))
    assert [(s.title, s.heading_span) for s in again.sections] == \
        [(s.title, s.heading_span) for s in seg.sections]


@pytest.mark.parametrize(("name", "text"), [
    ("simplelist.odt", "Line 1\n\n• Item A\n• Item B\n\nLine 4\n"),
    ("twolevellist.odt", "Line 1\n\n• Item A\n• Item B\n• Subitem B.1\n• Subitem B.2 (bold)\n"
                         "• Item C\n\nLine 4\n"),
    ("simpletable.odt", "Cell 1 Cell 2\nCell 3 (bold) Cell 4 (italic)\n"),
    # runs of spaces (<text:s text:c="4"/>) and line breaks
    ("serious_poem.odt", "The boy stood    on the burning deck,\nWhence all but  him had fled.\n"
                         "The flames   that lit the battle's wreck,\nShone o'er him, round "
                         "the dead.\n"),
    # the page's header and footer are the template's, not the text
    ("headerfooter.odt", "# Lorem ipsum\n"),
])
def test_real_opendocument_texts(name: str, text: str) -> None:
    assert odt_text((REAL / name).read_bytes()) == text


def test_paragraph_styles_in_bold_are_headings_below_the_styled_ones() -> None:
    text = odt_text((REAL / "parastyles.odt").read_bytes())
    assert text.startswith("Plain text\n\n# Bold\n\nItalic\n\n# Bold italic\n")


def test_a_list_numbered_by_its_style_keeps_its_numbers() -> None:
    assert odt_text((REAL / "definitionlists.odt").read_bytes()).endswith(
        "• liste 1\n• liste 2\n1. nummer 1\n2. nummer 2\n")


def _odt(content: bytes, manifest: bytes | None = None) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        z.writestr("content.xml", content)
        if manifest is not None:
            z.writestr("META-INF/manifest.xml", manifest)
    return out.getvalue()


_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
       'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"')


@pytest.mark.parametrize(("data", "message"), [
    ((REAL / "nasty.odt").read_bytes(), "XML не читается"),
    ("Паника\n".encode() * 10, "не является zip-архивом"),
    (_odt(b"<x/>", b"<manifest:encryption-data/>"), "защищён паролем"),
    (_odt(f"<office:document-content {_NS}><office:body><office:spreadsheet/></office:body>"
          "</office:document-content>".encode()), "не текстовый"),
    (_odt(f"<office:document-content {_NS}><office:body><office:text><text:p/></office:text>"
          "</office:body></office:document-content>".encode()), "нет текста"),
])
def test_a_file_that_is_no_readable_text_is_refused_saying_why(data: bytes,
                                                               message: str) -> None:
    with pytest.raises(OdtError, match=re.escape(message)):
        read_odt(data)


def test_an_archive_with_no_text_is_refused() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("word/document.xml", "<w/>")
    with pytest.raises(OdtError, match=r"нет текста OpenDocument \(content.xml\)"):
        read_odt(out.getvalue())


def test_a_damaged_document_is_refused_never_a_traceback() -> None:
    damaged = damaged_copies(BOOK.read_bytes(), 45)
    for bad in damaged:
        try:
            odt_text(bad)
        except OdtError as exc:
            assert str(exc)


def test_a_footnote_follows_the_paragraph_that_cites_it() -> None:
    content = (f"<office:document-content {_NS}><office:body><office:text>"
               '<text:h text:outline-level="1">Паника</text:h>'
               '<text:p>Подразделение бежит<text:note text:note-class="footnote">'
               "<text:note-citation>1</text:note-citation><text:note-body><text:p>Кроме "
               "бесстрашных.</text:p></text:note-body></text:note>.</text:p>"
               "<text:p>Потом собирается.</text:p>"
               "</office:text></office:body></office:document-content>").encode()
    assert odt_text(_odt(content)) == (
        "# Паника\n\nПодразделение бежит[1].\n\n[1] Кроме бесстрашных.\n\nПотом собирается.\n")


def test_a_text_box_follows_the_paragraph_it_is_anchored_in() -> None:
    draw = 'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"'
    content = (f"<office:document-content {_NS} {draw}><office:body><office:text>"
               "<text:p>Подразделение проходит тест.<draw:frame><draw:text-box><text:p>Совет: "
               "держите генерала рядом.</text:p></draw:text-box></draw:frame></text:p>"
               "<text:p>Потом бросок.</text:p>"
               "</office:text></office:body></office:document-content>").encode()
    assert odt_text(_odt(content)) == (
        "Подразделение проходит тест.\n\nСовет: держите генерала рядом.\n\nПотом бросок.\n")


def test_a_heading_in_a_list_stays_a_heading() -> None:
    """LibreOffice may set numbered headings inside a list: they stay headings at their
    outline levels, the paragraphs of the list around them its items."""
    content = (f"<office:document-content {_NS}><office:body><office:text><text:list>"
               '<text:list-item><text:h text:outline-level="2">Паника</text:h></text:list-item>'
               "<text:list-item><text:p>Бросьте 2D6.</text:p></text:list-item>"
               "</text:list></office:text></office:body></office:document-content>").encode()
    assert odt_text(_odt(content)) == "## Паника\n\n• Бросьте 2D6.\n"


def test_a_span_in_a_style_based_on_a_bold_one_is_bold() -> None:
    """A rule's name set in an automatic style based on "Strong Emphasis" (bold by its base,
    italic by its own): a paragraph in bold, a heading below the styled ones."""
    style = ('xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
             'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"')
    content = (f"<office:document-content {_NS} {style}><office:automatic-styles>"
               '<style:style style:name="Strong" style:family="text">'
               '<style:text-properties fo:font-weight="bold"/></style:style>'
               '<style:style style:name="T1" style:family="text" style:parent-style-name="Strong">'
               '<style:text-properties fo:font-style="italic"/></style:style>'
               "</office:automatic-styles><office:body><office:text>"
               '<text:h text:outline-level="2">Психология</text:h>'
               '<text:p><text:span text:style-name="T1">Иммунитет к психологии</text:span></text:p>'
               "<text:p>Подразделение не бежит.</text:p>"
               "</office:text></office:body></office:document-content>").encode()
    assert odt_text(_odt(content)) == (
        "## Психология\n\n### Иммунитет к психологии\n\nПодразделение не бежит.\n")


def test_a_document_formatted_by_hand_is_cut_by_its_type_sizes() -> None:
    """Paragraph styles that set sizes in points and in percent of their base, no heading
    style: the larger sizes are levels, the largest first."""
    style = ('xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
             'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"')
    text = "Подразделение проходит тест на Лидерство, когда теряет четверть моделей."
    content = (f"<office:document-content {_NS} {style}><office:automatic-styles>"
               '<style:style style:name="Body" style:family="paragraph">'
               '<style:text-properties fo:font-size="11pt"/></style:style>'
               '<style:style style:name="Big" style:family="paragraph" '
               'style:parent-style-name="Body"><style:text-properties fo:font-size="150%"/>'
               '</style:style><style:style style:name="Mid" style:family="paragraph">'
               '<style:text-properties fo:font-size="14pt"/></style:style>'
               "</office:automatic-styles><office:body><office:text>"
               f'<text:p text:style-name="Big">ПСИХОЛОГИЯ</text:p>'
               f'<text:p text:style-name="Body">{text}</text:p>'
               f'<text:p text:style-name="Mid">Паника</text:p>'
               f'<text:p text:style-name="Body">{text}</text:p>'
               "</office:text></office:body></office:document-content>").encode()
    assert re.findall(r"(?m)^#+ .*$", odt_text(_odt(content))) == ["# ПСИХОЛОГИЯ", "## Паника"]


def test_a_note_in_a_table_cell_is_read_once_after_the_table() -> None:
    table = 'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"'
    content = (f"<office:document-content {_NS} {table}><office:body><office:text>"
               "<table:table><table:table-row><table:table-cell><text:p>2–7</text:p>"
               "</table:table-cell><table:table-cell><text:p>Держится<text:note>"
               "<text:note-citation>1</text:note-citation><text:note-body><text:p>Если не "
               "бежит.</text:p></text:note-body></text:note></text:p></table:table-cell>"
               "</table:table-row></table:table>"
               "</office:text></office:body></office:document-content>").encode()
    assert odt_text(_odt(content)) == "2–7 Держится[1]\n\n[1] Если не бежит.\n"
