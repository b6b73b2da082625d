"""whfb8 checks of shooting: Move or Fire, Quick to Fire, Multiple Shots.

Fields a log may add to the events of FORMATS §3, read here:

- ``shoot``: ``multiple_shots``: ``true`` / ``false`` (the unit fires its Multiple Shots, or
  not), or a list with one entry per group of models (``[true, false]``: two modes); the
  same ``multiple_shots`` may stand on each weapon instead;
- ``hit``: ``modifiers``: the to-hit modifier by its cause, ``{"moved": -1,
  "multiple_shots": -1, "cover": -1}``, when the log breaks ``modifier`` down.
"""

from __future__ import annotations

from collections.abc import Iterator

from validator.audit.common import extra, missing, tracker
from validator.audit.engine import EventContext
from validator.audit.whfb8_common import (
    MOVE_ACTIONS,
    SYSTEMS,
    moved_this_turn,
    state,
    uses_rule,
)
from validator.inputs.events import BaseEvent, HitEvent, MoveEvent, ShootEvent
from validator.registry import Finding, event_check

MOVED_KEYS = ("moved", "move", "movement", "движение")
MULTIPLE_KEYS = ("multiple_shots", "multiple", "многочисленные выстрелы")


def _shooting(event: HitEvent) -> bool:
    return event.attack == "shooting" or (event.attack is None and event.phase == "shooting")


def _part(event: HitEvent, keys: tuple[str, ...]) -> int | None:
    """The part of the to-hit modifier the log gives for one cause, if it breaks it down."""
    parts = extra(event, "modifiers")
    if not isinstance(parts, dict):
        return None
    for key, value in parts.items():
        if isinstance(key, str) and key.strip().lower() in keys and isinstance(value, int):
            return value
    return 0


