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


def statements(event: BaseEvent) -> dict[str, bool]:
    """The state fields an event carries (legacy names under their new ones)."""
    fields = event.__dict__
    found = {name: fields[name] for name in STATE_FIELDS if fields.get(name) is not None}
    extra = event.__pydantic_extra__
    if extra:
        for old, new in LEGACY.items():
            if new not in found and isinstance(extra.get(old), bool):
                found[new] = extra[old]
    return found


def states_something(event: BaseEvent) -> bool:
    """Whether the event carries a state field (checked for every event: kept cheap)."""
    fields = event.__dict__
    if (fields.get("in_close_combat") is not None or fields.get("fleeing") is not None
            or fields.get("moved") is not None):
        return True
    extra = event.__pydantic_extra__
    return extra is not None and any(name in extra for name in LEGACY)


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
