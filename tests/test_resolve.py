"""Resolution on small corpora in tests/data/resolve/: what sections' words link to."""

from __future__ import annotations

from pathlib import Path

from ingest import build, load
from kb import Graph

DATA = Path(__file__).parent / "data" / "resolve"


def graph_of(name: str) -> Graph:
    return Graph(build(load([DATA / name])).kb)


def titled(graph: Graph, title: str) -> str:
    (nid,) = [n.id for n in graph.nodes.values() if n.title == title]
    return nid


def test_a_rule_granted_further_on_is_known_where_a_section_mentions_it_first() -> None:
    graph = graph_of("grant_later")
    movement, agile = titled(graph, "Движение"), titled(graph, "Проворность")
    assert graph.nodes[agile].kind == "concept"
    refs = [(e.target, e.raw) for e in graph.out_edges(movement, "references")]
    assert (agile, "проворности") in refs
    granted = {e.target for e in graph.out_edges(titled(graph, "Звери"), "grants")}
    assert agile in granted
