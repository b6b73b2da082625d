"""click in Russian: the texts of click's messages (usage errors, help headings) translated.

click builds every text it shows through :func:`gettext.gettext` and :func:`gettext.ngettext`,
which each of its modules imports as ``_`` and ``ngettext``; :func:`install` points those
names at :data:`MESSAGES`, the Russian catalogue keyed by click's own English texts (the
msgids). A text the catalogue lacks stays as click wrote it; ``tests/test_cli_errors.py``
runs every kind of usage error through the CLI and fails on an English word, so a click
upgrade that adds or rewords a message is caught there.

Only click's modules are touched, and only their translation functions: the rest of the
process (and gettext's own domains) is as it was.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

MESSAGES: dict[str, str] = {
    # usage errors
    "Error: {message}": "Ошибка: {message}",
    "Try '{command} {option}' for help.": "Справка: {command} {option}",
    "Invalid value for {param_hint}: {message}": "недопустимое значение {param_hint}: {message}",
    "Invalid value: {message}": "недопустимое значение: {message}",
    "Missing argument": "не указан аргумент",
    "Missing option": "не указан обязательный параметр",
    "Missing parameter": "не указан параметр",
    "Missing {param_type}": "не указан {param_type}",
    "Missing parameter: {param_name}": "не указан параметр {param_name}",
    "Missing command.": "не указана команда.",
    "No such command {name!r}.": "нет команды «{name}».",
    "No such option {name!r}.": "нет параметра «{name}».",
    "Did you mean {possibility}?": "Возможно, имелся в виду {possibility}?",
    "Option {name!r} does not take a value.": "параметр «{name}» не принимает значения.",
    "Argument {name!r} takes {nargs} values.": "аргумент «{name}» принимает {nargs} значения.",
    "Invalid start character for option ({option})":
        "недопустимый первый символ параметра ({option})",
    "Value must be an iterable.": "значение должно быть списком.",
    "unknown error": "неизвестная ошибка",
    "Could not open file {filename!r}: {message}":
        "не удалось открыть файл «{filename}»: {message}",
    "Aborted!": "Прервано.",
    # parameter types
    "{value!r} is not a valid {number_type}.": "«{value}» — не целое число.",
    "{value} is not in the range {range}.": "{value} — вне допустимого: {range}.",
    "{value!r} is not a valid boolean. Recognized values: {states}":
        "«{value}» — не логическое значение; допустимы: {states}",
    "{value!r} is not a valid UUID.": "«{value}» — не UUID.",
    "{name} {filename!r} does not exist.": "{name} «{filename}» не существует.",
    "{name} {filename!r} is a file.": "{name} «{filename}» — файл, а не папка.",
    "{name} {filename!r} is a directory.": "{name} «{filename}» — папка, а не файл.",
    "{name} {filename!r} is not readable.": "{name} «{filename}» недоступен для чтения.",
    "{name} {filename!r} is not writable.": "{name} «{filename}» недоступен для записи.",
    "{name} {filename!r} is not executable.": "{name} «{filename}» не исполняемый.",
    "file": "файл",
    "directory": "папка",
    "path": "путь",
    "Choose from:\n\t{choices}": "Выберите одно из: {choices}",
    # help
    "Usage:": "Использование:",
    "Options": "Параметры",
    "Commands": "Команды",
    "Positional arguments": "Аргументы",
    "Show this message and exit.": "Показать эту справку и выйти.",
    "Show the version and exit.": "Показать версию и выйти.",
    "%(prog)s, version %(version)s": "%(prog)s, версия %(version)s",
    "default: {default}": "по умолчанию: {default}",
    "required": "обязательно",
    "deprecated": "устарело",
    "env var: {var}": "переменная окружения: {var}",
    "(dynamic)": "(вычисляется)",
}
"""click's English texts → Russian (placeholders kept; ``{x!r}`` becomes «{x}»)."""

PLURALS: dict[tuple[str, str], tuple[str, str]] = {
    ("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"):
        ("лишний аргумент: {args}", "лишние аргументы: {args}"),
    ("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."):
        ("параметру «{name}» нужно значение.", "параметру «{name}» нужно {nargs} значения."),
    ("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"):
        ("Возможно, имелся в виду {possibility}?",
         "(Возможно, имелось в виду одно из: {possibilities}?)"),
    ("{value!r} is not {choice}.", "{value!r} is not one of {choices}."):
        ("«{value}»; допустимо только {choice}.",
         "«{value}»; допустимы: {choices}."),
    ("Takes {nargs} values but 1 was given.", "Takes {nargs} values but {len} were given."):
        ("нужно {nargs} значения, а дано одно.", "нужно {nargs} значения, а дано {len}."),
    ("{len_type} values are required, but {len_value} was given.",
     "{len_type} values are required, but {len_value} were given."):
        ("нужно значений: {len_type}, а дано {len_value}.",
         "нужно значений: {len_type}, а дано {len_value}."),
}
"""click's singular and plural texts → Russian ones (the plural form serves every n ≠ 1)."""

_CLICK_MODULES = ("core", "exceptions", "parser", "types", "formatting", "decorators",
                  "termui", "utils")


def gettext(message: str) -> str:
    """The Russian of one of click's texts, or the text itself."""
    return MESSAGES.get(message, message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The Russian of one of click's texts with a number."""
    pair = PLURALS.get((singular, plural))
    if pair is None:
        return singular if n == 1 else plural
    return pair[0] if n == 1 else pair[1]


def install() -> None:
    """Make click show its texts in Russian (idempotent)."""
    for name in _CLICK_MODULES:
        try:
            module = importlib.import_module(f"click.{name}")
        except ImportError:  # a click without this module: nothing of it to translate
            continue
        _set(module, "_", gettext)
        _set(module, "ngettext", ngettext)


def _set(module: Any, name: str, function: Callable[..., str]) -> None:
    if hasattr(module, name):
        setattr(module, name, function)
