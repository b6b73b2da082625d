"""A rule text saved as an EPUB e-book: its chapters' paragraphs read with the headings their
markup and their type show (``ingest/epub_text.py``). The books are ``data/epub/src/`` (written
by hand, zipped by the tests) and LibreOffice's export of the page of rules of ``data/docx``
(``data/epub/whfb_psychology_libreoffice.epub``)."""

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
from ingest.epub_text import EpubError, epub_text, read_epub
from rulekb.cli import cli

DATA = Path(__file__).parent / "data" / "epub"
LIBREOFFICE = DATA / "whfb_psychology_libreoffice.epub"


def book(src: Path = DATA / "src", **changed: bytes) -> bytes:
    """The EPUB of the files under ``src`` (its mimetype first, stored), with files changed
    or added (``changed``: path in the archive → bytes; a name with "/" as "__")."""
    files = {p.relative_to(src).as_posix(): p.read_bytes()
             for p in sorted(src.rglob("*")) if p.is_file()}
    files.update({k.replace("__", "/"): v for k, v in changed.items()})
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("mimetype", files.pop("mimetype", b"application/epub+zip"))
        for name, data in files.items():
            z.writestr(name, data, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


def _headings(text: str) -> list[tuple[int, str]]:
    return [(len(m.group(1)), m.group(2)) for m in re.finditer(r"(?m)^(#+) (.*)$", text)]


def test_chapters_in_reading_order_with_their_markup() -> None:
    """The spine's order (not the manifest's), a chapter's name in Cyrillic written as a URL
    escape; h1–h6 headings, a paragraph whose class the style sheet sets bold a heading below
    them, a numbered and a bulleted list, a table's rows, a line break; the contents (nav),
    the head's style and script and the pictures are not read."""
    text = epub_text(book())
    assert _headings(text) == [(1, "Фаза магии"), (2, "Ветра магии"),
                               (3, "Неудержимая сила"), (2, "Развеивание")]
    assert "1. Выберите мага и заклинание.\n2. Бросьте кубики энергии." in text
    assert "• Каждый кубик — одна попытка.\n• Шестёрки — удача." in text
    assert "Бросок Итог\n2–6 Заклинание не сотворено" in text
    assert "бросьте 2D6:\nих сумма" in text
    assert "Оглавление" not in text and "var x" not in text and "color" not in text


def test_a_book_set_by_type_alone() -> None:
    """LibreOffice's EPUB marks no heading: its style sheet sets the headings' type (14 and
    16 points in bold over 12): they are read as headings at the levels the .docx gives."""
    assert _headings(epub_text(LIBREOFFICE.read_bytes())) == [
        (1, "ПСИХОЛОГИЯ"), (2, "Страх"), (2, "Ужас"), (4, "Иммунитет к психологии"),
        (2, "Паника"), (3, "Тесты на панику")]


def test_a_book_builds_sections(tmp_path: Path) -> None:
    (tmp_path / "magic.epub").write_bytes(book())
    [source] = load([tmp_path], system="whfb8")  # (a page too short to tell its game)
    assert source.encoding == "epub"
    _, seg = prepare(source)
    parents = {s.title: seg.sections[s.parent].title if s.parent is not None else None
               for s in seg.sections}
    assert parents["Ветра магии"] == "Фаза магии"
    assert {"Фаза магии", "Развеивание"} <= {n.title for n in build([source]).kb.nodes}
    result = CliRunner().invoke(cli, ["build", str(tmp_path / "magic.epub"), "--explain",
                                      "--system", "whfb8"])
    assert result.exit_code == 0, result.output
    assert "EPUB: глав 2; абзацев 13; заголовков разметки (h1–h6) 3" in result.output


_ENCRYPTED = (b'<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
              b'<EncryptedData><CipherData><CipherReference URI="OEBPS/text/magic.xhtml"/>'
              b"</CipherData></EncryptedData></encryption>")


@pytest.mark.parametrize(("data", "message"), [
    (b"Panic" * 10, "не является zip-архивом"),
    (book(**{"META-INF__container.xml": b"<container/>"}), "не называет пакет книги"),
    (book(**{"OEBPS__text__magic.xhtml": b"<html><body><p>Panic</body></html>"}),
     "XML файла OEBPS/text/magic.xhtml не читается"),
    (book(**{"META-INF__encryption.xml": _ENCRYPTED}), "защищена (DRM)"),
])
def test_a_file_that_is_no_readable_book_is_refused(data: bytes, message: str) -> None:
    with pytest.raises(EpubError, match=re.escape(message)):
        read_epub(data)


def test_a_book_whose_fonts_alone_are_obfuscated_is_read() -> None:
    """Publishers obfuscate a book's fonts (IDPF's font mangling, listed in encryption.xml):
    no DRM, its chapters are read."""
    fonts = _ENCRYPTED.replace(b"OEBPS/text/magic.xhtml", b"OEBPS/fonts/serif.otf")
    assert epub_text(book(**{"META-INF__encryption.xml": fonts})) == epub_text(book())


def test_an_archive_without_a_package_is_refused() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("word/document.xml", "<w/>")
    with pytest.raises(EpubError, match="нет META-INF/container.xml"):
        read_epub(out.getvalue())


def test_a_damaged_book_gives_a_text_or_an_epub_error() -> None:
    for bad in damaged_copies(book(), 50):
        try:
            epub_text(bad)
        except EpubError as exc:
            assert str(exc)


def test_a_package_in_an_encoding_the_xml_parser_cannot_read_is_refused() -> None:
    container = (DATA / "src" / "META-INF" / "container.xml").read_bytes()
    bad = container.replace(b'encoding="UTF-8"', b'encoding="x-unknown"', 1)
    with pytest.raises(EpubError, match="книга EPUB не читается: файл META-INF/container.xml: в "
                                        "объявлении XML указана кодировка «x-unknown»"):
        read_epub(book(**{"META-INF__container.xml": bad}))


def test_a_size_that_is_no_number_sets_none() -> None:
    """A style sheet's "font-size: 1.2.3em" (a converter's slip) or a size of 400 digits
    (infinite as a float) sets no size; the book is read as without it."""
    css = (DATA / "src" / "OEBPS" / "style.css").read_bytes()
    odd = css + b"\n.a { font-size: 1.2.3em } .b { font-size: " + b"9" * 400 + b"pt }"
    assert epub_text(book(**{"OEBPS__style.css": odd})) == epub_text(book())


def test_a_chapter_the_spine_lists_again_is_read_once() -> None:
    """A spine naming one chapter 5,000 times (a damaged or crafted package) gives the chapter
    once, not a book 5,000 times its size."""
    opf = (DATA / "src" / "OEBPS" / "content.opf").read_bytes()
    again = opf.replace(b"</spine>", b'<itemref idref="ch1"/>' * 5000 + b"</spine>")
    reading = read_epub(book(**{"OEBPS__content.opf": again}))
    assert reading.text == epub_text(book()) and reading.type.startswith("глав 2;")


def test_a_style_sheet_is_read_in_one_pass() -> None:
    """2 MB of a sheet with no brace, and one of unclosed comments: each "{" and each "/*" is
    read from once (patterns tried from every character cost the square of the sheet's length:
    minutes). Run apart, so that a return of it fails instead of hanging the suite."""
    import subprocess
    import sys

    code = ("from ingest.epub_text import _styles; "
            "print(len(_styles('a' * 2_000_000)), len(_styles('/*' * 1_000_000)), "
            "len(_styles('{' * 1_000_000 + '.x { font-weight: bold }')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, cwd=Path(__file__).resolve().parents[1], check=True)
    assert done.stdout.split() == ["0", "0", "1"]
