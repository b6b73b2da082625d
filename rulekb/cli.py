"""The ``rulekb`` command line: a thin layer that calls one library function per command.

Every failure ends in one Russian line on stderr and a documented exit code, never a
traceback (:mod:`rulekb.errors`; the codes in :data:`rulekb.errors.EXIT_CODES`). click's own
texts are shown in Russian (:mod:`rulekb.clickru`). A command imports what it needs when it
runs, so that ``rulekb show`` answers without loading the pipeline or the validator.
"""

from __future__ import annotations

import json
import signal
import sys
from collections.abc import Callable, Sequence
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from rulekb import clickru
from rulekb.errors import (
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    Interrupted,
    PipeClosed,
    UserError,
    doing,
    exit_codes_help,
    run,
)

if TYPE_CHECKING:
    from ingest.models import SourceText

F = TypeVar("F", bound=Callable[..., Any])

clickru.install()

__all__ = ["UserError", "cli", "main"]


def clean_errors(func: F) -> F:
    """Turn the library's own exceptions into :class:`UserError` (one line, exit 2).

    :func:`rulekb.errors.run` does the same for every command; this keeps a command's
    errors clean when it is called through click's own ``main`` (``standalone_mode=False``).
    """

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from rulekb.errors import _library_errors

        try:
            return func(*args, **kwargs)
        except _library_errors() as exc:
            raise UserError(str(exc)) from None

    return wrapper  # type: ignore[return-value]


class Count(click.ParamType):  # type: ignore[type-arg]
    """A whole number not below ``minimum`` (``-n 0`` and ``-n -5`` refused, in Russian)."""

    name = "число"

    def __init__(self, minimum: int = 1) -> None:
        self.minimum = minimum

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        try:
            number = int(value)
        except (TypeError, ValueError):
            number = None
        if number is None or number < self.minimum:
            self.fail(f"ожидалось целое число не меньше {self.minimum}, получено «{value}»",
                      param, ctx)
        return number


class RulekbGroup(click.Group):
    """The ``rulekb`` group: its ``main`` runs a command under :func:`rulekb.errors.run`."""

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            import difflib

            known = self.list_commands(ctx)
            near = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
            hint = f"; возможно, «{near[0]}»" if near else ""
            raise click.UsageError(
                f"нет команды «{name}»{hint} (команды: {', '.join(known)})", ctx=ctx)
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise PipeClosed() from None
        except KeyboardInterrupt:
            # click would print a blank line and raise Abort; carry it past that
            raise Interrupted(EXIT_INTERRUPTED, "Прервано (Ctrl-C).") from None

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        code = run(lambda: click.Group.main(self, args, prog_name or "rulekb", complete_var,
                                            False, **extra))
        sys.exit(code)


@click.group("rulekb", cls=RulekbGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulekb", message="%(prog)s, версия %(version)s")
def cli() -> None:
    """rulekb: база знаний по правилам настольных варгеймов (Warhammer 40,000 6-й редакции,
    Warhammer Fantasy Battle 8-й редакции, Kill Team 2018), проверка ростеров и партий со
    ссылками на правила."""


@cli.command(epilog=exit_codes_help("build"))
@click.argument("corpus", nargs=-1, type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path), default=Path("kb.json"),
              show_default=True, help="Куда записать базу знаний (JSON, FORMATS §1).")
@click.option("--system", "-s", "system",
              help="Игровая система всех файлов (wh40k6, whfb8, killteam2018) вместо "
                   "определения по тексту и corpus.toml.")
@click.option("--explain", is_flag=True,
              help="Показать, как разрезан каждый текст: разделы (заголовок, родитель, "
                   "страница, смещения) и удалённый текст с причинами; база не записывается.")
@click.option("--text", "show_text", is_flag=True,
              help="Напечатать текст каждого файла, как его читает rulekb (у PDF и документов "
                   "Word и LibreOffice — извлечённый текст, заголовки размечены «#»: сохранённый "
                   "как .md и исправленный, он собирается так же); база не записывается.")
