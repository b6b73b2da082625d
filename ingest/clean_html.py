"""A web page saved as HTML: its text, its headings by their tags, its template left out.

A browser's "Save page as…" (or a static site's file) gives the page's markup, not its text:
every word stands between tags, the source's line breaks are no breaks to a reader, and the
site's menus, header, footer and sidebars stand around the article. The markup says what a
text copied from the page can only let us guess: which lines are headings and at what level
(``<h1>`` … ``<h6>``), where a paragraph ends (``<p>``, ``<div>``, ``<br><br>``), what is a
list's item (``<li>``), and, on most sites, which parts are the site's own (HTML5's
``<nav>``, ``<header>``, ``<footer>``, ``<aside>``; ARIA's ``role="navigation"``,
``"banner"``, ``"contentinfo"``, ``"complementary"``; the page's ``<main>`` or its
``<article>`` elements, outside which everything is the template; the class and id names of
menus, sidebars, breadcrumbs and comment blocks that Mozilla's Readability passes over; and,
whatever their names, the blocks whose words are mostly links to other pages: a menu).

The cleaning step :func:`html` turns such a page into its text, each change accounted for:
the markup («разметка HTML»: tags, comments, the source's line breaks inside a paragraph, which
become spaces), the document's head, scripts and styles («служебная часть страницы HTML»), and
the site's parts («меню и оформление сайта (<nav>)», «вне основного текста страницы
(<main>)»). A paragraph's end becomes a blank line, a line break a line's end, a table's
cell a space, a list's item a line opening with "•" (or its number in a numbered list).
Character references ("&nbsp;") are left to the next step
(:func:`ingest.clean_chars.html_entities`).

:func:`html_structure` gives the page's headings (their words' spans, their levels) and its
quotations (``<blockquote>``) in the offsets of the text given, as
:func:`ingest.clean_markdown.markdown_structure` does for Markdown: the sections are the
headings the page marks (not a reply's "Re: …"), and under them the names it sets apart in
bold or as a definition list's terms, no other line. A page that marks no heading is read as
lines, as a copied text is. :func:`page_text`, :func:`title_and_text` and
:func:`visible_text` give what the game and the book are judged by.

The markup is read by :mod:`ingest.html_page` (its tags, its elements, the site's parts).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from functools import lru_cache
from html import unescape as _html_unescape

from ingest.clean_edits import applied
from ingest.clean_markdown import Heading, Structure, is_markdown
from ingest.html_density import data_tables, outermost
from ingest.html_page import (
    ANY_TAG,
    FRAGMENT_TAGS,
    INLINE_REASONS,
    MARKUP_REASON,
    Reader,
    has_fragments,
    is_html,
    leftover_tags,
    parsed,
)
from ingest.models import Edit

STEP = "html"

_PARAGRAPH = frozenset({"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl",
                        "table", "blockquote", "pre", "section", "article", "main", "header",
                        "footer", "nav", "aside", "figure", "hr", "address", "details",
                        "summary", "fieldset", "form", "center", "body", "html", "thead",
                        "tbody", "tfoot"})
_LINE = frozenset({"li", "tr", "dt", "dd", "caption", "figcaption", "legend"})
_CELL = frozenset({"td", "th"})
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_NEWLINE_SPACE = re.compile(r"\s*\n\s*")


_TABLE_BLOCKS = frozenset({"table", "thead", "tbody", "tfoot"})
_PIPE_ROW = re.compile(r"^[ \t]*+\|[^\n]*\|[ \t]*$", re.MULTILINE)
_CODE_BLOCK = re.compile(r"^[ ]{0,3}(`{3,}|~{3,})[^\n]*\n.*?(?:^[ ]{0,3}\1[ \t]*$|\Z)",
                         re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"(`+)(?=[^`\n])[^\n]*?[^`\n]\1(?!`)")


class _Spans:
    """Spans of a text (start, end), and whether one holds an offset."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        self.spans = outermost([(a, b, "") for a, b in spans])
        self.starts = [a for a, _, _ in self.spans]

    def holds(self, at: int) -> bool:
        k = bisect_right(self.starts, at) - 1
        return k >= 0 and at < self.spans[k][1]


