"""The cleaning step for headings in two languages (``heading_translation`` of
:data:`ingest.clean.STEPS`): a heading's translation or English gloss on the next line joins
it, and an English line that only repeats the heading below it goes.
"""

from __future__ import annotations

import re

from ingest.clean_edits import HSPACE, block_edit, merge_blocks
from ingest.models import Edit

_LATIN_LINE = r"[A-Za-z][A-Za-z'’&\- ]*[A-Za-z]"
# "RULES" / "[ПРАВИЛА]": the translation of a heading on a line of its own
_TRANSLATION_RE = re.compile(
    rf"^{HSPACE}*+{_LATIN_LINE}({HSPACE}*\n{HSPACE}*)(?=[\[(][^\])\n]*[А-Яа-яЁё][^\])\n]*[\])]{HSPACE}*$)",
    re.MULTILINE,
)
_LATIN_LINE_RE = re.compile(rf"^{HSPACE}*+({_LATIN_LINE}){HSPACE}*$", re.MULTILINE)
# "ОБЪЯВЛЕНИЕ АТАК" / "(DECLARE CHARGES)": a Russian heading with its English in brackets below
_GLOSS_RE = re.compile(
    rf"^{HSPACE}*+[А-ЯЁ][^\n.!?:;]{{0,60}}[^\s.!?:;,]({HSPACE}*\n{HSPACE}*)"
    rf"(?=[(\[][A-Za-z][A-Za-z0-9'’&\- ]*[A-Za-z0-9][)\]]{HSPACE}*$)",
    re.MULTILINE,
)
_SPACE_RE = re.compile(r"\s*")
_MAX_GAP = 40  # spaces between a heading's English and its bracketed Russian, at most
ENGLISH_ABOVE_REASON = "английское название заголовка повторено строкой над ним"


def heading_translation(text: str) -> list[Edit]:
    """Headings in two languages: "RULES" over "[ПРАВИЛА]" become one line
    ("RULES [ПРАВИЛА]"), and an English line that only repeats the English of the heading below
    it ("Core Rules" over "CORE RULES [БАЗОВЫЕ ПРАВИЛА]") is removed (the heading keeps the
    English name as an alias)."""
    edits = [Edit(m.start(1), m.end(1), " ", "heading_translation",
                  "перевод заголовка со следующей строки присоединён к заголовку")
             for m in _TRANSLATION_RE.finditer(text)]
    edits += [Edit(m.start(1), m.end(1), " ", "heading_translation",
                   "английское название заголовка со следующей строки присоединено к нему")
              for m in _GLOSS_RE.finditer(text)]
    joined = {m.start(1) for m in _TRANSLATION_RE.finditer(text)}
    for m in _LATIN_LINE_RE.finditer(text):
        if m.end() in joined:
            continue  # the English half of a heading being joined
        english = m.group(1)
        space = _SPACE_RE.match(text, m.end())  # "\s*" always matches
        at = space.end() if space else m.end()  # the next line's first character
        nxt = text[at:at + len(english) + _MAX_GAP]  # a slice, never the rest of the text
        if nxt.casefold().startswith(english.casefold()) and len(nxt) > len(english) and \
                re.match(r"\s*[\[(]", nxt[len(english):]) is not None:
            edits.append(block_edit(text, m.start(1), m.end(1), "heading_translation",
                                    ENGLISH_ABOVE_REASON))
    return merge_blocks(text, [e for e in edits if e.step == "heading_translation"
                               and e.reason == ENGLISH_ABOVE_REASON]) + [
        e for e in edits if e.reason != ENGLISH_ABOVE_REASON]
