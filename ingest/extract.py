"""Extract what a section's text says about other things: page citations, named references,
granted special rules, the unit types a rule is limited to, and whose rules a type follows.

Extraction never resolves: every finding keeps the words as written and their span in the
section text; :mod:`ingest.build` maps them to nodes, or to ``concept`` nodes when the corpus
does not define the name.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice

from ingest.facts import MAX_SENTENCE
from ingest.name_cues import (
    capitalize,
    latin_names,
    listed_names,
    nominative,
    noun_phrase_end,
)
from ingest.sections import ERRATA_ENTRY, PAGE_EN_RE, PAGE_RE, abbreviation_at, pages_after
from ingest.segment_headings import column_header
from kb.lemmas import WORD_RE, morph, name_tokens

Span = tuple[int, int]


@dataclass(frozen=True)
class Mention:
    """Words of a text that name something: a rule, a concept, a unit type or a page."""

    # "name" | "cue" | "cue_lower" | "page" | "grant" | "applies_to" | "excludes" | "inherits"
    kind: str
    raw: str  # the words as written
    name: str  # the name in its dictionary form, for concepts
    span: Span
    sentence: str


_MORE_PAGES = re.compile(r"([-–]|,|\s(?:и|and|&)\s)\s*(\d+)")
_MAX_RANGE = 10  # pages a range "стр. 12-15" names one by one; a longer one, its two ends
_QUOTED = re.compile(r"«([^«»]{2,40})»")
# (or a chapter's or section's name: "в главе «Боевой дух» на с. 56")
_RULE_WORD = re.compile(r"(?:правил\w*|специальн\w+\s+правил\w*|глав[аеуы]|раздел[еау]?)\s*"
                        r"(?:для\s+)?$", re.IGNORECASE)
_CAP_PHRASE = re.compile(
    r"(?:правил[оаму]?|правилом|правилами|правил)\s+(?:для\s+)?"
    r"((?:[А-ЯЁ][а-яё]+!?)(?:(?:\s+|\s*,\s*)(?:[А-ЯЁ][а-яё]+!?|на|и|с)){0,4})"
)
# the names of a list after a plural cue: "правилами Непоколебимость, Нестабильность и Страх"
# (after a singular one, a comma is the name's own: "правило Берегись, Милорд!")
_NAME_LIST_SEP = re.compile(r"\s*,\s*|\s+и\s+(?=[А-ЯЁ])")
_PLURAL_CUE = re.compile(r"правил(?:ами|\s)")
_LIMIT_ONLY = re.compile(
    r"(?:лишь|только)\s+против\s+(?:моделей\s+)?(?:типа\s+|типов\s+)?"
    r"([А-ЯЁа-яё ,]+?)(?=[.;:]|\s+[а-яё]+(?:ет|ут|ит|ат)\b)"
)
_LIMIT_EXCEPT = re.compile(r"за исключением\s+([А-ЯЁа-яё ,]+?)(?=[.;:]|$)")
# (its cues' first letters looked ahead for first: the scan passes other characters at once)
_INHERIT_FIRST = "(?=[вВсСпПдД])"
_INHERIT = re.compile(
    _INHERIT_FIRST + r"(?:в дополнение ко всем правилам для|следовать правилам|следует правилам|"
    r"(?:передвигается|двигается|движется)[^.]{0,40}?по тем же правилам,?\s+что и)\s+"
    r"([^.;:,]+?)(?=[.;:,]|\s+но\b|$)",
    re.IGNORECASE,
)
_GRANT_CUE = re.compile(
    r"(?:может|могут)\s+использовать\s+(?:специальное\s+)?правило\s+«([^«»]+)»", re.IGNORECASE
)


# (a stop's character first, each alternative's after it: the scan passes every other
# character at once)
_SENTENCE_STOP = re.compile(r"[.!?\n](?:(?<=\n)|(?=\s|$))")
_DIGIT = re.compile(r"\d")
_MAX_SENTENCE = MAX_SENTENCE  # a longer run without a stop is no sentence: it is not read
# whole (each abbreviation's period in reach is tested: "стр. 5 стр. 5 …" cost a thousand
# tests a citation at 5,000 characters a side, and each quoted ten thousand characters)


def sentence_of(text: str, pos: int) -> str:
    """The sentence of ``text`` around offset ``pos`` (at most :data:`_MAX_SENTENCE`
    characters each side); an abbreviation's period ends none.

    >>> sentence_of("Модели бегут. Подробнее см. стр. 42 книги. Дальше.", 30)
    'Подробнее см. стр. 42 книги.'
    """
    dots, newlines, ends = _stops(text)
    floor = max(0, pos - _MAX_SENTENCE)
    i = bisect_left(dots, pos - 1) - 1  # the last ". " before ``pos``, its space too
    dot = dots[i] if i >= 0 and dots[i] >= floor else -1
    j = bisect_left(newlines, pos) - 1
    newline = newlines[j] if j >= 0 and newlines[j] >= max(dot, floor) else -1
    start = max(dot, newline)
    start = floor if start == -1 else start + 1
    k = bisect_left(ends, pos + 1)  # the first stop at ``pos`` or after it
    end = ends[k] if k < len(ends) and ends[k] <= pos + _MAX_SENTENCE \
        else min(len(text), pos + _MAX_SENTENCE)
    return text[start:end].strip()


@lru_cache(maxsize=4)
def _stops(text: str) -> tuple[list[int], list[int], list[int]]:
    """Where the sentences of ``text`` may start and end, found once for all its mentions (a
    mention's sentence was looked for anew, each abbreviation in reach tested again): the
    periods before a space that end a sentence, the line breaks, and the ends of the stops
    (:data:`_SENTENCE_STOP`, an abbreviation's period none)."""
    ends = []
    abbreviations = set()  # (each period tested once: one before a space is a stop's too)
    for m in _SENTENCE_STOP.finditer(text):
        if m.group() == "." and abbreviation_at(text, m.start()):
            abbreviations.add(m.start())
        else:
            ends.append(m.end())
    dots = [m.start() for m in _DOT_SPACE.finditer(text) if m.start() not in abbreviations]
    newlines = [m.start() for m in _NEWLINE.finditer(text)]
    return dots, newlines, ends


_DOT_SPACE = re.compile(r"\. ")
_NEWLINE = re.compile("\n")


def _errata_entry_at(text: str, at: int) -> bool:
    """Whether an errata's entry line (:data:`~ingest.sections.ERRATA_ENTRY`) starts at
    ``at``, the line's start but for spaces."""
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return not text[start:at].strip() \
        and ERRATA_ENTRY.match(text[start:end if end >= 0 else len(text)]) is not None


def page_citations(text: str) -> list[Mention]:
    """Page citations: "см. стр. 42", "описано на странице 92", "(страница 66)", "см. с. 57",
    "на с. 56", "(с. 133)", "на стр 33"; a citation of several pages ("стр. 199-200",
    "страницы 12 и 14") cites each, a range every page of it (its two ends when longer than
    :data:`_MAX_RANGE` pages).

    >>> [m.name for m in page_citations("по правилам стр. 199-201 и (см. страницы 12 и 14)")]
    ['199', '200', '201', '12', '14']

    The number may stand before the word, after "на", "см." or a bracket:

    >>> [m.name for m in page_citations("На основе сценариев на 439-441 стр. и на 12-й странице")]
    ['439', '440', '441', '12']
    >>> page_citations("текст в 2 страницы")
    []
    """
    out: list[Mention] = []
    if _DIGIT.search(text) is None:
        return out  # every citation holds its page's number: a text with no digit cites none
    # (an English errata's entry, "Page 58 – Kurt Helborg, Special Rules", is the twin of the
    # Russian entry that cites the page: its line names the page it amends, no citation; an
    # English citation holds its "p", which a Russian text seldom does: looked for first)
    english = [m for m in PAGE_EN_RE.finditer(text) if not _errata_entry_at(text, m.start())] \
        if "p" in text or "P" in text else []
    found = sorted([*PAGE_RE.finditer(text), *pages_after(text), *english],
                   key=lambda m: m.start())
    for m in found:
        sentence = sentence_of(text, m.start())
        pages = [int(m.group(1))]
        for more in _MORE_PAGES.finditer(m.group(2)):
            page = int(more.group(2))
            if more.group(1) in "-–" and pages[-1] < page <= pages[-1] + _MAX_RANGE:
                pages.extend(range(pages[-1] + 1, page + 1))
            elif page not in pages:
                pages.append(page)
        for page in dict.fromkeys(pages):
            out.append(Mention("page", m.group(0), str(page), m.span(), sentence))
    return out


def special_rules_list(body: str, offset: int = 0) -> list[Mention]:
    """The names in a "СПЕЦИАЛЬНЫЕ ПРАВИЛА" box: "Молот ярости, уклонение, безостановочный."."""
    out = []
    first = re.split(r"(?<=[.])\s", body.strip(), maxsplit=1)[0].rstrip(".")
    start = body.find(first)
    pos = start
    for part in first.split(","):
        name = part.strip()
        if name:
            s = body.find(name, pos)
            span = (offset + s, offset + s + len(name))
            out.append(Mention("grant", name, capitalize(name), span, first))
            pos = s + len(name)
    return out


def grant_cues(text: str) -> list[Mention]:
    """Rules a text grants in so many words: "может использовать специальное правило «Дави!»"."""
    return [
        Mention("grant", m.group(1), capitalize(m.group(1)), m.span(1),
                sentence_of(text, m.start()))
        for m in _GRANT_CUE.finditer(text)
    ]


def cue_names(text: str) -> list[Mention]:
    """Names a text marks as rules: «quoted» after "правило" (or "глава", "раздел"),
    capitalised after "правило" (a list of them too, and an adjective with its noun), or in
    lower case after "правило"/"спецправило" (the opening quote may be missing); English names
    after "правило" and the items of a list under a line announcing rules
    (:mod:`ingest.name_cues`)."""
    out = []
    for m in _QUOTED.finditer(text):
        before = text[max(0, m.start() - 30): m.start()]
        if _RULE_WORD.search(before):
            raw = m.group(1)
            out.append(Mention("cue", raw, capitalize(raw), m.span(1),
                               sentence_of(text, m.start())))
    for m in _CAP_PHRASE.finditer(text):
        phrase = m.group(1)
        if "\n" in text[m.start():m.start(1)] and column_header(
                text[text.rfind("\n", 0, m.start()) + 1:text.find("\n", m.start())].strip()):
            continue  # "… Сила Специальные правила" / "Алебарда …": a table's header, its row
        if not _PLURAL_CUE.match(text, m.start()):
            phrase = phrase.split(",")[0]  # "правило Берегись, Милорд!": one name, its comma
        pos = m.start(1)
        for part in _NAME_LIST_SEP.split(phrase):
            part = re.sub(r"\s+(?:и|на|с)$", "", part.strip())
            if not part:
                continue
            s = text.find(part, pos)
            e = s + len(part)
            if not part.endswith("!"):  # "Мгновенная" / "смерть": the name goes on to its noun
                e = noun_phrase_end(text, e, part.split()[-1])
            pos = e
            raw = text[s:e]
            out.append(Mention("cue", raw, nominative(" ".join(raw.split())), (s, e),
                               sentence_of(text, s)))
    for m in _LOWER_CUE.finditer(text):
        raw = m.group(1)
        out.append(Mention("cue_lower", raw, capitalize(raw), m.span(1),
                           sentence_of(text, m.start(1))))
    out.extend(_predicate_adjectives(text))
    out.extend(_glossed_names(text))
    for raw, span in [*latin_names(text), *listed_names(text)]:
        out.append(Mention("cue", raw, capitalize(raw), span, sentence_of(text, span[0])))
    return out


# "имеют специальное правило непоколебимые (Unbreakble), Неустойчивые (Unstable) и …": names
# after "правило", each with its English name in brackets, in any case; the English marks a
# name, as quotes do
_GLOSSED_LIST = re.compile(
    r"(?:спец(?:иальн\w+\s+)?правил\w*)\s+((?:[А-ЯЁа-яё][а-яё-]+(?:\s+[а-яё][а-яё-]+){0,2}"
    r"\s*\([A-Za-z][A-Za-z' -]*\)(?:\s*,\s*|\s+и\s+)?)+)"
)
_GLOSSED_ITEM = re.compile(r"([А-ЯЁа-яё][а-яё-]+(?:\s+[а-яё][а-яё-]+){0,2})\s*\([A-Za-z]")


def _glossed_names(text: str) -> list[Mention]:
    """The names of :data:`_GLOSSED_LIST`, those written in the nominative as a name is (a
    description, "внушающими страх (Fear)", is inflected: no name as written)."""
    out: list[Mention] = []
    if "(" not in text:
        return out  # the cheap test first: no English name in brackets
    for m in _GLOSSED_LIST.finditer(text):
        for item in _GLOSSED_ITEM.finditer(text, m.start(1), m.end(1)):
            raw = item.group(1)
            first = morph().parse(raw.split()[0].lower())
            if not any("nomn" in p.tag for p in first):
                continue
            out.append(Mention("cue", raw, capitalize(raw), item.span(1),
                               sentence_of(text, item.start(1))))
    return out


# "воспользоваться правилом проникновение»", "специальное правило фланговый обход»": a rule
# named in lower case after "правило", its opening quote lost; or with no quotes at all (then
# the build takes it only when it is a name it knows).
_LOWER_CUE = re.compile(
    r"(?:спец(?:иальн\w+\s+)?правил\w*|правил(?:о|ом|а|у))\s+"
    r"([а-яё][а-яё-]+(?:\s+[а-яё][а-яё-]+){0,2})(?=»|[.,;:!?)]|\s+(?:и|или|а|но|на|в)\s)"
)


# anchored on "котор…" (the scan looks for the word itself, at once): the space before it is
# read backwards, then the noun before that (a leading \w+ would be tried at every word)
_PRED_ADJ = re.compile(r"котор\w+\s+(?:является|являются)\s+([А-ЯЁ][а-яё]+)(?=[.,;]|\s*$)")
_WORD_BEFORE = re.compile(r"\w+$")


def _predicate_adjectives(text: str) -> list[Mention]:
    """"от атаки, которая является Огненной" names the rule "Огненные атаки"."""
    out: list[Mention] = []
    for m in _PRED_ADJ.finditer(text):
        start = m.start()
        while start and text[start - 1].isspace():
            start -= 1
        if start == m.start():
            continue  # "…которая" glued to the word before it: no clause
        if start and text[start - 1] == ",":
            start -= 1
        noun = _WORD_BEFORE.search(text, max(0, start - 60), start)
        if noun is None:
            continue
        noun_word, adj = noun.group(0), m.group(1)
        p_adj = next((p for p in morph().parse(adj.lower()) if p.tag.POS == "ADJF"), None)
        p_noun = next((p for p in morph().parse(noun_word.lower()) if p.tag.POS == "NOUN"), None)
        if p_adj is None or p_noun is None:
            continue
        a = p_adj.inflect({"plur", "nomn"})
        n = p_noun.inflect({"plur", "nomn"})
        if a is None or n is None:
            continue
        name = capitalize(f"{a.word} {n.word}")
        out.append(Mention("cue", adj, name, m.span(1), sentence_of(text, m.start(1))))
    return out


def limits(text: str) -> list[Mention]:
    """Unit types a rule is limited to ("лишь против моделей типа Пехота, Кавалерия и Твари")
    or barred from ("за исключением Стай"): one mention per type name, as written."""
    out = []
    for rx, kind in ((_LIMIT_ONLY, "applies_to"), (_LIMIT_EXCEPT, "excludes")):
        for m in rx.finditer(text):
            for name, span in _list_items(text, m.span(1)):
                out.append(Mention(kind, name, name, span, sentence_of(text, m.start())))
    return out


def inherit_cues(text: str) -> list[Mention]:
    """Whose rules a type follows: "В дополнение ко всем правилам для гравициклов", "будет
    следовать правилам прыжковых боевых единиц и пехоты", "передвигается … по тем же правилам,
    что и прыжковое монструозное создание"."""
    out = []
    for m in _INHERIT.finditer(text):
        for name, span in _list_items(text, m.span(1)):
            out.append(Mention("inherits", name, name, span, sentence_of(text, m.start())))
    return out


def _list_items(text: str, span: Span) -> list[tuple[str, Span]]:
    s, e = span
    chunk = text[s:e]
    out = []
    pos = 0
    for part in re.split(r",\s*|\s+и\s+", chunk):
        part = part.strip()
        if not part:
            continue
        i = chunk.find(part, pos)
        out.append((part, (s + i, s + i + len(part))))
        pos = i + len(part)
    return out


_SENTENCE_END = ".!?…:;•\n|"
_BEFORE_WINDOW = 200  # characters before a name that tell how it is written


def written_as_name(text: str, span: Span) -> bool:
    """Whether the words at ``span`` are written as a name rather than as ordinary words: in
    «quotes» (or ‘quotes’ right around them), in Latin letters in a Russian text (an English
    term; in an English text only a capital tells a name), or with a capital letter that does
    not merely start a sentence, a line or a list item.

    >>> written_as_name("провалило тест на Разгром, то", (18, 25))
    True
    >>> written_as_name("Разгром неизбежен.", (0, 7))
    False
    """
    s, e = span
    words = list(WORD_RE.finditer(text, s, e))
    if not words:
        return False
    # what precedes the words is read in a window, never from the text's start: a long text
    # (a page with no headings is one section) would cost its length for every name in it
    window = max(0, s - _BEFORE_WINDOW)
    if text.rfind("«", window, s) > text.rfind("»", window, s) and "»" in text[e:e + 40]:
        return True
    if 0 < s and e < len(text) and text[s - 1] in _OPENING and text[e] in _CLOSING:
        return True  # quoted as it stands: ‘blast’, “Overwatch”, "Ярость"
    if any(_LATIN.search(w.group(0)) for w in words) and _russian_around(text, s, e):
        return True  # an English term in a Russian text; in English, a name is capitalised
    before = re.sub(r"\d+[.)]\s*$", "", text[window:s]).rstrip(" \t(«\"-–—")
    for i, w in enumerate(words):
        word = w.group(0)
        if not word[:1].isupper() or word.isupper():
            continue
        if i > 0 or (before and before[-1] not in _SENTENCE_END):
            return True
    return False


_OPENING = frozenset("«‘“„\"'")
_CLOSING = frozenset("»’”“\"'")
_LATIN = re.compile(r"[A-Za-z]")
_CYRILLIC_LETTER = re.compile(r"[А-Яа-яЁё]")
_AROUND = 60  # characters each side of a name that tell the language it is written in


def _russian_around(text: str, s: int, e: int) -> bool:
    """Whether the text around ``text[s:e]`` is Russian (as many Cyrillic letters as Latin):
    "правило overwatch" is a Russian text naming an English term, "all of the units in your
    army" an English text whose words are words."""
    around = text[max(0, s - _AROUND):s] + text[e:e + _AROUND]
    return len(_CYRILLIC_LETTER.findall(around)) >= len(_LATIN.findall(around))


def lemma_tokens(text: str) -> list[tuple[str, int, int]]:
    """(form in a name, start, end) of every word of ``text`` (:func:`kb.lemmas.name_lemma`:
    the form :func:`kb.lemmas.lemma_key` gives names, so a mention matches its name)."""
    return name_tokens(text)


def name_mentions(
    tokens: list[tuple[str, int, int]], keys: dict[tuple[str, ...], str], text: str,
    max_len: int = 6, own: dict[tuple[str, ...], str] | None = None,
) -> list[Mention]:
    """Mentions of known names in a text, matched on lemmas, longest first.

    Args:
        tokens: :func:`lemma_tokens` of the text.
        keys: lemma tuple → the name it stands for.
        text: the text (for the raw words and the sentence).
        own: names of the text's own file that come before ``keys``'s (a name other files
            define too, which is its own file's section there).
    """
    out = []
    n = len(tokens)
    own = own or {}
    firsts = _first_lemmas(keys)
    own_firsts: dict[str, int] = {}  # (a few names: looked at anew for each text)
    for k in own:
        if k:
            own_firsts[k[0]] = max(own_firsts.get(k[0], 0), len(k))
    lemmas = [t[0] for t in tokens]
    # the words that open a name, found at once (most words open none), read in order; a
    # name found is passed whole (``free``: the first word after it)
    starts = [k for k, first in enumerate(lemmas) if first in firsts or first in own_firsts] \
        if own_firsts else [k for k, first in enumerate(lemmas) if first in firsts]
    free = 0
    for i in starts:
        if i < free:
            continue
        hit = None
        first = lemmas[i]
        longest = max(firsts.get(first, 0), own_firsts.get(first, 0))
        # (no name is longer than the longest that opens with this word)
        for length in range(min(max_len, n - i, longest), 0, -1):
            key = tuple(lemmas[i: i + length])
            if key in own:
                hit = (length, own[key])
                break
            if key in keys:
                hit = (length, keys[key])
                break
        if hit is None:
            continue
        length, name = hit
        s, e = tokens[i][1], tokens[i + length - 1][2]
        out.append(Mention("name", text[s:e], name, (s, e), sentence_of(text, s)))
        free = i + length
    return out


_FIRSTS: dict[int, tuple[dict[tuple[str, ...], str], int, dict[str, int]]] = {}
_FIRSTS_HELD = 16


def _first_lemmas(keys: dict[tuple[str, ...], str]) -> dict[str, int]:
    """The first lemma of each known name → the most words a name opening with it has (cached
    per dict, the dict held, so its id names no other). A build only adds names to its dict
    (:meth:`ingest.resolve.SystemResolver._add_key`), the new ones last: those alone are read
    when it has grown (a name added for each part, a concept of each unknown name, had every
    name read again for each part, the square of their number)."""
    cached = _FIRSTS.get(id(keys))
    if cached is None or cached[0] is not keys or cached[1] > len(keys):
        cached = (keys, 0, {})
        if len(_FIRSTS) >= _FIRSTS_HELD:
            _FIRSTS.clear()  # (a long-lived process builds many graphs: hold the latest few)
    if cached[1] < len(keys):
        longest = cached[2]
        for k in islice(reversed(keys), len(keys) - cached[1]):
            if k:
                longest[k[0]] = max(longest.get(k[0], 0), len(k))
        cached = (keys, len(keys), longest)
    _FIRSTS[id(keys)] = cached
    return cached[2]
