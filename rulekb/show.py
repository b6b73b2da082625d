"""``rulekb show``: one node with its text, facts, what it cites and what cites it."""

from __future__ import annotations

import json

from kb.books import book_title
from kb.graph import Graph
from kb.models import Node


def render_node(graph: Graph, node: Node, *, as_json: bool = False) -> str:
    """A node for people (Russian) or as JSON with its edges."""
    cites = graph.cites(node.id)
    cited_by = graph.cited_by(node.id)
    if as_json:
        data = node.model_dump(mode="json")
        data["cites"] = [e.model_dump(mode="json") for e in cites]
        data["cited_by"] = [e.model_dump(mode="json") for e in cited_by]
        if node.kind == "unit_type":
            data["effective_rules"] = [
                {"rule": a.rule.id, "title": a.rule.title, "path": list(a.path),
                 "because": a.because} for a in graph.effective_rules(node.id)]
        return json.dumps(data, ensure_ascii=False, indent=1)
    lines = [f"{node.title}  [{node.system}, {node.kind}]  {node.id}"]
    where = []
    if node.source:
        # the book as readers know it; the file name stays for who keeps the corpus
        where.append(f"источник: {book_title(graph, node)} (файл {node.source})")
    where.append(f"стр. {node.page}" if node.page is not None else "стр. —")
    if node.parent:
        where.append(f"раздел: {graph.node(node.parent).title}")
    lines.append(", ".join(where))
    if node.aliases:
        lines.append("Другие названия: " + ", ".join(node.aliases))
    if not node.defined:
        lines.append("Не описано в корпусе: только упоминается.")
    if node.text:
        lines += ["", node.text]
    if node.facts:
        lines += ["", "Факты:"]
        for f in node.facts:
            who = f" ({graph.nodes[f.applies_to].title})" if f.applies_to in graph.nodes else ""
            lines.append(f"  {f.name} = {f.text}{who}: {f.evidence}")
    if node.kind == "unit_type":
        rules = graph.effective_rules(node.id)
        if rules:
            lines += ["", "Правила типа:"]
            lines += [f"  {a.rule.title} — {a.because}" for a in rules]
    if cites:
        lines += ["", "Ссылается на:"]
        lines += [f"  {_title(graph, e.target)} ({e.kind}: «{e.raw}»)" for e in cites]
    if cited_by:
        lines += ["", "На это правило ссылаются:"]
        lines += [f"  {_title(graph, e.source)} ({e.kind})" for e in cited_by]
    return "\n".join(lines)


def _title(graph: Graph, node_id: str) -> str:
    node = graph.nodes.get(node_id)
    return node.title if node else node_id
