"""Army lists and rosters in (validator.inputs.lists, .roster): tables over tests/data."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from validator.inputs.lists import read_list, read_lists
from validator.inputs.models import (
    PHASE_SPELLINGS,
    ArmyList,
    InputError,
    ListInputError,
    Part,
    SourcePos,
    normalize_system,
    slug,
)
from validator.inputs.roster import AliasFileError, kb_name, load_aliases, read_roster

DATA = Path(__file__).parent / "data"
LISTS = DATA / "lists"
ROSTERS = DATA / "rosters"


def _cases(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.suffix != ".expected")


def _expected(path: Path) -> str:
    return path.with_name(path.name + ".expected").read_text(encoding="utf-8").rstrip("\n")


# --- valid lists: every system, YAML and JSON -----------------------------------------------


@pytest.mark.parametrize("name", _cases(LISTS / "ok"))
def test_valid_list_reads_to_expected_model(name: str) -> None:
    path = LISTS / "ok" / name
    army = read_list(path)
    dumped = army.model_dump_json(indent=1, exclude={"source", "positions", "locations",
                                                     "notices"})
    assert dumped == _expected(path)
    assert army.source == str(path)


def test_every_system_has_a_yaml_and_a_json_list() -> None:
    names = set(_cases(LISTS / "ok"))
    for system in ("wh40k6", "whfb8", "killteam2018"):
        assert {f"{system}.yaml", f"{system}.json"} <= names
        assert read_list(LISTS / "ok" / f"{system}.json").system == system


def test_positions_point_at_the_written_fields() -> None:
    army = read_list(LISTS / "ok" / "wh40k6.yaml")
    assert army.positions["units[1]"] == SourcePos(line=13, column=5)
    assert army.positions["units[1].type"] == SourcePos(line=14, column=5)
    assert army.positions["units[1].parts[1].role"] == SourcePos(line=19, column=10)
    json_army = read_list(LISTS / "ok" / "wh40k6.json")
    assert json_army.positions["units[0].type"] == SourcePos(line=5, column=37)


def test_unit_ids_default_to_slug_and_stay_unique() -> None:
    army = read_list(LISTS / "ok" / "wh40k6.json")
    assert [u.id for u in army.units] == [
        "shturmovoe-otdelenie", "baikery", "baikery-2", "gromovoe-orudie"]
    assert army.unit("baikery-2") is army.units[2]


@pytest.mark.parametrize(("name", "expected"), [
    ("Гвардейцы на гравициклах", "gvardeicy-na-graviciklah"),
    ("Речные тролли", "rechnye-trolli"),
    ("Ёжик в тумане!", "ezhik-v-tumane"),
    ("Windrider Jetbikes", "windrider-jetbikes"),
    ("!!!", "unit"),
])
def test_slug(name: str, expected: str) -> None:
    assert slug(name) == expected


# --- enums: Russian and English, any case, ё folded -----------------------------------------


@pytest.mark.parametrize(("spelling", "system"), [
    ("wh40k6", "wh40k6"), ("WH40K6", "wh40k6"), ("Warhammer 40000", "wh40k6"),
    ("Warhammer 40,000 6th Edition", "wh40k6"), ("Вархаммер 40000", "wh40k6"),
    ("whfb8", "whfb8"), ("Warhammer Fantasy 8th Edition", "whfb8"),
    ("Вархаммер Фэнтези", "whfb8"), ("Kill Team (2018)", "killteam2018"),
    ("killteam2018", "killteam2018"), ("Килл Тим", "killteam2018"),
])
def test_system_spellings(spelling: str, system: str) -> None:
    assert normalize_system(spelling) == system


@pytest.mark.parametrize(("spelling", "role"), [
    ("gun", "gun"), ("Орудие", "gun"), ("crew", "crew"), ("расчёт", "crew"), ("РАСЧЕТ", "crew"),
    ("наездник", "rider"), ("Rider", "rider"), ("погонщик", "handler"), ("монстр", "monster"),
    ("персонаж", "character"), ("модель", "model"), ("MODEL", "model"),
])
def test_role_spellings(spelling: str, role: str) -> None:
    assert Part.model_validate({"role": spelling}).role == role


@pytest.mark.parametrize(("spelling", "phase"), [
    ("движение", "movement"), ("Movement", "movement"), ("стрельба", "shooting"),
    ("наступление", "assault"), ("начало хода", "start"), ("Магия", "magic"),
    ("ближний бой", "close_combat"), ("Ближний_бой", "close_combat"),
    ("close-combat", "close_combat"), ("инициатива", "initiative"),
    ("психическая", "psychic"), ("бой", "fight"), ("мораль", "morale"), ("FIGHT", "fight"),
])
def test_phase_spellings(spelling: str, phase: str) -> None:
    assert PHASE_SPELLINGS.lookup(spelling) == phase


# --- bad lists: the exact error text --------------------------------------------------------


@pytest.mark.parametrize("name", _cases(LISTS / "bad"))
def test_bad_list_gives_expected_errors(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(LISTS / "bad")
    with pytest.raises(ListInputError) as caught:
        read_list(name)
    assert str(caught.value) == _expected(LISTS / "bad" / name)
    assert all(e.file == name for e in caught.value.errors)


def test_pinned_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(LISTS / "bad")
    with pytest.raises(ListInputError) as caught:
        read_list("wrong_types.yaml")
    assert str(caught.value.errors[1]) == (
        "wrong_types.yaml:9:5: поле units[2].models: ожидалось целое число, получено «шесть»")
    with pytest.raises(ListInputError) as caught:
        read_list("unknown_field.yaml")
    assert str(caught.value.errors[0]) == (
        "unknown_field.yaml:3:1: неизвестное поле «point_limit»; возможно, «points_limit»")
    with pytest.raises(ListInputError) as caught:
        read_list("broken.json")
    assert str(caught.value) == (
        "broken.json:4:39: ошибка синтаксиса JSON: ожидалось имя поля в двойных кавычках")


def test_errors_are_data(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(LISTS / "bad")
    with pytest.raises(ListInputError) as caught:
        read_list("wrong_types.yaml")
    models = caught.value.errors[1]
    assert (models.file, models.line, models.column) == ("wrong_types.yaml", 9, 5)
    assert models.path == ("units", 2, "models")
    assert models.field == "units[2].models"
    assert (models.kind, models.expected) == ("type", "целое число")
    with pytest.raises(ListInputError) as caught:
        read_list("unknown_field.yaml")
    unknown = caught.value.errors[-1]
    assert unknown.path == ("units", 0, "parts", 0)  # the object holding it, as jsonschema does
    assert unknown.kind == "unknown_field"
    assert unknown.expected == "role, count, name, rules, profile"


def test_input_error_descend_and_at() -> None:
    leaf = InputError(message="ожидалось целое число, получено «x»", path=("models",))
    placed = leaf.descend("units", 2).at("army.yaml", 7, 5)
    assert str(placed) == "army.yaml:7:5: поле units[2].models: ожидалось целое число, получено «x»"
    assert placed.at("other.yaml", 1, 1) == placed  # a known location is kept


def test_fifty_megabyte_file_is_refused_before_reading(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    big = tmp_path / "big.yaml"
    with big.open("wb") as stream:
        stream.write(b"system: wh40k6\nunits: []\n")
        stream.truncate(50 * 1024 * 1024)  # sparse: 50 MB on paper

    def no_reading(self: Path, *args: object, **kwargs: object) -> None:
        raise AssertionError(f"{self} was opened")

    monkeypatch.setattr(Path, "open", no_reading)
    with pytest.raises(ListInputError) as caught:
        read_list(big)
    assert str(caught.value) == f"{big}: файл слишком велик: 50,0 МБ, предел 10,0 МБ"
    assert caught.value.errors[0].kind == "too_large"


def test_size_limit_is_configurable() -> None:
    with pytest.raises(ListInputError) as caught:
        read_list(LISTS / "ok" / "wh40k6.yaml", max_bytes=100)
    assert caught.value.errors[0].message.startswith("файл слишком велик: ")
    assert caught.value.errors[0].message.endswith(", предел 100 байт")


def test_missing_file() -> None:
    with pytest.raises(ListInputError) as caught:
        read_list(LISTS / "nowhere.yaml")
    assert caught.value.errors[0].message == "файл не найден"


# --- batches --------------------------------------------------------------------------------


ENCODINGS = LISTS / "encodings"


@pytest.mark.parametrize(("name", "army", "first_unit"), [
    ("cp1251.yaml", "Армия", None),
    ("cp1251_units.yaml", "Речные тролли «полк» — № 1", ("Тролли", "Пехота Чудовищ",
                                                         ("Регенерация (5+)",))),
    ("utf8_bom.yaml", "Тролли", ("Trolls", "Monstrous Infantry", ())),
    # an old Unix editor's KOI8-R, a DOS one's CP866
    ("koi8r_units.yaml", "Речные тролли, полк 1", ("Тролли", "Пехота Чудовищ",
                                                   ("Регенерация (5+)",))),
    ("cp866_units.yaml", "Речные тролли, полк 1", ("Тролли", "Пехота Чудовищ",
                                                   ("Регенерация (5+)",))),
    ("utf16_units.yaml", "Речные тролли «полк» — № 1", ("Тролли", "Пехота Чудовищ",
                                                        ("Регенерация (5+)",))),
])
def test_list_encodings_like_the_corpus(name: str, army: str,
                                        first_unit: tuple[object, ...] | None) -> None:
    """A list saved in cp1251, KOI8-R, CP866, UTF-8 with a BOM or UTF-16 with its mark
    (Notepad's "Unicode") reads like a UTF-8 one (as rule texts do)."""
    read = read_list(ENCODINGS / name)
    assert read.name == army
    if first_unit is not None:
        unit = read.units[0]
        assert (unit.name, unit.type, unit.rules) == first_unit


def test_batch_goes_on_past_bad_files() -> None:
    results = read_lists([LISTS / "bad", LISTS / "ok" / "whfb8.yaml", LISTS / "missing.json"])
    bad = sorted(p for p in (LISTS / "bad").iterdir()
                 if p.suffix in (".yaml", ".yml", ".json"))
    assert len(results) == len(bad) + 2
    assert all(isinstance(r, ListInputError) for r in results[: len(bad)])
    assert [getattr(r, "file", None) for r in results[: len(bad)]] == [str(p) for p in bad]
    assert isinstance(results[-2], ArmyList) and results[-2].system == "whfb8"
    assert isinstance(results[-1], ListInputError)


def test_batch_over_a_folder_of_rosters_survives_the_bomb() -> None:
    results = read_lists([ROSTERS])
    by_file = {Path(str(r.source if isinstance(r, ArmyList) else r.file)).name: r
               for r in results}
    assert isinstance(by_file["ulthwe.ros"], ArmyList)
    assert isinstance(by_file["entity_bomb.ros"], ListInputError)


def test_a_roster_nested_thousands_deep_is_refused(tmp_path: Path) -> None:
    """Selections inside selections thousands deep (no list builder writes them): a
    ListInputError saying so, not Python's RecursionError."""
    deep = 5_000
    (tmp_path / "deep.ros").write_text(
        '<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="r" '
        'gameSystemName="Warhammer 40,000 7th Edition"><forces><force name="f" '
        'catalogueName="Orks">' + '<selections><selection name="x" type="unit">' * deep
        + "</selection></selections>" * deep + "</force></forces></roster>", encoding="utf-8")
    with pytest.raises(ListInputError) as caught:
        read_roster(tmp_path / "deep.ros")
    assert "вложены друг в друга на тысячи уровней" in caught.value.errors[0].message


def test_folder_without_lists(tmp_path: Path) -> None:
    (tmp_path / "readme.txt").write_text("нет списков", encoding="utf-8")
    [result] = read_lists([tmp_path])
    assert isinstance(result, ListInputError)
    assert result.errors[0].message.startswith("в папке нет списков армий")


# --- BattleScribe rosters -------------------------------------------------------------------

ULTHWE_UNITS = [
    # id, type, models, points, rules
    # the Warlock's own rule is its part's, not the whole unit's
    ("windrider-jetbikes", "Eldar Jetbike", 6, 130, ("Jink", "Hammer of Wrath")),
    ("autarch", "Infantry (Character)", 1, 70, ("Independent Character", "Fleet")),
    ("guardian-defenders", None, 10, 90, ()),
    ("wave-serpent", None, 1, 115, ("Deep Strike",)),  # nested unit: a unit of its own
    ("reaver-jetbikes", "Jetbike", 3, 66, ()),  # type from a category the alias table knows
]


def _units(army: ArmyList) -> list[tuple[object, ...]]:
    return [(u.id, u.type, u.models, u.points, u.rules) for u in army.units]


def test_roster_maps_to_army_list() -> None:
    army = read_roster(ROSTERS / "ulthwe.ros")
    assert (army.system, army.name, army.points_limit) == ("wh40k6", "Ulthwe 1500", 1500)
    assert _units(army) == ULTHWE_UNITS
    jetbikes = army.units[0]
    assert jetbikes.profile == {"WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 4, "A": 1,
                                "Ld": 8, "Sv": "3+"}
    assert [(p.role, p.count, p.name, p.rules) for p in jetbikes.parts] == [
        ("model", 5, "Windrider", ()), ("model", 1, "Warlock", ("Psyker (Mastery Level 1)",))]


def test_rosz_is_read_like_the_ros(tmp_path: Path) -> None:
    rosz = tmp_path / "ulthwe.rosz"
    with zipfile.ZipFile(rosz, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(ROSTERS / "ulthwe.ros", "ulthwe.ros")
    army = read_list(rosz)
    assert _units(army) == ULTHWE_UNITS
    assert army.source == str(rosz)


def test_rosz_must_hold_one_roster(tmp_path: Path) -> None:
    rosz = tmp_path / "two.rosz"
    with zipfile.ZipFile(rosz, "w") as archive:
        archive.writestr("a.ros", "<roster/>")
        archive.writestr("b.ros", "<roster/>")
    with pytest.raises(ListInputError) as caught:
        read_list(rosz)
    assert caught.value.errors[0].message == (
        "в архиве .rosz должен быть ровно один файл .ros, найдено 2")
    fake = tmp_path / "fake.rosz"
    fake.write_bytes(b"not a zip at all")
    with pytest.raises(ListInputError) as caught:
        read_list(fake)
    assert caught.value.errors[0].message == "это не zip-архив .rosz"


def test_a_damaged_rosz_says_what_is_wrong(tmp_path: Path) -> None:
    """A .rosz whose compressed roster is overwritten is refused saying, in words, what is
    wrong with the archive (``kb.damage``, as the readers of rule texts say it)."""
    rosz = tmp_path / "ulthwe.rosz"
    with zipfile.ZipFile(rosz, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(ROSTERS / "ulthwe.ros", "ulthwe.ros")
    data = bytearray(rosz.read_bytes())
    start = data.index(b"ulthwe.ros") + len(b"ulthwe.ros") + 20  # inside the compressed data
    data[start:start + 40] = b"\xff" * 40
    rosz.write_bytes(bytes(data))
    with pytest.raises(ListInputError) as caught:
        read_list(rosz)
    assert caught.value.errors[0].message in (
        "сжатые данные испорчены: файл .rosz не читается",
        "не сходится контрольная сумма сжатых данных: файл .rosz не читается")


def test_older_roster_and_parameters() -> None:
    army = read_roster(ROSTERS / "trolls_bs1.ros")
    assert (army.system, army.points_limit) == ("whfb8", 2400)
    assert _units(army) == [
        ("river-trolls", "Monstrous Infantry", 3, 210, ("Regeneration (5+)", "Fear", "Stupidity")),
        ("orc-shaman", "Infantry", 1, 106, ("Magic Resistance (2)", "Loremaster")),
    ]
    assert army.units[0].profile == {"M": 6, "WS": 3, "T": 4, "W": 3}


def test_kill_team_roster_keeps_keywords_and_no_type() -> None:
    army = read_roster(ROSTERS / "killteam.ros")
    assert army.system == "killteam2018"
    assert [(u.id, u.type, u.keywords, u.points) for u in army.units] == [
        ("scout-sergeant", None, ("Infantry", "Scout", "Leader"), 12),
        ("librarian", None, ("Psyker",), 40),
    ]
    assert army.units[0].profile == {"M": '6"', "WS": "3+", "W": 1}


@pytest.mark.parametrize(("name", "message"), [
    ("entity_bomb.ros", "небезопасный XML: объявлена сущность «lol»; сущности запрещены "
                        "(так строятся «бомбы сущностей»)"),
    ("external_entity.ros", "небезопасный XML: сущность «secret» ссылается на внешний ресурс "
                            "«file:///etc/passwd»; это запрещено"),
    ("broken.ros", "ошибка синтаксиса XML: закрывающий тег не совпадает с открывающим"),
    ("unknown_system.ros", "ростер системы «Warhammer 40,000 9th Edition»: эта игра или редакция "
                           "корпусом правил не покрыта; поддерживаются ростеры систем «Warhammer "
                           "40,000 6th Edition», «Warhammer 40,000 7th Edition», «Warhammer "
                           "Fantasy 8th ed», «Warhammer 40,000: Kill Team (2018)»"),
])
def test_bad_roster(name: str, message: str) -> None:
    with pytest.raises(ListInputError) as caught:  # a bomb is refused, not expanded
        read_list(ROSTERS / name)
    assert [e.message for e in caught.value.errors] == [message]


def test_broken_roster_has_line_and_column() -> None:
    with pytest.raises(ListInputError) as caught:
        read_roster(ROSTERS / "broken.ros")
    error = caught.value.errors[0]
    assert (error.line, error.column, error.kind) == (5, 5, "syntax")


# --- aliases --------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "system", "russian"), [
    ("Jetbike", "wh40k6", "Гравициклы"),
    ("eldar jetbike", "wh40k6", "Эльдарские (и тёмноэльдарские) гравициклы"),
    ("Hammer of Wrath", "wh40k6", "Молот ярости"),
    ("Regeneration (5+)", "whfb8", "Регенерация (5+)"),
    ("Magic Resistance (2)", "whfb8", "Сопротивление магии (2)"),
    ("Monstrous Infantry", "whfb8", "Пехота Чудовищ"),
    ("Fly", "killteam2018", "FLY"),
    ("Stupidity", "whfb8", None),
    ("Regeneration", "wh40k6", None),
])
def test_kb_name(name: str, system: str, russian: str | None) -> None:
    assert kb_name(name, system, load_aliases()) == russian


def test_user_aliases_merge_over_builtin(tmp_path: Path) -> None:
    extra = tmp_path / "my.toml"
    extra.write_text('[whfb8]\n"Stupidity" = "Глупость"\n"Fear" = "Страх"\n'
                     '["Warhammer 40,000"]\n"Jetbike" = "Реактивные мотоциклы"\n',
                     encoding="utf-8")
    aliases = load_aliases(extra)
    assert kb_name("Stupidity", "whfb8", aliases) == "Глупость"
    assert kb_name("Jetbike", "wh40k6", aliases) == "Реактивные мотоциклы"
    assert kb_name("Bike", "wh40k6", aliases) == "Мотоциклы"
    assert kb_name("Jetbike", "wh40k6", load_aliases()) == "Гравициклы"  # builtin untouched


def test_bad_alias_file(tmp_path: Path) -> None:
    extra = tmp_path / "bad.toml"
    extra.write_text('[wh40k9]\n"Jetbike" = "Гравициклы"\n', encoding="utf-8")
    with pytest.raises(AliasFileError) as caught:
        load_aliases(extra)
    assert str(caught.value) == (
        f"{extra}: неизвестная система «wh40k9»; известны: wh40k6, whfb8, killteam2018 (и таблица "
        "[game_systems])")
