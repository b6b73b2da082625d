"""A word processor's document as Markdown: its paragraphs, the headings its styles show.

What the readers of Word documents (:mod:`ingest.docx_text`) and OpenDocument texts
(:mod:`ingest.odt_text`) share once they have a document's paragraphs: a paragraph in a
heading style is a heading at its level ("#", "##", …); below the deepest heading style the
document uses, a short paragraph that ends in no sentence's stop is a heading when it is set
in a larger type than the text's (:data:`HEADING_RATIO`; each such size a level, the
largest first: a document formatted by hand, its titles in 16 and 14 points over text in
11) or in bold from end to end (a rule's name over its text, :data:`BOLD_WORDS` words at
most; the level below the sizes'); a list's items one under another, each opening with "•"
or its number; a line of text that Markdown would read as a mark ("# 1", "-----") escaped,
in a text that marks headings.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Generic, TypeVar
from xml.etree import ElementTree

from kb.damage import damage
from kb.xml_problems import parse_error

K = TypeVar("K")
MAX_XML = 200_000_000
"""Bytes a document's XML part may unpack to (a zip bomb is refused, not read)."""
BOLD_WORDS = 10
"""Words a paragraph in bold may have at most to be a heading."""
HEADING_WORDS = 15
"""Words a paragraph in a larger type may have at most to be a heading."""
HEADING_RATIO = 1.12
"""How much larger than the text's size a paragraph's type must be to be a heading's (as
:data:`ingest.pdf_type.HEADING_RATIO`)."""
HEADING_STYLE = re.compile(r"^(?:heading|заголовок|überschrift|titre)\s*(\d)$", re.IGNORECASE)
"""A heading style's name in a Word document, its level the number ("heading 2",
"Заголовок 2")."""
TITLE_STYLE = re.compile(r"^(?:title|название|заглавие)$", re.IGNORECASE)
"""The name of the style of a document's title, a heading of the first level."""
_SENTENCE_END = re.compile(r"[.,;!?…]$")
_MARKLIKE = re.compile(r"#|[-=*_]{3,}$|[-=]+$|>")
"""A line of text that Markdown would read as a heading's mark, a break or a quotation."""


@dataclass
class Paragraph:
    """A paragraph as its document holds it."""

    text: str  # its words (a line break inside it a "\\n"; a table's rows one a line)
    level: int | None  # the heading level its style (or its own mark) gives, if any
    bold: bool  # every letter of it set in bold
    item: str = ""  # what opens it as a list's item: "• ", "1. "
    size: float = 0.0  # the type size most of its letters are set in (points; 0: unknown)


class Notes(Generic[K]):
    """A document's footnotes and endnotes (by the key its reader finds them by), each cited
    by its number in the order of citing ("[1]"), its text a paragraph after the one that
    cites it (where a page sets it below)."""

    def __init__(self, texts: dict[K, str]) -> None:
        self.texts = texts
        self.count = 0
        self.cited: list[Paragraph] = []

    def cite(self, key: K) -> str:
        """The mark of the note ``key`` ("[3]"; "" for no note), its text set to follow."""
        text = self.texts.get(key)
        if not text:
            return ""
        self.count += 1
        self.cited.append(Paragraph(f"[{self.count}] {text}", None, False))
        return f"[{self.count}]"

    def flush(self) -> list[Paragraph]:
        """The notes cited since the last flush, to follow the paragraph citing them."""
        out, self.cited = self.cited, []
        return out


def typeset(letters: dict[tuple[bool, float], int]) -> tuple[bool, float]:
    """Whether a paragraph is in bold from end to end, and the type size most of its letters
    are set in (0 for none), from its letters counted by (bold, size in points).

    >>> typeset({(True, 14.0): 6, (False, 11.0): 0})
    (True, 14.0)
    """
    bold = sum(n for (b, _), n in letters.items() if b)
    plain = sum(n for (b, _), n in letters.items() if not b)
    sizes: dict[float, int] = {}
    for (_, size), n in letters.items():
        sizes[size] = sizes.get(size, 0) + n
    counted = {size: n for size, n in sizes.items() if n}
    return bold > 0 and plain == 0, max(counted, key=lambda k: (counted[k], k), default=0.0)


