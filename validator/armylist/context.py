"""What the checks of an army list see: each unit with its type and rules resolved in the KB.

The walker (:mod:`validator.armylist`) resolves every name once, before any check runs: a
unit's type and each declared rule (its own and its parts'), after mapping English roster
names through the alias table. A check reads the result (:class:`ListedUnit`) and never looks
a name up itself, so a name is resolved once per list however many checks read it, and once
per batch when the :class:`Resolver` is shared.

Example::

    resolver = Resolver(graph, aliases)
    ctx = ListContext.build(army, resolver)
    ctx.units[0].type.node.title        # 'Эльдарские (и тёмноэльдарские) гравициклы'
    ctx.units[0].rules[0].parameter     # '5+' for "Регенерация (5+)"
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from kb.graph import Graph
from kb.lemmas import fold
from kb.models import Node
from kb.names import FUZZY_CUTOFF, split_parameter
from kb.text import sentences
from validator.inputs.models import ArmyList, Part, Unit
from validator.inputs.roster import Aliases, kb_name, load_aliases
from validator.rulebook import Rulebook
from validator.verdicts import RuleCitation

TYPE_KINDS = ("unit_type", "concept")
RULE_KINDS = ("rule", "concept")
TYPE_CATEGORIES = (None, "unit_type")
"""Categories a concept may have to stand for a unit type."""


@dataclass(frozen=True)
class NameLookup:
    """A name of a list looked up in one system of the KB.

    Attributes:
        written: as the list writes it.
        name: the name looked up: after the alias table (the Russian name for "Jetbike"),
            and for a rule without its parameter.
        alias: what the alias table made of ``written``, when it knew it.
        node: the node it certainly means, or ``None``.
        how: how it matched: ``exact``, ``lemma``, ``fuzzy`` (a typo), or ``None``.
        suggestions: the nearest known names, for a name not found or a typo.
        ambiguous: the nodes it equally means, when it is ambiguous.
        elsewhere: the nodes it means in the other systems, when it means none in this one.
    """

    written: str
    name: str
    alias: str | None = None
    node: Node | None = None
    how: str | None = None
    suggestions: tuple[str, ...] = ()
    ambiguous: tuple[Node, ...] = ()
    elsewhere: tuple[Node, ...] = ()

    @property
    def typo(self) -> bool:
        """Found only as a typo of a known name."""
        return self.node is not None and self.how == "fuzzy"



@dataclass(frozen=True)
class DeclaredRule:
    """A special rule a list declares for a unit or one of its parts.

    Attributes:
        field: where it is written inside the unit (``"rules[1]"``, ``"parts[2].rules[0]"``).
        lookup: the name looked up (with its parameter, as the KB is asked).
        parameter: the parameter written after the name ("5+", "Х 2"), if any.
        part: the part that declares it, or ``None`` for the unit itself.
    """

    field: str
    lookup: NameLookup
    parameter: str | None
    part: Part | None = None

    @property
    def node(self) -> Node | None:
        """The rule node the name means, if found."""
        return self.lookup.node

    @property
    def written(self) -> str:
        """The rule as the list writes it."""
        return self.lookup.written


@dataclass(frozen=True)
class ListedUnit:
    """A unit of the list, its names resolved: what every unit check receives.

    Attributes:
        unit: the unit as read.
        index: its place in ``units``.
        report_id: its id in the report (a repeated id gets a free ``-2`` suffix).
        type: its type looked up (``None`` when the list gives no type).
        rules: every rule it declares, its own first, then its parts'.
    """

    unit: Unit
    index: int
    report_id: str
    type: NameLookup | None
    rules: tuple[DeclaredRule, ...]

    @property
    def type_node(self) -> Node | None:
        """The node of the unit's type (a unit type or a concept), if found."""
        return self.type.node if self.type is not None else None

    @property
    def type_id(self) -> str | None:
        """The id of the unit's type node, if found."""
        node = self.type_node
        return node.id if node is not None else None

    def field(self, name: str) -> str:
        """A field of this unit as a list check names it: ``units[2].type``."""
        return f"units[{self.index}].{name}" if name else f"units[{self.index}]"


