"""Where a tag's attributes end (``ingest/html_attributes.py``): token by token as the pattern
reads them, a later "<" inside a stretch read before going on where it ended, and each
character of a page of tags that never end read a bounded number of times."""

from __future__ import annotations

import random
import re

import pytest

import ingest.html_attributes as attributes
from ingest.html_attributes import ATTRIBUTES, AttributeScan


def _ends(text: str, reach: int) -> list[int | None]:
    """Each "<"'s tag end by :class:`AttributeScan`, read as ``_read`` reads a page's "<"s (in
    order, each over ``reach`` characters), after checking it is the pattern's."""
    scan = AttributeScan(text)
    out = []
    for m in re.finditer("<", text):
        start, bound = m.start() + 1, min(len(text), m.start() + reach)
        want = ATTRIBUTES.match(text, start, bound)
        got = scan.end(start, bound)
        assert got == (want.end() if want else None), (text, m.start())
        out.append(got)
    return out


@pytest.mark.parametrize(("text", "reach", "ends"), [
    ('<a href="/x">', 100, [13]),
    ('<a x=">" <a x=">" <a href="/">', 100, [30, 30, 30]),  # one tag to the last ">"
    ('<a x=">" <a x=">" <a x=">" ', 20, [None, None, None]),  # none ends within reach
    ('<a x=">" <a x=">" <a x=">" <b>', 14, [None, None, 30, 30]),  # the third's reach has it
    ("<a title='Паника <ul><li>x</li>", 100, [None, 21, 25, 31]),  # a quote never closed
    ('<p class="' + "x" * 2_500 + '">', 5_000, [None]),  # a value past 2,000 characters
    ('<p  =  "a">', 100, [11]),  # (read from the "<": its name is a name too)
])
def test_where_a_tag_ends(text: str, reach: int, ends: list[int | None]) -> None:
    assert _ends(text, reach) == ends


def test_the_patterns_tag_ends_on_broken_tags() -> None:
    """Soups of broken tags' pieces, each "<" read over a short reach, so that most stretches
    run into their bound: every end is the pattern's (:func:`_ends` checks each)."""
    rng = random.Random(10)
    pieces = ['<a', ' ', 'x', '=', '"', "'", '>', '/', '\n', 'href', '"q"', "'v'", '<', '  ',
              '=">"', ' <a x=">" ', '"' + 'z' * 50, 'y' * 30, ' = ']
    for _ in range(1_500):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 300)))
        _ends(text, rng.choice([15, 40, 120, 400]))


def test_tags_that_never_end_read_each_character_a_bounded_number_of_times(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A run of 20,000 tags none of which ends within its reach (a quoted ">" in each, the next
    "<a" read as its attribute): the whole pattern is tried a few times, the tokens read each
    character a few times (each "<" read its whole reach of 5,000 characters again before)."""
    read = {"pattern": 0, "tokens": 0}

    class Counting:
        def __init__(self, pattern: re.Pattern[str], name: str) -> None:
            self.pattern, self.name = pattern, name

        def match(self, text: str, pos: int, endpos: int) -> re.Match[str] | None:
            found = self.pattern.match(text, pos, endpos)
            read[self.name] += 1 if self.name == "pattern" else (found.end() - pos if found else 1)
            return found

    monkeypatch.setattr(attributes, "_TOKEN", Counting(attributes._TOKEN, "tokens"))
    monkeypatch.setattr(attributes, "ATTRIBUTES", Counting(ATTRIBUTES, "pattern"))
    text = '<a x=">" ' * 20_000
    scan = AttributeScan(text)
    for m in re.finditer("<", text):
        assert scan.end(m.start() + 2, min(len(text), m.start() + 5_000)) is None
    assert read["pattern"] < 10  # (the first "<", and near the text's end, where reach stops)
    assert read["tokens"] < 3 * len(text)
