"""The JSON form of the KB (FORMATS §1): save and load, byte-identical for the same KB."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from kb.files import os_reason, write_text_atomic
from kb.models import SCHEMA, KnowledgeBase


class KBFileError(Exception):
    """A kb.json that cannot be read; the message says which file and what is wrong."""


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
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise KBFileError(
            f"{origin}: строка {exc.lineno}, столбец {exc.colno}: это не JSON ({exc.msg})"
        ) from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise KBFileError(f"{origin}: ожидалась база знаний со схемой «{SCHEMA}»")
    try:
        return KnowledgeBase.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise KBFileError(f"{origin}: поле {where}: {first['msg']}") from None


def load(path: str | Path) -> KnowledgeBase:
    """Read a kb.json written by :func:`save`."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise KBFileError(f"{p}: не удалось прочитать базу знаний ({os_reason(exc)})") from None
    except UnicodeDecodeError:
        raise KBFileError(f"{p}: файл не в кодировке UTF-8") from None
    return loads(text, str(p))
