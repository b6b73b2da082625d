"""A web page saved as one file: MHTML (RFC 2557), Chrome's "Webpage, Single File" (``.mhtml``)
and Internet Explorer's and Edge's "Web Archive" (``.mht``).

The file is a MIME message: the page's HTML in one part (quoted-printable or base64), its
pictures and styles in the others. :func:`web_archive_page` takes the page's part out of it by
the standard library's :mod:`email`, with the charset the part or the page's ``<meta>`` names
(Chrome names it in the page only); the text the pipeline reads, and every offset into it, is
that page decoded (as a cp1251 file's are of its decoded text), which :mod:`ingest.clean_html`
then reads by its markup.
"""

from __future__ import annotations

import codecs
import re
from email import message_from_bytes, policy
from email.message import EmailMessage

SUFFIXES = (".mht", ".mhtml")
_META_CHARSET = re.compile(rb"""<meta[^>]{0,200}?charset\s*=\s*["']?([A-Za-z0-9_.:-]{1,40})""",
                           re.IGNORECASE)


class WebArchiveError(ValueError):
    """A file named as a web archive that holds no page; the message is in Russian."""


def web_archive_page(data: bytes) -> tuple[bytes, str | None]:
    """The HTML page of an MHTML file, as bytes, and the charset its part or its ``<meta>``
    names (``None`` when neither does: the caller tells UTF-8 from cp1251).

    Raises:
        WebArchiveError: no MIME message of a page, or none of its parts is a page.
    """
    message = message_from_bytes(data, policy=policy.default)
    if not isinstance(message, EmailMessage) or not message.get_content_type().startswith(
            ("multipart/", "text/html")):
        raise WebArchiveError("не веб-архив MHTML: нет заголовка Content-Type: multipart/related")
    for part in message.walk():
        if part.get_content_type() == "text/html":
            payload = part.get_payload(decode=True)
            page = payload if isinstance(payload, bytes) else b""
            charset = part.get_content_charset()
            if charset is not None:
                try:
                    codecs.lookup(charset)
                except LookupError:
                    charset = None
            return page, charset or declared_charset(page)
    raise WebArchiveError("в веб-архиве MHTML нет страницы HTML (части text/html)")


def declared_charset(page: bytes) -> str | None:
    """The charset a page's ``<meta>`` declares in its first 4 KB ("windows-1251", "koi8-r"),
    when Python knows it; None when it declares none (the HTML standard's prescan, which a
    browser runs on a file of no other word on its encoding).

    >>> declared_charset(b'<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">')
    'koi8-r'
    """
    m = _META_CHARSET.search(page, 0, 4096)
    if m is None:
        return None
    charset = m.group(1).decode("ascii").lower()
    try:
        codecs.lookup(charset)
    except LookupError:
        return None
    return charset
