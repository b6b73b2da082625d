"""The names of games a text holds (:mod:`ingest.detect` weighs them beside the text's words):
ours ("Warhammer 40,000", "Kill Team", "Warhammer Fantasy"), their other editions, and other
games (Games Workshop's, whose pages name Warhammer too, and others); "Warhammer" alone names
the fantasy battle game in a text that names no game in full. A title that is a game's name and
nothing more ("Warhammer 40 000 Kill Team") names the game, no rule.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

from kb.models import SYSTEM_TITLES

OTHER = "other"
"""The class of pages of other games (and of no game)."""
SYSTEMS: tuple[str, ...] = tuple(SYSTEM_TITLES)
"""Our games, in their order."""

GAME_NAMES: dict[str, re.Pattern[str]] = {
    "killteam2018": re.compile(r"kill[\s-]*team|килл?[\s-]*тим\w*|истребительн\w* команд\w*"),
    # (not the role-playing games named after it: "Warhammer 40000 Roleplay", "Вархаммер 40к
    # РПГ", as "Warhammer Fantasy Roleplay" is not the fantasy battle game)
    "wh40k6": re.compile(r"(?:warhammer[\s_]*40|\bw?h?40\s*[kк]\b|вархаммер\w*\s*40)"
                         r"(?![\s,.:_0kк]*(?:role|rpg|рпг|ролев))"),
    "whfb8": re.compile(r"warhammer\s+fantasy(?!\s+role)|\bw?hfb\b|\bwfb\b|вархаммер\w*\s+фэнтези"
                        r"|фэнтези\s+батл|fantasy\s+battles?|warhammer\s+fb\b|\bвфб\b"),
    OTHER: re.compile(
        r"age\s+of\s+sigmar|эпох\w*\s+сигмара|\baos\b|necromunda|некромунд|blood\s*bowl"
        r"|кровав\w* футбол|mordheim|мордхейм|roleplay|ролев\w+ игр|\bрпг\b|\bwfrp|dark\s+heresy"
        r"|т[её]мн\w+ ерес|rogue\s+trader|deathwatch|warcry|underworlds|the\s+old\s+world"
        r"|battlefleet|titanicus|horus\s+heresy|frostgrave|\bd&d\b|dungeons|9th\s+age"
        r"|девят\w+ эпох|ninth\s+age(?::\s*fantasy\s+battles?)?|\bt9a\b|warmachine|bolt\s+action"),
}
"""Each class's names of games, in lower case (matched in the lower-cased text): ours (and
their other editions), and other games, Games Workshop's (whose pages name Warhammer too) and
others."""
BARE_NAME = re.compile(
    r"(?<![\w])(?:warhammer|вархаммер\w*+)(?![\s_:.-]*(?:40|4о|fantasy|фэнтези|age|эпох|quest"
    r"|underworlds|kill|килл|community|online|total|world|ворлд|vermintide|the\s+old"
    r"|old\s+world|chaos\s+gate|mechanicus|space|спейс|\d|[a-z]*\.(?:ru|com)))")
""""Warhammer" alone ("в игре Warhammer", "армии Вархаммера"): the fantasy battle game's own
name before Age of Sigmar, counted for it only in a text that names no game in full — beside
"Age of Sigmar" or "Warhammer 40,000" it is the brand of them all."""

def game_names(text: str) -> dict[str, int]:
    """How often ``text`` names the games of each class (:data:`GAME_NAMES`).

    >>> game_names("Kill Team — скирмиш по Warhammer 40,000. Правила Kill Team")
    {'wh40k6': 1, 'whfb8': 0, 'killteam2018': 2, 'other': 0}
    """
    low = text.lower()  # the patterns are in lower case: faster than re.IGNORECASE
    others = [m.span() for m in GAME_NAMES[OTHER].finditer(low)]
    starts = [a for a, _ in others]

    def inside_other(at: int) -> bool:
        k = bisect_right(starts, at) - 1
        return k >= 0 and at < others[k][1]

    # a name of ours inside another game's name is none ("The Ninth Age: Fantasy Battles")
    named = {c: sum(1 for m in GAME_NAMES[c].finditer(low) if not inside_other(m.start()))
             for c in SYSTEMS}
    named = {**named, OTHER: len(others)}
    if not any(named.values()):
        named["whfb8"] = len(BARE_NAME.findall(low))
    return named

_GAME_TITLE_FILLER = re.compile(r"[\W\d_]|\b(?:the|battles?|edition|редакци\w*|издани\w*)\b")


@lru_cache(maxsize=4_096)
def names_a_game(title: str) -> bool:
    """Whether a title is a game's name and nothing more ("Kill Team", "Warhammer 40 000 Kill
    Team", "Warhammer Fantasy Battles", "Истребительная команда"): a section so titled is
    about the game, and a mention of the game is no reference to it.

    >>> names_a_game("Warhammer 40 000 Kill Team"), names_a_game("Kill Team кампании")
    (True, False)
    """
    low = title.lower()
    if not any(p.search(low) for p in GAME_NAMES.values()) and not BARE_NAME.search(low):
        return False
    for pattern in (*GAME_NAMES.values(), BARE_NAME):
        low = pattern.sub(" ", low)
    return not _GAME_TITLE_FILLER.sub("", low).strip()

def named_game(names: dict[str, int]) -> str | None:
    """The game of ours a text names, from :func:`game_names`, or ``None``.

    It must be named more often than each other game of ours (Kill Team wins a tie with
    40k: a Kill Team page names the game it is a skirmish of) and than all other games.

    >>> named_game({"wh40k6": 1, "whfb8": 0, "killteam2018": 1, "other": 0})
    'killteam2018'
    >>> named_game({"wh40k6": 2, "whfb8": 0, "killteam2018": 0, "other": 2}) is None
    True
    """
    ours = sorted((c for c in SYSTEMS if names[c]),
                  key=lambda c: (-names[c], c != "killteam2018", SYSTEMS.index(c)))
    if not ours:
        return None
    top = ours[0]
    if (len(ours) > 1 and names[ours[1]] == names[top]
            and {top, ours[1]} != {"killteam2018", "wh40k6"}):
        return None
    return top if names[OTHER] < names[top] else None


_PATH_WORD = re.compile(r"[^\W_]+")
"""A word of a file's path: letters and digits between separators ("kill_team-2018" → "kill",
"team", "2018")."""
_CAMEL = re.compile(r"(?<=[a-zа-яё])(?=[A-ZА-ЯЁ])")
"""Where a name written in camel case starts a word ("KillTeamRules" → "Kill Team Rules")."""
_EDITION = r"(?:(?P<edition>\d{1,4})(?:st|nd|rd|th|ed|e|я)?)?"
PATH_SHORT_NAMES: dict[str, re.Pattern[str]] = {
    "killteam2018": re.compile(r"(?:kt|killteam|килл?тим)" + _EDITION),
    "wh40k6": re.compile(r"(?:(?:warhammer|вархаммер|wh?)?40[kк]|(?:warhammer|вархаммер|wh?)40000)"
                         + _EDITION),  # (a number alone, "40000", names nothing)
    "whfb8": re.compile(r"(?:w?hfb|wfb|вфб)" + _EDITION),
}
"""The players' short names of our games that a file's or a folder's name is written with,
whole words of it, an edition after it ("kt_charge", "KT2018", "wh40k7", "40k", "whfb6th"):
in a path of rule texts "KT" is Kill Team, as it is in their forums' titles; in running text
it is not looked for."""
OUR_EDITIONS: dict[str, frozenset[int]] = {
    "wh40k6": frozenset(range(1, 8)),
    "whfb8": frozenset(range(1, 9)),
    "killteam2018": frozenset({1, 18, 2018}),
}
"""The editions a path may name for each game of ours: 40k's up to the 7th (the 6th's
revision; the older ones' pages are read as 40k's too) and not the 8th on, whose rules are
another game's; every WHFB edition; Kill Team's of 2018 (its first), not those of 2021 and
2024. A path naming another edition ("w40k10/", "kt2021", "40k 9th") names no game of ours:
its rules would be another edition's in the KB."""
_ORDINAL = re.compile(r"(\d{1,2})(?:st|nd|rd|th|ed|e|я|ая|й|ой|ый|ий|е|ья)")
"""A word of a path that names an edition by its number ("6th", "8ed", "10e", "9я", "10й")."""
_ORDINAL_STEMS: dict[str, int] = {
    "перв": 1, "втор": 2, "трет": 3, "четверт": 4, "четвёрт": 4, "пят": 5, "шест": 6,
    "седьм": 7, "восьм": 8, "девят": 9, "десят": 10, "одиннадцат": 11,
}
"""The Russian ordinal words an edition is named by, by their stems ("шестая редакция")."""
_ORDINAL_WORDS: dict[str, int] = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11,
}
"""The English ones, whole ("Ninth Edition")."""
_EDITION_PHRASE = re.compile(
    r"(?<!\S)(?:(?P<number>\d{1,2})(?: (?:st|nd|rd|th|я|й|е|ая|ой|ья|ый|ий))?"
    rf"|(?P<word>{'|'.join(_ORDINAL_WORDS)}|(?:{'|'.join(_ORDINAL_STEMS)})[а-яё]*))"
    r" (?:ed|edition|ред|редакц[а-яё]*|издани[а-яё]*|изд)(?!\S)")
