"""Segment a cleaned text into sections with their hierarchy, pages and flavour text.

Two layouts occur in the rule texts (and a text written in Markdown marks its own headings:
:mod:`ingest.segment_markdown`):

* **web pages** (WHFB, Kill Team): a heading stands on its own line; "Страница N" footers
  close a page; line-wrapped paragraphs continue on lines that start in lower case;
* **a flattened two-column PDF** (the 40k rulebook): the whole chapter is one long line,
  headings are inline runs of capitals, a unit type's title may come *after* its rules, several
  titles may stand together, and picture captions and flavour quotes are mixed in.

Both give the same result: :class:`Section` objects with spans into the *cleaned* text (the
build stage maps them back to the source), a parent, a title in normal case, and the pages the
footers put them on. Captions and quotes become :class:`Flavour` items, never sections.

Each layout has its module (:mod:`ingest.segment_lines`, with where its headings hang in
:mod:`ingest.segment_nesting`; :mod:`ingest.segment_flat`); what both
give and the title helpers they share are in :mod:`ingest.sections`.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Protocol

from ingest.sections import (
    Flavour,
    Section,
    Segmentation,
    english_lemma,
    normal_case,
    passage,
    title_and_aliases,
)
from ingest.segment_colons import colon_run_ins, paragraph_labels
from ingest.segment_depth import bound_depth
from ingest.segment_entries import priced_entries, steps_under_heading
from ingest.segment_flat import FLAT_LINE, caps_runs, flat_line_breaks, segment_flat
from ingest.segment_headings import is_heading_line
from ingest.segment_lines import segment_lines
from ingest.segment_lists import flattened_list_breaks
from ingest.segment_markdown import segment_markdown
from ingest.segment_names import english_twins, name_english_headings, repeated_headings
from ingest.segment_nesting import nest_lines
from ingest.segment_titles import title_over_parts
from ingest.vocabulary import vocabulary
from kb.lemmas import WORD_RE, lemma


class PageMarkLike(Protocol):
    """The parts of a page footer the segmenter reads (``ingest.models.PageMark``)."""

    @property
    def first(self) -> int: ...

    @property
    def last(self) -> int: ...

    @property
    def at(self) -> int: ...

    @property
    def opens(self) -> bool: ...


# "ПОСЛЕДОВАТЕЛЬНОСТЬ ХОДА 1. НАЧАЛО ХОДА": a heading in capitals and the first numbered
# step under it set on one line (a PDF's lines run together)
_GLUED_NUMBERED = re.compile(
    r"^[^\S\n]*([А-ЯЁ]{2,}(?:[^\S\n]+[А-ЯЁ]{2,}){0,5})[^\S\n](\d{1,2}\.[^\S\n]+"
    r"[А-ЯЁ]{2,}(?:[^\S\n]+[А-ЯЁ]{2,}){0,5})[^\S\n]*$", re.MULTILINE)


def segment(
    text: str,
    system: str | None,
    pages: Sequence[PageMarkLike] | None = None,
    gaps: dict[int, int] | None = None,
    titled: bool = False,
    site_cuts: Sequence[int] = (),
    marked: tuple[Sequence[tuple[int, int, int]], Sequence[tuple[int, int]]] | None = None,
    marked_layout: str = "markdown",
) -> Segmentation:
    """Split ``text`` (cleaned) into sections.

    Args:
        text: the cleaned text.
        system: the game system (chooses the unit type vocabulary).
        pages: page footers found by cleaning; each closes the page before it.
        gaps: for a heading starting at a cleaned offset, how many blank lines stood before
            it in the source (larger gaps separate larger sections in the WHFB pages; text
            cleaning removed counts as one blank line at least).
        titled: the text opens right under a site's name ("RED ELF" over "ПОЛЕ БОЯ"): its
            first heading is the page's title.
        site_cuts: offsets where cleaning cut a site's lines (its furniture, a running
            header, a page footer): the rules above the first heading start below them.
        marked: a Markdown text's headings (start, end, level) and quotations (start, end)
            (:mod:`ingest.segment_markdown`): its headings are those, no other line; so are a
            web page's headings its tags mark, with ``marked_layout`` "html".
    """
    vocab = vocabulary(system)
    if marked is not None and marked[0]:
        result = segment_markdown(text, marked[0], marked[1], vocab, marked_layout)
        result.sections = english_twins(text, result.sections)
        name_english_headings(text, result.sections)
        _lead_passage(text, result, site_cuts)
        _assign_pages(result.sections, pages or [])
        bound_depth(result.sections)
        return result
    lines = text.split("\n")
    # the flattened PDF: long lines with headings inside them
    flat = sum(len(line) for line in lines
               if len(line) > FLAT_LINE and len(caps_runs(line, stressed=True)) >= 2)
    if flat > len(text) / 2:
        result = segment_flat(text, vocab)
        if not any(s.is_unit_type for s in result.sections):
            # (the unit types' chapter places its rules by its types: above) a page of other
            # rules nests as a page of lines does, by the words and numbers of its headings
            nest_lines(result.sections, text, vocab, system, {})
            # and, as there, a sequence's numbered steps and an army book's priced entries go
            # under the heading right above them ("ТАЛИСМАНЫ … ТАЛИСМАН ЗАЩИТЫ - 10 ОЧКОВ")
            steps_under_heading(result.sections, text)
            priced_entries(result.sections, text)
        # a chapter's or a mission's title in capitals over its parts, as on a page of lines
        title_over_parts(result.sections, text, titled)
    else:
        # a rule that runs in after a colon inside a paragraph starts a line of its own (a
        # space becomes a newline: the offsets stay those of ``text``)
        colon = colon_run_ins(text)
        # the labels that open a digest's paragraphs ("Цель: целью кампании …") are its parts
        parts = paragraph_labels(text, colon)
        colon.update(parts)
        breaks = [at - 1 for at in colon if at and text[at - 1] != "\n"]
        breaks += [m.start(2) - 1 for m in _GLUED_NUMBERED.finditer(text)]
        # so does each item of a list a page's copy ran into one line ("… 1) Редакция. Все
        # игры … 2) Домашние правила. Любые …")
        breaks += flattened_list_breaks(text)
        # and so do the headings inside a page run into one line under lines of a site or a
        # preamble ("… Персонажи во второй ряд. КОМАНДИР Командир всегда имеет …")
        breaks += flat_line_breaks(text)
        lined = text
        if breaks:
            chars = list(text)
            for at in breaks:
                chars[at] = "\n"
            lined = "".join(chars)
        result = segment_lines(lined, vocab, system, gaps or {}, [p.at for p in pages or []],
                               colon, titled, set(parts))
    result.sections = repeated_headings(text, english_twins(text, result.sections))
    name_english_headings(text, result.sections)
    if result.layout == "lines":
        _lead_passage(text, result, site_cuts)
    _assign_pages(result.sections, pages or [])
    bound_depth(result.sections)
    return result


# ---------------------------------------------------------------------------------------
# the text above the first heading


_SENTENCE_END = re.compile(r"[.!?…:;][»\")]*$|[.!?…][»\")]*\s+[«\"(]?[А-ЯЁA-Z]")
_ELLIPSIS_END = re.compile(r"(?:\.\.\.|…)[»\")]*$")
LEAD_WORDS = 8
"""Words the first sentence of rules text above a page's first heading holds at least."""
_JOINED_LINES = 3
"""Lines a sentence may be wrapped over (a PDF's column wraps it)."""
_LABEL = re.compile(r"\s*(?:[^\s:.!?]+\s+){0,3}[^\s:.!?]+\s*:\s+\S")
"""A line that opens with a label of up to four words and a colon: a field of a site's card
of the page ("Статья опубликована в рамках: …", "Источник: …"), or a term and its gloss."""
_QUOTED = re.compile(r"\s*[«\"„“‘'].*[»\"“”’']\s*")
"""A line in quotation marks from end to end: an epigraph, flavour of the book, not its rules
(one with its speaker under it is flavour already, :mod:`ingest.segment_flavour`)."""


