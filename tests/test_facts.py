"""Facts found in single sentences: kind, name, value, as written, topic and unit type."""

from __future__ import annotations

import pytest

from ingest.facts import find_facts, sentences

TOPICS = [("турбо-ускорение", "турбо-ускорение"), ("отступление", "отступление"),
          ("пикирование", "пикирование"), ("движение", "движение"),
          ("передвигаться", "движение")]
UNITS = {"мотоцикл": "Мотоциклы", "гравицикл": "Гравициклы",
         "эльдарский гравицикл": "Эльдарские гравициклы"}

CASES = [
    ('При турбо-ускорении мотоциклы могут передвигаться максимум на 12", а гравициклы максимум '
     'на 24".',
     [("max_distance", 12, '12"', "турбо-ускорение", "Мотоциклы"),
      ("max_distance", 24, '24"', "турбо-ускорение", "Гравициклы")]),
    ('если эльдарский гравицикл включает турбо-ускорение, он может передвинуться максимум на 36".',
     [("max_distance", 36, '36"', "турбо-ускорение", None)]),
    ('Мотоциклы и гравициклы передвигаются на 3D6" при отступлении, а не на 2D6" как многие.',
     [("dice", "3D6", '3D6"', "отступление", None),
      ("not_dice", "2D6", '2D6"', "отступление", None)]),
    ('Оно должно передвигаться минимум на 12", максимум – на 24".',
     [("min_distance", 12, '12"', "движение", None),
      ("max_distance", 24, '24"', "движение", None)]),
    ("При выпавшем значении 1-2 подразделение задерживается. На 3+ подразделение выходит.",
     [("roll_range", {"min": 1, "max": 2}, "1-2", None, None), ("roll", "3+", "3+", None, None)]),
    ("понесло потери в размере 25% и более, начиная с 2-ого раунда",
     [("threshold", 25, "25%", None, None),
      ("from_round", 2, "начиная с 2-ого раунда", None, None)]),
    ("Вместо этого, начиная с 2-ого раунда, кидайте D6. Со 2-го хода он может стрелять.",
     [("from_round", 2, "начиная с 2-ого раунда", None, None), ("dice", "D6", "D6", None, None),
      ("from_round", 2, "Со 2-го хода", None, None)]),
    ("все дружественные подразделения в 6 дюймах от него, как описано на странице 42.",
     [("within_distance", 6, "6 дюймах", None, None)]),
    ("Монструозные создания могут использовать до двух своих оружий.",
     [("max_count", 2, "до двух своих оружий", None, None)]),
    ("следует на кубике кинуть живую шестёрку, пятерка не считается.",
     [("natural_roll", 6, "живую шестёрку", None, None)]),
    ("Модели самих орудий имеют следующий профиль: WS BS S T W I A Ld Sv – – – 7 2 – – – 3+",
     [("profile", {"T": 7, "W": 2, "Sv": "3+"}, None, None, None)]),
    ("Наносит Д3 ранения, а отступает на 2Д6 дюймов; второй бросок 2d6, не вд6.",
     [("dice", "D3", "Д3", None, None), ("dice", "2D6", "2Д6 дюймов", None, None),
      ("dice", "2D6", "2d6", None, None)]),
    ("Бросьте D6: если выпадает 1, 2 или 3, модель встаёт; при результате 5 или 6 очков нет.",
     [("dice", "D6", "D6", None, None), ("roll_result", 1, "1", None, None),
      ("roll_result", 2, "2", None, None), ("roll_result", 3, "3", None, None)]),
    # a dash spaced between words is no minus ("четвертей – 5"); one set on its number is
    ("С фронта наносит 4 попадания, а с боковых четвертей – 5. Штраф к попаданию -1.",
     [("modifier", -1, "-1", None, None)]),
    ("Модель получает -1 к попаданию и – 1 к Лидерству.",
     [("modifier", -1, "-1", None, None)]),
    # an army's size in points, at most so many; a bonus of ten; a die's pips are no points
    ("Армия набирается на 2000 очков и не может превышать 500 очков на героев; победитель "
     "получает +10 турнирных очков.",
     [("points", 2000, "2000 очков", None, None), ("max_points", 500, "500 очков", None, None),
      ("modifier", 10, "+10", None, None)]),
    ("Бросьте кубик: выпало 6 очков.", [("natural_roll", 6, "выпало 6", None, None)]),
]


@pytest.mark.parametrize(("sentence", "expected"), CASES)
def test_facts(sentence: str, expected: list[tuple[object, ...]]) -> None:
    facts = find_facts(sentence, TOPICS, UNITS)
    got = []
    for f in facts:
        value = f.value["expr"] if isinstance(f.value, dict) and "expr" in f.value else f.value
        text = None if f.kind == "profile" else f.text
        got.append((f.name, value, text, f.topic, f.unit))
    assert got == expected


def test_fact_span_and_evidence() -> None:
    text = "Первое предложение. Звери могут передвигаться максимум на 12\" в фазе движения."
    (fact,) = find_facts(text, TOPICS, UNITS)
    assert text[fact.span[0]:fact.span[1]] == '12"'
    assert fact.sentence == "Звери могут передвигаться максимум на 12\" в фазе движения."
    assert text[fact.sentence_span[0]:fact.sentence_span[1]] == fact.sentence


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        # a word ending in "т" ends its sentence ("могут."); only an abbreviation's period
        # does not ("см. стр. 42", "т. е.")
        ("Ближе 12 дюймов они не могут. Если оба стоят, ход идёт.",
         ["Ближе 12 дюймов они не могут.", "Если оба стоят, ход идёт."]),
        ("Правила (см. стр. 42) действуют, т. е. Модель ходит. Дальше.",
         ["Правила (см. стр. 42) действуют, т. е. Модель ходит.", "Дальше."]),
    ],
)
def test_sentences(text: str, parts: list[str]) -> None:
    assert [text[a:b] for a, b in sentences(text)] == parts
