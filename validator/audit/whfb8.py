"""Audit checks of whfb8 (Warhammer Fantasy Battle, 8th edition).

The checks live in modules by subject and register themselves on import:
:mod:`~validator.audit.whfb8_combat` (Killing Blow, Poisoned Attacks, Regeneration, impact
hits), :mod:`~validator.audit.whfb8_shooting` (Move or Fire, Quick to Fire, Multiple Shots),
:mod:`~validator.audit.whfb8_deploy` (Vanguard, Scouts, Ambushers),
:mod:`~validator.audit.whfb8_moves` (Random Movement) and
:mod:`~validator.audit.whfb8_panic` (panic tests required, forbidden and missing). This
module keeps the game state they share up to date after every event.
"""

from __future__ import annotations

from validator.audit import (  # noqa: F401  (registration)
    whfb8_combat,
    whfb8_deploy,
    whfb8_moves,
    whfb8_panic,
    whfb8_shooting,
)
from validator.audit.common import tracker
from validator.audit.engine import EventContext
from validator.audit.state import UnitState
from validator.audit.stated import before_checks, statements
from validator.audit.whfb8_common import (
    MOVE_ACTIONS,
    SHOOTING,
    STATED_ENEMY,
    SYSTEMS,
    Whfb8State,
    engage,
    leave_combat,
    shooting_casualties,
    state,
)
from validator.audit.whfb8_deploy import start_of_play
from validator.inputs.events import (
    EVENT_TYPES,
    BaseEvent,
    CasualtiesEvent,
    HitEvent,
    ShootEvent,
    WoundEvent,
)

__all__ = ["apply_statements", "track"]

# Actions after which a fleeing unit is no longer fleeing: it rallied to do them, or the log
# says so («rally», an action beyond FORMATS: no rule of the corpus checks it, see docs).
RALLIED_ACTIONS = frozenset({"move", "charge", "shoot", "rally"})


def _shot_at(st: Whfb8State, unit: UnitState, phase: str | None) -> None:
    """Shooting shows that the unit is not in close combat: no one shoots into a combat, and
    a unit in combat does not shoot. In the shooting phase no combat can have begun since
    the last close combat phase, so its combat is over (or never was); in another phase (a
    Stand and Shoot reaction) the unit is only not in combat in that phase."""
    if phase == SHOOTING:
        leave_combat(st, unit.key)
    st.shot_at[unit.key] = st.clock.phase


def _not_in_combat_when_shot(event: BaseEvent, ctx: EventContext, st: Whfb8State) -> None:
    """A unit shot at, or taking shooting casualties, or shooting in the shooting phase, is
    not in close combat (see :func:`_shot_at`; the panic checks of a ``casualties`` event
    read :func:`~validator.audit.whfb8_common.shooting_casualties` themselves)."""
    phase = event.phase or ctx.game.phase
    unit = ctx.unit
    kind = type(event)
    if kind is ShootEvent:
        shot = [unit, *ctx.targets] if unit is not None and phase == SHOOTING else ctx.targets
    elif kind is HitEvent or kind is WoundEvent:
        attack = event.attack  # type: ignore[attr-defined]
        shot = ctx.targets if attack == SHOOTING or (attack is None and phase == SHOOTING) \
            else []
    elif unit is not None and shooting_casualties(event, ctx):
        shot = [unit]
    else:
        return
    for one in shot:
        _shot_at(st, one, phase)


@before_checks(systems=SYSTEMS)
def apply_statements(event: BaseEvent, ctx: EventContext) -> None:
    """What the event states of its unit wins over what the audit inferred: in close combat
    or not, fleeing or not, moved this player turn or not (:mod:`validator.audit.stated`)."""
    unit = ctx.unit
    if unit is None:
        return
    st = state(ctx)
    said = statements(event)
    fighting, fleeing, moved = (said.get("in_close_combat"), said.get("fleeing"),
                                said.get("moved"))
    if fleeing is True:
        leave_combat(st, unit.key)
        st.fleeing.add(unit.key)
    elif fleeing is False:
        st.fleeing.discard(unit.key)
    if fighting is True:
        engage(st, unit.key, STATED_ENEMY)
        st.shot_at.pop(unit.key, None)
    elif fighting is False:
        leave_combat(st, unit.key)
    if moved is not None:
        unit.flags["whfb8:moved"] = (st.clock.player_turn, event if moved else None)


@tracker("whfb8_track", systems=SYSTEMS, actions=frozenset({*EVENT_TYPES, "rally"}))
def track(event: BaseEvent, ctx: EventContext) -> None:
    """Keep the whfb8 state: moves, charges, who fights whom, who flees, who is gone."""
    st = state(ctx)
    if st.play_started is None:
        start_of_play(ctx, event)
    kind = type(event)
    if kind is ShootEvent or kind is HitEvent or kind is WoundEvent or kind is CasualtiesEvent:
        _not_in_combat_when_shot(event, ctx, st)
    unit = ctx.unit
    if unit is None:
        return
    turn = st.clock.player_turn
    action = event.action
    if action in MOVE_ACTIONS:
        unit.flags["whfb8:moved"] = (turn, event)
    if action in RALLIED_ACTIONS:
        st.fleeing.discard(unit.key)
    if action == "charge":
        unit.flags["whfb8:charged"] = turn
        for target in ctx.targets:
            target.flags["whfb8:was_charged"] = turn
            engage(st, unit.key, target.key)
    elif (action == "hit" or action == "wound") and isinstance(event, HitEvent | WoundEvent) and (
            event.attack == "close_combat" or (event.attack is None
                                               and event.phase == "close_combat")):
        for target in ctx.targets:
            engage(st, unit.key, target.key)
    elif action in ("flee", "break_test_failed"):
        leave_combat(st, unit.key)
        st.fleeing.add(unit.key)
    elif action == "unit_destroyed" or (isinstance(event, CasualtiesEvent) and unit.size <= 0):
        leave_combat(st, unit.key)
        st.fleeing.discard(unit.key)
        st.destroyed.add(unit.key)
        ctx.game.fulfil("panic_test", unit.key)
