"""The statistical game detection (ingest/detect.py): its terms, its table, and how it judges
pages it did not learn from (each training source left out in turn)."""

from __future__ import annotations

from pathlib import Path

import pytest
from detect_training import evaluation, learned, leave_one_out

from ingest.detect import TABLE, model, table, terms
from ingest.load import describe_evidence, detect_system


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


def _cases() -> list[object]:
    import yaml

    folder = Path(__file__).parent / "data" / "detect" / "cases"
    expected = yaml.safe_load((folder / "expected.yaml").read_text(encoding="utf-8"))
    out: list[object] = []
    for name, row in expected.items():
        marks = ([pytest.mark.xfail(reason=row["known_miss"], strict=True)]
                 if "known_miss" in row else [])
        out.append(pytest.param((folder / name).read_text(encoding="utf-8"), row["system"],
                                id=name, marks=marks))
    return out


def test_pages_it_never_learned_from() -> None:
    """The pages of tests/data/detect/eval/ (articles, forums, reviews and other editions of
    the three games, other games' pages), judged by the committed table: today 14 of 31 right
    (3 of the 18 pages of ours named right, 11 of the 13 of other games unclear); a floor, so a
    change that loses one shows."""
    rows = evaluation()
    ours = [(name, cls, got) for name, cls, got, _ in rows if cls != "other"]
    others = [(name, got) for name, cls, got, _ in rows if cls == "other"]
    right = sum(got == cls for _, cls, got in ours)
    unclear = sum(got is None for _, got in others)
    assert len(rows) == 31 and right >= 3 and unclear >= 11, (ours, others)


@pytest.mark.parametrize(("text", "expected"), _cases())
def test_short_texts_of_each_kind(text: str, expected: str | None) -> None:
    """Short pages (half a web page) of the three games' rules, a forum post, other games'
    rules; and the kinds known to fail today (another edition's 40k, a 10th-edition article, an
    Age of Sigmar page), marked with why."""
    assert detect_system(text) == expected, describe_evidence(text)
