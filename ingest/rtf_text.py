"""A rule text saved as a Rich Text Format document (``.rtf``): its paragraphs, with the
headings its styles and its type show.

RTF was the format a translation was passed around in when its maker wanted any word processor
to open it (WordPad, LibreOffice, Word for Mac), and Word often saved ``.doc`` files that were
RTF inside. Copied out as text, its styles are lost; read from the file, :func:`rtf_text`
writes it as Markdown through :func:`ingest.document_text.markdown_of`, as
:mod:`ingest.docx_text` does for a ``.docx``. RTF is a stream of groups (``{…}``) and control
words (``\\par``, ``\\b``, ``\\fs28``) around the text; this reader keeps, for each group, the
character properties it sets, and reads:

* the style sheet (``{\\stylesheet …}``): a style named "heading N" (Word writes the built-in
  names in English whatever its language), "Заголовок N" or "Title", or one with an outline
  level (``\\outlinelevel``), or based on such a style, gives its paragraphs that heading level,
  and so does a paragraph's own ``\\outlinelevel``;
* bold (``\\b``) and the type size (``\\fs``, in half-points) of every character, so that a
  document formatted by hand is cut by its type (:func:`ingest.document_text.markdown_of`);
* the text's characters: ``\\'e0`` in the code page of its font's character set (``\\fcharset204``
  is Windows-1251) or else the document's (``\\ansicpg1251``; ``\\mac`` Mac Roman),
  ``\\u1087?`` as the Unicode character, its fallback skipped (``\\uc``), ``\\tab`` a space,
  ``\\line`` a line, ``\\emdash``, quotes, a non-breaking space and hyphen; a soft hyphen nothing;
* a list item's number as Word writes it for readers of no list tables
  (``{\\listtext 1.\\tab}``, Word 95's ``{\\pntext …}``), a bullet as "•";
* a table's cells (``\\cell``) and rows (``\\row``): a row is one line, its rows one block;
* a field's result (``\\fldrslt``), not its code (``\\fldinst``);
* a footnote or an endnote (``{\\footnote …}``, set where it is cited): cited by its number in
  the order of citing ("[1]") and set as a paragraph after the paragraph citing it;
* a text box's text (a drawing's ``{\\shptxt …}``: a sidebar) after the paragraph anchoring it.

What the document holds outside its text is not read: the font and colour tables, the
document's information, pictures and embedded objects (an object's result, its picture, aside),
the pages' headers and footers, comments, drawings (a text box's text aside) and the
destinations a reader may skip
(``{\\*\\…}``), each as the RTF specification tells readers to.

A file that is no RTF document (it must open with ``{\\rtf``) is an error with a Russian
message (:class:`RtfError`).
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field, replace

from ingest.document_text import (
    HEADING_STYLE,
    TITLE_STYLE,
    Notes,
    Paragraph,
    Reading,
    described,
    markdown_of,
    typeset,
)

SUFFIX = ".rtf"
SIGNATURE = b"{\\rtf"
"""The first bytes of an RTF document."""
_DEFAULT_SIZE = 24  # half-points (12 pt): RTF's size where no \fs is given
_TOKEN = re.compile(
    rb"\\([a-zA-Z]{1,32})(-?\d{1,10})? ?"  # a control word and its parameter
    rb"|((?:\\'[0-9a-fA-F]{2})+)"  # bytes in the code page, "\\'cf\\'e0…" read at once
    rb"|\\([^a-zA-Z])"  # a control symbol (a "\\'" before no hex digits: nothing)
    rb"|([{}])"
    rb"|[\r\n]+"  # line ends: nothing in RTF
    rb"|([^\\{}\r\n]+)",  # text
    re.DOTALL)
_SKIPPED = frozenset({
    "colortbl", "info", "pict", "header", "headerl", "headerr", "headerf", "footer", "footerl",
    "footerr", "footerf", "fldinst", "listtable", "listoverridetable", "rsidtbl", "generator",
    "xmlnstbl", "themedata", "colorschememapping", "latentstyles", "datastore", "pgdsctbl",
    "revtbl", "filetbl", "nonshppict", "object", "pn", "annotation", "atnid",
    "atnauthor", "atndate", "atnref", "template", "bkmkstart", "bkmkend", "objdata",
    "ud", "userprops", "docvar", "mmath", "ftnsep", "ftnsepc", "aftnsep", "aftnsepc",
    "stylesheet_", "private", "xe", "tc", "tcn", "blipuid", "sp", "sn", "sv", "falt", "panose",
    "fontemb", "fontfile", "passwordhash", "password", "protusertbl", "wgrffmtfilter",
    "mhtmltag", "htmltag", "txfieldtext", "ffdeftext", "ffname", "ffentrymcr", "ffexitmcr",
    "ffformat", "ffhelptext", "ffstattext", "ffl",
})
"""Destinations that hold no text of the document (or text no reader is shown)."""
_READ = frozenset({"footnote", "listtext", "pntext", "shpinst", "shptxt"})
r"""Destinations read though marked as ignorable ("\*")."""
_SYMBOLS = {b"~": "\u00a0", b"_": "-", b"-": "", b"\\": "\\", b"{": "{", b"}": "}",
            b"\n": "\n", b"\r": "\n", b"|": "", b":": ""}
_WORDS = {"tab": " ", "line": "\n", "emdash": "—", "endash": "–", "lquote": "‘",
          "rquote": "’", "ldblquote": "“", "rdblquote": "”", "bullet": "•", "emspace": " ",
          "enspace": " ", "qmspace": " ", "zwj": "", "zwnj": "", "zwbo": "", "zwnbo": "",
          "ltrmark": "", "rtlmark": "", "page": ""}
_CHARSETS = {0: "cp1252", 2: "symbol", 77: "mac_roman", 128: "cp932", 129: "cp949",
             134: "gbk", 136: "big5", 161: "cp1253", 162: "cp1254", 163: "cp1258",
             177: "cp1255", 178: "cp1256", 186: "cp1257", 204: "cp1251", 222: "cp874",
             238: "cp1250", 254: "cp437", 255: "cp850"}
"""A font's character set (``\\fcharset``) → the code page of its bytes."""
_LIST_NUMBER = re.compile(r"^\(?[0-9A-Za-zА-Яа-я]{1,6}[.)]$")


