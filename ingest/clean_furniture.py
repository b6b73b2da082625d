"""The cleaning step that removes what a website put around the rules text: site furniture
(the running headers and page footers of a book are :mod:`ingest.clean_pages`'s).

It is a step of :data:`ingest.clean.STEPS` (``text -> list[Edit]``) that removes whole blocks
with the whitespace around them (:func:`ingest.clean_edits.block_edit`), so the text on both
sides stays apart.
"""

from __future__ import annotations

import re

from ingest.clean_edits import (
    HSPACE,
    LETTER_RE,
    block_edit,
    edits_outside,
    first_fit,
    merge_blocks,
)
from ingest.clean_filler import template_filler
from ingest.clean_forum import (
    POST_HEADER_REASON,
    WIKI_SOURCE_REASON,
    forum_furniture,
)
from ingest.clean_menus import category_menus, header_menu, menu_labels
from ingest.clean_titles import (
    lofi_title_label,
    page_title,
    site_name,
    topic_over_post_title,
    topic_title_mark,
)
from ingest.furniture_lines import (
    ANCHORED_LINES,
    BAR_INLINE,
    FURNITURE_INLINE,
    FURNITURE_LINES,
    INLINE_ANCHORS,
    NAV_ANCHORS,
    NAV_LINK,
    NAV_REASON,
    bar_tables,
    furniture_lines_re,
    holder,
    in_spans,
    lines_for,
)
from ingest.furniture_repeats import (
    BREADCRUMB_RE,
    BREADCRUMB_REASON,
    name_over_path,
    repeated_lines,
    title_bar,
)
from ingest.models import Edit
from kb.lemmas import is_known

TITLE_LINE_REASON = "строка-заголовок сайта: название книги повторено"
_MAX_TITLE_LINE = 300


# Lines of a site's upload/download block ("Добавил:", "Скачиваний:", "274", "01.06.2015",
# "46.65 Mб" (its "M" Latin, its "б" Cyrillic, as sites write it), "Правила.pdf", "Скачать"),
# told by their shape: labels that end with a colon,
# values that are numbers, dates, sizes or file names.
_LABEL_LINE = re.compile(rf"^{HSPACE}*+(?:[A-ZА-ЯЁ][\w-]*:{HSPACE}*)+$")
_VALUE_LINE = re.compile(
    rf"^{HSPACE}*+(?:\d+(?:[.,:/-]\d+)*{HSPACE}*(?:[KkMmGgКкМмГг][BbБб]|байт\w*|bytes?)?\.?"
    rf"|\S*\.(?:pdf|docx?|rtf|djvu|txt|xlsx?|pptx?|zip|rar)|Скачать|Upload|Download){HSPACE}*$",
    re.IGNORECASE,
)
_VALUE_WORDS = frozenset({"скачать", "upload", "download"})
_DOWNLOAD_WORDS = frozenset({"скачать", "download"})  # the button that ends such a block
# A label glued to its value, the site's markup lost ("Формат файлаpdf", "Дата12.04.2023",
# "ТипКнига", "Имя файлаRuleBook.pdf"): a capitalised word or two, then without a space a
# value in another script, case or kind (digits).
_GLUED_LABEL_LINE = re.compile(
    rf"^{HSPACE}*+[А-ЯЁ][а-яё]+(?: [а-яё]+)?(?=[A-ZА-ЯЁ0-9a-z#])(?![а-яё])")
# An id ("#1056278"), a page counter ("страница4 из 5") or a row of page numbers
# ("1   2   3   4   5") inside such a block.
_BLOCK_VALUE_LINE = re.compile(
    rf"^{HSPACE}*+(?:#\d+|\d{{1,3}}(?:{HSPACE}+\d{{1,3}})+"
    rf"|(?i:страница|стр\.?|page){HSPACE}*\d+{HSPACE}*(?i:из|of|/){HSPACE}*\d+){HSPACE}*$")
