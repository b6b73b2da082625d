"""Army-list checks (validator.armylist and the checks it runs), on the real corpus.

Table tests: every list in tests/data/lists/checks/ is checked, and its verdicts, one line
each (verdict, check, unit, field, the rules cited with their pages, why, suggestions),
must equal the sibling ``.expected`` file; for a few lists the whole text report is pinned
in a sibling ``.txt``. Then concrete end-to-end verdicts, and a changed copy of the corpus
proving the numbers come from the text.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import graph_of_corpus_copy

from kb.graph import Graph
from kb.text import cardinal_after
from validator.armylist import check_list, check_lists
from validator.armylist.checks_profiles import role_of
from validator.armylist.context import split_rule_parameter
from validator.armylist.parameters import Parameter, parse_parameter
from validator.inputs.lists import parse_list, read_list
from validator.registry import CHECKS
from validator.report import exit_code, render_json, render_text
from validator.verdicts import Report, Verdict

DATA = Path(__file__).parent / "data"
CHECKS_DIR = DATA / "lists" / "checks"
LIST_SUFFIXES = (".yaml", ".yml", ".json", ".ros", ".rosz")
WHFB_FILE = "001_ba20f991b5661e29.txt"


def _cases() -> list[str]:
    return sorted(p.name for p in CHECKS_DIR.iterdir() if p.suffix in LIST_SUFFIXES)


def verdict_line(verdict: Verdict) -> str:
    """One verdict as a line of an ``.expected`` file."""
    cited = "; ".join(f"{r.title}, стр. {'—' if r.page is None else r.page}"
                      for r in verdict.rules) or "—"
    suggested = f" {{{', '.join(verdict.suggestions)}}}" if verdict.suggestions else ""
    return (f"{verdict.verdict} {verdict.check} {verdict.unit or '-'} {verdict.field or '-'} "
            f"[{cited}] {verdict.why}{suggested}")


def table(report: Report) -> str:
    return "\n".join(verdict_line(v) for v in report.verdicts)


def _check(name: str, graph: Graph, monkeypatch: pytest.MonkeyPatch) -> Report:
    monkeypatch.chdir(CHECKS_DIR)  # so the report names the file as written here
    return check_list(read_list(name), graph)


@pytest.mark.parametrize("name", _cases())
def test_list_gives_expected_verdicts(name: str, corpus_graph: Graph,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    report = _check(name, corpus_graph, monkeypatch)
    expected = (CHECKS_DIR / f"{name}.expected").read_text(encoding="utf-8").rstrip("\n")
    assert table(report) == expected


@pytest.mark.parametrize("name", sorted(
    p.name.removesuffix(".txt") for p in CHECKS_DIR.glob("*.txt")))
def test_text_report_is_pinned(name: str, corpus_graph: Graph,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    report = _check(name, corpus_graph, monkeypatch)
    assert render_text(report) == (CHECKS_DIR / f"{name}.txt").read_text(encoding="utf-8")


def test_every_list_check_has_a_failing_and_a_passing_case(
        corpus_graph: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failing case: a violation or warning of the check in some table; a passing one: a
    list the check ran on without finding fault (an ``ok``, or no finding at all)."""
    reports = [_check(name, corpus_graph, monkeypatch) for name in _cases()]
    mine = {name for name, check in CHECKS.items() if check.scope in ("list", "unit")}
    failing = {v.check for r in reports for v in r.verdicts
               if v.verdict in ("violation", "warning")}
    passing = {v.check for r in reports for v in r.verdicts if v.verdict == "ok"}
    assert mine <= failing
    # checks with no ok verdict pass silently: a list where they found nothing
    silent = {"rule_name", "rule_stacking", "unique_ids", "unit_system", "has_units",
              "roster_notice"}
    assert mine - silent <= passing
    clean = [r for r in reports if not {v.check for v in r.verdicts
                                        if v.verdict != "ok"} & silent]
    assert clean


# --- concrete verdicts on the real corpus ---------------------------------------------------

