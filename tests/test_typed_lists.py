"""Lists as players type them (``tests/data/lists/typed``, figures in its EXPECTED.toml).

Russian type names and English army-book rules, parameters in brackets or not, notes, no
``models`` where the list implies it, a cp1251 file: each legal list exits 0 with no violation
and no warning, and every rule the corpus covers is resolved and checked.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb import store
from kb.graph import Graph
from rulekb.cli import cli

TYPED = Path(__file__).parent / "data" / "lists" / "typed"
EXPECTED = tomllib.loads((TYPED / "EXPECTED.toml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def kb_file(tmp_path_factory: pytest.TempPathFactory, corpus_graph: Graph) -> Path:
    path = tmp_path_factory.mktemp("kb") / "kb.json"
    store.save(corpus_graph.kb, path)
    return path


def test_every_typed_list_has_its_figures() -> None:
    assert sorted(EXPECTED) == sorted(p.name for p in TYPED.iterdir() if p.name != "EXPECTED.toml")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_typed_list_checks_as_expected(name: str, kb_file: Path) -> None:
    want = EXPECTED[name]
    result = CliRunner().invoke(cli, ["check-list", str(TYPED / name), "--kb", str(kb_file),
                                      "--format", "json"])
    assert result.exit_code == want["exit"], result.output
    report = json.loads(result.stdout)
    assert report["system"] == want["system"]
    assert report["errors"] == []
    units = report["units"]
    assert (len(units), sum(u["models"] for u in units),
            sum(u["points"] or 0 for u in units)) == (want["units"], want["models"], want["points"])
    summary = report["summary"]
    assert (summary["violation"], summary["warning"], summary["not_covered"]) == (
        want["violations"], want["warnings"], want["not_covered"])
    resolved = {a["rule"]["title"] for u in units for a in u["applies"]
                if a["because"].startswith(("заявлено", "ключевое слово"))}
    assert resolved == set(want["resolved"])
