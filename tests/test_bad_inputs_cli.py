"""The bad-input matrix through the command line: each input, the one line it gives on stderr
and the exit code.

Every row is a file a user could hand to ``check-list`` or ``audit`` alone, so nothing of the
run is usable: exit 2 (a log whose header reads but some lines do not is audited: exit 1).
The stderr lines are exact: where (file, line, column) and what is wrong, in Russian.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekb.cli import cli

DATA = Path(__file__).parent / "data"
MINI_KB = DATA / "kb" / "mini_kb.json"  # wh40k6 and whfb8
ULTHWE = (DATA / "rosters" / "ulthwe.ros").read_bytes()
HEADER = ('{"type": "game", "system": "whfb8", "armies": {"A": {"system": "whfb8", "units": '
          '[{"id": "trolls", "name": "Речные тролли", "type": "Пехота Чудовищ", "models": 3}]}, '
          '"B": {"system": "whfb8", "units": [{"id": "sw", "name": "Мечники", "type": "Пехота", '
          '"models": 20}]}}}\n').encode()
MOVE = (b'{"turn": 1, "phase": "movement", "player": "A", "unit": "trolls", "action": "move", '
        b'"distance": 6}\n')

LISTS: list[tuple[str, bytes, str]] = [
    ("empty.yaml", b"", "empty.yaml: файл пуст"),
    ("binary.yaml", b"\x00\x01\x02\xff\xfe",
     "binary.yaml:1:1: двоичный файл, а не текст (байт 0x00); ожидался текст в кодировке "
     "UTF-8 (с BOM или без), cp1251, KOI8-R, CP866 или UTF-16/UTF-32 с BOM"),
    ("utf16.yaml", ("\ufeffsystem: whfb8\nname: Мечн\x00ики\n").encode("utf-16-le"),
     "utf16.yaml:2:11: двоичный файл, а не текст (символ U+0000); ожидался текст в кодировке "
     "UTF-8 (с BOM или без), cp1251, KOI8-R, CP866 или UTF-16/UTF-32 с BOM"),
    ("cut16.yaml", "\ufeffsystem: whfb8\nname: Меч".encode("utf-16-be") + b"\xdc\x00",
     "cut16.yaml:2:10: файл начинается с метки UTF-16 (BOM), но байт 48 не UTF-16"),
    ("latin1.yaml", "system: whfb8\nname: Caf\xe9\nunits: []\n".encode("latin-1"),
     "latin1.yaml:2:10: файл не в кодировке UTF-8 (байт 0xe9) и не русский текст в cp1251, "
     "KOI8-R или CP866; ожидался текст в кодировке UTF-8 (с BOM или без), cp1251, KOI8-R, "
     "CP866 или UTF-16/UTF-32 с BOM"),
    ("tag.yaml", b"system: whfb8\nunits: !!python/object:os.system {}\n",
     "tag.yaml:2:8: ошибка синтаксиса YAML: тег «!!python/object:os.system» не поддерживается: "
     "в списке допустимы только обычные значения YAML (строки, числа, списки, словари)"),
    ("tab.yaml", b"system: whfb8\n\tunits: []\n",
     "tab.yaml:2:1: ошибка синтаксиса YAML: табуляция в отступе (отступы — только пробелами)"),
    ("control.yaml", b"system: whfb8\nname: a\x01b\nunits: []\n",
     "control.yaml:2:8: ошибка синтаксиса YAML: недопустимый символ U+0001 (управляющие символы "
     "в YAML запрещены)"),
    ("month13.yaml", b"system: whfb8\nname: 2001-13-45\nunits: []\n",
     "month13.yaml:2:7: ошибка синтаксиса YAML: значение «2001-13-45» не читается как дата"),
    ("badint.yaml", b"system: whfb8\npoints_limit: !!int abc\nunits: []\n",
     "badint.yaml:2:15: ошибка синтаксиса YAML: значение «abc» не читается как целое число"),
    ("hugeint.yaml", b"system: whfb8\npoints_limit: " + b"9" * 5000 + b"\nunits: []\n",
     "hugeint.yaml:2:15: ошибка синтаксиса YAML: слишком длинное число (больше 4300 цифр)"),
    ("hugeint.json", b'{"system": "whfb8", "points_limit": ' + b"9" * 5000 + b', "units": []}',
     "hugeint.json:1:37: слишком длинное число (больше 4300 цифр)"),
    ("inf.json", b'{"system": "whfb8", "points_limit": 1e999, "units": []}',
     "inf.json:1:21: поле points_limit: ожидалось конечное число, получено «inf»"),
    ("nan.yaml", b"system: whfb8\npoints_limit: .nan\nunits: []\n",
     "nan.yaml:2:1: поле points_limit: ожидалось конечное число, получено «nan»"),
    ("deep.json", b'{"system": "whfb8",\n "units": ' + b"[" * 100000 + b"]" * 100000 + b"}",
     "deep.json:2:100010: слишком глубокая вложенность"),
    ("deep.yaml", b"system: whfb8\nunits: " + b"[" * 100000 + b"]" * 100000 + b"\n",
     "deep.yaml:2:1007: ошибка синтаксиса YAML: слишком глубокая вложенность"),
    ("cut.json", b'{"system": "whfb8", "units": [{"id": "a',
     "cut.json:1:38: ошибка синтаксиса JSON: незакрытая строка"),
    ("cut.yaml", 'system: whfb8\nunits:\n  - {id: a, name: "Тро'.encode(),
     "cut.yaml:3:23: ошибка синтаксиса YAML: файл оборвался посреди значения"),
    ("anchor.yaml", b"system: whfb8\nx: &a 1\ny: &a 2\nunits: []\n",
     "anchor.yaml:3:4: ошибка синтаксиса YAML: якорь объявлен дважды"),
    ("newline_key.json", b'{"system": "whfb8", "units": [], "\\n": 1}',
     "newline_key.json:1:34: неизвестное поле «\\n»"),
    ("kt.yaml", "system: killteam2018\nunits:\n  - {id: a, name: Сержант, type: Лидер, models: 1}\n"
     .encode(), "kt.yaml:1:1: в базе знаний нет правил системы «killteam2018»; в ней есть: "
     "wh40k6, whfb8"),
    ("list.txt", b"system: whfb8\n", "list.txt: неизвестный формат файла «.txt»; ожидались .yaml, "
     ".yml, .json, .ros, .rosz"),
    ("cut.ros", ULTHWE[:300], "cut.ros:4:5: ошибка синтаксиса XML: незакрытый тег или строка"),
    ("notzip.rosz", b"PK\x03\x04garbage", "notzip.rosz: это не zip-архив .rosz"),
    ("missing.yaml", b"", "missing.yaml: файл не найден"),
]

LOGS: list[tuple[str, bytes, int, list[str]]] = [
    ("empty.jsonl", b"", 2, ["empty.jsonl: файл пуст: нет заголовка партии"]),
    ("binary.jsonl", b"\x00\x01\xff\n", 2,
     ["binary.jsonl:1:3: строка не в кодировке UTF-8 (байт 0xff)"]),
    ("utf16.jsonl", ("\ufeff" + HEADER.decode() + MOVE.decode()).encode("utf-16-le"), 2,
     ["utf16.jsonl:1:1: файл в кодировке UTF-16 (метка BOM в начале); журнал партии читается "
      "в UTF-8: сохраните его в UTF-8"]),
    ("no_header.jsonl", MOVE, 2, ['no_header.jsonl:1:1: нет заголовка партии: первая строка — '
                                  'событие «move»; ожидалось {"type": "game", "system": …, '
                                  '"armies": {…}}']),
    ("cut_header.jsonl", HEADER[:60], 2,
     ["cut_header.jsonl:1:54: заголовок партии: ошибка синтаксиса JSON: незакрытая строка"]),
    ("kt.jsonl", b'{"type": "game", "system": "killteam2018", "armies": {}}\n', 2,
     ["kt.jsonl:1: в базе знаний нет правил системы «killteam2018»; в ней есть: wh40k6, whfb8"]),
    ("lines.jsonl", HEADER + b"\xff\xfe\n" + b"[" * 5000 + b"]" * 5000 + b"\n"
     + MOVE.replace(b"6}", b"9" * 5000 + b"}") + b'{"turn": 1}\n' + b'"just a string"\n'
     + MOVE[:40] + b"\n", 1, [
         "lines.jsonl:2:1: строка не в кодировке UTF-8 (байт 0xff)",
         "lines.jsonl:3: слишком глубокая вложенность",
         "lines.jsonl:4: слишком длинное число (больше 4300 цифр)",
         "lines.jsonl:5:1: нет обязательного поля «action»",
         "lines.jsonl:6:1: ожидался объект JSON с полем «action», получено «just a string»",
         "lines.jsonl:7:34: ошибка синтаксиса JSON: незакрытая строка"]),
]


ALIASES: list[tuple[bytes, str]] = [
    (b"x = \n", "my.toml:1:5: ошибка синтаксиса TOML: неверное значение (строку берите в кавычки)"),
    (b"[a\n", "my.toml:1:3: ошибка синтаксиса TOML: ожидалась «]» в конце имени таблицы"),
    (b"\xff", "my.toml: файл псевдонимов не в кодировке UTF-8 (байт 0xff)"),
    (b'[whfb8]\n"a" = 5\n', 'my.toml:2: [whfb8] «a»: ожидалось русское название в кавычках, '
     'а не число; ожидались строки вида "English name" = "Русское название"'),
    ('[whfb8]\nFear = "Страх"\nTerror = true\n'.encode(), 'my.toml:3: [whfb8] «Terror»: '
     'ожидалось русское название в кавычках, а не true или false; ожидались строки вида '
     '"English name" = "Русское название"'),
    ('[whfb8]\nFear.x = "Страх"\n'.encode(), 'my.toml:2: [whfb8] «Fear»: ожидалось русское '
     'название в кавычках, а не таблица; ожидались строки вида "English name" = '
     '"Русское название"'),
    ('[whfb8]\n"a" = [1]\n[wh40k6]\n"a" = "б"\n'.encode(), 'my.toml: [whfb8] «a»: ожидалось '
     'русское название в кавычках, а не список; ожидались строки вида "English name" = '
     '"Русское название"'),
    (b'whfb8 = 5\n', 'my.toml: [whfb8]: ожидались строки вида "English name" = '
     '"Русское название"'),
    ('[wh40k7]\n"a" = "б"\n'.encode(), "my.toml: неизвестная система «wh40k7»; известны: wh40k6, "
     "whfb8, killteam2018 (и таблица [game_systems])"),
]


def _run(args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, [*args, "--kb", str(MINI_KB)])
    assert "Traceback" not in result.output
    return result.exit_code, result.stderr


@pytest.mark.parametrize(("name", "content", "line"), LISTS, ids=[row[0] for row in LISTS])
def test_a_bad_list(name: str, content: bytes, line: str, tmp_path: Path,
                    monkeypatch: pytest.MonkeyPatch) -> None:
    if name != "missing.yaml":
        (tmp_path / name).write_bytes(content)
    assert _run(["check-list", name], tmp_path, monkeypatch) == (2, f"Ошибка: {line}\n")


@pytest.mark.parametrize(("name", "content", "code", "lines"), LOGS, ids=[row[0] for row in LOGS])
def test_a_bad_log(name: str, content: bytes, code: int, lines: list[str], tmp_path: Path,
                   monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / name).write_bytes(content)
    assert _run(["audit", name], tmp_path, monkeypatch) == (
        code, "".join(f"Ошибка: {line}\n" for line in lines))


@pytest.mark.parametrize(("content", "line"), ALIASES, ids=[row[1][:24] for row in ALIASES])
def test_a_bad_alias_table(content: bytes, line: str, tmp_path: Path,
                           monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "my.toml").write_bytes(content)
    (tmp_path / "list.yaml").write_text("system: whfb8\nunits: []\n", encoding="utf-8")
    assert _run(["check-list", "list.yaml", "--aliases", "my.toml"], tmp_path, monkeypatch) == (
        2, f"Ошибка: {line}\n")
