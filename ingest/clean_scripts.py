"""The cleaning step that writes a word typed in two alphabets in one.

A Russian typist switching keyboard layouts mid-word leaves Latin letters that look like
Cyrillic ones in a Russian word ("Эпохa" with a Latin "a") and Cyrillic ones in an English
word ("Сounteract" with a Cyrillic "С", "Мodels"). The word then matches no name and no
dictionary form: a heading's English name in brackets is no English name, a rule's name does
not match itself. The step rewrites such a word's look-alike letters in the alphabet of its
other letters, when those are all of one alphabet (a word glued to another, "файлаpdf",
holds letters of both that look like nothing of the other alphabet, and stays). Each letter
is replaced by one letter, so offsets do not move.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ingest.models import Edit

REASON = ("слово, набранное буквами двух алфавитов, записано одним "
          "(«Эпохa» с латинской «a» → «Эпоха», «Сounteract» с русской «С» → «Counteract»)")

# letters that look alike in the two alphabets: Cyrillic → Latin
_CYRILLIC_TO_LATIN = dict(zip("АВЕКМНОРСТХаеорсух", "ABEKMHOPCTXaeopcyx", strict=True))
_LATIN_TO_CYRILLIC = {latin: cyrillic for cyrillic, latin in _CYRILLIC_TO_LATIN.items()}
_CYRILLIC = re.compile(r"[А-Яа-яЁё]")
_LATIN = re.compile(r"[A-Za-z]")


def _word_char(c: str) -> bool:
    return c.isalnum() or c == "_"  # (what \w matches)


def _mixed_words(text: str) -> Iterator[tuple[int, str]]:
    """(start, word) of each word holding letters of both alphabets: the words around the Latin
    letters of the text (the scan looks for those at once; a Russian text holds few), those
    holding a Cyrillic letter too."""
    pos = 0
    while (m := _LATIN.search(text, pos)) is not None:
        start, end = m.start(), m.end()
        while start and _word_char(text[start - 1]):
            start -= 1
        while end < len(text) and _word_char(text[end]):
            end += 1
        word = text[start:end]
        if _CYRILLIC.search(word):
            yield start, word
        pos = end


def mixed_scripts(text: str) -> list[Edit]:
    """Rewrite each word typed in two alphabets in the alphabet of its letters that have no
    look-alike in the other.

    >>> [e.replacement for e in mixed_scripts("Противодействие (Сounteract)")]
    ['C']
    >>> [e.replacement for e in mixed_scripts("Эпохa Мб файлаpdf")]
    ['а']
    """
    edits: list[Edit] = []
    for at_word, word in _mixed_words(text):
        cyrillic_only = any(_CYRILLIC.match(c) and c not in _CYRILLIC_TO_LATIN for c in word)
        latin_only = any(_LATIN.match(c) and c not in _LATIN_TO_CYRILLIC for c in word)
        if cyrillic_only == latin_only:
            continue  # two words glued ("файлаpdf"), or look-alikes only (no telling which)
        table = _LATIN_TO_CYRILLIC if cyrillic_only else _CYRILLIC_TO_LATIN
        for k, c in enumerate(word):
            if c in table:
                at = at_word + k
                edits.append(Edit(at, at + 1, table[c], "mixed_scripts", REASON))
    return edits
