"""Inputs that fuzzing ``check-list`` and ``audit`` found ending in a traceback, a memory
blow-up, an hour's work, or a message that did not say where or in Russian.

Each row is a small fixture and what the command line must give for it: the exit code and
the exact stderr lines (file, line, column, field; what was expected), never a traceback.
The classes: a JSON ``\\ud800`` escape (half a surrogate pair: the report could not be
written), its YAML twin (said in PyYAML's English), mapping keys that are no strings
(«недопустимое значение» at 1:1), a value of a megabyte quoted whole in its error, a float
too big for an integer, an XML declaration naming an unknown encoding (``LookupError``),
attribute defaults in a roster's document type (copied into every element: gigabytes from a
file of a megabyte), a characteristic of thousands of digits (``ValueError``), a roster's
unit refused without saying which selection, a log joined from files saved with a byte
order mark, file names that are not UTF-8, a name the OS refuses to look up (the whole
batch stopped), a list of many units of one name (ids found in quadratic time), a list over
1 MB (read in two passes) with a long number or a lone surrogate, YAML nested by
indentation past the recursion limit (no line), and alias tables (``--aliases``) with a
long number, deep nesting, a long key or a byte order mark.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb import store
from kb.graph import Graph
from rulekb.cli import cli
from validator.armylist.context import report_ids
from validator.inputs.models import ArmyList

DATA = Path(__file__).parent / "data"
SURROGATE = ("ошибка синтаксиса JSON: недопустимая escape-последовательность «\\ud800»: "
             "половина суррогатной пары UTF-16 без второй половины")

INPUTS: list[tuple[str, list[str], int, list[str]]] = [
    ("json-lone-surrogate", ["check-list", "lists/bad/lone_surrogate.json"], 2,
     [f"lists/bad/lone_surrogate.json:1:35: {SURROGATE}"]),
    ("yaml-lone-surrogate", ["check-list", "lists/bad/surrogate_escape.yaml"], 2,
     ["lists/bad/surrogate_escape.yaml:2:15: ошибка синтаксиса YAML: недопустимый код символа "
      "в escape-последовательности (половина суррогатной пары UTF-16 или код больше "
      "U+10FFFF)"]),
    ("keys-not-strings", ["check-list", "lists/bad/non_string_keys.yaml"], 2,
     ["lists/bad/non_string_keys.yaml:3:1: имя поля должно быть строкой, получено «1»",
      "lists/bad/non_string_keys.yaml:7:5: поле units[0]: имя поля должно быть строкой, "
      "получено «2020-01-01»",
      "lists/bad/non_string_keys.yaml:8:21: поле units[0].profile: имя поля должно быть "
      "строкой, получено «7»"]),
    ("long-value-quoted-short", ["check-list", "lists/bad/long_value.yaml"], 2,
     ["lists/bad/long_value.yaml:1:1: поле system: неизвестная система «Warhammer Fantasy "
      "Battle, 8-я редакция, 8-я редакция, 8-я р…» (известны: wh40k6, whfb8, killteam2018)"]),
    ("float-too-big-for-an-integer", ["check-list", "lists/bad/huge_float.json"], 2,
     ["lists/bad/huge_float.json:1:68: поле units[0].models: ожидалось целое число, получено "
      "«1e+300»"]),
    ("unknown-xml-encoding", ["check-list", "rosters/unknown_encoding.ros"], 2,
     ["rosters/unknown_encoding.ros:1:1: ошибка синтаксиса XML: кодировка «UTX-8» из "
      "объявления <?xml …?> не читается; ожидалась UTF-8 (так сохраняет BattleScribe) или "
      "UTF-16"]),
    ("xml-attribute-defaults", ["check-list", "rosters/attribute_default.ros"], 2,
     ["rosters/attribute_default.ros:3:40: небезопасный XML: объявлено значение по умолчанию "
      "атрибута «customName» элемента «selection»; такие объявления запрещены (так строятся "
      "«бомбы» из копий одного значения)"]),
    ("roster-unit-refused", ["check-list", "rosters/negative_cost.ros"], 2,
     ["rosters/negative_cost.ros: поле units[0].points: ожидалось число не меньше 0, получено "
      "«-12» (в ростере: Kill Team List › Scout Sergeant)"]),
    ("characteristic-of-5000-digits", ["check-list", "rosters/long_characteristic.ros"], 0, []),
    ("games-joined-with-byte-order-marks", ["audit", "games/joined/bom_headers.jsonl"], 0, []),
    ("event-lone-surrogate", ["audit", "games/joined/lone_surrogate.jsonl"], 1,
     [f"games/joined/lone_surrogate.jsonl:2:60: {SURROGATE}"]),
]


@pytest.fixture(scope="module")
def kb_file(tmp_path_factory: pytest.TempPathFactory, corpus_graph: Graph) -> Path:
    path = tmp_path_factory.mktemp("kb") / "kb.json"
    store.save(corpus_graph.kb, path)
    return path


@pytest.mark.parametrize(("args", "code", "lines"), [case[1:] for case in INPUTS],
                         ids=[case[0] for case in INPUTS])
def test_a_fuzzed_input(args: list[str], code: int, lines: list[str], kb_file: Path,
                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(DATA)
    for fmt in ("text", "json"):
        result = CliRunner().invoke(cli, [*args, "--kb", str(kb_file), "--format", fmt])
        assert "Traceback" not in result.output
        assert (result.exit_code, result.stderr) == (
            code, "".join(f"Ошибка: {line}\n" for line in lines))


def test_the_joined_games_are_both_audited(kb_file: Path) -> None:
    result = CliRunner().invoke(cli, ["audit", str(DATA / "games" / "joined" / "bom_headers.jsonl"),
                                      "--kb", str(kb_file)])
    assert result.stdout.count("Строка 2 · A:jb · turbo_boost") == 1
    assert result.stdout.count("Строка 4 · A:jb · turbo_boost") == 1


GOOD_LIST = ("system: whfb8\nunits:\n  - {id: trolls, name: Речные тролли, type: Пехота Чудовищ, "
             "models: 3, rules: [Регенерация (5+)]}\n")


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
def test_file_names_that_are_not_utf8(fmt: str, kb_file: Path, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A list and a log whose names hold a byte that is not UTF-8 (an archive unpacked with
    another code page's names): reported, the byte shown as ``\\xff``; the report could not
    be written before."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / os.fsdecode(b"\xff.yaml")).write_text(GOOD_LIST, encoding="utf-8")
    (tmp_path / os.fsdecode(b"\xfe.yaml")).write_text("system: whfb8\nunits: 5\n",
                                                     encoding="utf-8")
    result = CliRunner().invoke(cli, ["check-list", ".", "--kb", str(kb_file), "--format", fmt,
                                      "-o", "report"])
    assert "Traceback" not in result.output
    assert (result.exit_code, result.stderr) == (
        1, "Ошибка: \\xfe.yaml:2:1: поле units: ожидался список, получено «5»\n")
    report = (tmp_path / "report").read_text(encoding="utf-8")
    assert "\\xff.yaml" in report and "\\xfe.yaml" in report


def test_a_log_file_name_that_is_not_utf8(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          kb_file: Path) -> None:
    monkeypatch.chdir(tmp_path)
    log = (DATA / "games" / "joined" / "bom_headers.jsonl").read_bytes()
    (tmp_path / os.fsdecode(b"\xff.jsonl")).write_bytes(log)
    result = CliRunner().invoke(cli, ["audit", ".", "--kb", str(kb_file), "--format", "json",
                                      "-o", "report"])
    assert result.exit_code == 0, result.output
    assert '"input": "\\\\xff.jsonl"' in (tmp_path / "report").read_text(encoding="utf-8")


def test_many_units_of_one_name_get_their_ids_in_linear_time() -> None:
    """100,000 units named alike: «trolli», «trolli-2» … once took a set lookup per number
    tried, 5·10⁹ in all (a list of that size timed out); now each name remembers where it
    stopped."""
    count = 100_000
    started = time.perf_counter()
    army = ArmyList.model_validate({"system": "whfb8",
                                    "units": [{"name": "Тролли"}] * count})
    ids, first = report_ids(["trolli"] * count)
    elapsed = time.perf_counter() - started
    assert army.units[-1].id == f"trolli-{count}" and ids[-1] == f"trolli-{count}"
    assert len(set(u.id for u in army.units)) == count and first[count - 1] == 0
    assert elapsed < 10, elapsed


def test_block_nesting_too_deep_is_placed(kb_file: Path, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """YAML nested by indentation past Python's recursion (a big list, read in two passes):
    the error stood without a line; it names the line indented deepest."""
    monkeypatch.chdir(tmp_path)
    deep = 2_000
    (tmp_path / "deep.yaml").write_text(
        "system: whfb8\nunits:\n" + "".join(" " * i + "- \n" for i in range(deep)),
        encoding="utf-8")
    result = CliRunner().invoke(cli, ["check-list", "deep.yaml", "--kb", str(kb_file)])
    assert (result.exit_code, result.stderr) == (
        2, f"Ошибка: deep.yaml:{deep + 2}:{deep}: слишком глубокая вложенность\n")


@pytest.mark.parametrize(("command", "good", "suffix"), [
    ("check-list", DATA / "lists" / "ok" / "whfb8.yaml", ".yaml"),
    ("audit", DATA / "games" / "joined" / "bom_headers.jsonl", ".jsonl"),
])
def test_a_name_the_os_refuses(command: str, good: Path, suffix: str, kb_file: Path,
                               tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A path the OS will not even look up (a name longer than a file name may be) stopped
    the whole batch with «Ошибка ввода-вывода», exit 2: it is the one input that could not
    be read, in its place, and the good one beside it is still checked (exit 1)."""
    monkeypatch.chdir(tmp_path)
    name = "a" * 300 + suffix
    result = CliRunner().invoke(cli, [command, str(good), name, "--kb", str(kb_file)])
    assert "Traceback" not in result.output
    assert (result.exit_code, result.stderr) == (
        1, f"Ошибка: {name}: не удалось прочитать файл (слишком длинное имя файла)\n")
    assert good.name in result.stdout


