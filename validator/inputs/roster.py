"""Read BattleScribe rosters (``.ros`` XML, ``.rosz`` zip) into an :class:`ArmyList`.

XML is read by :mod:`validator.inputs.roster_xml` (defusedxml, and no declared default
attribute values: unsafe XML is refused, never expanded). The roster's game system is found
by its ``gameSystemId`` or ``gameSystemName`` in the alias table (``[game_systems]``; a
user's ``--aliases`` file extends it); an edition the corpus does not cover is refused
naming what the roster says and what is supported.

What BattleScribe keeps where (2.03 writes ``typeName`` and characteristics as text, 2.01
and 1.x ``profileTypeName`` and ``value`` attributes; both are read):

- a unit is a ``unit`` selection, a ``model`` selection at force level (a character), or an
  ``upgrade`` that carries a unit profile (a character some catalogues keep as an upgrade);
  in Kill Team every model is an entry of its own, and what encloses it (a fire team) adds
  its categories;
- the unit type comes from the unit's own profile — a profile of type ``Unit``, ``Model``,
  ``Vehicle`` … — its characteristic «Unit Type», «Type» or «Troop Type», never from a
  weapon's profile ("Assault 2"); failing that, from a category the alias table knows;
- models are the unit's ``model`` selections (their ``number``), else its upgrades that carry
  a unit profile, else the selection's own ``number`` (a champion or a mount, kept as an
  upgrade with a profile beside the models, is not counted twice);
- special rules are ``rule`` elements and profiles of an abilities type («Ability»,
  «Abilities», «Unit Abilities»); the force's rules are the army's own;
- a Kill Team model's keywords are its categories, its upgrades' and its enclosing
  selections', without BattleScribe's bookkeeping (the force-organisation slot, «Model»,
  «Level 1», «List: …»; «Faction: Asuryani» gives «Asuryani»);
- ``customName`` is kept; every unit knows its selection's name path, which verdicts show,
  since a roster has no useful line numbers.

Unit type and rule names stay in English as the roster writes them; the checks map them to
the Russian names of the rule texts through the alias table (:func:`kb_name`).

Example::

    army = read_roster("ulthwe.rosz")
    army.locations["units[0]"]      # 'Combined Arms Detachment › Windrider Jetbikes'
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element

from kb.lemmas import fold
from validator.inputs.aliases import (  # noqa: F401  (re-exported: the audit imports them here)
    ALIASES_FILE,
    Aliases,
    AliasFileError,
    load_aliases,
    name_key,
)
from validator.inputs.aliases import kb_name as kb_name
from validator.inputs.errors import fail
from validator.inputs.files import read_bytes
from validator.inputs.lists import build_list
from validator.inputs.models import (
    DEFAULT_MAX_BYTES,
    SYSTEM_IDS,
    ArmyList,
    InputError,
    ListInputError,
    normalize_system,
)
from validator.inputs.names import parse_name
from validator.inputs.roster_xml import parse_xml, unzip

__all__ = ["ALIASES_FILE", "AliasFileError", "Aliases", "kb_name", "load_aliases",
           "parse_roster", "read_roster"]
"""The alias table's names are re-exported: the audit and the CLI import them from here."""

UNIT_PROFILES = frozenset({"unit", "model", "vehicle", "walker", "flyer", "building", "monster",
                           "troop", "troop type", "unit type", "character"})
"""Profile types that describe a unit's models (folded); every other profile is a weapon,
wargear, a psychic power …"""
TYPE_CHARACTERISTICS = frozenset({"unit type", "type", "troop type"})
"""The characteristics of a unit profile that hold the unit's type (folded)."""
_ABILITIES = re.compile(r"abilit|special rule|trait", re.IGNORECASE)
_NO_VALUE = frozenset({"", "-", "–", "—", "n/a"})
# Categories BattleScribe keeps for its own bookkeeping, not keywords of the rules
_BOOKKEEPING = re.compile(r"^(?:model|models|uncategori[sz]ed|configuration|level\s*\d+)$",
                          re.IGNORECASE)
_PREFIXED = re.compile(r"^\s*(?P<prefix>[^:]+):\s*(?P<value>.+)$")
PATH_SEPARATOR = " › "


# --- reading and parsing --------------------------------------------------------------------


def read_roster(path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES,
                aliases: Aliases | None = None) -> ArmyList:
    """Read a BattleScribe roster, ``.ros`` or zipped ``.rosz``.

    Raises:
        ListInputError: the file is missing, too large, not a roster, unsafe XML, or of a
            game system that is unknown or not covered.
    """
    p = Path(path)
    data = read_bytes(p, max_bytes)
    if p.suffix.lower() == ".rosz":
        data = unzip(data, str(p), max_bytes)
    return parse_roster(data, file=str(p), aliases=aliases)


