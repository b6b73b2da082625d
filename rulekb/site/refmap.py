"""The picture of references of one game system: which rules cite which, as inline SVG.

A layered left-to-right drawing: a rule that cites others stands left of what it cites.
Boxes are links to the nodes' pages. Everything is drawn here, with every text XML-escaped;
nothing is fetched at view time.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from xml.sax.saxutils import escape, quoteattr

import networkx as nx

from kb.models import Node
from rulekb.site.layout import LISTED_KINDS, SiteLayout

MAX_NODES = 90
# a generous width per character of 12px sans-serif (Cyrillic capitals are wide): a label
# must never overflow its box; the browser test measures it
_CHAR_W = 7.4
_LINE_H = 15
_BOX_PAD_Y = 5
_V_GAP = 12
_H_GAP = 90
_PAD = 10
# a longer label wraps at word boundaries onto further lines (never cut)
_WRAP = 30
_COLORS = {
    "rule": ("#e8f0fb", "#3d6db5"),
    "unit_type": ("#e9f6ea", "#3c8a44"),
    "concept": ("#f2f2f2", "#8a8a8a"),
}


@dataclass(frozen=True)
class _Box:
    node: Node
    label: str
    lines: tuple[str, ...]
    x: float
    y: float
    w: float

    @property
    def h(self) -> float:
        return len(self.lines) * _LINE_H + 2 * _BOX_PAD_Y


def reference_edges(layout: SiteLayout, system: str) -> list[tuple[str, str]]:
    """Distinct (citing, cited) pairs of listed nodes of one system, without self-references."""
    pairs: dict[tuple[str, str], None] = {}
    for edge in layout.kb.edges:
        if edge.kind != "references" or edge.source == edge.target:
            continue
        a, b = layout.node(edge.source), layout.node(edge.target)
        if a is None or b is None or a.system != system or b.system != system:
            continue
        if a.kind in LISTED_KINDS and b.kind in LISTED_KINDS:
            pairs[(a.id, b.id)] = None
    return sorted(pairs)


def reference_map(layout: SiteLayout, system: str, docname: str) -> tuple[str, int, int] | None:
    """The SVG of a system's references as seen from page ``docname``.

    Returns (svg text, nodes drawn, nodes with references), or None when nothing cites
    anything.
    """
    pairs = reference_edges(layout, system)
    if not pairs:
        return None
    degree = Counter(n for pair in pairs for n in pair)
    total = len(degree)
    keep = {n for n, _ in sorted(degree.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_NODES]}
    pairs = [(a, b) for a, b in pairs if a in keep and b in keep]
    graph: nx.DiGraph = nx.DiGraph()
    graph.add_nodes_from(sorted(keep))
    graph.add_edges_from(pairs)
    layers = _order(graph, _layers(graph))
    boxes = _place(layout, layers)
    return _svg(layout, docname, boxes, pairs), len(keep), total


def _layers(graph: nx.DiGraph) -> list[list[str]]:
    # strongly connected parts share a layer; a part sits one right of its farthest citer
    parts = nx.condensation(graph)
    depth: dict[int, int] = {}
    for part in nx.topological_sort(parts):
        preds = [depth[p] for p in parts.predecessors(part)]
        depth[part] = max(preds) + 1 if preds else 0
    layers: list[list[str]] = [[] for _ in range(max(depth.values()) + 1)]
    for part, level in depth.items():
        layers[level].extend(sorted(parts.nodes[part]["members"]))
    return layers


_SWEEPS = 12


def _order(graph: nx.DiGraph, layers: list[list[str]]) -> list[list[str]]:
    # barycentre sweeps, down and up, to shorten and uncross the lines; the order with the
    # fewest crossings wins (a sweep can make it worse)
    best = [list(layer) for layer in layers]
    fewest = crossings(graph, best)
    for sweep in range(_SWEEPS):
        pos = {n: i for layer in layers for i, n in enumerate(layer)}
        rng = range(1, len(layers)) if sweep % 2 == 0 else range(len(layers) - 2, -1, -1)
        for li in rng:
            own = set(layers[li])
            layers[li] = sorted(layers[li], key=lambda n: _barycentre(graph, pos, own, n))
            pos.update({n: i for i, n in enumerate(layers[li])})
        count = crossings(graph, layers)
        if count < fewest:
            best, fewest = [list(layer) for layer in layers], count
    return best


def crossings(graph: nx.DiGraph, layers: list[list[str]]) -> int:
    """How many pairs of lines cross between the columns (lines within a column not counted)."""
    layer_of = {n: li for li, layer in enumerate(layers) for n in layer}
    pos = {n: i for layer in layers for i, n in enumerate(layer)}
    spans: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for a, b in graph.edges:
        la, lb = layer_of[a], layer_of[b]
        if la != lb:
            key = (min(la, lb), max(la, lb))
            ends = (pos[a], pos[b]) if la < lb else (pos[b], pos[a])
            spans.setdefault(key, []).append(ends)
    total = 0
    for lines in spans.values():
        lines.sort()
        for i, (a1, b1) in enumerate(lines):
            total += sum(1 for a2, b2 in lines[i + 1:] if a2 > a1 and b2 < b1)
    return total


def _barycentre(graph: nx.DiGraph, pos: dict[str, int], own: set[str], n: str) -> tuple[float, str]:
    near = [m for m in [*graph.predecessors(n), *graph.successors(n)] if m not in own]
    if not near:
        return (float(pos[n]), n)
    return (sum(pos[m] for m in near) / len(near), n)


def wrap_label(title: str, width: int = _WRAP) -> tuple[str, ...]:
    """A label's lines: whole words, each line at most ``width`` characters when it can be.

    >>> wrap_label("Прыжковые боевые единицы: Специальные правила")
    ('Прыжковые боевые единицы:', 'Специальные правила')
    """
    lines: list[str] = []
    for word in title.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return tuple(lines) or ("",)


def _titles(layout: SiteLayout, node_ids: list[str]) -> dict[str, str]:
    # many sections share a title ("Специальные правила"): name those by their parent too
    nodes = [n for n in (layout.node(i) for i in node_ids) if n is not None]
    count = Counter(n.title for n in nodes)
    out: dict[str, str] = {}
    for node in nodes:
        parent = layout.parent(node)
        if count[node.title] > 1 and parent is not None:
            out[node.id] = f"{parent.title}: {node.title}"
        else:
            out[node.id] = node.title
    return out


def _place(layout: SiteLayout, layers: list[list[str]]) -> list[_Box]:
    titles = _titles(layout, [n for layer in layers for n in layer])
    boxes: list[_Box] = []
    columns: list[list[_Box]] = []
    x = float(_PAD)
    for layer in layers:
        nodes = [n for n in (layout.node(i) for i in layer) if n is not None]
        wrapped = {n.id: wrap_label(titles[n.id]) for n in nodes}
        longest = max((len(line) for lines in wrapped.values() for line in lines), default=6)
        width = longest * _CHAR_W + 16
        y = float(_PAD)
        column: list[_Box] = []
        for node in nodes:
            box = _Box(node, titles[node.id], wrapped[node.id], x, y, width)
            column.append(box)
            y += box.h + _V_GAP
        columns.append(column)
        x += width + _H_GAP
    # columns stand centred on the tallest one, so lines run level rather than steeply up
    tallest = max((c[-1].y + c[-1].h for c in columns if c), default=0.0)
    for column in columns:
        if column:
            shift = (tallest - (column[-1].y + column[-1].h)) / 2
            boxes.extend(replace(b, y=b.y + shift) for b in column)
    return boxes


def _svg(layout: SiteLayout, docname: str, boxes: list[_Box], pairs: list[tuple[str, str]]) -> str:
    where = {b.node.id: b for b in boxes}
    width = max(b.x + b.w for b in boxes) + _PAD
    height = max(b.y + b.h for b in boxes) + _PAD
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'class="rulekb-refmap" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
        f'aria-label="Схема ссылок между правилами">',
        "<defs><marker id=\"rulekb-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" "
        "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">"
        "<path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"#777\"/></marker></defs>",
        '<g class="rulekb-edges" fill="none" stroke="#999" stroke-width="1">',
    ]
    for a, b in pairs:
        src, dst = where[a], where[b]
        y1, y2 = src.y + src.h / 2, dst.y + dst.h / 2
        if dst.x > src.x:
            x1, x2 = src.x + src.w, dst.x
            mid = (x1 + x2) / 2
            d = f"M {x1:.1f} {y1:.1f} C {mid:.1f} {y1:.1f} {mid:.1f} {y2:.1f} {x2:.1f} {y2:.1f}"
        else:
            # same layer (a cycle): a loop out of the right side of the column
            x1, x2 = src.x + src.w, dst.x + dst.w
            bulge = max(x1, x2) + 30 + abs(y2 - y1) / 8
            d = f"M {x1:.1f} {y1:.1f} C {bulge:.1f} {y1:.1f} {bulge:.1f} {y2:.1f} {x2:.1f} {y2:.1f}"
        out.append(
            f'<path d="{d}" marker-end="url(#rulekb-arrow)" '
            f'data-from="{escape(layout.anchor(a))}" data-to="{escape(layout.anchor(b))}"/>'
        )
    out.append("</g>")
    out.append('<g class="rulekb-nodes" font-family="sans-serif" font-size="12">')
    for box in boxes:
        fill, stroke = _COLORS.get(box.node.kind, _COLORS["rule"])
        dash = ' stroke-dasharray="4 3"' if not box.node.defined else ""
        url = layout.url(docname, box.node.id)
        text = "".join(
            f'<tspan x="{box.x + 8:.1f}" y="{box.y + _BOX_PAD_Y + 11 + i * _LINE_H:.1f}">'
            f"{escape(line)}</tspan>"
            for i, line in enumerate(box.lines)
        )
        inner = (
            f"<title>{escape(box.label)}</title>"
            f'<rect x="{box.x:.1f}" y="{box.y:.1f}" width="{box.w:.1f}" height="{box.h:.0f}" '
            f'rx="4" fill="{fill}" stroke="{stroke}"{dash}/>'
            f'<text fill="#222">{text}</text>'
        )
        if url is None:
            out.append(f"<g>{inner}</g>")
        else:
            out.append(
                f"<a xlink:href={quoteattr(url)} data-node={quoteattr(layout.anchor(box.node.id))}>"
                f"{inner}</a>"
            )
    out.append("</g></svg>")
    return "".join(out)
