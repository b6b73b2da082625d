"""Texts of shapes no page of rules has, which a user's file may still hold: a line of
thousands of spaces or digits, numbers or page citations run on with no stop, a run of
headings over no text, a file of one Latin word. Each builds, and what it costs grows with
it as a page's text does (the speed of such shapes is measured in
``benchmarks/ingest_shapes.py``; here, what bounds each item's cost and size)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ingest.build import prepare
from ingest.extract import page_citations, sentence_of
from ingest.facts import _MAX_CLAUSE, MAX_SENTENCE, _clause, find_facts, sentences
from ingest.models import SourceText
from ingest.segment_depth import MAX_DEPTH

ROOT = Path(__file__).resolve().parents[1]


def _source(text: str) -> SourceText:
    return SourceText(name="shape.txt", path="shape.txt", text=text, encoding="utf-8",
                      system="whfb8", system_from="option")


# (what, text): each once made the build loop for ever or run for minutes (a pattern tried
# again from every space or digit of a long run, a loop that never passed the text's end)
ENDLESS = [
    ("one Latin word", "x\n"),
    ("one Latin word, no line break", "x"),
    ("a brand alone", "RED ELF"),
    ("a brand over a brand", "WARHAMMER\nRED ELF\n"),
    ("spaces before the text", " " * 20_000 + "\nПаника. Модель бежит."),
    ("tabs before the text", "\t" * 20_000 + "\nПаника. Модель бежит."),
    ("spaces in pairs", "  " * 10_000),
    ("no-break spaces", "\u00a0" * 20_000 + "\nПаника."),
    ("a run of digits", "1" * 20_000 + "\nПаника. Модель бежит."),
    ("digits inside a line", "Паника " + "0" * 20_000 + " бежит."),
]


def test_shapes_that_never_ended_build() -> None:
    """Each text of :data:`ENDLESS` builds, in a process of its own, so that a return of the
    fault fails here (after a bound ten times what all of them take) instead of hanging the
    suite."""
    code = ("import sys, json\n"
            "from ingest.build import build\n"
            "from ingest.models import SourceText\n"
            "for what, text in json.loads(sys.stdin.read()):\n"
            "    build([SourceText(name='s.txt', path='s.txt', text=text, encoding='utf-8',"
            " system='whfb8', system_from='option')], jobs=1)\n"
            "    print(what)\n")
    import json

    done = subprocess.run([sys.executable, "-c", code], input=json.dumps(ENDLESS),
                          capture_output=True, text=True, timeout=300, cwd=ROOT, check=True)
    assert done.stdout.splitlines() == [what for what, _ in ENDLESS]


def test_numbers_run_on_quote_a_bounded_sentence() -> None:
    """A stretch of numbers with no stop (a table run into one line) is cut into sentences
    of :data:`MAX_SENTENCE` characters at most, at spaces: each of its facts quotes one (a
    fact quoting the whole 20 KB stretch made a KB of 135 MB), and every number is found."""
    text = "D6 " * 7_000
    facts = find_facts(text, [], {})
    assert len(facts) == 7_000
    assert max(len(f.sentence) for f in facts) <= MAX_SENTENCE
    spans = sentences(text)
    assert all(b - a <= MAX_SENTENCE for a, b in spans)
    assert text[spans[0][1] - 1] == " " and spans[1][0] == spans[0][1]  # cut at a space


def test_a_sentence_of_a_page_is_whole() -> None:
    """A sentence below the bound is quoted whole, however long (the corpus's reach 700)."""
    sentence = "Модель с правилом «Страх» " + "и ещё одна модель " * 30 + "бежит на 6\"."
    facts = find_facts(sentence, [], {})
    assert [f.sentence for f in facts] == [sentence]


def test_a_clause_reaches_back_a_bounded_stretch() -> None:
    """A clause with no comma before its number starts the sentence, or :data:`_MAX_CLAUSE`
    characters back at a word's start."""
    short = "Гравициклы двигаются на 12\""
    assert _clause(short, short.index("12")) == "Гравициклы двигаются на 1"
    long = "слово " * 1_000 + "12\""
    clause = _clause(long, long.index("12"))
    assert len(clause) <= _MAX_CLAUSE + 1 and clause.startswith("слово ")


def test_page_citations_run_on_read_each_once() -> None:
    """Thousands of citations with no stop among them (each abbreviation's period looked at
    anew for each was a thousand tests a citation): every one found, its sentence the
    stretch around it, no longer than the bound a side."""
    text = "см. стр. 5 " * 3_000
    found = page_citations(text)
    assert len(found) == 3_000
    assert max(len(m.sentence) for m in found) <= 2 * MAX_SENTENCE
    assert sentence_of("Модели бегут. Подробнее см. стр. 42 книги. Дальше.", 30) \
        == "Подробнее см. стр. 42 книги."


@pytest.mark.parametrize("line", ["ПАНИКА", "ПСИХОЛОГИЯ"])
def test_a_run_of_headings_over_no_text_nests_a_bounded_depth(line: str) -> None:
    """Headings over no text, each holding the next, nest :data:`MAX_DEPTH` levels at most:
    the deeper ones hang beside the deepest."""
    _, seg = prepare(_source(f"{line}\n" * 200))
    depth: dict[int, int] = {}
    for i, sec in enumerate(seg.sections):
        depth[i] = 0 if sec.parent is None else depth[sec.parent] + 1
    assert len(seg.sections) > MAX_DEPTH
    assert max(depth.values()) == MAX_DEPTH - 1


# (what, code run on a text of 100,000 lines or characters): each pattern of the cleaning that
# was tried again from every line or space of a long run (the square of the run: minutes at
# this size), now read once
SLOW_PATTERNS = [
    ("dash lines above no card",
     "from ingest.clean_forum import _member_cards\n"
     "_member_cards('Пользователь\\n' + '-\\n' * 100_000 + 'Постов\\n')"),
    ("a label's value of many words and no stop",
     "from ingest.clean_furniture import _SENTENCE_VALUE\n"
     "line = 'слово ' * 100_000\n"
     "_SENTENCE_VALUE.match(line, 0, len(line))"),
    ("a run of spaces ending in no bar",
     "from ingest.furniture_lines import BAR_INLINE\n"
     "list(BAR_INLINE.finditer(' ' * 100_000 + 'x | y'))"),
    ("a title of brackets never closed",
     "from ingest.sections import unparen\n"
     "unparen('(' * 1_000_000)"),
    ("a line announcing rules over blank lines and a long list",
     "from ingest.name_cues import listed_names\n"
     "listed_names('Специальные правила:' + '\\n   ' * 200_000 + '\\n• Слово' * 100_000)"),
    ("lines each announcing rules and each an item of the one above, an item of spaces",
     "from ingest.name_cues import listed_names\n"
     "listed_names('Специальные правила:\\n- ' * 100_000 + '\\n• Слово' + ' .' * 200_000)"),
    ("a cue over a run of capitalised adjectives and Latin words",
     "from ingest.extract import cue_names\n"
     "cue_names('правило ' + 'Огненная ' * 100_000 + 'правилом ' + 'Abc ' * 100_000)"),
]


def test_patterns_once_slow_on_long_runs_read_them_once() -> None:
    """Each code of :data:`SLOW_PATTERNS` ends, in a process of its own (the bound is a
    hundred times what all take now, and a fraction of what one took before)."""
    code = "".join(f"{body}\nprint({what!r})\n" for what, body in SLOW_PATTERNS)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, check=True)
    assert done.stdout.splitlines() == [what for what, _ in SLOW_PATTERNS]


