"""How deep sections may nest (:data:`MAX_DEPTH`), in every layout: a heading that would hang
deeper hangs beside the deepest (:func:`bound_depth`, the segmenting's last step, and
:func:`within_depth` as lines are nested).
"""

from __future__ import annotations

from ingest.sections import Section

MAX_DEPTH = 16
"""Levels of sections at most (the corpus's 40k rulebook nests nine deep): a heading that
would hang deeper hangs beside the deepest. A run of headings over no text, each holding the
next ("ПАНИКА" / "ПАНИКА" / …, a contents page in capitals), made a chain as long as the
run, and each heading's look along its chain cost the square of the run's length."""


def within_depth(sections: list[Section], parent: int | None) -> int | None:
    """``parent``, or its ancestor :data:`MAX_DEPTH` − 2 levels below the top when a section
    under ``parent`` would be deeper than :data:`MAX_DEPTH` levels."""
    chain = ancestry(sections, parent)
    return chain[len(chain) - MAX_DEPTH + 1] if len(chain) >= MAX_DEPTH else parent


def bound_depth(sections: list[Section]) -> None:
    """Hang each section that stands deeper than :data:`MAX_DEPTH` levels, however its layout
    nested it, beside the deepest it may (under its ancestor :data:`MAX_DEPTH` − 2 levels
    below the top, as :func:`nest_lines` does): what a part's family costs later (its
    ancestors and descendants) then grows with the text, not with the square of a chain's
    length. Each section's depth is found once."""
    depth: dict[int, int] = {}
    for i in range(len(sections)):
        chain = []  # (from ``i`` up to the first section whose depth is known)
        j: int | None = i
        while j is not None and j not in depth:
            chain.append(j)
            j = sections[j].parent
        above = -1 if j is None else depth[j]
        for k in reversed(chain):
            parent = sections[k].parent
            if parent is not None and above + 1 >= MAX_DEPTH:
                sections[k].parent = sections[parent].parent
                above = depth[parent] - 1
            depth[k] = above = above + 1


def ancestry(sections: list[Section], j: int | None) -> list[int]:
    """``j`` and its ancestors, nearest first."""
    out = []
    while j is not None:
        out.append(j)
        j = sections[j].parent
    # every earlier top-level section of the same run can still be an ancestor
    return out
