"""Army-list limits tested below, at and above their value: the list's points, the range of
a rule's parameter (and which of rules that do not stack counts), a roster's points limit,
the suggestions shown for a typo, and what counts as a name the rulebook mentions.

A rule's bounds are read from the real corpus KB as the check reads them
(:func:`~validator.armylist.parameters.parameter_spec`); a copy of the corpus with the range
in the rule's title changed shows the verdicts following the text; a roster's "no limit" is
the default the published BattleScribe game systems write (``../shared/bsdata``).
``benchmarks/mutation.py`` found these comparisons surviving a ``<`` for ``<=``.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from conftest import CORPUS
from limit_probe import graph_of_edited_corpus
from rapidfuzz import fuzz

from kb.graph import Graph
from kb.names import CERTAIN_MARGIN, CERTAIN_SCORE, text_key
from validator.armylist import check_list
from validator.armylist.checks_rules import SHOWN_FIELDS
from validator.armylist.citations import _sentence_with
from validator.armylist.context import RULE_KINDS, SUGGESTION_SCORE, Totals
from validator.armylist.output import TableRow, table_text
from validator.armylist.parameters import ParameterSpec, parameter_spec
from validator.inputs.lists import parse_list
from validator.inputs.roster import parse_roster
from validator.rulebook import Rulebook
from validator.verdicts import Report, Verdict

DATA = Path(__file__).parent / "data"
ULTHWE = DATA / "rosters" / "ulthwe.ros"
BSDATA = CORPUS.parent / "bsdata"
RESISTANCE = "Сопротивление магии"
"""A rule whose title gives its parameter's range and whose text says several do not stack."""


def _check(text: str, graph: Graph) -> Report:
    return check_list(parse_list(text, file="limits.yaml"), graph)


def _verdicts(report: Report, check: str) -> list[Verdict]:
    return [v for v in report.verdicts if v.check == check]


# --- points ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("over", "verdict"), [(-1, "ok"), (0, "ok"), (1, "violation")])
def test_points_below_at_and_above_the_limit(over: int, verdict: str,
                                             corpus_graph: Graph) -> None:
    """The list's own points limit: its sum may reach the limit, not pass it."""
    limit = 1500
    report = _check(f"system: wh40k6\npoints_limit: {limit}\nunits:\n"
                    f"  - {{id: a, name: Первый, type: Кавалерия, models: 5, points: 1000}}\n"
                    f"  - {{id: b, name: Второй, type: Звери, models: 5, "
                    f"points: {limit - 1000 + over}}}\n", corpus_graph)
    (found,) = _verdicts(report, "points_limit")
    assert found.verdict == verdict, found.why
    assert f"— {limit + over}" in found.why


# --- a rule's parameter ---------------------------------------------------------------------


def _resistance(graph: Graph) -> ParameterSpec:
    book = Rulebook(graph, "whfb8")
    node = book.find(RESISTANCE)
    assert node is not None
    spec = parameter_spec(book, node)
    assert spec is not None and spec.low is not None and spec.high is not None
    return spec


def _twice(value: int, graph: Graph) -> Report:
    """A unit declaring the rule twice with one value (they do not stack)."""
    return _check(f"system: whfb8\nunits:\n  - id: u\n    name: Молотобойцы\n    type: Пехота\n"
                  f"    models: 20\n    rules: [{RESISTANCE} ({value}), {RESISTANCE} ({value})]\n",
                  graph)


def _bounds(spec: ParameterSpec) -> list[tuple[int, bool]]:
    """Each bound, one below and one above it: (value, whether the text allows it)."""
    assert spec.low is not None and spec.high is not None
    low, high = spec.low.value, spec.high.value
    return [(low - 1, False), (low, True), (low + 1, low + 1 <= high),
            (high - 1, high - 1 >= low), (high, True), (high + 1, False)]