class Resolver:
    """Looks names of lists up in a graph, through the alias table, with a cache per name.

    Args:
        graph: the KB.
        aliases: system → English name → Russian name (default: the built-in table).
    """

    def __init__(self, graph: Graph, aliases: Aliases | None = None) -> None:
        self.graph = graph
        self.aliases = aliases if aliases is not None else load_aliases()
        self.systems = tuple(sorted({n.system for n in graph.nodes.values()
                                     if n.kind in TYPE_KINDS + RULE_KINDS}))
        self._books: dict[str, Rulebook] = {}
        self._cache: dict[tuple[str, str, tuple[str, ...]], NameLookup] = {}
        self._rules: dict[tuple[str, str], tuple[NameLookup, str | None]] = {}

    def book(self, system: str) -> Rulebook:
        """The (shared) :class:`Rulebook` of a system."""
        if system not in self._books:
            self._books[system] = Rulebook(self.graph, system)
        return self._books[system]

    def lookup(self, written: str, system: str, kinds: tuple[str, ...]) -> NameLookup:
        """A name of a list looked up in ``system`` among nodes of ``kinds``."""
        key = (written, system, kinds)
        if key not in self._cache:
            alias = kb_name(written, system, self.aliases)
            self._cache[key] = self._lookup(written, alias or written.strip(), alias, system,
                                            kinds)
        return self._cache[key]

    def lookup_rule(self, written: str, system: str) -> tuple[NameLookup, str | None]:
        """A declared rule looked up by its name without its parameter, and the parameter.

        "Многочисленные выстрелы Х D3" is looked up as "Многочисленные выстрелы" with the
        parameter "Х D3", so a parameter of the wrong shape is not taken for a typo.
        """
        key = (written, system)
        if key not in self._rules:
            alias = kb_name(written, system, self.aliases)
            base, parameter = split_rule_parameter(alias or written.strip())
            self._rules[key] = (self._lookup(written, base, alias, system, RULE_KINDS),
                                parameter)
        return self._rules[key]

    def _lookup(self, written: str, name: str, alias: str | None, system: str,
                kinds: tuple[str, ...]) -> NameLookup:
        names = self.graph.names
        node = names.resolve(name, system, kinds)
        if node is not None:
            found = names.find(name, system, kinds, limit=3)
            how = next((m.how for m in found if m.node_id == node.id), "fuzzy")
            suggestions = (node.title,) if how == "fuzzy" else ()
            return NameLookup(written, name, alias, node, how, suggestions)
        found = names.find(name, system, kinds, limit=5)
        if found and found[0].how != "fuzzy":  # several nodes equally named
            nodes = tuple(self.graph.nodes[m.node_id] for m in found)
            return NameLookup(written, name, alias, ambiguous=nodes,
                              suggestions=tuple(m.title for m in found))
        near = names.suggest(name, system, kinds=kinds)
        suggestions = tuple(m.matched for m in near if m.score >= FUZZY_CUTOFF)
        return NameLookup(written, name, alias, suggestions=suggestions,
                          elsewhere=self._elsewhere(name, system, kinds))

    def _elsewhere(self, name: str, system: str, kinds: tuple[str, ...]) -> tuple[Node, ...]:
        """The nodes the whole name (not a part of it) means in the other systems."""
        found = []
        for other in self.systems:
            if other == system:
                continue
            node = self.graph.names.resolve(name, other, kinds)
            if node is None:
                continue
            match = next((m for m in self.graph.names.find(name, other, kinds)
                          if m.node_id == node.id), None)
            if match is not None and match.parameter is None:
                found.append(node)
        return tuple(found)


@dataclass
class ListContext:
    """What the checks of one list see.

    Attributes:
        army: the list as read.
        book: the rules of its system.
        resolver: the name lookup (shared across a batch).
        units: every unit, its names resolved, in list order.
    """

    army: ArmyList
    book: Rulebook
    resolver: Resolver
    units: tuple[ListedUnit, ...] = field(default_factory=tuple)

    @classmethod
    def build(cls, army: ArmyList, resolver: Resolver) -> ListContext:
        """Resolve every name of ``army`` (see the module docstring)."""
        book = resolver.book(army.system)
        ids = report_ids(army)
        units = tuple(
            ListedUnit(unit, index, ids[index], _type(unit, army.system, resolver),
                       _rules(unit, army.system, resolver))
            for index, unit in enumerate(army.units))
        return cls(army, book, resolver, units)


def report_ids(army: ArmyList) -> list[str]:
    """The id of each unit in the report: its own, or for a repeated id the next free ``-N``."""
    taken = {u.id for u in army.units}
    ids = [u.id for u in army.units]
    for index, _first in army.duplicate_ids():
        base, number = ids[index], 2
        while f"{base}-{number}" in taken:
            number += 1
        ids[index] = f"{base}-{number}"
        taken.add(ids[index])
    return ids


def _type(unit: Unit, system: str, resolver: Resolver) -> NameLookup | None:
    if unit.type is None or not unit.type.strip():
        return None
    return resolver.lookup(unit.type, system, TYPE_KINDS)


_TIMES_PARAMETER = re.compile(r"^(?P<base>.*?[^\s\d])\s+(?P<param>[XxХх×]\s*\S+)$")


