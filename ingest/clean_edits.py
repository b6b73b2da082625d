"""How a cleaning step shapes its edits before :func:`ingest.clean.apply_edits` applies them.

The steps share two needs: a removed block (a footer, a running header, a line of site
furniture) must take the whitespace around it and leave one block boundary, and edits found by
different patterns must not overlap. The regular-expression pieces every step spells its
patterns with live here too, so that "horizontal whitespace" means the same in each step.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence

from ingest.models import Edit

HSPACE = r"[^\S\n]"  # horizontal whitespace: any whitespace but a newline
LETTERS = r"[^\W\d_]"
LETTER_RE = re.compile(LETTERS)
"""A letter of any script (:data:`LETTERS` compiled)."""


def first_fit(edits: Iterable[Edit]) -> list[Edit]:
    """Drop edits that overlap an earlier (or, at the same start, a longer) one."""
    kept: list[Edit] = []
    end = -1
    for edit in sorted(edits, key=lambda e: (e.start, -e.end)):
        if edit.start >= end:
            kept.append(edit)
            end = edit.end
    return kept


def applied(text: str, edits: Iterable[Edit]) -> str:
    """``text`` with non-overlapping ``edits`` made, without the offset map and the account
    :func:`ingest.clean.apply_edits` keeps (what a judgement reads, not what the KB keeps); an
    edit overlapping an earlier one is passed over."""
    kept, pos = [], 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        if edit.start < pos:
            continue
        kept.append(text[pos:edit.start])
        kept.append(edit.replacement)
        pos = edit.end
    kept.append(text[pos:])
    return "".join(kept)


def edits_outside(edits: Iterable[Edit], taken: Sequence[Edit]) -> list[Edit]:
    """The edits that overlap none of ``taken`` (sorted, non-overlapping)."""
    starts = [edit.start for edit in taken]
    kept: list[Edit] = []
    for edit in edits:
        k = bisect_left(starts, edit.end)  # taken[:k] start before this edit ends
        if k == 0 or taken[k - 1].end <= edit.start:
            kept.append(edit)
    return kept


def block_edit(text: str, start: int, end: int, step: str, reason: str) -> Edit:
    """Remove ``text[start:end]`` with the whitespace around it, leaving a block boundary.

    The boundary is a blank line if the removed whitespace held one, else a newline; nothing
    at the very start or end of the text. Removing the whitespace here, not in the
    ``whitespace`` step, keeps one change per removed block.
    """
    while start > 0 and text[start - 1].isspace():
        start -= 1
    while end < len(text) and text[end].isspace():
        end += 1
    return Edit(start, end, _boundary(text, start, end), step, reason)


_BLANK_LINE_RE = re.compile(rf"\n{HSPACE}*\n")


def _boundary(text: str, start: int, end: int) -> str:
    """What stands for removed ``text[start:end]``: a blank line if it held one, else a newline."""
    if start == 0 or end == len(text):
        return ""
    return "\n\n" if _BLANK_LINE_RE.search(text, start, end) else "\n"


def merge_blocks(text: str, edits: Iterable[Edit]) -> list[Edit]:
    """Make block edits that share whitespace (see :func:`block_edit`) fit together.

    Blocks that overlap form a chain: each block after the first starts where the one before
    it ended and leaves nothing, the first leaves the boundary of the whole chain. Each
    block keeps its own change and reason.
    """
    chains: list[list[Edit]] = []
    for edit in sorted(edits, key=lambda e: (e.start, -e.end)):
        if chains and edit.start < chains[-1][-1].end:
            last = chains[-1][-1]
            if edit.end > last.end:
                chains[-1].append(edit._replace(start=last.end))
        else:
            chains.append([edit])
    merged: list[Edit] = []
    for chain in chains:
        start, end = chain[0].start, chain[-1].end
        boundary = _boundary(text, start, end)
        chain = [edit._replace(replacement="") for edit in chain]
        # Keep the boundary as the source's own whitespace where it has it: then the edits
        # only delete, and every character of the cleaned text is a character of the source.
        if boundary and text.startswith(boundary, start):
            chain[0] = chain[0]._replace(start=start + len(boundary))
        elif boundary and text.endswith(boundary, start, end):
            chain[-1] = chain[-1]._replace(end=end - len(boundary))
        else:
            chain[0] = chain[0]._replace(replacement=boundary)
        merged.extend(edit for edit in chain if edit.end > edit.start or edit.replacement)
    return merged
