"""Read BattleScribe rosters (``.ros`` XML, ``.rosz`` zip) into an :class:`ArmyList`.

XML is parsed with defusedxml: a document that declares entities or reaches for external
ones is refused («небезопасный XML: …»), never expanded. Unit type and rule names stay in
English as the roster writes them; :func:`kb_name` maps them to the Russian names of the
rule texts through ``data/aliases.toml`` (and a user's own table, see :func:`load_aliases`).

Example::

    army = read_roster("ulthwe.rosz")
    aliases = load_aliases()
    kb_name("Regeneration (5+)", "whfb8", aliases)   # 'Регенерация (5+)'
"""

from __future__ import annotations

import io
import os
import re
import tomllib
import zipfile
import zlib
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element, ParseError

import defusedxml.ElementTree as safe_xml
from defusedxml import DefusedXmlException, EntitiesForbidden, ExternalReferenceForbidden

from kb.files import os_reason
from kb.lemmas import fold
from validator.inputs import liberrors
from validator.inputs.lists import build_list, read_bytes
from validator.inputs.models import (
    DEFAULT_MAX_BYTES,
    SYSTEM_IDS,
    ArmyList,
    InputError,
    ListInputError,
    normalize_system,
)

Aliases = dict[str, dict[str, str]]
"""System id → English name → Russian KB name."""

ALIASES_FILE = Path(__file__).resolve().parents[2] / "ingest" / "data" / "aliases.toml"

_TYPE_CHARACTERISTICS = frozenset({"unit type", "type", "troop type"})
_STAT_PROFILES = frozenset({"unit", "model", "unit type", "troop type", "vehicle", "walker"})
class AliasFileError(ValueError):
    """A table of name aliases that cannot be read; the message names the file and the fault."""


def _fail(file: str | None, message: str, kind: str, **where: Any) -> ListInputError:
    return ListInputError([InputError(message=message, kind=kind, file=file, **where)])


# --- reading and parsing --------------------------------------------------------------------


