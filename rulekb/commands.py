"""Commands that compose the validator and the site with the KB (``check-list``, ``audit``,
``site``); kept apart from :mod:`rulekb.cli` so that each stays small.

``check-list`` and ``audit`` keep going through a batch: an input that cannot be used is
reported (in the report and, as one line, on stderr, so that with ``-o FILE`` the terminal
still shows it) and the others are checked. A report written with ``-o`` appears whole or not
at all (:func:`kb.files.atomic_writer`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

import click

from rulekb.errors import exit_codes_help

if TYPE_CHECKING:
    from kb.graph import Graph
    from validator.audit.output import Format
    from validator.inputs.models import InputError
    from validator.inputs.roster import Aliases

F = TypeVar("F", bound=Callable[..., Any])


def register(cli: click.Group) -> None:
    """Add the composed commands to the ``rulekb`` group."""
    cli.add_command(site)
    cli.add_command(check_list)
    cli.add_command(audit)


@click.command(epilog=exit_codes_help("site"))
@click.option("-o", "--output", type=click.Path(path_type=Path), default=Path("site"),
              show_default=True, help="Папка для собранного сайта.")
@click.option("--kb", "kb_path", type=click.Path(path_type=Path), help="Файл базы знаний.")
def site(output: Path, kb_path: Path | None) -> None:
    """Собрать справочный сайт правил (Sphinx) из базы знаний."""
    from rulekb import defaults
    from rulekb.errors import UserError, doing
    from rulekb.site import SiteBuildError, build_site

    try:
        kb = defaults.graph(kb_path).kb
        with doing("не удалось собрать сайт в", output):
            output.mkdir(parents=True, exist_ok=True)  # before Sphinx, whose report is long
            index = build_site(kb, output)
    except SiteBuildError as exc:
        raise UserError(str(exc)) from None
    click.echo(f"Сайт собран: {index}")


def _report_options(func: F) -> F:
    """The options ``check-list`` and ``audit`` share: ``--kb``, ``--format``, ``--aliases``,
    ``-o``."""
    for option in reversed((
        click.option("--kb", "kb_path", type=click.Path(path_type=Path),
                     help="Файл базы знаний (по умолчанию — собранная из корпуса по "
                          "умолчанию)."),
        click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                     show_default=True, help="Отчёт для людей (text) или для программ (json)."),
        click.option("--aliases", "aliases_path", type=click.Path(path_type=Path),
                     help="Своя таблица английских названий (TOML, как встроенная таблица "
                          "псевдонимов), дополняющая встроенную."),
        click.option("-o", "--output", type=click.Path(path_type=Path),
                     help="Записать отчёт в файл, а не на стандартный вывод."),
    )):
        func = option(func)
    return func


def _graph_and_aliases(kb_path: Path | None, aliases_path: Path | None) -> tuple[Graph, Aliases]:
    """The KB to check against and the alias table; a bad file of either is a clean error."""
    from kb.store import KBFileError
    from rulekb import defaults
    from rulekb.errors import UserError
    from validator.inputs.roster import AliasFileError, load_aliases

    try:
        return defaults.graph(kb_path), load_aliases(aliases_path)
    except (AliasFileError, KBFileError) as exc:
        raise UserError(str(exc)) from None


@contextmanager
def _report_stream(output: Path | None) -> Iterator[TextIO]:
    """Where a report goes: stdout, or ``output`` written atomically (created before the
    work starts, so an unwritable place fails at once; renamed into place when complete)."""
    from kb.files import atomic_writer
    from rulekb.errors import doing

    if output is None:
        yield sys.stdout
        return
    with doing("не удалось записать отчёт в", output):
        writer = atomic_writer(output)
        stream = writer.__enter__()
    try:
        yield stream
    except BaseException:
        writer.__exit__(*sys.exc_info())
        raise
    with doing("не удалось записать отчёт в", output):
        writer.__exit__(None, None, None)


def say_input_error(error: InputError) -> None:
    """An input error as one line on stderr (it is in the report too)."""
    from rulekb.errors import one_line

    click.echo(f"Ошибка: {one_line(str(error))}", err=True)


@click.command(epilog=exit_codes_help("audit"))
@click.argument("logs", nargs=-1, required=True, type=click.Path(path_type=Path))
@_report_options
def audit(logs: tuple[Path, ...], kb_path: Path | None, fmt: Format, aliases_path: Path | None,
          output: Path | None) -> None:
    """Проверить записанные партии LOGS (журналы JSON Lines; папка — все журналы в ней):
    каждое событие — по правилам из базы знаний, с цитатой решающего предложения.

    Журнал, который не удалось проверить, назван в отчёте и строкой в stderr; остальные
    журналы всё равно проверяются.
    """
    from validator.audit import write_audits

    graph, aliases = _graph_and_aliases(kb_path, aliases_path)
    with _report_stream(output) as out:
        code = write_audits(logs, graph, out, fmt, aliases, on_error=say_input_error)
    sys.exit(code)


@click.command("check-list", epilog=exit_codes_help("check-list"))
@click.argument("lists", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--kb", "kb_path", type=click.Path(path_type=Path),
              help="Файл базы знаний (по умолчанию — собранная из корпуса по умолчанию).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "html"]), default="text",
              show_default=True, help="Отчёт для людей (text), для программ (json) или одна "
                                      "страница HTML на всю папку, которую можно разослать "
                                      "игрокам (html).")
@click.option("--aliases", "aliases_path", type=click.Path(path_type=Path),
              help="Своя таблица английских названий и игровых систем (TOML, как встроенная "
                   "таблица псевдонимов), дополняющая встроенную.")
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="Записать отчёт в файл, а не на стандартный вывод.")
def check_list(lists: tuple[Path, ...], kb_path: Path | None, fmt: str,
               aliases_path: Path | None, output: Path | None) -> None:
    """Проверить списки армий LISTS (YAML, JSON, ростеры BattleScribe .ros/.rosz; папка —
    все списки в ней): тип каждого отряда, его специальные правила и их параметры, профили и
    состав, очки и системы — с цитатой решающего предложения правил. Отчёт пишется по мере
    проверки; несколько списков (папка) завершает сводная таблица: файл, армия, очки и
    предел, нарушения, предупреждения, не покрыто.

    Список, который не удалось прочитать, назван в отчёте и строкой в stderr; остальные
    списки всё равно проверяются и выводятся.
    """
    from validator.armylist import write_lists

    graph, aliases = _graph_and_aliases(kb_path, aliases_path)
    with _report_stream(output) as out:
        code = write_lists(lists, graph, out, fmt, aliases=aliases, on_error=say_input_error)
    sys.exit(code)
