"""Lists and labels of a web page that are no ordinary heading lines: a list a page flattened
into one line, for :func:`ingest.segment.segment` to break (:func:`flattened_list_breaks`); a
numbered list set as two columns (:func:`split_list_items`); a table whose cells a copy set
one a line (:func:`table_cells`); headings written as labels with a
colon over paragraphs (:func:`colon_labels`); a contents list's entries, a name and its page
(:func:`contents_entry`, :func:`contents_paragraphs`), for :mod:`ingest.segment_lines`.

A copy of a page may lose its line breaks: a tournament's clauses, a chapter's numbered
rules or a bulleted list run on in one line ("Общие и специальные правила 1) Редакция. Все
игры проходят … 2) Домашние правила. Любые расширения … 3) Imperial Armor. Допущены …",
"… • Турнир проводится … • Регистрация …"). Each item goes back to a line of its own, so that
its name heads it as it did on the page. Only a list shows itself so: its numbers in order
from 1 (or its bullets), three items at least, each long enough to be a clause and opening
with a capital; a sentence that counts in passing ("1) отступить, 2) стоять") is no such list.
A flattened PDF (the "flat" layout, whose paragraphs are all one line) is read by its own
module, not broken here.
"""

from __future__ import annotations

import re

from ingest.sections import pictogram_mark
from ingest.segment_colons import _NAME_HEADS, ASIDES
from ingest.segment_headings import (
    _COLUMN_NAMES,
    _COLUMN_STARTS,
    _MAX_CHARS,
    _MAX_WORDS,
    _MIN_COLUMNS,
    BULLET,
    _first_clause,
    _has_finite_verb,
    is_heading_line,
)
from kb.lemmas import lemma, pos, words

_MIN_ITEMS = 3
_MIN_ITEM = 40  # characters of an item: a clause, not a word of an enumeration
# an item's marker inside a line: a number and a bracket or a period, or a bullet, after a
# space, before a capital (Latin too: "3) Imperial Armor.")
_NUMBERED = re.compile(r"(?<=\S) (\d{1,2})[).] (?=[A-ZА-ЯЁ«\"])")
_BULLETED = re.compile(r"(?<=\S) •[^\S\n]*(?=[A-ZА-ЯЁ«\"])")


def _numbered_runs(line: str) -> list[list[re.Match[str]]]:
    """Runs of markers numbered 1, 2, 3, … in order (a run starts at 1)."""
    runs: list[list[re.Match[str]]] = []
    for m in _NUMBERED.finditer(line):
        n = int(m.group(1))
        if n == 1:
            runs.append([m])
        elif runs and int(runs[-1][-1].group(1)) == n - 1:
            runs[-1].append(m)
    return runs


def _long_items(line: str, marks: list[re.Match[str]]) -> bool:
    ends = [m.start() for m in marks[1:]] + [len(line)]
    return all(end - m.end() >= _MIN_ITEM for m, end in zip(marks, ends, strict=True))


def flattened_list_breaks(text: str) -> list[int]:
    """Offsets of the space before each item of a list flattened into one line (see the
    module): each becomes a line break, so the offsets of ``text`` stay."""
    breaks: set[int] = set()
    at = 0  # the line's offset in the text
    for line in text.split("\n"):
        # (the cheap test first: a run opens with its first item, "1)" or "1.", or a bullet)
        if len(line) >= _MIN_ITEMS * _MIN_ITEM and (
                " 1) " in line or " 1. " in line or "•" in line):
            runs = [r for r in _numbered_runs(line) if len(r) >= _MIN_ITEMS]
            bullets = list(_BULLETED.finditer(line)) if "•" in line else []
            if len(bullets) >= _MIN_ITEMS:
                runs.append(bullets)
            for marks in runs:
                if _long_items(line, marks):
                    breaks.update(at + m.start() for m in marks)
        at += len(line) + 1
    return sorted(breaks)


