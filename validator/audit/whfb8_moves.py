"""whfb8 checks of moves: Random Movement («Случайное движение»).

A unit with Random Movement has dice instead of a Movement value («в графе Движение у них
стоит что-то вроде D6, 2D6 или D6+1. Это та дальность, на которую эти модели двигаются»):
its move is what those dice roll, so it can never exceed their highest total, and when the
log gives the roll (an added field ``roll``) it moves exactly that far. The dice are the
unit's own profile (``M``); what they mean is the rule's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from validator.audit.common import cite, extra, inches, missing, remember
from validator.audit.engine import EventContext
from validator.audit.whfb8_common import SYSTEMS, uses_rule
from validator.inputs.events import MoveEvent
from validator.registry import Finding, event_check

RANDOM_MOVEMENT = "Случайное движение"
_DICE = re.compile(r"^\s*(\d*)\s*[DdДд]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*\"?\s*$")


def _dice_max(expression: object) -> int | None:
    """The highest total of a dice expression of a profile (``"2D6"`` → 12), or None."""
    if not isinstance(expression, str):
        return None
    m = _DICE.match(expression)
    if m is None:
        return None
    count, sides = int(m.group(1) or 1), int(m.group(2))
    modifier = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
    return count * sides + modifier


@event_check("random_movement", systems=SYSTEMS, actions={"move"})
def random_movement(event: MoveEvent, ctx: EventContext) -> Iterator[Finding]:
    """A unit with Random Movement moves what its Movement dice roll: never more than their
    highest total, exactly the roll when the log gives it."""
    unit, book = ctx.unit, ctx.book
    node = remember(book, ("whfb8 random movement",), lambda: book.section(RANDOM_MOVEMENT))
    if unit is None or node is None or uses_rule(ctx, node, unit, event) is None:
        return
    rule = remember(book, ("whfb8 random movement sentence",),
                    lambda: book.sentence(node, "графе движени"))
    distance = remember(book, ("whfb8 random movement distance",),
                        lambda: book.sentence(node, "та дальность"))
    if rule is None or distance is None:
        yield missing(f"предложения о дальности движения в правиле «{RANDOM_MOVEMENT}»")
        return
    dice = unit.unit.profile.get("M")
    most = _dice_max(dice)
    if most is None:
        yield Finding("not_covered", cite(rule),
                      f"У отряда правило «{RANDOM_MOVEMENT}», но в его профиле в списке армии "
                      f"нет кубиков движения (M): дальность не с чем сравнить.")
        return
    roll = extra(event, "roll")
    moved = inches(event.distance)
    if isinstance(roll, int | float) and not isinstance(roll, bool) and roll != event.distance:
        yield Finding("violation", cite(rule, distance),
                      f"Отряд с правилом «{RANDOM_MOVEMENT}» двигается ровно на выпавшее на "
                      f"кубиках движения ({dice}): выпало {roll:g}, а пройдено {moved}.")
    elif event.distance > most:
        yield Finding("violation", cite(rule, distance),
                      f"Движение отряда — кубики {dice} из его профиля, больше {most}\" они не "
                      f"дают, а пройдено {moved}.")
    else:
        yield Finding("ok", cite(rule, distance),
                      f"Движение отряда — кубики {dice} из его профиля (до {most}\"), пройдено "
                      f"{moved}.")