@pytest.mark.parametrize(("text", "cards"), [
    # the dashes above a card are taken with it; a dash under a label is its empty value
    ("текст\n-\n - \nПользователь\nПостов\n7 957\nЗарегистрирован\n12.03.2010\nтекст",
     ["-\n - \nПользователь\nПостов\n7 957\nЗарегистрирован\n12.03.2010"]),
    ("Постов\n-\nРепутация\n-\n-\nПостов\n5\nРепутация\n1",  # (labels are its lines too)
     ["Постов\n-\nРепутация\n-\n-\nПостов\n5\nРепутация\n1"]),
    ("Постов\n-\nРепутация\n-\nтекст\n-\nПостов\n5\nРепутация\n1",
     ["Постов\n-\nРепутация\n-", "-\nПостов\n5\nРепутация\n1"]),
    ("-\n-\nПостов\n5\nтекст", []),  # one label: no card, its dashes stay
    ("Lord Velard\n-\nПостов\n1\nРепутация\n2", ["Lord Velard\n-\nПостов\n1\nРепутация\n2"]),
])
def test_a_members_card_and_the_dashes_above_it(text: str, cards: list[str]) -> None:
    from ingest.clean_forum import _member_cards

    assert [text[e.start:e.end].strip() for e in _member_cards(text)] == cards


