"""A list to check, unit by unit: held whole when small, read twice and streamed when big.

:func:`open_list` gives a :class:`ListSource` for any list file. A roster or a list file up to
:data:`STREAM_BYTES` is read whole (:func:`~validator.inputs.lists.read_list`); a bigger YAML
or JSON list is read in two passes so that memory does not grow with its units: the first
validates every unit and keeps only the units' ids and the input errors, the second yields the
units one by one for the checks, each dropped once checked. Both give the same units with the
same positions, so a list is reported the same whatever its size.

Example::

    source = open_list("tournament/big.yaml")
    for index, unit, positions in source.units():
        ...
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from kb.ids import FreeIds
from validator.inputs.errors import (
    READER_FIELDS,
    FieldPath,
    Positions,
    fail,
    input_errors,
    unknown_field,
)
from validator.inputs.files import LIST_SUFFIXES, decode, read_bytes
from validator.inputs.lists import (
    LOADER,
    json_syntax_error,
    lone_surrogate_error,
    long_number_error,
    read_list,
    too_deep_error,
    yaml_error,
)
from validator.inputs.models import (
    DEFAULT_MAX_BYTES,
    ArmyList,
    InputError,
    ListInputError,
    Part,
    SourcePos,
    Unit,
    format_path,
    normalize_system,
    slug,
)
from validator.inputs.positions import NOWHERE, Pos, PositionTable, UnitPositionMap

STREAM_BYTES = 1 << 20
"""A YAML or JSON list bigger than this (bytes) is streamed unit by unit (two passes)."""
MAX_ERRORS = 200
"""The most input errors kept for one list; the rest are counted, not held."""

UnitPositions = Mapping[str, Any]
"""Field path as text ("units[3].rules[0]") → where it is written (``.line``, ``.column``)."""


@dataclass
class ListSource:
    """A list's head (everything but its units) and its units, to iterate once or more.

    Attributes:
        head: the list without its units (``units`` is empty); its positions are the head's.
        ids: the id of every unit, in order (a unit without one has its name's slug).
    """

    head: ArmyList
    ids: tuple[str, ...]
    _army: ArmyList | None = None
    _text: bytes | None = field(default=None, repr=False)
    _fmt: str = "yaml"

    @classmethod
    def from_army(cls, army: ArmyList) -> ListSource:
        """A source over a list already read whole."""
        return cls(army.model_copy(update={"units": ()}), tuple(u.id for u in army.units), army)

    @property
    def count(self) -> int:
        """How many units the list has."""
        return len(self.ids)

    def units(self) -> Iterator[tuple[int, Unit, UnitPositions]]:
        """Every unit in order, with the positions its fields are written at."""
        if self._army is not None:
            for index, unit in enumerate(self._army.units):
                yield index, unit, self._army.positions
            return
        assert self._text is not None
        for index, held, positions, _ in _scan_units(self._text, self._fmt):
            data = held.take()
            if isinstance(data, dict) and "id" not in data and index < len(self.ids):
                data = {**data, "id": self.ids[index]}
            unit = Unit.model_validate(data)  # the first pass found it valid
            del data
            yield index, unit, UnitPositionMap(index, positions)


def open_list(path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES,
              aliases: Any = None) -> ListSource:
    """A :class:`ListSource` for a list or roster file (see the module docstring).

    Raises:
        ListInputError: the file cannot be used; its ``errors`` say why and where.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in LIST_SUFFIXES:
        return ListSource.from_army(read_list(p, max_bytes=max_bytes, aliases=aliases))
    try:
        size = p.stat().st_size
    except OSError:
        size = 0  # read_list says what is wrong with it
    if size <= STREAM_BYTES:
        return ListSource.from_army(read_list(p, max_bytes=max_bytes, aliases=aliases))
    text = decode(read_bytes(p, max_bytes), str(p))
    return _streamed(text, str(p), "json" if suffix == ".json" else "yaml")


# --- the two passes ---------------------------------------------------------------------------


def _streamed(text: str, file: str, fmt: str) -> ListSource:
    """The first pass: validate the head and every unit, keep ids and errors only."""
    head: dict[str, Any] = {}
    head_positions: Positions = {}
    errors: list[InputError] = []
    skipped = 0
    explicit: list[str | None] = []
    names: list[str | None] = []
    saw_units = False
    for kind, key, value, positions, repeats in _scan(text, fmt, file):
        for error in repeats:
            if len(errors) < MAX_ERRORS:
                errors.append(error.at(file))
            else:
                skipped += 1
        if kind == "head":
            if key is not None:  # None: the document itself
                head[key] = value
            head_positions.update(positions)
            continue
        saw_units = True
        value = value.take()
        explicit.append(value.get("id") if isinstance(value, dict)
                        and isinstance(value.get("id"), str) else None)
        named = value.get("custom_name") or value.get("name") if isinstance(
            value, dict) else None
        names.append(named if isinstance(named, str) else None)
        problems = _unit_errors(value, key, positions, file)
        room = MAX_ERRORS - len(errors)
        errors.extend(problems[:max(room, 0)])
        skipped += max(len(problems) - max(room, 0), 0)
    if saw_units:
        head.setdefault("units", [])
    errors[:0] = _head_errors(head, head_positions, file)
    if errors:
        system = head.get("system")
        errors.sort(key=lambda e: (e.line or 0, e.column or 0))
        if skipped:
            errors.append(InputError(message=f"и ещё ошибок: {skipped} (показаны первые "
                                     f"{MAX_ERRORS})", kind="more", file=file))
        raise ListInputError(errors, system=normalize_system(system)
                             if isinstance(system, str) else None)
    head_data = {k: v for k, v in head.items() if k != "units"}
    army = ArmyList.model_validate({**head_data, "units": []})
    army = army.model_copy(update={"source": file, "positions": {
        format_path(k): SourcePos(line=v.line, column=v.column)
        for k, v in head_positions.items()}})
    # the second pass reads UTF-8, which the parser would otherwise make of the text again
    return ListSource(army, _ids(explicit, names), None, text.encode("utf-8"), fmt)


def _ids(explicit: list[str | None], names: list[str | None]) -> tuple[str, ...]:
    """Each unit's id as :class:`ArmyList` gives it: its own, else a free slug of its name."""
    free = FreeIds(i for i in explicit if i is not None)
    return tuple(given if given is not None else free.take(slug(name or ""))
                 for given, name in zip(explicit, names, strict=True))


def _unit_errors(value: Any, index: int, positions: Positions, file: str) -> list[InputError]:
    try:
        Unit.model_validate(value)
    except ValidationError as exc:
        return [e.descend("units", index) for e in input_errors(exc, value, Unit, positions, file)]
    return []


def _head_errors(head: dict[str, Any], positions: Positions, file: str) -> list[InputError]:
    problems: list[InputError] = []
    for name in sorted(READER_FIELDS & head.keys()):
        where = positions.get((name,))
        problems.append(unknown_field(name, (), ArmyList).at(
            file, where.line if where else None, where.column if where else None))
    data = {k: v for k, v in head.items() if k != "units" or not isinstance(v, list)}
    if isinstance(head.get("units"), list):
        data["units"] = []
    try:
        ArmyList.model_validate(data)
    except ValidationError as exc:
        problems.extend(input_errors(exc, data, ArmyList, positions, file))
    return problems


# --- scanning a document unit by unit ---------------------------------------------------------

Scanned = tuple[str, Any, Any, Any, list[InputError]]
"""("head", key, value, positions, repeated keys) or ("unit", index, Held(value), …): a head
field's positions are of the whole path, a unit's relative to the unit; the first is
("head", None, None, where the document begins, [])."""


def _scan(text: str | bytes, fmt: str, file: str) -> Iterator[Scanned]:
    """The head fields and the units of a list text, one at a time (see :data:`Scanned`;
    repeated keys as errors).

    Raises:
        ListInputError: a syntax error, or a document that is not a mapping (read whole
            instead, for the same message as a small file).
    """
    if fmt == "json":
        yield from _scan_json(text, file)
        return
    try:
        yield from _events(text)
    except _NotAMapping:
        raise _whole(text, file, fmt) from None
    except yaml.YAMLError as exc:
        raise yaml_error(exc, file) from None
    except RecursionError:
        raise too_deep_error(file, _text(text)) from None


def _whole(text: str | bytes, file: str, fmt: str) -> ListInputError:
    """The error a small file of this text gets (a document that is not a list at all)."""
    from validator.inputs.lists import parse_list

    try:
        parse_list(text if isinstance(text, str) else text.decode("utf-8"), file=file, fmt=fmt)
    except ListInputError as exc:
        return exc
    return fail(file, "ожидался словарь с полями system, name, units", "type")  # pragma: no cover


def _text(text: str | bytes) -> str:
    return text if isinstance(text, str) else text.decode("utf-8")


def _scan_json(text: str | bytes, file: str) -> Iterator[Scanned]:
    """A JSON list: values from :mod:`json`, positions from the YAML event parser (which reads
    JSON); without positions when YAML reads the text otherwise (a tab, say)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ListInputError([json_syntax_error(exc, file)]) from None
    except RecursionError:
        raise too_deep_error(file, _text(text)) from None
    except ValueError:  # Python's limit on the length of an int's text (4300 digits)
        raise long_number_error(_text(text), file) from None
    # (the first pass reads the text; the second, its bytes, already found free of them)
    half = lone_surrogate_error(text, file) if isinstance(text, str) else None
    if half is not None:
        raise ListInputError([half])
    if not isinstance(data, dict):
        raise _whole(text, file, "json")
    units = data.get("units")
    done_head: set[str] = set()
    done_units = 0
    try:
        for kind, key, _value, positions, repeats in _events(text, construct=False):
            if kind == "unit" and isinstance(units, list) and key < len(units):
                done_units = key + 1
                yield kind, key, Held(units[key]), positions, repeats
            elif kind == "head" and key is None:
                yield kind, key, None, positions, repeats
            elif kind == "head" and key in data and key not in done_head:
                done_head.add(key)
                value = data[key]
                if key == "units" and isinstance(value, list):
                    value = []  # the units follow one by one
                yield kind, key, value, positions, repeats
    except (yaml.YAMLError, _NotAMapping, RecursionError):
        pass  # what is left is read without positions
    for key, value in data.items():
        if key == "units" and isinstance(value, list):
            for index in range(done_units, len(value)):
                yield "unit", index, Held(value[index]), {}, []
        elif key not in done_head and not (key == "units" and done_units):
            yield "head", key, value, {}, []


def _scan_units(text: bytes, fmt: str) -> Iterator[tuple[int, Held, Mapping[FieldPath, Any],
                                                       list[InputError]]]:
    """The second pass: every unit (to take) with the positions inside it (relative to the
    unit)."""
    file = "<list>"
    for kind, key, value, positions, repeats in _scan(text, fmt, file):
        if kind == "unit":
            yield key, value, positions, repeats


class _NotAMapping(Exception):
    """The document is not a mapping: it is read whole for its error."""


_STR = "tag:yaml.org,2002:str"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"
_MERGE = "tag:yaml.org,2002:merge"


def _events(text: str | bytes, construct: bool = True) -> Iterator[Scanned]:
    """Walk the YAML events of a list, building one head value or one unit at a time, with
    the positions inside it, straight from the events (no node tree is kept)."""
    loader = LOADER(text)
    anchors = _Anchors()
    try:
        loader.get_event()  # stream start
        if loader.check_event(yaml.StreamEndEvent):
            raise _NotAMapping
        loader.get_event()  # document start
        if not loader.check_event(yaml.MappingStartEvent):
            raise _NotAMapping
        start = loader.get_event()
        if start.tag not in (None, "!", _MAP):
            raise _NotAMapping
        root = PositionTable(Pos(start.start_mark.line + 1, start.start_mark.column + 1))
        yield "head", None, None, root, []
        while not loader.check_event(yaml.MappingEndEvent):
            key_event: Any = loader.peek_event()
            key_mark: Any = key_event.start_mark
            if not isinstance(key_event, yaml.ScalarEvent):
                raise _NotAMapping  # a key that is not a string: the whole-file reader says so
            name = _value(loader, anchors, NOWHERE, [])
            if not isinstance(name, str):
                raise _NotAMapping
            key_at = Pos(key_mark.line + 1, key_mark.column + 1)
            if name == "units" and loader.check_event(yaml.SequenceStartEvent) and \
                    loader.peek_event().anchor is None:
                loader.get_event()
                yield ("head", name, [] if construct else None,
                       *_prefixed_light((PositionTable(key_at), []), (name,)))
                index = 0
                while not loader.check_event(yaml.SequenceEndEvent):
                    mark = loader.peek_event().start_mark
                    positions = PositionTable(Pos(mark.line + 1, mark.column + 1))
                    repeats: list[InputError] = []
                    held = Held(_value(loader, anchors, positions, repeats,
                                       parts=_part if construct else None))
                    yield ("unit", index, held if construct else None, positions,
                           [e.descend("units", index) for e in repeats])
                    del held
                    index += 1
                loader.get_event()
                continue
            positions = PositionTable(key_at)
            repeats = []
            value = _value(loader, anchors, positions, repeats)
            yield ("head", name, value if construct else None,
                   *_prefixed_light((positions, repeats), (name,)))
        loader.get_event()  # mapping end
        loader.get_event()  # document end
        if not loader.check_event(yaml.StreamEndEvent):
            raise _NotAMapping  # several documents: the whole-file reader says so
    finally:
        loader.dispose()


def _prefixed_light(found: tuple[PositionTable, list[InputError]], prefix: FieldPath
                    ) -> tuple[Any, list[InputError]]:
    positions, repeats = found
    return ({(*prefix, *k): v for k, v in positions.items()},
            [e.descend(*prefix) for e in repeats])


class _Anchors(dict[str, Any]):
    """The anchors of a document, and the short strings it repeats (each kept once: a
    list of a hundred thousand «Страх» holds one)."""

    __slots__ = ("strings",)

    def __init__(self) -> None:
        super().__init__()
        self.strings: dict[str, str] = {}

    def shared(self, text: str) -> str:
        if len(text) > SHARED_LENGTH:
            return text
        found = self.strings.get(text)
        if found is None:
            if len(self.strings) >= SHARED_STRINGS:
                return text
            found = self.strings[text] = text
        return found


SHARED_LENGTH = 64
"""Strings up to this long that a document repeats are kept once …"""
SHARED_STRINGS = 50_000
"""… up to this many different ones."""


class Held:
    """A unit's value handed on by the reader, to be taken, so that the reader keeps no
    reference to it once the unit is checked."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def take(self) -> Any:
        value, self.value = self.value, None
        return value


def _part(value: Any) -> Any:
    """A part of a unit as a :class:`Part` as soon as it is read (its text is dropped at
    once: a unit may have a hundred thousand parts); as read if it is not one."""
    try:
        return Part.model_validate(value)
    except ValidationError:
        return value  # the unit's own validation says why


def _value(loader: Any, anchors: _Anchors, positions: PositionTable,
           repeats: list[InputError], path: FieldPath = (),
           parts: Callable[[Any], Any] | None = None) -> Any:
    """The value of the next events, as PyYAML's safe loader builds it; every mapping key
    and sequence item's position recorded under its path (relative to where it began).
    ``parts`` makes each item of the value's own ``parts`` sequence as it is read."""
    event: Any = loader.get_event()
    start: Any = event.start_mark  # the C parser's mark: a class the node stubs do not name
    end: Any = event.end_mark
    if isinstance(event, yaml.AliasEvent):
        anchor = event.anchor or ""
        if anchor not in anchors:
            raise yaml.composer.ComposerError(None, None, f"found undefined alias "
                                              f"{anchor!r}", start)
        return anchors[anchor]
    tag = event.tag
    if isinstance(event, yaml.ScalarEvent):
        if tag is None or tag == "!":
            tag = loader.resolve(yaml.ScalarNode, event.value, event.implicit)
        if tag == _STR:
            value = anchors.shared(event.value)
        else:
            node = yaml.ScalarNode(tag, event.value, start, end, style=event.style)
            value = loader.construct_object(node)
            loader.constructed_objects.pop(node, None)  # the constructor would keep every one
        if event.anchor:
            anchors[event.anchor] = value
        return value
    if isinstance(event, yaml.SequenceStartEvent):
        if tag not in (None, "!", _SEQ):
            raise yaml.constructor.ConstructorError(
                None, None, f"could not determine a constructor for the tag {tag!r}", start)
        items: list[Any] = []
        if event.anchor:
            anchors[event.anchor] = items
        while not loader.check_event(yaml.SequenceEndEvent):
            mark = loader.peek_event().start_mark
            positions.item(path, mark.line + 1, mark.column + 1)
            item = _value(loader, anchors, positions, repeats, (*path, len(items)))
            items.append(parts(item) if parts is not None and path == ("parts",) else item)
        loader.get_event()
        return items
    if isinstance(event, yaml.MappingStartEvent):
        if tag not in (None, "!", _MAP):
            raise yaml.constructor.ConstructorError(
                None, None, f"could not determine a constructor for the tag {tag!r}", start)
        mapping: dict[Any, Any] = {}
        if event.anchor:
            anchors[event.anchor] = mapping
        merged: list[dict[Any, Any]] = []
        while not loader.check_event(yaml.MappingEndEvent):
            key_event: Any = loader.peek_event()
            key_mark: Any = key_event.start_mark
            merge = isinstance(key_event, yaml.ScalarEvent) and key_event.value == "<<" and (
                key_event.tag == _MERGE or (key_event.tag is None and key_event.implicit[0]))
            if merge:
                loader.get_event()
                found = _value(loader, anchors, NOWHERE, repeats)
                merged.extend(found if isinstance(found, list) else [found])
                continue
            key = _value(loader, anchors, NOWHERE, repeats)
            try:
                hash(key)
            except TypeError:
                raise yaml.constructor.ConstructorError(
                    "while constructing a mapping", start, "found unhashable key",
                    key_mark) from None
            line, column = key_mark.line + 1, key_mark.column + 1
            if key in mapping:
                repeats.append(InputError(message=f"поле «{key}» повторяется", kind="duplicate",
                                          path=path, line=line, column=column))
            else:
                positions.key(path, key, line, column)
            mapping[key] = _value(loader, anchors, positions, repeats, (*path, key),
                                  parts if not path else None)
        positions.close(path)
        loader.get_event()
        for extra in merged:
            if isinstance(extra, dict):
                for key, value in extra.items():
                    mapping.setdefault(key, value)
        return mapping
    raise yaml.composer.ComposerError(None, None, "unexpected event", start)