def test_a_parameter_below_at_and_above_its_bounds(corpus_graph: Graph) -> None:
    """At each bound of the range the parameter is allowed, one past it is not; of rules that
    do not stack, only an allowed one is named as the one that counts."""
    for value, allowed in _bounds(_resistance(corpus_graph)):
        report = _twice(value, corpus_graph)
        assert {v.verdict for v in _verdicts(report, "rule_parameter")} == {
            "ok" if allowed else "violation"}, value
        (stacking,) = _verdicts(report, "rule_stacking")
        named = f"наилучшее — «{RESISTANCE} ({value})»."
        assert (named in stacking.why) is allowed, (value, stacking.why)
        assert allowed or stacking.why.endswith("наилучшее."), stacking.why


def test_the_parameter_range_follows_the_text(tmp_path: Path) -> None:
    """With the title's range changed in a copy of the corpus (1-3 to 1-4), 4 is allowed and
    5 is not."""
    graph = graph_of_edited_corpus(tmp_path, [
        ("001_ba20f991b5661e29.txt", f"{RESISTANCE} (1-3)", f"{RESISTANCE} (1-4)")])
    spec = _resistance(graph)
    assert spec.high is not None and spec.high.value == 4
    for value, allowed in _bounds(spec):
        verdicts = _verdicts(_twice(value, graph), "rule_parameter")
        assert {v.verdict for v in verdicts} == {"ok" if allowed else "violation"}, value
    assert "до 4" in _verdicts(_twice(5, graph), "rule_parameter")[0].why


# --- rosters --------------------------------------------------------------------------------


def _default_limits() -> list[float]:
    """The points limit a roster carries when its player set none: the ``defaultCostLimit``
    of the published game systems (Kill Team 2018 writes -1, the 40k 7th edition 0)."""
    found = {float(m) for gst in sorted(BSDATA.glob("*/*.gst"))
             for m in re.findall(r'defaultCostLimit="([^"]+)"', gst.read_text(encoding="utf-8"))}
    assert found, f"no defaultCostLimit in {BSDATA}"
    return sorted(found)


def _roster_limit(value: str) -> int | None:
    data = ULTHWE.read_bytes()
    old = b'<costLimit name="pts" typeId="points" value="1500.0"/>'
    assert old in data
    new = f'<costLimit name="pts" typeId="points" value="{value}"/>'.encode()
    return parse_roster(data.replace(old, new), file=str(ULTHWE)).points_limit


def test_a_roster_without_a_points_limit() -> None:
    """BattleScribe's "no limit" (0 or -1) is no limit, the least positive one is."""
    for default in _default_limits():
        assert default <= 0
        assert _roster_limit(f"{default:.1f}") is None, default
    assert _roster_limit("0.0") is None
    assert _roster_limit("1.0") == 1


def test_a_roster_unit_has_parts_only_when_its_models_differ() -> None:
    """A unit of models of one name is one profile; of two names, it has parts."""
    army = parse_roster(ULTHWE.read_bytes(), file=str(ULTHWE))
    units = {u.name: u for u in army.units}
    assert [(p.name, p.count) for p in units["Windrider Jetbikes"].parts] == [
        ("Windrider", 5), ("Warlock", 1)]
    assert units["Guardian Defenders"].models == 10
    assert units["Guardian Defenders"].parts == ()


# --- names ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("typo", "near", "shown"), [
    ("Бол цель", "Большая цель", True),  # exactly the threshold
    ("Лёгктрельбе", "Лёгкий в стрельбе", False),  # 78.6: just below it
    ("Двигаться или стръъъъ", "Двигаться или стрелять", False),  # 79.1: within a point
])  # (found by scoring mutilated titles)
def test_a_suggestion_is_shown_from_the_threshold_on(typo: str, near: str, shown: bool,
                                                     corpus_graph: Graph) -> None:
    """A name scoring exactly :data:`SUGGESTION_SCORE` against a typo is suggested; one
    scoring just below is not (no suggestion is better than a wrong one)."""
    score = fuzz.ratio(text_key(typo), text_key(near))
    assert (score == SUGGESTION_SCORE) if shown else (SUGGESTION_SCORE - 2 <= score
                                                       < SUGGESTION_SCORE), score
    report = _check(f"system: whfb8\nunits:\n  - {{id: u, name: Отряд, type: Пехота, models: 5,"
                    f" rules: [{typo}]}}\n", corpus_graph)
    (verdict,) = _verdicts(report, "rule_name")
    assert verdict.verdict == "not_covered", verdict
    assert (near in verdict.suggestions) is shown, verdict
    assert (f"«{near}»" in verdict.why) is shown, verdict


