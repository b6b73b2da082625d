"""End to end on ../shared/corpus: the KB holds what a careful reader finds in the texts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from ingest import build, load
from kb import Graph, KnowledgeBase, dumps
from kb.lemmas import fold
from rulekb.defaults import find_node

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
GOLD = CORPUS.parent / "gold-example"


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return build(load([CORPUS])).kb


@pytest.fixture(scope="module")
def graph(kb: KnowledgeBase) -> Graph:
    return Graph(kb)


def by_title(graph: Graph, system: str, title: str, parent: str | None = "?") -> str:
    hits = [n for n in graph.nodes.values() if n.system == system and fold(n.title) == fold(title)
            and (parent == "?" or (graph.nodes[n.parent].title if n.parent else None) == parent)]
    assert len(hits) == 1, (title, [h.id for h in hits])
    return hits[0].id


def test_same_corpus_same_bytes(kb: KnowledgeBase) -> None:
    assert dumps(kb) == dumps(build(load([CORPUS])).kb)


def test_the_built_kb_is_what_its_schema_validates(kb: KnowledgeBase) -> None:
    # what the build made is what the model validates, with the same values and types
    again = KnowledgeBase.model_validate(kb.model_dump(by_alias=True))
    assert again == kb
    assert [type(e.span) for e in again.edges] == [type(e.span) for e in kb.edges]
    assert [(type(f.value), type(f.span)) for n in again.nodes for f in n.facts] \
        == [(type(f.value), type(f.span)) for n in kb.nodes for f in n.facts]


def test_gold_example_sections_refs_facts(graph: Graph) -> None:
    gold = yaml.safe_load((GOLD / "004.yaml").read_text(encoding="utf-8"))
    ann = next(iter(gold.values()))
    nodes = [n for n in graph.nodes.values() if n.source == "004_d2d0171a53cebe38.txt"
             and n.kind in ("rule", "unit_type")]
    got = {(fold(n.title), fold(graph.nodes[n.parent].title) if n.parent else None)
           for n in nodes}
    want = {(fold(t), fold(p) if p else None) for t, p in ann["sections"]}
    assert got == want
    for type_title, rules in ann["unit_types"].items():
        tid = by_title(graph, "whfb8", type_title)
        granted = {fold(graph.nodes[e.target].title) for e in graph.out_edges(tid, "grants")}
        assert granted == {fold(r) for r in rules}
    for title, page in ann["page_refs"]:
        nid = by_title(graph, "whfb8", title)
        assert f"whfb8:page:{page}" in {e.target for e in graph.out_edges(nid, "cites_page")}
    for title, target in ann["named_refs_in_corpus"] + ann["named_refs_stub"]:
        nid = by_title(graph, "whfb8", title)
        targets = {fold(graph.nodes[e.target].title) for e in graph.out_edges(nid, "references")}
        assert fold(target) in targets
    for title, value in ann["facts"]:
        node = graph.nodes[by_title(graph, "whfb8", title)]
        assert any(re.sub(r"[^\d+\-]", "", f.text) == str(value) for f in node.facts), title


def test_40k_unit_types_and_their_special_rules(graph: Graph) -> None:
    expected = {
        "Мотоциклы и гравициклы": {"Молот ярости", "Уклонение", "Безостановочный",
                                   "Очень крупногабаритный"},
        "Прыжковые боевые единицы": {"Крупногабаритный", "Глубокий удар"},
        "Боевые единицы с реактивными ранцами": {"Крупногабаритный", "Глубокий удар",
                                                 "Безостановочный"},
        "Монструозные создания": {"Устрашение", "Молот ярости", "Движение через укрытие",
                                  "Безостановочный", "Сокрушающая атака"},
        "Звери": {"Проворность", "Движение через укрытие"},
        "Кавалерия": {"Проворность", "Молот ярости"},
    }
    for title, rules in expected.items():
        tid = by_title(graph, "wh40k6", title)
        granted = {graph.nodes[e.target].title for e in graph.out_edges(tid, "grants")}
        assert granted == rules, title


def test_40k_sections_hang_under_their_unit_type(graph: Graph) -> None:
    for title, parent in [
        ("Турбо-ускорение", "Мотоциклы и гравициклы"),
        ("Движение артиллерии", "Артиллерия"),
        ("Реактивный скачок", "Боевые единицы с реактивными ранцами"),
        ("Пикирование", "Летающие монструозные создания"),
        ("Трудно попасть", "Летающие монструозные создания"),
    ]:
        by_title(graph, "wh40k6", title, parent)
    titles = {n.title for n in graph.nodes.values() if n.system == "wh40k6"}
    assert "Эльдарские (и тёмноэльдарские) гравициклы" in titles
    # captions and quotes are not sections, and are accounted for
    assert "Ударный мотоцикл космодесантников" not in titles
    flavour = {r.text for r in graph.kb.removed if r.step in ("caption", "quote")}
    assert "Лишен всякой надежды тот, кто отвергает благословение Императора." in flavour


def test_inheritance_and_effective_rules(graph: Graph) -> None:
    eldar = by_title(graph, "wh40k6", "Эльдарские (и тёмноэльдарские) гравициклы")
    rules = {a.rule.title: a.because for a in graph.effective_rules(eldar)}
    assert "Молот ярости" in rules
    assert "Гравициклы" in rules["Молот ярости"]
    jump_infantry = by_title(graph, "wh40k6", "Прыжковая пехота")
    parents = {graph.nodes[e.target].title for e in graph.out_edges(jump_infantry, "inherits")}
    assert parents == {"Прыжковые боевые единицы", "Пехота"}
    fmc = by_title(graph, "wh40k6", "Летающие монструозные создания")
    inherited = {n.title for n, _ in graph.inherited_types(fmc)}
    assert {"Прыжковые боевые единицы", "Монструозные создания"} <= inherited


def test_facts_a_validator_needs(graph: Graph) -> None:
    def facts(topic: str) -> dict[str, list[object]]:
        out: dict[str, list[object]] = {}
        for node, f in graph.facts("wh40k6", topic=topic):
            owner = graph.nodes[f.applies_to].title if f.applies_to else node.title
            out.setdefault(owner, []).append(f.value if f.kind != "dice" else f.value["expr"])
        return out

    turbo = facts("турбо-ускорение")
    assert turbo["Мотоциклы"] == [12]
    assert turbo["Гравициклы"] == [24]
    assert turbo["Эльдарские (и тёмноэльдарские) гравициклы"] == [36]
    falls = facts("отступление")
    for t in ("Звери", "Кавалерия", "Прыжковые боевые единицы"):
        assert "3D6" in falls[t]
    artillery = graph.nodes[by_title(graph, "wh40k6", "Боевая единица")]
    assert [f.value for f in artillery.facts if f.kind == "profile"] == [
        {"T": 7, "W": 2, "Sv": "3+"}]
    regen = graph.nodes[by_title(graph, "whfb8", "Регенерация")]
    assert {f.text for f in regen.facts} >= {"4+", "1-3", "5+"}
    resist = graph.nodes[by_title(graph, "whfb8", "Сопротивление магии (1-3)")]
    assert any(f.kind == "range" and f.value == {"min": 1, "max": 3} for f in resist.facts)


def test_overrides(graph: Graph) -> None:
    eldar = by_title(graph, "wh40k6", "Эльдарские (и тёмноэльдарские) гравициклы")
    turbo = by_title(graph, "wh40k6", "Турбо-ускорение")
    assert turbo in {e.target for e in graph.out_edges(eldar, "overrides")}
    # "на 3D6", а не на 2D6", как многие другие" in the bikes' own «Отступление»: the general
    # rule it changes has the section's own name and no text here; no concept of it is made
    bikes_fall_back = by_title(graph, "wh40k6", "Отступление", "Мотоциклы и гравициклы")
    assert graph.out_edges(bikes_fall_back, "overrides") == []
    assert [n for n in graph.nodes.values() if n.system == "wh40k6" and n.kind == "concept"
            and fold(n.title) == "отступление"] == []


def test_references_across_files_and_limits(graph: Graph) -> None:
    poison_wm = by_title(graph, "whfb8", "Ядовитые атаки и Боевые Машины")
    poison = by_title(graph, "whfb8", "Ядовитые атаки")
    assert poison in {e.target for e in graph.out_edges(poison_wm, "references")}
    kb_ = by_title(graph, "whfb8", "Смертельный удар")
    refs = {graph.nodes[e.target].title for e in graph.out_edges(kb_, "references")}
    assert "Регенерация" in refs
    limited = {graph.nodes[e.target].title for e in graph.out_edges(kb_, "applies_to")}
    assert limited == {"Пехота", "Кавалерия", "Твари"}
    heroic = by_title(graph, "whfb8", "Героический Смертельный Удар")
    assert {graph.nodes[e.target].title for e in graph.out_edges(heroic, "excludes")} == {"Стаи"}
    regen = by_title(graph, "whfb8", "Регенерация")
    flaming = [graph.nodes[e.target] for e in graph.out_edges(regen, "references")]
    assert [(n.title, n.defined) for n in flaming] == [("Огненные атаки", False)]


def test_page_citations_and_pages(graph: Graph) -> None:
    rams = by_title(graph, "whfb8", "Отработка таранных попаданий")
    assert {e.target for e in graph.out_edges(rams, "cites_page")} == {
        "whfb8:page:42", "whfb8:page:92"}
    assert graph.nodes[by_title(graph, "whfb8", "Регенерация")].page == 75
    assert graph.nodes[by_title(graph, "whfb8", "Паника")].page == 66
    hard = by_title(graph, "wh40k6", "Трудно попасть")
    assert {e.target for e in graph.out_edges(hard, "cites_page")} == {"wh40k6:page:42"}


def test_a_type_is_no_reference_of_its_own_sections(graph: Graph) -> None:
    """«мотоцикл» under «Мотоциклы и гравициклы» is one of the section's own two types;
    «Пехота может …» under «Дави! для Пехоты Чудовищ» is the own type, shortened."""
    bikes = by_title(graph, "wh40k6", "Мотоциклы и гравициклы")
    own = {bikes, by_title(graph, "wh40k6", "Мотоциклы"), by_title(graph, "wh40k6", "Гравициклы")}
    sections = [n.id for n in graph.nodes.values() if n.id.startswith(bikes)]
    assert {e.target for s in sections for e in graph.out_edges(s, "references")} & own == set()
    stomp = by_title(graph, "whfb8", "Дави! Для Пехоты Чудовищ")
    assert by_title(graph, "whfb8", "Пехота") not in {
        e.target for e in graph.out_edges(stomp, "references")}


def test_systems_never_mix(graph: Graph) -> None:
    retreats = [n for n in graph.nodes.values() if fold(n.title) == "отступление"]
    # a section of 40k and of Kill Team; a rule WHFB names («во время своего Отступления»)
    assert {(n.system, n.kind) for n in retreats} == {
        ("wh40k6", "rule"), ("killteam2018", "rule"), ("whfb8", "concept")}
    for e in graph.kb.edges:
        assert graph.nodes[e.source].system == graph.nodes[e.target].system


def test_titles_are_clean(graph: Graph) -> None:
    for n in graph.nodes.values():
        if n.kind in ("rule", "unit_type"):
            assert not re.search(r"\w- \w", n.title), n.title
            assert not re.search(r"[а-яё][А-ЯЁ]", n.title), n.title
    text = graph.nodes[by_title(graph, "wh40k6", "Отступление", "Мотоциклы и гравициклы")].text
    assert text.startswith("Мотоциклы и гравициклы передвигаются на 3D6")


def test_removed_text_account(kb: KnowledgeBase) -> None:
    steps = {(r.source, r.step) for r in kb.removed}
    assert ("000_622e076ea61e0607.txt", "site_furniture") in steps
    assert ("000_622e076ea61e0607.txt", "running_header") in steps
    assert ("001_ba20f991b5661e29.txt", "page_footer") in steps
    assert all(r.reason for r in kb.removed)
    banner = [r for r in kb.removed if "Скачать" in r.text]
    assert banner and banner[0].source == "000_622e076ea61e0607.txt"


def test_the_rules_above_a_first_heading_are_a_passage(graph: Graph) -> None:
    # Kill Team's page opens with the battle round's first sentences above "THE BATTLE ROUND"
    # (the PDF set them there): kept as a passage, which names the phase it refers to
    (lead,) = [n for n in graph.nodes.values() if n.category == "passage"]
    assert lead.system == "killteam2018" and lead.parent is None
    assert lead.text.startswith("Каждая миссия Kill Team разыгрывается в серии боевых раундов.")
    assert lead.title == "Каждая миссия Kill Team разыгрывается в …"
    assert [graph.nodes[e.target].title for e in graph.out_edges(lead.id, "references")] == [
        "Инициативная фаза"]
    assert not [r for r in graph.kb.removed if r.step == "segment"]  # nothing of it dropped
    # its first words name nothing: no name lookup gives it, its id does
    assert all(m.node_id != lead.id
               for m in graph.names.find("Каждая миссия Kill Team разыгрывается", None))
    assert graph.names.resolve(lead.title, lead.system) is None
    assert find_node(graph, lead.id, None) is lead


def test_lookup_and_search(graph: Graph) -> None:
    assert graph.names.get("регенерацию", "whfb8").title == "Регенерация"
    assert graph.names.get("Гравицыклы", "wh40k6").title == "Гравициклы"
    assert graph.fulltext.search("регенирация", "whfb8")[0].title == "Регенерация"
    assert graph.fulltext.search("турбо ускорение", "wh40k6")[0].title == "Турбо-ускорение"
    assert graph.fulltext.search("молотом ярости", "wh40k6")[0].title == "Молот ярости"
