"""The audit walker on logs of every kind of trouble: each line ends in a verdict or an error."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.graph import Graph
from rulekb.cli import cli
from validator.audit import audit_log, write_audits

GAMES = Path(__file__).parent / "data" / "games" / "engine"
ORDER = GAMES / "order_and_units.jsonl"


def test_every_line_gets_a_verdict_or_an_error(corpus_graph: Graph) -> None:
    report = audit_log(ORDER, corpus_graph)
    lines = {v.line for v in report.verdicts} | {e.line for e in report.errors}
    assert lines == {2, 3, 4, 5, 6, 7, 8}


def test_unknown_action_is_not_covered_with_a_note(corpus_graph: Graph) -> None:
    report = audit_log(ORDER, corpus_graph)
    first = next(v for v in report.verdicts if v.line == 2)
    assert (first.verdict, first.check, first.unit, first.action) == (
        "not_covered", "not_covered", "A:jetbikes", "war_dance")
    assert first.why == ("Действие «war_dance» не входит в форматы журнала, и в базе знаний "
                         "нет правила, по которому его можно проверить в фазе «наступление».")


@pytest.mark.parametrize(
    ("line", "kind", "message"),
    [
        (3, "order", "события идут не по порядку: ход 1 после хода 2"),
        (4, "unknown_unit", "отряда «jetbike» нет в армии игрока A; возможно: «A:jetbikes»"),
        (5, "type", "ожидалось число, получено «далеко»"),
        (6, "unknown_unit", "отряда «tactcal» нет в армии игрока B; возможно: «B:tactical»"),
        (7, "syntax", "ошибка синтаксиса JSON: ожидалась «,»"),
    ],
)
def test_input_errors_say_line_and_what(corpus_graph: Graph, line: int, kind: str,
                                        message: str) -> None:
    report = audit_log(ORDER, corpus_graph)
    errors = [e for e in report.errors if e.line == line]
    assert [(e.kind, e.message) for e in errors] == [(kind, message)]
    assert errors[0].file == str(ORDER)


def test_the_event_of_an_out_of_order_line_is_still_audited(corpus_graph: Graph) -> None:
    report = audit_log(ORDER, corpus_graph)
    assert [v.verdict for v in report.verdicts if v.line == 3] == ["not_covered"]


def test_a_phase_going_back_within_a_players_turn(tmp_path: Path, corpus_graph: Graph) -> None:
    head = ORDER.read_text(encoding="utf-8").splitlines()[0]
    events = [
        {"turn": 1, "phase": "assault", "player": "A", "unit": "jetbikes", "action": "x"},
        {"turn": 1, "phase": "movement", "player": "B", "unit": "tactical", "action": "x"},
        {"turn": 1, "phase": "shooting", "player": "B", "unit": "tactical", "action": "x"},
        {"turn": 1, "phase": "movement", "player": "B", "unit": "tactical", "action": "x"},
    ]
    log = tmp_path / "g.jsonl"
    log.write_text("\n".join([head, *(json.dumps(e) for e in events)]) + "\n", encoding="utf-8")
    errors = audit_log(log, corpus_graph).errors
    assert [(e.line, e.kind) for e in errors] == [(5, "order")]
    assert errors[0].message == ("события идут не по порядку: фаза «движение» после фазы "
                                 "«стрельба» в том же ходе; дальше аудит считает их следующим "
                                 "ходом (и так при каждом возврате фазы, пока номер хода не "
                                 "сменится)")


def test_a_huge_line_is_skipped_and_the_rest_audited(tmp_path: Path,
                                                     corpus_graph: Graph) -> None:
    """A 100 MB log whose middle line is one 100 MB value: read in bounded memory."""
    head = ORDER.read_text(encoding="utf-8").splitlines()[0]
    log = tmp_path / "huge.jsonl"
    with log.open("w", encoding="utf-8") as out:
        out.write(head + "\n")
        out.write('{"turn": 1, "phase": "movement", "player": "A", "unit": "jetbikes", '
                  '"action": "war_dance", "note": "')
        chunk = "x" * (1 << 20)
        for _ in range(100):
            out.write(chunk)
        out.write('"}\n')
        out.write('{"turn": 1, "phase": "movement", "player": "B", "unit": "tactical", '
                  '"action": "war_dance"}\n')
    report = audit_log(log, corpus_graph)
    assert [(e.line, e.kind) for e in report.errors] == [(2, "too_large")]
    assert [(v.line, v.verdict) for v in report.verdicts] == [(3, "not_covered")]


def test_stream_and_report_give_the_same_json(corpus_graph: Graph) -> None:
    from validator.report import render_json

    out = io.StringIO()
    write_audits([ORDER], corpus_graph, out, "json")
    assert out.getvalue() == render_json(audit_log(ORDER, corpus_graph))
    data = json.loads(out.getvalue())
    assert data["summary"] == {"ok": 0, "violation": 0, "warning": 0, "not_covered": 3}
    assert [e["line"] for e in data["errors"]] == [3, 4, 5, 6, 7]


def test_text_is_byte_identical_run_to_run(corpus_graph: Graph) -> None:
    runs = []
    for _ in range(2):
        out = io.StringIO()
        write_audits([ORDER, GAMES / "clean.jsonl"], corpus_graph, out, "text")
        runs.append(out.getvalue())
    assert runs[0] == runs[1]
    assert runs[0].count("Журнал партии:") == 2


# --- the command line: exit codes and clean messages ---------------------------------------


@pytest.fixture
def kb_file(tmp_path: Path, corpus_graph: Graph) -> Path:
    from kb import store

    path = tmp_path / "kb.json"
    store.save(corpus_graph.kb, path)
    return path


@pytest.mark.parametrize(
    ("logs", "code"),
    [
        (["clean.jsonl"], 0),  # only not_covered verdicts: nothing wrong was found
        (["order_and_units.jsonl"], 1),  # lines that could not be audited
        (["no_header.jsonl"], 2),  # nothing could be audited
        (["no_header.jsonl", "clean.jsonl"], 1),  # skipped; the other log is still reported
        (["no_header.jsonl", "no_header.jsonl"], 2),  # no log of the batch could be audited
    ],
)
def test_exit_codes(kb_file: Path, logs: list[str], code: int) -> None:
    result = CliRunner().invoke(cli, ["audit", "--kb", str(kb_file),
                                      *(str(GAMES / name) for name in logs)])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    assert result.stdout.count("Журнал партии:") == len(logs)


def test_missing_header_message(kb_file: Path) -> None:
    result = CliRunner().invoke(cli, ["audit", "--kb", str(kb_file),
                                      str(GAMES / "no_header.jsonl")])
    assert ("нет заголовка партии: первая строка — событие «move»; ожидалось "
            '{"type": "game", "system": …, "armies": {…}}') in result.output


def test_json_batch_is_an_array(kb_file: Path) -> None:
    result = CliRunner().invoke(cli, ["audit", "--kb", str(kb_file), "--format", "json",
                                      str(GAMES / "no_header.jsonl"),
                                      str(GAMES / "clean.jsonl")])
    data = json.loads(result.stdout)
    assert [d["system"] for d in data] == [None, "killteam2018"]
    assert data[0]["errors"][0]["kind"] == "missing"


def test_a_folder_stands_for_its_logs(tmp_path: Path, kb_file: Path) -> None:
    import shutil

    folder = tmp_path / "tournament"
    (folder / "round2").mkdir(parents=True)
    shutil.copy(GAMES / "clean.jsonl", folder / "a.jsonl")
    shutil.copy(GAMES / "clean.jsonl", folder / "round2" / "b.jsonl")
    (folder / "notes.txt").write_text("не журнал", encoding="utf-8")
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(cli, ["audit", "--kb", str(kb_file), str(folder), str(empty)])
    heads = [line for line in result.output.splitlines() if line.startswith("Журнал партии:")]
    assert heads == [f"Журнал партии: {folder / 'a.jsonl'}",
                     f"Журнал партии: {folder / 'round2' / 'b.jsonl'}",
                     f"Журнал партии: {empty}"]
    assert f"{empty}: это папка, а в ней нет журналов партий (.jsonl)" in result.output
    assert result.exit_code == 1  # the empty folder is skipped, the logs audited


def test_bad_kb_and_unwritable_output_are_clean_errors(tmp_path: Path, kb_file: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{не json", encoding="utf-8")
    log = str(GAMES / "clean.jsonl")
    result = CliRunner().invoke(cli, ["audit", "--kb", str(broken), log])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.startswith(f"Ошибка: {broken}")
    result = CliRunner().invoke(cli, ["audit", "--kb", str(kb_file), "-o",
                                      str(tmp_path / "no" / "such" / "dir.txt"), log])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output == (f"Ошибка: не удалось записать отчёт в {tmp_path}/no/such/dir.txt: "
                             "нет такого файла или папки\n")


def test_a_faulty_check_is_reported_and_the_audit_goes_on(
        tmp_path: Path, corpus_graph: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    from validator import registry

    def broken(event: object, ctx: object) -> list[registry.Finding]:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setitem(registry.CHECKS, "broken", registry.Check(
        "broken", "event", broken, frozenset({"killteam2018"}), frozenset({"ready"})))
    head = (GAMES / "clean.jsonl").read_text(encoding="utf-8").splitlines()[0]
    log = tmp_path / "g.jsonl"
    log.write_text(head + '\n{"turn": 1, "phase": "movement", "player": "A", "unit": "sarge", '
                   '"action": "ready"}\n', encoding="utf-8")
    report = audit_log(log, corpus_graph)
    assert ("not_covered", "Проверка «broken» не смогла оценить событие из-за внутренней "
            "ошибки (ZeroDivisionError: division by zero); это ошибка rulekb, а не журнала."
            ) in [(v.verdict, v.why) for v in report.verdicts if v.check == "broken"]
    assert "ready_allowed" in {v.check for v in report.verdicts}  # the other checks still ran


def test_rules_declared_in_english_count_as_their_kb_rules(tmp_path: Path,
                                                           corpus_graph: Graph) -> None:
    """«Skyfire» in an army list is the KB's «Противовоздушное» for the checks that ask."""
    header = {"type": "game", "system": "wh40k6", "armies": {
        "A": {"units": [{"id": "tyrant", "name": "Тиран", "type": "Flying Monstrous Creature",
                         "models": 1}]},
        "B": {"units": [{"id": "hydra", "name": "Гидра", "type": "Пехота", "models": 3,
                         "rules": ["Skyfire"]}]}}}
    events = [
        {"turn": 1, "phase": "movement", "player": "A", "unit": "tyrant",
         "action": "flight_mode", "mode": "swoop"},
        {"turn": 1, "phase": "shooting", "player": "B", "unit": "hydra", "action": "shoot",
         "target": "A:tyrant", "weapons": [{"name": "Автопушка"}]},
    ]
    log = tmp_path / "g.jsonl"
    log.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in [header, *events]),
                   encoding="utf-8")
    report = audit_log(log, corpus_graph)
    shot = [v for v in report.verdicts if v.line == 3 and v.check == "hard_to_hit"]
    assert [v.verdict for v in shot] == ["ok"]
    assert "противовоздушное" in shot[0].why


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ({"action": "move", "distance": 1e999}, "поле distance: ожидалось конечное число, "
                                                "получено «inf»"),
        ({"action": "ready", "player": "Z"}, "поле player: игрока «Z» в партии нет "
                                             "(игроки: A, B)"),
        ({"action": "ready", "player": "A", "turn": -1}, "поле turn: ожидалось число не меньше "
                                                         "0, получено «-1»"),
    ],
)
def test_odd_values_are_input_errors(tmp_path: Path, corpus_graph: Graph,
                                     event: dict[str, object], message: str) -> None:
    head = (GAMES / "clean.jsonl").read_text(encoding="utf-8").splitlines()[0]
    log = tmp_path / "g.jsonl"
    line = json.dumps({"unit": "sarge", **event})
    log.write_text(f"{head}\n{line.replace('Infinity', '1e999')}\n", encoding="utf-8")
    errors = audit_log(log, corpus_graph).errors
    assert [f"поле {e.field}: {e.message}" for e in errors] == [message]
