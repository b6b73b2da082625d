"""Where each heading of a web page hangs (:mod:`ingest.segment_lines` finds the headings).

:func:`nest_lines` gives each heading its parent from the titles, group headings and gaps
around it and from the headings' own shapes (case, numbering, a phase's name, headings naming
sides of one thing); then :func:`steps_under_heading` and :func:`priced_entries` place what a
sequence's heading and an army book's category hold (:mod:`ingest.segment_titles` places what
a page's and a chapter's titles hold).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

from ingest.sections import (
    ERRATA_ENTRY,
    STEP_NAME,
    Section,
    Span,
    is_group_title,
    names_phase,
    unparen,
)
from ingest.segment_depth import ancestry, within_depth
from ingest.segment_headings import _NUMBER, _is_caps
from ingest.vocabulary import Vocabulary
from kb.lemmas import lemma_key, lemma_words, name_words, pos, words


@lru_cache(maxsize=65_536)
def _title_key(title: str) -> str:
    """A title's lemmas without its parenthesised parts (a heading is keyed again for each
    heading below it that looks back at it: kept)."""
    return lemma_key(_PARENTHESISED.sub(" ", title))


_PARENTHESISED = re.compile(r"\(.*?\)")



def _is_phase(title: str) -> bool:
    toks = words(title)
    if not toks or pos(toks[0]) == "PREP":
        return False
    lem = set(lemma_words(title))
    # "подфаза", "субфаза": a part of a phase is one too
    return bool(lem & {"фаза", "этап"}) or "round" in lem or any(
        w.endswith("фаза") for w in lem)


# a heading's number in an outline: before its title ("1.1 Dwarf Lord", "2.3. Магия", "4)
# Стрельба", a chapter's "Глава 3. Психология" over its "3.1 Паника") or on the line of its own
# just above it ("1" / "Лорды", a list's number that a converted document set apart)
_OUTLINE_IN_HEADING = re.compile(
    r"\s*(?:(?:[Гг]лава|[Рр]аздел|[Чч]асть|Chapter|Part|Section)\s+)?(\d{1,2}(?:\.\d{1,2})*)"
    r"(?:[.):]\s|\s)(?=\s*[^\W\d_])")
_OUTLINE_LINE_ABOVE = re.compile(r"(?:^|\n)[^\S\n]*(\d{1,2}(?:\.\d{1,2})*)\.?[^\S\n]*\n\s*\Z")
_OUTLINE_LOOK = 40  # characters above a heading where its number may stand alone


def _outline_number(text: str, sec: Section) -> tuple[str, bool] | None:
    """The number of a heading in an outline (:data:`_OUTLINE_IN_HEADING`,
    :data:`_OUTLINE_LINE_ABOVE`) and whether it stands alone above it, or None."""
    m = _OUTLINE_IN_HEADING.match(sec.heading)
    if m is not None:
        return m.group(1), False
    start = sec.heading_span[0]
    m = _OUTLINE_LINE_ABOVE.search(text, max(0, start - _OUTLINE_LOOK), start)
    return (m.group(1), True) if m is not None else None


# the heading's English name set in capitals under it ("Холодное оружие" / "MELEE WEAPONS")
_ENGLISH_NAME_LINE = re.compile(r"\s*[A-Z][A-Z' -]{2,60}\s*")


def _own_text(text: str, sec: Section) -> str:
    """A section's body without its flavour (an epigraph under a page's title is no text of
    the title's own), and nothing when it is only the heading's English name in capitals."""
    start, end = sec.body_span
    parts, at = [], start
    for a, b in sorted(sec.flavour_spans):
        parts.append(text[at:max(at, a)])
        at = max(at, b)
    parts.append(text[at:end])
    own = _BARE_NUMBER_LINE.sub("", "".join(parts))  # a number alone on its line numbers the
    # heading below it ("1" / "Лорды"), or is a page's: no text of the section's own
    return "" if _ENGLISH_NAME_LINE.fullmatch(own) else own


def _alone_on_line(text: str, sec: Section) -> bool:
    """Whether nothing but space follows a section's heading on its line."""
    end = text.find("\n", sec.heading_span[1])
    return not text[sec.heading_span[1]:len(text) if end < 0 else end].strip()


