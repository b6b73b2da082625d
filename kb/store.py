"""The JSON form of the KB (FORMATS §1): save and load, byte-identical for the same KB.

A kb.json that cannot be used — not JSON, not the KB's shape, or a KB whose parts do not
hold together (an edge or a parent naming a node the KB lacks, a distance that is no
number) — is refused with one Russian line saying where
(line, field, node) and what was expected (:class:`KBFileError`), never passed on to fail
later as a traceback or a loop without end. The JSON helpers here (:func:`json_problem`,
:func:`lone_surrogate`) serve every reader of JSON, the validator's too.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from kb.files import os_reason, write_text_atomic
from kb.models import SCHEMA, KnowledgeBase

JSON_PROBLEMS: Mapping[str, str] = {
    "Expecting value": "ожидалось значение",
    "Expecting property name enclosed in double quotes": "ожидалось имя поля в двойных кавычках",
    "Expecting ',' delimiter": "ожидалась «,»",
    "Expecting ':' delimiter": "ожидалось «:»",
    "Unterminated string starting at": "незакрытая строка",
    "Invalid control character at": "недопустимый управляющий символ в строке",
    "Invalid \\escape": "недопустимая escape-последовательность",
    "Invalid \\uXXXX escape": "недопустимая escape-последовательность \\uXXXX",
    "Extra data": "лишние данные после конца JSON",
    "Unexpected UTF-8 BOM": "метка UTF-8 (BOM) не в начале файла",
}
"""The messages of Python's :mod:`json` (``JSONDecodeError.msg``) in Russian."""

OPEN_ENDED = frozenset({"references"})
"""Edge kinds whose target may be a node the KB lacks: the text names it, nothing walks it."""
NUMERIC_FACTS = frozenset({"distance", "count", "modifier", "threshold", "angle", "points"})
"""Fact kinds whose value is a number: the checks compare it with what a list or log says."""

_HALF_PAIR = re.compile(r"\\u[dD][89a-fA-F]")
_ESCAPE = re.compile(r"\\(?:u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"
                     r"|u[dD][89a-fA-F][0-9a-fA-F]{2}|.)", re.DOTALL)


class KBFileError(Exception):
    """A kb.json that cannot be read; the message says which file and what is wrong."""


def json_problem(message: str) -> str:
    """The Russian of a :class:`json.JSONDecodeError`'s ``msg``.

    >>> json_problem("Expecting ',' delimiter")
    'ожидалась «,»'
    """
    for english, russian in JSON_PROBLEMS.items():
        if message.startswith(english) or english in message:
            return russian
    return message


def lone_surrogate(text: str) -> tuple[int, str] | None:
    r"""The offset and text of the first ``\uXXXX`` escape of a JSON text that writes half
    of a UTF-16 surrogate pair without the other half (``"\ud800"``), or None.

    :mod:`json` reads such an escape into a string no UTF-8 output can hold, so a report
    quoting it would fail to be written; the text is refused at the escape instead. Each
    escape is read whole from its backslash, so ``"\\ud800"`` (a backslash, then text) is
    none.

    >>> lone_surrogate('{"a": "x\\ud800"}'), lone_surrogate('"\\ud83d\\ude00 \\\\ud800"')
    ((8, '\\ud800'), None)
    """
    if not _HALF_PAIR.search(text):
        return None
    for match in _ESCAPE.finditer(text):
        if len(match.group()) == 6:
            return match.start(), match.group()
    return None


_QUOTED = re.compile("«([^«»]{60,})»")


def _short_quotes(message: str) -> str:
    """``message`` with each quote of the file's own text («…») cut to 60 characters: an id
    of a megabyte is named by its start, and the error stays one readable line."""
    return _QUOTED.sub(lambda m: f"«{m.group(1)[:59]}…»", message)


def _at(origin: str, line: int | None, column: int | None = None) -> str:
    """Where in a kb.json, as its messages say it: «kb.json: строка 7, столбец 3»."""
    if line is None:
        return origin
    return f"{origin}: строка {line}" + (f", столбец {column}" if column is not None else "")