class RtfError(ValueError):
    """A file that is no RTF document; the message is in Russian."""


RtfReading = Reading
"""How an RTF document was read (:class:`ingest.document_text.Reading`)."""


@dataclass
class _Group:
    """What a group sets for the text inside it (a new group starts as its parent)."""

    destination: str = ""  # "" for the document's text; else the destination it is in
    bold: bool = False
    size: int = _DEFAULT_SIZE
    font: int = -1
    uc: int = 1  # characters of fallback after a \u
    ignorable: str | None = None  # after "\*": the destination it was in, read on when the
    # destination it opens is one this reader knows (LibreOffice's "{\*\footnote …}")
    entry: dict[str, object] = field(default_factory=dict)  # a style's or a font's definition


@dataclass
class _StyleDef:
    level: int | None
    base: int | None


def rtf_text(data: bytes) -> str:
    """The text of an RTF document, as Markdown marking its headings (the module's docstring).

    Raises:
        RtfError: the file is no RTF document.
    """
    return read_rtf(data).text


def read_rtf(data: bytes) -> RtfReading:
    """:func:`rtf_text`, and how its headings were told (:class:`RtfReading`)."""
    if not data.lstrip()[:5] == SIGNATURE:
        raise RtfError("не документ RTF (.rtf): файл не начинается с «{\\rtf»")
    paragraphs = _Reader(data).paragraphs()
    if not any(p.text.strip() for p in paragraphs):
        raise RtfError("в документе RTF нет текста")
    written = markdown_of(paragraphs)
    return RtfReading(written.text, described(written, "RTF"))


