"""Write army-list reports as they are produced: Russian text, JSON, or one HTML page.

Each writer is a :class:`~validator.armylist.walker.ListSink`: the walker hands it a list's
head, then each unit with its verdicts, then the list's own verdicts, and the writer writes
them at once and keeps only a row of counts per list. A batch of several lists (a folder)
ends with one table of every list — file, army, points against the limit, violations,
warnings, not covered — for the organiser's desk; in JSON the table is the last element of
the array (``"schema": "rulekb.lists/1"``).

The JSON report of a list is the object of FORMATS §4 (``verdicts``, ``summary``, ``units``,
``errors``), written verdict by verdict; ``units`` wait in a temporary file until the
verdicts are done, so a list of any size is written in bounded memory.

Example::

    writer = writer_for("text", sys.stdout, several=True)
    walk_lists(["tournament/"], graph, writer)
    writer.close()
    sys.exit(writer.exit_code)
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from kb.models import SYSTEM_TITLES
from validator.inputs.models import ArmyList, InputError, ListInputError
from validator.report import (
    EXIT_CLEAN,
    EXIT_UNUSABLE,
    EXIT_VIOLATIONS,
    error_json,
    summary_text,
    verdict_json,
    verdict_lines,
)
from validator.verdicts import REPORT_SCHEMA, UnitReport, Verdict

KINDS = ("ok", "violation", "warning", "not_covered")
TABLE_SCHEMA = "rulekb.lists/1"


@dataclass
class TableRow:
    """One list in the organiser's table."""

    input: str
    army: str | None = None
    system: str | None = None
    points: int = 0
    priced: int = 0
    units: int = 0
    limit: int | None = None
    counts: Counter[str] = field(default_factory=Counter)
    errors: int = 0

    @property
    def read(self) -> bool:
        """Whether the list could be read (and so was checked)."""
        return not self.errors

    def points_text(self) -> str:
        """«1480 / 1500», «1480», «—» (no points given)."""
        if not self.priced:
            return "—" if self.limit is None else f"— / {self.limit}"
        return f"{self.points}" + (f" / {self.limit}" if self.limit is not None else "")

    def json(self) -> dict[str, Any]:
        """The row as the table's JSON element holds it."""
        return {"input": self.input, "army": self.army, "system": self.system,
                "read": self.read, "units": self.units,
                "points": self.points if self.priced else None, "points_limit": self.limit,
                "summary": {kind: self.counts.get(kind, 0) for kind in KINDS},
                "errors": self.errors}


def system_title(system: str | None) -> str:
    """A system as a report heads it: «whfb8 — Warhammer Fantasy Battle, 8-я редакция»."""
    if not system:
        return "не определена"
    title = SYSTEM_TITLES.get(system)
    return system + (f" — {title}" if title else "")


class ListWriter:
    """What every writer shares: the current list's counts, the table, the exit code."""

    def __init__(self, out: TextIO, several: bool) -> None:
        self.out = out
        self.several = several
        self.rows: list[TableRow] = []
        self.row = TableRow("")

    # -- ListSink ------------------------------------------------------------------------
    def start(self, input: str, army: ArmyList | None, system: str | None = None) -> None:
        self.row = TableRow(input, army.name if army else None,
                            army.system if army else system,
                            limit=army.points_limit if army else None)
        self.begin(input, army)

    def unit(self, unit: UnitReport, verdicts: Iterable[Verdict], points: int | None) -> None:
        self.row.units += 1
        if points is not None:
            self.row.points += points
            self.row.priced += 1
        self.write_unit(unit, self._counted(verdicts))

    def _counted(self, verdicts: Iterable[Verdict]) -> Iterator[Verdict]:
        for verdict in verdicts:
            self.row.counts[verdict.verdict] += 1
            yield verdict

    def finish(self, verdicts: Sequence[Verdict]) -> None:
        for verdict in verdicts:
            self.row.counts[verdict.verdict] += 1
        self.end(verdicts)
        self.rows.append(self.row)

    def failure(self, input: str, error: ListInputError) -> None:
        self.row = TableRow(input, None, error.system, errors=len(error.errors))
        self.write_failure(input, error)
        self.rows.append(self.row)

    # -- what each format writes ---------------------------------------------------------
    def begin(self, input: str, army: ArmyList | None) -> None:
        raise NotImplementedError

    def write_unit(self, unit: UnitReport, verdicts: Iterable[Verdict]) -> None:
        raise NotImplementedError

    def end(self, verdicts: Sequence[Verdict]) -> None:
        raise NotImplementedError

    def write_failure(self, input: str, error: ListInputError) -> None:
        raise NotImplementedError

    def close(self) -> None:
        """Write what closes the batch (the table of every list, when several)."""

    @property
    def exit_code(self) -> int:
        """The code of :func:`validator.report.exit_code`: 2 when no list could be checked,
        1 when one could not (the others were) or a violation was found, else 0."""
        if self.rows and all(not row.read for row in self.rows):
            return EXIT_UNUSABLE
        if any(not row.read or row.counts["violation"] for row in self.rows):
            return EXIT_VIOLATIONS
        return EXIT_CLEAN