def _pre(reader: Reader) -> list[tuple[int, int]]:
    return [(e.inner, e.inner_end) for e in reader.elements if e.tag == "pre"]


def html(text: str) -> list[Edit]:
    """The edits that turn a web page's markup into its text (the module's docstring); none
    for a text that is not one (:func:`is_html`).

    >>> page = "<html><body><nav>Главная | Форум</nav><h2>Паника</h2><p>Тест\\nна Панику.</p>"
    >>> from ingest.clean import apply_edits, identity_offsets
    >>> apply_edits(page, identity_offsets(len(page) + 1), html(page), page)[0]
    'Паника\\n\\nТест на Панику.\\n'
    """
    page = is_html(text)
    if not page and not has_fragments(text):
        return []
    reader, drops = parsed(text, page)
    pieces: list[tuple[int, int, str]] = []  # markup and dropped spans: (start, end, reason)
    pieces += [(s, e, why) for s, e, why in drops]
    pieces += [(t.start, t.end, MARKUP_REASON) for t in reader.tags
               if page or t.tag in FRAGMENT_TAGS]
    pieces += [(s, e, MARKUP_REASON) for s, e in reader.other]
    if not page:  # (HTML inside Markdown: a code block's or span's tags are its words; in
        # another text, only the markup's leftovers are tags)
        code = _Spans([m.span() for pattern in (_CODE_BLOCK, _CODE_SPAN)
                       for m in pattern.finditer(text)])
        pieces = [piece for piece in pieces if not code.holds(piece[0])]
        if not is_markdown(text):
            tags = leftover_tags(text)
            pieces = [piece for piece in pieces if piece[0] in tags]
    pieces = outermost(pieces)
    tag_at = {t.start: t for t in reader.tags}
    pre = _pre(reader)
    pre_starts = [a for a, _ in pre]
    # a Markdown text's own lines stand outside its HTML's blocks: their line breaks stay
    blocks = _Spans([(e.inner, e.inner_end) for e in reader.elements
                     if e.tag in _PARAGRAPH | _LINE | _CELL]) if not page else None
    cells = _Spans(data_tables(reader) + ([] if page else [
        m.span() for m in _PIPE_ROW.finditer(text)]))  # (a Markdown table's row: its "<br>"
    # parts a cell's lines, not the row)

    def in_pre(at: int) -> bool:
        k = bisect_right(pre_starts, at) - 1
        return k >= 0 and pre[k][0] <= at < pre[k][1] or blocks is not None \
            and not blocks.holds(at)

    edits: list[Edit] = []
    k = 0
    pos = 0
    while k < len(pieces):
        # a run: markup pieces with nothing but whitespace between them
        run = [pieces[k]]
        k += 1
        while k < len(pieces) and not text[run[-1][1]:pieces[k][0]].strip():
            run.append(pieces[k])
            k += 1
        start, end = run[0][0], run[-1][1]
        newlines, label, space = 0, "", False
        for s, _, why in run:
            tag = tag_at.get(s)
            if why != MARKUP_REASON or tag is None:
                if why != MARKUP_REASON and why not in INLINE_REASONS:
                    newlines = 2  # (a site's part, the head: a block of the page)
                continue
            if tag.tag in _TABLE_BLOCKS or tag.tag in _PARAGRAPH and not cells.holds(s):
                newlines = 2
            elif tag.tag == "br" and not cells.holds(s):
                newlines = min(2, newlines + 1)
            elif tag.tag in _LINE:
                newlines = max(newlines, 1)
                if tag.label:
                    label = tag.label + " "
            else:  # a table's cell, and a paragraph or a line break in a data table's cell
                space = space or tag.tag in _CELL or tag.tag in _PARAGRAPH or tag.tag == "br"
        # the whitespace around the run is the run's (not inside a <pre>)
        before = text[pos:start]
        after = text[end:pieces[k][0] if k < len(pieces) else len(text)]
        lead = 0 if in_pre(start - 1) else len(before) - len(before.rstrip())
        trail = 0 if in_pre(end) else len(after) - len(after.lstrip())
        space = space or bool(lead or trail) or any(
            text[a[1]:b[0]] for a, b in zip(run, run[1:], strict=False))
        start, end = start - lead, end + trail
        if pos == 0 and not text[:start].strip():  # (the first run, before any text)
            start, replacement = 0, label
        elif k >= len(pieces) and not text[end:].strip():
            end, replacement = len(text), "\n"
        else:
            replacement = "\n" * newlines + label if newlines else (" " if space else "")
        # the text before the run: the source's line breaks inside it are spaces
        for m in _NEWLINE_SPACE.finditer(text, pos, start):
            if not in_pre(m.start()):
                edits.append(Edit(m.start(), m.end(), " ", STEP, MARKUP_REASON))
        edits += _run_edits(run, start, end, replacement)
        pos = end
    for m in _NEWLINE_SPACE.finditer(text, pos):
        if not in_pre(m.start()):
            edits.append(Edit(m.start(), m.end(), " ", STEP, MARKUP_REASON))
    return edits


