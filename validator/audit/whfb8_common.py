"""What the whfb8 checks share: their game state, the rules a unit declares, citations.

Every number a whfb8 check compares with comes from a fact of the KB, every rule it cites
is found by its title (:meth:`~validator.rulebook.Rulebook.section`) and quoted with the
sentence that decides. This module holds no rule of the game, only the bookkeeping:

- :class:`Whfb8State`, kept in ``GameState.flags["whfb8"]``: a clock of phases and player
  turns (a WHFB game turn holds two player turns, so "the same phase" and "the same turn"
  of the rules are told apart by counting phase changes), which units fight each other,
  flee, were destroyed, took a panic test in which phase, and where deployment stands;
- :func:`uses_rule`: whether a unit declares a special rule (in its army list, one of its
  parts, or the event's ``rules``), resolved through the KB so that any inflected form or
  a parameter ("Регенерация (5+)") is understood;
- :func:`flag`, a boolean field the log may add beyond FORMATS §3.

What every system shares (lookups once per book, ``missing``, ``extra``, ``inches``, the
state-update decorator) is in :mod:`validator.audit.common`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import cast

from kb.lemmas import fold
from kb.models import Node
from kb.names import split_parameter
from validator.audit.common import extra, remember
from validator.audit.engine import PHASE_TITLES, EventContext
from validator.audit.state import UnitState
from validator.inputs.events import BaseEvent
from validator.verdicts import RuleCitation

SYSTEM = "whfb8"
SYSTEMS = frozenset({SYSTEM})

# The order of a player turn's phases (FORMATS §3): a phase earlier than the last one seen in
# the same game turn starts the other player's turn.
PHASE_ORDER = ("start", "movement", "magic", "shooting", "close_combat")

# What a hit or wound event claims, as the report says it.
CLAIMS = {"slain": "цель убита", "wound": "рана", "no_wound": "раны нет", "hit": "попадание",
          "miss": "промах", "auto_wound": "автоматическая рана"}

# Actions that move a unit on the table (a pivot is a move of distance 0 with ``pivot``).
MOVE_ACTIONS = frozenset({"move", "charge", "flee"})


@dataclass
class Clock:
    """Counts phases and player turns as the log goes (see the module docstring)."""

    turn: int | None = None
    phase_id: str | None = None
    started: bool = False
    phase: int = 0
    player_turn: int = 0


@dataclass
class Whfb8State:
    """The whfb8 game state the checks keep beside the shared :class:`GameState`."""

    clock: Clock = field(default_factory=Clock)
    # unit key → keys of the enemy units it is fighting in close combat (or STATED_ENEMY)
    engaged: dict[str, set[str]] = field(default_factory=dict)
    # unit key → the phase (clock) in which shooting showed it is not in close combat
    shot_at: dict[str, int] = field(default_factory=dict)
    fleeing: set[str] = field(default_factory=set)
    destroyed: set[str] = field(default_factory=set)
    # unit key → (phase index, line) of its last panic test
    panic_tested: dict[str, tuple[int, int]] = field(default_factory=dict)
    # unit key → the reason of its pending panic test, as a noun phrase
    panic_reason: dict[str, str] = field(default_factory=dict)
    first_player: str | None = None
    first_turn: int | None = None
    play_started: int | None = None  # line of the first event that is not deployment
    vanguard_line: int | None = None
    scouts_line: int | None = None


def state(ctx: EventContext) -> Whfb8State:
    """The whfb8 state of this game (made on first use), its clock brought up to date."""
    game = ctx.game
    found = game.flags.get(SYSTEM)
    if found is None:
        found = game.flags[SYSTEM] = Whfb8State()
    st = cast(Whfb8State, found)
    clock = st.clock
    if clock.phase_id != game.phase or clock.turn != game.turn or not clock.started:
        _tick(clock, game.turn, game.phase)
    return st


def _tick(clock: Clock, turn: int | None, phase: str | None) -> None:
    if (not clock.started or turn != clock.turn
            or _phase_rank(phase) < _phase_rank(clock.phase_id)):
        clock.player_turn += 1
    clock.phase += 1
    clock.turn, clock.phase_id, clock.started = turn, phase, True


def _phase_rank(phase: str | None) -> int:
    return PHASE_ORDER.index(phase) if phase in PHASE_ORDER else -1


def phase_name(phase: str | None) -> str:
    """A phase as the report names it («стрельба»)."""
    return PHASE_TITLES.get(phase or "", phase or "?")


# -- rules a unit declares --------------------------------------------------------------
def rule_id(ctx: EventContext, name: str) -> str | None:
    """The KB node a special rule's name means (its parameter dropped), looked up once."""
    book = ctx.book

    def compute() -> str | None:
        node = book.find(split_parameter(name)[0], ("rule", "concept"))
        return node.id if node is not None else None

    return remember(book, ("rule id", name), compute)


def declared(ctx: EventContext, unit: UnitState) -> dict[str, str]:
    """The rules a unit's army list gives it (the unit's and its parts'): node id → name."""
    cached = unit.flags.get("whfb8:declared")
    if cached is not None:
        return cast(dict[str, str], cached)
    found: dict[str, str] = {}
    written = [*unit.unit.rules, *(r for part in unit.unit.parts for r in part.rules)]
    for name in written:
        node_id = rule_id(ctx, name)
        if node_id is not None:
            found.setdefault(node_id, name)
    unit.flags["whfb8:declared"] = found
    return found


