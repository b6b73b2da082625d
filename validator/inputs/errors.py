"""Input problems as data: pydantic's validation errors turned into Russian :class:`InputError` s.

A leaf knows only what is wrong; the reader that validated a value adds the file, line,
column and field path (like jsonschema's ``ValidationError``). Used by every reader of
:mod:`validator.inputs`.
"""

from __future__ import annotations

import types
from collections.abc import Sequence
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from validator.inputs.models import (
    SYSTEM_IDS,
    ArmyList,
    InputError,
    ListInputError,
    PathItem,
    SourcePos,
    nearest,
)

FieldPath = tuple[PathItem, ...]
Positions = dict[FieldPath, SourcePos]
"""Field path → where its key (or list item) starts in the file."""

READER_FIELDS = frozenset({"source", "positions", "locations", "notices"})
"""Fields of :class:`ArmyList` that the reader fills; a list that writes them has an unknown
field."""


def fail(file: str | None, message: str, kind: str, **where: Any) -> ListInputError:
    """A :class:`ListInputError` of one problem."""
    return ListInputError([InputError(message=message, kind=kind, file=file, **where)])


_EXPECTED = {
    "int_type": ("ожидалось целое число", "целое число"),
    "int_parsing": ("ожидалось целое число", "целое число"),
    "int_from_float": ("ожидалось целое число", "целое число"),
    "int_parsing_size": ("ожидалось целое число", "целое число"),
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
    return [n for n in names if not (model is ArmyList and n in READER_FIELDS)]


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
    if kind == "invalid_key" or loc[-1:] == ("[key]",):
        return _key_error(err, data)
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


def _key_error(err: ErrorDetails, data: Any) -> tuple[InputError, FieldPath]:
    """A mapping key that is not a string (YAML reads ``1:``, ``null:``, ``2020-01-01:`` as
    a number, nothing, a date): the error is the mapping's, placed at the key when its text
    reads back as the key does. pydantic's ``loc`` ends with the key's text (a model's
    fields) or with the key and ``"[key]"`` (a dict field such as ``profile``)."""
    loc, key = err["loc"], err.get("input")
    holder = loc[:-2] if loc[-1:] == ("[key]",) else loc[:-1]
    container = _data_path(data, holder)
    return InputError(message=f"имя поля должно быть строкой, {got(key)}", kind="type",
                      path=container, expected="строка"), (*container, str(key))


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