def _opens_prose(lines: list[str], k: int) -> bool:
    """Whether line ``k`` opens a sentence of :data:`LEAD_WORDS` words or more, in lower case
    mostly, ended within :data:`_JOINED_LINES` lines ("Модель может атаковать, если она
    находится в базовом контакте …"; "Автоматический огонь всегда ведется с" / "BS2. …"): not
    a menu, a title, a date, a pager's numbers, a labelled field (:data:`_LABEL`), a quotation
    (:data:`_QUOTED`) or a teaser of another page cut off with an ellipsis ("Адаптации
    растений …: Большое значение … склонов...")."""
    words = WORD_RE.findall(lines[k])
    if 2 * sum(1 for w in words if w.isalpha()) <= max(len(words), 2) \
            or _LABEL.match(lines[k]) or _QUOTED.fullmatch(lines[k]):
        return False
    joined = lines[k].strip()
    for line in lines[k + 1:k + _JOINED_LINES]:
        if _SENTENCE_END.search(joined) or not line.strip():
            break
        joined += " " + line.strip()
    if len(WORD_RE.findall(joined)) < LEAD_WORDS or _ELLIPSIS_END.search(joined):
        return False
    lower = sum(1 for ch in joined if ch.islower())
    return 2 * lower > sum(1 for ch in joined if ch.isalpha()) \
        and _SENTENCE_END.search(joined) is not None