def _unzip(data: bytes, file: str, max_bytes: int) -> bytes:
    """The one ``.ros`` inside a ``.rosz``, read no further than ``max_bytes``."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = [i for i in archive.infolist() if not i.is_dir()]
            rosters = [i for i in members if i.filename.lower().endswith(".ros")]
            if len(members) == 1:
                rosters = members
            if len(rosters) != 1:
                raise _fail(file, "в архиве .rosz должен быть ровно один файл .ros, найдено "
                            f"{len(rosters)}", "format")
            too_large = f"файл .ros в архиве слишком велик (предел {max_bytes} байт)"
            if rosters[0].file_size > max_bytes:
                raise _fail(file, too_large, "too_large")
            with archive.open(rosters[0]) as stream:
                content = stream.read(max_bytes + 1)  # the declared size may lie
            if len(content) > max_bytes:
                raise _fail(file, too_large, "too_large")
            return content
    except zipfile.BadZipFile:
        raise _fail(file, "это не zip-архив .rosz", "format") from None
    except (RuntimeError, NotImplementedError, zlib.error, EOFError, OSError) as exc:
        raise _fail(file, f"{liberrors.zip_problem(exc)}: файл .rosz не читается",
                    "format") from None


def _parse_xml(data: bytes, file: str | None) -> Element:
    try:
        root: Element = safe_xml.fromstring(
            data, forbid_dtd=False, forbid_entities=True, forbid_external=True
        )
    except EntitiesForbidden as exc:
        if exc.sysid or exc.pubid:
            raise _fail(file, f"небезопасный XML: сущность «{exc.name}» ссылается на внешний "
                        f"ресурс «{exc.sysid or exc.pubid}»; это запрещено", "unsafe_xml") from None
        raise _fail(file, f"небезопасный XML: объявлена сущность «{exc.name}»; сущности "
                    "запрещены (так строятся «бомбы сущностей»)", "unsafe_xml") from None
    except ExternalReferenceForbidden as exc:
        raise _fail(file, f"небезопасный XML: ссылка на внешний ресурс «{exc.sysid}» "
                    "запрещена", "unsafe_xml") from None
    except DefusedXmlException as exc:
        raise _fail(file, f"небезопасный XML: {exc}", "unsafe_xml") from None
    except ParseError as exc:
        line, column = exc.position
        text = re.sub(r": line \d+, column \d+$", "", str(exc))
        problem = liberrors.xml_problem(text)
        raise _fail(file, f"ошибка синтаксиса XML: {problem}", "syntax", line=line,
                    column=column + 1) from None
    return root


def read_roster(path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES) -> ArmyList:
    """Read a BattleScribe roster, ``.ros`` or zipped ``.rosz``.

    Raises:
        ListInputError: the file is missing, too large, not a roster, unsafe XML, or of an
            unknown game system.
    """
    p = Path(path)
    data = read_bytes(p, max_bytes)
    if p.suffix.lower() == ".rosz":
        data = _unzip(data, str(p), max_bytes)
    return parse_roster(data, file=str(p))


def parse_roster(data: bytes, *, file: str | None = None) -> ArmyList:
    """An :class:`ArmyList` from the XML of a roster (see :func:`read_roster`)."""
    root = _parse_xml(data, file)
    if _local(root.tag) != "roster":
        raise _fail(file, f"это не ростер BattleScribe: корневой элемент «{_local(root.tag)}»",
                    "format", line=1, column=1)
    game = root.get("gameSystemName")
    system = normalize_system(game) if game else None
    if system is None:
        known = "Warhammer 40,000 6th Edition, Warhammer Fantasy 8th Edition, Kill Team (2018)"
        message = (f"неизвестная система «{game}»; ожидалась одна из: {known}" if game
                   else "в ростере нет gameSystemName: система неизвестна")
        at = data.find(b"gameSystemName")
        line = data.count(b"\n", 0, at) + 1 if at >= 0 else 1
        raise ListInputError([InputError(message=message, kind="unknown_system",
                                         path=("gameSystemName",), file=file, line=line,
                                         expected=", ".join(SYSTEM_IDS))])
    units: list[dict[str, Any]] = []
    for force in _forces(root):
        for selection in _nested(force, "selections", "selection"):
            units.extend(_collect(selection, system))
    army: dict[str, Any] = {"system": system, "name": root.get("name"), "units": units}
    limit = _points_limit(root)
    if limit is not None:
        army["points_limit"] = limit
    return build_list(army, file=file)


# --- roster XML → list data -----------------------------------------------------------------


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def _kids(element: Element, name: str) -> list[Element]:
    return [child for child in element if _local(child.tag) == name]


def _nested(element: Element, container: str, item: str) -> list[Element]:
    return [i for box in _kids(element, container) for i in _kids(box, item)]


def _forces(element: Element) -> Iterator[Element]:
    for force in _nested(element, "forces", "force"):
        yield force
        yield from _forces(force)


def _number(text: str | None) -> int | None:
    try:
        return round(float(text)) if text else None
    except ValueError:
        return None


def _is_points(cost: Element) -> bool:
    name, type_id = fold(cost.get("name") or ""), fold(cost.get("typeId") or "")
    return name in ("pts", "points", "очки") or type_id == "points"


def _points_limit(root: Element) -> int | None:
    for limit in _nested(root, "costLimits", "costLimit"):
        value = _number(limit.get("value"))
        if _is_points(limit) and value is not None and value > 0:
            return value
    value = _number(root.get("pointsLimit"))  # BattleScribe 1.x
    return value if value else None


def _collect(selection: Element, system: str) -> list[dict[str, Any]]:
    """Units of a force-level selection; an upgrade may hold units inside it."""
    if selection.get("type") in ("unit", "model"):
        return _unit(selection, system)
    return [u for child in _nested(selection, "selections", "selection")
            for u in _collect(child, system)]


def _own(selection: Element) -> tuple[list[Element], list[Element]]:
    """Selections below ``selection`` that belong to it, and the units nested in it."""
    own: list[Element] = []
    units: list[Element] = []
    stack = _nested(selection, "selections", "selection")
    while stack:
        child = stack.pop(0)
        if child.get("type") == "unit":
            units.append(child)
        else:
            own.append(child)
            stack.extend(_nested(child, "selections", "selection"))
    return own, units


def _models(selection: Element) -> list[Element]:
    """The model selections of a unit (a model's own upgrades are not searched)."""
    found: list[Element] = []
    for child in _nested(selection, "selections", "selection"):
        if child.get("type") == "model":
            found.append(child)
        elif child.get("type") != "unit":
            found.extend(_models(child))
    return found


def _points(elements: list[Element]) -> int | None:
    total: int | None = None
    for element in elements:
        costs = [c for c in _nested(element, "costs", "cost") if _is_points(c)]
        values = [_number(c.get("value")) for c in costs] if costs else [
            _number(element.get("points"))]  # BattleScribe 1.x
        for value in values:
            if value is not None:
                total = (total or 0) + value
    return total


def _rules(elements: list[Element]) -> list[str]:
    names = [(r.get("name") or "").strip() for e in elements for r in _nested(e, "rules", "rule")]
    return list(dict.fromkeys(n for n in names if n))


def _characteristics(profile: Element) -> list[tuple[str, str]]:
    pairs = []
    for item in _nested(profile, "characteristics", "characteristic"):
        value = (item.text or item.get("value") or "").strip()
        if value:
            pairs.append(((item.get("name") or "").strip(), value))
    return pairs


def _type_and_profile(elements: list[Element]) -> tuple[str | None, dict[str, int | str]]:
    unit_type: str | None = None
    stats: dict[str, int | str] = {}
    for element in elements:
        for profile in _nested(element, "profiles", "profile"):
            pairs = _characteristics(profile)
            for name, value in pairs:
                if unit_type is None and fold(name) in _TYPE_CHARACTERISTICS:
                    unit_type = value
            if not stats and fold(profile.get("typeName") or "") in _STAT_PROFILES:
                stats = {name: int(value) if re.fullmatch(r"-?\d+", value) else value
                         for name, value in pairs if fold(name) not in _TYPE_CHARACTERISTICS}
    return unit_type, stats


def _unit(selection: Element, system: str) -> list[dict[str, Any]]:
    """The unit of a selection, then the units nested in it (a dedicated transport)."""
    own, nested = _own(selection)
    elements = [selection, *own]
    number = _number(selection.get("number")) or 1
    models = _models(selection)
    count = number if selection.get("type") == "model" else (
        sum(_number(m.get("number")) or 1 for m in models) or number)
    unit_type, stats = _type_and_profile(elements)
    categories = [(c.get("name") or "").strip() for c in _nested(selection, "categories",
                                                                  "category")]
    if unit_type is None and system != "killteam2018":  # Kill Team has keywords, not types
        types = {fold(name) for name in load_aliases().get(system, {})}
        unit_type = next((c for c in categories if fold(c) in types), None)
    unit: dict[str, Any] = {"name": (selection.get("name") or "").strip() or "(без имени)",
                            "models": count, "rules": _rules(elements), "profile": stats}
    if unit_type:
        unit["type"] = unit_type
    points = _points(elements)
    if points is not None:
        unit["points"] = points
    if system == "killteam2018":
        unit["keywords"] = list(dict.fromkeys(c for c in categories if c))
    if len({m.get("name") for m in models}) > 1:
        unit["parts"] = [_part(m) for m in models]
    return [unit, *(u for n in nested for u in _unit(n, system))]


def _part(model: Element) -> dict[str, Any]:
    own, _ = _own(model)
    _, stats = _type_and_profile([model, *own])
    return {"role": "model", "count": _number(model.get("number")) or 1,
            "name": (model.get("name") or "").strip() or None,
            "rules": _rules([model, *own]), "profile": stats}


# --- aliases --------------------------------------------------------------------------------


def _read_aliases(path: Path) -> Aliases:
    try:
        with path.open("rb") as stream:
            table = tomllib.load(stream)
    except OSError as exc:
        raise AliasFileError(f"{path}: не удалось прочитать файл псевдонимов "
                             f"({os_reason(exc)})") from None
    except tomllib.TOMLDecodeError as exc:
        problem, where = liberrors.toml_problem(exc)
        at = f":{where[0]}:{where[1]}" if where else ""
        raise AliasFileError(f"{path}{at}: ошибка синтаксиса TOML: {problem}") from None
    except UnicodeDecodeError as exc:
        raise AliasFileError(f"{path}: файл псевдонимов не в кодировке UTF-8 (байт "
                             f"0x{exc.object[exc.start]:02x})") from None
    aliases: Aliases = {}
    for system_name, names in table.items():
        system = normalize_system(system_name)
        if system is None:
            raise AliasFileError(f"{path}: неизвестная система «{system_name}»; известны: "
                                 f"{', '.join(SYSTEM_IDS)}")
        if not isinstance(names, dict) or not all(isinstance(v, str) for v in names.values()):
            raise AliasFileError(f"{path}: [{system_name}]: ожидались строки вида "
                                 "\"English name\" = \"Русское название\"")
        aliases.setdefault(system, {}).update(names)
    return aliases


@cache
def _builtin_aliases() -> Aliases:
    return _read_aliases(ALIASES_FILE)


def load_aliases(extra: str | os.PathLike[str] | None = None) -> Aliases:
    """The built-in alias table, with a user's own TOML table merged over it name by name.

    The user's file has the shape of ``data/aliases.toml``: a table per system
    (``[wh40k6]``, or any spelling of the system), ``"English name" = "Русское название"``.

    Raises:
        AliasFileError: the user's file cannot be read or has the wrong shape.
    """
    merged = {system: dict(names) for system, names in _builtin_aliases().items()}
    if extra is not None:
        for system, names in _read_aliases(Path(extra)).items():
            merged.setdefault(system, {}).update(names)
    return merged


def kb_name(name: str, system: str, aliases: Aliases) -> str | None:
    """The Russian KB name for an English roster name, keeping its parameter; None if unknown.

    >>> kb_name("Magic Resistance (2)", "whfb8", load_aliases())
    'Сопротивление магии (2)'
    """
    match = re.fullmatch(r"(.*?)\s*(\([^()]*\))", name.strip())
    base, parameter = (match.group(1), match.group(2)) if match else (name.strip(), "")
    table = {fold(english): russian for english, russian in aliases.get(system, {}).items()}
    found = table.get(fold(base))
    if found is None:
        return None
    return f"{found} {parameter}" if parameter else found
