"""The web-page layout (WHFB, Kill Team): headings on their own lines.

A heading stands on its own line (:func:`ingest.segment_headings.is_heading_line`, with the
other shapes of a heading line); "Страница N" footers close a page;
line-wrapped paragraphs continue on lines that start in lower case. A heading's parent comes
from the titles, group headings and gaps around it and from the headings' own shapes
(:mod:`ingest.segment_nesting`).
"""

from __future__ import annotations

import re
from collections import Counter

from ingest.sections import (
    CASTING_VALUE,
    ERRATA_ENTRY,
    Flavour,
    Section,
    Segmentation,
    assign_flavour,
    normal_case,
    title_and_aliases,
)
from ingest.segment_alphabet import glossary_entries
from ingest.segment_entries import priced_entries, steps_under_heading
from ingest.segment_false_headings import drop_false_headings
from ingest.segment_flavour import epigraphs, flavour_items, label_spans, picture_labels
from ingest.segment_headings import (
    _NUMBER,
    _broken_heading,
    _has_finite_verb,
    column_header,
    is_heading_line,
)
from ingest.segment_lists import (
    colon_labels,
    contents_entry,
    contents_paragraphs,
    form_fields,
    lead_in_items,
    numeric_table_headers,
    pictogram_items,
    pipe_cells,
    split_list_items,
    table_cells,
)
from ingest.segment_nesting import nest_lines
from ingest.segment_run_in import dash_named_items, run_in_heading
from ingest.segment_summary import echoed_steps
from ingest.segment_titles import (
    chapter_over_rules,
    framed_title,
    introduction_under_title,
    title_announcing_part,
    title_over_parts,
    title_over_stopped_parts,
    title_with_subtitle,
)
from ingest.vocabulary import Vocabulary
from kb.lemmas import pos, words

_BARE_NUMBER = re.compile(r"^\s*\d{1,4}\s*$")  # a page number on its own line, not text


