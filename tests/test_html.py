"""A web page saved as HTML: its text read out of its markup, its headings by their tags, the
site's template left out and accounted for (``ingest/clean_html.py``; the step's table is
``data/clean/html.toml``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from ingest import build, load
from ingest.build import prepare
from ingest.clean_html import html, html_structure, page_text
from ingest.html_page import is_html
from ingest.load import LoadError, load_file
from ingest.models import CleanedText
from ingest.segment import Segmentation
from ingest.segment_headings import is_heading_line

DATA = Path(__file__).parent / "data" / "html"
REAL = DATA / "real"
MARKDOWN = Path(__file__).parent / "data" / "markdown"


@pytest.mark.parametrize(("page", "headings"), [
    ("<html><body><h1>Психология</h1><h2>Паника</h2><h3>Кто</h3><h2>Ужас</h2></body></html>",
     [("Психология", 1), ("Паника", 2), ("Кто", 3), ("Ужас", 2)]),
    # a heading's anchor and the whitespace around its words are no part of it
    ("<html><body><h2>\n  <a name=\"x\"></a> Паника <br>\n</h2></body></html>", [("Паника", 2)]),
    # the headings of a menu, a sidebar, the part outside <main> head nothing
    ("<html><body><nav><h2>Меню</h2></nav><main><h1>Страх</h1></main><aside><h3>Топ</h3>"
     "</aside></body></html>", [("Страх", 1)]),
    # a forum's replies repeat the topic's subject: no headings
    ("<html><body><h3>Паника</h3><p>Вопрос.</p><h3>Re: Паника</h3><p>Ответ.</p><h3>Ответ: "
     "Паника</h3></body></html>", [("Паника", 3)]),
    ("<html><body><p>Текст без заголовков.</p></body></html>", None),  # read as lines
    ("Страх\n\nТекст.", None),  # no web page
])
def test_html_structure_headings(page: str, headings: list[tuple[str, int]] | None) -> None:
    found = html_structure(page)
    got = None if found is None else [(page[h.start:h.end], h.level) for h in found.headings]
    assert got == headings


def test_every_change_says_why() -> None:
    page = (DATA / "rules.html").read_text(encoding="utf-8")
    reasons = {e.reason for e in html(page)}
    assert reasons == {
        "разметка HTML",
        "вне основного текста страницы (<main>)",
        "меню и оформление сайта (<div class=\"share\">)",
        "меню и оформление сайта (<section class=\"comments\">)",
    }


def test_a_page_is_cut_by_its_headings_and_loses_its_template() -> None:
    """The page holds the rules of ``data/markdown/rules.md``: it is cut into the same
    sections under the same parents, with the same quotation as flavour."""
    src = load_file(DATA / "rules.html").model_copy(update={"system": "whfb8"})
    cleaned, seg = prepare(src)
    assert seg.layout == "html"
    _, twin = prepare(load_file(MARKDOWN / "rules.md").model_copy(update={"system": "whfb8"}))

    def tree(s: Segmentation) -> list[tuple[str, str | None]]:
        return [(x.title, s.sections[x.parent].title if x.parent is not None else None)
                for x in s.sections]

    assert tree(seg) == tree(twin) and len(seg.sections) == 5
    assert [f.text for f in seg.flavour] == [f.text for f in twin.flavour]
    assert "<" not in cleaned.text and ">" not in cleaned.text
    for furniture in ("Главная", "Поиск по сайту", "Поделиться", "Комментарии", "Популярное",
                      "Все права защищены", "dataLayer", "Железный Топор»\n"):
        assert furniture not in cleaned.text, furniture
    # a paragraph's source line breaks are spaces; a list's items are lines
    assert "тест на Панику по своему Лидерству" in cleaned.text
    assert "• подразделения пехоты и кавалерии;\n• боевые машины" in cleaned.text
    # every character removed is in the account, and the map leads back into the source
    assert not _unaccounted(src.text, cleaned)
    panic = seg.sections[1]
    start, end = cleaned.to_source_span(*panic.heading_span)
    assert src.text[start:end] == "Паника"


def test_a_page_builds_references_and_page_citations() -> None:
    kb = build(load([DATA / "rules.html"])).kb  # its system found in its words
    assert {n.system for n in kb.nodes} == {"whfb8"}
    edges = {(e.source, e.kind, e.target) for e in kb.edges}
    assert ("whfb8:psikhologiya/uzhas", "references", "whfb8:psikhologiya/panika") in edges
    assert ("whfb8:psikhologiya/uzhas", "references", "whfb8:psikhologiya/strakh") in edges
    assert ("whfb8:psikhologiya/panika", "cites_page", "whfb8:page:57") in edges
    texts = {n.id: n.text for n in kb.nodes}
    assert "бегство (см. стр. 57)" in texts["whfb8:psikhologiya/panika"]
    reasons = {r.reason for r in kb.removed}
    assert "вне основного текста страницы (<main>)" in reasons


def test_the_last_section_keeps_its_last_line(write: Callable[[str, str], Path]) -> None:
    """The last heading's section runs to the text's end (its one line included), in a web
    page and in Markdown alike."""
    for name, text in (("a.html", "<html><body><h1>Психология</h1><h2>Паника</h2><p>Тест на "
                                  "Панику.</p></body></html>"),
                       ("a.md", "# Психология\n\n## Паника\n\nТест на Панику.\n")):
        src = load_file(write(name, text)).model_copy(update={"system": "whfb8"})
        cleaned, seg = prepare(src)
        body = cleaned.text[slice(*seg.sections[-1].body_span)]
        assert body.strip() == "Тест на Панику.", name


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, str], Path]:
    """Writes a text written for a test into a file of the test's own folder."""

    def to_file(name: str, text: str) -> Path:
        (tmp_path / name).write_text(text, encoding="utf-8")
        return tmp_path / name

    return to_file