_MIN_BLOCK_LINES = 3
_SENTENCE_VALUE = re.compile(rf"{HSPACE}*+(?:[^\s]++{HSPACE}++){{5}}[^\n]*[.!?…]{HSPACE}*$")
"""A line of six words or more that ends a sentence: text, never a field's value. (Five words
and the rest of the line: "{5,}" gave back a word at a time to look for the stop again, the
words times the line's length when it has none.)"""
_FORM_VALUE = 40  # characters of a form's value in words at most ("Элитные войска")
_MAX_FURNITURE_LINE = 400
# A word glued of several ("АвтомобилиАстрономияБиология"): a site's list of categories.
_GLUED_RE = re.compile(r"\S*[a-zа-яё]{2,}[A-ZА-ЯЁ][a-zа-яё]{2,}\S*")
# The seam of two glued words, searched first: the pattern above backtracks on every word.
_GLUED_SEAM_RE = re.compile(r"[a-zа-яё]{2}[A-ZА-ЯЁ][a-zа-яё]{2}")
_SEAM_RE = re.compile(r"([a-zа-яё])([A-ZА-ЯЁ])")
# A Latin name written in camel case, not words glued by a lost markup: a program's
# identifier ("textdoc.text.addElement(h)", "chart.StockGainMarker:", "getElementById": its
# punctuation inside, or a small letter first).
_CODE_NAME_RE = re.compile(r"[a-z][.(_=\[]|^[^\w]*[a-z]")
_MASTHEAD_WORDS = 3
_NEXT_LINE_RE = re.compile(r"\s*([^\n]*)")
_MAX_TITLE_UNDER_BRAND = 60
_MAX_MASTHEAD = 120
UPLOAD_REASON = "блок сайта «загружено/скачать» (метки и значения)"
GLUED_REASON = "навигация сайта: склеенный список рубрик"
MASTHEAD_REASON = "название сайта над его навигацией"


def _glued_chars(line: str) -> int:
    """Characters of ``line`` in words glued of several by a lost markup ("ГлавнаяФорум",
    "АвтомобилиАстрономияБиология", "HomeNewsForum"); a Latin name in camel case is none: an
    identifier (:data:`_CODE_NAME_RE`), or a brand of two words among other words ("About
    OpenDocument", "О программе BattleScribe": one seam, between Latin letters).

    >>> _glued_chars("АрхитектураБиология"), _glued_chars("About OpenDocument")
    (19, 0)
    >>> _glued_chars("textdoc.text.addElement(h)"), _glued_chars("HomeNewsForum")
    (0, 13)
    """
    total = 0
    for m in _GLUED_RE.finditer(line):
        word = m.group()
        seams = _SEAM_RE.findall(word)
        if all(a.isascii() and b.isascii() for a, b in seams) and (
                _CODE_NAME_RE.search(word) or (len(seams) == 1 and word != line.strip())):
            continue  # an identifier, or a brand among other words (a site's brand alone on
            # its line, "WarhammerBox", is its masthead)
        total += len(word)
    return total