def segment_lines(
    text: str, vocab: Vocabulary, system: str | None, gaps: dict[int, int],
    page_ends: list[int], colon: dict[int, tuple[int, int]] | None = None,
    titled: bool = False, parts: set[int] | None = None,
) -> Segmentation:
    """Split a web-page text into sections: each heading line opens one that runs to the next.

    Args:
        text: the cleaned text.
        vocab: the unit type vocabulary of the system.
        system: the game system (Kill Team nests its headings under phases).
        gaps: blank lines in the source before a heading at a cleaned offset.
        page_ends: cleaned offsets where a page footer closed a page.
        colon: rules that run in after a colon
            (:func:`ingest.segment_colons.colon_run_ins`), each at a line's start.
        titled: the text opens right under a site's name (its first heading is the page's
            title)
        parts: the starts of ``colon``'s entries that label a digest's paragraphs
            (:func:`ingest.segment_colons.paragraph_labels`): parts of the heading above them.
    """
    lines = text.split("\n")
    offsets = []
    pos = 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1

    # candidate heading lines (skipping blank lines when looking at the next one)
    nonblank = [i for i, line in enumerate(lines) if line.strip()]
    nxt: dict[int, int | None] = {}
    for k, i in enumerate(nonblank):
        nxt[i] = nonblank[k + 1] if k + 1 < len(nonblank) else None
    def following(i: int) -> str | None:
        j = nxt[i]
        return lines[j] if j is not None else None

    # a profile table's rows stand right under its header ("Наименование Дальность Сила …" /
    # "Лук Огонь залпом"): a row is no heading, whatever its words
    rows = {i for i in nonblank if i and column_header(lines[i - 1].strip())}
    rows |= split_list_items(lines, nonblank)
    rows |= pictogram_items(lines, nonblank)
    rows |= table_cells(lines, nonblank)
    if "|" in text:  # (the cheap test first)
        rows |= pipe_cells(lines, nonblank)
    rows |= numeric_table_headers(lines, nonblank)
    items = lead_in_items(lines, nonblank)
    rows |= items
    field_values, form_names = form_fields(lines, nonblank)
    rows |= field_values
    cand = [i for i in nonblank if i not in rows and (is_heading_line(lines[i], following(i))
            or _above_subtitle(lines, i, nxt) or i in form_names)]
    headline: int | None = None  # the page's title, when only its length kept it out
    if nonblank and (not cand or cand[0] != nonblank[0]) \
            and _page_title(lines, nonblank[0], following(nonblank[0])):
        headline = nonblank[0]
        cand.insert(0, headline)
    cand = _without_banners(lines, nonblank, cand)
    # headings that share their line with the text ("Устрашение - Некоторые создания …",
    # "ИНСТРУМЕНТЫ ВОЙНЫ Большинство сражений …") or that a PDF broke over two lines
    # ("Специальные" / "правила")
    runin: dict[int, tuple[int, int]] = {}
    joined: dict[int, int] = {}
    taken = set(cand)
    errata, english = _errata_entries(lines, nonblank)
    runin.update(errata)
    seconds: set[int] = set()  # the second lines of broken headings
    colon_lines: set[int] = set()  # rules whose names run in after a colon
    part_lines: set[int] = set()  # of them, the labels of a digest's paragraphs
    label_lines = colon_labels(lines, nonblank, nxt)
    dashed = dash_named_items(lines, nonblank)
    for i, end in label_lines.items():
        runin[i] = (end, len(lines[i]))
        colon_lines.add(i)
    for i in nonblank:
        if i in seconds or i in errata or i in english or i in items:
            continue
        at = offsets[i] + len(lines[i]) - len(lines[i].lstrip())
        if colon and at in colon:
            runin[i] = (colon[at][0] - offsets[i], colon[at][1] - offsets[i])
            colon_lines.add(i)
            if parts and at in parts:
                part_lines.add(i)
            continue
        m = dashed.get(i) or run_in_heading(lines[i], dash_only=i in taken)
        if m is not None:
            runin[i] = m
            continue
        j = nxt[i]
        if j in items:
            continue  # a list's item goes on no heading
        # two lines in capitals, one under the other, are one heading even if each looks one
        adjacent_caps = j is not None and lines[i].isupper() and lines[j].isupper() and (
            j == i + 1 or _title_in_two_lines(lines, nonblank, nxt, i))
        if i in taken and j == i + 1 and _goes_on(lines[j]):
            joined[i] = j  # "Правила Kill Team" / "на русском": one heading
            seconds.add(j)
            continue
        if i in taken and not adjacent_caps:
            continue
        if j is not None and (j not in taken or adjacent_caps) \
                and _broken_heading(lines[i], lines[j], following(j), adjacent=j == i + 1):
            joined[i] = j
            seconds.add(j)
            # a heading in capitals broken further at its conjunction ("НЕПРОХОДИМЫЕ" /
            # "СТРОЕНИЯ" / "И" / "ДВИЖЕНИЕ"): the lone word and the line after it go on with it
            last = j
            while nxt[last] == last + 1 and nxt[last + 1] == last + 2 \
                    and _CAPS_CONNECTOR.match(lines[last + 1]) and lines[last + 2].isupper() \
                    and len(words(lines[last + 2])) <= 2:
                seconds.update((last + 1, last + 2))
                last += 2
            joined[i] = last
    cand = sorted({*cand, *runin, *joined} - seconds - english)
    # the line right under a spell's heading ("1. Огненный плащ (5+)" / "Баф. Остается в
    # игре.", "Хекс", "Прямой ущерб, дальность – 18.") gives its type and range: its text
    prev_line = {i: nonblank[k - 1] if k else None for k, i in enumerate(nonblank)}
    valued = {i for i in cand if CASTING_VALUE.search(lines[i].rstrip())}
    cand = [i for i in cand if i in valued or (p := prev_line[i]) is None
            or p not in valued or p in runin]
    numbered_parts: set[int] = set()  # numbered lines of a run kept as parts of the text
    cand = drop_false_headings(lines, nonblank, cand, set(runin), frozenset(form_names),
                                frozenset(colon_lines), numbered_parts)
    # a part's ordinal on the line above its title ("СЦЕНАРИЙ ТРЕТИЙ" / "Огамические Камни",
    # "Часть первая" / "Выбор способа …") numbers that heading: it opens its span and is its
    # alias, no section of its own (one over text, "Часть вторая" / "Дополнительные …", is)
    # so is a heading's English name in capitals right above it ("ERRATA" / "Ошибки")
    cset = set(cand)
    numbered_by = {nxt[i]: i for i in cand
                   if nxt[i] in cset and nxt[i] not in runin and (_PART_LABEL.match(lines[i]) or (
                       nxt[i] == i + 1 and _ENGLISH_CAPS.match(lines[i])
                       and _RUSSIAN_NAME.match(lines[i + 1])))}
    numbering = set(numbered_by.values())  # (a set: a view of the values is read through)
    cand = [i for i in cand if i not in numbering]
    contents = contents_paragraphs(lines)
    cand = [i for i in cand if i not in contents and not contents_entry(lines, i)]
    summary = echoed_steps(lines, nonblank, cand)  # a diagram of steps headed again below
    cand = [i for i in cand if i not in summary]
    flavour_lines, named = epigraphs(lines, nonblank, cand)
    labels = picture_labels(lines, nonblank, set(cand))
    cand = [i for i in cand if i not in flavour_lines and i not in labels]
    # a run of three or more heading-like lines with no text between is a list, not headings:
    # the first is its heading, the last a heading if text follows it, the rest list items
    cset = set(cand)
    heads: list[int] = []
    list_heads: set[int] = set()
    k = 0
    while k < len(cand):
        run = [cand[k]]
        # (a heading that shares its line with its text has text: it ends a run; the page's
        # headline heads the page, no list)
        # (a heading with its text on its line is no list's item either: "1) Редакция. Все
        # игры …" under "Общие и специальные правила")
        while k + 1 < len(cand) and nxt[run[-1]] == cand[k + 1] and run[-1] not in runin \
                and run[-1] != headline and cand[k + 1] not in runin \
                and cand[k + 1] not in numbered_parts:
            k += 1
            run.append(cand[k])
        if len(run) >= 3:
            # the list goes on from the line right above it, which stops in no sentence's
            # end (a part's subtitle, then the articles it holds): its first item heads
            # nothing either
            first = run[0]
            above = lines[first - 1].rstrip() if first > 0 else ""
            if not (above[-1:].isalnum() and first - 1 not in cset):
                heads.append(first)
            last = run[-1]
            after = nxt[last]
            if after is not None and (after not in cset or after in colon_lines) \
                    and not _BARE_NUMBER.match(lines[after]):
                heads.append(last)
                list_heads.add(run[0])
        else:
            heads.extend(run)
        k += 1
    # a bonus line right under a heading ("Нанесённые раны" / "+1 к результату боя за …") is
    # the heading's rule; after text ("+1 при стрельбе по большим целям.") it heads its own
    head_set = set(heads)
    heads = [i for i in heads
             if not (_MODIFIER.match(lines[i]) and prev_line[i] in head_set)]
    heads = _without_step_labels(lines, heads, colon_lines, runin)

    sections: list[Section] = []
    for n, i in enumerate(heads):
        start = offsets[i] + (len(lines[i]) - len(lines[i].lstrip()))
        end = offsets[i] + len(lines[i].rstrip())
        body_start = end
        label = numbered_by.get(i)
        if label is not None:
            start = offsets[label] + (len(lines[label]) - len(lines[label].lstrip()))
        if i in runin:
            end, body_start = offsets[i] + runin[i][0], offsets[i] + runin[i][1]
        elif i in joined:
            end = body_start = offsets[joined[i]] + len(lines[joined[i]].rstrip())
        # (up to the next heading's span, which a line above it may open)
        body_end = offsets[numbered_by.get(heads[n + 1], heads[n + 1])] if n + 1 < len(
            heads) else len(text)
        while body_end > body_start and text[body_end - 1].isspace():
            body_end -= 1
        # (a numbered title's heading is its own line, whose case sets its level; its span
        # holds the ordinal above it)
        heading = text[start if label is None else offsets[i] + len(lines[i]) - len(
            lines[i].lstrip()):end]
        title, aliases = title_and_aliases(" ".join(heading.split()))
        if label is not None:
            aliases = [*aliases, normal_case(" ".join(lines[label].split()).rstrip("."))]
        sections.append(Section(title, heading, (start, end), (body_start, body_end),
                                aliases=aliases, is_list=i in list_heads))
    flavour = flavour_items(text, lines, offsets, flavour_lines, named)
    flavour += [Flavour("caption", span, text[span[0]:span[1]])
                for span in label_spans(lines, offsets, labels)]
    flavour.sort(key=lambda f: f.span)
    assign_flavour(sections, flavour)
    # (an errata's entries are such a list: each the next one's sibling)
    entries = {n for n, i in enumerate(heads) if i in colon_lines or i in errata}
    nest_lines(sections, text, vocab, system, gaps, page_ends, entries,
               {n for n, i in enumerate(heads) if i in label_lines},
               {n for n, i in enumerate(heads) if i in part_lines})
    glossary_entries(sections, text, {n for n, i in enumerate(heads)
                                      if i not in runin and not _NUMBER.match(lines[i])})
    steps_under_heading(sections, text)
    priced_entries(sections, text)
    title_over_parts(sections, text, titled)
    title_announcing_part(sections, text)
    title_over_stopped_parts(sections, text)
    framed_title(sections, text)
    title_with_subtitle(sections, text)
    chapter_over_rules(sections, text)
    introduction_under_title(sections)
    return Segmentation(sections, flavour, "lines")


