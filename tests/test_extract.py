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
        ("подчиняется правилам стр. 199-200 книги правил", ["199", "200"]),
        ("как описано на стр 33, модель", ["33"]),
        ("(см. страницы 12 и 14)", ["12", "14"]),
        ("см. стр. 5, 7 и 9.", ["5", "7", "9"]),
        ("на стр. 12 и 3 модели уходят", ["12"]),
        ("вся глава (стр. 3-40)", ["3", "40"]),
        ("пестр 45 раз", []),
        ("по сценарию на 112-114 стр. основной книги", ["112", "113", "114"]),
        ("правила боя (см. 57 стр.) действуют", ["57"]),
        ("описано на 31-й странице книги", ["31"]),
        ("доклад в 2 страницы и на 3 стр", ["3"]),
        ("на 5 страниц текста", []),
        # a Latin "c" typed for the Cyrillic one
        ("правила атаки (c. 57) и (cм. cтр. 12)", ["57", "12"]),
        ("etc. 5 раз, abc. 12", []),
        # several pages in the plural's locative
        ("описано на страницах 12 и 13.", ["12", "13"]),
        # a quotation of the English rulebook or FAQ cites in English
        ("has the Master of Battle special rule (page 41). In addition", ["41"]),
        ("as shown on page 2 and 3, still a Pitched Battle", ["2", "3"]),
        ("(see pages 12-13) and p. 42, pp. 7, 9.", ["12", "13", "42", "7", "9"]),
        # a pager is no citation, nor an English errata's entry (its Russian twin cites)
        ("page 1 of 39, Page 2/39", []),
        ("Page 58 – Kurt Helborg, Special Rules", []),
    ],
)
def test_page_citations(text: str, pages: list[str]) -> None:
    assert [m.name for m in ex.page_citations(text)] == pages