def split_rule_parameter(name: str) -> tuple[str, str | None]:
    """A rule's name and its parameter: "(5+)", "(школа Огня)", "Х 2", also "Х D3".

    >>> split_rule_parameter("Многочисленные выстрелы Х D3")
    ('Многочисленные выстрелы', 'Х D3')
    """
    match = _TIMES_PARAMETER.match(" ".join(name.split()))
    if match:
        return match["base"], match["param"]
    return split_parameter(name)


def _declared(written: Sequence[str], prefix: str, system: str, resolver: Resolver,
              part: Part | None) -> list[DeclaredRule]:
    out = []
    for index, rule in enumerate(written):
        lookup, parameter = resolver.lookup_rule(rule, system)
        out.append(DeclaredRule(f"{prefix}rules[{index}]", lookup, parameter, part))
    return out


def _rules(unit: Unit, system: str, resolver: Resolver) -> tuple[DeclaredRule, ...]:
    found = _declared(unit.rules, "", system, resolver, None)
    for index, part in enumerate(unit.parts):
        found.extend(_declared(part.rules, f"parts[{index}].", system, resolver, part))
    return tuple(found)


# --- citations of names ---------------------------------------------------------------------

_MENTION_EDGES = ("grants", "applies_to", "excludes", "inherits", "references")


def cite_mention(book: Rulebook, node: Node) -> RuleCitation | None:
    """Where the rulebook names a node it does not define (a concept): the naming sentence.

    The sentence is an edge's evidence, cited with the section whose text holds it; failing
    that, the first sentence of the system that names it.
    """
    return book.remember(("cite_mention", node.id), lambda: _cite_mention(book, node))


def _cite_mention(book: Rulebook, node: Node) -> RuleCitation | None:
    graph = book.graph
    edges = sorted(graph.in_edges(node.id), key=lambda e: (
        _MENTION_EDGES.index(e.kind) if e.kind in _MENTION_EDGES else len(_MENTION_EDGES)))
    for edge in edges:
        source = graph.nodes.get(edge.source)
        if not edge.evidence or source is None or edge.kind not in _MENTION_EDGES:
            continue
        family = [source, *graph.sections_of_type(source.id)]
        quote = edge.evidence
        if edge.kind == "grants" and ":" in quote:
            # "Специальные правила: Проворность, молот ярости" — the list is the section's text
            quote = quote.split(":", 1)[1]
        holder = book.holder(quote, family)
        if holder is not None:
            return book.cite(holder, _sentence_with(holder.text, quote))
    found = book.mention(node.title)
    return found.citation() if found is not None else None


def cite_type(book: Rulebook, node: Node) -> RuleCitation:
    """A unit type cited with the sentence that says what it is.

    A combined type ("Прыжковая пехота") is cited with the sentence that joins its parts
    ("… будет следовать правилам прыжковых боевых единиц и пехоты"); another type with the
    first sentence of its own text.
    """
    return book.remember(("cite_type", node.id), lambda: _cite_type(book, node))


def _cite_type(book: Rulebook, node: Node) -> RuleCitation:
    graph = book.graph
    family = [n for n, _ in graph.inherited_types(node.id)]
    for edge in graph.out_edges(node.id, "inherits"):
        if edge.evidence:
            holder = book.holder(edge.evidence, family)
            if holder is not None:
                return book.cite(holder, " ".join(edge.evidence.split()))
    first = next(iter(sentences(node.text)), None)
    if first is not None:
        return book.cite(node, first)
    # a type the book describes only inside a wider section ("Гравициклы" in «Мотоциклы и
    # гравициклы»): the first sentence of that section that names it
    stem = fold(node.title)[: max(4, len(node.title) - 3)]
    for wider in family[1:]:
        found = book.sentence(wider, stem)
        if found is not None:
            return found.citation()
    return book.cite(node)


_SENTENCE_END = re.compile(r"[.!?…]")


def _sentence_with(text: str, quote: str) -> str:
    """The sentence of ``text`` that holds ``quote`` (the quote itself when none does).

    The flattened PDF starts some sentences in lower case, which :func:`kb.text.sentences`
    does not split at; the quote is widened to the nearest sentence ends around it instead.
    """
    key = " ".join(fold(quote).split()).rstrip(".!?… ")
    for sentence in sentences(text):
        at = fold(sentence).find(key)
        if at < 0:
            continue
        before = [m.end() for m in _SENTENCE_END.finditer(sentence, 0, at)]
        after = _SENTENCE_END.search(sentence, at + len(key))
        start = before[-1] if before else 0
        return sentence[start:after.end() if after else len(sentence)].strip()
    return " ".join(quote.split())
