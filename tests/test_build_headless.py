"""A text in which no heading is found: its first line as its title, or one passage."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from ingest import build, load

CASES = Path(__file__).parent / "data" / "build" / "headless.toml"


def _cases() -> list[dict[str, object]]:
    cases: list[dict[str, object]] = tomllib.loads(CASES.read_text(encoding="utf-8"))["case"]
    return cases


@pytest.mark.parametrize("case", _cases(), ids=lambda c: str(c["name"]))
def test_a_text_without_headings(case: dict[str, object], tmp_path: Path) -> None:
    page = tmp_path / "page.txt"
    page.write_text(str(case["text"]), encoding="utf-8")
    kb = build(load([page], system=str(case["system"]))).kb
    rules = [n for n in kb.nodes if n.kind == "rule"]
    assert [(n.title, n.category, list(n.aliases)) for n in rules] == [
        (case["title"], case["category"], case["aliases"])]
    assert rules[0].text.strip()  # the text is kept, whichever it is