def position(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of ``offset`` in ``text``."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def dumps(kb: KnowledgeBase) -> str:
    """The KB as JSON text: nodes and edges in a fixed order, UTF-8, one node per line block."""
    data = kb.model_dump(mode="json", by_alias=True)
    data["nodes"] = sorted(data["nodes"], key=lambda n: n["id"])
    data["edges"] = sorted(
        data["edges"], key=lambda e: (e["source"], e["kind"], e["target"], e["span"] or [0, 0])
    )
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def save(kb: KnowledgeBase, path: str | Path) -> None:
    """Write ``kb`` to ``path`` (see :func:`dumps`), atomically: a reader of ``path`` sees the
    old file or the new one, never half of it (:func:`kb.files.atomic_writer`).

    Raises:
        OSError: the file cannot be written.
    """
    write_text_atomic(path, dumps(kb))


def loads(text: str, origin: str = "<kb>") -> KnowledgeBase:
    """Parse KB JSON text; raise :class:`KBFileError` naming ``origin`` on bad input."""
    data = _json(text, origin)
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise KBFileError(f"{origin}: ожидалась база знаний со схемой «{SCHEMA}»")
    try:
        kb = KnowledgeBase.model_validate(data)
    except ValidationError as exc:
        raise KBFileError(_short_quotes(_shape_error(exc, data, text, origin))) from None
    problem = _broken(kb)
    if problem is not None:
        where, what = problem[0], _short_quotes(problem[1])
        line = _line_of(text, where)
        raise KBFileError(f"{_at(origin, line)}: {what}; файл базы знаний повреждён, соберите "
                          "его заново (rulekb build)")
    return kb


def load(path: str | Path) -> KnowledgeBase:
    """Read a kb.json written by :func:`save` (a byte order mark an editor added is let be)."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise KBFileError(f"{p}: не удалось прочитать базу знаний ({os_reason(exc)})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise KBFileError(f"{_at(str(p), line)}: файл не в кодировке UTF-8 (байт "
                          f"0x{raw[exc.start]:02x}); ожидалась база знаний, записанная "
                          "rulekb build") from None
    return loads(text, str(p))


# --- reading the JSON ---------------------------------------------------------------------


def _json(text: str, origin: str) -> Any:
    """The data of a kb.json's text, or a :class:`KBFileError` saying where it fails."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise KBFileError(f"{_at(origin, exc.lineno, exc.colno)}: это не JSON: "
                          f"{json_problem(exc.msg)}") from None
    except RecursionError:
        raise KBFileError(f"{origin}: это не база знаний: JSON вложен слишком глубоко") from None
    except ValueError:  # Python's limit on the length of an int's text (4300 digits)
        raise KBFileError(f"{origin}: это не база знаний: число длиннее 4300 цифр") from None
    half = lone_surrogate(text)
    if half is not None:
        line, column = position(text, half[0])
        raise KBFileError(f"{_at(origin, line, column)}: недопустимая escape-последовательность "
                          f"«{half[1]}»: половина суррогатной пары UTF-16 без второй "
                          "половины") from None
    return data


_KB_EXPECTED = {
    "string_type": "ожидалась строка",
    "int_type": "ожидалось целое число",
    "int_parsing": "ожидалось целое число",
    "int_from_float": "ожидалось целое число",
    "int_parsing_size": "ожидалось целое число",
    "float_type": "ожидалось число",
    "finite_number": "ожидалось конечное число",
    "bool_type": "ожидалось true или false",
    "tuple_type": "ожидался список",
    "list_type": "ожидался список",
    "dict_type": "ожидался объект",
    "model_type": "ожидался объект",
    "model_attributes_type": "ожидался объект",
    "missing": "нет обязательного поля",
    "extra_forbidden": "неизвестное поле",
    "too_short": "ожидался список из двух чисел [начало, конец)",
    "too_long": "ожидался список из двух чисел [начало, конец)",
}


