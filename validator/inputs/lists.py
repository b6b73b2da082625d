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
import types
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Union, get_args, get_origin

import yaml
from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from kb.files import os_reason
from validator.inputs import liberrors
from validator.inputs.models import (
    DEFAULT_MAX_BYTES,
    SYSTEM_IDS,
    ArmyList,
    InputError,
    ListInputError,
    PathItem,
    SourcePos,
    format_path,
    nearest,
    normalize_system,
)

LIST_SUFFIXES = (".yaml", ".yml", ".json")
ROSTER_SUFFIXES = (".ros", ".rosz")
ALL_SUFFIXES = LIST_SUFFIXES + ROSTER_SUFFIXES

FieldPath = tuple[PathItem, ...]
Positions = dict[FieldPath, SourcePos]
"""Field path → where its key (or list item) starts in the file."""

# fields of ArmyList that the reader fills; a list that writes them has an unknown field
_READER_FIELDS = frozenset({"source", "positions"})
_Loader: Any = liberrors.Loader


def _fail(file: str | None, message: str, kind: str, **where: Any) -> ListInputError:
    return ListInputError([InputError(message=message, kind=kind, file=file, **where)])


# --- reading bytes --------------------------------------------------------------------------


def _size_text(size: int) -> str:
    if size < 1024 * 1024:
        return f"{size} байт"
    return f"{size / (1024 * 1024):.1f} МБ".replace(".", ",")


