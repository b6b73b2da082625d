"""Read game logs (FORMATS §3): the header at once, the events as a stream.

:func:`read_log` reads only the header line and the armies it names; a log whose header
cannot be used raises :class:`~validator.inputs.models.GameLogError`, since nothing in it can be
audited. :meth:`GameLog.events` then reads the rest line by line, in constant memory, and
never stops: a malformed line yields an :class:`~validator.inputs.models.InputError` in its place,
an action no check knows yields an :class:`~validator.inputs.events.UnknownEvent`. A file may
hold several games one after another (``cat`` of logs), each under its own header: a header
line after the first yields a :class:`NextGame`.

Example::

    log = read_log("game.jsonl")
    for line, item in log.events():
        if isinstance(item, InputError):
            print(item)          # game.jsonl:5:31: поле distance: ожидалось число, …
        elif isinstance(item, BaseEvent):
            print(line, item.action)
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from kb.files import os_reason, wide_encoding
from validator.inputs.events import EVENT_TYPES, BaseEvent, GameHeader, KnownEvent, UnknownEvent
from validator.inputs.files import is_folder
from validator.inputs.lists import (
    Positions,
    build_list,
    got,
    input_errors,
    json_syntax_error,
    lone_surrogate_error,
    parse_json,
    read_list,
)
from validator.inputs.models import (
    DEFAULT_MAX_BYTES,
    ArmyList,
    GameLogError,
    InputError,
    ListInputError,
)

DEFAULT_MAX_LINE_BYTES = 1024 * 1024
"""Longest event line read (bytes); a longer one is skipped and reported."""

# Built once: validating a line is then a single call into pydantic-core (a few µs).
_EVENTS: TypeAdapter[Any] = TypeAdapter(KnownEvent)
_HEADER_EXAMPLE = '{"type": "game", "system": …, "armies": {…}}'


def _shift(error: InputError, line: int) -> InputError:
    """An error found in one line's text, placed at that line of the log."""
    return error.model_copy(update={"line": line + (error.line or 1) - 1})


def _decode(raw: bytes, file: str, line: int) -> str | InputError:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        wide = wide_encoding(raw) if line == 1 else None
        if wide is not None:  # (a recorder on Windows saved it as "Unicode")
            name = wide[0].removesuffix("-le").removesuffix("-be").upper()
            return InputError(message=f"файл в кодировке {name} (метка BOM в начале); журнал "
                              "партии читается в UTF-8: сохраните его в UTF-8",
                              kind="encoding", file=file, line=1, column=1)
        return InputError(message=f"строка не в кодировке UTF-8 (байт 0x{raw[exc.start]:02x})",
                          kind="encoding", file=file, line=line, column=exc.start + 1)


# --- events ---------------------------------------------------------------------------------


def _event_errors(raw: bytes, exc: ValidationError, file: str, line: int) -> list[InputError]:
    """Why a line is not an event; only called for a bad line, so speed does not matter."""
    text = _decode(raw.rstrip(b"\r\n"), file, line)
    if isinstance(text, InputError):
        return [text]
    try:
        data = json.loads(text)
    except json.JSONDecodeError as bad:
        return [json_syntax_error(bad, file).model_copy(update={"line": line})]
    except RecursionError:
        return [InputError(message="слишком глубокая вложенность", kind="syntax", file=file,
                           line=line)]
    except ValueError:  # Python's limit on the length of an int's text
        return [InputError(message="слишком длинное число (больше 4300 цифр)", kind="syntax",
                           file=file, line=line)]
    half = lone_surrogate_error(text, file)
    if half is not None:
        return [half.model_copy(update={"line": line})]
    if not isinstance(data, dict):
        return [InputError(message=f"ожидался объект JSON с полем «action», {got(data)}",
                           kind="type", expected="объект", file=file, line=line, column=1)]
    kind = exc.errors(include_url=False)[0]["type"]
    if kind == "union_tag_not_found":
        return [InputError(message="нет обязательного поля «action»", kind="missing",
                           expected="action", file=file, line=line, column=1)]
    if kind == "union_tag_invalid":
        exc = _unknown_event_errors(data)
    try:
        _, positions, _ = parse_json(text, file)
    except ListInputError:
        positions = {}
    model = EVENT_TYPES.get(str(data.get("action")), UnknownEvent)
    return [_shift(e, line) for e in input_errors(exc, data, model, positions, file)]


def _unknown_event_errors(data: dict[str, Any]) -> ValidationError:
    try:
        UnknownEvent.model_validate(data)
    except ValidationError as exc:
        return exc
    raise AssertionError("only called when the line did not validate")  # pragma: no cover