def _drop_keys(outlined: dict[str, int], keys: set[str]) -> None:
    """Forget an outline's numbers ``keys`` (and empty the set)."""
    for key in keys:
        outlined.pop(key, None)
    keys.clear()


_BARE_NUMBER_LINE = re.compile(r"^[^\S\n]*\d{1,3}[.)]?[^\S\n]*$", re.MULTILINE)


_PARAGRAPH_LINE = re.compile(r"^[^\n]{60,}[.!?…»\"]\s*$", re.MULTILINE)


# a sentence a PDF's column wrapped: lines right under each other, the first going on below
_WRAPPED_PARAGRAPH = re.compile(
    r"^[^\n]*[^\s.!?:;][^\S\n]*\n(?:[^\S\n]*\S[^\n]*\n){0,6}[^\n]*[.!?…»\"][^\S\n]*$",
    re.MULTILINE)
_PARAGRAPH_CHARS = 60


def _has_paragraph(text: str, sec: Section) -> bool:
    """Whether a section's own text holds a paragraph: a line of 60 characters or more ending
    a sentence, or such a sentence a PDF's column wrapped over a few lines."""
    if _PARAGRAPH_LINE.search(text, *sec.body_span) is not None:
        return True
    return any(len(m.group()) >= _PARAGRAPH_CHARS
               for m in _WRAPPED_PARAGRAPH.finditer(text, *sec.body_span))


