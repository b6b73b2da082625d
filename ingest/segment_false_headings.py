"""Heading-like lines that are not headings by what stands around them
(:func:`drop_false_headings`, a step of :func:`ingest.segment_lines.segment_lines`): a line
continuing a bracket or a sentence wrapped at a column's width, the last line of a cut page, a
field's value, the items of a numbered list (a line numbered next to others of its run and
style), and the column heads and rows of a dice table set one cell a line.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from ingest.sections import CASTING_VALUE, unparen
from ingest.segment_headings import (
    _NUMBER,
    BULLET,
    _has_finite_verb,
    _has_predicate,
    _is_caps,
    announces_name,
    field_shaped,
    is_field,
)
from ingest.segment_lists import caps_over_text, is_label
from kb.lemmas import words

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


def drop_false_headings(lines: list[str], nonblank: list[int], cand: list[int],
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
