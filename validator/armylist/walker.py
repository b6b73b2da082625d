"""Check army lists against the KB: the walker that runs the registered list and unit checks.

For one list the walker takes its units one at a time (:class:`~validator.inputs.source.
ListSource`): it resolves a unit's names once (:meth:`ListContext.listed`), runs the ``unit``
checks on it, places each finding on its unit and field (STYLE §8: checks never build
locations), lists the unit's type and every rule that applies to it with the reason (FORMATS
§4 ``units[].applies``), and hands the unit to a sink, which writes it and forgets it. Once
the units are done the ``list`` checks run on what they asked to be counted (points, units),
and their verdicts close the list's report. A list of a hundred thousand units is checked in
the memory of one.

A batch shares one :class:`~validator.armylist.context.Resolver`, so each name is looked up
once per batch; a file that cannot be read becomes a failure report and the others are still
checked.

Example::

    report = check_list(read_list("eldar.yaml"), graph)
    reports = check_lists(["tournament/"], graph)       # one report per list file
    code = write_lists(["tournament/"], graph, sys.stdout, "text")   # streams, with a table
"""

from __future__ import annotations

import heapq
import itertools
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Protocol, TextIO

from kb.graph import Graph
from kb.models import Node
from validator.armylist import (  # noqa: F401  (their checks register)
    checks_keywords,
    checks_list,
    checks_profiles,
    checks_rules,
    checks_units,
)
from validator.armylist.context import RULE_KINDS, ListContext, ListedUnit, Resolver
from validator.inputs.files import is_folder, list_files
from validator.inputs.models import (
    DEFAULT_MAX_BYTES,
    ArmyList,
    InputError,
    ListInputError,
    SourcePos,
    printable,
)
from validator.inputs.source import ListSource, open_list
from validator.registry import Check, Finding, checks
from validator.rulebook import missing_system
from validator.verdicts import Application, Report, RuleRef, TypeRef, UnitReport, Verdict

UNNAMED_INPUT = "<список>"


class ListSink(Protocol):
    """Where the walker hands what it found, list by list, unit by unit."""

    def start(self, input: str, army: ArmyList | None, system: str | None = None) -> None:
        """A list begins (``army`` is its head: everything but its units)."""

    def unit(self, unit: UnitReport, verdicts: Iterable[Verdict], points: int | None) -> None:
        """One unit with its verdicts, to read once as they come (and its points, for the
        table)."""

    def finish(self, verdicts: Sequence[Verdict]) -> None:
        """The list's own verdicts; the list is done."""

    def failure(self, input: str, error: ListInputError) -> None:
        """A list that could not be read at all."""


def check_source(source: ListSource, resolver: Resolver, sink: ListSink,
                 input: str | None = None) -> None:
    """Check one list unit by unit, handing every unit and the list's verdicts to ``sink``."""
    army = source.head
    ctx = ListContext.start(army, resolver, source.ids)
    sink.start(input or army.source or army.name or UNNAMED_INPUT, army)
    unit_checks = checks("unit", army.system)
    for index, unit, positions in source.units():
        listed = ctx.listed(index, unit, positions)
        ctx.totals.add(listed)
        sink.unit(unit_report(listed, ctx), _unit_verdicts(listed, ctx, unit_checks),
                  unit.points)
    whole = [_placed_list(finding, check.name, army)
             for check in checks("list", army.system) for finding in _run(check, army, ctx)]
    sink.finish(whole)


class ReportCollector:
    """A sink that builds :class:`Report` objects (for tests and small batches)."""

    def __init__(self) -> None:
        self.reports: list[Report] = []
        self._input = ""
        self._system: str | None = None
        self._units: list[UnitReport] = []
        self._verdicts: list[Verdict] = []

    def start(self, input: str, army: ArmyList | None, system: str | None = None) -> None:
        self._input, self._system = input, army.system if army is not None else system
        self._units, self._verdicts = [], []

    def unit(self, unit: UnitReport, verdicts: Iterable[Verdict], points: int | None) -> None:
        self._units.append(unit)
        self._verdicts.extend(verdicts)

    def finish(self, verdicts: Sequence[Verdict]) -> None:
        self.reports.append(Report(kind="list", input=self._input, system=self._system,
                                   verdicts=(*self._verdicts, *verdicts),
                                   units=tuple(self._units)))

    def failure(self, input: str, error: ListInputError) -> None:
        self.reports.append(Report(kind="list", input=input, system=error.system,
                                   errors=error.errors, units=()))


def check_list(army: ArmyList, graph: Graph, *, aliases: Mapping[str, Mapping[str, str]]
               | None = None, resolver: Resolver | None = None) -> Report:
    """Check one army list held whole; every verdict cites the rule that decides it.

    Args:
        army: the list, as :func:`~validator.inputs.lists.read_list` gives it.
        graph: the KB.
        aliases: English → Russian names for roster lists (default: the built-in table).
        resolver: a name lookup shared across a batch (made from ``graph`` and ``aliases``
            when not given).

    Returns:
        The report: each unit's verdicts in list order, then the list's own (``unit`` None);
        ``units`` with each unit's resolved type and the rules that apply to it.
    """
    collector = ReportCollector()
    check_source(ListSource.from_army(army), resolver or Resolver(graph, aliases), collector)
    return collector.reports[0]


