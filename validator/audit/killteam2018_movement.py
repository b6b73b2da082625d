"""Kill Team (2018) movement phase: moving once, normal moves, advancing, falling back, readying.

The rules are those of «Фаза движения» and its sections («Нормальное движение», «Вражеские
модели», «Продвижение», «Отступление», «Подготовка»). A model's Move is the ``M`` of its
profile in the army list. An event may give ``end_distance_to_enemy`` (for an advance too: an
extra field), the distance to the nearest enemy model where the move ended.
"""

from __future__ import annotations

from collections.abc import Iterator

from validator.audit.common import cite, dice_range, inches, missing
from validator.audit.engine import EventContext
from validator.audit.killteam2018_common import (
    MOVED,
    MOVEMENT,
    SYSTEMS,
    actor,
    charged_into_contact,
    done_name,
    missing_move,
    move_characteristic,
    number,
    rule_fact,
    rule_sentence,
)
from validator.audit.state import Statement
from validator.audit.stated import newer, stated
from validator.inputs.events import AdvanceEvent, BaseEvent, ChargeEvent, FallBackEvent, MoveEvent
from validator.registry import Finding, event_check


@event_check("move_once_per_phase", systems=SYSTEMS,
             actions={"move", "advance", "fall_back", "charge"})
def move_once_per_phase(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """A model is moved at most once in each movement phase.

    A normal move, an advance, a fall back, a charge and a Retreat reaction each move it;
    readying does not.
    """
    unit = ctx.unit
    if unit is None or ctx.game.phase != MOVEMENT:
        return
    limit = rule_fact(ctx.book, "Фаза движения", "max_count", "перемещать")
    if limit is None:
        yield missing("предела перемещений за фазу движения в правиле «Фаза движения»")
        return
    earlier = unit.count(MOVED, phase=MOVEMENT)
    latest = unit.did(MOVED, phase=MOVEMENT)
    if earlier >= limit.number and latest is not None:
        yield Finding("violation", cite(limit),
                      f"Модель уже перемещалась в этой фазе движения ({done_name(latest)}),"
                      f" а предел перемещений за фазу — {limit.number:g}.")
    else:
        yield Finding("ok", cite(limit),
                      f"Перемещение модели в этой фазе движения — {earlier + 1}-е, предел"
                      f" — {limit.number:g}.")


def _within_move(ctx: EventContext, distance: float, section: str, name: str,
                 noun: str) -> Iterator[Finding]:
    """A move of some kind (``noun``: «Нормальный ход») goes at most the model's Move, as
    the rule titled ``section`` says («… на расстояние, равное или меньшее …»)."""
    unit = ctx.unit
    assert unit is not None
    rule = rule_sentence(ctx.book, section, "равное или меньшее")
    if rule is None:
        yield missing(f"предела {name} в правиле «{section}»")
        return
    move = move_characteristic(unit)
    if move is None:
        yield missing_move(unit, rule)
    elif distance > move:
        yield Finding("violation", cite(rule),
                      f"{noun} — не дальше характеристики Move модели ({inches(move)}),"
                      f" а заявлено {inches(distance)}.")
    else:
        yield Finding("ok", cite(rule),
                      f"{noun} на {inches(distance)} не дальше характеристики Move"
                      f" модели ({inches(move)}).")


@event_check("normal_move_distance", systems=SYSTEMS, actions={"move"})
def normal_move_distance(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """A normal move goes at most the model's Move characteristic."""
    if ctx.unit is None or ctx.game.phase != MOVEMENT or not isinstance(event, MoveEvent) or (
            event.mode != "normal"):
        return
    yield from _within_move(ctx, event.distance, "Нормальное движение", "нормального хода",
                            "Нормальный ход")


@event_check("enemy_distance", systems=SYSTEMS, actions={"move", "advance"})
def enemy_distance(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """A normal move or an advance never ends closer than 1" to an enemy model."""
    end = number(getattr(event, "end_distance_to_enemy", None))
    if ctx.unit is None or ctx.game.phase != MOVEMENT or end is None:
        return
    if isinstance(event, MoveEvent) and event.mode != "normal":
        return
    limit = rule_fact(ctx.book, "Вражеские модели", "distance", "ближе")
    if limit is None:
        yield missing("расстояния до врага в правиле «Вражеские модели»")
        return
    what = "Нормальный ход закончен" if event.action == "move" else "Продвижение закончено"
    if end < limit.number:
        yield Finding("violation", cite(limit),
                      f"{what} в {inches(end)} от вражеской модели, а ближе {limit.text} к ней"
                      " модель перемещать нельзя.")
    else:
        yield Finding("ok", cite(limit),
                      f"{what} в {inches(end)} от вражеской модели, не ближе {limit.text}.")


@event_check("advance_distance", systems=SYSTEMS, actions={"advance"})
def advance_distance(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """An advance rolls the dice the rule names and goes at most Move plus the roll."""
    unit = ctx.unit
    if unit is None or not isinstance(event, AdvanceEvent) or event.roll is None:
        return
    dice = rule_fact(ctx.book, "Продвижение", "dice")
    total = rule_sentence(ctx.book, "Продвижение", "равное или меньшее")
    span = dice_range(dice) if dice is not None else None
    if dice is None or span is None or total is None:
        yield missing("броска продвижения в правиле «Продвижение»")
        return
    low, high = span
    roll = event.roll
    if not low <= roll <= high:
        yield Finding("violation", cite(dice),
                      f"На {dice.text} выпадает от {low} до {high}, а записан бросок {roll}.")
        return
    if event.distance is None:
        yield Finding("ok", cite(dice), f"Бросок продвижения {roll} в пределах {dice.text}.")
        return
    move = move_characteristic(unit)
    if move is None:
        yield missing_move(unit, total)
    elif event.distance > move + roll:
        yield Finding("violation", cite(total, dice),
                      f"Продвижение — не дальше Move + {dice.text} = {inches(move)} + {roll} ="
                      f" {inches(move + roll)}, а заявлено {inches(event.distance)}.")
    else:
        yield Finding("ok", cite(total, dice),
                      f"Продвижение на {inches(event.distance)} не дальше Move + {dice.text} ="
                      f" {inches(move)} + {roll} = {inches(move + roll)}.")


@event_check("advance_restrictions", systems=SYSTEMS, actions={"charge", "react"})
def advance_restrictions(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """A model that advanced cannot charge or react for the rest of the battle round."""
    unit = ctx.unit
    advanced = unit.did("advance") if unit is not None else None
    if advanced is None:
        return
    rule = rule_sentence(ctx.book, "Продвижение", "не может чарджить")
    if rule is None:
        yield missing("запрета после продвижения в правиле «Продвижение»")
        return
    doing = "чарджить" if event.action == "charge" else "реагировать"
    yield Finding("violation", cite(rule),
                  f"Модель продвигалась в этом раунде битвы (строка {advanced.line}) и до его"
                  f" конца не может {doing}.")


@event_check("fall_back_distance", systems=SYSTEMS, actions={"fall_back"})
def fall_back_distance(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """A fall back goes at most the model's Move characteristic."""
    if ctx.unit is None or ctx.game.phase != MOVEMENT or not isinstance(event, FallBackEvent) or (
            event.distance is None):
        return
    yield from _within_move(ctx, event.distance, "Отступление", "отступления", "Отступление")


@event_check("fall_back_end_distance", systems=SYSTEMS, actions={"fall_back"})
def fall_back_end_distance(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """A fall back ends more than 1" from every enemy model."""
    if ctx.unit is None or ctx.game.phase != MOVEMENT or not isinstance(event, FallBackEvent):
        return
    end = event.end_distance_to_enemy
    if end is None:
        return
    limit = rule_fact(ctx.book, "Отступление", "within_distance", "должна")
    if limit is None:
        yield missing("расстояния, на котором кончается отступление, в правиле «Отступление»")
        return
    if end <= limit.number:
        yield Finding("violation", cite(limit),
                      f"Отступление закончено в {inches(end)} от вражеской модели, а кончиться"
                      f" оно должно дальше {limit.text} от всех вражеских моделей.")
    else:
        yield Finding("ok", cite(limit),
                      f"Отступление закончено в {inches(end)} от вражеских моделей, дальше"
                      f" {limit.text}.")


@event_check("fall_back_restrictions", systems=SYSTEMS, actions={"advance", "charge", "react"})
def fall_back_restrictions(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """A model that fell back cannot advance, charge or react in that phase."""
    unit = ctx.unit
    fell_back = unit.did("fall_back", phase=ctx.game.phase) if unit is not None else None
    if fell_back is None:
        return
    rule = rule_sentence(ctx.book, "Отступление", "отступает", "advance", "react")
    if rule is None:
        yield missing("запрета после отступления в правиле «Отступление»")
        return
    doing = {"advance": "продвигаться", "charge": "чарджить"}.get(event.action, "реагировать")
    yield Finding("violation", cite(rule),
                  f"Модель отступала в этой фазе (строка {fell_back.line}) и до её конца не может"
                  f" {doing}.")


@event_check("ready_allowed", systems=SYSTEMS, actions={"ready"})
def ready_allowed(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """Readying is declared for a model chosen to move that does not move."""
    unit = ctx.unit
    if unit is None or ctx.game.phase != MOVEMENT:
        return
    rule = rule_sentence(ctx.book, "Подготовка", "не делаете нормальный ход")
    if rule is None:
        yield missing("условия подготовки в правиле «Подготовка»")
        return
    earlier = unit.did(MOVED, phase=MOVEMENT)
    if earlier is not None:
        yield Finding("violation", cite(rule),
                      f"Модель уже перемещалась в этой фазе движения ({done_name(earlier)}),"
                      " а подготовку объявляют модели, которая не делает хода.")
    else:
        yield Finding("ok", cite(rule),
                      "Модель не перемещалась в этой фазе движения и может объявить подготовку.")


_IN_CONTACT = {
    "move": ("Вражеские модели", ("в пределах", "не может нормально"), "делать нормальный ход"),
    "advance": ("Вражеские модели", ("в пределах", "не может нормально"), "продвигаться"),
    "fall_back": ("Отступление", ("не может отступить", "чардж"), "отступать"),
    "charge": ("Charging", ("не в пределах",), "объявлять чардж"),
    "ready": ("Подготовка", ("не в пределах",), "объявлять подготовку"),
}


@event_check("charged_model_stays", systems=SYSTEMS, actions=set(_IN_CONTACT))
def charged_model_stays(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """A model an enemy charged into contact this phase stays where it is.

    The charger ended within 1" of it, so it is a model within 1" of an enemy: it cannot
    make a normal move, advance, fall back, charge or ready. A log that states the model is
    in close combat (``in_close_combat``) is believed over the charges: true forbids all but
    falling back (which a model within 1" of an enemy does), false forbids nothing.
    """
    unit = ctx.unit
    if unit is None or ctx.game.phase != MOVEMENT:
        return
    contact = charged_into_contact(ctx)
    said = stated(ctx.game, unit, "in_close_combat", "phase") if unit.stated else None
    if said is not None and newer(said, contact[0] if contact else None):
        yield from _stated_in_contact(event, ctx, said)
        return
    if contact is None:
        return
    done, success = contact
    title, stems, doing = _IN_CONTACT[event.action]
    rule = rule_sentence(ctx.book, title, *stems)
    if rule is None:
        yield missing(f"запрета для модели в пределах {success.text} от врага в правиле"
                      f" «{title}»")
        return
    charger = done.event
    assert isinstance(charger, ChargeEvent) and charger.end_distance is not None
    yield Finding("violation", cite(rule),
                  f"Вражеская модель {actor(done)} закончила чардж в"
                  f" {inches(charger.end_distance)} от этой модели (строка {done.line}), а"
                  f" в пределах {success.text} от врага модель не может {doing}.")


def _stated_in_contact(event: BaseEvent, ctx: EventContext,
                       said: Statement) -> Iterator[Finding]:
    if not said.value or event.action == "fall_back":
        return
    success = rule_fact(ctx.book, "Make Charge Move", "within_distance", "успешн")
    title, stems, doing = _IN_CONTACT[event.action]
    rule = rule_sentence(ctx.book, title, *stems)
    if rule is None or success is None:
        yield missing(f"запрета для модели в ближнем бою в правиле «{title}»")
        return
    yield Finding("violation", cite(rule),
                  f"В журнале модель в ближнем бою, в пределах {success.text} от врага"
                  f" (строка {said.line}), а такая модель не может {doing}.")