# --- text -----------------------------------------------------------------------------------


def unit_facts(unit: UnitReport) -> list[str]:
    """What a report says of a unit, as plain text: its roster place, make-up, type or
    keywords (the text and the HTML report both show these lines)."""
    facts = []
    if unit.path:
        facts.append(f"В ростере: {unit.path}")
    size = [f"моделей — {unit.models}"] if unit.models is not None else []
    if unit.points is not None:
        size.append(f"очков — {unit.points}")
    if size:
        facts.append(f"Состав: {', '.join(size)}")
    if unit.type is not None or not unit.keywords:
        facts.append(f"Тип: {unit.type.title if unit.type else 'не определён'}")
    if unit.keywords:
        facts.append(f"Ключевые слова: {', '.join(unit.keywords)}")
    return facts


def applied_rules(unit: UnitReport) -> list[str]:
    """Each rule that applies to the unit and why, as plain text."""
    return [f"{item.rule.title}{'' if item.rule.defined else ' (не описано в тексте правил)'}"
            f" — {item.because}" for item in unit.applies]


def unit_lines(unit: UnitReport) -> list[str]:
    """The head of a unit's block: id and name, roster path, type, the rules that apply."""
    title = f"Отряд {unit.id}" + (f" — {unit.label}" if unit.label else "")
    lines = [title, *(f"  {fact}" for fact in unit_facts(unit))]
    applies = applied_rules(unit)
    if applies:
        lines.append("  Действующие правила:")
        lines.extend(f"    {rule}" for rule in applies)
    return lines


class TextListWriter(ListWriter):
    """Russian text for people: a block per unit, the list's own block, a summary; the table
    of every list when several."""

    def __init__(self, out: TextIO, several: bool) -> None:
        super().__init__(out, several)
        self._lists = 0

    def _separate(self) -> None:
        if self._lists:
            self.out.write("\n")
        self._lists += 1

    def begin(self, input: str, army: ArmyList | None) -> None:
        self._separate()
        self.out.write(f"Список армии: {input}\nСистема: {system_title(self.row.system)}\n")

    def write_unit(self, unit: UnitReport, verdicts: Iterable[Verdict]) -> None:
        self.out.write("\n" + "\n".join(unit_lines(unit)) + "\n")
        for verdict in verdicts:
            self.out.write("\n".join(verdict_lines(verdict)) + "\n")

    def end(self, verdicts: Sequence[Verdict]) -> None:
        if verdicts:
            lines = ["Список в целом", *(line for v in verdicts for line in verdict_lines(v))]
            self.out.write("\n" + "\n".join(lines) + "\n")
        counts = {kind: self.row.counts.get(kind, 0) for kind in KINDS}
        self.out.write("\n" + summary_text(counts, 0) + "\n")

    def write_failure(self, input: str, error: ListInputError) -> None:
        self._separate()
        self.out.write(f"Список армии: {input}\nСистема: {system_title(error.system)}\n")
        self.out.write("\nОшибки во входных данных:\n")
        self.out.write("".join(f"  {e}\n" for e in error.errors))
        self.out.write("\n" + summary_text(dict.fromkeys(KINDS, 0), len(error.errors)) + "\n")

    def close(self) -> None:
        if self.several and self.rows:
            self.out.write("\n" + table_text(self.rows))


def table_text(rows: Sequence[TableRow]) -> str:
    """The organiser's table of every list, as text."""
    head = ("Файл", "Армия", "Очки / предел", "Нарушения", "Предупр.", "Не покрыто")
    body = []
    for row in rows:
        if row.read:
            body.append((row.input, row.army or "—", row.points_text(),
                         str(row.counts["violation"]), str(row.counts["warning"]),
                         str(row.counts["not_covered"])))
        else:
            body.append((row.input, "—", f"не прочитан: ошибок — {row.errors}", "", "", ""))
    widths = [max(len(r[i]) for r in (head, *body)) for i in range(len(head))]

    def line(cells: Sequence[str]) -> str:
        text = "  ".join(c.ljust(w) if i < 3 else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True)))
        return text.rstrip()

    checked = [r for r in rows if r.read]
    bad = sum(1 for r in checked if r.counts["violation"])
    lines = [f"Сводка по спискам ({len(rows)})", line(head), *(line(r) for r in body),
             f"Итого: проверено списков — {len(checked)}, с нарушениями — {bad}, не прочитано — "
             f"{len(rows) - len(checked)}."]
    return "\n".join(lines) + "\n"


# --- JSON -----------------------------------------------------------------------------------


