"""Checks of a unit's type: it resolves in the list's system, to a type the rulebook describes.

A combined type ("Прыжковая пехота", "Пехота с реактивными ранцами") resolves to all its
parts through the KB's ``inherits`` edges; a type the corpus only names (WHFB «Монстры»,
«Боевые машины»: a ``concept`` node) is accepted with a warning that the KB holds no rules
for it. In Kill Team a model is described by its keywords: a unit there may have no type.
"""

from __future__ import annotations

from collections.abc import Iterator

from kb.lemmas import fold
from validator.armylist.citations import cite_mention, cite_type
from validator.armylist.context import (
    TYPE_CATEGORIES,
    ListContext,
    ListedUnit,
    NameLookup,
)
from validator.registry import Finding, unit_check
from validator.verdicts import RuleCitation

TYPE_OPTIONAL_SYSTEMS = frozenset({"killteam2018"})
"""Systems whose units may leave the type out (FORMATS §2)."""

TYPES_SECTION = "Типы подразделений"
"""The section of a rulebook that says what a unit type is, when the corpus has it."""
TYPE_IN_PROFILE_STEMS = ("тип подразделения", "част", "профил")


def quoted(names: list[str] | tuple[str, ...]) -> str:
    """Names as a message lists them: «A», «B»."""
    return ", ".join(f"«{n}»" for n in names)


def as_written(lookup: NameLookup, title: str | None = None) -> str:
    """A name as the list writes it, with what the alias table made of it, and the title of
    the node it means when that is written otherwise."""
    text = f"«{lookup.written}»"
    if lookup.alias is not None and lookup.alias != lookup.written:
        text += f" (по таблице псевдонимов — «{lookup.alias}»)"
    elif title is not None and fold(title) != fold(lookup.written):
        text += f" («{title}»)"
    return text


def not_covered_type(lookup: NameLookup, system: str) -> str:
    """The message for a unit type the corpus of ``system`` does not hold."""
    text = (f"Типа {as_written(lookup)} в корпусе правил системы {system} нет: правила типа "
            "не проверены")
    if lookup.suggestions:
        return text + f"; возможно, имелось в виду {quoted(lookup.suggestions)}."
    return text + "."


def _type_in_profile(ctx: ListContext) -> tuple[RuleCitation, ...]:
    found = ctx.book.sentence(ctx.book.section(TYPES_SECTION), *TYPE_IN_PROFILE_STEMS)
    return (found.citation(),) if found is not None else ()


@unit_check("unit_type")
def unit_type(listed: ListedUnit, ctx: ListContext) -> Iterator[Finding]:
    """The unit's type resolves in the list's system (any inflected form; a typo is a warning
    naming the type it was checked as); a combined type resolves to all its parts; a type the
    KB does not hold — one the corpus lacks or only names — is ``not_covered``: its rules are
    not checked. A unit of another system is left to ``unit_system``."""
    lookup, book = listed.type, ctx.book
    if lookup is None:
        if ctx.army.system not in TYPE_OPTIONAL_SYSTEMS:
            yield Finding("warning", _type_in_profile(ctx),
                          "Тип отряда не указан: правила его типа не проверены.", field="type")
        return
    node = lookup.node
    if node is None:
        if lookup.ambiguous:
            yield Finding("warning", (), f"Тип {as_written(lookup)} неоднозначен: подходят "
                          f"{quoted([n.title for n in lookup.ambiguous])}; правила типа не "
                          "проверены — уточните название.", lookup.suggestions, field="type")
        elif ctx.army.system in TYPE_OPTIONAL_SYSTEMS and not lookup.elsewhere:
            yield Finding("not_covered", (), f"В системе {ctx.army.system} модель описывают "
                          f"ключевые слова: тип {as_written(lookup)} в правилах не найден и не "
                          "проверен.", lookup.suggestions, field="type")
        elif not lookup.elsewhere:
            yield Finding("not_covered", (), not_covered_type(lookup, ctx.army.system),
                          lookup.suggestions, field="type")
        return
    if node.kind == "concept" and node.category not in TYPE_CATEGORIES:
        mention = cite_mention(book, node)
        yield Finding("warning", (mention,) if mention else (),
                      f"{as_written(lookup)} в тексте правил — правило «{node.title}», а не тип "
                      "войск: правила типа отряда не проверены.", field="type")
        return
    if not node.defined:
        mention = cite_mention(book, node)
        yield Finding("not_covered", (mention,) if mention else (),
                      f"Тип {as_written(lookup, node.title)} в тексте правил только назван: "
                      "правил для него в базе знаний нет, правила типа не проверены.",
                      field="type")
        return
    parts = [n for n, _ in book.graph.inherited_types(node.id)][1:]
    also = ""
    if parts:
        listed_parts = ", ".join(
            f"«{p.title}»" + ("" if p.defined else " (в тексте только назван)") for p in parts)
        also = f"; он следует также правилам типов {listed_parts}"
    if lookup.typo:
        yield Finding("warning", (cite_type(book, node),),
                      f"Тип {as_written(lookup)} дословно не найден: вероятно, это опечатка в "
                      f"«{node.title}», и отряд проверен как «{node.title}»{also}.",
                      lookup.suggestions, field="type")
        return
    found = "" if fold(node.title) == fold(lookup.name) else f": «{node.title}»"
    yield Finding("ok", (cite_type(book, node),),
                  f"Тип {as_written(lookup)} найден в правилах{found}{also}.", field="type")
