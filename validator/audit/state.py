"""The game state a log replays into: per unit, what it did this turn and phase.

The mechanism is shared by the three systems; what a system's checks ask of it differs.
Every event a unit takes part in is recorded as a :class:`Done` of the current turn (the
game turn in 40k and WHFB, the battle round in Kill Team), so a check asks "has this unit
turbo-boosted this turn?" as ``unit.did("turbo_boost")`` and "how many times did it charge
in this phase?" as ``unit.count("charge", phase="movement")``.

What is recorded is not a list but an index kept as the log streams: per action (and per
action and phase) the first and the latest :class:`Done` and how many there were. Every
question a check asks of the past is then a few dictionary lookups, whatever the length of
the turn, and the state of a unit holds a bounded number of entries (actions × phases), so
the memory of an audit is bounded by the armies' size, not by the events of a turn: a log
recorded with one turn number, or a million moves in one phase, costs per event what a
well-numbered log does.

Counters that the rules speak of per phase (casualties, the unit's size at the start of the
phase) are reset when the phase changes; ``flags`` holds what a system keeps longer (a
flight mode, a unit fleeing); ``stated`` holds what the log said of the unit explicitly
(:mod:`validator.audit.stated`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from validator.inputs.events import BaseEvent
from validator.inputs.models import Unit


@dataclass(slots=True)
class Done:
    """One thing a unit did: the event, where it stands in the log and in the game.

    ``action`` is the event's action, ``targeted:<action>`` for a unit the event targets, or
    a tag a system records beside the event (``retreat`` for a Kill Team Retreat reaction).
    """

    action: str
    turn: int | None
    phase: str | None
    line: int
    event: BaseEvent


@dataclass(slots=True)
class Statement:
    """What the log stated of a unit (a field of :mod:`validator.audit.stated`).

    Attributes:
        value: the stated value.
        line: the log line that says it.
        turn: the game's turn serial then (:attr:`GameState.turn_serial`).
        phase: the game's phase serial then (:attr:`GameState.phase_serial`).
    """

    value: bool
    line: int
    turn: int
    phase: int


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
        size_at_phase_start: models at the start of the current phase.
        casualties_this_phase: models lost in the current phase.
        flags: what a system's rules keep longer than a phase.
        stated: what the log stated of the unit, by field name (latest statement).
        last: the latest event of this turn the unit took part in (its own or as a target).
    """

    key: str
    player: str
    unit: Unit
    types: frozenset[str] = frozenset()
    type_title: str | None = None
    rules: frozenset[str] = frozenset()
    keywords: frozenset[str] = frozenset()
    size: int = 0
    size_at_phase_start: int = 0
    casualties_this_phase: int = 0
    flags: dict[str, object] = field(default_factory=dict)
    stated: dict[str, Statement] = field(default_factory=dict)
    last: Done | None = None
    # this turn's index: name → [first Done, latest Done, count, {phase: [first, latest,
    # count]}]
    _index: dict[str, list[Any]] = field(default_factory=dict)
    _recorded: list[UnitState] | None = None  # GameState's units recorded this turn
    _in_turn: bool = False  # in _recorded
    _in_phase: bool = False  # in GameState.counted

    # -- the index ----------------------------------------------------------------------
    def record(self, done: Done, names: tuple[str, ...] | None = None, *,
               last: bool = True) -> None:
        """Record something the unit did this turn.

        Args:
            done: what it did.
            names: what checks may ask for it by: ``(done.action,)`` when None; more names
                for an action a system groups with others (Kill Team's ``moved``); ``()``
                for an action no format names (a log's own action never passes for a tag a
                system records).
            last: whether it becomes :attr:`last` (False for a tag beside an event).
        """
        if last:
            self.last = done
        if not self._in_turn:
            self._in_turn = True
            if self._recorded is not None:  # the game forgets this unit's turn at the next
                self._recorded.append(self)
        entries = self._index
        phase = done.phase
        for name in (done.action,) if names is None else names:
            entry = entries.get(name)
            if entry is None:
                entries[name] = [done, done, 1, {phase: [done, done, 1]}]
                continue
            entry[1] = done
            entry[2] += 1
            in_phase = entry[3].get(phase)
            if in_phase is None:
                entry[3][phase] = [done, done, 1]
            else:
                in_phase[1] = done
                in_phase[2] += 1

    def forget_turn(self) -> None:
        """A new turn began: what the unit did in the last one no longer counts."""
        self._index.clear()
        self.last = None
        self._in_turn = False

    def _entries(self, actions: tuple[str, ...], phase: str | None,
                 phases: Collection[str]) -> list[list[Any]]:
        """The index entries of ``actions`` (of ``phase``, or of each of ``phases``)."""
        found: list[list[Any]] = []
        for action in actions:
            entry = self._index.get(action)
            if entry is None:
                continue
            if phases:
                found.extend(e for e in map(entry[3].get, phases) if e is not None)
            elif phase is None:
                found.append(entry)
            elif phase in entry[3]:
                found.append(entry[3][phase])
        return found

    def _entry(self, action: str, phase: str | None) -> list[Any] | None:
        entry = self._index.get(action)
        if entry is None or phase is None:
            return entry
        return entry[3].get(phase)  # type: ignore[no-any-return]

    def did(self, action: str, *more: str, phase: str | None = None,
            phases: Collection[str] = ()) -> Done | None:
        """The latest thing done this turn with one of the actions (in ``phase``, or in one
        of ``phases``), or None."""
        if not more and not phases:
            entry = self._entry(action, phase)
            return entry[1] if entry is not None else None
        found: Done | None = None
        for entry in self._entries((action, *more), phase, phases):
            if found is None or entry[1].line > found.line:
                found = entry[1]
        return found

    def first(self, action: str, *more: str, phase: str | None = None,
              phases: Collection[str] = ()) -> Done | None:
        """The first thing done this turn with one of the actions (in ``phase``, or in one
        of ``phases``), or None."""
        if not more and not phases:
            entry = self._entry(action, phase)
            return entry[0] if entry is not None else None
        found: Done | None = None
        for entry in self._entries((action, *more), phase, phases):
            if found is None or entry[0].line < found.line:
                found = entry[0]
        return found

    def count(self, action: str, *more: str, phase: str | None = None) -> int:
        """How many times this turn the unit did one of the actions (in ``phase``)."""
        if not more:
            entry = self._entry(action, phase)
            return entry[2] if entry is not None else 0
        return sum(e[2] for e in self._entries((action, *more), phase, ()))

    # -- what the unit is -----------------------------------------------------------------
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
    """The whole game: the units of both armies, where the log is, what is pending.

    ``turn_serial`` and ``phase_serial`` count the turns and phases the audit has seen (a
    turn the log did not number, see :mod:`validator.audit.engine`, counts too): what a
    system keeps in ``flags`` for "this turn" or "this phase" compares them.
    """

    units: dict[str, UnitState]
    turn: int | None = None
    phase: str | None = None
    player: str | None = None
    turn_serial: int = 0
    phase_serial: int = 0
    obligations: list[Obligation] = field(default_factory=list)
    flags: dict[str, object] = field(default_factory=dict)
    by_id: dict[str, list[UnitState]] = field(default_factory=dict)
    # units with something recorded this turn / with phase counters changed this phase
    _recorded: list[UnitState] = field(default_factory=list)
    counted: list[UnitState] = field(default_factory=list)
    """The units whose phase counters changed in this phase (:meth:`start_phase` resets)."""

    def __post_init__(self) -> None:
        for unit in self.units.values():
            self.by_id.setdefault(unit.unit.id, []).append(unit)
            unit._recorded = self._recorded

    # -- recording ------------------------------------------------------------------------
    def record(self, unit: UnitState, done: Done, names: tuple[str, ...] | None = None, *,
               last: bool = True) -> None:
        """Record ``done`` for ``unit`` (see :meth:`UnitState.record`)."""
        if unit._recorded is None:
            unit._recorded = self._recorded
        unit.record(done, names, last=last)

    def lose(self, unit: UnitState, count: int, size_at_phase_start: int | None) -> None:
        """The unit lost ``count`` models (``size_at_phase_start``: as the log states it)."""
        if not unit._in_phase:
            unit._in_phase = True
            self.counted.append(unit)
        unit.size = max(unit.size - count, 0)
        unit.casualties_this_phase += count
        if size_at_phase_start is not None:
            unit.size_at_phase_start = size_at_phase_start

    def start_turn(self) -> None:
        """A new turn: every unit's record of the last one is dropped."""
        for unit in self._recorded:
            unit.forget_turn()
        self._recorded.clear()
        self.turn_serial += 1

    def start_phase(self) -> None:
        """A new phase: the phase counters start again."""
        for unit in self.counted:
            unit.size_at_phase_start = unit.size
            unit.casualties_this_phase = 0
            unit._in_phase = False
        self.counted.clear()
        self.phase_serial += 1

    # -- lookups --------------------------------------------------------------------------
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
        matches = self.by_id.get(ref, ())
        return matches[0].key if len(matches) == 1 else ref

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
