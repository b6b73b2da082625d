"""What the wh40k6 checks share: finding a unit's type and a rule's owner, numbers, messages.

Every check of :mod:`validator.audit.wh40k6` reads its rule from the KB through the log's
:class:`~validator.rulebook.Rulebook`: a section by its titles, the sentence that decides by its
words, the number by its fact. Each check module gathers what it needs into one small object
per rulebook (:func:`memo`), so a check that does not apply to a unit returns after one lookup
and a set membership test, and the audit keeps its pace on a log of a million events.

Example::

    rules = memo(ctx.book, ("bike rules",), lambda: BikeRules.of(ctx.book))
    if ctx.unit is None or rules.bikes_id not in ctx.unit.types:
        return      # not a bike: the check passes over it
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from functools import lru_cache
from typing import Any, TypeVar

from kb.lemmas import fold
from kb.models import Node
from validator.audit.state import UnitState
from validator.registry import Finding, state_update
from validator.rulebook import FoundFact, Rulebook, Sentence
from validator.verdicts import RuleCitation, VerdictKind

SYSTEM = "wh40k6"
SYSTEMS = frozenset({SYSTEM})

T = TypeVar("T")
Update = Callable[[Any, Any], None]


class _Last:
    """The rulebook asked last and its memo.

    One log is audited at a time with one rulebook, so one slot is enough: a check finds the
    memo by identity, and a new rulebook (the next log) simply starts a new memo, so no
    rulebook outlives its audit but the last one.
    """

    book: Rulebook | None = None
    cache: dict[tuple[object, ...], Any] = {}


# How the rule texts name the phases of a 40k turn (stems, folded): to read which phases a
# sentence allows ("вместо произведения выстрела в фазе стрельбы").
PHASE_PATTERNS = {
    "movement": re.compile(r"фаз\w*\s+движени"),
    "shooting": re.compile(r"фаз\w*\s+стрельб"),
    "assault": re.compile(r"фаз\w*\s+наступлени"),
}
PHASE_NAMES = {"movement": "движения", "shooting": "стрельбы", "assault": "наступления"}
"""A phase in the genitive, for messages: «в фазе стрельбы»."""


def memo(book: Rulebook, key: tuple[object, ...], compute: Callable[[], T]) -> T:
    """``compute()`` once per rulebook and key (lookups every event of a log repeats)."""
    if _Last.book is not book:
        _Last.book, _Last.cache = book, {}
    cache = _Last.cache
    try:
        return cache[key]  # type: ignore[no-any-return]
    except KeyError:
        value = cache[key] = compute()
        return value


def owner_type(book: Rulebook, node: Node | None) -> Node | None:
    """The unit type a section belongs to: the node itself or its nearest ancestor type."""
    if node is None:
        return None
    return next((n for n in [node, *book.graph.ancestors(node.id)] if n.kind == "unit_type"),
                None)


def type_id(book: Rulebook, unit: UnitState) -> str | None:
    """The KB id of the unit type the unit's army list names (None when unknown)."""
    name = unit.unit.type
    if not name:
        return None
    node = book.unit_type(name)
    return node.id if node is not None else None


@lru_cache(maxsize=256)
def phases_named(text: str) -> frozenset[str]:
    """The phases of the turn a rule sentence names."""
    key = fold(text)
    return frozenset(phase for phase, pattern in PHASE_PATTERNS.items() if pattern.search(key))


def phases_text(phases: Collection[str]) -> str:
    """Phases for a message, in the order of the turn: «фазе движения или фазе наступления»."""
    return " или ".join(f"фазе {PHASE_NAMES[p]}" for p in PHASE_NAMES if p in phases)


def phase_text(phase: str | None) -> str:
    """One phase for a message: «фазе стрельбы»."""
    return f"фазе {PHASE_NAMES[phase]}" if phase in PHASE_NAMES else "неизвестной фазе"


def unit_label(unit: UnitState) -> str:
    """How a message names a unit: its type's title and its name («Звери «Гончие»»)."""
    return f"{unit.type_title} «{unit.unit.name}»" if unit.type_title else f"«{unit.unit.name}»"


def stranger_label(unit: UnitState) -> str:
    """How a message names a unit a rule is not for: «Отряд «Тактики» типа «Пехота»»."""
    kind = unit.type_title or unit.unit.type
    return f"Отряд «{unit.unit.name}»" + (f" типа «{kind}»" if kind else " без типа")


def inches(value: float) -> str:
    """A distance as the rules write it: ``30.0`` → ``30"``, ``7.5`` → ``7.5"``."""
    return f'{value:g}"'


def dice_max(fact: FoundFact | None) -> int | None:
    """The largest total a dice fact can roll (``2D6`` → 12), or None for another fact."""
    value = fact.value if fact is not None else None
    if not isinstance(value, dict):
        return None
    count, sides, modifier = value.get("count"), value.get("sides"), value.get("modifier", 0)
    if isinstance(count, int) and isinstance(sides, int) and isinstance(modifier, int):
        return count * sides + modifier
    return None


def dice_expr(fact: FoundFact) -> str:
    """A dice fact as written without the inch mark: ``3D6``."""
    value = fact.value
    if isinstance(value, dict) and isinstance(value.get("expr"), str):
        return str(value["expr"])
    return fact.text.rstrip('"”″')


def normal_dice(text: str) -> str:
    """A dice expression of a log, normalised to compare with a fact: ``"3d6\\""`` → ``3D6``."""
    return re.sub(r"\s+", "", text).upper().replace("Д", "D").rstrip('"”″')


def missing(what: str) -> Finding:
    """A ``not_covered`` finding: the KB lacks what the check needs (never a guess)."""
    return Finding("not_covered", (), f"В базе знаний нет {what}, поэтому проверить нельзя.")


def citation(evidence: Sentence | FoundFact) -> RuleCitation:
    """The evidence cited; built once, since the rulebook returns the same object each time."""
    kept, cited = memo(evidence.book, ("citation", id(evidence)),
                       lambda: (evidence, evidence.citation()))
    # the memo keeps the object alive, so its id cannot name another one meanwhile
    return cited if kept is evidence else evidence.citation()


def found(verdict: VerdictKind, evidence: Sentence | FoundFact, why: str) -> Finding:
    """A finding citing one sentence or fact."""
    return Finding(verdict, (citation(evidence),), why)


def extra(obj: Any, name: str) -> Any:
    """A field the formats do not define but a log may add (``locked_in_combat``)."""
    fields = getattr(obj, "model_extra", None) or {}
    return fields.get(name)


def track(name: str, actions: Collection[str]) -> Callable[[Update], Update]:
    """Register a wh40k6 state update ``func(event, ctx) -> None`` (see ``state_update``)."""
    register = state_update(name, systems=SYSTEMS, actions=actions)

    def decorate(func: Update) -> Update:
        register(func)  # type: ignore[arg-type]  # the registry types updates like checks
        return func

    return decorate