def parse_roster(data: bytes, *, file: str | None = None,
                 aliases: Aliases | None = None) -> ArmyList:
    """An :class:`ArmyList` from the XML of a roster (see :func:`read_roster`)."""
    try:
        return _parse_roster(data, file, aliases)
    except RecursionError:  # (selections inside selections thousands deep: no list builder
        # writes one; a damaged or a crafted file)
        raise fail(file, "ростер не читается: выборы вложены друг в друга на тысячи уровней "
                   "(файл повреждён или составлен не BattleScribe)", "format",
                   line=1, column=1) from None


def _parse_roster(data: bytes, file: str | None, aliases: Aliases | None) -> ArmyList:
    root = parse_xml(data, file)
    if _local(root.tag) != "roster":
        raise fail(file, f"это не ростер BattleScribe: корневой элемент «{_local(root.tag)}»",
                   "format", line=1, column=1)
    for element in root.iter():  # one namespace (BattleScribe's) or none: tags by local name
        if element.tag[:1] == "{":
            element.tag = element.tag.rpartition("}")[2]
    table = aliases if aliases is not None else load_aliases()
    try:
        system, notices = _game_system(root, file, table)
    except ListInputError as exc:
        at = data.find(b"gameSystemName")  # a roster's line: where the file names its system
        line = data.count(b"\n", 0, at) + 1 if at >= 0 else 1
        raise ListInputError([e.model_copy(update={"line": line}) for e in exc.errors],
                             system=exc.system) from None
    units: list[dict[str, Any]] = []
    locations: dict[str, str] = {}
    army_rules: list[str] = []
    types = {name_key(n) for n in table.get(system, {})}
    for force, trail in _forces(root, []):
        army_rules.extend(_rules([force]))
        for selection in _nested(force, "selections", "selection"):
            for unit, where in _collect(selection, system, trail, [], types):
                locations[f"units[{len(units)}]"] = where
                units.append(unit)
    army: dict[str, Any] = {"system": system, "name": root.get("name"), "units": units,
                            "rules": list(dict.fromkeys(army_rules))}
    limit = _points_limit(root)
    if limit is not None:
        army["points_limit"] = limit
    try:
        built = build_list(army, file=file)
    except ListInputError as exc:
        raise ListInputError([_in_roster(e, locations) for e in exc.errors],
                             system=exc.system) from None
    return built.model_copy(update={"locations": locations, "notices": notices})


def _in_roster(error: InputError, locations: dict[str, str]) -> InputError:
    """An error about a unit read from a roster, said with the selection it comes from:
    a roster's lines tell nothing of its units, and «units[3]» is no place a user sees."""
    path = error.path
    where = locations.get(f"units[{path[1]}]") if path[:1] == ("units",) and len(path) > 1 \
        else None
    if where is None:
        return error
    return InputError(**{**error.model_dump(), "message": f"{error.message} (в ростере: "
                         f"{where})"})


def _game_system(root: Element, file: str | None, aliases: Aliases) -> tuple[str, tuple[str, ...]]:
    """The system a roster is checked as, and what to tell about it; else a clear refusal."""
    name, system_id = root.get("gameSystemName"), root.get("gameSystemId")
    known = aliases.game_system(name, system_id)
    supported = ", ".join(f"«{n}»" for n in aliases.supported())
    said = f"«{name}»" if name else "без названия"
    if system_id:
        said += f" (gameSystemId {system_id})"
    if known is not None and known.system is not None:
        return known.system, (known.note,) if known.note else ()
    if known is None and name:
        spelled = normalize_system(name)  # "Kill Team (2018)", "Warhammer 40,000 6th Edition"
        if spelled is not None:
            return spelled, ()
    if known is not None:
        message = (f"ростер системы {said}: эта игра или редакция корпусом правил не покрыта; "
                   f"поддерживаются ростеры систем {supported}")
    elif name or system_id:
        message = (f"неизвестная система {said}; поддерживаются ростеры систем {supported} "
                   "(другое название системы можно добавить в таблицу псевдонимов, --aliases)")
    else:
        message = f"в ростере нет gameSystemName: система неизвестна; поддерживаются {supported}"
    raise ListInputError([InputError(message=message, kind="unknown_system",
                                     path=("gameSystemName",), file=file,
                                     expected=", ".join(SYSTEM_IDS))])


# --- roster XML → list data -----------------------------------------------------------------


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def _kids(element: Element, name: str) -> list[Element]:
    return [child for child in element if child.tag == name]


def _nested(element: Element, container: str, item: str) -> list[Element]:
    return [i for box in _kids(element, container) for i in _kids(box, item)]


