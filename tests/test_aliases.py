"""English names (ingest/data/aliases.toml): the KB build gives them to the nodes they name."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from ingest import build, load
from ingest.vocabulary import english_names
from kb import KnowledgeBase
from kb.lemmas import fold, lemma_key

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
TABLE = REPO / "ingest" / "data" / "aliases.toml"
# English names the corpus KB cannot take as an alias, and why
NOT_ALIASED = {
    ("killteam2018", "Fly"): "the rule's own title is «FLY»",
    ("killteam2018", "Psyker"): "the corpus has no PSYKER rule",
    ("wh40k6", "Psyker"): "the 40k chapter names no psykers",
}


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return build(load([CORPUS])).kb


def _key(name: str) -> str:
    return lemma_key(re.sub(r"\s*\([^)]*\)", "", name))


def _table() -> dict[str, dict[str, str]]:
    """The table's names per system (the game systems of rosters are another table)."""
    with TABLE.open("rb") as stream:
        table = tomllib.load(stream)
    table.pop("game_systems")
    return table


def test_english_names_reads_the_table() -> None:
    table = _table()
    assert set(table) == {"wh40k6", "whfb8", "killteam2018"}
    for system, names in table.items():
        assert english_names(system) == names
    assert english_names("no-such-system") == {}
    assert english_names("whfb8")["Regeneration"] == "Регенерация"


@pytest.mark.parametrize(
    ("system", "english", "russian"),
    [(s, e, r) for s, names in _table().items() for e, r in sorted(names.items())],
)
def test_each_english_name_is_an_alias_of_the_node_its_russian_name_names(
    kb: KnowledgeBase, system: str, english: str, russian: str
) -> None:
    holders = [n for n in kb.nodes if n.system == system and english in n.aliases]
    if (system, english) in NOT_ALIASED:
        assert holders == []
        return
    assert len(holders) == 1, [h.id for h in holders]
    [node] = holders
    assert node.kind in ("rule", "unit_type", "concept")
    # the node is the one the Russian name names, in any form; a heading may add "(1-3)"
    assert _key(node.title) == _key(russian), (node.title, russian)


def test_an_english_name_makes_no_node_of_its_own(kb: KnowledgeBase) -> None:
    titles = {fold(n.title) for n in kb.nodes}
    assert "psyker" not in titles
    assert not {fold(e) for names in _table().values() for e in names} & titles - {"fly"}


def test_the_roster_reader_reads_the_same_table() -> None:
    from validator.inputs.roster import ALIASES_FILE, kb_name, load_aliases

    assert ALIASES_FILE.resolve() == TABLE.resolve()
    assert kb_name("Regeneration (5+)", "whfb8", load_aliases()) == "Регенерация (5+)"
