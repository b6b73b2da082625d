"""A rulebook saved as PDF: its text layer read with the headings its type sizes show and its
pages' numbers (``ingest/pdf_text.py``). The book pages are ``data/pdf/*.pdf`` (written by
``data/pdf/make_pdfs.py``), the real ones ``data/pdf/real/`` (``SOURCES.tsv``)."""

from __future__ import annotations

import os
import random
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ingest import build, load
from ingest.build import prepare
from ingest.load import LoadError, load_file
from ingest.pdf_layout import Line, Page, PdfError, page_runs
from ingest.pdf_order import reading_order
from ingest.pdf_text import pdf_text, read_pdf
from rulekb.cli import cli

DATA = Path(__file__).parent / "data" / "pdf"
EXAMPLES = int(os.environ.get("RULEKB_PROPERTY_EXAMPLES", "40"))
PROPERTY = settings(derandomize=not os.environ.get("RULEKB_PROPERTY_RANDOM"), database=None,
                    deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""As ``tests/test_properties.py``'s: fixed examples; to hunt for more, run with
``RULEKB_PROPERTY_EXAMPLES=3000 RULEKB_PROPERTY_RANDOM=1``."""
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


def test_a_damaged_pdf_read_on_several_processes_fails_as_on_one() -> None:
    """A PDF whose pages are read side by side (:func:`read_pdf`'s ``jobs``) gives the same
    text, or the same refusal, as read on one process: a worker's failure reaches the user as
    the same Russian message, never a traceback of the pool."""
    data = (REAL / "libtasn1.pdf").read_bytes()
    rng = random.Random(44)
    damaged = []
    for _ in range(6):  # bytes overwritten in the file's second half (the later pages')
        chunk = bytearray(data)
        for _ in range(rng.randrange(1, 40)):
            k = rng.randrange(len(chunk) // 2, len(chunk))
            chunk[k] = rng.randrange(256)
        damaged.append(bytes(chunk))

    def outcome(bad: bytes, jobs: int) -> str:
        try:
            return read_pdf(bad, jobs=jobs).text
        except PdfError as exc:
            return f"PdfError: {exc}"

    for bad in damaged:
        assert outcome(bad, 2) == outcome(bad, 1)


def test_a_page_that_fails_in_a_worker_is_reported_as_on_one_process(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A later page the parser cannot read, read by a worker process: the same PdfError, its
    Russian message, in the build's process."""
    import ingest.pdf_layout as layout

    read = layout._pages

    def failing(document: object, which: range | None = None) -> list[layout.Page]:
        if which is None or which.stop > 30:
            with layout._parser_failures():
                raise KeyError("a missing object of page 31")
        return read(document, which)  # type: ignore[arg-type]

    monkeypatch.setattr(layout, "_pages", failing)
    data = (REAL / "libtasn1.pdf").read_bytes()
    for jobs in (1, 2):
        with pytest.raises(PdfError, match=r"^PDF повреждён и не читается \(в нём нет части, "
                           r"на которую он ссылается\)$"):
            read_pdf(data, jobs=jobs)


@pytest.mark.parametrize("name", ["libtasn1.pdf", "shared-mime-info-spec.pdf"])
def test_a_pdf_reads_alike_on_any_number_of_processes(name: str) -> None:
    """Its pages shared out in runs (one a process, or several), the text and its account of
    the type are the one process's, byte for byte."""
    data = (REAL / name).read_bytes()
    one = read_pdf(data, jobs=1)
    for jobs in (2, 3, None):
        assert read_pdf(data, jobs=jobs) == one


@pytest.mark.parametrize(("count", "parts", "runs"), [
    (10, 4, [(0, 3), (3, 6), (6, 8), (8, 10)]),
    (3, 8, [(0, 1), (1, 2), (2, 3)]),  # more runs asked than pages: a page a run
    (7, 1, [(0, 7)]),
    (1, 2, [(0, 1)]),
    (0, 4, []),
])
def test_pages_are_cut_into_runs_in_order(count: int, parts: int,
                                          runs: list[tuple[int, int]]) -> None:
    assert page_runs(count, parts) == runs


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
    assert ("PDF: страниц 2; основной текст 10 пт; заголовки по шрифту: 18 пт — «#», 14 пт — "
            "«##», 12 пт — «###», полужирные строки 10 пт — «####»; закладок (оглавления PDF) "
            "нет") in result.output


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


# the reading order of a page's blocks, over pages of random shapes (no PDF needed: the
# blocks are what the layout analysis gives)
@dataclass(frozen=True)
class _Block:
    x0: float
    x1: float
    y0: float
    y1: float


def _stack(x0: float, x1: float, top: float, heights: list[int]) -> list[_Block]:
    """Blocks one under another from ``top`` down, 4 points apart."""
    out = []
    for h in heights:
        out.append(_Block(x0, x1, top - h, top))
        top -= h + 4
    return out


@settings(PROPERTY, max_examples=max(20, EXAMPLES))
@given(left=st.lists(st.integers(8, 120), min_size=1, max_size=8),
       right=st.lists(st.integers(8, 120), min_size=1, max_size=8),
       title=st.booleans(), shuffle=st.randoms(use_true_random=False))
def test_two_columns_are_read_left_then_right(left: list[int], right: list[int], title: bool,
                                              shuffle: random.Random) -> None:
    """Two columns of blocks of any heights (a column's blocks narrower or wider within it),
    a title over both or not: the left column top to bottom, then the right (unless the
    right's blocks stand level with the left's row for row, two rows at least: a table's)."""
    heading = [_Block(40, 560, 770, 790)] if title else []
    a = _stack(40, 290, 760, left)
    b = _stack(310, 560, 760 - shuffle.randrange(0, 30), right)
    a = [_Block(x.x0, x.x1 - shuffle.randrange(0, 150), x.y0, x.y1) for x in a]
    level = sum(1 for x in b if any(abs(x.y1 - y.y1) < 2 for y in a))
    assume(level < 2 or level < 0.8 * len(b))
    boxes = [*heading, *a, *b]
    shuffle.shuffle(boxes)
    assert [g for g in reading_order(boxes)] == [[x] for x in [*heading, *a, *b]]


@settings(PROPERTY, max_examples=max(20, EXAMPLES))
@given(rows=st.integers(1, 12), columns=st.integers(2, 6),
       shuffle=st.randoms(use_true_random=False))
def test_a_table_is_read_row_by_row(rows: int, columns: int, shuffle: random.Random) -> None:
    """A grid of narrow cells under a paragraph: the paragraph, then each row left to right."""
    paragraph = _Block(40, 560, 700, 760)
    cells = [[_Block(40 + 80 * c, 40 + 80 * c + shuffle.randrange(20, 70), 680 - 14 * r - 10,
                     680 - 14 * r) for c in range(columns)] for r in range(rows)]
    boxes = [paragraph, *(x for row in cells for x in row)]
    shuffle.shuffle(boxes)
    assert reading_order(boxes) == [[paragraph], *cells]


@settings(PROPERTY, max_examples=max(20, EXAMPLES))
@given(boxes=st.lists(st.tuples(st.integers(0, 500), st.integers(5, 300), st.integers(0, 800),
                                st.integers(5, 200)), max_size=25))
def test_every_block_is_read_once(boxes: list[tuple[int, int, int, int]]) -> None:
    blocks = [_Block(x, x + w, y, y + h) for x, w, y, h in boxes]
    order = [b for group in reading_order(blocks) for b in group]
    assert sorted(map(id, order)) == sorted(map(id, blocks))


@pytest.mark.parametrize("name", ["real/shared-mime-info-spec.pdf", "real/libtasn1.pdf",
                                  "heldout/pdflatex-outline.pdf",
                                  "heldout/outline-without-title.pdf"])
def test_real_pdfs_head_every_entry_of_their_outline(name: str) -> None:
    """Each entry of the PDF's outline (its bookmarks, which the reader does not read) heads a
    section, each depth of the outline one level of the headings (``benchmarks/pdf.py``)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "pdf_bench", Path(__file__).parents[1] / "benchmarks" / "pdf.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    for outline in (False, True):  # by the type alone, and as a build reads it
        found, total, ordered, _ = bench.score(DATA / name, outline=outline)
        assert (found, ordered) == (total, True) and total >= 8


def test_a_pdf_whose_fonts_map_no_letters_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A font with no map from its glyphs to letters gives "(cid:42)" for each: no text."""
    import ingest.pdf_text as reader

    garbled = [Page("1", [Line("(cid:12)(cid:40)(cid:7) (cid:3)", 10.0, False,
                                               1, False)])]
    monkeypatch.setattr(reader, "document_of", lambda data: None)
    monkeypatch.setattr(reader, "read_pages", lambda *_: garbled)
    with pytest.raises(PdfError, match="распознайте текст страниц"):
        pdf_text(b"%PDF-1.4")


@pytest.mark.parametrize(("labels", "numbers"), [
    (["i", "ii", "1", "2"], [None, None, 1, 2]),  # a front matter labelled in Roman
    (["57", "58"], [57, 58]),
    ([None, None], [1, 2]),  # no labels, no printed numbers: the pages' places
])
def test_pages_are_numbered_by_their_labels(labels: list[str | None],
                                            numbers: list[int | None]) -> None:
    import ingest.pdf_text as reader

    pages = [Page(label, [Line("Текст страницы.", 10.0, False, 1, False)])
             for label in labels]
    assert reader._page_numbers(pages) == numbers


def test_the_parsers_warnings_stay_off_the_users_screen() -> None:
    """pdfminer.six warns in English of what it mends in a malformed file ("Could not get
    FontBBox …"): reading a PDF leaves only its errors to reach the user."""
    import logging

    pdf_text((DATA / "whfb_psychology.pdf").read_bytes())
    assert logging.getLogger("pdfminer.pdffont").getEffectiveLevel() >= logging.ERROR


@pytest.mark.parametrize("name", ["whfb_psychology.pdf", "whfb_running_heads.pdf"])
def test_text_prints_what_a_pdf_is_read_as_and_builds_as_markdown(tmp_path: Path,
                                                                  name: str) -> None:
    """``rulekb build FILE.pdf --text`` prints the text the build reads; saved as .md it is
    cut into the same sections, at the same offsets, and its sections' texts are the same (a
    running head, a comment in the text, goes as Markdown's comment)."""
    result = CliRunner().invoke(cli, ["build", str(DATA / name), "--text"])
    assert result.exit_code == 0, result.output
    assert result.output == pdf_text((DATA / name).read_bytes())
    (tmp_path / "book.md").write_text(result.output, encoding="utf-8")

    def sections(path: Path) -> list[tuple[str, tuple[int, int], str]]:
        cleaned, seg = prepare(load_file(path).model_copy(update={"system": "whfb8"}))
        return [(s.title, s.heading_span, " ".join(cleaned.text[slice(*s.body_span)].split()))
                for s in seg.sections]

    assert sections(tmp_path / "book.md") == sections(DATA / name)


def test_headings_the_type_does_not_show_are_found_by_the_outline() -> None:
    """The same pages with their headings set in the text's plain type: by its type the PDF
    has no heading; its outline (bookmarks) names each, and each heads its section at the
    outline's depth, as the type's sizes do in the first PDF."""
    data = (DATA / "whfb_psychology_bookmarks.pdf").read_bytes()
    assert _headings(pdf_text(data, outline=False)) == []
    found = _headings(pdf_text(data))
    assert [title for _, title in found] == [t for _, t in _headings(
        pdf_text((DATA / "whfb_psychology.pdf").read_bytes()))]
    assert [level for level, _ in found] == [1, 2, 2, 3, 2, 3]


def test_an_outline_naming_nothing_of_the_text_changes_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import ingest.pdf_text as reader

    data = (DATA / "whfb_psychology.pdf").read_bytes()
    alone = pdf_text(data, outline=False)
    monkeypatch.setattr(reader, "read_outline", lambda _: [
        reader.OutlineEntry(1, "введение", 0), reader.OutlineEntry(2, "ничего из этого", None)])
    assert pdf_text(data) == alone


@pytest.mark.parametrize(("title", "key"), [
    ("2.1. Directory layout", "directory layout"), ("A.1 GNU Free", "gnu free"),
    ("II. Паника", "паника"), ("В бою", "в бою"), ("Non-regular files", "nonregular files"),
    ("Страх:", "страх"), ("Appendix A Copying Information", "copying information"),
    ("A Copying Information", "copying information"),
    # brackets and quotes written by one and not the other
    ("Papillary Carcinoma (PAP\u20111)", "papillary carcinoma pap1"),
    ("Правило «Паника»", "правило паника"), ("Тест [Лидерство]", "тест лидерство"),
])
def test_outline_keys(title: str, key: str) -> None:
    from ingest.pdf_outline import heading_key

    assert heading_key(title) == key


def test_two_bookmarked_headings_in_one_block_stay_two(monkeypatch: pytest.MonkeyPatch) -> None:
    import ingest.pdf_text as reader

    def line(text: str) -> Line:
        return Line(text, 10.0, False, 1, False)

    page = Page("57", [line("Страх"), line("Ужас"), line("Модели вызывают Ужас.")])
    monkeypatch.setattr(reader, "document_of", lambda _: None)
    monkeypatch.setattr(reader, "read_pages", lambda *_: [page])
    monkeypatch.setattr(reader, "read_outline", lambda _: [reader.OutlineEntry(1, "страх", 0),
                                                       reader.OutlineEntry(1, "ужас", 0)])
    assert _headings(pdf_text(b"%PDF-1.4")) == [(1, "Страх"), (1, "Ужас")]


def test_a_word_hyphenated_across_a_page_is_joined(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    """"Лидер-" at a page's foot and "ство …" at the next page's head (under its running
    header) are one word of the first page; the next page's mark stands after it."""
    import ingest.pdf_text as reader

    def line(text: str, box: int = 1, margin: bool = False) -> Line:
        return Line(text, 10.0, False, box, margin)

    pages = [Page("57", [line("Подразделение проходит тест на Лидер-")]),
             Page("58", [line("Книга правил", 0, True),
                                 line("ство сразу после потерь.")])]
    monkeypatch.setattr(reader, "document_of", lambda _: None)
    monkeypatch.setattr(reader, "read_pages", lambda *_: pages)
    monkeypatch.setattr(reader, "read_outline", lambda _: [])
    text = pdf_text(b"%PDF-1.4")
    assert "тест на Лидер-\nство\n\nСтраница 58\n\nКнига правил\n\nсразу после потерь." in text
    path = tmp_path / "page.md"
    path.write_text("# Паника\n\n" + text, encoding="utf-8")
    cleaned, _ = prepare(load_file(path).model_copy(update={"system": "whfb8"}))
    assert "тест на Лидерство" in cleaned.text


def test_titles_set_in_spaced_letters_are_their_words() -> None:
    """"Ф А З А  Д В И Ж Е Н И Я" (a title's tracking) heads its section as "ФАЗА ДВИЖЕНИЯ";
    an alphabet's row of single letters set as words stays as it is."""
    text = pdf_text((DATA / "spaced_titles.pdf").read_bytes())
    assert _headings(text) == [(1, "ФАЗА ДВИЖЕНИЯ"), (1, "СТРЕЛЬБА")]
    assert "\nА Б В Г Д\n" in text


def test_a_running_head_in_a_headings_type_is_removed_not_a_section() -> None:
    """A chapter's running head set in 14 points bold a tenth of the page down (below the
    margin), on each of four pages, and a line repeated in the bottom margin: no section a
    page, each removed and accounted for as the book's template; a label in bold at one height
    on three pages, under each page's own heading, heads its part of each page."""
    from ingest.clean_pages import TEMPLATE_REASON

    [source] = load([DATA / "whfb_running_heads.pdf"])
    cleaned, seg = prepare(source)
    titles = [s.title for s in seg.sections]
    assert titles == ["Страх", "Специальные правила", "Ужас", "Специальные правила", "Паника",
                      "Специальные правила", "Бегство"]
    assert "ПСИХОЛОГИЯ" not in cleaned.text and "©" not in cleaned.text
    removed = [source.text[slice(*c.span)].strip() for c in cleaned.changes
               if c.reason == TEMPLATE_REASON]
    assert removed.count("<!-- колонтитул: ПСИХОЛОГИЯ -->") == 4
    assert removed.count("<!-- колонтитул: © Games Workshop Limited 2010 -->") == 4
    kb = build([source]).kb
    assert not any("ПСИХОЛОГИЯ" in n.text for n in kb.nodes)


def _page(*lines: tuple[str, float, bool]) -> object:
    return Page(None, [Line(text, 10.0, False, k, margin, top=top)
                               for k, (text, top, margin) in enumerate(lines)])


@pytest.mark.parametrize(("pages", "template"), [
    # a running head atop three pages, numbers aside ("Глава 4 · 37")
    ([[("Глава 4 · 37", 0.1, False), ("Текст", 0.3, False)],
      [("Глава 4 · 38", 0.1, False), ("Текст", 0.3, False)],
      [("Глава 4 · 39", 0.1, False), ("Текст", 0.3, False)]], {0}),
    # on two pages only: no template
    ([[("ПСИХОЛОГИЯ", 0.1, False), ("Текст", 0.3, False)],
      [("ПСИХОЛОГИЯ", 0.1, False), ("Текст", 0.3, False)]], set()),
    # at different heights: a heading each page holds where its text puts it
    ([[("Паника", 0.1, False)], [("Паника", 0.15, False)], [("Паника", 0.19, False)]], set()),
    # under each page's own title: the page's heading, not a running head
    ([[("Страх", 0.05, False), ("Специальные правила", 0.12, False)],
      [("Ужас", 0.05, False), ("Специальные правила", 0.12, False)],
      [("Паника", 0.05, False), ("Специальные правила", 0.12, False)]], set()),
    # a line repeated in the margin; a page's number alone is none
    ([[("© GW 2010", 0.97, True), ("57", 0.99, True)], [("© GW 2010", 0.97, True),
      ("58", 0.99, True)], [("© GW 2010", 0.97, True), ("59", 0.99, True)]], {0}),
    # at the foot, below all the page's text, in two lines of one head
    ([[("Текст", 0.5, False), ("Warhammer", 0.85, False), ("Книга правил", 0.87, False)]] * 3,
     {1, 2}),
])
def test_the_books_template_by_its_place_on_the_pages(
        pages: list[list[tuple[str, float, bool]]], template: set[int]) -> None:
    from ingest.pdf_template import mark_template

    read = [_page(*lines) for lines in pages]
    mark_template(read)  # type: ignore[arg-type]
    for page in read:
        assert {k for k, line in enumerate(page.lines) if line.template} == template  # type: ignore[attr-defined]


@settings(PROPERTY, max_examples=max(20, EXAMPLES))
@given(width=st.integers(20, 200), titles=st.lists(st.integers(30, 200), min_size=1, max_size=4),
       shuffle=st.randoms(use_true_random=False))
def test_a_centred_running_head_over_titles_set_left_is_read_first(
        width: int, titles: list[int], shuffle: random.Random) -> None:
    """A narrow running head centred atop a page, over narrow titles set left (each over its
    paragraph, as wide as the page): the head, then each title and its paragraph, whatever
    their widths (the head was read as a column right of the first title)."""
    head = _Block(300 - width / 2, 300 + width / 2, 775, 790)
    blocks, top = [], 760.0
    for w in titles:
        blocks += [_Block(40, 40 + w, top - 15, top), _Block(40, 560, top - 80, top - 20)]
        top -= 90
    assume(head.x0 > 40 + titles[0])  # (a head over the first title's words joins its column)
    boxes = [head, *blocks]
    shuffle.shuffle(boxes)
    assert reading_order(boxes) == [[x] for x in [head, *blocks]]


def test_a_centred_title_over_a_title_set_left_is_read_first() -> None:
    """A running head or title centred above a narrow title set left (no block of the band
    beside it in height) is read before it, not as a column right of it; a column's own
    heading in the right column is read in its column."""
    centred = _Block(250, 350, 730, 745)
    title = _Block(40, 120, 700, 720)
    text = _Block(40, 560, 600, 690)
    assert reading_order([title, text, centred]) == [[centred], [title], [text]]
    left, head, right = _Block(40, 290, 500, 690), _Block(310, 400, 700, 720), _Block(
        310, 560, 480, 690)
    assert reading_order([head, right, left]) == [[left], [head], [right]]
