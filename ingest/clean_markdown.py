"""A rule text written in Markdown (a ``.md`` file, a repository's or a wiki's page).

Markdown marks what a web page's layout leaves to be guessed: a heading and its level ("#",
"##" … before it, or a line of "=" or "-" under it), a quotation ("> " before each line). So
a text in Markdown is read by its marks (:func:`markdown_structure`; the segmenter hangs each
heading under the nearest one above it of a higher level, and takes no other line for a
heading), and the cleaning step :func:`markdown` removes the marks from the text, each as an
edit accounted for like any other ("разметка Markdown"):

* a heading's "#" marks (and the closing ones a heading may repeat after it), a heading's
  underline;
* emphasis around words ("**Непоколебимость**", "*Ужас*", "__…__"), an inline code's
  backticks, a backslash that escapes a mark ("\\*");
* a link's brackets and its address ("[Паника](panic.md)" → "Паника", "[Паника][1]" and the
  line "[1]: panic.md"), an image whole;
* a code fence's line, a thematic break ("---", "***"), a table's rule row ("|---|:--:|"), an
  HTML comment, a heading's anchor ("## Паника {#panic}");
* a site generator's metadata above the text ("---" / "title: …" / "---"), as metadata;
* a quotation's "> " (its words stay, as flavour: :func:`markdown_structure`);
* a list item's "*" or "+" becomes a bullet, "•" (a "-" is one already).

A text is taken for Markdown when a line of it is a heading so marked ("## Паника": one to
six "#", a space, words): no rule text of a book or a web page's copy opens a line so; or when
two lines of it are set in bold from end to end ("**Паника**", a chat's or a forum's Markdown,
whose headings have no "#": its lines are then read as a web page's, the marks gone). A text
of neither is left alone whatever marks it holds (an asterisk of a footnote, "Ужас*").
Inside a code block ("```" … "```", or four spaces before each line) nothing is a mark.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from ingest.clean_edits import first_fit
from ingest.models import Edit

STEP = "markdown"
REASON = "разметка Markdown"
FRONT_MATTER_REASON = "метаданные страницы над текстом (front matter), не правила"

_ATX = re.compile(r"^[ ]{0,3}(#{1,6})[ \t]+(?=[^\n#]*[^\W\d_])([^\n\r]*?)(?:[ \t]+#+)?[ \t\r]*$",
                  re.MULTILINE)
"""A line marked as a heading with "#": its marks (group 1) and its words (group 2); a
heading when its words are words (:func:`_atx`)."""
_LETTERS_SHARE = 0.6
"""Of a marked heading's characters (spaces aside), the share that letters make at least: a
PDF's scrambled formula ("## P = n!= 1 2 3...( n 1)n;1!= 1") opens with the marks, not a
heading."""
_FENCE = re.compile(r"^[ ]{0,3}(?:`{3,}|~{3,})[^\n]*$", re.MULTILINE)
_SETEXT = re.compile(r"^[ ]{0,3}(=+|-+)[ \t\r]*$")
_BREAK = re.compile(r"^[ ]{0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})\r?$")
_TABLE_RULE = re.compile(
    r"^[ \t]*+\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t\r]*$")
_QUOTE = re.compile(r"^[ ]{0,3}(>[ \t]?)+")
_LIST_MARK = re.compile(r"^([ \t]*)([*+])[ \t]+(?=\S)")
_INDENTED_CODE = "    "
# inline: code first (nothing inside it is a mark), then images, links, emphasis, escapes
_CODE_SPAN = re.compile(r"(`+)(?=[^`\n])([^\n]*?[^`\n])\1(?!`)")
_IMAGE = re.compile(r"!\[[^\]\n]*\]\([^)\n]*\)")
_LINK = re.compile(r"(\[)[^\]\n]+(\]\([^)\n]*\)|\]\[[^\]\n]*\])")
_STRONG = re.compile(r"(?<![\\\w*_])(\*\*|__)(?=[^\s*_])[^\n]*?(?<=[^\s\\*_])(\1)(?![\w*_])")
_EMPHASIS = re.compile(r"(?<![\\\w*_])([*_])(?=[^\s*_])[^\n]*?(?<=[^\s\\*_])(\1)(?![\w*_])")
_ESCAPE = re.compile(r"\\(?=[\\`*_{}\[\]()#+\-.!|>])")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_FRONT_MATTER = re.compile(r"\A(---|\+\+\+)[ \t]*\r?\n(?:[^\n]*\n){0,60}?\1[ \t]*\r?(?:\n|\Z)")
"""A site generator's metadata above the text (Jekyll's, Hugo's: "---" / "title: Паника" /
"---"), up to 60 lines."""
_ANCHOR = re.compile(r"[ \t]*\{#[^{}\n]*\}[ \t]*$")
"""A heading's anchor after its words ("## Паника {#panic}", Pandoc's and kramdown's)."""
_LINK_DEFINITION = re.compile(r"^[ ]{0,3}\[[^\]\n]+\]:[ \t]+\S+(?:[ \t]+[\"'(][^\n]*)?[ \t\r]*$")
"""A reference link's address on a line of its own ("[1]: https://…")."""


