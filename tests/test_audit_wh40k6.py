"""Warhammer 40,000 (6th ed.) audit checks: game logs with the expected verdicts of every event.

The logs in ``tests/data/games/wh40k6/`` (bikes, moves, artillery, monsters, small) cover every
wh40k6 check with an allowed and a forbidden case; each event line carries ``expect`` (see
``tests/audit_expect.py``). Copies of the corpus with one number changed show the verdict, its
why and its quote following the text.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
from conftest import graph_of_corpus_copy

from ingest.facts import find_facts
from kb.graph import Graph
from validator.audit import audit_log
from validator.registry import CHECKS
from validator.report import render_text

GAMES = Path(__file__).parent / "data" / "games" / "wh40k6"
LOGS = sorted(GAMES.glob("*.jsonl"))
SMALL = GAMES / "small.jsonl"
CORPUS_FILE = "000_622e076ea61e0607.txt"

WH40K6_CHECKS = sorted(name for name, c in CHECKS.items()
                       if c.scope == "event" and c.systems == frozenset({"wh40k6"}))

ONLY_FORBIDS = {"bikes_cannot_run", "bikes_cannot_go_to_ground"}
"""Checks whose rule only forbids: their allowed case (another type running or going to
ground) is one they pass over, and the line is ``not_covered`` (bikes.jsonl lines 13, 14)."""


def test_every_check_has_an_allowed_and_a_forbidden_case(corpus_graph: Graph) -> None:
    seen: dict[str, set[str]] = defaultdict(set)
    for log in LOGS:
        for verdict in audit_log(log, corpus_graph).verdicts:
            seen[verdict.check].add(verdict.verdict)
    assert WH40K6_CHECKS == sorted([
        "turbo_boost_limit", "after_turbo_boost",
        "bikes_cannot_run", "bikes_cannot_go_to_ground", "one_weapon_per_rider",
        "fall_back_dice", "beast_cavalry_move_limit", "jump_pack_once_per_turn",
        "jump_pack_move_limit", "jet_pack_thrust_move", "eldar_jetbike_assault_move",
        "artillery_fire_after_move", "artillery_snap_shots", "artillery_no_charge",
        "artillery_crew_to_move", "monstrous_creature_weapons", "flight_mode_declaration",
        "swoop_move", "swoop_run", "swoop_no_charge", "swoop_no_templates", "hard_to_hit"])
    for name in WH40K6_CHECKS:
        wanted = {"violation"} if name in ONLY_FORBIDS else {"ok", "violation"}
        assert wanted <= seen[name], (name, seen[name])
    assert {"violation", "not_covered"} <= {v.verdict for v in audit_log(
        GAMES / "bikes.jsonl", corpus_graph).verdicts if v.line in (13, 14, 18, 19)}


def test_every_verdict_cites_a_sentence_and_says_why(corpus_graph: Graph) -> None:
    for log in LOGS:
        for verdict in audit_log(log, corpus_graph).verdicts:
            if verdict.check == "not_covered":
                continue
            assert verdict.rules, verdict
            assert all(r.quote and r.source == CORPUS_FILE for r in verdict.rules), verdict
            assert verdict.why.endswith(".") and "\n" not in verdict.why


@pytest.mark.parametrize(("line", "check", "quote", "why"), [
    (4, "turbo_boost_limit",
     'При турбо-ускорении мотоциклы могут передвигаться максимум на 12", а гравициклы '
     'максимум на 24".',
     'Мотоциклы «Отделение мотоциклистов»: турбо-ускорение не более 12", заявлено 14".'),
    (12, "turbo_boost_limit",
     "Мотоциклы и гравициклы не могут бегать, но им доступно специальное движение, называемое "
     "турбо-ускорением, которым можно воспользоваться вместо произведения выстрела в фазе "
     "стрельбы.",
     "Отряд «Тактическое отделение» типа «Пехота» не относится к типу «Мотоциклы и "
     "гравициклы», а турбо-ускорение доступно только им."),
    (16, "one_weapon_per_rider",
     "Каждый наездник любого мотоцикла и гравицикла в составе боевой единицы может стрелять "
     "только из одного оружия.",
     "Мотоциклы «Отделение мотоциклистов»: стреляющих моделей — 3, оружий — 4, а каждый "
     "наездник стреляет не более чем из 1 оружия."),
    (19, "bikes_cannot_go_to_ground",
     "Мотоциклы и гравициклы не могут залегать и не подавляются огнем.",
     "Эльдарские (и тёмноэльдарские) гравициклы «Гвардейцы на гравициклах»: отряд не может "
     "залегать, а в журнале он залёг."),
    (24, "fall_back_dice",
     'Мотоциклы и гравициклы передвигаются на 3D6" при отступлении, а не на 2D6" как многие '
     'другие.',
     'Гравициклы «Гравициклы Шрама»: отступление на 3D6", а в журнале бросали 2D6.'),
])
def test_bike_verdicts_quote_and_explain(corpus_graph: Graph, line: int, check: str,
                                         quote: str, why: str) -> None:
    report = audit_log(GAMES / "bikes.jsonl", corpus_graph)
    (verdict,) = [v for v in report.verdicts if v.line == line and v.check == check]
    assert [r.quote for r in verdict.rules] == [quote]
    assert verdict.why == why


def test_a_monster_verdict_quotes_the_same_target_sentence(corpus_graph: Graph) -> None:
    report = audit_log(GAMES / "monsters.jsonl", corpus_graph)
    (verdict,) = [v for v in report.verdicts if v.line == 8]
    assert verdict.rules[0].quote == (
        "Монструозные создания могут использовать до двух своих оружий в каждой фазе стрельбы, "
        "но, разумеется, они должны стрелять из них по одной и той же цели.")
    assert verdict.why == ("Летающие монструозные создания «Гарпия»: стрельба по разным целям "
                           "(B:tactical, B:hounds), а стрелять нужно по одной и той же цели.")


def test_the_eldar_turbo_boost_follows_the_text(tmp_path: Path, corpus_graph: Graph) -> None:
    before = [v for v in audit_log(SMALL, corpus_graph).verdicts
              if v.line == 2 and v.check == "turbo_boost_limit"]
    assert [(v.verdict, v.why) for v in before] == [(
        "ok", 'Эльдарские (и тёмноэльдарские) гравициклы «Гвардейцы на гравициклах»: '
              'турбо-ускорение на 33" в пределах 36".')]
    changed = graph_of_corpus_copy(tmp_path, {CORPUS_FILE: ('максимум на 36"',
                                                            'максимум на 30"')})
    after = [v for v in audit_log(SMALL, changed).verdicts
             if v.line == 2 and v.check == "turbo_boost_limit"]
    assert [(v.verdict, v.why) for v in after] == [(
        "violation", 'Эльдарские (и тёмноэльдарские) гравициклы «Гвардейцы на гравициклах»: '
                     'турбо-ускорение не более 30", заявлено 33".')]
    (rule,) = after[0].rules
    assert rule.title == "Эльдарские (и тёмноэльдарские) гравициклы"
    assert rule.quote == ('Более того, если эльдарский гравицикл включает турбо-ускорение, он '
                          'может передвинуться максимум на 30".')


def test_without_their_own_limit_eldar_jetbikes_follow_the_jetbikes(tmp_path: Path) -> None:
    """The nearest type's fact decides: with the Eldar sentence gone, the jetbikes' 24"."""
    sentence = ('Более того, если эль- дарский гравицикл включает турбо-ускорение, он может '
                'пе- редвинуться максимум на 36".')
    changed = graph_of_corpus_copy(tmp_path, {CORPUS_FILE: (sentence, "")})
    (verdict,) = [v for v in audit_log(SMALL, changed).verdicts
                  if v.line == 2 and v.check == "turbo_boost_limit"]
    assert verdict.verdict == "violation"
    assert verdict.why == ('Эльдарские (и тёмноэльдарские) гравициклы «Гвардейцы на '
                           'гравициклах»: турбо-ускорение не более 24", заявлено 33".')
    assert verdict.rules[0].title == "Мотоциклы и гравициклы → Турбо-ускорение"


