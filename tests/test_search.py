"""Full-text search over a small KB of two systems (tests/data/kb/mini_kb.json)."""

from __future__ import annotations

import random

import pytest

from kb.models import KnowledgeBase
from kb.search import FullTextIndex, make_snippet, word_terms


@pytest.fixture(scope="module")
def index(mini_kb: KnowledgeBase) -> FullTextIndex:
    return FullTextIndex(mini_kb.nodes)


@pytest.mark.parametrize(
    ("word", "terms"),
    [
        ("Турбо-ускорении", ("турбо-ускорение", "турбо", "ускорение")),
        ("3D6", ("3d6",)),
        ("24", ("24",)),
        ("Regeneration", ("regeneration",)),
        ("Регенерацию", ("регенерация",)),
        ("Молот", ("молотый", "молот", "молоть")),
        ("ёлки", ("елка",)),
    ],
)
def test_word_terms(word: str, terms: tuple[str, ...]) -> None:
    assert word_terms(word) == terms


# query, system, first hit, whether all query words are in its title or an alias, matched terms
FIRST_HIT_CASES = [
    ("регенирация", None, "whfb8:regeneraciya", True, ("регенерация",)),
    ("Регенерацию", "whfb8", "whfb8:regeneraciya", True, ("регенерация",)),
    ("Regeneration", None, "whfb8:regeneraciya", True, ("regeneration",)),
    ("турбо ускорение", "wh40k6", "wh40k6:turbo-uskorenie", True, ("турбо", "ускорение")),
    ("турбо-ускорении", None, "wh40k6:turbo-uskorenie", True, ("турбо-ускорение",)),
    ("молотом ярости", "wh40k6", "wh40k6:molot-yarosti", True, ("молот", "ярость")),
    ("Молот ярости", None, "wh40k6:molot-yarosti", True, ("молотый", "ярость")),
    ("Смертельного удара", None, "whfb8:smertelnyi-udar", True, ("смертельный", "удар")),
    ("Гравицыклы", "wh40k6", "wh40k6:motocikly-i-gravicikly", True, ("гравицикл",)),
    ("огненные атаки", None, "whfb8:ognennye-ataki", True, ("огненный", "атака")),
    ("3D6", "whfb8", "whfb8:otstuplenie", False, ("3d6",)),
    ("киньте D6", None, "whfb8:regeneraciya", False, ("кинуть", "d6")),
    ("Отступление", "wh40k6", "wh40k6:otstuplenie", True, ("отступление",)),
    ("Отступление", "whfb8", "whfb8:otstuplenie", True, ("отступление",)),
]


@pytest.mark.parametrize(("query", "system", "node_id", "in_name", "matched"), FIRST_HIT_CASES)
def test_first_hit(
    index: FullTextIndex,
    query: str,
    system: str | None,
    node_id: str,
    in_name: bool,
    matched: tuple[str, ...],
) -> None:
    first = index.search(query, system)[0]
    assert (first.node_id, first.in_name, first.matched) == (node_id, in_name, matched)


@pytest.mark.parametrize(
    ("query", "system", "ids"),
    [
        (
            "3D6",
            None,
            ["whfb8:otstuplenie", "wh40k6:pryzhkovye", "wh40k6:motocikly-i-gravicikly"],
        ),
        ("3d6", "wh40k6", ["wh40k6:pryzhkovye", "wh40k6:motocikly-i-gravicikly"]),
        (
            "молотом ярости",
            "wh40k6",
            [
                "wh40k6:molot-yarosti",
                "wh40k6:motocikly-specialnye-pravila",
                "wh40k6:pryzhkovye",
            ],
        ),
        (
            "Отступление",
            "wh40k6",
            ["wh40k6:otstuplenie", "wh40k6:pryzhkovye", "wh40k6:motocikly-i-gravicikly"],
        ),
        # systems never mix
        ("Регенерация", "wh40k6", []),
        ("Турбо-ускорение", "whfb8", []),
        ("Отступление", "whfb8", ["whfb8:otstuplenie"]),
        ("", None, []),
        ("…", None, []),
        ("абракадабра", None, []),
    ],
)
def test_search_ids(index: FullTextIndex, query: str, system: str | None, ids: list[str]) -> None:
    assert [hit.node_id for hit in index.search(query, system)] == ids