@dataclass(frozen=True)
class Reading:
    """A document as its reader read it: its text (Markdown marking its headings), and how its
    headings were told, in Russian, for ``rulekb build --explain``."""

    text: str
    type: str


@dataclass(frozen=True)
class Written:
    """A document written as Markdown, and how its headings were told."""

    text: str
    paragraphs: int
    headings: int  # by their styles
    bold: int  # paragraphs in bold read as headings
    below: int  # the level those get
    sized: int = 0  # paragraphs in a larger type read as headings


def markdown_of(paragraphs: list[Paragraph]) -> Written:
    """The paragraphs written as Markdown (the module's docstring).

    >>> markdown_of([Paragraph("Паника", 2, False), Paragraph("Иммунитет", None, True),
    ...              Paragraph("Подразделение бежит.", None, False),
    ...              Paragraph("Бросьте 2D6.", None, False, "1. "),
    ...              Paragraph("Сравните.", None, False, "2. ")]).text
    '## Паника\\n\\n### Иммунитет\\n\\nПодразделение бежит.\\n\\n1. Бросьте 2D6.\\n2. Сравните.\\n'
    """
    styled = [p.level for p in paragraphs if p.level is not None and p.text.strip()]
    top = max(styled, default=0) + 1  # the first level below the styles'
    body = _body_size(paragraphs)
    larger = sorted({p.size for p in paragraphs if body and p.level is None and not p.item
                     and p.size >= body * HEADING_RATIO and _heading_shaped(p.text.strip(),
                                                                            HEADING_WORDS)},
                    reverse=True)
    levels = {size: min(top + k, 6) for k, size in enumerate(larger)}
    below = min(top + len(larger), 6)
    decided: list[tuple[Paragraph, str, int | None]] = []
    headings = bold = sized = 0
    for p in paragraphs:
        text = p.text.strip()
        if not text:
            continue
        level = p.level if "\n" not in text else None
        if level is not None:
            headings += 1
        elif p.size in levels and not p.item and _heading_shaped(text, HEADING_WORDS):
            level = levels[p.size]
            sized += 1
        elif p.bold and not p.item and _heading_shaped(text, BOLD_WORDS):
            level = below
            bold += 1
        decided.append((p, text, level))
    # (marks of Markdown in a text of no heading would make it Markdown for nothing)
    marked = any(level for _, _, level in decided)
    out: list[str] = []
    last_item = False
    for p, text, level in decided:
        if level is not None:
            out.append("#" * level + " " + text)
            last_item = False
            continue
        lines = [line.strip() for line in text.split("\n")]
        lines = [("\\" + line if marked and _MARKLIKE.match(line) else line)
                 for line in lines if line]
        if p.item and last_item:
            out[-1] += "\n" + p.item + "\n".join(lines)  # a list's items one under another
        else:
            out.append(p.item + "\n".join(lines))
        last_item = bool(p.item)
    return Written("\n\n".join(out) + "\n", len(paragraphs), headings, bold, below, sized)


def described(written: Written, kind: str) -> str:
    """How a document's headings were told, in Russian, for ``--explain`` (``kind``: whose
    template is not read, "Word")."""
    return (f"абзацев {written.paragraphs}; заголовков по стилям {written.headings}; "
            f"набранных крупнее текста: {written.sized}; "
            f"полужирных абзацев, прочитанных как заголовки уровня {written.below}: "
            f"{written.bold}; колонтитулы и примечания к тексту {kind} не читаются, сноски — "
            "абзацами после ссылки на них")


def _heading_shaped(text: str, most: int) -> bool:
    """Whether a paragraph reads as a heading by its words: one line of ``most`` words at
    most, ending in no sentence's stop."""
    return bool(text) and "\n" not in text and len(text.split()) <= most \
        and not _SENTENCE_END.search(text)


