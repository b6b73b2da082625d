"""A site's menu of categories: its sections' names on a line in alphabetical order.

A study or reference site lists its subjects across the top of every page ("Архитектура Аудит
Военная наука Иностранные языки Медицина …"): names, each opening with a capital, with no
punctuation between them, sorted as a menu is; a copy may have run them together
("АвтоАвтоматизацияАрхитектура…"), and a site may give each its count of pages
("Архитектура-(3434)Астрономия-(809)…", "Армии (312) Бестиарий (95)"), or list them one a
line ("Авиация и космонавтика (304)" / "Административное право (123)"). No line of a rules text
is so made: a list of rules or units in the text is written with commas, and its names stand
in the text's order, not the alphabet's. The menu's label alone on the line above it
("КАТЕГОРИИ:", "Рубрики") goes with it.

A copy may keep a menu's label and lose its links: "Сдам Сам" / "ПОЛЕЗНОЕ" / "КАТЕГОРИИ" over
the page's title. Such labels in the page's header (:func:`menu_labels`: before any line of
text, under a site's name at most) go, and the site's name with them; a section so titled
("Категории" over its text) under the text's own lines stays.
"""

from __future__ import annotations

import re

from ingest.clean_edits import block_edit
from ingest.models import Edit
from kb.lemmas import pos as part_of_speech

MENU_REASON = "меню сайта: названия его рубрик по алфавиту"
MENU_LABEL_REASON = "метки меню сайта в шапке страницы (и название сайта над ними)"

_WORD = re.compile(r"[^\W\d_][\w-]*")
# a sentence's or a list's marks: a line with any of them is the text's, not a menu
_NOT_MENU = re.compile(r"[.!?,;:«»\"()\[\]\d]")
_MIN_ITEMS = 5  # capitalised names in order, at least (five sorted by chance: 1 in 120)
_MAX_LINE = 300
# a copy that dropped the menu's spaces runs its names together ("АвтоАвтоматизацияАрхитектура
# …"): a lower-case letter right before a capital, which no Russian word holds
_GLUED = re.compile(r"(?<=[а-яё])(?=[А-ЯЁ])")
_MAX_GLUED_LINE = 3_000
_MAX_NAME = 40  # characters of a counted menu's name, at most
_MAX_LABEL = 40  # characters of a label and the blank lines under it, at most
_MIN_GLUED_LINE = 25  # characters of five names run together at least
_SORTED_SHARE = 0.8  # of a glued menu's neighbouring names in order (a two-word name breaks it)
# each name's count of pages, after a dash or not: "Архитектура-(3434)", "Армии (312)"
_COUNT = re.compile(r"[ \t]*-?[ \t]*\(\d+\)[ \t]*")
# the menu's label alone on its line, the blank lines between it and the menu
_LABEL = re.compile(r"(?:^|\n)[ \t]*(?i:категории|рубрики|разделы(?: сайта)?|categories)[ \t]*:?"
                    r"[ \t]*\n\s*$")


def _is_menu(line: str) -> bool:
    s = line.strip()
    if ")" in s and len(s) <= _MAX_GLUED_LINE and _is_counted_menu(s):
        return True
    if _NOT_MENU.search(s):
        return False  # (the cheap test first: a sentence's or a list's marks)
    if len(s) <= _MAX_LINE:
        toks = _WORD.findall(s)
        names = [t.lower().replace("ё", "е") for t in toks if t[0].isupper()]
        # most words open a name ("Военная наука": a name of two words is one name)
        if len(names) >= _MIN_ITEMS and 2 * len(names) >= len(toks) and all(
                a < b for a, b in zip(names, names[1:], strict=False)):
            return True
    # (a line long enough to hold five names run together)
    return _MIN_GLUED_LINE <= len(s) <= _MAX_GLUED_LINE \
        and len(_GLUED.findall(s)) >= _MIN_ITEMS and _is_glued_menu(s)


# a category with its count of pages on a line of its own ("Авиация и космонавтика (304)")
_COUNT_END = re.compile(r"\(\d+\)[ \t]*$", re.MULTILINE)
_COUNTED_LINE = re.compile(r"^[ \t]*+([^\W\d_][^\n.!?:;()\d]{0,50}?)[ \t]*\(\d+\)[ \t]*$",
                           re.MULTILINE)


