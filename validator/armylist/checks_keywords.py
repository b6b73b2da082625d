"""Kill Team keywords: each one the rules text uses is confirmed, a near miss is a warning.

In Kill Team a model is described by its keywords (FORMATS §2), and rules apply by keyword:
«Некоторые модели отмечены как PSYKER», «FLY». A keyword misspelt in a list («PSYKR»)
silently keeps its rules off the model — the audit would then refuse its psychic powers — so
a keyword close to one the rules use is a warning with the likely one. The keywords of the
text are read from the KB (the upper-case Latin words of the system's rules), never listed
here; a keyword the text does not use and that resembles none (a faction: «IMPERIUM») is
the list's own business and passes without a verdict.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from kb.text import sentences
from validator.armylist.context import ListContext, ListedUnit
from validator.inputs.models import nearest
from validator.registry import Finding, unit_check
from validator.rulebook import Rulebook, Sentence

KEYWORD_SYSTEMS = frozenset({"killteam2018"})
"""Systems whose models carry keywords (FORMATS §2)."""

_KEYWORD = re.compile(r"(?<![A-Za-z])[A-Z][A-Z-]{2,}(?![A-Za-z])")
LIKELY_SCORE = 75
"""How close (rapidfuzz ratio) a keyword must be to one of the text to be its likely typo."""


def text_keywords(book: Rulebook) -> dict[str, Sentence]:
    """Every upper-case Latin word of the system's rules, with the first sentence using it."""
    def collect() -> dict[str, Sentence]:
        found: dict[str, Sentence] = {}
        for node in book.graph.in_system(book.system, ("rule", "concept")):
            for text in sentences(node.text):
                for word in _KEYWORD.findall(text):
                    found.setdefault(word, Sentence(node, text, book))
        return found

    return book.remember(("text_keywords",), collect)


@unit_check("keywords", systems=KEYWORD_SYSTEMS)
def keywords(listed: ListedUnit, ctx: ListContext) -> Iterator[Finding]:
    """A keyword the rules use is confirmed with the sentence using it; one close to such a
    keyword is a warning naming it."""
    known = text_keywords(ctx.book)
    for index, keyword in enumerate(listed.unit.keywords):
        field = f"keywords[{index}]"
        used = known.get(keyword.strip().upper())
        if used is not None:
            yield Finding("ok", (used.citation(),),
                          f"Ключевое слово «{keyword}» есть в тексте правил: правила, которые "
                          f"от него зависят, применяются к модели.", field=field)
            continue
        close = nearest(keyword.strip().upper(), list(known), limit=2, cutoff=LIKELY_SCORE)
        if close:
            yield Finding("warning", (known[close[0]].citation(),),
                          f"Ключевого слова «{keyword}» в тексте правил нет; возможно, это "
                          f"«{close[0]}» — иначе правила, которые от него зависят, к модели "
                          f"не применятся.", tuple(close), field=field)