def uses_rule(ctx: EventContext, node: Node | None, unit: UnitState | None,
              event: BaseEvent | None = None) -> str | None:
    """The rule as written if the unit (or the event's ``rules``) has it, else None."""
    if node is None:
        return None
    if unit is not None:
        name = declared(ctx, unit).get(node.id)
        if name is not None:
            return name
    if event is not None and getattr(event, "rules", None):
        for name in event_rules(event):
            if rule_id(ctx, name) == node.id:
                return name
    return None


def event_rules(event: BaseEvent | None) -> tuple[str, ...]:
    """The ``rules`` an event names (hit and wound events carry them)."""
    rules = getattr(event, "rules", ()) if event is not None else ()
    return tuple(r for r in rules if isinstance(r, str))


def parameter(name: str | None) -> str | None:
    """The parameter of a rule as written: «Регенерация (5+)» → ``"5+"``."""
    return split_parameter(name)[1] if name else None


def edge_targets(ctx: EventContext, node: Node, kind: str) -> frozenset[str]:
    """Ids of the nodes a node's edges of one kind lead to (``applies_to``, ``excludes``)."""
    graph = ctx.book.graph
    return remember(ctx.book, ("edge targets", kind, node.id),
                    lambda: frozenset(e.target for e in graph.out_edges(node.id)
                                      if e.kind == kind))


def edge_citation(ctx: EventContext, node: Node, kind: str) -> RuleCitation:
    """The node cited with the sentence that gives its first edge of ``kind``."""
    for edge in ctx.book.graph.out_edges(node.id):
        if edge.kind == kind and edge.evidence:
            return ctx.book.cite(node, " ".join(edge.evidence.split()))
    return ctx.book.cite(node)


def titles(ctx: EventContext, ids: Iterable[str]) -> str:
    """Node titles in «», sorted, joined by commas."""
    names = sorted(ctx.book.graph.nodes[i].title for i in ids if i in ctx.book.graph.nodes)
    return ", ".join(f"«{n}»" for n in names)


# -- units --------------------------------------------------------------------------------
def resolve_unit(ctx: EventContext, ref: str, player: str | None) -> UnitState | None:
    """The unit a log names by ``PLAYER:id`` or, for ``player``'s army, by its id."""
    if ":" in ref:
        return ctx.game.units.get(ref)
    if player is not None:
        return ctx.game.units.get(f"{player}:{ref}")
    return None


SHOOTING = "shooting"
SHOOTING_CAUSES = ("shoot", "stand", "стрел", "стоять")
"""How a ``casualties`` event's ``cause`` says shooting («стрельба», «Стоять и стрелять»)."""


def shooting_casualties(event: BaseEvent, ctx: EventContext) -> bool:
    """Whether a ``casualties`` event's models were shot (in the shooting phase, or by its
    ``cause``): a unit shot at is not in close combat."""
    cause = getattr(event, "cause", None)
    return (event.phase or ctx.game.phase) == SHOOTING or (
        isinstance(cause, str) and fold(cause).startswith(SHOOTING_CAUSES))


STATED_ENEMY = "?"
"""The enemy of a unit the log states is in close combat (``in_close_combat: true``)."""


def in_combat(ctx: EventContext, unit: UnitState) -> bool:
    """Whether the log shows the unit fighting an enemy that is still in the fight.

    Not in a phase in which it was shot at or took shooting casualties (no shooting into
    close combat): a charger that a Stand and Shoot reaction hits is not yet fighting.
    """
    st = state(ctx)
    return bool(st.engaged.get(unit.key)) and st.shot_at.get(unit.key) != st.clock.phase


def leave_combat(st: Whfb8State, key: str) -> None:
    """The unit fights no one any more (it fled or was destroyed)."""
    for enemy in st.engaged.pop(key, set()):
        st.engaged.get(enemy, set()).discard(key)


def engage(st: Whfb8State, one: str, other: str) -> None:
    """Two units fight each other in close combat."""
    if one == other:
        return
    st.engaged.setdefault(one, set()).add(other)
    st.engaged.setdefault(other, set()).add(one)


def moved_this_turn(ctx: EventContext, unit: UnitState) -> BaseEvent | None:
    """The unit's last move of the current player turn (see :data:`MOVE_ACTIONS`), if any,
    or the event that states it moved (``moved: true``); None when it did not, or when the
    log states so after its last move (``moved: false``)."""
    record = unit.flags.get("whfb8:moved")
    if isinstance(record, tuple) and record[0] == state(ctx).clock.player_turn:
        return cast(BaseEvent | None, record[1])
    return None


# -- event fields beyond FORMATS §3 -------------------------------------------------------
def flag(event: BaseEvent | object, name: str) -> bool:
    """Whether an added boolean field is true."""
    return extra(event, name) is True


# -- numbers ------------------------------------------------------------------------------
def roll_needed(value: object) -> int | None:
    """A roll as a number: ``"5+"`` or ``5`` → 5; anything else → None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().rstrip("+").isdigit():
        return int(value.strip().rstrip("+"))
    return None