_LABEL_BULLET = re.compile(r"^\s*[-•–—·]\s+(?:\d{1,2}[.)]\s+)?")
# a rule's English name, then its Russian name ("Invulnerable Saves непробиваемый спасбросок")
_BILINGUAL_NAME = re.compile(r"[A-Z][A-Za-z'&-]*(?:\s+[A-Za-z][A-Za-z'&-]*){0,3}"
                             r"\s+[А-ЯЁа-яё][а-яё-]*(?:\s+[а-яё-]+){0,3}")
_MIN_PARAGRAPH = 60
# "Про правило Rage:", "О резервах:": a label naming what its paragraph is about
_ABOUT = frozenset({"про", "о", "об", "обо"})


# a sentence of the original's English a bilingual page quotes under a label: Latin words,
# five or more before its first stop ("The Lictor Forest Brood contains 5 Lictors.")
_ENGLISH_SENTENCE = re.compile(r"^[A-Z][A-Za-z'’-]*(?:[,;]?\s+[A-Za-z0-9'’&-]+){4,}[,;]?\s*[.!?]")


def _english_sentence(text: str) -> bool:
    return _ENGLISH_SENTENCE.match(text) is not None


def colon_labels(lines: list[str], nonblank: list[int], nxt: dict[int, int | None]
                  ) -> dict[int, int]:
    """Headings written as labels on lines of their own, a colon after each, a paragraph under
    each ("Участие в кампании:" / "Любой новый участник может …", "Карта:" / "Карта состоит
    …"; a bilingual page's original under it: "Ограничения формации:" / "The Lictor Forest
    Brood contains 5 Lictors."; a list's lead-in over the rules run in after it:
    "Специальные правила формации:" / "Гипертоксичный: Любая атака …"), one alone in its text
    as well: line → where its name ends (before the colon). A list's lead-in over short items
    ("Фазы следующие:" / "1. Инициативная фаза") has no paragraph under it, and an aside
    ("Примечание:", "Пример:") is the text's, no heading.
    """
    found: dict[int, int] = {}
    for i in nonblank:
        s = lines[i].rstrip()
        if not s.endswith(":") or s.endswith("::"):
            continue
        # (a list's bullet and number before it are no part of it: "· 3. Saving Throw
        # спасбросок:"; a rule's English name may open it before its Russian one: "Mortal
        # Wounds Смертельные раны:")
        name = _LABEL_BULLET.sub("", s[:-1]).strip()
        toks = words(name)
        j = nxt[i]
        if not toks or len(toks) > _MAX_WORDS or j is None \
                or not (pos(toks[0]) in _NAME_HEADS or _BILINGUAL_NAME.fullmatch(name)
                        or toks[0].lower() in _ABOUT) \
                or _has_finite_verb(name) or not is_heading_line(name, None) \
                or lemma(toks[0]) in ASIDES:
            continue
        body = _paragraph_at(lines, j)
        if len(body) < _MIN_PARAGRAPH or not body[0].isupper() or BULLET.match(body) \
                or not (_has_finite_verb(_first_clause(body)) or _english_sentence(body)):
            continue
        found[i] = len(s) - 1
    return found


_WRAPPED_LINES = 8  # lines of a paragraph a PDF's column wrapped, looked at under a label


def _paragraph_at(lines: list[str], j: int) -> str:
    """The paragraph that opens at line ``j``: the line, and the lines right under it that go
    on from it in lower case where a PDF's column wrapped it ("Некоторые модели обладают
    способностями или" / "умением, такими как …"), a few at most."""
    out = [lines[j].strip()]
    k = j + 1
    while k < len(lines) and k - j < _WRAPPED_LINES and lines[k].strip()[:1].islower() \
            and not out[-1].endswith((".", "!", "?", ":", ";")):
        out.append(lines[k].strip())
        k += 1
    return " ".join(out)


_LIST_NUMBER = re.compile(r"^\s*(\d{1,2})[.)]?\s*$")


def pictogram_items(lines: list[str], nonblank: list[int]) -> set[int]:
    """The items of a list a post marks with a pictogram ("✅ Модель может двигаться" / "✅
    Модель может стрелять"): two lines or more in a row, no blank line between, opening with
    the same one. A pictogram before one line over its text marks a heading ("⚔️ Паника")."""
    out: set[int] = set()
    marks = {i: pictogram_mark(lines[i]) for i in nonblank if not lines[i][:1].isalnum()}
    for i, mark in marks.items():
        if mark is not None and (marks.get(i - 1) == mark or marks.get(i + 1) == mark):
            out.add(i)
    return out