WHFB_LIST = """\
system: whfb8
units:
  - id: trolls
    name: Речные тролли
    type: Пехота Чудовищ
    models: 3
    rules: [Регенерация (5+), Сопротивление магии (4)]
"""


def _verdict(report: Report, check: str, field: str, unit: str | None = None) -> Verdict:
    [found] = [v for v in report.verdicts if v.check == check and v.field == field
               and (unit is None or v.unit == unit)]
    return found


def test_whfb_regeneration_ok_and_magic_resistance_out_of_range(corpus_graph: Graph) -> None:
    report = check_list(parse_list(WHFB_LIST, file="trolls.yaml"), corpus_graph)
    regeneration = _verdict(report, "rule_parameter", "rules[0]")
    assert regeneration.verdict == "ok"
    assert regeneration.rules[0].title == "Регенерация"
    assert regeneration.rules[0].page == 75
    resistance = _verdict(report, "rule_parameter", "rules[1]")
    assert resistance.verdict == "violation"
    [rule] = resistance.rules
    assert (rule.title, rule.page, rule.source) == ("Сопротивление магии (1-3)", 73, WHFB_FILE)
    assert rule.quote == "Сопротивление магии (1-3)"
    assert resistance.why == ("«Сопротивление магии (4)»: текст правила допускает значение до 3, "
                              "указано 4.")
    assert exit_code(report) == 1


def test_typo_in_a_40k_type_suggests_the_type(corpus_graph: Graph) -> None:
    army = parse_list("system: wh40k6\nunits:\n  - {id: jb, name: Гравициклы, "
                      "type: Гравицыклы, models: 3}\n")
    report = check_list(army, corpus_graph)
    verdict = _verdict(report, "unit_type", "type")
    assert verdict.verdict == "warning"  # a typo is not a rule broken: checked as it means
    assert verdict.suggestions == ("Гравициклы",)
    assert report.units is not None and report.units[0].type is not None
    assert report.units[0].type.title == "Гравициклы"  # checked further as the type it means


def test_eldar_jetbikes_get_hammer_of_wrath_through_their_types(corpus_graph: Graph) -> None:
    army = parse_list("system: wh40k6\nunits:\n  - {id: jb, name: Гвардейцы, "
                      "type: Эльдарские гравициклы, models: 6, rules: [Глубокий удар]}\n")
    report = check_list(army, corpus_graph)
    assert report.units is not None
    [unit] = report.units
    assert unit.type is not None
    assert unit.type.title == "Эльдарские (и тёмноэльдарские) гравициклы"
    applies = {a.rule.title: a for a in unit.applies}
    hammer = applies["Молот ярости"]
    assert hammer.rule.defined is False
    assert hammer.because == (
        "тип «Эльдарские (и тёмноэльдарские) гравициклы» наследует Гравициклы → Мотоциклы и "
        "гравициклы (Мотоциклы и гравициклы → Специальные правила)")
    assert applies["Мотоциклы и гравициклы"].because == (
        "тип «Эльдарские (и тёмноэльдарские) гравициклы» наследует Гравициклы → Мотоциклы и "
        "гравициклы")
    assert applies["Глубокий удар"].because == "заявлено в списке (rules[0]: «Глубокий удар»)"
    assert list(applies)[:2] == ["Гравициклы", "Мотоциклы и гравициклы"]


def test_combined_type_resolves_to_all_its_parts(corpus_graph: Graph) -> None:
    army = parse_list("system: wh40k6\nunits:\n  - {id: a, name: Штурм, "
                      "type: Прыжковая пехота, models: 5}\n")
    report = check_list(army, corpus_graph)
    assert report.units is not None
    titles = [a.rule.title for a in report.units[0].applies]
    assert titles[:2] == ["Пехота", "Прыжковые боевые единицы"]
    assert {"Глубокий удар", "Крупногабаритный"} <= set(titles)
    verdict = _verdict(report, "unit_type", "type")
    assert verdict.rules[0].quote == ("Прыжковая пехота, к примеру, будет следовать правилам "
                                      "прыжковых боевых единиц и пехоты.")


