"""What the audit checks of every system share: per-book lookups, citations, findings, fields.

The check modules of :mod:`~validator.audit.wh40k6`, :mod:`~validator.audit.whfb8` and
:mod:`~validator.audit.killteam2018` read their rules from the log's
:class:`~validator.rulebook.Rulebook`; this module holds only the bookkeeping around that:

- :func:`remember`: what a check derives from the book (the sections and sentences it cites,
  a rule's facts gathered in one object), computed once per book — the audit asks the same
  questions for every event of a log and must keep 50,000 events a second;
- :func:`cite`: the citations of the sentences and facts found, built once per book;
- :func:`missing`: the ``not_covered`` finding of a check whose rule the KB lacks;
- :func:`tracker`: registers a state update (``state_update``) with its own type;
- :func:`extra`, :func:`inches`, :func:`dice_range`: an event's field beyond FORMATS §3, a
  distance as the reports write it, what a dice fact can roll.

Example::

    rules = remember(ctx.book, ("bike rules",), lambda: BikeRules.of(ctx.book))
    if rules.cannot_run is None:
        yield missing("запрета бега для мотоциклов и гравициклов")
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, TypeVar, cast

from validator.registry import CheckFunction, Finding, state_update
from validator.rulebook import FoundFact, Rulebook, Sentence
from validator.verdicts import RuleCitation

T = TypeVar("T")
Update = TypeVar("Update", bound=Callable[..., None])


class _LastBook:
    """The book asked last and its lookups (which live in the book: ``Rulebook.remember``).

    A log is audited with one book, so remembering the last one spares every lookup the
    call to ``Rulebook.remember``: one identity test finds the lookups (the audit must keep
    50,000 events a second). Another book (the next log) takes the slot; each book's lookups
    stay in that book and go with it, so only the last book is kept alive by the slot.
    """

    book: Rulebook | None = None
    lookups: dict[tuple[object, ...], Any] = {}


def remember(book: Rulebook, key: tuple[object, ...], compute: Callable[[], T]) -> T:
    """``compute()``, once per ``key`` for the life of ``book`` (see ``Rulebook.remember``).

    A key starts with what it is for (``("bike rules",)``, ``("sentence", title, stems)``);
    the systems never share a book, so one system's keys need only differ from each other
    and from the ``("cite", …)`` of :func:`cite`.
    """
    if _LastBook.book is not book:
        _LastBook.book = book
        _LastBook.lookups = book.remember(("validator.audit.common",), dict)
    lookups = _LastBook.lookups
    try:
        return lookups[key]  # type: ignore[no-any-return]  # (cast would cost a call)
    except KeyError:
        value = lookups[key] = compute()
        return value


def cite(*found: Sentence | FoundFact | None) -> tuple[RuleCitation, ...]:
    """The citations of the sentences and facts found (those that were), built once per book.

    Example::

        Finding("violation", cite(rule, dice), why)   # rule: Sentence, dice: FoundFact | None
    """
    for first in found:
        if first is not None:
            break
    else:
        return ()
    book = first.book
    if _LastBook.book is not book:
        remember(book, ("cite",), tuple)  # makes ``book`` the last book
    lookups = _LastBook.lookups
    key = ("cite", *map(id, found))
    kept = lookups.get(key)  # (remember's work, inline: a verdict of every event cites)
    if kept is None:
        # the value keeps the objects alive, so no other object can take their ids meanwhile
        kept = lookups[key] = (found, tuple(f.citation() for f in found if f is not None))
    citations: tuple[RuleCitation, ...] = kept[1]
    return citations


def missing(what: str) -> Finding:
    """A ``not_covered`` finding: the KB lacks what the check needs, and it never guesses.

    ``what`` is a noun phrase in the genitive: ``missing("предела отхода в правиле «Отход»")``
    says «В базе знаний нет предела отхода в правиле «Отход», поэтому проверить нельзя.»
    """
    return Finding("not_covered", (), f"В базе знаний нет {what}, поэтому проверить нельзя.")


def tracker(name: str, *, systems: Collection[str],
            actions: Collection[str]) -> Callable[[Update], Update]:
    """Register a state update ``func(event, ctx) -> None`` of some systems' games.

    The same as :func:`~validator.registry.state_update`, but the function keeps its own
    type (the registry types what it holds as checks, which yield findings).
    """
    register = state_update(name, systems=systems, actions=actions)

    def decorate(func: Update) -> Update:
        register(cast(CheckFunction, func))
        return func

    return decorate


def extra(obj: object, name: str) -> object:
    """A field the log added to an event or a weapon beyond FORMATS §3, or None.

    FORMATS is only ever extended, so events keep the fields they do not define; some checks
    read them (``locked_in_combat``, ``role``, ``multiple_shots``).
    """
    fields = getattr(obj, "model_extra", None) or {}
    return fields.get(name)


def inches(value: float) -> str:
    """A distance as the rules and the reports write it: ``30.0`` → ``30"``, ``7.5`` → ``7.5"``."""
    return f'{value:g}"'


def dice_range(fact: FoundFact) -> tuple[int, int] | None:
    """The lowest and highest total of a dice fact (``2D6`` → 2, 12), or None for another."""
    value = fact.value
    if not isinstance(value, dict):
        return None
    count, sides, modifier = value.get("count"), value.get("sides"), value.get("modifier", 0)
    if not (isinstance(count, int) and isinstance(sides, int) and isinstance(modifier, int)):
        return None
    return count + modifier, count * sides + modifier
