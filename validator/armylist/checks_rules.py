"""Checks of the special rules a list declares: the name, the parameter, and stacking.

- ``rule_name``: every declared rule resolves in the list's system. A rule the KB does not
  hold — a name the corpus lacks, or one it only names (a ``concept``) — is ``not_covered``,
  once per distinct name per unit however often the unit declares it: the corpus cannot judge
  it, and a legal list must not be reported as breaking rules nobody here can read. A typo
  of a known name is a warning naming it (the unit is checked with that rule); a name that
  several rules share, a warning asking which.
- ``rule_parameter``: the parameter after the name ("Регенерация (5+)") has the shape the
  text writes it in and lies within the bounds the KB's facts give (:mod:`.parameters`); a
  missing required parameter is a violation; a value on a rule whose text shows none is
  ``not_covered`` (the text does not say the rule takes none; the value cannot be judged).
  Words in brackets are the parameter only of a rule whose text takes words («Мудрец (школа
  Огня)»); otherwise they are notes ("FAQ'ed", "Crew only") and never judged. A placeholder
  "(*)" (BattleScribe's generic entry) states no value: ``not_covered`` where one is needed.
- ``rule_stacking``: a rule whose text says several of it do not add up («Если модель имеет
  несколько Сопротивлений, то они не складываются») declared more than once for one unit.

The army's own rules (force rules) get the name and parameter checks too, through
:func:`declared_rule_findings`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from kb.lemmas import fold
from kb.models import Node
from kb.names import split_parameter
from kb.text import sentences
from validator.armylist.checks_units import as_written, quoted
from validator.armylist.citations import cite_mention
from validator.armylist.context import DeclaredRule, ListContext, ListedUnit
from validator.armylist.parameters import (
    FREE_TEXT_MARK,
    Parameter,
    ParameterSpec,
    better,
    parameter_spec,
    parse_parameter,
)
from validator.inputs.names import PLACEHOLDER
from validator.registry import Finding, unit_check
from validator.rulebook import Rulebook
from validator.verdicts import RuleCitation

NOT_STACKING_STEMS = ("не складыва",)
"""Words of the sentence that says several of a rule do not add up."""
JOINED_STEMS = ("присоедин",)
"""Words of the sentence that says what a joined character's rule gives the unit."""


def _first_sentence(book: Rulebook, node: Node) -> RuleCitation:
    return book.remember(("first_sentence", node.id), lambda: book.cite(
        node, next(iter(sentences(node.text)), node.title)))


def declared_rule_findings(rules: Iterable[DeclaredRule], ctx: ListContext) -> Iterator[Finding]:
    """The name and parameter findings of declared rules (a unit's, or the army's own)."""
    rules = tuple(rules)
    yield from _name_findings(rules, ctx)
    yield from _parameter_findings(rules, ctx)


@unit_check("rule_name")
def rule_name(listed: ListedUnit, ctx: ListContext) -> Iterator[Finding]:
    """Every declared special rule resolves in the list's system; one the KB does not hold is
    ``not_covered`` once per name, a typo or an ambiguous name a warning."""
    yield from _name_findings(listed.rules, ctx)


SHOWN_FIELDS = 10
"""How many other places of one rule a verdict names; the rest are counted."""


class _Group:
    """The places a unit declares one rule name: the first, a few more, how many in all."""

    __slots__ = ("first", "others", "count")

    def __init__(self, first: DeclaredRule) -> None:
        self.first = first
        self.others: list[str] = []
        self.count = 1

    def add(self, rule: DeclaredRule) -> None:
        self.count += 1
        if len(self.others) < SHOWN_FIELDS and rule.field not in self.others:
            self.others.append(rule.field)

    def also(self) -> str:
        """Where else the rule is declared: « (также parts[0].rules[1])»."""
        if not self.others:
            return ""
        more = self.count - 1 - len(self.others)
        return f" (также {', '.join(self.others)}" + (f" и ещё {more}" if more > 0 else "") + ")"


def listed_fields(rules: Sequence[DeclaredRule]) -> str:
    """A few declared rules with their places, «X» (rules[0]), the rest counted."""
    shown = ", ".join(f"«{r.written}» ({r.field})" for r in rules[:SHOWN_FIELDS])
    more = len(rules) - SHOWN_FIELDS
    return shown + (f" и ещё {more}" if more > 0 else "")


