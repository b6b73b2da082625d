"""The KB of ../shared/corpus against the reader's annotations in tests/data/gold/.

Each corpus file has an annotation in the format of ../shared/gold-example/004.yaml (004 is that
example, copied). Per file and category the comparison (tests/gold_score.py) gives precision and
recall; each must stay at or above the floor below, which is what the pipeline reaches today, so
a regression fails. ``benchmarks/gold.py --details`` prints the table and every missed or extra
row. Where today is exact (004, and most sections and pages), the floor is 1.0.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from gold_score import CATEGORIES, HELDOUT_DIR, Score, annotations, score_all, table

from ingest import load
from kb import Graph

REPO = Path(__file__).resolve().parents[1]

# (precision, recall) floors per file and category, in the order of CATEGORIES:
# system, sections, unit_types, page_refs, named_refs_in_corpus, named_refs_stub, facts, pages
FLOORS: dict[str, tuple[tuple[float, float], ...]] = {
    "000": ((1.0, 1.0), (0.93, 0.97), (0.93, 0.93), (1.0, 1.0), (0.92, 0.92), (0.86, 1.0),
            (0.77, 1.0), (1.0, 1.0)),
    "001": ((1.0, 1.0), (1.0, 1.0), (1.0, 1.0), (1.0, 1.0), (1.0, 1.0), (0.83, 1.0),
            (0.38, 0.92), (1.0, 1.0)),
    "002": ((1.0, 1.0), (0.90, 0.90), (1.0, 1.0), (1.0, 1.0), (1.0, 1.0), (1.0, 0.87),
            (0.50, 1.0), (1.0, 1.0)),
    "003": ((1.0, 1.0), (1.0, 1.0), (1.0, 1.0), (1.0, 1.0), (1.0, 0.91), (1.0, 1.0),
            (0.83, 1.0), (1.0, 1.0)),
    # the public example: everything it annotates is found; its refs and facts are a subset
    "004": ((1.0, 1.0), (1.0, 1.0), (1.0, 1.0), (1.0, 1.0), (1.0, 1.0), (0.50, 1.0),
            (0.66, 1.0), (1.0, 1.0)),
}


@pytest.fixture(scope="module")
def scores(corpus_graph: Graph) -> dict[str, dict[str, Score]]:
    return score_all(corpus_graph)


def test_every_annotated_file_has_floors() -> None:
    assert sorted(name[:3] for name in annotations()) == sorted(FLOORS)


@pytest.mark.parametrize("file", sorted(FLOORS))
def test_precision_and_recall_stay_above_their_floors(
    file: str, scores: dict[str, dict[str, Score]],
) -> None:
    (source,) = [s for s in scores if s.startswith(file)]
    low = []
    for category, (p_floor, r_floor) in zip(CATEGORIES, FLOORS[file], strict=True):
        s = scores[source][category]
        if s.precision < p_floor - 1e-9 or s.recall < r_floor - 1e-9:
            low.append(f"{category}: {s.precision:.2f}/{s.recall:.2f} < {p_floor}/{r_floor}; "
                       f"missed {s.missed}, extra {s.extra}")
    assert not low, "\n".join([*low, table({source: scores[source]})])


def test_scoring_counts_rows_both_ways() -> None:
    from gold_score import ANY, compare

    s = compare([("a", 1, ANY), ("b", 2, "p")], [("a", 1, "q"), ("b", 2, "r"), ("c", 3, None)])
    assert (s.kb_matched, s.kb_total, s.gold_matched, s.gold_total) == (1, 3, 1, 2)
    assert s.missed == [("b", 2, "p")]


def test_a_reference_target_is_named_as_its_heading_writes_it() -> None:
    """A rule titled «Раздирающий» with the alias "Rending" is the annotation's "Раздирающий
    (Rending)", as its heading writes it (sections are matched so too)."""
    from gold_score import _target_key

    from kb.lemmas import lemma_key
    from kb.models import Node

    node = Node(id="wh40k6:r", kind="rule", system="wh40k6", title="Раздирающий",
                aliases=("Rending",))
    wanted = {lemma_key("Раздирающий (Rending)")}
    assert _target_key(node, wanted) == lemma_key("Раздирающий (Rending)")
    assert _target_key(node, set()) == lemma_key("Раздирающий")


