"""Value objects of the knowledge graph: systems, nodes, edges and facts (FORMATS §1).

All models are frozen pydantic models so they can be shared between the graph, the
validator and the site without defensive copies. Their ``repr`` is short on purpose
(kind, id, first words): a KB holds thousands of them and tracebacks must stay readable.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA = "rulekb.kb/1"

SYSTEM_TITLES: dict[str, str] = {
    "wh40k6": "Warhammer 40,000, 6-я редакция",
    "whfb8": "Warhammer Fantasy Battle, 8-я редакция",
    "killteam2018": "Kill Team (2018)",
}

NodeKind = Literal["rule", "unit_type", "concept", "page", "source"]
EdgeKind = Literal[
    "part_of",
    "references",
    "cites_page",
    "on_page",
    "grants",
    "inherits",
    "overrides",
    "applies_to",
    "excludes",
]
# What a ``rule`` node is about; FORMATS keeps one node kind ``rule`` for all sections.
RuleCategory = Literal[
    "section", "special_rule", "phase", "action", "test", "deployment_rule", "unit_type",
    "passage",
]
"""``passage``: rules text under no heading (a file with no heading at all, or the sentences
above a page's first heading: a page cut from the middle of a chapter), kept so that it is
searched and cited; its title is its first words, no name of a rule (no name lookup finds
it), and it is no section a reader would mark."""
FactKind = Literal[
    "distance", "dice", "roll", "threshold", "range", "count", "profile", "modifier", "angle",
    "points",
]

Span = tuple[int, int]
FactValue = int | float | str | dict[str, int | str | None] | None


def _short(text: str, words: int = 5) -> str:
    head = text.split()
    return " ".join(head[:words]) + (" …" if len(head) > words else "")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class System(_Frozen):
    """A game system the KB holds (``wh40k6``, ``whfb8``, ``killteam2018``)."""

    id: str
    title: str


class Fact(_Frozen):
    """A number the rule text states, with the sentence it came from.

    Example: ``Fact(name="max_distance", kind="distance", value=24, text='24"',
    applies_to="wh40k6:gravicikly", topic="турбо-ускорение", evidence="При турбо-ускорении …")``.
    """

    name: str
    kind: FactKind
    value: FactValue
    text: str
    applies_to: str | None = None
    evidence: str
    span: Span
    # lemma key of the action or case the number governs ("турбо-ускорение", "отступление")
    topic: str | None = None
    # the sentence's own start in the source, so a report can quote it exactly
    evidence_span: Span | None = None

    def __repr__(self) -> str:
        return f"Fact({self.name}={self.text!r}, applies_to={self.applies_to})"


class Node(_Frozen):
    """A rule section, unit type, concept, cited page or source file."""

    id: str
    kind: NodeKind
    system: str
    title: str
    aliases: tuple[str, ...] = ()
    parent: str | None = None
    page: int | None = None
    source: str | None = None
    span: Span | None = None
    text: str = ""
    facts: tuple[Fact, ...] = ()
    defined: bool = True
    category: RuleCategory | None = None
    chapter: str | None = None
    # pages a section spans when the text says so ("Страница 62-63")
    pages: tuple[int, ...] = ()

    def __repr__(self) -> str:
        return f"Node({self.kind}, {self.id}, {_short(self.title)!r})"


class Edge(_Frozen):
    """A typed link between two nodes, with the text that gives it."""

    source: str
    target: str
    kind: EdgeKind
    evidence: str | None = None
    span: Span | None = None
    # the words of the text that named the target, as written ("Регенерацию")
    raw: str | None = None

    def __repr__(self) -> str:
        return f"Edge({self.kind}, {self.source} -> {self.target})"


class Removal(_Frozen):
    """Text that ingest dropped from a source file, and why (the removed-text account)."""

    source: str
    span: Span
    text: str
    step: str
    reason: str


class KnowledgeBase(_Frozen):
    """The whole export: what ``rulekb build`` writes and every other command reads."""

    kb_schema: str = Field(default=SCHEMA, alias="schema")
    systems: tuple[System, ...] = ()
    nodes: tuple[Node, ...] = ()
    edges: tuple[Edge, ...] = ()
    removed: tuple[Removal, ...] = ()

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    def __repr__(self) -> str:
        return f"KnowledgeBase({len(self.nodes)} nodes, {len(self.edges)} edges)"
