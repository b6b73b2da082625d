"""Compare a KB with the reader's annotations in ``tests/data/gold/`` (one file per corpus file).

An annotation (the format of ``../shared/gold-example/004.yaml``) lists, per corpus file, the
sections with their parents, the unit types with the rules they grant, page citations, named
references (to rules defined in the corpus, and to concepts it only names), facts (numbers) and
the page each section lies on. Each category is compared as a set of rows; a row is
``(title, value, parent)``, where ``parent`` may be left out in the annotation (a third element
of a row names it when the title alone is ambiguous) and then matches any parent.

* Titles match on the node's title or any alias, folded, without trailing ``.…:``, or on the
  heading as written: the title and an alias in brackets, in either order.
* Reference targets match on the lemma key of their title or an alias (the annotation writes
  the nominative form). A target is a rule the KB defines (``named_refs_in_corpus``) when it
  is the corpus's or the page's own; a held-out page's reader wrote it alone, so a rule that
  another page of its set defines is a stub to it.
* A fact matches on its number as written, with words dropped (``"12 дюймов"`` → ``12``).
* A page given as ``"66-68"`` matches any page of that range.
* ``system: null`` annotates a page of another game: the build should skip it, so it has no
  system row, and a system the KB gives it counts against precision.

Precision = KB rows matched by some annotation row / KB rows; recall = annotation rows matched
by some KB row / annotation rows (1.0 when there is nothing to count).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ingest.sections import unparen
from kb import Graph
from kb.lemmas import fold, lemma_key
from kb.models import Fact, Node

GOLD_DIR = Path(__file__).parent / "data" / "gold"
HELDOUT_DIR = Path(__file__).parent / "data" / "heldout"
CHAPTERS_DIR = Path(__file__).parent / "data" / "chapters"
CATEGORIES = ("system", "sections", "unit_types", "page_refs", "named_refs_in_corpus",
              "named_refs_stub", "facts", "pages")
REF_EDGES = ("references", "applies_to", "excludes", "overrides")
ANY = object()  # an annotation row without a parent matches any parent

Row = tuple[Any, ...]


def norm_title(text: str | None) -> str | None:
    if text is None:
        return None
    return re.sub(r"\s+", " ", fold(text)).strip().rstrip(".…:").strip()


def norm_value(value: object) -> str:
    """A number as a key: digits, dice (``D``), ``+``, ``-`` and ``%`` kept, words dropped."""
    text = re.sub(r"[DdДд](?=\d)", "D", str(value)).replace("–", "-").replace("—", "-")
    return re.sub(r"[^\dD+\-]", "", text)


def fact_values(fact: Fact) -> list[str]:
    """A fact's numbers as keys; a profile gives one per characteristic."""
    if fact.kind == "profile" and isinstance(fact.value, dict):
        return [norm_value(v) for v in fact.value.values()]
    return [norm_value(fact.text)]


@dataclass
class Score:
    """One category of one file: matched counts and the rows that did not match."""

    kb_total: int = 0
    kb_matched: int = 0
    gold_total: int = 0
    gold_matched: int = 0
    missed: list[Row] = field(default_factory=list)  # in the annotation, not in the KB
    extra: list[Row] = field(default_factory=list)  # in the KB, not in the annotation

    @property
    def precision(self) -> float:
        return self.kb_matched / self.kb_total if self.kb_total else 1.0

    @property
    def recall(self) -> float:
        return self.gold_matched / self.gold_total if self.gold_total else 1.0


def _matches(gold: Row, got: Row) -> bool:
    title, value, parent = gold
    return title == got[0] and value == got[1] and (parent is ANY or parent == got[2])


def _page_matches(gold: Row, got: Row) -> bool:
    title, pages, parent = gold
    return title == got[0] and got[1] in pages and (parent is ANY or parent == got[2])


def compare(gold: Iterable[Row], got: Iterable[Row], same: Any = _matches) -> Score:
    gold_rows, got_rows = list(dict.fromkeys(gold)), list(dict.fromkeys(got))
    score = Score(kb_total=len(got_rows), gold_total=len(gold_rows))
    for g in gold_rows:
        if any(same(g, k) for k in got_rows):
            score.gold_matched += 1
        else:
            score.missed.append(g)
    for k in got_rows:
        if any(same(g, k) for g in gold_rows):
            score.kb_matched += 1
        else:
            score.extra.append(k)
    return score


def _pages(value: object) -> frozenset[int]:
    low, _, high = str(value).partition("-")
    return frozenset(range(int(low), int(high or low) + 1))


