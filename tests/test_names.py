"""Name lookup over a small KB of two systems (tests/data/kb/mini_kb.json)."""

from __future__ import annotations

import random

import pytest

from kb.models import KnowledgeBase
from kb.names import LookupFailed, NameIndex, split_parameter, strip_parenthesised, text_key


@pytest.fixture(scope="module")
def index(mini_kb: KnowledgeBase) -> NameIndex:
    return NameIndex(mini_kb.nodes)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Регенерация (5+)", ("Регенерация", "5+")),
        ("Сопротивление магии (2)", ("Сопротивление магии", "2")),
        ("Многочисленные выстрелы Х 2", ("Многочисленные выстрелы", "Х 2")),
        ("Многочисленные выстрелы (Х2)", ("Многочисленные выстрелы", "Х2")),
        ("Регенерация 4+", ("Регенерация", "4+")),
        ("Опасность D3", ("Опасность", "D3")),
        ("  Мудрец   (*) ", ("Мудрец", "*")),
        (
            "Эльдарские (и тёмноэльдарские) гравициклы",
            ("Эльдарские (и тёмноэльдарские) гравициклы", None),
        ),
        ("Регенерация", ("Регенерация", None)),
        ("(5+)", ("(5+)", None)),
    ],
)
def test_split_parameter(name: str, expected: tuple[str, str | None]) -> None:
    assert split_parameter(name) == expected


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Турбо-ускорение", "турбо ускорение"),
        ("турбо  ускорение", "турбо ускорение"),
        ("Тёмные ЭЛЬДАРЫ", "темные эльдары"),
        ("Сопротивление магии (1-3)", "сопротивление магии 1 3"),
    ],
)
def test_text_key(text: str, key: str) -> None:
    assert text_key(text) == key


@pytest.mark.parametrize(
    ("title", "bare"),
    [
        ("Эльдарские (и тёмноэльдарские) гравициклы", "Эльдарские гравициклы"),
        ("Сопротивление магии (1-3)", "Сопротивление магии"),
        ("Мудрец (*)", "Мудрец"),
        ("(*)", ""),
    ],
)
def test_strip_parenthesised(title: str, bare: str) -> None:
    assert strip_parenthesised(title) == bare


# name, system, first node id, how, score, the name as the KB writes it, parameter
FIND_CASES = [
    ("Регенерация", "whfb8", "whfb8:regeneraciya", "exact", 100, "Регенерация", None),
    ("регенерацию", "whfb8", "whfb8:regeneraciya", "lemma", 100, "Регенерация", None),
    ("РЕГЕНЕРАЦИЕЙ", None, "whfb8:regeneraciya", "lemma", 100, "Регенерация", None),
    ("регенирация", "whfb8", "whfb8:regeneraciya", "fuzzy", 91, "Регенерация", None),
    ("Regeneration", None, "whfb8:regeneraciya", "exact", 100, "Regeneration", None),
    ("regeneraton", "whfb8", "whfb8:regeneraciya", "fuzzy", 96, "Regeneration", None),
    ("Регенерация (5+)", "whfb8", "whfb8:regeneraciya", "exact", 100, "Регенерация", "5+"),
    (
        "Смертельного Удара",
        "whfb8",
        "whfb8:smertelnyi-udar",
        "lemma",
        100,
        "Смертельный удар",
        None,
    ),
    ("Смертельный удор", "whfb8", "whfb8:smertelnyi-udar", "fuzzy", 94, "Смертельный удар", None),
    ("Огненными атаками", "whfb8", "whfb8:ognennye-ataki", "lemma", 100, "Огненные атаки", None),
    (
        "Сопротивление магии (2)",
        "whfb8",
        "whfb8:soprotivlenie-magii",
        "exact",
        100,
        "Сопротивление магии",
        "2",
    ),
    (
        "Сопротивление магии (1-3)",
        "whfb8",
        "whfb8:soprotivlenie-magii",
        "exact",
        100,
        "Сопротивление магии (1-3)",
        None,
    ),
    (
        "сопротивлением магии",
        "whfb8",
        "whfb8:soprotivlenie-magii",
        "lemma",
        100,
        "Сопротивление магии",
        None,
    ),
    ("Мудрец", "whfb8", "whfb8:mudrec", "exact", 100, "Мудрец (*)", None),
    (
        "Многочисленные выстрелы Х 2",
        "whfb8",
        "whfb8:mnogochislennye-vystrely",
        "exact",
        100,
        "Многочисленные выстрелы",
        "Х 2",
    ),
    ("Гравицыклы", "wh40k6", "wh40k6:motocikly-i-gravicikly", "fuzzy", 90, "Гравициклы", None),
    ("гравициклом", "wh40k6", "wh40k6:motocikly-i-gravicikly", "lemma", 100, "Гравициклы", None),
    ("Мотоциклы", "wh40k6", "wh40k6:motocikly-i-gravicikly", "exact", 100, "Мотоциклы", None),
    ("турбо ускорение", "wh40k6", "wh40k6:turbo-uskorenie", "exact", 100, "Турбо-ускорение", None),
    ("Турбо-ускорения", "wh40k6", "wh40k6:turbo-uskorenie", "lemma", 100, "Турбо-ускорение", None),
    ("турбо ускорения", "wh40k6", "wh40k6:turbo-uskorenie", "lemma", 100, "Турбо-ускорение", None),
    ("молотом ярости", "wh40k6", "wh40k6:molot-yarosti", "lemma", 100, "Молот ярости", None),
    ("Молот ярости", "wh40k6", "wh40k6:molot-yarosti", "exact", 100, "Молот ярости", None),
    (
        "Эльдарские гравициклы",
        "wh40k6",
        "wh40k6:eldarskie-gravicikly",
        "exact",
        100,
        "Эльдарские гравициклы",
        None,
    ),
    (
        "эльдарских гравициклов",
        "wh40k6",
        "wh40k6:eldarskie-gravicikly",
        "lemma",
        100,
        "Эльдарские гравициклы",
        None,
    ),
    (
        "Эльдарские (и темноэльдарские) гравициклы",
        "wh40k6",
        "wh40k6:eldarskie-gravicikly",
        "exact",
        100,
        "Эльдарские (и тёмноэльдарские) гравициклы",
        None,
    ),
    ("Отступление", "wh40k6", "wh40k6:otstuplenie", "exact", 100, "Отступление", None),
    ("Отступление", "whfb8", "whfb8:otstuplenie", "exact", 100, "Отступление", None),
]


