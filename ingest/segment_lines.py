"""The web-page layout (WHFB, Kill Team): headings on their own lines.

A heading stands on its own line (:func:`ingest.segment_headings.is_heading_line`, with the
other shapes of a heading line); "Страница N" footers close a page;
line-wrapped paragraphs continue on lines that start in lower case. A heading's parent comes
from the titles, group headings and gaps around it (:func:`_nest_lines`).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from functools import lru_cache

from ingest.sections import (
    STEP_NAME,
    Flavour,
    Section,
    Segmentation,
    Span,
    is_group_title,
    names_phase,
    title_and_aliases,
    unparen,
)
from ingest.segment_headings import (
    _MAX_CHARS,
    _MAX_WORDS,
    _NUMBER,
    _broken_heading,
    _has_finite_verb,
    _is_caps,
    is_heading_line,
    run_in_heading,
)
from ingest.vocabulary import Vocabulary
from kb.lemmas import lemma_key, lemma_words, name_words, pos, words

_BULLET = re.compile(r"^\s*[-•–—]\s")
_BARE_NUMBER = re.compile(r"^\s*\d{1,4}\s*$")  # a page number on its own line, not text
_OPEN_QUOTES = "«“‘\"'„"
_CLOSE_QUOTES = "»”’\"'“"
_MAX_QUOTE_CHARS = 800


def segment_lines(
    text: str, vocab: Vocabulary, system: str | None, gaps: dict[int, int],
    page_ends: list[int], colon: dict[int, tuple[int, int]] | None = None,
) -> Segmentation:
    """Split a web-page text into sections: each heading line opens one that runs to the next.

    Args:
        text: the cleaned text.
        vocab: the unit type vocabulary of the system.
        system: the game system (Kill Team nests its headings under phases).
        gaps: blank lines in the source before a heading at a cleaned offset.
        page_ends: cleaned offsets where a page footer closed a page.
        colon: rules that run in after a colon
            (:func:`ingest.segment_headings.colon_run_ins`), each at a line's start.
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

    cand = [i for i in nonblank if is_heading_line(lines[i], following(i))
            or _above_subtitle(lines, i, nxt)]
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
    seconds: set[int] = set()  # the second lines of broken headings
    colon_lines: set[int] = set()  # rules whose names run in after a colon
    for i in nonblank:
        if i in seconds:
            continue
        at = offsets[i] + len(lines[i]) - len(lines[i].lstrip())
        if colon and at in colon:
            runin[i] = (colon[at][0] - offsets[i], colon[at][1] - offsets[i])
            colon_lines.add(i)
            continue
        m = run_in_heading(lines[i], dash_only=i in taken)
        if m is not None:
            runin[i] = m
            continue
        j = nxt[i]
        # two lines in capitals, one under the other, are one heading even if each looks one
        adjacent_caps = j == i + 1 and lines[i].isupper() and lines[j].isupper()
        if i in taken and j == i + 1 and _goes_on(lines[j]):
            joined[i] = j  # "Правила Kill Team" / "на русском": one heading
            seconds.add(j)
            continue
        if i in taken and not adjacent_caps:
            continue
        if j is not None and (j not in taken or adjacent_caps) \
                and _broken_heading(lines[i], lines[j], following(j)):
            joined[i] = j
            seconds.add(j)
    cand = sorted({*cand, *runin, *joined} - seconds)
    cand = _drop_false_headings(lines, nonblank, cand, set(runin))
    contents = _contents_paragraphs(lines)
    cand = [i for i in cand if i not in contents and not _contents_entry(lines, i)]
    flavour_lines, named = _epigraphs(lines, nonblank, cand)
    labels = _picture_labels(lines, nonblank, set(cand))
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
        while k + 1 < len(cand) and nxt[run[-1]] == cand[k + 1] and run[-1] not in runin \
                and run[-1] != headline:
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
            if after is not None and after not in cset and not _BARE_NUMBER.match(lines[after]):
                heads.append(last)
                list_heads.add(run[0])
        else:
            heads.extend(run)
        k += 1
    # a bonus line right under a heading ("Нанесённые раны" / "+1 к результату боя за …") is
    # the heading's rule; after text ("+1 при стрельбе по большим целям.") it heads its own
    prev_line = {i: nonblank[k - 1] if k else None for k, i in enumerate(nonblank)}
    head_set = set(heads)
    heads = [i for i in heads
             if not (_MODIFIER.match(lines[i]) and prev_line[i] in head_set)]

    sections: list[Section] = []
    for n, i in enumerate(heads):
        start = offsets[i] + (len(lines[i]) - len(lines[i].lstrip()))
        end = offsets[i] + len(lines[i].rstrip())
        body_start = end
        if i in runin:
            end, body_start = offsets[i] + runin[i][0], offsets[i] + runin[i][1]
        elif i in joined:
            end = body_start = offsets[joined[i]] + len(lines[joined[i]].rstrip())
        body_end = offsets[heads[n + 1]] if n + 1 < len(heads) else len(text)
        while body_end > body_start and text[body_end - 1].isspace():
            body_end -= 1
        heading = text[start:end]
        title, aliases = title_and_aliases(" ".join(heading.split()))
        sections.append(Section(title, heading, (start, end), (body_start, body_end),
                                aliases=aliases, is_list=i in list_heads))
    flavour = _flavour_items(text, lines, offsets, flavour_lines, named)
    flavour += [Flavour("caption", span, text[span[0]:span[1]])
                for span in _label_spans(lines, offsets, labels)]
    flavour.sort(key=lambda f: f.span)
    for sec in sections:
        sec.flavour_spans = [f.span for f in flavour
                             if sec.body_span[0] <= f.span[0] and f.span[1] <= sec.body_span[1]]
    entries = {n for n, i in enumerate(heads) if i in colon_lines}
    _nest_lines(sections, text, vocab, system, gaps, page_ends, entries)
    _steps_under_heading(sections, text)
    _title_over_parts(sections, text)
    _chapter_over_rules(sections, text)
    return Segmentation(sections, flavour, "lines")


