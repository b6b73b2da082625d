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
from validator.audit.whfb8_common import (
    MOVE_ACTIONS,
    SYSTEMS,
    engage,
    leave_combat,
    state,
)
from validator.audit.whfb8_deploy import start_of_play
from validator.inputs.events import EVENT_TYPES, BaseEvent, CasualtiesEvent, HitEvent, WoundEvent

__all__ = ["track"]

# Actions after which a fleeing unit is no longer fleeing: it rallied to do them, or the log
# says so («rally», an action beyond FORMATS: no rule of the corpus checks it, see docs).
RALLIED_ACTIONS = frozenset({"move", "charge", "shoot", "rally"})


@tracker("whfb8_track", systems=SYSTEMS, actions=frozenset({*EVENT_TYPES, "rally"}))
def track(event: BaseEvent, ctx: EventContext) -> None:
    """Keep the whfb8 state: moves, charges, who fights whom, who flees, who is gone."""
    st = state(ctx)
    if st.play_started is None:
        start_of_play(ctx, event)
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
