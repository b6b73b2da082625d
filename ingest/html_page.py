"""A web page's markup read: its tags with their offsets, its elements, and the parts of it
that are the site's rather than the text (:func:`parsed`), for :mod:`ingest.clean_html`.

The tags are read in one pass from left to right (:func:`_read`), tolerating what browsers
tolerate (unclosed paragraphs and items, stray end tags, upper case, a "<" that opens no tag,
a quote that never closes); each "<" costs a bounded stretch of the text. The standard
library's :class:`html.parser.HTMLParser` was the first reader: on a page with unclosed
quotes or comments it costs the square of the page's length (a quote left open before each
of 8,000 links took 9 s), as CPython's issue of 2025 on it says.

What is the site's: the document's head, scripts and styles; HTML5's ``<nav>``, ``<aside>``,
the page's ``<header>`` and ``<footer>`` (an article's own stay); ARIA's roles of the same
parts; forms (unless the page is built inside one), controls and hidden parts; the class and
id names of menus, sidebars, breadcrumbs and comment blocks that Mozilla's Readability passes
over, of what a print style hides, of adverts, of MediaWiki's boxes and a forum's parts around
its posts; everything outside the page's ``<main>`` or its ``<article>`` elements; and,
whatever the site names them, a block whose words are mostly links to other pages (an old
page's table cell of menu links, a footer's row of them) and, on a page that marks no main
part, what lies outside the block its paragraphs stand in (Readability's link density and
content score: :mod:`ingest.html_density`). HTML inside a Markdown text
(:func:`has_fragments`) is markup inside it, none of it a template.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import lru_cache

from ingest.clean_markdown import is_markdown
from ingest.html_attributes import AttributeScan
from ingest.html_density import MAIN_REASON, Counts, Links, link_menus, main_part, outermost

MARKUP_REASON = "разметка HTML"
HEAD_REASON = "служебная часть страницы HTML (заголовок документа, скрипты, стили)"
SITE_REASON = "меню и оформление сайта ({tag})"
OUTSIDE_REASON = "вне основного текста страницы ({tag})"
HIDDEN_REASON = "скрытая часть страницы HTML"
FOOTNOTE_REASON = "знак сноски (<sup>)"
INLINE_REASONS = frozenset({HIDDEN_REASON, FOOTNOTE_REASON})
"""Reasons of parts left out inside a line: no block of the page, no paragraph's end."""

_START = re.compile(r"\s*+(?:<\?xml[^>]*+>\s*+)?+(?:<!--(?:(?!-->).)*+-->\s*+)*+"
                    r"<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>])",
                    re.IGNORECASE | re.DOTALL)
"""A document's start, past an XML declaration and comments (each comment ends at its own
"-->", and nothing matched is tried again: a text opening with many comments, a template's
"<!-- INCLUDE … -->" lines, costs its length, where ".*?" between them backtracked without
end)."""
_TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9]*(?:\s[^<>]{0,300})?/?>")
HTML_CHARS = 20_000  # how much of a text is looked at for its markup
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
_PAGE_TITLE = re.compile(r"page-?(?:header|title)", re.IGNORECASE)
"""The part over a page's text that holds its title (Bootstrap's "page-header" around the
``<h1>``): a header by its name, but the page's, not the site's."""
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
_WHOLE_PAGE = frozenset({"main", "article", "h1", "h2"})
"""Elements a form built around a whole page holds."""
_REACH = 64
"""How far down the open elements an end tag, or a start tag that closes one, looks for its
element: an end tag whose element is deeper (under thousands of unclosed "<font>" of an old
page) closes nothing, so a tag costs the same however many stand open."""


def is_html(text: str) -> bool:
    """Whether a text is a web page's markup rather than its text: it opens as an HTML
    document does, or it is dense with tags (a fragment of one). A text quoting a tag or two
    ("<b>", a forum's leftover "<br>") is text, its leftovers read by :func:`has_fragments`.

    >>> is_html("<!DOCTYPE html><html><body><p>Паника</p></body></html>")
    True
    >>> is_html("Тег <b> делает текст жирным.")
    False
    """
    head = text[:HTML_CHARS]
    if _START.match(head):
        return True
    tags = len(_TAG.findall(head))
    return tags >= 20 and tags >= len(head) * _TAGS_PER_CHAR and not is_markdown(head)


