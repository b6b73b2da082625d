"""Stage 2: clean a rule text, keeping a map of every character back to the source.

Cleaning is a list of named steps (:data:`STEPS`) run in a fixed order. A step reads the
current text and proposes edits (:class:`~ingest.models.Edit`: start, end, replacement,
reason); one shared function, :func:`apply_edits`, applies them in a single pass, extends the
offset map and records each edit as a :class:`~ingest.models.Change` in terms of the original
source. Nothing leaves a text without a ``Change``: that is the removed-text account.

The steps, in order:

``line_endings``
    ``\\r\\n`` and ``\\r`` become ``\\n``.
``html``
    A web page saved as HTML becomes its text: its tags go (a paragraph's end a blank line,
    an item a "•" line), and so do its head, scripts and the site's parts (``<nav>``,
    ``<header>``, what lies outside its ``<main>``) (:mod:`ingest.clean_html`).
``html_entities``
    An HTML character reference becomes its character: "&nbsp;" → a no-break space,
    "&laquo;" → "«", "&#171;" → "«".
``combining_marks``
    A letter written as a base letter and a separate mark ("и" + "̆") becomes one ("й").
``mixed_scripts``
    A word typed in two alphabets is written in one: "Эпохa" (a Latin "a") → "Эпоха",
    "Сounteract" (a Cyrillic "С") → "Counteract".
``markdown``
    A text written in Markdown loses its marks: "## " before a heading, "**" around a word,
    a link's address, a code fence (:mod:`ingest.clean_markdown`).
``bbcode``
    A forum's tags in square brackets go, what they enclose stays: "[b]Паника[/b]" → "Паника"
    (:mod:`ingest.clean_bbcode`).
``site_furniture``
    What the website added: download banners, a title line that repeats the book's name,
    page navigation, "Дата добавления …", "Мы поможем в написании …", ``|`` separators.
``running_header``
    A short phrase repeated between sentences ("Классы боевых единиц"), and a site page title
    that the text repeats later as a heading. Before every other step, the lines a file's
    reader found to be the book's template go too (a PDF's running heads and the lines its
    margins repeat, ``SourceText.template``: :func:`ingest.clean_pages.book_template`).
``heading_translation``
    A heading's translation on the next line joins it ("RULES" / "[ПРАВИЛА]"); an English line
    repeating the English of the heading below it goes.
``page_footer``
    "Страница 72" lines (and "С. 152" at a page's head); :func:`clean` also turns them
    into :class:`~ingest.models.PageMark`.
``hyphenation``
    Words broken across lines: "передвигают- ся" → "передвигаются", "по- настоящему" →
    "по-настоящему", decided by the Russian dictionary and the words of the text itself.
``glued_title``
    A title a copy glued to its text goes on a line of its own: "О психологииЗдорово, …" →
    "О психологии" / "Здорово, …".
``small_caps``
    Small-caps headings read in the wrong case: "сТРЕЛьБА" → "СТРЕЛЬБА".
``drop_capital``
    A drop capital cut off its word: "О ТСТУПЛЕНИЕ" → "ОТСТУПЛЕНИЕ".
``whitespace``
    Runs of spaces, spaces at line ends, runs of blank lines.

The steps live in modules by theme: :mod:`ingest.clean_spacing` (``line_endings``,
``whitespace``), :mod:`ingest.clean_chars` (``html_entities``, ``combining_marks``),
:mod:`ingest.clean_scripts` (``mixed_scripts``), :mod:`ingest.clean_html` (``html``),
:mod:`ingest.clean_markdown` (``markdown``),
:mod:`ingest.clean_bbcode` (``bbcode``),
:mod:`ingest.clean_furniture` (``site_furniture``), :mod:`ingest.clean_pages`
(``running_header``, ``page_footer``), :mod:`ingest.clean_headings` (``heading_translation``) and
:mod:`ingest.clean_words` (``hyphenation``, ``glued_title``, ``small_caps``,
``drop_capital``);
:mod:`ingest.clean_edits` holds what they shape their edits with.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Collection, Iterable
from functools import cache, partial

from ingest.clean_bbcode import bbcode
from ingest.clean_chars import combining_marks, html_entities
from ingest.clean_furniture import site_furniture
from ingest.clean_headings import heading_translation
from ingest.clean_html import html
from ingest.clean_markdown import markdown
from ingest.clean_pages import (
    book_template,
    find_running_headers,
    page_footer,
    page_marks,
    running_header,
)
from ingest.clean_scripts import mixed_scripts
from ingest.clean_spacing import line_endings, whitespace
from ingest.clean_words import drop_capital, glued_title, hyphenation, small_caps
from ingest.models import Change, CleanedText, Edit, OffsetArray, SourceText

Step = Callable[[str], list[Edit]]


# --------------------------------------------------------------------------------------------
# Applying edits
# --------------------------------------------------------------------------------------------


_IDENTITY_BLOCK = 1 << 16
"""Offsets laid down at a time by :func:`identity_offsets` (their low two bytes run through
every value once)."""


def identity_offsets(size: int) -> OffsetArray:
    """The offsets ``0, 1, …, size - 1`` (a text's map to itself, before any step).

    Built a block of 65,536 at a time, byte by byte: the k-th byte of every 8-byte number is
    one column of the block's bytes, which C copies into place (``bytearray``'s extended
    slices). The two low columns are the same in every block and the others hold one byte
    each, so the map costs about what copying it does rather than a Python ``int`` for each
    character (a fifth of the time or less for a 200,000-character text), and it needs no
    more memory than the map and one block.

    >>> list(identity_offsets(4))
    [0, 1, 2, 3]
    """
    if sys.byteorder != "little":  # (the columns below are little-endian bytes)
        return array("q", range(size))
    offsets: OffsetArray = array("q")
    if size <= _IDENTITY_BLOCK:  # (most texts: the first block's numbers, made once)
        offsets.frombytes(memoryview(_first_block())[:8 * size])
        return offsets
    block = bytearray(_first_block())
    for first in range(0, size, _IDENTITY_BLOCK):
        high = first >> 16  # (the block's number: its numbers' bytes from the third on)
        for k in range(2, 8):
            block[k::8] = bytes(((high >> (8 * (k - 2))) & 0xFF,)) * _IDENTITY_BLOCK
        offsets.frombytes(block)
    del offsets[size:]  # (the last block's numbers past the end)
    return offsets


@cache
def _first_block() -> bytes:
    """The numbers ``0 … 65,535`` as :func:`identity_offsets` lays a block down: its two low
    columns, which every block shares, the others zero."""
    block = bytearray(8 * _IDENTITY_BLOCK)
    block[0::8] = bytes(range(256)) * (_IDENTITY_BLOCK // 256)
    block[1::8] = b"".join(bytes((v,)) * 256 for v in range(256))
    return bytes(block)


def apply_edits(
    text: str, offsets: OffsetArray, edits: Iterable[Edit], source: str
) -> tuple[str, OffsetArray, list[Change]]:
    """Apply non-overlapping edits to ``text`` in one pass.

    Args:
        text: The current text.
        offsets: Its map to the source (``len(text) + 1`` entries, the last one the source's
            length).
        edits: Edits with offsets in ``text``, in any order. An edit that changes nothing is
            skipped.
        source: The original source text, to quote what each change replaced.

    Returns:
        The new text, its map to the source, and one :class:`Change` per edit made.

    A replacement's ``k``-th character maps to the source of the ``k``-th character it
    replaces (the last one when the replacement is longer), so an equal-length replacement
    (a case repair) keeps the map one-to-one.

    Raises:
        ValueError: Two edits overlap (a bug in a step).
    """
    pieces: list[str] = []
    new_offsets: OffsetArray = array("q")
    changes: list[Change] = []
    pos = 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        start, end, replacement = edit.start, edit.end, edit.replacement
        if start < pos:
            raise ValueError(f"step {edit.step}: edit {edit} overlaps an earlier edit")
        if text[start:end] == replacement:
            continue
        pieces.append(text[pos:start])
        new_offsets.extend(offsets[pos:start])
        width = end - start
        if width == 0:
            new_offsets.extend([offsets[start]] * len(replacement))
            src_start = src_end = offsets[start]
        else:
            new_offsets.extend(offsets[start + min(k, width - 1)] for k in range(len(replacement)))
            src_start, src_end = offsets[start], offsets[end - 1] + 1
        pieces.append(replacement)
        changes.append(
            Change(  # (validated: pydantic's check costs less than its model_construct)
                step=edit.step,
                span=(src_start, src_end),
                before=source[src_start:src_end],
                after=replacement,
                reason=edit.reason,
            )
        )
        pos = end
    if not changes:
        return text, offsets, changes
    pieces.append(text[pos:])
    new_offsets.extend(offsets[pos:])
    return "".join(pieces), new_offsets, changes


# --------------------------------------------------------------------------------------------
# Steps
# --------------------------------------------------------------------------------------------

STEPS: list[tuple[str, Step]] = [
    ("line_endings", line_endings),
    ("html", html),
    ("html_entities", html_entities),
    ("combining_marks", combining_marks),
    ("mixed_scripts", mixed_scripts),
    ("markdown", markdown),
    ("bbcode", bbcode),
    ("site_furniture", site_furniture),
    ("running_header", running_header),
    ("heading_translation", heading_translation),
    ("page_footer", page_footer),
    ("hyphenation", hyphenation),
    ("glued_title", glued_title),
    ("small_caps", small_caps),
    ("drop_capital", drop_capital),
    ("whitespace", whitespace),
]
"""The cleaning steps in the order :func:`clean` runs them; each is ``text -> list[Edit]``."""


def steps(vocabulary: Collection[str] | None = None) -> list[tuple[str, Step]]:
    """:data:`STEPS`, with ``vocabulary`` given to the steps that weigh word evidence."""
    if not vocabulary:
        return list(STEPS)
    bound: dict[str, Step] = {
        "hyphenation": partial(hyphenation, vocabulary=vocabulary),
        "drop_capital": partial(drop_capital, vocabulary=vocabulary),
    }
    return [(name, bound.get(name, step)) for name, step in STEPS]


# --------------------------------------------------------------------------------------------
# The stage
# --------------------------------------------------------------------------------------------


def clean(source: SourceText, vocabulary: Collection[str] | None = None) -> CleanedText:
    """Run every cleaning step over a source text.

    Args:
        source: The loaded text.
        vocabulary: Extra words (e.g. from the other files of the corpus) that count as
            evidence when hyphenation and drop capitals are decided.

    Returns:
        The cleaned text with its map back to the source, every change made, the page
        footers and the running headers found.

    Example:
        >>> src = SourceText(
        ...     name="x.txt", path="x.txt", text="О ТсТУПЛЕНИЕ за- легать", encoding="utf-8"
        ... )
        >>> clean(src).text
        'ОТСТУПЛЕНИЕ залегать'
    """
    text = source.text
    offsets = identity_offsets(len(text) + 1)
    changes: list[Change] = []
    headers: tuple[str, ...] = ()
    if source.template:  # (first, while the offsets are the reader's)
        text, offsets, made = apply_edits(text, offsets, book_template(text, source.template),
                                          source.text)
        changes.extend(made)
    for name, step in steps(vocabulary):
        if name == "running_header":
            headers = find_running_headers(text)
        text, offsets, made = apply_edits(text, offsets, step(text), source.text)
        changes.extend(made)
    return CleanedText(
        source=source.name,
        text=text,
        offsets=offsets,
        changes=changes,
        pages=page_marks(text, changes, offsets),
        running_headers=list(headers),
    )


__all__ = [
    "STEPS",
    "Step",
    "apply_edits",
    "bbcode",
    "clean",
    "combining_marks",
    "drop_capital",
    "find_running_headers",
    "heading_translation",
    "html",
    "html_entities",
    "hyphenation",
    "identity_offsets",
    "line_endings",
    "page_footer",
    "running_header",
    "site_furniture",
    "small_caps",
    "steps",
    "whitespace",
]
