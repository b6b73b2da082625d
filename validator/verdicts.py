"""Reports (FORMATS §4): verdicts with the rules that decide them, unit reports, summaries.

A verdict is data (STYLE §8): what a check concluded, the rules it rests on, each with the
sentence that decides it, and why; the walker that ran the check adds where.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from validator.inputs.models import InputError

REPORT_SCHEMA = "rulekb.report/1"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


VerdictKind = Literal["ok", "violation", "warning", "not_covered"]


class RuleCitation(_Frozen):
    """A rule that decided a verdict, with the sentence of its text that decides it.

    ``source`` is the input file (for programs); ``source_title`` the book it comes from,
    which text reports show instead of the file name.
    """

    id: str
    title: str
    system: str
    source: str | None = None
    page: int | None = None
    quote: str = ""
    source_title: str | None = None


class Verdict(_Frozen):
    """One finding: what a check concluded, the rules it rests on and why, and where.

    The check fills ``verdict``, ``rules``, ``why``, ``suggestions``; the walker that runs it
    adds the location (``line`` for a log, ``unit`` and ``field`` for a list, ``action``;
    ``path`` for a roster's unit: its selection's name path, since a roster has no useful
    lines).
    """

    verdict: VerdictKind
    rules: tuple[RuleCitation, ...] = ()
    why: str
    check: str
    suggestions: tuple[str, ...] = ()
    line: int | None = None
    unit: str | None = None
    action: str | None = None
    field: str | None = None
    path: str | None = None

    def __repr__(self) -> str:
        return f"Verdict({self.verdict}, {self.check}, line={self.line}, unit={self.unit})"


@dataclass(slots=True)
class VerdictRecord:
    """A :class:`Verdict` as the audit streams it: the same fields, without validation.

    An audit places a verdict for every event of a log of millions; checks build findings
    from the KB and parsed input, so there is nothing left to validate, and a plain record
    costs a fraction of a model (not frozen either: a frozen dataclass pays for every field
    it sets; treat it as read-only). :meth:`model` gives the :class:`Verdict`.
    """

    verdict: VerdictKind
    rules: tuple[RuleCitation, ...]
    why: str
    check: str
    suggestions: tuple[str, ...] = ()
    line: int | None = None
    unit: str | None = None
    action: str | None = None
    field: str | None = None

    def model(self) -> Verdict:
        """The verdict as the public model."""
        return Verdict(verdict=self.verdict, rules=self.rules, why=self.why, check=self.check,
                       suggestions=self.suggestions, line=self.line, unit=self.unit,
                       action=self.action, field=self.field)


AnyVerdict = Verdict | VerdictRecord
"""What report writers accept: the model or the audit's plain record."""


class TypeRef(_Frozen):
    """A unit type node of the KB, as a report names it."""

    id: str
    title: str


class RuleRef(_Frozen):
    """A rule node of the KB; ``defined`` is false for a concept the corpus only names."""

    id: str
    title: str
    defined: bool = True


class Application(_Frozen):
    """A rule that applies to a unit, and the reason it does.

    ``path`` is the chain of KB ids that gives it, from the unit's type to the rule (empty for
    a rule the list declares): what ``because`` says in words, for programs.
    """

    rule: RuleRef
    because: str
    path: tuple[str, ...] = ()


class UnitReport(_Frozen):
    """A unit of a list: its resolved type and every rule that applies to it.

    ``custom_name`` is the name the player gave it; ``path`` a roster unit's selection path;
    ``models``, ``points`` and ``keywords`` are the list's, for the organiser reading it.
    """

    id: str
    name: str | None = None
    type: TypeRef | None = None
    applies: tuple[Application, ...] = ()
    custom_name: str | None = None
    path: str | None = None
    models: int | None = None
    points: int | None = None
    keywords: tuple[str, ...] = ()

    @property
    def label(self) -> str | None:
        """The unit's name as a report shows it, with the custom name in «»."""
        if self.custom_name and self.custom_name != self.name:
            return f"{self.name} «{self.custom_name}»" if self.name else self.custom_name
        return self.name


class Summary(_Frozen):
    """How many verdicts of each kind a report holds."""

    ok: int = 0
    violation: int = 0
    warning: int = 0
    not_covered: int = 0


class Report(_Frozen):
    """The result of checking one input: a list (``kind="list"``) or a game log (``"log"``).

    ``errors`` holds every input problem: for an unusable input it is all the report says;
    for a log it also holds the malformed lines that were skipped.
    """

    report_schema: str = Field(default=REPORT_SCHEMA, alias="schema")
    kind: Literal["list", "log"]
    input: str
    system: str | None = None
    verdicts: tuple[Verdict, ...] = ()
    units: tuple[UnitReport, ...] | None = None
    errors: tuple[InputError, ...] = ()

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    @property
    def summary(self) -> Summary:
        """Counts of the verdicts by kind."""
        counts = {"ok": 0, "violation": 0, "warning": 0, "not_covered": 0}
        for verdict in self.verdicts:
            counts[verdict.verdict] += 1
        return Summary(**counts)

    def __repr__(self) -> str:
        return f"Report({self.kind}, {self.input!r}, {len(self.verdicts)} verdicts)"
