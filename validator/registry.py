"""The checks, each a small function registered by name (as jsonschema registers validators).

Three scopes share one registry:

- ``list``: the army list as a whole, ``check(army, ctx)``;
- ``unit``: one unit of a list, ``check(unit, ctx)``;
- ``event``: one event of a game log, ``check(event, ctx)``, for the ``actions`` it names;
- ``track``: not a check but a state update a system needs after an event (a unit now
  fleeing, a flight mode chosen), ``update(event, ctx)``, run after the event's checks.

A check yields :class:`Finding` objects: what it concluded, the rules it rests on and why.
It never says where: the walker that runs it adds the list's unit and field path or the
log's line (STYLE §8). A check that finds what it needs missing from the KB yields a
``not_covered`` finding; it never falls back to a number of its own.

Example::

    @event_check("turbo_boost_limit", systems={"wh40k6"}, actions={"turbo_boost"})
    def turbo_boost_limit(event, ctx):
        limit = ctx.book.type_fact(..., topic="турбо-ускорение", name="max_distance")
        ...
        yield Finding("violation", (limit.citation(),), why)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from validator.verdicts import RuleCitation, Verdict, VerdictKind

Scope = Literal["list", "unit", "event", "track"]


@dataclass(slots=True)
class Finding:
    """What a check concluded, before the walker places it (read-only by convention: a
    frozen dataclass would pay for every field it sets, on every event of an audit).

    Attributes:
        verdict: ``ok``, ``violation``, ``warning`` or ``not_covered``.
        rules: the rules that decide it, each with its deciding sentence.
        why: one Russian sentence joining the input's facts to the rule.
        suggestions: the nearest known names, when a name was not found.
        field: for a list, the field path inside the unit (``"rules[1]"``), if any.
    """

    verdict: VerdictKind
    rules: tuple[RuleCitation, ...]
    why: str
    suggestions: tuple[str, ...] = ()
    field: str | None = None

    def place(self, check: str, *, line: int | None = None, unit: str | None = None,
              action: str | None = None, field_prefix: str | None = None,
              path: str | None = None) -> Verdict:
        """The finding as a :class:`Verdict` at a place in the input (``path``: a roster
        unit's selection path)."""
        where = self.field
        if field_prefix is not None:
            where = field_prefix + (f".{self.field}" if self.field and
                                    not self.field.startswith("[") else (self.field or ""))
        return Verdict(verdict=self.verdict, rules=self.rules, why=self.why, check=check,
                       suggestions=self.suggestions, line=line, unit=unit, action=action,
                       field=where, path=path)


CheckFunction = Callable[..., Iterable[Finding]]


@dataclass(frozen=True)
class Check:
    """A registered check: its name, scope, the systems and actions it applies to."""

    name: str
    scope: Scope
    func: CheckFunction
    systems: frozenset[str] | None = None
    actions: frozenset[str] | None = None
    doc: str = field(default="", compare=False)

    def applies(self, system: str, action: str | None = None) -> bool:
        """Whether this check runs for a system (and, for an event check, an action)."""
        if self.systems is not None and system not in self.systems:
            return False
        return self.actions is None or action in self.actions

    def __call__(self, subject: Any, ctx: Any) -> Iterable[Finding]:
        return self.func(subject, ctx)


CHECKS: dict[str, Check] = {}
"""Every registered check by name, in registration order."""


def _register(name: str, scope: Scope, systems: Collection[str] | None,
              actions: Collection[str] | None) -> Callable[[CheckFunction], CheckFunction]:
    if isinstance(systems, str) or isinstance(actions, str):
        raise TypeError(f"check {name!r}: systems and actions are collections, not strings")

    def decorate(func: CheckFunction) -> CheckFunction:
        if name in CHECKS and CHECKS[name].func is not func:
            raise ValueError(f"check {name!r} is registered twice")
        CHECKS[name] = Check(name, scope, func,
                             frozenset(systems) if systems is not None else None,
                             frozenset(actions) if actions is not None else None,
                             (func.__doc__ or "").strip())
        return func

    return decorate


def list_check(name: str, *, systems: Collection[str] | None = None
               ) -> Callable[[CheckFunction], CheckFunction]:
    """Register a check of a whole army list: ``func(army, ctx)``."""
    return _register(name, "list", systems, None)


def unit_check(name: str, *, systems: Collection[str] | None = None
               ) -> Callable[[CheckFunction], CheckFunction]:
    """Register a check of one unit of a list: ``func(unit, ctx)``."""
    return _register(name, "unit", systems, None)


def event_check(name: str, *, systems: Collection[str] | None = None,
                actions: Collection[str]) -> Callable[[CheckFunction], CheckFunction]:
    """Register a check of one game-log event with one of ``actions``: ``func(event, ctx)``."""
    return _register(name, "event", systems, actions)


def state_update(name: str, *, systems: Collection[str] | None = None,
                 actions: Collection[str]) -> Callable[[CheckFunction], CheckFunction]:
    """Register a game-state update run after the checks of an event: ``func(event, ctx)``."""
    return _register(name, "track", systems, actions)


def checks(scope: Scope, system: str, action: str | None = None) -> list[Check]:
    """The registered checks of a scope that apply to a system (and an action)."""
    return [c for c in CHECKS.values() if c.scope == scope and c.applies(system, action)]
