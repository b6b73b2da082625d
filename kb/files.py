"""Files written whole or not at all, OS errors said in Russian, and the encodings of the
texts users bring (a byte order mark's, a one-byte Russian encoding's).

A file that :func:`atomic_writer` writes appears under its name only once it is complete: the
text goes to a temporary file in the same folder, which is flushed to disk and then renamed
over the target (a rename within one file system is atomic). A crash, Ctrl-C or a second
process writing the same file at the same time never leaves a half-written file under the
name; the reader sees the old file or the new one.

Example::

    with atomic_writer("kb.json") as out:
        out.write(text)

:func:`os_reason` says what went wrong with a file in Russian (the OS's own words are English
or depend on the locale). :func:`wide_encoding` tells a UTF-16 or UTF-32 text by its byte
order mark, for the readers of rule texts and of lists.
"""

from __future__ import annotations

import codecs
import errno
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

_REASONS: dict[int, str] = {
    errno.ENOENT: "нет такого файла или папки",
    errno.EACCES: "нет прав доступа",
    errno.EPERM: "операция не разрешена",
    errno.EISDIR: "это папка, а не файл",
    errno.ENOTDIR: "часть пути — не папка",
    errno.EEXIST: "файл уже существует",
    errno.ENOSPC: "на диске нет места",
    errno.EROFS: "файловая система только для чтения",
    errno.ENAMETOOLONG: "слишком длинное имя файла",
    errno.ELOOP: "слишком много символических ссылок (ссылка на саму себя?)",
    errno.EMFILE: "открыто слишком много файлов",
    errno.ENFILE: "в системе открыто слишком много файлов",
    errno.EIO: "ошибка ввода-вывода устройства",
    errno.EFBIG: "файл слишком велик",
    errno.EBUSY: "файл или устройство заняты",
    errno.EXDEV: "переименование между разными файловыми системами",
    errno.ENOTEMPTY: "папка не пуста",
    errno.EINVAL: "недопустимый аргумент (неподходящее имя или тип файла?)",
    errno.EPIPE: "канал закрыт читающей стороной",
    errno.ENXIO: "нет такого устройства",
    errno.ETXTBSY: "файл занят",
    errno.EAGAIN: "ресурс временно недоступен",
}
if hasattr(errno, "EDQUOT"):
    _REASONS[errno.EDQUOT] = "превышена дисковая квота"


def os_reason(exc: OSError) -> str:
    """What an OS error means, in Russian, without the path (the caller names the file).

    >>> os_reason(IsADirectoryError(21, "Is a directory"))
    'это папка, а не файл'
    """
    if exc.errno in _REASONS:
        return _REASONS[exc.errno]
    code = errno.errorcode.get(exc.errno or 0)
    return f"ошибка операционной системы {code}" if code else "ошибка операционной системы"


