"""Cleaning steps that only touch whitespace: the first step and the last.

:func:`line_endings` runs first so every other step sees ``\\n`` line ends only;
:func:`whitespace` runs last, after the other steps have removed what they remove.
"""

from __future__ import annotations

import re

from ingest.clean_edits import HSPACE
from ingest.models import Edit

_CR_RE = re.compile(r"\r\n?")


def line_endings(text: str) -> list[Edit]:
    """Windows and old Mac line ends become ``\\n``, so the other steps see one kind."""
    return [
        Edit(m.start(), m.end(), "\n", "line_endings", "перевод строки приведён к \\n")
        for m in _CR_RE.finditer(text)
    ]


_WHITESPACE_BODY = (
    rf"(?P<lines>{HSPACE}*\n\s*)"
    rf"|(?P<open>(?<=[(\[«]){HSPACE}+)"
    rf"|(?P<close>{HSPACE}+(?=[)\]»]))"
    rf"|(?P<spaces>{HSPACE}{{2,}}|[^\S\n ]|\A{HSPACE}+|{HSPACE}+\Z)"
)
# every alternative starts at a whitespace character: looked ahead for first, so the scan
# passes every other character at once (most of a text); then a space between words, which
# no alternative takes (one space, a word's character after it, no bracket or quote around it,
# the text's edges away), is passed at once too (most spaces of a text)
_PLAIN_SPACE = r"(?! (?=[^\s)\]»])(?<=[^(\[«] ))"
_WHITESPACE_RE = re.compile(rf"(?=\s){_PLAIN_SPACE}(?:{_WHITESPACE_BODY})")


def whitespace(text: str) -> list[Edit]:
    """Normalise whitespace: one space between words, no spaces at line ends or starts,
    no spaces inside brackets, at most one blank line, nothing at the text's ends.

    Non-breaking spaces count as spaces, so a line holding only one is blank.
    """
    edits: list[Edit] = []
    size = len(text)
    for m in _WHITESPACE_RE.finditer(text):
        run = m.group()
        if (run == "\n" or run == "\n\n") and 0 < m.start() and m.end() < size:
            continue  # a line's end, or one blank line, inside the text: already as it should be
        at_edge = m.start() == 0 or m.end() == size
        if m.group("lines") is not None:
            newlines = run.count("\n")
            replacement = "" if at_edge else "\n\n" if newlines >= 2 else "\n"
            if newlines > 2:
                reason = "несколько пустых строк сведены к одной"
            elif at_edge:
                reason = "пустые строки в начале или конце текста"
            else:
                reason = "пробелы в конце или начале строки"
        elif m.group("open") is not None or m.group("close") is not None:
            replacement, reason = "", "пробел внутри скобок или кавычек"
        else:
            replacement = "" if at_edge else " "
            reason = "пробелы в начале или конце текста" if at_edge else "лишние пробелы"
        if replacement != run:
            edits.append(Edit(m.start(), m.end(), replacement, "whitespace", reason))
    return edits