def list_inputs(paths: Iterable[str | os.PathLike[str]]) -> list[Path | ListInputError]:
    """The list files to check: each file as given, each folder's list files (every level,
    sorted); a folder without any is an error in its place."""
    out: list[Path | ListInputError] = []
    for given in map(Path, paths):
        files = list_files(given)
        if not files:
            out.append(ListInputError([InputError(
                message="в папке нет списков армий (.yaml, .yml, .json, .ros, .rosz)",
                kind="not_found", file=str(given))]))
        out.extend(files)
    return out


def walk_lists(paths: Iterable[str | os.PathLike[str]], graph: Graph, sink: ListSink, *,
               aliases: Mapping[str, Mapping[str, str]] | None = None,
               max_bytes: int = DEFAULT_MAX_BYTES,
               on_error: Callable[[InputError], None] | None = None) -> None:
    """Check every list of ``paths`` (a folder stands for the list files inside it) into
    ``sink``, one after another; a file that cannot be read, or a list of a system the KB
    holds no rules of, is a failure in its place (each of its errors also handed to
    ``on_error``, when given: the CLI says them on stderr)."""
    resolver = Resolver(graph, aliases)
    for item in list_inputs(paths):
        if isinstance(item, ListInputError):
            _failed(sink, item.file or UNNAMED_INPUT, item, on_error)
            continue
        name = printable(str(item))  # (a file name that is not UTF-8 must still be written)
        try:
            source = open_list(item, max_bytes=max_bytes, aliases=resolver.table)
        except ListInputError as exc:
            _failed(sink, exc.file or name, exc, on_error)
            continue
        system = source.head.system
        lacking = missing_system(graph, system, name)
        if lacking is not None:  # every name would be unknown: say which systems the KB has
            where = source.head.positions.get("system")
            error = lacking.at(line=where.line, column=where.column) if where else lacking
            _failed(sink, name, ListInputError([error], system=system), on_error)
            continue
        check_source(source, resolver, sink, name)



def _failed(sink: ListSink, input: str, error: ListInputError,
            on_error: Callable[[InputError], None] | None) -> None:
    if on_error is not None:
        for each in error.errors:
            on_error(each)
    sink.failure(input, error)

def check_lists(paths: Iterable[str | os.PathLike[str]], graph: Graph, *,
                aliases: Mapping[str, Mapping[str, str]] | None = None,
                max_bytes: int = DEFAULT_MAX_BYTES) -> list[Report]:
    """Check every list of ``paths`` and hold every report (see :func:`walk_lists`).

    A file that cannot be read, or a list of a system the KB holds no rules of, gives a
    report holding only its input errors; the other lists are checked and reported all the
    same, in the order given.
    """
    collector = ReportCollector()
    walk_lists(paths, graph, collector, aliases=aliases, max_bytes=max_bytes)
    return collector.reports


ORDERED_CHECKS = frozenset({"rule_name", "rule_parameter", "keywords"})
"""Checks that yield in the order of the unit's fields, so their verdicts stream past; the
other checks' few verdicts are sorted first."""


def _unit_verdicts(listed: ListedUnit, ctx: ListContext, unit_checks: Sequence[Check]
                   ) -> Iterator[Verdict]:
    """A unit's verdicts in the order of its fields (type, rules[0], rules[1], parts…), the
    checks' own order within a field — merged as they come, never all held: a unit may
    declare a hundred thousand rules."""
    def placed(check: Check) -> Iterator[Verdict]:
        for finding in _run(check, listed, ctx):
            yield _located(finding.place(check.name, unit=listed.report_id,
                                         path=listed.location), listed.positions, listed.index)

    def keyed(order: int, verdicts: Iterable[Verdict]
              ) -> Iterator[tuple[tuple[object, ...], Verdict]]:
        for number, verdict in enumerate(verdicts):
            yield (_field_order(verdict), order, number), verdict

    streams = [keyed(order, placed(check) if check.name in ORDERED_CHECKS
                     else sorted(placed(check), key=_field_order))
               for order, check in enumerate(unit_checks)]
    for _key, verdict in heapq.merge(*streams, key=lambda item: item[0]):
        yield verdict


def _run(check: Check, subject: object, ctx: ListContext) -> Iterator[Finding]:
    """The findings of one check; a check that fails is reported, never stops the list."""
    try:
        yield from check(subject, ctx)
    except Exception as exc:  # noqa: BLE001 - one broken check must not lose the batch
        yield Finding("not_covered", (), f"Проверка «{check.name}» не выполнена: внутренняя "
                      f"ошибка ({type(exc).__name__}: {exc}).")