def test_a_rule_another_page_of_a_set_defines_is_a_stub_to_this_page() -> None:
    """A held-out page's reader wrote it alone: a reference from it to a rule another page of
    its set defines is, to its annotation, to a name the KB does not define; a rule of the
    corpus or of the page itself is defined."""
    from gold_score import FileScorer

    from kb.models import Node

    scorer = FileScorer.__new__(FileScorer)  # (only the set's other pages are needed)
    scorer.unseen = frozenset({"other_page.txt"})
    rule = {"id": "wh40k6:r", "kind": "rule", "system": "wh40k6", "title": "Нежить"}
    assert not scorer._defined(Node(**rule, source="other_page.txt"))
    assert scorer._defined(Node(**rule, source="this_page.txt"))
    assert scorer._defined(Node(**rule, source="000_622e076ea61e0607.txt"))
    assert not scorer._defined(Node(**{**rule, "kind": "concept"}, source=None))


def test_a_section_is_named_as_its_heading_writes_it_english_first() -> None:
    """A section titled «Таблица окружающей среды» with the English alias of its heading,
    "ENVIRONMENT TABLE (ТАБЛИЦА ОКРУЖАЮЩЕЙ СРЕДЫ)", is the annotation's heading as written, the
    English first; a title the annotation does not write stays the title."""
    from gold_score import FileScorer, _target_key, norm_title

    from kb.lemmas import lemma_key
    from kb.models import Node

    node = Node(id="killteam2018:t", kind="rule", system="killteam2018",
                title="Таблица окружающей среды", aliases=("Environment table",))
    heading = "ENVIRONMENT TABLE (ТАБЛИЦА ОКРУЖАЮЩЕЙ СРЕДЫ)"
    scorer = FileScorer.__new__(FileScorer)  # (only the annotation's names are needed)
    scorer.names = {norm_title(heading)}
    assert scorer.name(node) == norm_title(heading)
    scorer.names = set()
    assert scorer.name(node) == norm_title("Таблица окружающей среды")
    assert _target_key(node, {lemma_key(heading)}) == lemma_key(heading)


def test_references_to_rules_of_the_corpus_over_the_whole_corpus(
    scores: dict[str, dict[str, Score]],
) -> None:
    from gold_score import totals

    refs = totals(scores)["named_refs_in_corpus"]
    assert refs.precision >= 0.90 and refs.recall >= 0.90, (refs.missed, refs.extra)