def test_a_rule_missing_from_the_text_is_not_covered(tmp_path: Path) -> None:
    """No sentence forbids shooting after a turbo-boost: the check says so, never guesses."""
    sentence = ("По этой причине мотоциклы и гравициклы не могут стре- лять, атаковать или "
                "производить какие- либо другие преднамеренные действия после турбо-ускорения "
                "до конца хода.")
    changed = graph_of_corpus_copy(tmp_path, {CORPUS_FILE: (sentence, "")})
    verdicts = [v for v in audit_log(SMALL, changed).verdicts if v.line == 3]
    assert [(v.verdict, v.check, v.rules) for v in verdicts] == [
        ("not_covered", "after_turbo_boost", ())]
    assert verdicts[0].why == ("В базе знаний нет предложения о действиях после "
                               "турбо-ускорения, поэтому проверить нельзя.")


SMALL_REPORT = """\
Журнал партии: small.jsonl
Система: wh40k6 — Warhammer 40,000, 6-я редакция

Строка 2 · A:windriders · turbo_boost
  OK · Эльдарские (и тёмноэльдарские) гравициклы (Warhammer 40k, 6th edition, Книга правил, стр. —)
    «Более того, если эльдарский гравицикл включает турбо-ускорение, он может передвинуться \
максимум на 36".»
    Почему: Эльдарские (и тёмноэльдарские) гравициклы «Гвардейцы на гравициклах»: \
турбо-ускорение на 33" в пределах 36".

Строка 3 · A:windriders · charge
  НАРУШЕНИЕ · Мотоциклы и гравициклы → Турбо-ускорение (Warhammer 40k, 6th edition, Книга \
правил, стр. —)
    «По этой причине мотоциклы и гравициклы не могут стрелять, атаковать или производить \
какие-либо другие преднамеренные действия после турбо-ускорения до конца хода.»
    Почему: Эльдарские (и тёмноэльдарские) гравициклы «Гвардейцы на гравициклах»: отряд \
включил турбо-ускорение в этом ходе (строка 2), и до конца хода ему нельзя нападать.

Строка 4 · B:tactical · run
  НЕ ПОКРЫТО · правило не указано
    Почему: Ни одно правило базы знаний не ограничивает действие «run» для отряда типа \
«Пехота» в фазе «стрельба».

Итого: нарушений — 1, предупреждений — 0, не покрыто — 1, OK — 1.
По игрокам:
  A: нарушений — 1, предупреждений — 0, не покрыто — 0, OK — 1
  B: нарушений — 0, предупреждений — 0, не покрыто — 1, OK — 0
По отрядам:
  A:windriders: нарушений — 1, предупреждений — 0, не покрыто — 0, OK — 1
  B:tactical: нарушений — 0, предупреждений — 0, не покрыто — 1, OK — 0
"""