def _furniture_lines(text: str) -> list[Edit]:
    """Blocks of lines that are furniture by their shape: upload/download blocks (labels and
    values, or labels glued to their values: "Формат файлаpdf"), and lines made of glued words
    (a category list)."""
    edits: list[Edit] = []
    lines: list[tuple[int, int]] = []
    kinds = []
    pos = 0
    for line in text.split("\n"):
        start, pos = pos, pos + len(line) + 1
        bare = line.strip()
        if not bare:
            continue
        lines.append((start, start + len(line)))
        if len(line) > _MAX_FURNITURE_LINE:
            kinds.append("")  # a paragraph of text, never a line of furniture
            continue
        glued = _glued_chars(line) if _GLUED_SEAM_RE.search(line) else 0
        if glued and glued * 2 >= len(bare):
            kinds.append("glued")
        elif bare.endswith(":") and _LABEL_LINE.match(line):
            kinds.append("label")
        elif bare[0].isupper() and _GLUED_LABEL_LINE.match(line):
            kinds.append("label")  # its value glued to it on the same line
        elif (bare[0] in "#сСpP" or bare[0].isdigit()) and _BLOCK_VALUE_LINE.match(line):
            kinds.append("value")
        elif (bare[0].isdigit() or "." in bare or bare.lower() in _VALUE_WORDS) \
                and _VALUE_LINE.match(line):
            kinds.append("value")  # (the cheap tests first: what every value line has)
        else:
            kinds.append("")
    members = ("label", "value", "glued")
    k = 0
    while k < len(lines):
        if kinds[k] not in members:
            k += 1
            continue
        j, count, worded, prose, closed = k, 0, 0, 0, False
        while j < len(lines):
            if closed and kinds[j] != "value":
                break  # after the download button, its values alone (a page's number)
            if kinds[j] in members:  # a line of labels counts each ("Вуз: Предмет: Файл:")
                count += max(1, text.count(":", *lines[j]) if kinds[j] == "label" else 1)
            elif not (kinds[j - 1] == "label" and j + 1 < len(lines)
                      and kinds[j + 1] in members) or j == k:
                break  # a line of text that is no label's value ends the block
            elif _SENTENCE_VALUE.match(text, *lines[j]):
                prose += 1  # a sentence under a label: a banner's, or a rule's text under
                # its name ("Паника:" / "Подразделение, потерявшее 25% моделей, …")
            elif lines[j][1] - lines[j][0] <= _FORM_VALUE:
                worded += 1  # a short line of words: a field's value
            closed = closed or (kinds[j] == "value" and text[slice(*lines[j])].strip().lower()
                                in _DOWNLOAD_WORDS)
            j += 1
        values = kinds[k:j].count("value")
        # a form whose values are mostly words ("Название:" / "Ликтор" / "Тип:" / "Пехота" /
        # "Очки:" / "50") is the page's own datasheet, not a site's block of numbers, dates,
        # sizes and file names; nor are names over sentences with no number, date or
        # category list among them (rules, each under its name and colon)
        if count >= _MIN_BLOCK_LINES and "label" in kinds[k:j] and worded <= values \
                and prose <= values + kinds[k:j].count("glued"):
            edits.append(block_edit(text, lines[k][0], lines[j - 1][1], "site_furniture",
                                    UPLOAD_REASON))
        else:  # no block: a line of glued words alone is a category list, with its label
            # right above it ("Категории:")
            edits.extend(block_edit(
                text, lines[g - 1 if g > k and kinds[g - 1] == "label" else g][0], lines[g][1],
                "site_furniture", GLUED_REASON) for g in range(k, j) if kinds[g] == "glued")
        k = max(j, k + 1)
    return edits


# A list of links to a site's other pages under its label ("Полезное:", "Читайте также:",
# "Похожие статьи") — titles of articles, one a line, none a sentence of the page.
_LINKS_LABEL = re.compile(
    rf"^{HSPACE}*+(?i:полезное|читайте также|смотрите также|см\. также|похожие (?:статьи|записи"
    rf"|материалы|публикации|темы)|популярное|популярные (?:статьи|записи)|рекомендуем"
    rf"|ещё по теме|еще по теме|другие (?:статьи|записи|материалы)|последние (?:статьи|записи)"
    rf"|интересное|вам (?:также )?может быть интересно|подобный материал|прочитайте"
    rf"|навигация по странице){HSPACE}*:?{HSPACE}*$",
    re.MULTILINE)
_MAX_LINK_LINE = 100
_MAX_NUMBERED_LINK = 200
_MIN_LINKS = 2
LINKS_REASON = "список ссылок сайта на другие страницы («Полезное:», «Читайте также:»)"


# a serial's page in its list of pages: its title with its number of all glued to it
# ("Бессонница194/351", "Смотрите на небо!198/351")
_SERIAL_PAGE = re.compile(
    rf"^{HSPACE}*+(?P<title>[^\n]{{0,80}}?[^\W\d_][!?.…»\"]?)(?P<n>\d{{1,4}})/(?P<of>\d{{1,4}})"
    rf"{HSPACE}*$", re.MULTILINE)
SERIAL_REASON = "навигация по страницам сайта: название и номер страницы («Название194/351»)"


def _serial_pages(text: str) -> list[Edit]:
    """A serial's list of pages (a webcomic's): each title with its page's number of all glued
    to it, its number no greater than the count. (The title the site repeats on the line after
    it stays: taking it too made the serial's name above the list the heading of the page.)"""
    edits = []
    for m in _SERIAL_PAGE.finditer(text):
        if int(m.group("n")) > int(m.group("of")):
            continue
        edits.append(block_edit(text, m.start(), m.end(), "site_furniture", SERIAL_REASON))
    return edits