# -- pages of public repositories (real/SOURCES.tsv) ----------------------------------------

def test_a_wordpress_template_s_rules_page() -> None:
    """A board game's rules in a WordPress template: its headings in capitals are the
    sections under the page's title, its pictures and its order form are no text."""
    src = load_file(REAL / "federation_rules_wp_template.html").model_copy(
        update={"system": "whfb8"})
    cleaned, seg = prepare(src)
    titles = [s.title for s in seg.sections]
    assert titles[:3] == ["Правила игры", "Игровые предметы", "Подготовка к игре"]
    assert "Штрафные санкции" in titles and "Оформить заказ" not in titles
    assert "<?php" not in cleaned.text and "bloginfo" not in cleaned.text


def test_a_template_s_breadcrumbs_and_a_text_parted_by_line_breaks() -> None:
    src = load_file(REAL / "blackjack_ochko_rules_blade.html").model_copy(
        update={"system": "whfb8"})
    cleaned, seg = prepare(src)
    assert [s.title for s in seg.sections] == ["Правила игры"]
    lines = cleaned.text.split("\n")
    assert len(lines) > 15  # each <br> a line's end
    assert not any(line.startswith(("Главная", "<")) for line in lines)


def test_a_site_s_header_menu_and_forms_are_its_template() -> None:
    text = page_text((REAL / "futbologia_rules_page_shell.html").read_text(encoding="utf-8"))
    assert text.startswith("Правила Игры")  # the header's logo, the menu: gone
    for template in ("Футбология", "История", "Добавить Абзац", "Введите название"):
        assert template not in text, template


