"""Russian lemma keys: how a name in any inflected form, case or spelling is looked up.

ё is kept in every text the KB stores and folded to е only here, in lookup keys.

The dictionary (pymorphy3) is imported and loaded on first use only (~60 ms). What the
functions that ask it computed is kept in :class:`Memo` tables, which a caller may save and
give to a later process (:func:`memo_state`, :func:`load_memo`): a lookup in a fresh process
then answers without loading the dictionary when its words were seen before.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache, update_wrapper
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    import pymorphy3

WORD_RE = re.compile(r"[0-9A-Za-zА-Яа-яЁё]+(?:[-'][0-9A-Za-zА-Яа-яЁё]+)*")

MEMO_LIMIT = 200_000
"""Entries a :class:`Memo` holds at most (it starts afresh when full)."""

_morph: pymorphy3.MorphAnalyzer | None = None

T = TypeVar("T")


def morph() -> pymorphy3.MorphAnalyzer:
    """The shared pymorphy3 analyser (importing it and loading the dictionary take ~60 ms,
    once per process)."""
    global _morph
    if _morph is None:
        import pymorphy3

        analyzer = pymorphy3.MorphAnalyzer()
        # a word's parses, kept: the lemma, the part of speech, a name's form and the tests
        # of headings and names each ask for them, most of them for the same word at once
        parse = analyzer.parse
        analyzer.parse = lru_cache(maxsize=PARSES_KEPT)(lambda word: tuple(parse(word)))
        _morph = analyzer
    return _morph


PARSES_KEPT = 16_384
"""How many words' parses :func:`morph`'s analyser keeps (the last asked for)."""


def morph_loaded() -> bool:
    """Whether this process has loaded the dictionary."""
    return _morph is not None


class Memo(Generic[T]):
    """The results of a one-argument function of words, by argument.

    Like :func:`functools.lru_cache`, but its table can be saved and loaded: the results
    are the function's, for the same dictionary and code, so a table from an earlier
    process answers exactly as the function would. :meth:`wrap` gives the memoised
    function (a closure over the table: a hit costs what an ``lru_cache`` hit does).
    """

    def __init__(self, function: Callable[[str], T], name: str,
                 decode: Callable[[Any], T] | None = None) -> None:
        self.function = function
        self.name = name
        self.decode = decode
        self.table: dict[str, T] = {}
        self.grown = False
        MEMOS[name] = self
        if name in _SAVED:  # loaded before the module defining this memo was imported
            self.load(_SAVED.pop(name))

    def wrap(self) -> Callable[[str], T]:
        """The memoised function."""
        table, function, memo = self.table, self.function, self

        def call(word: str) -> T:
            try:
                return table[word]
            except KeyError:
                pass
            value = function(word)
            if len(table) >= MEMO_LIMIT:
                table.clear()
            table[word] = value
            memo.grown = True
            return value

        update_wrapper(call, function)
        return call

    def load(self, saved: dict[str, Any]) -> None:
        """Take results saved earlier (those computed here win)."""
        decode, table = self.decode, self.table
        for word, value in saved.items():
            if len(table) >= MEMO_LIMIT:
                break
            if isinstance(word, str) and word not in table:
                table[word] = decode(value) if decode is not None else value


MEMOS: dict[str, Memo[Any]] = {}
"""Every :class:`Memo` by name (``lemma``, ``word_terms`` of :mod:`kb.search`)."""

_SAVED: dict[str, dict[str, Any]] = {}
# tables loaded for memos whose module is not imported (yet): given to them when it is


def memo_state() -> dict[str, dict[str, Any]]:
    """Every memo's table (and those loaded for memos not imported), for saving as JSON."""
    state = {name: dict(table) for name, table in _SAVED.items()}
    state.update((name, dict(memo.table)) for name, memo in MEMOS.items())
    return dict(sorted(state.items()))


