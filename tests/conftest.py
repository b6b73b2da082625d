"""Fixtures shared by the test modules."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb import store
from kb.graph import Graph
from kb.models import KnowledgeBase

MINI_KB = Path(__file__).parent / "data" / "kb" / "mini_kb.json"


@pytest.fixture(scope="session")
def mini_kb() -> KnowledgeBase:
    """A small hand-written KB of two systems (tests/data/kb/mini_kb.json)."""
    return store.loads(MINI_KB.read_text(encoding="utf-8"), str(MINI_KB))


CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


@pytest.fixture(scope="session")
def corpus_graph() -> Graph:
    """The graph of the real corpus (../shared/corpus), built once per test session."""
    from ingest import build, load

    return Graph(build(load([CORPUS])).kb)


def graph_of_corpus_copy(tmp_path: Path, edits: dict[str, tuple[str, str]]) -> Graph:
    """The graph of a copy of the corpus with text replaced: ``{file: (old, new)}``.

    The corpus is read-only in CI; tests change a copy. Each ``old`` must occur in its file.
    """
    import shutil

    from ingest import build, load

    copy = tmp_path / "corpus"
    shutil.copytree(CORPUS, copy)
    for name, (old, new) in edits.items():
        path = copy / name
        path.chmod(0o644)
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{old!r} not in {name}"
        path.write_text(text.replace(old, new), encoding="utf-8")
    return Graph(build(load([copy])).kb)


@pytest.fixture(autouse=True, scope="session")
def _cache_outside_home(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The default KB and lemma caches of a test run go to a temporary folder, not ~/.cache
    (unless $RULEKB_CACHE says where)."""
    import os

    if not os.environ.get("RULEKB_CACHE"):
        os.environ["RULEKB_CACHE"] = str(tmp_path_factory.mktemp("rulekb-cache"))