@pytest.mark.parametrize(
    ("name", "system", "node_id", "how", "score", "matched", "parameter"), FIND_CASES
)
def test_find_first(
    index: NameIndex,
    name: str,
    system: str | None,
    node_id: str,
    how: str,
    score: int,
    matched: str,
    parameter: str | None,
) -> None:
    first = index.find(name, system)[0]
    assert (first.node_id, first.how, first.score, first.matched, first.parameter) == (
        node_id,
        how,
        score,
        matched,
        parameter,
    )


@pytest.mark.parametrize(
    ("name", "system", "kinds", "ids"),
    [
        # without a system both systems' nodes come back, ordered by kind, then id
        ("Отступление", None, None, ["wh40k6:otstuplenie", "whfb8:otstuplenie"]),
        # systems never mix
        ("Регенерация", "wh40k6", None, []),
        ("Regeneration", "wh40k6", None, []),
        ("Турбо-ускорение", "whfb8", None, []),
        ("Гравицыклы", "whfb8", None, []),
        # kinds filter
        ("Гравициклы", "wh40k6", ["rule"], []),
        ("Гравициклы", "wh40k6", ["unit_type"], ["wh40k6:motocikly-i-gravicikly"]),
        # pages and sources are not names
        ("Страница 42", "wh40k6", None, []),
        (
            "Специальные правила",
            "wh40k6",
            None,
            ["wh40k6:motocikly-specialnye-pravila", "wh40k6:pryzhkovye-specialnye-pravila"],
        ),
        ("", None, None, []),
        ("()", None, None, []),
    ],
)
def test_find_filters(
    index: NameIndex, name: str, system: str | None, kinds: list[str] | None, ids: list[str]
) -> None:
    assert [m.node_id for m in index.find(name, system, kinds)] == ids


@pytest.mark.parametrize(
    ("name", "system", "node_id"),
    [(case[0], case[1] or "whfb8", case[2]) for case in FIND_CASES]
    + [
        ("Регенерация", "wh40k6", None),
        ("Отступление", "killteam2018", None),
        # two nodes equally named: ambiguous, never a guess
        ("Специальные правила", "wh40k6", None),
        # similar, but not similar enough to be certain
        ("Регенератор", "whfb8", None),
        ("Мотоцикли с коляской", "wh40k6", None),
    ],
)
def test_resolve(index: NameIndex, name: str, system: str, node_id: str | None) -> None:
    node = index.resolve(name, system)
    assert (node.id if node else None) == node_id


