"""Site furniture told by repetition and by place (:mod:`ingest.clean_furniture`'s): a short
line the site repeats among its service lines (a page's title, breadcrumbs), a running line
that breaks a sentence, a path of sections ("Главная » Warhammer » Книга правил"), a title
bar, and a site's name (and clock) over its path.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter

from ingest.clean_edits import HSPACE, LETTER_RE, block_edit
from ingest.clean_pages import FOOTER_RE
from ingest.clean_titles import _LOFI_LABEL_RE
from ingest.models import Edit
from kb.lemmas import pos

_MAX_REPEATED_LINE = 120
_ENDS_SENTENCE = tuple(".!?…;»\")")
_STOPS = tuple(".!?…;")
REPEATED_REASON = ("строка сайта, повторённая среди служебных строк (заголовок страницы, "
                   "«хлебные крошки»)")
RUNNING_LINE_REASON = "колонтитул: строка повторяется и разрывает предложение"
BREADCRUMB_REASON = "«хлебные крошки» сайта: путь по разделам"
# "Главная » Warhammer » Книга правил", "Статьи->Axis & Allies->Правила": short items joined by
# one kind of path separator, three or more
# (the last item, the page's own title, may hold a period: "Форум » Вархаммер ФБ » Основные
# правила ФБ » Блуд в Плохих Землях. (Дополнение к осадам.)")
BREADCRUMB_RE = re.compile(
    rf"^{HSPACE}*+([^\n.!?»›>→]{{1,40}}?{HSPACE}*(»|›|->|→|>){HSPACE}*[^\n.!?»›>→]{{1,60}}?"
    rf"(?:{HSPACE}*\2{HSPACE}*[^\n.!?»›>→]{{1,60}}?)*"
    rf"{HSPACE}*\2{HSPACE}*[^\n!?»›>→]{{1,100}}?){HSPACE}*$",
    re.MULTILINE,
)

# "Kill Team | Статьи", "Warhammer » Форум": the page's first line of two short items joined
# by a path separator (a section of the site and the site), a breadcrumb two items long
# (or, joined by a path's separator, the line under the page's title: "Турнир ФБ - Рижские поля
# сражений 2010" / "Wargames » Турниры и кампании"; not by ">", which compares there: "Сила >
# Стойкость")
_TITLE_BAR_RE = re.compile(
    rf"\A\s*+(?:([^\W\d_][^\n\d.!?:|»›>→]{{0,40}}?{HSPACE}+(?:\||»|›|->|→|>)"
    rf"{HSPACE}+[^\W\d_][^\n\d.!?:|»›>→]{{0,40}}?){HSPACE}*$"
    rf"|[^\n]{{1,120}}\n^{HSPACE}*+([^\W\d_][^\n\d.!?:|»›>→\[\]]{{0,40}}?{HSPACE}+(?:»|›|->|→)"
    rf"{HSPACE}+[^\W\d_][^\n\d.!?:|»›>→\[\]]{{0,40}}?){HSPACE}*$)",
    re.MULTILINE,
)
_MAX_BAR_WORDS = 4
# "- Главная / - Warhammer 40k / - Психическая фаза …": a breadcrumb set as a list at the
# page's top, from the site's home page to the page itself
_LISTED_BREADCRUMB_RE = re.compile(
    rf"\A\s*+([-•*·]{HSPACE}*(?i:главная|на главную|home)(?: страница)?{HSPACE}*"
    rf"(?:\n{HSPACE}*[-•*·]{HSPACE}*[^\n]{{1,120}}){{1,5}})$",
    re.MULTILINE,
)


def title_bar(text: str) -> Edit | None:
    """The page's first line when it is a breadcrumb of two short items (:data:`_TITLE_BAR_RE`),
    or its first lines when they list the path from the site's home page
    (:data:`_LISTED_BREADCRUMB_RE`)."""
    listed = _LISTED_BREADCRUMB_RE.match(text)
    if listed is not None:
        return block_edit(text, listed.start(1), listed.end(1), "site_furniture",
                          BREADCRUMB_REASON)
    m = _TITLE_BAR_RE.match(text)
    group = 1 if m is not None and m.group(1) is not None else 2
    if m is None or any(len(part.split()) > _MAX_BAR_WORDS
                        for part in re.split(r"\||»|›|->|→|>", m.group(group))):
        return None
    return block_edit(text, m.start(group), m.end(group), "site_furniture", BREADCRUMB_REASON)


SITE_NAME_OVER_PATH_REASON = ("название сайта (и его часы) в шапке страницы, над «хлебными "
                              "крошками»")
# the site's clock under its name: "Пятница, 26.04.2024, 16:36", "Пятница, 2024 Гвирит 26, 21:31"
_CLOCK_LINE = re.compile(rf"{HSPACE}*[^\n]{{0,40}}?\d{{1,2}}:\d{{2}}(?::\d{{2}})?{HSPACE}*")
_MAX_SITE_NAME_WORDS = 6


def name_over_path(text: str, blocks: list[Edit]) -> list[Edit]:
    """The site's name in the page's header: the one line left between furniture at the
    page's top and the site's path to the page (its breadcrumb), the site's clock under it or
    not ("Приветствую Вас Гость | RSS" / "Империя Рэя" / "Пятница, 26.04.2024, 16:36" /
    "Главная » Файлы » Мои файлы"). A page's title stands under the path, or in it: a line the
    path names is the page's, and stays, as does a forum topic's title under its label
    ("Полная версия: Правила на SPEARHEAD")."""
    left = _free_lines(text, blocks)
    if not left:
        return []
    # (the first path below a line that no furniture holds: a title bar, "Приветствую Вас
    # Гость | RSS", may be read as one too)
    crumb = min((b for b in blocks if b.reason == BREADCRUMB_REASON and b.start > left[0][0]),
                key=lambda b: b.start, default=None)
    if crumb is None:
        return []
    left = [(a, b) for a, b in left if b <= crumb.start]
    if not 1 <= len(left) <= 2:
        return []
    name = text[left[0][0]:left[0][1]].strip()
    path = text[crumb.start:crumb.end].lower()
    if len(name.split()) > _MAX_SITE_NAME_WORDS or name.endswith(_STOPS) \
            or not LETTER_RE.search(name) or name.lower() in path \
            or _LOFI_LABEL_RE.match(name) \
            or (len(left) == 2 and not _CLOCK_LINE.fullmatch(text[left[1][0]:left[1][1]])):
        return []
    return [block_edit(text, a, b, "site_furniture", SITE_NAME_OVER_PATH_REASON)
            for a, b in left]


def _free_lines(text: str, blocks: list[Edit]) -> list[tuple[int, int]]:
    """The page's first three lines with words that no block holds (the page's header is
    short: a fourth says it is over), read from its top."""
    spans: list[tuple[int, int]] = []  # the blocks' spans, overlapping ones merged
    for a, b in sorted((b.start, b.end) for b in blocks):
        if spans and a <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], b))
        else:
            spans.append((a, b))
    starts = [a for a, _ in spans]
    left: list[tuple[int, int]] = []
    pos = 0
    while pos < len(text) and len(left) < 3:
        stop = text.find("\n", pos)
        stop = len(text) if stop < 0 else stop
        k = bisect_right(starts, pos) - 1
        if text[pos:stop].strip() and not (k >= 0 and stop <= spans[k][1]):
            left.append((pos, stop))
        pos = stop + 1
    return left


def repeated_lines(text: str, blocks: list[Edit]) -> list[Edit]:
    """Lines the site repeats: a short line that is no sentence and stands twice or more, each
    time beside furniture (a removed block, a page mark, the text's edge) or cutting a sentence
    in two (the line above it goes on below it in lower case) — a page title repeated on every
    page, a running header on a line of its own. A heading repeated over different sections has
    the sections' text beside it, and a rule sentence ends as one: neither is touched."""
    lines: list[tuple[int, int, str]] = []
    pos = 0
    for raw in text.split("\n"):
        line = raw.strip()
        if line:
            lines.append((pos, pos + len(raw), line))
        pos += len(raw) + 1
    # (a title may end in its quoted name: only a sentence's own stop rules a line out here)
    counts = Counter(line for _, _, line in lines
                     if len(line) <= _MAX_REPEATED_LINE and not line.endswith(_STOPS)
                     and LETTER_RE.search(line))
    repeated = {line for line, n in counts.items() if n >= 2}
    if not repeated:
        return []
    taken = sorted((e.start, e.end) for e in blocks)
    starts = [a for a, _ in taken]

    def furniture(k: int) -> bool:
        """Whether line ``k`` is furniture already: inside a removed block, or a page mark."""
        if k < 0 or k >= len(lines):
            return True  # the text's edge
        start, end, line = lines[k]
        i = bisect_left(starts, end) - 1
        return (i >= 0 and taken[i][0] <= start and end <= taken[i][1]) \
            or FOOTER_RE.fullmatch(line) is not None

    occurrences: dict[str, list[int]] = {}
    for k, (_, _, line) in enumerate(lines):
        if line in repeated:
            occurrences.setdefault(line, []).append(k)
    edits = []
    for line, ks in occurrences.items():
        sentence_like = line.endswith(_ENDS_SENTENCE)
        beside = not sentence_like and all((furniture(k - 1) and lines[k - 1][2] != line)
                     or (furniture(k + 1) and (k + 1 >= len(lines) or lines[k + 1][2] != line))
                     for k in ks)
        cuts = not sentence_like and not _ends_in_function_word(line) and all(
            0 < k < len(lines) - 1 and not lines[k - 1][2].endswith(_ENDS_SENTENCE + (":",))
            and lines[k + 1][2][:1].islower() for k in ks)
        # furniture stands among different text each time; a text repeated whole (a page
        # saved twice) repeats its lines with their neighbours, and they stay
        contexts = {(lines[k - 1][2] if k else "", lines[k + 1][2] if k + 1 < len(lines) else "")
                    for k in ks}
        if all(furniture(k - 1) and furniture(k + 1) for k in ks[:-1]) \
                and not (furniture(ks[-1] - 1) and furniture(ks[-1] + 1)) \
                and (not furniture(ks[-1] + 1) or not beside):
            # a forum topic's title between its breadcrumb and pager, or a page's title above
            # the site's banners, then the text's own heading of the same words over its text
            # ("ЗНАЕТЕ ЛИ ВЫ?" / "Lords of War Газгулл Тракка …" / "Тип отряда: …"): the
            # copies above go, the heading stays
            edits += [block_edit(text, lines[k][0], lines[k][1], "site_furniture",
                                 REPEATED_REASON) for k in ks[:-1]]
        elif (beside or cuts) and 2 * len(contexts) >= len(ks) and len(contexts) >= 2:
            reason = REPEATED_REASON if beside else RUNNING_LINE_REASON
            edits += [block_edit(text, lines[k][0], lines[k][1], "site_furniture", reason)
                      for k in ks]
    return edits


_LAST_WORD_RE = re.compile(r"(\w+)\W*$")
_FUNCTION_POS = frozenset({"PREP", "CONJ", "PRCL"})


def _ends_in_function_word(line: str) -> bool:
    """Whether a line ends in a preposition, conjunction or particle ("Боевая единица,
    содержащая хотя" / "бы одну модель…"): a sentence wrapped on its way to the next line, as
    a rule's first line repeats in a list of rules, not a running header (a title ends in its
    noun)."""
    m = _LAST_WORD_RE.search(line)
    return m is not None and pos(m.group(1).lower()) in _FUNCTION_POS
