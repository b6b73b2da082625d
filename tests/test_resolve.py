"""Resolution on small corpora in tests/data/resolve/: what sections' words link to."""

from __future__ import annotations

from pathlib import Path

from ingest import build, load
from kb import Graph

DATA = Path(__file__).parent / "data" / "resolve"


def graph_of(name: str) -> Graph:
    return Graph(build(load([DATA / name])).kb)


def titled(graph: Graph, title: str) -> str:
    (nid,) = [n.id for n in graph.nodes.values() if n.title == title]
    return nid


def test_a_rule_granted_further_on_is_known_where_a_section_mentions_it_first() -> None:
    graph = graph_of("grant_later")
    movement, agile = titled(graph, "Движение"), titled(graph, "Проворность")
    assert graph.nodes[agile].kind == "concept"
    refs = [(e.target, e.raw) for e in graph.out_edges(movement, "references")]
    assert (agile, "проворности") in refs
    granted = {e.target for e in graph.out_edges(titled(graph, "Звери"), "grants")}
    assert agile in granted


def refs_of(graph: Graph) -> set[tuple[str, str, str]]:
    """(source title, target title, words) of every reference."""
    return {(graph.nodes[e.source].title, graph.nodes[e.target].title, e.raw or "")
            for e in graph.kb.edges if e.kind == "references"}


def test_only_words_written_as_names_refer_to_sections_and_named_rules() -> None:
    """A name that merely equals ordinary words («паника страшна», «при отступлении»,
    «монстры») is no reference; a capital mid-sentence, several words of a rule the
    vocabulary knows, or a section's own title make one."""
    assert refs_of(graph_of("marked_names")) == {
        ("Бегство", "Разгром", "тест на Разгром"),
        ("Бегство", "Тяжелые потери", "Тяжелых Потерь"),
        ("Бегство", "Обязательные перемещения", "обязательное перемещение"),
        ("Тяжелые потери", "Паника", "Панику"),
        ("Тяжелые потери", "Опасный ландшафт", "Опасный ландшафт"),
        ("Монстры и погонщики", "Монстры", "монстры"),
    }


def test_vocabulary_synonyms_and_english_terms_refer() -> None:
    """«на Инициативном этапе», «фаза психики» name the phases; «(Advance, React)» and
    «Overwatch» are terms; «для перемещения» is not the section «Перемещение»."""
    assert refs_of(graph_of("phase_synonyms")) == {
        ("Фаза движения", "Инициативная фаза", "Инициативном этапе"),
        ("Фаза движения", "Психическая фаза", "фаза психики"),
        ("Отступление", "Продвижение", "Advance"),
        ("Отступление", "Реагировать", "React"),
        ("Продвижение", "Overwatch", "Overwatch"),
        # a rule named by its action is named by the verb: «не может … реагировать»
        ("Продвижение", "Реагировать", "реагировать"),
        ("Реагировать", "Overwatch", "Overwatch"),
        ("Психическая фаза", "Инициативная фаза", "этапе инициативы"),
    }


def test_a_rule_titled_by_a_participle_is_named_by_its_forms_not_by_its_verb() -> None:
    """«Контузящее» is named by «контузящее» (any case of the participle), not by «контужен»
    or «контузить», other forms of its verb."""
    refs = refs_of(graph_of("participle_names"))
    assert ("Контратака", "Контузящее", "контузящее") in refs
    assert not [r for r in refs if r[0] == "Необычное оружие" and r[1] == "Контузящее"]


def test_a_title_names_the_rule_it_changes_not_its_category() -> None:
    """"Героический смертельный удар" under «Смертельный удар» refers to it (the rule it
    changes); "Талисман прочности" under "Талисманы" names its category, what it is."""
    refs = refs_of(graph_of("title_namesakes"))
    assert ("Героический смертельный удар", "Смертельный удар", "смертельный удар") in {
        (a, b, c.lower()) for a, b, c in refs}
    assert not {r for r in refs if r[0].startswith("Талисман ")}
    # "Карты" parses first as a genitive singular, but a title's noun is a nominative plural
    assert not {r for r in refs if r[0].startswith("Карта расстановки")}


