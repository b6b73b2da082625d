"""Glossaries' runs of headings in alphabetical order (ingest/segment_alphabet.py, ``_runs``):
which headings are entries and which break the order between them."""

from __future__ import annotations

import pytest

from ingest.segment_alphabet import MIN_ENTRIES, _runs

ENTRIES = ["атака", "бесстрашие", "вера", "гнев", "дар", "ересь", "жажда", "зов", "ирония",
           "клич", "лёд", "мощь"]


def runs(keys: list[str | None]) -> list[tuple[list[int], list[int]]]:
    # (the key stands for a heading's title, as _runs reads it of each section)
    return _runs(list(range(len(keys))), lambda key: key, keys)  # type: ignore[arg-type,return-value]


@pytest.mark.parametrize(("keys", "expected"), [
    (ENTRIES, [(list(range(12)), [])]),
    (ENTRIES[:MIN_ENTRIES - 1], []),  # too few to be a glossary
    # a page's title and a heading out of order before the entries: the run starts at its
    # first two adjacent entries
    (["армейский список", "специальные правила", *ENTRIES], [(list(range(2, 14)), [])]),
    # an entry's own parts between two entries ("Урон" / "Тяжёлое ранение" under "Вера")
    (["атака", "бесстрашие", "вера", "урон", "тяжёлое ранение", *ENTRIES[3:]],
     [([0, 1, 2, *range(5, 14)], [3, 4])]),
    # three headings out of order end it; too many breakers make none
    ([*ENTRIES[:6], "я", "ю", "э", *ENTRIES[6:]], []),
    ([x for e in ENTRIES for x in (e, "яма")], []),
    # units with the same part under each, thousands of them: no run, each heading looked at
    # a bounded number of times (benchmarks/ingest_shapes.py times that shape)
    ([x for i in range(2_000) for x in (f"отряд {i}", "стрельба")], []),
    ([None, *ENTRIES, None], [(list(range(1, 13)), [])]),  # a heading with no key is none
])
def test_a_glossary_s_runs(keys: list[str | None],
                           expected: list[tuple[list[int], list[int]]]) -> None:
    assert runs(keys) == expected
