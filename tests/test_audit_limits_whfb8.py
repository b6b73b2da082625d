"""whfb8 limits tested below, at and above their value: the Vanguard's and the Scouts'
distances, the Ambushers' first round, the Regeneration save's roll, and heavy casualties
of a unit left with no models.

Each distance, round and roll is read from the real corpus KB the way the check reads it (the
section's fact); the unit's size is the army's. A copy of the corpus with the Vanguard's
distance and the Ambushers' round changed shows the verdicts following the text.
``benchmarks/mutation.py`` found these comparisons surviving a ``<`` for ``<=``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from limit_probe import (
    Armies,
    Event,
    Limit,
    Probe,
    assert_limit,
    graph_of_edited_corpus,
    write_log,
)

from kb.graph import Graph
from validator.audit import audit_log
from validator.audit.whfb8_combat import _regeneration_rules
from validator.audit.whfb8_common import roll_needed
from validator.rulebook import Rulebook

CORPUS_FILE = "004_d2d0171a53cebe38.txt"
DEPLOYMENT = "Специальные Правила расстановки"
SIZE = 10
"""Models of the probed unit."""

ARMIES: Armies = {
    "A": {"units": [
        {"id": "outriders", "name": "Тёмные всадники", "type": "Кавалерия", "models": 5,
         "rules": ["Авангард"]},
        {"id": "shades", "name": "Тени", "type": "Пехота", "models": 5, "rules": ["Разведчики"]},
        {"id": "ambushers", "name": "Ведьмы-засадницы", "type": "Пехота", "models": 10,
         "rules": ["Засадники"]},
        {"id": "spearmen", "name": "Копейщики", "type": "Пехота", "models": SIZE},
        {"id": "warriors", "name": "Воины", "type": "Пехота", "models": 20},
        {"id": "trolls", "name": "Тролли", "type": "Пехота Чудовищ", "models": 3,
         "rules": ["Регенерация"]}]},
    "B": {"units": [{"id": "swordsmen", "name": "Мечники", "type": "Пехота", "models": 20}]}}


def _fact(section: str, name: str) -> Callable[[Rulebook], float]:
    def value(book: Rulebook) -> float:
        found = book.fact(book.section(DEPLOYMENT, section), name=name)
        assert found is not None, (section, name)
        return float(found.number)

    return value


def _regeneration(book: Rulebook) -> float:
    """The roll the standard Regeneration saves on (the rule's own fact, as the check reads)."""
    rules = _regeneration_rules(book)
    needed = roll_needed(rules.default.value) if rules is not None else None
    assert needed is not None
    return float(needed)


def _events(*events: Event) -> Callable[[float], Probe]:
    """A probe of these events, ``"{v}"`` in a field standing for the probed value."""
    def of(value: float) -> Probe:
        return Probe(ARMIES, [{k: value if v == "{v}" else v for k, v in e.items()}
                              for e in events])

    return of


def _vanguard(**fields: object) -> Event:
    return {"phase": "start", "player": "A", "unit": "outriders", "action": "deploy",
            "special": "vanguard", **fields}


def _ambush(turn: object) -> list[Event]:
    return [{"turn": turn, "phase": "movement", "player": "A", "unit": "ambushers",
             "action": "reserve_roll", "roll": 6, "claimed": "arrives"},
            {"turn": turn, "phase": "movement", "player": "A", "unit": "ambushers",
             "action": "deploy", "special": "ambushers"}]


def _casualties(count: object) -> Event:
    return {"phase": "shooting", "player": "A", "unit": "spearmen", "action": "casualties",
            "count": count, "cause": "стрельба"}


LIMITS: dict[str, Limit] = {
    "vanguard, no closer to the enemy": Limit(
        "whfb8", _fact("Авангард", "min_distance"),
        _events(_vanguard(move_distance=6, distance_to_enemy="{v}")),
        "vanguard", {-0.5: "violation", 0: "ok", 0.5: "ok"}),
    "vanguard, no farther than its move": Limit(
        "whfb8", _fact("Авангард", "max_distance"),
        _events(_vanguard(move_distance="{v}", distance_to_enemy=30)),
        "vanguard", {-0.5: "ok", 0: "ok", 0.5: "violation"}),
    "scouts outside their zone, no closer to the enemy": Limit(
        "whfb8", _fact("Разведчики", "min_distance"),
        _events({"phase": "start", "player": "A", "unit": "shades", "action": "deploy",
                 "special": "scouts", "in_deployment_zone": False,
                 "distance_to_enemy": "{v}"}),
        "scouts", {-0.5: "violation", 0: "ok", 0.5: "ok"}),
    # a roll before the rule's round brings no one on: the unit then comes without one
    "ambushers roll from their round": Limit(
        "whfb8", _fact("Засадники", "from_round"),
        lambda turn: Probe(ARMIES, _ambush(int(turn))),
        "ambushers", {-1: "без броска на выход", 0: "ok", 1: "ok"}),
    # a roll of the value saves: claiming a save on one less is wrong
    "regeneration saves from its roll": Limit(
        "whfb8", _regeneration, _events({
            "phase": "close_combat", "player": "A", "unit": "trolls", "action": "save",
            "kind": "regeneration", "roll": "{v}", "claimed": "saved"}),
        "regeneration", {-1: "violation", 0: "ok", 1: "ok"}),
    # a unit left with no models takes no test; one left with a model does
    "heavy casualties of the last models": Limit(
        "whfb8", lambda book: float(SIZE), _events(_casualties("{v}")),
        "heavy_casualties", {-1: "должен пройти тест на панику", 0: "отряд уничтожен",
                             1: "отряд уничтожен"}),
    # and a unit left with none is destroyed: a friend's loss near it tests no one
    "casualties that leave no models destroy the unit": Limit(
        "whfb8", lambda book: float(SIZE), _events(
            _casualties("{v}"),
            {"phase": "shooting", "player": "A", "unit": "warriors",
             "action": "unit_destroyed", "within_6": ["spearmen"]}),
        "friend_lost_panic", {-1: "должны пройти «A:spearmen»",
                              0: "не проходят «A:spearmen» (уже уничтожен)",
                              1: "не проходят «A:spearmen» (уже уничтожен)"}),
}


@pytest.mark.parametrize("name", LIMITS)
def test_a_limit_below_at_and_above(name: str, corpus_graph: Graph, tmp_path: Path) -> None:
    assert_limit(name, LIMITS[name], corpus_graph, tmp_path)


def test_casualties_of_a_unit_that_had_no_models_left(corpus_graph: Graph,
                                                      tmp_path: Path) -> None:
    """A unit wiped out in one phase and named in the next starts that phase with no models:
    no share of it can be lost, and the check says nothing rather than divide by nothing."""
    log = write_log(tmp_path / "wiped.jsonl", "whfb8", Probe(ARMIES, [
        _casualties(SIZE), {**_casualties(1), "phase": "close_combat", "cause": "бой"}]))
    report = audit_log(log, corpus_graph)
    assert [(v.line, v.verdict) for v in report.verdicts if v.check == "heavy_casualties"] == [
        (2, "ok")]


def test_an_unnumbered_event_stays_in_its_turn(corpus_graph: Graph, tmp_path: Path) -> None:
    """An event without a turn number after numbered ones, in the same phase, is not a
    phase going back (the turn is not restarted, no order error)."""
    move: Event = {"phase": "movement", "player": "A", "action": "move", "distance": 3}
    log = write_log(tmp_path / "unnumbered.jsonl", "whfb8", Probe(ARMIES, [
        {**move, "unit": "spearmen"}, {**move, "unit": "warriors"}]))
    lines = log.read_text(encoding="utf-8").splitlines()
    lines[-1] = lines[-1].replace('"turn": 1, ', "")
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert audit_log(log, corpus_graph).errors == ()


def test_the_deployment_limits_follow_the_text(tmp_path: Path) -> None:
    """With the Vanguard's distance (12 to 10 inches) and the Ambushers' round (2 to 3)
    changed in a copy of the corpus, the same probes change their verdicts."""
    graph = graph_of_edited_corpus(tmp_path, [
        (CORPUS_FILE, "ближе, чем на 12 дюймов, они не могут",
         "ближе, чем на 10 дюймов, они не могут"),
        (CORPUS_FILE, "начиная с 2-ого раунда", "начиная с 3-го раунда")])
    book = Rulebook(graph, "whfb8")
    keep_off, ambush = (LIMITS["vanguard, no closer to the enemy"],
                        LIMITS["ambushers roll from their round"])
    assert (keep_off.value(book), ambush.value(book)) == (10, 3)
    for name in ("vanguard, no closer to the enemy", "ambushers roll from their round"):
        assert_limit(name, LIMITS[name], graph, tmp_path)
    # what was allowed by the original text is not by the changed one
    report = audit_log(write_log(tmp_path / "old.jsonl", "whfb8", Probe(ARMIES, _ambush(2))),
                       graph)
    (verdict,) = [v for v in report.verdicts if v.check == "ambushers" and v.line == 3]
    assert verdict.verdict == "violation"
