"""Game state the log states explicitly, and the hooks that set it before an event's checks.

The audit infers what the rules speak of (a unit is in close combat, it flees, it moved this
turn) from the events it has seen; ``docs/formats.rst`` («Состояние игры») lists every such
inference. A recorder who knows better may say it: any event may carry

- ``in_close_combat``: the acting unit is in close combat (Kill Team: within the engagement
  distance of an enemy model) at this event; 40k's older ``locked_in_combat`` means the same;
- ``fleeing`` (whfb8): the unit is fleeing;
- ``moved``: the unit has moved this turn (whfb8: this player turn) — FORMATS §3 has it on
  ``shoot``; here any event may carry it.

A statement is applied before the event's checks and wins over what the audit inferred
before it; from there on the audit goes on inferring from the events that follow (a stated
combat ends when the unit flees, a stated «not moved» when it moves). Each statement is kept
in ``UnitState.stated``; a system that keeps its own state (whfb8: who fights whom, who
flees) registers a :func:`before_checks` hook that applies it there.

Example::

    {"turn": 3, "phase": "shooting", "player": "B", "unit": "crossbows", "action": "shoot",
     "target": "A:trolls", "moved": false, "in_close_combat": false}
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Literal

from validator.audit.state import Done, GameState, Statement, UnitState
from validator.inputs.events import STATE_FIELDS, BaseEvent

if TYPE_CHECKING:
    from validator.audit.engine import EventContext

Hook = Callable[[BaseEvent, "EventContext"], None]
Scope = Literal["turn", "phase"]

LEGACY = {"locked_in_combat": "in_close_combat"}
"""Older names of state fields, read from an event's extra fields."""

_HOOKS: list[tuple[frozenset[str], frozenset[str] | None, Hook]] = []

Where = tuple[str, frozenset[object]]
GROUPS: dict[str, dict[str, list[tuple[str, Where | None]]]] = {}
"""System → action → the groups the action belongs to (a name, and the field value an event
must have, if any), which the index of a turn answers for too: in Kill Team every action that
moves a model is also ``moved``, and a ``react`` of kind ``retreat`` is ``retreat``."""


def group(system: str, name: str, actions: Collection[str], *,
          where: tuple[str, Collection[object]] | None = None) -> None:
    """Index every event of ``actions`` in ``system`` (whose field ``where[0]`` has one of
    the values ``where[1]``, when given) under ``name`` as well.

    Example::

        group("killteam2018", "retreat", {"react"}, where=("kind", {"retreat"}))
    """
    test = (where[0], frozenset(where[1])) if where is not None else None
    for action in actions:
        GROUPS.setdefault(system, {}).setdefault(action, []).append((name, test))


TARGETED: dict[str, set[str]] = {}
"""System → the actions whose targets' index answers ``targeted:<action>`` (the others only
make the event the target's :attr:`~validator.audit.state.UnitState.last`)."""


def index_targets(system: str, actions: Collection[str]) -> None:
    """Let the checks of ``system`` ask a unit whether it was the target of ``actions``
    (``unit.did("targeted:charge")``)."""
    TARGETED.setdefault(system, set()).update(actions)


def names_of(system: str, action: str) -> tuple[tuple[str, ...], list[tuple[str, Where]]]:
    """The names every event of ``action`` is indexed by (the action and its plain groups),
    and the groups that depend on a field's value."""
    groups = GROUPS.get(system, {}).get(action, [])
    plain = (action, *(name for name, where in groups if where is None))
    return plain, [(name, where) for name, where in groups if where is not None]


def before_checks(*, systems: Collection[str], actions: Collection[str] | None = None
                  ) -> Callable[[Hook], Hook]:
    """Register ``hook(event, ctx)``, run before an event's checks (of ``actions``, or of
    every event that states something when ``actions`` is None)."""
    def decorate(hook: Hook) -> Hook:
        _HOOKS.append((frozenset(systems),
                       frozenset(actions) if actions is not None else None, hook))
        return hook

    return decorate


def hooks_for(system: str, action: str) -> tuple[list[Hook], list[Hook]]:
    """The hooks of a system for an action: those that run for every event of it, and those
    that run only when the event states something."""
    always = [h for s, a, h in _HOOKS if system in s and a is not None and action in a]
    stating = [h for s, a, h in _HOOKS if system in s and a is None]
    return always, stating


def read(event: BaseEvent) -> tuple[dict[str, bool], list[str]]:
    """The state fields an event carries (legacy names under their new ones), and the names
    of those whose value is not ``true`` or ``false``."""
    found: dict[str, bool] = {}
    wrong: list[str] = []
    extra = event.__pydantic_extra__ or {}
    for name in STATE_FIELDS:
        value = extra.get(name, event.__dict__.get(name))
        if isinstance(value, bool):
            found[name] = value
        elif value is not None:
            wrong.append(name)
    for old, new in LEGACY.items():
        value = extra.get(old)
        if isinstance(value, bool):
            found.setdefault(new, value)
        elif value is not None:
            wrong.append(old)
    return found, wrong


def statements(event: BaseEvent) -> dict[str, bool]:
    """The state fields an event carries, by name (see :func:`read`)."""
    return read(event)[0]


def states_something(event: BaseEvent) -> bool:
    """Whether the event may carry a state field (checked for every event: kept cheap)."""
    return bool(event.__pydantic_extra__) or event.__dict__.get("moved") is not None


def note(game: GameState, unit: UnitState, line: int, found: dict[str, bool]) -> None:
    """Keep what the event states of its unit in ``unit.stated``."""
    for name, value in found.items():
        unit.stated[name] = Statement(value, line, game.turn_serial, game.phase_serial)


def stated(game: GameState, unit: UnitState, name: str, scope: Scope) -> Statement | None:
    """The latest statement of ``name`` about the unit in this turn or phase, or None."""
    found = unit.stated.get(name)
    if found is None:
        return None
    stale = found.turn != game.turn_serial if scope == "turn" else (
        found.phase != game.phase_serial)
    return None if stale else found


def newer(statement: Statement | None, done: Done | None) -> bool:
    """Whether a statement is the latest word: no event says otherwise after it.

    A statement is the state *before* its own event, so that event (recorded at the same
    line, once its checks ran) comes after it.
    """
    return statement is not None and (done is None or statement.line > done.line)