def test_an_old_table_layout_s_menus_and_columns_are_its_template() -> None:
    """A table-layout page with no HTML5 parts and no class names: the cell its paragraphs
    stand in is its text; its columns of links, its other column's label and its footer's
    links are the template, each accounted for."""
    src = load_file(REAL / "seodon_table_layout_template.html").model_copy(
        update={"system": "whfb8"})
    cleaned, seg = prepare(src)
    assert [s.title for s in seg.sections] == ["Lorem ipsum dolor"]
    assert cleaned.text.startswith("Lorem ipsum dolor\n\nLorem ipsum dolor sit amet")
    assert cleaned.text.rstrip().endswith("fames congue et magnis.")
    outside = [ch.before for ch in cleaned.changes if "здесь абзацы текста" in ch.reason]
    assert len(outside) == 2
    assert "Ссылка меню 10" in outside[0] and "Дополнительно" in outside[1] \
        and "Карта сайта" in outside[1]
    assert not _unaccounted(src.text, cleaned)


def test_every_real_page_is_html_and_keeps_its_account() -> None:
    for path in sorted(REAL.glob("*.html")):
        src = load_file(path).model_copy(update={"system": "whfb8"})
        assert is_html(src.text), path.name
        cleaned, _ = prepare(src)
        assert not _unaccounted(src.text, cleaned), path.name


def _unaccounted(source: str, cleaned: CleanedText) -> str:
    """The source's characters that neither stand in the cleaned text (where its map leads)
    nor lie in a change of the account: text lost without a reason."""
    kept = bytearray(len(source))
    for i in range(len(cleaned.text)):
        kept[cleaned.to_source(i)] = 1
    for ch in cleaned.changes:
        kept[ch.span[0]:ch.span[1]] = b"\x01" * (ch.span[1] - ch.span[0])
    return "".join(c for c, k in zip(source, kept, strict=True) if not k and not c.isspace())


def test_a_page_s_title_names_its_book(write: Callable[[str, str], Path]) -> None:
    """The book a page is of is looked for in its ``<title>`` and its text, not its markup."""
    src = load_file(write("p.html", "<!DOCTYPE html><html><head><title>Warhammer 40k - 6th "
                                     "edition - Книга правил 1.0</title></head><body><h1>Боевой "
                                     "дух</h1><p>Текст.</p></body></html>"))
    assert src.title == "Warhammer 40k, 6th edition, Книга правил"
    assert load_file(write("q.html", "<html><body><h1>Паника</h1></body></html>")).title is None


# -- a page saved as one file (MHTML) ------------------------------------------------------

def test_a_page_saved_as_one_file_is_read_as_its_page() -> None:
    """Chrome's "Webpage, Single File" (quoted-printable, the charset in the page's <meta>)
    and Internet Explorer's "Web Archive" (base64 in windows-1251, a picture beside it)."""
    chrome = load_file(DATA / "rules.mhtml").model_copy(update={"system": "whfb8"})
    assert chrome.encoding == "mhtml/utf-8" and chrome.text.startswith("<!DOCTYPE html>")
    _, seg = prepare(chrome)
    assert [s.title for s in seg.sections] == ["Психология", "Паника", "Кто проходит тест",
                                               "Ужас", "Страх"]
    ie = load_file(DATA / "terror_ie.mht").model_copy(update={"system": "whfb8"})
    assert ie.encoding == "mhtml/windows-1251"
    cleaned, seg = prepare(ie)
    assert [s.title for s in seg.sections] == ["Ужас", "Страх"]
    assert "Главная" not in cleaned.text and "GIF89a" not in cleaned.text
    assert "атакованное такой моделью" in cleaned.text


@pytest.mark.parametrize(("content", "message"), [
    (b"\xd0\x9f\xd0\xb0\xd0\xbd\xd0\xb8\xd0\xba\xd0\xb0", "не веб-архив MHTML"),
    (b"MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=\"b\"\r\n\r\n--b\r\n"
     b"Content-Type: image/gif\r\n\r\nGIF89a\r\n--b--\r\n", "нет страницы HTML"),
])
def test_a_web_archive_without_a_page_is_refused(tmp_path: Path, content: bytes,
                                                 message: str) -> None:
    from ingest.load import LoadError

    path = tmp_path / "page.mht"
    path.write_bytes(content)
    with pytest.raises(LoadError) as error:
        load_file(path)
    assert str(error.value).startswith(f"{path}: ") and message in str(error.value)


