"""A roster file's XML, read safely: the one ``.ros`` of a zipped ``.rosz`` (no further than
the size allowed), and its XML parsed with defusedxml's guards and one more.

A document that declares entities, reaches for external ones or declares default attribute
values (copied by expat into every element: a bomb without an entity) is refused
(«небезопасный XML: …»), never expanded; a syntax error or an encoding expat cannot read is
reported with its line and column. :mod:`validator.inputs.roster` reads the roster from the
tree.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from xml.etree import ElementTree
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException, EntitiesForbidden, ExternalReferenceForbidden
from defusedxml.ElementTree import DefusedXMLParser

from kb.damage import damage
from kb.xml_problems import xml_problem
from validator.inputs.errors import fail
from validator.inputs.models import ListInputError


def unzip(data: bytes, file: str, max_bytes: int) -> bytes:
    """The one ``.ros`` inside a ``.rosz``, read no further than ``max_bytes``."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = [i for i in archive.infolist() if not i.is_dir()]
            rosters = [i for i in members if i.filename.lower().endswith(".ros")]
            if len(members) == 1:
                rosters = members
            if len(rosters) != 1:
                raise fail(file, "в архиве .rosz должен быть ровно один файл .ros, найдено "
                           f"{len(rosters)}", "format")
            too_large = f"файл .ros в архиве слишком велик (предел {max_bytes} байт)"
            if rosters[0].file_size > max_bytes:
                raise fail(file, too_large, "too_large")
            with archive.open(rosters[0]) as stream:
                content = stream.read(max_bytes + 1)  # the declared size may lie
            if len(content) > max_bytes:
                raise fail(file, too_large, "too_large")
            return content
    except zipfile.BadZipFile as exc:
        if not zipfile.is_zipfile(io.BytesIO(data)):
            raise fail(file, "это не zip-архив .rosz", "format") from None
        raise fail(file, f"{damage(exc)}: файл .rosz не читается",
                   "format") from None
    except (RuntimeError, NotImplementedError, zlib.error, EOFError, OSError) as exc:
        raise fail(file, f"{damage(exc)}: файл .rosz не читается",
                   "format") from None


def parse_xml(data: bytes, file: str | None) -> Element:
    try:
        if b"\x00" not in data and b"<!DOCTYPE" not in data:
            # no document type declaration (in an ASCII-compatible encoding, the only ones
            # without NUL bytes expat reads): no entity, nothing defusedxml would refuse;
            # the C tree builder reads it several times faster
            root: Element = ElementTree.fromstring(data)
        else:
            root = _safe_tree(data)
    except AttributeDefaultsForbidden as exc:
        raise fail(file, f"небезопасный XML: объявлено значение по умолчанию атрибута "
                   f"«{exc.attribute}» элемента «{exc.element}»; такие объявления запрещены "
                   "(так строятся «бомбы» из копий одного значения)", "unsafe_xml",
                   line=exc.line, column=exc.column) from None
    except EntitiesForbidden as exc:
        if exc.sysid or exc.pubid:
            raise fail(file, f"небезопасный XML: сущность «{exc.name}» ссылается на внешний "
                       f"ресурс «{exc.sysid or exc.pubid}»; это запрещено", "unsafe_xml") from None
        raise fail(file, f"небезопасный XML: объявлена сущность «{exc.name}»; сущности "
                   "запрещены (так строятся «бомбы сущностей»)", "unsafe_xml") from None
    except ExternalReferenceForbidden as exc:
        raise fail(file, f"небезопасный XML: ссылка на внешний ресурс «{exc.sysid}» "
                   "запрещена", "unsafe_xml") from None
    except DefusedXmlException as exc:
        raise fail(file, f"небезопасный XML: {exc}", "unsafe_xml") from None
    except ParseError as exc:
        line, column = exc.position
        text = re.sub(r": line \d+, column \d+$", "", str(exc))
        problem = xml_problem(text)
        raise fail(file, f"ошибка синтаксиса XML: {problem}", "syntax", line=line,
                   column=column + 1) from None
    except (LookupError, ValueError):
        # expat asks Python for an encoding it does not know itself: an unknown name, a
        # multi-byte one it cannot use (UTF-7, Shift JIS), a codec that is no text encoding
        raise _encoding_error(data, file) from None
    return root


class AttributeDefaultsForbidden(DefusedXmlException):
    """A document type declaration gives an attribute a default value."""

    def __init__(self, element: str, attribute: str, line: int, column: int) -> None:
        super().__init__(element, attribute)
        self.element = element
        self.attribute = attribute
        self.line = line
        self.column = column


class _RosterParser(DefusedXMLParser):
    """defusedxml's parser (no entities, no external references) that also refuses the
    default values of attributes a document type declares: expat copies such a value into
    every element of its type, so a declaration of a megabyte over a hundred thousand
    elements builds a hundred gigabytes from a file of one. BattleScribe declares none."""

    def __init__(self) -> None:
        super().__init__(target=ElementTree.TreeBuilder(), forbid_dtd=False,
                         forbid_entities=True, forbid_external=True)
        self.parser.AttlistDeclHandler = self._attribute_declared

    def _attribute_declared(self, element: str, attribute: str, kind: str | None,
                            default: str | None, required: bool) -> None:
        if default is not None:
            raise AttributeDefaultsForbidden(element, attribute, self.parser.CurrentLineNumber,
                                             self.parser.CurrentColumnNumber + 1)


def _safe_tree(data: bytes) -> Element:
    parser = _RosterParser()
    parser.feed(data)
    root: Element = parser.close()
    return root


_DECLARED_ENCODING = re.compile(rb"""^\s*<\?xml[^>]*?encoding\s*=\s*["']([^"']{0,60})""")


def _encoding_error(data: bytes, file: str | None) -> ListInputError:
    """The error for a roster whose XML declaration names an encoding that cannot be read."""
    declared = _DECLARED_ENCODING.match(data.removeprefix(b"\xef\xbb\xbf"))
    name = declared.group(1).decode("ascii", "replace") if declared else ""
    what = f"кодировка «{name}» из объявления <?xml …?> не читается" if name else \
        "кодировка файла не читается"
    return fail(file, f"ошибка синтаксиса XML: {what}; ожидалась UTF-8 (так сохраняет "
                "BattleScribe) или UTF-16", "syntax", line=1, column=1)
