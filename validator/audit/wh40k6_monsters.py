"""wh40k6 checks of monstrous and flying monstrous creatures.

Monstrous creatures fire at most two weapons a shooting phase, all at one target («Монструозные
создания → Стрельба»). A flying monstrous creature flies in one of two modes, declared with a
``flight_mode`` event (or written on a move as ``"mode": "swoop"``) and kept in
``unit.flags["flight_mode"]`` until the next declaration; one set up on the table starts
gliding («Расстановка»). Swooping: 12"–24" after one pivot of at most 90°, a run of 2D6, no
charging and no being charged («Пикирование»); templates and blasts cannot hit it, and it is
shot at with snap shots unless the weapon or the firer has the skyfire rule («Трудно попасть»,
which the text states of any flying monstrous creature, not only a swooping one).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from kb.lemmas import fold
from kb.models import Node
from validator.audit.common import extra, inches, missing, remember, tracker
from validator.audit.engine import EventContext
from validator.audit.state import UnitState
from validator.audit.wh40k6_common import (
    SYSTEMS,
    dice_expr,
    dice_max,
    found,
    owner_type,
    stranger_label,
    unit_label,
)
from validator.inputs.events import ChargeEvent, FlightModeEvent, MoveEvent, RunEvent, ShootEvent
from validator.registry import Finding, event_check
from validator.rulebook import FoundFact, Rulebook, Sentence

MONSTERS = "Монструозные создания"
FLYERS = "Летающие монструозные создания"
SWOOP = "Пикирование"
HARD_TO_HIT = "Трудно попасть"
SKYFIRE = "Противовоздушное"

FLAG = "flight_mode"
MODE_NAMES = {"swoop": "пикирует", "glide": "планирует"}


@dataclass(frozen=True)
class MonsterRules:
    """The monstrous and flying monstrous creature rules the checks cite, found once."""

    monsters: Node | None
    weapons: FoundFact | None
    same_target: Sentence | None
    flyers: Node | None
    ways: Sentence | None
    declare: Sentence | None
    starts_gliding: bool
    least: FoundFact | None
    most: FoundFact | None
    pivot: FoundFact | None
    run: FoundFact | None
    no_charge: Sentence | None
    no_templates: Sentence | None
    hard_to_hit: Sentence | None
    skyfire: str | None

    @classmethod
    def of(cls, book: Rulebook) -> MonsterRules:
        """Look the rules up in a rulebook."""
        shooting = book.section(MONSTERS, "Стрельба")
        swoop = book.section(FLYERS, SWOOP)
        hard = book.section(FLYERS, HARD_TO_HIT)
        skyfire = book.find(SKYFIRE)
        return cls(
            monsters=owner_type(book, shooting),
            weapons=book.fact(shooting, name="max_count"),
            same_target=book.sentence(shooting, "одной и той же цели"),
            flyers=book.unit_type(FLYERS),
            ways=book.sentence(book.section(FLYERS, "Способы полета"), "двух способов"),
            declare=book.sentence(book.section(FLYERS, "Выбор способа полета"), "объявить"),
            starts_gliding=book.sentence(book.section(FLYERS, "Расстановка"), "начинает",
                                         "планировани") is not None,
            least=book.fact(swoop, name="min_distance"),
            most=book.fact(swoop, name="max_distance"),
            pivot=book.fact(swoop, name="max_angle"),
            run=book.fact(swoop, name="dice", stems=("бегать",)),
            no_charge=book.sentence(swoop, "не может нападать"),
            no_templates=book.sentence(hard, "шаблон", "пикирующ"),
            hard_to_hit=book.sentence(hard, "навскидку"),
            skyfire=fold(skyfire.title) if skyfire is not None else None,
        )

    def flyer(self, unit: UnitState | None) -> bool:
        """Whether a unit is a flying monstrous creature."""
        return unit is not None and self.flyers is not None and self.flyers.id in unit.types

    def swooping(self, unit: UnitState, event: MoveEvent | ChargeEvent | None = None) -> bool:
        """Whether a flyer swoops: as its move says, else as last declared, else as set up."""
        mode = getattr(event, "mode", None)
        if mode not in MODE_NAMES:
            mode = unit.flags.get(FLAG, "glide" if self.starts_gliding else None)
        return mode == "swoop"


def monster_rules(book: Rulebook) -> MonsterRules:
    """The monster rules of a rulebook (looked up once)."""
    return remember(book, ("monster rules",), lambda: MonsterRules.of(book))


@tracker("flight_mode_track", systems=SYSTEMS, actions={"flight_mode", "move"})
def flight_mode_track(event: FlightModeEvent | MoveEvent, ctx: EventContext) -> None:
    """Keep the flight mode a flyer declared (or moved in) until it declares another."""
    unit = ctx.unit
    if event.mode in MODE_NAMES and monster_rules(ctx.book).flyer(unit):
        assert unit is not None
        unit.flags[FLAG] = event.mode


# -- monstrous creatures -----------------------------------------------------------------------


@event_check("monstrous_creature_weapons", systems=SYSTEMS, actions={"shoot"})
def monstrous_creature_weapons(event: ShootEvent, ctx: EventContext) -> Iterator[Finding]:
    """A monstrous creature fires at most two weapons a shooting phase, all at one target."""
    unit, rules = ctx.unit, monster_rules(ctx.book)
    if unit is None or rules.monsters is None or rules.monsters.id not in unit.types:
        return
    limit, same_target = rules.weapons, rules.same_target
    if limit is None or same_target is None:
        yield missing("предела оружий монструозного создания и правила одной цели")
        return
    weapons, targets = _with_shot(_shots(unit, ctx), event, ctx)
    label, allowed = unit_label(unit), int(limit.number)
    if weapons > allowed:
        yield found("violation", limit, f"{label}: в этой фазе использовано оружий — "
                                        f"{weapons}, а монструозные создания используют не "
                                        f"больше {allowed}.")
    if len(targets) > 1:
        named = ", ".join(targets[:MAX_TARGETS]) + (", …" if len(targets) > MAX_TARGETS else "")
        yield found("violation", same_target, f"{label}: стрельба по разным целям ("
                                              f"{named}), а стрелять нужно по "
                                              f"одной и той же цели.")
    if weapons <= allowed and len(targets) <= 1:
        at = f", все по одной цели ({targets[0]})" if targets else ""
        yield found("ok", limit, f"{label}: в этой фазе использовано оружий — {weapons} из "
                                 f"{allowed} возможных{at}.")


SHOTS = "wh40k6:shots"
MAX_TARGETS = 8
"""Distinct targets a unit's shots of a phase are remembered by (two already break the rule)."""


