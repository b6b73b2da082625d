"""The Word Binary File Format of a Word 97–2003 document (``.doc``), read ([MS-DOC]).

A ``.doc`` is an OLE compound file (read with ``olefile``, the reader Pillow and oletools
use) whose ``WordDocument`` stream starts with the File Information Block (FIB): the
document's version, whether it is locked by a password, which of the ``0Table``/``1Table``
streams holds its tables, how many characters each part of it has (the main text, the
footnotes, the headers, the comments, the endnotes), and where each table lies. From those
tables :class:`WordBinary` reads

* the text: the piece table (its CLX) orders pieces of the ``WordDocument`` stream, each in
  UTF-16 or in 8-bit Windows-1252 ("compressed");
* each paragraph's properties: the paragraphs' bin table points to pages of property sets
  (PAPX), each naming the paragraph's style and changing its properties (its outline level,
  its place in a table, the list it is an item of) by "sprms";
* each character's bold and type size, from the characters' bin table (CHPX) and the style's;
* the style sheet (STSH): each style's built-in number ("heading 1" … "heading 9" are 1 … 9
  and "Title" 62, whatever the language of the Word that named them), its name, its base and
  the properties it sets;
* the list tables (PlfLst, PlfLfo): the number format of each list's levels (a bullet, or a
  number);
* the footnotes' and endnotes' tables: where each note's mark stands in the main text and
  where its text lies in its part.

:mod:`ingest.doc_text` makes the paragraphs of them. A damaged file raises :class:`DocError`
(a count or an offset past a table's end: :mod:`struct`'s or an index's error, which the
reader turns into one).
"""

from __future__ import annotations

import io
import re
import struct
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

import olefile

from ingest.document_text import HEADING_STYLE
from kb.damage import damage

T = TypeVar("T")
OLE_SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
"""The first bytes of an OLE compound file (a ``.doc``; a ``.docx`` locked by a password)."""
MAX_STREAM = 200_000_000
"""Bytes a document's stream may hold (as :data:`ingest.document_text.MAX_XML`)."""
_WORD_97 = 0xC1
"""The FIB's version of Word 97, which later versions keep in its base."""
_TITLE_STI = 62
"""Word's built-in identifier of the "Title" style (those of "heading 1" … "heading 9" are 1
… 9)."""
_SPRM_OUTLINE = 0x2640  # sprmPOutLvl: a paragraph's outline level (0–8; 9: body text)
_SPRM_IN_TABLE = 0x2416  # sprmPFInTable
_SPRM_ROW_END = 0x2417  # sprmPFTtp: the mark that ends a table's row
_SPRM_LIST = 0x460B  # sprmPIlfo: the list (1-based, in the list overrides) it is an item of
_SPRM_LIST_LEVEL = 0x260A  # sprmPIlvl
BULLET = 0x17  # a list level's number format (nfc) that is a bullet; 0xFF: none
_SPRM_BOLD = 0x0835  # sprmCFBold
_SPRM_SIZE = 0x4A43  # sprmCHps: the type size in half-points
_DEFAULT_SIZE = 20  # half-points (10 pt) where no style sets one


class DocError(ValueError):
    """A file that is no readable Word 97–2003 document; the message is in Russian."""



@dataclass(frozen=True)
class Style:
    level: int | None  # the heading level it gives
    bold: bool
    size: int  # half-points (0: it sets none, nor does its base)


@dataclass
class Props:
    """A paragraph's properties."""

    style: Style
    level: int | None  # its heading level
    in_table: bool = False
    row_end: bool = False  # the mark that ends a table's row
    list: int = 0  # the list it is an item of (0: none)
    list_level: int = 0


@dataclass(frozen=True)
class Fib:
    table: str  # the name of the table stream
    ccp: tuple[int, ...]  # characters of the main text, footnotes, headers, (macros), comments,
    # endnotes, text boxes, the headers' text boxes
    places: tuple[tuple[int, int], ...]  # (offset, size) of each structure in the table stream

    def place(self, index: int) -> tuple[int, int]:
        return self.places[index] if index < len(self.places) else (0, 0)