def _body_size(paragraphs: list[Paragraph]) -> float:
    """The text's type size: the size most of the letters of paragraphs in no heading style
    are set in (0 when the document gives none)."""
    letters: dict[float, int] = {}
    for p in paragraphs:
        if p.size and p.level is None:
            letters[p.size] = letters.get(p.size, 0) + sum(map(str.isalnum, p.text))
    return max(letters, key=lambda size: (letters[size], -size)) if letters else 0.0


def zip_parts(data: bytes, wanted: tuple[str, ...], name: str, suffix: str,
              error: type[ValueError]) -> dict[str, bytes]:
    """The ``wanted`` parts of a document's zip archive, unpacked (each within
    :data:`MAX_XML`); a file that is no zip archive, a damaged one or a part too large raises
    ``error`` with a Russian message naming the document (``name``: "документ Word")."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as exc:
        raise error(f"не {name} ({suffix}): файл не является zip-архивом") from exc
    except Exception as exc:  # noqa: BLE001 (a damaged archive fails anywhere in zipfile: a
        # name in no encoding, a struct cut short)
        raise error(f"{name} повреждён и не читается ({damage(exc)})") from exc
    out: dict[str, bytes] = {}
    try:
        for info in archive.infolist():
            if info.filename in wanted:
                with archive.open(info) as stream:
                    content = stream.read(MAX_XML + 1)
                if len(content) > MAX_XML:
                    raise error(f"{name} слишком велик ({info.filename} больше "
                                f"{MAX_XML // 1_000_000} МБ в распакованном виде)")
                out[info.filename] = content
    except error:
        raise
    except Exception as exc:  # noqa: BLE001 (a cut or overwritten stream: a zlib error, a
        # bad CRC, a method zipfile does not know)
        raise error(f"{name} повреждён и не читается ({damage(exc)})") from exc
    return out


@contextmanager
def not_too_deep(name: str, error: type[ValueError]) -> Iterator[None]:
    """Refuse, with ``error`` naming the document, one whose elements nest deeper than the
    readers' recursion goes (thousands of levels: no document a word processor writes, a
    damaged or a crafted one), instead of failing with Python's RecursionError."""
    try:
        yield
    except RecursionError as exc:
        raise error(f"{name} не читается: элементы файла вложены друг в друга на тысячи "
                    "уровней (файл повреждён или составлен не редактором)") from exc


def parse_xml(data: bytes, name: str, error: type[ValueError]) -> ElementTree.Element:
    """A document's XML part parsed; XML that does not parse (a damaged part, an entity it
    never defines, an encoding its declaration names that the parser cannot read) raises
    ``error`` naming the document."""
    try:
        return ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        raise error(f"{name} повреждён: его XML не читается ({parse_error(exc)})") from exc
    except (LookupError, ValueError) as exc:
        raise error(f"{name} не читается: {unread_encoding(data)}") from exc


_DECLARED_ENCODING = re.compile(
    rb"""(?:\xef\xbb\xbf)?\s*<\?xml[^>]{0,200}?encoding\s*=\s*["']([^"']{0,40})""")


def unread_encoding(data: bytes) -> str:
    """Why XML whose declaration names an encoding the parser cannot read does not parse, in
    Russian: expat reads UTF-8, UTF-16 and one-byte encodings, and refuses a name Python does
    not know ("x-unknown": LookupError), a codec that is no text encoding ("hex"), and a
    multi-byte one ("shift_jis": ValueError), none of them an error of ParseError's kind.

    >>> unread_encoding(b'<?xml version="1.0" encoding="x-unknown"?><a/>')[:46]
    'в объявлении XML указана кодировка «x-unknown»'
    """
    m = _DECLARED_ENCODING.match(data)
    named = m.group(1).decode("ascii", "replace") if m else "?"
    return (f"в объявлении XML указана кодировка «{named}», которую парсер XML не "
            "поддерживает (поддерживаются UTF-8, UTF-16 и однобайтовые кодировки, например "
            "windows-1251)")
