"""What the checks of an army list see: each unit with its type and rules resolved in the KB.

The walker (:mod:`validator.armylist.walker`) resolves a unit's names once, before any check
runs on it: its type and each declared rule (its own and its parts'), after splitting what is
written after a name (:func:`~validator.inputs.names.parse_name`: "Vanguard (FAQ'ed)" is the
rule «Vanguard» and a note) and mapping English roster names through the alias table. A check
reads the result (:class:`ListedUnit`) and never looks a name up itself; the
:class:`Resolver` caches every name, so a name is resolved once per batch of lists.

A name the KB does not hold gets suggestions only when one is likely right: at least
:data:`SUGGESTION_SCORE` similar (:func:`rapidfuzz.fuzz.ratio` of the names' lookup keys), a
threshold measured on the names of real BattleScribe catalogues (``benchmarks/names.py``):
no suggestion is better than a wrong one.

Example::

    resolver = Resolver(graph, aliases)
    ctx = ListContext.start(army, resolver)
    listed = ctx.listed(0, army.units[0])
    listed.type.node.title          # 'Эльдарские (и тёмноэльдарские) гравициклы'
    listed.rules[0].parameter       # '5+' for "Регенерация (5+)"
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar, overload

from rapidfuzz import fuzz

from kb.graph import Graph
from kb.ids import FreeIds
from kb.lemmas import fold
from kb.models import Node
from kb.names import (
    CERTAIN_MARGIN,
    CERTAIN_SCORE,
    name_lemma_key,
    strip_parenthesised,
    text_key,
)
from validator.inputs.aliases import Aliases, kb_name, load_aliases, translated
from validator.inputs.models import ArmyList, Part, SourcePos, Unit
from validator.inputs.names import WrittenName, parse_name
from validator.rulebook import Rulebook

TYPE_KINDS = ("unit_type", "concept")
RULE_KINDS = ("rule", "concept")
TYPE_CATEGORIES = (None, "unit_type")
"""Categories a concept may have to stand for a unit type."""
SUGGESTION_SCORE = 80
"""How similar (0-100, :func:`rapidfuzz.fuzz.ratio` of lookup keys) a known name must be to a
name the KB does not hold to be offered as «ближайшие»; measured on real catalogue names
(``benchmarks/names.py``, README «Names as the world writes them»)."""
SUGGESTIONS = 3
"""The most names offered for one name."""
CACHED_NAMES = 20_000
"""How many looked-up names a resolver keeps (a tournament's lists hold far fewer)."""


@dataclass(frozen=True, slots=True)
class NameLookup:
    """A name of a list looked up in one system of the KB.

    Attributes:
        written: as the list writes it.
        name: the name looked up: after the alias table (the Russian name for "Jetbike"),
            without its parameter and notes.
        alias: what the alias table made of ``written``, when it knew it.
        node: the node it certainly means, or ``None``.
        how: how it matched: ``exact``, ``lemma``, ``fuzzy`` (a typo), ``type`` (a name several
            rules share, told apart by the unit's type), or ``None``.
        suggestions: the nearest known names, for a name not found or a typo.
        ambiguous: the nodes it equally means, when it is ambiguous.
        elsewhere: the nodes it means in the other systems, when it means none in this one.
        notes: what is written after the name in brackets and is not its parameter.
    """

    written: str
    name: str
    alias: str | None = None
    node: Node | None = None
    how: str | None = None
    suggestions: tuple[str, ...] = ()
    ambiguous: tuple[Node, ...] = ()
    elsewhere: tuple[Node, ...] = ()
    notes: tuple[str, ...] = ()
    key: str = field(init=False, repr=False, compare=False)
    """What tells two names apart in a report: the node, else the looked-up name."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", self.node.id if self.node is not None
                           else fold(text_key(self.name)))

    @property
    def typo(self) -> bool:
        """Found only as a typo of a known name."""
        return self.node is not None and self.how == "fuzzy"


@dataclass(frozen=True, slots=True)
class DeclaredRule:
    """A special rule a list declares for a unit, one of its parts, or the whole army.

    Attributes:
        lookup: the name looked up.
        parameter: the value written after the name ("5+", "Х 2", "D6+1", "*"), if any.
        part: the part that declares it, or ``None`` for the unit (or army) itself.
        texts: the words written after the name in brackets ("школа Огня", "FAQ'ed"): the
            parameter of a rule whose text takes words, else notes.
        index: its place in the rules of its unit, part or army.
        part_index: the place of its part in the unit's ``parts``, or ``None``.
    """

    lookup: NameLookup
    parameter: str | None
    part: Part | None = None
    texts: tuple[str, ...] = ()
    index: int = 0
    part_index: int | None = None

    @property
    def field(self) -> str:
        """Where it is written (``"rules[1]"``, ``"parts[2].rules[0]"``)."""
        if self.part_index is None:
            return f"rules[{self.index}]"
        return f"parts[{self.part_index}].rules[{self.index}]"

    @property
    def node(self) -> Node | None:
        """The rule node the name means, if found."""
        return self.lookup.node

    @property
    def written(self) -> str:
        """The rule as the list writes it."""
        return self.lookup.written


HELD_RULES = 1_000
"""A unit declaring at most this many rules keeps them resolved; a larger one resolves them
again on each reading, so their lookups are never all held at once."""


class DeclaredRules(Sequence[DeclaredRule]):
    """Every rule a unit declares, its own first, then its parts', looked up.

    A unit of a few rules (every real one) resolves them once and keeps them; a unit of a
    hundred thousand resolves them as each check reads them, through the resolver's caches,
    so what is held is the unit as read, not a lookup per rule.
    """

    def __init__(self, unit: Unit, system: str, resolver: Resolver,
                 type_node: Node | None = None) -> None:
        self._unit, self._system, self._resolver = unit, system, resolver
        self._sections = resolver.sections(type_node) if type_node is not None else frozenset()
        self._count = len(unit.rules) + sum(len(p.rules) for p in unit.parts)
        self._held = tuple(self._resolve()) if self._count <= HELD_RULES else None

    def _resolve(self) -> Iterator[DeclaredRule]:
        unit, system, resolver, sections = (self._unit, self._system, self._resolver,
                                            self._sections)
        yield from declared(unit.rules, system, resolver, sections=sections)
        for index, part in enumerate(unit.parts):
            yield from declared(part.rules, system, resolver, part, index, sections)

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[DeclaredRule]:
        return iter(self._held) if self._held is not None else self._resolve()

    @overload
    def __getitem__(self, index: int) -> DeclaredRule: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[DeclaredRule]: ...

    def __getitem__(self, index: int | slice) -> DeclaredRule | Sequence[DeclaredRule]:
        held = self._held if self._held is not None else tuple(self._resolve())
        return held[index]


@dataclass(frozen=True)
class ListedUnit:
    """A unit of the list, its names resolved: what every unit check receives.

    Attributes:
        unit: the unit as read.
        index: its place in ``units``.
        report_id: its id in the report (a repeated id gets a free ``-2`` suffix).
        type: its type looked up (``None`` when the list gives no type).
        rules: every rule it declares, its own first, then its parts'.
        positions: where its fields are written (field path → position), if known.
        location: the selection path of a roster unit ("Kill Team List › Ranger"), if any.
        memo: what a check works out once for the unit and its other checks ask again.
    """

    unit: Unit
    index: int
    report_id: str
    type: NameLookup | None
    rules: Sequence[DeclaredRule]
    positions: Mapping[str, SourcePos] = field(default_factory=dict, repr=False)
    location: str | None = None
    memo: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

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


K = TypeVar("K")
V = TypeVar("V")


class Bounded(Generic[K, V]):
    """A cache that forgets the least recently used entries beyond :data:`CACHED_NAMES`: a
    batch's names repeat, a hostile list's are all new, and memory must not grow with them."""

    def __init__(self, size: int = 0) -> None:
        self.size = size or CACHED_NAMES
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
        return found

    def put(self, key: K, value: V) -> V:
        self._items[key] = value
        if len(self._items) > self.size:
            self._items.popitem(last=False)
        return value


class Resolver:
    """Looks names of lists up in a graph, through the alias table, with a cache per name.

    Args:
        graph: the KB.
        aliases: system → English name → Russian name (default: the built-in table).
    """

    def __init__(self, graph: Graph, aliases: Mapping[str, Mapping[str, str]] | None = None
                 ) -> None:
        self.graph = graph
        self.aliases: Mapping[str, Mapping[str, str]] = (
            aliases if aliases is not None else load_aliases())
        self.systems = tuple(sorted({n.system for n in graph.nodes.values()
                                     if n.kind in TYPE_KINDS + RULE_KINDS}))
        self._books: dict[str, Rulebook] = {}
        self._cache: Bounded[tuple[str, str, tuple[str, ...]], NameLookup] = Bounded()
        self._rules: Bounded[tuple[str, str], tuple[NameLookup, WrittenName]] = Bounded()
        self._bases: Bounded[tuple[str, str], NameLookup] = Bounded()
        self._sections: dict[str, frozenset[str]] = {}
        self._keys: dict[str, set[str]] | None = None

    @property
    def table(self) -> Aliases:
        """The alias table as :class:`Aliases` (a plain mapping given is wrapped)."""
        if isinstance(self.aliases, Aliases):
            return self.aliases
        return Aliases({s: dict(n) for s, n in self.aliases.items()})

    def book(self, system: str) -> Rulebook:
        """The (shared) :class:`Rulebook` of a system."""
        if system not in self._books:
            self._books[system] = Rulebook(self.graph, system)
        return self._books[system]

    def lookup(self, written: str, system: str, kinds: tuple[str, ...]) -> NameLookup:
        """A name of a list (a unit type, a keyword) looked up in ``system`` among ``kinds``.

        The name as written is tried first ("Эльдарские (и тёмноэльдарские) гравициклы"),
        then without what follows it ("Infantry (Character)" → «Пехота», note "Character").
        """
        key = (written, system, kinds)
        found = self._cache.get(key)
        if found is None:
            found = self._cache.put(key, self._lookup_type(written, system, kinds))
        return found

    def _lookup_type(self, written: str, system: str, kinds: tuple[str, ...]) -> NameLookup:
        stripped = " ".join(written.split())
        alias = kb_name(stripped, system, self.aliases)
        parsed = parse_name(alias or stripped)
        if parsed.base != parsed.written:
            whole = self.graph.names.find(parsed.written, system, kinds, limit=1)
            if whole and whole[0].how != "fuzzy" and whole[0].parameter is None:
                return self._lookup(written, parsed.written, alias, system, kinds)
        notes = tuple(t for t in (parsed.parameter, *parsed.texts) if t)
        found = self._lookup(written, parsed.base, alias, system, kinds)
        return replace(found, notes=notes) if notes else found

    def sections(self, type_node: Node) -> frozenset[str]:
        """The ids of the rule sections of a unit type and of the types it inherits."""
        found = self._sections.get(type_node.id)
        if found is None:
            found = self._sections[type_node.id] = frozenset(
                n.id for n in self.graph.sections_of_type(type_node.id))
        return found

    def lookup_rule(self, written: str, system: str) -> tuple[NameLookup, WrittenName]:
        """A declared rule looked up by its name without parameter and notes, and how it is
        written ("Многочисленные выстрелы Х D3" → «Многочисленные выстрелы», parameter
        "Х D3"), so a parameter of the wrong shape is not taken for a typo."""
        key = (written, system)
        found = self._rules.get(key)
        if found is None:
            parsed = parse_name(written)
            alias = translated(parsed, system, self.aliases)
            if alias is not None:
                parsed = parse_name(alias)
            base_key = (parsed.base, system)
            base = self._bases.get(base_key)
            if base is None:
                base = self._bases.put(base_key, self._lookup(
                    written, parsed.base, alias, system, RULE_KINDS))
            elif base.written != written or base.alias != alias:
                # the same name with another parameter or note: "Правило (4+)", "(5+)"
                base = replace(base, written=written, alias=alias)
            found = self._rules.put(key, (base, parsed))
        return found

    def _lookup(self, written: str, name: str, alias: str | None, system: str,
                kinds: tuple[str, ...]) -> NameLookup:
        """One lookup of the name index: a sure match, several equal ones, a typo (the rule
        of :meth:`kb.names.NameIndex.resolve`: :data:`~kb.names.CERTAIN_SCORE` similar and
        :data:`~kb.names.CERTAIN_MARGIN` ahead of the next), or the names likely meant."""
        found = self.graph.names.find(name, system, kinds, limit=SUGGESTIONS * 3)
        certain = [m for m in found if m.how != "fuzzy"]
        if certain:
            best = certain[0]
            # the index ranks a name as written above one without its parenthesised part
            node = self.graph.names.resolve(name, system, kinds) if len(certain) > 1 else \
                self.graph.nodes[best.node_id]
            if node is not None:
                how = next((m.how for m in certain if m.node_id == node.id), best.how)
                return NameLookup(written, name, alias, node, how)
            nodes = tuple(self.graph.nodes[m.node_id] for m in certain)
            return NameLookup(written, name, alias, ambiguous=nodes,
                              suggestions=tuple(m.title for m in certain))
        if found and found[0].score >= CERTAIN_SCORE and (
                len(found) == 1 or found[0].score - found[1].score >= CERTAIN_MARGIN):
            node = self.graph.nodes[found[0].node_id]
            return NameLookup(written, name, alias, node, "fuzzy", (node.title,))
        query = text_key(name)
        scored = sorted(((fuzz.ratio(query, text_key(m.matched)), m.matched) for m in found),
                        key=lambda pair: -pair[0]) if query else []
        suggestions = tuple(dict.fromkeys(
            matched for score, matched in scored if score >= SUGGESTION_SCORE))[:SUGGESTIONS]
        return NameLookup(written, name, alias, suggestions=suggestions,
                          elsewhere=self._elsewhere(name, system, kinds))

    def suggest(self, name: str, system: str, kinds: tuple[str, ...]) -> tuple[str, ...]:
        """The known names likely meant by a name the KB does not hold (see the module
        docstring): at least :data:`SUGGESTION_SCORE` similar, best first."""
        return self._lookup(name, name, None, system, kinds).suggestions

    def _elsewhere(self, name: str, system: str, kinds: tuple[str, ...]) -> tuple[Node, ...]:
        """The nodes the whole name (not a part of it) means in the other systems."""
        keys = self._exact_keys()
        others = keys.get(text_key(name), set()) | keys.get(name_lemma_key(name), set())
        found = []
        for other in sorted(others - {system}):
            node = self.graph.names.resolve(name, other, kinds)
            if node is None:
                continue
            match = next((m for m in self.graph.names.find(name, other, kinds)
                          if m.node_id == node.id), None)
            if match is not None and match.parameter is None and match.how != "fuzzy":
                found.append(node)
        return tuple(found)

    def _exact_keys(self) -> dict[str, set[str]]:
        """Every lookup key of a title or alias → the systems that have it (built once): a
        name whose keys are in no other system means nothing there, without a fuzzy scan."""
        if self._keys is None:
            self._keys = {}
            for node in self.graph.nodes.values():
                if node.kind not in TYPE_KINDS + RULE_KINDS:
                    continue
                for written in (node.title, *node.aliases):
                    for text in {written, strip_parenthesised(written)} - {""}:
                        for key in (text_key(text), name_lemma_key(text)):
                            self._keys.setdefault(key, set()).add(node.system)
        return self._keys


@dataclass
class Totals:
    """What the list checks ask of all the units, kept as the units stream past."""

    units: int = 0
    points: int = 0
    unpriced: list[str] = field(default_factory=list)
    unpriced_count: int = 0

    UNPRICED_SHOWN = 10
    """The most unpriced units a message names."""

    def add(self, listed: ListedUnit) -> None:
        """Count one unit."""
        self.units += 1
        if listed.unit.points is None:
            self.unpriced_count += 1
            if len(self.unpriced) < self.UNPRICED_SHOWN:
                self.unpriced.append(listed.report_id)
        else:
            self.points += listed.unit.points

    def unpriced_text(self) -> str:
        """The unpriced units as a message names them: «a, b, c и ещё 9»."""
        text = ", ".join(self.unpriced)
        more = self.unpriced_count - len(self.unpriced)
        return text + (f" и ещё {more}" if more > 0 else "")


@dataclass
class ListContext:
    """What the checks of one list see.

    Attributes:
        army: the list as read, without its units (they stream past, one at a time).
        book: the rules of its system.
        resolver: the name lookup (shared across a batch).
        report_ids: the report id of every unit (a repeated id gets a free ``-N``).
        first_of: for a unit whose id an earlier unit has, that earlier unit's index.
        army_rules: the army's own rules, resolved.
        totals: points and units counted so far (complete when the list checks run).
    """

    army: ArmyList
    book: Rulebook
    resolver: Resolver
    report_ids: tuple[str, ...] = ()
    first_of: dict[int, int] = field(default_factory=dict)
    army_rules: tuple[DeclaredRule, ...] = ()
    totals: Totals = field(default_factory=Totals)

    @classmethod
    def start(cls, army: ArmyList, resolver: Resolver,
              ids: Sequence[str] | None = None) -> ListContext:
        """The context of a list whose units will follow (``ids``: every unit's id, in
        order; by default those of ``army.units``)."""
        ids = [u.id for u in army.units] if ids is None else list(ids)
        report, first_of = report_ids(ids)
        book = resolver.book(army.system)
        army_rules = tuple(declared(army.rules, army.system, resolver))
        return cls(army, book, resolver, report, first_of, army_rules)

    def listed(self, index: int, unit: Unit, positions: Mapping[str, SourcePos] | None = None
               ) -> ListedUnit:
        """A unit of the list with its names resolved."""
        system = self.army.system
        type_lookup = _type(unit, system, self.resolver)
        rules = DeclaredRules(unit, system, self.resolver,
                              type_lookup.node if type_lookup is not None else None)
        return ListedUnit(unit, index, self.report_ids[index], type_lookup, rules,
                          positions or {}, self.army.locations.get(f"units[{index}]"))


def report_ids(ids: Sequence[str]) -> tuple[tuple[str, ...], dict[int, int]]:
    """Each unit's id in the report — its own, or for a repeated id the next free ``-N`` —
    and, for each repeated one, the index of the first unit with that id."""
    free = FreeIds(ids)
    first: dict[str, int] = {}
    out = list(ids)
    first_of: dict[int, int] = {}
    for index, unit_id in enumerate(ids):
        if unit_id not in first:
            first[unit_id] = index
            continue
        first_of[index] = first[unit_id]
        out[index] = free.take(unit_id, plain=False)
    return tuple(out), first_of


def _type(unit: Unit, system: str, resolver: Resolver) -> NameLookup | None:
    if unit.type is None or not unit.type.strip():
        return None
    return resolver.lookup(unit.type, system, TYPE_KINDS)


def split_rule_parameter(name: str) -> tuple[str, str | None]:
    """A rule's name and its parameter: "(5+)", "(школа Огня)", "Х 2", also "Х D3".

    >>> split_rule_parameter("Многочисленные выстрелы Х D3")
    ('Многочисленные выстрелы', 'Х D3')
    """
    parsed = parse_name(name)
    if parsed.parameter is not None:
        return parsed.base, parsed.parameter
    if parsed.texts:
        return parsed.base, parsed.texts[0]
    return parsed.base, None


def declared(written: Sequence[str], system: str, resolver: Resolver, part: Part | None = None,
             part_index: int | None = None, sections: frozenset[str] = frozenset()
             ) -> Iterator[DeclaredRule]:
    """Rules as written (a unit's, a part's, the army's), each looked up in ``system``.

    A name several rules share is the one among ``sections`` (the rule sections of the
    unit's type and the types it inherits) when exactly one is: «Небесно-десантный» of a jump
    infantry unit is the jump units' rule, not the jump packs' one of the same name.
    """
    for index, rule in enumerate(written):
        lookup, parsed = resolver.lookup_rule(rule, system)
        if lookup.ambiguous and sections:
            own = [n for n in lookup.ambiguous if n.id in sections]
            if len(own) == 1:
                lookup = replace(lookup, node=own[0], how="type", ambiguous=(), suggestions=())
        yield DeclaredRule(lookup, parsed.parameter, part, parsed.texts, index, part_index)