def test_a_wiki_page_s_sections_without_its_edit_links_and_boxes() -> None:
    """A MediaWiki page (Vector skin) saved as HTML: its title and its three headings are the
    sections; the sections' edit links, the skin's jump links, the line under the title, the
    navigation box beside the text and the category links are the site's."""
    src = load_file(REAL / "mediawiki_wikichip_setjmp.html").model_copy(
        update={"system": "whfb8"})
    cleaned, seg = prepare(src)
    assert [s.title for s in seg.sections] == ["<setjmp.h> Header - C", "Types", "Functions",
                                               "Macros"]
    for template in ("[edit]", "Jump to", "From WikiChip", "<assert.h>", "Categories",
                     "Retrieved from", "Personal tools"):
        assert template not in cleaned.text, template
    assert "jmp_buf An array type suitable for holding calling environment info." in cleaned.text


def test_names_set_apart_in_bold_or_as_terms_are_headings_under_the_page_s() -> None:
    """A glossary page under one <h1>: its rules named on lines of their own in bold
    ("<p><b>Глубокий удар</b></p>", "<b>Бесстрашие</b><br>"), as a definition list's terms,
    or run in before their text with a point ("<b>Примечание.</b> Правила …", as a text's
    line "Примечание. Правила …" runs it in) are its sections; bold inside a sentence and a
    bold line leading into a list ("… так:") are not."""
    src = load_file(DATA / "glossary.html").model_copy(update={"system": "wh40k6"})
    cleaned, seg = prepare(src)
    assert [(s.title, s.parent) for s in seg.sections] == [
        ("Универсальные специальные правила", None), ("Глубокий удар", 0), ("Бесстрашие", 0),
        ("Рывок", 0), ("Контратака", 0), ("Примечание", 0)]
    assert cleaned.text[slice(*seg.sections[-1].body_span)].startswith("Правила кодекса")
    # a run-in name: its point after the bold or inside it; a colon's label, a bold word
    # inside a sentence and a bold sentence are none
    page = ("<html><body><h1>Правила</h1><p><b>Страх.</b> Модель боится.</p><p><strong>"
            "Упорство</strong>. Подразделение стойко.</p><p><b>Ненависть:</b> Модели "
            "перебрасывают.</p><p>Модели с правилом <b>Страх.</b> Это важно.</p><p><b>Важное "
            "замечание о том, как играть эти правила.</b> Текст.</p></body></html>")
    found = html_structure(page, lambda line: is_heading_line(line, None))
    assert found is not None
    assert [page[h.start:h.end] for h in found.headings] == ["Правила", "Страх", "Упорство"]
    # a page whose only names are set apart in bold is read as lines: the lines layout
    # judges its headings
    assert html_structure("<html><body><p><b>Страх</b></p><p>Текст.</p></body></html>",
                          lambda line: True) is None


def test_explain_lists_the_site_s_parts_and_counts_the_tags(tmp_path: Path) -> None:
    """``--explain`` on a page: each part of the site removed on a line of its own, the tags
    in one line with how many places and characters."""
    from click.testing import CliRunner

    from rulekb.cli import cli

    result = CliRunner().invoke(cli, ["build", str(DATA / "rules.html"), "--explain", "-s",
                                      "whfb8", "-o", str(tmp_path / "kb.json")])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert any("html: меню и оформление сайта (<div class=\"share\">)" in line for line in lines)
    markup = [line for line in lines if "html: разметка HTML" in line]
    assert len(markup) == 1 and "мест: " in markup[0]