def _counted_lines(text: str) -> list[Edit]:
    """A menu of categories one a line, each with its count, :data:`_MIN_ITEMS` in a row or
    more, mostly in alphabetical order, its label above it or not."""
    edits: list[Edit] = []
    run: list[re.Match[str]] = []
    # (the cheap test first: a line's end in a count, then the whole line)
    found = [_COUNTED_LINE.match(text, text.rfind("\n", 0, c.start()) + 1)
             for c in _COUNT_END.finditer(text)]
    for m in [*(f for f in found if f is not None), None]:
        if m is not None and run and text[run[-1].end():m.start()].strip() == "":
            run.append(m)
            continue
        if len(run) >= _MIN_ITEMS and _mostly_sorted([r.group(1) for r in run]):
            edits.append(block_edit(text, _label_above(text, run[0].start()), run[-1].end(),
                                    "site_furniture", MENU_REASON))
        run = [m] if m is not None else []
    return edits


def category_menus(text: str) -> list[Edit]:
    """Each line that is a menu of the site's categories (:func:`_is_menu`), with the blank
    lines around it, and each menu of them one a line (:func:`_counted_lines`)."""
    edits = _counted_lines(text) if "(" in text else []
    pos = 0
    for line in text.split("\n"):
        end = pos + len(line)
        # (the cheap test first: a menu line has no period, and most lines of text have one)
        if "." not in line and _is_menu(line):
            edits.append(block_edit(text, _label_above(text, pos), end, "site_furniture",
                                    MENU_REASON))
        pos = end + 1
    return edits


def _is_counted_menu(line: str) -> bool:
    """A menu whose names each carry a count ("Архитектура-(3434)Военное дело-(14632)…"):
    five names at least, each a few words opening with a capital, mostly in alphabetical
    order (as :func:`_is_glued_menu`'s)."""
    if len(_COUNT.findall(line)) < _MIN_ITEMS:
        return False
    items: list[str] = [n.strip() for n in _COUNT.split(line) if n.strip()]
    if any(len(n) > _MAX_NAME or _NOT_MENU.search(n) or not n[:1].isupper() for n in items):
        return False
    return _mostly_sorted(items)


def _is_glued_menu(line: str) -> bool:
    """A menu whose names a copy ran together ("АвтоАвтоматизацияАрхитектура…Юриспунденкция |"):
    split at each capital after a lower-case letter, the names stand mostly in alphabetical
    order (a name of two capitalised words, "Охрана Труда", breaks it once)."""
    s = _GLUED.sub(" ", line.rstrip(" |"))
    names = [t for t in _WORD.findall(s) if t[0].isupper()]
    return len(names) >= _MIN_ITEMS and _mostly_sorted(names)


def _mostly_sorted(names: list[str]) -> bool:
    """Whether a menu's names stand mostly in alphabetical order (:data:`_SORTED_SHARE` of
    their neighbouring pairs; "ё" as "е", case aside)."""
    keys = [n.lower().replace("ё", "е") for n in names]
    pairs = list(zip(keys, keys[1:], strict=False))
    return sum(a <= b for a, b in pairs) >= _SORTED_SHARE * len(pairs)


def _label_above(text: str, start: int) -> int:
    """Where a menu starting at ``start`` starts with its label alone on the line above it
    ("КАТЕГОРИИ:"), or ``start``."""
    label = _LABEL.search(text, max(0, start - _MAX_LABEL), start)
    return start if label is None else label.start()


# a site's menu's label alone on its line ("ПОЛЕЗНОЕ", "КАТЕГОРИИ", "Меню")
_MENU_LABEL = re.compile(
    r"[ \t]*(?i:полезное|категории|рубрики|разделы|партн[её]ры|алфавит|меню|навигация)[ \t]*:?"
    r"[ \t]*")
_MAX_HEADER_LINES = 2  # lines of a site's name above the labels, at most
_MAX_SCAN = 40  # lines, blank ones too, looked at for the header
_MAX_NAME_WORDS = 3
_MAX_TITLE = 120  # characters of the page's title under the labels, at most