@contextmanager
def atomic_writer(path: str | os.PathLike[str]) -> Iterator[TextIO]:
    """A text stream (UTF-8, ``\\n`` line ends) whose content replaces ``path`` on success.

    The temporary file (``.NAME.XXXXXXXX.tmp`` beside the target) is created at once, so
    a folder that is missing or not writable fails before any work is done; it takes the
    permissions a new file gets (the umask), or those of the file it replaces. On any
    exception, Ctrl-C included, it is removed and ``path`` stays as it was. A symbolic link
    at ``path`` is followed: the file it points to is replaced.

    Raises:
        OSError: the temporary file cannot be created, written or renamed.
    """
    target = Path(path)
    if target.is_symlink():
        target = target.resolve()
    if target.is_dir():
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    tmp = target.with_name(f".{target.name}.{os.urandom(4).hex()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        try:
            os.fchmod(fd, os.stat(target).st_mode & 0o7777)
        except OSError:
            pass  # a new file: the umask already applies
        with open(fd, "w", encoding="utf-8", newline="\n") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass  # already renamed or never created
        raise


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` all at once (see :func:`atomic_writer`)."""
    with atomic_writer(path) as out:
        out.write(text)


ONE_BYTE_RUSSIAN = ("cp1251", "koi8-r", "cp866")
"""One-byte Russian encodings: Windows', old Unix and mail texts', DOS's; the likeliest first."""
_FREQUENT = frozenset("оеаинтсрвлОЕАИНТСРВЛ")
MIN_RUSSIAN_SCORE = 0.3
"""Share of a reading's characters beyond ASCII that must be Russian's ten most frequent
letters for a reading other than cp1251 to be believed (about 0.5 in Russian prose, 0.3 in
a wrong reading)."""
MIN_RUSSIAN_LETTERS = 20
"""Of them, how many a reading other than cp1251 must hold: a line or two is too little to
tell, and stays cp1251."""
RUSSIAN_LEAD = 0.1
"""How far the share of another reading must exceed cp1251's to be believed instead."""
_SCORED = 100_000
"""Characters of a reading its score is counted over (a long file's opening tells)."""


def one_byte_russian(data: bytes) -> tuple[str, str] | None:
    """``data`` read in the one-byte Russian encoding it reads as Russian in, and that
    encoding: cp1251, or KOI8-R or CP866 when the text reads as Russian in it (its letters
    mostly Russian's most frequent) better than in cp1251; None when no such
    encoding reads the bytes at all.

    Each reads any bytes as Cyrillic letters, so a reading is judged by its letters: a KOI8-R
    text read as cp1251 has its cases swapped, a CP866 text its lower case split between signs
    and other letters. Whether the reading is Russian at all is the caller's to judge.

    >>> text = "Подразделение, проваливший тест на Панику, бежит от ближайшего врага."
    >>> one_byte_russian(text.encode("koi8-r")) == (text, "koi8-r")
    True
    >>> one_byte_russian(text.encode("cp1251"))[1], one_byte_russian("Па".encode("koi8-r"))[1]
    ('cp1251', 'cp1251')
    """
    readings = []
    for encoding in ONE_BYTE_RUSSIAN:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        readings.append((russian_score(text[:_SCORED]), text, encoding))
    if not readings:
        return None
    usual = next((r for r in readings if r[2] == "cp1251"), None)
    other = max((r for r in readings if r[2] != "cp1251" and r[0][0] >= MIN_RUSSIAN_SCORE
                 and r[0][1] >= MIN_RUSSIAN_LETTERS
                 and (usual is None or r[0][0] > usual[0][0] + RUSSIAN_LEAD)),
                key=lambda r: r[0], default=None)
    chosen = other or usual
    return (chosen[1], chosen[2]) if chosen is not None else None


def russian_score(text: str) -> tuple[float, int]:
    """The share of the characters of ``text`` beyond ASCII that are Russian's ten most
    frequent letters ("о", "е", "а", "и", "н", "т", "с", "р", "в", "л", in either case; 0 for
    none), and how many those letters are. A wrong reading puts other letters in their place
    (KOI8-R's and cp1251's letters stand in another order), or signs (a KOI8-R text read as
    CP866 keeps only its capitals as letters, the rest box-drawing signs)."""
    beyond = [ch for ch in text if ord(ch) > 127]
    if not beyond:
        return 0.0, 0
    frequent = sum(1 for ch in beyond if ch in _FREQUENT)
    return frequent / len(beyond), frequent


_WIDE_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
              (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))


def wide_encoding(data: bytes) -> tuple[str, int] | None:
    r"""The encoding of bytes that open with a UTF-32 or UTF-16 byte order mark (what Windows
    Notepad saves as "Unicode") and the mark's length, or None.

    >>> wide_encoding("\ufeffПаника".encode("utf-16-le")), wide_encoding(b"\xef\xbb\xbfa")
    (('utf-16-le', 2), None)
    """
    for bom, encoding in _WIDE_BOMS:  # (UTF-32's little-endian mark opens with UTF-16's)
        if data.startswith(bom):
            return encoding, len(bom)
    return None