@pytest.mark.parametrize(("value", "column", "message"), [
    ('"\\ud800"', 54, SURROGATE),
    ("9" * 5000, 53, "слишком длинное число (больше 4300 цифр)"),
])
def test_a_big_json_list_read_in_two_passes(value: str, column: int, message: str,
                                            kb_file: Path,
                                            tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Over 1 MB a list is streamed (:mod:`validator.inputs.source`), whose JSON reader
    let a number of 5,000 digits through as a ``ValueError`` and a lone surrogate into the
    report; both are the small list's errors now, at the same place."""
    monkeypatch.chdir(tmp_path)
    units = [f'{{"name": "Тролли {i}", "type": "Пехота"}}' for i in range(40_000)]
    units[30_000] = f'{{"name": "Тролли", "type": "Пехота", "custom_name": {value}}}'
    (tmp_path / "big.json").write_text('{"system": "whfb8", "units": [\n' + ",\n".join(units)
                                       + "]}", encoding="utf-8")
    result = CliRunner().invoke(cli, ["check-list", "big.json", "--kb", str(kb_file)])
    assert (result.exit_code, result.stderr) == (
        2, f"Ошибка: big.json:30002:{column}: {message}\n")


ALIASES: list[tuple[str, bytes, int, str]] = [
    ("number-of-5000-digits", b'[whfb8]\n"Regeneration" = ' + b"9" * 5000 + b"\n", 2,
     "my.toml:2: ошибка синтаксиса TOML: слишком длинное число (больше 4300 цифр)"),
    ("nested-deep", b'[whfb8]\n"Regeneration" = ' + b"[" * 100_000 + b"]" * 100_000 + b"\n",
     2, "my.toml:2: ошибка синтаксиса TOML: слишком глубокая вложенность"),
    ("long-field-quoted-short", b'[game_systems."X"]\nsystem = "wh40k6"\n"' + b"K" * 1000
     + b'" = 1\n', 2, 'my.toml: [game_systems."X"]: неизвестное поле «' + "K" * 59 + "…»; "
     "известны: system, ids, note, covered"),
    ("byte-order-mark", b'\xef\xbb\xbf[whfb8]\n"Regeneration" = "\xd0\xa0\xd0\xb5\xd0\xb3'
     b'\xd0\xb5\xd0\xbd\xd0\xb5\xd1\x80\xd0\xb0\xd1\x86\xd0\xb8\xd1\x8f"\n', 0, ""),
]


@pytest.mark.parametrize(("content", "code", "line"), [case[1:] for case in ALIASES],
                         ids=[case[0] for case in ALIASES])
def test_a_fuzzed_alias_table(content: bytes, code: int, line: str, kb_file: Path,
                              tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An alias table (``--aliases``) of a number too long or nesting too deep for Python
    was a traceback; a field of a thousand characters was quoted whole; the byte order
    mark Windows Notepad writes was a syntax error."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my.toml").write_bytes(content)
    result = CliRunner().invoke(cli, ["check-list", str(DATA / "rosters" / "trolls_bs1.ros"),
                                      "--kb", str(kb_file), "--aliases", "my.toml"])
    assert "Traceback" not in result.output
    assert (result.exit_code, result.stderr) == (code, f"Ошибка: {line}\n" if line else "")