def test_a_page_s_game_is_named_by_its_title_and_breadcrumbs_too(
        write: Callable[[str, str], Path]) -> None:
    """A short page whose words alone leave its game unclear is of the game its title and
    its breadcrumb line name, as a copied page's furniture names it."""
    page = write("cover.html", "<!DOCTYPE html><html><head><title>Укрытия | Правила Warhammer "
                  "40000</title></head><body><div class=\"breadcrumbs\">Warhammer 40000 » "
                  "Правила » Укрытия</div><main><h1>Укрытия</h1><p>Если модель находится в "
                  "укрытии, она получает спасбросок за укрытие.</p></main></body></html>")
    assert load_file(page).system == "wh40k6"


def test_a_forum_topic_s_posts_without_their_authors_buttons_and_signatures() -> None:
    """phpBB's prosilver template of a topic's page (real/SOURCES.tsv): of each post, its
    message stays; the author's profile, avatar and post count, the author and date line,
    the signature, "back to top" and who is online are the forum's."""
    text = page_text((REAL / "phpbb_prosilver_viewtopic_body.html").read_text(encoding="utf-8"))
    assert "{postrow.MESSAGE}" in text
    for forum in ("{postrow.POSTER_AVATAR}", "{postrow.POSTER_POSTS}", "{postrow.SIGNATURE}",
                  "{postrow.POST_AUTHOR_FULL}", "{L_BACK_TO_TOP}", "{L_WHO_IS_ONLINE}"):
        assert forum not in text, forum


def test_a_text_opening_with_many_comments_is_judged_at_once() -> None:
    """A template opening with a comment a line ("<!-- INCLUDE overall_header.html -->" …)
    and no document after them: whether it is a page is decided in one pass (the pattern's
    ".*?" between comments once backtracked without end). Run apart, so that a return of it
    fails instead of hanging the suite."""
    import subprocess
    import sys

    code = ("from ingest.html_page import is_html; "
            "print(is_html('<!-- c -->\\n' * 40 + 'текст'), "
            "is_html('<!-- c -->\\n' * 40 + '<html><body>'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, cwd=Path(__file__).resolve().parents[1], check=True)
    assert done.stdout.split() == ["False", "True"]


def test_a_page_in_the_charset_its_meta_declares() -> None:
    """An old site's page in KOI8-R, which its <meta> declares (upper-case tags, paragraphs
    never closed, a menu centred above a rule): read in that charset, not as cp1251."""
    src = load_file(DATA / "psychology_koi8.html").model_copy(update={"system": "whfb8"})
    assert src.encoding == "koi8-r"
    cleaned, seg = prepare(src)
    assert [s.title for s in seg.sections] == ["Паника", "Ужас"]
    assert "тест на Панику по своему Лидерству" in cleaned.text


def test_a_page_s_links_name_rules_the_system_knows(write: Callable[[str, str], Path]) -> None:
    """A link's words name a rule whatever their case, when the system knows the name ("…
    вызывает и <a href="#fear">страх</a>"); the same word unlinked is a common noun, and a
    link to the site's start page names nothing."""
    linked = ("<!DOCTYPE html><html><body><main><h1>Психология</h1><h2>Страх</h2><p>Модель, "
              "которая боится врага, проходит тест на Лидерство.</p><h2>Ужас</h2><p>Модель, "
              "вызывающая ужас, вызывает и <a href=\"#fear\">страх</a>. Подробнее на <a "
              "href=\"/\">главной странице</a>.</p></main></body></html>")
    plain = linked.replace("<a href=\"#fear\">страх</a>", "страх")

    def references(page: str) -> set[tuple[str, str, str | None]]:
        kb = build(load([write("p.html", page)], system="whfb8")).kb
        return {(e.source, e.target, e.raw) for e in kb.edges if e.kind == "references"
                and e.source == "whfb8:psikhologiya/uzhas"}

    assert references(linked) == {("whfb8:psikhologiya/uzhas", "whfb8:psikhologiya/strakh",
                                   "страх")}
    assert references(plain) == set()


# -- pages that failed to read (a fuzzing of the readers) -----------------------------------

@pytest.mark.parametrize("charset", ["rot13", "hex", "zlib", "undefined", "x-unknown"])
def test_a_charset_naming_no_text_encoding_is_as_none_named(tmp_path: Path,
                                                            charset: str) -> None:
    """A ``<meta charset>`` naming one of Python's codecs that is no text encoding ("rot13",
    "hex": codecs.lookup finds them, bytes.decode refuses them with a LookupError) is as a
    charset Python does not know: the page is read as one naming none (here cp1251)."""
    page = tmp_path / "page.html"
    words = "Подразделение проходит тест на Панику по своему Лидерству. " * 5
    page.write_bytes(f'<html><head><meta charset="{charset}"></head><body><p>{words}</p>'
                     "</body></html>".encode("cp1251"))
    assert load_file(page).encoding == "cp1251"
    archive = tmp_path / "page.mht"
    archive.write_bytes(f"MIME-Version: 1.0\nContent-Type: text/html; charset={charset}\n\n"
                        .encode() + page.read_bytes())
    assert load_file(archive).encoding == "mhtml/cp1251"


def test_a_decimal_reference_too_long_for_any_character_reads_as_none(tmp_path: Path) -> None:
    """"&#99…9;" of 5,000 digits: Python's int refuses its digits (past 4,300), which
    html.unescape does not catch; the page is read, the reference as no character."""
    from click.testing import CliRunner

    from rulekb.cli import cli

    page = tmp_path / "page.html"
    page.write_text("<html><head><title>&#" + "9" * 5000 + ";</title></head><body><p>"
                    "Подразделение проходит тест на Панику &#" + "9" * 5000 + ";.</p>"
                    "</body></html>", encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", str(page), "--system", "whfb8", "-o",
                                      str(tmp_path / "kb.json")])
    assert result.exit_code == 0, result.output