def read_bytes(path: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """The bytes of an input file, refusing a missing, empty or too large one before reading.

    Raises:
        ListInputError: the file is missing, a folder, empty, or over ``max_bytes``.
    """
    file = str(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise _fail(file, "файл не найден", "not_found") from None
    except OSError as exc:
        raise _fail(file, f"не удалось прочитать файл ({os_reason(exc)})", "io") from None
    if path.is_dir():
        raise _fail(file, "это папка, а не файл", "io")
    too_large = f"файл слишком велик: {{}}, предел {_size_text(max_bytes)}"
    if size > max_bytes:
        raise _fail(file, too_large.format(_size_text(size)), "too_large")
    try:
        with path.open("rb") as stream:
            data = stream.read(max_bytes + 1)  # the file may have grown since stat()
    except OSError as exc:
        raise _fail(file, f"не удалось прочитать файл ({os_reason(exc)})", "io") from None
    if len(data) > max_bytes:
        raise _fail(file, too_large.format(f"больше {_size_text(max_bytes)}"), "too_large")
    if not data.strip():
        raise _fail(file, "файл пуст", "empty")
    return data


def decode(data: bytes, file: str | None) -> str:
    """UTF-8 text of ``data`` (a BOM is dropped); a bad byte is reported where it stands."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise _fail(file, f"файл не в кодировке UTF-8 (байт 0x{data[exc.start]:02x})",
                    "encoding", line=line, column=column) from None


# --- parsing with positions -----------------------------------------------------------------

_JSON_PROBLEMS = {
    "Expecting value": "ожидалось значение",
    "Expecting property name enclosed in double quotes": "ожидалось имя поля в двойных кавычках",
    "Expecting ',' delimiter": "ожидалась «,»",
    "Expecting ':' delimiter": "ожидалось «:»",
    "Unterminated string starting at": "незакрытая строка",
    "Invalid control character at": "недопустимый управляющий символ в строке",
    "Invalid \\escape": "недопустимая escape-последовательность",
    "Invalid \\uXXXX escape": "недопустимая escape-последовательность \\uXXXX",
    "Extra data": "лишние данные после конца JSON",
}


def _translate(problem: str, table: Mapping[str, str]) -> str:
    for english, russian in table.items():
        if problem.startswith(english) or english in problem:
            return russian
    return problem


def json_syntax_error(exc: json.JSONDecodeError, file: str | None) -> InputError:
    """An :class:`InputError` for a JSON syntax error, at the parser's line and column."""
    return InputError(message=f"ошибка синтаксиса JSON: {_translate(exc.msg, _JSON_PROBLEMS)}",
                      kind="syntax", file=file, line=exc.lineno, column=exc.colno)


def _long_number(text: str, file: str | None) -> ListInputError:
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


def _too_deep(file: str | None, text: str | None = None) -> ListInputError:
    """Nesting deeper than the parser's recursion allows, at the bracket that goes deepest."""
    where: dict[str, int] = {}
    if text is not None:
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
        if at is not None:
            where = {"line": text.count("\n", 0, at) + 1,
                     "column": at - (text.rfind("\n", 0, at) + 1) + 1}
    return _fail(file, "слишком глубокая вложенность", "syntax", **where)


def _positions(node: Any) -> tuple[Positions, list[InputError]]:
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


def _compose(text: str) -> tuple[Any, Any]:
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        return node, (loader.construct_document(node) if node is not None else None)
    finally:
        loader.dispose()


def parse_yaml(text: str, file: str | None) -> tuple[Any, Positions, list[InputError]]:
    """The data of a YAML text, its positions, and its repeated keys.

    Raises:
        ListInputError: a YAML syntax error, at the parser's mark.
    """
    try:
        node, data = _compose(text)
    except yaml.YAMLError as exc:
        problem, mark = liberrors.describe(exc, text)
        where = {"line": mark[0], "column": mark[1]} if mark else {}
        raise _fail(file, f"ошибка синтаксиса YAML: {problem}", "syntax", **where) from None
    except RecursionError:
        raise _too_deep(file) from None
    if node is None:
        return None, {}, []
    positions, repeats = _positions(node)
    return data, positions, repeats


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
        raise _too_deep(file, text) from None
    except ValueError:  # Python's limit on the length of an int's text (4300 digits)
        raise _long_number(text, file) from None
    try:
        # characters JSON allows raw and YAML does not (DEL, C1 controls, U+FFFE/U+FFFF)
        # would stop the composer; one for one, so every position stays where it is
        node, _ = _compose(_YAML_UNPRINTABLE_RE.sub("?", text))
    except (yaml.YAMLError, RecursionError):
        # valid JSON the YAML composer rejects (nested deeper than it goes): the top-level
        # fields' positions, so that every error still has a line
        return data, _top_level_positions(text), []
    if node is None:
        return data, {}, []
    positions, repeats = _positions(node)
    return data, positions, repeats


# --- pydantic errors → input errors ---------------------------------------------------------

_EXPECTED = {
    "int_type": ("ожидалось целое число", "целое число"),
    "int_parsing": ("ожидалось целое число", "целое число"),
    "int_from_float": ("ожидалось целое число", "целое число"),
    "float_type": ("ожидалось число", "число"),
    "float_parsing": ("ожидалось число", "число"),
    "finite_number": ("ожидалось конечное число", "число"),
    "string_type": ("ожидалась строка", "строка"),
    "bool_type": ("ожидалось true или false", "true или false"),
    "bool_parsing": ("ожидалось true или false", "true или false"),
    "dict_type": ("ожидался словарь", "словарь"),
    "model_type": ("ожидался словарь", "словарь"),
    "model_attributes_type": ("ожидался словарь", "словарь"),
    "tuple_type": ("ожидался список", "список"),
    "list_type": ("ожидался список", "список"),
    "profile_value": ("ожидалось число или строка", "число или строка"),
}


# errors raised by validator.inputs.models, whose message is already the Russian one to show
_OWN_MESSAGES = frozenset({"unknown_system", "unknown_role", "unknown_phase", "missing_target"})


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def got(value: Any) -> str:
    """What the input holds, for a message: ``получено «шесть»``, ``получен список``."""
    if value is None:
        return "получено пустое значение"
    if isinstance(value, bool):
        return f"получено «{'true' if value else 'false'}»"
    if isinstance(value, list | tuple):
        return "получен список"
    if isinstance(value, dict):
        return "получен словарь"
    return f"получено «{_short(str(value))}»"


def _data_path(data: Any, loc: Sequence[int | str]) -> FieldPath:
    """The real field path of a pydantic ``loc``: union member tags are not in the data."""
    path: list[PathItem] = []
    current = data
    for item in loc:
        if isinstance(current, dict) and item in current:
            path.append(str(item))
            current = current[item]
        elif (isinstance(current, list | tuple) and isinstance(item, int)
              and 0 <= item < len(current)):
            path.append(item)
            current = current[item]
    return tuple(path)


def _unwrap(annotation: Any) -> Any:
    while True:
        origin = get_origin(annotation)
        if origin is Annotated:
            annotation = get_args(annotation)[0]
        elif origin in (Union, types.UnionType):
            members = [a for a in get_args(annotation) if a is not type(None)]
            if len(members) != 1:
                return annotation
            annotation = members[0]
        else:
            return annotation


def _model_at(model: type[BaseModel] | None, path: FieldPath) -> type[BaseModel] | None:
    """The model class that validates the object at ``path`` under ``model``."""
    annotation: Any = model
    for item in path:
        annotation = _unwrap(annotation)
        origin = get_origin(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            field = annotation.model_fields.get(str(item))
            if field is None:
                return None
            annotation = field.annotation
        elif origin in (tuple, list) and isinstance(item, int):
            annotation = get_args(annotation)[0]
        elif origin is dict:
            annotation = get_args(annotation)[1]
        else:
            return None
    annotation = _unwrap(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def known_fields(model: type[BaseModel] | None) -> list[str]:
    """The fields a user may write in an object validated by ``model``."""
    if model is None:
        return []
    names = [field.alias or name for name, field in model.model_fields.items()]
    return [n for n in names if not (model is ArmyList and n in _READER_FIELDS)]


def unknown_field(name: str, container: FieldPath, model: type[BaseModel] | None) -> InputError:
    """The error for a field the model does not have, naming the nearest known one."""
    known = known_fields(model)
    close = nearest(name, known, cutoff=50)
    hint = f"; возможно, «{close[0]}»" if close else ""
    return InputError(message=f"неизвестное поле «{name}»{hint}", kind="unknown_field",
                      path=container, expected=", ".join(known) or None)


def _leaf(
    err: ErrorDetails, data: Any, model: type[BaseModel] | None
) -> tuple[InputError, FieldPath]:
    """The error for one pydantic error, and the path whose position locates it."""
    kind, loc, ctx = err["type"], err["loc"], err.get("ctx", {})
    value = err.get("input")
    if kind == "missing":
        container, name = _data_path(data, loc[:-1]), str(loc[-1])
        hint = ""
        if name == "system" and model is ArmyList:
            hint = f"; укажите систему: {', '.join(SYSTEM_IDS)}"
        return InputError(message=f"нет обязательного поля «{name}»{hint}", kind="missing",
                          path=container, expected=name), container
    if kind == "extra_forbidden":
        path = _data_path(data, loc)
        return unknown_field(str(path[-1]), path[:-1], _model_at(model, path[:-1])), path
    path = _data_path(data, loc)
    if kind in _EXPECTED:
        phrase, expected = _EXPECTED[kind]
        return InputError(message=f"{phrase}, {got(value)}", kind="type", path=path,
                          expected=expected), path
    if kind in ("greater_than_equal", "greater_than"):
        bound = ctx.get("ge", ctx.get("gt"))
        word = "не меньше" if kind == "greater_than_equal" else "больше"
        return InputError(message=f"ожидалось число {word} {bound}, {got(value)}", kind="value",
                          path=path, expected=f"число {word} {bound}"), path
    if kind == "string_too_short":
        return InputError(message="значение не может быть пустым", kind="value", path=path,
                          expected="непустая строка"), path
    if kind == "literal_error":
        allowed = str(ctx.get("expected", "")).replace("'", "").replace(" or ", ", ")
        return InputError(message=f"недопустимое значение: {got(value)}; допустимые: {allowed}",
                          kind="value", path=path, expected=allowed), path
    if kind in _OWN_MESSAGES:
        return InputError(message=err["msg"], kind=kind, path=path,
                          expected=ctx.get("known")), path
    return InputError(message=f"недопустимое значение: {got(value)}", kind="value",
                      path=path), path


def locate(positions: Positions, path: FieldPath) -> SourcePos | None:
    """The position of ``path``, or of its nearest written ancestor."""
    for end in range(len(path), -1, -1):
        found = positions.get(path[:end])
        if found is not None:
            return found
    return None


def input_errors(
    exc: ValidationError,
    data: Any,
    model: type[BaseModel] | None = None,
    positions: Positions | None = None,
    file: str | None = None,
) -> list[InputError]:
    """The :class:`InputError` s of a pydantic ``ValidationError``, one per field.

    ``data`` is what was validated (to tell real fields from union tags in ``loc``), ``model``
    what validated it (to name the fields an unknown one may have meant), ``positions`` where
    each field stands in ``file``.
    """
    found: dict[tuple[FieldPath, str], InputError] = {}
    for err in exc.errors(include_url=False):
        error, where = _leaf(err, data, model)
        key = (error.path, error.message if error.kind == "unknown_field" else "")
        if key in found:
            continue  # one error per field: the members of a union each complain
        position = locate(positions or {}, where)
        found[key] = error.at(file, position.line if position else None,
                              position.column if position else None)
    return list(found.values())


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
    for name in sorted(_READER_FIELDS & data.keys()):
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


def read_list(path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES) -> ArmyList:
    """Read one army list: ``.yaml``/``.yml``/``.json``, or a ``.ros``/``.rosz`` roster.

    Raises:
        ListInputError: the file cannot be used; its ``errors`` say why and where.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if not p.exists() and not p.is_symlink():
        raise _fail(str(p), "файл не найден", "not_found")
    if suffix in ROSTER_SUFFIXES:
        from validator.inputs.roster import read_roster  # roster builds on this module

        return read_roster(p, max_bytes=max_bytes)
    if suffix not in LIST_SUFFIXES:
        raise _fail(str(p), f"неизвестный формат файла «{p.suffix}»; ожидались "
                    f"{', '.join(ALL_SUFFIXES)}", "format")
    text = decode(read_bytes(p, max_bytes), str(p))
    return parse_list(text, file=str(p), fmt="json" if suffix == ".json" else "yaml")


def list_files(path: Path) -> list[Path]:
    """The list files of a folder (every level, sorted), or ``[path]`` for a file."""
    if not path.is_dir():
        return [path]
    return sorted(
        p for p in path.rglob("*")
        if p.is_file() and p.suffix.lower() in ALL_SUFFIXES and not p.name.startswith(".")
    )


def read_lists(
    paths: Iterable[str | os.PathLike[str]], *, max_bytes: int = DEFAULT_MAX_BYTES
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
                results.append(read_list(file, max_bytes=max_bytes))
            except ListInputError as exc:
                results.append(exc)
    return results