def _drop_false_headings(lines: list[str], nonblank: list[int], cand: list[int],
                         runin: set[int] | None = None) -> list[int]:
    """Heading-like lines that are not headings by what stands around them.

    A line after one that left a bracket open continues it ("(с." / "133)."); the text's
    last line heads nothing (a page cut off after it, or in it: "Некоторые т", "Не"), unless
    its text follows the heading on the line itself; a numbered line is a heading only
    alone: a line numbered next to another of the same run of numbers and the same style
    ("1. Инициативная фаза", "2. Фаза движения") is a list item ("2. ДВИЖЕНИЕ" above "1.
    Объявление атак" is a heading over its list), and so is one numbered like another near it
    or with two others near it (a web page's list renumbered "1.", "1.", "3.").
    """
    prev: dict[int, int | None] = {}
    for k, i in enumerate(nonblank):
        prev[i] = nonblank[k - 1] if k else None
    numbers: dict[int, int] = {}
    styles: dict[int, bool] = {}  # a list's items share a style: all in capitals or none
    for i in nonblank:
        m = _NUMBER.match(lines[i])
        if m:
            numbers[i] = int(m.group(1))
            styles[i] = _is_caps(lines[i][m.end():])
    keep = []
    heads = set(cand)  # a heading-like line above is no sentence running on
    last = nonblank[-1] if nonblank else None
    order = {i: k for k, i in enumerate(nonblank)}
    numbered_at = sorted((order[j], n, j) for j, n in numbers.items())
    for i in cand:
        p = prev[i]
        if p is not None and lines[p].count("(") > lines[p].count(")"):
            continue
        if p == i - 1 and p not in heads and _runs_on(lines[p]) and i not in (runin or set()):
            continue  # "… прямо из Основной" / "Книги Правил шестой редакции.": one sentence
        if p == i - 1 and _is_label(lines[p]):
            continue  # "Тип подразделения:" / "Техника (Шагатель)": a field's value
        if p == i - 1 and _BULLET.match(lines[p]) and lines[p].rstrip().endswith((":", ",")):
            continue  # "• Легендарные полки:" / "Проклятый Батальон.": the item goes on
        if p == i - 1 and lines[i].rstrip().endswith(".") and _ends_in_word(lines[p]):
            continue  # "… материалы для Warhammer" / "Fantasy Battles 6-ой редакции.": one
        if i + 1 in heads and lines[i + 1].rstrip().endswith(".") and _ends_in_word(lines[i]):
            continue  # … sentence, of which this line is the start
        if i == last and i not in (runin or set()):
            continue
        if i in numbers and not styles[i]:  # a numbered line in capitals is a heading
            k = order[i]
            lo = bisect_left(numbered_at, (k - _NUMBER_NEAR, -1, -1))
            hi = bisect_left(numbered_at, (k + _NUMBER_NEAR + 1, -1, -1))
            near = [n for at, n, j in numbered_at[lo:hi] if at != k and styles[j] == styles[i]]
            if any(abs(n - numbers[i]) <= 1 for n in near) or len(near) >= _LIST_OTHERS:
                continue
        keep.append(i)
    return keep


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


