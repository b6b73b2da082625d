"""The statistical game detection (ingest/detect.py): its terms, its table, and how it judges
pages it did not learn from (each training source left out in turn)."""

from __future__ import annotations

import pytest
from detect_training import learned, leave_one_out

from ingest.detect import TABLE, model, table, terms


@pytest.mark.parametrize(("text", "expected"), [
    ("Боевые единицы", {"боевой", "единица", "боевой единица"}),
    ("нападение (charge)", {"нападение", "charg"}),  # no pair across a bracket
    ("CHARGING, charges", {"charg"}),  # a crude English stem
    ("Warhammer 40,000", {"warhammer", "warhammer 40"}),  # a number only after a Latin word
    ("на 2D6 и 3d6", {"#d#"}),  # dice; prepositions and conjunctions are no terms
    ("Проверка на боевой дух", {"проверка", "боевой", "дух", "боевой дух"}),
])
def test_terms(text: str, expected: set[str]) -> None:
    assert terms(text) == expected


def test_the_committed_table_is_what_the_training_pages_give() -> None:
    from importlib import resources

    committed = resources.files("ingest").joinpath(TABLE).read_text(encoding="utf-8")
    assert committed == table(learned()), (
        "ingest/data/system_terms.tsv is stale: run .venv/bin/python tests/detect_training.py")


def test_the_model_reads_back_what_it_wrote() -> None:
    assert model().counts == learned().counts


def test_pages_it_did_not_learn_from() -> None:
    """Each training source judged by a model learned without it, as a build judges it (without
    its site's furniture): today 24 of the 32 pages of the three games are named right and 2
    wrongly, 25 of the 29 pages of other games are unclear (tests/detect_training.py --check
    prints them). (The fourth pass of issue 10 added 13 pages of other games, which cost one
    page of ours its margin: 25 → 24; the fifth judged pages without their furniture, which
    made one more page of another game unclear, and added a WHFB rules page.)"""
    rows = leave_one_out()
    ours = [(name, cls, got) for name, cls, got, _ in rows if cls != "other"]
    others = [(name, got) for name, cls, got, _ in rows if cls == "other"]
    right = sum(got == cls for _, cls, got in ours)
    wrong = [(name, cls, got) for name, cls, got in ours if got not in (None, cls)]
    unclear = sum(got is None for _, got in others)
    assert right >= 24 and len(wrong) <= 2 and unclear >= 25, (right, wrong, others)