def menu_labels(text: str) -> list[Edit]:
    """The labels of a site's menus among the page's first lines (see the module's
    docstring): each line above them a label or one of :data:`_MAX_HEADER_LINES` short lines
    of a site's name ("Сдам Сам", "Лекции.Орг"), which go with them; the line under them a
    title, not a sentence."""
    edits: list[Edit] = []
    names: list[tuple[int, int]] = []  # the short lines above, not yet known for a header's
    pos = 0
    for line in text.split("\n", _MAX_SCAN):  # (the header: the page's first lines)
        end = pos + len(line)
        stripped = line.strip()
        if not stripped:
            pos = end + 1
            continue
        if _MENU_LABEL.fullmatch(line):
            edits.extend(block_edit(text, a, b, "site_furniture", MENU_LABEL_REASON)
                         for a, b in names)
            names = []
            edits.append(block_edit(text, pos, end, "site_furniture", MENU_LABEL_REASON))
        elif (not edits and len(names) < _MAX_HEADER_LINES
              and len(stripped.split()) <= _MAX_NAME_WORDS
              and not re.search(r"[!?:;,«»\"()]|\.(?![А-ЯЁA-Z])", stripped)):
            names.append((pos, end))  # a site's name, if labels follow
        else:
            # the header is over; a label with a text of its own under it ("Полезное:" /
            # "Модель может бежать.") is a heading of the text's
            # (a teaser of another page ends in an ellipsis: "Поездка - …: По плану мы …")
            if edits and not stripped.endswith(("...", "…")) and (
                    len(stripped) > _MAX_TITLE or stripped.endswith((".", "!", "?"))):
                return []
            break
        pos = end + 1
    return edits


HEADER_MENU_REASON = "меню сайта: короткие строки без текста в шапке страницы"
_MENU_ITEM = re.compile(r"[^\W\d_]{2}[^\n.!?,;:«»\"()\[\]\d]{0,37}")
"""A menu's item on its line: a name of a few words opening with two letters, no sentence's
or list's marks, no number (a contents' entry has its page)."""
_PHRASE_POS = frozenset({"PREP", "CONJ", "PRCL"})
_MIN_MENU_LINES = 4
_MAX_ITEM_WORDS = 4


def header_menu(text: str) -> list[Edit]:
    """A site's menu one item a line at the page's top: four lines or more, each a short
    name with no sentence's marks (:data:`_MENU_ITEM`), before any line of text ("БИБЛИОТЕКА"
    / "МАНИПУЛЯЦИИ" / "ЗАБОЛЕВАНИЯ" / … over the article). The run's last line stays when a
    line of text follows it (the article's own heading over its text): a book's chapter
    opening ("ПСИХОЛОГИЯ" / "Страх" / its text) is two such lines, not four. A heading in
    capitals a copy broke a word a line is no menu: a line of one letter (a drop capital,
    "Н" / "ЕПРОХОДИМЫЕ"), or one of a preposition, a conjunction or a particle ("ПО",
    "И"), makes the run a phrase."""
    lines: list[tuple[int, int]] = []
    pos = 0
    for line in text.split("\n", _MAX_SCAN):
        end = pos + len(line)
        stripped = line.strip()
        if stripped:
            if len(stripped.split()) <= _MAX_ITEM_WORDS and _MENU_ITEM.fullmatch(stripped):
                lines.append((pos, end))
            else:
                if lines and stripped[:1].isupper() and (
                        stripped.endswith((".", "!", "?")) or len(stripped) > _MAX_TITLE):
                    lines.pop()  # the article's heading over its first sentence
                break
        pos = end + 1
    else:
        return []  # (no line of text after the run: the page is nothing but short lines)
    if len(lines) < _MIN_MENU_LINES or any(
            part_of_speech(text[a:b].strip().lower()) in _PHRASE_POS for a, b in lines):
        return []  # ("ДВИЖЕНИЕ" / "ТРАНСПОРТА" / "ПО" / "ДОРОГАМ": a heading broken over lines)
    return [block_edit(text, a, b, "site_furniture", HEADER_MENU_REASON) for a, b in lines]