_STSHF, _FND_REF, _FND_TXT, _BTE_CHPX, _BTE_PAPX, _CLX, _END_REF, _END_TXT = (
    1, 2, 3, 12, 13, 33, 46, 47)
_LISTS, _LIST_OVERRIDES = 73, 74
"""Indexes of the structures read in the FIB's table of places (FibRgFcLcb97)."""


def streams(data: bytes) -> tuple[bytes, bytes, Fib]:
    """The document's ``WordDocument`` and table streams, and its FIB read."""
    if not data.startswith(OLE_SIGNATURE):
        if data.startswith(b"PK"):
            raise DocError("это документ Word нового формата (.docx) с расширением .doc: "
                           "переименуйте его в .docx")
        if data.lstrip().startswith(b"{\\rtf"):
            raise DocError("это документ RTF с расширением .doc: сохраните его как .docx или "
                           ".txt")
        if re.match(rb"\s*(?:<!doctype html|<html|<\?xml[^>]*>\s*<html)", data[:512].lower()):
            raise DocError("это веб-страница с расширением .doc: переименуйте её в .html")
        raise DocError("не документ Word (.doc): файл не является составным файлом OLE")
    try:
        ole = olefile.OleFileIO(io.BytesIO(data))
    except Exception as exc:  # noqa: BLE001 (olefile fails anywhere on a damaged container)
        raise DocError(f"документ Word (.doc) повреждён и не читается ({damage(exc)})"
                       ) from exc
    with ole:
        if ole.exists("EncryptedPackage"):  # (a .docx locked by a password)
            raise DocError("документ Word защищён паролем: откройте его в Word или LibreOffice "
                           "и сохраните без пароля как .docx или .txt")
        if not ole.exists("WordDocument"):
            raise DocError("в файле нет документа Word (это другой документ Office, например "
                           "таблица Excel)")
        word = _read_stream(ole, "WordDocument")
        fib = _fib(word)
        if not ole.exists(fib.table):
            raise DocError(f"документ Word (.doc) повреждён: в нём нет потока {fib.table}")
        return word, _read_stream(ole, fib.table), fib


def _read_stream(ole: olefile.OleFileIO, name: str) -> bytes:
    try:
        if ole.get_size(name) > MAX_STREAM:
            raise DocError(f"документ Word слишком велик ({name} больше "
                           f"{MAX_STREAM // 1_000_000} МБ)")
        with ole.openstream(name) as stream:
            return bytes(stream.read())
    except DocError:
        raise
    except Exception as exc:  # noqa: BLE001 (a stream cut short or looping in its sectors)
        raise DocError(f"документ Word (.doc) повреждён и не читается ({damage(exc)})"
                       ) from exc


def _fib(word: bytes) -> Fib:
    """The File Information Block at the head of the ``WordDocument`` stream."""
    try:
        return _read_fib(word)
    except struct.error as exc:
        raise DocError("документ Word (.doc) повреждён: заголовок документа не читается") \
            from exc


