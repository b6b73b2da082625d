"""Commands that compose the validator and the site with the KB (``check-list``, ``audit``,
``site``); kept apart from :mod:`rulekb.cli` so that each stays small."""

from __future__ import annotations

from pathlib import Path

import click


def register(cli: click.Group) -> None:
    """Add the composed commands to the ``rulekb`` group."""
    cli.add_command(site)


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
