"""Cleaning steps that repair words a PDF or a website broke: hyphenation, small caps, drop
capitals.

Each is a step of :data:`ingest.clean.STEPS` (``text -> list[Edit]``). Hyphenation and drop
capitals are decided by word evidence: the Russian dictionary and the words of the text itself
(and of the rest of the corpus, ``vocabulary``).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from functools import lru_cache

from ingest.clean_edits import HSPACE, LETTERS, first_fit
from ingest.models import Edit
from kb.lemmas import WORD_RE, fold, is_known


@lru_cache(maxsize=200_000)
def _known(word: str) -> bool:
    return is_known(word)


def text_vocabulary(text: str) -> set[str]:
    """The folded words of ``text`` (hyphenated words whole): evidence for word decisions."""
    return set(WORD_RE.findall(fold(text)))


# The second part is a lookahead so that it can be the first part of the next break. (A word
# is looked ahead along first to the hyphen and the break after it, which most words lack: a
# word without them is passed at once.)
_HYPHEN_AHEAD = r"(?=\w+-[ \n])"
_HYPHEN_RE = re.compile(rf"(?<!\w){_HYPHEN_AHEAD}({LETTERS}+)-( |\n{HSPACE}*)(?=({LETTERS}+))")
# a word broken across a page: its head, a hyphen, the blank lines a page's footer or header
# left when it was removed (or a copy's page break), and its rest in lower case
# (found by its hyphen and blank lines first, then the head looked for before it: a scan for
# every word's start would cost the whole text)
_PAGE_BREAK_RE = re.compile(rf"-({HSPACE}*\n(?:{HSPACE}*\n)+{HSPACE}*)(?=([а-яёa-z]+))")
_HEAD_RE = re.compile(rf"(?<!\w)({LETTERS}+)\Z")
_SOFT_HYPHEN_RE = re.compile(rf"\u00ad(?:{HSPACE}*\n{HSPACE}*)?")
# a character of no width (a web page's break opportunity, U+200B, U+200C, U+2060; a byte order
# mark or a joiner left inside the text, U+FEFF, U+200D): inside a word it parts nothing
# ("Па\u200bнику"); between words with no space it is their space
_ZERO_WIDTH_RE = re.compile("[\u200b\u200c\u200d\u2060\ufeff]+")
ZERO_WIDTH_REASON = "невидимый символ нулевой ширины"


def hyphenation(text: str, vocabulary: Collection[str] | None = None) -> list[Edit]:
    """Join words broken by hyphenation: "передвигают- ся" → "передвигаются".

    A break is letters, a hyphen, one space or newline, and letters in lower case (or in
    upper case after an upper-case first part). The hyphen stays ("по- настоящему" →
    "по-настоящему") when the hyphenated form has more evidence than the joined one; a form
    found among the text's words (or ``vocabulary``) counts twice, a dictionary word once.
    Hyphenated words without a space ("турбо-ускорение") and dashes with spaces on both sides
    are never touched. Soft hyphens are removed.
    """
    known: list[set[str]] = []  # (the text's words, read once the first break is weighed)

    def text_words() -> set[str]:
        if not known:
            words = text_vocabulary(text)
            if vocabulary:
                words |= {fold(w) for w in vocabulary}
            known.append(words)
        return known[0]

    edits: list[Edit] = []
    decided: dict[tuple[str, str], bool] = {}
    for m in _hyphen_breaks(text):
        head, tail = m.group(1), m.group(3)
        if not (tail[0].islower() or (head[-1].isupper() and sum(map(str.isupper, head)) >= 2)):
            continue
        keep = decided.get((head, tail))
        if keep is None:
            hyphenated, joined = fold(f"{head}-{tail}"), fold(head + tail)
            words = text_words()
            keep = decided[head, tail] = _evidence(hyphenated, words) > _evidence(joined, words)
        broken = f"{head}-{' ' if m.group(2) == ' ' else '↵'}{tail}"
        if keep:
            edits.append(
                Edit(m.start(2), m.end(2), "", "hyphenation",
                     f"перенос в слове с дефисом: «{broken}» → «{head}-{tail}»")
            )
        else:
            edits.append(
                Edit(m.end(1), m.end(2), "", "hyphenation",
                     f"перенос слова: «{broken}» → «{head}{tail}»")
            )
    for m in _PAGE_BREAK_RE.finditer(text):
        # (a paragraph never ends in a hyphenated head: a page's break between the word's
        # halves, "Лидер-" / "Страница 58" / "ство"; joined when the whole is a word, not two
        # columns' lines run together, "установ-" / "многих")
        found = _HEAD_RE.search(text, max(0, m.start() - 60), m.start())
        if found is None:
            continue
        head, tail = found.group(1), m.group(2)
        joined = fold(head + tail)
        words = text_words()
        if _evidence(joined, words) and \
                _evidence(joined, words) >= _evidence(fold(f"{head}-{tail}"), words):
            edits.append(Edit(m.start(), m.end(1), "", "hyphenation",
                              f"перенос слова через разрыв страницы: «{head}-↵↵{tail}» → "
                              f"«{head}{tail}»"))
    for m in _SOFT_HYPHEN_RE.finditer(text):
        edits.append(Edit(m.start(), m.end(), "", "hyphenation", "мягкий перенос"))
    if any(ch in text for ch in "\u200b\u200c\u200d\u2060\ufeff"):
        edits += _zero_width(text)
    return first_fit(edits)


# a hyphen and the break after it: where each match of :data:`_HYPHEN_RE` has its hyphen (a
# literal first: the scan passes the text between hyphens at once)
_HYPHEN_BREAK_RE = re.compile("-[ \n]")


def _hyphen_breaks(text: str) -> Iterator[re.Match[str]]:
    """The matches of :data:`_HYPHEN_RE` in ``text``, in order: each tried at the start of the
    word that ends right before a hyphen and a break (:data:`_HYPHEN_BREAK_RE`), where alone a
    match with that hyphen may start (its word whole, in letters, a hyphen and a break after
    it). A match ends past its break, before the next word: none overlaps the next, and each
    word is read back once."""
    for hyphen in _HYPHEN_BREAK_RE.finditer(text):
        start = end = hyphen.start()
        while start and _is_word_char(text[start - 1]):
            start -= 1
        if start < end:
            m = _HYPHEN_RE.match(text, start)
            if m is not None:
                yield m


def _is_word_char(char: str) -> bool:
    """Whether a character is one of a word (``\\w`` of a pattern: a letter, a digit, "_")."""
    return char.isalnum() or char == "_"


def _zero_width(text: str) -> list[Edit]:
    """Edits removing characters of no width (:data:`_ZERO_WIDTH_RE`): inside a word, or
    beside a space, nothing stands for them; between two words (a letter in lower case or a
    mark before, a capital or a digit after: "Паника\u200bУжас") a space does."""
    edits = []
    for m in _ZERO_WIDTH_RE.finditer(text):
        before = text[m.start() - 1] if m.start() else " "
        after = text[m.end()] if m.end() < len(text) else " "
        inside = before.isalnum() and after.isalnum() and not (
            after.isupper() and not before.isupper() or before.isalpha() != after.isalpha())
        space = "" if inside or before.isspace() or after.isspace() else " "
        edits.append(Edit(m.start(), m.end(), space, "hyphenation", ZERO_WIDTH_REASON))
    return edits


def _evidence(word: str, vocabulary: Collection[str]) -> int:
    return 2 * (word in vocabulary) + _known(word)


# A Cyrillic word with a lower-case letter before an upper-case one, or two capitals before
# a lower-case letter: the two shapes a small-caps word read in the wrong case takes. (Both
# hold a capital after the word's first letter: looked ahead for first, so a word in lower
# case or capitalised, most words, is passed at once.)
CASE_ARTIFACT_RE = re.compile(
    "(?<![А-ЯЁа-яё])(?=[А-ЯЁа-яё][а-яё]*[А-ЯЁ])"
    "[А-ЯЁа-яё]*?(?:[а-яё][А-ЯЁ]|[А-ЯЁ]{2}[а-яё])[А-ЯЁа-яё]*"
)
_LONE_LETTER_RE = re.compile(
    "(?<![А-ЯЁа-яё])([А-ЯЁа-яё]{2,}) ([си]) (?=([А-ЯЁа-яё]{2,})(?![А-ЯЁа-яё]))"
)


def _needs_case_repair(word: str) -> bool:
    """A small-caps artifact: a lower-case letter before an upper-case one, or ≥2 capitals
    mixed with lower-case letters ("сТРЕЛьБА", "БЕРЕГИТЕсь")."""
    return CASE_ARTIFACT_RE.fullmatch(word) is not None


# a line's opening words, the last of which runs into the next sentence's first word with no
# space or line break between ("О психологииЗдорово, когда …"): a title a copy glued to its text
_GLUED_TITLE_RE = re.compile(
    r"(?m)^[ \t]*+(?:[А-ЯЁA-Z«\"][^\n.!?:;,]{0,80}?[ \t])?([А-ЯЁа-яё]*[а-яё])([А-ЯЁ][а-яё]+)"
    r"(?=[ \t,.!?:;]|$)")


def glued_title(text: str) -> list[Edit]:
    """A title glued to the sentence after it ("О психологииЗдорово, когда на поле боя …") is
    set on its own line: at a line's start, a word in lower case runs into a capitalised one,
    and both are words of the dictionary while the two together are none.

    >>> [(e.start, e.replacement) for e in glued_title("О психологииЗдорово, когда всё идёт")]
    [(12, '\\n')]
    """
    edits = []
    for m in _glued_title_lines(text):
        left, right = m.group(1), m.group(2)
        if len(left) < 2 or not _known(left) or not _known(right) or _known(left + right):
            continue
        reason = f"заголовок слит с текстом: «{left}{right}» → «{left}» / «{right}»"
        edits.append(Edit(m.end(1), m.end(1), "\n", "glued_title", reason))
    return edits


# a Cyrillic capital after a small letter: the seam of two words glued (the capital first)
_SEAM_RE = re.compile("[А-ЯЁ](?<=[а-яё].)")


def _glued_title_lines(text: str) -> Iterator[re.Match[str]]:
    """The matches of :data:`_GLUED_TITLE_RE` in ``text``, in order: it fits a line from its
    start, and only a line that holds a seam (:data:`_SEAM_RE`, its two words'), so each line
    with a seam is tried once, at its start, and the scan goes on at its end."""
    at = 0
    while (seam := _SEAM_RE.search(text, at)) is not None:
        start = text.rfind("\n", at, seam.start()) + 1
        end = text.find("\n", seam.start())
        at = len(text) if end < 0 else end
        m = _GLUED_TITLE_RE.match(text, start)
        if m is not None:
            yield m


def small_caps(text: str) -> list[Edit]:
    """Upper-case words that a PDF's small caps left in mixed case.

    "сТРЕЛьБА" → "СТРЕЛЬБА", "сэР" → "СЭР"; a lone "с" or "и" between two capitalised words
    becomes upper case ("ЕДИНИцЫ с РЕАКТИВНЫМИ" → "ЕДИНИЦЫ С РЕАКТИВНЫМИ"). Only Cyrillic
    words are touched, so "XV25", "Ld", "WS" stay; the length never changes.
    """
    starts = capital_words(text)
    found = (CASE_ARTIFACT_RE.match(text, start) for start in starts)
    edits = [
        Edit(m.start(), m.end(), m.group().upper(), "small_caps",
             f"капитель прочитана не в том регистре: «{m.group()}»")
        for m in found if m is not None and not _glued_words(m.group())
    ]
    # (a lone letter's words both in capitals: the word before it one of ``starts``)
    for m in (_LONE_LETTER_RE.match(text, start) for start in starts):
        if m is not None and in_capitals(m.group(1)) and in_capitals(m.group(3)):
            edits.append(
                Edit(m.start(2), m.end(2), m.group(2).upper(), "small_caps",
                     f"союз или предлог «{m.group(2)}» в заголовке капителью")
            )
    return edits


# a Cyrillic capital after a Cyrillic letter (the capital first: the scan passes every other
# character at once)
_CAPITAL_AFTER_LETTER_RE = re.compile("[А-ЯЁ](?<=[А-ЯЁа-яё].)")
_CYRILLIC_RUN_RE = re.compile("[А-ЯЁа-яё]+")
_CYRILLIC = frozenset("АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯЁабвгдежзийклмнопрстуфхцчшщъыьэюяё")


def capital_words(text: str) -> list[int]:
    """The starts of the Cyrillic words of ``text`` (runs of Cyrillic letters) with a capital
    after their first letter, in order: the only words where :data:`CASE_ARTIFACT_RE` may
    match, or a word in capitals stand (:func:`in_capitals`), found from their capitals (most
    words have none but the first). Each word is read once.

    >>> text = "Стрельба сТРЕЛьБА и ЕДИНИцЫ с РЕАКТИВНЫМИ"
    >>> [text[start:].split()[0] for start in capital_words(text)]
    ['сТРЕЛьБА', 'ЕДИНИцЫ', 'РЕАКТИВНЫМИ']
    """
    starts = []
    at = 0
    while (capital := _CAPITAL_AFTER_LETTER_RE.search(text, at)) is not None:
        start = capital.start() - 1
        while start > at and text[start - 1] in _CYRILLIC:
            start -= 1
        starts.append(start)
        at = _CYRILLIC_RUN_RE.match(text, capital.start()).end()  # type: ignore[union-attr]
    return starts


_GLUED_WORDS_RE = re.compile("([а-яё]{2,})([А-ЯЁ][а-яё]{2,})")


def _glued_words(word: str) -> bool:
    """Whether a word in mixed case is two words run together, not small caps: a word in
    lower case and a capitalised one, each a word of the dictionary while the two together
    are none ("столаПоловина", a map's labels a copy joined)."""
    m = _GLUED_WORDS_RE.fullmatch(word)
    return m is not None and _known(m.group(1)) and _known(m.group(2)) \
        and not _known(m.group(1) + m.group(2).lower())


def in_capitals(word: str) -> bool:
    return len(word) >= 2 and (word.isupper() or _needs_case_repair(word))


_DROP_CAPITAL_RE = re.compile(r"(?<!\w)([А-ЯЁа-яё]) ([А-ЯЁ]{2,})(?![\w])")
# A drop capital a PDF set on a line of its own, the rest of its word on the next line(s):
# "Г" / "ЕРОИЧЕСКОЕ" / "ВМЕШАТЕЛЬСТВО" ("ВМЕШАТЕЛЬСТВО" is the heading's next word), in lower
# case too as small caps read it ("с" / "КОЛЬЗЯЩИЕ").
_DROP_CAPITAL_LINE_RE = re.compile(
    r"(?m)^[ \t]*+([А-ЯЁа-яё])[ \t]*\n(?:[ \t]*\n)?[ \t]*([А-ЯЁ]{2,})(?!\w)")
# A drop capital set apart from the lower-case rest of its word at a line's start ("М одели и
# боевые единицы"): a heading's or a paragraph's first letter a PDF set large.
_DROP_CAPITAL_LOWER_RE = re.compile(r"(?m)^[ \t]*+([А-ЯЁ]) ([а-яё]{2,})(?![\w-])")
# One-letter Russian words: after one of these a capitalised word is usually a word of its own.
_LETTER_WORDS = frozenset("авиксоуя")


def _capitals_join(letter: str, rest: str, words: set[str]) -> bool:
    """Whether a letter and the capitalised rest of a word after it are one word (see
    :func:`drop_capital`): the text's own words count as words."""
    joined_is_word = _known(letter + rest) or fold(letter + rest) in words
    if fold(letter) in _LETTER_WORDS:
        return joined_is_word and not _known(rest)
    return joined_is_word or not _known(rest)


def _lower_rest_joins(letter: str, rest: str) -> bool:
    """Whether a capital and the lower-case rest after it are one word ("М одели"): the rest
    may be a word of its own ("одели"), so the dictionary's joined form decides; a letter that
    is a word and a word after it stay ("В ходе", "С помощью")."""
    if fold(letter) in _LETTER_WORDS and _known(rest):
        return False
    return _known(letter + rest)


def drop_capital(text: str, vocabulary: Collection[str] | None = None) -> list[Edit]:
    """Join a drop capital cut off its word: "О ТСТУПЛЕНИЕ" → "ОТСТУПЛЕНИЕ".

    A single letter, a space and a capitalised word — or a capital letter alone on its line and
    the capitalised rest of its word at the start of the next ("Г" / "ЕРОИЧЕСКОЕ"). If the
    letter is a word itself (а в и к о с у я), they join only when the rest is not a word and
    the joined form is ("В ЫБОР", but not "В ФАЗЕ", "И ТЁМНОЭЛЬДАРСКИЕ"); otherwise they join
    when the joined form is a word or the rest is not ("Т РУДНО", "Э ЛЬДАРСКИЕ"). A joined form
    found among the text's words (or ``vocabulary``) counts as a word. A lower-case capital is
    upper-cased. A capital apart from the lower-case rest of its word at a line's start ("М
    одели") joins it when the joined form is a word (and, for a letter that is a word, the
    rest is not).

    >>> [(e.start, e.end) for e in drop_capital("М одели и боевые единицы\\nВ ходе игры")]
    [(1, 2)]
    """
    words: set[str] | None = None
    edits: list[Edit] = []
    # (its capitals a word in capitals: found among :func:`capital_words`, a letter and a
    # space before it)
    found = (_DROP_CAPITAL_RE.match(text, start - 2) for start in capital_words(text)
             if start >= 2 and text[start - 1] == " ")
    matches = [m for m in found if m is not None]
    if "\n" in text:
        matches += _DROP_CAPITAL_LINE_RE.finditer(text)
    lowered = list(_DROP_CAPITAL_LOWER_RE.finditer(text))
    lower = {m.start() for m in lowered}
    matches += lowered
    for m in sorted(matches, key=lambda m: m.start()):
        letter, rest = m.group(1), m.group(2)
        if m.start() in lower:
            if not _lower_rest_joins(letter, rest):
                continue
        else:
            if words is None:
                words = text_vocabulary(text) | {fold(w) for w in vocabulary or ()}
            if not _capitals_join(letter, rest, words):
                continue
        joined = letter.upper() + rest
        apart = text[m.end(1):m.start(2)]
        shown = f"{letter} {rest}" if "\n" not in apart else f"{letter}↵{rest}"
        reason = f"буквица «{letter}» отделена от слова: «{shown}» → «{joined}»"
        if letter.isupper():
            edits.append(Edit(m.end(1), m.start(2), "", "drop_capital", reason))
        else:
            edits.append(Edit(m.start(1), m.start(2), letter.upper(), "drop_capital", reason))
    return edits
