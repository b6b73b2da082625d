"""Entries of a glossary: a run of headings in alphabetical order are peers under one heading.

A rulebook sets its glossaries in alphabetical order: the key principles of a core book
("Bases", "Control Range", "Cover" …), a list of special rules ("Атака с фланга", "Бесстрашие",
"Вечная ненависть" …). Where nothing but blank lines tells the levels of a web page's
headings, that order does: the headings that keep it are the glossary's entries, peers under
the heading right above the first of them; a heading that breaks it between two entries is a
part of the entry above it ("Урон (Damage)" / "Тяжёлое ранение (Injured)" / "Карточки данных
(Datacards)"); and the first heading after the glossary that breaks it ends it.
:func:`glossary_entries` runs after :func:`ingest.segment_nesting.nest_lines` and corrects
only what the order decides.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ingest.sections import Section, unparen
from kb.lemmas import fold

MIN_ENTRIES = 12
"""Headings in alphabetical order that make a glossary (fewer may keep the order by chance)."""

MAX_BREAK = 2
"""Headings out of order between two entries that the glossary goes on across (an entry's
own parts); more end it."""

BREAKS_PER_ENTRY = 4
"""Entries for each heading out of order among them: a glossary's entries have few parts of
their own; headings in no order keep it now and then by chance, with many out of it between."""

SHORT_INTRO = 600
"""Characters of its own text under which the heading right above the glossary is its
title's lead-in ("Ключевые принципы" / "По мере того как …"), and so holds it."""

_LATIN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9'+ -]*")  # ("Lethal x+", "Blast 2")
_CYRILLIC_START = re.compile(r"[А-Яа-яЁё]")


def _english(sec: Section) -> str | None:
    """A heading's English name (its alias in brackets, or its title in Latin letters)."""
    for name in (*sec.aliases, sec.title):
        if _LATIN_NAME.fullmatch(name.strip()):
            return name.strip().lower()
    return None


def _russian(sec: Section) -> str | None:
    """A heading's Russian title, folded, when it opens with a Cyrillic letter."""
    title = unparen(sec.title).strip()
    return fold(title) if _CYRILLIC_START.match(title) else None


def _runs(order: list[int], key: Callable[[Section], str | None],
          sections: list[Section]) -> list[tuple[list[int], list[int]]]:
    """(entries, breakers) of each run of ``order``'s headings in ``key``'s alphabetical order,
    at least :data:`MIN_ENTRIES` long and with at most one heading out of order for each
    :data:`BREAKS_PER_ENTRY` entries. A heading after an entry joins the run when its key
    follows the entry's and the next heading does not fall between the two (a part after an
    entry, "Injured" after "Damage", is passed over for "Datacards"); at most
    :data:`MAX_BREAK` headings in a row are passed over. A run's first entry is right above
    its second: a heading before headings out of order (a page's title "Армейский список"
    over "Специальные правила" / "Атака с ходу") sorts before the entries by chance.

    Each heading's next entry depends on it alone (it is one of the :data:`MAX_BREAK` + 1
    headings after it), so the run from each heading is a chain of them, read once for all
    (from the last heading up: its length, its end, and where it starts once the headings
    before its first two adjacent entries are dropped)."""
    keys = [key(sections[i]) for i in order]
    n = len(order)
    after_entry = [-1] * n  # each heading's next entry, as a run's entry
    for e, last in enumerate(keys):
        if last is None:
            continue
        for j in range(e + 1, min(n, e + MAX_BREAK + 2)):
            here = keys[j]
            after = keys[j + 1] if j + 1 < n else None
            if here is not None and here > last and not (after is not None and last < after < here):
                after_entry[e] = j
                break
    length, end, start = [1] * n, list(range(n)), list(range(n))
    for e in range(n - 1, -1, -1):
        j = after_entry[e]
        if j != -1:
            length[e], end[e] = length[j] + 1, end[j]
            start[e] = e if j == e + 1 else start[j]
    out = []
    k = 0
    while k < n:
        if keys[k] is None:
            k += 1
            continue
        first = start[k]
        if length[first] >= MIN_ENTRIES:
            entries = [first]
            while after_entry[entries[-1]] != -1:
                entries.append(after_entry[entries[-1]])
            taken = set(entries)
            breakers = [b for b in range(first, end[first]) if b not in taken]
            if len(breakers) * BREAKS_PER_ENTRY <= len(entries):
                out.append(([order[e] for e in entries], [order[b] for b in breakers]))
            k = end[first] + 1  # (a long run is looked at once: its tail is no new run)
        else:
            k += 1
    return out


def _without_overlaps(runs: list[tuple[list[int], list[int]]]) -> list[tuple[list[int], list[int]]]:
    """The runs of the two orders in page order, the longer of two that overlap kept (the
    runs of one order never overlap one another)."""
    kept: list[tuple[list[int], list[int]]] = []
    for run in sorted(runs, key=lambda r: r[0][0]):
        while kept and run[0][0] <= kept[-1][0][-1]:
            if len(run[0]) <= len(kept[-1][0]):
                break  # (the longer run kept: this one goes)
            kept.pop()  # (a longer run of the other order may reach back over two)
        else:
            kept.append(run)
    return kept


def glossary_entries(sections: list[Section], text: str, plain: set[int]) -> None:
    """Hang the entries of each glossary (:func:`_runs` over the ``plain`` headings: not
    numbered, no label run in before its text) as peers under the heading above them.

    The glossary's holder is the heading right above its first entry when that heading's own
    text is a short lead-in (:data:`SHORT_INTRO`), else the first entry's parent. A heading
    out of order between two entries hangs under the entry above it, and so does a numbered
    part or a label between them that hangs outside the glossary; the first plain heading
    after the glossary that hung inside it is the holder's peer, and later ones that hung
    inside it hang under that one.
    """
    order = sorted(plain)
    runs = _without_overlaps(_runs(order, _english, sections) + _runs(order, _russian, sections))
    for n, (entries, breaking) in enumerate(runs):
        first, last = entries[0], entries[-1]
        breakers = set(breaking)
        holder = sections[first].parent
        above = first - 1
        if above >= 0 and above in plain and above not in breakers:
            start, end = sections[above].body_span
            if len(text[start:end].strip()) <= SHORT_INTRO:
                holder = above
        if holder is not None and first <= holder:
            holder = None
        inside = set(range(first, last + 1))
        owner = first
        members = set(entries)
        for i in range(first, last + 1):
            sec = sections[i]
            if i in members:
                sec.parent = holder
                sec.is_term = True
                owner = i
            elif i in breakers or sec.parent is None or sec.parent < first:
                sec.parent = owner
        # (up to the next glossary: each heading is looked at for one glossary at most)
        stop = runs[n + 1][0][0] if n + 1 < len(runs) else len(sections)
        ender: int | None = None
        for i in range(last + 1, stop):
            sec = sections[i]
            if sec.parent not in inside and (sec.parent != holder or ender is not None):
                continue
            if ender is None and i in plain:
                ender = i
                sec.parent = sections[holder].parent if holder is not None else None
                inside.add(i)
            elif ender is not None and i in plain:
                sec.parent = ender
