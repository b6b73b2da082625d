"""What a reader says of a damaged file (``kb/damage.py``): the parser's failure in Russian
words, never the exception's class name, and the same words for a real damaged archive."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib

import pytest

from ingest.fb2_text import Fb2Error, fb2_text
from kb.damage import damage


class PSSyntaxError(Exception):
    """Stands for pdfminer's exception of that name (told by its name)."""


@pytest.mark.parametrize(("exc", "said"), [
    (zipfile.BadZipFile("Bad CRC-32 for file 'book.fb2'"),
     "не сходится контрольная сумма сжатых данных"),
    (zipfile.BadZipFile("File is not a zip file"), "архив обрезан или испорчен"),
    (zlib.error("Error -3 while decompressing data: invalid stored block lengths"),
     "сжатые данные испорчены"),
    (RuntimeError("File 'OEBPS/content.opf' is encrypted, password required for extraction"),
     "архив зашифрован: нужен пароль"),
    (OSError("Invalid data stream"), "сжатые данные испорчены"),
    (NotImplementedError("That compression method is not supported"),
     "сжат или закодирован способом, который читатель не поддерживает"),
    (EOFError(), "файл обрезан или его структура испорчена"),
    (struct.error("unpack requires a buffer of 4 bytes"),
     "файл обрезан или его структура испорчена"),
    (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"),
     "имя или текст внутри файла не в известной кодировке"),
    (KeyError("Root"), "в нём нет части, на которую он ссылается"),
    (IndexError("list index out of range"),
     "число или ссылка внутри файла указывает за его пределы"),
    (PSSyntaxError("Invalid dictionary construct"), "нарушен синтаксис PDF"),
    (ValueError("anything"), "его внутренняя структура нарушена"),
    (RuntimeError(), "его внутренняя структура нарушена"),
])
def test_a_parser_failure_in_words(exc: BaseException, said: str) -> None:
    assert damage(exc) == said


def _zipped(name: str, content: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, content)
    return out.getvalue()


def test_a_zipped_book_whose_data_is_overwritten_says_so_in_words() -> None:
    data = bytearray(_zipped("book.fb2", b"<FictionBook>" + b"text " * 2000 + b"</FictionBook>"))
    start = data.index(b"book.fb2") + len(b"book.fb2") + 10  # inside the compressed data
    data[start:start + 40] = b"\xff" * 40
    with pytest.raises(Fb2Error) as error:
        fb2_text(bytes(data))
    message = str(error.value)
    assert message.startswith("архив FictionBook повреждён и не читается (")
    assert "Error" not in message and "zlib" not in message
