"""A heading over a run of its items (:mod:`ingest.segment_nesting`'s steps for the layouts of
lines): the steps of a sequence numbered from 1 under the heading right above the first, and
an army book's priced entries, a lore's spells and a game's actions with their costs, two or
more in a row, under the heading without a price above them.
"""

from __future__ import annotations

import re

from ingest.sections import CASTING_VALUE, PRICE, Section, has_action_cost
from ingest.segment_headings import _NUMBER
from ingest.segment_nesting import _MIN_PARTS


def steps_under_heading(sections: list[Section], text: str) -> None:
    """A heading right above a step numbered 1 ("ПОСЛЕДОВАТЕЛЬНОСТЬ ХОДА" / "1. НАЧАЛО ХОДА",
    no text between) heads the sequence: it holds that step and the numbered steps after it
    at the same level ("2. ДВИЖЕНИЕ"), up to the first heading there that is not one."""
    for i in range(len(sections) - 1):
        head, first = sections[i], sections[i + 1]
        number = _NUMBER.match(first.heading)
        if text[head.body_span[0]:head.body_span[1]].strip() or number is None \
                or number.group(1) != "1" or first.parent not in (None, head.parent):
            continue
        level = first.parent
        for sec in sections[i + 1:]:
            if sec.parent != level:
                continue  # a step's own parts stay under it
            if _NUMBER.match(sec.heading) is None:
                break
            sec.parent = i




# an action's cost on the line under its name ("Рывок (Dash)" / "1AP")
_COST_LINE = re.compile(r"\s*\d\s?(?:AP|ОД|АР)\s*(?:\n|$)")


def priced_entries(sections: list[Section], text: str) -> None:
    """An army book's entries, each heading with its price ("Обсидиановый магнит - 45 очков",
    "Талисман защиты - 10 очков"), a lore's spells, each with its casting value ("1.
    Огненный плащ (5+)"), or a game's actions, each with its cost ("Атака (Charge) — 1 ОД",
    "Рывок (Dash)" / "1AP"), two or more in a row at one level right after a heading without
    one ("Талисманы", "Школа Огня", "Универсальные действия"), are that heading's: a category
    and its items (an item's own parts, an action's numbered steps, stand between them)."""
    def valued(sec: Section) -> bool:
        heading = sec.heading.strip()
        return PRICE.search(heading) is not None or CASTING_VALUE.search(heading) is not None \
            or has_action_cost(heading) \
            or _COST_LINE.match(text, sec.body_span[0], sec.body_span[1]) is not None

    i = 0
    while i < len(sections):
        head = sections[i]
        # the items stand at the head's level, or at its parent's when the head was taken
        # for a part of the heading above it ("Действия" / "Универсальные действия" /
        # "Репозиционирование (Reposition)" / "1AP" at the level of "Действия")
        level = head.parent
        if i + 1 < len(sections) and sections[i + 1].parent != level and level is not None \
                and sections[i + 1].parent == sections[level].parent \
                and not valued(sections[level]):
            level = sections[level].parent
        j = i + 1
        items = 0
        while j < len(sections):
            parent = sections[j].parent
            if parent is not None and i < parent < j:
                j += 1  # a part of an item (or of a part)
            elif parent == level and valued(sections[j]):
                items += 1
                j += 1
            else:
                break
        if items >= _MIN_PARTS and not valued(head):
            for k in range(i + 1, j):
                if sections[k].parent == level:
                    sections[k].parent = i
            i = j
        else:
            i += 1  # (an item's own parts may hold a category of their own)