# (the size is ingest.pool.PARALLEL_MIN, written out: importing ingest here would slow every
# command's start; tests/test_pool.py checks the two agree)
@click.option("-j", "--jobs", type=Count(1), default=None,
              help="Сколько процессов читают и размечают тексты одновременно (по умолчанию "
                   "по одному на ядро для большой сборки, от 256 000 символов, иначе один; "
                   "страницы PDF от 24 страниц тоже читаются по процессу на ядро; база от "
                   "этого не меняется).")
@click.option("-q", "--quiet", is_flag=True, help="Без индикатора выполнения и сводки.")
@clean_errors
def build(corpus: tuple[Path, ...], output: Path, system: str | None, explain: bool,
          show_text: bool, jobs: int | None, quiet: bool) -> None:
    """Собрать базу знаний из текстов правил CORPUS (файлы или папки).

    Папка даёт свои файлы *.txt, *.md, *.html и *.mht (страницы, сохранённые из браузера),
    *.pdf (книга в PDF: её текстовый слой, заголовки по размеру шрифта), *.docx, *.doc, *.rtf
    и *.odt (документы Word, RTF и LibreOffice: заголовки по стилям), *.fb2 и *.epub
    (электронные книги: заголовки разделов и глав) и файлы вложенных папок (у каждой папки может
    быть свой corpus.toml). Без CORPUS берётся корпус по умолчанию (../shared/corpus).
    Печатает сводку по каждой системе: разделы, типы войск, факты, ссылки
    (разрешённые / неразрешённые) и учёт удалённого текста. Файл, который нельзя прочитать,
    чья система не определилась или в котором после очистки не осталось текста правил,
    пропускается (строка на stderr), остальные собираются.
    """
    from ingest import LoadError, load
    from ingest import build as build_kb
    from kb import save
    from rulekb import defaults
    from rulekb.summary import summary_table

    paths = list(corpus) or [defaults.corpus_dir()]
    unreadable: list[LoadError] = []
    sources = load(paths, system=system, on_error=unreadable.append, jobs=jobs)
    for error in unreadable:
        click.echo(f"Пропущено: {error}", err=True)
    if show_text:
        for i, src in enumerate(sources):
            if len(sources) > 1:  # (one file's text alone, to be saved as it is)
                click.echo(("\n" if i else "") + f"==> {src.path} <==")
            click.echo(src.text, nl=not src.text.endswith("\n"))
        if not sources:
            click.echo("Ошибка: годных текстов правил не найдено", err=True)
        sys.exit(2 if not sources else 1 if unreadable else 0)
    for src in sources:
        if src.system_from == "path":
            click.echo(f"Файл {src.path}: система {src.system} взята из имени файла или папки "
                       "(слова текста её не решают; иначе: --system или corpus.toml)", err=True)
    if explain:
        from ingest.explain import explained

        kept = 0  # (the files the build would take: their system known, some text left)
        for i, src in enumerate(sources):
            text, taken = explained(src)
            click.echo(("\n" if i else "") + text)
            kept += taken
        for src in sources:
            if src.system is None:
                click.echo(f"Пропущен файл {src.path}: {_no_system(src)}", err=True)
        if not kept:
            click.echo("Ошибка: годных текстов правил не найдено", err=True)
        sys.exit(2 if not kept else 1 if unreadable or kept < len(sources) else 0)
    bar = None
    if not quiet and sources and sys.stderr.isatty():  # a bar in a log is noise
        from tqdm import tqdm

        bar = tqdm(total=len(sources), desc="Сборка", unit="файл", file=sys.stderr,
                   leave=False)
    built = build_kb(sources, progress=(lambda _name: bar.update(1)) if bar else None,
                     unreadable=[e.where_and_why() for e in unreadable], jobs=jobs)
    if bar:
        bar.close()
    paths_of = {s.name: s.path for s in sources}
    for name, why in built.skipped:
        if name in paths_of:  # the unreadable ones are on stderr already
            click.echo(f"Пропущен файл {paths_of[name]}: {why}", err=True)
    if not any(n.kind == "source" for n in built.kb.nodes):
        raise UserError("годных текстов правил не найдено, база знаний не записана")
    with doing("не удалось записать базу знаний в", output):
        save(built.kb, output)
    if not quiet:
        click.echo(summary_table(built.kb, built.skipped))
        click.echo(f"База знаний записана в {output}")
    sys.exit(1 if built.skipped else 0)