def test_the_text_report_of_a_small_game(corpus_graph: Graph) -> None:
    text = render_text(audit_log(SMALL, corpus_graph))
    assert text.replace(str(SMALL), SMALL.name) == SMALL_REPORT


@pytest.mark.parametrize(("sentence", "expected"), [
    ("Каждый наездник любого мотоцикла и гравицикла в составе боевой единицы может стрелять "
     "только из одного оружия.", [("max_count", 1, "только из одного оружия")]),
    ("Для передвижения боевой единицы артиллерии требуется хотя бы один номер расчета на орудие.",
     [("min_count", 1, "хотя бы один номер")]),
    ("Если боевая единица артиллерии не имеет хотя бы одного номера расчета на орудие, то она "
     "не может передвигаться.", [("min_count", 1, "хотя бы одного номера")]),
])
def test_the_word_counts_the_checks_read(sentence: str,
                                         expected: list[tuple[str, int, str]]) -> None:
    """The numbers of «one weapon per rider» and «a crewman per gun» are facts of the text."""
    facts = find_facts(sentence, [], {})
    assert [(f.name, f.value, f.text) for f in facts] == expected


def test_one_target_written_with_and_without_its_player(tmp_path: Path,
                                                        corpus_graph: Graph) -> None:
    """«B:tactical» and «tactical» are one target: no second-target violation."""
    import json

    header = {"type": "game", "system": "wh40k6", "armies": {
        "A": {"units": [{"id": "mc", "name": "Карнифекс", "type": "Монструозные создания",
                         "models": 1}]},
        "B": {"units": [{"id": "tactical", "name": "Тактики", "type": "Пехота", "models": 10}]}}}
    shots = [{"turn": 1, "phase": "shooting", "player": "A", "unit": "mc", "action": "shoot",
              "target": target, "weapons": [{"name": name}]}
             for target, name in (("B:tactical", "Коса"), ("tactical", "Пушка"))]
    log = tmp_path / "g.jsonl"
    log.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in [header, *shots]),
                   encoding="utf-8")
    verdicts = [(v.line, v.verdict, v.why) for v in audit_log(log, corpus_graph).verdicts]
    assert verdicts[-1] == (3, "ok", "Монструозные создания «Карнифекс»: в этой фазе "
                            "использовано оружий — 2 из 2 возможных, все по одной цели "
                            "(B:tactical).")
