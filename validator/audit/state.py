"""The game state a log replays into: per unit, what it did this turn and phase.

The mechanism is shared by the three systems; what a system's checks ask of it differs.
Every event a unit takes part in is recorded as a :class:`Done` in that unit's history of the
current turn (the game turn in 40k and WHFB, the battle round in Kill Team), so a check asks
"has this unit turbo-boosted this turn?" as ``unit.did("turbo_boost")``. Counters that the
rules speak of per phase (casualties, the unit's size at the start of the phase, panic tests)
are reset when the phase changes; ``flags`` holds what a system keeps longer (a flight mode,
a unit fleeing, a psyker that manifested).

Memory stays bounded whatever the log's length: history is kept for the current turn only.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from validator.inputs.events import BaseEvent
from validator.inputs.models import Unit


@dataclass(slots=True)
class Done:
    """One thing a unit did: the event, where it stands in the log and in the game."""

    action: str
    turn: int | None
    phase: str | None
    line: int
    event: BaseEvent


@dataclass(slots=True)
class UnitState:
    """A unit of one army during the game.

    Attributes:
        key: ``PLAYER:unit-id`` (``"A:jetbikes"``), as log targets write it.
        player: the player the unit belongs to.
        unit: the unit as its army list gives it.
        types: the KB ids of its unit type and every type that type inherits (empty when
            the type is unknown); checks test membership.
        type_title: the title of its resolved unit type, for messages.
        rules: folded names of its declared special rules, without parameters.
        keywords: upper-case Kill Team keywords (``FLY``, ``PSYKER``).
        size: models left.
        history: what it did this turn, in log order.
        size_at_phase_start: models at the start of the current phase.
        casualties_this_phase: models lost in the current phase.
        flags: what a system's rules keep longer than a phase.
    """

    key: str
    player: str
    unit: Unit
    types: frozenset[str] = frozenset()
    type_title: str | None = None
    rules: frozenset[str] = frozenset()
    keywords: frozenset[str] = frozenset()
    size: int = 0
    history: list[Done] = field(default_factory=list)
    size_at_phase_start: int = 0
    casualties_this_phase: int = 0
    flags: dict[str, object] = field(default_factory=dict)

    def did(self, *actions: str, phase: str | None = None, turn: int | None = None,
            before: int | None = None) -> Done | None:
        """The latest thing done this turn with one of ``actions`` (in ``phase``), or None.

        ``before`` limits the search to events before that log line.
        """
        for done in reversed(self.history):
            if before is not None and done.line >= before:
                continue
            if done.action in actions and (phase is None or done.phase == phase) and (
                    turn is None or done.turn == turn):
                return done
        return None

    def count(self, *actions: str, phase: str | None = None) -> int:
        """How many times this turn the unit did one of ``actions`` (in ``phase``)."""
        return sum(1 for d in self.history
                   if d.action in actions and (phase is None or d.phase == phase))

    def is_a(self, *type_ids: str) -> bool:
        """Whether the unit's type is (or inherits) one of ``type_ids``."""
        return any(t in self.types for t in type_ids)

    def has_rule(self, name: str) -> bool:
        """Whether the unit declares a special rule (folded name, parameter ignored)."""
        return name in self.rules

    def has_keyword(self, keyword: str) -> bool:
        """Whether the unit has a Kill Team keyword (any case)."""
        return keyword.upper() in self.keywords

    def __repr__(self) -> str:
        return f"UnitState({self.key}, {self.type_title}, size={self.size})"


@dataclass(slots=True)
class Obligation:
    """Something the rules require of a unit before the phase ends (a panic test).

    If nothing fulfils it by the end of the phase, ``finding`` is reported against the
    event that required it (``line``, ``unit``, ``action``).
    """

    kind: str
    unit: str
    line: int
    action: str
    finding: object  # validator.registry.Finding (not imported: the registry imports models)


@dataclass(slots=True)
class GameState:
    """The whole game: the units of both armies, where the log is, what is pending."""

    units: dict[str, UnitState]
    turn: int | None = None
    phase: str | None = None
    player: str | None = None
    obligations: list[Obligation] = field(default_factory=list)
    flags: dict[str, object] = field(default_factory=dict)

    def players(self) -> list[str]:
        """The players, in the header's order."""
        return list(dict.fromkeys(u.player for u in self.units.values()))

    def unit(self, key: str) -> UnitState | None:
        """The unit with a ``PLAYER:id`` key, or None."""
        return self.units.get(key)

    def key_of(self, ref: str) -> str:
        """The ``PLAYER:id`` key a target reference means (``"tactical"`` → ``"B:tactical"``
        when one army has that id), else the reference as written."""
        if ref in self.units:
            return ref
        matches = [key for key, unit in self.units.items() if unit.unit.id == ref]
        return matches[0] if len(matches) == 1 else ref

    def expect(self, kind: str, unit: str, line: int, action: str, finding: object) -> None:
        """Record an obligation (once per kind and unit until it is fulfilled)."""
        if not any(o.kind == kind and o.unit == unit for o in self.obligations):
            self.obligations.append(Obligation(kind, unit, line, action, finding))

    def fulfil(self, kind: str, unit: str) -> Obligation | None:
        """Remove and return the pending obligation of this kind for the unit, if any."""
        for index, obligation in enumerate(self.obligations):
            if obligation.kind == kind and obligation.unit == unit:
                return self.obligations.pop(index)
        return None

    def pending(self, kind: str, unit: str) -> Obligation | None:
        """The pending obligation of this kind for the unit, if any."""
        return next((o for o in self.obligations if o.kind == kind and o.unit == unit), None)

    def units_of(self, player: str, ids: Collection[str] | None = None) -> list[UnitState]:
        """A player's units (those with the given ids, when given)."""
        return [u for u in self.units.values()
                if u.player == player and (ids is None or u.unit.id in ids)]
