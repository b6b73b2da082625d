"""expat's messages said in Russian: one for each error code expat has.

Python's XML parser (expat) explains a document it cannot parse in English ("mismatched tag:
line 12, column 4"). The readers of rule texts (a Word, OpenDocument, FictionBook or EPUB
document's XML) and of BattleScribe rosters say it in Russian.

Example::

    try:
        ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        message = parse_error(exc)   # "закрывающий тег не совпадает с открывающим, строка 12, …"
"""

from __future__ import annotations

import re
from xml.etree.ElementTree import ParseError

_XML_PROBLEMS: dict[str, str] = {
    "not well-formed (invalid token)": "недопустимый символ",
    "syntax error": "синтаксическая ошибка",
    "no element found": "документ пуст или оборван",
    "unclosed token": "незакрытый тег или строка",
    "partial character": "оборванный многобайтовый символ",
    "mismatched tag": "закрывающий тег не совпадает с открывающим",
    "duplicate attribute": "атрибут повторён",
    "junk after document element": "лишний текст после корневого элемента",
    "illegal parameter entity reference": "недопустимая ссылка на параметрическую сущность",
    "undefined entity": "неизвестная сущность",
    "recursive entity reference": "сущность ссылается сама на себя",
    "asynchronous entity": "асинхронная сущность",
    "reference to invalid character number": "ссылка на недопустимый номер символа",
    "reference to binary entity": "ссылка на двоичную сущность",
    "reference to external entity in attribute": "ссылка на внешнюю сущность в атрибуте",
    "XML or text declaration not at start of entity": "объявление <?xml …?> не в начале файла",
    "unknown encoding": "неизвестная кодировка",
    "encoding specified in XML declaration is incorrect":
        "кодировка в объявлении <?xml …?> не совпадает с настоящей",
    "unclosed CDATA section": "незакрытая секция CDATA",
    "error in processing external entity reference": "ошибка во внешней сущности",
    "document is not standalone": "документ не самостоятельный (standalone)",
    "unexpected parser state - please send a bug report": "внутренняя ошибка разбора XML",
    "entity declared in parameter entity": "сущность объявлена в параметрической сущности",
    "unbound prefix": "префикс пространства имён не объявлен",
    "must not undeclare prefix": "префикс пространства имён нельзя отменять",
    "incomplete markup in parameter entity": "незаконченная разметка в параметрической сущности",
    "XML declaration not well-formed": "неверное объявление <?xml …?>",
    "text declaration not well-formed": "неверное текстовое объявление",
    "illegal character(s) in public id": "недопустимые символы в публичном идентификаторе",
    "reserved prefix (xml) must not be undeclared or bound to another namespace name":
        "зарезервированный префикс xml нельзя переопределять",
    "reserved prefix (xmlns) must not be declared or undeclared":
        "зарезервированный префикс xmlns нельзя объявлять",
    "prefix must not be bound to one of the reserved namespace names":
        "префикс нельзя привязать к зарезервированному пространству имён",
    "limit on input amplification factor (from DTD and entities) breached":
        "сущности раздувают документ сверх предела (так строятся «бомбы сущностей»)",
    "out of memory": "не хватило памяти",
}


def xml_problem(text: str) -> str:
    """The Russian of expat's message (without its «: line N, column M»).

    >>> xml_problem("mismatched tag")
    'закрывающий тег не совпадает с открывающим'
    """
    for english, russian in _XML_PROBLEMS.items():
        if text.startswith(english):
            return russian
    return f"сообщение expat: {text}"


_WHERE = re.compile(r": line \d+, column \d+$")


def parse_error(exc: ParseError) -> str:
    """An ``ElementTree.ParseError`` in Russian, with its line and column (counted from 1).

    >>> parse_error(ParseError("mismatched tag: line 3, column 4"))
    'закрывающий тег не совпадает с открывающим'
    """
    problem = xml_problem(_WHERE.sub("", str(exc)))
    position = getattr(exc, "position", None)
    if position is None:
        return problem
    line, column = position
    return f"{problem}, строка {line}, столбец {column + 1}"