def has_fragments(text: str) -> bool:
    """Whether a text that is no web page holds HTML of its own, to be read as markup inside
    it (:func:`ingest.clean_html.html`), its own lines kept:

    * a text written in Markdown (:func:`ingest.clean_markdown.is_markdown`), however dense
      its tags: Markdown lets a text write a table, a line break or a bold run in HTML, and a
      profile table is often so written;
    * a text copied with the markup's leftovers: a line break ("<br>", "<br />") or an
      inline tag closed around words ("<b>Паника</b>") of a forum's post or a database's
      field. A tag named in prose ("Тег <b> делает текст жирным.") is none.

    >>> has_fragments("## Оружие\\n\\n<table><tr><td>Болтер</td><td>24\\"</td></tr></table>")
    True
    >>> has_fragments("Паника.<br>Если провалит — бежит."), has_fragments("<b>Ужас</b> и страх")
    (True, True)
    >>> has_fragments("Тег <b> делает текст жирным."), has_fragments("Пушка <Heavy 3>.")
    (False, False)
    """
    return _FRAGMENT_TAG.search(text) is not None and not is_html(text) and (
        _LEFTOVER.search(text) is not None or is_markdown(text))


_LEFTOVER = re.compile(
    r"(?<!\s)<br\s*/?>|<br\s*/?>(?!\s)|<br\s*/>"
    r"|(<(b|i|u|s|em|strong|p|sup|sub|font|span|small|big)(?:\s[^<>]{0,200})?>)"
    r"[^<>\n]{1,500}(</\2>)", re.IGNORECASE)
"""A line break not set apart by spaces as a word is ("тест.<br>Если", "<br />"), or an
inline tag closed around words: the markup's leftovers in a text."""


def leftover_tags(text: str) -> set[int]:
    """Where the markup's leftovers in a text that is neither a page nor Markdown start
    (:data:`_LEFTOVER`: its line breaks, and both tags of an inline tag closed around words):
    the only tags such a text holds; any other ("Тег <i> пишут …") is words."""
    starts: set[int] = set()
    for m in _LEFTOVER.finditer(text):
        if m.group(1) is None:
            starts.add(m.start())
        else:
            starts.update((m.start(1), m.start(3)))
    return starts


FRAGMENT_TAGS = frozenset({
    "table", "thead", "tbody", "tfoot", "tr", "td", "th", "caption", "colgroup", "col", "p",
    "br", "div", "span", "b", "i", "u", "s", "em", "strong", "a", "img", "ul", "ol", "li", "dl",
    "dt", "dd", "sup", "sub", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "details", "summary",
    "blockquote", "font", "center", "small", "big", "del", "ins", "kbd", "code", "pre"})
"""The tags of HTML that a Markdown text may hold (a word in angle brackets, "<Heavy>", is
none of them)."""
_FRAGMENT_TAG = re.compile(r"</?(?:" + "|".join(sorted(FRAGMENT_TAGS, key=len, reverse=True))
                           + r")(?:\s[^<>]{0,300})?/?>", re.IGNORECASE)


@dataclass
class Element:
    """An element of the page: its tag, where it stands, and whether it is left out."""

    tag: str
    start: int  # the start tag's first character
    inner: int  # after the start tag
    attrs: dict[str, str]
    drop: str | None  # why the element is left out whole, or None
    in_main: bool = False  # inside the page's main part, an article or a section
    end: int = -1  # after the end tag (or where the element was closed)
    inner_end: int = -1  # the end tag's first character
    parent: Element | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class Tag:
    """A start or end tag where it stands (``text[start:end]``)."""

    start: int
    end: int
    tag: str
    closing: bool
    label: str = ""  # a list item's mark: "•" or its number ("3.")