def parse_event(raw: bytes | str) -> BaseEvent:
    """One event from its JSON text; an unknown action gives an :class:`UnknownEvent`.

    Raises:
        pydantic.ValidationError: the text is not a valid event.
    """
    try:
        event: BaseEvent = _EVENTS.validate_json(raw)
    except ValidationError as exc:
        if exc.errors(include_url=False)[0]["type"] != "union_tag_invalid":
            raise
        return UnknownEvent.model_validate_json(raw)
    return event


_HEADER_MARK = re.compile(rb'"type"\s*:\s*"game"')
_UTF8_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class NextGame:
    """A header line after the first: the next game of a log that holds several.

    ``header`` is None when that header (or an army it names) could not be used; its errors
    come before it, and the events up to the next header cannot be audited.
    """

    header: GameHeader | None
    armies: dict[str, ArmyList]


class GameLog:
    """An open game log: its header and armies read, its events ready to stream.

    Attributes:
        path: the log file.
        header: the parsed header line.
        header_line: the line number of the header (1 unless blank lines precede it).
        armies: player → army list, read from the files the header names or given inline.
    """

    def __init__(self, path: Path, header: GameHeader, armies: dict[str, ArmyList],
                 header_line: int, offset: int, max_line_bytes: int,
                 max_list_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.path = path
        self.header = header
        self.header_line = header_line
        self.armies = armies
        self._offset = offset
        self._max_line_bytes = max_line_bytes
        self._max_list_bytes = max_list_bytes

    @property
    def system(self) -> str:
        """The game system of the log."""
        return self.header.system

    def events(self) -> Iterator[tuple[int, BaseEvent | InputError | NextGame]]:
        """``(line number, event)`` for every event line, in order, read one line at a time.

        A malformed line (not JSON, a field of the wrong type, a missing field, too long)
        yields ``(line number, InputError)`` instead: one per problem found in it. A header
        line (``"type": "game"``) after the first starts the next game of the file and
        yields a :class:`NextGame`. Blank lines are skipped. The file is opened anew on
        every call, so this can run twice.
        """
        file = str(self.path)
        limit = self._max_line_bytes
        validate = _EVENTS.validate_json
        line = self.header_line
        with self.path.open("rb") as stream:
            stream.seek(self._offset)
            readline = stream.readline
            while raw := readline(limit + 2):  # the line, and its end ("\r\n") if it fits
                line += 1
                if len(raw) > limit and len(raw.rstrip(b"\r\n")) > limit:
                    while not raw.endswith(b"\n") and (raw := readline(65536)):
                        pass  # skip the rest of the overlong line without holding it
                    yield line, InputError(
                        message=f"строка длиннее {limit} байт; пропущена", kind="too_large",
                        file=file, line=line)
                    continue
                if raw.isspace():
                    continue
                try:
                    yield line, validate(raw)
                except ValidationError as exc:
                    yield from self._bad_line(raw, exc, line)

    def _bad_line(self, raw: bytes, exc: ValidationError, line: int
                  ) -> Iterator[tuple[int, BaseEvent | InputError | NextGame]]:
        """A line that is no known event: an unknown action, the next game's header, or
        what is wrong with it. A byte order mark opening it is dropped first: a log joined
        from files an editor saved with one (``cat a.jsonl b.jsonl``) has one at the start
        of each game."""
        if raw.startswith(_UTF8_BOM):
            raw = raw[len(_UTF8_BOM):]
            if raw.isspace() or not raw:
                return
            try:
                yield line, _EVENTS.validate_json(raw)
                return
            except ValidationError as again:
                exc = again
        kind = exc.errors(include_url=False)[0]["type"]
        if kind == "union_tag_invalid":
            try:
                yield line, UnknownEvent.model_validate_json(raw)
                return
            except ValidationError:
                pass
        elif kind == "union_tag_not_found" and _HEADER_MARK.search(raw):
            yield from self._next_game(raw, line)
            return
        for error in _event_errors(raw, exc, str(self.path), line):
            yield line, error

    def _next_game(self, raw: bytes, line: int) -> Iterator[tuple[int, NextGame | InputError]]:
        """A header after the first: the next game of a log of several games."""
        file = str(self.path)
        try:
            header, positions = _header(raw, file, line)
            armies = _armies(header, positions, self.path, line, self._max_list_bytes)
        except GameLogError as exc:
            for error in exc.errors:
                yield line, error
            yield line, NextGame(None, {})
            return
        yield line, NextGame(header, armies)

    def __repr__(self) -> str:
        return f"GameLog({str(self.path)!r}, {self.system}, armies={sorted(self.armies)})"


# --- header ---------------------------------------------------------------------------------


def _header(raw: bytes, file: str, line: int) -> tuple[GameHeader, Positions]:
    text = _decode(raw.rstrip(b"\r\n"), file, line)
    if isinstance(text, InputError):
        raise GameLogError([text])
    try:
        data, positions, _ = parse_json(text, file)
    except ListInputError as exc:
        errors = [e.model_copy(update={"message": f"заголовок партии: {e.message}"})
                  for e in exc.errors]
        raise GameLogError([_shift(e, line) for e in errors]) from None
    if not isinstance(data, dict):
        raise GameLogError([InputError(
            message=f"первая строка должна быть заголовком партии {_HEADER_EXAMPLE}; {got(data)}",
            kind="type", file=file, line=line, column=1)])
    if "type" not in data and "action" in data:
        raise GameLogError([InputError(
            message=f"нет заголовка партии: первая строка — событие «{data['action']}»; "
                    f"ожидалось {_HEADER_EXAMPLE}", kind="missing", file=file, line=line,
            column=1)])
    try:
        return GameHeader.model_validate(data), positions
    except ValidationError as exc:
        errors = input_errors(exc, data, GameHeader, positions, file)
        raise GameLogError([_shift(e, line) for e in errors]) from None


def _armies(header: GameHeader, positions: Positions, log: Path, line: int,
            max_list_bytes: int) -> dict[str, ArmyList]:
    """The armies a header names; an army that cannot be read makes the log unusable."""
    file = str(log)
    armies: dict[str, ArmyList] = {}
    errors: list[InputError] = []
    for player, given in header.armies.items():
        where = ("armies", player)
        column = positions[where].column if where in positions else None
        try:
            if isinstance(given, str):
                army = read_list(log.parent / given, max_bytes=max_list_bytes)
            else:
                inline = {p[2:]: pos for p, pos in positions.items() if p[:2] == where}
                army = build_list(given, file=file, default_system=header.system,
                                  positions=inline)
        except ListInputError as exc:
            if isinstance(given, str):
                errors.append(InputError(
                    message=f"не удалось прочитать список армии «{given}»", kind="army",
                    path=where, file=file, line=line, column=column))
                errors.extend(exc.errors)
            else:
                errors.extend(_shift(e, line).descend(*where) for e in exc.errors)
            continue
        if army.system != header.system:
            errors.append(InputError(
                message=f"система списка «{army.system}» не совпадает с системой партии "
                        f"«{header.system}»", kind="value", path=where, file=file, line=line,
                column=column))
        armies[player] = army
    if errors:
        raise GameLogError(errors)
    return armies


def read_log(
    path: str | os.PathLike[str],
    *,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    max_header_bytes: int = DEFAULT_MAX_BYTES,
    max_list_bytes: int = DEFAULT_MAX_BYTES,
) -> GameLog:
    """Open a game log: parse its header and read the armies it names.

    Army paths are relative to the log file. Events are not read here: see
    :meth:`GameLog.events`.

    Raises:
        GameLogError: the file is missing or empty, or its header (or an army) is unusable.
    """
    log = Path(path)
    file = str(log)
    if is_folder(log):
        raise GameLogError([InputError(message="это папка, а в ней нет журналов партий (.jsonl)",
                                       kind="io", file=file)])
    try:
        stream = log.open("rb")
    except FileNotFoundError:
        raise GameLogError([InputError(message="файл не найден", kind="not_found",
                                       file=file)]) from None
    except OSError as exc:
        raise GameLogError([InputError(message=f"не удалось прочитать файл ({os_reason(exc)})",
                                       kind="io", file=file)]) from None
    with stream:
        line = 0
        while True:
            raw = stream.readline(max_header_bytes + 2)
            if not raw:
                raise GameLogError([InputError(message="файл пуст: нет заголовка партии",
                                               kind="empty", file=file)])
            line += 1
            if len(raw) > max_header_bytes and len(raw.rstrip(b"\r\n")) > max_header_bytes:
                raise GameLogError([InputError(
                    message=f"заголовок партии длиннее {max_header_bytes} байт", kind="too_large",
                    file=file, line=line)])
            if line == 1:
                raw = raw.removeprefix(_UTF8_BOM)
            if not raw.isspace() and raw:
                break
        offset = stream.tell()
    header, positions = _header(raw, file, line)
    armies = _armies(header, positions, log, line, max_list_bytes)
    return GameLog(log, header, armies, line, offset, max_line_bytes, max_list_bytes)

