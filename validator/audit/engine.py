"""Replay a game log event by event: place each event in the game, run its checks, track it.

:class:`Audit` streams: it yields each verdict (a :class:`~validator.verdicts.VerdictRecord`,
the :class:`~validator.verdicts.Verdict` without its validation cost) and each input error as
soon as it is known, and keeps only an index of the current turn (see
:mod:`validator.audit.state`), so a log of any length or shape is audited in memory bounded
by the armies' size and at a cost per event that does not grow with the turn. For every
event line the walker:

1. notes a turn, or a phase within a player's turn, that goes back (an input error; the
   event is still audited). A phase that goes back where no other player's turn can begin
   is counted as the start of a new turn as well: a game recorded with one turn number is
   then not audited as one endless turn;
2. at a change of turn or phase, reports what the ended phase required and the log lacks
   (a panic test), against the event that required it, and resets the phase's counters;
3. finds the acting unit and the targets in the armies (unknown ids are input errors with
   the nearest ids as suggestions);
4. applies what the event states of its unit (:mod:`validator.audit.stated`), then runs the
   event checks registered for the log's system and the action, and turns their findings
   into verdicts at that line; an action that no check covers, or that every check passes
   over, is ``not_covered`` with a note, never a silent ``ok`` — unless the event named a
   unit the armies lack: its input error already says why it was not checked;
5. records the event in the state and runs the system's state updates.

A header line after the first starts the next game of the file (see
:class:`~validator.inputs.gamelog.NextGame`): what the last phase required is reported and
the state starts again with the new armies.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass, field

from kb.graph import Graph
from kb.lemmas import fold
from kb.models import Node
from kb.names import split_parameter, strip_parenthesised
from validator.audit import stated
from validator.audit.state import Done, GameState, UnitState
from validator.audit.tally import Tally
from validator.inputs.events import EVENT_TYPES, BaseEvent, CasualtiesEvent, UnknownEvent
from validator.inputs.gamelog import GameLog, NextGame
from validator.inputs.models import ArmyList, InputError, nearest
from validator.inputs.roster import Aliases, kb_name, load_aliases
from validator.registry import CHECKS, Check, Finding, checks
from validator.rulebook import Rulebook
from validator.verdicts import VerdictRecord

NOT_COVERED_CHECK = "not_covered"
MISSING_CHECK = "required_not_done"

# Phase order of a turn: in wh40k6 and whfb8 each player has a turn of their own in every game
# turn; in Kill Team the phases of a battle round are shared by both players.
PHASE_ORDER: dict[str, tuple[str, ...]] = {
    "wh40k6": ("movement", "shooting", "assault"),
    "whfb8": ("start", "movement", "magic", "shooting", "close_combat"),
    "killteam2018": ("initiative", "movement", "psychic", "shooting", "fight", "morale"),
}
SHARED_PHASES = {"killteam2018"}

PHASE_TITLES = {
    "start": "начало хода", "movement": "движение", "magic": "магия", "shooting": "стрельба",
    "assault": "наступление", "close_combat": "ближний бой", "initiative": "инициатива",
    "psychic": "психическая фаза", "fight": "бой", "morale": "мораль",
}


@dataclass(slots=True)
class EventContext:
    """What a check of one event sees; one object is reused for every event of a log.

    Attributes:
        book: the rules of the log's system.
        game: the game state before this event.
        event: the event.
        line: its line in the log.
        unit: the acting unit (None when the event names none, or an unknown one).
        targets: the units the event targets, those that were found.
    """

    book: Rulebook
    game: GameState
    event: BaseEvent = field(default_factory=lambda: UnknownEvent(action="?"))
    line: int = 0
    unit: UnitState | None = None
    targets: list[UnitState] = field(default_factory=list)

    @property
    def target(self) -> UnitState | None:
        """The first target, if any."""
        return self.targets[0] if self.targets else None


class Audit:
    """The audit of one game log against one KB; iterate :meth:`run` once."""

    def __init__(self, log: GameLog, graph: Graph, aliases: Aliases | None = None) -> None:
        self.log = log
        self.system = log.system
        self.book = Rulebook(graph, self.system)
        self.aliases = aliases if aliases is not None else load_aliases()
        self.tally = Tally()
        self._file = str(log.path)
        self._checks: dict[str, list[Check]] = {}
        self._updates: dict[str, list[Check]] = {}
        self._hooks: dict[str, tuple[list[stated.Hook], list[stated.Hook]]] = {}
        self._names: dict[str, _Names] = {}
        self._names_of_rules: dict[tuple[str, ...], frozenset[str]] = {}
        self._uncovered: dict[tuple[object, ...], Finding] = {}
        # the actions of FORMATS and those a check names («rally»): the caches hold only these
        self._named = frozenset({*EVENT_TYPES,
                                 *(a for c in CHECKS.values() for a in c.actions or ())})
        self._start(log.armies)

    def _start(self, armies: dict[str, ArmyList]) -> None:
        """Set up the state of a game (the first of the file, or the next)."""
        self.game = GameState(units=self._units(armies))
        self.ctx = EventContext(self.book, self.game)
        self._missing: dict[tuple[str | None, str, str], InputError] = {}
        self.tally.known = self.tally.known | frozenset(self.game.units)
        self._players = frozenset(armies)
        self._phase_index: int | None = None
        self._turn_players: set[str | None] = set()
        self._restarted: tuple[int | None] | None = None  # turn number of the last restart

    # -- set-up ----------------------------------------------------------------------
    def _units(self, armies: dict[str, ArmyList]) -> dict[str, UnitState]:
        units: dict[str, UnitState] = {}
        for player, army in armies.items():
            for unit in army.units:
                key = f"{player}:{unit.id}"
                type_node = self._unit_type(unit.type) if unit.type else None
                units[key] = UnitState(
                    key=key, player=player, unit=unit,
                    types=frozenset(self.book.type_ids(type_node.id if type_node else None)),
                    type_title=type_node.title if type_node else unit.type,
                    rules=self._rule_names([*unit.rules,
                                            *(r for part in unit.parts for r in part.rules)]),
                    keywords=frozenset(k.upper() for k in unit.keywords),
                    size=unit.models, size_at_phase_start=unit.models,
                )
        return units

    def _unit_type(self, written: str) -> Node | None:
        found: Node | None = self.book.unit_type(written)
        alias = kb_name(written, self.system, self.aliases)
        if found is None and alias is not None:
            found = self.book.unit_type(alias)
        return found

    def _rule_names(self, written: Iterable[str]) -> frozenset[str]:
        """Folded names of a unit's declared rules: as written, as the alias table gives them
        in Russian, and as the KB titles them («Skyfire» → «противовоздушное»).

        Looked up once per set of names: a file of many small games names the same units
        again in every header.
        """
        key = tuple(written)
        found = self._names_of_rules.get(key)
        if found is None:
            if len(self._names_of_rules) >= 4096:
                self._names_of_rules.clear()
            found = self._names_of_rules[key] = self._look_up_rules(key)
        return found

    def _look_up_rules(self, written: Iterable[str]) -> frozenset[str]:
        names: set[str] = set()
        for text in written:
            alias = kb_name(text, self.system, self.aliases)
            for name in (text, alias):
                if name is None:
                    continue
                names.add(fold(split_parameter(name)[0]))
                node = self.book.find(name, ("rule", "concept"))
                if node is not None:
                    names.update((fold(node.title), fold(strip_parenthesised(node.title))))
        return frozenset(names)

    def checks_for(self, action: str) -> list[Check]:
        """The event checks of this log's system for an action (looked up once).

        Only actions some check or update names are remembered: a log may name any number
        of actions of its own, and none of them costs memory.
        """
        found = self._checks.get(action)
        if found is None:
            found = checks("event", self.system, action)
            updates = checks("track", self.system, action)
            if action not in self._named and not found and not updates:
                return found
            self._checks[action], self._updates[action] = found, updates
            self._hooks[action] = stated.hooks_for(self.system, action)
        return found

    def _names_for(self, action: str) -> _Names:
        """The names an event with ``action`` is indexed by, for its unit and its targets:
        the action and its system's groups (:func:`~validator.audit.stated.group`); none for
        an action no format names."""
        if action not in EVENT_TYPES:
            return (), (), []
        plain, when = stated.names_of(self.system, action)
        targeted = ("targeted:" + action,) if action in stated.TARGETED.get(self.system, ()) \
            else ()
        names = self._names[action] = (plain, targeted, when)
        return names

    def _updates_for(self, action: str) -> list[Check]:
        updates = self._updates.get(action)
        if updates is None:
            self.checks_for(action)
            updates = self._updates.get(action, [])
        return updates

    def _hooks_for(self, action: str) -> tuple[list[stated.Hook], list[stated.Hook]]:
        hooks = self._hooks.get(action)
        if hooks is None:
            self.checks_for(action)
            hooks = self._hooks.get(action) or stated.hooks_for(self.system, action)
        return hooks

    # -- the walk --------------------------------------------------------------------
    def run(self) -> Iterator[VerdictRecord | InputError]:
        """Every verdict and input error of the log, in the order they are known."""
        out: list[VerdictRecord | InputError] = []
        event_line = self._event
        tally = self.tally
        skipping = False  # in a game whose header could not be used
        for line, item in self.log.events():
            kind = type(item)
            if kind is InputError:
                tally.errors += 1
                yield item  # type: ignore[misc]  # (type() narrows nothing for mypy)
                continue
            if kind is NextGame:
                yield from self._end_phase()
                skipping = not self._next_game(line, item, out)  # type: ignore[arg-type]
                yield from out
                out.clear()
                continue
            if skipping:
                continue
            tally.events += 1
            event_line(line, item, out)  # type: ignore[arg-type]
            yield from out
            out.clear()
        yield from self._end_phase()

    def _next_game(self, line: int, game: NextGame, out: list[VerdictRecord | InputError]
                   ) -> bool:
        """Start the next game of the file; False when its events cannot be audited."""
        if game.header is not None and game.header.system == self.system:
            self._start(game.armies)
            return True
        why = ("заголовок партии не удалось использовать" if game.header is None else
               f"система партии «{game.header.system}» не совпадает с системой первой партии "
               f"файла «{self.system}»")
        self.tally.errors += 1
        out.append(InputError(
            message=f"{why}; события этой партии (до следующего заголовка) не проверяются",
            kind="game", file=self._file, line=line))
        return False

    def _event(self, line: int, event: BaseEvent, out: list[VerdictRecord | InputError]) -> None:
        """Audit one event, appending its verdicts and input errors to ``out``."""
        game = self.game
        fields = event.__dict__  # (faster than the attributes of a pydantic model)
        player = fields["player"]
        if fields["turn"] != game.turn or (fields["phase"] is not None
                                           and fields["phase"] != game.phase):
            out.extend(self._advance(line, event))
        elif player is not None:
            game.player = player
        ctx = self.ctx
        targets: list[UnitState] = []
        ctx.event, ctx.line, ctx.targets = event, line, targets
        # input errors go to ``out`` first (one for each unit not found), then the verdicts
        errors = 0
        unit = None
        unit_id = fields["unit"]
        if unit_id is not None:
            unit = game.units.get(f"{player}:{unit_id}") or self._find_unit(
                unit_id, player, line, "unit", out)
            if unit is None:
                errors = 1
        ctx.unit = unit
        extra = event.__pydantic_extra__
        if extra or type(event) in _TARGETED:
            for index, ref in enumerate(_targets(event)):
                where = "target" if index == 0 and ref == _field(event, "target") else \
                    f"targets[{index}]"
                found = self._find_unit(ref, None, line, where, out)
                if found is not None:
                    targets.append(found)
                else:
                    errors += 1
        covered = errors > 0  # an event with an unknown unit: its error says why
        says: dict[str, bool] = {}
        if extra or fields.get("moved") is not None:
            says, wrong = stated.read(event)
            out.extend(InputError(message="ожидалось true или false", kind="type",
                                  path=(name,), expected="true или false",
                                  file=self._file, line=line) for name in wrong)
            if says and unit is not None:
                stated.note(game, unit, line, says)
            errors += len(wrong)
        if errors:
            self.tally.errors += errors
        key = unit.key if unit is not None else (
            self.tally.key(_written_unit(event)) if unit_id is not None else None)
        action = fields["action"]
        hooks = self._hooks.get(action)
        always, stating = hooks if hooks is not None else self._hooks_for(action)
        for hook in always:
            hook(event, ctx)
        if says:
            for hook in stating:
                hook(event, ctx)
        counts = self.tally.counts
        if type(event) is not UnknownEvent:
            registered = self._checks.get(action)
            for check in registered if registered is not None else self.checks_for(action):
                try:
                    for finding in check.func(event, ctx):
                        out.append(VerdictRecord(finding.verdict, finding.rules, finding.why,
                                                 check.name, finding.suggestions, line, key,
                                                 action))
                        counts[(key, finding.verdict)] += 1
                        covered = True
                except Exception as exc:  # noqa: BLE001 — a faulty check must not end the audit
                    out.append(VerdictRecord(
                        "not_covered", (), f"Проверка «{check.name}» не смогла оценить событие "
                        f"из-за внутренней ошибки ({type(exc).__name__}: {exc}); это ошибка "
                        f"rulekb, а не журнала.", check.name, (), line, key, action))
                    counts[(key, "not_covered")] += 1
                    covered = True
        if not covered:
            known = action in self._named
            why_key = (action if known else None, event.phase, isinstance(event, UnknownEvent),
                       unit.type_title if unit is not None else None)
            uncovered = self._uncovered.get(why_key) if known else None
            if uncovered is None:
                uncovered = self._not_covered(event)
                if known:
                    self._uncovered[why_key] = uncovered
            out.append(VerdictRecord(uncovered.verdict, uncovered.rules, uncovered.why,
                                     NOT_COVERED_CHECK, (), line, key, action))
            counts[(key, uncovered.verdict)] += 1
        self._record(line, event)

    def _not_covered(self, event: BaseEvent) -> Finding:
        phase = f" в фазе «{PHASE_TITLES[event.phase]}»" if event.phase else ""
        if isinstance(event, UnknownEvent) or event.action not in EVENT_TYPES:
            why = (f"Действие «{event.action}» не входит в форматы журнала, и в базе знаний "
                   f"нет правила, по которому его можно проверить{phase}.")
        elif not self.checks_for(event.action):
            why = (f"Для действия «{event.action}» в системе {self.system} нет проверки, "
                   f"связанной с правилами базы знаний{phase}.")
        else:
            who = self.ctx.unit.type_title if self.ctx.unit and self.ctx.unit.type_title else None
            of = f" для отряда типа «{who}»" if who else ""
            why = (f"Ни одно правило базы знаний не ограничивает действие «{event.action}»"
                   f"{of}{phase}.")
        return Finding("not_covered", (), why)

    def _find_unit(self, ref: str, player: str | None, line: int, field_name: str,
                   errors: list[VerdictRecord | InputError]) -> UnitState | None:
        if ":" in ref:
            player, unit_id = ref.split(":", 1)
        else:
            unit_id = ref
        if player is not None:
            found = self.game.units.get(f"{player}:{unit_id}")
            if found is not None:
                return found
        else:
            matches = self.game.by_id.get(unit_id, ())
            if len(matches) == 1:
                return matches[0]
        # a log misspells the same unit on many lines: the message is found once
        cache_key = (player, unit_id, field_name)
        found_error = self._missing.get(cache_key)
        if found_error is None:
            if len(self._missing) >= 1024:
                self._missing.clear()
            found_error = self._missing[cache_key] = self._missing_unit(player, unit_id,
                                                                        field_name)
        errors.append(found_error.model_copy(update={"line": line}))
        return None

    def _missing_unit(self, player: str | None, unit_id: str, field_name: str) -> InputError:
        players = self.game.players()
        if player is not None and player not in players:
            return InputError(
                message=f"игрока «{player}» в партии нет (игроки: {', '.join(players)})",
                kind="unknown_player", path=("player" if field_name == "unit" else field_name,),
                file=self._file)
        known = [k for k in self.game.units if player is None or k.startswith(f"{player}:")]
        close = nearest(f"{player}:{unit_id}" if player else unit_id, known, limit=3, cutoff=50)
        hint = f"; возможно: {', '.join(f'«{c}»' for c in close)}" if close else ""
        whose = f"армии игрока {player}" if player else "армиях партии"
        return InputError(message=f"отряда «{unit_id}» нет в {whose}{hint}",
                          kind="unknown_unit", path=(field_name,), file=self._file)

    # -- turns and phases -------------------------------------------------------------
    def _advance(self, line: int, event: BaseEvent) -> Iterator[VerdictRecord | InputError]:
        game = self.game
        turn, phase = event.turn, event.phase
        if turn is not None and game.turn is not None and turn < game.turn:
            self.tally.errors += 1
            yield InputError(
                message=f"события идут не по порядку: ход {turn} после хода {game.turn}",
                kind="order", path=("turn",), file=self._file, line=line)
        restarted = yield from self._phase_order(line, event)
        new_turn = (turn is not None and turn != game.turn) or restarted
        new_phase = new_turn or (phase is not None and phase != game.phase)
        if new_phase and (game.turn is not None or game.phase is not None):
            yield from self._end_phase()
        if new_turn:
            game.start_turn()
            game.turn = turn
        if new_phase:
            if game.counted:
                game.start_phase()
            else:
                game.phase_serial += 1
            game.phase = phase if phase is not None else game.phase
        if event.player is not None:
            game.player = event.player

    def _phase_order(self, line: int, event: BaseEvent) -> Generator[InputError, None, bool]:
        """A phase that goes back within a turn (a player's own turn in 40k and WHFB).

        In 40k and WHFB the phases start again once per player and game turn, when that
        player's turn begins; the other player's units may act in a phase meanwhile (close
        combat, shooting at them), so going back is only out of order for a player whose
        turn has already begun. Returns (as a generator's value) whether the phase went
        back out of order: the walker then counts a new turn, which the log did not number.
        """
        order = PHASE_ORDER.get(self.system)
        if order is None or event.phase not in order:
            return False
        game, index = self.game, order.index(event.phase)
        if event.turn is not None and event.turn != game.turn:
            self._phase_index, self._turn_players = index, {event.player}
            return False
        last = self._phase_index
        self._phase_index = index
        if last is None or index >= last:
            if last is None:
                self._turn_players = {event.player}
            return False
        if self.system not in SHARED_PHASES and event.player not in self._turn_players and (
                event.player is None or event.player in self._players):
            self._turn_players.add(event.player)  # the next player's turn begins
            return False
        self._turn_players = {event.player}
        if self._restarted != (game.turn,):  # once per turn number: the rest is the same slip
            self._restarted = (game.turn,)
            self.tally.errors += 1
            yield InputError(
                message=f"события идут не по порядку: фаза «{PHASE_TITLES[event.phase]}» после "
                        f"фазы «{PHASE_TITLES[order[last]]}» в том же ходе; дальше аудит считает "
                        f"их следующим ходом (и так при каждом возврате фазы, пока номер хода не "
                        f"сменится)",
                kind="order", path=("phase",), file=self._file, line=line)
        return True

    def _end_phase(self) -> Iterator[VerdictRecord]:
        """What the ended phase required and the log does not show, at the lines requiring it."""
        pending, self.game.obligations = self.game.obligations, []
        for obligation in pending:
            finding = obligation.finding
            assert isinstance(finding, Finding)
            verdict = VerdictRecord(finding.verdict, finding.rules, finding.why,
                                    MISSING_CHECK + ":" + obligation.kind, finding.suggestions,
                                    obligation.line, obligation.unit, obligation.action)
            self.tally.add(verdict)
            yield verdict

    # -- state -----------------------------------------------------------------------
    def _record(self, line: int, event: BaseEvent) -> None:
        ctx, game = self.ctx, self.game
        action = event.action
        names = self._names.get(action)
        if names is None:
            names = self._names_for(action)
        unit = ctx.unit
        if unit is not None:
            own = names[0]
            if names[2]:  # groups by a field's value: a Retreat, a jump-pack move
                fields = event.__dict__
                own = (*own, *(name for name, (field_name, values) in names[2]
                               if fields.get(field_name) in values))
            unit.record(Done(action, game.turn, game.phase, line, event), own)
            if type(event) is CasualtiesEvent:
                game.lose(unit, event.count, event.unit_size_at_phase_start)
        targets = ctx.targets
        if targets:
            targeted = Done("targeted:" + action, game.turn, game.phase, line, event)
            for target in targets:
                target.record(targeted, names[1])
        updates = self._updates.get(action)
        for update in updates if updates is not None else self._updates_for(action):
            update.func(event, ctx)


_Names = tuple[tuple[str, ...], tuple[str, ...], list[tuple[str, stated.Where]]]
"""What an action's events are indexed by: for the unit, for its targets, by a field's value."""

_TARGETED = frozenset(cls for cls in EVENT_TYPES.values()
                      if "target" in cls.model_fields or "targets" in cls.model_fields)
"""Event classes that may name targets (others skip the target lookup)."""


def _targets(event: BaseEvent) -> list[str]:
    # fields live in __dict__, extras in __pydantic_extra__; getattr on a field an event
    # class lacks goes through pydantic's slow __getattr__, and this runs for every event
    fields = event.__dict__
    extra = event.__pydantic_extra__ or {}
    target = fields.get("target", extra.get("target"))
    many = fields.get("targets", extra.get("targets")) or ()
    if isinstance(many, str):
        many = (many,)
    if target is None and not many:
        return []
    out = [target] if isinstance(target, str) else []
    out.extend(t for t in many if isinstance(t, str) and t not in out)
    return out


def _field(event: BaseEvent, name: str) -> object:
    extra = event.__pydantic_extra__ or {}
    return event.__dict__.get(name, extra.get(name))


def _written_unit(event: BaseEvent) -> str | None:
    if event.unit is None:
        return None
    return f"{event.player}:{event.unit}" if event.player else event.unit
