"""A page template's placeholder text, left on a page that copies the template: Lorem ipsum's
pseudo-Latin words and the template's heading over them ("Заголовок"), for
:func:`ingest.clean_furniture.site_furniture`.
"""

from __future__ import annotations

import re

from ingest.clean_edits import HSPACE, block_edit
from ingest.models import Edit

# The placeholder text of a page template ("Lorem ipsum dolor sit amet …", "Autem vel eum iriure
# dolor in hendrerit …"): the pseudo-Latin words of Cicero's passage that every template's
# dummy text is made of. A line of them, and the template's heading over it ("Заголовок"),
# are no text of the page.
_FILLER_WORDS = frozenset("""lorem ipsum dolor sit amet consectetur consectetuer adipiscing
adipisicing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua enim ad
minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo consequat
duis aute irure iriure in reprehenderit voluptate velit esse cillum eu fugiat nulla pariatur
excepteur sint occaecat cupidatat non proident sunt culpa qui officia deserunt mollit anim id
est laborum autem vel eum hendrerit vulputate molestie illum feugiat facilisis at vero eros
accumsan iusto odio dignissim blandit praesent luptatum zzril delenit augue te feugait
nibh euismod tincidunt laoreet aliquam erat volutpat wisi tation ullamcorper suscipit
lobortis nisl""".split())
_FILLER_MIN_WORDS = 6
_PLACEHOLDER_HEADING = re.compile(rf"^{HSPACE}*+(?:Заголовок|Подзаголовок|Heading|Title)"
                                  rf"{HSPACE}*$", re.IGNORECASE)
FILLER_REASON = "заготовка шаблона сайта (текст-«рыба» Lorem ipsum и его «Заголовок»)"


def template_filler(text: str) -> list[Edit]:
    """Lines of a template's dummy text (:data:`_FILLER_WORDS`, most of a line's words and six
    or more), each with a placeholder heading right above it."""
    if "dolor" not in text and "ipsum" not in text:
        return []  # the cheap test first: every dummy text has one of them
    edits = []
    prev: tuple[int, int] | None = None  # the last non-blank line
    pos = 0
    for line in text.split("\n"):
        start, pos = pos, pos + len(line) + 1
        if not line.strip():
            continue
        toks = re.findall(r"[A-Za-z]+", line)
        if len(toks) >= _FILLER_MIN_WORDS and 2 * sum(
                t.lower() in _FILLER_WORDS for t in toks) > len(toks) and len(toks) * 3 > len(
                line.split()) * 2:
            first = start
            if prev is not None and _PLACEHOLDER_HEADING.match(text, prev[0], prev[1]):
                first = prev[0]
            edits.append(block_edit(text, first, start + len(line), "site_furniture",
                                    FILLER_REASON))
        prev = (start, start + len(line))
    return edits
