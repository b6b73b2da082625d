"""Input files: which files are lists, reading their bytes, and decoding their text.

A list is UTF-8 (with or without a BOM) or in a one-byte Russian encoding, like the rule
texts: a Russian player's editor on Windows saves cp1251 (and Notepad's "Unicode" UTF-16 with
its byte order mark, read as well), an old Unix or DOS one KOI8-R or CP866
(:func:`kb.files.one_byte_russian`). Such a reading is believed only when the bytes are not
UTF-8 and what is not ASCII reads as Russian (letters and the punctuation Russian text uses),
so a binary file or a text in some other code page (a Latin-1 "Café" would read "Cafй": a
word mixing Latin and Cyrillic letters) is refused with the byte where it fails.

Example::

    text = decode(read_bytes(Path("army.yaml")), "army.yaml")
    files = list_files(Path("tournament/"))
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

from kb.files import one_byte_russian, os_reason, wide_encoding
from validator.inputs.errors import fail
from validator.inputs.models import DEFAULT_MAX_BYTES

LIST_SUFFIXES = (".yaml", ".yml", ".json")
ROSTER_SUFFIXES = (".ros", ".rosz")
ALL_SUFFIXES = LIST_SUFFIXES + ROSTER_SUFFIXES
ENCODINGS = "UTF-8 (с BOM или без), cp1251, KOI8-R, CP866 или UTF-16/UTF-32 с BOM"

# What a cp1251 reading of Russian text holds beyond ASCII: letters, «» „“ — – № and the like.
_RUSSIAN = re.compile("[А-Яа-яЁё«»„“”‘’—–…№\u00a0·•°±§]")
_CONTROL = re.compile("\x00")
"""What no text holds: a file with a NUL byte is binary (or UTF-16 without its BOM); other
control characters are the parser's to report, where they stand."""
# Latin-1 accents read as cp1251 become Cyrillic letters inside Latin words ("Café" → "Cafй")
_MIXED_WORD = re.compile("[A-Za-z][А-Яа-яЁё]|[А-Яа-яЁё][A-Za-z]")


def size_text(size: int) -> str:
    """A file size as a message writes it: «812 байт», «10,0 МБ»."""
    if size < 1024 * 1024:
        return f"{size} байт"
    return f"{size / (1024 * 1024):.1f} МБ".replace(".", ",")


