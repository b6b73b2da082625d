"""The flattened two-column PDF layout (the 40k rulebook): headings inside long lines.

The whole chapter is one long line, headings are inline runs of capitals (:func:`caps_runs`),
a unit type's title may come *after* its rules, several titles may stand together, and
picture captions and flavour quotes are mixed in (they become :class:`Flavour` items).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ingest.sections import (
    PRICE_AMOUNT,
    Flavour,
    Section,
    Segmentation,
    Span,
    names_phase,
    title_and_aliases,
)
from ingest.segment_flat_tail import sentences, split_tail
from ingest.vocabulary import Vocabulary
from kb.lemmas import WORD_RE, fold, lemma_key, lemma_words, morph

_CAPS_WORD = r"[А-ЯЁ][А-ЯЁ\-]*[А-ЯЁ](?![А-Яа-яЁё\w])"
_CAPS_ONE = r"[ИСВОАКУ](?=\s+[А-ЯЁ(][А-ЯЁ\s])"
# a number inside a heading, between its words: "РУКОПАШНОЕ ОРУЖИЕ 41-ГО ТЫСЯЧЕЛЕТИЯ",
# "УРОВЕНЬ 1: ЗЕЛЁНЫЙ НОВИЧОК"
_CAPS_NUMBER = r"\d+(?:-[А-ЯЁа-яё]{1,3})?(?=(?:[ ,]+|:[ ]+)[А-ЯЁ]{2})"
# (a run starts with a capital, looked ahead for first: the scan passes every other character
# at once, before the look-behind is tried)
CAPS_FIRST = "(?=[А-ЯЁ])"
_CAPS_RUN = re.compile(
    rf"{CAPS_FIRST}(?<![А-Яа-яЁё\w])(?:{_CAPS_WORD}|{_CAPS_ONE})"
    # (a subtitle after a colon goes on the title: "КАРТА РАССТАНОВКИ: РАССВЕТ ВОЙНЫ")
    # (and a part of two words or more after a dash: "АТРИБУТ ШКОЛЫ – ПРОКЛЯТИЕ БЕССМЕРТИЯ";
    # one word after it is the site's name after a page's title, "… — КИБЕРПЕДИЯ")
    rf"(?:(?:[ ,]+|:[ ]+(?=[А-ЯЁ]{{2}})|[ ]+[–—][ ]+(?=[А-ЯЁ]{{2}}[А-ЯЁ-]*[ ]+[А-ЯЁ]{{2}}))"
    rf"(?:(?:\(\s*)?(?:{_CAPS_WORD}|{_CAPS_ONE})(?:\s*\))?|{_CAPS_NUMBER}))*"
    # (a cry's mark, and the English name in brackets: "БЕЖАТЬ! (FLEE!)", "БОНУС ЗА
    # КОЛИЧЕСТВО ШЕРЕНГ (RANK BONUS)")
    rf"(?:[!?](?![\w!?]))?(?:[ ]*\([A-Z][A-Z ,'&!?-]*[A-Z!?]\))?"
)
# an army book entry's price after its name, in capitals or not ("ОБСИДИАНОВЫЙ МАГНИТ - 45
# ОЧКОВ", "ПРИЗРАЧНОЕ СОСТОЯНИЕ (50 ОЧКОВ)", "ТАЛИСМАН ЗАЩИТЫ - 10 очков"): the heading's, as
# on a line of its own (:data:`ingest.sections.PRICE`)
_PRICE_AFTER = re.compile(rf"[ ]*{PRICE_AMOUNT}(?:[ ]*\))?(?!\w)", re.IGNORECASE)
# a step's number right before its heading, after a sentence's end or another heading ("…
# тесты. 2. ДВИЖЕНИЕ Подразделения …"): the heading's, as on a line of its own
_NUMBER_BEFORE = re.compile(r"(?:^|(?<=[.!?:;»\")][ ])|(?<=[А-ЯЁ][ ]))(\d{1,2}[.)])[ ]+$")
# …unless the stop before it ends an abbreviation whose number it is ("… на с. 56. НАШЕ
# ОРУЖИЕ …": a page cited, "стр. 5", "п. 3", "рис. 2")
_ABBREVIATION_BEFORE = re.compile(r"(?<![\w])(?:с|стр|гл|п|пп|рис|ст|табл|разд)\.[ ]$",
                                  re.IGNORECASE)
# a word in lower case right before a run, with no sentence's end between them
_LOWER_BEFORE = re.compile(r"[а-яё][а-яё\-]*[ ]+$")
# what follows a word stressed in capitals inside a sentence: a word in lower case, or a
# stop (a heading goes on with its text, a capitalised sentence)
_SENTENCE_GOES_ON = re.compile(r"[ ]*(?:[,;.!?)]|[а-яё])")


def caps_runs(text: str, stressed: bool = False) -> list[tuple[int, int]]:
    """The runs of capitals in ``text`` that can be headings: four characters or more,
    with a word of three capitals. A run inside a sentence, after a word in lower case and
    before another or a stop ("это действительно ПОЛЕ деятельности", "машины автоматически
    ПРОИГРЫВАЮТ."), is a word stressed, not a heading: it counts only with ``stressed`` (the
    layout's shape, runs of capitals in long lines, is told by them all)."""
    runs: list[tuple[int, int]] = []
    for m in _CAPS_RUN.finditer(text):
        s, e = m.start(), m.end()
        if runs and s < runs[-1][1]:
            continue  # the price of the heading before it ("- 45 ОЧКОВ")
        chunk = text[s:e].rstrip(" ,")
        e = s + len(chunk)
        letters = re.findall(r"[А-ЯЁ]{3,}", chunk)
        if not letters:
            continue
        # a lone capitalised word opening a sentence ("В", "И") is not a heading
        if len(chunk) < 4:
            continue
        if not stressed and _LOWER_BEFORE.search(text, max(0, s - 40), s) \
                and _SENTENCE_GOES_ON.match(text, e):
            continue
        price = _PRICE_AFTER.match(text, e)
        number = _NUMBER_BEFORE.search(text, max(0, s - 6), s)
        if number is not None and (not runs or runs[-1][1] <= number.start(1)) \
                and _ABBREVIATION_BEFORE.search(text, max(0, number.start(1) - 7),
                                                number.start(1)) is None:
            s = number.start(1)
        runs.append((s, price.end() if price else e))
    return runs


FLAT_LINE = 300
"""A line this long holding two runs of capitals that may be headings is a page run into
one line (:func:`flat_line_breaks`, and ``ingest.segment``'s test of the layout)."""


# what a sentence opens with after a heading: a capital, a quote, a bracket or a number
_OPENS_SENTENCE = re.compile(r"[ ]+[А-ЯЁA-Z«\"„“(\d]")
INLINE_HEADINGS_LINE = 200
"""A line this long holding two runs of capitals that may be headings, in a text of lines,
is a page run into one line below the lines of its site or preamble (:func:`flat_line_breaks`;
a page's copy may stop a few sentences in)."""


def flat_line_breaks(text: str) -> list[int]:
    """In a text of lines, the offsets of the spaces around the headings inside its lines
    run into one (each becomes a line break, so the offsets of ``text`` stay): a line of
    :data:`INLINE_HEADINGS_LINE` characters or more holding two runs of capitals that may be
    headings (:func:`caps_runs`), as a page run into one line holds them, when the page's
    lines above it (a site's, a preamble) keep the whole text from the flattened layout; or
    opening with one, a sentence after it (a page of one heading so run)."""
    breaks: list[int] = []
    at = 0
    for line in text.split("\n"):
        # (each run with the period a heading run in may end with: "УСИЛЕННЫЕ ВОРОТА. Самая
        # слабая точка …")
        runs = [(s, e + 1 if line.startswith(". ", e) else e)
                for s, e in (caps_runs(line) if len(line) >= INLINE_HEADINGS_LINE else [])]
        # (one heading opening the line, a sentence after it: "АЛЬЯНСЫ Игра Warhammer – это
        # …", "БОЕВОЙ ДУХ «Полностью посвящай себя …»")
        alone = len(runs) == 1 and runs[0][0] == 0 and _OPENS_SENTENCE.match(
            line, runs[0][1]) is not None
        for s, e in runs if len(runs) >= 2 or alone else []:
            if s > 0 and line[s - 1] == " ":
                breaks.append(at + s - 1)
            if e < len(line) and line[e] == " ":
                breaks.append(at + e)
        at += len(line) + 1
    return breaks


def segment_flat(text: str, vocab: Vocabulary) -> Segmentation:
    """Split a flattened PDF text into sections, captions and quotes.

    Every run of capitals is a heading; the runs ``vocab`` splits into unit type titles
    become unit type sections. The headings before a group of type titles are the rules of
    those types (the PDF puts a type's title after its rules); headings after the last group
    belong to the type before them.
    """
    runs = caps_runs(text)
    # items: (kind, start, end, title) where kind in {"type", "head"}
    items: list[tuple[str, int, int, str]] = []
    for s, e in runs:
        chunk = text[s:e]
        parts = vocab.split_titles(chunk)
        if parts:
            pos = s
            for part in parts:
                ps = text.index(part.split()[0], pos)
                pe = ps + len(part)
                while text[ps:pe] != part:  # whitespace may differ
                    pe = text.index(part.split()[-1], ps) + len(part.split()[-1])
                    break
                items.append(("type", ps, pe, part))
                pos = pe
        else:
            cut = fused_headings(chunk)
            if cut is None:
                items.append(("head", s, e, chunk))
            else:  # two headings with no text between them: the title over its first part
                first = chunk[:cut].rstrip(" ,:")
                items.append(("head", s, s + len(first), first))
                items.append(("head", s + cut, e, chunk[cut:]))

    lead_title = _lead_title(text, items) if items else None
    if lead_title is not None:
        items.insert(0, ("head", *lead_title, text[lead_title[0]:lead_title[1]]))

    flavour: list[Flavour] = []
    # bodies: from an item's end to the next item's start
    bodies: list[Span] = []
    for n, (_, _, e, _) in enumerate(items):
        nxt = items[n + 1][1] if n + 1 < len(items) else len(text)
        bodies.append((e, nxt))

    sections: list[Section] = []
    pending: list[int] = []  # indices into sections of headings waiting for their type
    last_types: list[int] = []
    lead: Span | None = None  # untitled rules before the first heading of a page
    first_start = items[0][1] if items else len(text)
    if text[:first_start].strip():
        lead = (0, first_start)
    n = 0
    untitled: list[Span] = []
    if lead:
        untitled.append(lead)
    while n < len(items):
        kind, s, e, chunk = items[n]
        if kind == "head":
            body = bodies[n]
            rules, extra_untitled, flv = split_tail(text, body)
            flavour.extend(flv)
            title, aliases = title_and_aliases(chunk)
            sec = Section(title, chunk, (s, e), rules, aliases=aliases)
            sec.flavour_spans = [f.span for f in flv]
            sections.append(sec)
            pending.append(len(sections) - 1)
            if extra_untitled:
                untitled.append(extra_untitled)
            n += 1
            continue
        # a group of type titles standing together, then their intros
        group = [n]
        while n + 1 < len(items) and items[n + 1][0] == "type" and _only_space(
            text, items[n][2], items[n + 1][1]
        ):
            n += 1
            group.append(n)
        intro_span = bodies[n]
        intro, extra_untitled, flv = split_tail(text, intro_span)
        flavour.extend(flv)
        intros = _split_intros(text, intro, [items[g][3] for g in group])
        type_idx = []
        for g, intro_part in zip(group, intros, strict=True):
            _, ts, te, tt = items[g]
            title, aliases = title_and_aliases(tt)
            sec = Section(title, tt, (ts, te), intro_part, is_unit_type=True, aliases=aliases)
            sections.append(sec)
            type_idx.append(len(sections) - 1)
        if pending and not _speak_of(text, sections, pending, [items[g][3] for g in group]):
            # headings whose rules never name the types after them are no rules of theirs (a
            # chapter on movement before "ТЕХНИКА" / "Техника движется …"): they stay where
            # they stand, and the types hold what follows them (the text after a page break
            # among them is no type's either: no later type takes it)
            pending, untitled = [], []
        if pending:
            groups = _split_pending(sections, pending, len(type_idx), vocab)
            for t, members in zip(type_idx, groups, strict=True):
                for m in members:
                    sections[m].parent = t
            if untitled:
                sections[type_idx[0]].extra_spans.extend(untitled)
            pending, untitled = [], []
            last_types = []
        else:
            last_types = type_idx
        if extra_untitled:
            untitled.append(extra_untitled)
        n += 1
    # headings after the last title group belong to a type that came before its rules
    if pending and sections:
        owner = last_types[-1] if last_types else max(
            (i for i, s in enumerate(sections) if s.is_unit_type), default=None
        )
        for m in pending:
            sections[m].parent = owner
        if owner is not None and untitled:
            sections[owner].extra_spans.extend(untitled)
    _phases_over_steps(sections)
    return Segmentation(sections, sorted(flavour, key=lambda f: f.span), "flat")


def fused_headings(chunk: str) -> int | None:
    """Where a second heading starts inside a run of capitals that holds two, one right
    above the other with no text between (a chapter's title over its first part): at the
    words that repeat the run's first ones ("КАРТЫ РАССТАНОВКИ КАРТА РАССТАНОВКИ: РАССВЕТ
    ВОЙНЫ"), or at an adjective in the nominative right after a noun in the genitive, only a
    space between them, which opens a new name, as no name goes on so ("ПРАВИЛА ТУРНИРА
    ОБЩИЕ И СПЕЦИАЛЬНЫЕ ПРАВИЛА", "СПОСОБНОСТИ ВАМПИРА ПРИЗРАЧНОЕ СОСТОЯНИЕ (50 ОЧКОВ)"; not
    "КАРТА РАССТАНОВКИ: АВАНГАРДНЫЙ УДАР"); each part two words at least."""
    found = list(WORD_RE.finditer(chunk))
    if len(found) < 4:
        return None
    keys = [lemma_key(m.group()) for m in found]
    for k in range(2, len(found) // 2 + 1):
        if keys[k:2 * k] == keys[:k]:
            return found[k].start()
    for k in range(2, len(found) - 1):
        if not chunk[found[k - 1].end():found[k].start()].isspace():
            continue  # a subtitle after a colon, a name in brackets: one heading
        if _genitive_noun(found[k - 1].group()) and _nominative_adjective(found[k].group()):
            return found[k].start()
    return None


@lru_cache(maxsize=20_000)
def _genitive_noun(word: str) -> bool:
    """Whether every reading of ``word`` is a noun, and one in the genitive."""
    parses = morph().parse(fold(word).lower())
    return bool(parses) and all(p.tag.POS == "NOUN" for p in parses) \
        and any(p.tag.case == "gent" for p in parses)


@lru_cache(maxsize=20_000)
def _nominative_adjective(word: str) -> bool:
    """Whether ``word`` is first read as a full adjective (or participle) in the
    nominative."""
    parses = morph().parse(fold(word).lower())
    return bool(parses) and parses[0].tag.POS in ("ADJF", "PRTF") \
        and parses[0].tag.case == "nomn"


# the words of a unit type's title that name no type in particular
_TYPE_FILLER = frozenset({"и", "с", "боевой", "единица"})


def _speak_of(text: str, sections: list[Section], members: list[int],
              titles: list[str]) -> bool:
    """Whether the rules of the headings ``members`` (their titles and texts) name a word of
    one of the unit type titles ``titles`` ("ОТСТУПЛЕНИЕ" / "Мотоциклы и гравициклы
    передвигаются …" before "МОТОЦИКЛЫ И ГРАВИЦИКЛЫ"): the PDF set the type's title after the
    rules that are its own."""
    wanted = {w for title in titles for w in lemma_words(title)} - _TYPE_FILLER
    said: set[str] = set()
    for m in members:
        sec = sections[m]
        said.update(lemma_words(sec.title))
        said.update(lemma_words(text[sec.body_span[0]:sec.body_span[1]]))
        if said & wanted:
            return True
    return False


# a chapter's title in mixed case, its number before it or not ("9. Боевые Машины"): a few
# words with no stop, no comma and no quotation
_LEAD_TITLE = re.compile(r"(?:\d{1,2}[.)]?[ ]+)?[А-ЯЁ][^\n.!?;:,«»\"()\d]*")
_LEAD_WORDS = 5
_LEAD_NUMBER = re.compile(r"^\s*\d{1,2}[.)]?")


def _lead_title(text: str, items: list[tuple[str, int, int, str]]) -> Span | None:
    """The span of the page's title when all the text before its first heading in capitals
    is one, in mixed case, that the headings after it name again: the chapter the PDF's page
    opens with ("9. Боевые Машины ТЕСТЫ НА ХАРАКТЕРИСТИКИ … ДВИЖЕНИЕ БОЕВЫХ МАШИН …",
    "Карты расстановки КАРТА РАССТАНОВКИ: РАССВЕТ ВОЙНЫ …")."""
    lead = text[:items[0][1]]
    words = lead.split()
    if not words or len(words) > _LEAD_WORDS or "\n" in lead.strip() \
            or _LEAD_TITLE.fullmatch(lead.strip()) is None:
        return None
    named = set(lemma_words(_LEAD_NUMBER.sub("", lead))) - _TYPE_FILLER
    if not named or not any(named <= set(lemma_words(chunk)) for _, _, _, chunk in items):
        return None
    start = len(lead) - len(lead.lstrip())
    return start, start + len(lead.strip())


def _phases_over_steps(sections: list[Section]) -> None:
    """A heading that names a phase ("ПОДФАЗА НАПАДЕНИЯ") holds the top-level headings after
    it ("ОБЪЯВИТЕ О НАПАДЕНИИ"), up to the next phase or unit type."""
    phase: int | None = None
    for i, sec in enumerate(sections):
        if sec.is_unit_type or sec.parent is not None:
            phase = None if sec.is_unit_type else phase
            continue
        if names_phase(sec.title):
            phase = i
        elif phase is not None:
            sec.parent = phase


def _only_space(text: str, a: int, b: int) -> bool:
    return not text[a:b].strip()


def _split_pending(
    sections: list[Section], pending: list[int], k: int, vocab: Vocabulary
) -> list[list[int]]:
    """Split the headings waiting for k titles into k runs, each closed by a special-rules box."""
    if k == 1:
        return [pending]
    sr_key = lemma_key(vocab.special_rules_heading)
    groups: list[list[int]] = [[]]
    for idx in pending:
        groups[-1].append(idx)
        if lemma_key(sections[idx].title) == sr_key and len(groups) < k:
            groups.append([])
    while len(groups) < k:
        groups.append([])
    if not groups[-1] and len(groups) > 1 and groups[-2]:
        pass
    return groups


def _split_intros(text: str, span: Span, titles: list[str]) -> list[Span]:
    """Share the intro text after k titles among them, at sentences that start in lower case.

    A type's intro runs until the first lower-case sentence that follows the last sentence
    naming that type (the PDF lost the drop capitals of the paragraph starts); a sentence
    that names the next type starts its intro at once.
    """
    if len(titles) == 1:
        return [span]
    sents = sentences(text, span)
    bounds: list[int] = []
    pos = 0
    for t in range(1, len(titles)):
        prev_key = set(lemma_words(titles[t - 1])) - _TYPE_FILLER
        next_key = set(lemma_words(titles[t])) - _TYPE_FILLER
        chosen = None
        last_prev = pos
        for j in range(pos + 1, len(sents)):
            lem = set(lemma_words(text[sents[j][0]:sents[j][1]]))
            starts_low = text[sents[j][0]].islower()
            if starts_low and next_key and next_key <= lem:
                chosen = j
                break
            if prev_key and prev_key <= lem:
                last_prev = j
        if chosen is None:
            for j in range(last_prev + 1, len(sents)):
                if text[sents[j][0]].islower():
                    chosen = j
                    break
        if chosen is None:
            chosen = min(len(sents) - 1, pos + 1)
        bounds.append(chosen)
        pos = chosen
    spans = []
    starts = [0] + bounds
    for i, b in enumerate(starts):
        end_sent = starts[i + 1] - 1 if i + 1 < len(starts) else len(sents) - 1
        if not sents or b > end_sent:
            spans.append((span[1], span[1]))
        else:
            spans.append((sents[b][0], sents[end_sent][1]))
    return spans
