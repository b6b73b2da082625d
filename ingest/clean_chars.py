"""The cleaning steps of characters: HTML's character references written as the characters
(:func:`html_entities`), and letters written as a base letter and a separate mark composed
(:func:`combining_marks`).

Unicode lets "й" be written as one character or as "и" followed by a combining breve (and
"ё" as "е" with a combining diaeresis): texts copied from some programs, PDF extractions and
web sources store them decomposed, often mixed with composed ones in one text. A decomposed
letter is no letter to a word pattern, so "новый" would read as "новы" and a stray mark, and a
rule's name would not match itself written the other way. The step composes each such letter
(Unicode's NFC form of the letter and its marks); the offset map keeps both characters of the
source behind the one letter.
"""

from __future__ import annotations

import re
import unicodedata
from html.entities import html5

from ingest.models import Edit

REASON = "буква с отдельным диакритическим знаком записана одним символом («и» + «̆» → «й»)"

# a letter followed by combining marks (Latin, Cyrillic and general diacritics)
_DECOMPOSED_RE = re.compile(r"[^\W\d_][\u0300-\u036f\u0483-\u0489]+")
_MARK_RE = re.compile(r"[\u0300-\u036f\u0483-\u0489]")


def combining_marks(text: str) -> list[Edit]:
    """Compose every letter written with separate combining marks that has a composed form.

    >>> combining_marks("нови\u0306")[0].replacement
    'й'
    >>> combining_marks("новый")
    []
    """
    edits: list[Edit] = []
    if _MARK_RE.search(text) is None:  # most texts hold none: one scan for a mark, not a
        return edits  # match tried at every letter
    for m in _DECOMPOSED_RE.finditer(text):
        composed = unicodedata.normalize("NFC", m.group())
        if composed != m.group():
            edits.append(Edit(m.start(), m.end(), composed, "combining_marks", REASON))
    return edits


ENTITY_REASON = "мнемоника HTML записана символом («&nbsp;» → пробел, «&laquo;» → «««)"
_ENTITY_RE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def html_entities(text: str) -> list[Edit]:
    """Write each HTML character reference as its character: "&nbsp;", "&laquo;", "&quot;",
    "&#171;", "&#xAB;" (a text copied from a page's source, a forum's export that escaped its
    quotes twice). Only a reference closed by its semicolon is one, and only a name HTML
    defines ("&Paniс;" stays); a number of no character stays too.

    >>> [e.replacement for e in html_entities("тест на&nbsp;Панику, &laquo;Ужас&raquo; &#8804; 4")]
    ['\\xa0', '«', '»', '≤']
    >>> html_entities("&Panic; и &#0; и AT&T")
    []
    """
    if "&" not in text:
        return []
    edits = []
    for m in _ENTITY_RE.finditer(text):
        ref = m.group()
        if ref[1] == "#":
            number = int(ref[3:-1], 16) if ref[2] in "xX" else int(ref[2:-1])
            char = chr(number) if 0 < number <= 0x10FFFF and not 0xD800 <= number <= 0xDFFF \
                and unicodedata.category(chr(number)) != "Cc" or number in (9, 10) else None
        else:
            char = html5.get(ref[1:])
        if char:
            edits.append(Edit(m.start(), m.end(), char, "html_entities", ENTITY_REASON))
    return edits
