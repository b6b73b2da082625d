"""Full-text search over the KB: which rules talk about a word, in any inflected form.

:class:`FullTextIndex` is an inverted index over the lemmas of each rule, unit-type and concept
node's title, aliases and text. A word is indexed under every dictionary form pymorphy3 offers
for it ("Молот" under "молотый" and "молот"), a hyphenated word also under each of its parts
("Турбо-ускорение" under "турбо-ускорение", "турбо" and "ускорение"), and numbers and dice
expressions as written, folded ("3D6" as "3d6", "24" as "24").

Ranking, best first:

1. the node's title or an alias consists of the query's words (the query names the node);
2. the title or an alias contains all the query's words;
3. the text mentions them;

then by a BM25 score over lemmas (title and alias words count :data:`NAME_WEIGHT` times), then
kind (unit type, rule, concept) and id, so the order is always the same.

A query word that no node of the searched system contains is replaced by the nearest lemmas
of that system's vocabulary (rapidfuzz ratio at least :data:`TYPO_CUTOFF`), weighted by their
similarity: "регенирация" finds "Регенерация".

Snippets mark the matched words with :data:`MARK_OPEN` and :data:`MARK_CLOSE` (``[`` and
``]``; not « », which rule texts use to quote rule names: правило «молот ярости»), adjacent
matched words as one run ("[молот ярости]"); the runs' offsets in the node's text are in
:attr:`SearchHit.highlights`, for a program that wants to mark them its own way.

Example::

    index = FullTextIndex(kb.nodes)
    index.search("молотом ярости", system="wh40k6")[0].title    # 'Молот ярости'
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz, process

from kb.lemmas import WORD_RE, Memo, fold, lemma, morph
from kb.models import Node, NodeKind

SEARCHED_KINDS: tuple[NodeKind, ...] = ("unit_type", "rule", "concept")
KIND_ORDER: dict[str, int] = {kind: i for i, kind in enumerate(SEARCHED_KINDS)}

NAME_WEIGHT = 3
"""A word of the title or an alias counts as this many words of the text."""
TYPO_CUTOFF = 80
"""An unknown query word is replaced by vocabulary lemmas at least this similar (0-100)."""
TYPO_ALTERNATIVES = 3
"""… at most this many of them."""
SNIPPET_CHARS = 160
SNIPPET_LEAD = 40
"""Characters of context shown before the first matched word."""
MARK_OPEN = "["
MARK_CLOSE = "]"

# BM25 parameters (the usual ones).
_K1 = 1.2
_B = 0.75

_CYRILLIC_RE = re.compile("[а-я]")
_PART_SPLIT_RE = re.compile(r"[-']")


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One node that matches a query.

    Attributes:
        node_id: the node's id.
        title: the node's title.
        system: the node's game system.
        kind: ``unit_type``, ``rule`` or ``concept``.
        score: BM25 score over lemmas (higher is better); comparable within one query only.
        in_name: the title or an alias contains every query word.
        snippet: about :data:`SNIPPET_CHARS` characters of the node's text around the first
            matched word, matched words between :data:`MARK_OPEN` and :data:`MARK_CLOSE`
            (adjacent ones as one run), whitespace collapsed, "…" where the text was cut;
            the text's start when only the title matched; ``""`` for a node without text.
        matched: the index terms (lemmas) that matched, one per matched query word.
        highlights: ``[start, end)`` of each marked run in the node's text.
    """

    node_id: str
    title: str
    system: str
    kind: NodeKind
    score: float
    in_name: bool
    snippet: str
    matched: tuple[str, ...]
    highlights: tuple[tuple[int, int], ...] = ()

    def __repr__(self) -> str:
        return f"SearchHit({self.node_id}, {self.score:.3f}, {self.matched})"


def word_terms(word: str) -> tuple[str, ...]:
    """The index terms of one word: its dictionary forms, and a hyphenated word's parts' forms.

    The first term is the word's lemma (:func:`kb.lemmas.lemma`); numbers and Latin words
    are only folded.

    >>> word_terms("Турбо-ускорении")
    ('турбо-ускорение', 'турбо', 'ускорение')
    >>> word_terms("3D6")
    ('3d6',)
    """
    return _folded_word_terms(fold(word))


def _word_terms(low: str) -> tuple[str, ...]:
    if _PART_SPLIT_RE.search(low):
        terms = [lemma(low)]
        for part in _PART_SPLIT_RE.split(low):
            if part:
                terms.extend(_folded_word_terms(part))
    elif not _CYRILLIC_RE.search(low):
        return (low,)
    else:
        terms = [fold(parse.normal_form) for parse in morph().parse(low)]
    return tuple(dict.fromkeys(terms))


def _terms(saved: Any) -> tuple[str, ...]:
    return tuple(str(term) for term in saved)