# Floors on the pages of tests/data/heldout, built as a user would (no corpus.toml): today's
# totals (see the READMEs there). The fresh sets are measured only (annotated before the
# pipeline ran on them): a floor, not a goal.
NEVER_BUILT_ON: dict[str, dict[str, tuple[float, float]]] = {
    # (dev's sections 0.92/0.96 -> 0.88/0.92 in the fifteenth pass: a forum topic's title over
    # the posts goes when the first post opens with a heading of its own, and the Dire Wolf
    # FAQ's post opens with its name, "Лютый Волк", over the title its reader takes for the top
    # one, "Вопросы и ответы по Warhammer Fantasy Battles")
    "dev": {"system": (1.0, 1.0), "sections": (0.88, 0.92), "page_refs": (1.0, 1.0),
            "named_refs_in_corpus": (0.75, 0.85)},
    "heldout": {"system": (1.0, 1.0), "sections": (0.85, 0.89), "page_refs": (1.0, 1.0),
                "named_refs_in_corpus": (0.50, 1.0)},
    # (issue 10's seventh pass: a rule's name before a period runs in with its text, "Протокол
    # реанимации. Если модель …", which also makes a section of a FAQ's "Аксессуары. В игре не
    # используются шаблоны …", no section to its annotator: precision 0.92 -> 0.88)
    # (issue 10's seventeenth pass: a page's top-level rules name each other as a chapter's
    # do, "совершить героическое вмешательство": references to corpus rules 1.00/0.80 ->
    # 1.00/1.00)
    "fresh": {"system": (1.0, 1.0), "sections": (0.87, 0.91), "page_refs": (1.0, 1.0),
              "named_refs_in_corpus": (0.99, 0.99)},
    # reading the names of games (issue 10's sixth pass) takes an old 40k "Kill Team" mission
    # that names Kill Team for Kill Team: fresh2's and fresh3's system precision and sections'
    # precision lost those pages, for fresh's, fresh3's and fresh4's recall
    # the setting of a page (issue 10's seventh pass) finds fresh2's 40k weapons page, whose
    # picture labels the sixth pass on sections reads as a caption
    # (issue 10's tenth pass: the detection learns from the sets read before it, these among
    # them, so their system figures are those of pages learned from: every page found)
    "fresh2": {"system": (0.99, 0.99), "sections": (0.75, 0.78)},
    "fresh3": {"system": (0.99, 0.99), "sections": (0.65, 0.63)},
    # a development set since the sixth pass read its misses (sections by their shape)
    # (issue 10's seventh pass: "Warhammer" alone names WHFB in a text that names no game in
    # full, which finds its WHFB beginners' article and takes its Age of Sigmar page, which
    # names only "Warhammer", for WHFB: sections' precision 0.81 -> 0.80, recall 0.86 -> 0.95
    # with the nesting of that pass)
    # (the tenth pass's detection finds its old assault page and its two forum topics, whose
    # headings are cut worse than the rest: sections 0.83/0.95 -> 0.77/0.95)
    "fresh4": {"system": (0.92, 0.99), "sections": (0.76, 0.94)},
    # a development set since the seventh pass read its misses: forum and wiki engines'
    # furniture (ingest/clean_forum.py) is no section; the eighth pass on sections (sentences,
    # titles, bracketed names) took its sections from 0.56/0.29 to 0.82/0.41
    # (the seventh pass: "Warhammer" alone, a file name's "Warhammer_40k": system 0.77/0.50 ->
    # 0.82/0.64, sections 0.82/0.41 -> 0.91/0.59)
    # (then the detection's 35 training pages: system 0.82/0.64 -> 0.77/0.71, one page more
    # taken for the wrong game and two more named right)
    # (the ninth pass: a term in capitals over its definition in lower case is a heading,
    # "WEAPON SKILL(WS)/владение оружием" / "отражает умение модели …": its forum's four such
    # terms are found, under the site's banner line, not under the post's lower-case English
    # headings its reader reads, which stay missed: sections' precision 0.92 -> 0.80)
    "fresh5": {"system": (0.99, 0.99), "sections": (0.79, 0.70), "page_refs": (1.0, 0.99)},
    # measured clean once before the sixth pass and once after its changes (sections 0.15/0.15
    # -> 0.26/0.26), then read: army books' priced entries, profiles written out, a row of
    # navigation links, a list's lead-in (0.57/0.50)
    # (a lore's numbered spells with their casting values became headings: sections' recall
    # 0.50 -> 0.56 and facts 0.22/0.08 -> 0.61/0.23, but the page's spell-type lines above
    # them, "Все атаки – огненные.", stay headings: precision 0.57 -> 0.53, references' 0.80
    # -> 0.67)
    # (the seventh pass: a spell's type line is its text, a line opening with "Все" and ending
    # in a period a sentence, a page's mixed-case title holds the capitalised rules after it,
    # prices are facts: sections 0.53/0.56 -> 0.81/0.85, facts 0.61/0.23 -> 0.74/0.38)
    # (the tenth pass's detection finds its two last pages, an army-building guide and an
    # 8th-edition roster: sections 0.94/0.88 -> 0.94/0.94, references to corpus rules 0.67 ->
    # 0.57 precision)
    # (and a title names a one-word rule it changes only by its head: references 0.80/0.80)
    "fresh6": {"system": (0.99, 0.99), "sections": (0.90, 0.90),
               "named_refs_in_corpus": (0.79, 0.79), "facts": (0.73, 0.37)},
    # the sixth pass's last clean set, measured twice and read in the seventh pass, after the
    # eighth set was collected and measured: a development set since
    # (issue 10's twenty-seventh pass: two headings with no text between them in a run of
    # capitals are two, "СХЕМА ОРГАНИЗАЦИИ ВОЙСКА" over the chart's first cell "ОСНОВНЫЕ
    # ПОДРАЗДЕЛЕНИЯ ОБЯЗАТЕЛЬНО", whose cells its reader takes for no sections: one more
    # section found, none more matched, sections 0.71/0.79 -> 0.68/0.79)
    "fresh7": {"system": (0.99, 0.99), "sections": (0.68, 0.78), "page_refs": (0.99, 0.99)},
    # the seventh pass's development set of list-shaped pages (army books' items, codex rules,
    # a forum's questions), collected to be read
    # (the detection's 35 training pages find every page of it: system 0.83/0.50 -> 1.00/1.00,
    # sections 0.88/0.58 -> 0.75/0.75 as the pages found add their misses)
    # (the ninth pass: English function words are no detection terms, as Russian ones are
    # not: its Orcs & Goblins questions, whose rules words lead by 2.8 with one word of its
    # world, are left unclear, system 1.00/1.00 -> 1.00/0.90, while fresh9's bilingual
    # Bretonnia FAQ is found and fresh3's old Necrons page is no longer taken for Kill Team)
    # (the tenth pass: its pages left unclear are found, a forum member's name in words over
    # the post's date and a topic's "> " mark are furniture: sections 0.90/0.75 -> 0.83/0.83)
    "dev2": {"system": (0.99, 0.99), "sections": (0.82, 0.82), "facts": (0.99, 0.99)},
    # the seventh pass's clean sets, measured on its start and final code, read in the eighth
    # pass once fresh10 was measured: development sets since (an errata's entries and their
    # pages, part ordinals above titles, a forum engine's and a study site's furniture: fresh8
    # sections 0.52/0.39 -> 0.52/0.54 and page cites 0.67/0.25 -> 0.88/0.88, fresh9 sections
    # 0.33/0.36 -> 0.82/0.72 and page cites 0.50/0.67 -> 1.00/1.00)
    # (the ninth pass: an errata's entries under their part, a community's name in the
    # header no heading: fresh8 sections 0.55/0.57 -> 0.72/0.75, fresh9 0.82/0.72 -> 0.91/0.80)
    # (and a page whose rules words lead and whose world's own things agree is of that game
    # even when it looks a little like another game's page: its Wood Elves' treemen, system
    # recall 0.83 -> 0.92)
    # (the tenth pass's detection finds their last 40k pages, fresh8's tyranid melee weapons
    # and fresh9's blog on the Tau codex, whose lines are cut worse than the rest: fresh8
    # sections 0.73/0.79 -> 0.62/0.82, fresh9 0.96/0.88 -> 0.88/0.92)
    # (then a table's cells set one a line are no headings: fresh8 0.62/0.82 -> 0.70/0.82)
    # (the eleventh pass: a group title over no text holds later headings opening with its
    # name, a clause cut at a preposition is no heading: 0.70/0.82 -> 0.78/0.89)
    # (the twelfth pass: a title in capitals over two lines, a heading over its English name
    # alone: sections 0.78/0.89 -> 0.87/0.96, page cites 0.88 -> 1.00)
    # (the fourteenth pass: English page citations, "(page 41)", cite too; the English twin
    # of an errata's first entry stands under the part's heading above it, so its citation
    # is that heading's: page cites 1.00/1.00 -> 0.89/1.00)
    "fresh8": {"system": (0.99, 0.99), "sections": (0.86, 0.95), "page_refs": (0.88, 0.99)},
    "fresh9": {"system": (0.99, 0.99), "sections": (0.87, 0.91), "page_refs": (0.99, 0.99)},
    # the eighth pass's clean sets, measured on its start and final code, read in the ninth
    # pass once fresh12 was measured: development sets since (group titles by their head noun,
    # a profile table's header and rows, a sign-in box, a definition line, a list set in two
    # columns: fresh10 sections 0.62/0.68 -> 0.95/0.95, fresh11 0.44/0.55 -> 0.89/0.85)
    "fresh10": {"system": (0.99, 0.99), "sections": (0.99, 0.99), "page_refs": (0.99, 0.99),
                "facts": (0.99, 0.79)},
    "fresh11": {"system": (0.99, 0.99), "sections": (0.89, 0.89), "page_refs": (0.99, 0.99),
                "facts": (0.89, 0.55)},
    # the ninth pass's first clean set (tournaments' and campaigns' rules on club forums),
    # measured on its start code and after its first round (sections 0.08/0.04 both), read since
    # (the tenth pass's detection finds a 40k campaign's and a 40k tournament's pages and a
    # WHFB map campaign's: sections 0.50/0.28 -> 0.48/0.40)
    # (the seventeenth pass: a site's name over its clock and path goes, sections 0.75/0.60 ->
    # 0.84/0.64; the eighteenth: a campaign digest's labelled paragraphs, 0.86/0.76)
    "fresh12": {"system": (0.99, 0.99), "sections": (0.85, 0.75)},
    # the ninth pass's second and third clean sets, measured on its start and end code, read
    # in the tenth pass (a copy's numbered parts over paragraphs, page citations with the
    # number first, a clause ending in "правило", headings ending in a period under a title,
    # a split drop capital, a glued menu and title, a framed title, a quoted name, an English
    # original before its Russian twin): fresh13 sections 0.15/0.12 -> 0.47/0.56, fresh14
    # 0.11/0.11 -> 0.56/0.56; the detection, which
    # learned from neither, finds fresh13's pages (system 0.67/0.29 -> 0.86/0.86)
    # (the eleventh pass: the detection learns from both; a rule's name in title case run in
    # after a colon alone, a field beside fields, the readers addressed and an address no
    # headings: fresh13 sections 0.47/0.56 -> 0.55/0.75, fresh14 0.56/0.56 -> 0.67/0.56)
    "fresh13": {"system": (0.87, 0.99), "sections": (0.54, 0.74), "page_refs": (0.74, 0.99)},
    "fresh14": {"system": (0.99, 0.99), "sections": (0.66, 0.55)},
    # the tenth pass's clean sets, measured on its start and end code, read in the eleventh
    # once fresh17 and fresh18 were measured (a spoiler's label, an Invision member card, a
    # MyBB announcement, a forum's name in quotes, a greeting and a page title repeated with
    # other quotes as furniture; lettered points under a heading; a role-playing game named
    # after 40k; the detection learning from both): fresh15 sections 0.42/0.50 -> 0.86/0.60,
    # system 0.62/0.56 -> 0.90/1.00; fresh16 sections 0.22/0.40 -> 0.54/0.70, system 0.57/0.80
    # -> 0.83/1.00
    "fresh15": {"system": (0.89, 0.99), "sections": (0.85, 0.59)},
    "fresh16": {"system": (0.82, 0.99), "sections": (0.53, 0.69)},
    # the eleventh pass's clean sets, measured on its start and end code and on the twelfth's
    # start, read in the twelfth once fresh20 and fresh21 were measured (the detection learning
    # from them, a campaign's page of a clear world, a name of ours inside another game's name;
    # an outline's numbers, an English heading named by its body's opening, "они же", a forum's
    # text-only version's lines): fresh17 system 0.50/0.50 -> 1.00/1.00, sections 0.42/0.29 ->
    # 0.62/0.47; fresh18 system 0.80/0.57 -> 0.88/1.00, sections 0.20/0.20 -> 0.40/0.80; fresh19
    # system 0.75/0.75 -> 1.00/1.00, sections 0.53/0.56 -> 0.71/0.75 (fresh17's precision
    # 0.62 -> 0.57 in the fifteenth pass: a label alone in its text heads it, "Начало
    # кампании:", found at the top where its reader hangs it under the page's title; the
    # eighteenth: a title's epigraph with its speaker apart in lower case, and the outline's
    # number alone over the next heading, are no text of the title's own, 0.69/0.53)
    "fresh17": {"system": (0.99, 0.99), "sections": (0.68, 0.52)},
    "fresh18": {"system": (0.87, 0.99), "sections": (0.44, 0.89)},
    "fresh19": {"system": (0.99, 0.99), "sections": (0.70, 0.74)},
    # the twelfth pass's clean sets, measured on its start and end code and on the
    # thirteenth's start, read in the thirteenth once fresh23 and fresh24 were collected and
    # measured (the detection learning from them; a size written "Mб" and a line of labels in
    # a download block; a profile's cells one a line; a footnote's mark; a page citation under
    # the first heading; labels over English originals; an English name dashed into its text;
    # a D6 table's rows after a lead-in; a running header's repetition): fresh20 system
    # 0.50/0.67 -> 1.00/1.00, sections 0.50/0.40 -> 0.80/0.80; fresh21 system 0.80/0.50 ->
    # 0.89/1.00, sections 0.27/0.21 -> 0.64/0.64; fresh22 system 0.75/1.00 -> 1.00/1.00,
    # sections 0.67/0.75 -> 0.75/0.75
    "fresh20": {"system": (0.99, 0.99), "sections": (0.79, 0.79)},
    "fresh21": {"system": (0.88, 0.99), "sections": (0.72, 0.78)},
    "fresh22": {"system": (0.99, 0.99), "sections": (0.74, 0.74)},
    # the thirteenth pass's clean sets, measured on its start and end code and on the
    # fourteenth's start, read in the fourteenth once fresh26 … fresh28 were collected and
    # measured (the detection learning from them; a bulleted name over a paragraph): fresh23
    # system 1.00/0.67 -> 1.00/1.00, sections 1.00/1.00; fresh24 system 1.00/0.67 -> 1.00/1.00,
    # sections 0.33/0.20 -> 0.20/0.20 (its two bulleted names found, under the page's title,
    # which the reader reads as none); fresh25 system 0.67/0.50 -> 1.00/1.00, sections 0.83/0.56
    "fresh23": {"system": (0.99, 0.99), "sections": (0.99, 0.99)},
    "fresh24": {"system": (0.99, 0.99), "sections": (0.32, 0.39)},
    "fresh25": {"system": (0.99, 0.99), "sections": (0.82, 0.55)},
    # the fourteenth pass's first clean sets, collected at its start, measured on its start
    # code and once fresh29 … fresh31 were collected, then read in the same pass (the
    # detection learning from them; a schedule's times, a reply of particles, breadcrumbs
    # ending in the page's title or under it, an English sentence ending in a period):
    # fresh26 system 1.00/0.75 -> 1.00/1.00, sections 0.14/0.25 -> 0.29/0.50; fresh27 system
    # 0.88/1.00 -> 1.00/1.00, sections 0.27/0.15 -> 0.50/0.20; fresh28 system 0.83/0.83 ->
    # 1.00/1.00, sections 0.44/0.55 -> 0.55/0.60
    "fresh26": {"system": (0.99, 0.99), "sections": (0.56, 0.99)},
    # (the seventeenth pass: numbered items naming rules before a dash, sections 0.60/0.30 ->
    # 0.69/0.45)
    "fresh27": {"system": (0.99, 0.99), "sections": (0.68, 0.44)},
    "fresh28": {"system": (0.99, 0.99), "sections": (0.56, 0.59)},
    # the fourteenth pass's second clean sets, collected while it went on, measured on its
    # start code and after its other changes (totals only: only fresh30's detection had moved),
    # then read in the same pass once fresh32 and fresh33 were collected (the detection
    # learning from them; a serial's numbered pages, an avatar's caption, a picture's file
    # name, a profile's menu; a rule's name in English and Russian over a colon): fresh29
    # system 0.50/0.33 -> 1.00/1.00, sections 0.33/0.12 -> 0.55/0.75; fresh30 system 0.80/0.80
    # -> 1.00/1.00, sections 0.25/0.12; fresh31 system 0.60/0.75 -> 1.00/1.00, sections
    # 0.12/0.29 -> 0.36/0.71. In the fifteenth pass: fresh29 0.50/0.62 (a line of terms closed
    # by periods heads nothing, "Ночь чудес. Зимняя Ева. …", and "Армии", its sibling, falls
    # to the heading above); fresh30 0.60/0.35 (a formation's labels and the rules run in
    # under them)
    "fresh29": {"system": (0.99, 0.99), "sections": (0.49, 0.62)},
    "fresh30": {"system": (0.99, 0.99), "sections": (0.59, 0.34)},
    "fresh31": {"system": (0.99, 0.99), "sections": (0.35, 0.70)},
    # the fourteenth pass's last clean sets, measured on its start and end code and on the
    # fifteenth's start, read in the fifteenth once fresh34 and fresh35 were collected (a
    # chapter's title in mixed case over its parts in capitals; a line of terms closed by
    # periods and a preposition's phrase before a period head nothing): fresh32 sections
    # 0.17/0.17 -> 1.00/1.00; fresh33 0.40/0.50 -> 0.67/0.50
    "fresh32": {"system": (0.99, 0.99), "sections": (0.99, 0.99)},
    "fresh33": {"system": (0.99, 0.99), "sections": (0.66, 0.49)},
    # the fifteenth pass's first clean sets, measured on its start code (433b4b3) and after
    # its first changes, then read in the same pass once fresh36 and fresh37 were collected
    # (the detection learning from them; a page's title above a site's banners, a datasheet's
    # fields spaced apart, a rule's name joined by "и"): fresh34 system 0.00/0.00 -> 1.00/1.00,
    # sections 0.00/0.00 (its one heading glued to its text, "БистменыПока …", is a word no
    # dictionary holds); fresh35 system 0.75/1.00 -> 1.00/1.00, sections 0.33/0.40 ->
    # 0.43/0.60 (this pass's first changes, before it was read) -> 0.89/0.80
    "fresh34": {"system": (0.99, 0.99), "sections": (0.0, 0.0)},
    "fresh35": {"system": (0.99, 0.99), "sections": (0.88, 0.79)},
    # the fifteenth pass's second clean sets, measured on its start code and after its second
    # round (as at the start), then read in the same pass once fresh38 and fresh39 were
    # collected (the detection learning from them; a table kept with its column bars, a rule's
    # English name run in after a colon): fresh36 system 0.33/0.33 -> 1.00/1.00, sections
    # 1.00/0.00 (its one heading run into a dzen article's paragraph, "Обзор"); fresh37 system
    # 0.75/1.00 -> 1.00/1.00, sections 0.04/0.08 -> 0.36/0.33
    "fresh36": {"system": (0.99, 0.99), "sections": (0.99, 0.0)},
    # (the sixteenth pass: the run-ins of its strategic raid page under their detachments,
    # sections 0.36/0.33 -> 0.36/0.42; then its Battlefleet Gothic page, another game in the
    # far future, is taken for 40k by the English names of its world's things the settings
    # table holds since ("Space Marine", "Tyranid"): system 1.00/1.00 -> 0.75/1.00, and its
    # sections count among the set's, 0.33/0.50)
    "fresh37": {"system": (0.74, 0.99), "sections": (0.32, 0.49)},
    # the fifteenth pass's last clean sets, measured on its start and end code (c46d5a8, the
    # sixteenth's start), read in the sixteenth once fresh41 and fresh42 were collected (the
    # detection learning from them and reading the worlds' things named in English; a forum
    # quotation's label in quotation marks, a site's search box and folded contents box, a
    # line trailing off in an ellipsis): fresh38 system 0.67/0.67 -> 1.00/1.00, sections
    # 0.33/1.00 -> 0.50/1.00; fresh39 system 0.67/1.00 -> 1.00/1.00, sections 0.00/0.00 ->
    # 0.33/0.50; fresh40 system 0.75/0.50 -> 1.00/1.00, sections 0.25/0.10 -> 0.40/0.20
    "fresh38": {"system": (0.99, 0.99), "sections": (0.49, 0.99)},
    "fresh39": {"system": (0.99, 0.99), "sections": (0.32, 0.49)},
    "fresh40": {"system": (0.99, 0.99), "sections": (0.39, 0.19)},
    # the seventeenth pass's clean sets, measured on its start (cabe146) and end code (8de7a16,
    # the eighteenth's start), read in the eighteenth, not learned by the detection (learning
    # them lost 5 of the 460 sources before and a page never learned from): fresh41 and fresh43
    # as measured; fresh42's two other games' pages taken for 40k; fresh44 sections 0.67/0.67 ->
    # 1.00/1.00 once the scorer read its English-first heading as written
    "fresh41": {"system": (0.99, 0.99), "sections": (0.99, 0.0)},
    "fresh42": {"system": (0.33, 0.99), "sections": (0.0, 0.99)},
    "fresh43": {"system": (0.99, 0.99), "sections": (0.99, 0.99)},
    "fresh44": {"system": (0.99, 0.99), "sections": (0.99, 0.99), "facts": (0.99, 0.99)},
}


