"""Value objects of the validator's input: enums, input errors and army lists (FORMATS §2).

Game-log events are in :mod:`validator.inputs.events`, reports in :mod:`validator.verdicts`.
The value objects are frozen pydantic models. Input models validate what a user wrote and
accept every enum in its Russian or English spelling, case-insensitive, with ё/е folded;
an input problem becomes an :class:`InputError`, which is data (like jsonschema's
``ValidationError``): a leaf knows only what is wrong, the reader that called it adds the
file, line, column and field path.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    model_validator,
)
from pydantic_core import PydanticCustomError
from rapidfuzz import fuzz, process

from kb.ids import FreeIds
from kb.lemmas import fold

DEFAULT_MAX_BYTES = 10 * 1024 * 1024
"""Largest army list or roster file read (bytes); a bigger one is refused before reading."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --- enums: every spelling of FORMATS, folded --------------------------------------------


def spelling_key(text: str) -> str:
    """The lookup key of an enum spelling: folded, ``_``/``-`` as spaces, spaces collapsed.

    >>> spelling_key("  Ближний_БОЙ ")
    'ближний бой'
    """
    return " ".join(fold(text).replace("_", " ").replace("-", " ").split())


def _compact(key: str) -> str:
    # BattleScribe writes "Warhammer 40,000 6th Edition": punctuation and spaces must not matter
    return re.sub(r"[^0-9a-zа-я]", "", key)


class Spellings:
    """Every spelling of an enum, looked up by :func:`spelling_key` (then without punctuation).

    >>> Spellings({"close_combat": ["ближний бой"]}).lookup("Ближний  бой")
    'close_combat'
    """

    def __init__(self, table: Mapping[str, Sequence[str]]) -> None:
        self.ids: tuple[str, ...] = tuple(table)
        # key → id, and key → the spelling as written (ё kept) for suggestions
        self.index: dict[str, str] = {}
        self.written: dict[str, str] = {}
        for value, names in table.items():
            for name in (value, *names):
                self.index[spelling_key(name)] = value
                self.written.setdefault(spelling_key(name), name)
        self._compact = {_compact(key): value for key, value in self.index.items()}

    def lookup(self, value: str) -> str | None:
        """The id ``value`` spells, or None."""
        found = self.index.get(value)
        if found is None:
            key = spelling_key(value)
            found = self.index.get(key) or self._compact.get(_compact(key))
        return found


SystemId = Literal["wh40k6", "whfb8", "killteam2018"]
SYSTEM_IDS: tuple[str, ...] = ("wh40k6", "whfb8", "killteam2018")
SYSTEM_SPELLINGS = Spellings(
    {
        "wh40k6": (
            "wh40k", "40k", "Warhammer 40000", "Warhammer 40,000", "Warhammer 40 000",
            "Warhammer 40k", "Warhammer 40,000 6th Edition", "Warhammer 40000 6th edition",
            "Warhammer 40,000, 6-я редакция", "Вархаммер 40000", "Вархаммер 40 000",
            "Вархаммер 40к", "Вархаммер 40000 6-я редакция",
        ),
        "whfb8": (
            "whfb", "Warhammer Fantasy", "Warhammer Fantasy Battle",
            "Warhammer Fantasy 8th Edition", "Warhammer Fantasy Battle 8th Edition",
            "Warhammer Fantasy Battle, 8-я редакция", "Вархаммер Фэнтези",
            "Вархаммер Фэнтези 8-я редакция", "Фэнтези",
        ),
        "killteam2018": (
            "Kill Team", "Kill Team (2018)", "Kill Team 2018", "kt2018", "Килл Тим",
            "Килл Тим 2018", "Kill Team (2018), 1-я редакция",
        ),
    }
)

Role = Literal["gun", "crew", "rider", "handler", "monster", "character", "model"]
ROLE_SPELLINGS = Spellings(
    {
        "gun": ("орудие", "орудия"),
        "crew": ("расчёт", "расчеты", "экипаж"),
        "rider": ("наездник", "всадник"),
        "handler": ("погонщик", "погонщики"),
        "monster": ("монстр", "чудовище"),
        "character": ("персонаж", "герой"),
        "model": ("модель", "модели"),
    }
)

