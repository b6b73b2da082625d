"""Kill Team (2018) audit checks: game logs with the expected verdict of every event line.

The logs in ``tests/data/games/killteam2018/`` cover every check with an allowed and a forbidden
case; each event line carries ``expect`` (see ``tests/audit_expect.py``). A copy of the corpus
with one number changed shows the verdict and its quote following the text.
"""

from __future__ import annotations

import io
import json
from collections import defaultdict
from pathlib import Path

import pytest
from conftest import CORPUS, graph_of_corpus_copy

from ingest.facts import find_facts
from kb.graph import Graph
from validator.audit import audit_log, write_audits
from validator.registry import CHECKS

GAMES = Path(__file__).parent / "data" / "games" / "killteam2018"
LOGS = sorted(GAMES.glob("*.jsonl"))
CORPUS_FILE = "003_0507bc63355ee559.txt"


# Which verdicts each check gives over the logs: every check has its allowed case (ok) and
# its forbidden case (violation); a restriction that only forbids yields nothing when it
# does not apply, so it has no ok of its own.
COVERAGE = {
    "move_once_per_phase": {"ok", "violation"},
    "normal_move_distance": {"ok", "violation", "not_covered"},
    "enemy_distance": {"ok", "violation"},
    "advance_distance": {"ok", "violation", "not_covered"},
    "advance_restrictions": {"violation"},
    "fall_back_distance": {"ok", "violation", "not_covered"},
    "fall_back_end_distance": {"ok", "violation"},
    "fall_back_restrictions": {"violation"},
    "ready_allowed": {"ok", "violation"},
    "charged_model_stays": {"violation"},
    "charge_range": {"ok", "violation"},
    "charge_once_per_phase": {"ok", "violation"},
    "charge_move": {"ok", "violation"},
    "reaction_target": {"ok", "violation"},
    "retreat_distance": {"ok", "violation"},
    "retreat_not_after_move": {"ok", "violation"},
    "retreat_ends_reactions": {"violation"},
    "initiative_roll": {"ok", "violation", "warning"},
    "shooting_restrictions": {"ok", "violation"},
    "reinforcements_restrictions": {"ok", "violation"},
    "reinforcements_arrival": {"ok", "violation"},
    "psyker_only": {"ok", "violation"},
    "one_psyker_per_round": {"ok", "violation"},
}


def test_every_check_has_its_allowed_and_forbidden_case(corpus_graph: Graph) -> None:
    seen: dict[str, set[str]] = defaultdict(set)
    for log in LOGS:
        for verdict in audit_log(log, corpus_graph).verdicts:
            seen[verdict.check].add(verdict.verdict)
    registered = {name for name, check in CHECKS.items() if check.scope == "event"
                  and check.systems is not None and "killteam2018" in check.systems}
    assert registered == set(COVERAGE)
    assert {name: seen[name] for name in COVERAGE} == COVERAGE


def test_every_verdict_quotes_the_rule_text(corpus_graph: Graph) -> None:
    # the cleaned text may differ from the file in whitespace only ("( Advance" → "(Advance")
    text = "".join((CORPUS / CORPUS_FILE).read_text(encoding="utf-8").split())
    for log in LOGS:
        for verdict in audit_log(log, corpus_graph).verdicts:
            if verdict.check == "not_covered" or verdict.verdict == "not_covered" and (
                    not verdict.rules):
                continue
            assert verdict.rules, verdict
            for rule in verdict.rules:
                assert (rule.system, rule.source) == ("killteam2018", CORPUS_FILE)
                assert rule.quote and "".join(rule.quote.split()) in text, rule.quote
            assert verdict.why.endswith(".") and verdict.why.count(". ") == 0, verdict.why


# --- the verdict follows the text --------------------------------------------------------

HEADER = {"type": "game", "system": "killteam2018",
          "armies": {"A": str(GAMES / "team_a.yaml"), "B": str(GAMES / "team_b.yaml")}}
CHARGE_11 = [{"turn": 1, "phase": "movement", "player": "A", "unit": "sarge",
              "action": "charge", "target": "B:boy", "distance_to_target": 11}]
RETREAT_2_5 = [
    {"turn": 1, "phase": "movement", "player": "A", "unit": "sarge", "action": "charge",
     "target": "B:boy", "distance_to_target": 6},
    {"turn": 1, "phase": "movement", "player": "B", "unit": "boy", "action": "react",
     "kind": "retreat", "distance": 2.5},
]
TWO_PSYKERS = [
    {"turn": 1, "phase": "psychic", "player": "A", "unit": "librarian", "action": "manifest",
     "power": "Psybolt"},
    {"turn": 1, "phase": "psychic", "player": "A", "unit": "chaplain", "action": "manifest",
     "power": "Psybolt"},
]