@pytest.mark.parametrize("folder", sorted(NEVER_BUILT_ON))
def test_pages_never_built_on(folder: str) -> None:
    """Each set of pages built together with the corpus, apart from the other sets."""
    from gold_score import HELDOUT_DIR, totals

    from ingest import build, load
    from rulekb.defaults import corpus_dir

    graph = Graph(build(load([corpus_dir(), HELDOUT_DIR / folder], by_path=False)).kb)
    got = totals(score_all(graph, HELDOUT_DIR / folder))
    for category, (p_floor, r_floor) in NEVER_BUILT_ON[folder].items():
        s = got[category]
        assert s.precision >= p_floor - 1e-9 and s.recall >= r_floor - 1e-9, (
            folder, category, s.precision, s.recall, s.missed, s.extra)


def test_stated_systems_are_what_the_annotation_names(tmp_path: Path) -> None:
    """``benchmarks/gold.py --stated``: each page read with its annotated system, a page of
    another game (``system: null``) still detected."""
    spec = importlib.util.spec_from_file_location("gold_bench", REPO / "benchmarks" / "gold.py")
    assert spec is not None and spec.loader is not None
    gold = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gold)
    folder = HELDOUT_DIR / "fresh4"
    copy = gold._stated(folder, tmp_path)
    annotated = {page: row["system"] for page, row in annotations(folder).items()}
    texts = {t.name: t for t in load([copy])}
    assert sorted(texts) == sorted(annotated)
    for page, system in annotated.items():
        if system is not None:
            assert (texts[page].system, texts[page].system_from) == (system, "corpus.toml")
        else:
            assert texts[page].system_from != "corpus.toml"


