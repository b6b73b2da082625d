"""Checks of the special rules a list declares: the name, the parameter, and stacking.

- ``rule_name``: every declared rule resolves in the list's system; a typo is an error with
  the nearest names; a rule the corpus only names (a ``concept``, or words of some sentence
  the KB has no node for) is a warning: the KB holds no rules to check it by.
- ``rule_parameter``: the parameter after the name ("Регенерация (5+)") has the shape the
  text writes it in and lies within the bounds the KB's facts give (:mod:`.parameters`); a
  missing required parameter and a parameter on a rule whose text shows none are violations.
- ``rule_stacking``: a rule whose text says several of it do not add up («Если модель имеет
  несколько Сопротивлений, то они не складываются») declared more than once for one unit.
"""

from __future__ import annotations

from collections.abc import Iterator

from kb.lemmas import fold
from kb.models import Node
from kb.names import split_parameter
from kb.text import sentences
from validator.armylist.checks_units import as_written, quoted
from validator.armylist.context import DeclaredRule, ListContext, ListedUnit, cite_mention
from validator.armylist.parameters import (
    FREE_TEXT_MARK,
    Parameter,
    ParameterSpec,
    better,
    parameter_spec,
    parse_parameter,
)
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


@unit_check("rule_name")
def rule_name(listed: ListedUnit, ctx: ListContext) -> Iterator[Finding]:
    """Every declared special rule resolves in the list's system (typos: an error with the
    nearest names); a rule the corpus only names is a warning."""
    book = ctx.book
    for rule in listed.rules:
        lookup, node = rule.lookup, rule.node
        if node is None:
            if not lookup.name.strip(" ()"):
                empty = "Название правила пустое." if not rule.written.strip() else (
                    f"Вместо названия правила — «{rule.written}».")
                yield Finding("violation", (), empty, field=rule.field)
                continue
            if lookup.ambiguous:
                yield Finding("violation", (), f"Правило {as_written(lookup)} неоднозначно: "
                              f"подходят {quoted([n.title for n in lookup.ambiguous])}.",
                              lookup.suggestions, field=rule.field)
                continue
            mention = book.mention(lookup.name)
            if mention is not None:
                yield Finding("warning", (mention.citation(),),
                              f"Правило {as_written(lookup)} в тексте правил только упоминается: "
                              "описания в базе знаний нет, оно не проверено.", field=rule.field)
                continue
            why = f"Правило {as_written(lookup)} не найдено в правилах системы {ctx.army.system}"
            if lookup.suggestions:
                why += f"; ближайшие: {quoted(lookup.suggestions)}"
            if lookup.elsewhere:
                systems = sorted({n.system for n in lookup.elsewhere})
                why += f"; оно есть в системе {', '.join(systems)}"
            yield Finding("violation", (), why + ".", lookup.suggestions, field=rule.field)
        elif lookup.typo:
            yield Finding("violation", (_first_sentence(book, node),),
                          f"Правило {as_written(lookup)} не найдено: это опечатка? Ближайшее — "
                          f"«{node.title}», отряд проверен с ним.", lookup.suggestions,
                          field=rule.field)
        elif not node.defined:
            named = cite_mention(book, node)
            yield Finding("warning", (named,) if named else (),
                          f"Правило {as_written(lookup, node.title)} в тексте правил "
                          "только названо: описания в базе знаний нет, оно не проверено.",
                          field=rule.field)


def _given(rule: DeclaredRule, node: Node) -> str | None:
    """The parameter the list gives; the title's own "(*)" written out counts as none."""
    parameter = rule.parameter
    title_parameter = split_parameter(node.title)[1]
    if parameter is not None and parameter.strip() == FREE_TEXT_MARK == title_parameter:
        return None
    return parameter


@unit_check("rule_parameter")
def rule_parameter(listed: ListedUnit, ctx: ListContext) -> Iterator[Finding]:
    """A declared rule's parameter has the shape its text writes and lies within the bounds
    the KB's facts give; a missing required parameter, or one on a rule that takes none,
    is reported."""
    book = ctx.book
    for rule in listed.rules:
        node = rule.node
        if node is None or not node.defined or node.kind != "rule":
            continue
        spec = parameter_spec(book, node)
        given = _given(rule, node)
        if spec is None:
            if given is not None:
                yield Finding("violation", (book.cite(node, node.title),),
                              f"Правило «{node.title}» в тексте правил пишется без параметра, а в "
                              f"«{rule.written}» указан параметр «{given}».", field=rule.field)
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
        listed_rules = ", ".join(f"«{r.written}» ({r.field})" for r in declared)
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
