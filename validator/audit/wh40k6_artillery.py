"""wh40k6 checks of artillery: no firing after moving, no snap shots, no charge while it has
guns, no move without a crew per gun.

The guns and the crew are the army list's ``parts`` (role ``gun`` / ``crew``; independent
characters are neither: the text says they are not crew). A ``casualties`` event may say whose
models died with ``"role": "gun"`` or ``"crew"``; without it the dead are counted as crew,
since wounds are never allocated to the guns in close combat and a log that loses a gun says
so. When the last crewman dies the guns are removed too («Если все модели боевого расчета
убиты, то и орудие немедленно убирается с поля боя»). A unit whose list gives no parts still
has its gun (artillery is crew and gun by definition), but its crew cannot be counted.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from kb.models import Node
from validator.audit.common import extra, missing, remember, tracker
from validator.audit.engine import EventContext
from validator.audit.state import UnitState
from validator.audit.stated import newer, stated
from validator.audit.wh40k6_common import (
    SYSTEMS,
    found,
    owner_type,
    phases_named,
    unit_label,
)
from validator.inputs.events import BaseEvent, CasualtiesEvent, ChargeEvent, ShootEvent
from validator.registry import Finding, event_check
from validator.rulebook import FoundFact, Rulebook, Sentence

ARTILLERY = "Артиллерия"
SHOOTING = "Стрельба артиллерии"
MOVEMENT = "Движение артиллерии"
ASSAULT = "Наступление"

GUNS, CREW = "artillery_guns", "artillery_crew"


@dataclass(frozen=True)
class ArtilleryRules:
    """The artillery rules the checks cite, found once per rulebook."""

    artillery: Node | None
    no_fire_after_move: Sentence | None
    moved_phases: frozenset[str]
    no_snap_shots: Sentence | None
    no_charge: Sentence | None
    crew_per_gun: FoundFact | None

    @classmethod
    def of(cls, book: Rulebook) -> ArtilleryRules:
        """Look the rules up in a rulebook."""
        shooting = book.section(ARTILLERY, SHOOTING)
        after_move = book.sentence(shooting, "нельзя стрелять", "передвигал")
        return cls(
            artillery=owner_type(book, shooting),
            no_fire_after_move=after_move,
            moved_phases=phases_named(after_move.text) if after_move else frozenset(),
            no_snap_shots=book.sentence(shooting, "навскидку"),
            no_charge=book.sentence(book.section(ARTILLERY, ASSAULT), "не могут нападать"),
            crew_per_gun=book.fact(book.section(ARTILLERY, MOVEMENT), name="min_count"),
        )


def artillery_rules(book: Rulebook) -> ArtilleryRules:
    """The artillery rules of a rulebook (looked up once)."""
    return remember(book, ("artillery rules",), lambda: ArtilleryRules.of(book))


def _artillery(rules: ArtilleryRules, unit: UnitState | None) -> UnitState | None:
    """The unit if it is artillery."""
    owner = rules.artillery
    return unit if unit is not None and owner is not None and owner.id in unit.types else None


def guns_and_crew(unit: UnitState) -> tuple[int, int] | None:
    """The unit's guns and crew now, from its list's parts less its casualties (None: the list
    gives no guns)."""
    if GUNS not in unit.flags:
        guns = sum(p.count for p in unit.unit.parts if p.role == "gun")
        if not guns:
            return None
        unit.flags[GUNS] = guns
        unit.flags[CREW] = sum(p.count for p in unit.unit.parts if p.role == "crew")
    guns_left, crew_left = unit.flags[GUNS], unit.flags[CREW]
    assert isinstance(guns_left, int) and isinstance(crew_left, int)
    return guns_left, crew_left


def _has_guns(unit: UnitState) -> bool:
    """Whether guns remain (an artillery unit whose list gives no parts has its gun)."""
    counts = guns_and_crew(unit)
    return counts is None or counts[0] > 0


@tracker("artillery_casualties", systems=SYSTEMS, actions={"casualties"})
def artillery_casualties(event: CasualtiesEvent, ctx: EventContext) -> None:
    """Take an artillery unit's dead from its guns or its crew; no crew, no guns."""
    unit = _artillery(artillery_rules(ctx.book), ctx.unit)
    counts = guns_and_crew(unit) if unit is not None else None
    if unit is None or counts is None:
        return
    guns, crew = counts
    if extra(event, "role") == "gun":
        guns = max(guns - event.count, 0)
    else:
        crew = max(crew - event.count, 0)
    unit.flags[GUNS], unit.flags[CREW] = (guns if crew else 0), crew


