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

import re
from email import message_from_bytes, policy
from email.message import Message

SUFFIXES = (".mht", ".mhtml")
_META_CHARSET = re.compile(rb"""<meta[^>]{0,200}?charset\s*=\s*["']?([A-Za-z0-9_.:-]{1,40})""",
                           re.IGNORECASE)


class WebArchiveError(ValueError):
    """A file named as a web archive that holds no page; the message is in Russian."""


def web_archive_page(data: bytes) -> tuple[bytes, str | None]:
    """The HTML page of an MHTML file, as bytes, and the charset its part or its ``<meta>``
    names (``None`` when neither does: the caller tells UTF-8 from cp1251).

    Raises:
        WebArchiveError: no MIME message of a page, none of its parts is a page, or its parts
            nest thousands deep.
    """
    try:
        return _page_part(data)
    except RecursionError as exc:  # (the parser and its walk recurse once a nested part)
        raise WebArchiveError("веб-архив MHTML не читается: его части вложены друг в друга на "
                              "тысячи уровней (файл повреждён или составлен не браузером)"
                              ) from exc


def _page_part(data: bytes) -> tuple[bytes, str | None]:
    # (the old policy, compat32: the default one parses every header of every part through
    # its header registry, ten times slower, and an archive of 200,000 parts took minutes;
    # only the parts' types and charsets are read here, which both policies read alike)
    message = message_from_bytes(data, policy=policy.compat32)
    if not isinstance(message, Message) or not message.get_content_type().startswith(
            ("multipart/", "text/html")):
        raise WebArchiveError("не веб-архив MHTML: нет заголовка Content-Type: multipart/related")
    for part in message.walk():
        if part.get_content_type() == "text/html":
            payload = part.get_payload(decode=True)
            page = payload if isinstance(payload, bytes) else b""
            charset = part.get_content_charset()
            if charset is not None:
                charset = known_charset(charset)
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
    return known_charset(m.group(1).decode("ascii").lower())


def known_charset(name: str) -> str | None:
    """``name`` when Python decodes text in it, else None (as for no charset named): a name
    it does not know, or one of its codecs that is no text encoding ("hex", "rot13",
    "base64", "zlib": ``codecs.lookup`` finds them, and ``bytes.decode`` then refuses them
    with a LookupError) or that decodes nothing ("undefined").

    >>> known_charset("windows-1251"), known_charset("rot13"), known_charset("x-unknown")
    ('windows-1251', None, None)
    """
    try:
        b"a".decode(name, "replace")  # (b"" would not try the codec)
    except (LookupError, UnicodeError):
        return None
    return name