def _run_edits(run: list[tuple[int, int, str]], start: int, end: int, replacement: str
               ) -> list[Edit]:
    """A run's edits: each dropped span on its own (its reason), the markup between as one;
    the run's replacement on its first edit."""
    edits: list[Edit] = []
    pos = start
    for s, e, why in run:
        if why == MARKUP_REASON:
            continue
        if s > pos:
            edits.append(Edit(pos, s, "", STEP, MARKUP_REASON))
        edits.append(Edit(s, e, "", STEP, why))
        pos = e
    if end > pos or not edits:
        edits.append(Edit(pos, end, "", STEP, MARKUP_REASON))
    first = edits[0]
    edits[0] = first._replace(replacement=replacement)
    return edits


_MARKUP_OR_SPACE = re.compile(r"(?:<[^<>]*>|\s)+")


def _words_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Where the words of ``text[start:end]`` start and end, past the tags and whitespace
    around them ("<a name="x"></a> Паника <br>"); None when it holds no words."""
    lead = _MARKUP_OR_SPACE.match(text, start, end)
    pos = lead.end() if lead else start
    if pos >= end:
        return None
    stop = end
    for m in _MARKUP_OR_SPACE.finditer(text, pos, end):
        if m.end() == end:
            stop = m.start()
    return pos, stop


_REPLY = re.compile(r"(?:re|ответ|отв)\s*(?:\[\d+\]|\^\d+)?\s*:", re.IGNORECASE)
"""A reply's subject ("Re: Паника", "Ответ: Паника"): a forum post's heading line repeating
the topic's, no heading of the text."""
_EMPHASIS = frozenset({"b", "strong"})
_BREAKS = _PARAGRAPH | _LINE | {"br"}
_MINOR = 7
"""The level of a name set apart in bold or as a term: under the page's every heading."""


def _set_apart(reader: Reader, text: str, dropped: Callable[[int], bool],
               is_heading: Callable[[str], bool]) -> list[Heading]:
    """The names a page sets apart without a heading's tag: a term of a definition list
    (``<dt>``) and a line that is all bold ("<p><b>Страх</b></p>", "<b>Ужас</b><br>"), each
    a heading by its words (``is_heading``: "Очки считаются следующим образом:" is a line
    leading into a list, no heading)."""
    breaks = sorted((t.start, t.end) for t in reader.tags if t.tag in _BREAKS)
    starts = [a for a, _ in breaks]
    ends = sorted(b for _, b in breaks)

    def opens(start: int) -> bool:
        """Nothing but markup and whitespace between a break and ``start``."""
        k = bisect_right(ends, start) - 1
        return not _words_between(text, ends[k] if k >= 0 else 0, start)

    def closes(end: int) -> bool:
        """Nothing but markup and whitespace between ``end`` and a break (or the text's
        end)."""
        j = bisect_right(starts, end - 1)
        return not _words_between(text, end, starts[j] if j < len(starts) else len(text))

    found = []
    for e in reader.elements:
        if not (e.tag == "dt" or e.tag in _EMPHASIS) or e.inner_end <= e.inner \
                or dropped(e.start) or (e.tag != "dt" and not opens(e.start)):
            continue
        words = _words_span(text, e.inner, e.inner_end)
        if words is None:
            continue
        start, end = words
        if e.tag != "dt" and not closes(e.end):
            # a name run in before its paragraph's text ("<b>Страх.</b> Модель …",
            # "<b>Страх</b>. Модель …"), as a line of text runs it in (ingest.segment_lines)
            m = _RUN_IN_AFTER.match(text, e.end) if text[end - 1] != "." else \
                _RUN_IN_TEXT.match(text, e.end)
            if m is None:
                continue
            end = end - 1 if text[end - 1] == "." else end
        line = " ".join(_MARKUP_OR_SPACE.sub(" ", text[start:end]).split())
        if "\n" not in text[start:end] and line and is_heading(line) \
                and len(line.split()) <= _RUN_IN_WORDS:
            found.append(Heading(start, end, _MINOR))
    return found