class FileScorer:
    """The KB side of one corpus file, named the way its annotation names things."""

    def __init__(self, graph: Graph, source: str, ann: dict[str, Any],
                 unseen: frozenset[str] = frozenset()) -> None:
        self.graph, self.ann, self.source = graph, ann, source
        # the other pages of a held-out set: their reader wrote each page alone, so a rule
        # defined on another page is, to this page's annotation, a name the KB does not define
        self.unseen = unseen
        self.names = {norm_title(t) for t, *_ in ann["sections"]} | {
            norm_title(t) for t in ann["unit_types"]}
        # a passage (a text with no heading, kept whole) is no section: a reader marks none
        self.nodes = [n for n in graph.nodes.values() if n.source == source
                      and n.kind in ("rule", "unit_type") and n.category != "passage"]

    def name(self, node: Node) -> str | None:
        """The node's title as the annotation writes it, when one of its names is there."""
        # the heading as the text writes it, "Умение Драться (WS)" or "ENVIRONMENT TABLE
        # (ТАБЛИЦА ОКРУЖАЮЩЕЙ СРЕДЫ)": the title and its alias, in either order
        written = _written(node)
        for candidate in (node.title, *node.aliases, unparen(node.title), *written):
            if norm_title(candidate) in self.names:
                return norm_title(candidate)
        return norm_title(node.title)

    def parent(self, node: Node) -> str | None:
        return self.name(self.graph.nodes[node.parent]) if node.parent else None

    def gold(self, rows: list[list[Any]], value: Any = lambda v: v) -> list[Row]:
        out: list[Row] = []
        for row in rows:
            parent = norm_title(row[2]) if len(row) > 2 else ANY
            out.append((norm_title(row[0]), value(row[1]), parent))
        return out

    def score(self) -> dict[str, Score]:
        ann, g = self.ann, self.graph
        scores: dict[str, Score] = {}
        # a page of another game is annotated ``system: null``: nothing to find, and a
        # detected system is a false one
        scores["system"] = compare(
            [(self.source, ann["system"], ANY)] if ann["system"] is not None else [],
            [(self.source, n.system, None) for n in g.nodes.values()
             if n.kind == "source" and n.source == self.source])
        sections_only = {norm_title(t) for t, _ in ann["sections"]}
        headless = {norm_title(t) for t in ann["unit_types"]} - sections_only
        scores["sections"] = compare(
            [(norm_title(t), norm_title(p), ANY) for t, p in ann["sections"]],
            [(self.name(n), self.parent(n), None) for n in self.nodes
             if not (n.kind == "unit_type" and self.name(n) in headless)])
        gold_types: list[Row] = []
        for t, rules in ann["unit_types"].items():
            gold_types.append((norm_title(t), "", ANY))
            gold_types += [(norm_title(t), lemma_key(r), ANY) for r in rules]
        got_types: list[Row] = []
        for n in self.nodes:
            if n.kind == "unit_type":
                got_types.append((self.name(n), "", None))
                got_types += [(self.name(n), lemma_key(g.nodes[e.target].title), None)
                              for e in g.out_edges(n.id, "grants")]
        scores["unit_types"] = compare(gold_types, got_types)
        scores["page_refs"] = compare(
            self.gold(ann["page_refs"], int),
            [(self.name(n), int(e.target.rsplit(":", 1)[1]), self.parent(n))
             for n in self.nodes for e in g.out_edges(n.id, "cites_page")])
        # words that grant a type a rule are a grant, not also a reference
        granted = {(e.target, e.span) for e in g.kb.edges if e.kind == "grants"}
        for category, defined in (("named_refs_in_corpus", True), ("named_refs_stub", False)):
            wanted = {lemma_key(row[1]) for row in ann[category]}
            got = []
            for n in self.nodes:
                for e in g.out_edges(n.id):
                    target = g.nodes.get(e.target)
                    if e.kind in REF_EDGES and target is not None and target.id != n.id \
                            and (e.target, e.span) not in granted \
                            and self._defined(target) == defined:
                        got.append((self.name(n), _target_key(target, wanted), self.parent(n)))
            scores[category] = compare(self.gold(ann[category], lemma_key), got)
        scores["facts"] = compare(
            self.gold(ann["facts"], norm_value),
            [(self.name(n), v, self.parent(n)) for n in self.nodes
             for f in n.facts for v in fact_values(f)])
        scores["pages"] = compare(
            self.gold(ann["pages"], _pages),
            [(self.name(n), n.page, self.parent(n)) for n in self.nodes if n.page is not None],
            _page_matches)
        return scores

    def _defined(self, target: Node) -> bool:
        """Whether the annotation counts a reference's target as a rule the KB defines: the
        corpus's or the page's own, not another page's of its set (a stub to its reader)."""
        return target.kind != "concept" and target.source not in self.unseen