def _runs_on(line: str) -> bool:
    """Whether a line of text stops in the middle of a sentence (a paragraph wrapped at its
    line ends): it is long, and ends in a word or a comma, not a sentence's end or a colon."""
    s = line.rstrip()
    return len(s) >= _WRAPPED_LINE and (s[-1].isalpha() or s[-1] in ",-") \
        and not _is_caps(s)


_MAX_LABEL_WORDS = 4


def _is_label(line: str) -> bool:
    """A datasheet's field label on a line of its own ("Тип подразделения:"), its value on
    the next line."""
    s = line.strip()
    return s.endswith(":") and 0 < len(words(s)) <= _MAX_LABEL_WORDS and not _BULLET.match(s)


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


_MODIFIER = re.compile(r"^\s*[+\-−–]\d")  # "+1 к результату боя …", "-1 на попадание …"

# "Бег 38", "ВВЕДЕНИЕ 4 Скорострельное оружие 42": a name and the page it starts on
_PAGE_AFTER_NAME = re.compile(r"[^\W\d_][)?!.]?\s+\d{1,3}$")
_CONTENTS_NEAR = 3  # lines each side where the other entries of a contents list stand
_CONTENTS_OTHERS = 2  # how many of them must end in a page too


def _contents_entry(lines: list[str], i: int) -> bool:
    """Whether a heading-like line is an entry of a table of contents: it ends in a page
    number after a name, and so do at least two of the lines around it in its paragraph (one
    line "Фаза 2" is a heading; a column of "Бег 38", "ВООРУЖЕНИЕ 40", "Пистолеты 42" is a
    contents page, which the heading above it, "СОДЕРЖАНИЕ", heads)."""
    if _PAGE_AFTER_NAME.search(lines[i].rstrip()) is None:
        return False
    around = []
    for step in (-1, 1):  # the lines of its paragraph, up to a blank line
        j = i + step
        while 0 <= j < len(lines) and abs(j - i) <= _CONTENTS_NEAR and lines[j].strip():
            around.append(j)
            j += step
    return sum(_PAGE_AFTER_NAME.search(lines[j].rstrip()) is not None
               for j in around) >= _CONTENTS_OTHERS


# "Штурмовое оружие 41 ЛЕТАЮЩИЕ МОНСТРУОЗНЫЕ": a name and its page, anywhere in the line (a
# contents page of two columns set on one line)
_PAGE_INSIDE = re.compile(r"[^\W\d_][)?!.]?\s+\d{1,3}(?:$|\s+[^\W\d_])")
_MAX_CONTENTS_LINE = 80
_MIN_CONTENTS_LINES = 4
_CONTENTS_SHARE = 0.6


