"""A rule text written in Markdown: its marks removed and accounted for (the step's table is
``data/clean/markdown.toml``), its marked headings the sections (``ingest/clean_markdown.py``,
``ingest/segment_markdown.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest import build, load
from ingest.build import prepare
from ingest.clean_markdown import markdown, markdown_structure
from ingest.load import load_file
from ingest.models import SourceText

DATA = Path(__file__).parent / "data" / "markdown"


def test_markdown_edits_say_why() -> None:
    assert {(e.step, e.reason) for e in markdown("# Паника\n**Ужас**")} == {
        ("markdown", "разметка Markdown")}


@pytest.mark.parametrize(("text", "headings"), [
    ("# Психология\n\n## Паника\n\n### Кто\n\n## Ужас\n",
     [("Психология", 1), ("Паника", 2), ("Кто", 3), ("Ужас", 2)]),
    ("# А\n\nСтрах\n-----\n\nТерпение\n========\n", [("А", 1), ("Страх", 2), ("Терпение", 1)]),
    ("# А\n\n```\n# Success\n## Команды\n```\n", [("А", 1)]),  # inside code: no heading
    ("# А\n\n- пункт\n---\n", [("А", 1)]),  # a list item over a break is no heading
    ("## Паника {#panic}\n", [("Паника", 2)]),  # the anchor is no part of it
    ("#хэштег\nтекст\n", None),  # not Markdown
])
def test_markdown_structure_headings(text: str, headings: list[tuple[str, int]] | None
                                     ) -> None:
    found = markdown_structure(text)
    got = None if found is None else [(text[h.start:h.end], h.level) for h in found.headings]
    assert got == headings


def test_a_markdown_file_is_cut_by_its_marked_headings() -> None:
    src = load_file(DATA / "rules.md").model_copy(update={"system": "whfb8"})
    cleaned, seg = prepare(src)
    assert seg.layout == "markdown"
    sections = [(s.title, seg.sections[s.parent].title if s.parent is not None else None)
                for s in seg.sections]
    assert sections == [("Психология", None), ("Паника", "Психология"),
                        ("Кто проходит тест", "Паника"), ("Ужас", "Психология"),
                        ("Страх", "Психология")]
    # the quotation and its speaker are flavour, the code block's "#" lines text
    assert [f.text for f in seg.flavour] == ["Побежали все — побежал и я.\n— Гоблин-копейщик"]
    assert "# это не заголовок" in cleaned.text and "**" not in cleaned.text
    removed = {ch.before.strip() for ch in cleaned.changes if ch.step == "markdown"}
    assert {"#", "##", "###", "**", "__", "](stubborn.md)", "![Ужас](terror.png)",
            "-----"} <= removed


def test_a_markdown_file_builds_references_and_page_citations() -> None:
    kb = build(load([DATA / "rules.md"], system="whfb8")).kb
    edges = {(e.source, e.kind, e.target) for e in kb.edges}
    assert ("whfb8:psikhologiya/uzhas", "references", "whfb8:psikhologiya/panika") in edges
    assert ("whfb8:psikhologiya/uzhas", "references", "whfb8:psikhologiya/strakh") in edges
    assert ("whfb8:psikhologiya/panika", "cites_page", "whfb8:page:57") in edges
    assert ("whfb8:psikhologiya/panika/kto-prokhodit-test", "references",
            "whfb8:nepokolebimost") in edges
    by_id = {n.id: n for n in kb.nodes}
    assert by_id["whfb8:psikhologiya/uzhas"].title == "Ужас"  # no pictogram in the title


def test_a_text_that_is_not_markdown_keeps_its_asterisks() -> None:
    src = load_file(DATA / "footnotes.txt").model_copy(update={"system": "whfb8"})
    cleaned, seg = prepare(src)
    assert seg.layout == "lines"
    assert not [ch for ch in cleaned.changes if ch.step == "markdown"]
    assert "2*D6" in cleaned.text and "Ужас*" in cleaned.text


def test_a_chat_s_bold_headings_are_headings_of_its_lines() -> None:
    """Headings set in bold from end to end, no "#" (a chat's copy): the marks go and the
    lines are read as a web page's."""
    text = ("**Паника**\n\nПодразделение, потерявшее 25% моделей, проходит тест на **Панику**.\n"
            "\n**Ужас**\n\nМодель, вызывающая *Ужас*, вызывает и Страх.\n")
    src = SourceText(name="chat.txt", path="chat.txt", text=text, encoding="utf-8",
                     system="whfb8")
    cleaned, seg = prepare(src)
    assert seg.layout == "lines"
    assert [s.title for s in seg.sections] == ["Паника", "Ужас"]
    assert "*" not in cleaned.text


# -- HTML inside Markdown (data/markdown/real/SOURCES.tsv) ---------------------------------

REAL = DATA / "real"


def test_a_markdown_text_with_an_html_table_stays_markdown() -> None:
    """However dense its tags, a text whose headings are marked with "#" is Markdown: its
    table's rows are lines, its cells parted by spaces, its headings its own."""
    text = ("# Оружие\n\nПрофили.\n\n<table>\n" + "".join(
        f"<tr><td><p>{name}</p></td><td><p>{reach}\"</p></td></tr>\n"
        for name, reach in [("Болтер", 24), ("Мельта", 12), ("Огнемёт", 8)] * 4)
        + "</table>\n\n## Стрельба\n\nТекст.<br>Ещё строка.\n")
    cleaned, seg = prepare(SourceText(name="x.md", path="x.md", text=text, encoding="utf-8",
                                      system="wh40k6"))
    assert [(s.title, s.parent) for s in seg.sections] == [("Оружие", None), ("Стрельба", 0)]
    assert "\nБолтер 24\"\nМельта 12\"\n" in cleaned.text
    assert "Текст.\nЕщё строка." in cleaned.text


def test_a_readme_s_headings_written_in_html_are_headings_at_their_levels() -> None:
    src = load_file(REAL / "perryshe_games_readme_rus.md").model_copy(
        update={"system": "whfb8"})
    cleaned, seg = prepare(src)
    titles = {s.title: s for s in seg.sections}
    parent = titles["Левый игрок"].parent  # (under "<h3>Commands for tennis</h3>", itself
    # under "## Level 1. Room 2.")
    assert parent is not None and titles["Другие команды"].parent == parent
    assert "Commands for tennis" in (seg.sections[parent].title, *seg.sections[parent].aliases)
    assert seg.sections[parent].parent == seg.sections.index(titles["Level 1. Room 2"])
    assert "<h4" not in cleaned.text and "Вверх - sym != 'a'." in cleaned.text


def test_a_documentation_page_s_table_anchors_and_code_in_markdown() -> None:
    src = load_file(REAL / "azure_cosmos_request_units_zh_tw.md").model_copy(
        update={"system": "whfb8"})
    cleaned, seg = prepare(src)
    assert [s.title for s in seg.sections][:3] == [
        "Azure Cosmos DB 中的要求單位", "估計輸送量需求", "使用要求單位計算機"]
    assert "\n1 KB 500 100 (500 * 1) + (100 * 5) = 1,000 RU/s\n" in cleaned.text
    assert "<a name" not in cleaned.text and "<td" not in cleaned.text
    assert "> db.sample.find()" in cleaned.text  # (a code block's line is its own)
