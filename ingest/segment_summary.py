"""A summary of steps that the text heads again below: a flow diagram's boxes or a sequence's
outline, set as short lines before the steps' own headings.

A rulebook shows a sequence first as a diagram ("КОГДА АКТИВИРУЕТСЯ ДРУЖЕСТВЕННЫЙ
ОПЕРАТИВНИК:" / "1. Определение приказа" / "2. Выполнение действий" / "Активация следующего
игрока" / "3. ИСТОЩЕНИЕ"), then gives each step its heading and text ("1. Определение приказа
(Determine order)" / "Назначение оперативникам …"). The diagram's lines are the text of the
heading above them, not headings: a box between the steps ("Активация следующего игрока")
heads nothing either. A block is such a summary when two or more of its numbered lines come
again, with the same number and the same name, as headings further on.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from ingest.sections import unparen
from kb.lemmas import lemma_key

_STEP = re.compile(r"^\s*(\d{1,2})[.)]\s+(\S.*?)[\s.:]*$")
_MIN_ECHOED = 2  # numbered lines of a block headed again below that make it a summary
_MAX_LINE = 100  # characters of a summary's line at most: a box holds a few words
_SENTENCE_END = (".", "!", "…")


def _step_key(line: str) -> tuple[int, str] | None:
    """A numbered line's number and name, the name's words in their dictionary forms and
    without its notes in brackets ("3. Истощение (Expended)" → ``(3, "истощение")``)."""
    m = _STEP.match(line)
    if m is None:
        return None
    name = unparen(m.group(2))
    return (int(m.group(1)), lemma_key(name)) if name else None


def _boxed(line: str) -> bool:
    """Whether a line may be a diagram's box or an outline's line: short, no sentence."""
    s = line.strip()
    return len(s) <= _MAX_LINE and not s.endswith(_SENTENCE_END)


def echoed_steps(lines: list[str], nonblank: list[int], cand: list[int]) -> set[int]:
    """The heading-like lines of ``cand`` that stand in a summary of steps headed again below.

    A block is a run of nonblank lines, each short and no sentence (:func:`_boxed`); it ends
    at the first line that heads one of its steps again, which must stand right after it (a
    summary is given where its steps begin). Two of its numbered lines at least must come
    again as headings (``cand``), later, with the same number and name.
    """
    heads = set(cand)
    # where each numbered heading stands, by its number and name (the first after a line is
    # looked for by bisection of these lists' sorted offsets)
    headed: dict[tuple[int, str], list[int]] = {}
    for i in cand:
        key = _step_key(lines[i])
        if key is not None:
            headed.setdefault(key, []).append(i)
    if len(headed) < _MIN_ECHOED:
        return set()
    out: set[int] = set()
    k = 0
    while k < len(nonblank):
        if not _boxed(lines[nonblank[k]]):
            k += 1
            continue
        start = k
        end = k  # the block's lines are nonblank[start:end]
        echoed = 0
        stop: int | None = None  # the first heading that heads a step of the block again
        while end < len(nonblank) and _boxed(lines[nonblank[end]]) \
                and (stop is None or nonblank[end] < stop):
            i = nonblank[end]
            key = _step_key(lines[i])
            at = headed.get(key, []) if key is not None else []
            n = bisect_right(at, i)
            if n < len(at):
                echoed += 1
                stop = at[n] if stop is None else min(stop, at[n])
            end += 1
        if echoed >= _MIN_ECHOED and end < len(nonblank) and nonblank[end] == stop:
            out.update(i for i in nonblank[start:end] if i in heads)
        k = max(end, k + 1)
    return out
