"""The rulekb knowledge graph: models, JSON store, lookup and search.

>>> from kb import Graph, load          # doctest: +SKIP
>>> graph = Graph(load("kb.json"))     # doctest: +SKIP

The names below are imported on first use (PEP 562), so that importing a small module of the
package (``kb.files``, ``kb.lemmas``) does not load pydantic and the models.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kb.graph import AppliedRule, Graph, UnknownNode
    from kb.models import Edge, Fact, KnowledgeBase, Node, Removal, System
    from kb.store import KBFileError, dumps, load, loads, save

_EXPORTS = {
    "AppliedRule": "kb.graph", "Graph": "kb.graph", "UnknownNode": "kb.graph",
    "Edge": "kb.models", "Fact": "kb.models", "KnowledgeBase": "kb.models", "Node": "kb.models",
    "Removal": "kb.models", "System": "kb.models",
    "KBFileError": "kb.store", "dumps": "kb.store", "load": "kb.store", "loads": "kb.store",
    "save": "kb.store",
}

__all__ = [
    "AppliedRule", "Edge", "Fact", "Graph", "KBFileError", "KnowledgeBase", "Node", "Removal",
    "System", "UnknownNode", "dumps", "load", "loads", "save",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'kb' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
