"""Game-log headers leave ``models`` out where the army implies it, as lists do (issue 9,
item 4): a unit described by its ``parts`` counts their models, a Kill Team model is one. The
game is audited, not refused for a field nobody needs to write.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb import store
from kb.graph import Graph
from rulekb.cli import cli
from validator.inputs.gamelog import read_log


@pytest.fixture(scope="module")
def kb_file(tmp_path_factory: pytest.TempPathFactory, corpus_graph: Graph) -> Path:
    path = tmp_path_factory.mktemp("kb") / "kb.json"
    store.save(corpus_graph.kb, path)
    return path


def _log(path: Path, header: dict[str, object], *events: dict[str, object]) -> Path:
    lines = [json.dumps(header, ensure_ascii=False)]
    lines += [json.dumps(e, ensure_ascii=False) for e in events]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_inline_armies_without_models(tmp_path: Path, kb_file: Path) -> None:
    log = _log(tmp_path / "kt.jsonl", {
        "type": "game", "system": "killteam2018", "armies": {
            "A": {"units": [{"id": "hawk", "name": "Пикирующий ястреб", "keywords": ["FLY"]}]},
            "B": {"units": [{"id": "scout", "name": "Разведчик"}]}}},
        {"turn": 1, "phase": "движение", "player": "A", "unit": "hawk", "action": "move",
         "distance": 3})
    game = read_log(log)
    armies = {side: [(u.id, u.models) for u in army.units] for side, army in game.armies.items()}
    assert armies == {"A": [("hawk", 1)], "B": [("scout", 1)]}
    result = CliRunner().invoke(cli, ["audit", str(log), "--kb", str(kb_file)])
    assert result.exit_code < 2, result.output
    assert "models" not in result.output


def test_a_unit_of_parts_counts_their_models(tmp_path: Path, kb_file: Path) -> None:
    cannon = {"id": "cannon", "name": "Пушка", "type": "Боевая машина",
              "parts": [{"role": "gun", "count": 1}, {"role": "crew", "count": 3}]}
    log = _log(tmp_path / "whfb.jsonl", {
        "type": "game", "system": "whfb8", "armies": {
            "A": {"units": [cannon]},
            "B": {"units": [{"id": "trolls", "name": "Тролли", "type": "Пехота Чудовищ",
                             "models": 3}]}}},
        {"turn": 1, "phase": "движение", "player": "B", "unit": "trolls", "action": "move",
         "distance": 6})
    game = read_log(log)
    assert [u.models for u in game.armies["A"].units] == [4]
    result = CliRunner().invoke(cli, ["audit", str(log), "--kb", str(kb_file)])
    assert result.exit_code < 2, result.output


def test_a_header_naming_a_list_file_without_models(tmp_path: Path) -> None:
    army = tmp_path / "a.yaml"
    army.write_text("system: killteam2018\nname: A\nunits:\n  - {id: m1, name: Боец}\n"
                    "  - {id: m2, name: Боец, keywords: [INFANTRY]}\n", encoding="utf-8")
    log = _log(tmp_path / "g.jsonl", {"type": "game", "system": "killteam2018",
                                      "armies": {"A": "a.yaml"}})
    game = read_log(log)
    assert [u.models for u in game.armies["A"].units] == [1, 1]
