"""Check army lists against the KB: the walker that runs the registered list and unit checks.

For one list the walker resolves every name once (:class:`~validator.armylist.context.ListContext`),
runs the ``list`` checks on the list and the ``unit`` checks on each unit (registered in
:mod:`validator.armylist.checks_list`, :mod:`.checks_units`, :mod:`.checks_rules`,
:mod:`.checks_profiles`), places each finding on its unit and field (STYLE §8: checks never
build locations), and lists for every unit its resolved type and every rule that applies to
it with the reason (FORMATS §4 ``units[].applies``). A batch shares one
:class:`~validator.armylist.context.Resolver`, so each name is looked up once per batch; a file
that cannot be read becomes a failure report and the others are still checked.

Example::

    report = check_list(read_list("eldar.yaml"), graph)
    print(render_text(report))
    reports = check_lists(["tournament/"], graph)       # one report per list file
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator

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
from validator.inputs.lists import read_lists
from validator.inputs.models import DEFAULT_MAX_BYTES, ArmyList, ListInputError
from validator.inputs.roster import Aliases
from validator.registry import Check, Finding, checks
from validator.report import failure_report
from validator.rulebook import missing_system
from validator.verdicts import Application, Report, RuleRef, TypeRef, UnitReport, Verdict

_UNIT_FIELD = re.compile(r"^units\[(\d+)\](?:\.(.*))?$")
UNNAMED_INPUT = "<список>"


def check_list(army: ArmyList, graph: Graph, *, aliases: Aliases | None = None,
               resolver: Resolver | None = None) -> Report:
    """Check one army list; every verdict cites the rule that decides it.

    Args:
        army: the list, as :func:`~validator.inputs.lists.read_list` gives it.
        graph: the KB.
        aliases: English → Russian names for roster lists (default: the built-in table).
        resolver: a name lookup shared across a batch (made from ``graph`` and ``aliases``
            when not given).

    Returns:
        The report: list-level verdicts (``unit`` None) first, then each unit's; ``units``
        with each unit's resolved type and the rules that apply to it.
    """
    resolver = resolver or Resolver(graph, aliases)
    ctx = ListContext.build(army, resolver)
    whole: list[Verdict] = []
    per_unit: dict[int, list[Verdict]] = {listed.index: [] for listed in ctx.units}
    for check in checks("list", army.system):
        for finding in _run(check, army, ctx):
            index, verdict = _place_list(finding, check.name, ctx)
            (whole if index is None else per_unit[index]).append(verdict)
    for listed in ctx.units:
        for check in checks("unit", army.system):
            per_unit[listed.index].extend(
                finding.place(check.name, unit=listed.report_id)
                for finding in _run(check, listed, ctx))
    verdicts = [_located(v, army, None) for v in whole] + [
        _located(v, army, listed.index) for listed in ctx.units
        for v in sorted(per_unit[listed.index], key=_field_order)]
    return Report(kind="list", input=army.source or army.name or UNNAMED_INPUT,
                  system=army.system, verdicts=tuple(verdicts),
                  units=tuple(unit_report(listed, ctx) for listed in ctx.units))


def _located(verdict: Verdict, army: ArmyList, index: int | None) -> Verdict:
    """The verdict with the line of the list file its field is written on (when known).

    The field's own line if the reader recorded it, else its nearest recorded parent's
    (a rule's parameter is on the rule's line, a missing field on its unit's).
    """
    if not army.positions:
        return verdict
    path = verdict.field or ""
    if index is not None:
        path = f"units[{index}]" + (f".{path}" if path and not path.startswith("[") else path)
    while path:
        found = army.positions.get(path)
        if found is not None:
            return verdict.model_copy(update={"line": found.line})
        path = path[:max(path.rfind("."), path.rfind("["), 0)]
    return verdict


def check_lists(paths: Iterable[str | os.PathLike[str]], graph: Graph, *,
                aliases: Aliases | None = None,
                max_bytes: int = DEFAULT_MAX_BYTES) -> list[Report]:
    """Check every list of ``paths`` (a folder stands for the list files inside it).

    A file that cannot be read, or a list of a system the KB holds no rules of, gives a
    report holding only its input errors; the other lists are checked and reported all the
    same, in the order given.
    """
    resolver = Resolver(graph, aliases)
    reports: list[Report] = []
    for item in read_lists(paths, max_bytes=max_bytes):
        if isinstance(item, ListInputError):
            reports.append(failure_report("list", item.file or UNNAMED_INPUT, item,
                                          system=item.system))
        elif (lacking := missing_system(graph, item.system, item.source)) is not None:
            where = item.positions.get("system")
            error = lacking.at(line=where.line, column=where.column) if where else lacking
            reports.append(failure_report("list", item.source or UNNAMED_INPUT,
                                          ListInputError([error]), system=item.system))
        else:
            reports.append(check_list(item, graph, resolver=resolver))
    return reports


def _run(check: Check, subject: object, ctx: ListContext) -> Iterator[Finding]:
    """The findings of one check; a check that fails is reported, never stops the list."""
    try:
        yield from check(subject, ctx)
    except Exception as exc:  # noqa: BLE001 - one broken check must not lose the batch
        yield Finding("not_covered", (), f"Проверка «{check.name}» не выполнена: внутренняя "
                      f"ошибка ({type(exc).__name__}: {exc}).")


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


def _place_list(finding: Finding, check: str, ctx: ListContext) -> tuple[int | None, Verdict]:
    """A list check's finding placed: on the unit its field names (``units[2].type``)."""
    match = _UNIT_FIELD.match(finding.field or "")
    if match is None or int(match.group(1)) >= len(ctx.units):
        return None, finding.place(check)
    index = int(match.group(1))
    inner = Finding(finding.verdict, finding.rules, finding.why, finding.suggestions,
                    match.group(2) or None)
    return index, inner.place(check, unit=ctx.units[index].report_id)


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
    for rule in listed.rules:
        if rule.node is None or rule.node.id in seen:
            continue
        seen.add(rule.node.id)
        holder = "в списке"
        if rule.part is not None:
            holder = f"у «{rule.part.name}»" if rule.part.name else f"у части «{rule.part.role}»"
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
                      applies=tuple(applies))
