"""whfb8 checks of deployment special rules: Vanguard, Scouts, Ambushers.

The game state knows where deployment stands: the line of the first event that is not
deployment (a ``deploy`` or ``reserve_roll``) is where the first turn began, and its player
has the first turn; the lines of the first Vanguard move and the first Scouts deployment
give the order the rules demand.
"""

from __future__ import annotations

from collections.abc import Iterator

from validator.audit.common import inches, missing, tracker
from validator.audit.engine import EventContext
from validator.audit.whfb8_common import (
    SYSTEMS,
    state,
    uses_rule,
)
from validator.inputs.events import BaseEvent, ChargeEvent, DeployEvent, ReserveRollEvent
from validator.registry import Finding, event_check

DEPLOYMENT_ACTIONS = frozenset({"deploy", "reserve_roll"})


# -- Vanguard -----------------------------------------------------------------------------
@event_check("vanguard", systems=SYSTEMS, actions={"deploy"})
def vanguard(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """Vanguard: after every unit and the Scouts are deployed, before the first turn, at most
    the rule's distance and never closer to the enemy than it allows."""
    assert isinstance(event, DeployEvent)
    if event.special != "vanguard" or ctx.unit is None:
        return
    book = ctx.book
    rule = book.section("Специальные Правила расстановки", "Авангард")
    reach = book.fact(rule, name="max_distance")
    keep_off = book.fact(rule, name="min_distance")
    if rule is None or reach is None or keep_off is None:
        yield missing("правила «Авангард» и его расстояний")
        return
    most, least = inches(reach.number), inches(keep_off.number)
    if not uses_rule(ctx, rule, ctx.unit):
        yield Finding("violation", (reach.citation(),),
                      "У отряда нет правила «Авангард», а он делает движение Авангарда.")
        return
    st = state(ctx)
    found = False
    if st.play_started is not None:
        found = True
        yield Finding("violation", (reach.citation(),),
                      f"Движение Авангарда сделано после начала первого хода (строка "
                      f"{st.play_started}), а делается до него.")
    if event.move_distance is not None and event.move_distance > reach.number:
        found = True
        yield Finding("violation", (reach.citation(),),
                      f"Авангард движется не дальше чем на {most}, заявлено "
                      f"{inches(event.move_distance)}.")
    if event.distance_to_enemy is not None and event.distance_to_enemy < keep_off.number:
        found = True
        yield Finding("violation", (keep_off.citation(),),
                      f"Авангард не подходит к противнику ближе чем на {least}, а "
                      f"остановился в {inches(event.distance_to_enemy)}.")
    if not found:
        moved = inches(event.move_distance) if event.move_distance is not None else "—"
        yield Finding("ok", (reach.citation(), keep_off.citation()),
                      f"Авангард: движение {moved} при пределе {most}, до противника не ближе "
                      f"{least}.")


# -- Scouts -------------------------------------------------------------------------------
@event_check("scouts", systems=SYSTEMS, actions={"deploy"})
def scouts(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """Scouts: deployed after every other unit, in their zone or no closer to the enemy than
    the rule allows; and no unit deploys normally after them."""
    assert isinstance(event, DeployEvent)
    book = ctx.book
    rule = book.section("Специальные Правила расстановки", "Разведчики")
    after_all = book.sentence(rule, "после того, как все остальные")
    keep_off = book.fact(rule, name="min_distance")
    st = state(ctx)
    if ctx.unit is None:
        return
    if (event.special is None and st.scouts_line is not None and st.play_started is None
            and after_all is not None):
        yield Finding("violation", (after_all.citation(),),
                      f"Отряд выставлен после Разведчиков (строка {st.scouts_line}), а "
                      "Разведчики выставляются последними.")
    if event.special != "scouts":
        return
    if rule is None or after_all is None or keep_off is None:
        yield missing("правила «Разведчики» и его расстояния")
        return
    if not uses_rule(ctx, rule, ctx.unit):
        yield Finding("violation", (after_all.citation(),),
                      "У отряда нет правила «Разведчики», а он выставлен как Разведчики.")
        return
    vanguard_rule = book.section("Специальные Правила расстановки", "Авангард")
    vanguard_order = book.sentence(vanguard_rule, "включая разведчиков")
    if st.vanguard_line is not None and vanguard_order is not None:
        yield Finding("violation", (vanguard_order.citation(),),
                      f"Разведчики выставлены после движения Авангарда (строка "
                      f"{st.vanguard_line}), а Авангард движется после них.")
        return
    if st.play_started is not None:
        yield Finding("violation", (after_all.citation(),),
                      f"Разведчики выставлены после начала первого хода (строка "
                      f"{st.play_started}).")
        return
    zone = book.sentence(rule, "зоне расстановки")
    least = inches(keep_off.number)
    if event.in_deployment_zone:
        yield Finding("ok", ((zone or after_all).citation(),),
                      "Разведчики выставлены в своей зоне расстановки.")
    elif event.distance_to_enemy is None:
        yield Finding("not_covered", (keep_off.citation(),),
                      "Разведчики выставлены вне своей зоны, но расстояние до противника в "
                      "журнале не указано.")
    elif event.distance_to_enemy < keep_off.number:
        yield Finding("violation", (keep_off.citation(),),
                      f"Разведчики вне своей зоны выставляются не ближе {least} к противнику, "
                      f"а выставлены в {inches(event.distance_to_enemy)}.")
    else:
        yield Finding("ok", (keep_off.citation(),),
                      f"Разведчики выставлены в {inches(event.distance_to_enemy)} от противника, "
                      f"не ближе {least}.")


@event_check("scouts_first_turn_charge", systems=SYSTEMS, actions={"charge"})
def scouts_first_turn_charge(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """Scouts deployed outside their zone do not charge in the first round if their side has
    the first turn (where a deployment rule's text says so)."""
    assert isinstance(event, ChargeEvent)
    unit = ctx.unit
    if unit is None or unit.flags.get("whfb8:scouts_anywhere") is not True:
        return
    rule = ctx.book.section("Специальные Правила расстановки", "Разведчики")
    no_charge = ctx.book.sentence(rule, "не могут объявлять нападени")
    if no_charge is None:
        return
    st = state(ctx)
    if st.first_turn is None or ctx.game.turn != st.first_turn:
        return
    if st.first_player == unit.player:
        yield Finding("violation", (no_charge.citation(),),
                      f"Разведчики выставлены вне своей зоны, их сторона ходит первой: в "
                      f"первый раунд (ход {ctx.game.turn}) они не объявляют нападений.")
    else:
        yield Finding("ok", (no_charge.citation(),),
                      "Разведчики выставлены вне своей зоны, но их сторона ходит второй: "
                      "нападать в первый раунд можно.")


# -- Ambushers ----------------------------------------------------------------------------
@event_check("ambushers", systems=SYSTEMS, actions={"reserve_roll", "deploy"})
def ambushers(event: BaseEvent, ctx: EventContext) -> Iterator[Finding]:
    """Ambushers: not deployed with the army; from the rule's round a D6 brings them on."""
    book = ctx.book
    rule = book.section("Специальные Правила расстановки", "Засадники")
    unit = ctx.unit
    if unit is None:
        return
    if isinstance(event, DeployEvent):
        if event.special != "ambushers":
            return
        yield from _ambushers_arrive(event, ctx)
        return
    assert isinstance(event, ReserveRollEvent)
    if not uses_rule(ctx, rule, unit):
        return
    start = book.fact(rule, name="from_round")
    arrive = book.fact(rule, name="roll")
    delay = book.fact(rule, name="roll_range")
    if start is None or arrive is None or delay is None:
        yield missing("раунда и броска, с которыми выходят Засадники")
        return
    if ctx.game.turn is not None and ctx.game.turn < start.number:
        yield Finding("violation", (start.citation(),),
                      f"Засадники бросают кубик на выход {start.text}, а бросок сделан в ходе "
                      f"{ctx.game.turn}.")
        return
    arrives = event.roll >= arrive.number
    cited = arrive.citation() if arrives else delay.citation()
    outcome = "выходит на поле боя" if arrives else "задерживается"
    wanted = "arrives" if arrives else "delayed"
    if event.claimed is not None and event.claimed != wanted:
        said = "выходит" if event.claimed == "arrives" else "задерживается"
        yield Finding("violation", (cited,),
                      f"Засадники: выпало {event.roll} — подразделение {outcome} (на "
                      f"{arrive.text} выходит, на {delay.text} задерживается), а заявлено, что "
                      f"{said}.")
    else:
        yield Finding("ok", (cited,), f"Засадники: выпало {event.roll} — подразделение "
                                      f"{outcome}.")


def _ambushers_arrive(event: DeployEvent, ctx: EventContext) -> Iterator[Finding]:
    rule = ctx.book.section("Специальные Правила расстановки", "Засадники")
    unit = ctx.unit
    apart = ctx.book.sentence(rule, "не выставляются на поле боя вместе")
    arrive = ctx.book.fact(rule, name="roll")
    if apart is None or arrive is None:
        yield missing("правила «Засадники»")
        return
    if not uses_rule(ctx, rule, unit):
        yield Finding("violation", (apart.citation(),),
                      "У отряда нет правила «Засадники», а он выходит как Засадники.")
        return
    rolled = unit.flags.get("whfb8:ambush_roll") if unit is not None else None
    if isinstance(rolled, int) and rolled >= arrive.number:
        yield Finding("ok", (arrive.citation(),),
                      f"Засадники выходят на поле боя после броска {rolled}.")
    elif isinstance(rolled, int):
        yield Finding("violation", (arrive.citation(),),
                      f"Засадники выходят на поле боя, а последний бросок — {rolled}, выход "
                      f"лишь на {arrive.text}.")
    else:
        yield Finding("violation", (apart.citation(),),
                      "Засадники выставлены без броска на выход, а вместе с армией они не "
                      "выставляются.")


@tracker("whfb8_deployment", systems=SYSTEMS, actions={"deploy", "reserve_roll"})
def remember_deployment(event: BaseEvent, ctx: EventContext) -> None:
    """Where deployment stands: Vanguard moved, Scouts placed, an Ambushers' roll."""
    st = state(ctx)
    unit = ctx.unit
    if isinstance(event, DeployEvent):
        if event.special == "vanguard" and st.vanguard_line is None:
            st.vanguard_line = ctx.line
        elif event.special == "scouts":
            if st.scouts_line is None:
                st.scouts_line = ctx.line
            if unit is not None and not event.in_deployment_zone:
                unit.flags["whfb8:scouts_anywhere"] = True
    elif isinstance(event, ReserveRollEvent) and unit is not None:
        # a roll made before the rule allows one brings no one on
        rule = ctx.book.section("Специальные Правила расстановки", "Засадники")
        start = ctx.book.fact(rule, name="from_round")
        if start is None or ctx.game.turn is None or ctx.game.turn >= start.number:
            unit.flags["whfb8:ambush_roll"] = event.roll


def start_of_play(ctx: EventContext, event: BaseEvent) -> None:
    """Note the first event that is not deployment: the first turn, and who has it."""
    st = state(ctx)
    if st.play_started is None and event.action not in DEPLOYMENT_ACTIONS:
        st.play_started = ctx.line
        st.first_player = event.player
        st.first_turn = ctx.game.turn
