"""Stage 2, clean: each step alone over its table, then whole texts of the corpus."""

from __future__ import annotations

import re
import tomllib
from array import array
from pathlib import Path
from typing import Any

import pytest

from ingest.clean import STEPS, apply_edits, clean, find_running_headers, identity_offsets
from ingest.clean_furniture import GATED_FROM, site_furniture
from ingest.furniture_lines import furniture_lines_re, lines_for
from ingest.load import load_file
from ingest.models import CleanedText, Edit, SourceText

DATA = Path(__file__).parent / "data" / "clean"
CORPUS = Path("/work/shared/corpus")
CORPUS_EXPECTED: dict[str, dict[str, Any]] = tomllib.loads(
    (DATA / "corpus.toml").read_text(encoding="utf-8")
)
STEP_FUNCTIONS = dict(STEPS)


def run_step(name: str, text: str) -> str:
    """The text after one step alone."""
    identity = array("q", range(len(text) + 1))
    return apply_edits(text, identity, STEP_FUNCTIONS[name](text), text)[0]


def source(text: str, name: str = "test.txt") -> SourceText:
    return SourceText(name=name, path=name, text=text, encoding="utf-8")


def step_cases() -> list[Any]:
    cases = []
    for name, _ in STEPS:
        table = tomllib.loads((DATA / f"{name}.toml").read_text(encoding="utf-8"))
        for case in table["case"]:
            cases.append(
                pytest.param(name, case["input"], case["expected"], id=f"{name}: {case['name']}")
            )
    return cases


@pytest.mark.parametrize(("step", "text", "expected"), step_cases())
def test_step(step: str, text: str, expected: str) -> None:
    assert run_step(step, text) == expected


def test_steps_run_in_the_documented_order() -> None:
    assert [name for name, _ in STEPS] == [
        "line_endings",
        "html",
        "html_entities",
        "combining_marks",
        "mixed_scripts",
        "markdown",
        "bbcode",
        "site_furniture",
        "running_header",
        "heading_translation",
        "page_footer",
        "hyphenation",
        "glued_title",
        "small_caps",
        "drop_capital",
        "whitespace",
    ]


def test_every_step_has_a_table() -> None:
    assert sorted(p.stem for p in DATA.glob("*.toml") if p.stem != "corpus") == sorted(
        STEP_FUNCTIONS
    )


def test_small_caps_keeps_the_length() -> None:
    text = "сТРЕЛьБА и ЕДИНИцЫ с РЕАКТИВНЫМИ, сэР"
    edits = STEP_FUNCTIONS["small_caps"](text)
    assert sorted((e.start, e.end, e.replacement) for e in edits) == [
        (0, 8, "СТРЕЛЬБА"),
        (9, 10, "И"),
        (11, 18, "ЕДИНИЦЫ"),
        (19, 20, "С"),
        (34, 37, "СЭР"),
    ]


def test_hyphenation_weighs_extra_vocabulary() -> None:
    text = "При турбо- ускорении мотоциклы"
    assert clean(source(text)).text == "При турбоускорении мотоциклы"
    cleaned = clean(source(text), vocabulary={"турбо-ускорении"})
    assert cleaned.text == "При турбо-ускорении мотоциклы"
    assert [(c.step, c.before, c.after) for c in cleaned.changes] == [("hyphenation", " ", "")]


def test_change_records_step_span_before_after_reason() -> None:
    cleaned = clean(source("Мотоциклы передвигают- ся на 3D6."))
    assert cleaned.text == "Мотоциклы передвигаются на 3D6."
    (change,) = cleaned.changes
    assert change.step == "hyphenation"
    assert change.span == (21, 23)
    assert (change.before, change.after) == ("- ", "")
    assert change.reason == "перенос слова: «передвигают- ся» → «передвигаются»"


def test_forum_and_wiki_furniture_is_accounted_for_with_its_reason() -> None:
    text = ("Здравствуйте, гость ( Вход | Регистрация )\n\n"
            "John_Smith\nсообщение 17.02.2011, 09:50\nСообщение #1\n"
            "Группа: Пользователи\nСообщений: 319\n\nМодель движется на 6\".\n"
            "Материал из Lexicanum\nФаза движения[править]\nМодели движутся.")
    cleaned = clean(source(text))
    assert cleaned.text == "Модель движется на 6\".\nФаза движения\nМодели движутся."
    reasons = {(c.before.strip(), c.reason) for c in cleaned.changes}
    assert ("Здравствуйте, гость ( Вход | Регистрация )",
            "приветствие форума гостю (вход, регистрация)") in reasons
    assert any(before.startswith("John_Smith\nсообщение 17.02.2011") and before.endswith("319")
               and reason.startswith("шапка сообщения форума") for before, reason in reasons)
    assert ("Материал из Lexicanum", "подпись вики «Материал из …»") in reasons
    assert ("[править]", "навигация вики («Перейти к навигации», «[править]»)") in reasons