def _contents_paragraphs(lines: list[str]) -> set[int]:
    """The lines of paragraphs that are a table of contents: four lines or more, most of
    which hold a name and its page somewhere (two columns run together: "ОСНОВНЫЕ ПРАВИЛА 7
    ФАЗА НАСТУПЛЕНИЯ 44"), each short; their other lines ("БОЕВЫЕ ЕДИНИЦЫ С РЕАКТИВНЫМИ", its
    page on the next line) are the contents' too, but for a first line with no page: the
    heading over them ("СОДЕРЖАНИЕ")."""
    out: set[int] = set()
    start = 0
    for i in range(len(lines) + 1):
        if i < len(lines) and lines[i].strip():
            continue
        para = range(start, i)
        paged = [len(lines[j]) <= _MAX_CONTENTS_LINE and _PAGE_INSIDE.search(lines[j]) is not None
                 for j in para]
        if len(para) >= _MIN_CONTENTS_LINES and sum(paged) >= _CONTENTS_SHARE * len(para):
            out.update(para[0 if paged[0] else 1:])
        start = i + 1
    return out


_MAX_LABEL_CHARS = 30
_MIN_LABELS = 6
_MIN_BROKEN_LABELS = 2


def _picture_labels(lines: list[str], nonblank: list[int], cand: set[int]) -> set[int]:
    """The lines of a picture's labels copied as text: six or more short lines in a row (three
    words at most, no sentence's punctuation), two or more of them in lower case (a label
    broken over lines: "Силовой меч" / "эльдарского" / "клинок"). They are captions, none a
    heading; the last of them right above a heading is a heading over it ("Оружие" /
    "РУКОПАШНОЕ ОРУЖИЕ …")."""
    out: set[int] = set()
    run: list[int] = []
    for i in [*nonblank, -1]:
        s = lines[i].strip() if i >= 0 else ""
        if i >= 0 and len(s) <= _MAX_LABEL_CHARS and len(words(s)) <= 3 \
                and not s.endswith((".", "!", "?", ":", ";", ",")) and not _is_caps(s):
            run.append(i)
            continue
        if len(run) >= _MIN_LABELS and sum(lines[j].strip()[:1].islower()
                                           for j in run) >= _MIN_BROKEN_LABELS:
            if i in cand and run[-1] in cand:
                run.pop()
            out.update(run)
        run = []
    return out


def _label_spans(lines: list[str], offsets: list[int], labels: set[int]) -> list[Span]:
    """One span per run of label lines (blank lines between them do not part them)."""
    spans: list[Span] = []
    for i in sorted(labels):
        start = offsets[i] + len(lines[i]) - len(lines[i].lstrip())
        end = offsets[i] + len(lines[i].rstrip())
        if spans and not any(lines[j].strip() for j in range(_line_of(offsets, spans[-1][1]) + 1,
                                                                i)):
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


def _line_of(offsets: list[int], at: int) -> int:
    return bisect_left(offsets, at + 1) - 1


_NUMBER_NEAR = 12  # lines around a numbered line where the items of its list would stand
_LIST_OTHERS = 2  # other numbered lines of its style near it that make a line a list's item


def _epigraphs(lines: list[str], nonblank: list[int], cand: list[int]
               ) -> tuple[set[int], set[int]]:
    """Lines of flavour quotes, and the first lines of their attributions.

    A quote that opens a section ("‘В битве вроде этой…’" under its heading) is flavour, and
    so is a paragraph that is one quote anywhere with its attribution after it: a line with a
    dash ("- Скаут Сержант …", with the lines of its paragraph) or a speaker's name on the
    line right under the quote ("Капитан Сикарий, Ультрамарины"). A paragraph in quotes with
    no attribution may be a rule quoted, so it stays text.
    """
    out: set[int] = set()
    named: set[int] = set()
    order = {i: k for k, i in enumerate(nonblank)}
    opens = {order[h] + 1 for h in cand}
    starts = sorted(opens | {k for k, i in enumerate(nonblank)
                             if (i == 0 or not lines[i - 1].strip())
                             and lines[i].lstrip().startswith(tuple(_OPEN_QUOTES))})
    for k in starts:
        if k >= len(nonblank) or nonblank[k] in out \
                or not lines[nonblank[k]].lstrip().startswith(tuple(_OPEN_QUOTES)):
            continue
        quote, chars = [], 0
        while k < len(nonblank):
            line = lines[nonblank[k]].rstrip()
            quote.append(nonblank[k])
            chars += len(line)
            k += 1
            if line.endswith(tuple(_CLOSE_QUOTES)) or line[-2:-1] in _CLOSE_QUOTES and \
                    line.endswith((".", "!")) or chars > _MAX_QUOTE_CHARS:
                break
        if chars > _MAX_QUOTE_CHARS:
            continue
        after = nonblank[k] if k < len(nonblank) else None
        dash = after is not None and _BULLET.match(lines[after]) is not None
        speaker = after == quote[-1] + 1 and after is not None and _speaker(lines[after])
        if not (dash or speaker or order[quote[0]] in opens):
            continue
        out.update(quote)
        if after is None or not (dash or speaker):
            continue
        named.add(after)
        out.add(after)
        j = after
        while dash and j + 1 < len(lines) and lines[j + 1].strip():
            j += 1  # a dashed attribution runs on over its paragraph's lines
            out.add(j)
    return out, named


