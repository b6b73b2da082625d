"""Which sections use the words of a rule's name, for :mod:`ingest.resolve_mentions`: a name
mentioned in lower case, with no quotes and no cue, refers to the rule only where the name is
its chapter's own (no section outside the chapter uses its words: "способ полёта" of the
flying creatures, not "боевая единица", every 40k section's word) and is no glossary's common
term ("оперативник" of a Kill Team rulebook).

Each part's lemmas are read once per system and indexed by word, so a name's users are found
among the parts holding all its words, not by reading every part for every name.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING

from ingest import extract as ex
from ingest.sections import unparen
from kb.lemmas import lemma_key, morph

if TYPE_CHECKING:
    from ingest.resolve import Part, SystemResolver


def sibling(r: SystemResolver, p: Part, target: str) -> bool:
    """Whether ``target`` is a rule of the part's own chapter (the same parent) whose name is
    the chapter's own: no section outside the chapter uses its words ("боевая единица" is
    every 40k section's word for a unit, "способ полёта" only the flying creatures')."""
    node = r.b.nodes[target]
    parent = node.parent
    if parent != p.parent_id:
        return False
    if parent is None:
        # the top-level rules of one page: the page is their chapter
        return node.source == p.source.name and not _step(node.title) \
            and not _used_elsewhere(r, target, p)
    return not _used_outside(r, target, parent)


def _used_outside(r: SystemResolver, target: str, chapter: str) -> bool:
    cache: dict[str, bool] = r.__dict__.setdefault("_used_outside", {})
    if target not in cache:
        cache[target] = any(
            q.id != chapter and not _within(r, q.id, chapter) for q in _users(r, target))
    return cache[target]


@lru_cache(maxsize=4_096)
def _step(title: str) -> bool:
    """A title that opens with a verb ("Проведите раунд ближнего боя"): a step of a procedure,
    which an outline of the procedure lists, not a rule's name."""
    ws = title.split()
    return bool(ws) and morph().parse(ws[0].lower())[0].tag.POS in ("VERB", "INFN")


_COMMON_SHARE = 0.25
"""The share of its file's sections a glossary's term may be used in and still be referred to
by its lower-case mentions: one that more use is the game's common word ("оперативник",
"кубик" of a Kill Team rulebook), named by every rule and referring to none."""


def common_term(r: SystemResolver, target: str) -> bool:
    """Whether a glossary's term is used by more than :data:`_COMMON_SHARE` of the sections
    of its file (counted once per term)."""
    cache: dict[str, bool] = r.__dict__.setdefault("_common_terms", {})
    if target not in cache:
        source = r.b.nodes[target].source
        sizes: dict[str | None, int] = r.__dict__.setdefault("_file_parts", {})
        if not sizes:
            for q in r.parts:
                sizes[q.source.name] = sizes.get(q.source.name, 0) + 1
        used = sum(1 for q in _users(r, target) if q.source.name == source)
        cache[target] = used > _COMMON_SHARE * sizes.get(source, 0)
    return cache[target]


def _used_elsewhere(r: SystemResolver, target: str, p: Part) -> bool:
    """Whether a section other than ``p`` and ``target``'s own family uses the words of
    ``target``'s name."""
    cache: dict[str, tuple[str, ...]] = r.__dict__.setdefault("_holders", {})
    if target not in cache:
        # up to two such sections, looked for once per name: one other than the section at
        # hand settles it
        found: list[str] = []
        for q in _users(r, target):
            if q.id != target and not _within(r, q.id, target):
                found.append(q.id)
                if len(found) == 2:
                    break
        cache[target] = tuple(found)
    return any(k != p.id for k in cache[target])


def _users(r: SystemResolver, target: str) -> Iterator[Part]:
    """The parts whose text uses the words of ``target``'s name, in order, read lazily: only
    the parts that hold every word of the name are looked at (an index, not every part)."""
    words_of_key = lemma_key(unparen(r.b.nodes[target].title)).split()
    if not words_of_key:
        return
    key = f" {' '.join(words_of_key)} "
    # (the parts holding the words, found once per name: the sections of many files may share
    # it, each asking)
    holders: dict[str, list[int]] = r.__dict__.setdefault("_holders_of_name", {})
    if key not in holders:
        index = _word_index(r)
        # (the rarest word's parts first: each set met after costs a look-up a part so far)
        held = sorted((index.get(w, set()) for w in words_of_key), key=len)
        holders[key] = sorted(set.intersection(*held))
    for k in holders[key]:
        if key in _lemmas_of(r, k):
            yield r.parts[k]


def tokens_of(r: SystemResolver, p: Part) -> list[tuple[str, int, int]]:
    """:func:`~ingest.extract.lemma_tokens` of a part's text, read once per part (its
    mentions and :func:`_lemmas_of` both need them)."""
    tokens: dict[str, list[tuple[str, int, int]]] = r.__dict__.setdefault("_part_tokens", {})
    if p.id not in tokens:
        tokens[p.id] = ex.lemma_tokens(p.text)
    return tokens[p.id]


def _lemmas_of(r: SystemResolver, k: int) -> str:
    """The lemma key of part ``k``'s text (:func:`~kb.lemmas.lemma_key`), spaces around it."""
    lemmas: dict[int, str] = r.__dict__.setdefault("_part_lemmas", {})
    if k not in lemmas:
        lemmas[k] = f" {' '.join(t[0] for t in tokens_of(r, r.parts[k]))} "
    return lemmas[k]


def _word_index(r: SystemResolver) -> dict[str, set[int]]:
    """Lemma → the parts (by position) whose text holds it, built once per system."""
    index: dict[str, set[int]] | None = r.__dict__.get("_word_index")
    if index is None:
        index = {}
        for k, part in enumerate(r.parts):
            for w in {t[0] for t in tokens_of(r, part)}:
                index.setdefault(w, set()).add(k)
        r.__dict__["_word_index"] = index
    return index


def _within(r: SystemResolver, nid: str, ancestor: str) -> bool:
    node = r.b.nodes.get(nid)
    while node is not None and node.parent:
        if node.parent == ancestor:
            return True
        node = r.b.nodes.get(node.parent)
    return False