def split_list_items(lines: list[str], nonblank: list[int]) -> set[int]:
    """The items of a numbered list that a page set as two columns, its numbers one a line and
    then its items ("1." / "2." / "3." / "Фаза движения" / "Фаза магии" / "Фаза стрельбы"):
    as many lines as numbers right after them, each an item of the list, no heading. Bare
    numbers ("1" / "2" / "3") are a table's cells, one a line: the line above them is its
    row's label ("BS стрелка"), no heading either."""
    out: set[int] = set()
    k = 0
    while k < len(nonblank):
        run = 0
        while k + run < len(nonblank) and (m := _LIST_NUMBER.match(lines[nonblank[k + run]])) \
                and int(m.group(1)) == run + 1:
            run += 1
        if run >= 2:
            out.update(nonblank[k + run:k + 2 * run])
            if k and all(lines[nonblank[j]].strip().isdigit() for j in range(k, k + run)):
                out.add(nonblank[k - 1])
            k += 2 * run
        else:
            k += 1
    return out


def _ending(line: str) -> str:
    """The kind of a line's last mark: "." (a sentence's stop), "," (a clause's) or ""."""
    s = line.rstrip()
    return "." if s[-1:] in ".!?…" else "," if s[-1:] in ";," else ""


def lead_in_items(lines: list[str], nonblank: list[int]) -> set[int]:
    """The items of a list that a lead-in ending with a colon announces, set one a line with
    no bullets ("Для игры в Kill Team вам понадобится:" / "Жетоны и маркеры." / "Набор
    миссий.", "ПОВТОРЯТЬ ДО ОКОНЧАНИЯ БИТВЫ:" / "НАЧАЛО ХОДА" / "ФАЗА СТРАТЕГИИ" / …): the
    paragraph right after it, of three lines at least that all end alike (each in a stop, each
    in none, or each in a comma or semicolon but the last), is the list, no heading and no
    heading broken over lines. A heading over its text in that paragraph ("Леса" / "Леса дают
    укрытие.") ends otherwise than its text, so the paragraph is no list; a line with a colon
    of its own (a rule run in after its name, "Засада: Отряды …", or a lead-in in turn) ends
    the list before it. Each line is read once: a paragraph ends at a blank line or at the
    next lead-in."""
    out: set[int] = set()
    for k, i in enumerate(nonblank[:-1]):
        if not lines[i].rstrip().endswith(":"):
            continue
        block = [nonblank[k + 1]]
        while block[-1] + 1 < len(lines) and lines[block[-1] + 1].strip() \
                and ":" not in lines[block[-1] + 1]:
            block.append(block[-1] + 1)
        if len(block) < _MIN_ITEMS or ":" in lines[block[0]] or BULLET.match(lines[block[0]]):
            continue  # (a bulleted list's items are no headings already, and the lines after
            # its last item may be: "- Лазпушка" / "Мобильные войска")
        ends = {_ending(lines[j]) for j in block[:-1]}
        last = _ending(lines[block[-1]])
        if len(ends) == 1 and (last in ends or (ends == {","} and last == ".")):
            out.update(block)  # ("…;" / "…;" / "….": the last item closes the sentence)
    return out


# "Бег 38", "ВВЕДЕНИЕ 4 Скорострельное оружие 42": a name and the page it starts on
_PAGE_AFTER_NAME = re.compile(r"[^\W\d_][)?!.]?\s+\d{1,3}$")
_CONTENTS_NEAR = 3  # lines each side where the other entries of a contents list stand
_CONTENTS_OTHERS = 2  # how many of them must end in a page too
# "Паника ........ 57", "ХИМИЧЕСКИЙ КОМПЛЕКС ……… 5", "Ужас · · · · 58": a name, a leader of dots
# (or an ellipsis, middle dots, underscores) and a page: a contents entry whatever stands around
_LEADER_TO_PAGE = re.compile(r"[^\W\d_][)?!]?[ \t]*(?:[.…·_][ \t]*){3,}\d{1,3}$")


