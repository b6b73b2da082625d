"""One game system's rules as the checks read them: sections, facts, sentences, citations.

A check never holds a number or a rule text of its own. It asks the :class:`Rulebook` of the
list's or log's system for the section that governs a case, the fact that gives the number,
and the sentence that decides it, and cites what it got. When the KB lacks what a check needs
(the corpus changed, another edition), the lookup returns ``None`` and the check reports
``not_covered`` instead of guessing.

Example::

    book = Rulebook(graph, "wh40k6")
    limit = book.type_fact("wh40k6:gravicikly", topic="турбо-ускорение", name="max_distance")
    limit.value                      # 24
    limit.citation().quote           # 'При турбо-ускорении мотоциклы … максимум на 24".'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from kb.books import book_title
from kb.graph import Graph
from kb.lemmas import fold, lemma_key, lemma_words, words
from kb.models import Fact, Node
from kb.text import sentences, stem_match
from validator.inputs.models import InputError
from validator.verdicts import RuleCitation

T = TypeVar("T")


@dataclass(frozen=True)
class FoundFact:
    """A fact of the KB with the node that states it: what a check compares input against."""

    node: Node
    fact: Fact
    book: Rulebook

    @property
    def value(self) -> object:
        """The fact's value as the KB holds it (``24``, ``{"count": 3, …}``, ``"4+"``)."""
        return self.fact.value

    @property
    def number(self) -> float:
        """The value as a number (for distances, counts, thresholds, angles, rolls "4+")."""
        value = self.fact.value
        if isinstance(value, int | float) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and value.rstrip("+").isdigit():
            return int(value.rstrip("+"))
        raise TypeError(f"{self.fact!r} is not a number")

    @property
    def text(self) -> str:
        """The value as the rule text writes it (``24"``, ``3D6"``)."""
        return self.fact.text

    def citation(self) -> RuleCitation:
        """The fact's node cited with the fact's own sentence."""
        return self.book.cite(self.node, " ".join(self.fact.evidence.split()))


@dataclass(frozen=True)
class Sentence:
    """A sentence of a rule's text found by its words, with the node that holds it."""

    node: Node
    text: str
    book: Rulebook

    def citation(self) -> RuleCitation:
        """The node cited with this sentence."""
        return self.book.cite(self.node, self.text)


MENTION_STEM = 3
"""How many first letters of a name's word (its lemma) a sentence must hold to be read for a
mention of it: inflection changes the end of a Russian word, not its start."""


