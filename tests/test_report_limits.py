"""Edges of a log's report: an input error and verdicts on one line, and the bound on the
units the summary counts one by one.

A held report is rendered through the writer ``rulekb audit`` streams with, so both must
give the same bytes, also where a line has an input error and verdicts; the summary keeps a
row for at most ``MAX_UNKNOWN_UNITS`` units the armies lack (a log may name any number).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from limit_probe import Probe, write_log

from kb.graph import Graph
from validator.audit import audit_log, write_audits
from validator.audit.tally import MAX_UNKNOWN_UNITS, Tally
from validator.report import render_json, render_text
from validator.verdicts import VerdictRecord

ARMIES = {"A": {"units": [{"id": "bikes", "name": "Мотоциклисты", "type": "Мотоциклы",
                           "models": 3}]},
          "B": {"units": [{"id": "tactical", "name": "Тактическое отделение", "type": "Пехота",
                           "models": 10}]}}


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_an_error_and_verdicts_on_one_line_render_as_streamed(
        fmt: str, corpus_graph: Graph, tmp_path: Path) -> None:
    """The line's input error comes before its verdicts, held or streamed."""
    log = write_log(tmp_path / "both.jsonl", "wh40k6", Probe(ARMIES, [
        {"phase": "shooting", "player": "A", "unit": "bikes", "action": "turbo_boost",
         "distance": 30},
        {"phase": "shooting", "player": "A", "unit": "bikes", "action": "shoot",
         "target": "B:nobody", "weapons": [{"name": "Болтер"}]}]))
    report = audit_log(log, corpus_graph)
    assert [e.line for e in report.errors] == [3]
    assert {v.line for v in report.verdicts} == {2, 3}
    streamed = io.StringIO()
    write_audits([log], corpus_graph, streamed, "json" if fmt == "json" else "text")
    held = render_json(report) if fmt == "json" else render_text(report)
    assert held == streamed.getvalue()


@pytest.mark.parametrize("units", [MAX_UNKNOWN_UNITS - 1, MAX_UNKNOWN_UNITS,
                                   MAX_UNKNOWN_UNITS + 1])
def test_the_units_counted_one_by_one_are_bounded(units: int) -> None:
    tally = Tally(known=frozenset({"A:bikes"}))
    for unit in ["A:bikes", *(f"A:unknown{n}" for n in range(units))]:
        tally.add(VerdictRecord("not_covered", (), "—", "not_covered", (), 2, unit, "move"))
    assert len(tally.by_unit) == 1 + min(units, MAX_UNKNOWN_UNITS)
    assert tally.total["not_covered"] == 1 + units
