"""Names as lists and rosters write them: the rule or type, its parameter, and notes.

BattleScribe and players write more than a name: "Regeneration (5+)", "Impact Hits (D6+1)
(FAQ'ed)", "Hatred (High Elves) (Crew only)", "Psyker (Mastery Level 1)", "Infantry
(Character", "Scaly Skin 3+", "Многочисленные выстрелы Х 2", "Chaplain Cassius [Legends]".
:func:`parse_name` splits every such name by one pattern: trailing bracketed groups (an
unclosed last one too) and a trailing value come off the name; a group shaped like a value
(a roll "5+", a number, dice "D6+1", a range "1-3", "Х 2", the placeholder "*") is the
parameter, any other group is text — the parameter of a rule whose text takes words
(«Мудрец (школа Огня)») or else a note ("FAQ'ed", "Crew only"), which is kept and shown but
never taken for part of the name or for a parameter.

Example::

    parse_name("Impact Hits (D6+1) (FAQ'ed)")
    # WrittenName(base='Impact Hits', parameter='D6+1', texts=("FAQ'ed",))
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_GROUP = re.compile(r"^(?P<base>.*?)\s*(?:\((?P<round>[^()]*)\)|\[(?P<square>[^\[\]]*)\])$")
_UNCLOSED = re.compile(r"^(?P<base>.*?\S)\s*\((?P<text>[^()]*)$")
# a value after the name without brackets: "Scaly Skin 3+", "Многочисленные выстрелы Х 2"
_TRAILING_VALUE = re.compile(
    r"^(?P<base>.*?[^\s\d])\s+(?P<value>[XxХх×]\s*\S+|\d*\s*[DdДд]\s*\d+(?:\s*[+\-–]\s*\d+)?"
    r"|\d+\s*\+|\d+(?:\s*[-–]\s*\d+)?)$")
_VALUE = re.compile(
    r"^(?:\d+\s*\+|\d+|\d*\s*[DdДдKkКк]\s*\d+(?:\s*[+\-–]\s*\d+)?|\d+\s*[-–]\s*\d+"
    r"|[XxХх×]\s*\S+|\*+)$")
_LETTER = re.compile(r"[A-Za-zА-Яа-яЁё]")

PLACEHOLDER = "*"
"""A parameter that stands for a value given elsewhere («Magic Resistance (*)»)."""


@dataclass(frozen=True)
class WrittenName:
    """A name split into what it names and what is written after it.

    Attributes:
        written: the name as written (spaces collapsed).
        base: the name itself, without brackets and trailing value.
        parameter: the value-shaped parameter ("5+", "D6+1", "Х 2", "1-3", "*"), if any.
        texts: the other bracketed parts, in order: a text parameter or notes.
    """

    written: str
    base: str
    parameter: str | None = None
    texts: tuple[str, ...] = ()

    @property
    def suffix(self) -> str:
        """What follows the base as written (" (5+) (FAQ'ed)"), to keep after a translation."""
        return self.written[len(self.base):]

    @property
    def placeholder(self) -> bool:
        """Whether the parameter is the placeholder "*" (its value is not in the name)."""
        return self.parameter is not None and set(self.parameter) == {PLACEHOLDER}


def is_value(text: str) -> bool:
    """Whether a bracketed part is shaped like a parameter's value ("5+", "D6+1", "*")."""
    return bool(_VALUE.match(text.strip()))


def parse_name(name: str) -> WrittenName:
    """Split a written name into base, value parameter and bracketed texts (module docstring).

    A name that is nothing but brackets ("(5+)") keeps them as its base: there is no name to
    split them from.

    >>> parse_name("Hatred (High Elves) (Crew only)").texts
    ('High Elves', 'Crew only')
    >>> parse_name("Scaly Skin 3+").parameter
    '3+'
    >>> parse_name("Эльдарские (и тёмноэльдарские) гравициклы").base
    'Эльдарские (и тёмноэльдарские) гравициклы'
    """
    written = " ".join(name.split())
    base = written
    groups: list[str] = []
    unclosed = _UNCLOSED.match(base)
    if unclosed and ")" not in unclosed["text"]:
        base, groups = unclosed["base"], [unclosed["text"].strip()]
    while (match := _GROUP.match(base)) and _LETTER.search(match["base"]):
        inner = match["round"] if match["round"] is not None else match["square"]
        groups.insert(0, " ".join((inner or "").split()))
        base = match["base"]
    value = _TRAILING_VALUE.match(base)
    parameter: str | None = None
    if value and _LETTER.search(value["base"]):
        base, parameter = value["base"], " ".join(value["value"].split())
    texts: list[str] = []
    for group in groups:
        if not group:
            continue
        if parameter is None and is_value(group):
            parameter = group
        else:
            texts.append(group)
    return WrittenName(written, base.strip(), parameter, tuple(texts))
