"""How much of a web page's blocks is text and how much is links: the site's menus found by
their links, and the page's text found by where its paragraphs stand, on a page that marks
neither (no ``<nav>``, no ``<main>``, no class names that say so: an old page laid out in a
table, a template of its own).

Both are Mozilla Readability's measures, as :mod:`ingest.html_page` reads the markup:

* *link density*: the share of a block's words inside links to other pages. A block whose
  words are mostly such links is a menu (:func:`link_menus`);
* *content score*: each paragraph of some length scores by its length and its commas, and
  gives its score to the blocks around it (all to its parent, half to the one above, less
  further up); the block that scores best, its score lowered by its own links, holds the
  page's text (:func:`main_part`). What lies outside it is the template.

The words are counted without spaces, a character reference as the one character it stands
for, from sums made once per page, so each block costs a few look-ups however deep the
blocks nest and a page costs its length.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ingest.html_page import Element, Reader

LINKS_REASON = "меню и оформление сайта (<{tag}>: почти одни ссылки)"
LINK_BLOCKS = frozenset({"div", "ul", "ol", "dl", "table", "tbody", "tr", "td", "th", "center"})
"""Elements that a template's menu or list of links may be (an old page's table cell of
links, a ``<div>`` of them under a name of the site's own); not a paragraph ("См. «Страх»,
«Ужас», «Паника».": a rule's references, mostly links) nor an inline element, which a
sentence may run through."""
LINK_DENSITY = 0.5
"""The share of a block's words (non-space characters) inside links to other pages above
which the block is a menu: Mozilla Readability's threshold for a block that does not look
like the text by its names (it drops such a block at 0.2 already, and one that looks like
the text at 0.5)."""
LINKS_MIN = 3
"""Links to other pages a block must hold to be a menu by its links."""
MENU_TEXT = 50
"""The most words (non-space characters) outside its links a menu holds: its label ("Меню",
"Разделы"), its separators, a copyright line. A block with more holds a text beside its links
(a rule and the list of the rules it names) and stays, however many its links."""
LINK_LONGEST = 150
"""The most words (non-space characters) of a link that a menu's link holds: a longer one
(an ``<a>`` never closed, running over the text) is no menu's."""
PAGE_HOLDERS = frozenset({"main", "article", "h1", "h2"})
"""Elements that only a block holding the page's text holds: no menu holds them."""

SCORED = frozenset({"p", "pre", "td", "blockquote", "dd", "li"})
"""Elements whose words are scored as a paragraph's (Readability scores ``<p>``, ``<td>`` and
``<pre>``, and a ``<div>`` holding no block, as a paragraph; here a quotation, a definition
and a list's item too)."""
PARAGRAPH_LEAST = 25
"""Words (non-space characters) a paragraph holds to be scored: a label or a button is none."""
_TAG_SCORE = {"div": 5, "pre": 3, "td": 3, "blockquote": 3, "address": -3, "ol": -3, "ul": -3,
              "dl": -3, "dd": -3, "dt": -3, "li": -3, "form": -3, "th": -5,
              **{f"h{n}": -5 for n in range(1, 7)}}
"""A block's score before its paragraphs' (Readability's): a division or a table's cell is
likelier to hold a text, a list or a form less."""
HOLDERS = frozenset({"div", "td", "th", "section", "center", "body"})
"""Blocks that may hold a page's text: a list, a quotation or a table's row scores from its
items but is part of a text, never the whole of it (a rules page's long list under its
headings: the block holding both is the text)."""
_HEADINGS = frozenset(f"h{n}" for n in range(1, 7))
ANCESTORS = 5
"""How many blocks up a paragraph's score reaches."""
SIBLING_SHARE = 0.2
"""A block beside the best one is part of the text when it scores this share of the best's
and scores :data:`SIBLING_LEAST` or holds this share of its words: the text's second column,
or a second rule in a block of its own (Readability asks the least score of every block
beside the best, and a short rule's block scores as little as a sidebar's line: a rule lost
costs more than a line of the template kept)."""
SIBLING_LEAST = 10.0
OUTSIDE_SHARE = 0.25
"""The most of the page's words (outside links and the parts already left out) that may
stand outside the blocks found to hold the text: more, and the page is not one text in one
block, and nothing is left out by its paragraphs."""
MAIN_REASON = "вне основного текста страницы (<{tag}>: здесь абзацы текста)"


