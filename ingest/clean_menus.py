"""A site's menu of categories: its sections' names on a line in alphabetical order.

A study or reference site lists its subjects across the top of every page ("Архитектура Аудит
Военная наука Иностранные языки Медицина …"): names, each opening with a capital, with no
punctuation between them, sorted as a menu is; a copy may have run them together
("АвтоАвтоматизацияАрхитектура…"). No line of a rules text is so made: a list of
rules or units in the text is written with commas, and its names stand in the text's order,
not the alphabet's.
"""

from __future__ import annotations

import re

from ingest.clean_edits import block_edit
from ingest.models import Edit

MENU_REASON = "меню сайта: названия его рубрик по алфавиту"

_WORD = re.compile(r"[^\W\d_][\w-]*")
# a sentence's or a list's marks: a line with any of them is the text's, not a menu
_NOT_MENU = re.compile(r"[.!?,;:«»\"()\[\]\d]")
_MIN_ITEMS = 5  # capitalised names in order, at least (five sorted by chance: 1 in 120)
_MAX_LINE = 300
# a copy that dropped the menu's spaces runs its names together ("АвтоАвтоматизацияАрхитектура
# …"): a lower-case letter right before a capital, which no Russian word holds
_GLUED = re.compile(r"(?<=[а-яё])(?=[А-ЯЁ])")
_MAX_GLUED_LINE = 3_000
_MIN_GLUED_LINE = 25  # characters of five names run together at least
_SORTED_SHARE = 0.8  # of a glued menu's neighbouring names in order (a two-word name breaks it)


def _is_menu(line: str) -> bool:
    s = line.strip()
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


def category_menus(text: str) -> list[Edit]:
    """Each line that is a menu of the site's categories (:func:`_is_menu`), with the blank
    lines around it."""
    edits = []
    pos = 0
    for line in text.split("\n"):
        end = pos + len(line)
        # (the cheap test first: a menu line has no period, and most lines of text have one)
        if "." not in line and _is_menu(line):
            edits.append(block_edit(text, pos, end, "site_furniture", MENU_REASON))
        pos = end + 1
    return edits


def _is_glued_menu(line: str) -> bool:
    """A menu whose names a copy ran together ("АвтоАвтоматизацияАрхитектура…Юриспунденкция |"):
    split at each capital after a lower-case letter, the names stand mostly in alphabetical
    order (a name of two capitalised words, "Охрана Труда", breaks it once)."""
    s = _GLUED.sub(" ", line.rstrip(" |"))
    names = [t.lower().replace("ё", "е") for t in _WORD.findall(s) if t[0].isupper()]
    pairs = list(zip(names, names[1:], strict=False))
    return len(names) >= _MIN_ITEMS and sum(a <= b for a, b in pairs) >= _SORTED_SHARE * len(
        pairs)
