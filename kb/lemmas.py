"""Russian lemma keys: how a name in any inflected form, case or spelling is looked up.

ё is kept in every text the KB stores and folded to е only here, in lookup keys.
"""

from __future__ import annotations

import re
from functools import lru_cache

import pymorphy3

WORD_RE = re.compile(r"[0-9A-Za-zА-Яа-яЁё]+(?:[-'][0-9A-Za-zА-Яа-яЁё]+)*")

_morph: pymorphy3.MorphAnalyzer | None = None


def morph() -> pymorphy3.MorphAnalyzer:
    """The shared pymorphy3 analyser (loading the dictionary takes ~50 ms, once)."""
    global _morph
    if _morph is None:
        _morph = pymorphy3.MorphAnalyzer()
    return _morph


def fold(text: str) -> str:
    """Lower-case and fold ё to е: the form every lookup key is built from.

    >>> fold("Тёмные ЭЛЬДАРЫ")
    'темные эльдары'
    """
    return text.lower().replace("ё", "е")


def words(text: str) -> list[str]:
    """The words of ``text`` (hyphenated words and ``3D6`` stay whole)."""
    return WORD_RE.findall(text)


@lru_cache(maxsize=200_000)
def lemma(word: str) -> str:
    """The dictionary form of one word, folded (``"Регенерацию"`` → ``"регенерация"``).

    Latin words and numbers are only folded. A hyphenated word is lemmatised as a whole
    when the dictionary knows it, else on its last part ("турбо-ускорении" → "турбо-ускорение").
    """
    low = fold(word)
    if not re.search("[а-я]", low):
        return low
    m = morph()
    if "-" in low and not m.word_is_known(low):
        head, _, tail = low.rpartition("-")
        return f"{head}-{lemma(tail)}"
    parses = m.parse(low)
    best = parses[0]
    # "молот" is first read as the participle "молотый"; a rule name wants the noun
    if best.tag.POS != "NOUN":
        noun = next((p for p in parses if p.tag.POS == "NOUN" and p.score >= 0.1), None)
        if noun is not None and noun.normal_form == low:
            best = noun
    return fold(best.normal_form)


def lemma_words(text: str) -> list[str]:
    """Lemmas of every word of ``text``, in order."""
    return [lemma(w) for w in words(text)]


def lemma_key(text: str) -> str:
    """The lookup key of a name: its lemmas joined by spaces.

    Two names that differ only in case, inflection or ё/е share a key:

    >>> lemma_key("Смертельного Удара") == lemma_key("Смертельный удар")
    True
    """
    return " ".join(lemma_words(text))


@lru_cache(maxsize=200_000)
def pos(word: str) -> str | None:
    """The part of speech pymorphy3 gives first for ``word`` (``"VERB"``, ``"NOUN"`` …)."""
    tag = morph().parse(fold(word))[0].tag
    return str(tag.POS) if tag.POS else None


@lru_cache(maxsize=200_000)
def all_pos(word: str) -> frozenset[str]:
    """Every part of speech ``word`` may be."""
    return frozenset(str(p.tag.POS) for p in morph().parse(fold(word)) if p.tag.POS)


@lru_cache(maxsize=200_000)
def is_known(word: str) -> bool:
    """Whether the Russian dictionary knows ``word`` (not merely guesses a form of it)."""
    return bool(morph().word_is_known(fold(word)))
