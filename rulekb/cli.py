"""The ``rulekb`` command line: a thin layer that calls one library function per command.

Every failure the user can cause ends in one Russian line on stderr and exit code 2, never a
traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from rulekb import defaults

F = TypeVar("F", bound=Callable[..., Any])


class UserError(click.ClickException):
    """A clean error for the user: printed as one line, exit code 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"Ошибка: {self.message}", err=True)


def clean_errors(func: F) -> F:
    """Turn the library's own exceptions into :class:`UserError` (one line, exit 2)."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from ingest.load import LoadError
        from kb.graph import UnknownNode
        from kb.names import LookupFailed
        from kb.store import KBFileError

        try:
            return func(*args, **kwargs)
        except (LoadError, KBFileError, LookupFailed, UnknownNode) as exc:
            raise UserError(str(exc)) from None
        except OSError as exc:
            raise UserError(f"{exc.filename or ''}: {exc.strerror}") from None

    return wrapper  # type: ignore[return-value]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulekb")
def cli() -> None:
    """rulekb: база знаний по правилам настольных варгеймов (Warhammer 40,000 6-й редакции,
    Warhammer Fantasy Battle 8-й редакции, Kill Team 2018), проверка ростеров и партий со
    ссылками на правила."""


@cli.command()
@click.argument("corpus", nargs=-1, type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), default=Path("kb.json"),
              show_default=True, help="Куда записать базу знаний (JSON, FORMATS §1).")
@click.option("-q", "--quiet", is_flag=True, help="Без индикатора выполнения и сводки.")
@clean_errors
def build(corpus: tuple[Path, ...], output: Path, quiet: bool) -> None:
    """Собрать базу знаний из текстов правил CORPUS (файлы или папки).

    Без CORPUS берётся корпус по умолчанию (../shared/corpus). Печатает сводку по каждой
    системе: разделы, типы войск, факты, ссылки (разрешённые / неразрешённые) и учёт
    удалённого текста.
    """
    from ingest import build as build_kb
    from ingest import load
    from kb import save
    from rulekb.summary import summary_table

    paths = list(corpus) or [defaults.corpus_dir()]
    sources = load(paths)
    bar = None
    if not quiet:
        from tqdm import tqdm

        bar = tqdm(total=len(sources), desc="Сборка", unit="файл", file=sys.stderr,
                   leave=False)
    built = build_kb(sources, progress=(lambda _name: bar.update(1)) if bar else None)
    if bar:
        bar.close()
    save(built.kb, output)
    if not quiet:
        click.echo(summary_table(built.kb, built.skipped))
        click.echo(f"База знаний записана в {output}")


@cli.command()
@click.argument("name")
@click.option("--system", "-s", help="Игровая система: wh40k6, whfb8, killteam2018.")
@click.option("--kb", "kb_path", type=click.Path(path_type=Path),
              help="Файл базы знаний (по умолчанию — собранный из корпуса по умолчанию).")
@click.option("--json", "as_json", is_flag=True, help="Вывести узел в JSON.")
@clean_errors
def show(name: str, system: str | None, kb_path: Path | None, as_json: bool) -> None:
    """Показать правило или тип войск NAME: текст, факты, на что ссылается и кто ссылается."""
    from rulekb.show import render_node

    graph = defaults.graph(kb_path)
    node = defaults.find_node(graph, name, system)
    click.echo(render_node(graph, node, as_json=as_json))


@cli.command()
@click.argument("query")
@click.option("--system", "-s", help="Искать только в этой системе.")
@click.option("--limit", "-n", default=10, show_default=True, help="Сколько результатов.")
@click.option("--kb", "kb_path", type=click.Path(path_type=Path), help="Файл базы знаний.")
@clean_errors
def search(query: str, system: str | None, limit: int, kb_path: Path | None) -> None:
    """Полнотекстовый поиск по правилам (формы слов и опечатки учитываются)."""
    graph = defaults.graph(kb_path)
    defaults.check_system(system)
    hits = graph.fulltext.search(query, system=system, limit=limit)
    if not hits:
        click.echo(f"По запросу «{query}» ничего не найдено.")
        return
    for i, hit in enumerate(hits, 1):
        click.echo(f"{i}. {hit.title} [{hit.system}] ({hit.node_id})")
        if hit.snippet:
            click.echo(f"   {hit.snippet}")


@cli.command()
@click.option("--kb", "kb_path", type=click.Path(path_type=Path), help="Файл базы знаний.")
@click.option("--json", "as_json", is_flag=True, help="В JSON.")
@clean_errors
def stats(kb_path: Path | None, as_json: bool) -> None:
    """Сводка по базе знаний: узлы, связи, факты, ссылки по каждой системе."""
    from rulekb.summary import summary_rows, summary_table

    graph = defaults.graph(kb_path)
    if as_json:
        click.echo(json.dumps(summary_rows(graph.kb), ensure_ascii=False, indent=1))
    else:
        click.echo(summary_table(graph.kb, []))


def _register_optional() -> None:
    """Commands whose modules may be missing in a partial install register themselves."""
    from rulekb import commands

    commands.register(cli)


_register_optional()


def main() -> None:
    """Entry point of the ``rulekb`` console script."""
    cli(prog_name="rulekb")