def test_every_annotated_set_is_measured_in_the_order_collected() -> None:
    """``benchmarks/gold.py --heldout`` finds the sets by their folders (a new set needs no
    list extended), "dev" and "held-out" first, the fresh sets by their number, "dev2" last;
    every set the detection learns from is one of them (``--read``)."""
    spec = importlib.util.spec_from_file_location("gold_bench", REPO / "benchmarks" / "gold.py")
    assert spec is not None and spec.loader is not None
    gold = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gold)
    names = list(gold.heldout_sets())
    fresh = [n for n in names if n.startswith("fresh")]
    assert names[:3] == ["dev", "held-out", "fresh"] and names[-1] == "dev2"
    assert fresh == ["fresh", *(f"fresh{k}" for k in range(2, len(fresh) + 1))]
    from detect_training import LEARNED_SETS

    assert {"held-out" if n == "heldout" else n for n in LEARNED_SETS} <= set(names)


def test_pages_are_pooled_by_kind_from_their_addresses() -> None:
    """``benchmarks/gold.py --kinds``: a page is a copy of a book by its address where a
    README's table gives it (the first sets' files name no site), else by the site its file's
    name ends with; a page of another game is its own kind, whatever its site."""
    spec = importlib.util.spec_from_file_location("gold_bench", REPO / "benchmarks" / "gold.py")
    assert spec is not None and spec.loader is not None
    gold = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gold)
    dev = gold.addresses(HELDOUT_DIR / "dev")
    assert dev["w40k6_morale.txt"] == "https://studfiles.net/preview/4313328/page:6/"
    ours = {"system": "whfb8"}
    assert gold.page_kind("w40k6_morale.txt", dev["w40k6_morale.txt"], ours) == "book"
    assert gold.page_kind("whfb_faq_warforge.txt", dev["whfb_faq_warforge.txt"], ours) == "web"
    assert gold.page_kind("whfb_undead_rules_5hobbi.txt", None, ours) == "book"
    assert gold.page_kind("w40k8_roster_dzen.txt", None, ours) == "web"
    assert gold.page_kind("other_bfg_eldar_rules_redelf.txt", None, {"system": None}) \
        == "other game"


