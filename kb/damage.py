"""What a reader says of a damaged file: the parser's failure told in Russian words.

A damaged archive, PDF or Word file makes its parser fail anywhere, with an exception whose
class name tells a user nothing ("KeyError", "PSSyntaxError"). :func:`damage` gives the
phrase a reader's message puts instead: what is wrong with the file, as far as the exception
shows it. The readers of rule texts (``ingest``) and of BattleScribe's ``.rosz`` archives
(``validator``) share it.

Example::

    raise EpubError(f"книга EPUB повреждена и не читается ({damage(exc)})") from exc
"""

from __future__ import annotations

import struct
import zipfile
import zlib

_BY_NAME: dict[str, str] = {
    # pdfminer.six's own exceptions, by name (pdfminer is imported only when a PDF is read)
    "PSEOF": "файл обрезан",
    "PSSyntaxError": "нарушен синтаксис PDF",
    "PDFSyntaxError": "нарушен синтаксис PDF",
    "PDFNoValidXRef": "нет таблицы объектов PDF",
    "PDFNotImplementedError": "в нём средство PDF, которое читатель не поддерживает",
    "PDFTypeError": "объект PDF не того типа, что ожидался",
    "PDFValueError": "неверное значение в объекте PDF",
    "PDFObjectNotFound": "в нём нет объекта, на который он ссылается",
    "PDFNoOutlines": "оглавление PDF не читается",
    "PSTypeError": "нарушен синтаксис PDF",
    "PSValueError": "нарушен синтаксис PDF",
}


def damage(exc: BaseException) -> str:
    """What ``exc``, raised by a parser reading a file, says of the file, in Russian.

    >>> damage(zlib.error("Error -3 while decompressing data"))
    'сжатые данные испорчены'
    >>> damage(KeyError("Root"))
    'в нём нет части, на которую он ссылается'
    """
    named = _BY_NAME.get(type(exc).__name__)
    if named:
        return named
    if isinstance(exc, zipfile.BadZipFile):
        return ("не сходится контрольная сумма сжатых данных" if "CRC" in str(exc)
                else "архив обрезан или испорчен")
    if "password" in str(exc) or "encrypted" in str(exc):  # (zipfile's RuntimeError)
        return "архив зашифрован: нужен пароль"
    if isinstance(exc, zlib.error) or str(exc) == "Invalid data stream":  # (lzma's OSError)
        return "сжатые данные испорчены"
    if isinstance(exc, NotImplementedError):
        return "сжат или закодирован способом, который читатель не поддерживает"
    if isinstance(exc, EOFError | struct.error):
        return "файл обрезан или его структура испорчена"
    if isinstance(exc, UnicodeError):
        return "имя или текст внутри файла не в известной кодировке"
    if isinstance(exc, KeyError):
        return "в нём нет части, на которую он ссылается"
    if isinstance(exc, IndexError | OverflowError):
        return "число или ссылка внутри файла указывает за его пределы"
    if isinstance(exc, MemoryError):
        return "его структура требует больше памяти, чем есть"
    return "его внутренняя структура нарушена"
