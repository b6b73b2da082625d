"""Stage 2: clean a rule text, keeping a map of every character back to the source.

Cleaning is a list of named steps (:data:`STEPS`) run in a fixed order. A step reads the
current text and proposes edits (:class:`~ingest.models.Edit`: start, end, replacement,
reason); one shared function, :func:`apply_edits`, applies them in a single pass, extends the
offset map and records each edit as a :class:`~ingest.models.Change` in terms of the original
source. Nothing leaves a text without a ``Change``: that is the removed-text account.

The steps, in order:

``line_endings``
    ``\\r\\n`` and ``\\r`` become ``\\n``.
``site_furniture``
    What the website added: download banners, a title line that repeats the book's name,
    page navigation, "Дата добавления …", "Мы поможем в написании …", ``|`` separators.
``running_header``
    A short phrase repeated between sentences ("Классы боевых единиц"), and a site page title
    that the text repeats later as a heading.
``page_footer``
    "Страница 72" lines; :func:`clean` also turns them into :class:`~ingest.models.PageMark`.
``hyphenation``
    Words broken across lines: "передвигают- ся" → "передвигаются", "по- настоящему" →
    "по-настоящему", decided by the Russian dictionary and the words of the text itself.
``small_caps``
    Small-caps headings read in the wrong case: "сТРЕЛьБА" → "СТРЕЛЬБА".
``drop_capital``
    A drop capital cut off its word: "О ТСТУПЛЕНИЕ" → "ОТСТУПЛЕНИЕ".
``whitespace``
    Runs of spaces, spaces at line ends, runs of blank lines.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from functools import lru_cache, partial

from ingest.models import Change, CleanedText, Edit, OffsetArray, PageMark, SourceText
from kb.lemmas import WORD_RE, fold, is_known, morph

Step = Callable[[str], list[Edit]]

_H = r"[^\S\n]"  # horizontal whitespace: any whitespace but a newline
_LETTERS = r"[^\W\d_]"


@lru_cache(maxsize=200_000)
def _known(word: str) -> bool:
    return is_known(word)


def text_vocabulary(text: str) -> set[str]:
    """The folded words of ``text`` (hyphenated words whole): evidence for word decisions."""
    return set(WORD_RE.findall(fold(text)))


# --------------------------------------------------------------------------------------------
# Applying edits
# --------------------------------------------------------------------------------------------


def apply_edits(
    text: str, offsets: OffsetArray, edits: Iterable[Edit], source: str
) -> tuple[str, OffsetArray, list[Change]]:
    """Apply non-overlapping edits to ``text`` in one pass.

    Args:
        text: The current text.
        offsets: Its map to the source (``len(text) + 1`` entries, the last one the source's
            length).
        edits: Edits with offsets in ``text``, in any order. An edit that changes nothing is
            skipped.
        source: The original source text, to quote what each change replaced.

    Returns:
        The new text, its map to the source, and one :class:`Change` per edit made.

    A replacement's ``k``-th character maps to the source of the ``k``-th character it
    replaces (the last one when the replacement is longer), so an equal-length replacement
    (a case repair) keeps the map one-to-one.

    Raises:
        ValueError: Two edits overlap (a bug in a step).
    """
    pieces: list[str] = []
    new_offsets: OffsetArray = array("q")
    changes: list[Change] = []
    pos = 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        start, end, replacement = edit.start, edit.end, edit.replacement
        if start < pos:
            raise ValueError(f"step {edit.step}: edit {edit} overlaps an earlier edit")
        if text[start:end] == replacement:
            continue
        pieces.append(text[pos:start])
        new_offsets.extend(offsets[pos:start])
        width = end - start
        if width == 0:
            new_offsets.extend([offsets[start]] * len(replacement))
            src_start = src_end = offsets[start]
        else:
            new_offsets.extend(offsets[start + min(k, width - 1)] for k in range(len(replacement)))
            src_start, src_end = offsets[start], offsets[end - 1] + 1
        pieces.append(replacement)
        changes.append(
            Change.model_construct(  # trusted values: skip validation, it is the hot path
                step=edit.step,
                span=(src_start, src_end),
                before=source[src_start:src_end],
                after=replacement,
                reason=edit.reason,
            )
        )
        pos = end
    if not changes:
        return text, offsets, changes
    pieces.append(text[pos:])
    new_offsets.extend(offsets[pos:])
    return "".join(pieces), new_offsets, changes


def _first_fit(edits: Iterable[Edit]) -> list[Edit]:
    """Drop edits that overlap an earlier (or, at the same start, a longer) one."""
    kept: list[Edit] = []
    end = -1
    for edit in sorted(edits, key=lambda e: (e.start, -e.end)):
        if edit.start >= end:
            kept.append(edit)
            end = edit.end
    return kept


def _outside(edits: Iterable[Edit], taken: Sequence[Edit]) -> list[Edit]:
    """The edits that overlap none of ``taken`` (sorted, non-overlapping)."""
    starts = [edit.start for edit in taken]
    kept: list[Edit] = []
    for edit in edits:
        k = bisect_left(starts, edit.end)  # taken[:k] start before this edit ends
        if k == 0 or taken[k - 1].end <= edit.start:
            kept.append(edit)
    return kept


def _block_edit(text: str, start: int, end: int, step: str, reason: str) -> Edit:
    """Remove ``text[start:end]`` with the whitespace around it, leaving a block boundary.

    The boundary is a blank line if the removed whitespace held one, else a newline; nothing
    at the very start or end of the text. Removing the whitespace here, not in the
    ``whitespace`` step, keeps one change per removed block.
    """
    while start > 0 and text[start - 1].isspace():
        start -= 1
    while end < len(text) and text[end].isspace():
        end += 1
    return Edit(start, end, _boundary(text, start, end), step, reason)


_BLANK_LINE_RE = re.compile(rf"\n{_H}*\n")


def _boundary(text: str, start: int, end: int) -> str:
    """What stands for removed ``text[start:end]``: a blank line if it held one, else a newline."""
    if start == 0 or end == len(text):
        return ""
    return "\n\n" if _BLANK_LINE_RE.search(text, start, end) else "\n"


def _merge_blocks(text: str, edits: Iterable[Edit]) -> list[Edit]:
    """Make block edits that share whitespace (see :func:`_block_edit`) fit together.

    Blocks that overlap form a chain: each block after the first starts where the one before
    it ended and leaves nothing, the first leaves the boundary of the whole chain. Each
    block keeps its own change and reason.
    """
    chains: list[list[Edit]] = []
    for edit in sorted(edits, key=lambda e: (e.start, -e.end)):
        if chains and edit.start < chains[-1][-1].end:
            last = chains[-1][-1]
            if edit.end > last.end:
                chains[-1].append(edit._replace(start=last.end))
        else:
            chains.append([edit])
    merged: list[Edit] = []
    for chain in chains:
        start, end = chain[0].start, chain[-1].end
        boundary = _boundary(text, start, end)
        chain = [edit._replace(replacement="") for edit in chain]
        # Keep the boundary as the source's own whitespace where it has it: then the edits
        # only delete, and every character of the cleaned text is a character of the source.
        if boundary and text.startswith(boundary, start):
            chain[0] = chain[0]._replace(start=start + len(boundary))
        elif boundary and text.endswith(boundary, start, end):
            chain[-1] = chain[-1]._replace(end=end - len(boundary))
        else:
            chain[0] = chain[0]._replace(replacement=boundary)
        merged.extend(edit for edit in chain if edit.end > edit.start or edit.replacement)
    return merged


# --------------------------------------------------------------------------------------------
# Steps
# --------------------------------------------------------------------------------------------

_CR_RE = re.compile(r"\r\n?")


def line_endings(text: str) -> list[Edit]:
    """Windows and old Mac line ends become ``\\n``, so the other steps see one kind."""
    return [
        Edit(m.start(), m.end(), "\n", "line_endings", "перевод строки приведён к \\n")
        for m in _CR_RE.finditer(text)
    ]


def _line(body: str) -> re.Pattern[str]:
    """A whole line that consists of ``body`` (group 1)."""
    return re.compile(rf"^{_H}*({body}){_H}*$", re.MULTILINE)


_ADVERT = r"Мы поможем в написании ваш\w* работ\w*!?"
# Whole lines the website adds; each is removed with the blank lines around it.
_FURNITURE_LINES: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        _line(rf"Скачать{_H}+\d+(?:[.,]\d+)?{_H}*(?:[KkMmGg][Bb]|[КкМмГг][Бб]|байт\w*|bytes?)\.?"),
        "баннер «Скачать» сайта",
    ),
    (
        _line(
            r"⇐[^\n]{0,300}?⇒"
            rf"|Предыдущая(?:{_H}*Стр\.?)?[\d \t\xa0]*(?:из{_H}*\d+)?{_H}*Следующая"
        ),
        "навигация по страницам сайта",
    ),
    (_line(r"Дата (?:добавления|публикации):[^\n]*"), "подпись сайта (дата добавления, просмотры)"),
    (_line(_ADVERT), "реклама сайта «Мы поможем в написании…»"),
    (
        _line(
            r"(?:Читайте также|Поделиться|Поиск по сайту|Нарушение авторск\w+ прав\w*)"
            r"[^\n]{0,120}"
        ),
        "служебная строка сайта",
    ),
    (_line(r"\|"), "строка-разделитель «|» сайта"),
)
# The same inside a line: removed with the spaces before them.
_FURNITURE_INLINE: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"{_H}*{_ADVERT}"), "реклама сайта «Мы поможем в написании…»"),
    (re.compile(rf"{_H}*(?<!\S)\|(?!\S)"), "разделитель «|» сайта"),
)
TITLE_LINE_REASON = "строка-заголовок сайта: название книги повторено"
_MAX_TITLE_LINE = 300


def site_furniture(text: str) -> list[Edit]:
    """Find what the website put around the rules text.

    Download banners ("Скачать 44.49 Mb."), page navigation ("⇐ ПредыдущаяСтр 17 из
    35Следующая ⇒"), the site's signature ("Дата добавления: …; просмотров: …"), its
    advertising ("Мы поможем в написании ваших работ!"), ``|`` separators, and a first line
    that repeats the book's title ("Warhammer 40k - 6th edition - Книга правил 1.0. Warhammer
    40k - 6th edition - …"). A whole line goes with the blank lines around it.
    """
    blocks = [
        _block_edit(text, m.start(1), m.end(1), "site_furniture", reason)
        for pattern, reason in _FURNITURE_LINES
        for m in pattern.finditer(text)
    ]
    title_end = _repeated_title_line(text)
    if title_end is not None:
        blocks.append(_block_edit(text, 0, title_end, "site_furniture", TITLE_LINE_REASON))
    blocks = _merge_blocks(text, blocks)
    inline = [
        Edit(m.start(), m.end(), "", "site_furniture", reason)
        for pattern, reason in _FURNITURE_INLINE
        for m in pattern.finditer(text)
    ]
    return blocks + _outside(_first_fit(inline), blocks)


def _repeated_title_line(text: str) -> int | None:
    """End of a first line that repeats its own opening words (a site's title), if any."""
    newline = text.find("\n")
    if newline < 0:
        return None
    line = text[:newline]
    words = line.split()
    if len(words) < 8 or len(line) > _MAX_TITLE_LINE:
        return None
    opening = " ".join(words[:4])
    first = line.find(opening)
    if line.find(opening, first + len(opening)) < 0:
        return None
    return newline


_WORD = rf"{_LETTERS}+(?:-{_LETTERS}+)*"
# A run of 2–6 words joined by single spaces, where a line starts or a sentence has ended.
_PHRASE_RE = re.compile(
    rf"(?:^{_H}*|(?<=[.!?…:;»\")]){_H}+)(?P<phrase>{_WORD}(?: {_WORD}){{1,5}})", re.MULTILINE
)
_WORD_RE = re.compile(_WORD)
_WORD_CHAR_RE = re.compile(rf"{_LETTERS}|-")
_HSPACE_RE = re.compile(rf"{_H}*")
# Parts of speech a running header cannot start or end with: it is a name, not a clause.
_FUNCTION_POS = frozenset({"CONJ", "PREP", "PRCL", "NPRO", "INTJ", "PRED", "ADVB", "None"})
_MIN_HEADER_REPEATS = 3
PAGE_TITLE_REASON = "заголовок страницы сайта"
_MAX_TITLE_CHARS, _MAX_TITLE_WORDS = 200, 15


def find_running_headers(text: str) -> tuple[str, ...]:
    """Short phrases that recur between the sentences of ``text``: running headers.

    A running header has 2–6 words, starts with a capital, is not all capitals (that would
    be a heading), holds no punctuation and does not start or end with a function word. It
    stands at least 3 times inside a line right after a sentence ended, and wherever it
    occurs it is followed by a capital or a line end — each time a different word, so it is
    not the start of a longer name ("Модели с таким Специальным Правилом").

    >>> find_running_headers(
    ...     "Раз. Классы боевых единиц ДВА Два. Классы боевых единиц Три. "
    ...     "Классы боевых единиц Четыре."
    ... )
    ('Классы боевых единиц',)
    """
    return tuple(_running_headers(text))


@lru_cache(maxsize=2)
def _running_headers(text: str) -> dict[str, list[int]]:
    """Each running header of ``text`` with the offsets where it occurs."""
    counts: Counter[str] = Counter()
    for m in _PHRASE_RE.finditer(text):
        start = m.start("phrase")
        if not text[start].isupper():
            continue
        at_line_start = m.start() == 0 or text[m.start() - 1] == "\n"
        pos = start
        for k, word in enumerate(m.group("phrase").split(" ")):
            end = pos + len(word)
            pos = end + 1
            if k == 0:
                continue  # one word is not a phrase
            follows = _follows(text, end)
            if follows is not None and not (at_line_start and follows == "\n"):
                counts[text[start:end]] += 1
    headers: dict[str, list[int]] = {}
    for phrase in sorted(counts, key=lambda p: (-len(p), p)):
        if counts[phrase] < _MIN_HEADER_REPEATS or phrase.isupper() or not _is_name(phrase):
            continue
        if any(phrase in longer for longer in headers):
            continue
        occurrences: list[int] = []
        followers: set[str] = set()
        for start in _find_words(text, phrase):
            follows = _follows(text, start + len(phrase))
            if follows is None:
                break
            occurrences.append(start)
            followers.add(follows)
        else:
            if len(followers) >= 3 and 2 * len(followers) >= len(occurrences):
                headers[phrase] = occurrences
    return headers


def _follows(text: str, end: int) -> str | None:
    """What follows a phrase that ends at ``end``, if the phrase ends a block there.

    ``"\\n"`` for a line end or the text's end, the next word if it starts with a capital,
    ``None`` if the phrase goes on as part of a sentence.
    """
    space = _HSPACE_RE.match(text, end)
    k = space.end() if space else end
    if k == len(text) or text[k] == "\n":
        return "\n"
    word = _WORD_RE.match(text, k) if k > end else None
    if word is not None and _capital_like(text, word):
        return word.group()
    return None


def _capital_like(text: str, word: re.Match[str]) -> bool:
    """Whether a word starts with a capital, also when small caps or a drop capital hide it
    ("сТРЕЛьБА", "э ЛьДАРсКИЕ")."""
    if word.group()[0].isupper() or _CASE_ARTIFACT_RE.match(word.group()):
        return True
    if len(word.group()) == 1 and text.startswith(" ", word.end()):
        rest = _WORD_RE.match(text, word.end() + 1)
        return rest is not None and (rest.group().isupper() or _capitals(rest.group()))
    return False


def _find_words(text: str, phrase: str) -> Iterable[int]:
    """Offsets of ``phrase`` in ``text`` where it is not part of a longer word."""
    at = text.find(phrase)
    while at >= 0:
        end = at + len(phrase)
        before = at > 0 and _WORD_CHAR_RE.match(text, at - 1) is not None
        after = end < len(text) and _WORD_CHAR_RE.match(text, end) is not None
        if not before and not after:
            yield at
        at = text.find(phrase, end)


def _is_name(phrase: str) -> bool:
    words = phrase.split()
    return not any(
        str(morph().parse(word)[0].tag.POS) in _FUNCTION_POS for word in (words[0], words[-1])
    )


def running_header(text: str) -> list[Edit]:
    """Remove running headers and a repeated site page title.

    Each occurrence of a running header (see :func:`find_running_headers`) becomes a block
    boundary. A first line that stands again later as a whole line is the site's page title
    in front of the text; its first occurrence is removed, the later heading stays.
    """
    edits: list[Edit] = []
    for phrase, starts in _running_headers(text).items():
        reason = f"колонтитул «{phrase}» (повторяется вне предложений)"
        for start in starts:
            end = start + len(phrase)
            edits.append(_block_edit(text, start, end, "running_header", reason))
    newline = text.find("\n")
    first = text[:newline].strip() if newline >= 0 else ""
    if len(first) > _MAX_TITLE_CHARS or len(first.split()) > _MAX_TITLE_WORDS:
        first = ""
    if first and re.search(rf"^{_H}*{re.escape(first)}{_H}*$", text[newline:], re.MULTILINE):
        start = text.find(first)
        end = start + len(first)
        edits.append(_block_edit(text, start, end, "running_header", PAGE_TITLE_REASON))
    return _merge_blocks(text, edits)


FOOTER_RE = re.compile(
    rf"^{_H}*(Страница{_H}+(\d+)(?:{_H}*[-–—]{_H}*(\d+))?){_H}*$", re.MULTILINE
)
_FOOTER_BODY_RE = re.compile(rf"Страница{_H}+(\d+)(?:{_H}*[-–—]{_H}*(\d+))?")


def page_footer(text: str) -> list[Edit]:
    """Remove page footers ("Страница 72", "Страница 62-63"), leaving a block boundary.

    :func:`clean` turns each of these changes into a :class:`~ingest.models.PageMark`.
    """
    return _merge_blocks(
        text,
        (
            _block_edit(
                text, m.start(1), m.end(1), "page_footer", f"колонтитул страницы «{m.group(1)}»"
            )
            for m in FOOTER_RE.finditer(text)
        ),
    )


# The second part is a lookahead so that it can be the first part of the next break.
_HYPHEN_RE = re.compile(rf"(?<!\w)({_LETTERS}+)-( |\n{_H}*)(?=({_LETTERS}+))")
_SOFT_HYPHEN_RE = re.compile(rf"\u00ad(?:{_H}*\n{_H}*)?")


def hyphenation(text: str, vocabulary: Collection[str] | None = None) -> list[Edit]:
    """Join words broken by hyphenation: "передвигают- ся" → "передвигаются".

    A break is letters, a hyphen, one space or newline, and letters in lower case (or in
    upper case after an upper-case first part). The hyphen stays ("по- настоящему" →
    "по-настоящему") when the hyphenated form has more evidence than the joined one; a form
    found among the text's words (or ``vocabulary``) counts twice, a dictionary word once.
    Hyphenated words without a space ("турбо-ускорение") and dashes with spaces on both sides
    are never touched. Soft hyphens are removed.
    """
    words = text_vocabulary(text)
    if vocabulary:
        words |= {fold(w) for w in vocabulary}
    edits: list[Edit] = []
    decided: dict[tuple[str, str], bool] = {}
    for m in _HYPHEN_RE.finditer(text):
        head, tail = m.group(1), m.group(3)
        if not (tail[0].islower() or (head[-1].isupper() and sum(map(str.isupper, head)) >= 2)):
            continue
        keep = decided.get((head, tail))
        if keep is None:
            hyphenated, joined = fold(f"{head}-{tail}"), fold(head + tail)
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
    for m in _SOFT_HYPHEN_RE.finditer(text):
        edits.append(Edit(m.start(), m.end(), "", "hyphenation", "мягкий перенос"))
    return _first_fit(edits)


def _evidence(word: str, vocabulary: Collection[str]) -> int:
    return 2 * (word in vocabulary) + _known(word)


# A Cyrillic word with a lower-case letter before an upper-case one, or two capitals before
# a lower-case letter: the two shapes a small-caps word read in the wrong case takes.
_CASE_ARTIFACT_RE = re.compile(
    "(?<![А-ЯЁа-яё])[А-ЯЁа-яё]*?(?:[а-яё][А-ЯЁ]|[А-ЯЁ]{2}[а-яё])[А-ЯЁа-яё]*"
)
_LONE_LETTER_RE = re.compile(
    "(?<![А-ЯЁа-яё])([А-ЯЁа-яё]{2,}) ([си]) (?=([А-ЯЁа-яё]{2,})(?![А-ЯЁа-яё]))"
)


def _needs_case_repair(word: str) -> bool:
    """A small-caps artifact: a lower-case letter before an upper-case one, or ≥2 capitals
    mixed with lower-case letters ("сТРЕЛьБА", "БЕРЕГИТЕсь")."""
    return _CASE_ARTIFACT_RE.fullmatch(word) is not None


def small_caps(text: str) -> list[Edit]:
    """Upper-case words that a PDF's small caps left in mixed case.

    "сТРЕЛьБА" → "СТРЕЛЬБА", "сэР" → "СЭР"; a lone "с" or "и" between two capitalised words
    becomes upper case ("ЕДИНИцЫ с РЕАКТИВНЫМИ" → "ЕДИНИЦЫ С РЕАКТИВНЫМИ"). Only Cyrillic
    words are touched, so "XV25", "Ld", "WS" stay; the length never changes.
    """
    edits = [
        Edit(m.start(), m.end(), m.group().upper(), "small_caps",
             f"капитель прочитана не в том регистре: «{m.group()}»")
        for m in _CASE_ARTIFACT_RE.finditer(text)
    ]
    for m in _LONE_LETTER_RE.finditer(text):
        if _capitals(m.group(1)) and _capitals(m.group(3)):
            edits.append(
                Edit(m.start(2), m.end(2), m.group(2).upper(), "small_caps",
                     f"союз или предлог «{m.group(2)}» в заголовке капителью")
            )
    return edits


def _capitals(word: str) -> bool:
    return len(word) >= 2 and (word.isupper() or _needs_case_repair(word))


_DROP_CAPITAL_RE = re.compile(r"(?<!\w)([А-ЯЁа-яё]) ([А-ЯЁ]{2,})(?![\w])")
# One-letter Russian words: after one of these a capitalised word is usually a word of its own.
_LETTER_WORDS = frozenset("авиксоуя")


def drop_capital(text: str, vocabulary: Collection[str] | None = None) -> list[Edit]:
    """Join a drop capital cut off its word: "О ТСТУПЛЕНИЕ" → "ОТСТУПЛЕНИЕ".

    A single letter, a space and a capitalised word. If the letter is a word itself (а в и к
    о с у я), they join only when the rest is not a word and the joined form is ("В ЫБОР",
    but not "В ФАЗЕ", "И ТЁМНОЭЛЬДАРСКИЕ"); otherwise they join when the joined form is a
    word or the rest is not ("Т РУДНО", "Э ЛЬДАРСКИЕ"). A joined form found among the text's
    words (or ``vocabulary``) counts as a word. A lower-case capital is upper-cased.
    """
    words: set[str] | None = None
    edits: list[Edit] = []
    for m in _DROP_CAPITAL_RE.finditer(text):
        letter, rest = m.group(1), m.group(2)
        if words is None:
            words = text_vocabulary(text) | {fold(w) for w in vocabulary or ()}
        joined_is_word = _known(letter + rest) or fold(letter + rest) in words
        rest_is_word = _known(rest)
        if fold(letter) in _LETTER_WORDS:
            join = joined_is_word and not rest_is_word
        else:
            join = joined_is_word or not rest_is_word
        if not join:
            continue
        joined = letter.upper() + rest
        reason = f"буквица «{letter}» отделена от слова: «{letter} {rest}» → «{joined}»"
        if letter.isupper():
            edits.append(Edit(m.end(1), m.start(2), "", "drop_capital", reason))
        else:
            edits.append(Edit(m.start(1), m.start(2), letter.upper(), "drop_capital", reason))
    return edits


_WHITESPACE_RE = re.compile(
    rf"(?P<lines>{_H}*\n\s*)"
    rf"|(?P<open>(?<=[(\[«]){_H}+)"
    rf"|(?P<close>{_H}+(?=[)\]»]))"
    rf"|(?P<spaces>{_H}{{2,}}|[^\S\n ]|\A{_H}+|{_H}+\Z)"
)


def whitespace(text: str) -> list[Edit]:
    """Normalise whitespace: one space between words, no spaces at line ends or starts,
    no spaces inside brackets, at most one blank line, nothing at the text's ends.

    Non-breaking spaces count as spaces, so a line holding only one is blank.
    """
    edits: list[Edit] = []
    size = len(text)
    for m in _WHITESPACE_RE.finditer(text):
        run = m.group()
        at_edge = m.start() == 0 or m.end() == size
        if m.group("lines") is not None:
            newlines = run.count("\n")
            replacement = "" if at_edge else "\n\n" if newlines >= 2 else "\n"
            if newlines > 2:
                reason = "несколько пустых строк сведены к одной"
            elif at_edge:
                reason = "пустые строки в начале или конце текста"
            else:
                reason = "пробелы в конце или начале строки"
        elif m.group("open") is not None or m.group("close") is not None:
            replacement, reason = "", "пробел внутри скобок или кавычек"
        else:
            replacement = "" if at_edge else " "
            reason = "пробелы в начале или конце текста" if at_edge else "лишние пробелы"
        if replacement != run:
            edits.append(Edit(m.start(), m.end(), replacement, "whitespace", reason))
    return edits


STEPS: list[tuple[str, Step]] = [
    ("line_endings", line_endings),
    ("site_furniture", site_furniture),
    ("running_header", running_header),
    ("page_footer", page_footer),
    ("hyphenation", hyphenation),
    ("small_caps", small_caps),
    ("drop_capital", drop_capital),
    ("whitespace", whitespace),
]
"""The cleaning steps in the order :func:`clean` runs them; each is ``text -> list[Edit]``."""


def steps(vocabulary: Collection[str] | None = None) -> list[tuple[str, Step]]:
    """:data:`STEPS`, with ``vocabulary`` given to the steps that weigh word evidence."""
    if not vocabulary:
        return list(STEPS)
    bound: dict[str, Step] = {
        "hyphenation": partial(hyphenation, vocabulary=vocabulary),
        "drop_capital": partial(drop_capital, vocabulary=vocabulary),
    }
    return [(name, bound.get(name, step)) for name, step in STEPS]


# --------------------------------------------------------------------------------------------
# The stage
# --------------------------------------------------------------------------------------------


def clean(source: SourceText, vocabulary: Collection[str] | None = None) -> CleanedText:
    """Run every cleaning step over a source text.

    Args:
        source: The loaded text.
        vocabulary: Extra words (e.g. from the other files of the corpus) that count as
            evidence when hyphenation and drop capitals are decided.

    Returns:
        The cleaned text with its map back to the source, every change made, the page
        footers and the running headers found.

    Example:
        >>> src = SourceText(
        ...     name="x.txt", path="x.txt", text="О ТсТУПЛЕНИЕ за- легать", encoding="utf-8"
        ... )
        >>> clean(src).text
        'ОТСТУПЛЕНИЕ залегать'
    """
    text = source.text
    offsets: OffsetArray = array("q", range(len(text) + 1))
    changes: list[Change] = []
    headers: tuple[str, ...] = ()
    for name, step in steps(vocabulary):
        if name == "running_header":
            headers = find_running_headers(text)
        text, offsets, made = apply_edits(text, offsets, step(text), source.text)
        changes.extend(made)
    return CleanedText(
        source=source.name,
        text=text,
        offsets=offsets,
        changes=changes,
        pages=_page_marks(text, changes, offsets),
        running_headers=list(headers),
    )


def _page_marks(text: str, changes: Iterable[Change], offsets: OffsetArray) -> list[PageMark]:
    marks: list[PageMark] = []
    for change in changes:
        if change.step != "page_footer":
            continue
        for m in _FOOTER_BODY_RE.finditer(change.before):
            first = int(m.group(1))
            last = int(m.group(2)) if m.group(2) else first
            start = change.span[0] + m.start()
            # The footer stood right after its page's last word: the whitespace around it is
            # the boundary, so a section that starts after it starts on the next page.
            at = bisect_left(offsets, start)
            while at > 0 and text[at - 1].isspace():
                at -= 1
            marks.append(
                PageMark(
                    first=first,
                    last=max(first, last),
                    at=at,
                    source_span=(start, change.span[0] + m.end()),
                )
            )
    return sorted(marks, key=lambda mark: mark.at)