def test_a_child_named_after_the_word_rule_is_referred_to() -> None:
    """"со специальным правилом – Точные выстрелы": a section's own subsection named after
    "правилом" (a dash between them) is a reference; named in passing ("плотный строй даёт")
    it is not."""
    graph = graph_of("rule_word_child")
    refs = refs_of(graph)
    assert ("Прицельный огонь", "Точные выстрелы", "Точные выстрелы") in refs
    child = titled(graph, "Точные выстрелы")
    assert graph.nodes[child].parent == titled(graph, "Прицельный огонь")
    assert not {r for r in refs if r[0] == "Сомкнуть ряды"}
    assert graph.nodes[titled(graph, "Плотный строй")].parent == titled(graph, "Сомкнуть ряды")


def test_a_title_opening_with_a_rule_s_one_word_name_changes_it() -> None:
    """"Перемещение по болоту" opens with «Перемещение», the rule it changes, and refers to
    it; "Знамя нежити" names «Нежить» after its head, as what it belongs to: no reference."""
    refs = refs_of(graph_of("title_heads"))
    assert ("Перемещение по болоту", "Перемещение", "Перемещение") in refs
    assert not {r for r in refs if r[0] == "Знамя нежити"}


def test_an_entry_s_price_is_its_fact_and_no_part_of_its_name() -> None:
    """"Клинок из Лунного Серебра - 50 очков": a section named without its price, the price a
    fact of it ("points"), quoted from its heading, whoever may take it in brackets after."""
    graph = graph_of("priced_items")
    got = {(n.title, f.value, f.text) for n in graph.nodes.values() for f in n.facts
           if f.kind == "points"}
    assert got == {("Лук Светлого Берега", 60, "60 очков"),
                   ("Клинок из Лунного Серебра", 50, "50 очков"),
                   ("Щит Рассвета", 25, "25 очков")}
    shield = graph.nodes[titled(graph, "Щит Рассвета")]
    (fact,) = [f for f in shield.facts if f.kind == "points"]
    source = (DATA / "priced_items" / "items.txt").read_text(encoding="utf-8")
    assert source[fact.span[0]:fact.span[1]] == "25 очков"
    assert fact.evidence == "Щит Рассвета (25 очков)"
    bow = titled(graph, "Лук Светлого Берега")
    assert graph.nodes[bow].parent == titled(graph, "Магические предметы")


def test_the_other_names_the_books_give_a_rule_are_its_aliases() -> None:
    """The vocabulary's synonyms of a rule ("Тест на разгром" of «Разгром») are aliases of its
    node, so a search or a list finds it by them."""
    graph = graph_of("marked_names")
    assert "Тест на разгром" in graph.nodes[titled(graph, "Разгром")].aliases


def test_an_errata_entry_cites_the_page_it_amends() -> None:
    """"Стр.58 – Курт Хельборг, специальные правила" amends page 58: its section cites it, with
    the heading as evidence, besides the pages its text cites ("(стр.41)"); the English entry
    of the same page is no section of its own."""
    graph = graph_of("errata")
    helborg = titled(graph, "Курт Хельборг, специальные правила")
    cites = {e.target: e for e in graph.out_edges(helborg, "cites_page")}
    assert set(cites) == {"whfb8:page:58", "whfb8:page:41"}
    assert cites["whfb8:page:58"].raw == "Стр.58"
    theogonist = titled(graph, "Верховный теогонист, профиль")
    assert {e.target for e in graph.out_edges(theogonist, "cites_page")} == {"whfb8:page:80"}
    assert not [n for n in graph.nodes.values() if n.title.startswith("Kurt")]
    source = (DATA / "errata" / "errata.txt").read_text(encoding="utf-8")
    span = cites["whfb8:page:58"].span
    assert span is not None and source[span[0]:span[1]].startswith("Стр.58 – Курт")


def test_a_unit_type_s_one_word_refers_where_it_is_a_name_or_its_rules_are_meant() -> None:
    """«моделей типа Кавалерия» names the type; «аналогично кавалерии» sends the reader to its
    rules; a title opening with it («Пехота в бою против колесниц») is about it; «только
    пехота», «такие отряды, как пехота и кавалерия», «пехота» under a title that holds it
    further on («Подразделения лёгкой пехоты …») are words of a sentence, and «Лёгкой Пехоты»
    names a type of its own."""
    assert refs_of(graph_of("type_words")) == {
        ("Колесницы", "Кавалерия", "кавалерии"),
        ("Пехота в бою против колесниц", "Пехота", "пехота"),
        ("Тяжёлые удары", "Кавалерия", "Кавалерия"),
    }