def _forces(element: Element, trail: list[str]) -> Iterator[tuple[Element, list[str]]]:
    for force in _nested(element, "forces", "force"):
        here = [*trail, (force.get("name") or force.get("catalogueName") or "").strip()]
        yield force, [t for t in here if t]
        yield from _forces(force, here)


def _number(text: str | None) -> int | None:
    try:
        return round(float(text)) if text else None
    except (ValueError, OverflowError):
        return None


def _is_points(cost: Element) -> bool:
    name, type_id = fold(cost.get("name") or ""), fold(cost.get("typeId") or "")
    return name.strip() in ("pts", "points", "очки") or type_id == "points"


def _points_limit(root: Element) -> int | None:
    for limit in _nested(root, "costLimits", "costLimit"):
        value = _number(limit.get("value"))
        if _is_points(limit) and value is not None and value > 0:
            return value
    value = _number(root.get("pointsLimit"))  # BattleScribe 1.x
    return value if value else None


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


def _type_name(profile: Element) -> str:
    return fold(profile.get("typeName") or profile.get("profileTypeName") or "").strip()


def _characteristics(profile: Element) -> list[tuple[str, str]]:
    pairs = []
    for item in _nested(profile, "characteristics", "characteristic"):
        value = " ".join((item.text or item.get("value") or "").split())
        if value:
            pairs.append(((item.get("name") or "").strip(), value))
    return pairs


def _profiles(element: Element) -> list[Element]:
    return [p for p in _nested(element, "profiles", "profile") if p.get("hidden") != "true"]


def _is_unit_profile(profile: Element) -> bool:
    kind = _type_name(profile)
    if kind:
        return kind in UNIT_PROFILES
    # an old roster without a profile type: a unit profile is the one naming a unit type
    return any(fold(n) in ("unit type", "troop type") for n, _ in _characteristics(profile))


def _has_unit_profile(selection: Element) -> bool:
    return any(_is_unit_profile(p) for p in _profiles(selection))


def _rules(elements: list[Element]) -> list[str]:
    """Special rules of ``elements``: their rules and their profiles of an abilities type."""
    names: list[str] = []
    for element in elements:
        names.extend((r.get("name") or "").strip() for r in _nested(element, "rules", "rule")
                     if r.get("hidden") != "true")
        names.extend((p.get("name") or "").strip() for p in _profiles(element)
                     if _ABILITIES.search(p.get("typeName") or p.get("profileTypeName") or ""))
    return list(dict.fromkeys(n for n in names if n))


def _selections(element: Element) -> list[Element]:
    return _nested(element, "selections", "selection")


def _own(selection: Element) -> tuple[list[Element], list[Element]]:
    """Selections below ``selection`` that belong to it (depth first), and the units in it."""
    own: list[Element] = []
    units: list[Element] = []
    stack = list(reversed(_selections(selection)))
    while stack:
        child = stack.pop()
        if child.get("type") == "unit":
            units.append(child)
        else:
            own.append(child)
            stack.extend(reversed(_selections(child)))
    return own, units


def _label(selection: Element) -> str:
    name = (selection.get("name") or "").strip() or "(без имени)"
    custom = (selection.get("customName") or "").strip()
    return f"{name} «{custom}»" if custom and custom != name else name


def _keyword(category: Element) -> str | None:
    """A category as a Kill Team keyword, or None for BattleScribe's bookkeeping."""
    name = " ".join((category.get("name") or "").split())
    if not name or category.get("primary") == "true" or _BOOKKEEPING.match(name):
        return None
    prefixed = _PREFIXED.match(name)
    if prefixed:
        return prefixed["value"].strip() if fold(prefixed["prefix"]) == "faction" else None
    return name


def _categories(element: Element) -> list[Element]:
    return _nested(element, "categories", "category")


def _collect(selection: Element, system: str, trail: list[str], inherited: list[str],
             types: set[str]) -> Iterator[tuple[dict[str, Any], str]]:
    """The units of a force-level selection (a configuration selection may hold units)."""
    kind = selection.get("type")
    if system == "killteam2018":
        if kind == "model" or (kind != "model" and _has_unit_profile(selection)
                               and not _model_children(selection)):
            yield _model(selection, inherited), PATH_SEPARATOR.join([*trail, _label(selection)])
            return
        # a fire team or a configuration: its categories go to the models inside it
        keywords = [*inherited, *(k for c in _categories(selection) if (k := _keyword(c)))]
        for child in _selections(selection):
            yield from _collect(child, system, [*trail, _label(selection)], keywords, types)
        return
    if kind in ("unit", "model") or _has_unit_profile(selection):
        yield from _unit(selection, system, trail, types)
        return
    for child in _selections(selection):
        yield from _collect(child, system, [*trail, _label(selection)], inherited, types)