_MAX_SPEAKER_WORDS = 8


def _speaker(line: str) -> bool:
    """Whether a line under a quote names who said it: a few words from a capital, no verb,
    not a sentence, a question or a label."""
    s = line.strip()
    toks = words(s)
    return 0 < len(toks) <= _MAX_SPEAKER_WORDS and s[:1].isupper() \
        and not s.endswith((".", ":", ";", "?", "!")) and not _has_finite_verb(s)


def _flavour_items(text: str, lines: list[str], offsets: list[int], flavour_lines: set[int],
                   named: set[int]) -> list[Flavour]:
    """The quotes and attributions of :func:`_epigraphs`, one item per run of lines (an
    attribution's first line, ``named``, starts an item of its own)."""
    items: list[Flavour] = []
    run: list[int] = []

    def close() -> None:
        start = offsets[run[0]] + len(lines[run[0]]) - len(lines[run[0]].lstrip())
        end = offsets[run[-1]] + len(lines[run[-1]].rstrip())
        kind = "attribution" if run[0] in named else "quote"
        items.append(Flavour(kind, (start, end), text[start:end]))

    for i in sorted(flavour_lines):
        if run and (i in named or any(ln.strip() for ln in lines[run[-1] + 1:i])):
            close()
            run = []
        run.append(i)
    if run:
        close()
    return items


def _title_key(title: str) -> str:
    return lemma_key(re.sub(r"\(.*?\)", " ", title))



def _is_phase(title: str) -> bool:
    toks = words(title)
    if not toks or pos(toks[0]) == "PREP":
        return False
    lem = set(lemma_words(title))
    # "подфаза", "субфаза": a part of a phase is one too
    return bool(lem & {"фаза", "этап"}) or "round" in lem or any(
        w.endswith("фаза") for w in lem)