def test_a_game_s_name_is_no_reference_to_a_section_it_titles() -> None:
    """A page's section titled with a game's name ("KILL TEAM") is about the game: the game
    named further on ("любительский Kill Team") refers to no rule; a rule named does."""
    refs = refs_of(graph_of("game_names"))
    assert not [r for r in refs if r[1] == "Kill Team"], refs
    assert ("Высадка", "Глубокий удар", "Глубокий Удар") in refs, refs


def test_a_page_s_top_level_rules_name_each_other_as_a_chapter_s_do() -> None:
    """Top-level sections of one page are the rules of the page's chapter: one named in lower
    case by another ("совершить героическое вмешательство") is referred to when no other
    section uses its words; a name several sections use ("боевой раунд") is a word of the
    game, a step of a procedure ("Проведите раунд боя") is listed by its outline, not named,
    and another page's words ("до конца боя") name no rule of this one."""
    assert refs_of(graph_of("page_siblings")) == {
        ("Второй раунд", "Героическое вмешательство", "героическое вмешательство"),
    }


def test_a_rule_a_list_prints_again_is_one_rule_named_by_the_others() -> None:
    """A list of rules that prints a rule again in full (where another rule relies on it) names
    one rule: «фланговый обход» of the others refers to the first of the copies, not to a
    concept the corpus does not define, and a copy naming itself refers to no namesake."""
    graph = graph_of("list_repeats")
    first = min(n.id for n in graph.nodes.values() if n.title == "Фланговый обход")
    refs = {(graph.nodes[e.source].title, e.target) for e in graph.kb.edges
            if e.kind == "references"}
    assert ("Проникновение", first) in refs
    assert ("Разведчик", first) in refs
    assert all(n.kind != "concept" for n in graph.nodes.values() if n.title == "Фланговый обход")
    # the copy names itself in its text: no reference to its namesake
    assert all(graph.nodes[e.source].title != graph.nodes[e.target].title
               for e in graph.kb.edges if e.kind == "references")


def test_a_page_s_section_named_as_a_book_s_rule_still_refers_to_it() -> None:
    """A FAQ's section "Паника" naming «паника» refers to the rule of that name, the book's
    section (the one other file's of the two bearing it): only a rule printed again in its own
    file names itself."""
    graph = graph_of("namesakes")
    faq = next(n.id for n in graph.nodes.values()
               if n.title == "Паника" and n.source == "b_faq.txt")
    assert [(graph.nodes[e.target].title, graph.nodes[e.target].source)
            for e in graph.out_edges(faq, "references")] == [("Паника", "a_rules.txt")]


def test_a_rule_two_files_define_is_each_file_s_own_there_and_no_one_s_elsewhere() -> None:
    """A game's core rules and its lite rules both define "Рывок": each file's mention names
    its own section, and a third file's names neither (which of the two it means, its words do
    not say)."""
    graph = graph_of("two_books")
    refs = {(graph.nodes[e.source].title, graph.nodes[e.source].source,
             graph.nodes[e.target].title, graph.nodes[e.target].source)
            for e in graph.kb.edges if e.kind == "references"}
    assert refs == {("Перемещение", "a_core.txt", "Рывок", "a_core.txt"),
                    ("Отступление", "b_lite.txt", "Рывок", "b_lite.txt")}


def test_a_glossary_s_terms_are_referred_to_by_their_own_file_s_lower_case_words() -> None:
    """A glossary's entries (twelve headings or more in alphabetical order) are terms its file
    writes in lower case ("с жетоном засады", "поднять маркер"); another file's lower-case
    words are words, and so is a term most of the file's sections use ("боец")."""
    assert refs_of(graph_of("glossary_terms")) == {
        ("Ход игры", "Жетон", "жетоном"),
        ("Ход игры", "Засада", "засады"),
        ("Ход игры", "Маркер", "маркер"),
        ("Награда", "Маркер", "маркер"),
        ("Конец игры", "Награда", "наград"),
        ("Бойцы", "Команда", "команды"),
        ("Отряд", "Команда", "команды"),
        ("Прицел", "Атака", "атаки"),
    }