def contents_entry(lines: list[str], i: int) -> bool:
    """Whether a heading-like line is an entry of a table of contents: it ends in a page
    number after a name, and so do at least two of the lines around it in its paragraph (one
    line "Фаза 2" is a heading; a column of "Бег 38", "ВООРУЖЕНИЕ 40", "Пистолеты 42" is a
    contents page, which the heading above it, "СОДЕРЖАНИЕ", heads); a line that leads to its
    page with dots ("Паника ........ 57") is one alone."""
    if _LEADER_TO_PAGE.search(lines[i].rstrip()) is not None:
        return True
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


def contents_paragraphs(lines: list[str]) -> set[int]:
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


_CELL = 40  # characters of a table's cell at most
_HEADER_SPAN = 8  # lines a table's header cells stand among


def table_cells(lines: list[str], nonblank: list[int]) -> set[int]:
    """The cells of a table a copy set one a line ("Название" / "Дальность" / "Сила" / "АР" /
    "Тип" / "Костяной меч (bonesword)" / "-" / "Носитель" / "3" / "Melee"): a header of
    :data:`~ingest.segment_headings._MIN_COLUMNS` column names or more among a few short
    lines, and the short lines after it, up to the last short line before a line of text
    (which a heading may head: "Отток жизни (Life Drain)" / "*Отток жизни …: любой бросок …").
    No cell is a heading."""
    cells: set[int] = set()
    k = 0
    while k < len(nonblank):
        line = lines[nonblank[k]].strip()
        # (the cheap test first: most lines open with no column's name)
        if len(line) > _CELL or " " in line or line[:3].lower() not in _COLUMN_STARTS \
                or lemma(line.lower()) not in _COLUMN_NAMES:
            k += 1
            continue
        # (the header's cells stand together, short lines all: a glossary whose terms head
        # paragraphs, "Сила" / "Сила показывает …" / "Стойкость" / …, is no table)
        window = []
        for i in nonblank[k:k + _HEADER_SPAN]:
            if len(lines[i].strip()) > _CELL:
                break
            window.append(i)
        names = [i for i in window if " " not in lines[i].strip()
                 and lemma(lines[i].strip().lower()) in _COLUMN_NAMES]
        if len(names) < _MIN_COLUMNS:
            k += 1
            continue
        end = k
        while end + 1 < len(nonblank) and len(lines[nonblank[end + 1]].strip()) <= _CELL \
                and (end + 2 >= len(nonblank) or len(lines[nonblank[end + 2]].strip()) <= _CELL
                     or not re.search(r"[А-Яа-яЁё]", lines[nonblank[end + 1]])):
            end += 1  # (the last short line may head the text after it, unless it holds no
            # Russian word: "Melee, Rending", a cell of a Russian page's table)
        cells.update(nonblank[k:end + 1])
        k = end + 1
    return cells


_MIN_PIPE_CELLS = 3


def pipe_cells(lines: list[str], nonblank: list[int]) -> set[int]:
    """The cells and rows of a table a copy set with its column bars kept ("Расстановка |" /
    "Миссия |" / "1 |" / "Combat Drop |"; "WFB 6/8 | 28 мм | 2000-3000 |"): lines ending in
    a bar, or a bar alone, three or more in the text. No cell is a heading."""
    cells = {i for i in nonblank if lines[i].rstrip().endswith("|")}
    return cells if len(cells) >= _MIN_PIPE_CELLS else set()


# a table's row of numbers: "4 -1", "3 и менее нет", "10 -7", "2+ 5+"; a numeric cell is a
# number with a sign, a roll's plus or a dash, or a dash alone
_ROW_START = re.compile(r"\d")
_NUMERIC_CELL = re.compile(r"[+\-–—]?\d+[+\"”]?|[–—-]")
_MIN_ROWS = 3
_ROW_CHARS = 30
# a header of columns a copy ran into one line: two capitalised words at least, the later ones
# inside the line with no mark before them ("Сила Модификатор к спас броску")
_COLUMN_LABELS = re.compile(r"[А-ЯЁA-Z][а-яёa-z]+(?:\s+[а-яёa-z]+)*(?:\s+[А-ЯЁA-Z][а-яёa-z]+"
                            r"(?:\s+[а-яёa-z]+)*)+")


