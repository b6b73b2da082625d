"""Name lookup: which rule, unit type or concept of the KB a name in a list, log or text means.

A :class:`NameIndex` is built once from the KB's nodes and answers three questions:

- :meth:`NameIndex.find`: the nodes a name may mean, best first, each with how it matched
  (``exact`` text, same ``lemma`` key, or ``fuzzy``: a typo);
- :meth:`NameIndex.resolve`: the one node a name certainly means, or ``None``: it never guesses;
- :meth:`NameIndex.suggest`: the nearest known names, for a message.

:meth:`NameIndex.get` is :meth:`~NameIndex.resolve` that raises :class:`LookupFailed`, whose
Russian text says what was tried and offers the nearest names.

Each title and alias is looked up by two keys: its folded text (lower case, ё → е, hyphens and
punctuation as spaces) and its lemma key (:func:`kb.lemmas.lemma_key`). A name with a
parenthesised part is also known without it ("Сопротивление магии (1-3)" as
"Сопротивление магии"). A name that carries a parameter ("Регенерация (5+)") is looked up
without it when the whole name is unknown (:func:`split_parameter`).

Example::

    index = NameIndex(kb.nodes)
    index.resolve("Смертельного Удара", "whfb8")    # Node(rule, whfb8:smertelnyi-udar, …)
    index.find("Гравицыклы", "wh40k6")[0].how       # 'fuzzy'
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict
from rapidfuzz import fuzz, process

from kb.lemmas import fold, lemma_key
from kb.models import Node, NodeKind

# The kinds a name can mean, in the order that breaks ties between equal scores.
NAMED_KINDS: tuple[NodeKind, ...] = ("unit_type", "rule", "concept")
KIND_ORDER: dict[str, int] = {kind: i for i, kind in enumerate(NAMED_KINDS)}

FUZZY_CUTOFF = 75
"""A typo must be at least this similar (0-100) to be found at all."""
CERTAIN_SCORE = 90
"""A typo resolves only when it is at least this similar to a name …"""
CERTAIN_MARGIN = 5
"""… and this many points ahead of the next node."""
SUGGEST_CUTOFF = 60
"""Names less similar than this are not worth offering in a message."""

How = Literal["exact", "lemma", "fuzzy"]

_HYPHENS_RE = re.compile(r"[-‐‑‒–—]")
_KEY_WORD_RE = re.compile(r"[0-9a-zа-я]+")
_PAREN_RE = re.compile(r"\s*\([^()]*\)")
# A parameter after the name: "(5+)", "Х 2", "5+", "D3", "1-3".
_PARAMETER_RES = (
    re.compile(r"^(?P<base>.*?\S)\s*\((?P<param>[^()]*)\)$"),
    re.compile(r"^(?P<base>.*?\S)\s+(?P<param>[XxХх×]\s*\d+)$"),
    re.compile(r"^(?P<base>.*?\S)\s+(?P<param>\d*[DdДдKkКк]\d+(?:[+-]\d+)?|\d+(?:[-–]\d+)?\+?)$"),
)
_LETTER_RE = re.compile(r"[A-Za-zА-Яа-яЁё]")


class NameMatch(BaseModel):
    """One node a name may mean.

    Attributes:
        node_id: the node's id.
        title: the node's title.
        system: the node's game system.
        kind: ``unit_type``, ``rule`` or ``concept``.
        score: similarity 0-100; exact and lemma matches score 100.
        how: ``exact`` (same folded text), ``lemma`` (same lemma key) or ``fuzzy``.
        matched: the name as the KB writes it that matched: the title, an alias, or one of
            them without its parenthesised part.
        parameter: the parameter split off the looked-up name to match ("5+"), if any.
    """

    model_config = ConfigDict(frozen=True)

    node_id: str
    title: str
    system: str
    kind: NodeKind
    score: int
    how: How
    matched: str
    parameter: str | None = None

    def __repr__(self) -> str:
        return f"NameMatch({self.node_id}, {self.how} {self.score}, {self.matched!r})"


class LookupFailed(Exception):
    """A name that does not certainly mean one node; the text (Russian) says what was tried.

    Attributes:
        name: the name as given.
        system: the game system searched (``None``: all).
        kinds: the node kinds searched.
        tried: the forms of the name that were looked up (the name, then without parameter).
        suggestions: the nearest known names (when nothing matched).
        candidates: the nodes the name equally means (when it is ambiguous).
    """

    def __init__(
        self,
        name: str,
        system: str | None,
        kinds: Collection[str],
        tried: Iterable[str],
        suggestions: Iterable[NameMatch] = (),
        candidates: Iterable[NameMatch] = (),
    ) -> None:
        self.name = name
        self.system = system
        self.kinds = tuple(kinds)
        self.tried = tuple(tried)
        self.suggestions = tuple(suggestions)
        self.candidates = tuple(candidates)
        super().__init__(self._message())

    def _message(self) -> str:
        where = f"в системе {self.system}" if self.system else "ни в одной системе"
        if self.candidates:
            listed = ", ".join(f"«{c.title}» ({c.node_id})" for c in self.candidates)
            return f"Название «{self.name}» {where} неоднозначно; подходят: {listed}"
        noun = _kind_noun(self.kinds)
        also = "".join(f" (пробовали также «{t}»)" for t in self.tried[1:])
        if self.suggestions:
            near = ", ".join(f"«{s.matched}» ({s.score})" for s in self.suggestions)
            tail = f"ближайшие: {near}"
        else:
            tail = "похожих названий нет"
        return f"Не {noun} «{self.name}»{also} {where}; {tail}"


def _kind_noun(kinds: Collection[str]) -> str:
    """The words after «Не»: the noun of the kinds looked for, and a verb that agrees with it."""
    wanted = set(kinds) & set(NAMED_KINDS)
    if wanted == {"unit_type"}:
        return "найден тип"
    if wanted == {"rule"}:
        return "найдено правило"
    if wanted == {"concept"}:
        return "найдено понятие"
    return "найдено название"


def text_key(text: str) -> str:
    """The folded-text key of a name: lower case, ё → е, words only, hyphens as spaces.

    >>> text_key("Турбо-Ускорение (12\\")")
    'турбо ускорение 12'
    """
    return " ".join(_KEY_WORD_RE.findall(_HYPHENS_RE.sub(" ", fold(text))))


def name_lemma_key(text: str) -> str:
    """The lemma key of a name, hyphens read as spaces ("турбо ускорение" = "Турбо-ускорения")."""
    return lemma_key(_HYPHENS_RE.sub(" ", text))


def strip_parenthesised(text: str) -> str:
    """``text`` without its parenthesised parts, or ``""`` when nothing else is left.

    >>> strip_parenthesised("Эльдарские (и тёмноэльдарские) гравициклы")
    'Эльдарские гравициклы'
    """
    return " ".join(_PAREN_RE.sub(" ", text).split())


def split_parameter(name: str) -> tuple[str, str | None]:
    """Split a trailing parameter off a name; the parameter is kept as written.

    >>> split_parameter("Регенерация (5+)")
    ('Регенерация', '5+')
    >>> split_parameter("Многочисленные выстрелы Х 2")
    ('Многочисленные выстрелы', 'Х 2')
    >>> split_parameter("Эльдарские (и тёмноэльдарские) гравициклы")
    ('Эльдарские (и тёмноэльдарские) гравициклы', None)
    """
    text = " ".join(name.split())
    for pattern in _PARAMETER_RES:
        m = pattern.match(text)
        if m and _LETTER_RE.search(m["base"]):
            param = " ".join(m["param"].split())
            return m["base"], param or None
    return text, None


@dataclass(frozen=True, slots=True)
class _Name:
    """One way the KB writes a node's name, with its lookup keys."""

    node: Node
    text: str
    origin: str  # the title or alias this name is (or is derived from)
    derived: bool  # parenthesised part removed: ranks below the names as written
    exact: str
    lemma: str


