"""A web page's title as the browser shows it, and the site's name in the page's header.

A site puts the page's title in its window's title, and a saved copy keeps it as the first
line: "Стрельба по подразделению в здании — КиберПедия", "General of the undead ( Генерал
нежити ) — КиберПедия". The page's title stands again as the article's heading below, so
the first line is that heading with the site's name after a dash or a bar (or before it:
"Студопедия — Архитектура и закон: Сила"). Where the title
does not stand again below, the line is kept: "Нежить – все эти создания…" may be a run-in
rule, and only the repetition tells the two apart.

A forum's or a club's site names itself at the top of every page: a community and its name in
quotes ("Сообщество "Воины Вархаммера"", "Общество Настольных тактических игр "Армия на
ладони"", «Клуб «Тактика»»), or the name and what it is after a dash (""Венатор" - форум
ростовского клуба"). Among the page's first lines such a line is the site's, not a
heading of the text.

A forum engine prints a topic's title over its first post with a mark ("> Орки и гоблины, пара
вопросов"): the mark goes and the title heads the topic, or the title goes whole when the
post's own heading repeats it below; a topic's title over the engine's line that opens the
posts ("Рекомендуемые сообщения") goes when the first post opens with a heading of its own.
Its text-only version (Invision's "lo-fi") labels the title among the page's first lines
("Полная версия: Правила на SPEARHEAD"): the label goes.
"""

from __future__ import annotations

import re

from ingest.clean_edits import HSPACE, block_edit
from ingest.models import Edit
from ingest.sections import fold_marks
from kb.lemmas import pos, words

PAGE_TITLE_REASON = "заголовок страницы с названием сайта (тот же заголовок стоит ниже)"
SITE_NAME_REASON = "название сайта (сообщество, клуб) в шапке страницы"

# the page's first line: a title, a spaced dash or bar, and a site's name of a few words
# (the blank lines and spaces before it taken once, possessively, as in every pattern of a
# page's first lines: tried again from each, 20,000 spaces before a text took minutes)
_PAGE_TITLE_RE = re.compile(
    rf"\A\s*+(?P<title>[^\n]{{3,160}}?){HSPACE}+[—–|-]{HSPACE}+"
    rf"(?P<site>[^\W\d_][^\n.!?:;,—–|]{{0,40}}?){HSPACE}*$",
    re.MULTILINE,
)
# or the site's name first, then a spaced dash or bar (not a hyphen: "Сила - …" opens a rule)
_SITE_FIRST_RE = re.compile(
    rf"\A\s*+(?P<site>[^\W\d_][^\n!?:;,—–|]{{0,40}}?){HSPACE}+[—–|]{HSPACE}+"
    rf"(?P<title>[^\n]{{3,160}}?){HSPACE}*$",
    re.MULTILINE,
)
_MAX_SITE_WORDS = 3
_MAX_LOOK = 4000  # the article's heading stands near the top: the page is not read further


def _norm(line: str) -> str:
    """A line as compared with its repetition: spaces, brackets' inner spaces, case, quotation
    marks and dashes (:func:`~ingest.sections.fold_marks`) aside."""
    return fold_marks(" ".join(re.sub(r"([(\[])\s+|\s+([)\]])", r"\1\2", line).split())
                      .casefold())


def page_title(text: str) -> list[Edit]:
    """The text's first line when it is the page's title with the site's name after it (or
    before it: "Студопедия — Архитектура и закон: Сила") and the title stands again as a line
    of its own below (:data:`_PAGE_TITLE_RE`, :data:`_SITE_FIRST_RE`)."""
    for pattern in (_PAGE_TITLE_RE, _SITE_FIRST_RE):
        m = pattern.match(text)
        if m is None or len(m.group("site").split()) > _MAX_SITE_WORDS:
            continue
        if _stands_below(m.group("title"), text, m.end()):
            return [block_edit(text, m.start(), m.end(), "site_furniture", PAGE_TITLE_REASON)]
    return []


def _stands_below(title: str, text: str, start: int) -> bool:
    """Whether ``title`` stands again as a line of its own in the text after ``start`` (near
    it: the article's heading stands near the top)."""
    key = _norm(title)
    return any(_norm(line) == key for line in text[start:start + _MAX_LOOK].split("\n"))


TOPIC_MARK_REASON = "метка названия темы форума «>» перед ним"
TOPIC_REPEATED_REASON = "название темы форума, которое повторяет заголовок сообщения"
# a forum topic's title as the engine prints it over the first post ("> Орки и гоблины, пара
# вопросов"): the mark goes, the title stays to head the topic
_TOPIC_TITLE_RE = re.compile(r"^(>[ \t]+)([A-ZА-ЯЁ«\"][^\n]{2,100})$", re.MULTILINE)


