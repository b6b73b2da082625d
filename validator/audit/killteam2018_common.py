"""What the Kill Team (2018) checks share: rule lookups, the model's Move, its moves so far.

A Kill Team army list describes models, not unit types (FORMATS §2): a model's Move is the
``M`` of its profile and what it can do follows from its keywords (``FLY``, ``PSYKER``). The
checks of :mod:`~validator.audit.killteam2018_movement`, :mod:`~validator.audit.killteam2018_charge`
and :mod:`~validator.audit.killteam2018` find every number and sentence they use in the KB
through the log's :class:`~validator.rulebook.Rulebook`, by the titles of the rules that
state them; when one is missing they report ``not_covered`` and say what is missing.
"""

from __future__ import annotations

import re
import weakref
from typing import Any

from kb.text import stem_match
from validator.audit.engine import EventContext
from validator.audit.state import Done, UnitState
from validator.events import ChargeEvent, ReactEvent
from validator.registry import Finding
from validator.rulebook import FoundFact, Rulebook, Sentence
from validator.verdicts import RuleCitation

SYSTEM = frozenset({"killteam2018"})
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


def inches(value: float) -> str:
    """A distance as the reports write it: ``6"``, ``2.5"``."""
    return f'{value:g}"'


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


def missing_rule(what: str) -> Finding:
    """``not_covered``: the KB lacks what the check needs (the corpus changed)."""
    return Finding("not_covered", (), f"В базе знаний нет {what}, и проверить это нечем.")


# Every event asks the same few questions of the rulebook: each answer (and its citation) is
# kept per rulebook, so a lookup costs one dict access (the audit must reach 50,000 events/s).
_MEMO: weakref.WeakKeyDictionary[Rulebook, dict[tuple[object, ...], Any]] = (
    weakref.WeakKeyDictionary())


_last: tuple[weakref.ref[Rulebook], dict[tuple[object, ...], Any]] | None = None


def _memo(book: Rulebook) -> dict[tuple[object, ...], Any]:
    global _last
    if _last is not None and _last[0]() is book:
        return _last[1]
    memo = _MEMO.get(book)
    if memo is None:
        memo = _MEMO[book] = {}
    _last = (weakref.ref(book), memo)
    return memo


def rule_sentence(book: Rulebook, title: str, *stems: str) -> Sentence | None:
    """The first sentence of the rule titled ``title`` holding every stem."""
    memo, key = _memo(book), ("sentence", title, stems)
    if key not in memo:
        memo[key] = book.sentence(book.section(title), *stems)
    found: Sentence | None = memo[key]
    return found


def rule_fact(book: Rulebook, title: str, name: str, *stems: str) -> FoundFact | None:
    """The first fact called ``name`` of the rule titled ``title`` (and its subsections)."""
    memo, key = _memo(book), ("fact", title, name, stems)
    if key not in memo:
        node = book.section(title)
        memo[key] = book.fact(node, name=name, stems=stems) if node is not None else None
    found: FoundFact | None = memo[key]
    return found


def dice_range(fact: FoundFact) -> tuple[int, int] | None:
    """The lowest and highest total of a dice fact (``2D6`` → 2, 12), or None."""
    value = fact.value
    if not isinstance(value, dict):
        return None
    count, sides, modifier = value.get("count"), value.get("sides"), value.get("modifier", 0)
    if not (isinstance(count, int) and isinstance(sides, int) and isinstance(modifier, int)):
        return None
    return count + modifier, count * sides + modifier


def cite(*found: Sentence | FoundFact | None) -> tuple[RuleCitation, ...]:
    """The citations of the sentences and facts found (those that were found)."""
    present = [f for f in found if f is not None]
    if not present:
        return ()
    # the found objects live in the book's caches as long as the book: their ids are stable
    memo, key = _memo(present[0].book), ("cite", *map(id, present))
    if key not in memo:
        memo[key] = tuple(f.citation() for f in present)
    citations: tuple[RuleCitation, ...] = memo[key]
    return citations


def is_retreat(done: Done) -> bool:
    """Whether a recorded event is a Retreat reaction (a move, too)."""
    return done.action == "react" and isinstance(done.event, ReactEvent) and (
        done.event.kind == "retreat")


def moves(unit: UnitState, phase: str | None = None) -> list[Done]:
    """What moved the model this battle round (in ``phase``), in log order.

    Moves, advances, fall backs, charges and Retreat reactions each move a model.
    """
    return [d for d in unit.history
            if (d.action in MOVE_ACTIONS or is_retreat(d)) and (phase is None or
                                                                 d.phase == phase)]


def done_name(done: Done) -> str:
    """A recorded event in Russian, with its line: «продвижение, строка 5»."""
    action = "retreat" if is_retreat(done) else done.action
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
    if unit is None:
        return None
    success = rule_fact(ctx.book, "Make Charge Move", "within_distance", "успешн")
    if success is None:
        return None
    for done in unit.history:
        event = done.event
        if (done.action == "targeted:charge" and done.phase == ctx.game.phase
                and isinstance(event, ChargeEvent) and event.end_distance is not None
                and len({event.target, *event.targets} - {None}) == 1
                and event.end_distance <= success.number):
            return done, success
    return None


def charge_distances(book: Rulebook) -> tuple[FoundFact | None, FoundFact | None]:
    """The «Charging» distances: how near the targets must be, how near no enemy may be.

    The sentence names both («если она не в пределах 1" … и находится в пределах 12"»); the
    one it says the model must *not* be within is the second.
    """
    memo, key = _memo(book), ("charge distances",)
    if key not in memo:
        node = book.section("Charging")
        facts = book.facts(node, name="within_distance") if node is not None else ()
        engaged = next((f for f in facts
                        if stem_match(f.fact.evidence, (f"не в пределах {f.text}",))), None)
        reach = next((f for f in facts if f is not engaged), None)
        memo[key] = (reach, engaged)
    found: tuple[FoundFact | None, FoundFact | None] = memo[key]
    return found