"""An edition named in words of a path ("9-я редакция", "10 редакция", "8 ed", "шестая
редакция", "Ninth Edition"), the path's words joined by single spaces."""
_YEAR = re.compile(r"(?:19|20)\d\d")
"""A year alone in a path: Kill Team's editions are named by theirs ("Kill Team 2021")."""
_KILL_TEAM_YEAR = re.compile(r" ?(\d{1,4})(?!\d)")
"""An edition's number or year written after Kill Team's name ("KillTeam2024Calculator")."""


def _path_reading(path: str) -> tuple[dict[str, int], dict[str, set[int]]]:
    """The names of games a path holds (:func:`path_names`), and the editions it names: per
    game, the number after its short name ("wh40k7"), for every game an ordinal alone
    ("6th edition"), for Kill Team a year alone."""
    named = dict.fromkeys((*SYSTEMS, OTHER), 0)
    editions: dict[str, set[int]] = {c: set() for c in SYSTEMS}
    rest = []
    for word in _PATH_WORD.findall(_CAMEL.sub(" ", path).lower()):
        short = [(c, m) for c, p in PATH_SHORT_NAMES.items() if (m := p.fullmatch(word))]
        for c, m in short:
            named[c] += 1
            if m.group("edition"):
                editions[c].add(int(m.group("edition")))
        if short:
            continue
        rest.append(word)
        if (ordinal := _ORDINAL.fullmatch(word)) is not None:
            for c in SYSTEMS:
                editions[c].add(int(ordinal.group(1)))
        elif _YEAR.fullmatch(word):
            editions["killteam2018"].add(int(word))
    joined = " ".join(rest)
    for m in _EDITION_PHRASE.finditer(joined):
        number = m.group("number")
        word = m.group("word")
        edition = int(number) if number else _ORDINAL_WORDS.get(word) or next(
            n for stem, n in _ORDINAL_STEMS.items() if word.startswith(stem))
        for c in SYSTEMS:
            editions[c].add(edition)
    for c, pattern in GAME_NAMES.items():
        for m in pattern.finditer(joined):
            if m.start() and joined[m.start() - 1] != " ":
                continue  # (a name that starts a word: not "SorekillTeams")
            named[c] += 1
            if c == "killteam2018" and (year := _KILL_TEAM_YEAR.match(joined, m.end())):
                editions[c].add(int(year.group(1)))  # "KillTeam2024", "Kill Team 2"
    return named, editions


