"""A forum post's BB-code around a rule text: "[b]Паника[/b]", "[url=…]правило[/url]".

A text copied from a forum's editor, or from an export of its posts, keeps the forum's tags in
square brackets: a heading set in bold on a line of its own ("[b]Паника[/b]") is no heading
with them, and "[i]тест на Панику[/i]" no mention of «Паника». The cleaning step
:func:`bbcode` removes the tags of the forums' common vocabulary (phpBB's, vBulletin's, IPB's:
bold, italic, underline, strike, size, colour, font, alignment, links, quotations, spoilers,
lists, code), keeping what they enclose, and an image's tag whole ("[img]…[/img]"), each edit
accounted for as «разметка BB-кода форума»; a list's "[*]" becomes a bullet.

A tag is removed only in a text that closes one of them ("[/b]", "[/url]"): a heading's
translation in brackets ("RULES [ПРАВИЛА]"), a footnote's "[1]" or a note "[sic]" is no
tag.
"""

from __future__ import annotations

import re

from ingest.clean_edits import first_fit
from ingest.models import Edit

STEP = "bbcode"
REASON = "разметка BB-кода форума"

_NAMES = (r"b|i|u|s|strike|size|colou?r|font|center|left|right|justify|url|email|quote|spoiler"
          r"|hide|list|code|sub|sup|indent|highlight|offtop|off")
_CLOSING = re.compile(rf"\[/(?:{_NAMES})\]", re.IGNORECASE)
_TAG = re.compile(rf"\[/?(?:{_NAMES})(?:=[^\]\n]{{0,200}})?\]", re.IGNORECASE)
_IMAGE = re.compile(r"\[img(?:=[^\]\n]{0,200})?\][^\[\n]{0,2000}\[/img\]", re.IGNORECASE)
_ITEM = re.compile(r"\[\*\]")


def bbcode(text: str) -> list[Edit]:
    """The edits that remove a forum's BB-code tags (the module's docstring); none for a text
    that closes no tag.

    >>> [(e.start, e.end, e.replacement) for e in bbcode("[b]Паника[/b]")]
    [(0, 3, ''), (9, 13, '')]
    >>> bbcode("RULES [ПРАВИЛА] и сноска [1]")
    []
    """
    if "[/" not in text or _CLOSING.search(text) is None:
        return []
    edits = [Edit(m.start(), m.end(), "", STEP, REASON) for m in _IMAGE.finditer(text)]
    images = [(e.start, e.end) for e in edits]
    k = 0
    for m in _TAG.finditer(text):
        while k < len(images) and images[k][1] <= m.start():
            k += 1
        if k < len(images) and images[k][0] <= m.start():
            continue  # (inside an image's tags, removed whole)
        edits.append(Edit(m.start(), m.end(), "", STEP, REASON))
    edits += [Edit(m.start(), m.end(), "•", STEP, REASON) for m in _ITEM.finditer(text)]
    return first_fit(edits)