def _model_children(selection: Element) -> list[Element]:
    own, _ = _own(selection)
    return [s for s in own if s.get("type") == "model"]


def _stats(profile: Element | None) -> dict[str, int | str]:
    if profile is None:
        return {}
    return {name: _characteristic(value) for name, value in _characteristics(profile)
            if fold(name) not in TYPE_CHARACTERISTICS}


def _characteristic(value: str) -> int | str:
    """A characteristic as a whole number when it is one Python reads and writes back (a
    damaged roster may hold thousands of digits, beyond Python's limit): else its text."""
    digits = value.removeprefix("-")
    limit = sys.get_int_max_str_digits() or len(digits)
    return int(value) if digits.isdecimal() and len(digits) <= limit else value


def _unit_type(elements: list[Element]) -> tuple[str | None, Element | None]:
    """The unit type from the first unit profile that states one, and the first unit profile.

    Only a unit profile's own type characteristic counts: a weapon's «Type» ("Assault 2")
    is never a unit type.
    """
    first: Element | None = None
    for element in elements:
        for profile in _profiles(element):
            if not _is_unit_profile(profile):
                continue
            first = first if first is not None else profile
            for name, value in _characteristics(profile):
                if fold(name) in TYPE_CHARACTERISTICS and fold(parse_name(value).base) not in \
                        _NO_VALUE:
                    return value, first
    return None, first


def _count(selection: Element, own: list[Element]) -> int:
    models = [s for s in own if s.get("type") == "model"]
    if selection.get("type") == "model":
        return _number(selection.get("number")) or 1
    if not models:
        # some catalogues keep a unit's models as upgrades with a unit profile
        models = [s for s in own if _has_unit_profile(s)]
    counted = sum(max(_number(m.get("number")) or 1, 1) for m in models)
    return counted or max(_number(selection.get("number")) or 1, 1)


def _unit(selection: Element, system: str, trail: list[str],
          types: set[str]) -> Iterator[tuple[dict[str, Any], str]]:
    """The unit of a selection, then the units nested in it (a dedicated transport)."""
    own, nested = _own(selection)
    models = [s for s in own if s.get("type") == "model"]
    # the unit's own profile first, then its models', then its upgrades'
    ordered = [selection, *models, *(s for s in own if s.get("type") != "model")]
    unit_type, profile = _unit_type(ordered)
    if unit_type is None:
        unit_type = next((c.get("name") for c in _categories(selection)
                          if name_key(c.get("name") or "") in types), None)
    kinds = {m.get("name") for m in models}
    holders = [selection, *own]
    if len(kinds) > 1:
        # each kind of model is a part with its own rules: the unit keeps the rest
        in_models = {id(e) for m in models for e in (m, *_own(m)[0])}
        holders = [e for e in holders if id(e) not in in_models]
    unit: dict[str, Any] = {"name": (selection.get("name") or "").strip() or "(без имени)",
                            "models": _count(selection, own), "rules": _rules(holders),
                            "profile": _stats(profile)}
    custom = (selection.get("customName") or "").strip()
    if custom:
        unit["custom_name"] = custom
    if unit_type:
        unit["type"] = unit_type
    points = _points([selection, *own])
    if points is not None:
        unit["points"] = points
    if len(kinds) > 1:
        unit["parts"] = [_part(m) for m in models]
    here = [*trail, _label(selection)]
    yield unit, PATH_SEPARATOR.join(here)
    for child in nested:
        yield from _unit(child, system, here, types)


def _model(selection: Element, inherited: list[str]) -> dict[str, Any]:
    """A Kill Team model: its own entry, its keywords from categories (module docstring)."""
    own, _ = _own(selection)
    elements = [selection, *own]
    _, profile = _unit_type(elements)
    keywords = [*inherited, *(k for e in elements for c in _categories(e) if (k := _keyword(c)))]
    unit: dict[str, Any] = {"name": (selection.get("name") or "").strip() or "(без имени)",
                            "models": max(_number(selection.get("number")) or 1, 1),
                            "rules": _rules(elements), "profile": _stats(profile),
                            "keywords": list(dict.fromkeys(keywords))}
    custom = (selection.get("customName") or "").strip()
    if custom:
        unit["custom_name"] = custom
    points = _points(elements)
    if points is not None:
        unit["points"] = points
    return unit


def _part(model: Element) -> dict[str, Any]:
    own, _ = _own(model)
    _, profile = _unit_type([model, *own])
    return {"role": "model", "count": max(_number(model.get("number")) or 1, 1),
            "name": _label(model), "rules": _rules([model, *own]), "profile": _stats(profile)}