def _no_system(source: SourceText) -> str:
    from ingest.build import no_system_reason

    return no_system_reason(source.text, source.named_path, source.undetected)


@cli.command(epilog=exit_codes_help("show"))
@click.argument("name")
@click.option("--system", "-s", help="Игровая система: wh40k6, whfb8, killteam2018.")
@click.option("--kb", "kb_path", type=click.Path(path_type=Path),
              help="Файл базы знаний (по умолчанию — собранный из корпуса по умолчанию).")
@click.option("--json", "as_json", is_flag=True, help="Вывести узел в JSON.")
@clean_errors
def show(name: str, system: str | None, kb_path: Path | None, as_json: bool) -> None:
    """Показать правило или тип войск NAME: текст, факты, на что ссылается и кто ссылается."""
    from rulekb import defaults, lemmacache
    from rulekb.show import render_node

    lemmacache.load()
    graph = defaults.graph(kb_path)
    node = defaults.find_node(graph, name, system)
    click.echo(render_node(graph, node, as_json=as_json))
    lemmacache.save()


@cli.command(epilog=exit_codes_help("search"))
@click.argument("query")
@click.option("--system", "-s", help="Искать только в этой системе.")
@click.option("--limit", "-n", type=Count(1), default=10, show_default=True,
              help="Сколько результатов (не меньше 1).")
@click.option("--kb", "kb_path", type=click.Path(path_type=Path), help="Файл базы знаний.")
@clean_errors
def search(query: str, system: str | None, limit: int, kb_path: Path | None) -> None:
    """Полнотекстовый поиск по правилам (формы слов и опечатки учитываются)."""
    from rulekb import defaults, lemmacache

    defaults.check_system(system)
    lemmacache.load()
    graph = defaults.graph(kb_path)
    defaults.check_system(system, graph)
    hits = graph.fulltext.search(query, system=system, limit=limit)
    if not hits:
        click.echo(f"По запросу «{query}» ничего не найдено.")
    for i, hit in enumerate(hits, 1):
        click.echo(f"{i}. {hit.title} [{hit.system}] ({hit.node_id})")
        if hit.snippet:
            click.echo(f"   {hit.snippet}")
    lemmacache.save()


@cli.command(epilog=exit_codes_help("stats"))
@click.option("--kb", "kb_path", type=click.Path(path_type=Path), help="Файл базы знаний.")
@click.option("--json", "as_json", is_flag=True, help="В JSON.")
@clean_errors
def stats(kb_path: Path | None, as_json: bool) -> None:
    """Сводка по базе знаний: узлы, связи, факты, ссылки по каждой системе."""
    from rulekb import defaults
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

cli.subcommand_metavar = "КОМАНДА [АРГУМЕНТЫ]..."
for _command in (cli, *cli.commands.values()):
    _command.options_metavar = "[ПАРАМЕТРЫ]"


def _terminated(signum: int, frame: object) -> None:
    raise Interrupted(EXIT_TERMINATED, "Прервано: процесс получил сигнал SIGTERM.")


def _utf8_streams() -> None:
    """Reports are UTF-8 whatever the locale says (same input, same bytes). Each stream keeps
    its error handler (stderr's ``backslashreplace``): a new encoding alone would make it
    ``strict``, and an error line naming a file whose name is not UTF-8 would be lost."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        if encoding != "utf8" and hasattr(stream, "reconfigure"):
            stream.reconfigure(encoding="utf-8", errors=getattr(stream, "errors", None))


def main(args: Sequence[str] | None = None) -> None:
    """Entry point of the ``rulekb`` console script (exits with the command's code)."""
    _utf8_streams()
    try:
        signal.signal(signal.SIGTERM, _terminated)  # so a killed write leaves no temporary
    except ValueError:
        pass  # not the main thread: keep the default
    cli.main(args, prog_name="rulekb")
