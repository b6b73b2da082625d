"""Reports out (validator.report): text pinned, JSON per FORMATS §4, exit codes."""

from __future__ import annotations

import json

import pytest

from validator.inputs.models import InputError, ListInputError
from validator.report import exit_code, failure_report, render_json, render_text
from validator.verdicts import (
    Application,
    Report,
    RuleCitation,
    RuleRef,
    TypeRef,
    UnitReport,
    Verdict,
)

BOOK = "Warhammer 40k, 6th edition, Книга правил"
TURBO = RuleCitation(
    id="wh40k6:turbo-uskorenie", title="Турбо-ускорение", system="wh40k6",
    source="000_622e076ea61e0607.txt", page=None, source_title=BOOK,
    quote='При турбо-ускорении мотоциклы могут передвигаться максимум на 12", '
          'а гравициклы максимум на 24".')
BIKES = RuleCitation(
    id="wh40k6:motocikly-i-gravicikly", title="Мотоциклы и гравициклы", system="wh40k6",
    source="000_622e076ea61e0607.txt", page=48, source_title=BOOK,
    quote="Мотоциклы и гравициклы могут совершать турбо-ускорение.")
HAMMER = RuleRef(id="wh40k6:molot-yarosti", title="Молот ярости", defined=False)


def list_report() -> Report:
    return Report(
        kind="list", input="ultwe.yaml", system="wh40k6",
        units=(
            UnitReport(
                id="jetbikes", name="Гвардейцы на гравициклах",
                type=TypeRef(id="wh40k6:eldarskie-gravicikly",
                             title="Эльдарские (и тёмноэльдарские) гравициклы"),
                applies=(Application(rule=HAMMER, because="тип «Гравициклы» (Мотоциклы и "
                                                          "гравициклы → Специальные правила)"),)),
            UnitReport(id="battery", name="Батарея поддержки"),
        ),
        verdicts=(
            Verdict(verdict="warning", check="points_limit",
                    why="В списке 1520 очков при пределе 1500."),
            Verdict(verdict="ok", check="unit_type", unit="jetbikes", field="type",
                    why="Тип «Эльдарские гравициклы» найден в правилах.", rules=(BIKES,)),
            Verdict(verdict="violation", check="unit_type", unit="battery", field="type",
                    why="Тип «Артилерия» не найден в правилах.",
                    suggestions=("Артиллерия", "Кавалерия")),
        ),
    )


def log_report() -> Report:
    return Report(
        kind="log", input="game.jsonl", system="wh40k6",
        verdicts=(
            Verdict(verdict="ok", check="move_distance", line=2, unit="A:jetbikes",
                    action="move", why='Гравициклы: движение до 12", заявлено 12".',
                    rules=(BIKES,)),
            Verdict(verdict="violation", check="turbo_boost_limit", line=5, unit="A:jetbikes",
                    action="turbo_boost", rules=(TURBO, BIKES),
                    why='Гравициклы: турбо-ускорение не более 24", заявлено 30".'),
            Verdict(verdict="not_covered", check="unknown_action", line=8, unit="A:wraithlord",
                    action="war_dance", why="Для действия «war_dance» проверки нет."),
        ),
        errors=(InputError(message="ожидалось число, получено «восемь»", kind="type",
                           path=("distance_to_target",), file="game.jsonl", line=9,
                           column=118, expected="число"),),
    )


LIST_TEXT = """\
Список армии: ultwe.yaml
Система: wh40k6 — Warhammer 40,000, 6-я редакция

Отряд jetbikes — Гвардейцы на гравициклах
  Тип: Эльдарские (и тёмноэльдарские) гравициклы
  Действующие правила:
    Молот ярости (не описано в тексте правил) — тип «Гравициклы» (Мотоциклы и гравициклы → \
Специальные правила)
  OK (поле type) · Мотоциклы и гравициклы (Warhammer 40k, 6th edition, Книга правил, стр. 48)
    «Мотоциклы и гравициклы могут совершать турбо-ускорение.»
    Почему: Тип «Эльдарские гравициклы» найден в правилах.

Отряд battery — Батарея поддержки
  Тип: не определён
  НАРУШЕНИЕ (поле type) · правило не указано
    Почему: Тип «Артилерия» не найден в правилах.
    Возможно: «Артиллерия», «Кавалерия»

Список в целом
  ПРЕДУПРЕЖДЕНИЕ · правило не указано
    Почему: В списке 1520 очков при пределе 1500.

Итого: нарушений — 1, предупреждений — 1, не покрыто — 0, OK — 1.
"""

LOG_TEXT = """\
Журнал партии: game.jsonl
Система: wh40k6 — Warhammer 40,000, 6-я редакция

Строка 2 · A:jetbikes · move
  OK · Мотоциклы и гравициклы (Warhammer 40k, 6th edition, Книга правил, стр. 48)
    «Мотоциклы и гравициклы могут совершать турбо-ускорение.»
    Почему: Гравициклы: движение до 12", заявлено 12".

Строка 5 · A:jetbikes · turbo_boost
  НАРУШЕНИЕ · Турбо-ускорение (Warhammer 40k, 6th edition, Книга правил, стр. —)
    «При турбо-ускорении мотоциклы могут передвигаться максимум на 12", а гравициклы \
максимум на 24".»
    и Мотоциклы и гравициклы (Warhammer 40k, 6th edition, Книга правил, стр. 48)
    «Мотоциклы и гравициклы могут совершать турбо-ускорение.»
    Почему: Гравициклы: турбо-ускорение не более 24", заявлено 30".

Строка 8 · A:wraithlord · war_dance
  НЕ ПОКРЫТО · правило не указано
    Почему: Для действия «war_dance» проверки нет.

Строка 9
  ОШИБКА ВО ВХОДНЫХ ДАННЫХ: поле distance_to_target: ожидалось число, получено «восемь»

Итого: нарушений — 1, предупреждений — 0, не покрыто — 1, OK — 1; ошибок во входных \
данных — 1.
По игрокам:
  A: нарушений — 1, предупреждений — 0, не покрыто — 1, OK — 1
По отрядам:
  A:jetbikes: нарушений — 1, предупреждений — 0, не покрыто — 0, OK — 1
  A:wraithlord: нарушений — 0, предупреждений — 0, не покрыто — 1, OK — 0
"""