def topic_title_mark(text: str, headers: list[Edit]) -> list[Edit]:
    """The mark before a forum topic's title ("> Орки и гоблины, пара вопросов"): on a page
    with a post's header (``headers``), the first line so marked above the first header. When
    the post's own heading repeats the title below ("=====" / "Перевод FAQов с официального
    сайта"), that heads the text and the topic's line goes whole."""
    if not headers:
        return []
    first = min(e.start for e in headers)
    m = _TOPIC_TITLE_RE.search(text, 0, first)
    if m is None:
        return []
    if _stands_below(m.group(2), text, first):
        return [Edit(m.start(), m.end(), "", "site_furniture", TOPIC_REPEATED_REASON)]
    return [Edit(m.start(1), m.end(1), "", "site_furniture", TOPIC_MARK_REASON)]


TOPIC_OVER_TITLE_REASON = "название темы форума над собственным заголовком сообщения"
# a topic's title over the engine's line that opens its posts (Invision's "Рекомендуемые
# сообщения", phpBB's "Автор Сообщение"), then the first post's first line
_TOPIC_OVER_POSTS_RE = re.compile(
    rf"^{HSPACE}*+(?P<title>[^\s][^\n]{{2,150}}?){HSPACE}*\n(?:{HSPACE}*\n)*"
    rf"{HSPACE}*(?i:рекомендуемые{HSPACE}+сообщения|автор{HSPACE}+сообщение){HSPACE}*\n"
    rf"(?:{HSPACE}*\n)*{HSPACE}*(?P<first>[^\s][^\n]*?){HSPACE}*\n", re.MULTILINE)
_MAX_POST_TITLE = 150
_SENTENCE_END = ".!?…:;,"


def topic_over_post_title(text: str) -> list[Edit]:
    """A forum topic's title over the engine's line that opens its posts, when the first post
    opens with a heading of its own ("Кампания ВХ40к (анонс)" / "Рекомендуемые сообщения" /
    "Кампания по ВХ40К" / "В кампании принимает участие …"): the post's heading heads the
    text, the topic's title is the page's. A post that opens with a sentence ("Турнир пройдет
    12-13 декабря …") leaves the topic's title to head it."""
    m = _TOPIC_OVER_POSTS_RE.search(text)
    if m is None:
        return []
    first, title = m.group("first"), m.group("title")
    if any(len(line) > _MAX_POST_TITLE or line.endswith(tuple(_SENTENCE_END)) or ": " in line
           or not line[:1].isupper() or any(pos(w) == "VERB" for w in words(line))
           for line in (first, title)) or not text[m.end():].strip():
        return []  # (a sentence with no stop at its line's end, "Турнир пройдет 12-13 …", or a
        # post header's field, "Добавлено: 18 май 2011 15:20", is no heading)
    return [block_edit(text, m.start("title"), m.end("title"), "site_furniture",
                       TOPIC_OVER_TITLE_REASON)]


LOFI_LABEL_REASON = "метка текстовой версии темы форума «Полная версия:» перед её названием"
_LOFI_LABEL_RE = re.compile(
    rf"^{HSPACE}*+((?i:полная версия|full version|текстовая версия|text version)"
    rf"{HSPACE}*:{HSPACE}*)"
    rf"[^\s][^\n]{{1,150}}$", re.MULTILINE)


def lofi_title_label(text: str) -> list[Edit]:
    """The label of a topic's title in a forum's text-only version, among the page's first
    lines ("Полная версия: Правила на SPEARHEAD"): the label goes, the title stays."""
    end = 0
    for _ in range(_HEADER_LINES):
        m = _LOFI_LABEL_RE.match(text, end)
        if m is not None:
            return [Edit(m.start(1), m.end(1), "", "site_furniture", LOFI_LABEL_REASON)]
        newline = text.find("\n", end)
        if newline < 0:
            break
        end = newline + 1
    return []


_COMMUNITY = r"(?:Сообщество|Общество|Клуб|Форум|Портал|Сайт|Союз|Объединение)"
_SITE_NAME_RE = re.compile(
    rf"^{HSPACE}*+({_COMMUNITY}"
    rf"(?:{HSPACE}+[^\n\"«»]{{1,50}}?)?{HSPACE}*[\"«][^\"«»\n]{{2,40}}[\"»]"
    # the name first, what it is after a dash: "\"Венатор\" - форум ростовского клуба"
    rf"|[\"«][^\"«»\n]{{2,40}}[\"»]{HSPACE}+[—–-]{HSPACE}+(?i:{_COMMUNITY})"
    rf"(?:{HSPACE}+[^\n.!?\"«»]{{1,80}})?){HSPACE}*$",
    re.MULTILINE)
_HEADER_LINES = 8  # the page's header: its first lines, not the text below it


def site_name(text: str) -> list[Edit]:
    """A community's name in quotes among the page's first lines (:data:`_SITE_NAME_RE`)."""
    end = 0
    for _ in range(_HEADER_LINES):
        nl = text.find("\n", end)
        if nl < 0:
            end = len(text)
            break
        end = nl + 1
    return [block_edit(text, m.start(1), m.end(), "site_furniture", SITE_NAME_REASON)
            for m in _SITE_NAME_RE.finditer(text, 0, end)]
