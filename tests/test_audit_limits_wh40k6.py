"""wh40k6 limits tested below, at and above their value: falling back, the Eldar jetbikes'
assault move, artillery crew per gun.

Each value is read from the real corpus KB the way the check reads it (the type's own fact,
or the one it inherits), for every unit type whose rules state it; a copy of the corpus with
the jetbikes' dice changed shows the verdict following the text. ``benchmarks/mutation.py``
found these comparisons surviving a ``>`` for ``>=``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from limit_probe import Armies, Limit, Probe, assert_limit, graph_of_edited_corpus, probe

from kb.graph import Graph
from kb.models import Node
from validator.audit.wh40k6_artillery import artillery_rules
from validator.audit.wh40k6_common import dice_max
from validator.audit.wh40k6_moves import TypeMoves
from validator.rulebook import Rulebook

CORPUS_FILE = "000_622e076ea61e0607.txt"
GUNS = 2
"""Guns of the probed artillery: the crew it needs is this times the crew per gun."""


def _armies(unit_type: str, **unit: object) -> Armies:
    return {"A": {"units": [{"id": "u", "name": "Отряд", "type": unit_type, "models": 3,
                             **unit}]},
            "B": {"units": [{"id": "t", "name": "Тактическое отделение", "type": "Пехота",
                             "models": 10}]}}


def _types(graph: Graph, has: str) -> list[Node]:
    """The wh40k6 unit types whose rules (their own or inherited) give the ``has`` fact."""
    book = Rulebook(graph, "wh40k6")
    return sorted((n for n in graph.nodes.values()
                   if n.system == "wh40k6" and n.kind == "unit_type"
                   and getattr(TypeMoves.of(book, n.id), has) is not None),
                  key=lambda n: n.title)


def _fall_back_most(type_id: str) -> Callable[[Rulebook], float]:
    def value(book: Rulebook) -> float:
        most = dice_max(TypeMoves.of(book, type_id).fall_back)
        assert most is not None
        return float(most)

    return value


def _assault_most(type_id: str) -> Callable[[Rulebook], float]:
    def value(book: Rulebook) -> float:
        limit = TypeMoves.of(book, type_id).assault_move
        assert limit is not None
        most = dice_max(limit.fact)
        assert most is not None
        return float(most)

    return value


def fall_back(unit_type: Node) -> Limit:
    """A fall back of the dice's highest roll is allowed, a half inch more is not."""
    return Limit("wh40k6", _fall_back_most(unit_type.id), lambda v: Probe(
        _armies(unit_type.title),
        [{"phase": "assault", "player": "A", "unit": "u", "action": "fall_back",
          "distance": v}]),
        "fall_back_dice", {-0.5: "ok", 0: "ok", 0.5: "violation"})


def jetbike_assault_move(unit_type: Node) -> Limit:
    """An Eldar jetbikes' assault-phase move of its dice's highest roll, and a half inch more."""
    return Limit("wh40k6", _assault_most(unit_type.id), lambda v: Probe(
        _armies(unit_type.title),
        [{"phase": "assault", "player": "A", "unit": "u", "action": "move", "distance": v}]),
        "eldar_jetbike_assault_move", {-0.5: "ok", 0: "ok", 0.5: "violation"})


def _crew_needed(book: Rulebook) -> float:
    need = artillery_rules(book).crew_per_gun
    assert need is not None
    return float(GUNS * need.number)


ARTILLERY_CREW = Limit("wh40k6", _crew_needed, lambda crew: Probe(
    _armies("Артиллерия", models=GUNS + int(crew),
            parts=[{"role": "gun", "count": GUNS}, {"role": "crew", "count": int(crew)}]),
    [{"phase": "movement", "player": "A", "unit": "u", "action": "move", "distance": 3}]),
    "artillery_crew_to_move", {-1: "violation", 0: "ok", 1: "ok"})
"""Artillery moves with one crewman per gun (the text's number), not with one fewer."""


def test_every_fall_back_dice_limit(corpus_graph: Graph, tmp_path: Path) -> None:
    types = _types(corpus_graph, "fall_back")
    assert {"Кавалерия", "Звери", "Мотоциклы и гравициклы",
            "Прыжковые боевые единицы"} <= {t.title for t in types}
    for unit_type in types:
        assert_limit(unit_type.title, fall_back(unit_type), corpus_graph, tmp_path)


def test_every_jetbike_assault_move_limit(corpus_graph: Graph, tmp_path: Path) -> None:
    types = _types(corpus_graph, "assault_move")
    assert [t.title for t in types] == ["Эльдарские (и тёмноэльдарские) гравициклы"]
    for unit_type in types:
        assert_limit(unit_type.title, jetbike_assault_move(unit_type), corpus_graph, tmp_path)


def test_artillery_crew_per_gun(corpus_graph: Graph, tmp_path: Path) -> None:
    assert_limit("artillery crew", ARTILLERY_CREW, corpus_graph, tmp_path)


def test_the_jetbikes_assault_move_follows_the_text(tmp_path: Path) -> None:
    """With the jetbikes' assault dice changed in a copy of the corpus (2D6 to 3D6), the
    limit moves to 18" and the verdicts quote the new dice."""
    graph = graph_of_edited_corpus(tmp_path, [(
        CORPUS_FILE, 'передвигать- ся на 2D6" во время фазы',
        'передвигать- ся на 3D6" во время фазы')])
    (unit_type,) = _types(graph, "assault_move")
    limit = jetbike_assault_move(unit_type)
    assert limit.value(Rulebook(graph, "wh40k6")) == 18
    assert_limit("changed jetbike dice", limit, graph, tmp_path)
    at_most = probe(limit, graph, tmp_path)[0][0]
    assert "3D6" in at_most.why and any("3D6" in r.quote for r in at_most.rules)