def test_apply_edits_maps_and_refuses_overlaps() -> None:
    text = "аб вг"
    offsets = array("q", range(len(text) + 1))
    new, new_offsets, changes = apply_edits(
        text, offsets, [Edit(2, 3, "", "t", "r"), Edit(0, 1, "А", "t", "r")], text
    )
    assert new == "Абвг"
    assert list(new_offsets) == [0, 1, 3, 4, 5]
    assert [c.span for c in changes] == [(0, 1), (2, 3)]
    with pytest.raises(ValueError):
        apply_edits(text, offsets, [Edit(0, 3, "", "t", "r"), Edit(2, 4, "", "t", "r")], text)


def test_to_source_span_quotes_the_original() -> None:
    original = load_file(CORPUS / "000_622e076ea61e0607.txt").text
    cleaned = clean(source(original))
    start = cleaned.text.index("передвигаются на 3D6")
    span = cleaned.to_source_span(start, start + len("передвигаются на 3D6"))
    assert original[span[0] : span[1]] == "передвигают- ся на 3D6"
    heading = cleaned.text.index("ЭЛЬДАРСКИЕ (И ТЁМНОЭЛЬДАРСКИЕ) ГРАВИЦИКЛЫ")
    span = cleaned.to_source_span(heading, heading + 41)
    assert original[span[0] : span[1]] == "э ЛьДАРсКИЕ ( И ТЁМНОэЛьДАРсКИЕ ) ГРАВИцИКЛЫ"
    assert cleaned.from_source(span[0]) == heading
    assert cleaned.to_source(len(cleaned.text)) == len(original)


def test_running_headers_of_a_flattened_page() -> None:
    text = (
        "хода. Классы боевых единиц МОТОЦИКЛЫ Текст. Классы боевых единиц Прыжковые модели. "
        "Вера. Классы боевых единиц Князь демонов"
    )
    assert find_running_headers(text) == ("Классы боевых единиц",)
    assert clean(source(text)).running_headers == ["Классы боевых единиц"]


def test_page_at_tells_the_page_of_an_offset() -> None:
    cleaned = clean(load_file(CORPUS / "001_ba20f991b5661e29.txt"))
    at = cleaned.text.index("Героический Смертельный Удар")
    page = cleaned.page_at(at)
    assert page is not None and (page.first, page.last) == (73, 73)
    first = cleaned.pages[0]
    assert cleaned.text[first.at - 4 : first.at + 18] == "боя.\n\nСмертельный удар"
    assert cleaned.page_at(first.at - 1) == first
    assert cleaned.page_at(first.at + 2) == cleaned.pages[1]
    assert cleaned.page_at(len(cleaned.text)) is None


@pytest.mark.parametrize("name", sorted(CORPUS_EXPECTED))
def test_corpus_file_cleans(name: str) -> None:
    expected = CORPUS_EXPECTED[name]
    cleaned = clean(load_file(CORPUS / name))
    assert cleaned.source == name
    assert cleaned.text.startswith(expected["starts"])
    assert cleaned.text.endswith(expected["ends"])
    for phrase in expected["contains"]:
        assert phrase in cleaned.text
    for phrase in expected["absent"]:
        assert phrase not in cleaned.text
    assert cleaned.running_headers == expected["running_headers"]
    assert [(p.first, p.last) for p in cleaned.pages] == [(a, b) for a, b, _ in expected["pages"]]
    start = 0
    for mark, (_, _, phrase) in zip(cleaned.pages, expected["pages"], strict=True):
        assert phrase in cleaned.text[start : mark.at]
        start = mark.at


def messy_texts() -> list[Any]:
    """Corpus files and a text with every kind of mess, as (name, original text)."""
    texts = [pytest.param(path.read_text(encoding="utf-8"), id=path.name) for path in
             sorted(CORPUS.glob("*.txt"))]
    messy = (
        "Книга правил 2.0 - Warhammer правила. Книга правил 2.0 - Warhammer правила. Пролог\r\n"
        " Скачать 1.5 Mb.\r\n|\r\nО ТсТУПЛЕНИЕ модели пере- дви- гаются. Вера. Классы боевых "
        "единиц сТРЕЛьБА по- настоящему. Надежда. Классы боевых единиц ЕДИНИцЫ с РАНцАМИ. "
        "Боль. Классы боевых единиц э ЛьДАРсКИЕ ( И ТЁМНОэЛьДАРсКИЕ )\n\n\u00a0\n\n"
        "Страница 12\n\n⇐ Предыдущая 1 2 3 Следующая ⇒\nДата добавления: 2020-01-01; "
        "просмотров: 5; Мы поможем в написании вашей работы! |"
    )
    texts.append(pytest.param(messy, id="messy"))
    return texts


