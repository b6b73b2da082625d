"""Read army lists (FORMATS §2) from YAML and JSON files, and rosters through :mod:`roster`.

Every problem becomes an :class:`~validator.inputs.models.InputError` placed at the line and column
where the offending field is written; the errors of one file travel together in a
:class:`~validator.inputs.models.ListInputError`. Positions come from composing the YAML node tree
(JSON is read by :mod:`json` for its values and by the YAML composer for its positions).

Example::

    army = read_list("army.yaml")
    for item in read_lists(["lists/"]):
        print(item if isinstance(item, ListInputError) else item.name)
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from kb.store import json_problem, lone_surrogate, position
from validator.inputs import liberrors
from validator.inputs.errors import (
    READER_FIELDS,
    FieldPath,
    Positions,
    fail,
    got,
    input_errors,
    known_fields,
    locate,
    unknown_field,
)
from validator.inputs.files import (
    ALL_SUFFIXES,
    LIST_SUFFIXES,
    ROSTER_SUFFIXES,
    decode,
    list_files,
    names_something,
    read_bytes,
)
from validator.inputs.models import (
    DEFAULT_MAX_BYTES,
    ArmyList,
    InputError,
    ListInputError,
    SourcePos,
    format_path,
    normalize_system,
)

__all__ = [
    "ALL_SUFFIXES", "LIST_SUFFIXES", "LOADER", "READER_FIELDS", "ROSTER_SUFFIXES", "FieldPath",
    "Positions", "build_list", "decode", "deepest_bracket", "fail", "got", "input_errors",
    "json_syntax_error", "known_fields", "list_files", "locate", "lone_surrogate_error",
    "long_number_error", "parse_json", "parse_list", "parse_yaml", "positions_of", "read_bytes",
    "read_list", "read_lists", "too_deep_error", "unknown_field", "yaml_error",
]
"""What readers import from here (the helpers of :mod:`.errors` and :mod:`.files` too)."""

LOADER: Any = liberrors.Loader
"""The YAML loader of lists: PyYAML's safe loader, in C when it is built; a value it cannot
construct is an error at that value (:mod:`.liberrors`)."""


_fail = fail


# --- parsing with positions -----------------------------------------------------------------

def json_syntax_error(exc: json.JSONDecodeError, file: str | None) -> InputError:
    """An :class:`InputError` for a JSON syntax error, at the parser's line and column."""
    return InputError(message=f"ошибка синтаксиса JSON: {json_problem(exc.msg)}",
                      kind="syntax", file=file, line=exc.lineno, column=exc.colno)


def lone_surrogate_error(text: str, file: str | None) -> InputError | None:
    r"""The error for a ``\uXXXX`` escape of a JSON text that writes half of a UTF-16
    surrogate pair (``"\ud800"``), which :mod:`json` reads into a string no report can
    write; None when the text has none (:func:`kb.store.lone_surrogate`)."""
    half = lone_surrogate(text)
    if half is None:
        return None
    line, column = position(text, half[0])
    return InputError(message=f"ошибка синтаксиса JSON: недопустимая escape-последовательность "
                      f"«{half[1]}»: половина суррогатной пары UTF-16 без второй половины",
                      kind="syntax", file=file, line=line, column=column)


def long_number_error(text: str, file: str | None) -> ListInputError:
    """The error for a number longer than Python reads (4300 digits), at the first one."""
    where: dict[str, int] = {}
    found = re.search(r"\d{4000,}", text)
    if found is not None:
        where = {"line": text.count("\n", 0, found.start()) + 1,
                 "column": found.start() - (text.rfind("\n", 0, found.start()) + 1) + 1}
    return _fail(file, "слишком длинное число (больше 4300 цифр)", "syntax", **where)


_YAML_UNPRINTABLE_RE = re.compile("[\x7f-\x84\x86-\x9f\ufffe\uffff]")
_NESTING_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"|[\[\]{}]')


_JSON_TOKEN_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"|[\[\]{}:,]')


def _top_level_positions(text: str) -> Positions:
    """Where the document and each key of a top-level JSON object start (no recursion)."""
    positions: Positions = {}
    depth = 0
    expect_key = False
    for match in _JSON_TOKEN_RE.finditer(text):
        token, start = match.group(), match.start()
        if not positions:
            positions[()] = _position(text, start)
        if token in "[{":
            depth += 1
            expect_key = token == "{" and depth == 1
        elif token in "]}":
            depth -= 1
        elif token == ",":
            expect_key = depth == 1
        elif token == ":":
            expect_key = False
        elif expect_key and depth == 1:
            positions.setdefault((json.loads(token),), _position(text, start))
            expect_key = False
    return positions


def _position(text: str, offset: int) -> SourcePos:
    line = text.count("\n", 0, offset) + 1
    return SourcePos(line=line, column=offset - (text.rfind("\n", 0, offset) + 1) + 1)