@pytest.mark.parametrize(("line", "sentence"), [
    ("Подразделение, потерявшее четверть моделей, проходит тест.", True),
    ("один два три четыре пять шесть семь восемь!", True),
    ("один два три четыре пять.", False),  # five words, the fifth with no space after it
    ("один два три четыре пять шесть", False),  # no stop
    ("один два три четыре пять шесть …  ", True),
])
def test_a_labels_value_that_is_a_sentence(line: str, sentence: bool) -> None:
    from ingest.clean_furniture import _SENTENCE_VALUE

    assert (_SENTENCE_VALUE.match(line, 0, len(line)) is not None) is sentence


@pytest.mark.parametrize(("text", "bars"), [
    ("Главная | Форум | Правила", [" |", " |"]),
    ("| Главная", ["|"]),
    ("a|b и x || y", []),
    ("Главная   |\nФорум", ["   |"]),
])
def test_a_sites_bar_between_words(text: str, bars: list[str]) -> None:
    from ingest.furniture_lines import BAR_INLINE

    assert [m.group(0) for m in BAR_INLINE.finditer(text)] == bars


def test_a_contents_in_capitals_repeated_nests_a_bounded_depth() -> None:
    """The WHFB pages' words set as headings in capitals, one a line, the list repeated (a
    contents page copied over and over): each copy's headings hung under the copy's before,
    as deep as the copies are many, whatever nested them; every layout now ends within
    :data:`MAX_DEPTH` levels, so a part's family (its ancestors and descendants) stays small
    (the benchmark's row of such headings went from 0.17 to 0.11 MB/s at thrice the size)."""
    from conftest import CORPUS

    whfb = "".join(p.read_text(encoding="utf-8-sig") for p in sorted(CORPUS.glob("00[12]_*.txt")))
    names = sorted({w.upper() for w in whfb.split() if w.isalpha() and len(w) > 5})
    _, seg = prepare(_source("".join(f"{name}\n" for name in names) * 40))
    depth: dict[int, int] = {}
    for i, sec in enumerate(seg.sections):
        depth[i] = 0 if sec.parent is None else depth[sec.parent] + 1
    assert len(seg.sections) > 10 * MAX_DEPTH
    assert max(depth.values()) == MAX_DEPTH - 1


@pytest.mark.parametrize(("parents", "bounded"), [
    ([None, 0, 1, 2], [None, 0, 1, 2]),  # shallow: as it was
    ([None, *range(MAX_DEPTH + 2)], [None, *range(MAX_DEPTH - 1), MAX_DEPTH - 2,
                                     MAX_DEPTH - 2, MAX_DEPTH - 2]),
    ([3, None, 1, 2], [3, None, 1, 2]),  # a parent after its child: read from it all the same
])
def test_bound_depth(parents: list[int | None], bounded: list[int | None]) -> None:
    from ingest.segment import Section
    from ingest.segment_depth import bound_depth

    sections = [Section(title=f"Раздел {i}", heading=f"Раздел {i}", heading_span=(i, i),
                        body_span=(i, i), parent=p)
                for i, p in enumerate(parents)]
    bound_depth(sections)
    assert [s.parent for s in sections] == bounded


@pytest.mark.parametrize(("title", "bare"), [
    ("Сопротивление магии (1-3)", "Сопротивление магии"),
    ("Отряд (Unit) с (пометкой)", "Отряд с"),
    ("a (b (c) d)", "a d)"),  # (a part ends at the first ")")
    ("Паника (", "Паника ("),
    ("((( x", "((( x"),
    ("(a) (( b", "(( b"),
])
def test_a_titles_parenthesised_parts(title: str, bare: str) -> None:
    from ingest.sections import unparen

    assert unparen(title) == bare
