"""The sections of a text written in Markdown (or a web page's HTML): its marked headings, and
no other line.

A Markdown text says which lines are headings and at what level ("#", "##" …, or a line of
"=" or "-" under them: :func:`ingest.clean_markdown.markdown_structure`), so nothing is
guessed: each marked heading opens a section that runs to the next one, and hangs under the
nearest heading above it of a higher level (a "###" under the "##" above it, a "##" after a
"###" under the "#" above both). A pictogram before a heading's words ("🎮 Как играть") is no
part of its title (:func:`ingest.sections.without_pictograms`). Its quotations ("> …") are
flavour.
"""

from __future__ import annotations

from collections.abc import Sequence

from ingest.sections import Flavour, Section, Segmentation, assign_flavour, title_and_aliases
from ingest.vocabulary import Vocabulary

LAYOUT = "markdown"


def segment_markdown(text: str, headings: Sequence[tuple[int, int, int]],
                     quotes: Sequence[tuple[int, int]], vocab: Vocabulary,
                     layout: str = LAYOUT) -> Segmentation:
    """The sections of a cleaned Markdown text.

    Args:
        text: the cleaned text.
        headings: each marked heading's words as (start, end, level), cleaned offsets, in
            order.
        quotes: each quotation line's words as (start, end), cleaned offsets.
        vocab: the unit type vocabulary of the system (a heading that names a unit type is
            one).
        layout: the layout named in the result: "markdown", or "html" for a web page whose
            headings its tags mark (:func:`ingest.clean_html.html_structure`).
    """
    sections: list[Section] = []
    open_levels: list[tuple[int, int]] = []  # (level, section) of the headings still open
    kept = [(s, e, level) for s, e, level in headings if text[s:e].strip()]
    for n, (start, end, level) in enumerate(kept):
        heading = text[start:end]
        body_end = len(text)
        if n + 1 < len(kept):  # (the next heading's line's start)
            body_end = text.rfind("\n", end, kept[n + 1][0]) + 1 or kept[n + 1][0]
        while body_end > end and text[body_end - 1].isspace():
            body_end -= 1
        title, aliases = title_and_aliases(" ".join(heading.split()))
        while open_levels and open_levels[-1][0] >= level:
            open_levels.pop()
        body = end
        if text.startswith(".", end):  # a name run in before its text ("Страх. Модель …")
            body = end + 1 + len(text[end + 1:end + 3]) - len(text[end + 1:end + 3].lstrip(" "))
        sections.append(Section(title, heading, (start, end), (body, max(body, body_end)),
                                parent=open_levels[-1][1] if open_levels else None,
                                is_unit_type=bool(vocab.unit_type(title)), aliases=aliases))
        open_levels.append((level, len(sections) - 1))
    flavour = [Flavour("quote", (a, b), text[a:b]) for a, b in quotes if text[a:b].strip()]
    assign_flavour(sections, flavour)
    return Segmentation(sections, flavour, layout)