def _shots(unit: UnitState, ctx: EventContext) -> tuple[int, tuple[str, ...]]:
    """The weapons the unit used in this phase so far, and their distinct targets."""
    kept = unit.flags.get(SHOTS)
    here = (ctx.game.turn_serial, ctx.event.phase or ctx.game.phase)
    if isinstance(kept, tuple) and kept[0] == here:
        return kept[1], kept[2]
    return 0, ()


def _with_shot(shots: tuple[int, tuple[str, ...]], event: ShootEvent,
               ctx: EventContext) -> tuple[int, tuple[str, ...]]:
    weapons, targets = shots
    more = list(targets)
    for target in [event.target, *(extra(w, "target") for w in event.weapons)]:
        if isinstance(target, str) and len(more) <= MAX_TARGETS:
            key = ctx.game.key_of(target)
            if key not in more:
                more.append(key)
    return weapons + len(event.weapons), tuple(more)


@tracker("wh40k6_shots", systems=SYSTEMS, actions={"shoot"})
def track_shots(event: ShootEvent, ctx: EventContext) -> None:
    """Count the weapons and targets of a monstrous creature's shots in this phase."""
    unit, rules = ctx.unit, monster_rules(ctx.book)
    if unit is None or rules.monsters is None or rules.monsters.id not in unit.types:
        return
    here = (ctx.game.turn_serial, event.phase or ctx.game.phase)
    unit.flags[SHOTS] = (here, *_with_shot(_shots(unit, ctx), event, ctx))


