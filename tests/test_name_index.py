"""The indexes of known names a build keeps up to date as names are added (each added name
read once): the longest name a first word opens (``extract._first_lemmas``) and the starts of
longer names (``resolve_mentions._name_starts``), each the same as read anew from all names."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from ingest.extract import _first_lemmas
from ingest.resolve_mentions import _name_starts, _prefix_of_name

NAMES = [("страх",), ("ядовитый", "атака"), ("большой", "цель"), ("ядовитый",),
         ("смертельный", "удар"), ("героический", "смертельный", "удар"), ("большой",)]


def _anew_firsts(keys: dict[tuple[str, ...], str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for k in keys:
        if k:
            out[k[0]] = max(out.get(k[0], 0), len(k))
    return out


def test_the_first_words_index_grows_with_the_names() -> None:
    keys: dict[tuple[str, ...], str] = {}
    for k, name in enumerate(NAMES):
        keys[name] = f"n{k}"
        assert _first_lemmas(keys) == _anew_firsts(keys)
    other = dict(keys)  # (another dict of the same names: its own index)
    assert _first_lemmas(other) == _anew_firsts(keys)


def test_the_starts_of_names_grow_with_the_names() -> None:
    r = SimpleNamespace(keys={})
    for k, name in enumerate(NAMES):
        r.keys[name] = f"n{k}"
        assert _name_starts(r) == {n[:j] for n in r.keys for j in range(1, len(n))}  # type: ignore[arg-type]


@pytest.mark.parametrize(("raw", "prefix"), [
    ("Ядовитых", True),  # «Ядовитые атаки» goes on
    ("Героический смертельный", True),
    ("Смертельный удар", False),  # a whole name, none longer
    ("Страх", False),
    ("", False),
])
def test_a_name_that_opens_a_longer_one(raw: str, prefix: bool) -> None:
    r = SimpleNamespace(keys={name: f"n{k}" for k, name in enumerate(NAMES)})
    assert _prefix_of_name(r, raw) is prefix  # type: ignore[arg-type]
