"""A web page's title as the browser shows it: the page's own title and the site's name.

A site puts the page's title in its window's title, and a saved copy keeps it as the first
line: "Стрельба по подразделению в здании — КиберПедия", "General of the undead ( Генерал
нежити ) — КиберПедия". The page's title stands again as the article's heading below, so
the first line is that heading with the site's name after a dash or a bar. Where the title
does not stand again below, the line is kept: "Нежить – все эти создания…" may be a run-in
rule, and only the repetition tells the two apart.
"""

from __future__ import annotations

import re

from ingest.clean_edits import HSPACE, block_edit
from ingest.models import Edit

PAGE_TITLE_REASON = "заголовок страницы с названием сайта (тот же заголовок стоит ниже)"

# the page's first line: a title, a spaced dash or bar, and a site's name of a few words
_PAGE_TITLE_RE = re.compile(
    rf"\A\s*?^{HSPACE}*(?P<title>[^\n]{{3,160}}?){HSPACE}+[—–|-]{HSPACE}+"
    rf"(?P<site>[^\W\d_][^\n.!?:;,—–|]{{0,40}}?){HSPACE}*$",
    re.MULTILINE,
)
_MAX_SITE_WORDS = 3
_MAX_LOOK = 4000  # the article's heading stands near the top: the page is not read further


def _norm(line: str) -> str:
    return " ".join(re.sub(r"([(\[])\s+|\s+([)\]])", r"\1\2", line).split()).casefold()


def page_title(text: str) -> list[Edit]:
    """The text's first line when it is the page's title with the site's name after it and
    the title stands again as a line of its own below (:data:`_PAGE_TITLE_RE`)."""
    m = _PAGE_TITLE_RE.match(text)
    if m is None or len(m.group("site").split()) > _MAX_SITE_WORDS:
        return []
    title = _norm(m.group("title"))
    below = text[m.end():m.end() + _MAX_LOOK].split("\n")
    if not any(_norm(line) == title for line in below):
        return []
    return [block_edit(text, m.start("title"), m.end(), "site_furniture", PAGE_TITLE_REASON)]
