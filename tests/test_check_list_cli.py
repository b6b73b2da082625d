"""``rulekb check-list`` end to end: reports, exit codes, and unusable input in a batch.

Every bad input gives one clear Russian message naming the file (and line, column, field
where there is one), in the report and as a line on stderr, and no traceback, while the good
list beside it in the same batch is still checked and reported in full (exit code 1: a list
was skipped; 2 only when no list could be checked).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb import store
from kb.graph import Graph
from rulekb.cli import cli

DATA = Path(__file__).parent / "data"
BAD = DATA / "lists" / "bad"
CHECKS_DIR = DATA / "lists" / "checks"

GOOD = """\
system: whfb8
name: Тролли
points_limit: 300
units:
  - {id: trolls, name: Речные тролли, type: Пехота Чудовищ, models: 3, points: 210,
     rules: [Регенерация (5+)]}
"""
GOOD_REPORT_TAIL = "Итого: нарушений — 0, предупреждений — 0, не покрыто — 0, OK — 3.\n"


@pytest.fixture(scope="module")
def kb_file(tmp_path_factory: pytest.TempPathFactory, corpus_graph: Graph) -> Path:
    path = tmp_path_factory.mktemp("kb") / "kb.json"
    store.save(corpus_graph.kb, path)
    return path


def _run(args: list[str], kb_file: Path | None) -> tuple[int, str]:
    """The exit code and the report (stdout; an error of the whole run is on stderr)."""
    code, stdout, stderr = _run_streams(args, kb_file)
    return code, stdout or stderr


def _run_streams(args: list[str], kb_file: Path | None) -> tuple[int, str, str]:
    extra = ["--kb", str(kb_file)] if kb_file is not None else []
    result = CliRunner().invoke(cli, ["check-list", *args, *extra])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


def _entity_bomb(folder: Path) -> str:
    shutil.copy(DATA / "rosters" / "entity_bomb.ros", folder / "bomb.ros")
    return "bomb.ros"


def _fifty_megabytes(folder: Path) -> str:
    with (folder / "big.yaml").open("wb") as stream:
        stream.write(b"system: wh40k6\nunits: []\n")
        stream.write(b"#" * (50 * 1024 * 1024))
    return "big.yaml"


def _copy(name: str) -> object:
    def make(folder: Path) -> str:
        shutil.copy(BAD / name, folder / name)
        return name

    return make


BAD_INPUTS = [
    ("broken_yaml", _copy("broken.yaml"),
     ["broken.yaml:6:9: ошибка синтаксиса YAML: не найдено ожидаемое «,» или «]»"]),
    ("broken_json", _copy("broken.json"),
     ["broken.json:4:39: ошибка синтаксиса JSON: ожидалось имя поля в двойных кавычках"]),
    ("wrong_types", _copy("wrong_types.yaml"), [
        "wrong_types.yaml:2:1: поле name: ожидалась строка, получено «2400»",
        "wrong_types.yaml:9:5: поле units[2].models: ожидалось целое число, получено «шесть»",
        "wrong_types.yaml:10:5: поле units[2].points: ожидалось число не меньше 0, получено «-5»",
        "wrong_types.yaml:11:5: поле units[2].rules: ожидался список, получено «Быстрая "
        "кавалерия»",
        "wrong_types.yaml:12:21: поле units[2].profile.WS: ожидалось число или строка, получен "
        "список"]),
    ("missing_system", _copy("missing_system.yaml"),
     ["missing_system.yaml:1:1: нет обязательного поля «system»; укажите систему: wh40k6, whfb8, "
      "killteam2018"]),
    ("unknown_system", _copy("unknown_system.json"),
     ["unknown_system.json:1:2: поле system: неизвестная система «wh40k7»; возможно, «wh40k6» "
      "(известны: wh40k6, whfb8, killteam2018)"]),
    ("empty", _copy("empty.yaml"), ["empty.yaml: файл пуст"]),
    ("fifty_megabytes", _fifty_megabytes,
     ["big.yaml: файл слишком велик: 50,0 МБ, предел 10,0 МБ"]),
    ("entity_bomb", _entity_bomb,
     ["bomb.ros: небезопасный XML: объявлена сущность «lol»; сущности запрещены (так строятся "
      "«бомбы сущностей»)"]),
]


@pytest.mark.parametrize(("make", "messages"), [case[1:] for case in BAD_INPUTS],
                         ids=[case[0] for case in BAD_INPUTS])
def test_bad_input_in_a_batch(make: object, messages: list[str], kb_file: Path, tmp_path: Path,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    bad = make(tmp_path)  # type: ignore[operator]
    (tmp_path / "good.yaml").write_text(GOOD, encoding="utf-8")
    code, output, stderr = _run_streams([bad, "good.yaml"], kb_file)
    assert code == 1  # the bad list is skipped, the good one checked
    assert "Traceback" not in output + stderr
    assert stderr.splitlines() == [f"Ошибка: {message}" for message in messages]
    assert _run([bad], kb_file)[0] == 2  # alone, nothing could be checked
    errors = [line.strip() for line in output.splitlines() if line.startswith("  ")
              and line.strip().startswith(bad)]
    assert errors == messages  # each problem said once, where it is
    good = output[output.index("Список армии: good.yaml"):output.index("\nСводка по спискам")]
    assert good.endswith(GOOD_REPORT_TAIL)
    assert output.endswith("Итого: проверено списков — 1, с нарушениями — 0, не прочитано — 1.\n")
    assert ("OK (поле rules[0], строка 6) · Регенерация (Warhammer Fantasy Battle, 8-я редакция, "
            "стр. 75)") in good


def test_clean_list_exits_zero(kb_file: Path, tmp_path: Path,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "good.yaml").write_text(GOOD, encoding="utf-8")
    code, output = _run(["good.yaml"], kb_file)
    assert code == 0
    assert output.startswith("Список армии: good.yaml\nСистема: whfb8")


def test_violations_exit_one_and_folder_expands(kb_file: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CHECKS_DIR.parent)
    code, output = _run(["checks"], kb_file)
    assert code == 1
    listed = [line for line in output.splitlines() if line.startswith("Список армии: ")]
    names = sorted(p.name for p in CHECKS_DIR.iterdir() if p.suffix in (".yaml", ".ros"))
    assert listed == [f"Список армии: checks/{name}" for name in names]


def test_json_batch_is_an_array_with_errors(kb_file: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(BAD / "broken.json", tmp_path / "broken.json")
    (tmp_path / "good.yaml").write_text(GOOD, encoding="utf-8")
    code, output = _run(["broken.json", "good.yaml", "--format", "json"], kb_file)
    assert code == 1
    broken, good, table = json.loads(output)
    assert broken["errors"] == [{
        "file": "broken.json", "line": 4, "column": 39, "field": "", "kind": "syntax",
        "message": "ошибка синтаксиса JSON: ожидалось имя поля в двойных кавычках",
        "expected": None}]
    assert broken["units"] == [] and broken["verdicts"] == []
    assert good["summary"] == {"ok": 3, "violation": 0, "warning": 0, "not_covered": 0}
    assert good["units"][0]["type"]["title"] == "Пехота Чудовищ"
    assert table["schema"] == "rulekb.lists/1" and table["exit_code"] == 1
    assert [(r["input"], r["read"], r["summary"]["ok"]) for r in table["lists"]] == [
        ("broken.json", False, 0), ("good.yaml", True, 3)]


def test_one_list_in_json_is_an_object(kb_file: Path, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "good.yaml").write_text(GOOD, encoding="utf-8")
    code, output = _run(["good.yaml", "--format", "json", "-o", "out.json"], kb_file)
    assert (code, output) == (0, "")
    data = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert data["schema"] == "rulekb.report/1" and data["input"] == "good.yaml"


def test_user_aliases(kb_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my.toml").write_text('[whfb8]\n"Troll Regeneration" = "Регенерация"\n',
                                      encoding="utf-8")
    (tmp_path / "list.yaml").write_text(
        "system: whfb8\nunits:\n  - {id: t, name: Trolls, type: Monstrous Infantry, models: 3,"
        " rules: [Troll Regeneration (1+)]}\n", encoding="utf-8")
    code, output = _run(["list.yaml", "--aliases", "my.toml"], kb_file)
    assert code == 1
    assert ("Почему: «Troll Regeneration (1+)»: лучший возможный бросок по тексту правила — 2+."
            in output)
    code, output = _run(["list.yaml", "--aliases", "missing.toml"], kb_file)
    assert code == 2
    assert output.startswith("Ошибка: missing.toml: не удалось прочитать файл псевдонимов")


def test_bad_kb_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "kb.json").write_text("{not json", encoding="utf-8")
    (tmp_path / "good.yaml").write_text(GOOD, encoding="utf-8")
    code, output = _run(["good.yaml"], tmp_path / "kb.json")
    assert code == 2
    assert output.startswith("Ошибка: ") and "Traceback" not in output


def test_default_kb_is_built_once_and_cached(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("RULEKB_CACHE", str(cache))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "good.yaml").write_text(GOOD, encoding="utf-8")
    code, first = _run(["good.yaml"], None)
    assert code == 0
    [cached] = cache.glob("kb-*.json")
    stamp = cached.stat().st_mtime_ns
    code, again = _run(["good.yaml"], None)
    assert (code, again) == (0, first)
    assert cached.stat().st_mtime_ns == stamp  # read from the cache, not rebuilt
