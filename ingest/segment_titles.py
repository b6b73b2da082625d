"""Where a page's title and a chapter's title hang (:mod:`ingest.segment_lines` runs these after
:func:`ingest.segment_nesting.nest_lines`): a page's title in capitals or a headline over its
parts (:func:`title_over_parts`), a capitalised title announcing its part by name
(:func:`title_announcing_part`), a title over parts whose headings end in a period
(:func:`title_over_stopped_parts`), a title framed by lines drawn across the page
(:func:`framed_title`), a title over its subtitle in brackets
(:func:`title_with_subtitle`), an introduction under what it introduces
(:func:`introduction_under_title`), and a chapter's title or epigraph over its rules
(:func:`chapter_over_rules`).
"""

from __future__ import annotations

import re

from ingest.sections import PAGE_RE, Section, unparen
from ingest.segment_headings import _MAX_CHARS, _MAX_WORDS, _is_caps
from ingest.segment_nesting import _MIN_PARTS, _contains, _is_phase, _title_key
from kb.lemmas import lemma_key, words

_MIN_TITLE_WORDS = 4
# a term's English name or abbreviation after it: "(Team)", "(WS)", "(М)"
_NAMED_IN_BRACKETS = re.compile(r"\((?:[A-Za-z][A-Za-z ]*|[А-ЯЁ]{1,3})\)$")


def title_over_parts(sections: list[Section], text: str, titled: bool = False) -> None:
    """A page's title in capitals, or a headline, holds the shorter headings after it.

    A mission, a chapter or an article opens with its title — "ВИХРЬ ВОЙНЫ: ПОД ПОКРОВОМ
    ТАЙНЫ", set in capitals like its parts ("АРМИИ", "ПОЛЕ БОЯ"), which only its size told
    apart on paper. The text's first heading is such a title when it is in capitals, written as
    one (a name and a subtitle after a colon, or four words or more), opens a paragraph of its
    own, and every top-level heading after it is shorter: those are its parts. An article's
    headline, longer than any heading ("Инициатива, важнейшие стратегические уловки и
    поворотные точки в новом формате Kill Team!"), is its title in any case, over even one
    part ("INITIATIVE PHASE"). A title set over two lines ("KILL TEAM" / "КАМПАНИИ") is
    written as one; a first heading over terms each given with its English name or
    abbreviation in brackets ("Характеристики и Профиль моделей" / "Движение (М)", "Меткость
    (BS)") is their glossary's title, in any case. A page's title right under the site's name
    (``titled``: "RED ELF" / "ПОЛЕ БОЯ") holds the page's other headings whatever their size.
    """
    if len(sections) < _MIN_PARTS:
        return
    first = sections[0]
    if first.parent is not None:
        return
    if titled and first.heading_span[0] == len(text) - len(text.lstrip()) \
            and text[first.body_span[0]:first.body_span[1]].strip():
        # the page's title right under the site's name ("RED ELF" / "ПОЛЕ БОЯ"), over its
        # own text: it holds the page's other headings, whatever their size
        for sec in sections[1:]:
            if sec.parent is None:
                sec.parent = 0
        return
    size = len(words(first.title))
    # (a title set over two lines, "KILL TEAM" / "КАМПАНИИ", is written as one too; a title
    # that holds a part by its name already, "СТРЕЛЬБА ПО ТЕХНИКЕ" over "ВЫБОР ТЕХНИКИ В
    # КАЧЕСТВЕ ЦЕЛИ", set alike, so placed by its words, not by its case, is the page's
    # subject)
    holds = any(sec.parent == 0 and _is_caps(sec.heading) == _is_caps(first.heading)
                for sec in sections[1:])
    if not (": " in first.title or size >= _MIN_TITLE_WORDS or "\n" in first.heading
            or (holds and size >= 2)):
        return
    if not text[first.body_span[0]:first.body_span[1]].strip():
        return  # a heading right above another is a group's, which the nesting has placed
    parts = [i for i, sec in enumerate(sections[1:], 1) if sec.parent is None]
    # a headline (longer than a heading may be) opens the page whatever its case, and holds
    # even one part; a title in capitals holds two headings or more, its parts and theirs
    # (over one it is as likely a sibling)
    headline = len(first.heading) > _MAX_CHARS or size > _MAX_WORDS
    # terms each given with its English name or abbreviation ("Движение (М)", "Меткость (BS)")
    # are the entries of the title above them, whatever its case
    glossary = len(parts) >= _MIN_PARTS and first.heading_span[0] == len(text) - len(
        text.lstrip()) and all(_NAMED_IN_BRACKETS.search(sections[i].heading) for i in parts)
    if not (headline or glossary or _is_caps(first.heading)) or not parts \
            or len(sections) - 1 < (1 if headline else _MIN_PARTS):
        return
    if any(len(words(sections[i].title)) >= size for i in parts):
        return
    for i in parts:
        sections[i].parent = 0