Phase = Literal[
    "start", "movement", "magic", "shooting", "assault", "close_combat",
    "initiative", "psychic", "fight", "morale",
]
PHASE_SPELLINGS = Spellings(
    {
        "start": ("начало хода", "начало", "start of turn", "фаза начала хода"),
        "movement": ("движение", "фаза движения", "move"),
        "magic": ("магия", "фаза магии"),
        "shooting": ("стрельба", "фаза стрельбы", "shoot"),
        "assault": ("наступление", "фаза наступления"),
        "close_combat": ("ближний бой", "фаза ближнего боя", "close combat", "рукопашная"),
        "initiative": ("инициатива", "фаза инициативы"),
        "psychic": ("психическая", "психическая фаза", "psychic phase"),
        "fight": ("бой", "фаза боя"),
        "morale": ("мораль", "фаза морали"),
    }
)


def nearest(name: str, choices: Sequence[str], limit: int = 1, cutoff: float = 60) -> list[str]:
    """The ``choices`` closest to ``name`` (rapidfuzz ratio on folded text), best first."""
    folded = {fold(c): c for c in choices}
    found = process.extract(fold(name), list(folded), scorer=fuzz.ratio, limit=limit,
                            score_cutoff=cutoff)
    return [folded[match] for match, _score, _index in found]


def normalize_system(name: str) -> str | None:
    """The system id for any spelling (``"Warhammer 40,000 6th Edition"`` → ``"wh40k6"``)."""
    return SYSTEM_SPELLINGS.lookup(name)


def _enum(spellings: Spellings, kind: str, what: str, by_id: bool = False) -> Any:
    """A ``BeforeValidator`` mapping any spelling to its id, else a Russian error.

    The error suggests the nearest spelling (or, with ``by_id``, the id it stands for).
    """

    def normalize(value: Any) -> Any:
        if not isinstance(value, str):
            return value
        found = spellings.lookup(value)
        if found is not None:
            return found
        close = nearest(value, list(spellings.index), cutoff=55)
        hint = ""
        if close:
            key = close[0]
            hint = f"; возможно, «{spellings.index[key] if by_id else spellings.written[key]}»"
        raise PydanticCustomError(
            kind,
            "{what} «{value}»{hint} (известны: {known})",
            {"what": what, "value": value, "hint": hint, "known": ", ".join(spellings.ids)},
        )

    return BeforeValidator(normalize)


def lower_spelling(value: Any) -> Any:
    """A ``BeforeValidator`` for enums written only in English: stripped, lower case."""
    return value.strip().lower() if isinstance(value, str) else value


SystemField = Annotated[
    SystemId,
    _enum(SYSTEM_SPELLINGS, "unknown_system", "неизвестная система", by_id=True),
]
RoleField = Annotated[
    Role, _enum(ROLE_SPELLINGS, "unknown_role", "неизвестная роль")
]
PhaseField = Annotated[
    Phase, _enum(PHASE_SPELLINGS, "unknown_phase", "неизвестная фаза")
]


# --- input errors ---------------------------------------------------------------------------

PathItem = str | int


def format_path(path: Sequence[PathItem]) -> str:
    """A field path as people write it: ``("units", 2, "models")`` → ``"units[2].models"``."""
    out = ""
    for item in path:
        out += f"[{item}]" if isinstance(item, int) else (f".{item}" if out else item)
    return out


class SourcePos(_Frozen):
    """Where a value starts in its file: 1-based line and column."""

    line: int
    column: int


_CONTROL_RE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_QUOTED_RE = re.compile("«([^«»]*)»")
QUOTE_LIMIT = 60
"""The most characters of an input's own text a message quotes («…»): a value of a megabyte
is named by its start, so that an error stays one readable line."""


def printable(text: str) -> str:
    r"""``text`` as any UTF-8 output can hold it: a file name's bytes that are not UTF-8
    (Python keeps each as a lone surrogate, PEP 383) shown as ``\xNN``, any other lone
    surrogate as ``\uXXXX``; a report or an error line that names such a file must not fail
    to be written.

    >>> printable("a\udcff.yaml")
    'a\\xff.yaml'
    """
    if not _SURROGATE_RE.search(text):
        return text
    return _SURROGATE_RE.sub(_escaped_surrogate, text)