_folded_word_terms = Memo(_word_terms, "word_terms", decode=_terms).wrap()


@dataclass(frozen=True, slots=True)
class _Name:
    """A title or alias as sets of terms: all of them, and one set per word part."""

    terms: frozenset[str]
    parts: tuple[frozenset[str], ...]


@dataclass(frozen=True, slots=True)
class _Doc:
    node: Node
    names: tuple[_Name, ...]
    length_norm: float  # the BM25 length factor k1 * (1 - b + b * length / average length)


def _name_of(text: str) -> tuple[_Name, int]:
    """A title or alias as terms, and its length in words."""
    all_terms: set[str] = set()
    parts: list[frozenset[str]] = []
    words = WORD_RE.findall(text)
    for word in words:
        all_terms.update(word_terms(word))
        for part in _PART_SPLIT_RE.split(word):
            if part:
                parts.append(frozenset(word_terms(part)))
    return _Name(frozenset(all_terms), tuple(parts)), len(words)


class FullTextIndex:
    """Search rule, unit-type and concept nodes by the words of their title, aliases and text.

    Args:
        nodes: the KB's nodes; kinds other than ``rule``, ``unit_type`` and ``concept``
            are skipped.
    """

    def __init__(self, nodes: Iterable[Node]) -> None:
        docs: list[tuple[Node, tuple[_Name, ...], int]] = []
        counts: list[Counter[str]] = []
        for node in sorted((n for n in nodes if n.kind in KIND_ORDER), key=lambda n: n.id):
            tf: Counter[str] = Counter()
            length = 0
            for word, count in Counter(WORD_RE.findall(node.text)).items():
                length += count
                for term in word_terms(word):
                    tf[term] += count
            names: list[_Name] = []
            for text in (node.title, *node.aliases):
                name, name_length = _name_of(text)
                names.append(name)
                length += NAME_WEIGHT * name_length
                for term in name.terms:
                    tf[term] += NAME_WEIGHT
            docs.append((node, tuple(names), length))
            counts.append(tf)
        average = sum(length for _, _, length in docs) / len(docs) if docs else 1.0
        self._docs: list[_Doc] = [
            _Doc(node, names, _K1 * (1 - _B + _B * length / (average or 1.0)))
            for node, names, length in docs
        ]
        self._postings: dict[str, list[tuple[int, int]]] = {}
        vocabularies: dict[str | None, set[str]] = {}
        for doc_index, tf in enumerate(counts):
            vocabulary = vocabularies.setdefault(self._docs[doc_index].node.system, set())
            vocabulary.update(tf)
            for term, count in tf.items():
                self._postings.setdefault(term, []).append((doc_index, count))
        vocabularies[None] = set(self._postings)
        self._vocabulary = vocabularies
        # sorted, so that equally near typo corrections come out in the same order every run
        self._vocabulary_list: dict[str | None, list[str]] = {
            system: sorted(terms) for system, terms in self._vocabulary.items()
        }
        total = len(self._docs)
        self._idf: dict[str, float] = {
            term: math.log(1 + (total - len(p) + 0.5) / (len(p) + 0.5))
            for term, p in self._postings.items()
        }

    def __len__(self) -> int:
        return len(self._docs)

    def search(self, query: str, system: str | None = None, limit: int = 10) -> list[SearchHit]:
        """The nodes whose title, aliases or text contain the query's words, best first.

        Args:
            query: words in any form ("молотом ярости", "регенирация", "3D6").
            system: only this game system's nodes; ``None``: all systems.
            limit: the most hits to return.

        Returns:
            At most ``limit`` hits, ordered as the module docstring says.
        """
        groups = self._query_groups(query, system)
        if not any(groups):
            return []
        # per query word: the best (score, term) of each document
        best: list[dict[int, tuple[float, str]]] = []
        for group in groups:
            per_doc: dict[int, tuple[float, str]] = {}
            for term, weight in group.items():
                idf = self._idf[term] * weight
                for doc_index, tf in self._postings[term]:
                    doc = self._docs[doc_index]
                    if system is not None and doc.node.system != system:
                        continue
                    score = idf * tf * (_K1 + 1) / (tf + doc.length_norm)
                    if doc_index not in per_doc or score > per_doc[doc_index][0]:
                        per_doc[doc_index] = (score, term)
            best.append(per_doc)
        ranked: list[tuple[tuple[int, float, int, str], int, tuple[str, ...], int]] = []
        for doc_index in sorted(set[int]().union(*best)):
            score = 0.0
            matched: list[str] = []
            for per_doc in best:
                if doc_index in per_doc:
                    term_score, term = per_doc[doc_index]
                    score += term_score
                    matched.append(term)
            doc = self._docs[doc_index]
            tier = self._name_tier(doc, [g for g in groups if g])
            key = (-tier, -score, KIND_ORDER[doc.node.kind], doc.node.id)
            ranked.append((key, doc_index, tuple(matched), tier))
        ranked.sort()
        wanted = {term for group in groups for term in group}
        hits: list[SearchHit] = []
        for key, doc_index, terms, tier in ranked[:limit]:
            node = self._docs[doc_index].node
            snippet, highlights = make_snippet(node.text, wanted)
            hits.append(
                SearchHit(
                    node_id=node.id,
                    title=node.title,
                    system=node.system,
                    kind=node.kind,
                    score=round(-key[1], 6),
                    in_name=tier > 0,
                    snippet=snippet,
                    matched=terms,
                    highlights=highlights,
                )
            )
        return hits

    def _query_groups(self, query: str, system: str | None) -> list[dict[str, float]]:
        """For each query word, the index terms that stand for it, with their weights.

        A word is its dictionary forms that the system's vocabulary holds; a hyphenated word
        whose whole is unknown is its parts; a word none of whose forms is known is the
        nearest vocabulary lemmas, weighted by similarity (``{}`` when there are none).
        """
        vocabulary = self._vocabulary.get(system, set())
        groups: list[dict[str, float]] = []
        seen: set[str] = set()
        for word in WORD_RE.findall(query):
            low = fold(word)
            if low in seen:
                continue
            seen.add(low)
            parts = [low]
            if _PART_SPLIT_RE.search(low):
                whole = word_terms(low)[0]
                if whole in vocabulary:
                    groups.append({whole: 1.0})
                    continue
                parts = [p for p in _PART_SPLIT_RE.split(low) if p]
            for part in parts:
                forms = word_terms(part)
                known = {form: 1.0 for form in forms if form in vocabulary}
                groups.append(known or self._near((forms[0], part), system))
        return groups

    def _near(self, spellings: tuple[str, ...], system: str | None) -> dict[str, float]:
        """The vocabulary lemmas nearest to an unknown word (its lemma or its own spelling)."""
        choices = self._vocabulary_list.get(system, [])
        near: dict[str, float] = {}
        for spelling in dict.fromkeys(spellings):
            for choice, score, _ in process.extract(
                spelling, choices, scorer=fuzz.ratio, score_cutoff=TYPO_CUTOFF, limit=None
            ):
                near[choice] = max(near.get(choice, 0.0), score / 100)
        best = sorted(near.items(), key=lambda item: (-item[1], item[0]))[:TYPO_ALTERNATIVES]
        return dict(best)

    @staticmethod
    def _name_tier(doc: _Doc, groups: list[dict[str, float]]) -> int:
        """2: a name is exactly the query's words; 1: a name contains them all; 0: neither."""
        if not groups:
            return 0
        covered: set[str] = set()
        for group in groups:
            for term in group:
                covered.add(term)
                covered.update(_PART_SPLIT_RE.split(term))
        tier = 0
        for name in doc.names:
            if all(not name.terms.isdisjoint(group) for group in groups):
                if all(not part.isdisjoint(covered) for part in name.parts):
                    return 2
                tier = 1
        return tier


