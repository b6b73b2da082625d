"""A damaged kb.json: one Russian line saying where and what, exit 2, never a traceback or a hang.

Each row damages the small KB of ``tests/data/kb/mini_kb.json`` the way fuzzing the command
line found a kb.json could be damaged, and runs ``rulekb stats`` on it: an edge to a node the
KB lacks had ``stats`` and ``check-list`` fail with a ``KeyError``, a section inside itself
had ``check-list`` and ``audit`` walk its parents for ever, a distance that is no number had
``audit`` fail with a ``TypeError``; nesting, a long number and a lone surrogate escape were
tracebacks of their own, and a field of the wrong type was said in pydantic's English.

Sections in a loop are no damage the loader refuses (the site's hostile KB holds one, and
the site draws it): the checks walk them once (:func:`validator.rulebook.ancestors`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kb import store
from kb.graph import Graph
from rulekb.cli import cli

MINI_KB = Path(__file__).parent / "data" / "kb" / "mini_kb.json"
TEXT = MINI_KB.read_text(encoding="utf-8")
REBUILD = "файл базы знаний повреждён, соберите его заново (rulekb build)"


def _edited(change: Callable[[dict[str, Any]], None]) -> bytes:
    data = json.loads(TEXT)
    change(data)
    return json.dumps(data, ensure_ascii=False, indent=1).encode()


def _node(data: dict[str, Any], node_id: str) -> dict[str, Any]:
    return next(n for n in data["nodes"] if n["id"] == node_id)


def _without_granted_rule(data: dict[str, Any]) -> None:
    data["nodes"] = [n for n in data["nodes"] if n["id"] != "wh40k6:molot-yarosti"]


def _distance_in_words(data: dict[str, Any]) -> None:
    _node(data, "wh40k6:turbo-uskorenie")["facts"] = [{
        "name": "max_distance", "kind": "distance", "value": "двенадцать", "text": '12"',
        "evidence": "При турбо-ускорении …", "span": [0, 3]}]


def _distance_of_400_digits(data: dict[str, Any]) -> None:
    _distance_in_words(data)
    _node(data, "wh40k6:turbo-uskorenie")["facts"][0]["value"] = 10**400


def _unknown_kind(data: dict[str, Any]) -> None:
    _node(data, "whfb8:mudrec")["kind"] = "spell"


CASES: list[tuple[str, bytes, int, str]] = [
    ("edge-to-a-missing-node", _edited(_without_granted_rule), 2,
     "kb.json: строка 372: связь grants «wh40k6:motocikly-i-gravicikly» → "
     f"«wh40k6:molot-yarosti»: узла «wh40k6:molot-yarosti» в базе знаний нет; {REBUILD}"),
    ("distance-in-words", _edited(_distance_in_words), 2,
     "kb.json: строка 206: узел «wh40k6:turbo-uskorenie»: факт «max_distance» (distance) — не "
     f"конечное число: двенадцать; {REBUILD}"),
    ("distance-of-400-digits", _edited(_distance_of_400_digits), 0, ""),  # a number still
    ("unknown-node-kind", _edited(_unknown_kind), 2,
     "kb.json: строка 240: поле nodes[13].kind (узел «whfb8:mudrec»): недопустимое значение; "
     "допустимые: rule, unit_type, concept, page, source; ожидалась база знаний, записанная "
     "rulekb build"),
    ("lone-surrogate", TEXT.replace('"Артиллерия"', '"Артиллерия \\ud800"', 1).encode(), 2,
     "kb.json: строка 35, столбец 25: недопустимая escape-последовательность «\\ud800»: "
     "половина суррогатной пары UTF-16 без второй половины"),
    ("cut-short", TEXT[:500].encode(), 2,
     "kb.json: строка 28, столбец 15: это не JSON: ожидалось значение"),
    ("nested-deep", b'{"schema": "rulekb.kb/1", "nodes": ' + b"[" * 100_000 + b"]" * 100_000
     + b"}", 2, "kb.json: это не база знаний: JSON вложен слишком глубоко"),
    ("long-number", TEXT.replace('"page": null', '"page": ' + "9" * 5000, 1).encode(), 2,
     "kb.json: это не база знаний: число длиннее 4300 цифр"),
    ("latin-1", TEXT.encode().replace("Мудрец".encode(), b"Mudrec\xe9"), 2,
     "kb.json: строка 243: файл не в кодировке UTF-8 (байт 0xe9); ожидалась база знаний, "
     "записанная rulekb build"),
    ("byte-order-mark", b"\xef\xbb\xbf" + TEXT.encode(), 0, ""),
]


@pytest.mark.parametrize(("content", "code", "line"), [case[1:] for case in CASES],
                         ids=[case[0] for case in CASES])
def test_a_damaged_kb(content: bytes, code: int, line: str, tmp_path: Path,
                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "kb.json").write_bytes(content)
    result = CliRunner().invoke(cli, ["stats", "--kb", "kb.json"])
    assert "Traceback" not in result.output
    assert (result.exit_code, result.stderr) == (code, f"Ошибка: {line}\n" if line else "")


def test_the_built_kb_holds_together() -> None:
    """What ``rulekb build`` writes passes every check the loader makes."""
    kb = store.loads(TEXT, str(MINI_KB))
    assert store.loads(store.dumps(kb)) == kb


@pytest.mark.parametrize(("text", "found"), [
    ('"a\\ud800"', (2, "\\ud800")),
    ('"a\\udc00b"', (2, "\\udc00")),
    ('"\\ud83d\\ude00"', None),  # a whole pair
    ('"\\\\ud800"', None),  # a backslash, then text
    ('"\\ud83d\\u0041"', (1, "\\ud83d")),
])
def test_lone_surrogate(text: str, found: tuple[int, str] | None) -> None:
    assert store.lone_surrogate(text) == found


def test_sections_in_a_loop_are_checked(corpus_graph: Graph, tmp_path: Path) -> None:
    """Every section its own parent, and two sections each part of the other: ``check-list``
    and ``audit`` went round the parents for ever; they give what the sound KB gives."""
    data = json.loads(store.dumps(corpus_graph.kb))
    sound = tmp_path / "sound.json"
    sound.write_text(store.dumps(corpus_graph.kb), encoding="utf-8")
    for node in data["nodes"]:
        if node["parent"]:
            node["parent"] = node["id"]
    part_of = next(e for e in data["edges"] if e["kind"] == "part_of")
    data["edges"].append({**part_of, "source": part_of["target"], "target": part_of["source"]})
    looped = tmp_path / "looped.json"
    looped.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    data_dir = Path(__file__).parent / "data"
    for args in (["check-list", str(data_dir / "lists" / "ok"), str(data_dir / "rosters" / "real")],
                 ["audit", str(data_dir / "games" / "whfb8" / "small.jsonl"),
                  str(data_dir / "games" / "wh40k6" / "small.jsonl")],
                 ["stats"], ["show", "Паника", "--system", "whfb8"]):
        codes = [CliRunner().invoke(cli, [*args, "--kb", str(kb)]).exit_code
                 for kb in (sound, looped)]
        assert codes[0] == codes[1] and codes[0] in (0, 1), args
    graph = Graph(store.load(looped))
    node = next(n for n in graph.kb.nodes if n.parent)
    assert graph.ancestors(node.id) == []  # its own parent: no ancestor, no endless walk
    cycle = part_of["source"]
    assert [n.id for n in graph.descendants(cycle)].count(cycle) == 0  # each once, not itself


def test_a_reference_to_a_missing_node_counts_unresolved() -> None:
    """The site's hostile KB refers to a node it lacks (loading lets it be): ``stats``
    counts that reference unresolved instead of failing on it."""
    hostile = Path(__file__).parent / "data" / "site" / "hostile_kb.json"
    result = CliRunner().invoke(cli, ["stats", "--kb", str(hostile), "--json"])
    assert result.exit_code == 0, result.output
    row = json.loads(result.output)[0]
    assert row["references_resolved"] + row["references_unresolved"] == sum(
        1 for e in store.load(hostile).edges if e.kind == "references")
