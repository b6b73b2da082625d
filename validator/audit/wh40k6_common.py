"""What the wh40k6 checks share: finding a unit's type and a rule's owner, numbers, messages.

Every check of :mod:`validator.audit.wh40k6` reads its rule from the KB through the log's
:class:`~validator.rulebook.Rulebook`: a section by its titles, the sentence that decides by its
words, the number by its fact. Each check module gathers what it needs into one small object
per rulebook (:func:`~validator.audit.common.remember`), so a check that does not apply to a
unit returns after one lookup and a set membership test, and the audit keeps its pace on a log
of a million events. What every system shares is in :mod:`validator.audit.common`.

Example::

    rules = remember(ctx.book, ("bike rules",), lambda: BikeRules.of(ctx.book))
    if ctx.unit is None or rules.bikes_id not in ctx.unit.types:
        return      # not a bike: the check passes over it
"""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import lru_cache

from kb.lemmas import fold
from kb.models import Node
from validator.audit.common import cite, dice_range
from validator.audit.state import UnitState
from validator.registry import Finding
from validator.rulebook import FoundFact, Rulebook, Sentence
from validator.verdicts import VerdictKind

SYSTEM = "wh40k6"
SYSTEMS = frozenset({SYSTEM})


# How the rule texts name the phases of a 40k turn (stems, folded): to read which phases a
# sentence allows ("вместо произведения выстрела в фазе стрельбы").
PHASE_PATTERNS = {
    "movement": re.compile(r"фаз\w*\s+движени"),
    "shooting": re.compile(r"фаз\w*\s+стрельб"),
    "assault": re.compile(r"фаз\w*\s+наступлени"),
}
PHASE_NAMES = {"movement": "движения", "shooting": "стрельбы", "assault": "наступления"}
"""A phase in the genitive, for messages: «в фазе стрельбы»."""


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


def dice_max(fact: FoundFact | None) -> int | None:
    """The largest total a dice fact can roll (``2D6`` → 12), or None for another fact."""
    span = dice_range(fact) if fact is not None else None
    return span[1] if span is not None else None


def dice_expr(fact: FoundFact) -> str:
    """A dice fact as written without the inch mark: ``3D6``."""
    value = fact.value
    if isinstance(value, dict) and isinstance(value.get("expr"), str):
        return str(value["expr"])
    return fact.text.rstrip('"”″')


def normal_dice(text: str) -> str:
    """A dice expression of a log, normalised to compare with a fact: ``"3d6\\""`` → ``3D6``."""
    return re.sub(r"\s+", "", text).upper().replace("Д", "D").rstrip('"”″')


def found(verdict: VerdictKind, evidence: Sentence | FoundFact, why: str) -> Finding:
    """A finding citing one sentence or fact."""
    return Finding(verdict, cite(evidence), why)