def _nest_lines(
    sections: list[Section], text: str, vocab: Vocabulary, system: str | None,
    gaps: dict[int, int], page_ends: list[int] | None = None, entries: set[int] | None = None,
) -> None:
    """Give each web-page heading its parent.

    In order: a heading that contains an open section's title hangs under it ("Дави! Для
    Пехоты Чудовищ" under "Пехота Чудовищ"); a heading after a group heading ("Типы
    подразделений") is its member until a larger gap closes the group. Then typography: in a
    text whose headings are both in capitals and in mixed case, phases ("Фаза движения") are
    the top, capitalised headings hang under the phase (a capitalised heading of a bare list,
    a sequence of steps, under the one before it) and mixed-case ones under those
    (:func:`_mixed_case_parent`); in a text of one style, a numbered heading ("4. Отступление
    и преследование") holds the unnumbered ones after it, and a heading whose first sentence
    speaks of the top section before it hangs under that section.
    """
    del system  # the layout decides, not the game: any system's text may use either
    layered = any(_is_caps(s.heading) for s in sections) and any(
        not _is_caps(s.heading) for s in sections)
    killteam = layered
    see = _see_also(sections, text) if layered else {}
    numbered: int | None = None
    numbered_caps: int | None = None
    open_group: int | None = None
    group_caps: int | None = None  # the last capitalised member of the open group
    group_gap = 0
    phase: int | None = None
    caps: int | None = None
    last_top: int | None = None
    step_open: int | None = None  # the last "Фаза 3 — Стрельба" of a text of one style
    ends = sorted(page_ends or [])
    prev_start = -1

    def page_break(start: int) -> bool:
        return any(prev_start < at <= start for at in ends)

    for i, sec in enumerate(sections):
        gap = gaps.get(sec.heading_span[0], 1)
        key = _title_key(sec.title)
        parent: int | None = None
        # 1. contains the title of an open ancestor chain (innermost first)
        chain = _chain(sections, i - 1) if i else []
        is_type = bool(vocab.unit_type(sec.title))
        if page_break(sec.heading_span[0]) or sec.title.endswith("!"):
            open_group = None
        # the next entry of a list of rules run in after a colon is its sibling
        decided = i - 1 in (entries or ()) and i in (entries or ())
        if decided:
            parent = sections[i - 1].parent
        for j in () if decided else chain:
            if is_type and vocab.unit_type(sections[j].title):
                continue
            if killteam and _is_caps(sec.heading) and _is_caps(sections[j].heading):
                continue  # typography gives the level: a capitalised heading is a sibling
            pkey = _title_key(sections[j].title)
            if pkey and pkey != key and _contains(key, pkey):
                parent = j
                break
        if parent is None and not decided:
            # a heading of the same shape as an open one, naming another side of the same
            # thing, is its sibling whatever stands between them
            twin = next((j for j in chain if _parallel(sections[j], sec)), None)
            if twin is not None:
                parent, decided = sections[twin].parent, True
                if open_group is not None and open_group in _chain(sections, twin):
                    if open_group == twin or parent != open_group:
                        open_group, group_caps = None, None
        if parent is None and open_group is not None and not decided:
            if gap > group_gap:
                open_group, group_caps = None, None
            elif killteam and group_caps is not None and not _is_caps(sec.heading):
                parent = group_caps  # typography within the group: mixed case under capitals
            elif step_open is not None and step_open > open_group \
                    and not STEP_NAME.match(" ".join(sec.heading.split())):
                parent = step_open  # a step of the turn in the group holds what follows it
            else:
                parent = open_group
        if parent is None and killteam and not decided:
            if _is_phase(sec.title):
                phase, caps = None, None
            elif _NUMBER.match(sec.heading) and _is_caps(_NUMBER.sub("", sec.heading)):
                numbered_caps = i  # "2. ДВИЖЕНИЕ": a numbered step of the book's sequence
            elif _is_caps(sec.heading) and not (sec.is_list and caps is not None):
                parent = phase if phase is not None else numbered_caps
            else:
                parent = _mixed_case_parent(sections, i, text,
                                            caps if caps is not None else phase, see)
        step = not killteam and STEP_NAME.match(" ".join(sec.heading.split())) is not None
        # "Подфаза нападения": a phase of the turn holds the steps after it, in one style
        phase_head = not killteam and parent is None and not decided and names_phase(sec.title)
        if parent is None and not killteam and _NUMBER.match(sec.heading) or step or phase_head:
            numbered = i  # "4. Отступление …", "Фаза 3 — Стрельба": a step holds what follows
        elif parent is None and not killteam and numbered is not None and not decided:
            parent = numbered
        if step:
            step_open = i
        if parent is None and last_top is not None and not killteam and not decided:
            # the body's first sentence is about the previous top section ("В многостороннем
            # бою …" under "… многосторонний бой")
            first = _first_sentence(text, sec.body_span)
            ptitle = sections[last_top].title
            pw = name_words(ptitle)
            if len(pw) >= 2 and _contains(lemma_key(first), " ".join(pw[-2:])):
                parent = last_top
            elif len(pw) == 1 and _opens_with(first, pw[0]):
                parent = last_top  # "Некоторые гранаты …" under "Гранаты"
            elif sec.title.endswith("?") and not ptitle.endswith("?"):
                parent = last_top  # a FAQ's questions under the heading above them
        sec.parent = parent
        if killteam:
            if _is_phase(sec.title):
                phase = i
            elif parent in (phase, numbered_caps) and _is_caps(sec.heading):
                caps = i
        if open_group is not None and parent == open_group and _is_caps(sec.heading):
            group_caps = i
        # a heading with no text of its own right above another holds the entries after it
        # ("Мобильные войска" / "Сквадрон бронированных Стражей"), as a group's title does
        container = parent is None and open_group is None and not killteam \
            and not text[sec.body_span[0]:sec.body_span[1]].strip() and i + 1 < len(sections)
        if (is_group_title(sec.title) or container) \
                and (open_group is None or parent == open_group):
            # a group in a group ("Базовые правила" in "Правила") holds what follows it
            nested = open_group is not None and parent == open_group
            open_group, group_gap, group_caps = i, min(gap, group_gap) if nested else gap, None
        if parent is None:
            last_top = i
        sec.is_unit_type = is_type
        prev_start = sec.heading_span[0]


