"""A rulebook saved as PDF: its text layer read with the headings its type sizes show and its
pages' numbers (``ingest/pdf_text.py``). The book pages are ``data/pdf/*.pdf`` (written by
``data/pdf/make_pdfs.py``), the real ones ``data/pdf/real/`` (``SOURCES.tsv``)."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ingest import build, load
from ingest.build import prepare
from ingest.load import LoadError, load_file
from ingest.pdf_text import PdfError, pdf_text
from rulekb.cli import cli

DATA = Path(__file__).parent / "data" / "pdf"
REAL = DATA / "real"


def _headings(text: str) -> list[tuple[int, str]]:
    return [(len(m.group(1)), m.group(2)) for m in re.finditer(r"(?m)^(#+) (.*)$", text)]


def test_headings_by_their_type_size_and_the_pages_by_their_numbers() -> None:
    text = pdf_text((DATA / "whfb_psychology.pdf").read_bytes())
    # 18, 14 and 12 points over the text's 10 are three levels; a line in bold at the text's
    # size is a rule's name one level below them
    assert _headings(text) == [(1, "ПСИХОЛОГИЯ"), (2, "Страх"), (2, "Ужас"),
                               (4, "Иммунитет к психологии"), (2, "Паника"),
                               (3, "Тесты на панику")]
    # the numbers printed at the pages' feet open their pages as marks, and are gone
    assert re.findall(r"(?m)^Страница \d+$", text) == ["Страница 57", "Страница 58"]
    assert not re.search(r"(?m)^5[78]$", text)
    # a bullet and its item are one line; a paragraph's lines stay lines
    assert "• Бросьте 2D6 и сравните результат с Лидерством подразделения." in text
    assert "раздела описывают, как подразделение отвечает на страх и панику. Тест проходят по\n" \
        in text
    # a table's cells set apart on the page are its rows' lines
    assert "\n\n2D6 Итог теста\n\n2–7 Держится\n\n8–12 Бежит\n" in text
    # a drop capital stands before the rest of its word, for the cleaning to join
    assert "# ПСИХОЛОГИЯ\n\nВ оины на поле битвы" in text


def test_two_columns_read_one_after_the_other() -> None:
    """The same pages set in two columns (a centred running header and page number above
    and below them) give the same headings, each over the same text."""
    one = pdf_text((DATA / "whfb_psychology.pdf").read_bytes())
    two = pdf_text((DATA / "whfb_psychology_columns.pdf").read_bytes())
    assert _headings(two) == _headings(one)

    def words(text: str) -> list[str]:
        return text.split()

    assert words(two) == words(one)


def test_a_pdf_builds_sections_with_their_pages_and_references() -> None:
    kb = build(load([DATA / "whfb_psychology.pdf"])).kb  # its system found in its words
    sections = {n.title: n for n in kb.nodes if n.kind == "rule"}
    assert {n.system for n in kb.nodes} == {"whfb8"}
    assert [(t, sections[t].page) for t in ("Психология", "Страх", "Ужас", "Паника",
                                            "Тесты на панику")] == [
        ("Психология", 57), ("Страх", 57), ("Ужас", 57), ("Паника", 58), ("Тесты на панику", 58)]
    parent = {n.id: n.title for n in kb.nodes}
    assert parent[sections["Паника"].parent] == "Психология"  # type: ignore[index]
    assert parent[sections["Тесты на панику"].parent] == "Паника"  # type: ignore[index]
    edges = {(parent[e.source], e.kind, e.target) for e in kb.edges}
    assert ("Ужас", "references", sections["Страх"].id) in edges
    assert ("Психология", "cites_page", "whfb8:page:58") in edges
    # the running header and the page marks are removed and accounted for
    reasons = [r.reason for r in kb.removed]
    assert "колонтитул страницы «Страница 57»" in reasons
    assert sections["Психология"].text.startswith("Воины на поле битвы")
    assert any("Warhammer: Книга правил" in r.text for r in kb.removed)


def test_explain_shows_the_pdf_cut_by_its_headings() -> None:
    src = load_file(DATA / "whfb_psychology.pdf").model_copy(update={"system": "whfb8"})
    assert src.encoding == "pdf"
    _, seg = prepare(src)
    assert seg.layout == "markdown"
    assert [s.title for s in seg.sections][:3] == ["Психология", "Страх", "Ужас"]


@pytest.mark.parametrize(("name", "message"), [
    ("locked.pdf", "PDF защищён паролем"),
    ("scan.pdf", "в PDF нет текстового слоя (скан страниц?)"),
    ("not_a_pdf.pdf", "не PDF: нет заголовка «%PDF-» в начале файла"),
])
def test_a_pdf_with_no_text_is_refused_saying_why(name: str, message: str) -> None:
    with pytest.raises(LoadError) as err:
        load_file(DATA / name)
    assert str(err.value).startswith(f"{DATA / name}: {message}")


def test_a_damaged_pdf_is_refused_never_a_traceback() -> None:
    """Cut, overwritten or scrambled bytes of a PDF: a text, or a PdfError saying it is
    damaged; no other exception."""
    data = (DATA / "whfb_psychology.pdf").read_bytes()
    rng = random.Random(10)
    damaged = [data[:len(data) // 2], data[:400], data.replace(b"xref", b"xxxx"),
               data.replace(b"/Length", b"/Lenght"), b"%PDF-1.7\n" + rng.randbytes(3000)]
    for _ in range(30):
        chunk = bytearray(data)
        for _ in range(rng.randrange(1, 20)):
            k = rng.randrange(20, len(chunk))
            chunk[k] = rng.randrange(256)
        damaged.append(bytes(chunk))
    for bad in damaged:
        try:
            pdf_text(bad)
        except PdfError as exc:
            assert str(exc)


def test_a_folder_gives_its_pdfs(tmp_path: Path) -> None:
    shutil.copy(DATA / "whfb_psychology.pdf", tmp_path / "psychology.pdf")
    (tmp_path / "notes.txt").write_text("Паника\n\nТест на Панику проходят по Лидерству.\n",
                                        encoding="utf-8")
    texts = load([tmp_path], system="whfb8")
    assert [t.name for t in texts] == ["notes.txt", "psychology.pdf"]


def test_the_cli_builds_a_pdf(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["build", str(DATA / "whfb_psychology.pdf"), "--explain",
                                      "-o", str(tmp_path / "kb.json")])
    assert result.exit_code == 0, result.output
    assert "«Паника» · в «Психология» · стр. 58" in result.output
    # the type sizes the headings were read by, for a user who finds one missed
    assert ("PDF: страниц 2; основной текст 10 пт; заголовки: 18 пт — «#», 14 пт — «##», "
            "12 пт — «###», полужирные строки 10 пт — «####»") in result.output


def test_the_cli_refuses_a_locked_pdf_with_exit_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["build", str(DATA / "locked.pdf"), "-o",
                                      str(tmp_path / "kb.json")])
    assert result.exit_code == 2
    assert "locked.pdf: PDF защищён паролем" in result.stderr
    assert "Traceback" not in result.output


# real PDFs nobody on the project wrote (data/pdf/real/SOURCES.tsv): a specification set by
# DocBook (read while writing the reader) and a manual set by Texinfo (first read after)
@pytest.mark.parametrize(("name", "first", "chapters", "sections", "pages"), [
    ("shared-mime-info-spec.pdf", (1, "Shared MIME-info Database"),
     ["1. Introduction", "2. Unified system", "3. Contributors"],
     ["1.1. Version", "1.2. What is this spec?", "2.1. Directory layout",
      "2.17. User modification"],
     (1, 17)),
    ("libtasn1.pdf", (1, "Libtasn1"),
     ["Table of Contents", "1 Introduction", "2 ASN.1 structure handling", "3 Utilities",
      "4 Function reference"],
     ["2.1 ASN.1 syntax", "3.1 Invoking asn1Parser", "4.3 DER functions"],
     (1, 33)),
])
def test_real_pdfs_give_their_chapters_and_sections(
        name: str, first: tuple[int, str], chapters: list[str], sections: list[str],
        pages: tuple[int, int]) -> None:
    text = pdf_text((REAL / name).read_bytes())
    found = _headings(text)
    assert found[0] == first
    assert all((2, c) in found for c in chapters), [h for h in found if h[0] == 2]
    assert all((3, s) in found for s in sections)
    numbers = [int(n) for n in re.findall(r"(?m)^Страница (\d+)$", text)]
    # every page's number once, in order, from the book's page 1 (a manual's title page and
    # contents before it have none)
    assert numbers == list(range(pages[0], pages[1] + 1))
