"""Checks of what the text fixes about a unit's models: profiles and the make-up of a unit.

- ``fixed_profile``: a profile the text states for a type's models (the 40k artillery gun:
  «Модели самих орудий имеют следующий профиль: … 7 2 … 3+», a ``profile`` fact) against the
  profile the list gives that role's parts: a warning where they differ.
- ``crew_per_gun``: «Для передвижения боевой единицы артиллерии требуется хотя бы один номер
  расчета на орудие»: crew against guns; too few crew is a warning (the text says the unit
  cannot move, not that it cannot be fielded).
- ``character_not_crew``: «присоединённые к боевой единице независимые персонажи не считаются
  членами боевого расчета»: an independent character listed as crew is a violation.

Each finds its sentence in the unit type's own sections (and its inherited types'), so a type
without such a sentence is not checked; the number per gun is read from the sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from kb.lemmas import fold, lemma, lemma_words, morph
from kb.text import cardinal_after, stem_match
from validator.armylist.context import ListContext, ListedUnit
from validator.inputs.models import ROLE_SPELLINGS, Part, Profile
from validator.registry import Finding, unit_check

CREW_PER_GUN_STEMS = ("хотя бы", "расчет", "на оруди")
"""Words of the sentence that says how many crew each gun needs."""
CANNOT_MOVE_STEMS = ("не имеет хотя бы", "не может передвига")
"""Words of the sentence that says what happens without them."""
COUNT_CUE = "хотя бы"
"""The words right before the number of crew per gun."""
INDEPENDENT_STEMS = ("независим", "персонаж")
"""Words of a rule that makes a model an independent character."""
NOT_CREW_STEMS = (*INDEPENDENT_STEMS, "не считаются", "расчет")
"""Words of the sentence that says an independent character is not crew."""
LEADERS_STEMS = ("считаются", "частью", "расчет")
"""Words of the sentence that says leaders added to the crew are crew."""

_CYRILLIC = re.compile("[а-яё]")


def _role_words() -> dict[str, str]:
    """Lemma of each Russian role word (орудие, расчёт, …) → the role it names."""
    words: dict[str, str] = {}
    for key, role in ROLE_SPELLINGS.index.items():
        if _CYRILLIC.search(key) and " " not in key:
            words.setdefault(lemma(key), role)
    return words


ROLE_WORDS = _role_words()
ROLE_TITLES = {role: word for word, role in reversed(ROLE_WORDS.items())}
"""A Russian word for each role, for messages."""


@lru_cache(maxsize=64)
def genitive(word: str) -> str:
    """``word`` in the genitive case («орудие» → «орудия»), as written when it cannot be."""
    form = morph().parse(word)[0].inflect({"gent"})
    return form.word if form is not None else word


def role_of(sentence: str) -> str | None:
    """The part role a sentence speaks of («Модели самих орудий …» → ``gun``).

    The generic «модели» names a role only when no more specific one is named.
    """
    roles = [ROLE_WORDS[w] for w in lemma_words(sentence) if w in ROLE_WORDS]
    specific = [r for r in roles if r != "model"]
    return specific[0] if specific else (roles[0] if roles else None)


def _normal(value: object) -> str:
    return fold(str(value)).replace(" ", "")


def _differences(fixed: dict[str, object], profile: Profile) -> list[str]:
    written = {fold(k): v for k, v in profile.items()}
    out = []
    for key, expected in fixed.items():
        if expected is None or fold(key) not in written:
            continue
        value = written[fold(key)]
        if _normal(value) != _normal(expected):
            out.append(f"{key} {value} вместо {expected}")
    return out


def _shown(fixed: dict[str, object]) -> str:
    return ", ".join(f"{k} {v}" for k, v in fixed.items() if v is not None)


@unit_check("fixed_profile")
def fixed_profile(listed: ListedUnit, ctx: ListContext) -> Iterator[Finding]:
    """A profile the text fixes for a type's models against the list's profile of that role:
    a warning where they differ."""
    if listed.type_id is None:
        return
    fact = ctx.book.type_fact(listed.type_id, name="profile")
    if fact is None or not isinstance(fact.value, dict):
        return
    fixed: dict[str, object] = dict(fact.value)
    role = role_of(fact.fact.evidence)
    targets: list[tuple[str, str, Profile]] = []
    if role is None or role == "model":
        if listed.unit.profile:
            targets.append(("profile", "отряда", listed.unit.profile))
    else:
        for index, part in enumerate(listed.unit.parts):
            if part.role == role and part.profile:
                label = (f"«{part.name}»" if part.name
                         else genitive(ROLE_TITLES.get(role, role)))
                targets.append((f"parts[{index}].profile", label, part.profile))
    for field, label, profile in targets:
        differences = _differences(fixed, profile)
        if differences:
            yield Finding("warning", (fact.citation(),),
                          f"Профиль {label} в списке отличается от профиля, который фиксирует "
                          f"текст правил: {', '.join(differences)}.", field=field)
        else:
            yield Finding("ok", (fact.citation(),),
                          f"Профиль {label} совпадает с профилем из текста правил "
                          f"({_shown(fixed)}).", field=field)


def independent(listed: ListedUnit, index: int) -> bool:
    """Whether part ``index`` of the unit declares the independent-character rule."""
    return index in independent_parts(listed)


def independent_parts(listed: ListedUnit) -> frozenset[int]:
    """The parts of the unit that declare the independent-character rule (read once per
    unit: the checks ask of every part)."""
    found = listed.memo.get("independent_parts")
    if found is None:
        found = listed.memo["independent_parts"] = frozenset(
            rule.part_index for rule in listed.rules if rule.part_index is not None
            and stem_match(rule.lookup.name, INDEPENDENT_STEMS))
    return found


@unit_check("crew_per_gun")
def crew_per_gun(listed: ListedUnit, ctx: ListContext) -> Iterator[Finding]:
    """Crew against guns where the text requires crew per gun to move: too few is a warning.

    Independent characters are not counted; other characters (leaders added to the crew) are.
    """
    book = ctx.book
    rule = book.type_sentence(listed.type_id, *CREW_PER_GUN_STEMS)
    if rule is None:
        return
    per_gun = cardinal_after(rule.text, COUNT_CUE)
    parts = listed.unit.parts
    guns = sum(p.count for p in parts if p.role == "gun")
    if per_gun is None:
        yield Finding("not_covered", (rule.citation(),),
                      "Число номеров расчёта на орудие не удалось прочесть из текста правила.",
                      field="parts")
        return
    if guns == 0:
        yield Finding("not_covered", (rule.citation(),),
                      "В списке не указаны орудия и расчёт отряда (parts): требование о "
                      "расчёте на орудие не проверено.", field="parts")
        return
    crew = _crew(listed, parts)
    excluded = [p for i, p in enumerate(parts) if independent(listed, i)]
    cited = [rule.citation()]
    leaders = [p for i, p in enumerate(parts)
               if p.role == "character" and not independent(listed, i)]
    if leaders:
        added = book.type_sentence(listed.type_id, *LEADERS_STEMS)
        if added is not None:
            cited.append(added.citation())
    counted = f"орудий — {guns}, номеров расчёта — {crew}"
    notes = []
    if leaders:
        notes.append("включая " + ", ".join(_label(p) for p in leaders))
    if excluded:
        notes.append("не в счёт независимые персонажи: " + ", ".join(_label(p) for p in excluded))
    if notes:
        counted += f" ({'; '.join(notes)})"
    if crew >= guns * per_gun:
        yield Finding("ok", tuple(cited), f"В отряде {counted}: не меньше {per_gun} на орудие, "
                      "отряд может передвигаться.", field="parts")
        return
    consequence = book.type_sentence(listed.type_id, *CANNOT_MOVE_STEMS)
    if consequence is not None and consequence.text != rule.text:
        cited.append(consequence.citation())
    if excluded:
        not_crew = book.type_sentence(listed.type_id, *NOT_CREW_STEMS)
        if not_crew is not None:
            cited.append(not_crew.citation())
    yield Finding("warning", tuple(cited), f"В отряде {counted}, а нужно хотя бы {per_gun} на "
                  "орудие: такой отряд не может передвигаться.", field="parts")


def _crew(listed: ListedUnit, parts: tuple[Part, ...]) -> int:
    return sum(p.count for i, p in enumerate(parts)
               if p.role in ("crew", "character") and not independent(listed, i))


def _label(part: Part) -> str:
    return f"«{part.name}»" if part.name else ROLE_TITLES.get(part.role, part.role)


@unit_check("character_not_crew")
def character_not_crew(listed: ListedUnit, ctx: ListContext) -> Iterator[Finding]:
    """An independent character joined to a unit whose text says such characters are not
    crew: listed as crew it is a violation, listed as a character it is noted as not crew."""
    sentence = ctx.book.type_sentence(listed.type_id, *NOT_CREW_STEMS)
    if sentence is None:
        return
    for index, part in enumerate(listed.unit.parts):
        if not independent(listed, index):
            continue
        if part.role == "crew":
            yield Finding("violation", (sentence.citation(),),
                          f"{_label(part)} — независимый персонаж, а указан как расчёт: "
                          "независимые персонажи не считаются членами боевого расчёта и не "
                          "могут управлять орудиями.", field=f"parts[{index}].role")
        else:
            yield Finding("ok", (sentence.citation(),),
                          f"{_label(part)} — независимый персонаж: в расчёт не засчитан и "
                          "орудием не управляет.", field=f"parts[{index}]")
