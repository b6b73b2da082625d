"""Value objects of the ingest pipeline: each stage takes and returns these models.

Offsets are always counted in characters of the decoded source text (a BOM is not part of
it), so anything found in a cleaned text can be traced back to the exact place in its file.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    OffsetArray = array[int]
else:  # array is not subscriptable at runtime before Python 3.12
    OffsetArray = array

Span = tuple[int, int]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# ---------------------------------------------------------------------------------------------
# Stages 1 and 2: load (ingest/load.py) and clean (ingest/clean.py)
# ---------------------------------------------------------------------------------------------

SystemSource = Literal["detected", "path", "option", "corpus.toml", "corpus.yaml", "corpus.yml"]


class SourceText(_Frozen):
    """One rule text as read from its file.

    Attributes:
        name: The file name (``"001_ba20f991b5661e29.txt"``); it identifies the source.
        path: The path the file was read from.
        text: The decoded text, without a BOM. Every offset of the pipeline counts its characters.
        encoding: ``"utf-8"``, ``"utf-8-sig"`` (UTF-8 with a BOM), ``"cp1251"``, or
            ``"utf-16-le"``, ``"utf-16-be"``, ``"utf-32-le"``, ``"utf-32-be"`` (after their
            byte order mark), or ``"mhtml/"`` and the page's own for a web archive's page
            (``"mhtml/utf-8"``, :mod:`ingest.web_archive`), or ``"pdf"`` for a PDF's text
            (:mod:`ingest.pdf_text`), or the kind of a document read from its file
            (``"docx"``, ``"doc"``, ``"rtf"``, ``"odt"``, ``"fb2"``, ``"epub"``).
        system: The game system (``"wh40k6"``, ``"whfb8"``, ``"killteam2018"``), or ``None``
            when the text does not tell and no ``corpus.toml`` states it.
        system_from: Where ``system`` came from: ``"detected"`` from the text's words,
            ``"path"`` from the name of its file or folder when its words do not tell
            (:func:`ingest.game_names.path_game`),
            ``"option"`` from ``rulekb build --system``, or the name of the corpus file that
            states it; ``None`` when ``system`` is ``None``.
        title: The book the text comes from, as readers see it instead of the file name
            («Warhammer 40k, 6th edition, Книга правил»): stated by a ``corpus.toml``, else
            what the text says of itself; ``None`` when neither tells.
        title_from: ``"text"`` or the name of the corpus file that states ``title``.
        reading: How a file not of text was read, for ``rulekb build --explain`` (a PDF's
            type sizes and bookmarks its headings were told by: :mod:`ingest.pdf_text`; a
            document's headings by their styles: :mod:`ingest.docx_text`,
            :mod:`ingest.doc_text`, :mod:`ingest.rtf_text`, :mod:`ingest.odt_text`; an e-book's
            by its sections: :mod:`ingest.fb2_text`, :mod:`ingest.epub_text`); ``None``
            for a text.
        named_path: The file's path from the folder the user named (the folder given and what
            is below it, or a file given with its folder: "Kill Team/charge.txt"), which may
            name its game (:func:`ingest.game_names.path_game`); the folders above are not
            read.
        template: Spans of ``text``, each a line of its own, that its reader found to be the
            file's template, not its text (a PDF's running heads and the lines its margins
            repeat: :attr:`ingest.pdf_text.PdfReading.template`); the cleaning removes them
            first, each accounted for.
        undetected: What the words of a text said of its game when they left it unclear
            (:func:`ingest.text_identity.describe_evidence`), kept from the detection for the
            messages that skip the text or say its path named its game; ``None`` when the
            words told it or were not asked.
    """

    name: str
    path: str
    text: str
    encoding: str
    system: str | None = None
    system_from: SystemSource | None = None
    title: str | None = None
    title_from: SystemSource | Literal["text"] | None = None
    reading: str | None = None
    named_path: str | None = None
    template: tuple[tuple[int, int], ...] = ()
    undetected: str | None = None

    def __repr__(self) -> str:
        return f"SourceText({self.name!r}, {self.system}, {len(self.text)} chars)"

    __str__ = __repr__


class Edit(NamedTuple):
    """One change a cleaning step proposes: replace ``text[start:end]`` by ``replacement``.

    ``start`` and ``end`` are offsets in the text the step was given (the current text), not
    in the source. ``reason`` says in Russian why the text changes.
    """

    start: int
    end: int
    replacement: str
    step: str
    reason: str


class Change(_Frozen):
    """A change that cleaning made, in terms of the original source text.

    Removed text (``after`` empty or whitespace only) is the removed-text account: nothing
    leaves a text without a ``Change`` that says what and why.

    Attributes:
        step: The name of the cleaning step (``"hyphenation"``).
        span: ``[start, end)`` in the source text that the change replaced.
        before: The source text of ``span``.
        after: What stands in the cleaned text instead.
        reason: Why, in Russian.
    """

    step: str
    span: Span
    before: str
    after: str
    reason: str

    def __repr__(self) -> str:
        return f"Change({self.step}, {self.span}, {self.before[:30]!r} -> {self.after[:30]!r})"


class PageMark(_Frozen):
    """A page mark ("Страница 62-63", "С. 152") found in a text.

    A footer closes its page: the cleaned text before ``at`` (back to the previous mark)
    lies on pages ``first`` to ``last``; what starts after ``at`` lies on the next page. A
    mark that ``opens`` its page heads it instead: what follows ``at`` (up to the next mark)
    lies on its pages.

    Attributes:
        first: The first page number of the footer.
        last: The last page number (``first`` for a single page).
        at: Offset in the cleaned text where the footer stood: right after the last
            character of its page (the whitespace that replaced the footer comes after).
        source_span: ``[start, end)`` of the footer line in the source text.
    """

    first: int
    last: int
    at: int
    source_span: Span
    opens: bool = False

    def __repr__(self) -> str:
        pages = str(self.first) if self.first == self.last else f"{self.first}-{self.last}"
        return f"PageMark(p. {pages} at {self.at})"


class CleanedText(_Frozen):
    """A source text after cleaning, with a map of every character back to the source.

    Attributes:
        source: The name of the source file.
        text: The cleaned text.
        offsets: ``len(text) + 1`` offsets into the source text: ``offsets[i]`` is where the
            character ``text[i]`` came from; the last entry is the length of the source text.
            The map never decreases.
        changes: Every change cleaning made, in the order the steps ran.
        pages: The page footers, in text order.
        running_headers: Running headers found in the text (e.g. ``"Классы боевых единиц"``),
            usually the chapter the text comes from.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    source: str
    text: str
    offsets: OffsetArray
    changes: list[Change]
    pages: list[PageMark] = []
    running_headers: list[str] = []

    def to_source(self, i: int) -> int:
        """The source offset of the cleaned character ``i`` (``len(text)`` maps to the end)."""
        return self.offsets[i]

    def to_source_span(self, start: int, end: int) -> Span:
        """The source span ``[start, end)`` that the cleaned span ``[start, end)`` came from.

        The span runs from the source of its first character to just after the source of its
        last, so text removed inside it (a running header, a hyphen) lies inside too.
        """
        if end <= start:
            return self.offsets[start], self.offsets[start]
        return self.offsets[start], self.offsets[end - 1] + 1

    def from_source(self, offset: int) -> int:
        """The first cleaned offset whose character comes from at or after ``offset``."""
        return bisect_left(self.offsets, offset)

    def page_at(self, i: int) -> PageMark | None:
        """The page footer that closes the page the cleaned offset ``i`` lies on.

        ``None`` when the text has no footers or ``i`` lies after the last one.
        """
        ats = [mark.at for mark in self.pages]
        k = bisect_right(ats, i)
        return self.pages[k] if k < len(self.pages) else None

    def __repr__(self) -> str:
        return (
            f"CleanedText({self.source!r}, {len(self.text)} chars, "
            f"{len(self.changes)} changes, {len(self.pages)} pages)"
        )

    __str__ = __repr__


# ---------------------------------------------------------------------------------------------
# Later stages
# ---------------------------------------------------------------------------------------------