# -- flying monstrous creatures ----------------------------------------------------------------


def _not_a_flyer(rules: MonsterRules, unit: UnitState, what: str) -> Finding:
    if rules.ways is None or rules.flyers is None:
        return missing("правила о способах полёта")
    return found("violation", rules.ways, f"{stranger_label(unit)} не относится к типу "
                                          f"«{rules.flyers.title}», {what}.")


@event_check("flight_mode_declaration", systems=SYSTEMS, actions={"flight_mode"})
def flight_mode_declaration(event: FlightModeEvent, ctx: EventContext) -> Iterator[Finding]:
    """Only a flyer declares a flight mode, at the start of its move, once a turn."""
    unit, rules = ctx.unit, monster_rules(ctx.book)
    if unit is None:
        return
    if not rules.flyer(unit):
        yield _not_a_flyer(rules, unit, "и способа полёта у него нет")
        return
    rule = rules.declare
    if rule is None:
        yield missing("правила выбора способа полёта")
        return
    label = unit_label(unit)
    moved = unit.did("move", "run", "charge")
    declared = unit.did("flight_mode")
    if moved is not None:
        yield found("violation", rule, f"{label}: отряд уже двигался в этом ходе (строка "
                                       f"{moved.line}), а способ полёта объявляют в начале "
                                       f"движения.")
    elif declared is not None:
        yield found("violation", rule, f"{label}: способ полёта уже объявлен в этом ходе "
                                       f"(строка {declared.line}) и действует до начала "
                                       f"следующего хода.")
    else:
        yield found("ok", rule, f"{label}: в начале движения объявлено, что отряд "
                                f"{MODE_NAMES[event.mode]}.")


@event_check("swoop_move", systems=SYSTEMS, actions={"move"})
def swoop_move(event: MoveEvent, ctx: EventContext) -> Iterator[Finding]:
    """A swooping flyer moves 12"–24" after a single pivot of at most 90°; only flyers fly."""
    unit, rules = ctx.unit, monster_rules(ctx.book)
    if unit is None:
        return
    if not rules.flyer(unit):
        if event.mode in MODE_NAMES:
            yield _not_a_flyer(rules, unit, "и не может пикировать или планировать")
        return
    if not rules.swooping(unit, event):
        return
    least, most, angle = rules.least, rules.most, rules.pivot
    if least is None or most is None:
        yield missing("дальности движения пикирующего летающего монстра")
        return
    label, moved, wrong = unit_label(unit), inches(event.distance), False
    if event.distance < least.number:
        wrong = True
        yield found("violation", least, f"{label}: пикирующий отряд проходит минимум "
                                        f"{least.text}, а прошёл {moved}.")
    if event.distance > most.number:
        wrong = True
        yield found("violation", most, f"{label}: пикирующий отряд проходит максимум "
                                       f"{most.text}, а прошёл {moved}.")
    if event.pivot is not None:
        if angle is None:
            yield missing("предельного угла разворота пикирующего летающего монстра")
            return
        if abs(event.pivot) > angle.number:
            wrong = True
            yield found("violation", angle, f"{label}: пикирующий отряд разворачивается перед "
                                            f"движением максимум на {angle.text}, а развернулся "
                                            f"на {event.pivot:g}°.")
    if not wrong:
        turned = f" после разворота на {event.pivot:g}°" if event.pivot is not None else ""
        yield found("ok", least, f"{label}: пикирование на {moved}{turned}, в пределах "
                                 f"{least.text}–{most.text}.")


@event_check("swoop_run", systems=SYSTEMS, actions={"run"})
def swoop_run(event: RunEvent, ctx: EventContext) -> Iterator[Finding]:
    """A swooping flyer runs straight ahead 2D6."""
    unit, rules = ctx.unit, monster_rules(ctx.book)
    if unit is None or not rules.flyer(unit) or not rules.swooping(unit):
        return
    dice = rules.run
    most = dice_max(dice)
    if dice is None or most is None:
        yield missing("кубиков бега пикирующего летающего монстра")
        return
    label, expr = unit_label(unit), dice_expr(dice)
    if event.distance > most:
        yield found("violation", dice, f"{label}: пикирующий отряд бегает на {expr}\" — не "
                                       f"более {inches(most)}, а пробежал "
                                       f"{inches(event.distance)}.")
    else:
        yield found("ok", dice, f"{label}: пикирующий отряд бежал на {inches(event.distance)} в "
                                f"пределах {expr}\".")