class Counts:
    """The words (non-space characters) and commas of a page's text before any offset at a
    tag's edge, from sums made once."""

    def __init__(self, reader: Reader, text: str) -> None:
        self.text = text
        markup = sorted([(t.start, t.end) for t in reader.tags] + reader.other)
        self._starts = [a for a, _ in markup]
        self._ends = [b for _, b in markup]
        self._words: list[int] = []
        self._commas: list[int] = []
        words = commas = pos = 0
        for a, b in markup:
            if a > pos:
                words += _nonspace(text, pos, a)
                commas += text.count(",", pos, a)
            self._words.append(words)
            self._commas.append(commas)
            pos = max(pos, b)

    def _before(self, sums: list[int], at: int, measure: Callable[[int, int], int]) -> int:
        k = bisect_right(self._starts, at) - 1
        if k < 0:
            return measure(0, at)
        end = self._ends[k]
        return sums[k] + (measure(end, at) if at > end else 0)

    def _nonspace(self, start: int, end: int) -> int:
        return _nonspace(self.text, start, end)

    def _commas_in(self, start: int, end: int) -> int:
        return self.text.count(",", start, end)

    def words(self, e: Element) -> int:
        """The words inside an element (between its tags)."""
        return self.words_between(e.inner, e.inner_end)

    def words_between(self, start: int, end: int) -> int:
        """The words between two offsets at tags' edges."""
        return (self._before(self._words, end, self._nonspace)
                - self._before(self._words, start, self._nonspace))

    def commas(self, e: Element) -> int:
        """The commas of the text inside an element."""
        return (self._before(self._commas, e.inner_end, self._commas_in)
                - self._before(self._commas, e.inner, self._commas_in))


class Links:
    """The links to other pages of a page, and the words inside them, summed in order."""

    def __init__(self, reader: Reader, counts: Counts) -> None:
        found = [(e.start, min(counts.words(e), LINK_LONGEST + 1)) for e in reader.elements
                 if e.tag == "a" and e.drop is None and e.inner_end > e.inner
                 and not (e.attrs.get("href") or "").startswith("#")]
        found = [(at, n) for at, n in found if 0 < n <= LINK_LONGEST]
        self._starts = [at for at, _ in found]
        self._words = [0]
        for _, n in found:
            self._words.append(self._words[-1] + n)

    def inside(self, e: Element) -> tuple[int, int]:
        """How many links an element holds, and their words."""
        return self.between(e.inner, e.inner_end)

    def between(self, start: int, end: int) -> tuple[int, int]:
        """How many links start between two offsets, and their words."""
        lo = bisect_right(self._starts, start - 1)
        hi = bisect_right(self._starts, end - 1)
        return hi - lo, self._words[hi] - self._words[lo]


def link_menus(reader: Reader, counts: Counts, links: Links) -> None:
    """Mark the blocks outside the page's main part whose words are mostly links to other
    pages (:data:`LINK_DENSITY`, :data:`LINKS_MIN`) as the site's: a menu, a list of other
    pages, a footer's links, whatever the site names them.

    A link to a place on the page itself ("#fear": a contents list) is no menu's link. A block
    with a text outside its links (:data:`MENU_TEXT`), or that holds the page's main part or
    its main headings (:data:`PAGE_HOLDERS`), stays, and so
    do a data table and its cells (:func:`data_tables`: a profile table's weapons may be
    links). Inside ``<main>``, ``<article>`` or ``<section>`` nothing is dropped by its links
    (a list of the rules a page names may be links)."""
    holders = _starts(reader.elements, PAGE_HOLDERS)
    tables = data_tables(reader)
    table_starts = [a for a, _ in tables]
    for e in reader.elements:
        if e.tag not in LINK_BLOCKS or e.drop is not None or e.in_main \
                or e.inner_end <= e.inner:
            continue
        t = bisect_right(table_starts, e.start) - 1
        if t >= 0 and e.start < tables[t][1]:
            continue
        n, linked = links.inside(e)
        if n < LINKS_MIN:
            continue
        total = counts.words(e)
        if total and linked > LINK_DENSITY * total and total - linked < MENU_TEXT \
                and not _holds(holders, e):
            e.drop = LINKS_REASON.format(tag=e.tag)