def read_bytes(path: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """The bytes of an input file, refusing a missing, empty or too large one before reading.

    Raises:
        ListInputError: the file is missing, a folder, empty, or over ``max_bytes``.
    """
    file = str(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise fail(file, "файл не найден", "not_found") from None
    except OSError as exc:
        raise fail(file, f"не удалось прочитать файл ({os_reason(exc)})", "io") from None
    if path.is_dir():
        raise fail(file, "это папка, а не файл", "io")
    too_large = f"файл слишком велик: {{}}, предел {size_text(max_bytes)}"
    if size > max_bytes:
        raise fail(file, too_large.format(size_text(size)), "too_large")
    try:
        with path.open("rb") as stream:
            data = stream.read(max_bytes + 1)  # the file may have grown since stat()
    except OSError as exc:
        raise fail(file, f"не удалось прочитать файл ({os_reason(exc)})", "io") from None
    if len(data) > max_bytes:
        raise fail(file, too_large.format(f"больше {size_text(max_bytes)}"), "too_large")
    if not data.strip():
        raise fail(file, "файл пуст", "empty")
    return data


def _where(data: bytes, offset: int) -> dict[str, int]:
    line = data.count(b"\n", 0, offset) + 1
    return {"line": line, "column": offset - (data.rfind(b"\n", 0, offset) + 1) + 1}


def decode(data: bytes, file: str | None) -> str:
    """The text of a list file: UTF-16 or UTF-32 after its byte order mark, else UTF-8 (a
    BOM is dropped), else Russian in a one-byte encoding (cp1251, KOI8-R, CP866).

    Raises:
        ListInputError: binary bytes, or neither UTF-16/32 with its mark, UTF-8 nor Russian
            in a one-byte encoding; the error stands at the first byte (character) that fails.
    """
    if (wide := wide_encoding(data)) is not None:
        return _wide(data, wide[1], wide[0], file)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if data.startswith(codecs.BOM_UTF8):
            raise fail(file, f"файл начинается с метки UTF-8 (BOM), но байт "
                       f"0x{data[exc.start]:02x} не UTF-8", "encoding",
                       **_where(data, exc.start)) from None
        text = _russian(data, file, exc.start)
    control = _CONTROL.search(text)
    if control is not None:
        offset = len(text[:control.start()].encode("utf-8"))
        raise fail(file, f"двоичный файл, а не текст (байт 0x{ord(control.group()):02x}); "
                   f"ожидался текст в кодировке {ENCODINGS}",
                   "encoding", **_where(data, offset))
    return text


def _wide(data: bytes, bom: int, encoding: str, file: str | None) -> str:
    """A list's text after its UTF-16 or UTF-32 byte order mark (``bom`` bytes); an error
    stands at the character where the text fails."""
    name = encoding.removesuffix("-le").removesuffix("-be").upper()
    try:
        text = data[bom:].decode(encoding)
    except UnicodeDecodeError as exc:
        good = data[bom:bom + exc.start].decode(encoding)
        raise fail(file, f"файл начинается с метки {name} (BOM), но байт {bom + exc.start} не "
                   f"{name}", "encoding", **_where_text(good, len(good))) from None
    control = _CONTROL.search(text)
    if control is not None:
        raise fail(file, f"двоичный файл, а не текст (символ U+{ord(control.group()):04X}); "
                   f"ожидался текст в кодировке {ENCODINGS}",
                   "encoding", **_where_text(text, control.start()))
    return text


def _where_text(text: str, index: int) -> dict[str, int]:
    line = text.count("\n", 0, index) + 1
    return {"line": line, "column": index - (text.rfind("\n", 0, index) + 1) + 1}


def _russian(data: bytes, file: str | None, first_bad: int) -> str:
    """``data`` read in a one-byte Russian encoding (:func:`kb.files.one_byte_russian`:
    cp1251, KOI8-R, CP866) if what is not ASCII reads as Russian text, else an error."""
    refused = fail(file, f"файл не в кодировке UTF-8 (байт 0x{data[first_bad]:02x}) и не "
                   f"русский текст в cp1251, KOI8-R или CP866; ожидался текст в кодировке "
                   f"{ENCODINGS}", "encoding", **_where(data, first_bad))
    reading = one_byte_russian(data)
    if reading is None:
        raise refused
    text = reading[0]
    beyond = [c for c in text if ord(c) > 127]
    if not beyond or sum(1 for c in beyond if _RUSSIAN.match(c)) < len(beyond):
        raise refused
    if _MIXED_WORD.search(text):
        raise refused
    return text


def is_folder(path: Path) -> bool:
    """Whether ``path`` is a folder; False when the OS will not say (a name too long, a folder
    on the way that may not be entered): reading it as a file then says why, in its place,
    and the other inputs of the batch are still checked (``Path.is_dir`` raises then)."""
    try:
        return path.is_dir()
    except OSError:
        return False


def names_something(path: Path) -> bool:
    """Whether ``path`` names a file, folder or link (a broken one too); True when the OS
    will not say, so that reading it says why."""
    try:
        return path.exists() or path.is_symlink()
    except OSError:
        return True


def list_files(path: Path) -> list[Path]:
    """The list files of a folder (every level, sorted), or ``[path]`` for a file."""
    if not is_folder(path):
        return [path]
    return sorted(
        p for p in path.rglob("*")
        if p.is_file() and p.suffix.lower() in ALL_SUFFIXES and not p.name.startswith(".")
    )