# a row of a site's links spaced wide ("НОВОСТИ    КНИГИ    ЭНЦИКЛОПЕДИЯ    О САЙТЕ"): items of
# a few words apart by two spaces or a tab, one of them a link of :data:`NAV_LINK`
_SPACED_ROW = re.compile(rf"^{HSPACE}*+(\S[^\n]*?(?:\S(?: {{2,}}|\t){HSPACE}*)[^\n]*\S){HSPACE}*$",
                         re.MULTILINE)
_SPACED_ITEMS = re.compile(r" {2,}|\t")
_MIN_SPACED_ITEMS = 4
_MAX_PATH_WORDS = 6
_STOPS_RE = re.compile(r"[.!?]")
_PATH_SEP_RE = re.compile(r" [-–—»/>] ")  # between a path's parts ("Рефераты - История")
_MAX_ITEM_WORDS = 3


def _spaced_rows(text: str) -> list[Edit]:
    """Each :data:`_SPACED_ROW` line of :data:`_MIN_SPACED_ITEMS` items or more, none a
    sentence's, one of them a site's link; or of two, the first a site's link and the second
    the site's path to the page ("Главная              Рефераты - История")."""
    edits = []
    for m in _SPACED_ROW.finditer(text):
        items = [i.strip() for i in _SPACED_ITEMS.split(m.group(1)) if i.strip()]
        if len(items) == 2 and _NAV_LINK_RE.fullmatch(items[0]) \
                and len(items[1].split()) <= _MAX_PATH_WORDS and not _STOPS_RE.search(items[1]) \
                and _PATH_SEP_RE.search(items[1]):
            edits.append(block_edit(text, m.start(1), m.end(1), "site_furniture", NAV_REASON))
        elif len(items) >= _MIN_SPACED_ITEMS and all(
                len(i.split()) <= _MAX_ITEM_WORDS and not re.search(r"[.!?,;:\d]", i)
                for i in items) and any(_NAV_LINK_RE.fullmatch(i) for i in items):
            edits.append(block_edit(text, m.start(1), m.end(1), "site_furniture", NAV_REASON))
    return edits


_NAV_LINK_RE = re.compile(NAV_LINK)
_WORD_ROW = re.compile(rf"^{HSPACE}*+((?:[\w-]+{HSPACE}+){{3,11}}[\w-]+){HSPACE}*$", re.MULTILINE)
_MIN_ROW_LINKS = 2


def _word_rows(text: str) -> list[Edit]:
    """A row of links run on one line, each word capitalised ("Новости Библиотека Учёные
    Ссылки Карта сайта О проекте"), of which two or more are a site's links
    (:data:`NAV_LINK`)."""
    edits = []
    for m in _WORD_ROW.finditer(text):
        row = m.group(1)
        found = list(_NAV_LINK_RE.finditer(row))
        # the other words each a link's, capitalised (a link of two words has its second in
        # lower case: "Карта сайта", "О проекте")
        rest = _NAV_LINK_RE.sub(" ", row).split()
        if len(found) >= _MIN_ROW_LINKS and all(w[:1].isupper() for w in rest):
            edits.append(block_edit(text, m.start(1), m.end(1), "site_furniture", NAV_REASON))
    return edits


def _link_lists(text: str) -> list[Edit]:
    """Each :data:`_LINKS_LABEL` with the link lines right under it (no blank line between,
    short, two words or more, ending in no period or colon), two or more of them."""
    edits = []
    for m in _LINKS_LABEL.finditer(text):
        pos, last, count = m.end() + 1, None, 0
        while pos < len(text):
            end = text.find("\n", pos)
            end = len(text) if end < 0 else end
            line = text[pos:end].strip()
            # a numbered or bulleted list of links ("1. I.4. Источники римского права", "2. …",
            # "• Потенциальные группы …"): its titles may end as they will
            numbered = line.startswith((f"{count + 1}. ", "• "))
            if not line or len(line) > (_MAX_NUMBERED_LINK if numbered else _MAX_LINK_LINE) \
                    or (line.endswith((".", ":", ";")) and not numbered) \
                    or len(LETTER_RE.findall(line)) < 2 or " " not in line:
                break  # (a link's title is words, not one word nor a "|" that stands for one)
            last, count, pos = end, count + 1, end + 1
        if last is not None and count >= _MIN_LINKS:
            edits.append(block_edit(text, m.start(), last, "site_furniture", LINKS_REASON))
    return edits


