"""The flavour of a web page (:mod:`ingest.segment_lines`): epigraphs and their attributions,
and a picture's labels copied as lines of text.

Neither is a rule or a heading: the segmenter leaves their lines out of the headings and keeps
them as :class:`~ingest.sections.Flavour` items, which the build accounts for as removed.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from ingest.sections import CLOSING_QUOTES, OPENING_QUOTES, QUOTES, Flavour, Span
from ingest.segment_headings import BULLET, _has_finite_verb, _is_caps
from kb.lemmas import words

_MAX_QUOTE_CHARS = 800

_MAX_LABEL_CHARS = 30
_MIN_LABELS = 6
_MIN_BROKEN_LABELS = 2


# where a copy of a page put its picture: "Страница 147 картинка", "Рисунок 12", "Рис. 3",
# "Иллюстрация", "[картинка]" on a line of its own
_PICTURE_MARK = re.compile(
    r"^\s*\[?(?:(?:Страница|Стр\.)\s*\d{1,4}\s+(?:картинка|рисунок|иллюстрация|изображение)"
    r"|(?:Картинка|Рисунок|Рис\.|Иллюстрация|Изображение|Схема)(?:\s*№?\s*\d{1,4}[а-я]?)?)\]?"
    r"\s*$")


# a picture's caption with what it shows: its label, then a number, a colon or a dash, or
# what it shows ("Иллюстрация к книге Kill Team Beginner", "Рис. 3 – Зона расстановки");
# "Фото" alone or "Изображения богов" name no picture
_CAPTION = re.compile(r"^\s*(?:Иллюстрация|Рисунок|Рис\.|Фото(?:графия)?|Изображение|Скриншот)"
                      r"(?:\s*(?:№\s*)?\d+[.:)]?|\s*[:.–—-]|\s+(?:к|из|с|на)\s)")

_MAX_LABELS_ABOVE = 8
_PICTURE_WORDS = ("артинк", "исунок", "Рис.", "ллюстрац", "зображени", "Схема", "Фото",
                  "Скриншот")


def _is_label_line(line: str) -> bool:
    s = line.strip()
    return len(s) <= _MAX_LABEL_CHARS and len(words(s)) <= 3 \
        and not s.endswith((".", "!", "?", ":", ";", ","))


def picture_labels(lines: list[str], nonblank: list[int], cand: set[int]) -> set[int]:
    """The lines of a picture's labels copied as text, its mark ("Страница 147 картинка",
    "Рисунок 12", :data:`_PICTURE_MARK`) and its caption ("Иллюстрация к книге …",
    :data:`_CAPTION`): six or more short lines in a row (three
    words at most, no sentence's punctuation), two or more of them in lower case (a label
    broken over lines: "Силовой меч" / "эльдарского" / "клинок"). They are captions, none a
    heading; the last of them right above a heading is a heading over it ("Оружие" /
    "РУКОПАШНОЕ ОРУЖИЕ …")."""
    out: set[int] = set()
    # (the cheap test first: a picture's mark is looked for line by line only in a text that
    # names one)
    joined = "\n".join(lines[i] for i in nonblank)
    marked = any(w in joined for w in _PICTURE_WORDS)
    for k, i in enumerate(nonblank if marked else ()):
        if _CAPTION.match(lines[i]) and not _PICTURE_MARK.match(lines[i]):
            out.add(i)  # a caption saying what the picture shows: the lines above are text
            continue
        if _PICTURE_MARK.match(lines[i]):
            out.add(i)
            # the picture's labels right above its mark ("Сторона А" / "Зона расстановки")
            j = k - 1
            while j >= 0 and k - j <= _MAX_LABELS_ABOVE and _is_label_line(lines[nonblank[j]]):
                out.add(nonblank[j])
                j -= 1
    run: list[int] = []
    for i in [*nonblank, -1]:
        s = lines[i].strip() if i >= 0 else ""
        if i >= 0 and _is_label_line(s) and not _is_caps(s):
            run.append(i)
            continue
        if len(run) >= _MIN_LABELS and sum(lines[j].strip()[:1].islower()
                                           for j in run) >= _MIN_BROKEN_LABELS:
            if i in cand and run[-1] in cand:
                run.pop()
            out.update(run)
        run = []
    return out


def label_spans(lines: list[str], offsets: list[int], labels: set[int]) -> list[Span]:
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




def epigraphs(lines: list[str], nonblank: list[int], cand: list[int]
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
    heads = set(cand)
    order = {i: k for k, i in enumerate(nonblank)}
    opens = {order[h] + 1 for h in cand}
    starts = sorted(opens | {k for k, i in enumerate(nonblank)
                             if (i == 0 or not lines[i - 1].strip())
                             and lines[i].lstrip().startswith(tuple(OPENING_QUOTES))})
    for k in starts:
        if k >= len(nonblank) or nonblank[k] in out \
                or not lines[nonblank[k]].lstrip().startswith(tuple(OPENING_QUOTES)):
            continue
        if _opens_with_quoted_name(lines[nonblank[k]]):
            continue  # "«Килл Тим» («Отряд Ликвидации») это …": a sentence, not a quote
        quote: list[int] = []
        chars = 0
        while k < len(nonblank):
            line = lines[nonblank[k]].rstrip()
            if quote and nonblank[k] in heads:
                chars = _MAX_QUOTE_CHARS + 1  # a quote never runs over a heading
                break
            quote.append(nonblank[k])
            chars += len(line)
            k += 1
            if line.endswith(tuple(CLOSING_QUOTES)) or line[-2:-1] in CLOSING_QUOTES and \
                    line.endswith((".", "!")) or chars > _MAX_QUOTE_CHARS:
                break
        if chars > _MAX_QUOTE_CHARS or len(quote) == 1 and _quoted_name(lines[quote[0]]):
            continue  # ("\"Cover Save\"" / "If the target …": a name quoted over its text is its
            # heading, no epigraph: a quote says a sentence)
        after = nonblank[k] if k < len(nonblank) else None
        dash = after is not None and BULLET.match(lines[after]) is not None
        speaker = after is not None and (
            after == quote[-1] + 1 and _speaker(lines[after])
            # under a section's epigraph, its attribution may stand apart, in lower case
            # ("«Битвы выигрываются маневром …»" / "" / "кто-то из великих")
            or after not in heads and order[quote[0]] in opens
            and after - quote[-1] <= _SPEAKER_GAP and _speaker(lines[after], lower=True))
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
_SPEAKER_GAP = 3  # lines from a section's epigraph to its attribution (two blank lines between)
_QUOTED_NAME = re.compile(
    rf"\s*[{re.escape(OPENING_QUOTES)}][^{re.escape(QUOTES)}\n]{{1,40}}[{re.escape(CLOSING_QUOTES)}]"
    r"\s*(\S+(?:\s+\S+){2,})")


_MAX_QUOTED_NAME_WORDS = 4


def _quoted_name(line: str) -> bool:
    """Whether a line is a name in quotes: a few words, no sentence's stop or comma inside, no
    verb ("\"Cover Save\"", «Ярость»)."""
    inner = line.strip().strip("".join(QUOTES))
    toks = words(inner)
    return 0 < len(toks) <= _MAX_QUOTED_NAME_WORDS and not re.search(r"[.!?,;:…]", inner) \
        and not _has_finite_verb(inner)


def _opens_with_quoted_name(line: str) -> bool:
    """Whether a line opens with a short quoted name and goes on as a sentence ("\"Килл Тим\"
    (\"Отряд Ликвидации\", далее КТ) это неофициальное расширение …"), three words or more
    after the name and no closing quotation mark at its end."""
    m = _QUOTED_NAME.match(line)
    return m is not None and not line.rstrip().endswith(tuple(CLOSING_QUOTES))


def _speaker(line: str, lower: bool = False) -> bool:
    """Whether a line under a quote names who said it: a few words from a capital (or in lower
    case, ``lower``), no verb, not a sentence, a question or a label."""
    s = line.strip()
    toks = words(s)
    stops = (".", ":", ";", "?", "!", ",") if lower else (".", ":", ";", "?", "!")
    return 0 < len(toks) <= _MAX_SPEAKER_WORDS and (s[:1].isupper() or lower and s[:1].islower()) \
        and not s.endswith(stops) and not _has_finite_verb(s)


def flavour_items(text: str, lines: list[str], offsets: list[int], flavour_lines: set[int],
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