# Floors on the whole chapters of tests/data/chapters (another translation's chapter kept whole,
# its README): today's figures, precision and recall, built with the corpus as a user would
CHAPTER_FLOORS: dict[str, tuple[float, float]] = {
    "system": (1.0, 1.0),
    "sections": (0.92, 0.91),
    "page_refs": (0.92, 0.92),
    # (0.71/0.65: the blast rules' parts, now under «Взрыв», name it in passing, as a part
    # names its parent, no reference; 0.71/0.69 while they were its peers)
    "named_refs_in_corpus": (0.70, 0.64),
}
# Kill Team 2024's core rules of a rules site, whole (tests/data/chapters/README.md): clean
# when measured on the twenty-first pass's start code at sections 0.02/0.02, page citations
# 0.84/0.87, references 0.44/0.18; read since, and its phases', actions' and datacard's
# numbered parts placed by general rules (0.27/0.29), its key principles by their alphabetical
# order (0.57/0.62: ingest/segment_alphabet.py), its actions as entries with their costs
# (0.66/0.71: ingest/segment_nesting.priced_entries), a heading with a colon over a sentence
# listing things after a label no field (0.69/0.75); its flow diagram a summary of the steps
# headed below it, its steps' labels their text, its numbered parts parts (0.87/0.88) and its
# glossary's terms in lower case references (0.52/0.17 -> 0.84/0.53)
KT2024_FLOORS: dict[str, tuple[float, float]] = {
    "system": (1.0, 1.0),
    "sections": (0.85, 0.86),
    "page_refs": (1.0, 1.0),
    # (0.84/0.53 built beside the lite rules of the same game, which define some of its
    # names again, "Рывок", "Укрытие": each file's mentions name its own section; its
    # glossary's terms in lower case refer, but for "оперативник", which most rules use)
    "named_refs_in_corpus": (0.82, 0.51),
}