def _without_step_labels(lines: list[str], heads: list[int], colon_lines: set[int],
                         runin: dict[int, tuple[int, int]]) -> list[int]:
    """``heads`` without the labels run in after a colon inside a numbered step's text
    ("1. Определение приказа" / "Боевой: Оперативник может …" / "Скрытый: …"): the step's
    paragraphs, each opening with the term it explains, no rules of their own."""
    out = []
    step = False  # the last heading not run in after a colon is a numbered step
    for i in heads:
        if i in colon_lines:
            if step:
                continue
        else:
            step = i not in runin and _NUMBER.match(lines[i]) is not None
        out.append(i)
    return out


_MAX_GOES_ON_WORDS = 3


def _goes_on(line: str) -> bool:
    """Whether a short line in lower case goes on with the heading above it: a prepositional
    phrase ("на русском", "для начинающих") finishes its name, where a subtitle ("правила для
    банд Хаоса") is a phrase of its own."""
    s = line.strip()
    toks = words(s)
    return bool(toks) and s[0].islower() and len(toks) <= _MAX_GOES_ON_WORDS \
        and pos(toks[0]) == "PREP" and s[-1].isalpha()


_MAX_ENTRY_WORDS = 8


def _errata_entries(lines: list[str], nonblank: list[int]) -> tuple[
        dict[int, tuple[int, int]], set[int]]:
    """An errata's entries (:data:`ingest.sections.ERRATA_ENTRY`): each heads what it says to
    change, on its line after a colon or under it (where a heading and its text part in the
    line, as :func:`run_in_heading` gives them). In a bilingual errata the English entry of a
    page a Russian entry amends too ("Page 58 – Kurt Helborg, …" over "Стр.58 – Курт
    Хельборг, …") is its original, no heading: it and its text go with the entry before."""
    found: dict[int, re.Match[str]] = {}
    for i in nonblank:
        if lines[i].lstrip()[:1] in "сСpP":  # the cheap test first
            m = ERRATA_ENTRY.match(lines[i])
            if m is not None and len(words(m.group("name"))) <= _MAX_ENTRY_WORDS:
                found[i] = m
    russian = {m.group("page") for m in found.values() if m.group("ru")}
    entries: dict[int, tuple[int, int]] = {}
    english: set[int] = set()
    for i, m in found.items():
        if m.group("en") and m.group("page") in russian:
            english.add(i)
        else:
            text = m.start("text") if m.group("text") else len(lines[i].rstrip())
            entries[i] = (m.end("name"), text)
    return entries, english