class _Choices:
    """The fuzzy-match candidates of one system (or of all): parallel key lists."""

    def __init__(self) -> None:
        self.exact: list[str] = []
        self.lemma: list[str] = []
        self.names: list[int] = []


class NameIndex:
    """Look up rule, unit-type and concept nodes by name (see the module docstring).

    Args:
        nodes: the KB's nodes; kinds other than ``rule``, ``unit_type`` and ``concept``
            are skipped, and so are passages (``category: passage``: titled by their first
            words, they name nothing).
    """

    def __init__(self, nodes: Iterable[Node]) -> None:
        self._names: list[_Name] = []
        self._nodes: dict[str, Node] = {}
        self._by_exact: dict[str, list[int]] = {}
        self._by_lemma: dict[str, list[int]] = {}
        self._choices: dict[str | None, _Choices] = {None: _Choices()}
        # (a passage's title is its first words, no name: it is found by its id and its text)
        for node in sorted((n for n in nodes if n.kind in KIND_ORDER
                            and n.category != "passage"), key=lambda n: n.id):
            self._nodes[node.id] = node
            seen: set[str] = set()
            for written in (node.title, *node.aliases):
                bare = strip_parenthesised(written)
                variants = [(written, False)]
                if bare and bare != written:
                    variants.append((bare, True))
                for text, derived in variants:
                    exact = text_key(text)
                    if not exact or exact in seen:
                        continue
                    seen.add(exact)
                    self._add(_Name(node, text, written, derived, exact, name_lemma_key(text)))

    def _add(self, name: _Name) -> None:
        index = len(self._names)
        self._names.append(name)
        self._by_exact.setdefault(name.exact, []).append(index)
        self._by_lemma.setdefault(name.lemma, []).append(index)
        for system in (None, name.node.system):
            choices = self._choices.setdefault(system, _Choices())
            choices.exact.append(name.exact)
            choices.lemma.append(name.lemma)
            choices.names.append(index)

    def __len__(self) -> int:
        return len(self._nodes)

    # -- public lookups ------------------------------------------------------------------

    def find(
        self,
        name: str,
        system: str | None = None,
        kinds: Collection[str] | None = None,
        limit: int = 5,
    ) -> list[NameMatch]:
        """The nodes ``name`` may mean, best first, at most ``limit``, one match per node.

        Exact and lemma matches (score 100) are returned when there are any, the name as
        given before the name without its parameter; otherwise typos scoring at least
        :data:`FUZZY_CUTOFF`. Ties go by kind (unit type, rule, concept), then id.

        Args:
            name: a name as a user or a rule text writes it ("Регенерацию", "Гравицыклы").
            system: only this game system's nodes; ``None``: all systems.
            kinds: only nodes of these kinds; ``None``: unit types, rules and concepts.
            limit: the most matches to return.

        Example:
            ``index.find("регенирация", "whfb8")[0]`` is
            ``NameMatch(whfb8:regeneraciya, fuzzy 91, 'Регенерация')``.
        """
        kinds = _kind_set(kinds)
        certain = self._certain(name, system, kinds)
        if certain:
            return [match for _, match in certain][:limit]
        return self._fuzzy(name, system, kinds)[:limit]

    def resolve(self, name: str, system: str, kinds: Collection[str] | None = None) -> Node | None:
        """The node ``name`` certainly means in ``system``, or ``None``.

        Certain is: one node by exact text or lemma key (the name as written beats a name
        without its parenthesised part, exact beats lemma), or one typo match scoring at
        least :data:`CERTAIN_SCORE` and :data:`CERTAIN_MARGIN` points ahead of the next
        node. Two nodes equally named are ambiguous: ``None``.
        """
        node, _ = self._resolve(name, system, _kind_set(kinds))
        return node

    def get(self, name: str, system: str, kinds: Collection[str] | None = None) -> Node:
        """Like :meth:`resolve`, but raise :class:`LookupFailed` instead of returning ``None``.

        Raises:
            LookupFailed: the name is unknown, only like some names, or ambiguous.
        """
        kinds = _kind_set(kinds)
        node, candidates = self._resolve(name, system, kinds)
        if node is not None:
            return node
        base, param = split_parameter(name)
        tried = [name, base] if param is not None else [name]
        wanted = NAMED_KINDS if kinds is None else sorted(kinds, key=_kind_rank)
        if candidates:
            raise LookupFailed(name, system, wanted, tried, candidates=candidates)
        suggestions = self.suggest(name, system, kinds=kinds)
        raise LookupFailed(name, system, wanted, tried, suggestions=suggestions)

    def suggest(
        self,
        name: str,
        system: str | None,
        limit: int = 3,
        kinds: Collection[str] | None = None,
    ) -> list[NameMatch]:
        """The known names nearest to ``name``, for a message: one per name as written.

        Scored like :meth:`find`, and also by :func:`rapidfuzz.fuzz.WRatio`, so a part of a
        longer name is offered too; names below :data:`SUGGEST_CUTOFF` are left out. Every
        suggestion's ``how`` is ``fuzzy``; ``matched`` is the name to show.
        """
        scored = self._score_all(name, system, _kind_set(kinds), SUGGEST_CUTOFF, partial=True)
        best: dict[tuple[str, str], tuple[float, int, str | None]] = {}
        for index, (score, param) in scored.items():
            entry = self._names[index]
            key = (entry.node.id, entry.origin)
            if key not in best or score > best[key][0]:
                best[key] = (score, index, param)
        matches = [
            self._match(self._names[index], round(score), "fuzzy", param)
            for score, index, param in best.values()
        ]
        matches.sort(key=lambda m: (-m.score, KIND_ORDER[m.kind], m.matched, m.node_id))
        shown: list[NameMatch] = []
        seen: set[str] = set()
        for match in matches:
            if fold(match.matched) not in seen:
                seen.add(fold(match.matched))
                shown.append(match)
        return shown[:limit]

    # -- internals -----------------------------------------------------------------------

    def _resolve(
        self, name: str, system: str, kinds: Collection[str] | None
    ) -> tuple[Node | None, list[NameMatch]]:
        certain = self._certain(name, system, kinds)
        if certain:
            top_rank = certain[0][0]
            top = [match for rank, match in certain if rank == top_rank]
            if len(top) == 1:
                return self._node(top[0]), []
            return None, top
        fuzzy = self._fuzzy(name, system, kinds)
        if fuzzy and fuzzy[0].score >= CERTAIN_SCORE:
            if len(fuzzy) == 1 or fuzzy[0].score - fuzzy[1].score >= CERTAIN_MARGIN:
                return self._node(fuzzy[0]), []
        return None, []

    def _node(self, match: NameMatch) -> Node:
        return self._nodes[match.node_id]

    def _allowed(self, entry: _Name, system: str | None, kinds: Collection[str] | None) -> bool:
        return (system is None or entry.node.system == system) and (
            kinds is None or entry.node.kind in kinds
        )

    def _certain(
        self, name: str, system: str | None, kinds: Collection[str] | None
    ) -> list[tuple[int, NameMatch]]:
        """Exact and lemma matches with their rank (lower is surer), best first, one per node.

        Rank: 4 × (0 for the name as given, 1 without its parameter)
        + 2 × (matched a name without its parenthesised part) + (1 for a lemma match).
        """
        for level, (text, param) in enumerate(_forms(name)):
            best: dict[str, tuple[int, int]] = {}
            for how, table, key in (
                (0, self._by_exact, text_key(text)),
                (1, self._by_lemma, name_lemma_key(text)),
            ):
                for index in table.get(key, ()) if key else ():
                    entry = self._names[index]
                    if not self._allowed(entry, system, kinds):
                        continue
                    rank = 4 * level + 2 * entry.derived + how
                    node_id = entry.node.id
                    if node_id not in best or rank < best[node_id][0]:
                        best[node_id] = (rank, index)
            if best:
                found = [
                    (
                        rank,
                        self._match(
                            self._names[index], 100, "lemma" if rank % 2 else "exact", param
                        ),
                    )
                    for rank, index in best.values()
                ]
                found.sort(key=lambda f: (f[0], KIND_ORDER[f[1].kind], f[1].node_id))
                return found
        return []

    def _fuzzy(
        self, name: str, system: str | None, kinds: Collection[str] | None
    ) -> list[NameMatch]:
        """Typo matches scoring at least :data:`FUZZY_CUTOFF`, best first, one per node."""
        scored = self._score_all(name, system, kinds, FUZZY_CUTOFF, partial=False)
        best: dict[str, tuple[float, int, str | None]] = {}
        for index, (score, param) in scored.items():
            entry = self._names[index]
            node_id = entry.node.id
            # an equal score from a name as written beats one from a derived name
            if node_id not in best or (score, not entry.derived) > (
                best[node_id][0],
                not self._names[best[node_id][1]].derived,
            ):
                best[node_id] = (score, index, param)
        matches = [
            self._match(self._names[index], round(score), "fuzzy", param)
            for score, index, param in best.values()
        ]
        matches.sort(key=lambda m: (-m.score, KIND_ORDER[m.kind], m.node_id))
        return matches

    def _score_all(
        self,
        name: str,
        system: str | None,
        kinds: Collection[str] | None,
        cutoff: float,
        partial: bool,
    ) -> dict[int, tuple[float, str | None]]:
        """Best similarity of each name to ``name`` (as given or without its parameter)."""
        choices = self._choices.get(system)
        scored: dict[int, tuple[float, str | None]] = {}
        if choices is None:
            return scored
        for text, param in _forms(name):
            queries = [
                (text_key(text), choices.exact, fuzz.ratio),
                (name_lemma_key(text), choices.lemma, fuzz.ratio),
            ]
            if partial:
                queries.append((text_key(text), choices.exact, fuzz.WRatio))
            for query, keys, scorer in queries:
                if not query:
                    continue
                hits = process.extract(query, keys, scorer=scorer, score_cutoff=cutoff, limit=None)
                for _, score, position in hits:
                    index = choices.names[position]
                    if not self._allowed(self._names[index], system, kinds):
                        continue
                    if index not in scored or score > scored[index][0]:
                        scored[index] = (score, param)
        return scored

    @staticmethod
    def _match(entry: _Name, score: int, how: How, param: str | None) -> NameMatch:
        node = entry.node
        return NameMatch(
            node_id=node.id,
            title=node.title,
            system=node.system,
            kind=node.kind,
            score=score,
            how=how,
            matched=entry.text,
            parameter=param,
        )


def _kind_set(kinds: Collection[str] | None) -> frozenset[str] | None:
    """``kinds`` as a set; a single kind given as a string is one kind, not its letters."""
    if kinds is None:
        return None
    return frozenset((kinds,) if isinstance(kinds, str) else kinds)


def _kind_rank(kind: str) -> tuple[int, str]:
    return (KIND_ORDER.get(kind, len(KIND_ORDER)), kind)


def _forms(name: str) -> list[tuple[str, str | None]]:
    """The forms of a name to look up, in order: as given, then without its parameter."""
    forms: list[tuple[str, str | None]] = [(name, None)]
    base, param = split_parameter(name)
    if param is not None:
        forms.append((base, param))
    return forms