def nest_lines(
    sections: list[Section], text: str, vocab: Vocabulary, system: str | None,
    gaps: dict[int, int], page_ends: list[int] | None = None, entries: set[int] | None = None,
    labels: set[int] | None = None, parts: set[int] | None = None,
) -> None:
    """Give each web-page heading its parent.

    In order: a heading that contains an open section's title hangs under it ("Дави! Для
    Пехоты Чудовищ" under "Пехота Чудовищ"), and so does one holding an adjective made of an
    open section's one-word title ("Оружие взрывного типа и перебрасывания" under "Взрыв");
    a heading after a group heading ("Типы подразделений") is its member until a larger gap
    closes the group (the group it is in, if any, then holds on). Then typography: in a
    text whose headings are both in capitals and in mixed case, phases ("Фаза движения") are
    the top, capitalised headings hang under the phase (a capitalised heading of a bare list,
    a sequence of steps, under the one before it) and mixed-case ones under those
    (:func:`_mixed_case_parent`); in a text of one style, a numbered heading ("4. Отступление
    и преследование") holds the unnumbered ones after it, and a heading whose first sentence
    speaks of the top section before it hangs under that section.
    """
    del system  # the layout decides, not the game: any system's text may use either
    layered = any(_is_caps(s.heading) for s in sections) and any(
        not _is_caps(s.heading) for s in sections)
    killteam = layered
    see = _see_also(sections, text) if layered else {}
    numbered: int | None = None
    numbered_caps: int | None = None
    open_group: int | None = None
    group_caps: int | None = None  # the last capitalised member of the open group
    group_gap = 0
    # the groups the open one is in, outermost first, with their gaps and last capitals
    outer: list[tuple[int, int, int | None]] = []
    phase: int | None = None
    caps: int | None = None
    last_top: int | None = None
    # the last "Фаза 3 — Стрельба" of a text of one style, or numbered heading of a group
    step_open: int | None = None
    outlined: dict[str, int] = {}  # an outline's number ("1", "1.2") → the last heading of it
    top_numbers: set[str] = set()  # its keys of the top level ("1", "2"), dropped when a run
    # ends (each key once per run: the cost stays flat however many runs a text holds)
    subdivided: set[str] = set()  # the numbers that head subsections ("1" of "1.1")
    empty_tops: dict[str, int] = {}  # a top-level heading over no text → its place, by key
    held_by: int | None = None  # the heading that holds the numbered parts under way
    ends = sorted(page_ends or [])
    prev_start = -1

    def page_break(start: int) -> bool:
        # a page end after the previous heading, at or before this one (found by bisection:
        # a book of many pages and many headings would cost their product otherwise)
        k = bisect_right(ends, prev_start)
        return k < len(ends) and ends[k] <= start

    # a heading that opens the text with no text of its own (a page's title right over its
    # first part), or a group's title that opens it ("Примеры мистических монументов" over
    # its lead-in), has the largest gap before it: nothing is above it, and no gap closes it
    opening_gap = max(gaps.values(), default=0) + 1
    for i, sec in enumerate(sections):
        gap = gaps.get(sec.heading_span[0], 1)
        opening = not i and not text[:sec.heading_span[0]].strip() and (
            not text[sec.body_span[0]:sec.body_span[1]].strip() or is_group_title(sec.title))
        if opening:
            gap = opening_gap
        key = _title_key(sec.title)
        parent: int | None = None
        # 1. contains the title of an open ancestor chain (innermost first)
        chain = ancestry(sections, i - 1) if i else []
        is_type = bool(vocab.unit_type(sec.title))
        if page_break(sec.heading_span[0]) or sec.title.endswith("!"):
            open_group = None
            outer.clear()
        # the next entry of a list of rules run in after a colon is its sibling
        decided = i - 1 in (entries or ()) and i in (entries or ())
        if decided and i - 1 in (labels or ()) and i not in (labels or ()) \
                and not text[sections[i - 1].body_span[0]:sections[i - 1].body_span[1]].strip():
            # a label over no text of its own is the lead-in of the entries run in after it
            # ("Специальные правила формации:" / "Гипертоксичный: Любая атака …")
            parent = i - 1
        elif decided:
            parent = sections[i - 1].parent
        elif i and (i in (labels or ()) or i in (entries or ())) \
                and not page_break(sec.heading_span[0]) \
                and (i in (parts or ()) or not _has_paragraph(text, sections[i - 1])):
            # the first of a list of labels on lines of their own, or of rules run in after a
            # colon, under a heading line: the heading holds the list ("Dataslate …" /
            # "Ограничения формации:", "Специальные правила формации:"; "Стая смерти" / "1
            # Hive Tyrant" / "Ограничения формации: Тиран улья …"; "Ликтор" / "Ликтор
            # охотится в одиночку." / "*Раздирающий (Rending): …"); a heading over a paragraph
            # of its own (a long line ending a sentence) is a rule, and the
            # labels after it are its peers ("Выберите другое оружие …" / "Если у атакующей
            # модели …" / "Mortal Wounds Смертельные раны:"); the labels of a digest's
            # paragraphs are the heading's parts even under its paragraph ("Кампания по
            # ВХ40К" / "В кампании принимает участие …" / "Ростер: в ходе кампании …")
            parent, decided = i - 1, True
        elif i >= 2 and ERRATA_ENTRY.match(" ".join(sec.heading.split())) \
                and not ERRATA_ENTRY.match(" ".join(sections[i - 1].heading.split())):
            # an errata's first entry under its part's heading ("ERRATA" / "Ошибки", below
            # the page's title): the part holds its entries
            parent, decided = i - 1, True
        in_outline = _outline_number(text, sec)
        if in_outline is not None:
            # the outline's number gives the level: "1.2" after "1.1" is its sibling, "1.1"
            # (a first) under "1", "2" after "1" a sibling ("1" / "Лорды", "1.1 Dwarf Lord";
            # "3) Imperial Armor" after "2) Домашние правила" whatever the words before). A
            # number alone above a heading may be a page's ("3" / "Звери Хаоса", "4" /
            # "Использование …" of a magazine): it makes a sibling only after a number that
            # heads an outline's subsections
            outline, alone = in_outline
            prefix, _, last = outline.rpartition(".")
            prev = f"{prefix}.{int(last) - 1}" if prefix else str(int(last) - 1)
            before = outlined.get(prev)
            if before is not None and not decided and (not alone or prev in subdivided):
                parent, decided = sections[before].parent, True
            elif prefix in outlined and not decided:
                parent, decided = outlined[prefix], True
                subdivided.add(prefix)
            if outline == "1" and not alone:
                # a run numbered from 1 again starts a new outline: the last run's "4" is no
                # earlier sibling of a "4" after this "1" ("Выстрел" / "1." … "6.", "Драка" /
                # "1." … "4.", "Карточки данных" / "1." … "4. Правила оружия")
                _drop_keys(outlined, top_numbers)
            outlined[outline] = i
            if not prefix:
                top_numbers.add(outline)
            if in_outline == ("1", False) and not decided and not killteam and i \
                    and _outline_number(text, sections[i - 1]) is None \
                    and _alone_on_line(text, sections[i - 1]):
                # steps or parts numbered from 1 right under an unnumbered heading alone on
                # its line ("Фаза стратегии" / "1. Инициатива" / "2. Готовность", a post's
                # "Блуд в Плохих Землях." / "1. Армии."): it holds them (the later ones by their
                # numbers); a heading with a parameter on its line is an entry like them ("…
                # (сигнатурное заклинание) - сложность 7+" / "1. Образ ужасного рыцаря")
                parent, decided = i - 1, True
                held_by = i - 1
        elif held_by is not None and outlined and (i in (labels or ()) or i in (entries or ())):
            # a label run in after a colon is a paragraph of the part under way, no end of
            # the parts ("1. Определение приказа" / "Боевой: Оперативник может …" / "Скрытый:
            # …" / "2. Выполнение действий")
            if not decided:
                parent, decided = max(outlined.values()), True
        elif held_by is not None:
            # the first unnumbered heading after the parts a heading holds ends them: it is
            # the holder's peer, no part of the last of them ("Выстрел" / "1. Выбор оружия" /
            # … / "5. Распределение защитных кубиков" / "Драка")
            if not decided and parent is None:
                # (a holder at the top level has a peer at the top level)
                parent, decided = sections[held_by].parent, True
                step_open = numbered = None
                _drop_keys(outlined, top_numbers)  # (the run is over: a later "4" goes on
                # none of it)
            held_by = None
        for j in () if decided else chain:
            if is_type and vocab.unit_type(sections[j].title):
                continue
            if killteam and _is_caps(sec.heading) and _is_caps(sections[j].heading):
                continue  # typography gives the level: a capitalised heading is a sibling
            pkey = _title_key(sections[j].title)
            if pkey and pkey != key and (_contains(key, pkey) or _derived(key, pkey)):
                parent = j
                break
        if parent is None and not decided and key:
            # a group's title over no text of its own ("Карты расстановки") holds a later
            # heading that opens with its name ("Карта расстановки: Молот и наковальня"),
            # whatever top-level headings (a map's labels) stand between them
            kw = key.split()  # its name's first words, longest first (a lookup each: a text
            # of many headings over no text costs no more per heading)
            parent = next((empty_tops[head] for n in range(len(kw) - 1, 0, -1)
                           if (head := " ".join(kw[:n])) in empty_tops), None)
        if parent is None and not decided:
            # a heading of the same shape as an open one, naming another side of the same
            # thing, is its sibling whatever stands between them
            twin = next((j for j in chain if _parallel(sections[j], sec)), None)
            if twin is not None:
                parent, decided = sections[twin].parent, True
                if open_group is not None and open_group in ancestry(sections, twin):
                    # the group's own twin is its peer, outside it; a twin inside the group
                    # (however deep: "Поднять маркер" / "Установить маркер" under a step of
                    # a phase in the page's title) leaves it open
                    if open_group == twin:
                        open_group, group_caps = None, None
                        outer.clear()
        while parent is None and open_group is not None and not decided and gap > group_gap:
            # a gap wider than the group's closes it; the group it is in holds on if the gap
            # is not wider than that one's ("Боевые Машины" / "ТЕСТЫ НА ХАРАКТЕРИСТИКИ" /
            # "БЛИЖНИЙ БОЙ.")
            open_group, group_gap, group_caps = outer.pop() if outer else (None, 0, None)
        if parent is None and open_group is not None and not decided:
            if killteam and group_caps is not None and not _is_caps(sec.heading):
                parent = group_caps  # typography within the group: mixed case under capitals
            elif step_open is not None and step_open > open_group \
                    and not STEP_NAME.match(" ".join(sec.heading.split())) \
                    and not _NUMBER.match(sec.heading):
                # a step of the turn or a numbered heading in the group ("2. ДВИЖЕНИЕ" in
                # "Краткие правила игры") holds what follows it, as outside a group
                parent = step_open
            else:
                parent = open_group
        if parent is None and killteam and not decided:
            if _is_phase(sec.title):
                phase, caps = None, None
            elif _NUMBER.match(sec.heading) and _is_caps(_NUMBER.sub("", sec.heading)):
                numbered_caps = i  # "2. ДВИЖЕНИЕ": a numbered step of the book's sequence
            elif _is_caps(sec.heading) and not (sec.is_list and caps is not None):
                parent = phase if phase is not None else numbered_caps
            else:
                parent = _mixed_case_parent(sections, i, text,
                                            caps if caps is not None else phase, see)
        step = not killteam and STEP_NAME.match(" ".join(sec.heading.split())) is not None
        # "Подфаза нападения": a phase of the turn holds the steps after it, in one style
        phase_head = not killteam and parent is None and not decided and names_phase(sec.title)
        if parent is None and not killteam and _NUMBER.match(sec.heading) or step or phase_head:
            numbered = i  # "4. Отступление …", "Фаза 3 — Стрельба": a step holds what follows
        elif parent is None and not killteam and numbered is not None and not decided:
            parent = numbered
        if step or (open_group is not None and _NUMBER.match(sec.heading)
                    and open_group in ancestry(sections, parent)):
            step_open = i
        if parent is None and last_top is not None and not killteam and not decided \
                and _title_key(sections[last_top].title) != key:
            # the body's first sentence is about the previous top section ("В многостороннем
            # бою …" under "… многосторонний бой"); a heading of the same name is that
            # section printed again, its peer
            first = _first_sentence(text, sec.body_span)
            ptitle = sections[last_top].title
            pw = name_words(ptitle)
            if len(pw) >= 2 and _contains(lemma_key(first), " ".join(pw[-2:])):
                parent = last_top
            elif len(pw) == 1 and _opens_with(first, pw[0]):
                parent = last_top  # "Некоторые гранаты …" under "Гранаты"
            elif sec.title.endswith("?") and not ptitle.endswith("?"):
                parent = last_top  # a FAQ's questions under the heading above them
        sec.parent = within_depth(sections, parent)
        if killteam:
            if _is_phase(sec.title):
                phase = i
            elif parent in (phase, numbered_caps) and _is_caps(sec.heading):
                caps = i
        if open_group is not None and parent is not None and _is_caps(sec.heading) \
                and open_group in ancestry(sections, parent):
            group_caps = i
        # a heading with no text of its own right above another holds the entries after it
        # ("Мобильные войска" / "Сквадрон бронированных Стражей"), as a group's title does
        # (in a group too: "Исправления" of an errata over its entries); in a text of two
        # styles only the one that opens it, in mixed case, over its parts in capitals ("9.
        # Боевые Машины" / "ТЕСТЫ НА ХАРАКТЕРИСТИКИ"): its chapter's title
        container = (parent is None and open_group is None or (
            open_group is not None and parent == open_group)) and (
                not killteam or opening and not _is_caps(sec.heading)) \
            and not _own_text(text, sec).strip() and i + 1 < len(sections)
        if (is_group_title(sec.title) or container) \
                and (open_group is None or parent == open_group):
            # a group in a group ("Базовые правила" in "Правила") holds what follows it
            nested = open_group is not None and parent == open_group
            # a page that parts every paragraph by wide gaps parts its group's title from its
            # lead-in as widely: no narrower gap closes the group
            own = max(gap, _gap_after(sec, text, gaps))
            if nested and open_group is not None:
                outer.append((open_group, group_gap, group_caps))
            else:
                outer.clear()
            open_group, group_gap, group_caps = i, min(own, group_gap) if nested else own, None
        if parent is None:
            last_top = i
            if key and not text[sec.body_span[0]:sec.body_span[1]].strip():
                empty_tops[key] = i
        sec.is_unit_type = is_type
        prev_start = sec.heading_span[0]