def test_limit(index: FullTextIndex) -> None:
    assert [hit.node_id for hit in index.search("3D6", limit=1)] == ["whfb8:otstuplenie"]


@pytest.mark.parametrize(
    ("query", "node_id", "snippet", "highlights"),
    [
        (
            "регенирация",
            "whfb8:regeneraciya",
            "…4-6 рана игнорируется. Описанная выше [Регенерация] является стандартной, но "
            "бывают и особые виды этого Специального Правила, например [Регенерация] (5+). "
            "Если…",
            ((170, 181), (265, 276)),
        ),
        (
            "молотом ярости",
            "wh40k6:pryzhkovye",
            "…ранец для нападения, получает правило «[молот ярости]» до конца хода. "
            'При отступлении прыжковые боевые единицы передвигаются на 3D6".',
            ((70, 82),),
        ),
        (
            "турбо ускорение",
            "wh40k6:turbo-uskorenie",
            "…специальное движение, называемое [турбо-ускорением], которым можно "
            "воспользоваться вместо произведения выстрела в фазе стрельбы. "
            "При [турбо-ускорении] мотоциклы…",
            ((88, 104), (186, 201)),
        ),
        # only the alias matched: the text's start, nothing marked
        (
            "Regeneration",
            "whfb8:regeneraciya",
            "Тролли, Росомахи и другие существа могут залечивать раны. За каждую нанесенную "
            "рану киньте D6: на 1-3 рана наносится как обычно, на 4-6 рана игнорируется.…",
            (),
        ),
        # a concept has no text
        ("Молот ярости", "wh40k6:molot-yarosti", "", ()),
    ],
)
def test_snippet(
    index: FullTextIndex,
    query: str,
    node_id: str,
    snippet: str,
    highlights: tuple[tuple[int, int], ...],
) -> None:
    hit = next(h for h in index.search(query) if h.node_id == node_id)
    assert (hit.snippet, hit.highlights) == (snippet, highlights)


def test_highlights_point_into_the_text(index: FullTextIndex, mini_kb: KnowledgeBase) -> None:
    text = next(n.text for n in mini_kb.nodes if n.id == "wh40k6:turbo-uskorenie")
    hit = index.search("турбо ускорение", "wh40k6")[0]
    assert [text[a:b] for a, b in hit.highlights] == ["турбо-ускорением", "турбо-ускорении"]


@pytest.mark.parametrize(
    ("text", "terms", "expected"),
    [
        (
            "Бегущий отряд передвигается на 3D6.",
            {"3d6"},
            ("Бегущий отряд передвигается на [3D6].", ((31, 34),)),
        ),
        ("", {"3d6"}, ("", ())),
        ("Без совпадений.", {"3d6"}, ("Без совпадений.", ())),
        (
            "слово " * 40 + "цель",
            {"цель"},
            ("…слово слово слово слово слово слово [цель]", ((240, 244),)),
        ),
    ],
)
def test_make_snippet(
    text: str, terms: set[str], expected: tuple[str, tuple[tuple[int, int], ...]]
) -> None:
    assert make_snippet(text, terms) == expected


def test_scores_descend_within_a_tier(index: FullTextIndex) -> None:
    hits = index.search("гравициклы", "wh40k6")
    assert [(h.node_id, h.in_name) for h in hits] == [
        ("wh40k6:motocikly-i-gravicikly", True),
        ("wh40k6:eldarskie-gravicikly", True),
        ("wh40k6:turbo-uskorenie", False),
    ]
    assert hits[0].score > hits[1].score


def test_order_does_not_depend_on_node_order(mini_kb: KnowledgeBase) -> None:
    shuffled = list(mini_kb.nodes)
    random.Random(3).shuffle(shuffled)
    other = FullTextIndex(shuffled)
    index = FullTextIndex(mini_kb.nodes)
    for query in ("3D6", "и", "Гравицыклы", "регенирация", "молот ярости"):
        assert other.search(query) == index.search(query)


def test_only_rules_unit_types_and_concepts(index: FullTextIndex) -> None:
    assert len(index) == 18
    assert index.search("Страница 42") == []
