"""One self-contained HTML page for a batch of army lists, for an organiser to send to players.

``rulekb check-list FOLDER --format html -o report.html`` writes one page for every list of
the folder: the table of every list (file, army, points against the limit, violations,
warnings, not covered, each linking to its list), then each list with its units as
expandable blocks (``<details>``; a unit with a violation or a warning is open) and every
verdict with the rules that decide it and their quoted sentences. Everything is escaped; the
page loads nothing (its Content-Security-Policy forbids any fetch and any script) and works
offline, from a file or a mail attachment.

The page is written as the lists are checked, list by list, in bounded memory; the table
comes last in the file and is shown first (CSS ``order``), so nothing waits for the batch.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterable, Sequence
from html import escape
from typing import TextIO

from validator.armylist.output import (
    KINDS,
    ListWriter,
    TableRow,
    applied_rules,
    system_title,
    unit_facts,
)
from validator.inputs.models import ArmyList, ListInputError
from validator.report import LABELS, citation_text, summary_text
from validator.verdicts import UnitReport, Verdict

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
STYLE = """
:root { --violation: #b3261e; --warning: #9a6700; --not_covered: #5f6368; --ok: #1e7e34; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0;
       color: #1f2328; background: #f6f8fa; }
header { background: #24292f; color: #fff; padding: 12px 24px; }
header h1 { font-size: 20px; margin: 0; } header p { margin: 4px 0 0; opacity: .8; }
main { display: flex; flex-direction: column; gap: 16px; padding: 16px 24px; max-width: 1100px; }
#summary { order: -1; }
section { background: #fff; border: 1px solid #d0d7de; border-radius: 6px; padding: 12px 16px; }
h2 { font-size: 17px; margin: 0 0 4px; word-break: break-all; }
.meta { color: #57606a; margin: 0 0 8px; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #d0d7de; padding: 4px 8px; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.unread td { color: var(--violation); }
details.unit { border-top: 1px solid #eaeef2; padding: 6px 0; }
details.unit > summary { cursor: pointer; font-weight: 600; }
.badge { display: inline-block; min-width: 1.6em; padding: 0 6px; border-radius: 10px;
         font-size: 12px; font-weight: 600; color: #fff; text-align: center; margin-left: 4px; }
.badge.violation { background: var(--violation); } .badge.warning { background: var(--warning); }
.badge.not_covered { background: var(--not_covered); } .badge.ok { background: var(--ok); }
.facts { color: #57606a; margin: 4px 0 4px 16px; }
.facts ul { margin: 2px 0; padding-left: 20px; }
.verdict { border-left: 4px solid; padding: 4px 10px; margin: 6px 0 6px 16px; }
.verdict.violation { border-color: var(--violation); background: #fff5f5; }
.verdict.warning { border-color: var(--warning); background: #fff8e6; }
.verdict.not_covered { border-color: var(--not_covered); background: #f6f8fa; }
.verdict.ok { border-color: var(--ok); }
.label { font-weight: 700; font-size: 12px; letter-spacing: .03em; }
.verdict.violation .label { color: var(--violation); }
.verdict.warning .label { color: var(--warning); }
.verdict.not_covered .label { color: var(--not_covered); }
.verdict.ok .label { color: var(--ok); }
.where { color: #57606a; font-size: 13px; }
.rule { margin: 2px 0; } blockquote { margin: 2px 0 2px 12px; color: #3d444d; font-style: italic; }
.why, .suggest { margin: 2px 0; }
.errors li { color: var(--violation); }
.total { font-weight: 600; margin: 8px 0 0; }
"""


def _badges(counts: dict[str, int]) -> str:
    titles = {"violation": "нарушений", "warning": "предупреждений", "not_covered": "не покрыто",
              "ok": "OK"}
    return "".join(f'<span class="badge {kind}" title="{titles[kind]}">{counts[kind]}</span>'
                   for kind in ("violation", "warning", "not_covered") if counts.get(kind))


def _facts(unit: UnitReport) -> str:
    """A unit's roster place, make-up, type or keywords, and the rules that apply."""
    facts = "<br>".join(escape(fact) for fact in unit_facts(unit))
    applies = "".join(f"<li>{escape(rule)}</li>" for rule in applied_rules(unit))
    return (f'<div class="facts">{facts}'
            + (f"<div>Действующие правила:<ul>{applies}</ul></div>" if applies else "")
            + "</div>")


def verdict_html(verdict: Verdict) -> str:
    """One verdict: its label and place, the rules with their quotes, why, suggestions."""
    where = []
    if verdict.field:
        where.append(f"поле {verdict.field}")
    if verdict.line is not None:
        where.append(f"строка {verdict.line}")
    parts = [f'<div class="verdict {verdict.verdict}"><span class="label">'
             f'{escape(LABELS[verdict.verdict])}</span>']
    if where:
        parts.append(f' <span class="where">{escape(", ".join(where))}</span>')
    for rule in verdict.rules:
        parts.append(f'<div class="rule">{escape(citation_text(rule))}')
        if rule.quote:
            parts.append(f"<blockquote>«{escape(rule.quote)}»</blockquote>")
        parts.append("</div>")
    if not verdict.rules:
        parts.append('<div class="rule">правило не указано</div>')
    parts.append(f'<p class="why">Почему: {escape(verdict.why)}</p>')
    if verdict.suggestions:
        shown = ", ".join(f"«{s}»" for s in verdict.suggestions)
        parts.append(f'<p class="suggest">Возможно: {escape(shown)}</p>')
    parts.append("</div>")
    return "".join(parts)


class HtmlListWriter(ListWriter):
    """The whole batch as one HTML page (module docstring)."""

    def __init__(self, out: TextIO, several: bool) -> None:
        super().__init__(out, several)
        self._started = False
        self._number = 0

    def _page(self) -> None:
        if self._started:
            return
        self._started = True
        self.out.write(
            '<!DOCTYPE html>\n<html lang="ru">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            "<title>Проверка списков армий</title>\n"
            f"<style>{STYLE}</style>\n</head>\n<body>\n<header><h1>Проверка списков армий"
            "</h1><p>rulekb: каждый вердикт — с правилом, страницей и решающим предложением "
            "текста правил.</p></header>\n<main>\n")

    def _open(self, input: str, system: str | None, army: ArmyList | None) -> None:
        self._page()
        self._number += 1
        meta = [f"Система: {system_title(system)}"]
        if army is not None and army.name:
            meta.append(f"армия: {army.name}")
        if army is not None and army.points_limit is not None:
            meta.append(f"предел очков: {army.points_limit}")
        self.out.write(f'<section class="list" id="list-{self._number}">\n'
                       f"<h2>{escape(input)}</h2>\n"
                       f'<p class="meta">{escape(" · ".join(meta))}</p>\n')

    def begin(self, input: str, army: ArmyList | None) -> None:
        self._open(input, self.row.system, army)

    def write_unit(self, unit: UnitReport, verdicts: Iterable[Verdict]) -> None:
        counts = {kind: 0 for kind in KINDS}
        # the verdicts wait in a temporary file: the block's head shows their counts
        with tempfile.SpooledTemporaryFile(max_size=1 << 20, mode="w+",
                                           encoding="utf-8") as spool:
            for verdict in verdicts:
                counts[verdict.verdict] += 1
                spool.write(verdict_html(verdict))
            opened = " open" if counts["violation"] or counts["warning"] else ""
            name = f" — {unit.label}" if unit.label else ""
            self.out.write(
                f'<details class="unit"{opened}><summary>Отряд {escape(unit.id)}{escape(name)}'
                f"{_badges(counts)}</summary>\n{_facts(unit)}\n")
            spool.seek(0)
            shutil.copyfileobj(spool, self.out)
        self.out.write("\n</details>\n")

    def end(self, verdicts: Sequence[Verdict]) -> None:
        if verdicts:
            self.out.write('<div class="whole"><h3>Список в целом</h3>'
                           + "".join(verdict_html(v) for v in verdicts) + "</div>\n")
        counts = {kind: self.row.counts.get(kind, 0) for kind in KINDS}
        self.out.write(f'<p class="total">{escape(summary_text(counts, 0))}</p>\n</section>\n')

    def write_failure(self, input: str, error: ListInputError) -> None:
        self._open(input, error.system, None)
        items = "".join(f"<li>{escape(str(e))}</li>" for e in error.errors)
        total = summary_text(dict.fromkeys(KINDS, 0), len(error.errors))
        self.out.write(f'<p>Ошибки во входных данных:</p><ul class="errors">{items}</ul>\n'
                       f'<p class="total">{escape(total)}</p>\n</section>\n')

    def close(self) -> None:
        self._page()
        self.out.write(table_html(self.rows) + "</main>\n</body>\n</html>\n")


def table_html(rows: Sequence[TableRow]) -> str:
    """The organiser's table of every list, each row linking to its list."""
    body = []
    for number, row in enumerate(rows, 1):
        link = f'<a href="#list-{number}">{escape(row.input)}</a>'
        if row.read:
            body.append(
                f"<tr><td>{link}</td><td>{escape(row.army or '—')}</td>"
                f'<td class="n">{escape(row.points_text())}</td>'
                f'<td class="n">{row.counts["violation"]}</td>'
                f'<td class="n">{row.counts["warning"]}</td>'
                f'<td class="n">{row.counts["not_covered"]}</td></tr>')
        else:
            body.append(f'<tr class="unread"><td>{link}</td><td>—</td>'
                        f'<td colspan="4">не прочитан: ошибок — {row.errors}</td></tr>')
    checked = [r for r in rows if r.read]
    bad = sum(1 for r in checked if r.counts["violation"])
    return (
        f'<section id="summary"><h2>Сводка по спискам ({len(rows)})</h2>\n'
        "<table><thead><tr><th>Файл</th><th>Армия</th><th>Очки / предел</th>"
        "<th>Нарушения</th><th>Предупр.</th><th>Не покрыто</th></tr></thead>\n<tbody>"
        + "\n".join(body) + "</tbody></table>\n"
        f'<p class="total">Итого: проверено списков — {len(checked)}, с нарушениями — {bad}, '
        f"не прочитано — {len(rows) - len(checked)}.</p></section>\n")