def _title_in_two_lines(lines: list[str], nonblank: list[int], nxt: dict[int, int | None],
                        i: int) -> bool:
    """Whether the text's first line and the next, both in capitals and one blank line apart,
    are one title set large over two lines: the game's or the series' name in Latin letters
    over the Russian title ("KILL TEAM" / "КАМПАНИИ"), text, no heading in capitals, after
    them. (Two Russian lines so set are as often a chapter and its first heading.)"""
    j = nxt[i]
    if i != nonblank[0] or j != i + 2 or lines[i + 1].strip():
        return False
    if not (lines[i].isascii() and not lines[j].isascii()):
        return False
    after = nxt[j]
    return after is not None and not lines[after].isupper()


def _page_title(lines: list[str], i: int, next_line: str | None) -> bool:
    """Whether the text's first line is the page's title: a headline (longer than a heading
    may be, :func:`is_heading_line` with ``title``) on a line of its own, a blank line or a
    heading under it (its subtitle: "Психическая фаза Warhammer 40k: чек-лист по
    действиям")."""
    alone = i + 1 >= len(lines) or not lines[i + 1].strip() or is_heading_line(
        lines[i + 1], None)
    return alone and is_heading_line(lines[i], next_line, title=True)


# "++ Вниманию граждан Империума! ++": a line set in a frame of the same marks at both ends
_FRAMED = re.compile(r"^\s*([^\w\s«»\"'(\[])\1*\s.*\S\s\1+\s*$")


