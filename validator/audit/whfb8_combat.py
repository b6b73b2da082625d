"""whfb8 checks of attacks: Killing Blow, Poisoned Attacks, Regeneration, impact hits.

Fields a log may add to the events of FORMATS §3, read here:

- ``hit``: ``automatic: true`` (the attack hits automatically; ``needed: "auto"`` says the
  same), ``spell: true`` or ``magic_weapon: true`` (a spell, an attack of a magic weapon);
- ``wound``: ``automatic: true`` (the attack wounds automatically; so does a wound right
  after the unit's ``hit`` claimed ``auto_wound``), ``flaming: true`` (a flaming attack, as is
  one whose ``rules`` name «Огненные атаки»);
- ``save``: ``claimed``: ``saved`` / ``failed`` (what the player made of the roll).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from kb.models import Node
from validator.audit.common import extra, missing, remember, tracker
from validator.audit.engine import EventContext
from validator.audit.state import UnitState
from validator.audit.whfb8_common import (
    CLAIMS,
    SYSTEMS,
    edge_citation,
    edge_targets,
    event_rules,
    flag,
    parameter,
    phase_name,
    roll_needed,
    rule_id,
    state,
    titles,
    uses_rule,
)
from validator.inputs.events import BaseEvent, HitEvent, ImpactHitsEvent, SaveEvent, WoundEvent
from validator.registry import Finding, event_check
from validator.rulebook import FoundFact, Rulebook, Sentence
from validator.verdicts import RuleCitation

SAVE_NAMES = {"armour": "за доспехи", "ward": "магический", "regeneration": "за Регенерацию"}


def _close_combat(event: HitEvent | WoundEvent) -> bool:
    if event.attack is not None:
        return event.attack == "close_combat"
    return event.phase == "close_combat"


def _target_type(target: UnitState | None) -> str:
    if target is None:
        return "цель не указана"
    return f"«{target.type_title}»" if target.type_title else "тип цели не указан"


# -- Killing Blow -------------------------------------------------------------------------
@event_check("killing_blow", systems=SYSTEMS, actions={"wound"})
def killing_blow(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """Killing Blow and Heroic Killing Blow: a natural 6 to wound slays, within limits."""
    assert isinstance(event, WoundEvent)
    book = ctx.book
    plain = book.section("Смертельный удар")
    heroic = book.section("Смертельный удар", "Героический Смертельный Удар")
    rule = heroic if uses_rule(ctx, heroic, ctx.unit, event) else (
        plain if uses_rule(ctx, plain, ctx.unit, event) else None)
    if rule is None or plain is None:
        if event.claimed == "slain" and plain is None and any(
                "смертельн" in r.lower() for r in event_rules(event)):
            yield missing("правила «Смертельный удар»")
        return
    six = book.fact(plain, name="natural_roll")
    auto = book.sentence(plain, "ранят автоматически")
    melee = book.sentence(plain, "лишь в ближнем бою")
    if six is None or auto is None or melee is None:
        yield missing("числа, которое нужно выбросить для Смертельного удара, и его ограничений")
        return
    if event.claimed != "slain" and event.natural != six.number:
        return
    title = rule.title
    failures: list[tuple[RuleCitation, str]] = []
    if event.natural != six.number:
        failures.append((six.citation(), f"нужна {six.number:g} на кубике ранения, выпало "
                                         f"{event.natural}"))
    if _automatic_wound(event, ctx):
        failures.append((auto.citation(), "атака ранит автоматически"))
    if not _close_combat(event):
        failures.append((melee.citation(), "ранение при стрельбе, а правило действует лишь в "
                                           "ближнем бою"))
    target = ctx.target
    allowed = edge_targets(ctx, rule, "applies_to")
    barred = edge_targets(ctx, rule, "excludes")
    type_known = target is not None and bool(target.types)
    if type_known and target is not None:
        if allowed and not target.is_a(*allowed):
            failures.append((edge_citation(ctx, rule, "applies_to"),
                             f"цель типа {_target_type(target)}, а правило действует лишь "
                             f"против {titles(ctx, allowed)}"))
        if barred and target.is_a(*barred):
            failures.append((edge_citation(ctx, rule, "excludes"),
                             f"цель типа {_target_type(target)}, который правило исключает"))
    if event.claimed == "slain" and failures:
        for citation, reason in failures:
            yield Finding("violation", (citation,), f"{title} не действует: {reason}.")
        return
    if failures:
        citation, reason = failures[0]
        yield Finding("ok", (citation,),
                      f"{title} не действует: {reason}; обычное ранение заявлено верно.")
        return
    if not type_known and (allowed or barred):
        yield Finding("not_covered", (six.citation(),),
                      f"{title}: тип цели неизвестен ({_target_type(target)}), нельзя проверить, "
                      "действует ли правило против неё.")
        return
    limit = edge_citation(ctx, rule, "applies_to" if allowed else "excludes")
    if event.claimed in (None, "slain"):
        yield Finding("ok", (six.citation(), limit),
                      f"{title}: выпала {event.natural} на ранение против цели типа "
                      f"{_target_type(target)} в ближнем бою — цель погибает сразу.")
    else:
        yield Finding("warning", (six.citation(), limit),
                      f"{title}: выпала {event.natural} на ранение против цели типа "
                      f"{_target_type(target)}, цель должна погибнуть сразу, а заявлено "
                      f"«{CLAIMS[event.claimed]}».")


def _automatic_wound(event: WoundEvent, ctx: EventContext) -> bool:
    if flag(event, "automatic"):
        return True
    unit = ctx.unit
    if unit is None:
        return False
    last = unit.last
    return (last is not None and last.action == "hit" and isinstance(last.event, HitEvent)
            and last.event.claimed == "auto_wound" and last.phase == event.phase)


@event_check("killing_blow_saves", systems=SYSTEMS, actions={"save"})
def killing_blow_saves(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """No armour or Regeneration save against a Killing Blow; a ward save is allowed."""
    assert isinstance(event, SaveEvent)
    if "killing_blow" not in event.against:
        return
    plain = ctx.book.section("Смертельный удар")
    ignores = ctx.book.sentence(plain, "игнорирует спас броски")
    ward = ctx.book.sentence(plain, "Магические спас броски могут")
    if ignores is None or ward is None:
        yield missing("правила «Смертельный удар» о спасбросках")
        return
    what = SAVE_NAMES[event.kind]
    if event.kind == "ward":
        yield Finding("ok", (ward.citation(),),
                      "Против Смертельного удара магический спасбросок разрешён.")
    else:
        yield Finding("violation", (ignores.citation(),),
                      f"Смертельный удар игнорирует спасбросок {what}, а он заявлен.")


# -- Poisoned Attacks ---------------------------------------------------------------------
@event_check("poisoned_attacks", systems=SYSTEMS, actions={"hit"})
def poisoned_attacks(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """Poisoned Attacks: a natural 6 to hit wounds automatically, within the rule's limits."""
    assert isinstance(event, HitEvent)
    book = ctx.book
    rule = book.section("Ядовитые атаки")
    if not uses_rule(ctx, rule, ctx.unit, event) or rule is None:
        return
    six = book.fact(rule, name="natural_roll")
    if six is None:
        yield missing("числа, которое нужно выбросить для Ядовитых атак")
        return
    if event.claimed != "auto_wound" and event.natural != six.number:
        return
    failures = _poison_failures(event, ctx, six.number)
    if failures is None:
        yield missing("правил «Ядовитые атаки», ограничивающих их действие")
        return
    if event.claimed == "auto_wound":
        if failures:
            for citation, reason in failures:
                yield Finding("violation", (citation,), f"Ядовитые атаки не действуют: {reason}.")
            return
        yield Finding("ok", (six.citation(), *_machine_in_melee(event, ctx)),
                      f"Ядовитые атаки: живая {event.natural} на попадание — рана наносится "
                      "автоматически.")
    elif failures:
        citation, reason = failures[0]
        yield Finding("ok", (citation,), f"Ядовитые атаки не действуют: {reason}; обычное "
                                         "попадание заявлено верно.")
    elif event.claimed is None:
        yield Finding("ok", (six.citation(),),
                      f"Ядовитые атаки: живая {event.natural} на попадание — рана наносится "
                      "автоматически.")
    else:
        yield Finding("warning", (six.citation(),),
                      f"Ядовитые атаки: выпала живая {event.natural} на попадание, рана "
                      f"наносится автоматически, а заявлено «{CLAIMS[event.claimed]}».")