def test_a_lt_before_every_word_costs_its_length_once() -> None:
    """A million "<a " with no ">" near them: each "<" opens no tag, found without reading
    the 5,000 characters a tag may take after each (minutes). Run apart, so that a return of
    it fails instead of hanging the suite."""
    import subprocess
    import sys

    code = ("from ingest.html_page import _read; "
            "print(len(_read('<html><body>' + '<a ' * 1_000_000 + '</body></html>').tags))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, cwd=Path(__file__).resolve().parents[1], check=True)
    assert done.stdout.split() == ["4"]


def test_a_web_archive_of_parts_nested_thousands_deep_is_refused(tmp_path: Path) -> None:
    parts = b"".join(b'--a%d\nContent-Type: multipart/related; boundary="a%d"\n\n' % (k, k + 1)
                     for k in range(5000))
    path = tmp_path / "page.mht"
    path.write_bytes(b'MIME-Version: 1.0\nContent-Type: multipart/related; boundary="a0"\n\n'
                     + parts + b"--a5000\nContent-Type: text/html\n\n<p>Panic</p>\n")
    with pytest.raises(LoadError, match=re.escape(f"{path}: веб-архив MHTML не читается: его "
                                                  "части вложены друг в друга")):
        load_file(path)


def test_a_web_archive_of_many_parts_is_read_in_seconds() -> None:
    """An archive of 200,000 pictures before its page: its parts' headers are read by the
    old policy of :mod:`email` (the default one parsed each through its header registry: 40
    seconds). Run apart, so that a return of it fails instead of hanging the suite."""
    import subprocess
    import sys

    code = ("from ingest.web_archive import web_archive_page; "
            "data = b'MIME-Version: 1.0\\nContent-Type: multipart/related; boundary=b\\n\\n' "
            "+ b'--b\\nContent-Type: image/png\\n\\nx\\n' * 200_000 "
            "+ b'--b\\nContent-Type: text/html\\n\\n<p>x</p>\\n--b--\\n'; "
            "print(web_archive_page(data)[0])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=20, cwd=Path(__file__).resolve().parents[1], check=True)
    assert done.stdout.strip() == "b'<p>x</p>'"
