"""Every limit a check compares with, tested below it, at it and above it.

The limit is read from the real corpus KB the way the check reads it (never written here),
and each case audits one event per value; ``benchmarks/mutation.py`` showed these
comparisons surviving a ``<`` for ``<=`` before. The last test changes a corpus text and the
verdict follows it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import graph_of_corpus_copy

from kb.graph import Graph
from validator.audit import audit_log
from validator.audit.common import dice_range
from validator.audit.killteam2018_common import charge_distances, rule_fact
from validator.audit.wh40k6_common import dice_max
from validator.audit.wh40k6_monsters import MAX_TARGETS, monster_rules
from validator.audit.whfb8_moves import _dice_max
from validator.rulebook import Rulebook

KT_HEADER = {"type": "game", "system": "killteam2018", "armies": {
    "A": {"units": [{"id": "sarge", "name": "Сержант", "models": 1, "profile": {"M": 6}}]},
    "B": {"units": [{"id": "boy", "name": "Бой", "models": 1, "profile": {"M": 5}}]}}}
WHFB_HEADER = {"type": "game", "system": "whfb8", "armies": {
    "A": {"units": [{"id": "fanatics", "name": "Фанатики", "type": "Пехота", "models": 3,
                     "rules": ["Случайное движение"], "profile": {"M": "2D6"}}]},
    "B": {"units": [{"id": "swordsmen", "name": "Мечники", "type": "Пехота", "models": 20}]}}}
WH40K_HEADER = {"type": "game", "system": "wh40k6", "armies": {
    "A": {"units": [{"id": "tyrant", "name": "Крылатый тиран",
                     "type": "Летающие монструозные создания", "models": 1}]},
    "B": {"units": [{"id": "tactical", "name": "Отделение", "type": "Пехота", "models": 10}]}}}


@dataclass(frozen=True)
class Limit:
    """A limit of one check: where the KB keeps it, and the events that probe it."""

    header: dict[str, object]
    system: str
    value: Callable[[Rulebook], float]
    events: Callable[[float], list[dict[str, object]]]  # the events of one probe
    check: str
    # value offset → expected verdict (or the start of the why, for two kinds of ok; "none":
    # no verdict of the check)
    expected: dict[float, str]


def _kt(**event: object) -> list[dict[str, object]]:
    return [{"phase": "movement", "player": "A", "unit": "sarge", **event}]


def _charge(**event: object) -> list[dict[str, object]]:
    return _kt(action="charge", target="B:boy", **event)


def _kt_roll(book: Rulebook, title: str, end: int) -> float:
    dice = rule_fact(book, title, "dice")
    assert dice is not None
    span = dice_range(dice)
    assert span is not None
    return float(span[end])


def _success(book: Rulebook) -> float:
    fact = rule_fact(book, "Make Charge Move", "within_distance", "успешн")
    assert fact is not None
    return fact.number


def _reach(book: Rulebook) -> float:
    reach = charge_distances(book)[0]
    assert reach is not None
    return reach.number


def _engaged(book: Rulebook) -> float:
    engaged = charge_distances(book)[1]
    assert engaged is not None
    return engaged.number


def _monster(name: str) -> Callable[[Rulebook], float]:
    def value(book: Rulebook) -> float:
        rules = monster_rules(book)
        if name == "run":
            most = dice_max(rules.run) if rules.run is not None else None
            assert most is not None
            return float(most)
        fact = getattr(rules, name)
        assert fact is not None
        return float(fact.number)

    return value


def _swoop(**event: object) -> list[dict[str, object]]:
    return [{"phase": "movement", "player": "A", "unit": "tyrant", "action": "move",
             "mode": "swoop", **event}]


LIMITS: dict[str, Limit] = {
    "kt charge reach": Limit(
        KT_HEADER, "killteam2018", _reach, lambda v: _charge(distance_to_target=v),
        "charge_range", {-0.5: "ok", 0: "ok", 0.5: "violation"}),
    "kt charge not from within engagement": Limit(
        KT_HEADER, "killteam2018", _engaged, lambda v: _charge(distance_to_target=v),
        "charge_range", {-0.5: "violation", 0: "violation", 0.5: "ok"}),
    "kt charge roll, lowest": Limit(
        KT_HEADER, "killteam2018", lambda b: _kt_roll(b, "Make Charge Move", 0),
        lambda v: _charge(distance_to_target=6, roll=int(v)),
        "charge_move", {-1: "violation", 0: "ok", 1: "ok"}),
    "kt charge roll, highest": Limit(
        KT_HEADER, "killteam2018", lambda b: _kt_roll(b, "Make Charge Move", 1),
        lambda v: _charge(distance_to_target=6, roll=int(v)),
        "charge_move", {-1: "ok", 0: "ok", 1: "violation"}),
    "kt charge succeeds within the distance": Limit(
        KT_HEADER, "killteam2018", _success,
        lambda v: _charge(distance_to_target=8, roll=9, end_distance=v),
        "charge_move", {-0.5: "Чардж удался", 0: "Чардж удался", 0.5: "Чардж не удался"}),
    "kt charge too short to reach": Limit(
        KT_HEADER, "killteam2018", _success,
        lambda v: _charge(distance_to_target=5 + v, roll=5),
        "charge_move", {-0.5: "Бросок чарджа", 0: "Бросок чарджа", 0.5: "Чардж не удался"}),
    "kt a charge ending within the distance holds its target": Limit(
        KT_HEADER, "killteam2018", _success,
        lambda v: [{"phase": "movement", "player": "B", "unit": "boy", "action": "charge",
                    "target": "A:sarge", "distance_to_target": 8, "roll": 9, "end_distance": v},
                   *_kt(action="move", distance=3)],
        "charged_model_stays", {-0.5: "violation", 0: "violation", 0.5: "none"}),
    "kt advance roll, lowest": Limit(
        KT_HEADER, "killteam2018", lambda b: _kt_roll(b, "Продвижение", 0),
        lambda v: _kt(action="advance", roll=int(v)),
        "advance_distance", {-1: "violation", 0: "ok", 1: "ok"}),
    "kt advance roll, highest": Limit(
        KT_HEADER, "killteam2018", lambda b: _kt_roll(b, "Продвижение", 1),
        lambda v: _kt(action="advance", roll=int(v)),
        "advance_distance", {-1: "ok", 0: "ok", 1: "violation"}),
    "kt initiative roll, lowest": Limit(
        KT_HEADER, "killteam2018", lambda b: _kt_roll(b, "Инициативная фаза", 0),
        lambda v: [{"phase": "initiative", "action": "initiative",
                    "rolls": {"A": int(v), "B": int(v) + 3}}],
        "initiative_roll", {-1: "violation", 0: "ok", 1: "ok"}),
    "kt initiative roll, highest": Limit(
        KT_HEADER, "killteam2018", lambda b: _kt_roll(b, "Инициативная фаза", 1),
        lambda v: [{"phase": "initiative", "action": "initiative",
                    "rolls": {"A": int(v), "B": int(v) - 3}}],
        "initiative_roll", {-1: "ok", 0: "ok", 1: "violation"}),
    "whfb random movement, the dice's highest": Limit(
        WHFB_HEADER, "whfb8", lambda b: float(_dice_max("2D6") or 0),
        lambda v: [{"phase": "movement", "player": "A", "unit": "fanatics", "action": "move",
                    "distance": v}],
        "random_movement", {-0.5: "ok", 0: "ok", 0.5: "violation"}),
    "40k swoop, shortest": Limit(
        WH40K_HEADER, "wh40k6", _monster("least"), lambda v: _swoop(distance=v),
        "swoop_move", {-1: "violation", 0: "ok", 1: "ok"}),
    "40k swoop, longest": Limit(
        WH40K_HEADER, "wh40k6", _monster("most"), lambda v: _swoop(distance=v),
        "swoop_move", {-1: "ok", 0: "ok", 1: "violation"}),
    "40k swoop pivot": Limit(
        WH40K_HEADER, "wh40k6", _monster("pivot"),
        lambda v: _swoop(distance=18, pivot=v),
        "swoop_move", {-1: "ok", 0: "ok", 1: "violation"}),
    "40k swoop run": Limit(
        WH40K_HEADER, "wh40k6", _monster("run"),
        lambda v: [{"phase": "movement", "player": "A", "unit": "tyrant",
                    "action": "flight_mode", "mode": "swoop"},
                   {"phase": "shooting", "player": "A", "unit": "tyrant", "action": "run",
                    "distance": v}],
        "swoop_run", {-0.5: "ok", 0: "ok", 0.5: "violation"}),
}


def _probe(limit: Limit, graph: Graph, tmp_path: Path) -> dict[float, list[str]]:
    """Audit one probe per offset (a turn each); offset → the check's verdicts (and whys)."""
    book = Rulebook(graph, limit.system)
    value = limit.value(book)
    lines = [limit.header]
    where: dict[int, float] = {}
    for turn, offset in enumerate(sorted(limit.expected), start=1):
        for event in limit.events(value + offset):
            lines.append({"turn": turn, **event})
        where[len(lines)] = offset  # the last event of the probe is the one judged
    log = tmp_path / "limit.jsonl"
    log.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n",
                   encoding="utf-8")
    report = audit_log(log, graph)
    assert report.errors == ()
    found: dict[float, list[str]] = {}
    for verdict in report.verdicts:
        if verdict.check == limit.check and verdict.line in where:
            found.setdefault(where[verdict.line], []).extend([verdict.verdict, verdict.why])
    return found