def _shape_error(exc: ValidationError, data: dict[str, Any], text: str, origin: str) -> str:
    """The first field of a kb.json that has not the KB's shape: its line (the node's or
    edge's, found by its id), its path, and what was expected, in Russian."""
    first = exc.errors(include_url=False)[0]
    kind = first["type"]
    loc = _data_path(data, first["loc"], kind)
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")
    if kind == "literal_error":
        allowed = str(first.get("ctx", {}).get("expected", "")).replace("'", "")
        what = f"недопустимое значение; допустимые: {allowed.replace(' or ', ', ')}"
    else:
        what = _KB_EXPECTED.get(kind, "недопустимое значение")
    item = _item(data, loc)
    line = _line_of(text, item)
    at = _at(origin, line)
    named = f" ({'узел' if loc[0] == 'nodes' else 'связь от'} «{item}»)" if item else ""
    return f"{at}: поле {where}{named}: {what}; ожидалась база знаний, записанная rulekb build"


def _data_path(data: Any, loc: Sequence[int | str], kind: str) -> list[int | str]:
    """The field path of a pydantic ``loc`` in the data (without the tags pydantic adds for
    the members of a union); a missing field's own name last."""
    path: list[int | str] = []
    current = data
    for part in loc:
        if isinstance(current, dict) and part in current:
            current = current[part]
        elif isinstance(current, list) and isinstance(part, int) and 0 <= part < len(current):
            current = current[part]
        else:
            continue
        path.append(part)
    if kind == "missing" and loc:
        path.append(loc[-1])
    return path or ["schema"]


def _item(data: dict[str, Any], loc: Sequence[int | str]) -> str | None:
    """The id of the node (or the source of the edge) a field path lies in, if it has one."""
    if len(loc) < 2 or loc[0] not in ("nodes", "edges") or not isinstance(loc[1], int):
        return None
    items = data.get(str(loc[0]))
    item = items[loc[1]] if isinstance(items, list) and loc[1] < len(items) else None
    found = item.get("id" if loc[0] == "nodes" else "source") if isinstance(item, dict) else None
    return found if isinstance(found, str) else None


def _line_of(text: str, node_id: str | None) -> int | None:
    """The line where ``node_id`` is first written in the file, if it is."""
    if not node_id:
        return None
    at = text.find(json.dumps(node_id, ensure_ascii=False))
    return text.count("\n", 0, at) + 1 if at >= 0 else None


# --- a KB that holds together -------------------------------------------------------------


def _broken(kb: KnowledgeBase) -> tuple[str, str] | None:
    """The first part of ``kb`` the rest of rulekb could not rely on, as (the id to find
    its line by, what is wrong), or None: every edge's ends (but a reference's target,
    :data:`OPEN_ENDED`), parent and fact's ``applies_to`` a node of the KB; every number fact
    a finite number. Sections whose parents run in a loop are let be: a KB may hold them
    (the site draws them), and what walks the parents stops where they return."""
    ids = {node.id for node in kb.nodes}
    return next(_problems(kb, ids), None)


def _problems(kb: KnowledgeBase, ids: set[str]) -> Iterator[tuple[str, str]]:
    for node in kb.nodes:
        if node.parent is not None and node.parent not in ids:
            yield node.parent, f"узел «{node.id}»: родителя «{node.parent}» в базе знаний нет"
        for fact in node.facts:
            if fact.applies_to is not None and fact.applies_to not in ids:
                yield fact.applies_to, (f"узел «{node.id}»: факт «{fact.name}» относится к узлу "
                                        f"«{fact.applies_to}», которого в базе знаний нет")
            if fact.kind in NUMERIC_FACTS and not _number(fact.value):
                yield node.id, (f"узел «{node.id}»: факт «{fact.name}» ({fact.kind}) — не "
                                f"конечное число: {str(fact.value)[:40]}")
    for edge in kb.edges:
        # a reference to a rule the KB lacks is shown as its id (``show``, the site): only
        # the edges the lookups walk must lead to nodes
        ends = (edge.source,) if edge.kind in OPEN_ENDED else (edge.source, edge.target)
        for end in ends:
            if end not in ids:
                yield end, (f"связь {edge.kind} «{edge.source}» → «{edge.target}»: узла "
                            f"«{end}» в базе знаний нет")


def _number(value: object) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or isinstance(value, float) and math.isfinite(value)
