"""The cleaning step that composes letters written as a base letter and a separate mark.

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