_MIN_PARTS = 2


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


@lru_cache(maxsize=20_000)
def _shape(heading: str, title: str) -> tuple[bool, bool, tuple[str, ...]]:
    """A heading's level signals: in capitals, numbered, its title's words (name forms)."""
    return _is_caps(heading), bool(_NUMBER.match(heading)), tuple(name_words(unparen(title)))


def _parallel(earlier: Section, later: Section) -> bool:
    """Whether two headings are of one level by their own shape: set alike (both in capitals
    or neither, both numbered or neither) and naming different sides of the same thing, their
    last word the same and their first not ("Раздельный профиль Боевой Машины", "Тесты на
    характеристики для Боевой Машины", "Команда Боевой Машины"). A phase ("Фаза стрельбы")
    holds the sides of its own thing, so it is no sibling of theirs."""
    caps, numbered, a = _shape(earlier.heading, earlier.title)
    caps_later, numbered_later, b = _shape(later.heading, later.title)
    if caps != caps_later or numbered != numbered_later:
        return False
    if min(len(a), len(b)) < 2 or a[0] == b[0] or a[-1] != b[-1]:
        return False
    return not _is_phase(earlier.title)


def _gap_after(sec: Section, text: str, gaps: dict[int, int]) -> int:
    """Blank lines between a heading and the first line of its text (0 where it has none)."""
    body = text[sec.body_span[0]:sec.body_span[1]]
    stripped = body.lstrip()
    if not stripped:
        return 0
    first = sec.body_span[0] + len(body) - len(stripped)
    return gaps.get(text.rfind("\n", 0, first) + 1, 0)


