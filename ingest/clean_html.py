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
menus, sidebars, breadcrumbs and comment blocks that Mozilla's Readability passes over).

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
headings the page marks, no other line. A page that marks no heading is read as lines, as a
copied text is.

The tags are read in one pass from left to right (:func:`_read`), tolerating what browsers
tolerate (unclosed paragraphs and items, stray end tags, upper case, a "<" that opens no tag,
a quote that never closes); each "<" costs a bounded stretch of the text. The standard
library's :class:`html.parser.HTMLParser` was the first reader: on a page with unclosed
quotes or comments it costs the square of the page's length (a quote left open before each
of 8,000 links took 9 s), as CPython's issue of 2025 on it says.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from html import unescape

from ingest.clean_markdown import Heading, Structure
from ingest.models import Edit

STEP = "html"
MARKUP_REASON = "разметка HTML"
HEAD_REASON = "служебная часть страницы HTML (заголовок документа, скрипты, стили)"
SITE_REASON = "меню и оформление сайта ({tag})"
OUTSIDE_REASON = "вне основного текста страницы ({tag})"
HIDDEN_REASON = "скрытая часть страницы HTML"

_START = re.compile(r"\s*+(?:<\?xml[^>]*+>\s*+)?+(?:<!--(?:(?!-->).)*+-->\s*+)*+"
                    r"<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>])",
                    re.IGNORECASE | re.DOTALL)
"""A document's start, past an XML declaration and comments (each comment ends at its own
"-->", and nothing matched is tried again: a text opening with many comments, a template's
"<!-- INCLUDE … -->" lines, costs its length, where ".*?" between them backtracked without
end)."""
_TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9]*(?:\s[^<>]{0,300})?/?>")
_HTML_CHARS = 20_000  # how much of a text is looked at for its markup
_TAGS_PER_CHAR = 1 / 100  # a saved web page holds a tag every few dozen characters at least

VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "param", "source", "track", "wbr"})
_HEAD = frozenset({"head", "script", "style", "noscript", "template", "title"})
"""Elements a reader never sees as the page's text."""
_WIDGETS = frozenset({"svg", "math", "iframe", "object", "canvas", "video", "audio", "button",
                      "select", "textarea", "dialog", "menu"})
"""Elements of the page's machinery: pictures, players, form controls."""
_SITE_TAGS = frozenset({"nav", "aside"})
_FRAME_TAGS = frozenset({"header", "footer"})
"""A page's header and footer: the site's, unless inside an article or the main part (where
they hold the article's title and its signature)."""
_SITE_ROLES = frozenset({"navigation", "complementary", "search", "menu", "menubar",
                         "toolbar"})
_FRAME_ROLES = frozenset({"banner", "contentinfo"})
_MAIN_TAGS = frozenset({"main", "article"})
_UNLIKELY = re.compile(
    r"-ad-|banner|breadcrumb|combx|comment|community|disqus|footer|gdpr|header|menu|"
    r"related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|pagination|"
    r"pager|popup|share|cookie|navbar|topbar|"
    r"no-?print|print-?(?:hide|none)|hidden-print|sr-only|screen-reader|visually-hidden|"
    r"editsection|navbox|catlinks|printfooter|jump-to|mw-jump|\btoc\b|sitesub|contentsub|"
    r"adsbygoogle|advert|reklama|yandex_rtb|\bads?\b|\bad-", re.IGNORECASE)
_MAYBE = re.compile(r"and|article|body|column|content|main|shadow|post|text|entry",
                    re.IGNORECASE)
"""Mozilla Readability's ``unlikelyCandidates`` and ``okMaybeItsACandidate``: class and id
names of a template's parts, and of the parts that hold the text; with the names of what a
page's print style hides ("noprint") or only a screen reader reads ("sr-only"), and MediaWiki's
section edit links, contents box, navigation boxes, category links and the lines under a
page's title ("Материал из Википедии"), and the names of advertisement blocks."""
_FORUM = re.compile(
    r"postprofile|profile-icons|post-buttons|postdetails|signature|back2top|avatar|\bauthor\b|"
    r"user-?info|user_info|reputation|jumpbox|online-list|topic-actions|quickmod|"
    r"display-options", re.IGNORECASE)
