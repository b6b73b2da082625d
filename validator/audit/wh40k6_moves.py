"""wh40k6 checks of movement by unit type: falling back, beasts and cavalry, jump packs, jet
packs and the Eldar jetbikes' assault move.

Each number is the fact that governs the unit's type (``Rulebook.type_fact``: the type's own
rule first, then the types it inherits), so jump infantry reads the jump units' 3D6 and 12",
and a flying monstrous creature that glides reads the jump monstrous creatures' rules it
inherits. The phase a rule speaks of is read from its sentence ("в фазе движения").
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from kb.models import Node
from validator.audit.common import inches, missing, remember
from validator.audit.engine import EventContext
from validator.audit.state import Done, UnitState
from validator.audit.stated import group, index_targets, newer, stated
from validator.audit.wh40k6_common import (
    SYSTEM,
    SYSTEMS,
    dice_expr,
    dice_max,
    found,
    normal_dice,
    owner_type,
    phase_text,
    phases_named,
    phases_text,
    stranger_label,
    type_id,
    unit_label,
)
from validator.inputs.events import BaseEvent, ChargeEvent, FallBackEvent, MoveEvent
from validator.registry import Finding, event_check
from validator.rulebook import FoundFact, Rulebook, Sentence

JUMP_UNITS = "Прыжковые боевые единицы"
JET_PACK_UNITS = "Боевые единицы с реактивными ранцами"
THRUST_MOVE = "Реактивный скачок"


@dataclass(frozen=True)
class Limit:
    """A unit type's fact and the phases its sentence names."""

    fact: FoundFact
    phases: frozenset[str]


@dataclass(frozen=True)
class TypeMoves:
    """The movement facts that govern one unit type (None: its rules state none)."""

    fall_back: FoundFact | None
    move: Limit | None
    jump: Limit | None
    assault_move: Limit | None

    @classmethod
    def of(cls, book: Rulebook, own: str | None) -> TypeMoves:
        """Look a type's facts up (``own``: the type's id)."""
        def limit(topic: str, name: str) -> Limit | None:
            fact = book.type_fact(own, topic=topic, name=name) if own else None
            return Limit(fact, phases_named(fact.fact.evidence)) if fact else None

        return cls(
            fall_back=book.type_fact(own, topic="отступление", name="dice") if own else None,
            move=limit("движение", "max_distance"),
            jump=limit("прыжковый ранец", "max_distance"),
            assault_move=limit("наступление", "dice"),
        )


@dataclass(frozen=True)
class PackRules:
    """The jump- and jet-pack rules the checks cite, found once per rulebook."""

    jump: Node | None
    equipped: Sentence | None
    once: Sentence | None
    once_phases: frozenset[str]
    jet: Node | None
    thrust: FoundFact | None
    thrust_phases: frozenset[str]
    not_locked: Sentence | None

    @classmethod
    def of(cls, book: Rulebook) -> PackRules:
        """Look the rules up in a rulebook."""
        jump = book.unit_type(JUMP_UNITS)
        once = book.sentence(jump, "прыжковые ранцы", "всего раз", deep=False)
        section = book.section(JET_PACK_UNITS, THRUST_MOVE)
        thrust = book.fact(section, name="dice")
        return cls(
            jump=jump,
            equipped=book.sentence(jump, "оснащены прыжковыми ранцами", deep=False),
            once=once,
            once_phases=phases_named(once.text) if once else frozenset(),
            jet=owner_type(book, section),
            thrust=thrust,
            thrust_phases=phases_named(thrust.fact.evidence) if thrust else frozenset(),
            not_locked=book.sentence(section, "не связана боем"),
        )


def type_moves(book: Rulebook, unit: UnitState) -> TypeMoves:
    """The movement facts of a unit's type (looked up once per type)."""
    return remember(book, ("type moves", unit.unit.type),
                lambda: TypeMoves.of(book, type_id(book, unit)))


def pack_rules(book: Rulebook) -> PackRules:
    """The jump- and jet-pack rules of a rulebook (looked up once)."""
    return remember(book, ("pack rules",), lambda: PackRules.of(book))


def _phase(event: BaseEvent, ctx: EventContext) -> str | None:
    return event.phase or ctx.game.phase


