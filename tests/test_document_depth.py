"""A document whose elements nest thousands deep (no word processor writes one: a damaged or a
crafted file) is refused by each reader with its own error, never Python's RecursionError:
a Word document's content controls, an OpenDocument's sections, a FictionBook's sections, an
EPUB chapter's divisions."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

import pytest
from test_docx import _W, _docx
from test_epub import book

from ingest.docx_text import DocxError, docx_text
from ingest.epub_text import EpubError, epub_text
from ingest.fb2_text import Fb2Error, fb2_text
from ingest.odt_text import OdtError, odt_text

DEEP = 5_000
MESSAGE = "элементы файла вложены друг в друга на тысячи уровней"


def _odt(content: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        z.writestr("content.xml", content)
    return out.getvalue()


_OFFICE = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
           'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"')
CASES: list[tuple[str, Callable[[bytes], str], type[ValueError], bytes]] = [
    ("docx", docx_text, DocxError, _docx((
        f"<w:document {_W}><w:body>" + "<w:sdt><w:sdtContent>" * DEEP
        + "<w:p><w:r><w:t>Паника</w:t></w:r></w:p>" + "</w:sdtContent></w:sdt>" * DEEP
        + "</w:body></w:document>").encode())),
    ("odt", odt_text, OdtError, _odt(
        f"<office:document-content {_OFFICE}><office:body><office:text>"
        + "<text:section>" * DEEP + "<text:p>Паника</text:p>" + "</text:section>" * DEEP
        + "</office:text></office:body></office:document-content>")),
    ("fb2", fb2_text, Fb2Error, (
        '<FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0"><body>'
        + "<section><title><p>Глава</p></title>" * DEEP + "<p>Паника</p>" + "</section>" * DEEP
        + "</body></FictionBook>").encode()),
    ("epub", epub_text, EpubError, book(**{"OEBPS__text__magic.xhtml": (
        '<html xmlns="http://www.w3.org/1999/xhtml"><body>' + "<div>" * DEEP
        + "<p>Паника</p>" + "</div>" * DEEP + "</body></html>").encode()})),
]


@pytest.mark.parametrize(("kind", "read", "error", "data"), CASES, ids=[c[0] for c in CASES])
def test_a_document_nested_thousands_deep_is_refused(
        kind: str, read: Callable[[bytes], str], error: type[ValueError], data: bytes) -> None:
    with pytest.raises(error, match=MESSAGE):
        read(data)