def _poison_failures(event: HitEvent, ctx: EventContext,
                     six: float) -> list[tuple[RuleCitation, str]] | None:
    """Why the rule does not work on this hit (empty when it does); None: the KB lacks it."""
    book = ctx.book
    rule = book.section("Ядовитые атаки")
    live = book.fact(rule, name="modifier", stems=("живую",))
    roll_min = book.fact(rule, name="roll_min")
    auto = book.sentence(rule, "попадает автоматически")
    magic = book.sentence(rule, "заклинания", "магическим оружием")
    if live is None or roll_min is None or auto is None or magic is None:
        return None
    out: list[tuple[RuleCitation, str]] = []
    if event.natural != six:
        shown = f" (с модификатором {event.modifier:+d})" if event.modifier else ""
        out.append((live.citation(), f"нужна живая шестёрка на кубике, выпало "
                                     f"{event.natural}{shown}"))
    needed = roll_needed(event.needed)
    automatic = flag(event, "automatic") or (
        isinstance(event.needed, str) and needed is None and event.needed.strip() != "")
    if automatic:
        out.append((auto.citation(), "атака попадает автоматически"))
    elif needed is not None and needed >= roll_min.number:
        out.append((roll_min.citation(), f"для попадания нужно {needed}+, а при "
                                         f"{roll_min.text} правило не используется"))
    if flag(event, "spell") or flag(event, "magic_weapon") or any(
            "заклинан" in r.lower() or "магическ" in r.lower() for r in event_rules(event)):
        what = "заклинание" if flag(event, "spell") else "атака магическим оружием"
        out.append((magic.citation(), f"это {what}"))
    machines = book.section("Ядовитые атаки и Боевые Машины")
    target = ctx.target
    if target is not None and not _close_combat(event) and machines is not None:
        machine_ids = _machine_types(ctx)
        no_effect = book.sentence(machines, "ведется стрельба", "не имеют эффекта")
        if machine_ids and target.is_a(*machine_ids) and no_effect is not None:
            out.append((no_effect.citation(), f"стрельба по боевой машине «{target.key}»"))
    return out


