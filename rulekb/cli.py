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
@click.option("--system", "-s", "system",
              help="Игровая система всех файлов (wh40k6, whfb8, killteam2018) вместо "
                   "определения по тексту и corpus.toml.")
@click.option("--explain", is_flag=True,
              help="Показать, как разрезан каждый текст: разделы (заголовок, родитель, "
                   "страница, смещения) и удалённый текст с причинами; база не записывается.")
@click.option("-q", "--quiet", is_flag=True, help="Без индикатора выполнения и сводки.")
@clean_errors
def build(corpus: tuple[Path, ...], output: Path, system: str | None, explain: bool,
          quiet: bool) -> None:
    """Собрать базу знаний из текстов правил CORPUS (файлы или папки).

    Без CORPUS берётся корпус по умолчанию (../shared/corpus). Печатает сводку по каждой
    системе: разделы, типы войск, факты, ссылки (разрешённые / неразрешённые) и учёт
    удалённого текста. Файл, который нельзя прочитать или чья система не определилась,
    пропускается (строка на stderr), остальные собираются.

    Код выхода: 0 — всё собрано, 1 — какой-то файл пропущен, 2 — годных текстов нет (база
    не записывается).
    """
    from ingest import LoadError, load
    from ingest import build as build_kb
    from kb import save
    from rulekb.summary import summary_table

    paths = list(corpus) or [defaults.corpus_dir()]
    unreadable: list[LoadError] = []
    sources = load(paths, system=system, on_error=unreadable.append)
    for error in unreadable:
        click.echo(f"Пропущено: {error}", err=True)
    if explain:
        from ingest.explain import explain as explain_text

        for i, src in enumerate(sources):
            click.echo(("\n" if i else "") + explain_text(src))
        usable = [s for s in sources if s.system is not None]
        for src in sources:
            if src.system is None:
                click.echo(f"Пропущен файл {src.path}: {_no_system(src.text)}", err=True)
        if not usable:
            click.echo("Ошибка: годных текстов правил не найдено", err=True)
        sys.exit(2 if not usable else 1 if unreadable or len(usable) < len(sources) else 0)
    bar = None
    if not quiet and sources and sys.stderr.isatty():  # a bar in a log is noise
        from tqdm import tqdm

        bar = tqdm(total=len(sources), desc="Сборка", unit="файл", file=sys.stderr,
                   leave=False)
    built = build_kb(sources, progress=(lambda _name: bar.update(1)) if bar else None,
                     unreadable=[e.where_and_why() for e in unreadable])
    if bar:
        bar.close()
    paths_of = {s.name: s.path for s in sources}
    for name, why in built.skipped:
        if name in paths_of:  # the unreadable ones are on stderr already
            click.echo(f"Пропущен файл {paths_of[name]}: {why}", err=True)
    if not any(n.kind == "source" for n in built.kb.nodes):
        raise UserError("годных текстов правил не найдено, база знаний не записана")
    save(built.kb, output)
    if not quiet:
        click.echo(summary_table(built.kb, built.skipped))
        click.echo(f"База знаний записана в {output}")
    sys.exit(1 if built.skipped else 0)


def _no_system(text: str) -> str:
    from ingest.build import no_system_reason

    return no_system_reason(text)


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