def test_kill_team_keywords_give_rules(corpus_graph: Graph) -> None:
    army = parse_list("system: killteam2018\nunits:\n  - {id: a, name: Штурмовик, models: 1, "
                      "keywords: [INFANTRY, FLY]}\n")
    report = check_list(army, corpus_graph)
    assert [(v.check, v.verdict, v.field) for v in report.verdicts] == [
        ("keywords", "ok", "keywords[1]")]  # INFANTRY: the rules text does not use it
    assert report.units is not None
    [fly] = report.units[0].applies
    assert (fly.rule.title, fly.because) == ("FLY", "ключевое слово FLY (keywords[1])")


def test_roster_names_go_through_the_alias_table(corpus_graph: Graph) -> None:
    report = check_list(read_list(DATA / "rosters" / "trolls_bs1.ros"), corpus_graph)
    regeneration = _verdict(report, "rule_parameter", "rules[0]", "river-trolls")
    assert regeneration.verdict == "ok"
    assert regeneration.why.startswith("«Regeneration (5+)»: параметр «5+» допустим")
    resistance = _verdict(report, "rule_parameter", "rules[0]", "orc-shaman")
    assert resistance.why == ("«Magic Resistance (2)»: параметр «2» допустим по тексту правила "
                              "(от 1 до 3).")
    shaman = [v for v in report.verdicts if v.unit == "orc-shaman"]
    assert [(v.check, v.verdict) for v in shaman] == [
        ("unit_type", "ok"), ("rule_parameter", "ok")]


def test_user_aliases_extend_the_table(corpus_graph: Graph) -> None:
    army = parse_list("system: whfb8\nunits:\n  - {id: t, name: Trolls, type: Monstrous Infantry,"
                      " models: 3, rules: [Troll Regeneration (2+)]}\n")
    aliases = {"whfb8": {"Troll Regeneration": "Регенерация"}}
    report = check_list(army, corpus_graph, aliases=aliases)
    verdict = _verdict(report, "rule_parameter", "rules[0]")
    assert verdict.verdict == "ok"
    assert verdict.why == ("«Troll Regeneration (2+)»: параметр «2+» допустим по тексту правила "
                           "(от 2+ до 6+).")


def test_batch_reports_every_list_even_after_a_bad_one(corpus_graph: Graph) -> None:
    reports = check_lists([DATA / "lists" / "bad" / "broken.yaml",
                           CHECKS_DIR / "points.yaml", DATA / "rosters" / "entity_bomb.ros"],
                          corpus_graph)
    assert [Path(r.input).name for r in reports] == ["broken.yaml", "points.yaml",
                                                      "entity_bomb.ros"]
    assert [bool(r.errors) for r in reports] == [True, False, True]
    assert reports[1].summary.violation == 1
    assert exit_code(reports) == 1  # two lists skipped, one checked
    assert exit_code([reports[0], reports[2]]) == 2  # nothing could be checked