def test_a_mentioned_name_needs_a_word_of_three_letters(corpus_graph: Graph) -> None:
    """«ход» (three letters) is a name the rulebook mentions; «на» would be found anywhere."""
    book = Rulebook(corpus_graph, "wh40k6")
    assert book.mention("ход") is not None
    assert book.mention("на") is None


@pytest.mark.parametrize(("text", "quote", "cited"), [
    ("Первое. Начало фразы и её конец.", "Начало фразы", "Начало фразы и её конец."),
    ("Первое. Перед этим начало фразы и её конец.", "начало фразы",
     "Перед этим начало фразы и её конец."),
    ("Первое. Начало фразы.", "нет такого", "нет такого"),
])
def test_a_mention_is_cited_with_its_whole_sentence(text: str, quote: str, cited: str) -> None:
    """A quote at the very start of a sentence is widened to the sentence like any other."""
    assert _sentence_with(text, quote) == cited


# --- how many places a verdict names --------------------------------------------------------


def _declared(rule: str, times: int, graph: Graph) -> Report:
    """A unit declaring ``rule`` ``times`` times."""
    rules = ", ".join([rule] * times)
    return _check(f"system: whfb8\nunits:\n  - id: u\n    name: Молотобойцы\n    type: Пехота\n"
                  f"    models: 20\n    rules: [{rules}]\n", graph)


@pytest.mark.parametrize("extra", [-1, 0, 1, 2])
def test_a_name_declared_again_names_its_places_up_to_the_limit(extra: int,
                                                                 corpus_graph: Graph) -> None:
    """A rule the KB does not hold, declared once and then SHOWN_FIELDS + ``extra`` times
    more: its verdict names the other places up to SHOWN_FIELDS and counts the rest."""
    others = SHOWN_FIELDS + extra
    report = _declared("Небывалое правило", 1 + others, corpus_graph)
    (verdict,) = _verdicts(report, "rule_name")
    named = [f"rules[{i}]" for i in range(1, 1 + min(others, SHOWN_FIELDS))]
    assert f"(также {', '.join(named)}" in verdict.why, verdict.why
    assert f"rules[{len(named) + 1}]" not in verdict.why, verdict.why
    rest = others - SHOWN_FIELDS
    assert (f" и ещё {rest})" in verdict.why) is (rest > 0), verdict.why
    assert ("и ещё" in verdict.why) is (rest > 0), verdict.why


@pytest.mark.parametrize("extra", [-1, 0, 1])
def test_rules_that_do_not_stack_are_listed_up_to_the_limit(extra: int,
                                                             corpus_graph: Graph) -> None:
    """SHOWN_FIELDS + ``extra`` declarations of a rule that does not stack: the verdict lists
    SHOWN_FIELDS of them at most and counts the rest."""
    times = SHOWN_FIELDS + extra
    report = _declared(f"{RESISTANCE} (1)", times, corpus_graph)
    (verdict,) = _verdicts(report, "rule_stacking")
    shown = min(times, SHOWN_FIELDS)
    assert f"(rules[{shown - 1}])" in verdict.why and f"(rules[{shown}])" not in verdict.why, \
        verdict.why
    rest = times - SHOWN_FIELDS
    assert (f" и ещё {rest};" in verdict.why) is (rest > 0), verdict.why
    assert ("и ещё" in verdict.why) is (rest > 0), verdict.why