def _log(tmp_path: Path, events: list[dict[str, object]]) -> Path:
    path = tmp_path / "game.jsonl"
    lines = [json.dumps(HEADER, ensure_ascii=False)]
    lines += [json.dumps(e, ensure_ascii=False) for e in events]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "events", "check", "before", "after"),
    [
        ('находится в пределах 12" от модели врага', 'находится в пределах 10" от модели врага',
         CHARGE_11, "charge_range",
         ("ok", 'в пределах 12" от модели врага', 'Цель в 11": в пределах 12", и чардж'
                                                   ' объявить можно.'),
         ("violation", 'в пределах 10" от модели врага',
          'Чардж объявляют только на врагов в пределах 10", а до цели 11".')),
        ('до 3" контролирующим', 'до 2" контролирующим', RETREAT_2_5, "retreat_distance",
         ("ok", 'до 3" контролирующим', 'Отход на 2.5" не дальше 3".'),
         ("violation", 'до 2" контролирующим', 'Отход — не дальше 2", а заявлено 2.5".')),
        ("только одного псайкера", "только двух псайкеров", TWO_PSYKERS,
         "one_psyker_per_round",
         ("violation", "только одного псайкера",
          "Игрок A уже выбрал в этом раунде псайкера A:librarian (строка 2), а предел псайкеров"
          " на игрока за раунд — 1."),
         ("ok", "только двух псайкеров",
          "Игрок A выбирает в этом раунде псайкера A:chaplain; предел — 2 на игрока за раунд.")),
    ],
    ids=["charge 12->10", "retreat 3->2", "psykers 1->2"],
)
def test_the_verdict_follows_the_text(tmp_path: Path, corpus_graph: Graph, old: str, new: str,
                                      events: list[dict[str, object]], check: str,
                                      before: tuple[str, str, str],
                                      after: tuple[str, str, str]) -> None:
    log = _log(tmp_path, events)
    changed = graph_of_corpus_copy(tmp_path, {CORPUS_FILE: (old, new)})
    for graph, (verdict, quoted, why) in ((corpus_graph, before), (changed, after)):
        (found,) = [v for v in audit_log(log, graph).verdicts
                    if v.check == check and v.line == len(events) + 1]
        assert (found.verdict, found.why) == (verdict, why)
        assert quoted in found.rules[0].quote


def test_a_rule_missing_from_the_text_is_not_covered(tmp_path: Path) -> None:
    log = _log(tmp_path, RETREAT_2_5)
    changed = graph_of_corpus_copy(
        tmp_path, {CORPUS_FILE: ('ее можно сдвинуть в любую сторону до 3" контролирующим',
                                 "ее можно сдвинуть в любую сторону контролирующим")})
    (found,) = [v for v in audit_log(log, changed).verdicts if v.check == "retreat_distance"]
    assert (found.verdict, found.rules) == ("not_covered", ())
    assert found.why == ("В базе знаний нет предела отхода в правиле «Отход», поэтому "
                         "проверить нельзя.")


def test_a_reaction_is_overwatch_or_retreat(tmp_path: Path, corpus_graph: Graph) -> None:
    """«Модель может сработать Overwatch или Retreat»: another kind is refused with its line."""
    log = _log(tmp_path, [RETREAT_2_5[0], {**RETREAT_2_5[1], "kind": "counter_charge"}])
    report = audit_log(log, corpus_graph)
    assert [(e.line, e.field, e.message) for e in report.errors] == [
        (3, "kind", "недопустимое значение: получено «counter_charge»; допустимые: overwatch,"
                    " retreat")]
    assert {v.line for v in report.verdicts} == {2}


# --- the ingest pattern the psychic and charge limits rest on ------------------------------

@pytest.mark.parametrize(
    ("sentence", "value", "shown"),
    [
        ("Каждый игрок может выбрать только одного псайкера в каждом боевом раунде.", 1,
         "только одного псайкера в"),
        ("Можно совершить только одну попытку чарджа в каждой фазе движения.", 1,
         "только одну попытку чарджа"),
        ("Каждый игрок может выбрать только двух псайкеров в каждом боевом раунде.", 2,
         "только двух псайкеров в"),
    ],
)
def test_only_n_is_a_count_limit(sentence: str, value: int, shown: str) -> None:
    (fact,) = find_facts(sentence, [], {})
    assert (fact.name, fact.value, fact.text) == ("max_count", value, shown)


# --- the text report of one small game, pinned --------------------------------------------


def test_text_report_of_a_small_game(corpus_graph: Graph) -> None:
    """small.report.txt is the exact report of small.jsonl (the log's path shortened)."""
    log = GAMES / "small.jsonl"
    out = io.StringIO()
    assert write_audits([log], corpus_graph, out, "text") == 1
    expected = (GAMES / "small.report.txt").read_text(encoding="utf-8")
    assert out.getvalue().replace(str(log), log.name) == expected