@event_check("artillery_fire_after_move", systems=SYSTEMS, actions={"shoot"})
def artillery_fire_after_move(event: ShootEvent, ctx: EventContext) -> Iterator[Finding]:
    """A gun does not fire in a turn it moved in the movement phase."""
    rules = artillery_rules(ctx.book)
    unit = _artillery(rules, ctx.unit)
    if unit is None or not _has_guns(unit):
        return
    rule = rules.no_fire_after_move
    if rule is None or not rules.moved_phases:
        yield missing("запрета стрелять из орудия после движения")
        return
    label = unit_label(unit)
    moved = unit.first("move", phases=rules.moved_phases)
    said = stated(ctx.game, unit, "moved", "turn") if unit.stated else None
    if newer(said, unit.did("move", phases=rules.moved_phases)):
        assert said is not None
        if said.value:
            yield found("violation", rule, f"{label}: в журнале орудие передвигалось в этом ходе "
                                           f"(строка {said.line}), а из него стрелять нельзя.")
        else:
            yield found("ok", rule, f"{label}: журнал отмечает, что орудие в этом ходе не "
                                    f"передвигалось (строка {said.line}), и из него можно "
                                    f"стрелять.")
    elif moved is not None:
        yield found("violation", rule, f"{label}: отряд передвигался в этом ходе (строка "
                                       f"{moved.line}), а из орудия, которое передвигалось, "
                                       f"стрелять нельзя.")
    else:
        yield found("ok", rule, f"{label}: отряд не передвигался в фазе движения этого хода, "
                                f"поэтому из орудия можно стрелять.")


@event_check("artillery_snap_shots", systems=SYSTEMS, actions={"shoot"})
def artillery_snap_shots(event: ShootEvent, ctx: EventContext) -> Iterator[Finding]:
    """A gun never fires snap shots."""
    rules = artillery_rules(ctx.book)
    unit = _artillery(rules, ctx.unit)
    if unit is None or not _has_guns(unit):
        return
    rule = rules.no_snap_shots
    if rule is None:
        yield missing("запрета стрелять из орудия навскидку")
    elif event.snap_shots:
        yield found("violation", rule, f"{unit_label(unit)}: из орудия нельзя стрелять "
                                       f"навскидку, а в журнале выстрел навскидку.")
    else:
        yield found("ok", rule, f"{unit_label(unit)}: стрельба из орудия не навскидку.")


@event_check("artillery_no_charge", systems=SYSTEMS, actions={"charge"})
def artillery_no_charge(event: ChargeEvent, ctx: EventContext) -> Iterator[Finding]:
    """Artillery does not charge while it has guns."""
    rules = artillery_rules(ctx.book)
    unit = _artillery(rules, ctx.unit)
    if unit is None:
        return
    rule = rules.no_charge
    if rule is None:
        yield missing("запрета нападать артиллерии")
        return
    label, counts = unit_label(unit), guns_and_crew(unit)
    if _has_guns(unit):
        left = (f"орудий осталось {counts[0]}" if counts is not None
                else "состав в списке армии не указан, но артиллерия включает орудие")
        yield found("violation", rule, f"{label}: {left}, а пока отряд включает модели "
                                       f"орудий, он не может нападать.")
    else:
        yield found("ok", rule, f"{label}: орудий в отряде не осталось, нападать можно.")


@event_check("artillery_crew_to_move", systems=SYSTEMS, actions={"move", "run"})
def artillery_crew_to_move(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """Artillery moves only with at least one crewman per gun."""
    rules = artillery_rules(ctx.book)
    unit = _artillery(rules, ctx.unit)
    if unit is None:
        return
    need = rules.crew_per_gun
    if need is None:
        yield missing("числа номеров расчёта на орудие, нужного для движения артиллерии")
        return
    label, counts = unit_label(unit), guns_and_crew(unit)
    if counts is None:
        yield Finding("not_covered", (need.citation(),),
                      f"{label}: в списке армии у отряда не указаны орудия и расчёт (parts с "
                      f"ролями gun и crew), поэтому проверить нельзя.")
        return
    guns, crew = counts
    per_gun = int(need.number)
    if crew < guns * per_gun:
        yield found("violation", need, f"{label}: орудий {guns}, номеров расчёта {crew}, а для "
                                       f"движения нужно не меньше {per_gun} на орудие.")
    else:
        yield found("ok", need, f"{label}: орудий {guns}, номеров расчёта {crew} — не меньше "
                                f"{per_gun} на орудие, двигаться можно.")