def _name_findings(rules: Iterable[DeclaredRule], ctx: ListContext) -> Iterator[Finding]:
    book, system = ctx.book, ctx.army.system
    groups: dict[str, _Group] = {}
    for rule in rules:
        key = rule.lookup.key
        group = groups.get(key)
        if group is None:
            groups[key] = _Group(rule)
        else:
            group.add(rule)
    for group in groups.values():
        rule = group.first
        lookup, node = rule.lookup, rule.node
        also = group.also()
        if node is None:
            if not lookup.name.strip(" ()"):
                empty = "Название правила пустое." if not rule.written.strip() else (
                    f"Вместо названия правила — «{rule.written}».")
                yield Finding("warning", (), empty, field=rule.field)
            elif lookup.ambiguous:
                yield Finding("warning", (), f"Правило {as_written(lookup)}{also} неоднозначно: "
                              f"подходят {quoted([n.title for n in lookup.ambiguous])}; оно не "
                              "проверено — уточните название.", lookup.suggestions,
                              field=rule.field)
            elif (mention := book.mention(lookup.name)) is not None:
                yield Finding("not_covered", (mention.citation(),),
                              f"Правило {as_written(lookup)}{also} в тексте правил только "
                              "упоминается: описания в базе знаний нет, оно не проверено.",
                              field=rule.field)
            else:
                why = (f"Правила {as_written(lookup)}{also} в корпусе правил системы {system} "
                       "нет: оно не проверено")
                if lookup.elsewhere:
                    systems = sorted({n.system for n in lookup.elsewhere})
                    why += (f" (правило с таким названием есть в системе {', '.join(systems)}, "
                            "но системы не смешиваются)")
                if lookup.suggestions:
                    why += f"; возможно, имелось в виду {quoted(lookup.suggestions)}"
                yield Finding("not_covered", (), why + ".", lookup.suggestions, field=rule.field)
        elif lookup.typo:
            yield Finding("warning", (_first_sentence(book, node),),
                          f"Правило {as_written(lookup)}{also} дословно не найдено: вероятно, это "
                          f"опечатка в «{node.title}», и отряд проверен с ним.",
                          lookup.suggestions, field=rule.field)
        elif not node.defined:
            named = cite_mention(book, node)
            yield Finding("not_covered", (named,) if named else (),
                          f"Правило {as_written(lookup, node.title)}{also} в тексте правил "
                          "только названо: описания в базе знаний нет, оно не проверено.",
                          field=rule.field)


def _given(rule: DeclaredRule, node: Node, spec: ParameterSpec | None) -> str | None:
    """The parameter the list gives: the value after the name, else words in brackets for a
    rule whose text takes words; the title's own "(*)" written out counts as none."""
    parameter = rule.parameter
    if parameter is None and rule.texts and spec is not None and "text" in spec.shapes:
        parameter = rule.texts[0]
    title_parameter = split_parameter(node.title)[1]
    if parameter is not None and parameter.strip() == FREE_TEXT_MARK == title_parameter:
        return None
    return parameter


@unit_check("rule_parameter")
def rule_parameter(listed: ListedUnit, ctx: ListContext) -> Iterator[Finding]:
    """A declared rule's parameter has the shape its text writes and lies within the bounds
    the KB's facts give; a missing required parameter, or one on a rule that takes none,
    is reported."""
    yield from _parameter_findings(listed.rules, ctx)


def _parameter_findings(rules: Iterable[DeclaredRule], ctx: ListContext) -> Iterator[Finding]:
    book = ctx.book
    unchecked: set[tuple[str, str]] = set()  # one not_covered per rule and value per unit
    for rule in rules:
        node = rule.node
        if node is None or not node.defined or node.kind != "rule":
            continue
        spec = parameter_spec(book, node)
        given = _given(rule, node, spec)
        if given is not None and set(given.strip()) == {PLACEHOLDER}:
            if spec is not None and spec.required:
                yield Finding("not_covered", spec.forms,
                              f"«{rule.written}»: значение параметра в списке не указано («*» "
                              f"вместо {spec.describe()}), его допустимость не проверена.",
                              field=rule.field)
            continue
        if spec is None:
            if given is not None and (node.id, given) not in unchecked:
                # the text shows no parameter; it does not say the rule takes none (a corpus
                # section may describe only part of a rule): the value cannot be judged
                unchecked.add((node.id, given))
                yield Finding("not_covered", (book.cite(node, node.title),),
                              f"В «{rule.written}» указан параметр «{given}», а текст правила "
                              f"«{node.title}» параметра не показывает: значение не проверено.",
                              field=rule.field)
            continue
        if given is None:
            yield from _without_parameter(rule, node, spec)
            continue
        yield _with_parameter(rule, node, spec, parse_parameter(given))