@event_check("fall_back_dice", systems=SYSTEMS, actions={"fall_back"})
def fall_back_dice(event: FallBackEvent, ctx: EventContext) -> Iterator[Finding]:
    """A unit whose type's rules give its fall-back dice (3D6) rolls those, and no farther."""
    unit = ctx.unit
    if unit is None or (event.dice is None and event.distance is None):
        return
    dice = type_moves(ctx.book, unit).fall_back
    if dice is None:
        return
    label, expr, most = unit_label(unit), dice_expr(dice), dice_max(dice)
    wrong = False
    if event.dice is not None and normal_dice(event.dice) != expr:
        wrong = True
        yield found("violation", dice, f"{label}: отступление на {expr}\", а в журнале "
                                       f"бросали {event.dice}.")
    if event.distance is not None and most is not None and event.distance > most:
        wrong = True
        yield found("violation", dice, f"{label}: отступление на {expr}\" — не более "
                                       f"{inches(most)}, заявлено {inches(event.distance)}.")
    if not wrong:
        rolled = f" (в журнале {inches(event.distance)})" if event.distance is not None else ""
        yield found("ok", dice, f"{label}: отступление на {expr}\"{rolled}, как велит "
                                f"правило.")


@event_check("beast_cavalry_move_limit", systems=SYSTEMS, actions={"move"})
def beast_cavalry_move_limit(event: MoveEvent, ctx: EventContext) -> Iterator[Finding]:
    """Beasts and cavalry move at most 12" in the movement phase (their type's own limit)."""
    unit = ctx.unit
    limit = type_moves(ctx.book, unit).move if unit is not None else None
    if unit is None or limit is None or _phase(event, ctx) not in limit.phases:
        return
    fact, label = limit.fact, unit_label(unit)
    if event.distance > fact.number:
        yield found("violation", fact, f"{label}: в фазе движения не более {fact.text}, "
                                       f"заявлено {inches(event.distance)}.")
    else:
        yield found("ok", fact, f"{label}: движение на {inches(event.distance)} в пределах "
                                f"{fact.text}.")


# -- jump packs --------------------------------------------------------------------------------


def _uses_jump_pack(event: BaseEvent, jump_unit: bool) -> bool:
    """A move or charge made with the jump pack (a gliding flyer moves as a jump unit)."""
    mode = getattr(event, "mode", None)
    return mode == "jump" or (jump_unit and mode == "glide")


JUMP_PACK = "jump_pack"
"""What the index of a turn also calls a move or charge made in a jump pack's mode (``jump``,
or ``glide``: a gliding flyer moves as a jump unit), so that the next one finds it."""
group(SYSTEM, JUMP_PACK, {"move", "charge"}, where=("mode", {"jump", "glide"}))
index_targets(SYSTEM, {"charge"})  # a unit charged this phase is locked in combat


def _earlier_jump(unit: UnitState) -> Done | None:
    return unit.first(JUMP_PACK)


@event_check("jump_pack_once_per_turn", systems=SYSTEMS, actions={"move", "charge"})
def jump_pack_once_per_turn(event: MoveEvent | ChargeEvent,
                            ctx: EventContext) -> Iterator[Finding]:
    """Jump packs: jump units only, once a turn, in the movement or the assault phase."""
    unit = ctx.unit
    if unit is None or event.mode not in ("jump", "glide"):
        return
    rules = pack_rules(ctx.book)
    jump_unit = rules.jump is not None and rules.jump.id in unit.types
    if not _uses_jump_pack(event, jump_unit):
        return
    label = unit_label(unit)
    if not jump_unit:
        if rules.equipped is None or rules.jump is None:
            yield missing("описания прыжковых боевых единиц")
            return
        yield found("violation", rules.equipped,
                    f"{stranger_label(unit)} не относится к типу «{rules.jump.title}», и "
                    f"прыжкового ранца у него нет.")
        return
    rule, phases = rules.once, rules.once_phases
    if rule is None or not phases:
        yield missing("правила о том, когда используют прыжковые ранцы")
        return
    phase = _phase(event, ctx)
    before = _earlier_jump(unit)
    if phase not in phases:
        yield found("violation", rule, f"{label}: прыжковые ранцы использованы в "
                                       f"{phase_text(phase)}, а ими пользуются только в "
                                       f"{phases_text(phases)}.")
    elif before is not None:
        yield found("violation", rule, f"{label}: прыжковые ранцы уже использованы в этом "
                                       f"ходе (строка {before.line}, в "
                                       f"{phase_text(before.phase)}), а пользоваться ими "
                                       f"можно всего раз за ход.")
    else:
        yield found("ok", rule, f"{label}: прыжковые ранцы использованы в этом ходе впервые, в "
                                f"{phase_text(phase)}.")


