"""The CLI's error discipline: every failure is one Russian line on stderr and an exit code.

:func:`run` calls a command and turns whatever escapes it into that line and code: click's
usage errors (their texts in Russian, :mod:`rulekb.clickru`), the library's own exceptions
(their messages are already Russian), OS errors (what was being done, to which path: see
:func:`doing`), Ctrl-C, a closed pipe, and — as a last resort — a bug, said as such.

:data:`EXIT_CODES` documents every exit code of every command; the CLI reference, the README
and ``tests/test_cli_exit_codes.py`` are kept to it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

import click

from kb.files import os_reason

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_UNUSABLE = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141
EXIT_TERMINATED = 143

DEBUG_ENV = "RULEKB_DEBUG"
"""Set to 1 to get the traceback of an internal error instead of its one line."""

class ExitCode(NamedTuple):
    """One exit code of a command: what it means, in Russian (the help, the site) and in
    English (the README)."""

    code: int
    ru: str
    en: str


COMMON_CODES: tuple[ExitCode, ...] = (
    ExitCode(EXIT_UNUSABLE,
             "ошибка в командной строке (нет аргумента, неизвестный параметр или команда, "
             "недопустимое значение); файл базы знаний, таблицы псевдонимов или отчёта не "
             "читается или не пишется",
             "a usage error (missing argument, unknown option or command, bad value); the KB, "
             "alias table or report file cannot be read or written"),
    ExitCode(EXIT_INTERNAL,
             f"внутренняя ошибка rulekb (ошибка в программе; трассировка — с {DEBUG_ENV}=1)",
             f"an internal error, i.e. a bug (the traceback with {DEBUG_ENV}=1)"),
    ExitCode(EXIT_INTERRUPTED, "прервано Ctrl-C", "interrupted by Ctrl-C"),
    ExitCode(EXIT_BROKEN_PIPE,
             "тот, кто читал стандартный вывод, закрыл канал (например, head); без сообщения",
             "the reader of stdout closed the pipe (e.g. head); no message"),
    ExitCode(EXIT_TERMINATED, "завершено сигналом SIGTERM", "terminated by SIGTERM"),
)
"""What every command may exit with besides its own codes (each with one line on stderr,
except a closed pipe)."""

EXIT_CODES: dict[str, tuple[ExitCode, ...]] = {
    "build": (
        ExitCode(EXIT_OK, "база знаний записана, все файлы прочитаны",
                 "KB written, every file read"),
        ExitCode(EXIT_FINDINGS, "база знаний записана, но какой-то файл пропущен (он назван в "
                 "stderr и в учёте базы знаний)",
                 "KB written, but a file was skipped (named on stderr and in the KB's account)"),
        ExitCode(EXIT_UNUSABLE, "ни одного пригодного текста правил: база знаний не записана",
                 "no usable rule text: no KB written"),
    ),
    "show": (
        ExitCode(EXIT_OK, "узел найден и показан", "the node found and shown"),
        ExitCode(EXIT_UNUSABLE, "имя не найдено (с ближайшими именами) или означает узлы "
                 "нескольких систем; неизвестная система или такая, правил которой нет в базе "
                 "знаний",
                 "no such name (the nearest are suggested), or it names nodes of several "
                 "systems; an unknown system, or one the KB holds no rules of"),
    ),
    "search": (
        ExitCode(EXIT_OK, "поиск выполнен (и когда ничего не найдено)",
                 "searched (also when nothing was found)"),
        ExitCode(EXIT_UNUSABLE, "неизвестная система или такая, правил которой нет в базе "
                 "знаний; -n меньше 1",
                 "an unknown system, or one the KB holds no rules of; -n below 1"),
    ),
    "stats": (
        ExitCode(EXIT_OK, "сводка выведена", "summary printed"),
    ),
    "check-list": (
        ExitCode(EXIT_OK, "все списки проверены, нарушений нет",
                 "every list checked, no violation"),
        ExitCode(EXIT_FINDINGS, "есть нарушения, или какой-то список не удалось проверить "
                 "(остальные проверены; каждая ошибка — и строкой в stderr)",
                 "violations found, or a list could not be checked (the others were; every "
                 "input error also one line on stderr)"),
        ExitCode(EXIT_UNUSABLE, "ни один список не удалось проверить: не читается, нет "
                 "такого файла, в папке нет списков, в базе знаний нет правил его системы",
                 "no list could be checked: unreadable, missing, an empty folder, a system "
                 "the KB holds no rules of"),
    ),
    "audit": (
        ExitCode(EXIT_OK, "все журналы проверены, нарушений нет",
                 "every log audited, no violation"),
        ExitCode(EXIT_FINDINGS, "есть нарушения или нечитаемые строки, или какой-то журнал "
                 "не удалось проверить (остальные проверены; каждая ошибка — и строкой в "
                 "stderr)",
                 "violations or unreadable lines found, or a log could not be audited (the "
                 "others were; every input error also one line on stderr)"),
        ExitCode(EXIT_UNUSABLE, "ни один журнал не удалось проверить: нет заголовка, армия "
                 "не читается, нет такого файла, в базе знаний нет правил его системы",
                 "no log could be audited: no header, an unreadable army, missing, a system "
                 "the KB holds no rules of"),
    ),
    "site": (
        ExitCode(EXIT_OK, "сайт собран", "site built"),
        ExitCode(EXIT_UNUSABLE, "сайт не собран: предупреждение Sphinx, папку вывода нельзя "
                 "записать", "site not built: a Sphinx warning, an unwritable output folder"),
    ),
}
"""Each command's own exit codes."""


