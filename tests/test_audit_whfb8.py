"""Warhammer Fantasy Battle (8th ed.) audit checks: game logs with the expected verdicts.

The logs in ``tests/data/games/whfb8/`` cover every check with an allowed and a forbidden case;
each event line carries ``expect`` (see ``tests/audit_expect.py``). The logs in ``changed/``
are audited again on a copy of the corpus with one number changed: the verdict and its quote
follow the text. ``small.jsonl`` is a small game whose whole text report is pinned.
"""

from __future__ import annotations

import io
from collections import defaultdict
from pathlib import Path

import pytest
from conftest import graph_of_corpus_copy

from kb.graph import Graph
from validator.audit import audit_log, write_audits
from validator.registry import CHECKS
from validator.verdicts import Report, Verdict

GAMES = Path(__file__).parent / "data" / "games" / "whfb8"
CHANGED = GAMES / "changed"
LOGS = sorted([p for p in GAMES.glob("*.jsonl")]
              + list(CHANGED.glob("*.jsonl")))
PANIC_FILE = "002_92d28caaab3bc019.txt"
DEPLOYMENT_FILE = "004_d2d0171a53cebe38.txt"


def _at(report: Report, line: int) -> list[Verdict]:
    return [v for v in report.verdicts if v.line == line]


# Which verdicts each check gives over the logs. A check of what the rules require (a panic
# test after heavy casualties, a friend lost, a friend fleeing through) says ok when the
# requirement arises; its forbidden case is the missing test (required_not_done) or the test
# that nothing required (panic_test).
COVERAGE = {
    "killing_blow": {"ok", "violation", "warning", "not_covered"},
    "killing_blow_saves": {"ok", "violation"},
    "poisoned_attacks": {"ok", "violation", "warning"},
    "regeneration": {"ok", "violation"},
    "impact_hits": {"ok", "violation"},
    "move_or_fire": {"ok", "violation"},
    "quick_to_fire": {"ok", "violation", "warning"},
    "multiple_shots_mode": {"ok", "violation"},
    "multiple_shots_penalty": {"ok", "violation", "warning"},
    "vanguard": {"ok", "violation"},
    "scouts": {"ok", "violation"},
    "scouts_first_turn_charge": {"ok", "violation"},
    "ambushers": {"ok", "violation"},
    "heavy_casualties": {"ok"},
    "friend_lost_panic": {"ok", "warning"},
    "fled_through_panic": {"ok"},
    "panic_test": {"ok", "violation"},
    "random_movement": {"ok", "violation", "not_covered"},
}


def test_every_check_has_its_allowed_and_forbidden_case(corpus_graph: Graph) -> None:
    seen: dict[str, set[str]] = defaultdict(set)
    for log in LOGS:
        for verdict in audit_log(log, corpus_graph).verdicts:
            seen[verdict.check].add(verdict.verdict)
    registered = {name for name, check in CHECKS.items()
                  if check.scope == "event" and check.systems is not None
                  and "whfb8" in check.systems}
    assert registered == set(COVERAGE)
    assert {name: seen[name] for name in COVERAGE} == COVERAGE
    assert seen["required_not_done:panic_test"] == {"violation"}


def test_checks_are_whfb8_only() -> None:
    ours = [c for c in CHECKS.values() if c.name in COVERAGE or c.name.startswith("whfb8_")]
    assert ours and all(c.systems == frozenset({"whfb8"}) for c in ours)


def test_the_real_corpus_has_every_number_the_checks_read(corpus_graph: Graph) -> None:
    whys = [v.why for log in LOGS for v in audit_log(log, corpus_graph).verdicts]
    assert [w for w in whys if w.startswith("В базе знаний нет")] == []


def test_a_missing_panic_test_is_reported_when_its_phase_ends(corpus_graph: Graph) -> None:
    report = audit_log(GAMES / "panic.jsonl", corpus_graph)
    lines = [v.line for v in report.verdicts]
    missing = [v for v in report.verdicts if v.check == "required_not_done:panic_test"]
    assert [(v.line, v.unit, v.action) for v in missing] == [
        (6, "A:warriors", "casualties"), (8, "A:warriors", "unit_destroyed"),
        (20, "A:lord", "fled_through")]
    # at the line that required it, but written when the phase ended: after the last
    # verdict of that phase, before the first verdict of the next one
    first = report.verdicts.index(missing[0])
    assert lines[first - 1] == 6 and lines[first + 1] == 7
    second = report.verdicts.index(missing[1])
    assert lines[second - 1] == 10 and lines[second + 1] == 11
    assert missing[0].why == ("Отряд «A:warriors» не прошёл до конца фазы «стрельба» "
                              "обязательный тест на панику: потери за фазу — 5 из 20 (25%), "
                              "не меньше 25%.")
    assert missing[0].rules[0].quote.startswith("Подразделение должно пройти тест на Панику")


