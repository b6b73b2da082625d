"""Commands that compose the validator and the site with the KB (``check-list``, ``audit``,
``site``); kept apart from :mod:`rulekb.cli` so that each stays small."""

from __future__ import annotations

from pathlib import Path

import click


def register(cli: click.Group) -> None:
    """Add the composed commands to the ``rulekb`` group."""
    cli.add_command(site)
    cli.add_command(check_list)
    cli.add_command(audit)


@click.command()
@click.option("-o", "--output", type=click.Path(path_type=Path), default=Path("site"),
              show_default=True, help="Папка для собранного сайта.")
@click.option("--kb", "kb_path", type=click.Path(path_type=Path), help="Файл базы знаний.")
def site(output: Path, kb_path: Path | None) -> None:
    """Собрать справочный сайт правил (Sphinx) из базы знаний."""
    from rulekb import defaults
    from rulekb.cli import UserError
    from rulekb.site import SiteBuildError, build_site

    try:
        kb = defaults.graph(kb_path).kb
        index = build_site(kb, output)
    except SiteBuildError as exc:
        raise UserError(str(exc)) from None
    click.echo(f"Сайт собран: {index}")


@click.command()
@click.argument("logs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--kb", "kb_path", type=click.Path(path_type=Path),
              help="Файл базы знаний (по умолчанию — собранная из корпуса по умолчанию).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Отчёт для людей (text) или для программ (json).")
@click.option("--aliases", "aliases_path", type=click.Path(path_type=Path),
              help="Своя таблица английских названий (TOML, как встроенная таблица псевдонимов), "
                   "дополняющая встроенную.")
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="Записать отчёт в файл, а не на стандартный вывод.")
def audit(logs: tuple[Path, ...], kb_path: Path | None, fmt: str, aliases_path: Path | None,
          output: Path | None) -> None:
    """Проверить записанные партии (журналы JSON Lines): каждое событие — по правилам из базы
    знаний, с цитатой решающего предложения.

    Код выхода: 0 — нарушений нет, 1 — есть нарушения или нечитаемые строки, 2 — журнал не
    удалось проверить совсем (остальные журналы всё равно проверяются).
    """
    import sys

    from kb.store import KBFileError
    from rulekb import defaults
    from rulekb.cli import UserError
    from validator.audit import write_audits
    from validator.roster import AliasFileError, load_aliases

    try:
        aliases = load_aliases(aliases_path)
        graph = defaults.graph(kb_path)
    except (AliasFileError, KBFileError) as exc:
        raise UserError(str(exc)) from None
    if output is None:
        code = write_audits(logs, graph, sys.stdout, fmt, aliases)  # type: ignore[arg-type]
    else:
        try:
            out = output.open("w", encoding="utf-8", newline="\n")
        except OSError as exc:
            raise UserError(f"{output}: {exc.strerror}") from None
        with out:
            code = write_audits(logs, graph, out, fmt, aliases)  # type: ignore[arg-type]
    sys.exit(code)


@click.command("check-list")
@click.argument("lists", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--kb", "kb_path", type=click.Path(path_type=Path),
              help="Файл базы знаний (по умолчанию — собранная из корпуса по умолчанию).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Отчёт для людей (text) или для программ (json).")
@click.option("--aliases", "aliases_path", type=click.Path(path_type=Path),
              help="Своя таблица английских названий (TOML, как встроенная таблица псевдонимов), "
                   "дополняющая встроенную.")
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="Записать отчёт в файл, а не на стандартный вывод.")
def check_list(lists: tuple[Path, ...], kb_path: Path | None, fmt: str,
               aliases_path: Path | None, output: Path | None) -> None:
    """Проверить списки армий LISTS (YAML, JSON, ростеры BattleScribe .ros/.rosz; папка —
    все списки в ней): тип каждого отряда, его специальные правила и их параметры, профили и
    состав, очки и системы — с цитатой решающего предложения правил.

    Код выхода: 0 — нарушений нет, 1 — есть нарушения, 2 — какой-то список не удалось
    прочитать (остальные списки всё равно проверяются и выводятся).
    """
    import sys

    from kb.store import KBFileError
    from rulekb import defaults
    from rulekb.cli import UserError
    from validator.listcheck import check_lists
    from validator.report import exit_code, render_json, render_text
    from validator.roster import AliasFileError, load_aliases

    try:
        aliases = load_aliases(aliases_path)
        graph = defaults.graph(kb_path)
    except (AliasFileError, KBFileError) as exc:
        raise UserError(str(exc)) from None
    reports = check_lists(lists, graph, aliases=aliases)
    if fmt == "json":
        text = render_json(reports[0] if len(reports) == 1 else reports)
    else:
        text = render_text(reports)
    if output is None:
        click.echo(text, nl=False)
    else:
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise UserError(f"{output}: {exc.strerror}") from None
    sys.exit(exit_code(reports))