def make_snippet(text: str, terms: set[str]) -> tuple[str, tuple[tuple[int, int], ...]]:
    """About :data:`SNIPPET_CHARS` characters of ``text`` around its first word in ``terms``.

    Returns:
        The snippet, with every word of it whose terms meet ``terms`` marked, and the
        ``[start, end)`` of those words in ``text``.

    >>> make_snippet("Бегущий отряд передвигается на 3D6.", {"3d6"})
    ('Бегущий отряд передвигается на [3D6].', ((31, 34),))
    """
    if not text:
        return "", ()
    first = next(
        (m for m in WORD_RE.finditer(text) if not terms.isdisjoint(word_terms(m.group()))), None
    )
    start = 0
    if first is not None and first.start() > SNIPPET_LEAD:
        start = first.start() - SNIPPET_LEAD
        space = text.find(" ", start, first.start())
        start = space + 1 if space >= 0 else first.start()
    end = start + SNIPPET_CHARS
    if end < len(text):
        space = text.rfind(" ", start, end)
        end = space if space > start else end
    else:
        end = len(text)
    runs: list[tuple[int, int]] = []
    for m in WORD_RE.finditer(text, start, end):
        if not terms.isdisjoint(word_terms(m.group())):
            if runs and not text[runs[-1][1] : m.start()].strip():
                runs[-1] = (runs[-1][0], m.end())  # only spaces between: one run
            else:
                runs.append(m.span())
    pieces: list[str] = ["…"] if start > 0 else []
    at = start
    for run_start, run_end in runs:
        pieces += [text[at:run_start], MARK_OPEN, text[run_start:run_end], MARK_CLOSE]
        at = run_end
    pieces.append(text[at:end])
    if end < len(text):
        pieces.append("…")
    return " ".join("".join(pieces).split()), tuple(runs)