_DETERMINERS = frozenset({"некоторый", "все", "весь", "этот", "такой", "каждый", "любой",
                          "многие", "многий", "другой", "такие"})


def _opens_with(sentence: str, word: str) -> bool:
    """Whether a sentence opens with ``word`` (a lemma), after a determiner at most: its
    subject is the thing the word names ("Некоторые гранаты можно …" opens with «граната»)."""
    toks = [lemma_key(w) for w in words(sentence)[:2]]
    if toks and toks[0] in _DETERMINERS:
        toks = toks[1:]
    return bool(toks) and toks[0] == lemma_key(word)


# the endings of an adjective made of a noun ("взрыв" → "взрывной", "психосила" →
# "психосиловой"): a heading naming a thing "of" a rule's one-word name is about that rule
_ADJECTIVE_SUFFIXES = ("ной", "ный", "овой", "овый", "евой", "евый", "ский", "ской")


def _derived(key: str, part: str) -> bool:
    """Whether a word of ``key`` is an adjective made of ``part``, a one-word name
    ("оружие взрывной тип и перебрасывание" of "взрыв")."""
    if " " in part or len(part) < 4:
        return False
    stem = part[:-1] if part[-1] in "аяоеьй" else part
    return any(w.startswith(stem) and w[len(stem):] in _ADJECTIVE_SUFFIXES
               for w in key.split())


def _contains(key: str, part: str) -> bool:
    return f" {part} " in f" {key} "


def _first_sentence(text: str, span: Span) -> str:
    body = text[span[0]:span[1]].strip()
    m = re.search(r"[.!?](\s|$)", body)
    return body[: m.end()] if m else body[:300]