def _written(node: Node) -> list[str]:
    """A node's heading as a text writes it: its title with an alias in brackets after it, or
    an alias (the English) with the title in brackets after it."""
    return [form for alias in node.aliases
            for form in (f"{node.title} ({alias})", f"{alias} ({node.title})")]


def _target_key(target: Node, wanted: set[str]) -> str:
    """A reference target's lemma key as the annotation names it: its title, or the alias the
    annotation uses (a Kill Team rule titled «Чардж» is the annotation's "Charging")."""
    # (its parameter in brackets is no part of its name: "Сопротивление магии (1-3)"; the
    # heading as the text writes it, "Раздирающий (Rending)", is its title and an alias)
    for name in (target.title, *target.aliases, unparen(target.title), *_written(target)):
        if lemma_key(name) in wanted:
            return lemma_key(name)
    return lemma_key(target.title)


class _AnnotationLoader(yaml.SafeLoader):
    """YAML as a reader writes an annotation: "+1" (a modifier) stays the text "+1", not the
    number 1 that YAML's own resolver makes of it; "1", "3+" and "12" read as before."""


_AnnotationLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers
            if not (first == "+" and tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float"))]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def load_annotation(text: str) -> Any:
    """An annotation file's content (:class:`_AnnotationLoader`)."""
    return yaml.load(text, Loader=_AnnotationLoader)  # noqa: S506 - a safe loader's subclass


def annotations(directory: Path = GOLD_DIR) -> dict[str, dict[str, Any]]:
    """Corpus file name → its annotation, for every ``*.yaml`` in ``directory``."""
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(directory.glob("*.yaml")):
        out.update(load_annotation(path.read_text(encoding="utf-8")))
    return out


def score_all(graph: Graph, directory: Path = GOLD_DIR) -> dict[str, dict[str, Score]]:
    """Corpus file → category → score.

    The files of a held-out set (any ``directory`` but the corpus's annotations) were annotated
    each alone: a reference from one to a rule another defines is a stub to its annotation.
    """
    anns = annotations(directory)
    pages = frozenset(anns) if directory != GOLD_DIR else frozenset()
    return {source: FileScorer(graph, source, ann, pages - {source}).score()
            for source, ann in anns.items()}


def totals(scores: dict[str, dict[str, Score]]) -> dict[str, Score]:
    """Category → the rows of every file together (micro-averaged precision and recall)."""
    out: dict[str, Score] = {}
    for category in CATEGORIES:
        total = Score()
        for by_category in scores.values():
            s = by_category[category]
            total.kb_total += s.kb_total
            total.kb_matched += s.kb_matched
            total.gold_total += s.gold_total
            total.gold_matched += s.gold_matched
        out[category] = total
    return out


def totals_table(named: dict[str, dict[str, dict[str, Score]]]) -> str:
    """One line per set of files (``corpus``, ``dev``, ``held-out``): ``P/R`` per category."""
    short = {c: c.replace("named_refs_", "refs_") for c in CATEGORIES}
    lines = ["set       " + "".join(f"{short[c]:>15}" for c in CATEGORIES)]
    for name, scores in named.items():
        cells = "".join(f"{s.precision:>7.2f}/{s.recall:<7.2f}"
                        for s in totals(scores).values())
        lines.append(f"{name:<10}{cells}")
    return "\n".join(lines)


def table(scores: dict[str, dict[str, Score]], details: bool = False) -> str:
    """The precision/recall table (``P/R`` per file and category), with misses if asked."""
    short = {c: c.replace("named_refs_", "refs_") for c in CATEGORIES}
    width = max([6, *(len(_short(source)) + 1 for source in scores)])
    lines = ["file".ljust(width) + "".join(f"{short[c]:>15}" for c in CATEGORIES)]
    for source, by_category in scores.items():
        cells = "".join(f"{s.precision:>7.2f}/{s.recall:<7.2f}"
                        for s in (by_category[c] for c in CATEGORIES))
        lines.append(f"{_short(source):<{width}}{cells}")
    if details:
        for source, by_category in scores.items():
            for category, s in by_category.items():
                for row in s.missed:
                    lines.append(f"{_short(source)} {category} missed: {_show(row)}")
                for row in s.extra:
                    lines.append(f"{_short(source)} {category} extra:  {_show(row)}")
    return "\n".join(lines)


def _short(source: str) -> str:
    """A corpus file by its number ("001"), any other by its name."""
    return source[:3] if source[:3].isdigit() else source.removesuffix(".txt")


def _show(row: Row) -> str:
    return " | ".join("*" if part is ANY else str(part) for part in row)