"""Class and id names of a forum engine's parts around its posts (phpBB's prosilver:
the author's profile, the post's buttons, its author and date line, the signature, "back to
top", the topic's tools and who is online): a forum's "post" names hold the text
(:data:`_MAYBE`), but these are never the text, whatever else they are named."""
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)

_PARAGRAPH = frozenset({"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl",
                        "table", "blockquote", "pre", "section", "article", "main", "header",
                        "footer", "nav", "aside", "figure", "hr", "address", "details",
                        "summary", "fieldset", "form", "center", "body", "html", "thead",
                        "tbody", "tfoot"})
_LINE = frozenset({"li", "tr", "dt", "dd", "caption", "figcaption", "legend"})
_CELL = frozenset({"td", "th"})
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_WHOLE_PAGE = frozenset({"main", "article", "h1", "h2"})
"""Elements a form built around a whole page holds."""
_NEWLINE_SPACE = re.compile(r"\s*\n\s*")
_REACH = 64
"""How far down the open elements an end tag, or a start tag that closes one, looks for its
element: an end tag whose element is deeper (under thousands of unclosed "<font>" of an old
page) closes nothing, so a tag costs the same however many stand open."""


def is_html(text: str) -> bool:
    """Whether a text is a web page's markup rather than its text: it opens as an HTML
    document does, or it is dense with tags (a fragment of one). A text quoting a tag or two
    ("<b>", a forum's leftover "<br>") is text.

    >>> is_html("<!DOCTYPE html><html><body><p>Паника</p></body></html>")
    True
    >>> is_html("Тег <b> делает текст жирным.")
    False
    """
    head = text[:_HTML_CHARS]
    if _START.match(head):
        return True
    tags = len(_TAG.findall(head))
    return tags >= 20 and tags >= len(head) * _TAGS_PER_CHAR


@dataclass
class _Element:
    tag: str
    start: int  # the start tag's first character
    inner: int  # after the start tag
    attrs: dict[str, str]
    drop: str | None  # why the element is left out whole, or None
    in_main: bool = False  # inside the page's main part, an article or a section
    end: int = -1  # after the end tag (or where the element was closed)
    inner_end: int = -1  # the end tag's first character


@dataclass(frozen=True)
class _Tag:
    start: int
    end: int
    tag: str
    closing: bool
    label: str = ""  # a list item's mark: "•" or its number ("3.")


