"""Fixtures shared by the test modules."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb import store
from kb.models import KnowledgeBase

MINI_KB = Path(__file__).parent / "data" / "kb" / "mini_kb.json"


@pytest.fixture(scope="session")
def mini_kb() -> KnowledgeBase:
    """A small hand-written KB of two systems (tests/data/kb/mini_kb.json)."""
    return store.loads(MINI_KB.read_text(encoding="utf-8"), str(MINI_KB))