class Reader:
    """The tags of a page with their offsets, and its elements' spans (:func:`_read` feeds
    it)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tags: list[Tag] = []
        self.other: list[tuple[int, int]] = []  # comments, declarations, a script's text
        self.elements: list[Element] = []
        self.open: list[Element] = []
        self.counters: list[int] = []  # an ordered list's items so far, per open list
        self.content: list[Element] = []  # on a page that marks no main part, the blocks
        # holding its text by where its paragraphs stand (ingest.html_density.main_part)
        self.data_tables: list[tuple[int, int]] | None = None  # (ingest.html_density)

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
        if names and (_FORUM.search(names) or _UNLIKELY.search(names)
                      and not _MAYBE.search(names) and not _PAGE_TITLE.search(names)):
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
        self.tags.append(Tag(start, end, tag, False, label))
        if tag in VOID or closed:
            return
        element = Element(tag, start, end, attrs, self._drop(tag, attrs),
                          parent=self.open[-1] if self.open else None)
        element.in_main = (bool(self.open) and self.open[-1].in_main) or tag in _MAIN_TAGS \
            or tag == "section" or (attrs.get("role") or "").lower() == "main"
        self.open.append(element)
        self.elements.append(element)

    def end_tag(self, tag: str, start: int, end: int) -> None:
        self.tags.append(Tag(start, end, tag, True))
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
_ATTRIBUTE = re.compile(r"""([^\s"'>/=][^\s"'>/=]*)"""
                        r"""(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?""")
_TAG_LONGEST = 5_000
"""The most characters a tag may take: a "<" whose tag does not end by then is text, so
each "<" is looked at for a bounded stretch however the page is broken (unclosed quotes,
a "<" before every word)."""
_FOOTNOTE = re.compile(r"\s*(?:\[?\d{1,3}\]?|\*{1,3}|†{1,2})\s*")
ANY_TAG = re.compile(r"<[^<>]*>")
_RAW = frozenset({"script", "style"})
"""Elements whose text is no markup: their end tag alone ends them."""


def _read(text: str, page: bool = True) -> Reader:
    """A page's tags, comments, declarations and scripts, read left to right in one pass,
    as browsers tolerate them (unclosed paragraphs and items, stray end tags, upper case, a
    "<" that opens no tag); each "<" looks at a bounded stretch of the text
    (:data:`_TAG_LONGEST`), what an earlier "<" read of it not read again
    (:class:`ingest.html_attributes.AttributeScan`), an unclosed comment or script the rest of
    it, once."""
    reader = Reader(text)
    attributes = AttributeScan(text)  # (a "<" in a stretch read before goes on where it ended)
    low = text.lower()
    last_gt = text.rfind(">")
    gt = -1  # the first ">" after the tag's name read last (found once for every "<" before it)
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
        if gt < m.end():
            gt = text.find(">", m.end())
        if gt >= at + _TAG_LONGEST:  # (no ">" within its reach: text, found without reading
            # its reach, or a "<" before every word of a long text cost 5,000 characters each)
            pos = at + 1
            continue
        found = attributes.end(m.end(), min(len(text), at + _TAG_LONGEST))
        if found is None:
            pos = at + 1
            continue
        end = found
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
    # a footnote's mark raised after a word ("Ужас<sup>1</sup>", a wiki's "<sup>[2]</sup>")
    # is the notes' apparatus, no part of the word
    for element in reader.elements:
        if element.tag == "sup" and element.drop is None and element.start > 0 \
                and text[element.start - 1].isalpha() \
                and _FOOTNOTE.fullmatch(ANY_TAG.sub("", text[element.inner:element.inner_end])):
            element.drop = FOOTNOTE_REASON
    # a form is the page's machinery (an order form, a comment box, a login), unless the page
    # is built inside one (ASP.NET's pages are): it holds the page's main heading or its text
    holders = sorted(e.start for e in reader.elements if e.tag in _WHOLE_PAGE)
    for element in reader.elements:
        if element.tag == "form" and element.drop is None and element.end > element.start:
            k = bisect_right(holders, element.start)
            if k >= len(holders) or holders[k] >= element.end:
                element.drop = SITE_REASON.format(tag="<form>")
    if not page:
        return reader  # (HTML inside a Markdown text: no template around it)
    counts = Counts(reader, text)
    links = Links(reader, counts)
    link_menus(reader, counts, links)
    if not any(e.tag in _MAIN_TAGS or (e.attrs.get("role") or "").lower() == "main"
               for e in reader.elements):
        reader.content = main_part(reader, counts, links)
    return reader


def _drops(reader: Reader, size: int) -> list[tuple[int, int, str]]:
    """The spans left out whole, with why: the site's parts, and what lies outside the page's
    main part or its articles where it marks them. Outermost first, in order."""
    spans = [(e.start, e.end, e.drop) for e in reader.elements if e.drop is not None]
    main = [e for e in reader.elements
            if e.tag == "main" or (e.attrs.get("role") or "").lower() == "main"]
    keep = main or [e for e in reader.elements if e.tag == "article"]
    reason = OUTSIDE_REASON.format(tag=f"<{keep[0].tag}>" if keep[0].tag in _MAIN_TAGS
                                   else 'role="main"') if keep else ""
    if not keep and reader.content:
        keep = reader.content
        reason = MAIN_REASON.format(tag=keep[0].tag)
    if keep:
        kept = outermost([(e.start, e.end, "") for e in keep])
        pos = 0
        for start, end, _ in kept:
            if start > pos:
                spans.append((pos, start, reason))
            pos = max(pos, end)
        if pos < size:
            spans.append((pos, size, reason))
    return outermost(spans)


def parsed(text: str, page: bool = True) -> tuple[Reader, list[tuple[int, int, str]]]:
    """A page's tags and elements, and the spans left out whole: read once for the cleaning
    step and the headings both (the source and the text the step is given are one string
    unless the page's lines end in "\\r\\n"). Not ``page``: HTML inside a Markdown text
    (:func:`has_fragments`), whose elements are left out only for what they are (a script,
    a hidden part), never for where they stand."""
    return _parsed(text, page)  # (``page`` always passed: the cache keys ``parsed(text)`` and
    # ``parsed(text, True)`` apart, and a page was read twice, once for its title)


@lru_cache(maxsize=2)
def _parsed(text: str, page: bool) -> tuple[Reader, list[tuple[int, int, str]]]:
    reader = _read(text, page)
    if not page:
        return reader, outermost([(e.start, e.end, e.drop) for e in reader.elements
                                  if e.drop is not None])
    return reader, _drops(reader, len(text))