def path_names(path: str) -> dict[str, int]:
    """How often a file's path (the folder a user gave and what is below it) names the games
    of each class: a game's name in full (:data:`GAME_NAMES`) or its short name as a word of
    the path (:data:`PATH_SHORT_NAMES`); "Warhammer" alone, a brand, names none.

    >>> path_names("Kill Team/2018/charge.txt")["killteam2018"]
    1
    >>> path_names("правила/wh40k7_moral.txt")
    {'wh40k6': 1, 'whfb8': 0, 'killteam2018': 0, 'other': 0}
    >>> path_names("warhammer/age_of_sigmar.txt")
    {'wh40k6': 0, 'whfb8': 0, 'killteam2018': 0, 'other': 1}
    """
    return _path_reading(path)[0]


def path_game(path: str) -> str | None:
    """The game of ours a file's path names (:func:`path_names`, :func:`named_game`), or
    ``None``.

    A path that names another edition of it names none (:data:`OUR_EDITIONS`).

    >>> path_game("killteam/40k_charge.txt"), path_game("whfb/necromunda.txt")
    ('killteam2018', None)
    >>> path_game("wh40k7/moral.txt"), path_game("w40k10/moral.txt")
    ('wh40k6', None)
    """
    game, others = _path_judgement(path)
    return None if others else game  # (another edition's rules: none)


def path_other_edition(path: str) -> tuple[str, int] | None:
    """The game of ours a path names and the edition it names of it that is not ours
    (:data:`OUR_EDITIONS`), for the message of a file left unclear; else ``None``.

    >>> path_other_edition("w40k10/moral.txt"), path_other_edition("wh40k7/moral.txt")
    (('wh40k6', 10), None)
    """
    game, others = _path_judgement(path)
    return (game, min(others)) if game is not None and others else None


def _path_judgement(path: str) -> tuple[str | None, set[int]]:
    """The game of ours a path names (:func:`named_game`) and the editions it names of it
    that are not ours."""
    named, editions = _path_reading(path)
    game = named_game(named)
    return game, (editions[game] - OUR_EDITIONS[game]) if game is not None else set()
