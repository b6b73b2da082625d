"""Put a node's outgoing references into its text as links, and cut its text into paragraphs.

An edge knows where its words are in the *source file* (``span``) and what they were
(``raw``); a node knows its own ``span`` and ``text``. When the text is the exact slice of the
source, an edge's span maps to text offsets by subtraction; otherwise (the text was cleaned)
the words are looked for in the text, inside the edge's evidence sentence first. What cannot
be placed is returned unplaced, never linked at a guessed spot.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kb.models import Edge, Node

# Edge kinds whose words are in the source text and may become inline links.
INLINE_KINDS = frozenset(
    {"references", "cites_page", "overrides", "grants", "inherits", "applies_to", "excludes"}
)
_BLANK_LINE = re.compile(r"\n[ \t\r\f\v]*\n\s*")
# two letters in a row: a name, not a number or a dice expression ("3D6")
_WORD = re.compile(r"[^\W\d_]{2}")


@dataclass(frozen=True)
class Link:
    """An edge placed in a node's text at ``[start, end)``."""

    start: int
    end: int
    edge: Edge


@dataclass(frozen=True)
class Piece:
    """A run of text in a paragraph, a link when ``link`` is set."""

    text: str
    link: Link | None = None


def fold_chars(text: str) -> str:
    """Lower-case with ё→е, keeping every character's position (for searching in text).

    >>> fold_chars("Ёж РЕГЕНЕРАЦИЮ")
    'еж регенерацию'
    """
    out = []
    for ch in text:
        low = ch.lower()
        out.append(low if len(low) == 1 else ch)
    return "".join(out).replace("ё", "е")


def exact_slice(node: Node) -> bool:
    """Whether ``node.text`` can be the exact slice ``source[span]`` (same length)."""
    return node.span is not None and len(node.text) == node.span[1] - node.span[0]


def own_ranges(node: Node, children: Sequence[Node]) -> list[tuple[int, int]]:
    """The parts of ``node.text`` that are its own: without its subsections' text and title.

    A section's text may include its subsections, which the site shows under their own
    headings; a leading line that repeats the title is dropped too.
    """
    text = node.text
    cut: list[tuple[int, int]] = []
    head = re.match(r"\s*", text)
    lead = head.end() if head else 0
    if node.title and fold_chars(text[lead:]).startswith(fold_chars(node.title)):
        end = lead + len(node.title)
        if end == len(text) or text[end] == "\n":
            cut.append((0, end))
    folded = fold_chars(text)
    for child in children:
        # a unit type described by this very section is not a subsection of its text
        if child.kind != "rule" or (child.span is not None and child.span == node.span):
            continue
        if exact_slice(node) and child.span is not None and node.span is not None:
            a, b = child.span[0] - node.span[0], child.span[1] - node.span[0]
            if 0 <= a < b <= len(text):
                cut.append((a, b))
                continue
        body = child.text.strip()
        if len(body) >= 20:
            at = folded.find(fold_chars(body))
            if at >= 0:
                cut.append((at, at + len(body)))
    ranges: list[tuple[int, int]] = []
    pos = 0
    for a, b in sorted(cut):
        if a > pos:
            ranges.append((pos, a))
        pos = max(pos, b)
    if pos < len(text):
        ranges.append((pos, len(text)))
    return ranges


def place_links(node: Node, edges: Iterable[Edge]) -> tuple[list[Link], list[Edge]]:
    """Place each edge's words in ``node.text``; return (placed links, unplaced edges).

    Links never overlap; they are sorted by position.
    """
    text = node.text
    folded = fold_chars(text)
    taken: list[tuple[int, int]] = []
    placed: list[Link] = []
    unplaced: list[Edge] = []
    # a number is the words of a page citation, but not a name of a rule (an override's
    # raw may be the changed value, '36"' or '2D6"')
    candidates = [
        e for e in edges
        if e.kind in INLINE_KINDS
        and (e.kind == "cites_page" or e.raw is None or _WORD.search(e.raw) is not None)
    ]
    # edges with a trusted span first, so a raw search never steals their words
    candidates.sort(key=lambda e: (_mapped(node, e) is None, e.span or (0, 0), e.target))
    for edge in candidates:
        spot = _mapped(node, edge)
        if spot is None or _overlaps(spot, taken):
            spot = _search(node, folded, edge, taken)
        if spot is None:
            unplaced.append(edge)
            continue
        taken.append(spot)
        placed.append(Link(spot[0], spot[1], edge))
    placed.sort(key=lambda link: link.start)
    return placed, unplaced


def paragraphs(
    text: str, ranges: Sequence[tuple[int, int]], links: Sequence[Link]
) -> tuple[list[list[Piece]], list[Link]]:
    """Cut the shown ``ranges`` of ``text`` into paragraphs of pieces.

    Paragraphs are separated by blank lines. Returns the paragraphs and the links that did
    not fit (outside the ranges, or across a paragraph break).
    """
    spans: list[tuple[int, int]] = []
    for a, b in ranges:
        pos = a
        for m in _BLANK_LINE.finditer(text, a, b):
            spans.append((pos, m.start()))
            pos = m.end()
        spans.append((pos, b))
    out: list[list[Piece]] = []
    used: set[int] = set()
    for a, b in spans:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a >= b:
            continue
        pieces: list[Piece] = []
        pos = a
        for i, link in enumerate(links):
            if link.start >= a and link.end <= b and link.start >= pos:
                if link.start > pos:
                    pieces.append(Piece(text[pos : link.start]))
                pieces.append(Piece(text[link.start : link.end], link))
                used.add(i)
                pos = link.end
        if pos < b:
            pieces.append(Piece(text[pos:b]))
        out.append(pieces)
    return out, [link for i, link in enumerate(links) if i not in used]


def _mapped(node: Node, edge: Edge) -> tuple[int, int] | None:
    if edge.span is None or node.span is None or not exact_slice(node):
        return None
    a, b = edge.span[0] - node.span[0], edge.span[1] - node.span[0]
    if not 0 <= a < b <= len(node.text):
        return None
    if edge.raw is not None and _norm(node.text[a:b]) != _norm(edge.raw):
        return None
    return a, b


def _norm(text: str) -> str:
    return " ".join(fold_chars(text).split())


def _search(
    node: Node, folded: str, edge: Edge, taken: Sequence[tuple[int, int]]
) -> tuple[int, int] | None:
    if not edge.raw or not edge.raw.strip():
        return None
    needle = fold_chars(edge.raw.strip())
    hits = [m.start() for m in re.finditer(re.escape(needle), folded)]
    if not hits:
        return None
    region = None
    if edge.evidence:
        at = folded.find(fold_chars(edge.evidence.strip()))
        if at >= 0:
            region = (at, at + len(edge.evidence.strip()))
    expected = 0
    if edge.span is not None and node.span is not None and node.span[1] > node.span[0]:
        share = (edge.span[0] - node.span[0]) / (node.span[1] - node.span[0])
        expected = int(min(max(share, 0.0), 1.0) * len(folded))

    def rank(start: int) -> tuple[bool, bool, int]:
        end = start + len(needle)
        inside = region is not None and region[0] <= start and end <= region[1]
        return (not inside, not _word_bounded(folded, start, end), abs(start - expected))

    for start in sorted(hits, key=rank):
        spot = (start, start + len(needle))
        if not _overlaps(spot, taken):
            return spot
    return None


def _word_bounded(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return not before.isalnum() and not after.isalnum()


def _overlaps(spot: tuple[int, int], taken: Iterable[tuple[int, int]]) -> bool:
    return any(spot[0] < b and a < spot[1] for a, b in taken)