def title_over_stopped_parts(sections: list[Section], text: str) -> None:
    """The text's first heading, alone on its line with no period, holds the top-level headings
    after it that end in a period ("Выберите оружие дальнего боя и цели" / "Диапазон и
    видимость." / "Количество атак."): parts set in a lesser style, as a book sets its
    subheadings run in, when every top-level heading after it is so set (two at least)."""
    if len(sections) < _MIN_PARTS + 1:
        return
    first = sections[0]
    if first.parent is not None or text[:first.heading_span[0]].strip() \
            or first.heading.rstrip().endswith(".") \
            or not text[first.body_span[0]:first.body_span[1]].strip():
        return
    parts = [i for i, sec in enumerate(sections[1:], 1) if sec.parent is None]
    if len(parts) < _MIN_PARTS or not all(
            sections[i].heading.rstrip().endswith(".") for i in parts):
        return
    for i in parts:
        sections[i].parent = 0


# a line drawn across the page: a run of one mark ("=====", "-----", "*****", "_____")
_RULE_LINE = re.compile(r"[ \t]*([=\-*_~#])\1{2,}[ \t]*")
_NEAR = 300  # characters around a heading its frame's lines stand in


def framed_title(sections: list[Section], text: str) -> None:
    """The first heading framed by lines drawn across the page, one right above it and one
    right below ("=====" / "Перевод FAQов с официального сайта" / "====="), is the title of
    what follows: it holds every top-level heading after it."""
    if len(sections) < _MIN_PARTS:
        return
    first = sections[0]
    if first.parent is not None:
        return
    start, end = first.heading_span
    # (the lines next to it, looked for near it: a text's first heading may stand deep in it)
    above = text[max(0, start - _NEAR):start].rstrip().rsplit("\n", 1)[-1]
    below = text[end:end + _NEAR].lstrip().split("\n", 1)[0]
    if not (_RULE_LINE.fullmatch(above) and _RULE_LINE.fullmatch(below)):
        return
    for sec in sections[1:]:
        if sec.parent is None:
            sec.parent = 0


def title_announcing_part(sections: list[Section], text: str) -> None:
    """A title in capitals that opens the text and names, in its own paragraph, the heading
    in capitals after it ("ТАНКИ" / "… игрок может объявить … танковый удар …" / "ТАНКОВЫЙ
    УДАР") holds that heading: a chapter announcing its part. (A title in capitals over one
    other heading is as likely its sibling: :func:`title_over_parts` leaves it.)"""
    if len(sections) < _MIN_PARTS:
        return
    first, second = sections[0], sections[1]
    if first.parent is not None or second.parent is not None or not _is_caps(first.heading) \
            or not _is_caps(second.heading) or text[:first.heading_span[0]].strip() \
            or lemma_key(unparen(first.title)) in _CONTENTS:
        return  # (a table of contents names every heading after it)
    key = _title_key(second.title)
    body = lemma_key(text[first.body_span[0]:first.body_span[1]])
    if key and _contains(body, key):
        second.parent = 0


_BRACKETED_LINE = re.compile(r"\s*\([^()\n]{3,80}\)\s*(?:\n|$)")


def title_with_subtitle(sections: list[Section], text: str) -> None:
    """A heading that opens the text with a subtitle in brackets on the line under it
    ("Kill team" / "(вольный перевод правил)", "Легион Тысячи Сыновей" / "( ИГРАЯ ТЫСЯЧЕЙ
    СЫНОВЕЙ )") is the title of the document: it holds every top-level heading after it."""
    if len(sections) < _MIN_PARTS:
        return
    first = sections[0]
    if first.parent is not None or text[:first.heading_span[0]].strip() \
            or (bracketed := _BRACKETED_LINE.match(text, first.body_span[0])) is None \
            or PAGE_RE.search(bracketed.group()):
        return  # (a page citation in brackets, "(стр. 168 Книги Правил)", is the rule's)
    for sec in sections[1:]:
        if sec.parent is None:
            sec.parent = 0