# a line's opening words in capitals before a capitalised word of its text ("ГЛОССАРИЙ Эта
# секция …", "СТРЕЛЬБА ПО ТЕХНИКЕ Технику намного …", a number among them: "БРОНЯ 41-ОГО
# ТЫСЯЧЕЛЕТИЯ Большинство …")
_CAPS_TITLE_OPENING = re.compile(
    r"([А-ЯЁ][А-ЯЁ-]{2,}(?:[ ,]+(?:[А-ЯЁ][А-ЯЁ-]*|\d+(?:-[А-ЯЁ]{1,3})?(?= [А-ЯЁ]{2})))*)"
    r"(?= [А-ЯЁ][а-яё])")
# the English name of a title in brackets on the line under it ("ХАРАКТЕРЫ" / "(Characters)")
_BRACKETED_START = re.compile(r"^\([A-Za-z][A-Za-z ',&-]{0,60}\)\s*")


def _masthead(text: str, blocks: list[Edit]) -> Edit | None:
    """The site's name on the first line, right above furniture removed from the second: a
    brand (Latin letters, or one word that is no word of the language), not a page title."""
    newline = text.find("\n")
    if newline < 0:
        return None
    first = text[:newline].strip()
    if not first or len(first.split()) > _MASTHEAD_WORDS or re.search(r"[.!?:;,]", first):
        return None
    # a brand, not the page's title: Latin letters, or one word no dictionary knows
    latin = re.fullmatch(r"[A-Za-z0-9 .&-]+", first) is not None
    brand = latin or (len(first.split()) == 1 and not is_known(first))
    if not brand:
        return None
    following = min(blocks, key=lambda e: e.start) if blocks else None
    if following is not None and not text[newline:following.start].strip():
        return block_edit(text, 0, newline, "site_furniture", MASTHEAD_REASON)
    # or a Latin name right above the page's Russian title ("RED ELF" / "КАВАЛЕРИЯ"): an
    # English heading has its Russian text under it, not another heading
    nxt = _NEXT_LINE_RE.match(text, newline)
    end = newline
    while latin and nxt and nxt.end() > end \
            and re.fullmatch(r"[A-Za-z0-9 .&-]+", nxt.group(1).strip() or "-") \
            and len(nxt.group(1).split()) <= _MASTHEAD_WORDS and end < _MAX_MASTHEAD:
        # (at the text's end the next line is empty and ends where it starts: no line more)
        end = nxt.end()  # the site's section under its name ("WARHAMMER 6 EDITION")
        nxt = _NEXT_LINE_RE.match(text, end)
    title = nxt.group(1).strip() if nxt else ""
    if latin and nxt and len(title) > _MAX_TITLE_UNDER_BRAND:
        # a copy that ran the page into one line opens it with its title in capitals ("RED
        # ELF" / "ГЛОССАРИЙ Эта секция содержит …"): the title is those capitals
        opening = _CAPS_TITLE_OPENING.match(title)
        title = opening.group(1) if opening else title
    if latin and title and len(title) <= _MAX_TITLE_UNDER_BRAND \
            and re.search("[А-Яа-яЁё]", title) and not title.endswith(tuple(".!?:;,")) \
            and not re.search(r"[A-Za-z]", title):
        at = nxt.start(1) + len(title) if nxt and title != nxt.group(1).strip() else (
            nxt.end() if nxt else 0)
        body = text[at:at + 200].lstrip() if nxt else ""
        body = _BRACKETED_START.sub("", body)  # its English name in brackets under it
        if body[:1].isupper():  # the title heads text
            return block_edit(text, 0, end, "site_furniture", MASTHEAD_REASON)
    return None


GATED_FROM = 200_000
"""A text this long is scanned for the furniture's lines with only the patterns its words allow
(:func:`ingest.furniture_lines.lines_for`: a pattern compiled for each set of them, about 10 ms,
saves about 40 ns a character of its scan); a shorter one with all of them, compiled once."""