def codes_of(command: str) -> tuple[ExitCode, ...]:
    """Every exit code ``command`` may give: its own, then the common ones it lacks."""
    own = EXIT_CODES.get(command, ())
    mine = {item.code for item in own}
    return own + tuple(item for item in COMMON_CODES if item.code not in mine)


def exit_codes_help(command: str) -> str:
    """The exit codes of a command as its ``--help`` epilog."""
    own = "; ".join(f"{item.code} — {item.ru}" for item in EXIT_CODES.get(command, ()))
    return f"Код выхода: {own}; общие для всех команд коды — в справочнике команд."


class UserError(click.ClickException):
    """A clean error for the user: printed as one line, exit code 2."""

    exit_code = EXIT_UNUSABLE

    def show(self, file: Any = None) -> None:
        click.echo(f"Ошибка: {one_line(self.message)}", err=True)


class Interrupted(BaseException):
    """Ctrl-C or SIGTERM, carried past click's own handling (which would print a blank line
    and English) to :func:`run`; a BaseException, so no ``except Exception`` swallows it."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class PipeClosed(BaseException):
    """The reader of stdout went away (``rulekb search … | head -1``)."""


def one_line(text: str) -> str:
    """``text`` on one line: line breaks and runs of spaces become single spaces."""
    return " ".join(text.split())


@contextmanager
def doing(action: str, path: object) -> Iterator[None]:
    """Say what was being done, to which path, when an OS error stops it.

    >>> with doing("запись отчёта в", "out/report.txt"):   # doctest: +SKIP
    ...     open("out/report.txt", "w")
    UserError: запись отчёта в out/report.txt: нет такого файла или папки
    """
    try:
        yield
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            raise
        raise UserError(f"{action} {path}: {os_reason(exc)}") from None


_LIBRARY_ERRORS = (
    ("ingest.load", "LoadError"),
    ("kb.store", "KBFileError"),
    ("kb.names", "LookupFailed"),
    ("kb.graph", "UnknownNode"),
    ("validator.inputs.roster", "AliasFileError"),
    ("rulekb.site.errors", "SiteBuildError"),
)


def _library_errors() -> tuple[type[BaseException], ...]:
    """The library's exceptions whose message is already the Russian line to show.

    Only modules already imported are looked at: an exception of a module never imported
    cannot have been raised, and importing ``ingest`` here would cost a lookup its speed.
    """
    found: list[type[BaseException]] = []
    for module_name, name in _LIBRARY_ERRORS:
        module = sys.modules.get(module_name)
        error = getattr(module, name, None) if module is not None else None
        if isinstance(error, type) and issubclass(error, BaseException):
            found.append(error)
    return tuple(found)


def _say(line: str) -> None:
    try:
        click.echo(line, err=True)
    except (OSError, ValueError):
        pass  # stderr itself is gone: the exit code still tells


def _usage_line(exc: click.UsageError) -> str:
    message = one_line(exc.format_message()).rstrip()
    if message and message[-1] not in ".?!":
        message += "."
    where = f" Справка: {exc.ctx.command_path} --help" if exc.ctx is not None else ""
    return f"Ошибка: {message}{where}"


def _exit_code(code: object) -> int:
    if code is None:
        return EXIT_OK
    if isinstance(code, int):
        return code
    _say(f"Ошибка: {code}")
    return EXIT_UNUSABLE


def _flush_stdout() -> None:
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise PipeClosed() from None


def _silence_stdout() -> None:
    # the interpreter flushes stdout once more at exit; pointing it at /dev/null keeps that
    # flush from raising again (the recipe of the Python docs for SIGPIPE)
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def run(command: Callable[[], object]) -> int:
    """Run ``command`` (click's ``main`` in non-standalone mode) and return the exit code,
    every failure said on stderr as one Russian line."""
    no_args_help = getattr(click.exceptions, "NoArgsIsHelpError", None)
    try:
        try:
            result = command()
            _flush_stdout()
            return result if isinstance(result, int) else EXIT_OK
        except SystemExit as exc:
            _flush_stdout()
            return _exit_code(exc.code)
    except PipeClosed:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except Interrupted as exc:
        _say(exc.message)
        return exc.code
    except (KeyboardInterrupt, click.Abort):
        _say("Прервано (Ctrl-C).")
        return EXIT_INTERRUPTED
    except click.UsageError as exc:
        if no_args_help is not None and isinstance(exc, no_args_help) and exc.ctx is not None:
            click.echo(exc.ctx.get_help())  # «rulekb» alone: the help, as click 8.1 gave it
            return EXIT_OK
        _say(_usage_line(exc))
        return EXIT_UNUSABLE
    except click.ClickException as exc:
        _say(f"Ошибка: {one_line(exc.format_message())}")
        return exc.exit_code
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except _library_errors() as exc:
        _say(f"Ошибка: {one_line(str(exc))}")
        return EXIT_UNUSABLE
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        _say(f"Ошибка ввода-вывода: {where}{os_reason(exc)}")
        return EXIT_UNUSABLE
    except MemoryError:
        _say("Ошибка: не хватило памяти; входные данные слишком велики для этой машины")
        return EXIT_UNUSABLE
    except Exception as exc:
        if os.environ.get(DEBUG_ENV):
            raise
        _say(f"Ошибка: внутренняя ошибка rulekb ({type(exc).__name__}: {one_line(str(exc))}); "
             f"трассировку покажет запуск с {DEBUG_ENV}=1")
        return EXIT_INTERNAL


def exit_codes_rst() -> str:
    """The exit codes of every command as an rst table (docs/about/cli.rst holds it verbatim)."""
    rows = [(f"``{command}``", item) for command, items in EXIT_CODES.items()
            for item in items]
    rows += [("любая", item) for item in COMMON_CODES]
    lines = [".. list-table::", "   :header-rows: 1", "   :widths: 15 8 77", "",
             "   * - команда", "     - код", "     - значение"]
    for command, item in rows:
        lines += [f"   * - {command}", f"     - {item.code}", f"     - {item.ru}"]
    return "\n".join(lines) + "\n"


def exit_codes_markdown() -> str:
    """The exit codes of every command as a Markdown table (the README holds it verbatim)."""
    lines = ["| command | code | meaning |", "|---|---|---|"]
    for command, items in EXIT_CODES.items():
        lines += [f"| `{command}` | {item.code} | {item.en} |" for item in items]
    lines += [f"| any | {item.code} | {item.en} |" for item in COMMON_CODES]
    return "\n".join(lines) + "\n"
