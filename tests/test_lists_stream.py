"""A big list is read in two passes and streamed; a small one is read whole. Both must give
the same report: every list file of tests/data/lists is checked both ways (the streaming
threshold lowered to nothing) and the text and JSON reports compared, broken files included.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from kb.graph import Graph
from validator.armylist import write_lists
from validator.armylist.context import DeclaredRules, Resolver
from validator.inputs import source
from validator.inputs.lists import ListInputError
from validator.inputs.models import Part, Unit
from validator.inputs.positions import Pos, PositionTable

LISTS = Path(__file__).parent / "data" / "lists"
FILES = sorted(p for p in LISTS.rglob("*") if p.suffix in (".yaml", ".yml", ".json"))


def _report(path: Path, graph: Graph, fmt: str) -> tuple[int, str]:
    out = io.StringIO()
    code = write_lists([path], graph, out, fmt)
    return code, out.getvalue()


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(LISTS)))
def test_streamed_equals_whole(path: Path, corpus_graph: Graph,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    whole = {fmt: _report(path, corpus_graph, fmt) for fmt in ("text", "json")}
    monkeypatch.setattr(source, "STREAM_BYTES", -1)
    streamed = {fmt: _report(path, corpus_graph, fmt) for fmt in ("text", "json")}
    assert streamed == whole


def test_the_files_cover_good_and_broken_lists() -> None:
    assert {p.parent.name for p in FILES} >= {"bad", "checks", "ok", "encodings"}


def test_a_huge_unit_reads_its_rules_again_rather_than_holding_them(
        corpus_graph: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same report whether a unit's rules are held resolved or resolved on each read."""
    path = LISTS / "checks" / "rule_names.yaml"
    held = _report(path, corpus_graph, "json")
    from validator.armylist import context

    unit = Unit(id="a", name="X", rules=("Страх", "Регенерация (5+)"),
                parts=(Part(role="character", rules=("Страх",)),))
    resolver = Resolver(corpus_graph)
    kept = DeclaredRules(unit, "whfb8", resolver)
    monkeypatch.setattr(context, "HELD_RULES", -1)
    assert _report(path, corpus_graph, "json") == held
    again = DeclaredRules(unit, "whfb8", resolver)
    assert list(again) == list(kept) and len(again) == len(kept) == 3
    assert again[-1].field == "parts[0].rules[0]" and again[1].parameter == "5+"
    assert [r.field for r in again[:2]] == ["rules[0]", "rules[1]"]


def test_position_table_keeps_fields_as_numbers() -> None:
    table = PositionTable(Pos(1, 1))
    table.key((), "rules", 2, 3)
    for line in (3, 4, 5):
        table.item(("rules",), line, 5)
    table.key(("rules", 1), "role", 4, 7)
    table.close(("rules", 1))
    table.close(())
    assert table[()] == Pos(1, 1) and table[("rules",)] == Pos(2, 3)
    assert table[("rules", 1)] == Pos(4, 5) and table[("rules", 1, "role")] == Pos(4, 7)
    assert table[("rules", 0)] == Pos(3, 5) and table[("rules", 2)] == Pos(5, 5)  # both ends
    assert ("rules", 3) not in table and ("rules", -1) not in table
    assert ("name",) not in table
    assert sorted(map(str, table)) == sorted(map(str, [
        (), ("rules",), ("rules", 0), ("rules", 1), ("rules", 2), ("rules", 1, "role")]))
    assert len(table) == 6


TRICKY = {
    "anchors.yaml": """\
system: whfb8
name: Якоря
base: &troll {type: Пехота Чудовищ, models: 3, rules: [Регенерация (4+), Страх]}
units:
  - {<<: *troll, id: a, name: Тролли}
  - id: b
    name: Тролли
    <<: *troll
    rules: [Регенерация (7+)]
    parts:
      - {role: champion, count: 1, rules: [Страх, Страх]}
""",
    "anchors_ok.yaml": """\
system: whfb8
name: Якоря
units:
  - &troll {id: a, name: Тролли, type: Пехота Чудовищ, models: 3, rules: [Регенерация (4+)]}
  - <<: *troll
    id: b
    rules: [Регенерация (7+), Страх]
  - {<<: [*troll], id: c, models: 4}
""",
    "duplicate.yaml": """\
system: whfb8
name: Повтор
units:
  - id: a
    name: Тролли
    type: Пехота Чудовищ
    type: Пехота
    models: 3
""",
    "tag.yaml": """\
system: whfb8
name: Тег
units:
  - !!python/object:os.system {id: a, name: X}
""",
    "errors.yaml": """\
system: whfb8
name: Ошибки
units:
  - {id: a, name: X, models: -1}
  - {id: b, name: Y, parts: [{role: нечто}]}
  - {id: c, name: Z, rules: Страх}
""",
    "blocks.yaml": """\
system: whfb8
name: Блоки
units:
  - id: a
    name: Пушка
    type: Боевая машина
    parts:
      - role: gun
        count: 1
      - role: crew
        count: 2
        rules:
          - Страх
          - Регенерация (9+)
    profile:
      M: 4
""",
    "tab.json": '{"system": "whfb8",\\t"name": "Таб", "units": [{"id": "a", "name": "X",'
                '\\t"type": "Пехота", "rules": ["Страх"]}]}',
    "nested.json": '{"system": "whfb8", "name": "Вложенный", "units": [\\n'
                   '  {"id": "a", "name": "X", "type": "Пехота",\\n'
                   '   "parts": [{"role": "character", "rules": ["Регенерация (1+)"]}]}]}',
}


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_streamed_equals_whole_for_tricky_files(name: str, tmp_path: Path, corpus_graph: Graph,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / name
    path.write_text(TRICKY[name], encoding="utf-8")
    whole = {fmt: _report(path, corpus_graph, fmt) for fmt in ("text", "json")}
    monkeypatch.setattr(source, "STREAM_BYTES", -1)
    streamed = {fmt: _report(path, corpus_graph, fmt) for fmt in ("text", "json")}
    assert streamed == whole


@pytest.mark.parametrize("extra", [0, 1])
def test_a_streamed_list_keeps_the_first_errors_and_counts_the_rest(
        extra: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """MAX_ERRORS + ``extra`` repeated fields: the first MAX_ERRORS are kept, the rest counted
    in one more line."""
    monkeypatch.setattr(source, "STREAM_BYTES", -1)
    count = source.MAX_ERRORS + extra
    units = "".join(f"  - {{id: u{i}, name: А, name: Б, type: Пехота, models: 5}}\n"
                    for i in range(count))
    path = tmp_path / "repeats.yaml"
    path.write_text(f"system: whfb8\nunits:\n{units}", encoding="utf-8")
    with pytest.raises(ListInputError) as caught:
        source.open_list(path)
    errors = caught.value.errors
    repeated = [e for e in errors if e.kind == "duplicate"]
    assert len(repeated) == source.MAX_ERRORS, len(repeated)
    more = [e.message for e in errors if e.kind == "more"]
    assert more == ([f"и ещё ошибок: {extra} (показаны первые {source.MAX_ERRORS})"]
                    if extra else []), more