def test_list_text_report_is_pinned() -> None:
    assert render_text(list_report()) == LIST_TEXT


def test_log_text_report_is_pinned() -> None:
    assert render_text(log_report()) == LOG_TEXT


def test_unusable_input_text() -> None:
    failure = ListInputError([InputError(message="файл пуст", kind="empty", file="a.yaml")])
    report = failure_report("list", "a.yaml", failure)
    assert render_text(report) == (
        "Список армии: a.yaml\nСистема: не определена\n\nОшибки во входных данных:\n"
        "  a.yaml: файл пуст\n\nИтого: нарушений — 0, предупреждений — 0, не покрыто — 0, "
        "OK — 0; ошибок во входных данных — 1.\n")


def test_log_json_follows_formats() -> None:
    data = json.loads(render_json(log_report()))
    assert list(data) == ["schema", "input", "system", "verdicts", "summary", "by_player",
                          "by_unit", "errors"]
    assert data["schema"] == "rulekb.report/1"
    assert data["by_unit"]["A:wraithlord"] == {"ok": 0, "violation": 0, "warning": 0,
                                               "not_covered": 1}
    first = data["verdicts"][1]
    assert list(first) == ["line", "unit", "action", "verdict", "rules", "why", "check",
                           "suggestions"]
    assert first["rules"][0] == {
        "id": "wh40k6:turbo-uskorenie", "title": "Турбо-ускорение", "system": "wh40k6",
        "source": "000_622e076ea61e0607.txt", "source_title": BOOK, "page": None,
        "quote": TURBO.quote}
    assert data["summary"] == {"ok": 1, "violation": 1, "warning": 0, "not_covered": 1}
    assert data["errors"] == [{
        "file": "game.jsonl", "line": 9, "column": 118, "field": "distance_to_target",
        "kind": "type", "message": "ожидалось число, получено «восемь»", "expected": "число"}]


def test_list_json_has_units() -> None:
    data = json.loads(render_json(list_report()))
    assert list(data) == ["schema", "input", "system", "verdicts", "summary", "units", "errors"]
    assert list(data["verdicts"][0]) == ["unit", "field", "line", "verdict", "rules", "why",
                                         "check", "suggestions"]
    assert data["verdicts"][-1]["unit"] is None  # the list as a whole, after its units
    assert data["units"][0] == {
        "id": "jetbikes", "name": "Гвардейцы на гравициклах",
        "type": {"id": "wh40k6:eldarskie-gravicikly",
                 "title": "Эльдарские (и тёмноэльдарские) гравициклы"},
        "applies": [{"rule": {"id": "wh40k6:molot-yarosti", "title": "Молот ярости",
                              "defined": False},
                     "because": "тип «Гравициклы» (Мотоциклы и гравициклы → Специальные "
                                "правила)", "path": []}]}
    assert data["units"][1]["type"] is None


def test_json_is_byte_identical_and_keeps_cyrillic() -> None:
    once, again = render_json(list_report()), render_json(list_report())
    assert once.encode() == again.encode()
    assert "Гвардейцы" in once and "\\u" not in once
    assert once.endswith("}\n")


def test_batch_json_is_an_array() -> None:
    data = json.loads(render_json([list_report(), log_report()]))
    assert [d["input"] for d in data] == ["ultwe.yaml", "game.jsonl"]


def _with(*verdicts: str, errors: int = 0, kind: str = "log",
          system: str | None = None) -> Report:
    return Report(
        kind=kind, input="g.jsonl", system=system,  # type: ignore[arg-type]
        verdicts=tuple(Verdict(verdict=v, check="c", why="…") for v in verdicts),  # type: ignore[arg-type]
        errors=tuple(InputError(message="x") for _ in range(errors)))


@pytest.mark.parametrize(("reports", "code"), [
    ([], 0),
    ([_with("ok", "ok")], 0),
    ([_with("ok", "warning", "not_covered")], 0),
    ([_with("ok", "violation")], 1),
    ([_with("ok"), _with("violation")], 1),
    ([_with("ok", errors=1)], 2),
    ([_with("violation"), _with(errors=1)], 1),  # one unusable input in a batch: skipped
    ([_with(errors=1), _with(errors=2)], 2),  # no input of the batch could be used
    ([_with("ok", errors=1, system="wh40k6")], 1),  # an audited log with an unreadable line
    ([_with(errors=1, kind="list", system="wh40k6")], 2),  # a list that did not read
])
def test_exit_code(reports: list[Report], code: int) -> None:
    assert exit_code(reports) == code


def test_exit_code_of_one_report() -> None:
    assert exit_code(_with("violation")) == 1
