"""wh40k6 checks of bikes and jetbikes: turbo-boost, no running or going to ground, one weapon
per rider.

The rules live in the sections of «Мотоциклы и гравициклы»: «Турбо-ускорение» (the limit per
type — 12" bikes, 24" jetbikes, 36" Eldar jetbikes, read with ``Rulebook.type_fact`` so the
nearest type wins — and the sentences that it replaces shooting and that nothing deliberate
follows it) and «Стрельба» (one weapon per rider, no going to ground). A unit is a bike or a
jetbike when its type is, or inherits, the type that owns «Турбо-ускорение».
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from kb.models import Node
from validator.audit.common import inches, missing, remember
from validator.audit.engine import EventContext
from validator.audit.state import UnitState
from validator.audit.wh40k6_common import (
    SYSTEMS,
    found,
    owner_type,
    phase_text,
    phases_named,
    phases_text,
    stranger_label,
    type_id,
    unit_label,
)
from validator.inputs.events import (
    BaseEvent,
    GoToGroundEvent,
    RunEvent,
    ShootEvent,
    TurboBoostEvent,
)
from validator.registry import Finding, event_check
from validator.rulebook import FoundFact, Rulebook, Sentence

BIKES = "Мотоциклы и гравициклы"
TURBO = "Турбо-ускорение"
SHOOTING = "Стрельба"

VOLUNTARY = {"shoot": "стрелять", "charge": "нападать", "move": "передвигаться",
             "turbo_boost": "снова включать турбо-ускорение"}
"""Deliberate actions a log records, as a message names them after «нельзя»."""
NAMED = {"shoot", "charge"}
"""The actions the sentence names («не могут стрелять, атаковать»)."""


@dataclass(frozen=True)
class BikeRules:
    """The bike and jetbike rules the checks cite, found once per rulebook."""

    bikes: Node | None
    granted: Sentence | None
    instead: Sentence | None
    instead_phases: frozenset[str]
    after: Sentence | None
    cannot_run: Sentence | None
    cannot_go_to_ground: Sentence | None
    per_rider: FoundFact | None

    @property
    def bikes_id(self) -> str | None:
        """The id of the type whose units are bikes or jetbikes."""
        return self.bikes.id if self.bikes is not None else None

    @classmethod
    def of(cls, book: Rulebook) -> BikeRules:
        """Look the rules up in a rulebook."""
        turbo = book.section(BIKES, TURBO)
        shooting = book.section(BIKES, SHOOTING)
        instead = book.sentence(turbo, "турбо-ускорени", "вместо")
        return cls(
            bikes=owner_type(book, turbo),
            granted=book.sentence(turbo, "турбо-ускорени", "доступно"),
            instead=instead,
            instead_phases=phases_named(instead.text) if instead else frozenset(),
            after=book.sentence(turbo, "после турбо-ускорени"),
            cannot_run=book.sentence(turbo, "не могут бегать"),
            cannot_go_to_ground=book.sentence(shooting, "не могут залегать"),
            per_rider=book.fact(shooting, name="max_count"),
        )


def bike_rules(book: Rulebook) -> BikeRules:
    """The bike rules of a rulebook (looked up once)."""
    return remember(book, ("bike rules",), lambda: BikeRules.of(book))


def _bike(rules: BikeRules, unit: UnitState | None) -> UnitState | None:
    """The unit if it is a bike or a jetbike."""
    return unit if unit is not None and rules.bikes_id in unit.types else None


@event_check("turbo_boost_limit", systems=SYSTEMS, actions={"turbo_boost"})
def turbo_boost_limit(event: TurboBoostEvent, ctx: EventContext) -> Iterator[Finding]:
    """Only bikes and jetbikes turbo-boost: as far as their type allows, in the shooting phase.

    The distance is the nearest type's fact (36" Eldar jetbikes, 24" jetbikes, 12" bikes); the
    phase is the one the sentence names where turbo-boost is used instead of shooting.
    """
    unit, book = ctx.unit, ctx.book
    if unit is None:
        return
    rules = bike_rules(book)
    if rules.bikes is None:
        yield missing("раздела «Турбо-ускорение» мотоциклов и гравициклов")
        return
    if rules.bikes.id not in unit.types:
        if rules.granted is None:
            yield missing("предложения о том, кому доступно турбо-ускорение")
            return
        yield found("violation", rules.granted,
                    f"{stranger_label(unit)} не относится к типу «{rules.bikes.title}», а "
                    f"турбо-ускорение доступно только им.")
        return
    own, label = type_id(book, unit), unit_label(unit)
    limit = (book.type_fact(own, topic="турбо-ускорение", name="max_distance")
             if own is not None else None)
    if limit is None:
        yield missing(f"предела турбо-ускорения для типа «{unit.type_title}»")
        return
    phase = event.phase or ctx.game.phase
    wrong_phase = bool(rules.instead_phases) and phase not in rules.instead_phases
    if wrong_phase and rules.instead is not None:
        yield found("violation", rules.instead,
                    f"{label}: турбо-ускорение заявлено в {phase_text(phase)}, а им пользуются "
                    f"вместо выстрела в {phases_text(rules.instead_phases)}.")
    if event.distance > limit.number:
        yield found("violation", limit, f"{label}: турбо-ускорение не более {limit.text}, "
                                        f"заявлено {inches(event.distance)}.")
    elif not wrong_phase:
        yield found("ok", limit, f"{label}: турбо-ускорение на {inches(event.distance)} в "
                                 f"пределах {limit.text}.")


@event_check("after_turbo_boost", systems=SYSTEMS, actions=set(VOLUNTARY))
def after_turbo_boost(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """After a turbo-boost a bike does nothing deliberate (no shooting, no charge) that turn,
    and a bike that has fired does not turbo-boost, which it does instead of shooting.

    Shooting and charging, which the sentence names, are ``ok`` when the unit did not
    turbo-boost this turn; a move or a turbo-boost is only judged after a turbo-boost or a shot.
    """
    rules = bike_rules(ctx.book)
    unit = _bike(rules, ctx.unit)
    if unit is None:
        return
    boosted = unit.did("turbo_boost")
    shot = unit.did("shoot") if event.action == "turbo_boost" else None
    label = unit_label(unit)
    if shot is not None and boosted is None:
        if rules.instead is None:
            yield missing("предложения о том, что турбо-ускорение заменяет выстрел")
            return
        yield found("violation", rules.instead, f"{label}: отряд уже стрелял в этом ходе "
                                                f"(строка {shot.line}), а турбо-ускорение "
                                                f"используют вместо выстрела.")
        return
    if boosted is None and event.action not in NAMED:
        return
    if rules.after is None:
        yield missing("предложения о действиях после турбо-ускорения")
        return
    doing = VOLUNTARY[event.action]
    if boosted is not None:
        yield found("violation", rules.after, f"{label}: отряд включил турбо-ускорение в этом "
                                              f"ходе (строка {boosted.line}), и до конца хода "
                                              f"ему нельзя {doing}.")
    else:
        yield found("ok", rules.after, f"{label}: отряд не включал турбо-ускорение в этом ходе, "
                                       f"поэтому ему можно {doing}.")


@event_check("bikes_cannot_run", systems=SYSTEMS, actions={"run"})
def bikes_cannot_run(event: RunEvent, ctx: EventContext) -> Iterator[Finding]:
    """Bikes and jetbikes cannot run (they turbo-boost instead)."""
    rules = bike_rules(ctx.book)
    unit = _bike(rules, ctx.unit)
    if unit is None:
        return
    if rules.cannot_run is None:
        yield missing("запрета бега для мотоциклов и гравициклов")
        return
    yield found("violation", rules.cannot_run, f"{unit_label(unit)}: отряд не может бегать, а в "
                                               f"журнале бег на {inches(event.distance)}.")


@event_check("bikes_cannot_go_to_ground", systems=SYSTEMS, actions={"go_to_ground"})
def bikes_cannot_go_to_ground(event: GoToGroundEvent, ctx: EventContext) -> Iterator[Finding]:
    """Bikes and jetbikes cannot go to ground."""
    rules = bike_rules(ctx.book)
    unit = _bike(rules, ctx.unit)
    if unit is None:
        return
    if rules.cannot_go_to_ground is None:
        yield missing("запрета залегать для мотоциклов и гравициклов")
        return
    yield found("violation", rules.cannot_go_to_ground,
                f"{unit_label(unit)}: отряд не может залегать, а в журнале он залёг.")


@event_check("one_weapon_per_rider", systems=SYSTEMS, actions={"shoot"})
def one_weapon_per_rider(event: ShootEvent, ctx: EventContext) -> Iterator[Finding]:
    """Each rider of a bike or jetbike fires one weapon (the number is the rule's)."""
    rules = bike_rules(ctx.book)
    unit = _bike(rules, ctx.unit)
    if unit is None or not event.weapons:
        return
    limit = rules.per_rider
    if limit is None:
        yield missing("числа оружий на наездника мотоцикла")
        return
    per_rider = int(limit.number)
    riders, counted = _riders(event, unit)
    weapons = len(event.weapons)
    label = unit_label(unit)
    if weapons > riders * per_rider:
        yield found("violation", limit, f"{label}: {counted} — {riders}, оружий — {weapons}, а "
                                        f"каждый наездник стреляет не более чем из "
                                        f"{per_rider} оружия.")
    else:
        yield found("ok", limit, f"{label}: {counted} — {riders}, оружий — {weapons}, не больше "
                                 f"{per_rider} на наездника.")


def _riders(event: ShootEvent, unit: UnitState) -> tuple[int, str]:
    """How many riders fire, and what the number counts (for the message)."""
    if event.firing_models is not None:
        return event.firing_models, "стреляющих моделей"
    lost = unit.unit.models - unit.size
    riders = sum(p.count for p in unit.unit.parts if p.role == "rider")
    if riders:
        return max(riders - lost, 0), "наездников"
    return unit.size, "моделей в отряде"