def _read_fib(word: bytes) -> Fib:
    if len(word) < 34 or struct.unpack_from("<H", word, 0)[0] != 0xA5EC:
        raise DocError("документ Word (.doc) повреждён: нет заголовка документа")
    nfib, = struct.unpack_from("<H", word, 2)
    flags, = struct.unpack_from("<H", word, 0x0A)
    if flags & 0x0100:
        raise DocError("документ Word защищён паролем: откройте его в Word или LibreOffice и "
                       "сохраните без пароля как .docx или .txt")
    if nfib < _WORD_97:
        raise DocError("документ Word 6.0/95 (старше Word 97) не читается: откройте его в "
                       "Word или LibreOffice и сохраните как .docx")
    pos = 32
    csw, = struct.unpack_from("<H", word, pos)
    pos += 2 + 2 * csw
    cslw, = struct.unpack_from("<H", word, pos)
    lw = struct.unpack_from(f"<{cslw}i", word, pos + 2)
    pos += 2 + 4 * cslw
    pairs, = struct.unpack_from("<H", word, pos)
    pairs = min(pairs, (len(word) - pos - 2) // 8)
    flat = struct.unpack_from(f"<{2 * pairs}I", word, pos + 2)
    places = tuple((flat[2 * k], flat[2 * k + 1]) for k in range(pairs))
    # ccpText, ccpFtn, ccpHdd, ccpMcr (unused), ccpAtn, ccpEdn, ccpTxbx, ccpHdrTxbx
    ccp = tuple(max(0, n) for n in (*lw[3:11], 0, 0, 0, 0, 0, 0, 0, 0)[:8])
    return Fib("1Table" if flags & 0x0200 else "0Table", ccp, places)


def _sprms(grpprl: bytes) -> Iterator[tuple[int, bytes]]:
    """The (sprm, operand) pairs of a list of property changes ([MS-DOC] 2.2.5.1)."""
    pos = 0
    while pos + 2 <= len(grpprl):
        sprm, = struct.unpack_from("<H", grpprl, pos)
        pos += 2
        spra = sprm >> 13
        if spra in (0, 1):
            size = 1
        elif spra in (2, 4, 5):
            size = 2
        elif spra == 3:
            size = 4
        elif spra == 7:
            size = 3
        elif sprm == 0xD608 and pos + 2 <= len(grpprl):  # sprmTDefTable: a 2-byte size
            size = struct.unpack_from("<H", grpprl, pos)[0] + 1
        elif sprm == 0xC615 and pos < len(grpprl) and grpprl[pos] == 255:  # sprmPChgTabs
            size = 1 + grpprl[pos + 1] * 4 if pos + 1 < len(grpprl) else 1
            size += 1 + (grpprl[pos + size] * 3 if pos + size < len(grpprl) else 0)
        else:
            if pos >= len(grpprl):
                return
            size = grpprl[pos] + 1
            yield sprm, grpprl[pos + 1:pos + size]
            pos += size
            continue
        yield sprm, grpprl[pos:pos + size]
        pos += size


def _or_none(read: Callable[[], T], none: T) -> T:
    """What ``read`` reads from a table of properties, or ``none`` when the table is damaged
    (a count or an offset past its end)."""
    try:
        return read()
    except (struct.error, IndexError, ValueError):
        return none


class WordBinary:
    """The streams of one document, and what its tables say of its text."""

    def __init__(self, word: bytes, table: bytes, fib: Fib) -> None:
        self.word, self.table, self.fib = word, table, fib
        self.pieces = self._pieces()  # (the text: a damaged piece table is a damaged file)
        self.piece_starts = [p[0] for p in self.pieces]
        # the properties: a damaged table of them costs what it tells (headings, sizes,
        # lists), never the text
        self.styles: list[Style] = _or_none(self._styles, [])
        self.papx: list[tuple[int, int, bytes]] = _or_none(
            lambda: self._runs(_BTE_PAPX, paragraph=True), [])
        self.chpx: list[tuple[int, int, bytes]] = _or_none(
            lambda: self._runs(_BTE_CHPX, paragraph=False), [])
        self.papx_starts = [r[0] for r in self.papx]
        self.lists: dict[int, tuple[int, ...]] = _or_none(self._lists, {})
        self.chpx_starts = [r[0] for r in self.chpx]

    # -- the text ---------------------------------------------------------------------------

    def _pieces(self) -> list[tuple[int, int, int, bool]]:
        """The piece table: (first CP, CP after the last, FC of the first, 8-bit text)."""
        start, size = self.fib.place(_CLX)
        clx = self.table[start:start + size]
        pos = 0
        while pos < len(clx) and clx[pos] == 0x01:  # Prc: property changes, skipped
            pos += 3 + struct.unpack_from("<H", clx, pos + 1)[0]  # (unsigned: onwards)
        if pos >= len(clx) or clx[pos] != 0x02:
            raise DocError("документ Word (.doc) повреждён: нет таблицы частей текста")
        lcb, = struct.unpack_from("<I", clx, pos + 1)
        plc = clx[pos + 5:pos + 5 + lcb]
        n = (len(plc) - 4) // 12
        cps = struct.unpack_from(f"<{n + 1}I", plc, 0)
        out = []
        for k in range(n):
            fc, = struct.unpack_from("<I", plc, 4 * (n + 1) + 8 * k + 2)
            compressed = bool(fc & 0x40000000)
            fc &= 0x3FFFFFFF
            out.append((cps[k], cps[k + 1], fc // 2 if compressed else fc, compressed))
        return out

    def text(self, first: int, end: int) -> str:
        """The characters from CP ``first`` to ``end``."""
        parts = []
        for cp0, cp1, fc, compressed in self.pieces:
            a, b = max(first, cp0), min(end, cp1)
            if a >= b:
                continue
            if compressed:
                raw = self.word[fc + a - cp0:fc + b - cp0]
                parts.append(_ansi(raw))
            else:
                raw = self.word[fc + 2 * (a - cp0):fc + 2 * (b - cp0)]
                parts.append(raw.decode("utf-16-le", errors="replace"))
        return "".join(parts)

    def fc_of(self, cp: int) -> int | None:
        """The byte offset in the ``WordDocument`` stream of the character at ``cp``."""
        k = bisect_right(self.piece_starts, cp) - 1
        if k < 0:
            return None
        cp0, cp1, fc, compressed = self.pieces[k]
        return fc + (cp - cp0) * (1 if compressed else 2) if cp < cp1 else None

    # -- the properties --------------------------------------------------------------------

    def _runs(self, index: int, paragraph: bool) -> list[tuple[int, int, bytes]]:
        """The formatted runs of a bin table: (first FC, FC after the last, their grpprl; a
        paragraph's with its style's index first)."""
        start, size = self.fib.place(index)
        plc = self.table[start:start + size]
        n = (len(plc) - 4) // 8
        if n <= 0:
            return []
        pns = struct.unpack_from(f"<{n}I", plc, 4 * (n + 1))
        out: list[tuple[int, int, bytes]] = []
        for pn in pns:
            page = self.word[(pn & 0x3FFFFF) * 512:(pn & 0x3FFFFF) * 512 + 512]
            if len(page) < 512:
                continue
            crun = page[511]
            fcs = struct.unpack_from(f"<{crun + 1}I", page, 0)
            for k in range(crun):
                if paragraph:
                    offset = page[4 * (crun + 1) + 13 * k] * 2
                    if not offset:
                        out.append((fcs[k], fcs[k + 1], b"\x00\x00"))
                        continue
                    cb = page[offset]
                    if cb:
                        grpprl = page[offset + 1:offset + 1 + 2 * cb - 1]
                    else:
                        grpprl = page[offset + 2:offset + 2 + 2 * page[offset + 1]]
                else:
                    offset = page[4 * (crun + 1) + k] * 2
                    grpprl = page[offset + 1:offset + 1 + page[offset]] if offset else b""
                out.append((fcs[k], fcs[k + 1], grpprl))
        out.sort(key=lambda r: r[0])
        return out

    def _lists(self) -> dict[int, tuple[int, ...]]:
        """List (its 1-based index among the overrides, as a paragraph names it) → the number
        format of each of its levels."""
        start, size = self.fib.place(_LISTS)
        if size < 2:
            return {}
        count, = struct.unpack_from("<H", self.table, start)
        pos = start + 2 + 28 * count  # (the LVLs follow the lists' LSTFs)
        formats: dict[int, tuple[int, ...]] = {}
        for k in range(count):
            lsid, = struct.unpack_from("<i", self.table, start + 2 + 28 * k)
            simple = self.table[start + 2 + 28 * k + 26] & 0x01
            levels = []
            for _ in range(1 if simple else 9):
                nfc = self.table[pos + 4]
                chpx, papx = self.table[pos + 24], self.table[pos + 25]
                pos += 28 + papx + chpx
                cch, = struct.unpack_from("<H", self.table, pos)
                pos += 2 + 2 * cch
                levels.append(nfc)
            formats[lsid] = tuple(levels)
        start, size = self.fib.place(_LIST_OVERRIDES)
        if size < 4:
            return {}
        count, = struct.unpack_from("<I", self.table, start)
        out = {}
        for k in range(min(count, (size - 4) // 16)):
            lsid, = struct.unpack_from("<i", self.table, start + 4 + 16 * k)
            if lsid in formats:
                out[k + 1] = formats[lsid]
        return out

    def _styles(self) -> list[Style]:
        """The style sheet: each style's heading level, bold and type size, its base's where
        it sets none."""
        start, size = self.fib.place(_STSHF)
        stsh = self.table[start:start + size]
        if len(stsh) < 6:
            return []
        cb_stshi, = struct.unpack_from("<H", stsh, 0)
        cstd, cb_base = struct.unpack_from("<HH", stsh, 2)
        pos = 2 + cb_stshi
        raw: list[tuple[int, int, str, bytes, bool | None, int] | None] = []
        for _ in range(cstd):
            if pos + 2 > len(stsh):
                break
            cb, = struct.unpack_from("<H", stsh, pos)
            std = stsh[pos + 2:pos + 2 + cb]
            pos += 2 + cb
            if cb < 10:
                raw.append(None)
                continue
            w0, w1, w2 = struct.unpack_from("<HHH", std, 0)
            sti, stk, base, cupx = w0 & 0x0FFF, w1 & 0x000F, w1 >> 4, w2 & 0x000F
            at = cb_base
            cch, = struct.unpack_from("<H", std, at) if at + 2 <= len(std) else (0,)
            name = std[at + 2:at + 2 + 2 * cch].decode("utf-16-le", errors="replace")
            at += 2 + 2 * cch + 2  # (the name's terminating zero)
            papx = b""
            bold: bool | None = None
            half_points = 0
            for k in range(cupx):
                at += at % 2  # (each UPX starts on an even offset)
                if at + 2 > len(std):
                    break
                cb_upx, = struct.unpack_from("<H", std, at)
                upx = std[at + 2:at + 2 + cb_upx]
                at += 2 + cb_upx
                if stk == 1 and k == 0:
                    papx = upx[2:]  # (its style index first)
                elif (stk == 1 and k == 1) or (stk == 2 and k == 0):
                    for sprm, op in _sprms(upx):
                        if sprm == _SPRM_BOLD and op:
                            bold = op[0] in (1, 0x81)
                        elif sprm == _SPRM_SIZE and len(op) == 2:
                            half_points = struct.unpack("<H", op)[0]
            raw.append((sti, base, name, papx, bold, half_points))

        resolved: dict[int, Style] = {}

        def resolve(istd: int, depth: int = 0) -> Style:
            if istd in resolved:
                return resolved[istd]
            entry = raw[istd] if 0 <= istd < len(raw) else None
            if entry is None or depth > 10:
                return Style(None, False, 0)
            sti, base, name, papx, bold, half_points = entry
            parent = resolve(base, depth + 1) if base != 0x0FFF else Style(None, False, 0)
            level = parent.level
            m = HEADING_STYLE.match(name.strip())
            if 1 <= sti <= 9:
                level = sti
            elif sti == _TITLE_STI:
                level = 1
            elif m and m.group(1) != "0":
                level = int(m.group(1))
            for sprm, op in _sprms(papx):
                if sprm == _SPRM_OUTLINE and op:
                    level = op[0] + 1 if op[0] < 9 else None
            style = Style(level, parent.bold if bold is None else bold,
                           half_points or parent.size)
            resolved[istd] = style
            return style

        return [resolve(k) for k in range(len(raw))]

    def paragraph_props(self, cp: int) -> Props:
        """The properties of the paragraph whose mark is at ``cp``."""
        fc = self.fc_of(cp)
        plain = self.styles[0] if self.styles else Style(None, False, 0)
        k = bisect_right(self.papx_starts, fc) - 1 if fc is not None else -1
        if fc is None or k < 0 or fc >= self.papx[k][1]:
            return Props(plain, plain.level)
        grpprl = self.papx[k][2]
        istd, = struct.unpack_from("<H", grpprl, 0) if len(grpprl) >= 2 else (0,)
        style = self.styles[istd] if istd < len(self.styles) else plain
        props = Props(style, style.level)
        for sprm, op in _sprms(grpprl[2:]):
            if sprm == _SPRM_OUTLINE and op:
                props.level = op[0] + 1 if op[0] < 9 else None
            elif sprm == _SPRM_IN_TABLE and op:
                props.in_table = bool(op[0])
            elif sprm == _SPRM_ROW_END and op:
                props.row_end = bool(op[0])
            elif sprm == _SPRM_LIST and len(op) == 2:
                props.list = struct.unpack("<h", op)[0]
            elif sprm == _SPRM_LIST_LEVEL and op:
                props.list_level = op[0]
        return props

    def _char_props(self, cp: int, style: Style) -> tuple[bool, int]:
        """Bold and the type size (half-points) of the character at ``cp``."""
        bold = style.bold
        size = style.size or (self.styles[0].size if self.styles else 0) or _DEFAULT_SIZE
        fc = self.fc_of(cp)
        if fc is None:
            return bold, size
        k = bisect_right(self.chpx_starts, fc) - 1
        if k >= 0 and fc < self.chpx[k][1]:
            for sprm, op in _sprms(self.chpx[k][2]):
                if sprm == _SPRM_BOLD and op:
                    bold = {0: False, 1: True, 0x80: style.bold, 0x81: not style.bold}.get(
                        op[0], bold)
                elif sprm == _SPRM_SIZE and len(op) == 2:
                    size = struct.unpack("<H", op)[0] or size
        return bold, size

    # -- the paragraphs --------------------------------------------------------------------

    def letters(self, first: int, end: int, text: str, style: Style, offset: int = 0
                ) -> dict[tuple[bool, int], int]:
        """Letters (and digits) of a paragraph, CPs ``first`` to ``end`` (``text`` holding
        the characters from CP ``offset``), by (bold, size), a run's properties read once for
        each of its characters' run."""
        out: dict[tuple[bool, int], int] = {}
        last_fc_run = -2
        props = (style.bold, style.size or _DEFAULT_SIZE)
        for cp in range(first, end):
            if not text[cp - offset].isalnum():
                continue
            fc = self.fc_of(cp)
            run = bisect_right(self.chpx_starts, fc) - 1 if fc is not None else -1
            if run != last_fc_run:
                props = self._char_props(cp, style)
                last_fc_run = run
            out[props] = out.get(props, 0) + 1
        return out

    def note_texts(self) -> dict[int, str]:
        """CP of each note's mark in the main text → the note's characters as its part holds
        them (footnotes', then endnotes')."""
        ccp = self.fib.ccp
        return {**_or_none(lambda: self._notes(_FND_REF, _FND_TXT, ccp[0]), {}),
                **_or_none(lambda: self._notes(_END_REF, _END_TXT, sum(ccp[:5])), {})}

    def text_boxes(self) -> tuple[int, int]:
        """The CPs where the text boxes' part begins and ends (after the endnotes')."""
        start = sum(self.fib.ccp[:6])
        return start, start + self.fib.ccp[6]

    def _notes(self, ref_index: int, text_index: int, offset: int) -> dict[int, str]:
        start, size = self.fib.place(ref_index)
        n = (size - 4) // 6 if size >= 10 else 0
        if not n:
            return {}
        refs = struct.unpack_from(f"<{n}I", self.table, start)
        t_start, t_size = self.fib.place(text_index)
        m = t_size // 4
        bounds = struct.unpack_from(f"<{m}I", self.table, t_start) if m else ()
        return {ref: self.text(offset + bounds[k], offset + bounds[k + 1])
                for k, ref in enumerate(refs) if k + 1 < len(bounds)}


def _ansi(raw: bytes) -> str:
    """8-bit text of a compressed piece (Windows-1252; the bytes it leaves undefined as
    themselves, [MS-DOC] 2.4.1)."""
    try:
        return raw.decode("cp1252")
    except UnicodeDecodeError:
        return "".join(bytes([b]).decode("cp1252", errors="ignore") or chr(b) for b in raw)