def load_memo(state: dict[str, Any]) -> None:
    """Give the memos the tables :func:`memo_state` saved."""
    for name, table in state.items():
        if not isinstance(table, dict):
            continue
        memo = MEMOS.get(name)
        if memo is not None:
            memo.load(table)
        else:
            _SAVED[name] = table


def memo_grown() -> bool:
    """Whether any memo learnt something since the process started."""
    return any(memo.grown for memo in MEMOS.values())


def fold(text: str) -> str:
    """Lower-case and fold ё to е: the form every lookup key is built from.

    >>> fold("Тёмные ЭЛЬДАРЫ")
    'темные эльдары'
    """
    return text.lower().replace("ё", "е")


def words(text: str) -> list[str]:
    """The words of ``text`` (hyphenated words and ``3D6`` stay whole)."""
    return WORD_RE.findall(text)


def _lemma(word: str) -> str:
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


lemma = Memo(_lemma, "lemma", decode=str).wrap()

_PARTICIPLES = frozenset({"PRTF", "PRTS"})


def _name_lemma(word: str) -> str:
    """A word's form in a name: its lemma, but a participle keeps its own word.

    The dictionary's form of a participle is its verb's infinitive ("контузящее" and
    "контужен" are both "контузить"), so a rule titled «Контузящее» would be named by any form
    of the verb ("экипаж контужен"). In a name a participle is its own word, masculine,
    nominative, singular, its tense and voice kept: "Контузящее" → "контузящий", "контужен" →
    "контуженный", "летающих" → "летающий". (Search keeps :func:`lemma`: a query "отступать"
    finds "отступающие".)
    """
    low = fold(word)
    if not re.search("[а-я]", low) or "-" in low:
        return lemma(word)
    parses = morph().parse(low)
    best = parses[0]
    if best.tag.POS not in _PARTICIPLES or lemma(word) != fold(best.normal_form):
        return lemma(word)  # not a participle (or read as another word first)
    tag = best.tag
    form = best.inflect({"PRTF", "sing", "masc", "nomn"} | {g for g in (tag.tense, tag.voice) if g})
    return fold(form.word) if form is not None else lemma(word)


_NAME_LEMMAS = Memo(_name_lemma, "name_lemma", decode=str)
name_lemma = _NAME_LEMMAS.wrap()


def lemma_words(text: str) -> list[str]:
    """Lemmas of every word of ``text``, in order (:func:`lemma`: what search indexes)."""
    return [lemma(w) for w in words(text)]


def name_words(text: str) -> list[str]:
    """The form in a name of every word of ``text``, in order (:func:`name_lemma`)."""
    known = _NAME_LEMMAS.table.get  # (a word met before costs a lookup, not a call)
    return [known(w) or name_lemma(w) for w in WORD_RE.findall(text)]


def name_tokens(text: str) -> list[tuple[str, int, int]]:
    """(form in a name, start, end) of every word of ``text`` (:func:`name_lemma`).

    >>> name_tokens("Смертельного удара!")
    [('смертельный', 0, 12), ('удар', 13, 18)]
    """
    known = _NAME_LEMMAS.table.get
    find = text.find
    out = []
    end = 0
    for word in WORD_RE.findall(text):
        # (the first place of the word after the last: no letter or digit stands between, or
        # the pattern would have found a word there)
        start = find(word, end)
        end = start + len(word)
        out.append((known(word) or name_lemma(word), start, end))
    return out


@lru_cache(maxsize=200_000)
def lemma_key(text: str) -> str:
    """The lookup key of a name: its words' forms in a name (:func:`name_lemma`), joined by
    spaces.

    Two names that differ only in case, inflection or ё/е share a key; a participle and
    another form of its verb do not:

    >>> lemma_key("Смертельного Удара") == lemma_key("Смертельный удар")
    True
    >>> lemma_key("Контузящее") == lemma_key("контужен")
    False
    """
    return " ".join(name_words(text))


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
