"""whfb8 panic: when a unit must take a panic test, when it must not, and tests the log lacks.

A test is required after heavy casualties in one phase (the share of the unit's size at the
start of the phase that «Тяжелые потери» states), for every friend within the distance of a
unit destroyed or broken (``within_6`` of ``unit_destroyed`` / ``break_test_failed``), and
for a unit a friend fled through (``fled_through``). It is never taken by a unit in close
combat, by a fleeing unit, or twice in one phase. A required test is recorded as an
obligation (``GameState.expect``); a ``panic_test`` fulfils it, and one still open when the
phase ends is reported against the event that required it.

A unit is in close combat when the log shows it charging, charged, or attacking or attacked
in close combat, until it flees or is destroyed, or its enemies are; casualties it suffers
in the close combat phase are close-combat casualties. A unit flees from its ``flee`` or
``break_test_failed`` until it moves, charges or shoots again (it rallied).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from validator.audit.common import missing, tracker
from validator.audit.engine import EventContext
from validator.audit.state import UnitState
from validator.audit.whfb8_common import (
    SYSTEMS,
    in_combat,
    phase_name,
    resolve_unit,
    shooting_casualties,
    state,
)
from validator.inputs.events import (
    BaseEvent,
    BreakTestFailedEvent,
    CasualtiesEvent,
    PanicTestEvent,
    UnitDestroyedEvent,
)
from validator.registry import Finding, event_check
from validator.verdicts import RuleCitation

PANIC = "panic_test"
FRIEND_SECTIONS = {"unit_destroyed": "Полностью уничтожено дружественное подразделение",
                   "break_test_failed": "Дружественное подразделение сломлено"}
FRIEND_REASONS = {"unit_destroyed": "friend_destroyed", "break_test_failed": "friend_broken"}


@dataclass(frozen=True)
class Exemption:
    """Why a unit takes no panic test now, and the sentence that says so."""

    citation: RuleCitation
    why: str


def _exemption(ctx: EventContext, unit: UnitState, *, fighting: bool = False,
               shot: bool = False) -> Exemption | None:
    """The rule that spares the unit a panic test now (None: it must test if a cause is).

    ``fighting``: the event shows the unit in close combat; ``shot``: it shows the unit was
    shot at, so it is not in close combat whatever the audit inferred before.
    """
    rule = ctx.book.section("Паника", "Тесты на панику")
    st = state(ctx)
    if fighting or (not shot and in_combat(ctx, unit)):
        said = ctx.book.sentence(rule, "не проходится", "ближнем бою")
        if said is not None:
            return Exemption(said.citation(), "находится в ближнем бою")
    if unit.key in st.fleeing:
        said = ctx.book.sentence(rule, "если оно отступает")
        if said is not None:
            return Exemption(said.citation(), "отступает")
    tested = st.panic_tested.get(unit.key)
    once = ctx.book.fact(rule, name="max_count")
    if tested is not None and tested[0] == st.clock.phase and once is not None:
        return Exemption(once.citation(),
                         f"уже проходил тест на панику в эту фазу (строка {tested[1]})")
    return None


def _require(ctx: EventContext, unit: UnitState, citation: RuleCitation, cause: str) -> None:
    """Record that the unit must take a panic test before the phase ends."""
    phase = phase_name(ctx.game.phase)
    finding = Finding("violation", (citation,),
                      f"Отряд «{unit.key}» не прошёл до конца фазы «{phase}» обязательный тест "
                      f"на панику: {cause}.")
    if ctx.game.pending(PANIC, unit.key) is None:
        state(ctx).panic_reason[unit.key] = f"{cause}, строка {ctx.line}"
    ctx.game.expect(PANIC, unit.key, ctx.line, ctx.event.action, finding)


# -- causes -------------------------------------------------------------------------------
@event_check("heavy_casualties", systems=SYSTEMS, actions={"casualties"})
def heavy_casualties(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """Heavy casualties: a panic test after losing the rule's share of the unit in a phase."""
    assert isinstance(event, CasualtiesEvent)
    unit = ctx.unit
    if unit is None:
        return
    rule = ctx.book.section("Тесты на панику", "Тяжелые потери")
    threshold = ctx.book.fact(rule, name="threshold")
    if threshold is None:
        yield missing("доли потерь, после которой нужен тест на панику")
        return
    start = (event.unit_size_at_phase_start if event.unit_size_at_phase_start is not None
             else unit.size_at_phase_start)
    lost = unit.casualties_this_phase + event.count
    if start <= 0:
        return
    share = lost * 100 / start
    told = f"потери за фазу — {lost} из {start} ({share:.0f}%)"
    if share < threshold.number:
        yield Finding("ok", (threshold.citation(),),
                      f"Тяжелые потери: {told}, меньше {threshold.text} — тест на панику не "
                      "нужен.")
        return
    if unit.size - event.count <= 0:
        yield Finding("ok", (threshold.citation(),),
                      f"Тяжелые потери: {told}, но отряд уничтожен — тест проходить некому.")
        return
    said = unit.stated.get("in_close_combat") if unit.stated else None
    if said is not None and said.line == ctx.line:  # the log's word on this event wins
        fighting, shot = event.phase == "close_combat" or said.value, False
    else:
        fighting, shot = event.phase == "close_combat", shooting_casualties(event, ctx)
    spared = _exemption(ctx, unit, fighting=fighting, shot=shot)
    if spared is not None:
        yield Finding("ok", (threshold.citation(), spared.citation),
                      f"Тяжелые потери: {told}, но отряд {spared.why} — тест на панику не "
                      "проходится.")
        return
    _require(ctx, unit, threshold.citation(), f"{told}, не меньше {threshold.text}")
    yield Finding("ok", (threshold.citation(),),
                  f"Тяжелые потери: {told}, не меньше {threshold.text} — отряд должен пройти "
                  "тест на панику.")