def too_deep_error(file: str | None, text: str | None = None) -> ListInputError:
    """Nesting deeper than the parser's recursion allows, at the bracket that goes deepest
    (or, in YAML's block style, which nests by indentation, at the line indented deepest)."""
    where: dict[str, int] = {}
    if text is not None:
        at = deepest_bracket(text)
        if at is None:
            at = _deepest_indent(text)
        if at is not None:
            where = {"line": text.count("\n", 0, at) + 1,
                     "column": at - (text.rfind("\n", 0, at) + 1) + 1}
    return _fail(file, "слишком глубокая вложенность", "syntax", **where)


def deepest_bracket(text: str) -> int | None:
    """The offset of the bracket («[» or «{») that opens the deepest nesting of a text."""
    depth = deepest = 0
    at = None
    for match in _NESTING_RE.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > deepest:
                deepest, at = depth, match.start()
        elif token in "]}":
            depth -= 1
    return at


def _deepest_indent(text: str) -> int | None:
    """The offset where the line indented deepest starts (spaces and the «- » of block
    sequences count), or None for a text of no indented line."""
    best, at, offset = 0, None, 0
    for line in text.splitlines(keepends=True):
        depth = len(line) - len(line.lstrip(" -"))
        if depth > best and line.strip():
            best, at = depth, offset + len(line) - len(line.lstrip(" "))
        offset += len(line)
    return at


def positions_of(node: Any) -> tuple[Positions, list[InputError]]:
    """Where every key and list item of a composed YAML tree starts; repeated keys as errors.

    Aliases are followed once: a node already seen is not walked again, so an alias bomb
    costs no more than its text.
    """
    positions: Positions = {(): SourcePos(line=node.start_mark.line + 1,
                                          column=node.start_mark.column + 1)}
    repeats: list[InputError] = []
    seen: set[int] = set()
    stack: list[tuple[Any, FieldPath]] = [(node, ())]
    while stack:
        current, path = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, yaml.MappingNode):
            keys: set[str] = set()
            for key, value in current.value:
                if not isinstance(key, yaml.ScalarNode) or key.value == "<<":
                    continue
                mark = key.start_mark
                where = SourcePos(line=mark.line + 1, column=mark.column + 1)
                if key.value in keys:
                    repeats.append(InputError(
                        message=f"поле «{key.value}» повторяется", kind="duplicate",
                        path=path, line=where.line, column=where.column))
                keys.add(key.value)
                positions.setdefault((*path, key.value), where)
                stack.append((value, (*path, key.value)))
        elif isinstance(current, yaml.SequenceNode):
            for index, item in enumerate(current.value):
                mark = item.start_mark
                positions[(*path, index)] = SourcePos(line=mark.line + 1, column=mark.column + 1)
                stack.append((item, (*path, index)))
    return positions, repeats


