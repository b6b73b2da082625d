"""What a text's own words say it is: the game it is about, judged (:mod:`ingest.detect`) by
its words without what a website put around it, the first pages first; why, for the messages
and the explain view; and the book's title its first line names.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ingest.clean_edits import applied
from ingest.clean_furniture import site_furniture
from ingest.clean_html import page_text, title_and_text, unescaped, visible_text
from ingest.detect import Judgement
from ingest.detect import model as detect_model

DETECT_CHARS = 200_000
"""How much of a text the system is judged by at most: a rulebook names its system in its first
pages, and a long file is not read through for it."""
DETECT_FIRST = 20_000
"""The system is judged by this much of a text first, and by :data:`DETECT_CHARS` only when that
leaves it unclear, so a long file costs what its first pages cost."""


def detect_system(text: str) -> str | None:
    """The game system a text is about, judged by its own words, or ``None`` if unclear.

    The judgement is statistical (:mod:`ingest.detect`): the words of each game, learned from
    its pages, weigh for it, and the best game must lead the others and look more like a page
    of that game than of another game. The text's first 20,000 characters are judged first,
    its first 200,000 only when they leave the system unclear.

    >>> detect_system("Подразделение проходит тест на Панику, маг творит заклинание: "
    ...               "Книга Армий, Лидерство генерала.")
    'whfb8'
    >>> detect_system("The quick brown fox") is None
    True
    """
    return _stepwise(text, lambda judged: judged.system is not None).system


def detect_or_describe(text: str) -> tuple[str | None, str | None]:
    """:func:`detect_system`, and when the system stays unclear what the words say of it
    (:func:`describe_evidence`), from one judgement: the text's last step is judged as
    :func:`describe_evidence` judges it."""
    judged = _stepwise(text, lambda found: found.system is not None)
    return judged.system, (None if judged.system is not None else judged.describe())


def _stepwise(text: str, enough: Callable[[Judgement], bool]) -> Judgement:
    """The judgement of ``text`` by its first :data:`DETECT_FIRST` characters, or, when that
    is not ``enough`` and the text is longer, by its first :data:`DETECT_CHARS`. The letters'
    opinion (:mod:`ingest.detect_chars`) is asked in the last step only: a long text's words
    are read further first."""
    # (a web page by the text its reader sees, the names of games in its site's parts too)
    page, text = visible_text(text), page_text(text)
    for size in (DETECT_FIRST, DETECT_CHARS):
        last = len(text) <= size or size == DETECT_CHARS
        judged = detect_model().judge(detection_text(text[:size]), page[:size],
                                      by_letters=last)
        if last or enough(judged):
            break
    return judged


def detection_text(text: str) -> str:
    """``text`` as its game is judged by: without what a website put around it.

    A download banner ("Опубликованный материал нарушает ваши авторские права? Сообщите
    нам."), a pager or a forum's furniture says which site a page is on, not which game: the
    training leaves out the lines that stand in two of its pages for the same reason
    (:func:`ingest.detect_train.train`), so a page is judged by its own words too. The furniture is
    what the cleaning stage removes as ``site_furniture``.

    >>> detection_text("Скачать 44.49 Mb.\\nБоевая единица проходит проверку на боевой дух.")
    'Боевая единица проходит проверку на боевой дух.'
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "&" in text:  # (an HTML character reference is its character to the reader: "&nbsp;"
        # is a space, no word "nbsp")
        text = unescaped(text)
    return applied(text, site_furniture(text))


def describe_evidence(text: str) -> str:
    """What the words of a text say of its system, for a message that it stays unclear:
    "больше всего похоже на whfb8 (отрыв от следующей 1.2, нужно 3.0): whfb8 — «паника», …"."""
    page, text = visible_text(text), page_text(text)
    return detect_model().judge(detection_text(text[:DETECT_CHARS]), page[:DETECT_CHARS]).describe()


def detection_grounds(text: str, system: str) -> str:
    """Why ``text`` was judged of ``system``, for the explain view: the words of the game it
    holds (the most telling first), the names of the game and the words of its world, in
    Russian ("«подразделение», «паника», «тест на панику»; названия игры ×1")."""
    judged = _stepwise(text, lambda found: found.system == system)
    found = ", ".join(f"«{t}»" for t, _ in judged.evidence.get(system, [])[:5]) or "нет"
    parts = [f"слова игры: {found}"]
    if judged.letters == system:
        parts.append(f"слова не решают (отрыв {judged.margin:.1f}), решают буквосочетания "
                     "слов")
    elif system == judged.best:
        parts.append(f"отрыв от следующей игры {judged.margin:.1f}")
    if judged.names.get(system):
        parts.append(f"названия игры ×{judged.names[system]}")
    return "; ".join(parts)


TITLE_CHARS = 600
"""How much of a text's start is read for its own title: a book names itself on its cover."""

# A rulebook copied from a PDF or a web page names itself in its first line: a phrase that
# names an edition ("6th edition", "8-я редакция") and a kind of book ("Книга правил",
# "Rulebook", "Кодекс"), its parts often joined by dashes: «Warhammer 40k - 6th edition -
# Книга правил 1.0».
_SENTENCE_END = re.compile(r"(?<!\d)[.!?;|](?!\d)|\.(?=\s|$)|\s[:|]\s")
_EDITION_RE = re.compile(
    r"(?i)\b(?:\d+(?:st|nd|rd|th)\s+(?:edition|ed\b)|edition\s+\d+"
    r"|\d+\s*-?\s*(?:я|ая|ой)\s+(?:редакци|издани)\w*|(?:редакци|издани)\w*\s+\d+)"
)
_BOOK_RE = re.compile(
    r"(?i)(?<!\w)(?:книг\w* правил|свод правил|основные правила|кодекс|rule\s*book|codex"
    r"|core\s+(?:rules|book|manual))(?!\w)"
)
_DASHES = re.compile(r"\s+[-–—]\s+")
_TRAILING_VERSION = re.compile(r"\s+(?:v\.?\s*)?\d+(?:\.\d+)*\s*$", re.IGNORECASE)
_MAX_TITLE = 120


def detect_title(text: str) -> str | None:
    """The book a text says it is, from its first lines, or ``None`` when it does not say.

    The title is the first phrase (up to a sentence's end) of the text's first lines that
    names both an edition and a kind of book; a version number at its end is dropped and
    parts joined by dashes are joined by commas.

    >>> detect_title("Warhammer 40k - 6th edition - Книга правил 1.0. Во мраке")
    'Warhammer 40k, 6th edition, Книга правил'
    >>> detect_title("Отработка таранных попаданий. Если колесница нападет") is None
    True
    """
    text = title_and_text(text)  # (a web page: its title, then its text, not its markup)
    for line in text[:TITLE_CHARS].splitlines():
        for phrase in _SENTENCE_END.split(line):
            phrase = " ".join(phrase.split())
            if len(phrase) > _MAX_TITLE or not _EDITION_RE.search(phrase):
                continue
            if not _BOOK_RE.search(phrase):
                continue
            parts = [p.strip(" ,") for p in _DASHES.split(phrase)]
            parts[-1] = _TRAILING_VERSION.sub("", parts[-1])
            parts = [p for p in parts if p]
            if parts:
                return ", ".join(parts)
    return None