@pytest.mark.parametrize("name", LIMITS)
def test_a_limit_below_at_and_above(name: str, corpus_graph: Graph, tmp_path: Path) -> None:
    _assert_limit(name, LIMITS[name], corpus_graph, tmp_path)


def test_a_kt_charge_moves_no_farther_than_its_roll(corpus_graph: Graph, tmp_path: Path) -> None:
    """A charge of the roll's distance is allowed, half an inch more is not (the roll: the
    dice's highest, read from the KB; the model ends far from its target: a failed charge)."""
    roll = int(_kt_roll(Rulebook(corpus_graph, "killteam2018"), "Make Charge Move", 1))
    _assert_limit("kt charge move", Limit(
        KT_HEADER, "killteam2018", lambda book: float(roll),
        lambda moved: _charge(distance_to_target=20, roll=roll, end_distance=20 - moved),
        "charge_move", {-0.5: "Чардж не удался", 0: "Чардж не удался",
                        0.5: "В чардже модель проходит не больше"}), corpus_graph, tmp_path)


def _assert_limit(name: str, limit: Limit, graph: Graph, tmp_path: Path) -> None:
    found = _probe(limit, graph, tmp_path)
    for offset, expected in limit.expected.items():
        verdicts = found.get(offset, [])
        if expected == "none":  # the check passes over the event
            assert not verdicts, (name, offset, verdicts)
            continue
        assert verdicts, f"{name}: no {limit.check} verdict at offset {offset}"
        if expected in ("ok", "violation", "warning", "not_covered"):
            assert verdicts[0] == expected, (name, offset, verdicts)
        else:
            assert verdicts[1].startswith(expected), (name, offset, verdicts)