def numeric_table_headers(lines: list[str], nonblank: list[int]) -> set[int]:
    """The header of a table of numbers whose column names a copy ran into one line ("Сила
    Модификатор к спас броску" over "3 и менее нет" / "4 -1" / "5 -2" …): two capitalised
    words or more with no mark between them, over :data:`_MIN_ROWS` short rows or more that
    open with a number, most of them numbers alone. A header is no heading; a heading over a
    table whose rows are words ("Таблица повреждений" / "1 Оглушение: …") still is."""
    out: set[int] = set()
    for k, i in enumerate(nonblank):
        # (the cheap tests first: a row of numbers under the line, a capital opening it)
        if k + 1 == len(nonblank) or not lines[nonblank[k + 1]].lstrip()[:1].isdigit():
            continue
        line = lines[i].strip()
        if len(line) > _MAX_CHARS or not line[:1].isupper() \
                or not _COLUMN_LABELS.fullmatch(line):
            continue
        rows = []
        for n in range(k + 1, len(nonblank)):  # (no copy of the rest of the list per header)
            row = lines[nonblank[n]].strip()
            if len(row) > _ROW_CHARS or not _ROW_START.match(row):
                break
            rows.append(row.split())
        numeric = [r for r in rows if all(_NUMERIC_CELL.fullmatch(c) for c in r)]
        if len(rows) >= _MIN_ROWS and 2 * len(numeric) > len(rows):
            out.add(i)
    return out


_MAX_LABEL_WORDS = 4


def is_label(line: str) -> bool:
    """A datasheet's field label on a line of its own ("Тип подразделения:"), its value on
    the next line."""
    s = line.strip()
    return s.endswith(":") and 0 < len(words(s)) <= _MAX_LABEL_WORDS and not BULLET.match(s)


# the labels of a form's name: its value names the thing the form describes
_NAME_LABELS = frozenset({"название", "наименование", "имя", "name", "title"})
_MIN_FIELDS = 2


def caps_over_text(lines: list[str], i: int) -> bool:
    """Whether line ``i`` is a heading in capitals of two words or more with a line of text
    (no label, no capitals) right under it ("ADDITIONAL CHARACTERISTICS" / "In addition to …")."""
    s = lines[i].strip()
    if not s.isupper() or len(words(s)) < 2 or i + 1 >= len(lines):
        return False
    below = lines[i + 1].strip()
    return bool(below) and not below.isupper() and not below.endswith(":")


def form_fields(lines: list[str], nonblank: list[int]) -> tuple[set[int], set[int]]:
    """The values of a form a copy set as a label over its value, field after field (a
    datasheet: "Название:" / "Ликтор" / "Тип:" / "Пехота" / "Очки:" / "50"), in runs of
    :data:`_MIN_FIELDS` fields or more: the values of its fields, no heading ("Пехота",
    "Элитные войска"), and the values of its name ("Ликтор"), the heading of what follows."""
    values: set[int] = set()
    names: set[int] = set()
    k = 0
    while k + 1 < len(nonblank):
        run: list[tuple[int, int]] = []
        while k + 1 < len(nonblank):
            label = lines[nonblank[k]].rstrip()
            if not label.endswith(":"):  # (the cheap test first)
                break
            value = lines[nonblank[k + 1]].strip()
            if not is_label(label) or is_label(value) or len(value) > _CELL \
                    or caps_over_text(lines, nonblank[k + 1]):
                break  # (a heading in capitals over text is what a label introduces:
                # "Rulebook:" / "ADDITIONAL CHARACTERISTICS" / "In addition to …")
            run.append((nonblank[k], nonblank[k + 1]))
            k += 2
        if len(run) >= _MIN_FIELDS:
            for label_at, value_at in run:
                name = lines[label_at].strip()[:-1].strip().lower()
                (names if name in _NAME_LABELS else values).add(value_at)
        k += 1 if not run else 0
    return values, names
