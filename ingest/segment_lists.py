"""Lists a page flattened into one line, for :func:`ingest.segment.segment` to break.

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
    pos = 0
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
                    breaks.update(pos + m.start() for m in marks)
        pos += len(line) + 1
    return sorted(breaks)
