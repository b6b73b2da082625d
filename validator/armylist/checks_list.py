"""Checks of an army list as a whole, and of a unit against the rest of the list.

List checks run once every unit has been checked (units stream past; what these checks ask
of all of them is in ``ctx.totals``):

- ``roster_notice``: what the reader must tell about how a roster was read (a roster of
  40k 7th edition is checked by the 6th edition's rules) — a warning, so nobody takes the
  report for more than it is.
- ``army_rules``: the army's own rules (BattleScribe's force rules) resolved like a unit's.
- ``points_limit``: the sum of the units' points against the list's ``points_limit``. The
  corpus has no text on points, so the verdict cites no rule: both numbers are the list's own.
- ``has_units``: a list without units is a warning: nothing in it could be checked.

Unit checks that compare a unit with the list:

- ``unique_ids``: a unit id written twice (FORMATS §2: unique in the list). The list is still
  checked; the report calls the later unit by a free ``-2`` id.
- ``unit_system``: a unit whose type is found only in another system's rules: game systems
  never mix, so it is a violation naming that system and citing where that system defines it.
"""

from __future__ import annotations

from collections.abc import Iterator

from validator.armylist.checks_rules import declared_rule_findings
from validator.armylist.checks_units import as_written
from validator.armylist.citations import cite_mention, cite_type
from validator.armylist.context import ListContext, ListedUnit
from validator.inputs.models import ArmyList
from validator.registry import Finding, list_check, unit_check


@list_check("roster_notice")
def roster_notice(army: ArmyList, ctx: ListContext) -> Iterator[Finding]:
    """What the reader tells about how the list was read (another edition checked as this)."""
    for notice in army.notices:
        yield Finding("warning", (), notice[:1].upper() + notice[1:] + ".")


@list_check("army_rules")
def army_rules(army: ArmyList, ctx: ListContext) -> Iterator[Finding]:
    """The army's own rules resolve and have the parameters their texts allow, like a unit's."""
    yield from declared_rule_findings(ctx.army_rules, ctx)


@list_check("points_limit")
def points_limit(army: ArmyList, ctx: ListContext) -> Iterator[Finding]:
    """The sum of the units' points is within the list's ``points_limit``."""
    limit = army.points_limit
    if limit is None:
        return
    totals = ctx.totals
    total = totals.points
    if total > limit:
        why = f"Сумма очков отрядов — {total}, больше предела списка {limit} (points_limit)"
        if totals.unpriced_count:
            why += (", и это без отрядов, у которых очки не указаны: "
                    f"{totals.unpriced_text()}")
        yield Finding("violation", (), why + ".", field="points_limit")
    elif totals.unpriced_count:
        yield Finding("warning", (), f"Сумма очков отрядов — {total} при пределе {limit}, но у "
                      f"отрядов {totals.unpriced_text()} очки не указаны: сумма неполная.",
                      field="points_limit")
    else:
        yield Finding("ok", (), f"Сумма очков отрядов — {total}, не больше предела списка "
                      f"{limit}.", field="points_limit")


@list_check("has_units")
def has_units(army: ArmyList, ctx: ListContext) -> Iterator[Finding]:
    """A list with no units says so: a clean report must not come from checking nothing."""
    if not ctx.totals.units:
        yield Finding("warning", (), "В списке нет ни одного отряда: проверять нечего.",
                      field="units")


@unit_check("unique_ids")
def unique_ids(listed: ListedUnit, ctx: ListContext) -> Iterator[Finding]:
    """Every unit id is written once; a repeated one is a violation (the list is still
    checked, the later unit under a free ``-2`` id)."""
    first = ctx.first_of.get(listed.index)
    if first is not None:
        yield Finding("violation", (),
                      f"id «{listed.unit.id}» уже есть у units[{first}]: id отряда должен быть "
                      f"в списке единственным; в отчёте этот отряд назван «{listed.report_id}».",
                      field="id")


@unit_check("unit_system")
def unit_system(listed: ListedUnit, ctx: ListContext) -> Iterator[Finding]:
    """A unit whose type is found only in another game system's rules: systems never mix."""
    lookup = listed.type
    if lookup is None or lookup.node is not None or not lookup.elsewhere:
        return
    systems = sorted({n.system for n in lookup.elsewhere})
    cited = []
    for node in lookup.elsewhere:
        book = ctx.resolver.book(node.system)
        cite = cite_type(book, node) if node.defined else cite_mention(book, node)
        if cite is not None:
            cited.append(cite)
    yield Finding("violation", tuple(cited),
                  f"Тип {as_written(lookup)} есть только в правилах системы "
                  f"{', '.join(systems)}, а список — системы {ctx.army.system}: отряды разных "
                  "игровых систем в одном списке не смешиваются.",
                  tuple(n.title for n in lookup.elsewhere), field="type")
