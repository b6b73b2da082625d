"""A folder's description of its files (``corpus.toml``, or ``corpus.yaml``/``.yml``): the game
system and the book's title of each file, or of all, as a user states them (:mod:`ingest.load`
reads a folder's description before its files). A description that does not parse, or names a
system the tool does not know, is refused saying where and why.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ingest.load_error import LoadError
from ingest.models import SystemSource
from kb.files import os_reason
from kb.models import SYSTEM_TITLES

CORPUS_FILES: tuple[SystemSource, ...] = ("corpus.toml", "corpus.yaml", "corpus.yml")


@dataclass
class CorpusConfig:
    """What a ``corpus.toml`` states about the systems of its folder's files."""

    origin: SystemSource
    default: str | None = None
    files: dict[str, str] = field(default_factory=dict)
    default_title: str | None = None
    titles: dict[str, str] = field(default_factory=dict)

    def system_of(self, name: str) -> str | None:
        return self.files.get(name, self.default)

    def title_of(self, name: str) -> str | None:
        return self.titles.get(name, self.default_title)


def read_corpus_config(folder: Path) -> CorpusConfig | None:
    """Read ``corpus.toml`` (or ``corpus.yaml``/``.yml``) of a folder, if it has one.

    Raises:
        LoadError: The file cannot be parsed or names an unknown game system.
    """
    for name in CORPUS_FILES:
        path = folder / name
        if path.is_file():
            return _parse_corpus_config(path, name)
    return None


def _parse_corpus_config(path: Path, origin: SystemSource) -> CorpusConfig:
    data = _corpus_data(path, origin)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise LoadError(f"{path}: ожидалась таблица с ключами system и files")
    config = CorpusConfig(origin=origin, default=system_name(data.get("system"), path, None),
                           default_title=_title(data.get("title"), path, None))
    files = data.get("files") or {}
    if not isinstance(files, dict):
        raise LoadError(f"{path}: ключ files должен быть таблицей «имя файла → system»")
    for file_name, entry in files.items():
        value = entry.get("system") if isinstance(entry, dict) else entry
        system = system_name(value, path, str(file_name))
        if system is not None:
            config.files[str(file_name)] = system
        title = _title(entry.get("title") if isinstance(entry, dict) else None, path,
                       str(file_name))
        if title is not None:
            config.titles[str(file_name)] = title
    return config


def _corpus_data(path: Path, origin: SystemSource) -> Any:
    """What a corpus description holds, as its parser reads it; a file that does not read, in
    any of the ways its parser fails, a LoadError saying why."""
    why = "не удалось прочитать описание корпуса"
    try:
        raw = path.read_text(encoding="utf-8-sig")
        if origin == "corpus.toml" and (line := _overlong_key(raw)) is not None:
            raise LoadError(f"{path}: {why}: в строке {line} ключ из более чем "
                            f"{_MAX_KEY_PARTS} частей через точку (ожидались ключи system, "
                            "title и files)")
        return tomllib.loads(raw) if origin == "corpus.toml" else yaml.safe_load(raw)
    except OSError as exc:
        raise LoadError(f"{path}: {why} ({os_reason(exc)})") from exc
    except UnicodeDecodeError as exc:
        raise LoadError(f"{path}: {why}: байт {exc.start} не UTF-8 (ожидался текст в UTF-8)"
                        ) from exc
    except (tomllib.TOMLDecodeError, yaml.YAMLError) as exc:
        raise LoadError(f"{path}: {why}: {_syntax_error(exc)}") from exc
    except RecursionError as exc:  # (both parsers recurse once a nested array or table)
        raise LoadError(f"{path}: {why}: значения вложены друг в друга на тысячи уровней "
                        "(ожидались ключи system, title и files)") from exc
    except ValueError as exc:  # (a number's digits past Python's 4,300, which its int
        # refuses: neither parser makes it a syntax error of its own)
        what = "слишком длинное число (больше 4300 цифр)" if "digits" in str(exc) \
            else f"значение не читается ({exc})"
        raise LoadError(f"{path}: {why}: {what}") from exc


_MAX_KEY_PARTS = 64
"""Parts of a dotted key a corpus description may have: tomllib keeps every leading part of
a key's parts (a.b, a.b.c, …) until its line is read, the square of their number in memory,
and a key of 100,000 parts ("a.a.a…") took gigabytes."""
_QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"' r"|'[^'\n]*'")


def _overlong_key(raw: str) -> int | None:
    """The number of the first line of a TOML text with more than :data:`_MAX_KEY_PARTS`
    dots outside its strings and comment (a key's parts are on one line), or None."""
    for number, line in enumerate(raw.splitlines(), 1):
        if line.count(".") > _MAX_KEY_PARTS \
                and _QUOTED.sub("", line).split("#", 1)[0].count(".") > _MAX_KEY_PARTS:
            return number
    return None


_TOML_AT = re.compile(r"\s*\(at (?:line (\d+), column (\d+)|end of document)\)$")


def _syntax_error(exc: tomllib.TOMLDecodeError | yaml.YAMLError) -> str:
    """Where a corpus description's syntax fails and what the parser says (its own words, in
    English): "ошибка синтаксиса TOML в строке 2, столбце 5 (Invalid value)"."""
    if isinstance(exc, tomllib.TOMLDecodeError):
        message = str(exc)
        at = _TOML_AT.search(message)
        what = message[:at.start()] if at else message
        if at is None:
            return f"ошибка синтаксиса TOML ({what})"
        if at.group(1) is None:
            return f"ошибка синтаксиса TOML в конце файла ({what})"
        return f"ошибка синтаксиса TOML в строке {at.group(1)}, столбце {at.group(2)} ({what})"
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    if mark is None:
        return f"ошибка синтаксиса YAML ({problem})"
    return f"ошибка синтаксиса YAML в строке {mark.line + 1}, столбце {mark.column + 1} ({problem})"


def _title(value: object, path: Path, file_name: str | None) -> str | None:
    if value is None:
        return None
    where = f" для файла «{file_name}»" if file_name else ""
    if not isinstance(value, str) or not value.strip():
        raise LoadError(f"{path}: название книги (title){where} должно быть непустой строкой")
    return " ".join(value.split())


def system_name(value: object, path: Path, file_name: str | None) -> str | None:
    """A game system as a description (or ``--system``) names it, in lower case; None when it
    names none.

    Raises:
        LoadError: the value is no string or names no system the tool knows.
    """
    if value is None:
        return None
    where = f" для файла «{file_name}»" if file_name else ""
    known = ", ".join(SYSTEM_TITLES)
    if not isinstance(value, str):
        raise LoadError(f"{path}: игровая система{where} должна быть строкой; известны: {known}")
    name = value.strip().lower()
    if name not in SYSTEM_TITLES:
        raise LoadError(f"{path}: неизвестная игровая система «{value}»{where}; известны: {known}")
    return name
