"""Where the fields of a list's values are written, kept as numbers (:mod:`validator.inputs.source`
reads a list unit by unit and keeps each unit's positions in these tables): a unit of a million
rules costs a few bytes a field, and the walker looks a field up by its path
("units[3].rules[0]").
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from validator.inputs.errors import FieldPath
from validator.inputs.models import format_path

_TOKEN = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


class Pos(NamedTuple):
    """Where a value starts (1-based): a light :class:`SourcePos` for units read in passing."""

    line: int
    column: int


class PositionTable(Mapping[FieldPath, Pos]):
    """Where the fields of one value are written (path → :class:`Pos`), kept as numbers: one
    array per mapping (with its keys, a tuple shared by the mappings that have the same) and
    one per sequence, so a unit of a million rules or a hundred thousand parts costs a few
    bytes per field, not a tuple and a pair each."""

    __slots__ = ("_start", "_keys", "_items", "_shared", "_count")

    def __init__(self, start: Pos | None = None) -> None:
        self._start = start
        self._count: int = start is not None
        self._keys: dict[FieldPath, tuple[Any, array[int]]] = {}
        self._items: dict[FieldPath, array[int]] = {}
        self._shared: dict[tuple[Any, ...], tuple[Any, ...]] = {}

    def key(self, mapping: FieldPath, key: Any, line: int, column: int) -> None:
        """The position of a new key of the mapping at ``mapping``."""
        found = self._keys.get(mapping)
        if found is None:
            found = self._keys[mapping] = ([], array("I"))
        self._count += 1
        found[0].append(key)
        found[1].append(line)
        found[1].append(column)

    def close(self, mapping: FieldPath) -> None:
        """The mapping at ``mapping`` is read: its keys become a shared tuple."""
        found = self._keys.get(mapping)
        if found is not None:
            keys = tuple(found[0])
            self._keys[mapping] = (self._shared.setdefault(keys, keys), found[1])

    def item(self, sequence: FieldPath, line: int, column: int) -> None:
        """The position of the next item of the sequence at ``sequence``."""
        found = self._items.get(sequence)
        if found is None:
            found = self._items[sequence] = array("I")
        self._count += 1
        found.append(line)
        found.append(column)

    def __getitem__(self, path: FieldPath) -> Pos:
        if not path:
            if self._start is None:
                raise KeyError(path)
            return self._start
        last, parent = path[-1], path[:-1]
        if type(last) is int:
            items = self._items.get(parent)
            if items is not None and 0 <= last and 2 * last < len(items):
                return Pos(items[2 * last], items[2 * last + 1])
        keyed = self._keys.get(parent)
        if keyed is not None and last in keyed[0]:
            at = keyed[0].index(last)
            return Pos(keyed[1][2 * at], keyed[1][2 * at + 1])
        raise KeyError(path)

    def __iter__(self) -> Iterator[FieldPath]:
        if self._start is not None:
            yield ()
        for mapping, (keys, _) in self._keys.items():
            for key in keys:
                yield (*mapping, key)
        for sequence, items in self._items.items():
            for index in range(len(items) // 2):
                yield (*sequence, index)

    def __len__(self) -> int:
        return self._count


class _Discarded(PositionTable):
    """Positions nobody asks for (of a mapping's keys themselves)."""

    __slots__ = ()

    def key(self, mapping: FieldPath, key: Any, line: int, column: int) -> None:
        pass

    def close(self, mapping: FieldPath) -> None:
        pass

    def item(self, sequence: FieldPath, line: int, column: int) -> None:
        pass


NOWHERE = _Discarded()
"""The positions nobody asks for."""


class UnitPositionMap(Mapping[str, Any]):
    """The positions inside one streamed unit, looked up by the walker's field paths
    ("units[3].rules[0]"); kept as relative paths, so no second table of strings is built."""

    def __init__(self, index: int, positions: Mapping[FieldPath, Any]) -> None:
        self.index = index
        self.positions = positions

    def _path(self, key: str) -> FieldPath | None:
        path = tuple(int(i) if i else n for n, i in _TOKEN.findall(key))
        if path[:2] != ("units", self.index):
            return None
        return path[2:]

    def __getitem__(self, key: str) -> Any:
        path = self._path(key)
        if path is None or path not in self.positions:
            raise KeyError(key)
        return self.positions[path]

    def __iter__(self) -> Iterator[str]:
        return (format_path(("units", self.index, *p)) for p in self.positions)

    def __len__(self) -> int:
        return len(self.positions)