def _without_parameter(rule: DeclaredRule, node: Node,
                       spec: ParameterSpec) -> Iterator[Finding]:
    if spec.required:
        yield Finding("violation", spec.forms,
                      f"Правило «{node.title}» требует параметра ({spec.describe()}), а в "
                      f"«{rule.written}» его нет.", field=rule.field)
    elif spec.default is not None:
        yield Finding("ok", (spec.default.citation(),),
                      f"«{rule.written}» без параметра — стандартное правило "
                      f"(«{spec.default.text}»).", field=rule.field)


def _with_parameter(rule: DeclaredRule, node: Node, spec: ParameterSpec,
                    given: Parameter) -> Finding:
    name = f"«{rule.written}»"
    if "text" in spec.shapes:
        return Finding("ok", spec.forms, f"{name}: параметр «{given.written}» — свободный "
                       f"текст, как {spec.describe()} в тексте правила.", field=rule.field)
    if given.shape not in spec.shapes:
        return Finding("violation", spec.forms,
                       f"{name}: параметр «{given.written}» не подходит — текст правила "
                       f"«{node.title}» пишет его как {spec.describe()}.", field=rule.field)
    value = given.number
    if value is not None and given.shape == "number" and value < 1:
        return Finding("violation", spec.forms, f"{name}: параметр должен быть целым числом "
                       f"больше нуля, а не «{given.written}».", field=rule.field)
    low, high = spec.low, spec.high
    if value is not None and low is not None and value < low.value:
        if given.shape == "roll":
            why = f"{name}: лучший возможный бросок по тексту правила — {low.value}+."
        else:
            why = f"{name}: текст правила допускает значение от {low.value}, указано {value}."
        return Finding("violation", (low.citation,), why, field=rule.field)
    if value is not None and high is not None and value > high.value:
        if given.shape == "roll":
            why = (f"{name}: бросок делается на кубике с {high.value} гранями, "
                   f"{value}+ выпасть не может.")
        else:
            why = f"{name}: текст правила допускает значение до {high.value}, указано {value}."
        return Finding("violation", (high.citation,), why, field=rule.field)
    limits = ""
    if low is not None and high is not None:
        unit = "+" if given.shape == "roll" else ""
        limits = f" (от {low.value}{unit} до {high.value}{unit})"
    cited = (low.citation,) if given.shape == "number" and low is not None else spec.forms
    return Finding("ok", cited, f"{name}: параметр «{given.written}» допустим по тексту правила"
                   f"{limits}.", field=rule.field)


@unit_check("rule_stacking")
def rule_stacking(listed: ListedUnit, ctx: ListContext) -> Iterator[Finding]:
    """A rule whose text says several of it do not add up, declared more than once for a
    unit (its own and its parts'): a warning naming the one that counts (the best)."""
    book = ctx.book
    groups: dict[str, list[DeclaredRule]] = {}
    for rule in listed.rules:
        if rule.node is not None and rule.node.defined:
            groups.setdefault(rule.node.id, []).append(rule)
    for declared in groups.values():
        if len(declared) < 2:
            continue
        node = declared[0].node
        assert node is not None
        stacking = book.sentence(node, *NOT_STACKING_STEMS)
        if stacking is None:
            continue
        cited = [stacking.citation()]
        joined = book.sentence(node, *JOINED_STEMS)
        if joined is not None and any(r.part is not None for r in declared):
            cited.insert(0, joined.citation())
        listed_rules = listed_fields(declared)
        why = (f"У отряда несколько правил «{node.title}»: {listed_rules}; они не складываются, "
               "действует одно, наилучшее")
        best = _best(book, node, declared)
        yield Finding("warning", tuple(cited),
                      why + (f" — «{best.written}»." if best is not None else "."),
                      field=best.field if best is not None else None)


def _best(book: Rulebook, node: Node, declared: list[DeclaredRule]) -> DeclaredRule | None:
    spec = parameter_spec(book, node)
    given = [(r, parse_parameter(r.parameter)) for r in declared if r.parameter is not None]
    given = [(r, p) for r, p in given if spec is not None and _within(spec, p)]
    if not given or spec is None:
        return None
    best_rule, best = given[0]
    for rule, parameter in given[1:]:
        if better(spec, parameter, best) is parameter and fold(parameter.written) != fold(
                best.written):
            best_rule, best = rule, parameter
    return best_rule


def _within(spec: ParameterSpec, parameter: Parameter) -> bool:
    """Whether a numeric parameter has a shape the text writes and lies within its bounds."""
    value = parameter.number
    if value is None or parameter.shape not in spec.shapes:
        return False
    return ((spec.low is None or value >= spec.low.value)
            and (spec.high is None or value <= spec.high.value))
