"""Kill Team (2018) charges and reactions: «Charging», «Make Charge Move», «Реагировать», «Отход».

A charge is one log line (the declaration with its targets, ``distance_to_target``, the 2D6
``roll`` and the ``end_distance`` to the nearest target after the charge move); the targets'
reactions follow it on lines of their own, as the sequence «Выберите цель(и)» → «Враг
реагирует» → «Киньте 2D6 и сделайте чардж» has them react to the declared charge.
"""

from __future__ import annotations

from collections.abc import Iterator

from validator.audit.common import cite, dice_range, inches, missing
from validator.audit.engine import EventContext
from validator.audit.killteam2018_common import (
    MOVED,
    MOVEMENT,
    RETREAT,
    SYSTEMS,
    actor,
    charge_distances,
    done_name,
    rule_fact,
    rule_sentence,
)
from validator.inputs.events import BaseEvent, ChargeEvent, ReactEvent
from validator.registry import Finding, event_check


@event_check("charge_range", systems=SYSTEMS, actions={"charge"})
def charge_range(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """A charge is declared at enemies within 12", by a model not within 1" of an enemy."""
    if ctx.unit is None or not isinstance(event, ChargeEvent) or event.distance_to_target is None:
        return
    reach, engaged = charge_distances(ctx.book)
    if reach is None:
        yield missing("дальности чарджа в правиле «Charging»")
        return
    distance = event.distance_to_target
    if engaged is not None and distance <= engaged.number:
        yield Finding("violation", cite(engaged),
                      f"Модель в {inches(distance)} от цели, то есть в пределах {engaged.text} от"
                      " вражеской модели, и объявить чардж не может.")
    elif distance > reach.number:
        yield Finding("violation", cite(reach),
                      f"Чардж объявляют только на врагов в пределах {reach.text}, а до цели"
                      f" {inches(distance)}.")
    else:
        yield Finding("ok", cite(reach),
                      f"Цель в {inches(distance)}: в пределах {reach.text}, и чардж объявить"
                      " можно.")


@event_check("charge_once_per_phase", systems=SYSTEMS, actions={"charge"})
def charge_once_per_phase(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """Only one charge attempt per model in each movement phase."""
    unit = ctx.unit
    if unit is None or ctx.game.phase != MOVEMENT:
        return
    limit = rule_fact(ctx.book, "Make Charge Move", "max_count", "попытк")
    if limit is None:
        yield missing("предела попыток чарджа в правиле «Make Charge Move»")
        return
    earlier = unit.count("charge", phase=MOVEMENT)
    latest = unit.did("charge", phase=MOVEMENT)
    if earlier >= limit.number and latest is not None:
        yield Finding("violation", cite(limit),
                      f"Модель уже пыталась чарджить в этой фазе движения (строка"
                      f" {latest.line}), а предел попыток чарджа за фазу —"
                      f" {limit.number:g}.")
    else:
        yield Finding("ok", cite(limit),
                      f"Попытка чарджа модели в этой фазе движения — {earlier + 1}-я, предел"
                      f" — {limit.number:g}.")


@event_check("charge_move", systems=SYSTEMS, actions={"charge"})
def charge_move(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """The charge roll is 2D6; the model moves at most the roll.

    The charge succeeds only when the model ends within 1" of a target; a failed charge is
    allowed (``ok``), a move longer than the roll is not.
    """
    if ctx.unit is None or not isinstance(event, ChargeEvent) or event.roll is None:
        return
    book = ctx.book
    dice = rule_fact(book, "Make Charge Move", "dice")
    success = rule_fact(book, "Make Charge Move", "within_distance", "успешн")
    span = dice_range(dice) if dice is not None else None
    if dice is None or span is None or success is None:
        yield missing("броска и условия успеха чарджа в правиле «Make Charge Move»")
        return
    roll, low, high = event.roll, *span
    if not low <= roll <= high:
        yield Finding("violation", cite(dice),
                      f"На {dice.text} выпадает от {low} до {high}, а записан бросок {roll}.")
        return
    start, end = event.distance_to_target, event.end_distance
    if start is not None and end is not None and start - end > roll:
        rule = rule_sentence(book, "Make Charge Move", "на это или меньшее")
        yield Finding("violation", cite(rule, dice),
                      f"В чардже модель проходит не больше выброшенных {roll}\", а подошла к цели"
                      f" на {inches(start - end)} (с {inches(start)} до {inches(end)}).")
        return
    failed = rule_sentence(book, "Make Charge Move", "не выполнила чардж")
    if end is not None and end <= success.number:
        yield Finding("ok", cite(success),
                      f"Чардж удался: модель закончила движение в {inches(end)} от цели, в"
                      f" пределах {success.text}.")
    elif end is not None:
        yield Finding("ok", cite(failed or success),
                      f"Чардж не удался: модель закончила движение в {inches(end)} от цели, дальше"
                      f" {success.text}.")
    elif start is not None and start - roll > success.number:
        yield Finding("ok", cite(failed or success),
                      f"Чардж не удался: с броском {roll} от цели в {inches(start)} не дойти до"
                      f" {success.text} от неё.")
    else:
        yield Finding("ok", cite(dice), f"Бросок чарджа {roll} в пределах {dice.text}.")


@event_check("reaction_target", systems=SYSTEMS, actions={"react"})
def reaction_target(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """Only a model targeted by a charge this phase reacts, with Overwatch or Retreat."""
    unit = ctx.unit
    if unit is None or not isinstance(event, ReactEvent):
        return
    rule = rule_sentence(ctx.book, "Реагировать", "является целью чарджа")
    if rule is None:
        yield missing("условия реакции в правиле «Реагировать»")
        return
    targeted = unit.did("targeted:charge", phase=ctx.game.phase)
    if targeted is None:
        yield Finding("violation", cite(rule),
                      "Модель не была целью чарджа в этой фазе, а реагировать может только цель"
                      " чарджа.")
        return
    kinds = rule_sentence(ctx.book, "Реагировать", "overwatch", "retreat")
    kind = "Overwatch" if event.kind == "overwatch" else "Retreat"
    yield Finding("ok", cite(rule, kinds),
                  f"Модель — цель чарджа {actor(targeted)} (строка {targeted.line}) и реагирует:"
                  f" {kind}.")


@event_check("retreat_distance", systems=SYSTEMS, actions={"react"})
def retreat_distance(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """A Retreat moves the model at most 3"."""
    if (ctx.unit is None or not isinstance(event, ReactEvent) or event.kind != "retreat"
            or event.distance is None):
        return
    limit = rule_fact(ctx.book, "Отход", "max_distance")
    if limit is None:
        yield missing("предела отхода в правиле «Отход»")
        return
    if event.distance > limit.number:
        yield Finding("violation", cite(limit),
                      f"Отход — не дальше {limit.text}, а заявлено {inches(event.distance)}.")
    else:
        yield Finding("ok", cite(limit),
                      f"Отход на {inches(event.distance)} не дальше {limit.text}.")


@event_check("retreat_not_after_move", systems=SYSTEMS, actions={"react"})
def retreat_not_after_move(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """A model that has already moved in any way (or tried to charge) cannot Retreat."""
    unit = ctx.unit
    if unit is None or not isinstance(event, ReactEvent) or event.kind != "retreat":
        return
    rule = rule_sentence(ctx.book, "Отход", "не может отступить", "уже сделала движение")
    if rule is None:
        yield missing("запрета отхода после движения в правиле «Отход»")
        return
    earlier = unit.did(MOVED)
    if earlier is not None:
        yield Finding("violation", cite(rule),
                      f"Модель уже двигалась в этом раунде ({done_name(earlier)}) и отходить"
                      " не может.")
    else:
        yield Finding("ok", cite(rule),
                      "Модель в этом раунде ещё не двигалась и не пыталась чарджить, отход"
                      " разрешён.")


@event_check("retreat_ends_reactions", systems=SYSTEMS, actions={"react"})
def retreat_ends_reactions(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """A model that retreated reacts no more."""
    unit = ctx.unit
    retreated = unit.did(RETREAT) if unit else None
    if retreated is None:
        return
    rule = rule_sentence(ctx.book, "Отход", "больше не может реагировать")
    if rule is None:
        yield missing("запрета реакций после отхода в правиле «Отход»")
        return
    yield Finding("violation", cite(rule),
                  f"Модель уже отошла в этом раунде (строка {retreated.line}) и больше не может"
                  " реагировать.")
