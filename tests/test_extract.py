"""Extraction on single sentences: citations, grants, cue names, limits, inheritance."""

from __future__ import annotations

import pytest

from ingest import extract as ex


@pytest.mark.parametrize(
    ("text", "pages"),
    [
        ("как это описано на странице 42. Как они распределяются, описано на странице 92",
         ["42", "92"]),
        ("специального правила «противовоздушное» (см. стр. 42).", ["42"]),
        ("используя правила для Подкреплений (страница 27) из любой точки", ["27"]),
    ],
)
def test_page_citations(text: str, pages: list[str]) -> None:
    assert [m.name for m in ex.page_citations(text)] == pages


def test_special_rules_box() -> None:
    body = "Молот ярости, уклонение, безостановочный, очень крупногабаритный."
    got = [(m.name, body[m.span[0]:m.span[1]]) for m in ex.special_rules_list(body)]
    assert got == [("Молот ярости", "Молот ярости"), ("Уклонение", "уклонение"),
                   ("Безостановочный", "безостановочный"),
                   ("Очень крупногабаритный", "очень крупногабаритный")]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Подразделение выходит на поле боя, используя правила для Подкреплений (страница 27).",
         ["Подкрепления"]),
        ("если модель получает рану от атаки, которая является Огненной, то спас бросок",
         ["Огненные атаки"]),
        ("получает правило «молот ярости» до конца хода.", ["Молот ярости"]),
        ("действие их правил Вдохновляющее Присутствие и Стоять Насмерть! соответственно",
         ["Вдохновляющее Присутствие", "Стоять Насмерть!"]),
    ],
)
def test_cue_names(text: str, names: list[str]) -> None:
    assert [m.name for m in ex.cue_names(text)] == names


def test_limits() -> None:
    text = ("Смертельный Удар может быть применён лишь против моделей типа Пехота, Кавалерия и "
            "Твари. Может быть использован против любого типа модели, за исключением Стай.")
    assert [(m.kind, m.raw) for m in ex.limits(text)] == [
        ("applies_to", "Пехота"), ("applies_to", "Кавалерия"), ("applies_to", "Твари"),
        ("excludes", "Стай")]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("В дополнение ко всем правилам для гравициклов, эльдарские гравициклы могут",
         ["гравициклов"]),
        ("Прыжковая пехота, к примеру, будет следовать правилам прыжковых боевых единиц и пехоты.",
         ["прыжковых боевых единиц", "пехоты"]),
        ("то оно передвигается, бегает и нападает по тем же правилам, что и прыжковое "
         "монструозное создание.", ["прыжковое монструозное создание"]),
    ],
)
def test_inherit_cues(text: str, names: list[str]) -> None:
    assert [m.raw for m in ex.inherit_cues(text)] == names


@pytest.mark.parametrize(
    ("text", "words", "as_name"),
    [
        ("провалило тест на Разгром, то", "Разгром", True),
        ("Разгром неизбежен.", "Разгром", False),
        ("Вот почему паника страшна.", "паника", False),
        ("она не может ( Advance, charge, React) на этом этапе.", "Advance", True),
        ("реакцию на нападение «Стоять и Стрелять». Это", "Стоять и Стрелять", True),
        ("1. Инициативная фаза", "Инициативная фаза", False),
        ("(см. Синдром Шаткой Модели)", "Синдром Шаткой Модели", True),
        ("от вражеской модели.", "вражеской модели", False),
    ],
)
def test_written_as_name(text: str, words: str, as_name: bool) -> None:
    start = text.index(words)
    assert ex.written_as_name(text, (start, start + len(words))) is as_name
