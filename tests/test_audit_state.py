"""The audit's game state: what it infers, what the log states, and what it keeps in memory.

The logs of ``tests/data/games/state/`` are tables like the systems' games: every event line
states the verdicts it must get (``expect``) and every line the input errors (``errors``).
They cover a game recorded with one turn number, several games in one file, and the state
fields by which a log states what the audit would otherwise infer.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from audit_expect import error_mismatches, expectations, mismatches

from kb.graph import Graph
from validator.audit import Audit, audit_log
from validator.audit.state import Done, GameState, UnitState
from validator.audit.tally import MAX_UNKNOWN_UNITS
from validator.inputs.events import UnknownEvent
from validator.inputs.gamelog import read_log
from validator.inputs.models import Unit

STATE = Path(__file__).parent / "data" / "games" / "state"
LOGS = sorted(STATE.glob("*.jsonl"))


@pytest.mark.parametrize("log", LOGS, ids=[p.name for p in LOGS])
def test_state_logs_get_their_verdicts_and_errors(corpus_graph: Graph, log: Path) -> None:
    report = audit_log(log, corpus_graph)
    assert mismatches(log, report) == []
    assert error_mismatches(log, report) == []


@pytest.mark.parametrize("log", LOGS, ids=[p.name for p in LOGS])
def test_every_event_line_of_a_state_log_states_its_expectation(log: Path) -> None:
    lines = log.read_text(encoding="utf-8").splitlines()
    events = [n for n, raw in enumerate(lines, start=1) if json.loads(raw).get("type") != "game"]
    assert sorted(expectations(log)) == events


# --- the index of a turn -------------------------------------------------------------------


def _unit() -> UnitState:
    return UnitState(key="A:x", player="A", unit=Unit(id="x", name="X", type="Пехота",
                                                      models=5), size=5, size_at_phase_start=5)


def _done(action: str, line: int, phase: str | None = "movement") -> Done:
    return Done(action, 1, phase, line, UnknownEvent(action=action))


def test_did_first_and_count_answer_from_the_index() -> None:
    unit, game = _unit(), GameState(units={})
    for line, (action, phase) in enumerate([("move", "movement"), ("shoot", "shooting"),
                                            ("move", "assault"), ("move", "movement")], 2):
        game.record(unit, _done(action, line, phase))
    move = unit.did("move")
    assert move is not None and move.line == 5
    first = unit.first("move")
    assert first is not None and first.line == 2
    latest = unit.did("move", "shoot", phases=("shooting", "assault"))
    assert latest is not None and latest.line == 4
    earliest = unit.first("move", phases=("assault", "movement"))
    assert earliest is not None and earliest.line == 2
    assert unit.count("move") == 3
    assert unit.count("move", phase="movement") == 2
    assert unit.count("move", "shoot") == 4
    assert unit.did("charge") is None and unit.count("charge", phase="movement") == 0
    last = unit.last
    assert last is not None and last.line == 5
    game.start_turn()
    assert unit.did("move") is None and unit.count("move") == 0 and unit.last is None


def test_a_tag_is_indexed_without_becoming_the_last_event() -> None:
    unit, game = _unit(), GameState(units={})
    game.record(unit, _done("react", 2))
    game.record(unit, _done("retreat", 2), last=False)
    retreat, last = unit.did("retreat"), unit.last
    assert retreat is not None and last is not None and last.action == "react"


def test_an_action_no_format_names_is_not_indexed() -> None:
    """A log's own action called like a system's tag never passes for it."""
    unit, game = _unit(), GameState(units={})
    game.record(unit, _done("retreat", 2), ())
    last = unit.last
    assert unit.did("retreat") is None and last is not None and last.action == "retreat"


def test_a_turn_of_ten_thousand_events_keeps_a_bounded_index() -> None:
    unit, game = _unit(), GameState(units={})
    phases = ("movement", "shooting", "assault")
    for line in range(10_000):
        game.record(unit, _done(("move", "shoot", "charge")[line % 3], line, phases[line % 3]))
    assert unit.count("move") == 3334
    assert len(unit._index) == 3 and all(len(entry[3]) == 1 for entry in unit._index.values())


def test_phase_counters_start_again_for_the_units_that_lost_models() -> None:
    unit, game = _unit(), GameState(units={})
    game.lose(unit, 2, None)
    assert (unit.size, unit.casualties_this_phase, unit.size_at_phase_start) == (3, 2, 5)
    game.start_phase()
    assert (unit.size, unit.casualties_this_phase, unit.size_at_phase_start) == (3, 0, 3)


# --- the walker ----------------------------------------------------------------------------

HEADER = {"type": "game", "system": "wh40k6", "armies": {
    "A": {"units": [{"id": "jetbikes", "name": "Гвардейцы", "type": "Эльдарские гравициклы",
                     "models": 3}]},
    "B": {"units": [{"id": "tactical", "name": "Отделение", "type": "Пехота",
                     "models": 10}]}}}


def _write(tmp_path: Path, events: list[dict[str, object]]) -> Path:
    log = tmp_path / "g.jsonl"
    log.write_text("\n".join(json.dumps(e, ensure_ascii=False) for e in [HEADER, *events])
                   + "\n", encoding="utf-8")
    return log


def test_an_unknown_unit_is_reported_once(tmp_path: Path, corpus_graph: Graph) -> None:
    """An input error, and no «not covered» verdict beside it."""
    log = _write(tmp_path, [{"turn": 1, "phase": "movement", "player": "A", "unit": "ghost",
                             "action": "move", "distance": 6},
                            {"turn": 1, "phase": "shooting", "player": "A", "unit": "jetbikes",
                             "action": "shoot", "target": "B:ghost"}])
    report = audit_log(log, corpus_graph)
    assert [(e.line, e.kind) for e in report.errors] == [(2, "unknown_unit"), (3, "unknown_unit")]
    assert [v.line for v in report.verdicts if v.check == "not_covered"] == []
    assert {v.line for v in report.verdicts} == {3}  # the shooter's own checks still run


def test_a_log_naming_endless_units_and_actions_keeps_bounded_state(
        tmp_path: Path, corpus_graph: Graph) -> None:
    """Unknown units, unknown actions and one turn of 3,000 events: nothing grows with them."""
    events: list[dict[str, object]] = []
    for n in range(1000):
        events += [{"turn": 1, "phase": "shooting", "player": "A", "unit": "jetbikes",
                    "action": "turbo_boost", "distance": 30},
                   {"turn": 1, "phase": "shooting", "player": "A", "unit": "jetbikes",
                    "action": f"dance_{n}"},
                   {"turn": 1, "phase": "shooting", "player": "A", "unit": f"ghost{n}",
                    "action": "move", "distance": 1}]
    audit = Audit(read_log(_write(tmp_path, events)), corpus_graph)
    items = list(audit.run())
    assert {item.line for item in items} == set(range(2, 3002))
    jetbikes = audit.game.units["A:jetbikes"]
    assert len(jetbikes._index) <= 2 and jetbikes.count("turbo_boost") == 1000
    assert not any(a.startswith("dance_") for a in [*audit._checks, *audit._updates])
    assert len(audit._uncovered) <= 2
    assert len(audit.tally.counts) <= MAX_UNKNOWN_UNITS + 4


def test_a_new_turn_after_an_out_of_order_phase(tmp_path: Path, corpus_graph: Graph) -> None:
    """The turbo-boost of the first turn does not forbid a charge in the unnumbered next."""
    boost = {"turn": 1, "phase": "shooting", "player": "A", "unit": "jetbikes",
             "action": "turbo_boost", "distance": 30}
    charge = {"turn": 1, "phase": "assault", "player": "A", "unit": "jetbikes",
              "action": "charge", "target": "B:tactical"}
    report = audit_log(_write(tmp_path, [boost, charge, {**boost, "phase": "movement",
                                                         "action": "move"}, charge]),
                       corpus_graph)
    assert [(e.line, e.kind) for e in report.errors] == [(4, "order")]
    verdicts = [(v.line, v.verdict) for v in report.verdicts if v.check == "after_turbo_boost"]
    assert verdicts == [(3, "violation"), (5, "ok")]


def test_a_turn_number_that_never_changes_is_reported_once_per_number(
        tmp_path: Path, corpus_graph: Graph) -> None:
    """A game of three turns recorded as turn 1, then two as turn 2: two errors, five turns."""
    cycle = [{"phase": "shooting", "player": "A", "unit": "jetbikes", "action": "turbo_boost",
              "distance": 30},
             {"phase": "assault", "player": "A", "unit": "jetbikes", "action": "charge",
              "target": "B:tactical"}]
    events = [{"turn": turn, **e} for turn in (1, 1, 1, 2, 2) for e in cycle]
    report = audit_log(_write(tmp_path, events), corpus_graph)
    assert [(e.line, e.kind) for e in report.errors] == [(4, "order"), (10, "order")]
    verdicts = [v.verdict for v in report.verdicts if v.check == "after_turbo_boost"]
    assert verdicts == ["violation"] * 5  # each charge after its own turn's turbo-boost
