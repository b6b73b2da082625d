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