@pytest.mark.parametrize("original", messy_texts())
def test_offsets_map_back_to_the_source(original: str) -> None:
    cleaned = clean(source(original))
    offsets = cleaned.offsets
    assert len(offsets) == len(cleaned.text) + 1
    assert offsets[-1] == len(original)
    assert all(a <= b for a, b in zip(offsets, offsets[1:], strict=False))
    replaced = _covered(cleaned, len(original), only_replacements=True)
    for i, char in enumerate(cleaned.text):
        source_char = original[cleaned.to_source(i)]
        if replaced[cleaned.to_source(i)]:
            assert char.lower() == source_char.lower() or char.isspace(), (i, char, source_char)
        else:
            assert char == source_char, (i, char, source_char)


@pytest.mark.parametrize("original", messy_texts())
def test_every_removed_character_is_accounted_for(original: str) -> None:
    cleaned = clean(source(original))
    accounted = _covered(cleaned, len(original), only_replacements=False)
    for i in cleaned.offsets[:-1]:
        accounted[i] = 1
    missing = [i for i, flag in enumerate(accounted) if not flag]
    assert missing == []
    for change in cleaned.changes:
        assert original[change.span[0] : change.span[1]] == change.before
        assert change.reason


def test_messy_text_cleans_completely() -> None:
    original = messy_texts()[-1].values[0]
    cleaned = clean(source(original))
    assert cleaned.text == (
        "ОТСТУПЛЕНИЕ модели передвигаются. Вера.\nСТРЕЛЬБА по-настоящему. Надежда.\n"
        "ЕДИНИЦЫ С РАНЦАМИ. Боль.\nЭЛЬДАРСКИЕ (И ТЁМНОЭЛЬДАРСКИЕ)"
    )
    assert cleaned.running_headers == ["Классы боевых единиц"]
    assert [(p.first, p.at) for p in cleaned.pages] == [(12, len(cleaned.text))]


def _covered(cleaned: CleanedText, size: int, *, only_replacements: bool) -> bytearray:
    """Source characters inside a change (only those that put text back, if asked)."""
    flags = bytearray(size)
    for change in cleaned.changes:
        if only_replacements and not change.after:
            continue
        flags[change.span[0] : change.span[1]] = b"\x01" * (change.span[1] - change.span[0])
    return flags


@pytest.mark.parametrize("size", [0, 1, 2, 255, 256, 257, 65_535, 65_536, 65_537, 131_073,
                                  300_001, 16_777_217])
def test_identity_offsets_counts_up(size: int) -> None:
    # (each byte of the numbers is laid down apart, a block of 65,536 at a time: sizes around
    # 256, 65,536 and 2 ** 24 carry a byte)
    assert identity_offsets(size) == array("q", range(size))


def test_a_word_broken_by_a_page_footer_is_joined_and_the_page_kept() -> None:
    """"Лидер-" / "Страница 58" / "ство": the footer goes, then the hyphenation step joins
    the word across the blank lines it left; the page's mark stays."""
    cleaned = clean(source("Паника\n\nПодразделение проходит тест на Лидер-\n\nСтраница 58\n\n"
                           "ство сразу после потерь.\n"))
    assert "тест на Лидерство сразу" in cleaned.text
    assert [(m.first, m.last) for m in cleaned.pages] == [(58, 58)]
    assert any(c.step == "hyphenation" and "через разрыв страницы" in c.reason
               for c in cleaned.changes)


def _furniture_matches(pattern: re.Pattern[str], text: str) -> list[tuple[tuple[int, int], str]]:
    return [(m.span(), m.lastgroup or "") for m in pattern.finditer(text)]


def test_the_furniture_patterns_a_text_s_words_allow_find_what_all_of_them_find() -> None:
    """A long text is scanned with only the furniture's line patterns its words allow, a short
    one with all of them (:data:`ingest.clean_furniture.GATED_FROM`): the patterns a text's
    words leave out fit none of its lines, so both find the same lines, each by the same
    pattern (the table's texts, and real pages of document sites and forums)."""
    table = tomllib.loads((DATA / "site_furniture.toml").read_text(encoding="utf-8"))
    pages = sorted((DATA.parent / "heldout").glob("*/*.txt"))
    texts = [case["input"] for case in table["case"]]
    texts += [page.read_text(encoding="utf-8", errors="replace") for page in pages]
    every = furniture_lines_re()
    found = 0
    for text in texts:
        allowed = _furniture_matches(furniture_lines_re(lines_for(text.lower())), text)
        assert allowed == _furniture_matches(every, text), text[:200]
        found += len(allowed)
    assert found > 100  # (the pages hold such lines: the comparison compares something)


def test_a_text_too_long_for_every_pattern_loses_its_furniture_all_the_same() -> None:
    page = ("Скачать 44.49 Mb.\nГлавная страница | Контакты | О сайте\n\n"
            "Паника\n\nПодразделение, потерявшее четверть моделей, проходит тест на Панику.\n\n")
    text = page * (GATED_FROM // len(page) + 1)
    assert len(text) >= GATED_FROM
    gone = {text[e.start:e.end].strip() for e in site_furniture(text)}
    assert {"Скачать 44.49 Mb.", "Главная страница | Контакты | О сайте"} <= gone
    assert not any("Паника" in line for line in gone)
