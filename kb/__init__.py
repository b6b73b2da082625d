"""The rulekb knowledge graph: models, JSON store, lookup and search.

>>> from kb import Graph, load          # doctest: +SKIP
>>> graph = Graph(load("kb.json"))     # doctest: +SKIP
"""

from kb.graph import AppliedRule, Graph, UnknownNode
from kb.models import Edge, Fact, KnowledgeBase, Node, Removal, System
from kb.store import KBFileError, dumps, load, loads, save

__all__ = [
    "AppliedRule", "Edge", "Fact", "Graph", "KBFileError", "KnowledgeBase", "Node", "Removal",
    "System", "UnknownNode", "dumps", "load", "loads", "save",
]
