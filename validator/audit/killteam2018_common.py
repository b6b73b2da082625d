"""What the Kill Team (2018) checks share: rule lookups, the model's Move, its moves so far.

A Kill Team army list describes models, not unit types (FORMATS §2): a model's Move is the
``M`` of its profile and what it can do follows from its keywords (``FLY``, ``PSYKER``). The
checks of :mod:`~validator.audit.killteam2018_movement`, :mod:`~validator.audit.killteam2018_charge`
and :mod:`~validator.audit.killteam2018` find every number and sentence they use in the KB
through the log's :class:`~validator.rulebook.Rulebook`, by the titles of the rules that
state them; when one is missing they report ``not_covered`` and say what is missing. What
every system shares (lookups once per book, citations, ``missing``) is in
:mod:`validator.audit.common`.
"""

from __future__ import annotations

import re

from kb.text import stem_match
from validator.audit.common import remember, tracker
from validator.audit.engine import EventContext
from validator.audit.state import Done, UnitState
from validator.audit.stated import group, index_targets
from validator.inputs.events import BaseEvent, ChargeEvent, ReactEvent
from validator.registry import Finding
from validator.rulebook import FoundFact, Rulebook, Sentence

SYSTEM = "killteam2018"
SYSTEMS = frozenset({SYSTEM})
MOVEMENT = "movement"
SHOOTING = "shooting"
MOVE_ACTIONS = ("move", "advance", "fall_back", "charge")
"""The actions that move a model when it is chosen in the movement phase."""

ACTION_NAMES = {
    "move": "нормальный ход", "advance": "продвижение", "fall_back": "отступление",
    "charge": "чардж", "react": "реакция", "retreat": "отход", "ready": "подготовка",
    "shoot": "стрельба", "manifest": "психическая сила", "reinforcements": "пополнение",
}

FLY = "FLY"
PSYKER = "PSYKER"
"""Keywords as the rule text writes them (stems that find their sentences, too)."""

_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


def number(value: object) -> float | None:
    """A number given in an event's extra field, or None (a bool or text is not one)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def move_characteristic(unit: UnitState) -> float | None:
    """The model's Move (``M`` of its profile; ``6`` or ``'6"'``), or None if not given."""
    value = unit.unit.profile.get("M")
    if isinstance(value, int):
        return float(value)
    found = _NUMBER.search(value) if isinstance(value, str) else None
    return float(found.group(0).replace(",", ".")) if found else None


def missing_move(unit: UnitState, rule: Sentence | None) -> Finding:
    """``not_covered``: the army list gives the model no Move to compare with."""
    rules = (rule.citation(),) if rule else ()
    return Finding("not_covered", rules,
                   f"В списке армии у модели «{unit.unit.name}» нет характеристики M (Move), "
                   "и расстояние не с чем сравнить.")


def rule_sentence(book: Rulebook, title: str, *stems: str) -> Sentence | None:
    """The first sentence of the rule titled ``title`` holding every stem."""
    return remember(book, ("sentence", title, stems),
                    lambda: book.sentence(book.section(title), *stems))


def rule_fact(book: Rulebook, title: str, name: str, *stems: str) -> FoundFact | None:
    """The first fact called ``name`` of the rule titled ``title`` (and its subsections)."""
    def compute() -> FoundFact | None:
        node = book.section(title)
        return book.fact(node, name=name, stems=stems) if node is not None else None

    return remember(book, ("fact", title, name, stems), compute)


RETREAT = "retreat"
MOVED = "moved"
CONTACT = "charged_into_contact"
"""Names the index of a turn answers for beside the actions: a Retreat reaction (a ``react``
of kind ``retreat``, which moves the model); anything that moved the model (a move, an
advance, a fall back, a charge, a Retreat), so that "has it moved in this phase, how often"
is one lookup (both by :func:`~validator.audit.stated.group`); and, for the target of a
charge that ended within the charge distance, the charge that brought an enemy into contact
with it (:func:`track_contact`)."""


def _is_retreat(event: BaseEvent) -> bool:
    return isinstance(event, ReactEvent) and event.kind == "retreat"


def is_retreat(done: Done) -> bool:
    """Whether a recorded event is a Retreat reaction (a move, too)."""
    return done.action in (RETREAT, "react") and _is_retreat(done.event)


def done_name(done: Done) -> str:
    """A recorded event (or tag) in Russian, with its line: «продвижение, строка 5»."""
    action = RETREAT if is_retreat(done) else done.event.action
    return f"{ACTION_NAMES.get(action, action)}, строка {done.line}"


def actor(done: Done) -> str:
    """Who did a recorded event, as the log names it (``B:boy``)."""
    event = done.event
    return f"{event.player}:{event.unit}" if event.player else str(event.unit)


def charged_into_contact(ctx: EventContext) -> tuple[Done, FoundFact] | None:
    """The charge of this phase that ended within the charge distance of the acting model.

    A successful charge leaves the charger within 1" (the fact of «Make Charge Move») of its
    target, so the target is then a model within 1" of an enemy. Only a charge at one target
    tells which model it reached (``end_distance`` is to the nearest target).
    """
    unit = ctx.unit
    done = unit.first(CONTACT, phase=ctx.game.phase) if unit is not None else None
    if done is None:
        return None
    success = rule_fact(ctx.book, "Make Charge Move", "within_distance", "успешн")
    return (done, success) if success is not None else None


def _reached(event: ChargeEvent, success: FoundFact) -> bool:
    return (event.end_distance is not None and len({event.target, *event.targets} - {None}) == 1
            and event.end_distance <= success.number)


group(SYSTEM, MOVED, MOVE_ACTIONS)
group(SYSTEM, MOVED, {"react"}, where=("kind", {"retreat"}))
group(SYSTEM, RETREAT, {"react"}, where=("kind", {"retreat"}))
index_targets(SYSTEM, {"charge"})  # only the target of a charge reacts


@tracker("killteam2018_contact", systems=SYSTEMS, actions={"charge"})
def track_contact(event: BaseEvent, ctx: EventContext) -> None:
    """Record :data:`CONTACT` for the target of a charge that ended within its distance."""
    game = ctx.game
    if not isinstance(event, ChargeEvent) or not ctx.targets:
        return
    success = rule_fact(ctx.book, "Make Charge Move", "within_distance", "успешн")
    if success is not None and _reached(event, success):
        done = Done(CONTACT, game.turn, game.phase, ctx.line, event)
        for target in ctx.targets:
            game.record(target, done, last=False)


def charge_distances(book: Rulebook) -> tuple[FoundFact | None, FoundFact | None]:
    """The «Charging» distances: how near the targets must be, how near no enemy may be.

    The sentence names both («если она не в пределах 1" … и находится в пределах 12"»); the
    one it says the model must *not* be within is the second.
    """
    def compute() -> tuple[FoundFact | None, FoundFact | None]:
        node = book.section("Charging")
        facts = book.facts(node, name="within_distance") if node is not None else ()
        engaged = next((f for f in facts
                        if stem_match(f.fact.evidence, (f"не в пределах {f.text}",))), None)
        reach = next((f for f in facts if f is not engaged), None)
        return reach, engaged

    return remember(book, ("charge distances",), compute)