def _machine_types(ctx: EventContext) -> frozenset[str]:
    """The unit types «Ядовитые атаки и Боевые Машины» speaks of (the war machines)."""
    machines = ctx.book.section("Ядовитые атаки и Боевые Машины")
    poisoned = ctx.book.section("Ядовитые атаки")
    if machines is None:
        return frozenset()
    graph = ctx.book.graph
    return frozenset(t for t in edge_targets(ctx, machines, "references")
                     if t in graph.nodes and graph.nodes[t].kind in ("unit_type", "concept")
                     and (poisoned is None or t != poisoned.id))


def _machine_in_melee(event: HitEvent, ctx: EventContext) -> tuple[RuleCitation, ...]:
    machines = ctx.book.section("Ядовитые атаки и Боевые Машины")
    target = ctx.target
    ids = _machine_types(ctx)
    if target is None or not ids or not target.is_a(*ids) or not _close_combat(event):
        return ()
    as_usual = ctx.book.sentence(machines, "В рукопашном бою", "как обычно")
    return (as_usual.citation(),) if as_usual is not None else ()


# -- Regeneration -------------------------------------------------------------------------
@event_check("regeneration", systems=SYSTEMS, actions={"save"})
def regeneration(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """Regeneration: only with the rule, at its value, never against flaming attacks and not
    for the rest of a phase in which a flaming attack wounded the unit."""
    assert isinstance(event, SaveEvent)
    if event.kind != "regeneration" or "killing_blow" in event.against:
        return
    book = ctx.book
    found = remember(book, ("regeneration rules",), lambda: _regeneration_rules(book))
    if found is None:
        yield missing("правила «Регенерация» (значение спасброска, Огненные атаки)")
        return
    rule, owner, flaming, rest, default, special = found
    unit = ctx.unit
    written = uses_rule(ctx, rule, unit)
    if written is None:
        yield Finding("violation", (owner.citation(),),
                      "У отряда нет правила «Регенерация», а заявлен спасбросок за Регенерацию.")
        return
    if "flaming" in event.against:
        yield Finding("violation", (flaming.citation(),),
                      "Рана нанесена Огненной атакой: спасбросок за Регенерацию не применим.")
        return
    lost = unit.flags.get("whfb8:regeneration_lost") if unit else None
    if isinstance(lost, tuple) and lost[0] == state(ctx).clock.phase:
        yield Finding("violation", (rest.citation(),),
                      f"В строке {lost[1]} отряд ранен Огненной атакой: до конца фазы "
                      f"«{phase_name(event.phase)}» Регенерация не действует.")
        return
    declared_value = parameter(written)
    value = roll_needed(declared_value) if declared_value else roll_needed(default.value)
    cited = special.citation() if declared_value else default.citation()
    shown = f"{value}+"
    if value is None:
        yield missing(f"значения Регенерации «{written}»")
        return
    claimed_value = roll_needed(event.value)
    if event.value is not None and claimed_value != value:
        yield Finding("violation", (cited,),
                      f"Регенерация отряда — {shown}, а спасбросок заявлен на {event.value}.")
        return
    if event.roll is None:
        yield Finding("ok", (cited,), f"Спасбросок за Регенерацию на {shown}.")
        return
    saved = event.roll >= value
    claim = _save_claim(event)
    outcome = "рана игнорируется" if saved else "рана наносится"
    if claim is not None and claim != saved:
        said = "спасбросок успешен" if claim else "спасбросок провален"
        yield Finding("violation", (cited,),
                      f"Регенерация {shown}: выпало {event.roll} — {outcome}, а заявлено, "
                      f"что {said}.")
        return
    yield Finding("ok", (cited,), f"Регенерация {shown}: выпало {event.roll} — {outcome}.")


class _RegenerationRules(NamedTuple):
    rule: Node
    owner: Sentence
    flaming: Sentence
    rest: Sentence
    default: FoundFact
    special: Sentence


def _regeneration_rules(book: Rulebook) -> _RegenerationRules | None:
    rule = book.section("Регенерация")
    owner = book.sentence(rule, "Модель с таким Специальным Правилом")
    flaming = book.sentence(rule, "Огненной")
    rest = book.sentence(rule, "до конца фазы")
    default = book.fact(rule, name="roll", stems=("За каждую нанесенную рану",))
    special = book.sentence(rule, "Регенерация (")
    if rule is None or owner is None or flaming is None or rest is None or default is None \
            or special is None:
        return None
    return _RegenerationRules(rule, owner, flaming, rest, default, special)


def _save_claim(event: SaveEvent) -> bool | None:
    claimed = extra(event, "claimed")
    if isinstance(claimed, bool):
        return claimed
    if isinstance(claimed, str):
        word = claimed.strip().lower()
        if word in ("saved", "passed", "success", "ignored", "успех", "спасён", "спасен"):
            return True
        if word in ("failed", "fail", "wounded", "провал", "ранен"):
            return False
    return None


@tracker("regeneration_lost", systems=SYSTEMS, actions={"save", "wound"})
def regeneration_lost(event: BaseEvent, ctx: EventContext) -> None:
    """A unit wounded by a flaming attack cannot regenerate until the end of the phase."""
    if isinstance(event, SaveEvent):
        if "flaming" in event.against and ctx.unit is not None:
            ctx.unit.flags["whfb8:regeneration_lost"] = (state(ctx).clock.phase, ctx.line)
    elif isinstance(event, WoundEvent) and event.claimed != "no_wound" and (
            flag(event, "flaming") or (event.rules and _flaming_rules(event, ctx))):
        for target in ctx.targets:
            target.flags["whfb8:regeneration_lost"] = (state(ctx).clock.phase, ctx.line)


def _flaming_rules(event: WoundEvent, ctx: EventContext) -> bool:
    """Whether the wound's rules name what «Регенерация» calls flaming attacks."""
    rule = ctx.book.section("Регенерация")
    if rule is None:
        return False
    flaming = edge_targets(ctx, rule, "references")
    return any(rule_id(ctx, name) in flaming for name in event_rules(event))


# -- impact hits --------------------------------------------------------------------------
@event_check("impact_hits", systems=SYSTEMS, actions={"impact_hits"})
def impact_hits(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """Impact hits: only by a model that charged, in the first round, never when charged."""
    assert isinstance(event, ImpactHitsEvent)
    rule = ctx.book.section("Отработка таранных попаданий")
    charging = ctx.book.sentence(rule, "нападет", "таранные попадания")
    later = ctx.book.sentence(rule, "последующие раунды", "подвергается нападению")
    if charging is None or later is None:
        yield missing("правила «Отработка таранных попаданий»")
        return
    unit = ctx.unit
    turn = state(ctx).clock.player_turn
    charged = unit is not None and unit.flags.get("whfb8:charged") == turn
    charged_by = unit is not None and unit.flags.get("whfb8:was_charged") == turn
    earlier = unit.flags.get("whfb8:charged") if unit is not None else None
    if event.charged is False or (charged_by and not charged):
        yield Finding("violation", (later.citation(),),
                      "Отряд сам подвергся нападению: таранные попадания не наносятся.")
    elif event.combat_round is not None and event.combat_round > 1:
        yield Finding("violation", (later.citation(),),
                      f"Раунд боя {event.combat_round}: в последующие раунды таранные попадания "
                      "не наносятся.")
    elif not charged and isinstance(earlier, int):
        yield Finding("violation", (later.citation(),),
                      "Отряд нападал в одном из прошлых ходов, а не в этот: таранные попадания "
                      "не наносятся.")
    elif not charged and event.charged is not True:
        yield Finding("violation", (charging.citation(),),
                      "В этот ход отряд не нападал: таранные попадания наносит лишь нападающий.")
    else:
        yield Finding("ok", (charging.citation(),),
                      f"Отряд напал в этот ход, первый раунд боя: таранные попадания ("
                      f"{event.hits}) наносятся.")