def _atx(line: str, pos: int = 0) -> re.Match[str] | None:
    """The heading marked with "#" at ``pos`` of ``line`` (:data:`_ATX`), if its words are
    words (:data:`_LETTERS_SHARE`)."""
    m = _ATX.match(line, pos)
    if m is None:
        return None
    chars = [c for c in m.group(2) if not c.isspace()]
    letters = sum(1 for c in chars if c.isalpha())
    return m if letters >= _LETTERS_SHARE * len(chars) else None


@dataclass(frozen=True)
class Heading:
    """A heading a Markdown text marks: where its words stand in the text (offsets of the
    text given to :func:`markdown_structure`) and its level (1 for "#" and "=", 2 for "##" and
    "-", …)."""

    start: int
    end: int
    level: int


@dataclass(frozen=True)
class Structure:
    """What the marks of a Markdown text say: its headings and its quotations' lines (spans
    of their words)."""

    headings: tuple[Heading, ...]
    quotes: tuple[tuple[int, int], ...]


_STRONG_LINE = re.compile(r"^[ \t]*+(\*\*|__)(?=[^\s*_])[^\n*_]{1,80}(?<=[^\s*_])\1[ \t:.]*\r?$",
                          re.MULTILINE)
"""A line set in bold from end to end ("**Паника**"): a chat's or a forum's Markdown marks its
headings so, with no "#"."""
_STRONG_LINES = 2


def is_markdown(text: str) -> bool:
    """Whether a text is written in Markdown: a line of it is a heading marked with "#", or
    two lines or more are set in bold from end to end (:data:`_STRONG_LINE`: a chat's copy).

    >>> is_markdown("# Паника\\n\\nПодразделение …"), is_markdown("#warhammer #40k\\nТекст")
    (True, False)
    >>> is_markdown("**Паника**\\nТекст.\\n**Ужас**\\nТекст."), is_markdown("**Паника** и текст")
    (True, False)
    """
    if "#" in text and any(_atx(text, m.start()) for m in _ATX.finditer(text)):
        return True
    if "**" not in text and "__" not in text:
        return False
    found = 0
    for _ in _STRONG_LINE.finditer(text):
        found += 1
        if found >= _STRONG_LINES:
            return True
    return False


def markdown_structure(text: str) -> Structure | None:
    """The headings and quotations a Markdown text marks, or None for a text that is not one
    (:func:`is_markdown`).

    >>> text = "# Паника\\n\\nТекст.\\n\\n## Ужас ##\\n\\n> Цитата\\n"
    >>> s = markdown_structure(text)
    >>> [(text[h.start:h.end], h.level) for h in s.headings], [text[a:b] for a, b in s.quotes]
    ([('Паника', 1), ('Ужас', 2)], ['Цитата'])
    """
    if not is_markdown(text):
        return None
    headings: list[Heading] = []
    quotes: list[tuple[int, int]] = []
    lines = _lines(text)
    for start, line, kind in lines:
        if kind != "text":
            continue
        m = _atx(line)
        if m:
            anchor = _ANCHOR.search(line, m.start(2), m.end(2))
            words_end = anchor.start() if anchor else m.end(2)
            headings.append(Heading(start + m.start(2), start + words_end, len(m.group(1))))
            continue
        q = _QUOTE.match(line)
        if q and line[q.end():].strip():
            span = (start + q.end(), start + len(line.rstrip()))
            if quotes and text.count("\n", quotes[-1][1], span[0]) == 1:
                span = (quotes.pop()[0], span[1])  # (a quotation's next line goes on with it)
            quotes.append(span)
    for start, line, level in _setext(lines):
        headings.append(Heading(start + len(line) - len(line.lstrip()),
                                start + len(line.rstrip()), level))
    return Structure(tuple(sorted(headings, key=lambda h: h.start)), tuple(quotes))