def _compose(text: str) -> tuple[Any, Positions, list[InputError]]:
    """The data of a YAML text with its positions and repeated keys, read off the node tree
    before it is constructed (construction writes merged keys into their mapping: a key given
    after ``<<: *anchor`` overrides the anchor's, it is no repeat)."""
    loader = LOADER(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, {}, []
        positions, repeats = positions_of(node)
        return loader.construct_document(node), positions, repeats
    finally:
        loader.dispose()


def yaml_error(exc: yaml.YAMLError, file: str | None, text: str | None = None
               ) -> ListInputError:
    """The error for a YAML problem, in Russian, at the parser's mark (a reader's error at
    its offset into ``text``)."""
    problem, mark = liberrors.describe(exc, text)
    where = {"line": mark[0], "column": mark[1]} if mark else {}
    return _fail(file, f"ошибка синтаксиса YAML: {problem}", "syntax", **where)


def parse_yaml(text: str, file: str | None) -> tuple[Any, Positions, list[InputError]]:
    """The data of a YAML text, its positions, and its repeated keys.

    Raises:
        ListInputError: a YAML syntax error, at the parser's mark.
    """
    try:
        return _compose(text)
    except yaml.YAMLError as exc:
        raise yaml_error(exc, file, text) from None
    except RecursionError:
        raise too_deep_error(file, text) from None


def parse_json(text: str, file: str | None) -> tuple[Any, Positions, list[InputError]]:
    """The data of a JSON text, its positions (via the YAML composer), and repeated keys.

    Raises:
        ListInputError: a JSON syntax error, at the parser's line and column.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ListInputError([json_syntax_error(exc, file)]) from None
    except RecursionError:
        raise too_deep_error(file, text) from None
    except ValueError:  # Python's limit on the length of an int's text (4300 digits)
        raise long_number_error(text, file) from None
    half = lone_surrogate_error(text, file)
    if half is not None:
        raise ListInputError([half])
    try:
        # characters JSON allows raw and YAML does not (DEL, C1 controls, U+FFFE/U+FFFF)
        # would stop the composer; one for one, so every position stays where it is
        _, positions, repeats = _compose(_YAML_UNPRINTABLE_RE.sub("?", text))
    except (yaml.YAMLError, RecursionError):
        # valid JSON the YAML composer rejects (nested deeper than it goes): the top-level
        # fields' positions, so that every error still has a line
        return data, _top_level_positions(text), []
    return data, positions, repeats


def _by_position(error: InputError) -> tuple[int, int]:
    return (error.line or 0, error.column or 0)


def build_list(
    data: Any,
    *,
    file: str | None = None,
    positions: Positions | None = None,
    default_system: str | None = None,
    errors: Sequence[InputError] = (),
) -> ArmyList:
    """An :class:`ArmyList` from parsed data, with ``source`` and ``positions`` filled.

    ``default_system`` is used when the data names none (an inline army of a game log);
    ``errors`` are problems the parser already found (repeated keys), reported with the rest.

    Raises:
        ListInputError: every problem found, in file order.
    """
    positions = positions or {}
    root = positions.get(())
    if not isinstance(data, dict):
        raise ListInputError([InputError(
            message=f"ожидался словарь с полями system, name, units; {got(data)}", kind="type",
            expected="словарь", file=file, line=root.line if root else None,
            column=root.column if root else None)])
    if default_system is not None and "system" not in data:
        data = {**data, "system": default_system}
    problems = list(errors)
    for name in sorted(READER_FIELDS & data.keys()):
        error = unknown_field(name, (), ArmyList)
        where = positions.get((name,))
        problems.append(error.at(file, where.line if where else None,
                                 where.column if where else None))
    army: ArmyList | None = None
    try:
        army = ArmyList.model_validate(data)
    except ValidationError as exc:
        problems.extend(input_errors(exc, data, ArmyList, positions, file))
    if problems or army is None:
        named = data.get("system")
        raise ListInputError(sorted((e.at(file) for e in problems), key=_by_position),
                             system=normalize_system(named) if isinstance(named, str) else None)
    return army.model_copy(update={
        "source": file, "positions": {format_path(k): v for k, v in positions.items()},
    })


def parse_list(text: str, *, file: str | None = None, fmt: str = "yaml") -> ArmyList:
    """An army list from YAML (``fmt="yaml"``) or JSON (``fmt="json"``) text.

    Raises:
        ListInputError: the text is empty, not well-formed, or not a valid list.
    """
    if not text.strip():
        raise _fail(file, "файл пуст", "empty")
    data, positions, repeats = (parse_json if fmt == "json" else parse_yaml)(text, file)
    if data is None and fmt != "json":
        raise _fail(file, "файл пуст: в нём только комментарии", "empty")
    return build_list(data, file=file, positions=positions, errors=repeats)


def read_list(path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES,
              aliases: Any = None) -> ArmyList:
    """Read one army list: ``.yaml``/``.yml``/``.json``, or a ``.ros``/``.rosz`` roster.

    ``aliases`` (an :class:`~validator.inputs.aliases.Aliases`) names the game systems a
    roster may have; the built-in table when not given.

    Raises:
        ListInputError: the file cannot be used; its ``errors`` say why and where.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if not names_something(p):
        raise _fail(str(p), "файл не найден", "not_found")
    if suffix in ROSTER_SUFFIXES:
        from validator.inputs.roster import read_roster  # roster builds on this module

        return read_roster(p, max_bytes=max_bytes, aliases=aliases)
    if suffix not in LIST_SUFFIXES:
        raise _fail(str(p), f"неизвестный формат файла «{p.suffix}»; ожидались "
                    f"{', '.join(ALL_SUFFIXES)}", "format")
    text = decode(read_bytes(p, max_bytes), str(p))
    return parse_list(text, file=str(p), fmt="json" if suffix == ".json" else "yaml")


def read_lists(
    paths: Iterable[str | os.PathLike[str]], *, max_bytes: int = DEFAULT_MAX_BYTES,
    aliases: Any = None,
) -> list[ArmyList | ListInputError]:
    """Read many lists; a folder stands for every list file inside it.

    One bad file never stops the others: its place in the result holds its
    :class:`ListInputError`.
    """
    results: list[ArmyList | ListInputError] = []
    for given in paths:
        folder = Path(given)
        files = list_files(folder)
        if not files:
            results.append(_fail(str(folder), "в папке нет списков армий "
                                 f"({', '.join(ALL_SUFFIXES)})", "not_found"))
        for file in files:
            try:
                results.append(read_list(file, max_bytes=max_bytes, aliases=aliases))
            except ListInputError as exc:
                results.append(exc)
    return results