def test_the_charge_reach_follows_the_text(tmp_path: Path) -> None:
    """With the charge distance of the text changed, the same charge changes its verdict."""
    graph = graph_of_corpus_copy(tmp_path, {"003_0507bc63355ee559.txt": (
        'находится в пределах 12" от модели врага', 'находится в пределах 10" от модели врага')})
    limit = LIMITS["kt charge reach"]
    assert _reach(Rulebook(graph, "killteam2018")) == 10
    found = _probe(limit, graph, tmp_path)
    assert [found[o][0] for o in (-0.5, 0, 0.5)] == ["ok", "ok", "violation"]
    assert 'в пределах 10"' in found[0.5][1]


@pytest.mark.parametrize("count", [MAX_TARGETS, MAX_TARGETS + 1])
def test_a_monsters_targets_are_named_up_to_a_bound(count: int, corpus_graph: Graph,
                                                    tmp_path: Path) -> None:
    """Shots at many targets: the first MAX_TARGETS are named, «…» says there were more."""
    weapons = [{"name": f"Оружие {n}", "target": f"B:target{n}"} for n in range(count)]
    log = tmp_path / "targets.jsonl"
    log.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in [
        WH40K_HEADER, {"turn": 1, "phase": "shooting", "player": "A", "unit": "tyrant",
                       "action": "shoot", "weapons": weapons}]) + "\n", encoding="utf-8")
    (verdict,) = [v for v in audit_log(log, corpus_graph).verdicts
                  if v.check == "monstrous_creature_weapons" and "разным целям" in v.why]
    named = verdict.why.split("(", 1)[1].split(")", 1)[0].split(", ")
    assert named[:MAX_TARGETS] == [f"B:target{n}" for n in range(MAX_TARGETS)]
    assert named[MAX_TARGETS:] == (["…"] if count > MAX_TARGETS else [])