@event_check("friend_lost_panic", systems=SYSTEMS, actions={"unit_destroyed",
                                                            "break_test_failed"})
def friend_lost_panic(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """A friend destroyed or broken: every friendly unit within the distance tests."""
    assert isinstance(event, UnitDestroyedEvent | BreakTestFailedEvent)
    rule = ctx.book.section("Тесты на панику", FRIEND_SECTIONS[event.action])
    within = ctx.book.fact(rule, name="within_distance")
    if within is None:
        yield missing(f"расстояния из правила «{FRIEND_SECTIONS[event.action]}»")
        return
    owner = ctx.unit.player if ctx.unit is not None else event.player
    what = "уничтожен" if event.action == "unit_destroyed" else "провалил тест на Разгром"
    near = f"в {within.text} от него"
    must: list[str] = []
    spared: list[str] = []
    unknown: list[str] = []
    for ref in event.within_6:
        friend = resolve_unit(ctx, ref, owner)
        if friend is None or friend.player != owner or friend is ctx.unit:
            unknown.append(ref)
            continue
        if friend.key in state(ctx).destroyed:
            spared.append(f"«{friend.key}» (уже уничтожен)")
            continue
        exemption = _exemption(ctx, friend)
        if exemption is not None:
            spared.append(f"«{friend.key}» ({exemption.why})")
            continue
        _require(ctx, friend, within.citation(),
                 f"дружественный «{ctx.unit.key if ctx.unit else event.unit}» {what} "
                 f"{near}")
        must.append(f"«{friend.key}»")
    if unknown:
        yield Finding("warning", (within.citation(),),
                      f"Среди отрядов {near} есть недружественные или неизвестные: "
                      f"{', '.join(f'«{u}»' for u in unknown)}.")
    if not must and not spared:
        if not unknown:
            yield Finding("ok", (within.citation(),),
                          f"Отряд {what}, дружественных отрядов {near} нет — тест на панику "
                          "не нужен.")
        return
    parts = []
    if must:
        parts.append(f"тест на панику должны пройти {', '.join(must)}")
    if spared:
        parts.append(f"не проходят {', '.join(spared)}")
    yield Finding("ok", (within.citation(),), f"Отряд {what}: {near} {'; '.join(parts)}.")


@event_check("fled_through_panic", systems=SYSTEMS, actions={"fled_through"})
def fled_through_panic(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """A friend fled through the unit: it tests for panic."""
    unit = ctx.unit
    if unit is None:
        return
    rule = ctx.book.section("Тесты на панику", "Отступило через")
    said = ctx.book.sentence(rule, "пробегает через")
    if said is None:
        yield missing("правила «Отступило через»")
        return
    spared = _exemption(ctx, unit)
    if spared is not None:
        yield Finding("ok", (said.citation(), spared.citation),
                      f"Через отряд пробежал отступающий дружественный отряд, но отряд "
                      f"{spared.why} — тест на панику не проходится.")
        return
    _require(ctx, unit, said.citation(), "через него пробежал отступающий дружественный отряд")
    yield Finding("ok", (said.citation(),),
                  "Через отряд пробежал отступающий дружественный отряд — он должен пройти тест "
                  "на панику.")


# -- the test -----------------------------------------------------------------------------
@event_check("panic_test", systems=SYSTEMS, actions={"panic_test"})
def panic_test(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """A panic test: allowed only when a cause requires it and nothing spares the unit."""
    assert isinstance(event, PanicTestEvent)
    unit = ctx.unit
    if unit is None:
        return
    spared = _exemption(ctx, unit)
    if spared is not None:
        yield Finding("violation", (spared.citation,),
                      f"Отряд {spared.why}: тест на панику не проходится.")
        return
    pending = ctx.game.pending(PANIC, unit.key)
    if pending is not None:
        assert isinstance(pending.finding, Finding)
        cause = state(ctx).panic_reason.get(unit.key, f"строка {pending.line}")
        yield Finding("ok", pending.finding.rules, f"Тест на панику обязателен: {cause}.")
        return
    yield _not_required(event, ctx, unit)


def _not_required(event: PanicTestEvent, ctx: EventContext, unit: UnitState) -> Finding:
    book = ctx.book
    phase = phase_name(ctx.game.phase)
    if event.reason == "heavy_casualties":
        rule = book.section("Тесты на панику", "Тяжелые потери")
        threshold = book.fact(rule, name="threshold")
        if threshold is None:
            return missing("доли потерь, после которой нужен тест на панику")
        start = unit.size_at_phase_start
        lost = unit.casualties_this_phase
        share = lost * 100 / start if start else 0
        return Finding("violation", (threshold.citation(),),
                       f"Потери отряда за фазу «{phase}» — {lost} из {start} ({share:.0f}%), "
                       f"меньше {threshold.text}: тест на панику не нужен.")
    if event.reason in ("friend_destroyed", "friend_broken"):
        title = FRIEND_SECTIONS["unit_destroyed" if event.reason == "friend_destroyed"
                                else "break_test_failed"]
        within = book.fact(book.section("Тесты на панику", title), name="within_distance")
        if within is None:
            return missing(f"расстояния из правила «{title}»")
        what = "уничтожен" if event.reason == "friend_destroyed" else "сломлен"
        return Finding("violation", (within.citation(),),
                       f"В фазе «{phase}» журнал не показывает дружественного отряда, который "
                       f"{what} в {within.text} от «{unit.key}»: тест на панику не нужен.")
    said = book.sentence(book.section("Тесты на панику", "Отступило через"), "пробегает через")
    if said is None:
        return missing("правила «Отступило через»")
    return Finding("violation", (said.citation(),),
                   f"В фазе «{phase}» журнал не показывает отступающего отряда, пробежавшего "
                   f"через «{unit.key}»: тест на панику не нужен.")


@tracker("whfb8_panic", systems=SYSTEMS, actions={"panic_test"})
def remember_panic_test(event: BaseEvent, ctx: EventContext) -> None:
    """The unit took its test of this phase; what required it is done."""
    unit = ctx.unit
    if unit is not None:
        st = state(ctx)
        st.panic_tested[unit.key] = (st.clock.phase, ctx.line)
        st.panic_reason.pop(unit.key, None)
        ctx.game.fulfil(PANIC, unit.key)