@event_check("jump_pack_move_limit", systems=SYSTEMS, actions={"move"})
def jump_pack_move_limit(event: MoveEvent, ctx: EventContext) -> Iterator[Finding]:
    """A jump unit that moves with its jump pack in the movement phase goes at most 12"."""
    unit = ctx.unit
    if unit is None or event.mode not in ("jump", "glide"):
        return
    rules = pack_rules(ctx.book)
    if rules.jump is None or rules.jump.id not in unit.types:
        return
    limit, label = type_moves(ctx.book, unit).jump, unit_label(unit)
    if limit is None:
        yield missing(f"предела движения с прыжковым ранцем для типа «{unit.type_title}»")
        return
    if _phase(event, ctx) not in limit.phases:
        return
    fact = limit.fact
    if event.distance > fact.number:
        yield found("violation", fact, f"{label}: с прыжковым ранцем в фазе движения не более "
                                       f"{fact.text}, заявлено {inches(event.distance)}.")
    else:
        yield found("ok", fact, f"{label}: движение с прыжковым ранцем на "
                                f"{inches(event.distance)} в пределах {fact.text}.")


# -- jet packs and the Eldar jetbikes ----------------------------------------------------------


@event_check("jet_pack_thrust_move", systems=SYSTEMS, actions={"move"})
def jet_pack_thrust_move(event: MoveEvent, ctx: EventContext) -> Iterator[Finding]:
    """A jet-pack unit moves 2D6 in the assault phase, unless locked in combat or charging."""
    unit, rules = ctx.unit, pack_rules(ctx.book)
    if unit is None or rules.jet is None or rules.jet.id not in unit.types:
        return
    dice, rule = rules.thrust, rules.not_locked
    if dice is None or rule is None:
        yield missing("правила реактивного скачка с его кубиками")
        return
    phase = _phase(event, ctx)
    if phase not in rules.thrust_phases:
        return
    label, expr, most = unit_label(unit), dice_expr(dice), dice_max(dice)
    charged = unit.did("charge", phase=phase)
    charged_by = unit.did("targeted:charge", phase=phase)
    said = stated(ctx.game, unit, "in_close_combat", "phase") if unit.stated else None
    if said is not None and newer(said, charged_by):  # the log's word is the latest
        locked, how = said.value, "в журнале отряд связан боем"
    else:
        locked = charged_by is not None
        how = f"на отряд напали (строка {charged_by.line})" if charged_by is not None else ""
    if charged is not None:
        yield found("violation", rule, f"{label}: отряд нападал в этой фазе (строка "
                                       f"{charged.line}), а реактивный скачок делает только "
                                       f"отряд, который не нападает.")
    elif locked:
        yield found("violation", rule, f"{label}: {how}, а реактивный скачок делает только "
                                       f"отряд, не связанный боем.")
    elif most is None:
        yield missing("кубиков реактивного скачка")
    elif event.distance > most:
        yield found("violation", dice, f"{label}: реактивный скачок на {expr}\" — не более "
                                       f"{inches(most)}, заявлено {inches(event.distance)}.")
    else:
        yield found("ok", dice, f"{label}: реактивный скачок на {inches(event.distance)} в "
                                f"пределах {expr}\", отряд не нападал и не связан боем.")


@event_check("eldar_jetbike_assault_move", systems=SYSTEMS, actions={"move"})
def eldar_jetbike_assault_move(event: MoveEvent, ctx: EventContext) -> Iterator[Finding]:
    """Eldar jetbikes may move 2D6 in the assault phase (their type's own assault-phase dice)."""
    unit = ctx.unit
    limit = type_moves(ctx.book, unit).assault_move if unit is not None else None
    if unit is None or limit is None or _phase(event, ctx) not in limit.phases:
        return
    dice = limit.fact
    label, expr, most = unit_label(unit), dice_expr(dice), dice_max(dice)
    if most is None:
        yield missing(f"кубиков движения в фазе наступления для типа «{unit.type_title}»")
    elif event.distance > most:
        yield found("violation", dice, f"{label}: в фазе наступления движение на {expr}\" — не "
                                       f"более {inches(most)}, заявлено {inches(event.distance)}.")
    else:
        yield found("ok", dice, f"{label}: движение в фазе наступления на "
                                f"{inches(event.distance)} в пределах {expr}\".")
