"""The book's names: a source is shown by the title of its book, never by its file name.

``tests/data/load/titles.toml`` is the table of what a text's first lines say of itself;
``tests/data/load/titled/`` a folder whose ``corpus.toml`` states titles. End to end on the
project's corpus: the source nodes' titles, the display label, and the reports.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from ingest import build
from ingest.load import LoadError, load
from ingest.text_identity import detect_title
from kb.books import book_label, book_title
from kb.graph import Graph
from kb.models import SYSTEM_TITLES

DATA = Path(__file__).parent / "data" / "load"


def title_cases() -> list[Any]:
    table = tomllib.loads((DATA / "titles.toml").read_text(encoding="utf-8"))
    cases = []
    for case in table["case"]:
        text = case["text"] + ("x" * 700 + case["late"] if "late" in case else "")
        cases.append(pytest.param(text, case["title"] or None, id=case["name"]))
    return cases


@pytest.mark.parametrize(("text", "title"), title_cases())
def test_detect_title(text: str, title: str | None) -> None:
    assert detect_title(text) == title


def test_corpus_toml_titles_win_per_file_then_per_folder() -> None:
    texts = {t.name: t for t in load([DATA / "titled"])}
    folder = "Warhammer Fantasy Battle, 8-я редакция — Книга правил"
    assert (texts["a.txt"].title, texts["a.txt"].title_from) == (folder, "corpus.toml")
    assert texts["b.txt"].title == (
        "Warhammer Fantasy Battle, 8-я редакция — Армейская книга «Гномы»"
    )
    assert texts["c.txt"].title == folder


def test_a_bad_title_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("Паника\n\nтекст\n", encoding="utf-8")
    (tmp_path / "corpus.toml").write_text('[files."a.txt"]\ntitle = 5\n', encoding="utf-8")
    with pytest.raises(LoadError, match=r"corpus.toml: название книги \(title\) для файла «a.txt»"):
        load([tmp_path])


@pytest.fixture(scope="module")
def corpus_graph() -> Graph:
    from rulekb.defaults import DefaultsError, corpus_dir

    try:
        folder = corpus_dir()
    except DefaultsError as exc:
        pytest.skip(f"no corpus: {exc}")
    return Graph(build(load([folder])).kb)


def test_corpus_sources_are_named_by_their_book(corpus_graph: Graph) -> None:
    sources = {n.source: n.title for n in corpus_graph.nodes.values() if n.kind == "source"}
    assert sources["000_622e076ea61e0607.txt"] == "Warhammer 40k, 6th edition, Книга правил"
    assert sources["001_ba20f991b5661e29.txt"] == SYSTEM_TITLES["whfb8"]
    assert sources["003_0507bc63355ee559.txt"] == SYSTEM_TITLES["killteam2018"]
    assert not any(title.endswith(".txt") for title in sources.values())


def test_book_label_of_a_rule(corpus_graph: Graph) -> None:
    node = corpus_graph.nodes["whfb8:regeneraciya"]
    assert book_title(corpus_graph, node) == "Warhammer Fantasy Battle, 8-я редакция"
    assert book_label(book_title(corpus_graph, node), 75) == (
        "Warhammer Fantasy Battle, 8-я редакция — стр. 75"
    )
    assert book_label("Kill Team (2018)", None) == "Kill Team (2018)"