def test_killing_blow_cites_the_types_it_is_limited_to(corpus_graph: Graph) -> None:
    report = audit_log(GAMES / "combat.jsonl", corpus_graph)
    (monster,) = _at(report, 5)
    assert monster.rules[0].quote == ("Смертельный Удар может быть применён лишь против "
                                      "моделей типа Пехота, Кавалерия и Твари.")
    assert monster.why == ("Смертельный удар не действует: цель типа «Монстры», а правило "
                           "действует лишь против «Кавалерия», «Пехота», «Твари».")
    (swarm,) = _at(report, 10)
    assert swarm.rules[0].title == "Смертельный удар → Героический Смертельный Удар"
    assert "за исключением Стай" in swarm.rules[0].quote


def test_poisoned_attacks_on_a_war_machine_cite_the_file_that_says_so(
        corpus_graph: Graph) -> None:
    report = audit_log(GAMES / "combat.jsonl", corpus_graph)
    (shot,) = _at(report, 19)
    assert (shot.verdict, shot.rules[0].source) == ("violation", DEPLOYMENT_FILE)
    assert shot.rules[0].quote.endswith("ядовитые атаки не имеют эффекта.")
    (melee,) = _at(report, 22)
    assert melee.verdict == "ok"
    assert [r.quote for r in melee.rules][1] == ("В рукопашном бою ядовитые атаки действуют "
                                                 "на боевые машины как обычно.")


# -- the verdict follows the text --------------------------------------------------------
def test_panic_threshold_follows_the_text(corpus_graph: Graph, tmp_path: Path) -> None:
    log = CHANGED / "threshold.jsonl"
    before = audit_log(log, corpus_graph)
    assert [v.verdict for v in _at(before, 3)] == ["ok"]
    graph = graph_of_corpus_copy(tmp_path, {PANIC_FILE: (
        "потери в размере 25% и более от своей численности",
        "потери в размере 50% и более от своей численности")})
    after = audit_log(log, graph)
    (casualties,) = _at(after, 2)
    assert casualties.verdict == "ok"
    assert casualties.why == ("Тяжелые потери: потери за фазу — 6 из 20 (30%), меньше 50% — "
                              "тест на панику не нужен.")
    (test,) = _at(after, 3)
    assert (test.verdict, test.check) == ("violation", "panic_test")
    assert "50% и более" in test.rules[0].quote
    assert test.why == ("Потери отряда за фазу «стрельба» — 6 из 20 (30%), меньше 50%: тест на "
                        "панику не нужен.")


def test_ambushers_roll_follows_the_text(corpus_graph: Graph, tmp_path: Path) -> None:
    log = CHANGED / "ambushers.jsonl"
    assert [v.verdict for v in _at(audit_log(log, corpus_graph), 2)] == ["ok"]
    graph = graph_of_corpus_copy(tmp_path, {DEPLOYMENT_FILE: (
        "На 3+ подразделение", "На 4+ подразделение")})
    (roll,) = _at(audit_log(log, graph), 2)
    assert (roll.verdict, roll.check) == ("violation", "ambushers")
    assert roll.rules[0].quote == "При выпавшем значении 1-2 подразделение задерживается."
    assert roll.why == ("Засадники: выпало 3 — подразделение задерживается (на 4+ выходит, "
                        "на 1-2 задерживается), а заявлено, что выходит.")


def test_a_number_the_text_lost_is_not_covered(tmp_path: Path) -> None:
    graph = graph_of_corpus_copy(tmp_path, {DEPLOYMENT_FILE: (
        "Вместо этого, начиная с 2-ого раунда, кидайте D6.", "Вместо этого кидайте D6.")})
    (roll,) = _at(audit_log(CHANGED / "ambushers.jsonl", graph), 2)
    assert (roll.verdict, roll.check, roll.rules) == ("not_covered", "ambushers", ())
    assert roll.why.startswith("В базе знаний нет раунда и броска")


# -- the text report ----------------------------------------------------------------------
def test_text_report_of_a_small_game(corpus_graph: Graph,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(GAMES)
    out = io.StringIO()
    assert write_audits(["small.jsonl"], corpus_graph, out, "text") == 1
    assert out.getvalue() == (GAMES / "small.jsonl.expected").read_text(encoding="utf-8")
