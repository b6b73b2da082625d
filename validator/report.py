"""Render reports (FORMATS §4) as Russian text for people or JSON for programs; exit codes.

Example::

    print(render_text(report))                # Russian, one block per unit or event line
    Path("out.json").write_text(render_json(report), encoding="utf-8")
    sys.exit(exit_code([report]))
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from kb.models import SYSTEM_TITLES
from validator.models import (
    InputError,
    InputFailure,
    Report,
    RuleCitation,
    UnitReport,
    Verdict,
)

LABELS = {"violation": "НАРУШЕНИЕ", "warning": "ПРЕДУПРЕЖДЕНИЕ", "not_covered": "НЕ ПОКРЫТО",
          "ok": "OK"}
"""How each verdict is shown in text reports."""

EXIT_CLEAN, EXIT_VIOLATIONS, EXIT_UNUSABLE = 0, 1, 2


def failure_report(kind: Literal["list", "log"], input: str, failure: InputFailure,
                   system: str | None = None) -> Report:
    """The report of an input that could not be used at all: its errors and nothing else."""
    return Report(kind=kind, input=input, system=system, errors=failure.errors,
                  units=() if kind == "list" else None)


# --- text -----------------------------------------------------------------------------------


def _cited(rule: RuleCitation) -> str:
    page = "—" if rule.page is None else rule.page
    return f"{rule.title} ({rule.source or 'источник неизвестен'}, стр. {page})"


def _verdict_lines(verdict: Verdict) -> list[str]:
    label = LABELS[verdict.verdict] + (f" (поле {verdict.field})" if verdict.field else "")
    lines: list[str] = []
    if not verdict.rules:
        lines.append(f"  {label} · правило не указано")
    for index, rule in enumerate(verdict.rules):
        lines.append(f"  {label} · {_cited(rule)}" if index == 0 else f"    и {_cited(rule)}")
        if rule.quote:
            lines.append(f"    «{rule.quote}»")
    lines.append(f"    Почему: {verdict.why}")
    if verdict.suggestions:
        lines.append("    Возможно: " + ", ".join(f"«{s}»" for s in verdict.suggestions))
    return lines


def _verdicts_lines(verdicts: Iterable[Verdict]) -> list[str]:
    return [line for verdict in verdicts for line in _verdict_lines(verdict)]


def _unit_lines(unit: UnitReport) -> list[str]:
    title = f"Отряд {unit.id}" + (f" — {unit.name}" if unit.name else "")
    lines = [title, f"  Тип: {unit.type.title if unit.type else 'не определён'}"]
    if unit.applies:
        lines.append("  Действующие правила:")
        for item in unit.applies:
            undefined = "" if item.rule.defined else " (не описано в тексте правил)"
            lines.append(f"    {item.rule.title}{undefined} — {item.because}")
    return lines


def _error_text(error: InputError) -> str:
    return f"поле {error.field}: {error.message}" if error.path else error.message


def _list_blocks(report: Report) -> list[list[str]]:
    by_unit: dict[str | None, list[Verdict]] = {}
    for verdict in report.verdicts:
        by_unit.setdefault(verdict.unit, []).append(verdict)
    blocks: list[list[str]] = []
    if None in by_unit:
        blocks.append(["Список в целом", *_verdicts_lines(by_unit.pop(None))])
    for unit in report.units or ():
        verdicts = by_unit.pop(unit.id, [])
        blocks.append([*_unit_lines(unit), *_verdicts_lines(verdicts)])
    for unit_id, verdicts in by_unit.items():  # verdicts about units the report does not list
        blocks.append([f"Отряд {unit_id}", *_verdicts_lines(verdicts)])
    return blocks


def _log_blocks(report: Report) -> list[list[str]]:
    lines: dict[int | None, list[Verdict | InputError]] = {}
    for verdict in report.verdicts:
        lines.setdefault(verdict.line, []).append(verdict)
    for error in report.errors:
        if error.line is not None and error.file == report.input:
            lines.setdefault(error.line, []).append(error)
    blocks: list[list[str]] = []
    for line in sorted(lines, key=lambda n: (n is None, n or 0)):
        items = lines[line]
        first = next((i for i in items if isinstance(i, Verdict)), None)
        head = "Партия в целом" if line is None else f"Строка {line}"
        if first is not None:
            head += "".join(f" · {part}" for part in (first.unit, first.action) if part)
        block = [head]
        for item in items:
            if isinstance(item, InputError):
                block.append(f"  ОШИБКА ВО ВХОДНЫХ ДАННЫХ: {_error_text(item)}")
            else:
                block.extend(_verdict_lines(item))
        blocks.append(block)
    return blocks


def _summary_line(report: Report) -> str:
    s = report.summary
    text = (f"Итого: нарушений — {s.violation}, предупреждений — {s.warning}, "
            f"не покрыто — {s.not_covered}, OK — {s.ok}")
    if report.errors:
        text += f"; ошибок во входных данных — {len(report.errors)}"
    return text + "."


def _render_one(report: Report) -> str:
    title = "Список армии" if report.kind == "list" else "Журнал партии"
    system = "не определена"
    if report.system:
        system = report.system + (f" — {SYSTEM_TITLES[report.system]}"
                                  if report.system in SYSTEM_TITLES else "")
    blocks = [[f"{title}: {report.input}", f"Система: {system}"]]
    placed = report.kind == "log"
    general = [e for e in report.errors
               if not (placed and e.line is not None and e.file == report.input)]
    if general:
        blocks.append(["Ошибки во входных данных:", *(f"  {e}" for e in general)])
    blocks.extend(_list_blocks(report) if report.kind == "list" else _log_blocks(report))
    blocks.append([_summary_line(report)])
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"


def render_text(report: Report | Sequence[Report]) -> str:
    """A report as Russian text for people.

    A header names the input and system; a list gets one block per unit (its id and name,
    resolved type, the rules that apply and its verdicts), a log one block per event line;
    each verdict shows its label (НАРУШЕНИЕ, ПРЕДУПРЕЖДЕНИЕ, НЕ ПОКРЫТО, OK), the rule's
    title, source file and page («стр. 75», or «стр. —» when unknown), the quoted sentence
    and why. A summary ends it. Several reports are rendered one after another.
    """
    reports = [report] if isinstance(report, Report) else list(report)
    return "\n".join(_render_one(r) for r in reports)


# --- JSON -----------------------------------------------------------------------------------


def _rule_json(rule: RuleCitation) -> dict[str, Any]:
    return {"id": rule.id, "title": rule.title, "system": rule.system, "source": rule.source,
            "page": rule.page, "quote": rule.quote}


def _verdict_json(verdict: Verdict, kind: str) -> dict[str, Any]:
    where: dict[str, Any] = (
        {"line": verdict.line, "unit": verdict.unit, "action": verdict.action} if kind == "log"
        else {"unit": verdict.unit, "field": verdict.field}
    )
    return {**where, "verdict": verdict.verdict,
            "rules": [_rule_json(r) for r in verdict.rules], "why": verdict.why,
            "check": verdict.check, "suggestions": list(verdict.suggestions)}


def _unit_json(unit: UnitReport) -> dict[str, Any]:
    return {
        "id": unit.id,
        "name": unit.name,
        "type": {"id": unit.type.id, "title": unit.type.title} if unit.type else None,
        "applies": [{"rule": {"id": a.rule.id, "title": a.rule.title, "defined": a.rule.defined},
                     "because": a.because} for a in unit.applies],
    }


def _error_json(error: InputError) -> dict[str, Any]:
    return {"file": error.file, "line": error.line, "column": error.column,
            "field": error.field, "kind": error.kind, "message": error.message,
            "expected": error.expected}


def report_json(report: Report) -> dict[str, Any]:
    """A report as the JSON object of FORMATS §4, keys in a fixed order."""
    data: dict[str, Any] = {
        "schema": report.report_schema,
        "input": report.input,
        "system": report.system,
        "verdicts": [_verdict_json(v, report.kind) for v in report.verdicts],
        "summary": report.summary.model_dump(),
    }
    if report.kind == "list":
        data["units"] = [_unit_json(u) for u in report.units or ()]
    data["errors"] = [_error_json(e) for e in report.errors]
    return data


def render_json(report: Report | Sequence[Report]) -> str:
    """A report as JSON text (FORMATS §4): UTF-8 as is, fixed key order, one trailing newline.

    The same report always gives the same bytes. Several reports give a JSON array.
    """
    data: Any = (report_json(report) if isinstance(report, Report)
                 else [report_json(r) for r in report])
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


# --- exit code ------------------------------------------------------------------------------


def exit_code(reports: Report | Iterable[Report]) -> int:
    """The process exit code for a run (FORMATS §4): 0 clean, 1 violations, 2 unusable input.

    2 wins over 1, 1 over 0. Any input error in any report gives 2: a list or log that could
    not be read, or a log line that had to be skipped, means part of the input went
    unchecked, so the run cannot call itself clean. The other reports of a batch are still
    checked and reported in full; only the exit code says that something was left out.
    Warnings and ``not_covered`` verdicts do not change the code.
    """
    items = [reports] if isinstance(reports, Report) else list(reports)
    if any(r.errors for r in items):
        return EXIT_UNUSABLE
    if any(v.verdict == "violation" for r in items for v in r.verdicts):
        return EXIT_VIOLATIONS
    return EXIT_CLEAN