def _located(verdict: Verdict, positions: Mapping[str, SourcePos], index: int | None) -> Verdict:
    """The verdict with the line of the list file its field is written on (when known).

    The field's own line if the reader recorded it, else its nearest recorded parent's
    (a rule's parameter is on the rule's line, a missing field on its unit's).
    """
    if not positions:
        return verdict
    path = verdict.field or ""
    if index is not None:
        path = f"units[{index}]" + (f".{path}" if path and not path.startswith("[") else path)
    while path:
        found = positions.get(path)
        if found is not None:
            return verdict.model_copy(update={"line": found.line})
        path = path[:max(path.rfind("."), path.rfind("["), 0)]
    return verdict


def _placed_list(finding: Finding, check: str, army: ArmyList) -> Verdict:
    verdict = finding.place(check)
    return _located(verdict, army.positions, None)


_FIELD_TOKEN = re.compile(r"([a-z_]+)|\[(\d+)\]")
_FIELD_RANK = {"id": 0, "type": 1, "rules": 2, "parts": 3, "profile": 4}


def _field_order(verdict: Verdict) -> tuple[tuple[int, int], ...]:
    """A unit's verdicts in the order of the unit's fields: type, rules[0], rules[1], parts…

    Verdicts about the unit as a whole come last; the sort is stable, so checks keep their
    order within a field.
    """
    if verdict.field is None:
        return ((len(_FIELD_RANK), 0),)
    return tuple((_FIELD_RANK.get(name, len(_FIELD_RANK)), 0) if name else (-1, int(index))
                 for name, index in _FIELD_TOKEN.findall(verdict.field))


# --- units[]: type and the rules that apply ----------------------------------------------------


def _ref(node: Node) -> RuleRef:
    return RuleRef(id=node.id, title=node.title, defined=node.defined)


def type_applications(graph: Graph, type_node: Node) -> tuple[Application, ...]:
    """What a unit type gives: the types it inherits, then every rule granted along the way,
    each with the path that gives it."""
    out: list[Application] = []
    for inherited, path in graph.inherited_types(type_node.id)[1:]:
        via = " → ".join(graph.nodes[p].title for p in path[1:])
        out.append(Application(rule=_ref(inherited),
                               because=f"тип «{type_node.title}» наследует {via}", path=path))
    out.extend(Application(rule=_ref(applied.rule), because=applied.because, path=applied.path)
               for applied in graph.effective_rules(type_node.id))
    return tuple(out)


def unit_report(listed: ListedUnit, ctx: ListContext) -> UnitReport:
    """A unit's entry in ``units[]``: its type and every rule that applies, with the reason."""
    graph, book = ctx.book.graph, ctx.book
    node = listed.type_node
    applies: list[Application] = []
    if node is not None and node.kind == "unit_type":
        applies.extend(book.remember(("type_applications", node.id),
                                     lambda: type_applications(graph, node)))
    seen = {a.rule.id for a in applies}
    source = "в ростере" if listed.location else "в списке"
    declared = itertools.chain(((r, False) for r in listed.rules),
                               ((r, True) for r in ctx.army_rules))
    for rule, army_wide in declared:
        if rule.node is None or rule.node.id in seen:
            continue
        seen.add(rule.node.id)
        if army_wide:
            holder = f"для всей армии {source}"
        elif rule.part is not None:
            holder = f"у «{rule.part.name}»" if rule.part.name else f"у части «{rule.part.role}»"
        else:
            holder = source
        applies.append(Application(rule=_ref(rule.node),
                                   because=f"заявлено {holder} ({rule.field}: «{rule.written}»)"))
    for index, keyword in enumerate(listed.unit.keywords):
        found = ctx.resolver.lookup(keyword, ctx.army.system, RULE_KINDS)
        if found.node is not None and found.how != "fuzzy" and found.node.id not in seen:
            seen.add(found.node.id)
            applies.append(Application(rule=_ref(found.node),
                                       because=f"ключевое слово {keyword} (keywords[{index}])"))
    return UnitReport(id=listed.report_id, name=listed.unit.name,
                      type=TypeRef(id=node.id, title=node.title) if node is not None else None,
                      applies=tuple(applies), custom_name=listed.unit.custom_name,
                      path=listed.location, models=listed.unit.models,
                      points=listed.unit.points, keywords=listed.unit.keywords)


def write_lists(paths: Iterable[str | os.PathLike[str]], graph: Graph, out: TextIO, fmt: str,
                *, aliases: Mapping[str, Mapping[str, str]] | None = None,
                max_bytes: int = DEFAULT_MAX_BYTES,
                on_error: Callable[[InputError], None] | None = None) -> int:
    """Check lists one after another, writing each report to ``out`` as it is produced, and
    the table of every list at the end (several lists); the exit code (FORMATS §4).

    ``fmt`` is ``text``, ``json`` or ``html`` (one self-contained page for the whole batch);
    ``on_error`` is told every input error of a list that could not be checked.
    """
    from validator.armylist.output import writer_for

    paths = list(paths)
    writer = writer_for(fmt, out, several=len(paths) > 1 or any(is_folder(Path(p)) for p in paths))
    walk_lists(paths, graph, writer, aliases=aliases, max_bytes=max_bytes, on_error=on_error)
    writer.close()
    return writer.exit_code
