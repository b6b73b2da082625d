"""A rule text saved as a FictionBook e-book: its sections' titles read as headings at their
depths (``ingest/fb2_text.py``). The book is ``data/fb2/whfb_psychology.fb2``, written by hand
in the form FictionBook Editor saves (its README)."""

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
from ingest.fb2_text import Fb2Error, fb2_text, read_fb2
from ingest.load import LoadError
from rulekb.cli import cli

BOOK = Path(__file__).parent / "data" / "fb2" / "whfb_psychology.fb2"


def _headings(text: str) -> list[tuple[int, str]]:
    return [(len(m.group(1)), m.group(2)) for m in re.finditer(r"(?m)^(#+) (.*)$", text)]


def test_sections_titles_subtitles_notes_and_tables() -> None:
    """The book's title, each section's title one level deeper (a title of two paragraphs
    one heading), a subtitle a level below; an epigraph's author after a dash; a note after the
    paragraph citing it; a table's rows as lines; the description, the notes body and the
    pictures not read."""
    text = fb2_text(BOOK.read_bytes())
    assert _headings(text) == [(1, "Warhammer. Книга правил"), (2, "Глава 3. Психология"),
                               (3, "Паника"), (4, "Тесты на панику"), (3, "Ужас")]
    assert "«Страх — лучшее оружие в любой войне.»\n\n— Генерал Империи\n" in text
    assert ("не знают страха[1] и не проходят тестов психологии.\n\n"
            "[1] Кроме тех, кто бежит.\n") in text
    assert "2D6 Итог теста\n2–7 Держится\n8–12 Бежит\n" in text
    assert "Любительский перевод" not in text and "Примечания" not in text
    assert "iVBOR" not in text


def test_a_zipped_book_in_windows_1251() -> None:
    """A book zipped (``.fb2.zip``, as libraries give them) and in the encoding its XML
    declares (windows-1251, old books' usual) reads as the UTF-8 one."""
    xml = BOOK.read_text(encoding="utf-8").replace('encoding="utf-8"', 'encoding="windows-1251"')
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("whfb_psychology.fb2", xml.encode("cp1251"))
    assert fb2_text(out.getvalue()) == fb2_text(BOOK.read_bytes())


def test_a_book_builds_sections(tmp_path: Path) -> None:
    (tmp_path / "book.fb2").write_bytes(BOOK.read_bytes())
    with zipfile.ZipFile(tmp_path / "zipped.fb2.zip", "w") as z:
        z.writestr("book.fb2", BOOK.read_bytes())
    (tmp_path / "archive.zip").write_bytes(b"PK\x05\x06" + bytes(18))  # (no book: not read)
    sources = load([tmp_path])
    assert [(s.name, s.system, s.encoding) for s in sources] == [
        ("book.fb2", "whfb8", "fb2"), ("zipped.fb2.zip", "whfb8", "fb2")]
    _, seg = prepare(sources[0])
    parents = {s.title: seg.sections[s.parent].title if s.parent is not None else None
               for s in seg.sections}
    assert parents["Паника"] == parents["Ужас"] == "Глава 3. Психология"
    titles = {n.title for n in build(sources[:1]).kb.nodes}
    assert {"Паника", "Ужас", "Тесты на панику"} <= titles


def test_explain_says_how_it_was_read() -> None:
    result = CliRunner().invoke(cli, ["build", str(BOOK), "--explain"])
    assert result.exit_code == 0, result.output
    assert "FictionBook: абзацев 13; заголовков разделов 4" in result.output


def _zip(name: str, data: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr(name, data)
    return out.getvalue()


@pytest.mark.parametrize(("data", "message"), [
    (b"<html><body>Panic</body></html>", "корневой элемент XML — «html», а не FictionBook"),
    (b"<FictionBook><body><section>", "XML не читается (документ пуст или оборван, строка 1, "
     "столбец 29)"),
    (b"<FictionBook><body></section></FictionBook>", "XML не читается (закрывающий тег не "
     "совпадает с открывающим, строка 1, столбец 22)"),
    (b'<FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0"><body/></FictionBook>',
     "нет текста"),
    (_zip("book.txt", b"Panic"), "в zip-архиве нет книги FictionBook (.fb2)"),
    (b"PK\x03\x04" + bytes(40), "архив FictionBook повреждён"),
])
def test_a_file_that_is_no_book_is_refused(data: bytes, message: str) -> None:
    with pytest.raises(Fb2Error, match=re.escape(message)):
        read_fb2(data)


def test_a_damaged_book_gives_a_text_or_an_fb2_error() -> None:
    for bad in damaged_copies(BOOK.read_bytes(), 49):
        try:
            fb2_text(bad)
        except Fb2Error as exc:
            assert str(exc)


def test_the_cli_refuses_a_broken_book_with_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "book.fb2"
    bad.write_bytes(b"<FictionBook><body>")
    result = CliRunner().invoke(cli, ["build", str(bad), "-o", str(tmp_path / "kb.json")])
    assert result.exit_code == 2
    assert "book.fb2: файл FictionBook повреждён: его XML не читается" in result.output
    assert "Traceback" not in result.output
    with pytest.raises(LoadError):
        load([bad])


@pytest.mark.parametrize("encoding", ["x-unknown", "shift_jis", "rot13"])
def test_a_book_in_an_encoding_the_xml_parser_cannot_read_is_refused(
        tmp_path: Path, encoding: str) -> None:
    """A declaration naming an encoding expat does not read (a name Python does not know, a
    multi-byte one, a codec that is no text encoding) fails outside ParseError: refused with
    exit 2 and the encoding named, no traceback."""
    bad = tmp_path / "book.fb2"
    bad.write_bytes(BOOK.read_bytes().replace(b'encoding="utf-8"', f'encoding="{encoding}"'
                                              .encode(), 1))
    with pytest.raises(Fb2Error, match=f"указана кодировка «{encoding}», которую парсер XML не "
                                       "поддерживает"):
        read_fb2(bad.read_bytes())
    result = CliRunner().invoke(cli, ["build", str(bad), "-o", str(tmp_path / "kb.json")])
    assert result.exit_code == 2
    assert f"{bad}: файл FictionBook не читается: в объявлении XML" in result.output
    assert "Traceback" not in result.output