@pytest.mark.parametrize(("system", "typo", "near", "certain"), [
    ("whfb8", "Лёй в стрельбе", "Лёгкий в стрельбе", True),  # exactly CERTAIN_SCORE
    ("whfb8", "ъъАвангард", "Авангард", False),  # one point below it
    ("wh40k6", "Пнирование", "Планирование", True),  # 91, the next name exactly 5 behind
    ("wh40k6", "Пирование", "Пикирование", False),  # 90, the next name 4 behind
])  # (found by scoring mutilated titles)
def test_a_typo_is_taken_for_the_name_from_the_certain_score_and_margin_on(
        system: str, typo: str, near: str, certain: bool, corpus_graph: Graph) -> None:
    """A typo scoring CERTAIN_SCORE or more and CERTAIN_MARGIN ahead of the next name is read
    as the name and the unit checked with it; a point less of either, it is a suggestion."""
    found = corpus_graph.names.find(typo, system, RULE_KINDS, limit=2)
    assert found[0].matched == near and found[0].how == "fuzzy", found
    margin = found[0].score - found[1].score if len(found) > 1 else 100
    if certain:
        assert found[0].score >= CERTAIN_SCORE and margin >= CERTAIN_MARGIN, found
        assert found[0].score == CERTAIN_SCORE or margin == CERTAIN_MARGIN, found  # at a limit
    else:
        assert (found[0].score, margin >= CERTAIN_MARGIN) == (CERTAIN_SCORE - 1, True) or (
            found[0].score >= CERTAIN_SCORE and margin == CERTAIN_MARGIN - 1), found
    unit_type = "Пехота"
    report = _check(f"system: {system}\nunits:\n  - {{id: u, name: Отряд, type: {unit_type}, "
                    f"models: 5, rules: [{typo}]}}\n", corpus_graph)
    (verdict,) = _verdicts(report, "rule_name")
    assert (f"опечатка в «{near}»" in verdict.why) is certain, verdict
    assert verdict.verdict == ("warning" if certain else "not_covered"), verdict
    assert near in verdict.suggestions, verdict


@pytest.mark.parametrize("extra", [-1, 0, 1])
def test_unpriced_units_are_named_up_to_the_limit(extra: int, corpus_graph: Graph) -> None:
    """Totals.UNPRICED_SHOWN + ``extra`` units without points under a points limit: the
    warning names that many at most and counts the rest."""
    count = Totals.UNPRICED_SHOWN + extra
    units = "".join(f"  - {{id: u{i}, name: Отряд, type: Пехота, models: 5}}\n"
                    for i in range(count))
    report = _check(f"system: whfb8\npoints_limit: 1000\nunits:\n{units}", corpus_graph)
    (verdict,) = _verdicts(report, "points_limit")
    shown = min(count, Totals.UNPRICED_SHOWN)
    assert f"u{shown - 1}" in verdict.why and f"u{shown}," not in verdict.why, verdict.why
    assert f"u{shown} " not in verdict.why, verdict.why
    rest = count - Totals.UNPRICED_SHOWN
    assert (f" и ещё {rest} " in verdict.why) is (rest > 0), verdict.why
    assert ("и ещё" in verdict.why) is (rest > 0), verdict.why


def test_the_table_aligns_text_left_and_counts_right() -> None:
    """The organiser's table: file, army and points to the left, the three counts to the
    right, each column as wide as its widest cell."""
    rows = [TableRow("a.yaml", "Гномы", "whfb8", 1000, 3, 3, 1000,
                     Counter(violation=12, warning=3, not_covered=100)),
            TableRow("длинное-имя.yaml", "Эльфы", "whfb8", 500, 1, 1, None,
                     Counter(violation=1, warning=0, not_covered=7))]
    lines = table_text(rows).split("\n")
    head, first, second = lines[1], lines[2], lines[3]
    assert first.startswith("a.yaml" + " " * (len("длинное-имя.yaml") - len("a.yaml") + 2))
    assert first.endswith("100") and second.endswith("  7"), (first, second)
    column = head.index("Нарушения") + len("Нарушения")
    assert first[column - 2:column] == "12" and second[column - 1] == "1", (head, first, second)
    points = head.index("Очки")
    assert first[points].isdigit() and second[points].isdigit(), (head, first, second)
