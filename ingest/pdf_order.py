"""The reading order of a PDF page's blocks (:mod:`ingest.pdf_text`): bands of the page
split into columns, read a column at a time, and a table's cells read row by row.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

_WIDE = 0.6
"""Share of the text's width from which a block spans the columns (it closes a band)."""
_MIN_COLUMN = 0.2
"""Share of the text's width a column of text spans at least (a table's columns are narrower)."""
_LEVEL = 2.0
"""Points by which the tops of a table's cells in one row may differ."""
_LEVEL_SHARE = 0.8
"""Share of a column's blocks standing level with the first column's that makes a table."""
_COLUMN_OVERLAP = 0.02
"""How far (share of the text's width) a block may start left of the column before it ends
and still stand in a column of its own."""



class _Box(Protocol):
    x0: float
    x1: float
    y0: float
    y1: float


_B = TypeVar("_B", bound=_Box)


def reading_order(boxes: list[_B]) -> list[list[_B]]:
    """A page's blocks of text in the order they are read, in groups read as one: top to
    bottom, a column at a time (a block each), or a table's row (its cells).

    A block as wide as most of the page (a heading over both columns, a table) closes a band
    of the page; within a band, the narrow blocks fall into columns by where they start (a
    column starts right of the previous column's widest end), each read top to bottom, the
    columns left to right; a narrow block across the page's middle that stands above all the
    band's others (a centred title) is read before them. A page of one column is read top to
    bottom. A band whose columns
    do not all have room for a column of text (a fifth of the text's width) is a table:
    its blocks are read row by row (blocks beside each other in height one row), each row left
    to right; and so is a band whose columns' blocks stand level row for row
    (:func:`_is_table`).

    >>> from types import SimpleNamespace as B
    >>> left, right = B(x0=10, x1=95, y0=500, y1=700), B(x0=105, x1=190, y0=600, y1=700)
    >>> title, below = B(x0=10, x1=190, y0=720, y1=740), B(x0=10, x1=95, y0=300, y1=480)
    >>> reading_order([right, below, title, left]) == [[title], [left], [below], [right]]
    True
    >>> cells = [B(x0=x, x1=x + 20, y0=y, y1=y + 10) for y in (500, 480) for x in (10, 60, 110)]
    >>> reading_order(cells[::-1]) == [cells[:3], cells[3:]]
    True
    """
    if not boxes:
        return []
    left = min(b.x0 for b in boxes)
    width = max(b.x1 for b in boxes) - left or 1.0
    out: list[list[_B]] = []
    band: list[_B] = []

    def flush() -> None:
        # (a narrow block across the page's middle above all the band's other blocks, a
        # centred title or running head over a title set left, stands over the band: read
        # first, not as a column beside the band's first)
        middle = left + width / 2
        while len(band) > 1:
            lead = max(band, key=lambda b: b.y1)
            if not (lead.x0 < middle < lead.x1) or any(
                    b is not lead and b.y1 > lead.y0 + _LEVEL / 2 for b in band):
                break
            out.append([lead])
            band.remove(lead)
        columns: list[list[_B]] = []
        for b in sorted(band, key=lambda b: b.x0):
            if columns and b.x0 < max(c.x1 for c in columns[-1]) - _COLUMN_OVERLAP * width:
                columns[-1].append(b)
            else:
                columns.append([b])
        if _is_table(columns, left + width, width):
            out.extend(_rows(band))  # a table's cells: row by row, each left to right
        else:
            for column in columns:
                # (a table's cells within a column of text: a row's cells side by side, their
                # tops level, are read as one row)
                for b in sorted(column, key=lambda b: (-round(b.y1), b.x0)):
                    if out and out[-1][-1] in column and abs(out[-1][-1].y1 - b.y1) < _LEVEL \
                            and b.x0 > out[-1][-1].x1:
                        out[-1].append(b)
                    else:
                        out.append([b])
        band.clear()

    for b in sorted(boxes, key=lambda b: -b.y1):
        if b.x1 - b.x0 >= _WIDE * width:
            flush()
            out.append([b])
        else:
            band.append(b)
    flush()
    return out


def _is_table(columns: list[list[_B]], right: float, width: float) -> bool:
    """Whether a band's columns are a table's: one of them has too little room for a column
    of text (from where it starts to where the next starts), or the blocks of every other
    column stand level with blocks of the first, row for row, in two rows at least (the
    first lines of two columns of text may stand level, their later blocks seldom do)."""
    if len(columns) < 2:
        return False
    starts = [min(b.x0 for b in column) for column in columns]
    if any(end - start < _MIN_COLUMN * width
           for start, end in zip(starts, [*starts[1:], right], strict=True)):
        return True
    tops = [b.y1 for b in columns[0]]
    level = [sum(1 for b in column if any(abs(b.y1 - t) < _LEVEL for t in tops))
             for column in columns[1:]]
    return all(n >= 2 and n >= _LEVEL_SHARE * len(column)
               for n, column in zip(level, columns[1:], strict=True))


def _rows(band: list[_B]) -> list[list[_B]]:
    """Blocks row by row: a block whose height overlaps the row's joins it; left to right."""
    rows: list[list[_B]] = []
    low = 0.0
    for b in sorted(band, key=lambda b: -b.y1):
        if rows and b.y1 > low:
            rows[-1].append(b)
            low = min(low, b.y0)
        else:
            rows.append([b])
            low = b.y0
    return [sorted(row, key=lambda b: b.x0) for row in rows]
