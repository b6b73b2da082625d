"""Audit checks of Kill Team (2018): the battle round, initiative, shooting limits, psykers.

In Kill Team a unit of the army list is one model and ``turn`` is the battle round, so a
model's history (kept by the walker for the current turn) is what it did this battle round.
The checks are in three modules, registered on import of this one:

- :mod:`~validator.audit.killteam2018_movement`: moving once per movement phase, normal
  moves, advancing, falling back, readying, a model charged into contact staying put;
- :mod:`~validator.audit.killteam2018_charge`: charge range, one attempt, the charge roll and
  its success, reactions (only a charge target; Retreat distance and limits);
- this module: the initiative roll, what forbids shooting later in the round, reinforcements,
  and the psychic phase (only a PSYKER, one psyker per player per battle round).

Every number and sentence comes from the KB (see :mod:`~validator.audit.killteam2018_common`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

from validator.audit import killteam2018_charge, killteam2018_movement  # noqa: F401  (registration)
from validator.audit.common import cite, dice_range, missing, tracker
from validator.audit.engine import PHASE_TITLES, EventContext
from validator.audit.killteam2018_common import (
    FLY,
    PSYKER,
    RETREAT,
    SHOOTING,
    SYSTEMS,
    rule_fact,
    rule_sentence,
)
from validator.inputs.events import BaseEvent, InitiativeEvent, ReactEvent
from validator.registry import Finding, event_check
from validator.rulebook import Rulebook
from validator.verdicts import RuleCitation

__all__ = ["initiative_roll", "one_psyker_per_round", "psyker_only",
           "reinforcements_restrictions", "shooting_restrictions"]


@event_check("initiative_roll", systems=SYSTEMS, actions={"initiative"})
def initiative_roll(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """Each player rolls the initiative dice (2D6); tied players roll again."""
    if not isinstance(event, InitiativeEvent):
        return
    dice = rule_fact(ctx.book, "Инициативная фаза", "dice")
    span = dice_range(dice) if dice is not None else None
    if dice is None or span is None:
        yield missing("броска инициативы в правиле «Инициативная фаза»")
        return
    low, high = span
    rolls = sorted(event.rolls.items())
    bad = [(player, roll) for player, roll in rolls if not low <= roll <= high]
    for player, roll in bad:
        yield Finding("violation", cite(dice),
                      f"Игрок {player}: на {dice.text} выпадает от {low} до {high}, а записано"
                      f" {roll}.")
    absent = [p for p in ctx.game.players() if p not in event.rolls]
    if absent:
        yield Finding("warning", cite(dice),
                      f"В фазе инициативы {dice.text} бросает каждый игрок, а броска игрока"
                      f" {', '.join(absent)} в записи нет.")
    if bad or absent:
        return
    shown = ", ".join(f"{player} — {roll}" for player, roll in rolls)
    why = f"Броски инициативы ({shown}) в пределах {dice.text} ({low}–{high})"
    values = [roll for _, roll in rolls]
    tied = [player for player, roll in rolls if values.count(roll) > 1]
    reroll = rule_sentence(ctx.book, "Инициативная фаза", "тот же результат") if tied else None
    if reroll is not None:
        why += f"; у игроков {', '.join(tied)} равный результат, и они бросают кости снова"
    yield Finding("ok", cite(dice, reroll), why + ".")


@event_check("shooting_restrictions", systems=SYSTEMS, actions={"shoot"})
def shooting_restrictions(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """What a model did earlier in the battle round may forbid it to shoot.

    No shooting after advancing; none after falling back or retreating unless the model can
    FLY; none in the shooting phase after declaring a charge.
    """
    unit = ctx.unit
    if unit is None:
        return
    book = ctx.book
    if unit.did(*_LIMITS_SHOOTING) is None:
        if ctx.game.phase == SHOOTING:
            yield from _may_shoot(book)
        return
    flies = unit.has_keyword(FLY)
    found: list[Finding] = []
    exempt: list[RuleCitation] = []
    exempt_why: list[str] = []
    advanced = unit.did("advance")
    if advanced is not None:
        rule = rule_sentence(book, "Продвижение", "не может чарджить")
        found.append(Finding("violation", cite(rule),
                             f"Модель продвигалась в этом раунде битвы (строка {advanced.line}) и"
                             " до его конца не может стрелять.") if rule else
                     missing("запрета после продвижения в правиле «Продвижение»"))
    for done, title, stems, what in (
            (unit.did("fall_back"), "Отступление", ("не может стрелять позже",), "отступала"),
            (unit.did(RETREAT), "Отход",
             ("не может стрелять позже",), "отошла")):
        if done is None:
            continue
        rule = rule_sentence(book, title, *stems)
        if rule is None:
            found.append(missing(f"запрета стрельбы в правиле «{title}»"))
        elif not flies:
            found.append(Finding("violation", cite(rule),
                                 f"Модель {what} в этом раунде (строка {done.line}), не может"
                                 " летать и до конца раунда не может стрелять."))
        else:
            exempt.extend(cite(rule, rule_sentence(book, FLY, "ключевое слово", FLY)))
            exempt_why.append(f"{what} (строка {done.line})")
    charged = unit.did("charge")
    if charged is not None and ctx.game.phase == SHOOTING:
        rule = rule_sentence(book, "Make Charge Move", "заявившая чардж")
        found.append(Finding("violation", cite(rule),
                             f"Модель заявила чардж в этом раунде (строка {charged.line}) и в фазе"
                             " стрельбы не стреляет.") if rule else
                     missing("запрета стрельбы после чарджа в правиле «Make Charge Move»"))
    if found:
        yield from found
    elif exempt:
        yield Finding("ok", tuple(dict.fromkeys(exempt)),
                      f"Модель {' и '.join(exempt_why)} в этом раунде, но у неё есть ключевое"
                      f" слово {FLY}, и стрелять ей можно.")
    elif ctx.game.phase == SHOOTING:
        yield from _may_shoot(book)


_LIMITS_SHOOTING = frozenset({"advance", "fall_back", "react", "charge"})
"""What a model may have done this round that can forbid it to shoot."""


def _may_shoot(book: Rulebook) -> Iterator[Finding]:
    rule = rule_sentence(book, "The Battle Round", "могут стрелять")
    if rule is not None:
        yield Finding("ok", cite(rule),
                      "В этом раунде модель не продвигалась, не отступала и не заявляла чардж, и"
                      " в фазе стрельбы она может стрелять.")


_REINFORCED_MAY = {"shoot": "стрелять", "manifest": "использовать психические силы"}
_REINFORCED_MAY_NOT = {"move": "двигаться", "advance": "продвигаться", "charge": "чарджить",
                       "fall_back": "двигаться", "react": "двигаться"}


@event_check("reinforcements_restrictions", systems=SYSTEMS,
             actions={"move", "advance", "charge", "fall_back", "react", "shoot", "manifest"})
def reinforcements_restrictions(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """A model set up as reinforcements cannot move, advance or charge that battle round.

    It may still shoot and use psychic powers (``ok``).
    """
    unit = ctx.unit
    arrived = unit.did("reinforcements") if unit is not None else None
    if arrived is None:
        return
    rule = rule_sentence(ctx.book, "Пополнение", "не могут двигаться")
    if rule is None:
        yield missing("запрета для пополнения в правиле «Пополнение»")
        return
    overwatch = isinstance(event, ReactEvent) and event.kind == "overwatch"
    may = _REINFORCED_MAY.get("shoot" if overwatch else event.action)
    if may is not None:
        yield Finding("ok", cite(rule),
                      f"Модель выставлена пополнением в этом раунде (строка {arrived.line}), но"
                      f" {may} ей можно.")
    else:
        yield Finding("violation", cite(rule),
                      f"Модель выставлена пополнением в этом раунде (строка {arrived.line}) и до"
                      f" его конца не может {_REINFORCED_MAY_NOT[event.action]}.")


@event_check("reinforcements_arrival", systems=SYSTEMS, actions={"reinforcements"})
def reinforcements_arrival(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """A model set up as reinforcements: once a battle round, usually at the end of the
    movement phase though the text allows other phases; it has not acted on the board yet."""
    unit = ctx.unit
    if unit is None:
        return
    when = rule_sentence(ctx.book, "Пополнение", "как правило")
    arrive = rule_sentence(ctx.book, "Пополнение", "выставлены на поле")
    if when is None or arrive is None:
        yield missing("правила о том, как и когда выставляют пополнение, в правиле «Пополнение»")
        return
    on_board = unit.first("reinforcements", *_REINFORCED_MAY_NOT, *_REINFORCED_MAY)
    if on_board is not None:
        yield Finding("violation", cite(arrive),
                      f"Модель уже была на поле в этом раунде (строка {on_board.line}), а "
                      f"пополнением выставляют модель, которой на поле ещё нет.")
    else:
        phase = event.phase or ctx.game.phase
        yield Finding("ok", cite(when),
                      f"Модель выставлена пополнением в фазе «{PHASE_TITLES.get(phase or '', '—')}»"
                      f": как правило это конец фазы движения, но правило допускает и другие "
                      f"фазы.")


@event_check("psyker_only", systems=SYSTEMS, actions={"manifest"})
def psyker_only(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """Only a model with the PSYKER keyword manifests psychic powers."""
    unit = ctx.unit
    if unit is None:
        return
    marked = rule_sentence(ctx.book, "Психическая фаза", "отмечены как", PSYKER)
    if marked is None:
        yield missing(f"правила о моделях {PSYKER} в правиле «Психическая фаза»")
        return
    powers = rule_sentence(ctx.book, "Психическая фаза", "могут проявлять")
    if unit.has_keyword(PSYKER):
        yield Finding("ok", cite(marked, powers),
                      f"У модели есть ключевое слово {PSYKER}, и она может проявлять психические"
                      " силы.")
    else:
        yield Finding("violation", cite(marked, powers),
                      f"У модели нет ключевого слова {PSYKER}, а психические силы проявляют только"
                      f" модели, отмеченные как {PSYKER}.")


PSYKERS = "killteam2018:psykers"
"""``GameState.flags`` key: the battle round (turn serial) and, per player, the psykers that
manifested a power in it (key → line of the first time), in that order."""


def _psykers(ctx: EventContext) -> dict[str, dict[str, int]]:
    kept = ctx.game.flags.get(PSYKERS)
    if isinstance(kept, tuple) and kept[0] == ctx.game.turn_serial:
        return cast(dict[str, dict[str, int]], kept[1])
    return {}


@tracker("killteam2018_psykers", systems=SYSTEMS, actions={"manifest"})
def track_psykers(event: BaseEvent, ctx: EventContext) -> None:
    """Keep the psykers of each player that manifested a power this battle round."""
    unit, game = ctx.unit, ctx.game
    if unit is None:
        return
    chosen = _psykers(ctx)
    if not chosen:
        game.flags[PSYKERS] = (game.turn_serial, chosen)
    chosen.setdefault(unit.player, {}).setdefault(unit.key, ctx.line)


@event_check("one_psyker_per_round", systems=SYSTEMS, actions={"manifest"})
def one_psyker_per_round(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """Each player chooses only one psyker in each battle round (it may try several powers)."""
    unit = ctx.unit
    if unit is None:
        return
    limit = rule_fact(ctx.book, "Психическая фаза", "max_count")
    if limit is None:
        yield missing("предела псайкеров за раунд в правиле «Психическая фаза»")
        return
    chosen = [(key, line) for key, line in _psykers(ctx).get(unit.player, {}).items()
              if key != unit.key]
    if unit.did("manifest") is not None:
        several = rule_sentence(ctx.book, "Психическая фаза", "одну или несколько")
        yield Finding("ok", cite(several or limit),
                      f"Псайкер {unit.key} уже выбран в этом раунде и пытается проявить ещё одну"
                      " силу.")
    elif len(chosen) >= limit.number:
        other, line = chosen[0]
        yield Finding("violation", cite(limit),
                      f"Игрок {unit.player} уже выбрал в этом раунде псайкера {other} (строка"
                      f" {line}), а предел псайкеров на игрока за раунд —"
                      f" {limit.number:g}.")
    else:
        yield Finding("ok", cite(limit),
                      f"Игрок {unit.player} выбирает в этом раунде псайкера {unit.key}; предел —"
                      f" {limit.number:g} на игрока за раунд.")