class _Reader:
    """One document read token by token."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.codepage = "cp1252"
        self.fonts: dict[int, str] = {}
        self.styles: dict[int, _StyleDef] = {}
        self.notes: Notes[int] = Notes({})
        self.out: list[Paragraph] = []
        # the paragraph being read
        self.runs: list[tuple[str, bool, int]] = []
        self.item = ""
        self.style = 0
        self.outline: int | None = None
        self.in_table = False
        self.cells: list[str] = []
        self.rows: list[str] = []
        # a destination's own text (a footnote's, a list item's number, a style's name)
        self.held: list[str] = []
        self.boxed: list[tuple[str, bool, int]] = []  # a text box's runs, being read
        self.boxes: list[Paragraph] = []  # text boxes read, to follow the paragraph
        self.pending = bytearray()  # bytes of \'hh not yet decoded
        self.pending_codec = "cp1252"

    def paragraphs(self) -> list[Paragraph]:
        stack: list[_Group] = []
        group = _Group()
        skip_fallback = 0
        pos, end = 0, len(self.data)
        match = _TOKEN.match
        while pos < end:
            m = match(self.data, pos)
            if m is None:  # (a lone backslash at the end)
                break
            pos = m.end()
            word, param, hexbyte, symbol, brace, text = m.groups()
            if hexbyte is not None:
                raw = bytes.fromhex(hexbyte.replace(b"\\'", b"").decode("ascii"))
                if skip_fallback:
                    cut = min(skip_fallback, len(raw))
                    skip_fallback -= cut
                    raw = raw[cut:]
                if raw and group.destination != "skip":
                    codec = self._codec(group)
                    if codec != self.pending_codec:
                        self._flush_bytes(group)
                        self.pending_codec = codec
                    self.pending += raw
                continue
            if self.pending:
                self._flush_bytes(group)
            if word is not None:
                name = word.decode("ascii")
                if skip_fallback and name not in ("u", "par", "cell", "row"):
                    skip_fallback -= 1
                    continue
                number = int(param) if param is not None else None
                if name == "bin" and number:
                    pos += max(0, number)  # binary data: not text
                    continue
                if name == "u" and number is not None:
                    if group.destination != "skip":
                        self._add(chr(number + 65536 if number < 0 else number), group)
                    skip_fallback = group.uc
                    continue
                skip_fallback = 0
                group = self._control(name, number, group, stack)
            elif symbol is not None:
                if skip_fallback:
                    skip_fallback -= 1
                    continue
                if symbol == b"*":
                    group = replace(group, destination="skip", ignorable=group.destination)
                elif symbol in (b"\n", b"\r"):
                    self._paragraph_end(group)
                elif group.destination != "skip":
                    self._add(_SYMBOLS.get(symbol, ""), group)
            elif brace == b"{":
                skip_fallback = 0
                stack.append(group)
                group = replace(group, entry={})
            elif brace == b"}":
                skip_fallback = 0
                if stack:
                    self._group_end(group, stack[-1])
                    group = stack.pop()
            elif text is not None:
                if skip_fallback:
                    cut = min(skip_fallback, len(text))
                    skip_fallback -= cut
                    text = text[cut:]
                if text and group.destination != "skip":
                    self._add(_decoded(text, self._codec(group)), group)
        self._flush_bytes(group)
        self._paragraph_end(group)
        self._table_end()
        return self.out

    # -- control words ----------------------------------------------------------------------

    def _control(self, name: str, number: int | None, group: _Group,
                 stack: list[_Group]) -> _Group:
        """Apply a control word; the group's state after it."""
        if group.ignorable is not None:
            known = name in _READ and group.ignorable != "skip"
            group = replace(group, destination=group.ignorable if known else "skip",
                            ignorable=None)
        if group.destination == "skip":
            if name == "result" and stack and stack[-1].destination != "skip":
                return replace(group, destination="")  # an object's result: what it shows
            return group
        if group.destination == "shape":  # a drawing: its text box's text alone is read
            if name == "shptxt":
                self.boxed = []
                return replace(group, destination="shptxt")
            return replace(group, destination="skip") if name == "shprslt" else group
        if name == "shp":
            return replace(group, destination="shape")
        if name in _SKIPPED:
            return replace(group, destination="skip")
        if name == "fonttbl":
            return replace(group, destination="fonttbl")
        if name == "stylesheet":
            return replace(group, destination="stylesheet")
        if name in ("footnote", "listtext", "pntext"):
            if group.destination != name:
                self.held = []
            return replace(group, destination=name)
        if group.destination in ("fonttbl", "stylesheet"):
            if name in ("f", "s", "fcharset", "sbasedon", "outlinelevel") and number is not None:
                group.entry[name] = number
            elif name in ("cs", "ts", "ds"):
                group.entry["kind"] = name  # a character, table or section style
            return group
        if name == "ansicpg" and number is not None:
            self.codepage = _codepage(number)
        elif name == "mac":
            self.codepage = "mac_roman"
        elif name == "uc" and number is not None:
            group.uc = max(0, number)
        elif name == "b":
            group.bold = number != 0
        elif name == "fs" and number:
            group.size = number
        elif name == "f" and number is not None:
            group.font = number
        elif name == "plain":
            group.bold, group.size = False, _DEFAULT_SIZE
        elif name in ("par", "sect"):
            self._paragraph_end(group)
        elif group.destination != "":
            pass  # (a note's or a list number's own paragraph marks: not the text's)
        elif name == "pard":
            self.style, self.outline, self.in_table = 0, None, False
        elif name == "s" and number is not None:
            self.style = number
        elif name == "outlinelevel" and number is not None:
            self.outline = number
        elif name == "intbl":
            self.in_table = True
        elif name == "cell" or name == "nestcell":
            self._cell_end(group)
        elif name == "row":
            if self.cells:
                self.rows.append(" ".join(self.cells))
            self.cells = []
        elif name in _WORDS:
            self._add(_WORDS[name], group)
        return group

    def _group_end(self, group: _Group, parent: _Group) -> None:
        """A group ends: what its destination held is registered."""
        if group.destination == "fonttbl" and "f" in group.entry:
            charset = group.entry.get("fcharset")
            if isinstance(charset, int) and (codec := _CHARSETS.get(charset)):
                self.fonts[int(str(group.entry["f"]))] = codec
        elif group.destination == "stylesheet" and parent.destination == "stylesheet" \
                and "kind" not in group.entry:
            name = "".join(self.held).split(";")[0].strip()
            self.held = []
            outline = group.entry.get("outlinelevel")
            level = (int(m.group(1)) if (m := HEADING_STYLE.match(name)) and m.group(1) != "0"
                     else 1 if TITLE_STYLE.match(name)
                     else outline + 1 if isinstance(outline, int) and outline < 9 else None)
            base = group.entry.get("sbasedon")
            number = group.entry.get("s", 0)
            self.styles[int(str(number))] = _StyleDef(
                level, int(str(base)) if isinstance(base, int) else None)
        elif group.destination == "stylesheet":
            self.held = []
        elif group.destination == "footnote" and parent.destination != "footnote":
            words = " ".join("".join(self.held).split())
            self.held = []
            key = len(self.notes.texts)
            self.notes.texts[key] = words
            self.runs.append((self.notes.cite(key), False, parent.size))
        elif group.destination == "shptxt" and parent.destination != "shptxt":
            # a text box (a sidebar): its paragraphs follow the paragraph anchoring it
            for line in "".join(t for t, _, _ in self.boxed).split("\n"):
                if line.strip():
                    self.boxes.append(Paragraph(" ".join(line.split()), None, False))
            self.boxed = []
        elif group.destination in ("listtext", "pntext") \
                and parent.destination not in ("listtext", "pntext"):
            mark = "".join(self.held).strip()
            self.held = []
            self.item = (f"{mark} " if _LIST_NUMBER.match(mark) else "• ") if mark else ""

    # -- text -----------------------------------------------------------------------------

    def _codec(self, group: _Group) -> str:
        return self.fonts.get(group.font, self.codepage)

    def _flush_bytes(self, group: _Group) -> None:
        if not self.pending:
            return
        raw, self.pending = bytes(self.pending), bytearray()
        self._add(_decoded(raw, self.pending_codec), group)

    def _add(self, text: str, group: _Group) -> None:
        if not text:
            return
        if group.destination in ("footnote", "listtext", "pntext", "stylesheet"):
            self.held.append(text)
        elif group.destination == "shptxt":
            self.boxed.append((text, group.bold, group.size))
        elif group.destination == "":
            self.runs.append((text, group.bold, group.size))

    def _paragraph_end(self, group: _Group) -> None:
        if group.destination == "footnote":
            self.held.append(" ")
            return
        if group.destination == "shptxt":
            self.boxed.append(("\n", False, 0))
            return
        if group.destination != "":
            return
        words = "".join(t for t, _, _ in self.runs)
        if self.in_table:
            self._cell_end(group)  # (a paragraph of a cell: the cell's words go on)
            return
        self._table_end()
        letters: dict[tuple[bool, float], int] = {}
        for text, bold, half_points in self.runs:
            key = (bold, half_points / 2)
            letters[key] = letters.get(key, 0) + sum(map(str.isalnum, text))
        bold_all, size = typeset(letters)
        level = self._level()
        self.out.append(Paragraph(words, level, bold_all, self.item if words.strip() else "",
                                  size))
        self.out.extend(self.notes.flush())
        self.out.extend(self.boxes)
        self.runs, self.item, self.boxes = [], "", []

    def _level(self) -> int | None:
        if self.outline is not None:
            return self.outline + 1 if self.outline < 9 else None
        seen: set[int] = set()
        style = self.style
        while style in self.styles and style not in seen:
            seen.add(style)
            definition = self.styles[style]
            if definition.level is not None:
                return definition.level
            style = definition.base if definition.base is not None else -1
        return None

    def _cell_end(self, group: _Group) -> None:
        if group.destination != "":
            return
        words = " ".join("".join(t for t, _, _ in self.runs).split())
        if words:
            self.cells.append(words)
        self.runs, self.item = [], ""

    def _table_end(self) -> None:
        if self.cells:
            self.rows.append(" ".join(self.cells))
            self.cells = []
        if self.rows:
            self.out.append(Paragraph("\n".join(self.rows), None, False))
            self.out.extend(self.notes.flush())
            self.rows = []


def _decoded(raw: bytes, codec: str) -> str:
    """Bytes of text in a code page; in the Symbol font, its bullet a bullet and its other
    signs as the bytes' Latin-1 characters."""
    if codec == "symbol":
        return "".join("•" if b == 0xB7 else chr(b) for b in raw)
    return raw.decode(codec, errors="replace")


def _codepage(number: int) -> str:
    """Python's codec of a Windows (or Mac) code page number, cp1252 for one it lacks."""
    name = {10000: "mac_roman", 10007: "mac_cyrillic", 10029: "mac_latin2",
            65001: "utf-8"}.get(number, f"cp{number}")
    try:
        codecs.lookup(name)
    except LookupError:
        return "cp1252"
    return name
