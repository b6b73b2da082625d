"""The worlds the games are set in, as the words of a text show them (:mod:`ingest.detect`).

The table ``ingest/data/settings.tsv`` holds the words of each *kind*: ``future`` (the far
future of Warhammer 40,000 and Kill Team: космодесантники, болтеры, техника, псайкеры),
``fantasy`` (the world of Warhammer Fantasy Battle: гномы, скавены, Бретонния, арбалеты),
``realms`` (Age of Sigmar's Mortal Realms, another game's world) and ``roleplay`` (the words of
a role-playing game's rules: a game master, player characters, careers). A word marked ``!``
is the world's own (a coinage or a proper name of Games Workshop's world); the others are any
fantasy or science-fiction world's. Words the worlds share (орки, Хаос, демоны) are in none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ingest.detect_terms import terms
from kb.lemmas import fold

SETTINGS_TABLE = "data/settings.tsv"
WORLDS: dict[str, tuple[str, ...]] = {"future": ("wh40k6", "killteam2018"),
                                      "fantasy": ("whfb8",)}
"""The settings of the games of ours: the far future (40k, and Kill Team, a skirmish of it) and
WHFB's fantasy world; the first game of each is the one a page of the world is of when its
rules words do not say (a Kill Team page names Kill Team). The table's other kinds
(``realms``, ``roleplay``) are other games'."""
SETTING_MIN = 2
"""Distinct words of a world a text must hold for its setting to be clear."""
SETTING_LEAN = 1
"""Distinct words of a world that break a close call between games of the two worlds (rules
words that lead by less than ``ingest.detect.MARGIN``)."""
SETTING_RATIO = 2
"""A clear setting holds more than this many times as many words of its world as of the
other's."""
ROLEPLAY_MIN = 2
"""Distinct words of a role-playing game's rules that make a text one of a role-playing game."""


@dataclass(frozen=True)
class SettingWords:
    """The words of the settings table, as :func:`setting_words` matches them.

    Attributes:
        exact: a lemma or a pair of lemmas → its kind (``future!``: the world's own word).
        stems: kind → the stems of its words, matched at a lemma's start.
    """

    exact: dict[str, str]
    stems: dict[str, re.Pattern[str]]


@cache
def settings() -> SettingWords:
    """The words of each kind of ``ingest/data/settings.tsv``, as :func:`setting_words`
    matches them: a word's or a pair's lemmas (:func:`terms`), or a stem."""
    text = resources.files("ingest").joinpath(SETTINGS_TABLE).read_text(encoding="utf-8")
    return parse_settings(text)


def parse_settings(text: str) -> SettingWords:
    """Read the settings table (``kind<TAB>word<TAB>what`` a line, ``#`` comments).

    Raises:
        ValueError: A line has no kind and word, or a word gives no term.
    """
    exact: dict[str, str] = {}
    stems: dict[str, list[str]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        kind, word, *_ = [*line.split("\t"), ""]
        if not kind or not word:
            raise ValueError(f"line {number}: expected kind, word and what: {line!r}")
        if word.startswith("!"):
            kind, word = f"{kind}!", word[1:]
        if word.endswith("*"):
            stems.setdefault(kind, []).append(re.escape(fold(word[:-1])))
            continue
        found = terms(word)
        if not found:
            raise ValueError(f"line {number}: {word!r} gives no term")
        exact[max(found, key=len)] = kind  # a pair's term is longer than either word's
    return SettingWords(exact, {k: re.compile("|".join(sorted(v, key=len, reverse=True)))
                             for k, v in stems.items()})


SETTING_KINDS: tuple[str, ...] = ("future", "fantasy", "realms", "roleplay")
_OWN = ("future!", "fantasy!")
KIND_TITLES = {"future": "далёкое будущее", "fantasy": "фэнтези Warhammer",
                "realms": "Владения Смертных", "roleplay": "правила ролевой игры"}


def setting_words(found: Iterable[str]) -> dict[str, int]:
    """Per kind of :func:`settings`, how many distinct words of it the terms ``found`` hold;
    ``future!`` and ``fantasy!``: how many of them are the world's own.

    >>> setting_words(terms("Космодесантники с болтерами высадились из транспорта"))
    {'future': 3, 'fantasy': 0, 'realms': 0, 'roleplay': 0, 'future!': 2, 'fantasy!': 0}
    >>> setting_words(terms("Скавены и скавенские крысы против гномов"))["fantasy"]
    2
    """
    table = settings()
    hits: dict[str, set[str]] = {k: set() for k in (*SETTING_KINDS, *_OWN)}
    for term in found:
        kind = table.exact.get(term)
        if kind is not None:
            hits[kind].add(term)
        elif " " not in term:
            for kind, stems in table.stems.items():
                if (match := stems.match(term)) is not None:
                    hits[kind].add(match.group())
    counts = {k: len(hits[k]) for k in SETTING_KINDS}
    for own in _OWN:  # the world's own words count among its words too
        counts[own.rstrip("!")] += len(hits[own])
    return counts | {k: len(hits[k]) for k in _OWN}


def clear_world(setting: dict[str, int], least: int = SETTING_MIN) -> str | None:
    """The world of :data:`WORLDS` a text's setting words (:func:`setting_words`) clearly
    belong to: ``least`` distinct words of it, more than :data:`SETTING_RATIO` times as many
    as of the other world.

    >>> clear_world({"future": 3, "fantasy": 1, "realms": 0, "roleplay": 0})
    'future'
    >>> clear_world({"future": 2, "fantasy": 1, "realms": 0, "roleplay": 0}) is None
    True
    """
    for world, other in (("future", "fantasy"), ("fantasy", "future")):
        if setting[world] >= least and setting[world] > SETTING_RATIO * setting[other]:
            return world
    return None
