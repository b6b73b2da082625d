"""Write a game-log report as it is produced: Russian text or JSON, in bounded memory.

A log of a million events has a million verdicts; they are written one by one, never held.
The JSON is the report object of FORMATS §4 with one verdict per line inside ``verdicts``
(valid JSON, easy to diff and to ``grep``), then ``summary`` (and, added fields, ``by_player``
and ``by_unit``), then ``errors``: the input errors, spooled to a temporary file meanwhile.
"""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from collections.abc import Iterable
from typing import Literal, TextIO

from kb.models import SYSTEM_TITLES
from validator.inputs.models import InputError
from validator.report import error_json, summary_text, verdict_json, verdict_lines
from validator.verdicts import AnyVerdict

KINDS = ("ok", "violation", "warning", "not_covered")
Format = Literal["text", "json"]


def _counts(counter: Counter[str]) -> dict[str, int]:
    return {kind: counter.get(kind, 0) for kind in KINDS}


class LogReportWriter:
    """Writes one log's report to ``out`` in ``fmt`` as verdicts and errors arrive.

    Call :meth:`start`, then :meth:`verdict` / :meth:`error` in log order, then
    :meth:`finish` with the counts. The caller writes what joins the reports of a batch
    (JSON reports of a batch form an array).
    """

    def __init__(self, out: TextIO, fmt: Format, input: str, system: str | None) -> None:
        self.out = out
        self.fmt = fmt
        self.input = input
        self.system = system
        self._last_head: tuple[int | None, str | None, str | None] | None = None
        self._verdicts = 0
        self._errors = tempfile.SpooledTemporaryFile(max_size=1 << 20, mode="w+",
                                                     encoding="utf-8")
        self._error_count = 0
        self._rules_json: dict[tuple[int, ...], tuple[object, str]] = {}
        # id of a verdict's tuple of rules → (the tuple, its JSON): most come from a cache
        self._rules_by_tuple: dict[int, tuple[object, str]] = {}
        self._checks: dict[str, str] = {}
        self._where: dict[tuple[str | None, str | None], str] = {}
        self._error_json: dict[tuple[object, ...], tuple[str, str]] = {}
        self._buffer: list[str] = []

    def flush(self) -> None:
        """Write the verdicts held back (JSON verdicts are written in batches)."""
        if self._buffer:
            self.out.write("".join(self._buffer))
            self._buffer.clear()

    # -- stream ----------------------------------------------------------------------
    def start(self, general_errors: Iterable[InputError] = ()) -> None:
        """Write the report's head (and errors that belong to no line)."""
        if self.fmt == "json":
            head = {"schema": "rulekb.report/1", "input": self.input, "system": self.system}
            self.out.write(json.dumps(head, ensure_ascii=False)[:-1] + ', "verdicts": [')
            for error in general_errors:
                self._spool(error)
            return
        system = "не определена"
        if self.system:
            title = SYSTEM_TITLES.get(self.system)
            system = self.system + (f" — {title}" if title else "")
        self.out.write(f"Журнал партии: {self.input}\nСистема: {system}\n")
        general = list(general_errors)
        self._error_count += len(general)
        if general:
            self.out.write("\nОшибки во входных данных:\n")
            self.out.write("".join(f"  {e}\n" for e in general))

    def verdict(self, verdict: AnyVerdict) -> None:
        """Write one verdict."""
        if self.fmt == "json":
            self._buffer.append(("\n" if self._verdicts == 0 else ",\n") + self._json(verdict))
            if len(self._buffer) >= 256:
                self.flush()
        else:
            head = (verdict.line, verdict.unit, verdict.action)
            if head != self._last_head:
                where = "Партия в целом" if verdict.line is None else f"Строка {verdict.line}"
                where += "".join(f" · {p}" for p in (verdict.unit, verdict.action) if p)
                self.out.write(f"\n{where}\n")
                self._last_head = head
            self.out.write("".join(f"{line}\n" for line in verdict_lines(verdict)))
        self._verdicts += 1

    def error(self, error: InputError) -> None:
        """Write one input error of a log line."""
        if self.fmt == "json":
            self._spool(error)
            return
        self._error_count += 1
        head = (error.line, None, None)
        if head != self._last_head:
            self.out.write(f"\nСтрока {error.line}\n" if error.line is not None else "\n")
            self._last_head = head
        field = f"поле {error.field}: " if error.path else ""
        self.out.write(f"  ОШИБКА ВО ВХОДНЫХ ДАННЫХ: {field}{error.message}\n")

    def finish(self, total: Counter[str], by_player: dict[str, Counter[str]],
               by_unit: dict[str, Counter[str]]) -> None:
        """Write the summary (whole log, per player, per unit) and close the report."""
        self.flush()
        if self.fmt == "json":
            self.out.write(("\n" if self._verdicts else "") + "], ")
            tail = {
                "summary": _counts(total),
                "by_player": {p: _counts(c) for p, c in sorted(by_player.items())},
                "by_unit": {u: _counts(c) for u, c in sorted(by_unit.items())},
            }
            self.out.write(json.dumps(tail, ensure_ascii=False)[1:-1] + ', "errors": [')
            self._errors.seek(0)
            for index, line in enumerate(self._errors):
                self.out.write(("\n" if index == 0 else ",\n") + line.rstrip("\n"))
            self.out.write(("\n" if self._error_count else "") + "]}\n")
        else:
            lines = [summary_text(_counts(total), self._error_count)]
            if by_player:
                lines.append("По игрокам:")
                lines.extend(f"  {p}: {_short(c)}" for p, c in sorted(by_player.items()))
            if by_unit:
                lines.append("По отрядам:")
                lines.extend(f"  {u}: {_short(c)}" for u, c in sorted(by_unit.items()))
            self.out.write("\n" + "\n".join(lines) + "\n")
        self._errors.close()

    def _json(self, verdict: AnyVerdict) -> str:
        """``json.dumps(verdict_json(verdict, "log"), ensure_ascii=False)``, made faster.

        A log has a verdict per event and its few rules are the same objects again and
        again (the rulebook caches citations), so their JSON is made once per combination.
        """
        rules = verdict.rules
        cached = self._rules_by_tuple.get(id(rules))
        if cached is None or cached[0] is not rules:
            key = tuple(map(id, rules))
            cached = self._rules_json.get(key)
            if cached is None:
                text = json.dumps(verdict_json(verdict, "log")["rules"], ensure_ascii=False)
                self._rules_json[key] = cached = (rules, text)  # keeps the ids alive
            if len(self._rules_by_tuple) >= 4096:  # (a check may build its tuple anew)
                self._rules_by_tuple.clear()
            self._rules_by_tuple[id(rules)] = (rules, cached[1])
        where = self._where.get((verdict.unit, verdict.action))
        if where is None:
            if len(self._where) >= 4096:  # a log may name any number of units and actions
                self._where.clear()
            where = self._where[(verdict.unit, verdict.action)] = (
                f'"unit": {_value(verdict.unit)}, "action": {_value(verdict.action)}, "verdict": ')
        line = "null" if verdict.line is None else str(verdict.line)
        check = self._checks.get(verdict.check)
        if check is None:
            check = self._check_json(verdict.check)
        suggestions = (json.dumps(list(verdict.suggestions), ensure_ascii=False)
                       if verdict.suggestions else "[]")
        return (f'{{"line": {line}, {where}"{verdict.verdict}", "rules": {cached[1]}, '
                f'"why": {_string(verdict.why)}, "check": {check}, '
                f'"suggestions": {suggestions}}}')

    def _check_json(self, check: str) -> str:
        found = self._checks.get(check)
        if found is None:
            found = self._checks[check] = _string(check)  # (checks are few: no bound needed)
        return found

    def _spool(self, error: InputError) -> None:
        """Keep an error for the end of the JSON report.

        The errors of a log repeat (a misspelt unit on every line of it, a turn number that
        never changes): each kind of error is serialised once and only its line written in.
        """
        key = (error.file, error.column, error.path, error.kind, error.message, error.expected)
        halves = self._error_json.get(key)
        if halves is None:
            if len(self._error_json) >= 1024:
                self._error_json.clear()
            text = json.dumps({**error_json(error), "line": 0}, ensure_ascii=False)
            head, _, tail = text.partition(', "line": 0')
            halves = self._error_json[key] = (head + ', "line": ', tail)
        line = "null" if error.line is None else str(error.line)
        self._errors.write(halves[0] + line + halves[1] + "\n")
        self._error_count += 1


_string = json.encoder.encode_basestring  # the C encoder json.dumps uses for strings


def _value(value: int | str | None) -> str:
    if value is None:
        return "null"
    return str(value) if isinstance(value, int) else _string(value)


def _short(counter: Counter[str]) -> str:
    return (f"нарушений — {counter.get('violation', 0)}, "
            f"предупреждений — {counter.get('warning', 0)}, "
            f"не покрыто — {counter.get('not_covered', 0)}, OK — {counter.get('ok', 0)}")