def test_resolve_kinds(index: NameIndex) -> None:
    assert index.resolve("Мотоциклы", "wh40k6", kinds=["rule"]) is None
    node = index.resolve("Мотоциклы", "wh40k6", kinds=["unit_type"])
    assert node is not None and node.id == "wh40k6:motocikly-i-gravicikly"


@pytest.mark.parametrize(
    ("name", "system", "suggestions"),
    [
        (
            "Гравицыклы",
            "wh40k6",
            [
                ("Гравициклы", 90),
                ("Мотоциклы и гравициклы", 81),
                ("Эльдарские (и тёмноэльдарские) гравициклы", 81),
            ],
        ),
        ("Мотоцикл", "wh40k6", [("Мотоциклы", 100), ("Мотоциклы и гравициклы", 90)]),
        ("Регенератор", "whfb8", [("Регенерация", 73)]),
        ("Регенератор", "wh40k6", []),
    ],
)
def test_suggest(
    index: NameIndex, name: str, system: str, suggestions: list[tuple[str, int]]
) -> None:
    assert [(m.matched, m.score) for m in index.suggest(name, system)] == suggestions


@pytest.mark.parametrize(
    ("name", "system", "kinds", "message"),
    [
        (
            "Мотоцикли с коляской",
            "wh40k6",
            ["unit_type"],
            "Не найден тип «Мотоцикли с коляской» в системе wh40k6; ближайшие: "
            "«Мотоциклы» (85), «Мотоциклы и гравициклы» (62)",
        ),
        (
            "Гравицыклы",
            "whfb8",
            ["unit_type"],
            "Не найден тип «Гравицыклы» в системе whfb8; похожих названий нет",
        ),
        (
            "Регенератор",
            "whfb8",
            ["rule"],
            "Не найдено правило «Регенератор» в системе whfb8; ближайшие: «Регенерация» (73)",
        ),
        (
            "Регенерация (7+)",
            "wh40k6",
            None,
            "Не найдено название «Регенерация (7+)» (пробовали также «Регенерация») "
            "в системе wh40k6; похожих названий нет",
        ),
        (
            "Огненный шар",
            "whfb8",
            ["concept"],
            "Не найдено понятие «Огненный шар» в системе whfb8; ближайшие: «Огненные атаки» (77)",
        ),
        (
            "Специальные правила",
            "wh40k6",
            None,
            "Название «Специальные правила» в системе wh40k6 неоднозначно; подходят: "
            "«Специальные правила» (wh40k6:motocikly-specialnye-pravila), "
            "«Специальные правила» (wh40k6:pryzhkovye-specialnye-pravila)",
        ),
    ],
)
def test_lookup_failed_message(
    index: NameIndex, name: str, system: str, kinds: list[str] | None, message: str
) -> None:
    with pytest.raises(LookupFailed) as failed:
        index.get(name, system, kinds)
    assert str(failed.value) == message
    assert failed.value.name == name


def test_lookup_failed_data(index: NameIndex) -> None:
    with pytest.raises(LookupFailed) as failed:
        index.get("Регенерация (7+)", "whfb8", ["unit_type"])
    error = failed.value
    assert error.tried == ("Регенерация (7+)", "Регенерация")
    assert error.kinds == ("unit_type",)
    assert error.candidates == ()


def test_kinds_in_any_order_or_as_one_string(index: NameIndex) -> None:
    assert index.find("Гравициклы", "wh40k6", "rule") == []
    assert [m.node_id for m in index.find("Гравициклы", "wh40k6", "unit_type")] == [
        "wh40k6:motocikly-i-gravicikly"
    ]
    with pytest.raises(LookupFailed) as failed:
        index.get("Абвгд", "wh40k6", {"concept", "unit_type", "rule"})
    assert failed.value.kinds == ("unit_type", "rule", "concept")
    assert str(failed.value) == "Не найдено название «Абвгд» в системе wh40k6; похожих названий нет"


def test_get_returns_the_node(index: NameIndex) -> None:
    assert index.get("Смертельного Удара", "whfb8").title == "Смертельный удар"


def test_order_does_not_depend_on_node_order(mini_kb: KnowledgeBase) -> None:
    shuffled = list(mini_kb.nodes)
    random.Random(7).shuffle(shuffled)
    other = NameIndex(shuffled)
    index = NameIndex(mini_kb.nodes)
    for name in ("Отступление", "Специальные правила", "Гравицыклы", "гравициклы"):
        assert other.find(name) == index.find(name)
        assert other.suggest(name, None) == index.suggest(name, None)


def test_len(index: NameIndex) -> None:
    assert len(index) == 18
