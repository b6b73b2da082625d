"""The terms a text's game is judged by (:mod:`ingest.detect`): its words' lemmas
(``kb.lemmas``), crude stems of its Latin words, and pairs of adjacent terms."""

from __future__ import annotations

import re
from functools import lru_cache

from kb.lemmas import WORD_RE, fold, lemma, pos

# Segments: no pair of terms spans a comma, a sentence's end, a bracket, a quote or a line break.
_SEGMENT_RE = re.compile(r"[.,!?;:()\[\]«»\"“”„\n|•]+")
_LATIN_RE = re.compile(r"[a-z]")
_CYRILLIC_RE = re.compile(r"[а-яё]")
_ENGLISH_ENDINGS = ("ing", "ed", "es", "s", "e")
# Parts of speech that say nothing of a game (prepositions, conjunctions, particles, pronouns):
# no term, and they break a pair ("равный или", "при это" are no terms).
_FUNCTION_POS = frozenset({"PREP", "CONJ", "PRCL", "NPRO", "INTJ"})
_DICE_RE = re.compile(r"\d*[dд]\d+")
# English function words, as the Russian ones by their part of speech: no term, and they break
# a pair (a bilingual page's "the", "of", "is" say nothing of its game)
_ENGLISH_FUNCTION = frozenset("""a an the of to in on at by for with from as into onto than
and or but nor if so not no yes is are was were be been being it its this that these those
he she they them his her their we you your i me my our can may must will shall would should
could do does did has have had all any each every some such which who whom what when where
there here then also only""".split())


def terms(text: str) -> set[str]:
    """The terms of ``text``: its words' lemmas and Latin stems, and adjacent pairs of them.

    A number is a term only after a Latin word, in a pair ("warhammer 40"): a game's name.

    >>> sorted(terms("Боевые единицы"))
    ['боевой', 'боевой единица', 'единица']
    >>> sorted(terms("нападение (charge)"))
    ['charg', 'нападение']
    >>> sorted(terms("Warhammer 40,000"))
    ['warhammer', 'warhammer 40']
    """
    out: set[str] = set()
    for segment in _SEGMENT_RE.split(text):
        previous: str | None = None
        for word in WORD_RE.findall(segment):
            if word.isdigit():
                if previous is not None and _LATIN_RE.match(previous):
                    out.add(f"{previous} {word}")
                previous = None
                continue
            term = _term(word)
            if term is None:
                previous = None
                continue
            out.add(term)
            if previous is not None:
                out.add(f"{previous} {term}")
            previous = term
    return out


@lru_cache(maxsize=200_000)
def _term(word: str) -> str | None:
    low = fold(word)
    if _CYRILLIC_RE.search(low):
        if len(low) < 2 or pos(low) in _FUNCTION_POS:
            return None
        return lemma(word)
    if not _LATIN_RE.search(low) or len(low) < 2 or low in _ENGLISH_FUNCTION:
        return None  # one letter, or a function word
    if _DICE_RE.fullmatch(low):
        return "#d#"
    for ending in _ENGLISH_ENDINGS:  # a crude English stem: charge, charges, charging
        if low.endswith(ending) and len(low) - len(ending) >= 4:
            return low[: -len(ending)]
    return low