_RUN_IN_TEXT = re.compile(r"(?:\s|<[^<>]*>)*+[«\"]?[А-ЯЁA-Z0-9]")
"""After a run-in name that ends in its point: its text, opening as a sentence does."""
_RUN_IN_AFTER = re.compile(r"(?:<[^<>]*>)*+\.(?:\s|<[^<>]*>)*+[«\"]?[А-ЯЁA-Z0-9]")
"""After a run-in name whose point follows the bold: the point, then its text."""
_RUN_IN_WORDS = 6
"""The most words a name set apart may have (a bold sentence is no name)."""


def _inside(spans: list[tuple[int, int, str]]) -> Callable[[int], bool]:
    """Whether an offset lies in one of ``spans`` (sorted, none inside another)."""
    starts = [s for s, _, _ in spans]

    def inside(at: int) -> bool:
        k = bisect_right(starts, at) - 1
        return k >= 0 and spans[k][0] <= at < spans[k][1]

    return inside


def _words_between(text: str, start: int, end: int) -> bool:
    return start < end and _MARKUP_OR_SPACE.fullmatch(text, start, end) is None


def html_structure(text: str, is_heading: Callable[[str], bool] | None = None
                   ) -> Structure | None:
    """The headings (``<h1>`` … ``<h6>``) and quotations (``<blockquote>``) of a web page
    outside the parts :func:`html` leaves out, in ``text``'s offsets; None for a text that is
    no web page, or a page that marks no heading (read as lines). With ``is_heading`` (whether
    a line's words are a heading's), the names it sets apart in bold or as a definition list's
    terms too, under its every heading (:func:`_set_apart`).

    >>> page = "<html><body><h1>Психология</h1><h2>Паника</h2><p>Текст</p></body></html>"
    >>> s = html_structure(page)
    >>> [(page[h.start:h.end], h.level) for h in s.headings]
    [('Психология', 1), ('Паника', 2)]
    """
    if not is_html(text):
        return None
    reader, drops = parsed(text)
    dropped = _inside(drops)

    headings = []
    for e in reader.elements:
        if e.tag in _HEADINGS and not dropped(e.start) and e.inner_end > e.inner:
            words = _words_span(text, e.inner, e.inner_end)
            if words is not None and not _REPLY.match(text, words[0], words[1]):
                headings.append(Heading(*words, _HEADINGS[e.tag]))
    if not headings:
        return None
    if is_heading is not None:
        headings += _set_apart(reader, text, dropped, is_heading)
    quotes = tuple(words for e in reader.elements
                   if e.tag == "blockquote" and not dropped(e.start) and e.inner_end > e.inner
                   and (words := _words_span(text, e.inner, e.inner_end)) is not None)
    return Structure(tuple(sorted(headings, key=lambda h: h.start)), quotes)


def fragment_headings(text: str) -> list[Heading]:
    """The headings a Markdown text writes in HTML ("<h3 id="commands">Команды</h3>" among
    its "## …" lines), in ``text``'s offsets, at their levels; none for a text that holds no
    HTML of its own (:func:`ingest.html_page.has_fragments`).

    >>> md = "# Игры\\n\\n<h3 id='x'>Команды</h3>\\nВверх — «a».\\n"
    >>> [(md[h.start:h.end], h.level) for h in fragment_headings(md)]
    [('Команды', 3)]
    """
    if not has_fragments(text):
        return []
    reader, drops = parsed(text, False)
    dropped = _inside(drops)
    code = _Spans([m.span() for pattern in (_CODE_BLOCK, _CODE_SPAN)
                   for m in pattern.finditer(text)])
    return [Heading(*words, _HEADINGS[e.tag]) for e in reader.elements
            if e.tag in _HEADINGS and not dropped(e.start) and not code.holds(e.start)
            and e.inner_end > e.inner and (words := _words_span(text, e.inner, e.inner_end))]


