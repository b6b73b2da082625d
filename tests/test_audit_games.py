"""Every test game of every system: each event line states its expected verdicts, and gets them.

The games live in ``tests/data/games/<system>/``; an event line's ``expect`` lists the
verdicts (and the rules they cite) that line must get (see :mod:`audit_expect`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from audit_expect import expectations, mismatches

from kb.graph import Graph
from validator.audit import audit_log

GAMES = Path(__file__).parent / "data" / "games"
LOGS = sorted(p for system in ("wh40k6", "whfb8", "killteam2018")
              for p in (GAMES / system).glob("*.jsonl"))
IDS = [f"{p.parent.name}/{p.name}" for p in LOGS]


@pytest.mark.parametrize("log", LOGS, ids=IDS)
def test_every_event_gets_the_expected_verdicts(corpus_graph: Graph, log: Path) -> None:
    report = audit_log(log, corpus_graph)
    assert report.errors == ()
    assert mismatches(log, report, corpus_graph) == []


@pytest.mark.parametrize("log", LOGS, ids=IDS)
def test_every_event_line_states_its_expectation(log: Path) -> None:
    events = len(log.read_text(encoding="utf-8").splitlines()) - 1
    assert sorted(expectations(log)) == list(range(2, events + 2))


def test_every_system_has_games() -> None:
    assert {p.parent.name for p in LOGS} == {"wh40k6", "whfb8", "killteam2018"}