def _indented(data: Any, depth: int) -> str:
    """``data`` as ``json.dumps(indent=2)`` writes it ``depth`` levels down."""
    pad = "  " * depth
    return pad + json.dumps(data, ensure_ascii=False, indent=2).replace("\n", "\n" + pad)


def unit_json(unit: UnitReport) -> dict[str, Any]:
    """A unit of ``units[]`` (FORMATS §4) as JSON."""
    data: dict[str, Any] = {
        "id": unit.id,
        "name": unit.name,
        "type": {"id": unit.type.id, "title": unit.type.title} if unit.type else None,
        "applies": [{"rule": {"id": a.rule.id, "title": a.rule.title, "defined": a.rule.defined},
                     "because": a.because, "path": list(a.path)} for a in unit.applies],
    }
    if unit.custom_name:
        data["custom_name"] = unit.custom_name
    if unit.path:
        data["roster_path"] = unit.path
    if unit.models is not None:
        data["models"] = unit.models
    if unit.points is not None:
        data["points"] = unit.points
    if unit.keywords:
        data["keywords"] = list(unit.keywords)
    return data


class JsonListWriter(ListWriter):
    """The JSON report of each list (FORMATS §4), an array with the table when several."""

    def __init__(self, out: TextIO, several: bool) -> None:
        super().__init__(out, several)
        self._lists = 0
        self._verdicts = 0
        self._units: Any = None
        self._unit_count = 0
        self._depth = 1 if several else 0

    def _open(self, input: str, system: str | None) -> None:
        if self.several:
            self.out.write("[\n" if not self._lists else ",\n")
        self._lists += 1
        pad = "  " * self._depth
        head = {"schema": REPORT_SCHEMA, "input": input, "system": system}
        fields = (f"{pad}  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}"
                  for k, v in head.items())
        self.out.write(pad + "{\n" + ",\n".join(fields))
        self.out.write(f',\n{pad}  "verdicts": [')
        self._verdicts = 0

    def _verdict(self, verdict: Verdict) -> None:
        self.out.write(("\n" if not self._verdicts else ",\n")
                       + _indented(verdict_json(verdict, "list"), self._depth + 2))
        self._verdicts += 1

    def _close_array(self, count: int) -> str:
        return ("\n" + "  " * (self._depth + 1) + "]") if count else "]"

    def begin(self, input: str, army: ArmyList | None) -> None:
        self._open(input, self.row.system)
        self._units = tempfile.SpooledTemporaryFile(max_size=4 << 20, mode="w+",
                                                    encoding="utf-8")
        self._unit_count = 0

    def write_unit(self, unit: UnitReport, verdicts: Iterable[Verdict]) -> None:
        for verdict in verdicts:
            self._verdict(verdict)
        self._units.write(("\n" if not self._unit_count else ",\n")
                          + _indented(unit_json(unit), self._depth + 2))
        self._unit_count += 1

    def _tail(self, errors: Sequence[InputError]) -> None:
        pad = "  " * self._depth
        counts = {kind: self.row.counts.get(kind, 0) for kind in KINDS}
        self.out.write(self._close_array(self._verdicts) + ",\n")
        self.out.write(f'{pad}  "summary": ' + json.dumps(counts, indent=2).replace(
            "\n", "\n" + pad + "  ") + ",\n")
        self.out.write(f'{pad}  "units": [')
        if self._units is not None:
            self._units.seek(0)
            shutil.copyfileobj(self._units, self.out)
            self._units.close()
            self._units = None
        self.out.write(self._close_array(self._unit_count) + ",\n")
        self.out.write(f'{pad}  "errors": [')
        for index, error in enumerate(errors):
            self.out.write(("\n" if not index else ",\n")
                           + _indented(error_json(error), self._depth + 2))
        self.out.write(self._close_array(len(errors)) + "\n" + pad + "}")
        if not self.several:
            self.out.write("\n")

    def end(self, verdicts: Sequence[Verdict]) -> None:
        for verdict in verdicts:
            self._verdict(verdict)
        self._tail(())

    def write_failure(self, input: str, error: ListInputError) -> None:
        self._open(input, error.system)
        self._unit_count = 0
        self._tail(error.errors)

    def close(self) -> None:
        if not self.several:
            return
        table = {"schema": TABLE_SCHEMA, "lists": [row.json() for row in self.rows],
                 "exit_code": self.exit_code}
        self.out.write(("[\n" if not self._lists else ",\n") + _indented(table, 1) + "\n]\n")


def writer_for(fmt: str, out: TextIO, *, several: bool) -> ListWriter:
    """The writer of a report format: ``text``, ``json`` or ``html``."""
    if fmt == "json":
        return JsonListWriter(out, several)
    if fmt == "html":
        from validator.armylist.html import HtmlListWriter

        html: ListWriter = HtmlListWriter(out, several)
        return html
    return TextListWriter(out, several)
