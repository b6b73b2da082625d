"""The rules reference site: pages and anchors, links, escaping, search index, search ranking.

The site is built once per module from ``tests/data/site/mini_kb.json`` (expected results in
``mini_kb.expected.json`` beside it), from the project's corpus (``corpus.expected.json``),
from a hostile KB and from a copy of the corpus with hostile lines written into a rule text
(``hostile_corpus.txt``); the checks that hold for any KB run on all of them. The browser
tests are in ``test_site_browser.py``; reading the HTML is in ``site_html.py``. The output
that ``docs/about/quickstart.rst`` quotes is checked against the commands it shows.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from site_html import (
    CORPUS_EXPECTED,
    EXPECTED,
    HOSTILE_BEFORE,
    HOSTILE_FILE,
    HOSTILE_KB,
    HOSTILE_LINES,
    LISTED,
    MINI_KB,
    REPO,
    Page,
    Site,
    build_into,
    corpus_folder,
    kb_of,
    right_first,
)

from kb.graph import Graph
from kb.store import load
from rulekb.site import SiteBuildError, build_site
from rulekb.site.textlinks import place_links


@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return build_into(load(MINI_KB), tmp_path_factory.mktemp("mini"))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return build_into(kb_of(corpus_folder()), tmp_path_factory.mktemp("corpus"))


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return build_into(load(HOSTILE_KB), tmp_path_factory.mktemp("hostile"))


@pytest.fixture(scope="module")
def hostile_corpus(tmp_path_factory: pytest.TempPathFactory) -> Site:
    """The corpus copied, with HOSTILE_LINES written into one file, built by ingest."""
    folder = tmp_path_factory.mktemp("hostile-corpus")
    copy = folder / "corpus"
    shutil.copytree(corpus_folder(), copy)
    target = copy / HOSTILE_FILE
    target.chmod(0o644)   # the corpus files are read-only; copytree keeps the mode
    text = target.read_text("utf-8")
    assert text.count(HOSTILE_BEFORE) == 1
    target.write_text(text.replace(HOSTILE_BEFORE, "\n" + HOSTILE_LINES + HOSTILE_BEFORE), "utf-8")
    return build_into(kb_of(copy), folder)


@pytest.fixture(params=["mini", "hostile", "corpus", "hostile_corpus"])
def site(request: pytest.FixtureRequest) -> Site:
    built: Site = request.getfixturevalue(request.param)
    return built


# -- checks for any KB -------------------------------------------------------------------------
def test_every_rule_type_and_concept_has_a_page_or_anchor(site: Site) -> None:
    missing = []
    for node in site.kb.nodes:
        if node.kind not in LISTED:
            continue
        if node.id not in site.entries:
            missing.append(node.id)
            continue
        path, element = site.locate(node.id)
        # the anchor is the node's own heading (section) or glossary term
        words = node.title.split()
        assert not words or words[0] in element.content, (node.id, element.content[:80])
    assert missing == []


def test_every_internal_link_resolves(site: Site) -> None:
    broken = []
    checked = 0
    for path in site.html_files():
        page = site.page(path)
        for link in page.links:
            href = link.attrs.get("href") or link.attrs.get("xlink:href", "")
            if urlsplit(href).scheme or href.startswith("//"):
                continue
            target, fragment = site.resolve(path, href)
            checked += 1
            if not target.is_file():
                broken.append((path.name, href, "no file"))
            elif fragment and target.suffix == ".html" and fragment not in site.page(target).ids:
                broken.append((path.name, href, "no anchor"))
    assert broken == []
    assert checked > 50


def test_site_works_offline(site: Site) -> None:
    for path in site.html_files():
        for element in site.page(path).tags:
            for attr in ("src", "href", "xlink:href"):
                value = element.attrs.get(attr, "")
                assert not value.startswith(("http:", "https:", "//")), (path.name, value)


def test_search_index_lists_every_rule_type_and_concept(site: Site) -> None:
    listed = {n.id for n in site.kb.nodes if n.kind in LISTED}
    assert set(site.entries) == listed
    script = (site.root / "_static" / "rulekb-search-index.js").read_text("utf-8")
    assert script.startswith("window.RULEKB_SEARCH = {")
    assert "<" not in script
    for entry in site.index["entries"]:
        assert entry["keys"] and all(k == k.lower() for k in entry["keys"])


def test_every_system_has_a_map_page_of_its_references(site: Site) -> None:
    for system in site.index["systems"]:
        listed = {n.id for n in site.kb.nodes if n.system == system and n.kind in LISTED}
        cites = any(
            e.kind == "references" and e.source != e.target and {e.source, e.target} <= listed
            for e in site.kb.edges
        )
        slug = site.index["slugs"][system]
        drawn = Page(site.root / "rules" / slug / "map.html")
        svgs = [e for e in drawn.tags
                if e.tag == "svg" and "rulekb-refmap" in e.attrs.get("class", "")]
        assert len(svgs) == (1 if cites else 0), system
        if cites:
            boxes = [a for a in drawn.links if "xlink:href" in a.attrs]
            assert boxes and all(a.content for a in boxes)
            # labels wrap, never cut (a passage's title, its first words, ends with "…")
            passages = {"".join(n.title.split()) for n in site.kb.nodes
                        if n.category == "passage"}
            for a in boxes:
                label = "".join(a.content.split())
                for title in passages:
                    label = label.replace(title, "")
                assert "…" not in label, a.content
        # the system's page links to its map
        start = site.page(site.root / "rules" / slug / "index.html")
        assert any(a.attrs.get("href") == "map.html" for a in start.links), system


def test_no_page_of_the_rules_names_a_source_file(site: Site) -> None:
    """A source is shown as its book («… — стр. 75»), never by its file name."""
    files = {n.source for n in site.kb.nodes if n.source}
    shown = []
    for path in site.html_files():
        if "about" in path.relative_to(site.root).parts:
            continue   # the project's docs speak of files on purpose
        page = site.page(path)
        body = " ".join(e.content for e in page.tags if e.tag == "article")
        shown += [(path.name, f) for f in files if f in body]
    assert shown == []
    tips = (site.root / "_static" / "rulekb-tips-data.js").read_text("utf-8")
    assert not [f for f in files if f in tips]


def test_rules_search_offers_no_documentation_page(site: Site) -> None:
    assert all(e["url"].startswith("rules/") for e in site.index["entries"])
    search = site.page(site.root / "search.html")
    sources = [s.attrs.get("src", "") for s in search.scripts]
    assert not [s for s in sources if "searchtools" in s or "searchindex" in s]
    assert any("rulekb-search.js" in s for s in sources)


def test_start_page_is_for_players(site: Site) -> None:
    start = site.page(site.root / "index.html")
    article = next(e for e in start.tags if e.tag == "article")
    for title in site.index["systems"].values():
        assert title in article.content
    assert "kb.json" not in article.content and "rulekb" not in article.content
    hrefs = {a.attrs.get("href") for a in start.links}
    assert "about/index.html" in hrefs
    for slug in site.index["slugs"].values():
        assert f"rules/{slug}/index.html" in hrefs
    forms = [e for e in start.tags if e.tag == "form" and "rulekb-search-form" in
             e.attrs.get("class", "")]
    assert len(forms) == 1


def test_start_page_shows_the_most_referred_to_rules_of_the_graph(corpus: Site) -> None:
    from rulekb.site.layout import SiteLayout
    from rulekb.site.overview import most_cited

    layout = SiteLayout(corpus.kb)
    start = corpus.page(corpus.root / "index.html")
    lists = [e for e in start.tags if e.tag == "ul" and "rulekb-top" in e.attrs.get("class", "")]
    assert len(lists) == len(layout.systems)
    for system, shown in zip(layout.systems, lists, strict=True):
        top = most_cited(layout, system)
        assert top, system.id
        citing = [len({e.source for e in layout.graph.in_edges(n.id)
                       if e.kind in ("references", "overrides", "grants")}) for n in top]
        assert citing == sorted(citing, reverse=True), (system.id, citing)
        assert shown.content == " ".join(n.title for n in top)


def test_facts_tables_have_no_empty_column(site: Site) -> None:
    for path in site.html_files():
        page = site.page(path)
        tables = [e for e in page.tags if e.tag == "table" and "rulekb-facts" in
                  e.attrs.get("class", "")]
        for table in tables:
            cells = [e for e in page.tags if e.tag == "td" and table in _ancestors(page, e)]
            columns: dict[str, list[str]] = {}
            for cell in cells:
                key = next(c for c in cell.attrs["class"].split() if c.startswith("rulekb-col-"))
                columns.setdefault(key, []).append(cell.content)
            assert all(any(v.strip(" —") for v in values) for values in columns.values()), (
                path.name, {k: v[:3] for k, v in columns.items()})


def _ancestors(page: Page, element: object) -> list[object]:
    # tables carry no ids: an element lies inside the nearest table opened before it
    index = page.tags.index(element)  # type: ignore[arg-type]
    tables = [e for e in page.tags[:index] if e.tag == "table"]
    return tables[-1:]


def test_favicon_and_no_empty_index(site: Site) -> None:
    assert (site.root / "_static" / "favicon.svg").is_file()
    start = site.page(site.root / "index.html")
    icons = [e for e in start.tags if e.tag == "link" and "icon" in e.attrs.get("rel", "")]
    assert icons and (site.root / icons[0].attrs["href"]).is_file()
    assert not (site.root / "genindex.html").exists()
    assert not any("genindex" in a.attrs.get("href", "") for a in start.links)


def test_every_reference_in_a_rule_text_has_a_tooltip(site: Site) -> None:
    script = (site.root / "_static" / "rulekb-tips-data.js").read_text("utf-8")
    assert script.startswith("window.RULEKB_TIPS = {") and "<" not in script
    tips = json.loads(script.removeprefix("window.RULEKB_TIPS = ").rstrip().rstrip(";"))
    missing = []
    for path in site.html_files():
        for link in site.page(path).links:
            if "rulekb-text" not in link.within:
                continue
            anchor = link.attrs.get("href", "").partition("#")[2]
            if anchor.startswith("n-") and not (anchor in tips and tips[anchor][0]):
                missing.append((path.name, link.content))
    assert missing == []


def test_map_columns_are_ordered_to_uncross_the_lines(corpus: Site) -> None:
    import networkx as nx

    from rulekb.site import refmap
    from rulekb.site.layout import SiteLayout

    layout = SiteLayout(corpus.kb)
    for system in corpus.index["systems"]:
        graph: nx.DiGraph = nx.DiGraph(refmap.reference_edges(layout, system))
        layers = refmap._layers(graph)
        before = refmap.crossings(graph, [sorted(layer) for layer in layers])
        after = refmap.crossings(graph, refmap._order(graph, [list(x) for x in layers]))
        assert after <= before and after <= graph.number_of_edges() / 2, (system, before, after)


def test_full_build_is_fast(site: Site) -> None:
    assert site.seconds < 60


def test_sphinx_reports_no_warnings(site: Site) -> None:
    # build_site runs Sphinx with -W (a warning fails the build); this shows the file is
    # really written and empty, so nothing is lost between the two
    warnings = site.work / "warnings.txt"
    assert warnings.is_file()
    assert warnings.read_text("utf-8") == ""


# -- what the mini KB must show ----------------------------------------------------------------
@pytest.mark.parametrize("case", EXPECTED["links"], ids=lambda c: c["text"])
def test_reference_in_text_links_to_its_target(mini: Site, case: dict[str, str]) -> None:
    links = [
        (p, a) for p, a in mini.links_in(case["in"])
        if a.content == case["text"] and "rulekb-text" in a.within
    ]
    assert len(links) == 1, [a.content for _, a in mini.links_in(case["in"])]
    page, link = links[0]
    target, fragment = mini.resolve(page.path, link.attrs["href"])
    want_path, want = mini.locate(case["target"])
    assert (target, fragment) == (want_path.resolve(), want.attrs["id"])


def test_unsafe_text_is_shown_as_text(mini: Site) -> None:
    path, section = mini.locate(EXPECTED["unsafe_node"])
    page = mini.page(path)
    html = path.read_text("utf-8")
    for text in EXPECTED["unsafe_texts"]:
        assert text in section.content, text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert all("alert" not in script.content for script in page.scripts)
    inline = [script.content for script in page.scripts if "src" not in script.attrs]
    # the theme's one line that picks the colour scheme is the only inline script
    assert all(text.strip().startswith("document.body.dataset.theme = ") for text in inline)
    assert not [e for e in page.tags if e.tag in ("b", "i") or e.attrs.get("class") == "raw"]


def test_unsafe_text_stays_text_in_the_search_index(mini: Site) -> None:
    entry = mini.entries[EXPECTED["unsafe_node"]]
    assert "<i>курсив</i>" in entry["title"]


def test_search_index_keys_and_words(mini: Site) -> None:
    vocabulary = mini.index["vocabulary"]
    for node_id, keys in EXPECTED["index_keys"].items():
        assert mini.entries[node_id]["keys"] == keys
    for node_id, words in EXPECTED["index_words"].items():
        entry = mini.entries[node_id]
        known = {vocabulary[i] for i in entry["text_words"] + entry["fact_words"]}
        assert set(words) <= known


@pytest.mark.parametrize("node_id,rules", EXPECTED["effective_rules"].items())
def test_unit_type_lists_the_rules_it_grants_and_inherits(
    mini: Site, node_id: str, rules: list[str]
) -> None:
    page, section = mini.section_of(node_id)
    listed = [a for a in page.links if section.attrs["id"] in a.parents]
    hrefs = {mini.resolve(page.path, a.attrs["href"]) for a in listed}
    for rule in rules:
        path, element = mini.locate(rule)
        assert (path.resolve(), element.attrs["id"]) in hrefs, rule
    if node_id == "whfb8:type-pehota-chudovishch":
        assert "наследует" in section.content


@pytest.mark.parametrize("node_id,sources", EXPECTED["backlinks"].items())
def test_backlinks(mini: Site, node_id: str, sources: list[str]) -> None:
    page, section = mini.section_of(node_id)
    assert "На это правило ссылаются" in section.content
    for source in sources:
        title = next(n.title for n in mini.kb.nodes if n.id == source)
        assert title in [a.content for _, a in mini.links_in(node_id)]


@pytest.mark.parametrize("node_id,texts", EXPECTED["facts"].items())
def test_facts_table(mini: Site, node_id: str, texts: list[str]) -> None:
    page, section = mini.section_of(node_id)
    tables = [e for e in page.tags if e.tag == "table" and section.attrs["id"] in e.parents]
    assert len(tables) == 1
    for text in texts:
        assert text in tables[0].content


def test_glossary_marks_undefined_concepts_and_lists_aliases(mini: Site) -> None:
    for node_id in EXPECTED["undefined_concepts"]:
        path, term = mini.locate(node_id)
        assert path.name == "glossary.html" and term.tag == "dt"
        tags = mini.page(path).tags
        definition = next(e for e in tags[tags.index(term) :] if e.tag == "dd")
        assert "не описано в корпусе" in definition.content
    glossary = (mini.root / "rules" / "whfb8" / "glossary.html").read_text("utf-8")
    for alias in ("Regeneration", "Killing Blow", "Flaming Attacks", "Monstrous Infantry"):
        assert alias in glossary


def test_project_docs_are_built(mini: Site) -> None:
    from rulekb.cli import cli as group

    about = mini.root / "about"
    cli = Page(about / "cli.html")
    headings = {e.content.rstrip("¶").strip() for e in cli.tags if e.tag == "h2"}
    assert {f"rulekb {name}" for name in group.commands if not group.commands[name].hidden} <= (
        headings
    )
    assert "Использование: rulekb build" in cli.ids["rulekb-cli"].content
    formats = (about / "formats.html").read_text("utf-8")
    assert "Knowledge base export" in formats and "rulekb.kb/1" in formats
    for page in ("index", "benchmarks", "quickstart", "architecture"):
        assert (about / f"{page}.html").is_file(), page


def test_repository_docs_stay_clean(mini: Site) -> None:
    docs = REPO / "docs"
    assert not (docs / "rules").exists()
    assert not (docs / "_generated").exists()
    assert not (docs / "_static" / "rulekb-search-index.js").exists()


def _rank_with_node(
    site: Site, queries: list[str] | list[tuple[str, str]], folder: Path
) -> list[str | None]:
    """The id of the first hit of each query, ranked by rulekb-search.js under node.

    A query is a string, or (query, system id of the page the reader is in).
    """
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed; the browser tests check the ranking")
    static = site.root / "_static"
    runner = folder / "rank.js"
    runner.write_text(
        "global.window = {}; global.document = {readyState: 'complete', documentElement: "
        "{dataset: {}}, getElementById: () => null, querySelectorAll: () => [], "
        "addEventListener() {}};\n"
        f"require({json.dumps(str(static / 'rulekb-search-index.js'))});\n"
        f"require({json.dumps(str(static / 'rulekb-search.js'))});\n"
        "const queries = JSON.parse(process.argv[2]);\n"
        "console.log(JSON.stringify(queries.map(q => (window.rulekbSearch(...[].concat(q))[0] "
        "|| {entry: {id: null}}).entry.id)));\n",
        encoding="utf-8",
    )
    out = subprocess.run(
        [node, str(runner), json.dumps(queries)], capture_output=True, text=True, check=True
    )
    found: list[str | None] = json.loads(out.stdout)
    return found


def test_search_ranking(mini: Site, tmp_path: Path) -> None:
    queries = [c["query"] for c in EXPECTED["search"]]
    assert _rank_with_node(mini, queries, tmp_path) == [c["first"] for c in EXPECTED["search"]]


@pytest.mark.parametrize("case", CORPUS_EXPECTED["search"], ids=lambda c: c["query"])
def test_corpus_search_finds_the_right_rule_first(
    corpus: Site, case: dict[str, str], tmp_path: Path
) -> None:
    [first] = _rank_with_node(corpus, [case["query"]], tmp_path)
    assert right_first(corpus, case, first), first


SEARCH_NAMES = json.loads((REPO / "tests" / "data" / "site" / "search_names.json").read_text(
    "utf-8"))


@pytest.mark.parametrize("part", ["tune", "held_out"])
def test_site_search_puts_the_right_rule_first(corpus: Site, part: str, tmp_path: Path) -> None:
    """The names a player types (typos, other forms, English names, the reader's system):
    the right rule first for at least 95% of each part of ``search_names.json``."""
    cases = SEARCH_NAMES[part]
    queries = [(c["q"], c.get("sys", "")) for c in cases]
    found = _rank_with_node(corpus, queries, tmp_path)
    wrong = [(c["q"], c.get("sys"), first, c["first"])
             for c, first in zip(cases, found, strict=True) if first != c["first"]]
    share = 1 - len(wrong) / len(cases)
    print(f"site search, {part}: right rule first for {len(cases) - len(wrong)} of "
          f"{len(cases)} names ({share:.0%}); wrong: {wrong}")
    assert share >= 0.95, wrong


def test_corpus_russian_slang_finds_an_english_heading(corpus: Site, tmp_path: Path) -> None:
    [first] = _rank_with_node(corpus, [("чардж", "killteam2018")], tmp_path)
    assert first == "killteam2018:faza-dvizheniya/charging"


def test_corpus_titles_are_russian(corpus: Site) -> None:
    english = [e["title"] for e in corpus.index["entries"]
               if e["kind"] != "concept" and not any("а" <= ch.lower() <= "я" for ch in e["title"])
               and any(ch.isalpha() for ch in e["title"]) and e["title"] != e["title"].upper()]
    assert english == []


@pytest.mark.parametrize("system", sorted(CORPUS_EXPECTED["aliases"]))
def test_corpus_english_names_are_aliases_and_in_the_glossary(corpus: Site, system: str) -> None:
    glossary_path = corpus.root / "rules" / system / "glossary.html"
    glossary = corpus.page(glossary_path)
    terms = [e for e in glossary.tags if e.tag == "dt"]
    for alias, node_id in CORPUS_EXPECTED["aliases"][system].items():
        node = next(n for n in corpus.kb.nodes if n.id == node_id)
        assert alias in node.aliases, (node_id, node.aliases)
        assert alias in corpus.entries[node_id]["aliases"]
        # its own glossary entry, whose definition links to the node
        [term] = [t for t in terms if t.content == alias]
        tags = glossary.tags
        definition = next(e for e in tags[tags.index(term):] if e.tag == "dd")
        links = [a for a in tags[tags.index(definition):] if a.tag == "a"][:1]
        path, element = corpus.locate(node_id)
        assert links and corpus.resolve(glossary_path, links[0].attrs["href"]) == (
            path.resolve(), element.attrs["id"]
        )
        assert "другое название" in definition.content


def test_a_passage_has_its_page_and_no_glossary_entry(corpus: Site) -> None:
    # Kill Team's sentences above its first heading: a passage, titled by its first words
    (lead,) = [n for n in corpus.kb.nodes if n.category == "passage"]
    path, element = corpus.locate(lead.id)
    assert path.parent.name == lead.system and path.name != "glossary.html"
    assert "Каждая миссия Kill Team разыгрывается" in element.content
    glossary = corpus.page(corpus.root / "rules" / lead.system / "glossary.html")
    assert not [t for t in glossary.tags if t.tag == "dt" and t.content == lead.title]
    assert lead.id in corpus.entries  # and the search finds it


def test_hostile_corpus_lines_are_shown_as_text(hostile_corpus: Site) -> None:
    site = hostile_corpus
    [node] = [n for n in site.kb.nodes if n.title.startswith("Ловушка")]
    assert node.title == HOSTILE_LINES.splitlines()[0]
    path, section = site.locate(node.id)
    heading = next(e for e in site.page(path).tags if e.tag == "h1")
    assert heading.content.rstrip("¶").strip() == node.title
    for line in HOSTILE_LINES.splitlines()[1:]:
        assert " ".join(line.split()) in section.content, line
    html = path.read_text("utf-8")
    assert "&lt;script&gt;alert(&quot;rulekb-text&quot;)&lt;/script&gt;" in html
    for page_path in site.html_files():
        page = site.page(page_path)
        assert all("alert" not in script.content for script in page.scripts), page_path.name
        for element in page.tags:
            assert element.tag not in ("b", "img", "i"), (page_path.name, element)
            assert not any(a.startswith("on") for a in element.attrs), (page_path.name, element)
            href = element.attrs.get("href", "") + element.attrs.get("xlink:href", "")
            assert not href.lower().startswith("javascript:"), (page_path.name, href)
    # the search index keeps the title as data; its script form has no "<" to close a tag
    assert site.entries[node.id]["title"] == node.title
    assert "<" not in (site.root / "_static" / "rulekb-search-index.js").read_text("utf-8")


def test_textlinks_use_spans_of_exact_slices_and_raw_words_otherwise() -> None:
    kb = load(MINI_KB)
    by_id = {n.id: n for n in kb.nodes}
    for node_id, raw in (("whfb8:regeneraciya", "Огненные атаки"),
                         ("whfb8:smertelnyi-udar", "Регенерацию")):
        node = by_id[node_id]
        edges = [e for e in kb.edges if e.source == node_id and e.raw == raw]
        links, unplaced = place_links(node, edges)
        assert unplaced == [] and len(links) == 1
        assert node.text[links[0].start : links[0].end] == raw


def test_missing_cli_fails_the_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "rulekb.cli", None)   # import now raises ImportError
    with pytest.raises(SiteBuildError, match="rulekb.cli"):
        build_site(load(MINI_KB), tmp_path / "site")


def test_a_rebuild_replaces_the_old_site_and_leaves_other_folders_alone(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build_site(load(MINI_KB), out)
    (out / "stale.html").write_text("old layout", "utf-8")
    build_site(load(MINI_KB), out)
    assert not (out / "stale.html").exists() and (out / "index.html").is_file()
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep", "utf-8")
    with pytest.raises(SiteBuildError, match="папка не пуста"):
        build_site(load(MINI_KB), mine)
    assert (mine / "notes.txt").read_text("utf-8") == "keep"


def test_a_sphinx_warning_fails_the_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(REPO / "docs", docs)
    (docs / "broken.rst").write_text("Сломано\n======\n\n.. no-such-directive::\n", "utf-8")
    monkeypatch.setattr("rulekb.site.build.DOCS_DIR", docs)
    with pytest.raises(SiteBuildError, match="Sphinx не собрал сайт"):
        build_site(load(MINI_KB), tmp_path / "site")


# -- the project docs show real output ---------------------------------------------------------
QUICKSTART = REPO / "docs" / "about" / "quickstart.rst"
OUTPUT_MARKERS = ("Почему:", "Возможно:", "ОШИБКА ВО ВХОДНЫХ ДАННЫХ", "Итого:", '"why":',
                  '"quote":', '"because":', '"by_player":', "tests/data/lists/bad/",
                  "tests/data/games/")
"""What marks a line of a text block as rulekb's output (command lines are left out)."""


def _code_blocks(rst: str) -> list[tuple[str, list[str]]]:
    """The ``code-block`` directives of an rst text: (language, lines without the indent)."""
    blocks: list[tuple[str, list[str]]] = []
    lines = rst.splitlines()
    for index, line in enumerate(lines):
        if not line.startswith(".. code-block::"):
            continue
        body: list[str] = []
        for following in lines[index + 1:]:
            if following.strip() and not following.startswith("   "):
                break
            body.append(following[3:])
        blocks.append((line.split("::", 1)[1].strip(), body))
    return blocks


def _example_files(blocks: list[tuple[str, list[str]]], folder: Path) -> dict[str, Path]:
    """The files the page shows in full (a yaml or toml block whose first line names it)."""
    files = {}
    for language, body in blocks:
        text = "\n".join(body).strip("\n")
        if language in ("yaml", "toml") and text.startswith("# "):
            name = text.splitlines()[0][2:].strip()
            files[name] = folder / name
            files[name].write_text(text + "\n", encoding="utf-8")
    return files


def test_quickstart_examples_are_real_output(corpus_graph: Graph, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Every line of rulekb's output that docs/about/quickstart.rst quotes (verdicts, quotes, why,
    input errors, summaries) is in the output of the commands it shows, and the exit codes
    it states are those the commands give; a "…" marks a cut."""
    import io

    from validator.armylist import check_lists, write_lists
    from validator.audit import write_audits
    from validator.inputs.roster import load_aliases
    from validator.report import exit_code, render_json, render_text

    monkeypatch.chdir(REPO)  # the page runs its commands from the repository's root
    blocks = _code_blocks(QUICKSTART.read_text("utf-8"))
    files = _example_files(blocks, tmp_path)
    outputs: list[str] = []
    codes: dict[str, int] = {}

    def check_list(name: str, paths: list[str | Path], aliases: Path | None = None) -> None:
        reports = check_lists(paths, corpus_graph, aliases=load_aliases(aliases))
        outputs.extend([render_text(reports), render_json(reports)])
        codes[name] = exit_code(reports)

    def audit(name: str, path: str) -> None:
        for fmt in ("text", "json"):
            out = io.StringIO()
            codes[name] = write_audits([path], corpus_graph, out, fmt)
            outputs.append(out.getvalue())

    check_list("rule_parameters", ["tests/data/lists/checks/rule_parameters.yaml"])
    check_list("points+broken", ["tests/data/lists/checks/points.yaml",
                                 "tests/data/lists/bad/broken.json"])
    check_list("trolls", [files["trolls.yaml"]])
    check_list("trolls+aliases", [files["trolls.yaml"]], files["my.toml"])
    for fmt in ("text", "json"):  # a folder, as the command writes it: with its table
        out = io.StringIO()
        codes["typed"] = write_lists(["tests/data/lists/typed/"], corpus_graph, out, fmt)
        outputs.append(out.getvalue())
    for name in ("wh40k6/small", "whfb8/small", "engine/order_and_units", "missing_army"):
        audit(name, f"tests/data/games/{name}.jsonl")
    assert codes == {"rule_parameters": 1, "points+broken": 1, "trolls": 0, "trolls+aliases": 0,
                     "typed": 0, "wh40k6/small": 1, "whfb8/small": 1, "engine/order_and_units": 1,
                     "missing_army": 2}
    everything = "\n".join(outputs)
    quoted = [line for language, body in blocks if language == "text" for line in body
              if not line.strip().startswith("rulekb ")
              and (any(marker in line for marker in OUTPUT_MARKERS)
                   or line.strip().startswith("«"))]
    assert len(quoted) > 40
    missing = [piece.strip() for line in quoted for piece in line.split("…")
               if len(piece.strip()) >= 8 and piece.strip() not in everything]
    assert missing == []
