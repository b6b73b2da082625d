"""Counts of an audit's verdicts: the whole log, per player and per unit, in bounded memory."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from validator.verdicts import VerdictRecord

MAX_UNKNOWN_UNITS = 1000
"""Units the armies lack that get a row of their own in ``by_unit``; the verdicts of any more
are counted for the log as a whole (each such event has its input error anyway)."""


@dataclass
class Tally:
    """Counts of verdicts: the whole log, per player and per unit.

    One counter keyed by ``(unit, verdict)`` is all the walk updates (once per verdict);
    the views are derived from it when asked. Its keys are the armies' units and at most
    :data:`MAX_UNKNOWN_UNITS` names of others, so it stays small whatever a log names.
    """

    known: frozenset[str] = frozenset()
    counts: Counter[tuple[str | None, str]] = field(default_factory=Counter)
    errors: int = 0
    events: int = 0
    _unknown: set[str] = field(default_factory=set)

    def key(self, unit: str | None) -> str | None:
        """The key a verdict about ``unit`` is counted under."""
        if unit is None or unit in self.known or unit in self._unknown:
            return unit
        if len(self._unknown) < MAX_UNKNOWN_UNITS:
            self._unknown.add(unit)
            return unit
        return None

    def add(self, verdict: VerdictRecord) -> None:
        """Count one verdict."""
        self.counts[(self.key(verdict.unit), verdict.verdict)] += 1

    @property
    def total(self) -> Counter[str]:
        """Verdicts by kind."""
        out: Counter[str] = Counter()
        for (_unit, kind), n in self.counts.items():
            out[kind] += n
        return out

    @property
    def by_unit(self) -> dict[str, Counter[str]]:
        """Verdicts by kind for each unit (``PLAYER:id``)."""
        out: dict[str, Counter[str]] = {}
        for (unit, kind), n in self.counts.items():
            if unit:
                out.setdefault(unit, Counter())[kind] += n
        return out

    @property
    def by_player(self) -> dict[str, Counter[str]]:
        """Verdicts by kind for each player."""
        out: dict[str, Counter[str]] = {}
        for (unit, kind), n in self.counts.items():
            if unit:
                out.setdefault(unit.split(":", 1)[0], Counter())[kind] += n
        return out
