"""Cleaning steps of a book's pages: running headers and page footers.

Each is a step of :data:`ingest.clean.STEPS` (``text -> list[Edit]``) that removes whole blocks
with the whitespace around them (:func:`ingest.clean_edits.block_edit`). :func:`page_marks`
reads the removed footers back as page marks.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from ingest.clean_edits import (
    HSPACE,
    LETTERS,
    block_edit,
    merge_blocks,
)
from ingest.clean_words import CASE_ARTIFACT_RE, in_capitals
from ingest.models import Change, Edit, OffsetArray, PageMark
from ingest.sections import marks_pattern
from kb.lemmas import morph

_WORD = rf"{LETTERS}+(?:-{LETTERS}+)*"
# A run of 2–6 words joined by single spaces, where a line starts or a sentence has ended.
_PHRASE_RE = re.compile(
    rf"(?:^{HSPACE}*+|(?<=[.!?…:;»\")]){HSPACE}+)(?P<phrase>{_WORD}(?: {_WORD}){{1,5}})",
    re.MULTILINE,
)
_WORD_RE = re.compile(_WORD)
_WORD_CHAR_RE = re.compile(rf"{LETTERS}|-")
_HSPACE_RE = re.compile(rf"{HSPACE}*")
# Parts of speech a running header cannot start or end with: it is a name, not a clause.
_FUNCTION_POS = frozenset({"CONJ", "PREP", "PRCL", "NPRO", "INTJ", "PRED", "ADVB", "None"})
_MIN_HEADER_REPEATS = 3
PAGE_TITLE_REASON = "заголовок страницы сайта"
TEMPLATE_REASON = "колонтитул книги: строка, которую PDF повторяет на страницах на том же месте"
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
        words = m.group("phrase").split(" ")
        for k, word in enumerate(words):
            end = pos + len(word)
            pos = end + 1
            if k == 0:
                continue  # one word is not a phrase
            if k + 1 < len(words) and words[k + 1][0].islower() and len(words[k + 1]) > 1 \
                    and CASE_ARTIFACT_RE.match(words[k + 1]) is None:
                continue  # the phrase's next word, in lower case, goes on (what _follows
                # finds, read off the phrase: the cheap test first)
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
    if word.group()[0].isupper() or CASE_ARTIFACT_RE.match(word.group()):
        return True
    if len(word.group()) == 1 and text.startswith(" ", word.end()):
        rest = _WORD_RE.match(text, word.end() + 1)
        return rest is not None and (rest.group().isupper() or in_capitals(rest.group()))
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
            edits.append(block_edit(text, start, end, "running_header", reason))
    newline = text.find("\n")
    first = text[:newline].strip() if newline >= 0 else ""
    if len(first) > _MAX_TITLE_CHARS or len(first.split()) > _MAX_TITLE_WORDS:
        first = ""
    # (with any quotation marks and dashes, any spaces between its words)
    key = marks_pattern(first, f"{HSPACE}+")
    if first and re.search(rf"^{HSPACE}*+{key}{HSPACE}*$", text[newline:], re.MULTILINE):
        start = text.find(first)
        end = start + len(first)
        edits.append(block_edit(text, start, end, "running_header", PAGE_TITLE_REASON))
    return merge_blocks(text, edits)


_PAGE_WORD = r"(?:[Сс]траница|[Сс]тр\.?|[Сс]\.)"
FOOTER_RE = re.compile(
    rf"^{HSPACE}*+({_PAGE_WORD}{HSPACE}*(\d+)(?:{HSPACE}*[-–—]{HSPACE}*(\d+))?){HSPACE}*$",
    re.MULTILINE,
)
_FOOTER_BODY_RE = re.compile(rf"{_PAGE_WORD}{HSPACE}*(\d+)(?:{HSPACE}*[-–—]{HSPACE}*(\d+))?")


def page_footer(text: str) -> list[Edit]:
    """Remove page marks ("Страница 72", "Страница 62-63", "С. 152"), leaving a block boundary.

    A mark that stands before any text of the file heads its page, and then every mark of the
    file does; otherwise the marks are footers that close their page (:func:`page_marks`).

    :func:`ingest.clean.clean` turns each of these changes into a
    :class:`~ingest.models.PageMark` (:func:`page_marks`).
    """
    return merge_blocks(
        text,
        (
            block_edit(
                text, m.start(1), m.end(1), "page_footer", f"колонтитул страницы «{m.group(1)}»"
            )
            for m in FOOTER_RE.finditer(text)
        ),
    )


def page_marks(text: str, changes: Iterable[Change], offsets: OffsetArray) -> list[PageMark]:
    """The page marks the removed footers among ``changes`` leave in the cleaned ``text``.

    Args:
        text: The cleaned text.
        changes: Every change cleaning made; those of the ``page_footer`` step are read.
        offsets: The cleaned text's map to the source.

    Returns:
        One mark per footer, in the order of the cleaned text.
    """
    marks: list[PageMark] = []
    footers = [c for c in changes if c.step == "page_footer"]
    # the file's marks head their pages when the first one comes before any text
    heads = bool(footers) and not text[: bisect_left(offsets, footers[0].span[0])].strip()
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
                    opens=heads,
                )
            )
    return sorted(marks, key=lambda mark: mark.at)


def book_template(text: str, spans: Iterable[tuple[int, int]]) -> list[Edit]:
    """The lines a file's reader found to be the book's template (a PDF's running heads and
    the lines its margins repeat: :attr:`ingest.models.SourceText.template`), each removed
    as a block with :data:`TEMPLATE_REASON` (step ``running_header``, which :func:`clean`
    runs for them first, while the text is the reader's).

    >>> text = "Страница 3\\n\\nГлава 4\\n\\nТекст главы."
    >>> [(e.start, e.end, e.replacement) for e in book_template(text, [(12, 19)])]
    [(12, 21, '')]
    """
    return merge_blocks(text, [block_edit(text, a, b, "running_header", TEMPLATE_REASON)
                               for a, b in spans if 0 <= a < b <= len(text)])