def _escaped_surrogate(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def _short_quote(match: re.Match[str]) -> str:
    quoted = match.group(1)
    if len(quoted) <= QUOTE_LIMIT:
        return match.group()
    return f"«{quoted[:QUOTE_LIMIT - 1]}…»"


def _one_line(message: object) -> object:
    """A message is one short line: control characters of what the input held (a field
    named «\n») are shown escaped, a long quote of it cut (:data:`QUOTE_LIMIT`), a file
    name that is not UTF-8 shown printable."""
    if not isinstance(message, str):
        return message
    if _CONTROL_RE.search(message):
        message = _CONTROL_RE.sub(lambda m: repr(m.group())[1:-1], message)
    if len(message) > QUOTE_LIMIT:
        message = _QUOTED_RE.sub(_short_quote, message)
    return printable(message)


NAME_LIMIT = 4096
"""The longest file name an error shows whole (Linux's PATH_MAX): a longer one names no
file that can exist (a game log's header may say anything), and is cut."""


def _printable_name(file: object) -> object:
    if not isinstance(file, str):
        return file
    return printable(file if len(file) <= NAME_LIMIT else file[:NAME_LIMIT - 1] + "…")


class InputError(_Frozen):
    """One thing wrong with an input file, as data.

    ``str(error)`` is the message a user reads::

        army.yaml:7:5: поле units[2].models: ожидалось целое число, получено «шесть»

    ``path`` is the field the error is about; for a missing or unknown field it is the
    object holding it (as jsonschema does), so the field's own name is in ``message``.
    """

    message: Annotated[str, BeforeValidator(_one_line)]
    kind: str = "value"
    path: tuple[PathItem, ...] = ()
    expected: str | None = None
    file: Annotated[str | None, BeforeValidator(_printable_name)] = None
    line: int | None = None
    column: int | None = None

    @property
    def field(self) -> str:
        """The field path as text (``"units[2].models"``; ``""`` for the whole file)."""
        return format_path(self.path)

    def descend(self, *prefix: PathItem) -> InputError:
        """This error seen from a parent: ``prefix`` goes in front of its path."""
        return self.model_copy(update={"path": (*prefix, *self.path)})

    def at(self, file: str | None = None, line: int | None = None,
           column: int | None = None) -> InputError:
        """This error placed in a file; a location it already has is kept."""
        return self.model_copy(update={
            "file": self.file or (printable(file) if file else file),
            "line": self.line if self.line is not None else line,
            "column": self.column if self.column is not None else column,
        })

    def __str__(self) -> str:
        where = ":".join(str(p) for p in (self.file, self.line, self.column) if p is not None)
        field = f"поле {self.field}: " if self.path else ""
        return f"{where}: {field}{self.message}" if where else f"{field}{self.message}"

    def __repr__(self) -> str:
        return f"InputError({self.kind}, {self.file}:{self.line}, {self.field!r})"


class InputFailure(Exception):
    """An input that cannot be used; ``errors`` says every reason found, in file order."""

    def __init__(self, errors: Sequence[InputError], system: str | None = None) -> None:
        self.errors: tuple[InputError, ...] = tuple(errors)
        self.file = self.errors[0].file if self.errors else None
        # the game system the input names, when that much could be read: a report says it
        self.system = system
        super().__init__("\n".join(str(e) for e in self.errors))

    def __reduce__(self) -> tuple[type[InputFailure], tuple[tuple[InputError, ...], str | None]]:
        return type(self), (self.errors, self.system)  # so a batch can run in worker processes


class ListInputError(InputFailure):
    """An army list or roster that cannot be read."""


class GameLogError(InputFailure):
    """A game log whose header (or the armies it names) cannot be read: nothing to audit."""


# --- army list (FORMATS §2) ----------------------------------------------------------------

_TRANSLIT = str.maketrans({
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ж": "zh", "з": "z",
    "и": "i", "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p",
    "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f", "х": "h", "ц": "c", "ч": "ch",
    "ш": "sh", "щ": "sch", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu", "я": "ya",
})


def slug(name: str) -> str:
    """A unit id made from its name, transliterated like KB ids.

    >>> slug("Гвардейцы на гравициклах")
    'gvardeicy-na-graviciklah'
    """
    bare = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    text = re.sub(r"[^a-z0-9]+", "-", fold(bare).translate(_TRANSLIT)).strip("-")
    return text or "unit"


def _profile_value(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise PydanticCustomError("profile_value", "ожидалось число или строка")
    return value


ProfileValue = Annotated[int | str, BeforeValidator(_profile_value)]
Profile = dict[str, ProfileValue]


class Part(_Frozen):
    """Models with a role inside a unit: a gun and its crew, a rider and its mount, …"""

    role: RoleField
    count: int = Field(default=1, ge=1)
    name: str | None = None
    rules: tuple[str, ...] = ()
    profile: Profile = Field(default_factory=dict)


def _parts_models(parts: Any) -> int | None:
    """The models the parts of a unit count (``count`` is 1 when left out), if they can."""
    if not isinstance(parts, list | tuple) or not parts:
        return None
    total = 0
    for part in parts:
        count = part.count if isinstance(part, Part) else part.get("count", 1) if isinstance(
            part, dict) else None
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            return None  # the part's own error is reported; no guess at the unit's size
        total += count
    return total


class Unit(_Frozen):
    """One unit of an army list; ``id`` defaults to the slug of ``name``.

    ``models`` may be left out (FORMATS §2): it is then the sum of the ``parts`` counts (a gun
    and its crew), else 1 (a Kill Team model, a character). ``custom_name`` is the name the
    player gave the unit (BattleScribe's ``customName``); ``name`` stays the entry's name.
    """

    id: str = Field(default="", min_length=1)
    name: str
    custom_name: str | None = None
    type: str | None = None
    models: int = Field(default=1, ge=1)
    points: int | None = Field(default=None, ge=0)
    rules: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    profile: Profile = Field(default_factory=dict)
    parts: tuple[Part, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _defaults(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        if "id" not in data and isinstance(data.get("name"), str):
            named = data.get("custom_name")
            data = {**data, "id": slug(named if isinstance(named, str) and named.strip()
                                       else data["name"])}
        if "models" not in data:
            counted = _parts_models(data.get("parts"))
            if counted is not None:
                data = {**data, "models": counted}
        return data

    @property
    def label(self) -> str:
        """The unit as a report names it: «Dire Avenger Exarch «Eldos»» with the custom name."""
        if self.custom_name and self.custom_name.strip() != self.name.strip():
            return f"{self.name} «{self.custom_name.strip()}»"
        return self.name

    def __repr__(self) -> str:
        return f"Unit({self.id}, {self.name!r}, {self.models})"


class ArmyList(_Frozen):
    """An army list as read from YAML, JSON or a BattleScribe roster.

    ``rules`` are the army's own rules, which apply to every unit (BattleScribe's force
    rules: "Foresight of the Damned (Ulthwe)").

    The reader fills the rest, never the list itself: ``source`` is the file it came from;
    ``positions`` maps a field path (``"units[2].type"``) to where it is written in that file,
    so a verdict can point there; ``locations`` maps a field path to the place in a roster that
    has no useful lines (the selection's name path: "Kill Team List › Dire Avenger"); ``notices``
    are what the reader must tell the user about how the list was read (a roster of another
    edition checked as this one).
    """

    system: SystemField
    name: str | None = None
    points_limit: int | None = Field(default=None, ge=0)
    rules: tuple[str, ...] = ()
    units: tuple[Unit, ...]
    source: str | None = None
    positions: dict[str, SourcePos] = Field(default_factory=dict, repr=False)
    locations: dict[str, str] = Field(default_factory=dict, repr=False)
    notices: tuple[str, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _default_ids(cls, data: Any) -> Any:
        """Give units without an id the slug of their (custom) name, ``-2``, ``-3`` … when two
        share one."""
        units = data.get("units") if isinstance(data, dict) else None
        if not isinstance(units, list):
            return data
        free = FreeIds(u["id"] for u in units
                       if isinstance(u, dict) and isinstance(u.get("id"), str))
        filled: list[Any] = []
        for unit in units:
            if isinstance(unit, dict) and "id" not in unit and isinstance(unit.get("name"), str):
                named = unit.get("custom_name")
                unit = {**unit, "id": free.take(slug(named if isinstance(named, str)
                                                     and named.strip() else unit["name"]))}
            filled.append(unit)
        return {**data, "units": filled}

    def duplicate_ids(self) -> list[tuple[int, int]]:
        """Units whose id an earlier unit already has: ``(index, index of the first)``.

        A repeated id is not an input error: the list is still checked and the check
        ``unique_ids`` reports it; lookups by id (:meth:`unit`) find the first unit.
        """
        first: dict[str, int] = {}
        repeats: list[tuple[int, int]] = []
        for index, unit in enumerate(self.units):
            if unit.id in first:
                repeats.append((index, first[unit.id]))
            else:
                first[unit.id] = index
        return repeats

    def unit(self, unit_id: str) -> Unit | None:
        """The (first) unit with this id, or None."""
        return next((u for u in self.units if u.id == unit_id), None)

    def __repr__(self) -> str:
        return f"ArmyList({self.system}, {self.name!r}, {len(self.units)} units)"