class _Reader:
    """The tags of a page with their offsets, and its elements' spans (:func:`_read` feeds
    it)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tags: list[_Tag] = []
        self.other: list[tuple[int, int]] = []  # comments, declarations, a script's text
        self.elements: list[_Element] = []
        self.open: list[_Element] = []
        self.counters: list[int] = []  # an ordered list's items so far, per open list

    def _drop(self, tag: str, attrs: dict[str, str]) -> str | None:
        if tag in _HEAD:
            return HEAD_REASON
        if "hidden" in attrs or _HIDDEN_STYLE.search(attrs.get("style") or ""):
            return HIDDEN_REASON
        role = (attrs.get("role") or "").lower()
        inside = bool(self.open) and self.open[-1].in_main
        if tag in _WIDGETS or tag in _SITE_TAGS or role in _SITE_ROLES:
            return SITE_REASON.format(tag=f"<{tag}>")
        if (tag in _FRAME_TAGS or role in _FRAME_ROLES) and not inside:
            return SITE_REASON.format(tag=f"<{tag}>")
        if tag in ("body", "html", "main", "article") or role == "main":
            return None
        names = " ".join(filter(None, (attrs.get("class"), attrs.get("id"))))
        if names and (_FORUM.search(names)
                      or _UNLIKELY.search(names) and not _MAYBE.search(names)):
            shown = " ".join(f'{k}="{attrs[k][:40]}"' for k in ("class", "id") if attrs.get(k))
            return SITE_REASON.format(tag=f"<{tag} {shown}>")
        return None

    def start_tag(self, tag: str, attrs: dict[str, str], start: int, end: int,
                  closed: bool) -> None:
        """A start tag ``text[start:end]``; ``closed``: written "<br/>"."""
        label = ""
        if tag == "body":
            self._close("head", start)
        if tag in ("ul", "ol") and not closed:
            self.counters.append(0 if tag == "ol" else -1)
        if tag == "li":
            if self.counters and self.counters[-1] >= 0:
                self.counters[-1] += 1
                label = f"{self.counters[-1]}."
            else:
                label = "•"
            self._close("li", start, within=("ul", "ol"))
        if tag == "p":
            self._close("p", start, within=("div", "td", "li", "blockquote", "section",
                                            "article", "main", "body"))
        self.tags.append(_Tag(start, end, tag, False, label))
        if tag in VOID or closed:
            return
        element = _Element(tag, start, end, attrs, self._drop(tag, attrs))
        element.in_main = (bool(self.open) and self.open[-1].in_main) or tag in _MAIN_TAGS \
            or tag == "section" or (attrs.get("role") or "").lower() == "main"
        self.open.append(element)
        self.elements.append(element)

    def end_tag(self, tag: str, start: int, end: int) -> None:
        self.tags.append(_Tag(start, end, tag, True))
        if tag in ("ul", "ol") and self.counters:
            self.counters.pop()
        if any(e.tag == tag for e in self.open[-_REACH:]):
            while self.open:
                element = self.open.pop()
                element.inner_end = start
                element.end = end if element.tag == tag else start
                if element.tag == tag:
                    break

    def _close(self, tag: str, at: int, within: tuple[str, ...] = ()) -> None:
        """Close an open ``tag`` that a start tag ends implicitly (a paragraph before the
        next, an item before the next, the head before the body), unless an element of
        ``within`` opened after it."""
        for k in range(len(self.open) - 1, max(-1, len(self.open) - 1 - _REACH), -1):
            if self.open[k].tag == tag:
                for element in self.open[k:]:
                    element.inner_end = element.end = at
                del self.open[k:]
                return
            if self.open[k].tag in within:
                return


_OPENING = re.compile(r"<(?:(/)?([A-Za-z][A-Za-z0-9:._-]*+)|!--|[!?])")
_ATTRIBUTES = re.compile(
    r"""(?:[\s/]*+[^\s"'>/=][^\s"'>/=]*+(?:\s*+=\s*+(?:"[^"]{0,2000}+"|'[^']{0,2000}+'"""
    r"""|[^\s"'>]++))?+|[\s/]++)*+>""")
_ATTRIBUTE = re.compile(r"""([^\s"'>/=][^\s"'>/=]*)"""
                        r"""(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?""")
_TAG_LONGEST = 5_000
"""The most characters a tag may take: a "<" whose tag does not end by then is text, so
each "<" is looked at for a bounded stretch however the page is broken (unclosed quotes,
a "<" before every word)."""
_RAW = frozenset({"script", "style"})
"""Elements whose text is no markup: their end tag alone ends them."""


def _read(text: str) -> _Reader:
    """A page's tags, comments, declarations and scripts, read left to right in one pass,
    as browsers tolerate them (unclosed paragraphs and items, stray end tags, upper case, a
    "<" that opens no tag); each "<" costs a bounded stretch of the text (:data:`_TAG_LONGEST`),
    an unclosed comment or script the rest of it, once."""
    reader = _Reader(text)
    low = text.lower()
    last_gt = text.rfind(">")
    pos = 0
    while (at := text.find("<", pos)) >= 0:
        m = _OPENING.match(text, at)
        if m is None or at > last_gt and m.group(0) != "<!--":
            pos = at + 1  # ("< 3", "<<", or no ">" after it: text)
            continue
        if m.group(0) == "<!--":
            close = low.find("-->", m.end())
            end = close + 3 if close >= 0 else len(text)
            reader.other.append((at, end))
            pos = end
            continue
        if m.group(2) is None:  # "<!DOCTYPE …>", "<![CDATA[…]]>", "<?xml …?>"
            end = text.find(">", m.end()) + 1
            reader.other.append((at, end))
            pos = end
            continue
        tag = m.group(2).lower()
        rest = _ATTRIBUTES.match(text, m.end(), min(len(text), at + _TAG_LONGEST))
        if rest is None:
            pos = at + 1
            continue
        end = rest.end()
        if m.group(1):
            reader.end_tag(tag, at, end)
            pos = end
            continue
        attrs: dict[str, str] = {}
        for a in _ATTRIBUTE.finditer(text, m.end(), end - 1):
            attrs.setdefault(a.group(1).lower(), next(
                (v for v in a.group(2, 3, 4) if v is not None), ""))
        closed = text[end - 2] == "/"  # ("<br/>", "<div />")
        reader.start_tag(tag, attrs, at, end, closed)
        pos = end
        if tag in _RAW and not closed:
            close = low.find(f"</{tag}", end)
            stop = close if close >= 0 else len(text)
            if stop > end:
                reader.other.append((end, stop))
            pos = stop
    for element in reader.open:  # never closed: its start tag alone is markup, its text kept
        element.end = element.inner_end = len(text)
        if element.drop is not None and element.tag not in ("head", "script", "style"):
            element.drop = None
    # a form is the page's machinery (an order form, a comment box, a login), unless the page
    # is built inside one (ASP.NET's pages are): it holds the page's main heading or its text
    holders = sorted(e.start for e in reader.elements if e.tag in _WHOLE_PAGE)
    for element in reader.elements:
        if element.tag == "form" and element.drop is None and element.end > element.start:
            k = bisect_right(holders, element.start)
            if k >= len(holders) or holders[k] >= element.end:
                element.drop = SITE_REASON.format(tag="<form>")
    return reader


def _drops(reader: _Reader, size: int) -> list[tuple[int, int, str]]:
    """The spans left out whole, with why: the site's parts, and what lies outside the page's
    main part or its articles where it marks them. Outermost first, in order."""
    spans = [(e.start, e.end, e.drop) for e in reader.elements if e.drop is not None]
    main = [e for e in reader.elements
            if e.tag == "main" or (e.attrs.get("role") or "").lower() == "main"]
    keep = main or [e for e in reader.elements if e.tag == "article"]
    if keep:
        reason = OUTSIDE_REASON.format(tag=f"<{keep[0].tag}>" if keep[0].tag in _MAIN_TAGS
                                       else 'role="main"')
        kept = _outermost([(e.start, e.end, "") for e in keep])
        pos = 0
        for start, end, _ in kept:
            if start > pos:
                spans.append((pos, start, reason))
            pos = max(pos, end)
        if pos < size:
            spans.append((pos, size, reason))
    return _outermost(spans)


def _outermost(spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    for span in sorted(spans, key=lambda s: (s[0], -s[1])):
        if out and span[0] < out[-1][1]:
            continue
        if span[1] > span[0]:
            out.append(span)
    return out


@lru_cache(maxsize=2)
def _parsed(text: str) -> tuple[_Reader, list[tuple[int, int, str]]]:
    """A page's tags and elements, and the spans left out whole: read once for the cleaning
    step and the headings both (the source and the text the step is given are one string
    unless the page's lines end in "\\r\\n")."""
    reader = _read(text)
    return reader, _drops(reader, len(text))


def _pre(reader: _Reader) -> list[tuple[int, int]]:
    return [(e.inner, e.inner_end) for e in reader.elements if e.tag == "pre"]


def html(text: str) -> list[Edit]:
    """The edits that turn a web page's markup into its text (the module's docstring); none
    for a text that is not one (:func:`is_html`).

    >>> page = "<html><body><nav>Главная | Форум</nav><h2>Паника</h2><p>Тест\\nна Панику.</p>"
    >>> from ingest.clean import apply_edits, identity_offsets
    >>> apply_edits(page, identity_offsets(len(page) + 1), html(page), page)[0]
    'Паника\\n\\nТест на Панику.\\n'
    """
    if not is_html(text):
        return []
    reader, drops = _parsed(text)
    pieces: list[tuple[int, int, str]] = []  # markup and dropped spans: (start, end, reason)
    pieces += [(s, e, why) for s, e, why in drops]
    pieces += [(t.start, t.end, MARKUP_REASON) for t in reader.tags]
    pieces += [(s, e, MARKUP_REASON) for s, e in reader.other]
    pieces = _outermost(pieces)
    tag_at = {t.start: t for t in reader.tags}
    pre = _pre(reader)
    pre_starts = [a for a, _ in pre]

    def in_pre(at: int) -> bool:
        k = bisect_right(pre_starts, at) - 1
        return k >= 0 and pre[k][0] <= at < pre[k][1]

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
                if why != MARKUP_REASON and why != HIDDEN_REASON:
                    newlines = 2  # (a site's part, the head: a block of the page)
                continue
            if tag.tag in _PARAGRAPH:
                newlines = 2
            elif tag.tag == "br":
                newlines = min(2, newlines + 1)
            elif tag.tag in _LINE:
                newlines = max(newlines, 1)
                if tag.label:
                    label = tag.label + " "
            elif tag.tag in _CELL:
                space = True
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
_BEFORE = re.compile(r"(?:\s|<[^<>]*>)*\Z")
_MINOR = 7
"""The level of a name set apart in bold or as a term: under the page's every heading."""


def _set_apart(reader: _Reader, text: str, dropped: Callable[[int], bool],
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
    reader, drops = _parsed(text)
    starts = [s for s, _, _ in drops]

    def dropped(at: int) -> bool:
        k = bisect_right(starts, at) - 1
        return k >= 0 and drops[k][0] <= at < drops[k][1]

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


def page_text(text: str) -> str:
    """The text a reader sees of a web page (the edits of :func:`html` applied), or ``text``
    itself when it is no web page: what the game is judged by.

    >>> page_text("<html><body><h2>Паника</h2><p>Тест на Панику.</p></body></html>")
    'Паника\\n\\nТест на Панику.\\n'
    """
    edits = html(text)
    if not edits:
        return text
    kept, pos = [], 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        kept.append(text[pos:edit.start])
        kept.append(edit.replacement)
        pos = edit.end
    kept.append(text[pos:])
    return "".join(kept)


_TITLE = re.compile(r"<title[^>]*>(.*?)</title\s*>", re.IGNORECASE | re.DOTALL)


def title_and_text(text: str) -> str:
    """A web page's title (``<title>``, the browser's tab: where a copy of a book names it)
    over the text its reader sees, for the book's name to be looked for; ``text`` itself when
    it is no web page.

    >>> title_and_text("<html><head><title>Книга правил</title></head><body><p>Паника</p>")
    'Книга правил\\nПаника\\n'
    """
    if not is_html(text):
        return text
    m = _TITLE.search(text, 0, _HTML_CHARS)
    title = " ".join(unescape(m.group(1)).split()) if m else ""
    return f"{title}\n{page_text(text)}" if title else page_text(text)


_INVISIBLE = re.compile(r"<!--|<(script|style|noscript|template)\b", re.IGNORECASE)
_ANY_TAG = re.compile(r"<[^<>]*>")


def _shown(text: str) -> str:
    """``text`` without its comments, scripts, styles and templates, each looked for once
    (an unclosed one hides the rest, as a browser hides it): a page of many unclosed
    "<script>" costs its length."""
    low = text.lower()
    out, pos = [], 0
    while (m := _INVISIBLE.search(text, pos)) is not None:
        out.append(text[pos:m.start()])
        if m.group(1) is None:
            end = low.find("-->", m.end())
            pos = end + 3 if end >= 0 else len(text)
        else:
            end = low.find(f"</{m.group(1).lower()}", m.end())
            pos = (low.find(">", end) + 1 or len(text)) if end >= 0 else len(text)
    out.append(text[pos:])
    return " ".join(out)


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
    return unescape(_ANY_TAG.sub(" ", _shown(text)).replace("<", " "))
