"""Generated pages of the project's own docs: the CLI reference and the formats contract.

The CLI reference is the ``--help`` of every command of the click group ``rulekb.cli.cli``;
the formats page is FORMATS.md turned into reStructuredText by a small converter that knows
the Markdown FORMATS.md uses (headings, paragraphs, lists, tables, code), escaping the rest.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator

import click

from rulekb.site.errors import SiteBuildError
from rulekb.site.pages import heading, label, rst_escape

_HELP_WIDTH = 80


def literal_block(text: str) -> str:
    """An rst literal block (``::``) showing ``text`` exactly."""
    lines = text.expandtabs(4).rstrip("\n").split("\n")
    body = "\n".join(("   " + line) if line.strip() else "" for line in lines)
    return "::\n\n" + body + "\n"


def cli_reference(module_name: str = "rulekb.cli", group_name: str = "cli") -> str:
    """The rst of the CLI reference: one section per command with its ``--help``.

    Raises:
        SiteBuildError: the module does not import or has no click group ``group_name``.
    """
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # any import failure must stop the build, whatever it is
        raise SiteBuildError(
            f"Не удалось импортировать {module_name} для справочника команд: "
            f"{type(exc).__name__}: {exc}"
        ) from exc
    group = getattr(module, group_name, None)
    if not isinstance(group, click.Group):
        raise SiteBuildError(f"В модуле {module_name} нет группы команд click «{group_name}»")
    parts = [
        label("rulekb-cli"),
        heading("Справочник команд", 0),
        rst_escape(
            "Этот раздел собран при сборке сайта из вывода --help каждой команды, "
            "поэтому всегда совпадает с установленной версией."
        )
        + "\n",
    ]
    for path, help_text in _walk(group, None, "rulekb", ["rulekb"]):
        name = " ".join(path)
        parts.append(label("cli-" + "-".join(re.sub(r"[^a-z0-9]+", "-", p.lower()) for p in path)))
        parts.append(heading(name, 1))
        parts.append(literal_block(help_text))
    return "\n".join(parts)


def _walk(
    command: click.Command, parent: click.Context | None, name: str, path: list[str]
) -> Iterator[tuple[list[str], str]]:
    ctx = click.Context(
        command, info_name=name, parent=parent, terminal_width=_HELP_WIDTH,
        max_content_width=_HELP_WIDTH,
    )
    yield path, command.get_help(ctx)
    if isinstance(command, click.Group):
        for sub_name in command.list_commands(ctx):
            sub = command.get_command(ctx, sub_name)
            if sub is not None and not sub.hidden:
                yield from _walk(sub, ctx, sub_name, [*path, sub_name])


# -- Markdown → rst ------------------------------------------------------------------------
_INLINE = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)(?:[-*]|(\d+)\.)\s+(.*)$")
_TABLE_RULE = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")


def inline(text: str) -> str:
    """Markdown inline text as rst: code and bold kept, every other mark escaped.

    >>> inline("a `x*y` **b** c_d")
    'a \\\\ ``x*y``\\\\  \\\\ **b**\\\\  c\\\\_d'
    """
    out: list[str] = []
    pos = 0
    for m in _INLINE.finditer(text):
        out.append(rst_escape_keep_spaces(text[pos : m.start()]))
        code, bold = m.group(1), m.group(2)
        if code is not None and code.strip() == code and "``" not in code:
            out.append(f"\\ ``{code}``\\ ")
        elif bold is not None and bold.strip() == bold:
            out.append(f"\\ **{rst_escape(bold)}**\\ ")
        else:
            out.append(rst_escape_keep_spaces(m.group(0)))
        pos = m.end()
    out.append(rst_escape_keep_spaces(text[pos:]))
    result = "".join(out)
    # an escaped space at the end of a line would escape the line break instead
    return result[:-2] if result.endswith("\\ ") else result


def rst_escape_keep_spaces(text: str) -> str:
    """Like :func:`rst_escape`, but leading and trailing spaces stay."""
    core = rst_escape(text)
    if not core:
        return " " if text and text.isspace() else ""
    lead = " " if text[:1].isspace() else ""
    tail = " " if text[-1:].isspace() else ""
    return lead + core + tail


def markdown_to_rst(markdown: str, title: str | None = None) -> str:
    """Convert the Markdown subset of FORMATS.md to rst (levels: ``#`` → 0, ``##`` → 1 …).

    With ``title``, the page gets that (Russian) title and a note that the text below is the
    contract as written, in place of the Markdown's own first-level heading.
    """
    lines = markdown.splitlines()
    out: list[str] = []
    if title is not None:
        out.append(heading(title, 0))
        out.append(
            rst_escape(
                "Ниже — контракт форматов проекта, файл FORMATS.md, как он записан в "
                "репозитории (по-английски). Эти форматы только расширяются: поля не "
                "удаляются и не меняют смысл."
            )
            + "\n"
        )
        lines = [ln for ln in lines if not re.match(r"^#\s", ln)]
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            block: list[str] = []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                block.append(lines[i])
                i += 1
            i += 1
            body = "\n".join(("   " + b) if b.strip() else "" for b in block)
            out.append(".. code-block:: text\n\n" + body + "\n")
            continue
        m = _HEADING.match(line)
        if m:
            out.append(heading_markup(inline(m.group(2)), len(m.group(1)) - 1))
            i += 1
            continue
        if line.lstrip().startswith("|"):
            rows: list[str] = []
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                rows.append(lines[i])
                i += 1
            out.append(_table(rows))
            continue
        if _BULLET.match(line):
            items: list[tuple[bool, str]] = []
            while i < len(lines) and lines[i].strip():
                b = _BULLET.match(lines[i])
                if b and len(b.group(1)) == 0:
                    items.append((b.group(2) is not None, b.group(3)))
                elif items:
                    items[-1] = (items[-1][0], items[-1][1] + " " + lines[i].strip())
                i += 1
            out.append(
                "\n".join(("#. " if numbered else "- ") + inline(text) for numbered, text in items)
                + "\n"
            )
            continue
        if not line.strip():
            i += 1
            continue
        para: list[str] = []
        while i < len(lines) and lines[i].strip() and not _starts_block(lines[i]):
            para.append(lines[i].strip())
            i += 1
        out.append(inline(" ".join(para)) + "\n")
    return "\n".join(out)


def heading_markup(text: str, level: int) -> str:
    """A heading whose text is already rst (see :func:`inline`)."""
    chars = "=-~^\"'"
    return f"{text}\n{chars[min(level, len(chars) - 1)] * (2 * len(text) + 2)}\n"


def _starts_block(line: str) -> bool:
    return bool(
        line.startswith("```")
        or _HEADING.match(line)
        or line.lstrip().startswith("|")
        or _BULLET.match(line)
    )


def _table(rows: list[str]) -> str:
    cells = [
        [c.strip() for c in row.strip().strip("|").split("|")]
        for row in rows
        if not _TABLE_RULE.match(row)
    ]
    width = max(len(r) for r in cells)
    out = [".. list-table::", "   :header-rows: 1", ""]
    for row in cells:
        row = row + [""] * (width - len(row))
        for j, cell in enumerate(row):
            text = inline(cell) if cell else "\\ "
            out.append(("   * - " if j == 0 else "     - ") + text)
    return "\n".join(out) + "\n"