# -- Move or Fire -------------------------------------------------------------------------
@event_check("move_or_fire", systems=SYSTEMS, actions={"shoot"})
def move_or_fire(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """Move or Fire: no shooting in a turn the unit moved, a pivot or a compulsory move too."""
    assert isinstance(event, ShootEvent)
    rule = ctx.book.section("Двигаться или стрелять")
    unit = ctx.unit
    if unit is None or not uses_rule(ctx, rule, unit):
        return
    same_turn = ctx.book.sentence(rule, "в тот же ход")
    pivot = ctx.book.sentence(rule, "поворачивалось на месте")
    if same_turn is None or pivot is None:
        yield missing("правила «Двигаться или стрелять»")
        return
    move = moved_this_turn(ctx, unit)
    if isinstance(move, MoveEvent) and not move.distance and move.pivot:
        yield Finding("violation", (pivot.citation(),),
                      f"Отряд в этот ход поворачивался на месте ({move.pivot:g}°), а оружие "
                      "«Двигаться или стрелять» после этого стрелять не может.")
    elif move is not None and (move.action in MOVE_ACTIONS or move is not event):
        what = {"charge": "нападал", "flee": "отступал"}.get(move.action, "двигался")
        yield Finding("violation", (same_turn.citation(),),
                      f"Отряд в этот ход {what}, а оружие «Двигаться или стрелять» в такой "
                      "ход не стреляет.")
    elif event.moved:
        yield Finding("violation", (same_turn.citation(),),
                      "Журнал отмечает, что отряд двигался в этот ход, а оружие «Двигаться или "
                      "стрелять» в такой ход не стреляет.")
    else:
        yield Finding("ok", (same_turn.citation(),),
                      "Отряд в этот ход не двигался: оружие «Двигаться или стрелять» стреляет.")


# -- Quick to Fire ------------------------------------------------------------------------
@event_check("quick_to_fire", systems=SYSTEMS, actions={"hit"})
def quick_to_fire(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """Quick to Fire: no -1 to hit for shooting after moving."""
    assert isinstance(event, HitEvent)
    rule = ctx.book.section("Лёгкий в стрельбе")
    unit = ctx.unit
    if unit is None or not _shooting(event) or not uses_rule(ctx, rule, unit):
        return
    shot = unit.flags.get("whfb8:shot")
    moved = moved_this_turn(ctx, unit) is not None or (
        isinstance(shot, tuple) and shot[0] == state(ctx).clock.phase and shot[1])
    if not moved:
        return
    penalty = ctx.book.fact(rule, name="modifier")
    if penalty is None:
        yield missing("пенальти за стрельбу после движения в правиле «Лёгкий в стрельбе»")
        return
    part = _part(event, MOVED_KEYS)
    shown = f"{penalty.number:g}"
    if part is not None and part != 0:
        yield Finding("violation", (penalty.citation(),),
                      f"Оружие «Лёгкий в стрельбе» не получает пенальти {shown} за движение, а "
                      f"в модификаторе за движение заявлено {part:+d}.")
    elif part is None and event.modifier < 0:
        yield Finding("warning", (penalty.citation(),),
                      f"Отряд двигался и стреляет с модификатором {event.modifier:+d}: если это "
                      f"пенальти {shown} за движение, то у оружия «Лёгкий в стрельбе» его нет.")
    else:
        yield Finding("ok", (penalty.citation(),),
                      f"Отряд двигался, но оружие «Лёгкий в стрельбе» стреляет без пенальти "
                      f"{shown} (модификатор {event.modifier:+d}).")


# -- Multiple Shots -----------------------------------------------------------------------
def _modes(event: ShootEvent) -> list[bool]:
    """The Multiple Shots modes the log gives for the unit's models (empty: none given)."""
    given = extra(event, "multiple_shots")
    if isinstance(given, bool):
        return [given]
    if isinstance(given, list):
        return [bool(v) for v in given]
    return [w for w in (extra(weapon, "multiple_shots") for weapon in event.weapons)
            if isinstance(w, bool)]


@event_check("multiple_shots_mode", systems=SYSTEMS, actions={"shoot"})
def multiple_shots_mode(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """Multiple Shots: the whole unit fires in one mode."""
    assert isinstance(event, ShootEvent)
    rule = ctx.book.section("Многочисленные выстрелы")
    if ctx.unit is None or not uses_rule(ctx, rule, ctx.unit):
        return
    modes = _modes(event)
    if not modes:
        return
    one_mode = ctx.book.sentence(rule, "один режим стрельбы")
    if one_mode is None:
        yield missing("правила «Многочисленные выстрелы» о режиме стрельбы")
        return
    if len(set(modes)) > 1:
        yield Finding("violation", (one_mode.citation(),),
                      "Часть отряда стреляет Многочисленными выстрелами, часть — одиночными, а "
                      "режим стрельбы у отряда должен быть один.")
    else:
        how = "Многочисленными выстрелами" if modes[0] else "без Многочисленных выстрелов"
        yield Finding("ok", (one_mode.citation(),), f"Весь отряд стреляет {how}.")


@event_check("multiple_shots_penalty", systems=SYSTEMS, actions={"hit"})
def multiple_shots_penalty(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """Multiple Shots: -1 to hit when firing several shots, never more."""
    assert isinstance(event, HitEvent)
    rule = ctx.book.section("Многочисленные выстрелы")
    unit = ctx.unit
    if unit is None or not _shooting(event) or not uses_rule(ctx, rule, unit):
        return
    shot = unit.flags.get("whfb8:shot")
    firing = extra(event, "multiple_shots")
    if firing is None:
        firing = isinstance(shot, tuple) and shot[0] == state(ctx).clock.phase and shot[2]
    if firing is not True:
        return
    penalty = ctx.book.fact(rule, name="modifier")
    always = ctx.book.fact(rule, name="modifier", stems=("всегда",))
    if penalty is None or always is None:
        yield missing("пенальти на попадание в правиле «Многочисленные выстрелы»")
        return
    shown = f"{penalty.number:g}"
    part = _part(event, MULTIPLE_KEYS)
    if part is not None and part != penalty.number:
        yield Finding("violation", (always.citation(),),
                      f"Пенальти за Многочисленные выстрелы всегда {shown}, а заявлено "
                      f"{part:+d}.")
    elif part is None and event.modifier > penalty.number:
        yield Finding("warning", (penalty.citation(),),
                      f"Отряд стреляет Многочисленными выстрелами, а модификатор на попадание "
                      f"{event.modifier:+d}: пенальти {shown} в нём не видно.")
    else:
        yield Finding("ok", (penalty.citation(),),
                      f"Многочисленные выстрелы: пенальти {shown} на попадание учтено "
                      f"(модификатор {event.modifier:+d}).")


@tracker("whfb8_shot", systems=SYSTEMS, actions={"shoot"})
def remember_shot(event: BaseEvent, ctx: EventContext) -> None:
    """How the unit fired this phase: after moving? with Multiple Shots?"""
    assert isinstance(event, ShootEvent)
    if ctx.unit is not None:
        modes = _modes(event)
        ctx.unit.flags["whfb8:shot"] = (state(ctx).clock.phase, bool(event.moved),
                                        bool(modes) and all(modes))