def test_json_report_has_units_and_placed_verdicts(corpus_graph: Graph,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    data = json.loads(render_json(_check("duplicate_id.yaml", corpus_graph, monkeypatch)))
    assert [u["id"] for u in data["units"]] == ["scout", "scout-2"]
    assert data["verdicts"][0]["unit"] == "scout-2"
    assert data["verdicts"][0]["field"] == "id"
    assert data["summary"] == {"ok": 0, "violation": 1, "warning": 0, "not_covered": 0}


@pytest.mark.parametrize(("name", "expected"), [
    ("Регенерация (5+)", ("Регенерация", "5+")),
    ("Многочисленные выстрелы Х 2", ("Многочисленные выстрелы", "Х 2")),
    ("Многочисленные выстрелы X D3", ("Многочисленные выстрелы", "X D3")),
    ("Мудрец (школа Огня)", ("Мудрец", "школа Огня")),
    ("Большая цель", ("Большая цель", None)),
])
def test_split_rule_parameter(name: str, expected: tuple[str, str | None]) -> None:
    assert split_rule_parameter(name) == expected


@pytest.mark.parametrize(("written", "expected"), [
    ("5+", Parameter("5+", "roll", 5)),
    ("Х 2", Parameter("Х 2", "number", 2)),
    ("x3", Parameter("x3", "number", 3)),
    ("D6", Parameter("D6", "dice")),
    ("2D6+1", Parameter("2D6+1", "dice")),
    ("школа Огня", Parameter("школа Огня", "text")),
    ("1-3", Parameter("1-3", "text")),
])
def test_parse_parameter(written: str, expected: Parameter) -> None:
    assert parse_parameter(written) == expected


@pytest.mark.parametrize(("sentence", "role"), [
    ("Модели самих орудий имеют следующий профиль", "gun"),
    ("Номер расчёта стреляет из орудия", "crew"),
    ("Модели имеют профиль", "model"),
    ("Профиль таков", None),
])
def test_role_of(sentence: str, role: str | None) -> None:
    assert role_of(sentence) == role


@pytest.mark.parametrize(("sentence", "number"), [
    ("требуется хотя бы один номер расчета на орудие", 1),
    ("требуется хотя бы двух номеров", 2),
    ("требуется хотя бы 3 номера", 3),
    ("требуется хотя бы кто-нибудь", None),
    ("ничего не требуется", None),
])
def test_cardinal_after(sentence: str, number: int | None) -> None:
    assert cardinal_after(sentence, "хотя бы") == number


# --- the numbers come from the rulebook ---------------------------------------------------------


def test_changing_the_range_in_the_text_changes_the_verdict(tmp_path: Path,
                                                            corpus_graph: Graph) -> None:
    army = parse_list(WHFB_LIST, file="trolls.yaml")
    before = _verdict(check_list(army, corpus_graph), "rule_parameter", "rules[1]")
    assert before.verdict == "violation"
    changed = graph_of_corpus_copy(tmp_path, {WHFB_FILE: ("(1-3)", "(1-4)")})
    after = _verdict(check_list(army, changed), "rule_parameter", "rules[1]")
    assert after.verdict == "ok"
    [rule] = after.rules
    assert (rule.title, rule.page, rule.quote) == (
        "Сопротивление магии (1-4)", 73, "Сопротивление магии (1-4)")
    assert after.why == ("«Сопротивление магии (4)»: параметр «4» допустим по тексту правила "
                         "(от 1 до 4).")


def test_changing_the_best_roll_in_the_text_changes_the_verdict(tmp_path: Path) -> None:
    army = parse_list("system: whfb8\nunits:\n  - {id: t, name: Тролли, models: 3, "
                      "type: Пехота, rules: [Регенерация (2+)]}\n")
    changed = graph_of_corpus_copy(tmp_path, {WHFB_FILE: ("Регенерацию (2+)",
                                                          "Регенерацию (3+)")})
    verdict = _verdict(check_list(army, changed), "rule_parameter", "rules[0]")
    assert verdict.verdict == "violation"
    assert verdict.rules[0].quote == ("А спас бросок за Регенерацию (3+) вообще самый лучший из "
                                      "всех возможных.")


def test_applies_carry_the_path_of_kb_ids(corpus_graph: Graph,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Programs get the chain of ids that ``because`` says in words."""
    report = _check("types_wh40k6.yaml", corpus_graph, monkeypatch)
    assault = next(u for u in report.units or () if u.id == "assault")
    deep = next(a for a in assault.applies if a.rule.title == "Глубокий удар")
    assert deep.path == ("wh40k6:pryzhkovaya-pekhota", "wh40k6:pryzhkovye-boevye-edinicy",
                         "wh40k6:glubokii-udar")
    declared = _check("rule_parameters.yaml", corpus_graph, monkeypatch).units or ()
    listed = [a for u in declared for a in u.applies if a.because.startswith("заявлено")]
    assert listed and all(a.path == () for a in listed)