@event_check("swoop_no_charge", systems=SYSTEMS, actions={"charge"})
def swoop_no_charge(event: ChargeEvent, ctx: EventContext) -> Iterator[Finding]:
    """A swooping flyer neither charges nor is charged."""
    unit, rules = ctx.unit, monster_rules(ctx.book)
    charger = unit if rules.flyer(unit) else None
    flyers = [t for t in ctx.targets if rules.flyer(t)]
    if charger is None and not flyers:
        return
    rule = rules.no_charge
    if rule is None:
        yield missing("запрета нападать на пикирующего летающего монстра")
        return
    if charger is not None:
        label = unit_label(charger)
        if rules.swooping(charger, event):
            yield found("violation", rule, f"{label}: отряд пикирует и не может нападать.")
        else:
            yield found("ok", rule, f"{label}: отряд не пикирует и может нападать.")
    for target in flyers:
        name = unit_label(target)
        if rules.swooping(target):
            yield found("violation", rule, f"{name}: цель пикирует, и нападать на неё нельзя.")
        else:
            yield found("ok", rule, f"{name}: цель не пикирует, и на неё можно нападать.")


@event_check("swoop_no_templates", systems=SYSTEMS, actions={"shoot"})
def swoop_no_templates(event: ShootEvent, ctx: EventContext) -> Iterator[Finding]:
    """Templates, blasts and large blasts cannot hit a swooping flyer."""
    target, rules = ctx.target, monster_rules(ctx.book)
    if target is None or not rules.flyer(target):
        return
    blasts = [w.name for w in event.weapons if w.kind != "normal"]
    swooping = rules.swooping(target)
    if not swooping and not blasts:
        return
    rule = rules.no_templates
    if rule is None:
        yield missing("запрета шаблонов и взрывов по пикирующей модели")
        return
    name, listed = unit_label(target), ", ".join(f"«{b}»" for b in blasts)
    if swooping and blasts:
        yield found("violation", rule, f"{name}: цель пикирует, и оружие с шаблоном или "
                                       f"маркером взрыва ({listed}) не может по ней попасть.")
    elif swooping:
        yield found("ok", rule, f"{name}: цель пикирует, но по ней стреляют без шаблонов и "
                                f"взрывов.")
    else:
        yield found("ok", rule, f"{name}: цель не пикирует, поэтому шаблоны и взрывы "
                                f"({listed}) могут по ней попасть.")


@event_check("hard_to_hit", systems=SYSTEMS, actions={"shoot"})
def hard_to_hit(event: ShootEvent, ctx: EventContext) -> Iterator[Finding]:
    """A flyer is shot at with snap shots unless the weapon or the firer has skyfire."""
    target, unit, rules = ctx.target, ctx.unit, monster_rules(ctx.book)
    if target is None or not rules.flyer(target):
        return
    rule = rules.hard_to_hit
    if rule is None:
        yield missing("правила «Трудно попасть»")
        return
    name = unit_label(target)
    firer_skyfire = unit is not None and rules.skyfire is not None and unit.has_rule(
        rules.skyfire)
    plain = [w.name for w in event.weapons if not w.skyfire]
    if event.snap_shots:
        yield found("ok", rule, f"{name}: по цели стреляют навскидку, как велит правило.")
    elif firer_skyfire or (event.weapons and not plain):
        yield found("ok", rule, f"{name}: по цели стреляют как обычно, у стрелка или оружия "
                                f"есть правило «противовоздушное».")
    else:
        listed = f" ({', '.join(f'«{p}»' for p in plain)})" if plain else ""
        yield found("violation", rule, f"{name}: по цели стреляют не навскидку оружием без "
                                       f"правила «противовоздушное»{listed}, а в неё трудно "
                                       f"попасть.")
