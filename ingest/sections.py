"""What segmenting gives, and the title helpers both layouts share.

:class:`Section`, :class:`Flavour` and :class:`Segmentation` are what
:func:`ingest.segment.segment` returns for either layout (:mod:`ingest.segment_lines`,
:mod:`ingest.segment_flat`); a heading becomes a title and aliases the same way in both
(:func:`title_and_aliases`), and the build stage reads titles with the same helpers.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from ingest.vocabulary import GROUP_HEADS
from kb.lemmas import lemma_words, morph, words

Span = tuple[int, int]


@dataclass
class Section:
    """One section of a text: its heading, its own body and where it hangs."""

    title: str
    heading: str
    heading_span: Span
    body_span: Span
    parent: int | None = None
    is_unit_type: bool = False
    # the heading of a bare list (its body is only the list's items), e.g. a sequence of steps
    is_list: bool = False
    # an entry of a glossary (:func:`ingest.segment_alphabet.glossary_entries`): a term its
    # file's text uses in lower case
    is_term: bool = False
    aliases: list[str] = field(default_factory=list)
    pages: tuple[int, ...] = ()
    # spans (cleaned text) of extra body text that belongs to this section elsewhere
    extra_spans: list[Span] = field(default_factory=list)
    # spans (cleaned text) inside the body that are flavour, not rules
    flavour_spans: list[Span] = field(default_factory=list)
    # the heading's own title when the section was given another (an English heading's Russian
    # name, :mod:`ingest.segment_names`): the node's id is made of it, so ids do not move
    id_title: str | None = None
    # a text with no heading at all, kept whole: its title is its first words, not a name
    is_passage: bool = False
    # spans (cleaned text) inside the body that a web page links elsewhere ("<a href=…>"):
    # words taken for a rule's name when the system knows them, whatever their case
    links: list[Span] = field(default_factory=list)

    @property
    def span(self) -> Span:
        return (self.heading_span[0], self.body_span[1])

    def __repr__(self) -> str:
        return f"Section({self.title!r}, parent={self.parent})"


@dataclass(frozen=True)
class Flavour:
    """A picture caption or a flavour quote: neither a heading nor a rule."""

    kind: str  # "caption" | "quote"
    span: Span
    text: str


@dataclass
class Segmentation:
    """What :func:`ingest.segment.segment` finds in one text."""

    sections: list[Section]
    flavour: list[Flavour]
    layout: str  # "lines" | "flat" | "markdown" | "html"


_PICTOGRAMS = re.compile(
    "[\U0001F000-\U0001FAFF\u2300-\u23FF\u2600-\u27BF\u2B00-\u2BFF\ufe0e\ufe0f\u200d\u20e3]"
    "[\U0001F000-\U0001FAFF\u2300-\u23FF\u2600-\u27BF\u2B00-\u2BFF\ufe0e\ufe0f\u200d\u20e3\\s]*")
"""Pictograms (emoji, dingbats: "⚔️", "🔥", "📌", "★") and what they are written with (a
variation selector, a joiner, a keycap), with the spaces after them."""


def pictogram_mark(line: str) -> str | None:
    """The pictogram a line opens with ("✅" of "✅ Модель может стрелять"), or None."""
    m = _PICTOGRAMS.match(line.lstrip())
    return m.group().strip() or None if m else None


def without_pictograms(heading: str) -> str:
    """A heading without the pictograms a post or a page sets before its words ("⚔️ Паника",
    "🎮 Как играть", a channel's way of marking its headings): no part of the name. A
    bullet ("●", "•") or a sign ("©", "№") is no pictogram.

    >>> [without_pictograms(h) for h in ("🛡️ Безопасность", "● Когти", "⭐")]
    ['Безопасность', '● Когти', '⭐']
    """
    m = _PICTOGRAMS.match(heading)
    return heading[m.end():] or heading if m else heading


def assign_flavour(sections: list[Section], flavour: list[Flavour]) -> None:
    """Give each section the spans of the flavour items (sorted by span) inside its body,
    each found by bisection: not every item read for every section, which a long text of many
    short sections and many captions would pay as their product."""
    starts = [f.span[0] for f in flavour]
    for sec in sections:
        first = bisect_left(starts, sec.body_span[0])
        last = bisect_left(starts, sec.body_span[1], first)
        sec.flavour_spans = [f.span for f in flavour[first:last]
                             if f.span[1] <= sec.body_span[1]]


# ---------------------------------------------------------------------------------------
# titles


_LATIN_PAREN = re.compile(r"^([A-Za-z][A-Za-z' ]*[A-Za-z][!?]?)\s*[(\[]([^A-Za-z]+)[)\]]\s*$")
_TWO_LANGUAGES = re.compile(r"^([^—–-]{2,40}?)\s+[—–-]\s+([^—–-]{2,40})$")
# "Редкие отряды, они же Rare choice", "Орки (они же зеленокожие)", "Skaven aka Скавены": a
# name and another after "он/она/оно/они же" or "aka"
_ALSO_KNOWN = re.compile(r"^(.{2,60}?),?\s+\(?(?:(?:он|она|оно|они)\s+же|a\.?k\.?a\.?)\s+"
                         r"([^()\n]{2,60}?)\)?$", re.IGNORECASE)
# (an English name may hold "&", "-", "'", ":" and end with a value: "Hit & Run", "Poisoned
# 4+", "Lethal x+", "Killzone: Volkus")
_NAME_PAREN = re.compile(
    r"^(.+?)\s*\(([A-Za-z][A-Za-z '&:,!?-]*(?<![ ,])(?: (?:\d+|[xX])\+?)?|[А-ЯЁ]{1,3})\)\s*$")
ROMAN = r"(?=[IVXLC])M{0,0}C{0,3}(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})"
"""A Roman numeral up to CCCXCIX (a part's or a chapter's number: "II. Паника")."""


def roman_value(numeral: str) -> int:
    """The value of a Roman numeral (:data:`ROMAN`).

    >>> roman_value("XIV"), roman_value("III")
    (14, 3)
    """
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
    total = 0
    for k, ch in enumerate(numeral):
        v = values[ch]
        total += -v if k + 1 < len(numeral) and values[numeral[k + 1]] > v else v
    return total


# "4. Отступление", "2) Стрельба", "1.1 Dwarf Lord", "2.3.1. Магия", "II. Паника": a heading's
# number (one alone needs its point or bracket: "5 вещей, которые …" is a title with a number in it)
# (a table's roll before its result, "1-2: Combat Drop", "5–6. Засада", numbers it too)
_NUMBERED = re.compile(r"^(?:\d{1,2}[.)]|\d{1,2}(?:\.\d{1,2})+[.)]?|\d{1,2}\s?[-–]\s?\d{1,2}[.):]"
                       rf"|{ROMAN}[.)])\s+(?=[^\W\d_])")
# what an army book's entry says after its name: its price ("Обсидиановый магнит - 45 очков",
# "(25 очков)", "15 pts"), with who may take it in brackets after it ("Лук Мореплавателя - 60
# очков (только Морской Шлем)"), or a spell's casting value ("Огненный шар (5+)"): no part of
# the name (group 1: the price as written, "60 очков"; group 2: its number)
PRICE_AMOUNT = r"(?:[-–—:]\s*|\(\s*)((\d+)\s*(?:очк\w*|pts|points?))\.?"
"""A price's mark and amount ("- 60 очков", "(25 очков"): :data:`PRICE` at a heading's end,
and ``ingest.segment_flat``'s after a heading inside a line."""
PRICE = re.compile(rf"\s*{PRICE_AMOUNT}\s*\)?(?:\s*\([^()\n]{{1,80}}\))?$", re.I)
# an action's cost after its name ("Перемещение (Reposition) — 1 ОД", "Рывок - 1AP"): no
# part of the name
ACTION_COST = re.compile(r"(?:\s+[-–—]|:)\s*\d\s*(?:ОД|AP|АР|очк\w*\s+действ\w*)\.?$", re.I)


def has_action_cost(heading: str) -> bool:
    """Whether a heading ends in an action's cost (:data:`ACTION_COST`: "Рывок - 1 ОД").

    Its end is looked at first: the pattern, tried at each space of a long heading, is run
    only on one that ends in "ОД", "AP", "АР" or a word "действ…" (a period and a line end
    after them allowed, as the pattern allows them)."""
    end = heading[:-1] if heading.endswith("\n") else heading
    end = end[:-1] if end.endswith(".") else end
    last = end.rsplit(None, 1)[-1].lower() if end.strip() else ""
    if last[-2:] not in ("од", "ap", "ар") and "действ" not in last:
        return False
    return ACTION_COST.search(heading) is not None
# a spell's casting value in brackets, bare or said ("(5+)", "(Колдуется на 6+)"), and the
# notes in brackets after it ("(Сигнатурное заклинание)")
CASTING_VALUE = re.compile(r"\s*\((?:[А-Яа-яЁё]+(?:\s+[А-Яа-яЁё]+){0,3}\s+)?\d{1,2}\+\)"
                           r"(?:\s*\([^()\n]{1,40}\))?$")


_ORDINAL_ENDING = re.compile(r"(?<=\d)-[а-яё]{1,3}\b")


def normal_case(heading: str) -> str:
    """A heading in normal case: "СТРЕЛЬБА ПО АРТИЛЛЕРИИ" → "Стрельба по артиллерии".

    Headings already in mixed case keep their capitals (an ordinal's ending is no word of
    it: "БРОНЯ 41-ого ТЫСЯЧЕЛЕТИЯ" is in capitals); a trailing period goes.
    """
    title = " ".join(heading.split()).rstrip(".").strip()
    title = title.replace("( ", "(").replace(" )", ")")
    letters = [c for c in _ORDINAL_ENDING.sub("", title) if c.isalpha() and is_cyrillic(c)]
    if letters and all(c.isupper() for c in letters):
        low = title.lower()
        title = low[:1].upper() + low[1:]
    return title


def is_cyrillic(ch: str) -> bool:
    """Whether ``ch`` lies in the Cyrillic block (U+0400–U+04FF)."""
    return "\u0400" <= ch <= "\u04ff"


def english_lemma(word: str) -> str:
    """A rough dictionary form of an English heading word ("ADVANCING" → "Advance")."""
    w = word.lower()
    if w.endswith("ing") and len(w) > 5:
        w = w[:-3]
        if w.endswith("y"):
            pass
        elif re.search(r"[^aeiou][cgvzs]$|[aeiou]c$|nc$", w) or w.endswith("at"):
            w += "e"
        elif re.search(r"([^aeiou])\1$", w):
            w = w[:-1]
    return w.capitalize()


# "Фаза 3 — Стрельба", "Шаг 1: Выбор миссии", "Этап 2 - Движение": a numbered step of the turn
# and its name
STEP_NAME = re.compile(r"^(?:[Фф]аза|[Ээ]тап|[Шш]аг)\s+\d{1,2}\s*(?:[—–-]|:)\s*(\S.*)$")


# a page citation (:func:`ingest.extract.page_citations`)
PAGE_RE = re.compile(
    # every form starts with «с»: the look-ahead lets the scan skip other letters at once;
    # "стр" may go without its period ("на стр 33"), and more pages may follow the first
    # ("стр. 199-200", "страницы 12 и 14", "стр. 7, 9"; not "стр. 12 и 3 модели")
    # (a copy typed with a Latin "c" for the Cyrillic one, "(c. 57)", "cм. cтр. 12", cites too)
    r"(?=[сСcC])(?<![\w])(?:[сc]м\.\s*)?(?:[сc]тр\.|[сc]тр(?=\s+\d)|(?<![\w.])[сc]\."
    r"|[сc]траниц(?:ах|[аеуы]))"
    r"\s*(\d+)((?:\s*[-–]\s*\d+|(?:\s*,\s*|\sи\s)\d+(?=\s*[-–),.;:]|\s+(?:и|или)\s|\s*$))*)",
    re.IGNORECASE,
)
# an English citation, as a quotation of the English rulebook or an English FAQ writes it
# ("(page 41)", "see page 78", "on page 2 and 3", "pp. 12-13"); "page 1 of 39" is a pager's
PAGE_EN_RE = re.compile(
    r"(?=[pP])(?<![\w])(?:pages?|pp?\.|pg\.)\s*(\d{1,3})"
    r"((?:\s*[-–]\s*\d{1,3}|(?:\s*,\s*|\s(?:and|&)\s)\d{1,3}(?=\s*[-–),.;:]|\s+(?:and|or)\s|\s*$))*)"
    r"(?!\d|\s*(?:of|из|/)\s*\d)",
    re.IGNORECASE,
)
# the page's number before the word ("439-441 стр.", "12-й странице"), a citation after "на",
# "см." or a bracket (:func:`pages_after`; the scan starts at digits, rarer than "на")
_PAGE_AFTER_RE = re.compile(
    r"(?=\d)(?<![\w.])(\d{1,4})((?:\s*[-–]\s*\d{1,4})?)(?:-?[ймя])?\s+(?:стр\.|стр\b|странице\b)",
    re.IGNORECASE,
)
_CITES_BEFORE = re.compile(r"(?:(?<![\w])на|(?<![\w])см\.|\()\s*$", re.IGNORECASE)


def pages_after(text: str) -> Iterator[re.Match[str]]:
    """Page citations with the number before the word, after "на", "см." or a bracket ("на
    439-441 стр.", "(см. 57 стр.)", "на 12-й странице"); a count ("в 2 страницы") is none.
    Group 1 is the first page, group 2 the rest of a range."""
    for m in _PAGE_AFTER_RE.finditer(text):
        if _CITES_BEFORE.search(text, max(0, m.start() - 6), m.start()):
            yield m


# an errata's entry: the page it amends, a dash, what it amends ("Стр.58 – Курт Хельборг,
# специальные правила", "Page 74 – Luthor Huss, Special Rules:"), and what to change after a
# colon, on the line or under it
ERRATA_ENTRY = re.compile(
    r"^\s*(?:(?P<ru>стр\.?|страница|с\.)|(?P<en>page|p\.))\s*(?P<page>\d{1,3})\s*[–—-]\s*"
    r"(?P<name>[^:\n]{2,80}?)\s*(?::\s*(?P<text>\S[^\n]*)?)?$", re.IGNORECASE)


# the abbreviations whose period ends no sentence ("см. стр. 42", "т. е. модель", "рис. 3";
# not "и т. д." nor "и др.", which end a sentence as often as not)
_ABBREVIATED = re.compile(r"(?<![\w.])(?:см|стр|с|т\.\s?е|т|рис|табл|гл|напр|англ|прим|ср|ок|ед"
                          r"|им|букв|ред)\Z", re.IGNORECASE)
_ABBREVIATION_LOOK = 8  # characters before a period where its abbreviation stands


def abbreviation_at(text: str, dot: int) -> bool:
    """Whether the period at ``dot`` ends an abbreviation, so no sentence ("см. стр. 42").

    >>> abbreviation_at("см. стр. 42", 2), abbreviation_at("Модели бегут. Дальше", 12)
    (True, False)
    """
    return _ABBREVIATED.search(text, max(0, dot - _ABBREVIATION_LOOK), dot) is not None


OPENING_QUOTES = "«“‘\"'„"
CLOSING_QUOTES = "»”’\"'“"
QUOTES = "".join(dict.fromkeys(OPENING_QUOTES + CLOSING_QUOTES))
"""The quotation marks a quote or a name may stand in."""
DASHES = "-‐‑‒–—―"
_MARKS = str.maketrans({**dict.fromkeys(QUOTES, '"'), **dict.fromkeys(DASHES, "-")})


def fold_marks(text: str) -> str:
    """``text`` with every quotation mark written '"' and every dash '-': a site's software
    sets them in an article but not in the page's title (WordPress: "Kill Team против
    "большой" Вахи" over "… против “большой” Вахи"), so a title and its repetition compare
    folded."""
    return text.translate(_MARKS)


def marks_pattern(text: str, space: str = r"\s+") -> str:
    """A regular expression of ``text`` written with any quotation marks and dashes (as
    :func:`fold_marks` folds them) and ``space`` between its words: to find it in a long text
    without folding the whole text."""
    quote, dash = f"[{re.escape(QUOTES)}]", f"[{re.escape(DASHES)}]"
    return space.join("".join(quote if c in QUOTES else dash if c in DASHES else re.escape(c)
                              for c in word) for word in text.split())


_BULLET_MARK = re.compile(r"^[•·]\s+")
_FOOTNOTE_MARKS = re.compile(r"^[*†‡]+\s*(?=\w)|(?<=[\w).])\s*[*†‡]+$")


def title_and_aliases(heading: str) -> tuple[str, list[str]]:
    """The title and aliases a heading gives ("ADVANCING (продвижение)" → Продвижение, Advance)."""
    # a footnote's mark beside a name ("Отравленное 4+ (Poisoned 4+) *", "*Раздирающий") is
    # no part of it
    # nor is a list's bullet and a label's colon ("· Wound Roll бросок на ранение:")
    h = _FOOTNOTE_MARKS.sub("", " ".join(without_pictograms(heading).split())).rstrip(".").strip()
    h = _BULLET_MARK.sub("", h).rstrip(":").strip() or h
    if h[:1] in QUOTES:  # a name in quotes ("‘Take Aim!’ («Возьми упреждение!»)"): no marks
        h = re.sub(f"[{QUOTES}]", "", h).strip()
    entry = ERRATA_ENTRY.match(h)
    if entry is not None:  # an errata's entry is named after what it amends, not its page
        h = entry.group("name").rstrip(".").strip()
    h = _NUMBERED.sub("", h)  # "4. Отступление и преследование", "1.1 Dwarf Lord": no name
    h = CASTING_VALUE.sub("", PRICE.sub("", ACTION_COST.sub("", h) if has_action_cost(h)
                                        else h)) or h
    aka = _ALSO_KNOWN.match(h)
    if aka:  # "Редкие отряды, они же Rare choice": a second name after "он же", "aka"
        title, aliases = title_and_aliases(aka.group(1))
        other = aka.group(2).strip()
        other = other if _is_latin(other) else normal_case(other)
        return title, _dedupe([*aliases, other[:1].upper() + other[1:]], title)
    step = STEP_NAME.match(h)
    if step:  # "Фаза 3 — Стрельба": the phase is named after the dash; its number is an alias
        title, aliases = title_and_aliases(step.group(1))
        return title, _dedupe([*aliases, normal_case(h)], title)
    m = _LATIN_PAREN.match(h)
    if m:
        english, russian = m.group(1), m.group(2)
        names = [n.strip() for n in russian.split(",") if n.strip()]
        title = names[0][:1].upper() + names[0][1:].lower() if names else english.title()
        aliases = [n[:1].upper() + n[1:].lower() for n in names[1:]]
        aliases.append(english.title())
        lem = " ".join(english_lemma(w) for w in english.split())
        if lem != english.title():
            aliases.append(lem)
        return title, _dedupe(aliases, title)
    # "Power from pain — Сила от боли", "Сила от боли — Power from pain": a name in two
    # languages across a spaced dash, the Russian one the title
    m4 = _TWO_LANGUAGES.match(h)
    if m4:
        first, second = m4.group(1), m4.group(2)
        english, russian = (first, second) if _is_latin(first) else (second, first)
        if _is_latin(english) and not re.search("[A-Za-z]", russian):
            return normal_case(russian), _dedupe([english[:1].upper() + english[1:]],
                                                 normal_case(russian))
    # "Отряд (Team)", "Меткость (BS)", "Движение (М)": a Russian name and its English name or
    # its abbreviation (Latin or Cyrillic capitals), which is an alias as written
    # "Вольные стрелки /Рассыпной строй/": a second name between slashes, as in brackets
    # (and its English name after them in brackets: "… /РАССЫПНОЙ СТРОЙ/ (SKIRMISHERS)")
    m5 = re.match(r"^([^/]*[А-Яа-яЁё][^/]*?)\s*/([^/]+)/\s*(\([^()]*\))?$", h) \
        if h.count("/") >= 2 else None  # (tried only where two slashes stand: without them
    # the pattern tried every letter against every other, a minute for a 40 KB heading)
    if m5:
        other = m5.group(2).strip()
        title, aliases = title_and_aliases(f"{m5.group(1)} {m5.group(3) or ''}")
        return title, _dedupe([other if _is_latin(other) else normal_case(other), *aliases],
                              title)
    m2 = _NAME_PAREN.match(h)
    if m2 and not _is_latin(m2.group(1)):
        other = m2.group(2)  # (a label's colon before the brackets is no part of the name:
        # "Правила оружия: (Weapon rules)")
        name = m2.group(1).rstrip(":").strip() or m2.group(1)
        return normal_case(name), [other if other.isupper() else other.title()]
    if _is_latin(h) and not h.isupper():
        m3 = re.match(r"^([A-Za-z ]+?)\s*\((.+)\)$", h)
        if m3:
            ru = m3.group(2).strip()
            return ru[:1].upper() + ru[1:], [m3.group(1).strip()]
    if _is_latin(h) and h.isupper() and len(h) > 3:
        lem = " ".join(english_lemma(w) for w in h.split())
        return h.title() if " " in h or h.endswith("ING") else h, _dedupe([lem], h.title())
    return normal_case(h), []


def _is_latin(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and all(c.isascii() for c in letters)


def _dedupe(items: list[str], title: str) -> list[str]:
    seen = {title.lower()}
    out = []
    for item in items:
        if item.lower() not in seen:
            seen.add(item.lower())
            out.append(item)
    return out


@lru_cache(maxsize=10_000)
def is_group_title(title: str) -> bool:
    """Whether a title names a group of sections: its head noun (the first) is a plural of
    :data:`~ingest.vocabulary.GROUP_HEADS` ("Типы подразделений", "Тесты на панику",
    "Специальные правила армии", "Примеры мистических монументов"); "Колесницы и специальные
    правила" is about chariots, no group."""
    for w in words(title):
        p = morph().parse(w.lower())[0]
        if p.tag.POS == "NOUN":
            return p.normal_form in GROUP_HEADS and p.tag.number == "plur"
    return False


def names_phase(title: str) -> bool:
    """Whether a heading is a phase's own name, the phase its head noun ("Подфаза нападения",
    "Фаза стрельбы"), not a thing of a phase ("Порядок фазы", "Последовательность действий в
    фазу ближнего боя")."""
    toks = lemma_words(title)
    return bool(toks) and (toks[0] in {"фаза", "этап"} or toks[0].endswith("фаза"))


_PARENTHESISED = re.compile(r"\([^)]*\)")


@lru_cache(maxsize=65_536)
def unparen(title: str) -> str:
    """``title`` without its parenthesised parts ("Сопротивление магии (1-3)" →
    "Сопротивление магии"). (A part ends at a ")": the text after the last one is left as it
    is, not searched from each of its "(" again, which a run of them cost the square of.)"""
    last = title.rfind(")")
    if last < 0:
        return " ".join(title.split())
    return " ".join((_PARENTHESISED.sub(" ", title[:last + 1]) + title[last + 1:]).split())


# ---------------------------------------------------------------------------------------
# spans


def passage(text: str, start: int, end: int) -> Section:
    """A passage of ``text[start:end]`` (stripped): rules text under no heading, kept whole and
    titled by its first words, which name nothing (``category: passage``)."""
    start, end = trim_span(text, (start, end))
    ws = text[start:end].split()
    title = " ".join(ws[:6]).rstrip(".,:;") + (" …" if len(ws) > 6 else "")
    return Section(title, "", (start, start), (start, end), is_passage=True)


def trim_span(text: str, span: Span) -> Span:
    """``span`` without the white space at its ends."""
    s, e = span
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    return (s, e)