def _steps_under_heading(sections: list[Section], text: str) -> None:
    """A heading right above a step numbered 1 ("ПОСЛЕДОВАТЕЛЬНОСТЬ ХОДА" / "1. НАЧАЛО ХОДА",
    no text between) heads the sequence: it holds that step and the numbered steps after it
    at the same level ("2. ДВИЖЕНИЕ"), up to the first heading there that is not one."""
    for i in range(len(sections) - 1):
        head, first = sections[i], sections[i + 1]
        number = _NUMBER.match(first.heading)
        if text[head.body_span[0]:head.body_span[1]].strip() or number is None \
                or number.group(1) != "1" or first.parent not in (None, head.parent):
            continue
        level = first.parent
        for sec in sections[i + 1:]:
            if sec.parent != level:
                continue  # a step's own parts stay under it
            if _NUMBER.match(sec.heading) is None:
                break
            sec.parent = i


_MIN_TITLE_WORDS = 4
_MIN_PARTS = 2


def _title_over_parts(sections: list[Section], text: str) -> None:
    """A page's title in capitals, or a headline, holds the shorter headings after it.

    A mission, a chapter or an article opens with its title — "ВИХРЬ ВОЙНЫ: ПОД ПОКРОВОМ
    ТАЙНЫ", set in capitals like its parts ("АРМИИ", "ПОЛЕ БОЯ"), which only its size told
    apart on paper. The text's first heading is such a title when it is in capitals, written as
    one (a name and a subtitle after a colon, or four words or more), opens a paragraph of its
    own, and every top-level heading after it is shorter: those are its parts. An article's
    headline, longer than any heading ("Инициатива, важнейшие стратегические уловки и
    поворотные точки в новом формате Kill Team!"), is its title in any case, over even one
    part ("INITIATIVE PHASE").
    """
    if len(sections) < _MIN_PARTS:
        return
    first = sections[0]
    if first.parent is not None:
        return
    size = len(words(first.title))
    if not (": " in first.title or size >= _MIN_TITLE_WORDS):
        return
    if not text[first.body_span[0]:first.body_span[1]].strip():
        return  # a heading right above another is a group's, which the nesting has placed
    parts = [i for i, sec in enumerate(sections[1:], 1) if sec.parent is None]
    # a headline (longer than a heading may be) opens the page whatever its case, and holds
    # even one part; a title in capitals holds two headings or more, its parts and theirs
    # (over one it is as likely a sibling)
    headline = len(first.heading) > _MAX_CHARS or size > _MAX_WORDS
    if not (headline or _is_caps(first.heading)) or not parts \
            or len(sections) - 1 < (1 if headline else _MIN_PARTS):
        return
    if any(len(words(sections[i].title)) >= size for i in parts):
        return
    for i in parts:
        sections[i].parent = 0


def _chapter_over_rules(sections: list[Section], text: str) -> None:
    """A heading with an epigraph opens a chapter: it holds the headings after it.

    A chapter of these books opens with its title and a flavour quote ("Псайкеры" / «Разум
    без предубеждений …»), and its rules follow under headings of another style ("КОЛДОВСКОЙ
    ОГОНЬ"), which only the print's size set below the title. So a top-level heading whose text
    opens with a quote holds the top-level headings after it that are set in the other style
    (capitals under mixed case, or the reverse), up to the next heading with an epigraph or one
    in its own style.
    """
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