def html_links(text: str) -> list[tuple[int, int]]:
    """The words of a web page's links (``<a href=…>``) outside the parts :func:`html` leaves
    out, in ``text``'s offsets: names the page marks as leading elsewhere, a rule's among them
    ("в <a href="#fear">страх</a>"); none for a text that is no web page.

    >>> page = ("<html><body><nav><a href='/'>Главная</a></nav>"
    ...         "<p>Вызывает <a href='#f'>страх</a>.</p>")
    >>> [page[a:b] for a, b in html_links(page)]
    ['страх']
    """
    if not is_html(text):
        return []
    reader, drops = parsed(text)
    dropped = _inside(drops)
    out = []
    for e in reader.elements:
        if e.tag == "a" and "href" in e.attrs and e.inner_end > e.inner:
            if dropped(e.start):
                continue
            words = _words_span(text, e.inner, e.inner_end)
            if words is not None:
                out.append(words)
    return out


@lru_cache(maxsize=2)
def page_text(text: str) -> str:
    """The text a reader sees of a web page (the edits of :func:`html` applied), or ``text``
    itself when it is no web page: what the game and the book are judged by (made once for
    both).

    >>> page_text("<html><body><h2>Паника</h2><p>Тест на Панику.</p></body></html>")
    'Паника\\n\\nТест на Панику.\\n'
    """
    edits = html(text)
    return applied(text, edits) if edits else text


def title_and_text(text: str) -> str:
    """A web page's title (``<title>``, the browser's tab: where a copy of a book names it)
    over the text its reader sees, for the book's name to be looked for; ``text`` itself when
    it is no web page.

    >>> title_and_text("<html><head><title>Книга правил</title></head><body><p>Паника</p>")
    'Книга правил\\nПаника\\n'
    """
    if not is_html(text):
        return text
    reader, _ = parsed(text)
    title = next((" ".join(unescaped(ANY_TAG.sub(" ", text[e.inner:e.inner_end])).split())
                  for e in reader.elements if e.tag == "title"), "")
    return f"{title}\n{page_text(text)}" if title else page_text(text)


def visible_text(text: str) -> str:
    """Every word a web page shows, its site's parts and its title included (tags, scripts
    and styles left out), or ``text`` itself when it is no web page: where the names of games
    are counted, as a copied page's furniture counts (a breadcrumb "Warhammer 40000 » Правила",
    a title "… | Warhammer Fantasy").

    >>> page = "<html><head><title>WH40K</title></head><body><nav>Правила</nav></body>"
    >>> " ".join(visible_text(page).split())
    'WH40K Правила'
    """
    if not is_html(text):
        return text
    reader, _ = parsed(text)  # (the tags, comments and scripts the cleaning read: left out)
    shown, pos = [], 0
    for start, end, _ in outermost([(t.start, t.end, "") for t in reader.tags]
                                   + [(a, b, "") for a, b in reader.other]):
        shown.append(text[pos:start])
        pos = end
    shown.append(text[pos:])
    return unescaped(" ".join(shown))


_LONG_DECIMAL = re.compile(r"&#0*[1-9][0-9]{7,}")
"""A decimal character reference of 8 digits or more: above U+10FFFF, no character."""


def unescaped(text: str) -> str:
    """``text`` with its HTML character references read (:func:`html.unescape`), a decimal
    one too long for any character ("&#99…9;") read as the U+FFFD it stands for: the standard
    library turns its digits into an int first, which Python refuses past 4,300 digits
    (ValueError), so a page holding such a reference failed to read.

    >>> unescaped("&laquo;Ужас&raquo; &#" + "9" * 5000 + ";")
    '«Ужас» \ufffd'
    """
    return _html_unescape(_LONG_DECIMAL.sub("&#1114112", text))