def markdown(text: str) -> list[Edit]:
    """The edits that remove a Markdown text's marks (the module's docstring); none for a
    text that is not one."""
    if not is_markdown(text):
        return []
    edits: list[Edit] = [_removed(m.start(), m.end()) for m in _COMMENT.finditer(text)]
    front = _FRONT_MATTER.match(text)
    if front:
        edits.append(Edit(0, front.end(), "", STEP, FRONT_MATTER_REASON))
    lines = _lines(text)
    underlines = {start for start, _, _ in _setext(lines, underline=True)}
    for start, line, kind in lines:
        end = start + len(line)
        if kind == "fence" or start in underlines or _BREAK.match(line) \
                or _TABLE_RULE.match(line) and "|" in line or _LINK_DEFINITION.match(line):
            edits.append(_removed(start, end))
            continue
        if kind == "code":
            continue
        m = _atx(line)
        if m:
            words_end = m.end(2)
            anchor = _ANCHOR.search(line, m.start(2), words_end)
            if anchor:
                words_end = anchor.start()
            edits.append(_removed(start, start + m.start(2)))
            if words_end < len(line):
                edits.append(_removed(start + words_end, end))
            edits += _inline(line[m.start(2):words_end], start + m.start(2))
            continue
        at = 0
        q = _QUOTE.match(line)
        if q:
            edits.append(_removed(start, start + q.end()))
            at = q.end()
        item = _LIST_MARK.match(line, at)
        if item:
            edits.append(Edit(start + item.start(2), start + item.end(2), "•", STEP, REASON))
            at = item.end(2)
        edits += _inline(line[at:], start + at)
    return first_fit(edits)


def _removed(start: int, end: int) -> Edit:
    return Edit(start, end, "", STEP, REASON)


def _inline(line: str, offset: int) -> list[Edit]:
    """The edits of a line's inline marks (``offset``: where the line stands in the text)."""
    if not any(ch in line for ch in "`[*_\\"):
        return []
    edits: list[Edit] = []
    taken = bytearray(len(line))  # the characters a mark found already holds (a text run into
    # one line may hold many marks: each is looked up where it stands, not against all before)

    def free(a: int, b: int) -> bool:
        return taken.find(1, a, b) < 0

    def take(a: int, b: int) -> None:
        taken[a:b] = b"\x01" * (b - a)

    for m in _CODE_SPAN.finditer(line):
        edits += [_removed(offset + m.start(), offset + m.start(2)),
                  _removed(offset + m.end(2), offset + m.end())]
        take(*m.span())
    for m in _IMAGE.finditer(line):
        if free(*m.span()):
            edits.append(_removed(offset + m.start(), offset + m.end()))
            take(*m.span())
    for m in _LINK.finditer(line):
        if free(*m.span()):
            edits += [_removed(offset + m.start(1), offset + m.end(1)),
                      _removed(offset + m.start(2), offset + m.end(2))]
            take(*m.span(1))
            take(*m.span(2))
    for pattern in (_STRONG, _EMPHASIS):
        for m in pattern.finditer(line):
            if free(*m.span(1)) and free(*m.span(2)):
                edits += [_removed(offset + m.start(1), offset + m.end(1)),
                          _removed(offset + m.start(2), offset + m.end(2))]
                take(*m.span(1))
                take(*m.span(2))
    for m in _ESCAPE.finditer(line):
        if free(m.start(), m.start() + 2):
            edits.append(_removed(offset + m.start(), offset + m.end()))
    return edits


def _lines(text: str) -> list[tuple[int, str, str]]:
    """(start, line, kind) of each line: "fence" (a code fence's own line), "code" (inside a
    fenced or indented code block) or "text"."""
    out = []
    start = 0
    fenced = False
    previous_blank = True
    for line in text.split("\n"):
        if _FENCE.match(line):
            out.append((start, line, "fence"))
            fenced = not fenced
        elif fenced or (previous_blank and line.startswith(_INDENTED_CODE) and line.strip()
                        and not _LIST_MARK.match(line) and not line.lstrip().startswith("-")):
            out.append((start, line, "code"))
            previous_blank = False
            start += len(line) + 1
            continue
        else:
            out.append((start, line, "text"))
        previous_blank = not line.strip()
        start += len(line) + 1
    return out


def _setext(lines: list[tuple[int, str, str]], underline: bool = False
            ) -> list[tuple[int, str, int]]:
    """The headings marked by a line of "=" or "-" under them: (start, line, level) of each
    heading's line, or with ``underline`` of each underline. A line under a blank line, a list
    item or a heading marked with "#" is no heading ("---" there is a thematic break)."""
    out = []
    for (start, line, kind), (u_start, u_line, u_kind) in pairwise(lines):
        m = _SETEXT.match(u_line)
        if m is None or kind != "text" or u_kind != "text" or not line.strip() \
                or _atx(line) or _QUOTE.match(line) or _LIST_MARK.match(line) \
                or line.lstrip().startswith(("-", "|")) or _BREAK.match(line):
            continue
        level = 1 if m.group(1).startswith("=") else 2
        out.append((u_start, u_line, level) if underline else (start, line, level))
    return out
