"""The alias table: English names → the Russian names of the rule texts, and game systems.

One table, ``ingest/data/aliases.toml``, serves the KB build (which adds the English names to
the nodes' aliases) and the readers here; a user's own TOML of the same shape, given with
``--aliases``, is merged over it name by name. Per system (``[whfb8]``) it maps an English name
to the Russian one; ``[game_systems."<gameSystemName>"]`` says which system a BattleScribe
roster of that game system is checked as (or that the corpus does not cover it).

Example::

    aliases = load_aliases()
    kb_name("Vanguard (FAQ'ed)", "whfb8", aliases)        # "Авангард (FAQ'ed)"
    aliases.game_system("Warhammer Fantasy 8th ed", None).system   # "whfb8"
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from kb.files import os_reason
from kb.lemmas import fold
from validator.inputs import liberrors
from validator.inputs.models import SYSTEM_IDS, normalize_system
from validator.inputs.names import WrittenName, parse_name

ALIASES_FILE = Path(__file__).resolve().parents[2] / "ingest" / "data" / "aliases.toml"
GAME_SYSTEMS = "game_systems"
"""The table of game systems in an alias file (every other table is a system's names)."""


class AliasFileError(ValueError):
    """A table of name aliases that cannot be read; the message names the file and the fault."""


def name_key(name: str) -> str:
    """The key an English name is looked up by: folded, letters and digits only, no plural s.

    >>> name_key("War-machines") == name_key("Warmachine")
    True
    """
    compact = re.sub(r"[^0-9a-zа-я]", "", fold(name))
    return compact[:-1] if len(compact) > 3 and compact.endswith("s") else compact


@dataclass(frozen=True)
class GameSystem:
    """A game system as BattleScribe names it, and how rulekb treats its rosters.

    Attributes:
        name: the ``gameSystemName`` BattleScribe writes.
        system: the rulekb system its rosters are checked as; ``None`` when not covered.
        ids: the BSData game system ids that mean it.
        note: what a report says about checking it as ``system``, if anything.
    """

    name: str
    system: str | None
    ids: tuple[str, ...] = ()
    note: str | None = None


@dataclass(frozen=True)
class Aliases(Mapping[str, dict[str, str]]):
    """System id → English name → Russian name, and the game systems of rosters.

    A mapping over the names, so ``aliases["whfb8"]["Regeneration"]`` works as for a dict.
    """

    names: dict[str, dict[str, str]] = field(default_factory=dict)
    game_systems: tuple[GameSystem, ...] = ()
    _keys: dict[str, dict[str, str]] = field(default_factory=dict, compare=False, repr=False)

    def __getitem__(self, system: str) -> dict[str, str]:
        return self.names[system]

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def keyed(self, system: str) -> dict[str, str]:
        """The names of ``system`` by :func:`name_key` (built once per table and system)."""
        found = self._keys.get(system)
        if found is None:
            found = {name_key(english): russian
                     for english, russian in self.names.get(system, {}).items()}
            self._keys[system] = found
        return found

    def game_system(self, name: str | None, system_id: str | None) -> GameSystem | None:
        """The game system a roster names by its id or name; ``None`` if the table lacks it.

        An id decides first (a user may rename the system), then the name, compared as
        :func:`name_key` compares.
        """
        if system_id:
            for known in self.game_systems:
                if system_id.strip() in known.ids:
                    return known
        if name:
            key = name_key(name)
            for known in self.game_systems:
                if name_key(known.name) == key:
                    return known
        return None

    def supported(self) -> list[str]:
        """The roster game system names the table maps to a covered system, in table order."""
        return [g.name for g in self.game_systems if g.system is not None]

    def __hash__(self) -> int:  # a table is one value per load: identity is enough
        return id(self)


def _game_systems(path: Path, table: Any) -> list[GameSystem]:
    if not isinstance(table, dict):
        raise AliasFileError(f"{path}: [{GAME_SYSTEMS}]: ожидались таблицы вида "
                             f"[{GAME_SYSTEMS}.\"Название системы\"]")
    found: list[GameSystem] = []
    for name, entry in table.items():
        where = f"{path}: [{GAME_SYSTEMS}.\"{_shown(name)}\"]"
        if not isinstance(entry, dict):
            raise AliasFileError(f"{where}: ожидалась таблица с полями system, ids, note, covered")
        unknown = set(entry) - {"system", "ids", "note", "covered"}
        if unknown:
            raise AliasFileError(f"{where}: неизвестное поле «{_shown(sorted(unknown)[0])}»; "
                                 "известны: system, ids, note, covered")
        covered = entry.get("covered", True)
        given = entry.get("system")
        ids = entry.get("ids", [])
        note = entry.get("note")
        if not isinstance(covered, bool) or not isinstance(ids, list) or not all(
                isinstance(i, str) for i in ids) or not isinstance(note, str | None):
            raise AliasFileError(f"{where}: covered — true или false, ids — список строк, "
                                 "note — строка")
        system = normalize_system(given) if isinstance(given, str) else None
        if covered and system is None:
            raise AliasFileError(f"{where}: system — одна из систем {', '.join(SYSTEM_IDS)} "
                                 "(или covered = false для системы, которую корпус не покрывает)")
        found.append(GameSystem(str(name), system if covered else None, tuple(ids), note))
    return found


def _table(path: Path) -> tuple[str, dict[str, Any]]:
    """The text of an alias file and its TOML (a byte order mark, which Windows Notepad
    writes, let be).

    Raises:
        AliasFileError: unreadable, not UTF-8, or not TOML; where and why.
    """
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise AliasFileError(f"{path}: не удалось прочитать файл псевдонимов "
                             f"({os_reason(exc)})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise AliasFileError(f"{path}: файл псевдонимов не в кодировке UTF-8 (байт "
                             f"0x{raw[exc.start]:02x})") from None
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        problem, where = liberrors.toml_problem(exc)
        at = f":{where[0]}:{where[1]}" if where else ""
        raise AliasFileError(f"{path}{at}: ошибка синтаксиса TOML: {problem}") from None
    except RecursionError:
        from validator.inputs.lists import deepest_bracket  # (lists is the heavier module)

        deepest = deepest_bracket(text)
        at = f":{text.count(chr(10), 0, deepest) + 1}" if deepest is not None else ""
        raise AliasFileError(f"{path}{at}: ошибка синтаксиса TOML: слишком глубокая "
                             "вложенность") from None
    except ValueError:  # Python's limit on the length of an int's text (4300 digits)
        long = re.search(r"\d{4300,}", text)
        at = f":{text.count(chr(10), 0, long.start()) + 1}" if long else ""
        raise AliasFileError(f"{path}{at}: ошибка синтаксиса TOML: слишком длинное число "
                             "(больше 4300 цифр)") from None


def _shown(name: object) -> str:
    """A table or key of an alias file as a message quotes it: its start, if it is long."""
    text = str(name)
    return text if len(text) <= 60 else text[:59] + "…"


def _read_aliases(path: Path) -> Aliases:
    text, table = _table(path)
    names: dict[str, dict[str, str]] = {}
    systems: list[GameSystem] = []
    for system_name, entries in table.items():
        if system_name == GAME_SYSTEMS:
            systems = _game_systems(path, entries)
            continue
        system = normalize_system(system_name)
        if system is None:
            raise AliasFileError(f"{path}: неизвестная система «{_shown(system_name)}»; "
                                 f"известны: {', '.join(SYSTEM_IDS)} (и таблица "
                                 f"[{GAME_SYSTEMS}])")
        names.setdefault(system, {}).update(_names(path, text, system_name, entries))
    return Aliases(names, tuple(systems))


_KINDS = ((bool, "true или false"), (int, "число"), (float, "число"), (list, "список"),
          (dict, "таблица"))
"""What a message calls a TOML value that is no string (bool before int: a bool is an int)."""


def _names(path: Path, text: str, system_name: str, entries: Any) -> dict[str, str]:
    """The names of one system's table, or the error saying what they must be: which name's
    value is not a string, and on which line, when the name stands on one line only."""
    expected = "ожидались строки вида \"English name\" = \"Русское название\""
    if not isinstance(entries, dict):
        raise AliasFileError(f"{path}: [{_shown(system_name)}]: {expected}")
    for english, russian in entries.items():
        if not isinstance(russian, str):
            kind = next((word for type_, word in _KINDS if isinstance(russian, type_)),
                        "не строка")
            line = _key_line(text, english)
            at = f":{line}" if line else ""
            raise AliasFileError(f"{path}{at}: [{_shown(system_name)}] «{_shown(english)}»: "
                                 f"ожидалось русское название в кавычках, а не {kind}; "
                                 f"{expected}")
    return entries


def _key_line(text: str, key: str) -> int | None:
    """The line of ``text`` where ``key`` is given a value (bare or in either quotes), if
    exactly one line does so; else ``None`` (a message then names no line)."""
    spelled = "|".join(re.escape(k) for k in (key, f'"{key}"', f"'{key}'"))
    found = [m.start() for m in re.finditer(rf"^[ \t]*(?:{spelled})[ \t]*[=.]", text, re.M)]
    return text.count("\n", 0, found[0]) + 1 if len(found) == 1 else None


@cache
def _builtin_aliases() -> Aliases:
    return _read_aliases(ALIASES_FILE)


def load_aliases(extra: str | os.PathLike[str] | None = None) -> Aliases:
    """The built-in alias table, with a user's own TOML table merged over it.

    The user's file has the shape of ``data/aliases.toml``: a table per system (``[wh40k6]``,
    or any spelling of the system) of ``"English name" = "Русское название"``, and game
    systems under ``[game_systems."<gameSystemName>"]``, which replace the built-in entry of
    the same name.

    Raises:
        AliasFileError: the user's file cannot be read or has the wrong shape.
    """
    builtin = _builtin_aliases()
    if extra is None:
        return builtin
    own = _read_aliases(Path(extra))
    names = {system: dict(entries) for system, entries in builtin.names.items()}
    for system, entries in own.names.items():
        names.setdefault(system, {}).update(entries)
    replaced = {name_key(g.name) for g in own.game_systems}
    systems = (*own.game_systems,
               *(g for g in builtin.game_systems if name_key(g.name) not in replaced))
    return Aliases(names, systems)


def kb_name(name: str, system: str, aliases: Mapping[str, Mapping[str, str]]) -> str | None:
    """The Russian KB name for an English name, keeping what follows it; None if unknown.

    >>> kb_name("Magic Resistance (2)", "whfb8", load_aliases())
    'Сопротивление магии (2)'
    >>> kb_name("Vanguard (FAQ'ed)", "whfb8", load_aliases())
    "Авангард (FAQ'ed)"
    """
    return translated(parse_name(name), system, aliases)


def translated(parsed: WrittenName, system: str, aliases: Mapping[str, Mapping[str, str]]
               ) -> str | None:
    """:func:`kb_name` of a name already split (:func:`~validator.inputs.names.parse_name`)."""
    if isinstance(aliases, Aliases):
        table: Mapping[str, str] = aliases.keyed(system)
    else:
        table = {name_key(e): r for e, r in aliases.get(system, {}).items()}
    found = table.get(name_key(parsed.base))
    if found is None:
        return None
    return found + parsed.suffix