def _opens_with_epigraph(sec: Section, text: str) -> bool:
    spans = sorted(sec.flavour_spans)
    return bool(spans) and not text[sec.body_span[0]:spans[0][0]].strip()


def _see_also(sections: list[Section], text: str) -> dict[str, int]:
    """Lemma key of each «см. X» target → the first section whose body sends the reader there
    (read once: a body is searched for every heading after it otherwise)."""
    see: dict[str, int] = {}
    for j, sec in enumerate(sections):
        for m in re.finditer(r"\bсм\.\s*([^().;\n]+)", text[sec.body_span[0]:sec.body_span[1]]):
            see.setdefault(lemma_key(m.group(1)), j)
    return see


def _mixed_case_parent(
    sections: list[Section], i: int, text: str, default: int | None, see: dict[str, int],
) -> int | None:
    """Where a Kill Team heading below the capitalised level hangs.

    A box that an earlier section sends the reader to ("(см. Синдром Шаткой Модели)") stands
    beside that section; a heading that the previous heading of its own level names in its
    body ("… Overwatch или Retreat …" before "Retreat (отход)") is its sub-item; any other hangs
    under the last capitalised heading (``default``).
    """
    sec = sections[i]
    names = {k for k in (_title_key(n) for n in (sec.title, *sec.aliases)) if k}
    sent_from = [j for j in (see.get(n) for n in names) if j is not None and j < i]
    if sent_from:
        return sections[min(sent_from)].parent
    prev = sections[i - 1] if i else None
    if prev is not None and not _is_caps(prev.heading) and prev.parent == default:
        body = lemma_key(text[prev.body_span[0]:prev.body_span[1]])
        if any(_contains(body, n) for n in names):
            return i - 1
    return default


@lru_cache(maxsize=20_000)
def _shape(heading: str, title: str) -> tuple[bool, bool, tuple[str, ...]]:
    """A heading's level signals: in capitals, numbered, its title's words (name forms)."""
    return _is_caps(heading), bool(_NUMBER.match(heading)), tuple(name_words(unparen(title)))


def _parallel(earlier: Section, later: Section) -> bool:
    """Whether two headings are of one level by their own shape: set alike (both in capitals
    or neither, both numbered or neither) and naming different sides of the same thing, their
    last word the same and their first not ("Раздельный профиль Боевой Машины", "Тесты на
    характеристики для Боевой Машины", "Команда Боевой Машины"). A phase ("Фаза стрельбы")
    holds the sides of its own thing, so it is no sibling of theirs."""
    caps, numbered, a = _shape(earlier.heading, earlier.title)
    caps_later, numbered_later, b = _shape(later.heading, later.title)
    if caps != caps_later or numbered != numbered_later:
        return False
    if min(len(a), len(b)) < 2 or a[0] == b[0] or a[-1] != b[-1]:
        return False
    return not _is_phase(earlier.title)


def _chain(sections: list[Section], j: int | None) -> list[int]:
    out = []
    while j is not None:
        out.append(j)
        j = sections[j].parent
    # every earlier top-level section of the same run can still be an ancestor
    return out


_DETERMINERS = frozenset({"некоторый", "все", "весь", "этот", "такой", "каждый", "любой",
                          "многие", "многий", "другой", "такие"})


def _opens_with(sentence: str, word: str) -> bool:
    """Whether a sentence opens with ``word`` (a lemma), after a determiner at most: its
    subject is the thing the word names ("Некоторые гранаты можно …" opens with «граната»)."""
    toks = [lemma_key(w) for w in words(sentence)[:2]]
    if toks and toks[0] in _DETERMINERS:
        toks = toks[1:]
    return bool(toks) and toks[0] == lemma_key(word)


def _contains(key: str, part: str) -> bool:
    return f" {part} " in f" {key} "


def _first_sentence(text: str, span: Span) -> str:
    body = text[span[0]:span[1]].strip()
    m = re.search(r"[.!?](\s|$)", body)
    return body[: m.end()] if m else body[:300]