def site_furniture(text: str) -> list[Edit]:
    """Find what the website put around the rules text.

    Download banners ("Скачать 44.49 Mb."), page navigation ("⇐ ПредыдущаяСтр 17 из
    35Следующая ⇒"), the site's signature ("Дата добавления: …; просмотров: …"), its
    advertising ("Мы поможем в написании ваших работ!"), ``|`` separators, and a first line
    that repeats the book's title ("Warhammer 40k - 6th edition - Книга правил 1.0. Warhammer
    40k - 6th edition - …"). A whole line goes with the blank lines around it.
    """
    tables = bar_tables(text) if "|" in text else []
    low = text.lower()
    holds = holder(low)  # (whether the text holds a word, in lower case)
    blocks = [
        block_edit(text, m.start(m.lastgroup or 0), m.end(m.lastgroup or 0), "site_furniture",
                   FURNITURE_LINES[int((m.lastgroup or "l0")[1:])][1])
        for m in furniture_lines_re(lines_for(low, holds) if len(text) >= GATED_FROM else None
                                    ).finditer(text)
        if not (tables and "|" in m.group() and in_spans(m.start(), tables))
    ]
    blocks.extend(block_edit(text, m.start(1), m.end(1), "site_furniture", reason)
                  for pattern, reason, anchors in ANCHORED_LINES
                  if any(holds(a) for a in anchors) for m in pattern.finditer(text))
    title_end = _repeated_title_line(text)
    if title_end is not None:
        blocks.append(block_edit(text, 0, title_end, "site_furniture", TITLE_LINE_REASON))
    # forum and wiki engines' lines (ingest.clean_forum), before the upload blocks: a post
    # header's labels and counts look like one, and the first reason of a span is kept
    blocks.extend(forum_furniture(text))
    blocks.extend(_furniture_lines(text))
    blocks.extend(template_filler(text))
    blocks.extend(_link_lists(text))
    if any(holds(a) for a in NAV_ANCHORS):  # (the cheap test first: rows hold a link)
        if "  " in text or "\t" in text:
            blocks.extend(_spaced_rows(text))
        blocks.extend(_word_rows(text))
    if "/" in text:  # (the cheap test first)
        blocks.extend(_serial_pages(text))
    blocks.extend(category_menus(text))
    blocks.extend(menu_labels(text))
    blocks.extend(header_menu(text))
    blocks.extend(page_title(text))
    blocks.extend(site_name(text))
    if "ообщени" in text:  # (the cheap test first)
        blocks.extend(topic_over_post_title(text))
    blocks.extend(block_edit(text, m.start(1), m.end(1), "site_furniture", BREADCRUMB_REASON)
                  for m in BREADCRUMB_RE.finditer(text)
                  if "«" not in m.group(1) and "<" not in m.group(1))  # quotes, not a path
    bar = title_bar(text)
    if bar is not None:
        blocks.append(bar)
    blocks.extend(name_over_path(text, blocks))
    # a wiki's "Материал из …" stands under the article's title, not under the site's name
    masthead = _masthead(text, [b for b in blocks if b.reason != WIKI_SOURCE_REASON])
    if masthead is not None:
        blocks.append(masthead)
    blocks.extend(repeated_lines(text, blocks))
    blocks = merge_blocks(text, blocks)
    inline = [
        Edit(m.start(), m.end(), "", "site_furniture", reason)
        for (pattern, reason), anchor in zip(FURNITURE_INLINE, INLINE_ANCHORS, strict=True)
        if any(a in text for a in anchor)  # the cheap test first: a scan of the text is not
        for m in pattern.finditer(text)
        if not (tables and pattern is BAR_INLINE and in_spans(m.start(), tables))
    ]
    inline += topic_title_mark(text, [b for b in blocks if b.reason == POST_HEADER_REASON])
    inline += lofi_title_label(text)
    return blocks + edits_outside(first_fit(inline), blocks)


def _repeated_title_line(text: str) -> int | None:
    """End of a first line that repeats its own opening words (a site's title), if any."""
    newline = text.find("\n")
    if newline < 0:
        return None
    line = text[:newline]
    words = line.split()
    if len(words) < 8 or len(line) > _MAX_TITLE_LINE:
        return None
    opening = " ".join(words[:4])
    first = line.find(opening)
    if line.find(opening, first + len(opening)) < 0:
        return None
    return newline
