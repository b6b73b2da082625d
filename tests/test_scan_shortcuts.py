"""Shortcuts of ingest's scans of whole texts change nothing they find, on the corpus and on
every page of tests/data.

A pattern looks ahead for the characters its matches may start with, so the scan passes every
other character at once: it finds what its alternatives alone find (a new alternative that
starts with another character fails here). The furniture lines looked for only in a text holding
one of their anchors fit no line of a text that holds none. Words placed by ``str.find`` are
where the word pattern finds them; a heading's action cost read at its end first is the
pattern's; words of two alphabets found from their Latin letters are the word pattern's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ingest.clean_scripts import _mixed_words
from ingest.clean_spacing import _WHITESPACE_RE
from ingest.clean_words import _HYPHEN_AHEAD, _HYPHEN_RE, CASE_ARTIFACT_RE
from ingest.extract import _INHERIT, _INHERIT_FIRST
from ingest.facts import _SENTENCE_END, FACT_FIRST, FACT_RE
from ingest.furniture_lines import (
    _PAPER_FIRST,
    ANCHORED_LINES,
    FURNITURE_LINES,
    furniture_lines_re,
    lines_for,
)
from ingest.sections import _PAGE_AFTER_RE, ACTION_COST, has_action_cost
from ingest.segment_flat import _CAPS_RUN, CAPS_FIRST
from kb.lemmas import WORD_RE, name_tokens
from rulekb.defaults import corpus_dir

DATA = Path(__file__).parent / "data"

# (pattern, its look-ahead): the pattern without the look-ahead must find the same
SCANNED = [
    pytest.param(FACT_RE, f"(?={FACT_FIRST})", id="facts"),
    pytest.param(_WHITESPACE_RE, "(?=\\s)", id="whitespace"),
    pytest.param(CASE_ARTIFACT_RE, "(?=[А-ЯЁа-яё][а-яё]*[А-ЯЁ])", id="small caps"),
    pytest.param(_HYPHEN_RE, _HYPHEN_AHEAD, id="hyphenation"),
    pytest.param(_INHERIT, _INHERIT_FIRST, id="inheritance"),
    pytest.param(_PAGE_AFTER_RE, "(?=\\d)", id="page after its number"),
    pytest.param(_SENTENCE_END, "(?=[.!?\\n])", id="sentence end"),
    pytest.param(_CAPS_RUN, CAPS_FIRST, id="a run of capitals"),
    pytest.param(furniture_lines_re(), _PAPER_FIRST, id="a study site's tagline"),
    pytest.param(furniture_lines_re(), "(?=[нНоОrRзЗ\\d])", id="a site's rating line"),
]


def _plain(fast: re.Pattern[str], ahead: str) -> re.Pattern[str]:
    assert ahead in fast.pattern
    return re.compile(fast.pattern.replace(ahead, "", 1), fast.flags)


def _texts() -> list[str]:
    files = sorted(corpus_dir().glob("*.txt")) + sorted(DATA.rglob("*.txt"))
    return [f.read_text(encoding="utf-8-sig", errors="replace") for f in files]


@pytest.fixture(scope="module")
def texts() -> list[str]:
    return _texts()


@pytest.mark.parametrize(("fast", "ahead"), SCANNED)
def test_look_ahead_changes_no_match(fast: re.Pattern[str], ahead: str,
                                     texts: list[str]) -> None:
    plain = _plain(fast, ahead)
    for text in texts:
        got = [(m.span(), m.lastgroup) for m in fast.finditer(text)]
        assert got == [(m.span(), m.lastgroup) for m in plain.finditer(text)]


@pytest.mark.parametrize(("fast", "ahead"), SCANNED)
@pytest.mark.parametrize("text", [
    "Бросьте 2D6 и D3+1, на 4+ или 5-6; не более двух раз за ход.",
    "WS BS S T W I A Ld Sv 4 4 3 3 1 4 1 8 4+ (1-3) 12\" 6 дюймов 50% 90° X2 +1 -1 – 2",
    "живую шестёрку; выкидывает 6; 3 и более; хотя бы один; только из одного оружия",
    "со 2-ого раунда; начиная с 3-го хода; 100 очков; 250 pts",
    "  два  пробела\t таб\xa0\n\n\n\nстроки ( скобки ) « кавычки »  ",
    "сТРЕЛьБА, сэР, БЕРЕГИТЕсь, Стрельба, стрельба, СТРЕЛЬБА, ЕДИНИцЫ с РЕАКТИВНЫМИ, XV25",
    "передвигают- ся, по- настоящему, ТУРБО- УСКОРЕНИЕ, турбо-ускорение, 3- 4, а - б, пере-\nход",
    "В дополнение ко всем правилам для гравициклов; будет следовать правилам пехоты, но; "
    "передвигается так же по тем же правилам, что и прыжковая пехота. Следует правилам Тварей.",
    "на 439-441 стр. и (см. 57 стр.), на 12-й странице; в 2 страницы",
    "Конец. Начало! «Цитата.» Вопрос? …и т. д. 3 стр.\nСтрока",
    "Lektsia - бесплатные Рефераты, доклады, курсовые работы, контрольные и дипломы\n"
    "Опубликованный материал нарушает ваши авторские права? Сообщите нам.\n"
    "Оцените работу: 4.5 из 5.0 12 оценок\nRate this document",
])
def test_look_ahead_on_every_kind_of_match(fast: re.Pattern[str], ahead: str,
                                           text: str) -> None:
    plain = _plain(fast, ahead)
    assert [(m.span(), m.lastgroup) for m in fast.finditer(text)] \
        == [(m.span(), m.lastgroup) for m in plain.finditer(text)]


@pytest.mark.parametrize("k", range(len(ANCHORED_LINES)))
def test_anchored_lines_need_their_anchors(k: int, texts: list[str]) -> None:
    pattern, _, anchors = ANCHORED_LINES[k]
    for text in texts:
        if not any(a in text.lower() for a in anchors):
            assert pattern.search(text) is None


@pytest.mark.parametrize("k", [k for k, line in enumerate(FURNITURE_LINES) if line[2]])
def test_furniture_lines_need_their_words(k: int, texts: list[str]) -> None:
    pattern, _, anchors = FURNITURE_LINES[k]
    for text in texts:
        if not any(a in text.lower() for a in anchors):
            assert pattern.search(text) is None


@pytest.mark.parametrize("line", [
    "Lektsia - бесплатные рефераты, доклады, курсовые работы, контрольные и дипломы",
    "Подпишитесь на рассылку ×", "Главная | Форум | Правила", "[ Новые · Участники · Поиск ]",
    "Главная страница Случайная страница", "Опубликованный материал нарушает ваши авторские права?",
    "Оцените работу: 4.5 из 5.0 12 оценок", "Rate this document",
    "Красным выделены дополнения", "Изменения отмечены жирным шрифтом",
    "аватар Herald", "rules_page.JPG", "Профиль Публикации Комментарии", "Поддержать проект",
])
def test_each_line_a_furniture_pattern_with_words_fits_holds_them(line: str) -> None:
    fits = [k for k, (pattern, _, anchors) in enumerate(FURNITURE_LINES)
            if anchors and pattern.search(line)]
    assert fits, line  # (each line is one of theirs)
    assert all(any(a in line.lower() for a in FURNITURE_LINES[k][2]) for k in fits)
    # and the scan of a text holding it keeps the pattern that fits it
    assert set(fits) <= set(lines_for(line.lower()))
    assert furniture_lines_re(lines_for(line.lower())).search(line) is not None


@pytest.mark.parametrize("line", [
    "Вся электронная библиотека >>>",
    "Студопедия.Орг Главная | Случайная страница | Контакты",
    "Лекция 3. Патология дыхания.pptx", "Правила.PDF 12,5 Мб", "— 75.00 Кб (Скачать файл)",
    "- Количество слайдов: 24", "Формат: PDF Размер файла: 7.82 MB", "Скачать книгу",
])
def test_each_line_an_anchored_pattern_fits_holds_its_anchor(line: str) -> None:
    fits = [anchors for pattern, _, anchors in ANCHORED_LINES if pattern.search(line)]
    assert fits, line  # (each line is one of theirs)
    assert all(any(a in line.lower() for a in anchors) for anchors in fits)


def test_name_tokens_find_every_word_at_its_place(texts: list[str]) -> None:
    # (name_tokens places the words of findall by str.find: the same as their matches)
    for text in texts:
        assert [(s, e) for _, s, e in name_tokens(text)] \
            == [m.span() for m in WORD_RE.finditer(text)]
    assert name_tokens("в-в в в-в'в в") == [("в-в", 0, 3), ("в", 4, 5), ("в-в'в", 6, 11),
                                           ("в", 12, 13)]


@pytest.mark.parametrize("heading", [
    "Рывок - 1 ОД", "Рывок - 1ОД.", "Стрельба: 2 AP", "Атака – 1 очко действия", "Бег 1 АР\n",
    "Рывок - 1 од.", "A - 2 ap", "X - 1 ОД\n\n", "Просто заголовок", "ОД", "", " ",
])
def test_action_cost_read_at_its_end_first(heading: str) -> None:
    assert has_action_cost(heading) == (ACTION_COST.search(heading) is not None)


def test_action_cost_of_every_line(texts: list[str]) -> None:
    for text in texts:
        for line in text.split("\n"):
            assert has_action_cost(line) == (ACTION_COST.search(line) is not None)


def test_mixed_words_are_the_words_of_both_alphabets(texts: list[str]) -> None:
    # (found from their Latin letters: the words a word pattern finds holding both alphabets)
    both = re.compile(r"\b(?=\w*[А-Яа-яЁё])(?=\w*[A-Za-z])\w+\b")
    for text in [*texts, "Тип_Vehicle, 2Бтр, ЭпохаX, Xэпоха и Эпохa; Сounteract"]:
        assert list(_mixed_words(text)) == [(m.start(), m.group()) for m in both.finditer(text)]
