"""The queryable knowledge graph: a :class:`KnowledgeBase` with its edges indexed both ways.

Edges are held in plain dictionaries (out and in, one edge per source, target and kind, as
a networkx multigraph keyed by kind would hold them), so that a lookup in a fresh process
does not pay for importing networkx; :attr:`Graph.g` builds the networkx view on demand.

>>> graph = Graph(store.load("kb.json"))          # doctest: +SKIP
>>> graph.find("регенерацию", system="whfb8")[0].title   # doctest: +SKIP
'Регенерация'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from kb.lemmas import lemma_key
from kb.models import Edge, EdgeKind, Fact, KnowledgeBase, Node

if TYPE_CHECKING:
    import networkx as nx


@dataclass(frozen=True)
class AppliedRule:
    """A rule that applies to a unit type, and the path of edges that gives it.

    ``path`` runs from the unit type to the rule: ``[type, inherited type, …, rule]``;
    ``because`` says it in Russian: «тип «Гравициклы» (Мотоциклы и гравициклы → Специальные
    правила)».
    """

    rule: Node
    path: tuple[str, ...]
    because: str


class UnknownNode(KeyError):
    """A node id that the KB does not hold."""

    def __str__(self) -> str:
        return f"В базе знаний нет узла «{self.args[0]}»"


class Graph:
    """Read-only queries over one KB: nodes, neighbours, effective rules, lookup and search."""

    def __init__(self, kb: KnowledgeBase) -> None:
        self.kb = kb
        self.nodes: dict[str, Node] = {n.id: n for n in kb.nodes}
        # source → (target, kind) → edge and target → (source, kind) → edge; a later edge of
        # the same source, target and kind replaces the earlier one
        self._out: dict[str, dict[tuple[str, str], Edge]] = {}
        self._in: dict[str, dict[tuple[str, str], Edge]] = {}
        for e in kb.edges:
            self._out.setdefault(e.source, {})[e.target, e.kind] = e
            self._in.setdefault(e.target, {})[e.source, e.kind] = e

    @cached_property
    def g(self) -> nx.MultiDiGraph:
        """The graph as a networkx multigraph (edges keyed by kind, the :class:`Edge` in
        ``edge``), built on first use for graph algorithms."""
        import networkx as nx

        g = nx.MultiDiGraph()
        g.add_nodes_from(self.nodes)
        for by_target in self._out.values():
            for e in by_target.values():
                g.add_edge(e.source, e.target, key=e.kind, edge=e)
        return g

    # -- nodes and edges -------------------------------------------------------------
    def node(self, node_id: str) -> Node:
        """The node with this id, or :class:`UnknownNode`."""
        try:
            return self.nodes[node_id]
        except KeyError:
            raise UnknownNode(node_id) from None

    def out_edges(self, node_id: str, kind: EdgeKind | None = None) -> list[Edge]:
        """Edges leaving ``node_id`` (of one kind if given), in a stable order."""
        edges = self._out.get(node_id, {}).values()
        return sorted((e for e in edges if kind is None or e.kind == kind), key=_edge_order)

    def in_edges(self, node_id: str, kind: EdgeKind | None = None) -> list[Edge]:
        """Edges arriving at ``node_id`` (of one kind if given), in a stable order."""
        edges = self._in.get(node_id, {}).values()
        return sorted((e for e in edges if kind is None or e.kind == kind), key=_edge_order)

    def children(self, node_id: str) -> list[Node]:
        """Sections whose parent is ``node_id``, in text order."""
        kids = [self.nodes[e.source] for e in self.in_edges(node_id, "part_of")]
        return sorted(kids, key=lambda n: (n.source or "", n.span or (0, 0)))

    def ancestors(self, node_id: str) -> list[Node]:
        """Parents of a section, nearest first, each once: a KB whose parents run in a loop
        (a damaged or hand-made kb.json, which loading lets be) ends the walk where they
        return instead of going round for ever."""
        out: list[Node] = []
        seen = {node_id}
        parent = self.node(node_id).parent
        while parent is not None and parent in self.nodes and parent not in seen:
            seen.add(parent)
            out.append(self.nodes[parent])
            parent = self.nodes[parent].parent
        return out

    def in_system(self, system: str, kinds: Iterable[str] | None = None) -> list[Node]:
        """Every node of a game system (optionally of some kinds), sorted by id."""
        wanted = set(kinds) if kinds is not None else None
        return sorted(
            (n for n in self.nodes.values()
             if n.system == system and (wanted is None or n.kind in wanted)),
            key=lambda n: n.id,
        )

    def cites(self, node_id: str) -> list[Edge]:
        """What a node's text refers to: references and cited pages."""
        return [e for e in self.out_edges(node_id) if e.kind in ("references", "cites_page")]

    def cited_by(self, node_id: str) -> list[Edge]:
        """Which rules refer to this node (the backlinks)."""
        return [e for e in self.in_edges(node_id) if e.kind in ("references", "overrides")]

    # -- unit types ------------------------------------------------------------------
    def inherited_types(self, type_id: str) -> list[tuple[Node, tuple[str, ...]]]:
        """The unit type itself and every type it inherits from, each with its path."""
        seen: dict[str, tuple[str, ...]] = {type_id: (type_id,)}
        queue = [type_id]
        while queue:
            current = queue.pop(0)
            for e in self.out_edges(current, "inherits"):
                if e.target not in seen:
                    seen[e.target] = seen[current] + (e.target,)
                    queue.append(e.target)
        return [(self.nodes[t], p) for t, p in seen.items() if t in self.nodes]

    def effective_rules(self, type_id: str) -> list[AppliedRule]:
        """Rules a unit type follows: those it grants and those of every type it inherits.

        Each comes with the path that gives it; a rule reached twice keeps its shortest path.
        """
        out: dict[str, AppliedRule] = {}
        for type_node, path in self.inherited_types(type_id):
            via = " → ".join(self.nodes[p].title for p in path[1:])
            for e in self.out_edges(type_node.id, "grants"):
                rule = self.nodes.get(e.target)
                if rule is None or rule.id in out:
                    continue
                box = self._grant_section_title(e)
                where = f"{type_node.title} → {box}" if box else type_node.title
                because = f"тип «{self.nodes[type_id].title}» ({where})"
                if via:
                    because = f"тип «{self.nodes[type_id].title}» наследует {via} ({where})"
                out[rule.id] = AppliedRule(rule, path + (rule.id,), because)
        return sorted(out.values(), key=lambda a: (len(a.path), a.rule.title))

    def _grant_section_title(self, edge: Edge) -> str | None:
        if edge.evidence is None:
            return None
        head = edge.evidence.split(":", 1)[0].strip()
        return head if 0 < len(head) < 40 else None

    def sections_of_type(self, type_id: str) -> list[Node]:
        """The type's own rule sections and those of the types it inherits, in path order,
        each once."""
        out: dict[str, Node] = {}
        for type_node, _ in self.inherited_types(type_id):
            for section in self.descendants(type_node.id):
                out.setdefault(section.id, section)
        return list(out.values())

    def descendants(self, node_id: str) -> Iterator[Node]:
        """Every section inside a node (``part_of``), depth first in text order, each once
        (a loop of parts is walked round once; the walk is no recursion, so no depth of
        nesting overflows it)."""
        seen = {node_id}
        stack = list(reversed(self.children(node_id)))
        while stack:
            current = stack.pop()
            if current.id in seen:
                continue
            seen.add(current.id)
            yield current
            stack.extend(reversed(self.children(current.id)))

    # -- facts -----------------------------------------------------------------------
    def facts(
        self,
        system: str,
        *,
        name: str | None = None,
        topic: str | None = None,
        kind: str | None = None,
    ) -> list[tuple[Node, Fact]]:
        """Facts of a system filtered by name, topic (any form: lemmatised) and kind."""
        topic_key = lemma_key(topic) if topic else None
        out = []
        for node in self.in_system(system):
            for fact in node.facts:
                if name is not None and fact.name != name:
                    continue
                if kind is not None and fact.kind != kind:
                    continue
                if topic_key is not None and (fact.topic or "") != topic_key:
                    continue
                out.append((node, fact))
        return out

    # -- lookup and search -----------------------------------------------------------
    @cached_property
    def names(self):  # type: ignore[no-untyped-def]
        """The name index (built on first use)."""
        from kb.names import NameIndex

        return NameIndex(self.nodes.values())

    @cached_property
    def fulltext(self):  # type: ignore[no-untyped-def]
        """The full-text index (built on first use)."""
        from kb.search import FullTextIndex

        return FullTextIndex(self.nodes.values())


def _edge_order(e: Edge) -> tuple[str, str, str, int]:
    return (e.kind, e.target, e.source, e.span[0] if e.span else -1)