def _lead_passage(text: str, result: Segmentation, site_cuts: Sequence[int]) -> None:
    """The rules above a page's first heading, as a passage (:func:`ingest.sections.passage`):
    a page copied from the middle of a chapter opens with the end of a rule whose heading
    stood on the page before ("Модель может атаковать, если она находится в базовом контакте
    …" above "Сколько атак"). It runs from the first line that opens a sentence
    (:func:`_opens_prose`) below the site's lines cleaning cut (``site_cuts``) and the flavour
    above the heading, to the heading; what stands above that line (a title, an author, a
    date, a sentence of the site's) is no rule, and the build accounts for it as text before
    the first heading."""
    if not result.sections:
        return
    first = min(s.heading_span[0] for s in result.sections)
    cut = max((at for at in site_cuts if at <= first), default=0)
    start = text.rfind("\n", 0, cut) + 1  # (the line it stands in)
    for f in result.flavour:
        if f.span[1] <= first:  # (the line after it)
            end = text.find("\n", f.span[1], first)
            start = max(start, first if end < 0 else end + 1)
    lines = text[start:first].split("\n")
    at = start
    for k, line in enumerate(lines):
        if _opens_prose(lines, k):
            lead = passage(text, at, first)
            lead.flavour_spans = [f.span for f in result.flavour
                                  if lead.body_span[0] <= f.span[0] < lead.body_span[1]]
            for sec in result.sections:  # (its parents are positions in the list)
                if sec.parent is not None:
                    sec.parent += 1
            result.sections.insert(0, lead)
            return
        at += len(line) + 1


# ---------------------------------------------------------------------------------------
# pages


def _assign_pages(sections: list[Section], pages: Sequence[PageMarkLike]) -> None:
    """A footer closes a page: a section lies on the page of the first footer after its start;
    a mark that heads its page ("С. 152" above the text) puts what follows it on its page."""
    marks = sorted(pages, key=lambda p: p.at)
    ats = [m.at for m in marks]  # searched, not walked: a long file has many of both
    heads = bool(marks) and marks[0].opens
    for sec in sections:
        start = sec.heading_span[0]
        k = bisect_right(ats, start) - 1 if heads else bisect_left(ats, start)
        if 0 <= k < len(marks):
            sec.pages = tuple(range(marks[k].first, marks[k].last + 1))


__all__ = ["Flavour", "Section", "Segmentation", "segment", "normal_case", "title_and_aliases",
           "is_heading_line", "lemma", "english_lemma"]
