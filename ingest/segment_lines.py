"""The web-page layout (WHFB, Kill Team): headings on their own lines.

A heading stands on its own line (:func:`is_heading_line`); "Страница N" footers close a page;
line-wrapped paragraphs continue on lines that start in lower case. A heading's parent comes
from the titles, group headings and gaps around it (:func:`_nest_lines`).
"""

from __future__ import annotations

import re

from ingest.sections import (
    Section,
    Segmentation,
    Span,
    is_cyrillic,
    is_group_title,
    title_and_aliases,
)
from ingest.vocabulary import Vocabulary
from kb.lemmas import lemma_key, lemma_words, pos, words

_SENTENCE_END = (".", ":", ";", ",", "?", "…")
_LIST_ITEM = re.compile(r"^\s*(\d+[.)]|[-•–—])\s")


def is_heading_line(line: str, next_line: str | None) -> bool:
    """Whether a line of a web page is a heading.

    A heading is short, starts with a capital (or a digit or "+"), is not followed by a
    continuation line (one starting in lower case), and, when it ends like a sentence, holds
    no finite verb ("Ядовитые атаки и Боевые Машины." is a heading, "Именно подобные ситуации
    отображает правило Паники." is not).
    """
    s = line.strip()
    if not s or len(s) > 80 or _LIST_ITEM.match(s):
        return False
    if not (s[0].isupper() or s[0].isdigit() or s[0] == "+"):
        return False
    if re.search(r"\s[-–—]\s?это\s", s):
        return False
    nxt = (next_line or "").strip()
    if nxt and (nxt[0].islower() or nxt[0] in "-–—,;)"):
        return False
    toks = words(s)
    if not toks or len(toks) > 9:
        return False
    if s.endswith((":", ";", ",", "?")):
        return False
    if s.endswith((".", "!")) or len(toks) > 6:
        return not _has_finite_verb(s)
    return True


def _has_finite_verb(text: str) -> bool:
    return any(is_cyrillic(w[0]) and pos(w) == "VERB" for w in words(text))


def segment_lines(
    text: str, vocab: Vocabulary, system: str | None, gaps: dict[int, int],
    page_ends: list[int],
) -> Segmentation:
    """Split a web-page text into sections: each heading line opens one that runs to the next.

    Args:
        text: the cleaned text.
        vocab: the unit type vocabulary of the system.
        system: the game system (Kill Team nests its headings under phases).
        gaps: blank lines in the source before a heading at a cleaned offset.
        page_ends: cleaned offsets where a page footer closed a page.
    """
    lines = text.split("\n")
    offsets = []
    pos = 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1

    # candidate heading lines (skipping blank lines when looking at the next one)
    nonblank = [i for i, line in enumerate(lines) if line.strip()]
    nxt: dict[int, int | None] = {}
    for k, i in enumerate(nonblank):
        nxt[i] = nonblank[k + 1] if k + 1 < len(nonblank) else None
    def following(i: int) -> str | None:
        j = nxt[i]
        return lines[j] if j is not None else None

    cand = [i for i in nonblank if is_heading_line(lines[i], following(i))]
    # a run of three or more heading-like lines with no text between is a list, not headings:
    # the first is its heading, the last a heading if text follows it, the rest list items
    cset = set(cand)
    heads: list[int] = []
    list_heads: set[int] = set()
    k = 0
    while k < len(cand):
        run = [cand[k]]
        while k + 1 < len(cand) and nxt[run[-1]] == cand[k + 1]:
            k += 1
            run.append(cand[k])
        if len(run) >= 3:
            heads.append(run[0])
            last = run[-1]
            if nxt[last] is not None and nxt[last] not in cset:
                heads.append(last)
                list_heads.add(run[0])
        else:
            heads.extend(run)
        k += 1

    sections: list[Section] = []
    for n, i in enumerate(heads):
        start = offsets[i] + (len(lines[i]) - len(lines[i].lstrip()))
        end = offsets[i] + len(lines[i].rstrip())
        body_start = end
        body_end = offsets[heads[n + 1]] if n + 1 < len(heads) else len(text)
        while body_end > body_start and text[body_end - 1].isspace():
            body_end -= 1
        heading = text[start:end]
        title, aliases = title_and_aliases(heading)
        sections.append(Section(title, heading, (start, end), (body_start, body_end),
                                aliases=aliases, is_list=i in list_heads))
    _nest_lines(sections, text, vocab, system, gaps, page_ends)
    return Segmentation(sections, [], "lines")


def _title_key(title: str) -> str:
    return lemma_key(re.sub(r"\(.*?\)", " ", title))



def _is_phase(title: str) -> bool:
    toks = words(title)
    if not toks or pos(toks[0]) == "PREP":
        return False
    lem = set(lemma_words(title))
    return bool(lem & {"фаза", "этап"}) or "round" in lem


def _is_caps(heading: str) -> bool:
    toks = words(heading)
    return bool(toks) and toks[0].isupper() and len(toks[0]) > 1