@pytest.mark.parametrize(
    ("text", "at", "sentence"),
    [
        # an abbreviation's period ends no sentence, before the mention or after it
        ("Модели бегут. Подробнее см. стр. 42 книги. Дальше.", "42",
         "Подробнее см. стр. 42 книги."),
        ("Стрельба идёт как навскидку (см. стр. 42). Дальше.", "навскидку",
         "Стрельба идёт как навскидку (см. стр. 42)."),
        ("Модель стоит устойчиво (см. Синдром Шаткой Модели). Дальше.", "Синдром",
         "Модель стоит устойчиво (см. Синдром Шаткой Модели)."),
        ("Правило, т. е. Ярость, действует. Дальше.", "Ярость",
         "Правило, т. е. Ярость, действует."),
        # "и т. д." and "и др." end a sentence as often as not
        ("Щиты, копья и т. д. Модель бьёт.", "бьёт", "Модель бьёт."),
    ],
)
def test_the_sentence_of_a_mention(text: str, at: str, sentence: str) -> None:
    assert ex.sentence_of(text, text.index(at)) == sentence


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
        # with no comma, the noun right before; "некоторые" or a word glued to it is no clause
        ("от атаки\nкоторая является Огненной.", ["Огненные атаки"]),
        ("Атаки некоторые являются Огненными. Атаки,которые являются Огненными.", []),
        ("получает правило «молот ярости» до конца хода.", ["Молот ярости"]),
        ("действие их правил Вдохновляющее Присутствие и Стоять Насмерть! соответственно",
         ["Вдохновляющее Присутствие", "Стоять Насмерть!"]),
        # names listed after "правило" with their English names: any case; a description
        # in an inflected form ("вселяющими ужас (Terror)") is no name as written
        ("Воины имеют специальное правило бесстрашные (Fearless), Стойкие (Stubborn) и "
         "вселяющими ужас (Terror).", ["Бесстрашные", "Стойкие"]),
        # a table's header ends in "Специальные правила", its row's words are no names
        ("Наименование Дальность Сила Специальные правила\nКопьё Ближний бой +1 Первый удар",
         []),
        # a name in sentence case: its capitalised adjective goes on to the noun it agrees
        # with; an adjective alone, or one the next word does not agree with, stays as it is
        ("Ранение с результатом 6 получает специальное правило Мгновенная смерть.",
         ["Мгновенная смерть"]),
        ("получает правило Тяжёлая силовая броня до конца хода", ["Тяжёлая силовая броня"]),
        ("модели с правилом Огненной атакой поджигают", ["Огненная атака"]),
        ("имеют правило Безостановочный, глубокий удар", ["Безостановочный"]),
        # the adjectives of a name read as agreeing with its noun: "боевой" masculine
        # nominative here, not the feminine genitive its first parse is
        ("Спецправило Боевой транс действует.", ["Боевой транс"]),
        ("получает правило Ярость до конца хода", ["Ярость"]),
        ("обладает правилом Бесстрашный воинов не боится", ["Бесстрашный"]),
        # after a plural cue, a list of names; after a singular one the comma is the name's
        ("обладают правилами Непоколебимость, Нестабильность и вызывают Страх",
         ["Непоколебимость", "Нестабильность"]),
        ("по правилу Берегись, Милорд! можно", ["Берегись"]),
        # English names after a singular cue; a game's rules and "как правило" are none
        ("размещающиеся в лесу с помощью специального правила Infiltrate могут",
         ["Infiltrate"]),
        ("отряда с правилом Feel no Pain, размер", ["Feel no Pain"]),
        ("правила Warhammer 40,000; как правило Holy Relic; правило Kill Team", []),
        # a chapter named in quotes, as a rule is
        ("подробно рассматриваются в главе «Боевой дух» на с. 56.", ["Боевой дух"]),
        # a bulleted list under a line announcing rules: each item a name; a sentence is none
        ("Вооружение:\n• Мульти-лазер\nСпециальные правила:\n• Движение через укрытие\n\n"
         "• Разведчик.\n\n• Мы идём!\nОпции:\n• Газгулл может взять",
         ["Движение через укрытие", "Разведчик", "Мы идём!"]),
        # (and "правил приведен ниже" is a lower-case name, kept only if the system knows it)
        ("Перечень специальных правил приведен ниже:\n  • Deep strike\n  • Night Fighting\n",
         ["Приведен ниже", "Deep strike", "Night Fighting"]),
        ("Основные правила:\n• Каждый игрок бросает D6 и прибавляет к результату 1.\n", []),
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
        ("модели могут сделать overwatch по нападающим", "overwatch", True),
        ("all of the units in your army must be chosen", "units", False),
        ("lists any special rules or benefits that apply", "special rules", False),
        ("the units in a Combined Arms Detachment gain", "Combined Arms", True),
        ("Units must be chosen from the same codex", "Units", False),
        ("such as ‘gets hot!’ or ‘blast’. A weapon may", "blast", True),
        ("модель с правилом \"ярость\" получает", "ярость", True),
        ("the model's blast marker", "blast", False),
    ],
)
def test_written_as_name(text: str, words: str, as_name: bool) -> None:
    start = text.index(words)
    assert ex.written_as_name(text, (start, start + len(words))) is as_name


def _keys(*names: str, mark: str = "") -> dict[tuple[str, ...], str]:
    return {tuple(t[0] for t in ex.lemma_tokens(n)): mark + n for n in names}


@pytest.mark.parametrize(
    ("text", "known", "own", "found"),
    [
        # the longest name wins, and its words are not found again inside it
        ("Модель со смертельным ударом и ударом.", ("Удар", "Смертельный удар"), (),
         [("смертельным ударом", "Смертельный удар"), ("ударом", "Удар")]),
        # a name of the text's own file is looked for beside the others: the longest wins,
        # and of two of the same words, its own file's
        ("Модели с правилом Большая цель стреляют.", ("Большая",),
         ("Большая цель",), [("Большая цель", "свой:Большая цель")]),
        ("Модели с правилом Большая цель стреляют.", ("Большая цель",), ("Большая",),
         [("Большая цель", "Большая цель")]),
        ("Модели с правилом Большая цель стреляют.", ("Большая цель",), ("Большая цель",),
         [("Большая цель", "свой:Большая цель")]),
        # a name longer than the text's rest is not looked for past its end
        ("Смертельный", ("Смертельный удар",), (), []),
        # the first word of a name alone names nothing
        ("Удар по броне и смертельный исход.", ("Смертельный удар",), (), []),
    ],
)
def test_name_mentions_longest_first(text: str, known: tuple[str, ...], own: tuple[str, ...],
                                     found: list[tuple[str, str]]) -> None:
    got = ex.name_mentions(ex.lemma_tokens(text), _keys(*known), text,
                           own=_keys(*own, mark="свой:"))
    assert [(m.raw, m.name) for m in got] == found