class Rulebook:
    """Lookups over one system of a :class:`~kb.graph.Graph`, cached: build one per run."""

    def __init__(self, graph: Graph, system: str) -> None:
        self.graph = graph
        self.system = system
        self._nodes = graph.in_system(system, ("rule", "unit_type", "concept"))
        # checks ask the same questions for every event: answer each once (keys are ids)
        self._cache: dict[tuple[object, ...], object] = {}

    def _cached(self, key: tuple[object, ...], compute: Callable[[], T]) -> T:
        try:
            return self._cache[key]  # type: ignore[return-value]
        except KeyError:
            value = self._cache[key] = compute()
            return value

    def remember(self, key: tuple[object, ...], compute: Callable[[], T]) -> T:
        """``compute()``, once per ``key`` for the life of this book (a check's own derived
        data, e.g. a rule's parameter spec); keys should start with the caller's name."""
        return self._cached(("remember", *key), compute)

    # -- nodes -----------------------------------------------------------------------
    def find(self, name: str, kinds: Sequence[str] | None = None) -> Node | None:
        """The node ``name`` certainly means in this system (any inflected form, typos)."""
        node: Node | None = self.graph.names.resolve(name, self.system, kinds)
        return node

    def unit_type(self, name: str) -> Node | None:
        """The unit type (or a type the corpus only names: a concept) ``name`` means."""
        return self._cached(("unit_type", name),
                            lambda: self.find(name, ("unit_type", "concept")))

    def section(self, *titles: str) -> Node | None:
        """The section reached by a path of titles, outermost first, any inflected form.

        ``section("Мотоциклы и гравициклы", "Стрельба")`` is the «Стрельба» under
        «Мотоциклы и гравициклы», not another type's. Intermediate sections may be skipped;
        a single title must name one section of the system. A title no section bears is looked
        up among the sections' other names (the English heading of «Чардж» is "Charging").
        """
        return self._cached(("section", *titles), lambda: self._section(titles))

    def _section(self, titles: tuple[str, ...]) -> Node | None:
        *outer, last = titles
        found = [n for n in self._nodes if _same_title(n.title, last)]
        if not found:  # a title the KB keeps as another name («Charging» of «Чардж»)
            found = [n for n in self._nodes if any(_same_title(a, last) for a in n.aliases)]
        if outer:
            found = [n for n in found if _under(self.graph, n, outer)]
        if len(found) == 1:
            return found[0]
        if not outer and not found:
            return self.find(last)
        return None

    # -- sentences -------------------------------------------------------------------
    def sentence(self, node: Node | None, *stems: str, deep: bool = True) -> Sentence | None:
        """The first sentence of ``node``'s text (then of its subsections) holding every stem."""
        if node is None:
            return None
        return self._cached(("sentence", node.id, stems, deep),
                            lambda: self._sentence(node, stems, deep))

    def _sentence(self, node: Node, stems: tuple[str, ...], deep: bool) -> Sentence | None:
        for holder in self._with_descendants(node) if deep else [node]:
            for text in sentences(holder.text):
                if stem_match(text, stems):
                    return Sentence(holder, text, self)
        return None

    def _with_descendants(self, node: Node) -> Iterable[Node]:
        yield node
        yield from self.graph.descendants(node.id)

    def type_sentence(self, type_id: str | None, *stems: str) -> Sentence | None:
        """The first sentence holding every stem in a unit type's sections, nearest type first.

        The type's own text and subsections are searched, then those of each type it
        inherits, so a combined type finds the rules of all its parts.
        """
        if type_id is None or type_id not in self.graph.nodes:
            return None
        return self._cached(("type_sentence", type_id, stems),
                            lambda: self._type_sentence(type_id, stems))

    def _type_sentence(self, type_id: str, stems: tuple[str, ...]) -> Sentence | None:
        for type_node, _path in self.graph.inherited_types(type_id):
            found = self.sentence(type_node, *stems)
            if found is not None:
                return found
        return None

    def mention(self, name: str) -> Sentence | None:
        """The first sentence of the system's texts that names ``name`` in any inflected form.

        For a name the KB holds no node for ("Независимый персонаж"): whether the rulebook
        speaks of it at all. The name's words must follow each other in the sentence
        (compared by lemma: «независимые персонажи» names «Независимый персонаж»).
        """
        wanted = tuple(lemma_words(name))
        if not any(len(word) >= 3 and word.isalpha() for word in wanted):
            return None  # "Х 2" is no name: it would be found in any sentence that has it
        written = tuple(fold(word) for word in words(name))
        return self._cached(("mention", wanted), lambda: self._mention(wanted, written))

    def _mention(self, wanted: tuple[str, ...], written: tuple[str, ...]) -> Sentence | None:
        # only sentences holding the start of every word (of its lemma or as written) are
        # lemmatised: a list of unknown names must not wait for the dictionary to read the
        # whole rulebook
        starts = [{w[:MENTION_STEM] for w in pair} for pair in zip(wanted, written, strict=True)]
        width = len(wanted)
        lemmas: dict[int, tuple[str, ...]] = self._cached(("sentence_lemmas",), dict)
        for index, (node, text, folded) in enumerate(self._sentence_texts()):
            if not all(any(start in folded for start in pair) for pair in starts):
                continue
            found = lemmas.get(index)
            if found is None:
                found = lemmas[index] = tuple(lemma_words(text))
            if any(found[i:i + width] == wanted for i in range(len(found) - width + 1)):
                return Sentence(node, text, self)
        return None

    def _sentence_texts(self) -> list[tuple[Node, str, str]]:
        def compute() -> list[tuple[Node, str, str]]:
            return [(node, text, fold(text))
                    for node in self._nodes if node.source and node.text
                    for text in sentences(node.text)]

        return self._cached(("sentence_texts",), compute)

    def holder(self, quote: str, nodes: Iterable[Node]) -> Node | None:
        """The first of ``nodes`` (with a source file) whose text holds ``quote``.

        Whitespace and case do not matter. An edge's evidence is a sentence of some
        section's text; this finds the section to cite it with.
        """
        key = " ".join(fold(quote).split())
        for node in nodes:
            if node.source and key in " ".join(fold(node.text).split()):
                return node
        return None

    # -- facts -----------------------------------------------------------------------
    def facts(
        self,
        node: Node | None = None,
        *,
        topic: str | None = None,
        name: str | None = None,
        kind: str | None = None,
        stems: tuple[str, ...] = (),
    ) -> tuple[FoundFact, ...]:
        """Facts of the system (or of one node and its subsections) that fit every filter.

        ``topic`` is compared by lemma key; ``stems`` must all occur in the fact's sentence.
        """
        key = ("facts", node.id if node else None, topic, name, kind, stems)
        return self._cached(key, lambda: self._facts(node, topic, name, kind, stems))

    def _facts(self, node: Node | None, topic: str | None, name: str | None, kind: str | None,
               stems: tuple[str, ...]) -> tuple[FoundFact, ...]:
        holders = list(self._with_descendants(node)) if node is not None else self._nodes
        topic_key = lemma_key(topic) if topic else None
        out = []
        for holder in holders:
            for fact in holder.facts:
                if name is not None and fact.name != name:
                    continue
                if kind is not None and fact.kind != kind:
                    continue
                if topic_key is not None and fact.topic != topic_key:
                    continue
                if stems and not stem_match(fact.evidence, stems):
                    continue
                out.append(FoundFact(holder, fact, self))
        return tuple(out)

    def fact(self, node: Node | None = None, *, topic: str | None = None,
             name: str | None = None, kind: str | None = None,
             stems: tuple[str, ...] = ()) -> FoundFact | None:
        """The first fact that fits (see :meth:`facts`), or ``None``."""
        found = self.facts(node, topic=topic, name=name, kind=kind, stems=stems)
        return found[0] if found else None

    def type_fact(self, type_id: str, *, topic: str | None = None, name: str | None = None,
                  kind: str | None = None, stems: tuple[str, ...] = ()) -> FoundFact | None:
        """The fact that governs a unit type: its own first, then the types it inherits.

        A fact applies to a type when its ``applies_to`` is that type, or when it has none
        and is stated in that type's own sections. The nearest type wins, so the Eldar
        jetbike's 36" beats the jetbike's 24" it inherits.
        """
        key = ("type_fact", type_id, topic, name, kind, stems)
        return self._cached(key, lambda: self._type_fact(type_id, topic, name, kind, stems))

    def _type_fact(self, type_id: str, topic: str | None, name: str | None, kind: str | None,
                   stems: tuple[str, ...]) -> FoundFact | None:
        if type_id not in self.graph.nodes:
            return None
        candidates = self.facts(None, topic=topic, name=name, kind=kind, stems=stems)
        for type_node, _path in self.graph.inherited_types(type_id):
            found = [f for f in candidates
                     if f.fact.applies_to == type_node.id
                     or (f.fact.applies_to is None and _owned_by(self.graph, f.node, type_node))]
            if found:
                return found[0]
        return None

    def type_ids(self, type_id: str | None) -> set[str]:
        """A unit type and every type it inherits (empty for ``None``)."""
        if type_id is None or type_id not in self.graph.nodes:
            return set()
        return {n.id for n, _ in self.graph.inherited_types(type_id)}

    # -- citations -------------------------------------------------------------------
    def cite(self, node: Node, quote: str = "") -> RuleCitation:
        """A node as a report cites it: id, title, system, source file and book, page, quote."""
        return self._cached(("cite", node.id, quote), lambda: RuleCitation(
            id=node.id, title=self.title(node), system=node.system, source=node.source,
            page=self.page(node), quote=quote, source_title=book_title(self.graph, node)))

    def title(self, node: Node) -> str:
        """A section's title as a reader finds it: «Мотоциклы и гравициклы → Стрельба»."""
        if node.kind != "rule" or node.parent is None:
            return node.title
        parent = self.graph.nodes.get(node.parent)
        if parent is None or parent.kind == "page":
            return node.title
        return f"{parent.title} → {node.title}"

    def page(self, node: Node) -> int | None:
        """The page a section is on: its own, else its nearest ancestor's."""
        if node.page is not None:
            return node.page
        for ancestor in self.graph.ancestors(node.id):
            if ancestor.page is not None:
                return ancestor.page
        return None


def _same_title(title: str, wanted: str) -> bool:
    return fold(title) == fold(wanted) or lemma_key(title) == lemma_key(wanted)


def _under(graph: Graph, node: Node, outer: Sequence[str]) -> bool:
    """Whether the titles ``outer`` are among the node's ancestors, in order."""
    chain = [a.title for a in reversed(graph.ancestors(node.id))]
    position = 0
    for wanted in outer:
        while position < len(chain) and not _same_title(chain[position], wanted):
            position += 1
        if position == len(chain):
            return False
        position += 1
    return True


def _owned_by(graph: Graph, node: Node, type_node: Node) -> bool:
    return node.id == type_node.id or any(a.id == type_node.id for a in graph.ancestors(node.id))


def missing_system(graph: Graph, system: str, file: str | None = None) -> InputError | None:
    """The input error of a list or log whose system the KB holds no rules of, else None.

    Checking such an input would only say that every unit type is unknown; the error says
    instead which systems the KB does hold, so the user can pick the right KB.
    """
    held = [s.id for s in graph.kb.systems]
    if system in held:
        return None
    have = ", ".join(held) if held else "ни одной системы"
    return InputError(message=f"в базе знаний нет правил системы «{system}»; в ней есть: {have}",
                      kind="system", file=file)
