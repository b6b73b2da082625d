"""How right the name suggestions are, on real names: ``.venv/bin/python benchmarks/names.py``.

``tests/data/names/real_names.tsv`` holds the rule, ability, unit-type and Kill Team category
names of the BSData catalogues, each labelled with the KB node it means or ``-`` (the corpus
does not hold it). For every name the KB does not find exactly, a check offers what the
:class:`~validator.armylist.context.Resolver` offers: the node a typo resolves to, or the
suggestions scoring at least the threshold. This prints, per threshold, how many names got
a suggestion, how many of those were right (precision) and how many of the names that have
a right answer got it (recall), on the tuning part and on the held-out part, and marks the
threshold in use (``SUGGESTION_SCORE``). The threshold is the lowest whose precision on the
tuning part is 1.0 with a margin of five points above the best-scoring wrong suggestion: no
suggestion is better than a wrong one. ``--candidates`` prints every name with its nearest
known name and score, for labelling new names.
"""

from __future__ import annotations

import csv
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rapidfuzz import fuzz  # noqa: E402

from kb.graph import Graph  # noqa: E402
from kb.names import text_key  # noqa: E402
from validator.armylist import context  # noqa: E402
from validator.armylist.context import RULE_KINDS, TYPE_KINDS, Resolver  # noqa: E402

TABLE = ROOT / "tests" / "data" / "names" / "real_names.tsv"


@dataclass(frozen=True)
class RealName:
    """A real name and what it means."""

    system: str
    kind: str
    name: str
    answer: str | None
    source: str
    split: str


def real_names(path: Path = TABLE) -> list[RealName]:
    """The labelled real names."""
    with path.open(encoding="utf-8") as stream:
        rows = csv.DictReader((line for line in stream if not line.startswith("#")),
                              delimiter="\t")
        return [RealName(r["system"], r["kind"], r["name"],
                         None if r["answer"] == "-" else r["answer"], r["source"], r["split"])
                for r in rows]


@dataclass
class Offer:
    """What the resolver makes of a name: exact, or the title it offers with its score."""

    exact: str | None
    offered: str | None
    score: float


def offer(resolver: Resolver, item: RealName) -> Offer:
    """The resolver's answer for one name, before any threshold."""
    kinds = TYPE_KINDS if item.kind == "type" else RULE_KINDS
    if item.kind == "rule":
        lookup, _ = resolver.lookup_rule(item.name, item.system)
    else:
        lookup = resolver.lookup(item.name, item.system, kinds)
    if lookup.node is not None and lookup.how != "fuzzy":
        return Offer(lookup.node.title, None, 100.0)
    if lookup.node is not None:  # a typo resolved: what it offers is that node
        return Offer(None, lookup.node.title, 100.0)
    query = text_key(lookup.name)
    best: tuple[float, str] = (0.0, "")
    for match in resolver.graph.names.suggest(lookup.name, item.system, limit=9, kinds=kinds):
        score = fuzz.ratio(query, text_key(match.matched))
        if score > best[0]:
            best = (score, match.title)
    return Offer(None, best[1] or None, best[0])


@dataclass
class Score:
    """Suggestions at one threshold."""

    offered: int = 0
    right: int = 0
    answerable: int = 0

    @property
    def precision(self) -> float:
        return self.right / self.offered if self.offered else 1.0

    @property
    def recall(self) -> float:
        return self.right / self.answerable if self.answerable else 1.0


def score(offers: list[tuple[RealName, Offer]], threshold: float) -> Score:
    """Precision and recall of the suggestions made at ``threshold``."""
    result = Score()
    for item, found in offers:
        if found.exact is not None:
            continue
        if item.answer is not None:
            result.answerable += 1
        if found.offered is not None and found.score >= threshold:
            result.offered += 1
            result.right += found.offered == item.answer
    return result


def measure(graph: Graph) -> dict[str, list[tuple[RealName, Offer]]]:
    """Every real name with the resolver's offer, by split."""
    resolver = Resolver(graph)
    out: dict[str, list[tuple[RealName, Offer]]] = {"tune": [], "heldout": []}
    for item in real_names():
        out[item.split].append((item, offer(resolver, item)))
    return out


def report(graph: Graph) -> list[str]:
    """The table of thresholds, as lines."""
    offers = measure(graph)
    lines = [f"Подсказки названий на реальных названиях каталогов BSData ({TABLE.name}: "
             f"{len(offers['tune'])} для подбора, {len(offers['heldout'])} отложенных)",
             "порог   подбор: подсказок верных точность полнота   отложенные: подсказок "
             "верных точность полнота"]
    for threshold in range(60, 100, 2):
        tune, held = score(offers["tune"], threshold), score(offers["heldout"], threshold)
        mark = "  ← SUGGESTION_SCORE" if threshold == context.SUGGESTION_SCORE else ""
        lines.append(f"{threshold:>5}   {tune.offered:>17} {tune.right:>6} {tune.precision:>8.2f} "
                     f"{tune.recall:>7.2f}   {held.offered:>21} {held.right:>6} "
                     f"{held.precision:>8.2f} {held.recall:>7.2f}{mark}")
    wrong = [found.score for item, found in offers["tune"] if found.exact is None
             and found.offered is not None and found.offered != item.answer]
    lines.append(f"лучшая неверная подсказка (подбор): {max(wrong, default=0):.0f}; "
                 f"порог в работе: {context.SUGGESTION_SCORE}")
    return lines


def main() -> None:
    from rulekb import defaults

    graph = defaults.graph(None)
    if "--candidates" in sys.argv:
        resolver = Resolver(graph)
        for item in real_names():
            found = offer(resolver, item)
            print("\t".join([item.system, item.kind, item.name, found.exact or "",
                             found.offered or "", f"{found.score:.0f}"]))
        return
    print("\n".join(report(graph)))


if __name__ == "__main__":
    main()