# Kill Team 2024's lite rules in another translation (tests/data/chapters/README.md): its
# weapon rules a glossary in the English names' order; clean when measured at sections
# 0.86/0.86 on the twenty-second pass's start code and 0.84/0.84 with its glossary rule (an
# English name with "x+" in brackets was not taken for one); read then: 1.00/1.00 with the
# names in brackets and the actions' costs after their names read
LITE_FLOORS: dict[str, tuple[float, float]] = {
    "system": (1.0, 1.0),
    "sections": (0.95, 0.95),
}


def test_whole_chapters_of_another_translation() -> None:
    """The 40k 7th edition's universal special rules in another translation (93 rules, 64,000
    characters, letters partly decomposed, dice tables set one cell a line) keep their rules
    as peers, their page citations and their references; Kill Team 2024's core rules keep
    what the twenty-first and twenty-second passes gained, and its lite rules their glossary
    of weapon rules."""
    from gold_score import CHAPTERS_DIR

    from ingest import build, load
    from rulekb.defaults import corpus_dir

    graph = Graph(build(load([corpus_dir(), CHAPTERS_DIR])).kb)
    every = score_all(graph, CHAPTERS_DIR)
    for page, floors in (("w40k7_universal_special_rules_munimaev.txt", CHAPTER_FLOORS),
                         ("kt2024_core_rules_kthub.txt", KT2024_FLOORS),
                         ("kt2024_lite_rules_weapon_rules_xaooc.txt", LITE_FLOORS)):
        scores = every[page]
        for category, (p_floor, r_floor) in floors.items():
            s = scores[category]
            assert s.precision >= p_floor and s.recall >= r_floor, (
                page, category, s.precision, s.recall, s.missed, s.extra)
