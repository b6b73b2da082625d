"""Checks of an army list as a whole: points, unit ids, and units of another game system.

- ``points_limit``: the sum of the units' points against the list's ``points_limit``. The
  corpus has no text on points, so the verdict cites no rule: both numbers are the list's own.
- ``unique_ids``: a unit id written twice (FORMATS §2: unique in the list). The list is still
  checked; the report calls the later unit by a free ``-2`` id.
- ``unit_system``: a unit whose type is found only in another system's rules: game systems
  never mix, so it is a violation naming that system and citing where that system defines it.
- ``has_units``: a list without units is a warning: nothing in it could be checked.

A list check names a unit by its field (``units[2].type``); the walker places it on the unit.
"""

from __future__ import annotations

from collections.abc import Iterator

from validator.armylist.checks_units import as_written
from validator.armylist.context import ListContext, cite_mention, cite_type
from validator.inputs.models import ArmyList
from validator.registry import Finding, list_check


@list_check("points_limit")
def points_limit(army: ArmyList, ctx: ListContext) -> Iterator[Finding]:
    """The sum of the units' points is within the list's ``points_limit``."""
    limit = army.points_limit
    if limit is None:
        return
    total = sum(u.points for u in army.units if u.points is not None)
    unpriced = [listed.report_id for listed in ctx.units if listed.unit.points is None]
    if total > limit:
        why = f"Сумма очков отрядов — {total}, больше предела списка {limit} (points_limit)"
        if unpriced:
            why += f", и это без отрядов, у которых очки не указаны: {', '.join(unpriced)}"
        yield Finding("violation", (), why + ".", field="points_limit")
    elif unpriced:
        yield Finding("warning", (), f"Сумма очков отрядов — {total} при пределе {limit}, но у "
                      f"отрядов {', '.join(unpriced)} очки не указаны: сумма неполная.",
                      field="points_limit")
    else:
        yield Finding("ok", (), f"Сумма очков отрядов — {total}, не больше предела списка "
                      f"{limit}.", field="points_limit")


@list_check("unique_ids")
def unique_ids(army: ArmyList, ctx: ListContext) -> Iterator[Finding]:
    """Every unit id is written once; a repeated one is a violation (the list is still
    checked, the later unit under a free ``-2`` id)."""
    for index, first in army.duplicate_ids():
        listed = ctx.units[index]
        yield Finding("violation", (),
                      f"id «{listed.unit.id}» уже есть у units[{first}]: id отряда должен быть "
                      f"в списке единственным; в отчёте этот отряд назван «{listed.report_id}».",
                      field=listed.field("id"))


@list_check("unit_system")
def unit_system(army: ArmyList, ctx: ListContext) -> Iterator[Finding]:
    """A unit whose type is found only in another game system's rules: systems never mix."""
    for listed in ctx.units:
        lookup = listed.type
        if lookup is None or lookup.node is not None or not lookup.elsewhere:
            continue
        systems = sorted({n.system for n in lookup.elsewhere})
        cited = []
        for node in lookup.elsewhere:
            book = ctx.resolver.book(node.system)
            cite = cite_type(book, node) if node.defined else cite_mention(book, node)
            if cite is not None:
                cited.append(cite)
        yield Finding("violation", tuple(cited),
                      f"Тип {as_written(lookup)} есть только в правилах системы "
                      f"{', '.join(systems)}, а список — системы {army.system}: отряды разных "
                      "игровых систем в одном списке не смешиваются.",
                      tuple(n.title for n in lookup.elsewhere), field=listed.field("type"))


@list_check("has_units")
def has_units(army: ArmyList, ctx: ListContext) -> Iterator[Finding]:
    """A list with no units says so: a clean report must not come from checking nothing."""
    if not army.units:
        yield Finding("warning", (), "В списке нет ни одного отряда: проверять нечего.",
                      field="units")