def data_tables(reader: Reader) -> list[tuple[int, int]]:
    """The spans of the page's data tables, in order: a table that holds no table and has a
    header cell, a head or a caption, or more than ten cells (Readability's test of a table
    that lays out data, not the page: a table of the page's layout holds a few cells, each a
    column of the page, and often tables inside them). Found once a page (kept on its
    reader)."""
    if reader.data_tables is None:
        tables, heads = _starts(reader.elements, {"table"}), \
            _starts(reader.elements, {"th", "thead", "caption"})
        cells = _starts(reader.elements, {"td", "th"})
        reader.data_tables = [(e.start, e.end) for e in reader.elements
                              if e.tag == "table" and e.end > e.start and not _count(tables, e)
                              and (_count(heads, e) or _count(cells, e) > 10)]
    return reader.data_tables


def main_part(reader: Reader, counts: Counts, links: Links) -> list[Element]:
    """The blocks that hold the page's text, by where its paragraphs stand (the module's
    docstring), or none when the page itself is the best block or no paragraph scores.

    The best block's neighbours under the same parent that score :data:`SIBLING_SHARE` of it
    are the text too (a second column, a second rule's block), and so are the headings beside
    it and the blocks that are a few sentences with no link (:func:`_plain_sentences`).

    The page's first ``<h1>`` (else its first ``<h2>``) heads the text: when it stands outside
    those blocks, the block holding both is the text (a title set in a row of its own above
    the text's cell)."""
    score: dict[int, float] = {}
    by_id = {id(e): e for e in reader.elements}
    for e in reader.elements:
        if e.tag not in SCORED or e.drop is not None or e.parent is None:
            continue
        words = counts.words(e)
        if words < PARAGRAPH_LEAST:
            continue
        points = 1 + (counts.commas(e) + 1) + min(words // 100, 3)
        for level, above in enumerate(_ancestors(e, ANCESTORS)):
            if above.tag == "html" or above.drop is not None:
                break
            if id(above) not in score:
                score[id(above)] = float(_TAG_SCORE.get(above.tag, 0))
            score[id(above)] += points / (1 if level == 0 else 2 if level == 1 else level * 3)
    final = {}
    for key, value in score.items():
        e = by_id[key]
        if e.tag not in HOLDERS:
            continue
        words = counts.words(e)
        density = links.inside(e)[1] / words if words else 0.0
        final[key] = value * (1 - min(1.0, density))
    if not final:
        return []
    best = by_id[max(final, key=lambda k: (final[k], -by_id[k].start))]
    score_of_best = final[id(best)]
    best = _table_of_rows(best, final, reader)
    if best.tag == "body":
        return []  # the page's paragraphs stand in its body: no block of it is the template
    kept = [best]
    if best.parent is not None:
        share, fewest = score_of_best * SIBLING_SHARE, counts.words(best) * SIBLING_SHARE
        kept = [e for e in reader.elements if e.parent is best.parent and e.drop is None and (
            e is best or final.get(id(e), -1.0) >= share
            and (final[id(e)] >= SIBLING_LEAST or counts.words(e) >= fewest)
            or e.tag in _HEADINGS or _plain_sentences(e, counts, links))]
    if best.parent is not None and _bare_sentences(best.parent, reader, counts):
        # sentences standing bare in the block around (a rule's "… бросая 2D6.<br>" in the
        # page's body beside blocks of others): that block is the text
        if best.parent.tag in ("html", "body"):
            return []
        kept = [best.parent]
    title = next((e for e in reader.elements if e.tag == "h1" and e.drop is None), None) or \
        next((e for e in reader.elements if e.tag == "h2" and e.drop is None), None)
    if title is not None and not any(e.start <= title.start < e.end for e in kept):
        common = _common(best, title)
        kept = [] if common is None or common.tag in ("html", "body") else [common]
    # the words outside links and outside the blocks found must be few: a text whose parts
    # stand apart (a page set in two tables one under the other, a rule's sentence standing
    # in the page's body beside a block of others) is not cut to one of them
    if kept and _outside_words(reader, counts, links, kept) > OUTSIDE_SHARE * sum(
            counts.words(e) - links.inside(e)[1] for e in kept) / (1 - OUTSIDE_SHARE):
        return []
    return kept


def _outside_words(reader: Reader, counts: Counts, links: Links, kept: list[Element]) -> int:
    """The words outside links standing outside the blocks ``kept`` and outside the parts
    already left out (the head, a menu)."""
    spans = outermost([(e.start, e.end, "") for e in kept]
                            + [(e.start, e.end, "") for e in reader.elements
                               if e.drop is not None and e.end > e.start])
    out, pos = 0, 0
    for a, b, _ in [*spans, (len(counts.text), len(counts.text), "")]:
        if a > pos:
            out += counts.words_between(pos, a) - links.between(pos, a)[1]
        pos = max(pos, b)
    return out


def _table_of_rows(best: Element, final: dict[int, float], reader: Reader) -> Element:
    """The block holding the page's text when the best is a table's cell: the cell, when it
    is the one cell of its table that scores outside its own row (an old page's layout: a row
    of a menu's column, the text's cell and a sidebar); the table, when other rows' cells
    score too (a glossary set as a table, a rule a row) or the table is a data table."""
    if best.tag not in ("td", "th"):
        return best
    table = next((a for a in _ancestors(best, ANCESTORS) if a.tag == "table"), None)
    if table is None:
        return best
    row = best.parent
    if any(e.tag in ("td", "th") and id(e) in final and e.parent is not row
           and table.start < e.start < table.end for e in reader.elements) \
            or (table.start, table.end) in set(data_tables(reader)):
        return table
    return best


def outermost(spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The spans (start, end, why) that no earlier or longer one holds, in order, none empty."""
    out: list[tuple[int, int, str]] = []
    for span in sorted(spans, key=lambda s: (s[0], -s[1])):
        if out and span[0] < out[-1][1]:
            continue
        if span[1] > span[0]:
            out.append(span)
    return out


def _bare_sentences(block: Element, reader: Reader, counts: Counts) -> bool:
    """Whether a block holds a sentence of its own, outside the elements inside it (text
    parted by line breaks, as an old page writes it)."""
    children = sorted((e.start, e.end) for e in reader.elements
                      if e.parent is block and e.end > e.start)
    pos = block.inner
    for a, b in [*children, (block.inner_end, block.inner_end)]:
        if a > pos and counts.words_between(pos, a) >= PARAGRAPH_LEAST \
                and _SENTENCE_END.search(counts.text, pos, a) is not None:
            return True
        pos = max(pos, b)
    return False


def _plain_sentences(e: Element, counts: Counts, links: Links) -> bool:
    """Whether a block is a few sentences with no link (Readability keeps such a paragraph
    beside the text's block): a short rule of its own ("Как страх, но тест на Панику."), not a
    column's label ("Дополнительно") or a menu."""
    if links.inside(e)[0] or not 0 < counts.words(e) <= _SENTENCES_LONGEST:
        return False
    return _SENTENCE_END.search(counts.text, e.inner, e.inner_end) is not None


_SENTENCES_LONGEST = 2_000
_SENTENCE_END = re.compile(r"[.!?…](?=\s|<|$)")


def _ancestors(e: Element, n: int) -> Iterable[Element]:
    above = e.parent
    while above is not None and n > 0:
        yield above
        above = above.parent
        n -= 1


def _common(a: Element, b: Element) -> Element | None:
    """The innermost element holding both."""
    chain = []
    above: Element | None = a
    while above is not None:
        chain.append(above)
        above = above.parent
    held = {id(x) for x in chain}
    above = b
    while above is not None and id(above) not in held:
        above = above.parent
    return above


def _starts(elements: Iterable[Element], tags: Iterable[str]) -> list[int]:
    wanted = frozenset(tags)
    return sorted(e.start for e in elements if e.tag in wanted)


def _count(starts: list[int], e: Element) -> int:
    """How many of the elements starting at ``starts`` start inside ``e``."""
    return bisect_right(starts, e.end - 1) - bisect_right(starts, e.start)


def _holds(starts: list[int], e: Element) -> bool:
    return _count(starts, e) > 0


def _nonspace(text: str, start: int, end: int) -> int:
    """The characters a reader sees in ``text[start:end]`` that are no whitespace: a
    character reference is one ("&bull;"), or none when it is a space ("&nbsp;")."""
    piece = text[start:end]
    count = len(piece) - sum(map(piece.count, (" ", "\n", "\t", "\r", "\xa0")))
    if "&" in piece:
        for m in _REFERENCE.finditer(piece):
            count -= len(m.group()) - (m.group() not in _SPACE_REFERENCES)
    return count


_REFERENCE = re.compile(r"&(?:#\d{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z]\w{1,30});")
_SPACE_REFERENCES = frozenset({"&nbsp;", "&#160;", "&#xa0;", "&#xA0;", "&ensp;", "&emsp;",
                               "&thinsp;"})