def _nest_lines(
    sections: list[Section], text: str, vocab: Vocabulary, system: str | None,
    gaps: dict[int, int], page_ends: list[int] | None = None,
) -> None:
    """Give each web-page heading its parent.

    In order: a heading that contains an open section's title hangs under it ("Дави! Для
    Пехоты Чудовищ" under "Пехота Чудовищ"); a heading after a group heading ("Типы
    подразделений") is its member until a larger gap closes the group; in Kill Team, phases are
    the top and capitalised headings hang under the phase (a capitalised heading of a bare
    list, a sequence of steps, under the one before it), mixed-case ones under those
    (:func:`_mixed_case_parent`).
    """
    killteam = system == "killteam2018"
    see = _see_also(sections, text) if killteam else {}
    open_group: int | None = None
    group_gap = 0
    phase: int | None = None
    caps: int | None = None
    last_top: int | None = None
    ends = sorted(page_ends or [])
    prev_start = -1

    def page_break(start: int) -> bool:
        return any(prev_start < at <= start for at in ends)

    for i, sec in enumerate(sections):
        gap = gaps.get(sec.heading_span[0], 1)
        key = _title_key(sec.title)
        parent: int | None = None
        # 1. contains the title of an open ancestor chain (innermost first)
        chain = _chain(sections, i - 1) if i else []
        is_type = bool(vocab.unit_type(sec.title))
        if page_break(sec.heading_span[0]) or sec.title.endswith("!"):
            open_group = None
        for j in chain:
            if is_type and vocab.unit_type(sections[j].title):
                continue
            if killteam and _is_caps(sec.heading) and _is_caps(sections[j].heading):
                continue  # typography gives the level: a capitalised heading is a sibling
            pkey = _title_key(sections[j].title)
            if pkey and pkey != key and _contains(key, pkey):
                parent = j
                break
        if parent is None and open_group is not None:
            if gap > group_gap:
                open_group = None
            else:
                parent = open_group
        if parent is None and killteam:
            if _is_phase(sec.title):
                phase, caps = None, None
            elif _is_caps(sec.heading) and not (sec.is_list and caps is not None):
                parent = phase
            else:
                parent = _mixed_case_parent(sections, i, text,
                                            caps if caps is not None else phase, see)
        if parent is None and last_top is not None and not killteam:
            # the body's first sentence is about the previous top section ("В многостороннем
            # бою …" under "… многосторонний бой")
            first = _first_sentence(text, sec.body_span)
            ptitle = sections[last_top].title
            pw = lemma_words(ptitle)
            if len(pw) >= 2 and _contains(lemma_key(first), " ".join(pw[-2:])):
                parent = last_top
        sec.parent = parent
        if killteam:
            if _is_phase(sec.title):
                phase = i
            elif parent == phase and _is_caps(sec.heading):
                caps = i
        if is_group_title(sec.title) and (open_group is None or parent == open_group):
            if parent is None or parent != open_group:
                open_group, group_gap = i, gap
        if parent is None:
            last_top = i
        sec.is_unit_type = is_type
        prev_start = sec.heading_span[0]


def _see_also(sections: list[Section], text: str) -> dict[str, int]:
    """Lemma key of each «см. X» target → the first section whose body sends the reader there
    (read once: a body is searched for every heading after it otherwise)."""
    see: dict[str, int] = {}
    for j, sec in enumerate(sections):
        for m in re.finditer(r"\bсм\.\s*([^().;\n]+)", text[sec.body_span[0]:sec.body_span[1]]):
            see.setdefault(lemma_key(m.group(1)), j)
    return see


def _mixed_case_parent(
    sections: list[Section], i: int, text: str, default: int | None, see: dict[str, int],
) -> int | None:
    """Where a Kill Team heading below the capitalised level hangs.

    A box that an earlier section sends the reader to ("(см. Синдром Шаткой Модели)") stands
    beside that section; a heading that the previous heading of its own level names in its
    body ("… Overwatch или Retreat …" before "Retreat (отход)") is its sub-item; any other hangs
    under the last capitalised heading (``default``).
    """
    sec = sections[i]
    names = {k for k in (_title_key(n) for n in (sec.title, *sec.aliases)) if k}
    sent_from = [j for j in (see.get(n) for n in names) if j is not None and j < i]
    if sent_from:
        return sections[min(sent_from)].parent
    prev = sections[i - 1] if i else None
    if prev is not None and not _is_caps(prev.heading) and prev.parent == default:
        body = lemma_key(text[prev.body_span[0]:prev.body_span[1]])
        if any(_contains(body, n) for n in names):
            return i - 1
    return default


def _chain(sections: list[Section], j: int | None) -> list[int]:
    out = []
    while j is not None:
        out.append(j)
        j = sections[j].parent
    # every earlier top-level section of the same run can still be an ancestor
    return out


def _contains(key: str, part: str) -> bool:
    return f" {part} " in f" {key} "


def _first_sentence(text: str, span: Span) -> str:
    body = text[span[0]:span[1]].strip()
    m = re.search(r"[.!?](\s|$)", body)
    return body[: m.end()] if m else body[:300]
