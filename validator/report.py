"""Render reports (FORMATS §4) as Russian text for people or JSON for programs; exit codes.

Example::

    print(render_text(report))                # Russian, one block per unit or event line
    Path("out.json").write_text(render_json(report), encoding="utf-8")
    sys.exit(exit_code([report]))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

from validator.inputs.models import InputError, InputFailure
from validator.verdicts import AnyVerdict, Report, RuleCitation, Verdict

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
    book = rule.source_title or rule.source or "источник неизвестен"
    return f"{rule.title} ({book}, стр. {page})"


def citation_text(rule: RuleCitation) -> str:
    """A rule as a report cites it: its title, source and page."""
    return _cited(rule)


def verdict_lines(verdict: AnyVerdict) -> list[str]:
    label = LABELS[verdict.verdict]
    if verdict.field:  # a list's verdict: where in the file (a log's line heads its block)
        line = f", строка {verdict.line}" if verdict.line is not None else ""
        label += f" (поле {verdict.field}{line})"
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
    return [line for verdict in verdicts for line in verdict_lines(verdict)]


def summary_text(counts: dict[str, int], errors: int) -> str:
    """The summary line of a text report."""
    text = (f"Итого: нарушений — {counts['violation']}, предупреждений — {counts['warning']}, "
            f"не покрыто — {counts['not_covered']}, OK — {counts['ok']}")
    if errors:
        text += f"; ошибок во входных данных — {errors}"
    return text + "."


def _summary_line(report: Report) -> str:
    return summary_text(report.summary.model_dump(), len(report.errors))


def _stream_log(report: Report, fmt: str) -> str:
    """A log report through the same writer ``rulekb audit`` streams with."""
    import io
    from collections import Counter

    from validator.audit.output import LogReportWriter

    out = io.StringIO()
    writer = LogReportWriter(out, "json" if fmt == "json" else "text", report.input,
                             report.system)
    placed = [e for e in report.errors if e.line is not None and e.file == report.input]
    writer.start(e for e in report.errors if e not in placed)
    total: Counter[str] = Counter()
    by_player: dict[str, Counter[str]] = {}
    by_unit: dict[str, Counter[str]] = {}
    pending = sorted(placed, key=lambda e: e.line or 0)
    for verdict in report.verdicts:
        while pending and verdict.line is not None and (pending[0].line or 0) <= verdict.line:
            writer.error(pending.pop(0))
        writer.verdict(verdict)
        total[verdict.verdict] += 1
        if verdict.unit:
            by_player.setdefault(verdict.unit.split(":", 1)[0], Counter())[verdict.verdict] += 1
            by_unit.setdefault(verdict.unit, Counter())[verdict.verdict] += 1
    for error in pending:
        writer.error(error)
    writer.finish(total, by_player, by_unit)
    return out.getvalue()


def _replay(report: Report, fmt: str) -> str:
    """A list report through the same writer ``rulekb check-list`` streams with."""
    import io

    from validator.armylist.output import writer_for
    from validator.inputs.models import ListInputError

    out = io.StringIO()
    writer = writer_for(fmt, out, several=False)
    if report.errors:
        writer.failure(report.input, ListInputError(report.errors, system=report.system))
        return out.getvalue()
    writer.start(report.input, None, report.system)
    by_unit: dict[str | None, list[Verdict]] = {}
    for verdict in report.verdicts:
        by_unit.setdefault(verdict.unit, []).append(verdict)
    for unit in report.units or ():
        writer.unit(unit, by_unit.pop(unit.id, []), None)
    whole = by_unit.pop(None, [])
    for verdicts in by_unit.values():  # verdicts about units the report does not list
        whole.extend(verdicts)
    writer.finish(whole)
    return out.getvalue()


def _render_one(report: Report) -> str:
    if report.kind == "log":
        return _stream_log(report, "text")
    return _replay(report, "text")


def render_text(report: Report | Sequence[Report]) -> str:
    """A report as Russian text for people.

    A header names the input and system; a list gets one block per unit (its id and name,
    resolved type, the rules that apply and its verdicts), a log one block per event line;
    each verdict shows its label (НАРУШЕНИЕ, ПРЕДУПРЕЖДЕНИЕ, НЕ ПОКРЫТО, OK), the rule's
    title, the book it comes from and the page («стр. 75», or «стр. —» when unknown), the
    quoted sentence and why. A summary ends it. Several reports are rendered one after another.
    """
    reports = [report] if isinstance(report, Report) else list(report)
    return "\n".join(_render_one(r) for r in reports)


# --- JSON -----------------------------------------------------------------------------------


def _rule_json(rule: RuleCitation) -> dict[str, Any]:
    return {"id": rule.id, "title": rule.title, "system": rule.system, "source": rule.source,
            "source_title": rule.source_title, "page": rule.page, "quote": rule.quote}


def verdict_json(verdict: AnyVerdict, kind: str) -> dict[str, Any]:
    where: dict[str, Any] = (
        {"line": verdict.line, "unit": verdict.unit, "action": verdict.action} if kind == "log"
        else {"unit": verdict.unit, "field": verdict.field, "line": verdict.line}
    )
    path = getattr(verdict, "path", None)
    if kind == "list" and path:
        where["path"] = path  # a roster's unit: its selection's name path
    return {**where, "verdict": verdict.verdict,
            "rules": [_rule_json(r) for r in verdict.rules], "why": verdict.why,
            "check": verdict.check, "suggestions": list(verdict.suggestions)}


def error_json(error: InputError) -> dict[str, Any]:
    return {"file": error.file, "line": error.line, "column": error.column,
            "field": error.field, "kind": error.kind, "message": error.message,
            "expected": error.expected}


def report_json(report: Report) -> dict[str, Any]:
    """A report as the JSON object of FORMATS §4, keys in a fixed order."""
    data: dict[str, Any] = {
        "schema": report.report_schema,
        "input": report.input,
        "system": report.system,
        "verdicts": [verdict_json(v, report.kind) for v in report.verdicts],
        "summary": report.summary.model_dump(),
    }
    if report.kind == "list":
        from validator.armylist.output import unit_json

        data["units"] = [unit_json(u) for u in report.units or ()]
    data["errors"] = [error_json(e) for e in report.errors]
    return data


def render_json(report: Report | Sequence[Report]) -> str:
    """A report as JSON text (FORMATS §4): UTF-8 as is, fixed key order, one trailing newline.

    The same report always gives the same bytes. Several reports give a JSON array.
    """
    if isinstance(report, Report):
        return _one_json(report)
    return "[\n" + ",\n".join(_one_json(r).rstrip("\n") for r in report) + "\n]\n"


def _one_json(report: Report) -> str:
    if report.kind == "log":
        return _stream_log(report, "json")
    return _replay(report, "json")


# --- exit code ------------------------------------------------------------------------------


def unusable(report: Report) -> bool:
    """Whether an input could not be used at all: a list with input errors (a list is checked
    only once it reads), a log whose header or armies could not be read (no system)."""
    return bool(report.errors) and (report.kind == "list" or report.system is None)


def exit_code(reports: Report | Iterable[Report]) -> int:
    """The process exit code for a run (FORMATS §4): 0 clean, 1 findings, 2 nothing usable.

    A batch keeps going: an input that could not be used is reported and the others are
    checked all the same. 2 when no input of the run could be used at all (a single
    unusable list or log, or every one of a batch); 1 when one was skipped but others were
    checked, when a violation was found, or when a log that was audited had lines that
    could not be read (the rest of it was audited, what was skipped is listed with its
    line); else 0. Warnings and ``not_covered`` verdicts do not change the code.
    """
    items = [reports] if isinstance(reports, Report) else list(reports)
    if items and all(unusable(r) for r in items):
        return EXIT_UNUSABLE
    if any(r.errors for r in items):
        return EXIT_VIOLATIONS
    if any(v.verdict == "violation" for r in items for v in r.verdicts):
        return EXIT_VIOLATIONS
    return EXIT_CLEAN