def _without_banners(lines: list[str], nonblank: list[int], cand: list[int]) -> list[int]:
    """The candidates without a blog's banners: lines framed alike ("++ Вниманию граждан
    Империума! ++", "++ Да не отвернется Он от нас! ++"), two or more, are the site's
    decoration of its messages, not headings of the text."""
    frames = {i: m.group(1) for i in nonblank
              if lines[i].lstrip()[:1] == lines[i].rstrip()[-1:] and (m := _FRAMED.match(lines[i]))}
    counts = Counter(frames.values())
    return [i for i in cand if i not in frames or counts[frames[i]] < 2]


_MAX_SUBTITLE_WORDS = 6
_MAX_SUBTITLE_CHARS = 60


def _above_subtitle(lines: list[str], i: int, nxt: dict[int, int | None]) -> bool:
    """A heading over its subtitle in lower case ("Путь к Величию" / "правила для банд
    Хаоса"), which a heading line is not otherwise (a line in lower case goes on with it): the
    subtitle is short, ends in no punctuation and holds no verb, and a new sentence or heading
    follows it."""
    j = nxt[i]
    if j is None or j != i + 1 or not lines[i][:1].isupper():
        return False
    sub = lines[j].strip()  # the cheap tests first: this runs for every line of text
    if not sub[:1].islower() or not sub[-1].isalpha() or len(sub) > _MAX_SUBTITLE_CHARS:
        return False
    k = nxt[j]
    if k is not None and not lines[k].strip()[:1].isupper():
        return False
    if len(words(sub)) > _MAX_SUBTITLE_WORDS or len(words(lines[i])) > _MAX_SUBTITLE_WORDS:
        return False
    return not _has_finite_verb(sub) and is_heading_line(lines[i], None)


# a part's ordinal alone on its line: "СЦЕНАРИЙ ТРЕТИЙ", "Часть первая", "Глава 2", "Битва
# IV", "Третий сценарий" (with a name after it, "Сценарий 2: Обоз", it is a heading)
_PARTS = (r"(?:сценари[йя]|част[ьи]|глав[аы]|раздел|книга|том|мисси[яи]|битва|приложение|акт"
          r"|эпизод|scenario|chapter|part|mission|battle|book|appendix)")
_ORDINAL = (r"(?:перв|втор|трет|четв[её]рт|пят|шест|седьм|восьм|девят|десят|одиннадцат"
            r"|двенадцат)[а-яё]{0,3}")
_PART_LABEL = re.compile(
    rf"^\s*(?:{_PARTS}\s+(?:{_ORDINAL}|\d{{1,3}}|[IVXLC]{{1,6}})|{_ORDINAL}\s+{_PARTS})\.?\s*$",
    re.IGNORECASE)

# an English name in capitals on its line, and a Russian one with no Latin letter in it
_ENGLISH_CAPS = re.compile(r"^\s*[A-Z][A-Z'’&\- ]{2,40}[A-Z]\s*$")
_RUSSIAN_NAME = re.compile(r"^\s*[А-ЯЁ][^A-Za-z\n]{1,60}$")

# a conjunction or preposition alone on a line in capitals: a heading broken at it goes on
_CAPS_CONNECTOR = re.compile(r"^\s*(?:И|ИЛИ|В|ВО|НА|ПО|ДЛЯ|ПРИ|С|СО|ОТ|ИЗ|К|&)\s*$")

_MODIFIER = re.compile(r"^\s*[+\-−–]\d")  # "+1 к результату боя …", "-1 на попадание …"
