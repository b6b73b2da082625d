"""The web-page layout (WHFB, Kill Team): headings on their own lines.

A heading stands on its own line (:func:`ingest.segment_headings.is_heading_line`, with the
other shapes of a heading line); "Страница N" footers close a page;
line-wrapped paragraphs continue on lines that start in lower case. A heading's parent comes
from the titles, group headings and gaps around it and from the headings' own shapes
(:mod:`ingest.segment_nesting`).
"""

from __future__ import annotations

import re
from bisect import bisect_left
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
    unparen,
)
from ingest.segment_alphabet import glossary_entries
from ingest.segment_flavour import epigraphs, flavour_items, label_spans, picture_labels
from ingest.segment_headings import (
    _NUMBER,
    BULLET,
    _broken_heading,
    _has_finite_verb,
    _has_predicate,
    _is_caps,
    announces_name,
    column_header,
    dash_named_items,
    field_shaped,
    is_field,
    is_heading_line,
    run_in_heading,
)
from ingest.segment_lists import (
    caps_over_text,
    colon_labels,
    contents_entry,
    contents_paragraphs,
    form_fields,
    is_label,
    lead_in_items,
    numeric_table_headers,
    pictogram_items,
    pipe_cells,
    split_list_items,
    table_cells,
)
from ingest.segment_nesting import nest_lines, priced_entries, steps_under_heading
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
_NUMBER_NEAR = 12  # lines around a numbered line where the items of its list would stand
# a dice table's roll cell on a line of its own ("1", "2-5", "6", "4+"), as a table copied from
# a PDF or a web page one cell a line sets it
_DICE_CELL = re.compile(r"\s*\d{1,2}(?:\s*[-–—]\s*\d{1,2}|\+)?\s*")
_TABLE_LOOK = 6  # lines below a roll cell where the table's next roll cell stands
# a dice table's row: its roll or rolls, then the result's words ("1 Ужасное происшествие!",
# "2-5 Скользящее попадание", "4 5 6 Задержавшиеся.")
_ROLL_ROW = re.compile(r"\s*\d{1,2}(?:\s*[-–—]\s*\d{1,2}|\+)?(?:\s+\d{1,2})*\s+[^\W\d_]")
# what says a table of rolls is near: a die ("D6", "2D6", "Д3"), a table, a roll
_DICE_CUE = re.compile(r"(?i:(?<!\w)\d?[DД]\d{1,2}(?!\w)|таблиц|брос)")
_TABLE_TITLE = re.compile(r"(?i:таблиц|table)")
_LIST_OTHERS = 2  # other numbered lines of its style near it that make a line a list's item


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
    cand = _drop_false_headings(lines, nonblank, cand, set(runin), frozenset(form_names),
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


def _after_lead_in(lines: list[str], prev: dict[int, int | None], order: dict[int, int],
                   numbers: dict[int, int], numbered_at: list[tuple[int, int, int]], i: int
                   ) -> bool:
    """Whether the numbered line ``i`` is of a run numbered from 1 whose first line follows a
    lead-in ending with a colon, a sentence ("бросить D6 и свериться с таблицей внизу:"; a
    heading with a colon, "Правила турнира:", heads its clauses)."""
    k = bisect_left(numbered_at, (order[i], -1, -1))
    n, at = numbers[i], order[i]
    while n > 1:  # back through the run: each number one less, near the one after it
        k -= 1
        if k < 0 or at - numbered_at[k][0] > _NUMBER_NEAR or numbered_at[k][1] != n - 1:
            return False
        at, n = numbered_at[k][0], n - 1
        i = numbered_at[k][2]
    p = prev[i]
    return p is not None and lines[p].rstrip().endswith(":") \
        and _has_finite_verb(lines[p].rstrip().rstrip(":"))


def _drop_false_headings(lines: list[str], nonblank: list[int], cand: list[int],
                         runin: set[int] | None = None,
                         form_names: frozenset[int] = frozenset(),
                         colons: frozenset[int] = frozenset(),
                         parts: set[int] | None = None) -> list[int]:
    """Heading-like lines that are not headings by what stands around them.

    A line after one that left a bracket open continues it ("(с." / "133)."); the text's
    last line heads nothing (a page cut off after it, or in it: "Некоторые т", "Не"), unless
    its text follows the heading on the line itself; a numbered line is a heading only
    alone: a line numbered next to another of the same run of numbers and the same style
    ("1. Инициативная фаза", "2. Фаза движения") is a list item ("2. ДВИЖЕНИЕ" above "1.
    Объявление атак" is a heading over its list), and so is one numbered like another near it
    or with two others near it (a web page's list renumbered "1.", "1.", "3."). A line ending
    in a word over a line ending a sentence is one sentence wrapped, unless both are rules run
    in after a colon (``colons``: "Prepared Ground: … на 6 дюймов" / "Fortress-bound: …").
    ``parts``, when given, gets the numbered lines of a run kept as parts of the text (no run
    of heading lines makes them a list's items).
    """
    prev: dict[int, int | None] = {}
    following: dict[int, int] = {}
    for k, i in enumerate(nonblank):
        prev[i] = nonblank[k - 1] if k else None
        if k:
            following[nonblank[k - 1]] = i
    numbers: dict[int, int] = {}
    styles: dict[int, bool] = {}  # a list's items share a style: all in capitals or none
    for i in nonblank:
        m = _NUMBER.match(lines[i])
        if m:
            numbers[i] = int(m.group(1))
            styles[i] = _is_caps(lines[i][m.end():])
    keep = []
    heads = set(cand)  # a heading-like line above is no sentence running on
    # (a label run in after a colon under a numbered line is its text: made once, a set made
    # for each line would cost a text of many numbered lines their square)
    text_heads = heads - colons
    last = nonblank[-1] if nonblank else None
    order = {i: k for k, i in enumerate(nonblank)}
    numbered_at = sorted((order[j], n, j) for j, n in numbers.items())
    wrapped = wrap_width(lines)  # (a column's line of a copy of a PDF runs on below it
    # however short: a line of words in mixed case below it goes on with it)
    rows = _RowShapes(lines)
    for i in cand:
        p = prev[i]
        if p is not None and lines[p].count("(") > lines[p].count(")"):
            continue
        if p == i - 1 and p not in heads and i not in (runin or set()) \
                and (_runs_on(lines[p]) or (_runs_on(lines[p], wrapped) and _wrapped_words(
                    lines[p]) and not _is_caps(lines[i]))) \
                and not CASTING_VALUE.search(lines[i].rstrip()):
            continue  # "… прямо из Основной" / "Книги Правил шестой редакции.": one sentence
            # (no sentence goes on into a spell's heading with its casting value)
        if wrapped < _WRAPPED_LINE and following.get(i) == i + 1 and (p != i - 1 or p in heads) \
                and _runs_on(lines[i], wrapped) and _wrapped_words(lines[i]) \
                and not _is_caps(lines[i + 1]) and _has_predicate(lines[i]) \
                and i not in (runin or set()):
            continue  # a column's line that opens a paragraph and stops mid-sentence, its
            # sentence's predicate in it ("Демоны проводят большую часть своего" /
            # "существования …"), in a copy wrapped at a PDF column's width
        if p == i - 1 and announces_name(lines[p]):
            continue  # "На все Бои действует правило" / "Приближение шторма": the rule's name
        if p == i - 1 and is_label(lines[p]) and i not in form_names \
                and not caps_over_text(lines, i) and i + 1 not in colons:
            continue  # "Тип подразделения:" / "Техника (Шагатель)": a field's value (a form's
            # name, "Название:" / "Ликтор", heads the form; a heading in capitals over its
            # text, "Rulebook:" / "ADDITIONAL CHARACTERISTICS" / "In addition to …", is
            # the heading of what a label introduces; so is a name over rules run in after a
            # colon, "Правила на альтернативные FOC:" / "Raider Detachment" / "Fast moving, …: …")
        if field_shaped(lines[i]) and i not in (runin or set()) \
                and _among_fields(lines, i, following.get(i)):
            continue  # "Дата проведения: 27 августа" / "Место проведения: подвал": a field
        if p == i - 1 and BULLET.match(lines[p]) and lines[p].rstrip().endswith((":", ",")):
            continue  # "• Легендарные полки:" / "Проклятый Батальон.": the item goes on
        # (a numbered clause with its name and text, "1) Редакция. Все игры …", goes on from
        # no line above it)
        clause = runin is not None and i in runin and _NUMBER.match(lines[i]) is not None
        # (a rule run in after its name at its line's start, "Fortress-bound: Если …", goes on
        # from no line above it either, and the line above it ends its own entry)
        if p == i - 1 and lines[i].rstrip().endswith(".") and _ends_in_word(lines[p]) \
                and not clause and not (p in colons and i in colons):
            continue  # "… материалы для Warhammer" / "Fantasy Battles 6-ой редакции.": one
        if i + 1 in heads and lines[i + 1].rstrip().endswith(".") and _ends_in_word(lines[i]) \
                and not (runin is not None and i + 1 in runin and _NUMBER.match(lines[i + 1])) \
                and not (i in colons and i + 1 in colons):
            continue  # … sentence, of which this line is the start
        if i == last and i not in (runin or set()):
            continue
        if _table_head(lines, i, rows):
            continue  # "Техника или строение" / "Не техника" / "1" / "Везение: …" / "2-5":
            # the column heads of a dice table set one cell a line
        if clause and _after_lead_in(lines, prev, order, numbers, numbered_at, i):
            continue  # "… свериться с таблицей внизу:" / "1. Заминировано! …" / "3.
            # Противовоздушное звено. …": a table's or a list's rows, no clauses
        if clause and _among_plain_items(lines, numbers, order, numbered_at, runin or set(), i):
            continue  # "3. Если нет возможности играть 2 дня, …" / "4. Полный визивиг. Если
            # у модели …" / "5. Ассеты только из …": one item of a list of sentences
        if i in numbers and not styles[i] and not CASTING_VALUE.search(lines[i].rstrip()) \
                and i not in (runin or set()):
            # a numbered line in capitals is a heading, and so is a lore's spell with its
            # casting value ("1. Огненный плащ (5+)"), and a numbered clause's name before its
            # text ("2) Домашние правила. Любые расширения …")
            k = order[i]
            lo = bisect_left(numbered_at, (k - _NUMBER_NEAR, -1, -1))
            hi = bisect_left(numbered_at, (k + _NUMBER_NEAR + 1, -1, -1))
            near = [n for at, n, j in numbered_at[lo:hi] if at != k and styles[j] == styles[i]]
            if any(abs(n - numbers[i]) <= 1 for n in near) or len(near) >= _LIST_OTHERS:
                # (a label run in after a colon under the line is its text: "2.
                # Характеристики оперативника:" / "Передвижение (Move): Дистанция …")
                if not _numbered_part(lines, nonblank, order, numbers, text_heads, i):
                    continue
                if parts is not None:
                    parts.add(i)
        keep.append(i)
    return keep


class _RowShapes:
    """Whether a line is a dice table's roll cell alone ("1", "2-5") or a roll's row ("1
    Ужасное происшествие!"), each line read once however many heads look down at it (a list of
    many numbered lines looks at each line from the six above it)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self._cell: dict[int, bool] = {}
        self._row: dict[int, bool] = {}

    def cell(self, j: int) -> bool:
        if j not in self._cell:
            self._cell[j] = _DICE_CELL.fullmatch(self.lines[j]) is not None
        return self._cell[j]

    def row(self, j: int) -> bool:
        if j not in self._row:
            self._row[j] = _ROLL_ROW.match(self.lines[j]) is not None
        return self._row[j]


def _table_head(lines: list[str], i: int, rows: _RowShapes | None = None) -> bool:
    """Whether line ``i`` heads a dice table's columns: the lines right below it (no blank
    line between) reach a roll cell on a line of its own ("1", "2-5") that another follows a
    few lines on, the table's next row; or reach a row of a roll and its result ("1 Ужасное
    происшествие!") that another row follows, where a die, a table or a roll is named on the
    head's line or the two lines above it (a list numbered without periods is no table). A
    line that names a table is its title ("Таблица повреждений техники"), and heads it."""
    if _TABLE_TITLE.search(lines[i]):
        return False
    rows = rows or _RowShapes(lines)
    j = i + 1
    while j < len(lines) and lines[j].strip() and not rows.cell(j) and not rows.row(j) \
            and j - i <= _TABLE_LOOK:
        j += 1
    if j >= len(lines) or not lines[j].strip():
        return False
    below = range(j + 1, min(len(lines), j + 1 + _TABLE_LOOK))
    if rows.cell(j):
        return any(rows.cell(k) for k in below)
    if not rows.row(j) or not any(rows.row(k) for k in below):
        return False
    above = [line for line in lines[max(0, i - 4):i] if line.strip()][-2:]
    return any(_DICE_CUE.search(line) for line in [*above, lines[i]])


def _among_plain_items(lines: list[str], numbers: dict[int, int], order: dict[int, int],
                       numbered_at: list[tuple[int, int, int]], runin: set[int], i: int) -> bool:
    """Whether the numbered clause ``i`` ("4. Полный визивиг. Если …") stands between the
    items numbered one less before it and one more after it, near it, neither of them one
    with its name before a period or a dash: an item of a list of sentences, as its
    neighbours are (a list of clauses, "1) Редакция. Все игры …" / "2) Домашние правила.
    Любые …", names each)."""
    k = order[i]
    lo = bisect_left(numbered_at, (k - _NUMBER_NEAR, -1, -1))
    hi = bisect_left(numbered_at, (k + _NUMBER_NEAR + 1, -1, -1))
    here = bisect_left(numbered_at, (k, -1, -1))
    # (the nearest item numbered one less before it and one more after it: another list near
    # it has its own)
    before = next((j for at, n, j in reversed(numbered_at[lo:here]) if n == numbers[i] - 1),
                  None)
    after = next((j for at, n, j in numbered_at[here + 1:hi] if n == numbers[i] + 1), None)
    if before is None or after is None:
        return False
    return not any(j in runin or _NAMED_ITEM.match(lines[j]) for j in (before, after))


# a numbered item that opens with a name before a period or a spaced dash ("3) Опасный
# ландшафт – по-прежнему …", "4) Проверка линии видимости. Теперь …")
_NAMED_ITEM = re.compile(r"^\s*\d{1,2}[.)]\s+[^.!?\n]{1,50}?(?:\.\s|\s[-–—]\s)")


def _among_fields(lines: list[str], i: int, below: int | None) -> bool:
    """Whether the line right above or below line ``i`` (no blank line between), or the next
    line with words below it (a datasheet's copy spaces its fields apart: "Тип отряда: Пехота
    (Персонаж)." / "" / "Состав отряда: 1 (Уникальный)."), is a field by its own words (a date,
    a number, a comma-separated value: :func:`~ingest.segment_headings.is_field`). (A label
    after a field and a blank line, over a paragraph, heads it: "Формат: 1250 очков" / "" /
    "Магия: общие правила" / "Псайкеры проходят тест …".)"""
    return any(0 <= j < len(lines) and lines[j].strip() and is_field(lines[j])
               for j in (i - 1, i + 1)) or (below is not None and is_field(lines[below]))


_PARAGRAPH = 100
"""Characters of text under a numbered line, before the next numbered line, that make it a
heading over a paragraph rather than a list's item."""


def _over_paragraph(lines: list[str], nonblank: list[int], order: dict[int, int],
                    numbers: dict[int, int], heads: set[int], i: int,
                    chapter: bool = True) -> bool:
    """Whether a short numbered line without a predicate stands over a paragraph of its own
    ("1. Стены." / "Каждая стена должна иметь парапет …" / "2. Башни."): a numbered section
    of a text, not a list's item, however its numbers run. (The paragraph is looked for in the
    next :data:`_NUMBER_NEAR` lines only, so a text of many numbered lines costs as many
    short looks.)"""
    size = 0
    over = False
    for k in range(order[i] + 1, min(len(nonblank), order[i] + 1 + _NUMBER_NEAR)):
        j = nonblank[k]
        if j in numbers:
            # a chapter's number right over its first numbered part ("11. Осада." / "1.
            # Стены." / "Каждая стена …"): the chapter holds the parts (one level: the part
            # itself is looked at as a part)
            over = chapter and not size and numbers[j] == 1 and numbers[i] != 2 \
                and _over_paragraph(lines, nonblank, order, numbers, heads, j, chapter=False)
            break
        if j in heads:
            break  # a heading of another kind ends the step's text first
        if not BULLET.match(lines[j]):  # a bulleted list under a step is no paragraph
            size += len(lines[j].strip())
        if size >= _PARAGRAPH:
            over = True
            break
    if not over:
        return False
    # (the line's own words last: the text under it is the cheaper test)
    number = _NUMBER.match(lines[i])
    # (a name in brackets beside the heading's, "(roll range attack dice)", is no more of it)
    head = unparen(lines[i][number.end():]).strip().rstrip(".") if number else ""
    return bool(head) and len(words(head)) <= 6 and not _has_predicate(head)


def _numbered_part(lines: list[str], nonblank: list[int], order: dict[int, int],
                   numbers: dict[int, int], heads: set[int], i: int) -> bool:
    """Whether a numbered line of a run is a part of the text, not a list's item: it stands
    over a paragraph, and so does the line numbered before it, if any ("1. на все типы …" /
    "2. …" / "3. На любой второй сейв." / "Битва происходит …" is a list's last item)."""
    if not _over_paragraph(lines, nonblank, order, numbers, heads, i):
        # a run's first part over no text of its own, right above two parts over paragraphs
        # ("1. Тип оперативника." / "2. Характеристики оперативника:" / … / "3. …")
        k = order[i] + 1
        run = [x for x in nonblank[k:k + _NUMBER_NEAR] if x in numbers][:2]
        return len(run) == 2 and run[0] == nonblank[k] \
            and [numbers[x] for x in run] == [numbers[i] + 1, numbers[i] + 2] \
            and all(_over_paragraph(lines, nonblank, order, numbers, heads, x) for x in run)
    for j in reversed(nonblank[max(0, order[i] - _NUMBER_NEAR):order[i]]):
        if numbers.get(j) == numbers[i] - 1:
            if _over_paragraph(lines, nonblank, order, numbers, heads, j):
                return True
            # (the one before stands over nothing, a run's empty first item; the run's parts
            # go on when the one after is over a paragraph too: "1. Тип оперативника." / "2.
            # Характеристики оперативника:" / … / "3. Характеристики оружия:" / …)
            k = order[i] + 1
            after = next((x for x in nonblank[k:k + _NUMBER_NEAR]
                          if numbers.get(x) == numbers[i] + 1), None)
            return after is not None and _over_paragraph(lines, nonblank, order, numbers,
                                                         heads, after)
    return True


_WRAPPED_LINE = 50  # a line this long that stops mid-sentence goes on on the next line
_WRAPPED_WORDS = 3  # a line of this many words that stops in a word goes on with a sentence's end


def _ends_in_word(line: str) -> bool:
    """Whether a line of a few words opens a sentence and stops in a word, not at the
    sentence's end: a line the next one's "." may end (a sentence set over two lines), unless
    it is in capitals (a heading) or in lower case (a subtitle: "правила для банд Хаоса")."""
    s = line.strip()
    return s[:1].isupper() and s[-1:].isalpha() and len(words(s)) >= _WRAPPED_WORDS \
        and not _is_caps(s)


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


def _runs_on(line: str, width: int = _WRAPPED_LINE) -> bool:
    """Whether a line of text stops in the middle of a sentence (a paragraph wrapped at its
    line ends): it is long (``width``: :func:`wrap_width`), and ends in a word or a comma, not
    a sentence's end or a colon."""
    s = line.rstrip()
    return len(s) >= width and (s[-1].isalpha() or s[-1] in ",-") \
        and not _is_caps(s)


def _wrapped_words(line: str) -> bool:
    """Whether a line shorter than a page's paragraph holds words enough to be a wrapped
    column's line ("Будучи необычайно быстрыми, такие"), not a label ("advertisement")."""
    return len(line.split()) >= _WRAPPED_WORDS


_WRAPPED_WORDS = 3
_WRAPPED_MIN = 5  # lines going on in lower case below them that show a text's wrapping
_WRAPPED_SHARE = 0.7  # of their median length: a line this long that stops mid-sentence


def wrap_width(lines: list[str]) -> int:
    """How long a line of the text is that stops mid-sentence because its paragraph was
    wrapped: :data:`_WRAPPED_LINE` for a page whose paragraphs are lines, less for a text a
    PDF's columns wrapped (a copy of a rulebook's page, "Будучи необычайно быстрыми, такие" /
    "воины могут покрывать большие рас-"): a share of the median length of its lines that
    stop in a word or a comma right above a line going on in lower case, when it has enough
    of them."""
    widths = sorted(len(a.rstrip()) for a, b in zip(lines, lines[1:], strict=False)
                    if a.rstrip()[-1:].isalpha() or a.rstrip()[-1:] in ",-"
                    if b[:1].islower())
    if len(widths) < _WRAPPED_MIN:
        return _WRAPPED_LINE
    return min(_WRAPPED_LINE, int(widths[len(widths) // 2] * _WRAPPED_SHARE))


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
