"""The suggestion threshold, measured on real names (``benchmarks/names.py``).

``tests/data/names/real_names.tsv`` labels 1,087 names of the BSData catalogues with the KB
node each means, or none. A suggestion ("возможно, имелось в виду …") is offered only at
:data:`~validator.armylist.context.SUGGESTION_SCORE` or above; at that threshold no suggestion
is wrong, on the names it was chosen on and on the held-out ones, and a lower threshold
would offer wrong ones: the threshold is where it is for a reason.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from kb.graph import Graph
from validator.armylist.context import RULE_KINDS, SUGGESTION_SCORE, TYPE_KINDS, Resolver

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "names.py"


@pytest.fixture(scope="module")
def names() -> ModuleType:
    spec = importlib.util.spec_from_file_location("names_benchmark", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["names_benchmark"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def offers(names: ModuleType, corpus_graph: Graph) -> dict[str, list[tuple[object, object]]]:
    measured: dict[str, list[tuple[object, object]]] = names.measure(corpus_graph)
    return measured


def test_the_table_is_real_and_split(names: ModuleType) -> None:
    rows = names.real_names()
    assert len(rows) > 1000
    assert {r.split for r in rows} == {"tune", "heldout"}
    assert {r.source.split(":")[0] for r in rows if r.split == "heldout"} <= {
        "Dark Elves - 8thBRB_8thAB.cat", "Drukhari.cat"}


def test_no_suggestion_is_wrong_at_the_threshold(names: ModuleType,
                                                 offers: dict[str, list[tuple[object, object]]]
                                                 ) -> None:
    for split in ("tune", "heldout"):
        assert names.score(offers[split], SUGGESTION_SCORE).precision == 1.0, split


def test_the_threshold_stands_above_every_wrong_suggestion(
        names: ModuleType, offers: dict[str, list[tuple[object, object]]]) -> None:
    wrong = [found.score for item, found in offers["tune"]  # type: ignore[attr-defined]
             if found.exact is None and found.offered is not None  # type: ignore[attr-defined]
             and found.offered != item.answer]  # type: ignore[attr-defined]
    assert wrong, "the table must hold names whose nearest known name is wrong"
    assert max(wrong) < SUGGESTION_SCORE
    # lower, and wrong suggestions come in: on the tuning names and on the held-out ones
    for split in ("tune", "heldout"):
        assert names.score(offers[split], max(wrong)).precision < 1.0, split


def test_the_resolver_offers_what_was_measured(names: ModuleType, corpus_graph: Graph) -> None:
    """What a check says of each real name — found, a typo resolved, a suggestion, nothing —
    is never a wrong node."""
    resolver = Resolver(corpus_graph)
    offered = 0
    for item in names.real_names():
        if item.kind == "rule":
            lookup, _ = resolver.lookup_rule(item.name, item.system)
        else:
            kinds = TYPE_KINDS if item.kind == "type" else RULE_KINDS
            lookup = resolver.lookup(item.name, item.system, kinds)
        said = lookup.node.title if lookup.node is not None else (
            lookup.suggestions[0] if lookup.suggestions else None)
        if said is not None:
            assert said == item.answer, item.name
            offered += 1
    assert offered > 50