# the words a heading names an introduction by ("Вступление", "Введение"), and a table of
# contents, which lists the introduction rather than holds it
_INTRODUCTION = frozenset({"вступление", "введение", "предисловие", "пролог"})
_CONTENTS = frozenset({"содержание", "оглавление"})


def introduction_under_title(sections: list[Section]) -> None:
    """A heading that names an introduction ("Вступление", "Введение", "Предисловие") is a part
    of the heading at its level before it: a book's, an article's or a chapter's, which it
    introduces ("Warhammer для «чайников»" / "Вступление"); a table of contents holds none."""
    last: dict[int | None, int] = {}  # parent → its last child so far
    for i, sec in enumerate(sections):
        level = sec.parent
        before = last.get(level)
        if before is not None and lemma_key(unparen(sec.title)) in _INTRODUCTION \
                and lemma_key(unparen(sections[before].title)) not in _CONTENTS:
            sec.parent = before
        last[sec.parent] = i


def chapter_over_rules(sections: list[Section], text: str) -> None:
    """A heading with an epigraph opens a chapter: it holds the headings after it.

    A chapter of these books opens with its title and a flavour quote ("Псайкеры" / «Разум
    без предубеждений …»), and its rules follow under headings of another style ("КОЛДОВСКОЙ
    ОГОНЬ"), which only the print's size set below the title. So a top-level heading whose text
    opens with a quote holds the top-level headings after it that are set in the other style
    (capitals under mixed case, or the reverse), up to the next heading with an epigraph or one
    in its own style.
    """
    if _page_title_over_caps(sections, text):
        return
    chapter: int | None = None
    for i, sec in enumerate(sections):
        if sec.parent is not None:
            continue
        if _opens_with_epigraph(sec, text):
            chapter = i
            continue
        if chapter is None or _is_caps(sec.heading) == _is_caps(sections[chapter].heading):
            chapter = None
            continue
        sec.parent = chapter


def _page_title_over_caps(sections: list[Section], text: str) -> bool:
    """A text that opens with a heading in mixed case and a paragraph of its own, and has
    headings in capitals after it, is a chapter's page: the title holds every top-level
    heading after it.

    A book sets its chapter's title in a large mixed-case type ("Персонажи", "Псайкеры") and
    the rules under it in capitals ("ВИДЫ ПЕРСОНАЖЕЙ", "КОЛДОВСКОЙ ОГОНЬ"), a box's heading
    between them in the title's case ("Создание сюжета"); a rule heading is set in capitals
    under the title, never the reverse, so a mixed-case heading over capitalised ones is of
    the higher rank. Up to a heading in the title's case after capitalised ones, or one with an
    epigraph: the next chapter's title; or, under a phase, the next phase ("ПСИХИЧЕСКАЯ ФАЗА"
    after "Фаза движения"). At least half of those headings are in capitals.
    Whether this held (the headings are placed) is returned.
    """
    first = sections[0] if sections else None
    if first is None or first.parent is not None or _is_caps(first.heading) \
            or text[:first.heading_span[0]].strip() \
            or not text[first.body_span[0]:first.body_span[1]].strip():
        return False
    parts: list[int] = []
    capitalised = False  # whether a part in capitals came yet
    for i, sec in enumerate(sections[1:], 1):
        if sec.parent is not None:
            continue
        caps = _is_caps(sec.heading)
        if _opens_with_epigraph(sec, text) or (not caps and capitalised) or (
                _is_phase(first.title) and _is_phase(sec.title)):
            break  # the next chapter's title, after this one's rules; the next phase
        parts.append(i)
        capitalised = capitalised or caps
    # the rules under the title are in capitals; a box in the title's case stands among them
    # ("Создание сюжета"): a page of headings in one case with a capitalised one among them (a
    # table's head) is a list of peers
    if not capitalised or 2 * sum(_is_caps(sections[i].heading) for i in parts) < len(parts):
        return False
    for i in parts:
        sections[i].parent = 0
    return True


def _opens_with_epigraph(sec: Section, text: str) -> bool:
    spans = sorted(sec.flavour_spans)
    return bool(spans) and not text[sec.body_span[0]:spans[0][0]].strip()


