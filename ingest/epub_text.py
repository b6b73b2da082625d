"""A rule text saved as an EPUB e-book (``.epub``): its chapters' paragraphs, with the headings
their markup and their type show.

An EPUB is a zip archive of XHTML chapters that its package (``content.opf``, found through
``META-INF/container.xml``) lists in reading order (its spine), with the style sheets that
set their type. :func:`epub_text` reads the chapters in that order and writes their
paragraphs as Markdown through :func:`ingest.document_text.markdown_of`, as
:mod:`ingest.docx_text` does for a Word document:

* ``<h1>`` … ``<h6>`` are headings at their levels;
* a book whose maker set its headings by type alone (LibreOffice's export, a converter's: a
  ``<p class="para2">`` whose style sheet sets 14 points in bold) is cut by its type: a short
  paragraph set larger than the text's is a heading, each size a level, and one in bold from
  end to end a level below (the classes' ``font-size`` and ``font-weight`` of its style
  sheets, in points, pixels, ems or percents of the text's, and ``<b>``, ``<strong>``);
* a list's item opens with "•" or its number; a table's row is one line, its rows one block;
  a line break is a line;
* the book's navigation (``<nav>``: its contents), scripts, styles and pictures are not read;
  notes are read where the book sets them.

A file that is no EPUB is an error with a Russian message (:class:`EpubError`): no zip
archive, no package, a chapter whose XHTML does not parse, a book locked by DRM
(``META-INF/encryption.xml`` naming its chapters).
"""

from __future__ import annotations

import html.entities
import io
import math
import posixpath
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from xml.etree import ElementTree

from ingest.document_text import (
    MAX_XML,
    Paragraph,
    Reading,
    markdown_of,
    not_too_deep,
    typeset,
    unread_encoding,
)
from kb.damage import damage
from kb.xml_problems import parse_error

SUFFIX = ".epub"
_XHTML = "{http://www.w3.org/1999/xhtml}"
_OPF = "{http://www.idpf.org/2007/opf}"
_CONTAINER = "{urn:oasis:names:tc:opendocument:xmlns:container}"
_BLOCKS = frozenset({"p", "div", "li", "dt", "dd", "blockquote", "pre", "figcaption", "caption",
                     "section", "article", "aside", "header", "footer", "main", "body", "td",
                     "th", "address", "center"})
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_SKIPPED = frozenset({"script", "style", "nav", "head", "img", "svg", "math", "object",
                      "video", "audio", "iframe", "template"})
_BOLD_TAGS = frozenset({"b", "strong"})
_BASE_SIZE = 12.0  # points: the size ems and percents are of where no size is set
_KEYWORD_SIZES = {"xx-small": 7.0, "x-small": 7.5, "small": 10.0, "medium": 12.0,
                  "large": 13.5, "x-large": 18.0, "xx-large": 24.0, "smaller": 10.0,
                  "larger": 14.0}
_BODY = re.compile(r"\{([^{}]*)\}")
_CLASS = re.compile(r"(?:^|[\s>+~])(?:[a-zA-Z][\w-]*)?\.([\w-]+)\s*$")
_SIZE = re.compile(r"font-size\s*:\s*([\d.]+)\s*(pt|px|em|rem|%)?|font-size\s*:\s*([a-z-]+)")
_WEIGHT = re.compile(r"font-weight\s*:\s*(bold(?:er)?|[6-9]00|normal|lighter|[1-5]00)")
_ENTITY = re.compile(r"&([A-Za-z][A-Za-z0-9]*);")
_XML_ENTITIES = frozenset({"amp", "lt", "gt", "quot", "apos"})


class EpubError(ValueError):
    """A file that is no readable EPUB; the message is in Russian."""


EpubReading = Reading
"""How an EPUB was read (:class:`ingest.document_text.Reading`)."""


@dataclass(frozen=True)
class _Look:
    """What a class's style sets: a size (points; 0: none; negative: a factor of the
    parent's, "1.2em" -1.2) and bold (None: nothing)."""

    size: float = 0.0
    bold: bool | None = None


def epub_text(data: bytes) -> str:
    """The text of an EPUB, as Markdown marking its headings (the module's docstring).

    Raises:
        EpubError: the file is no EPUB, or one this reader cannot open.
    """
    return read_epub(data).text


def read_epub(data: bytes) -> EpubReading:
    """:func:`epub_text`, and how its headings were told (:class:`EpubReading`)."""
    with not_too_deep("книга EPUB", EpubError):
        return _read_epub(data)


def _read_epub(data: bytes) -> EpubReading:
    archive = _archive(data)
    chapters, sheets = _package(archive)
    looks: dict[str, _Look] = {}
    for sheet in sheets:
        looks.update(_styles(_member(archive, sheet).decode("utf-8", errors="replace")))
    reader = _Reader(looks)
    for chapter in chapters:
        reader.chapter(_xhtml(_member(archive, chapter), chapter))
    if not any(p.text.strip() for p in reader.out):
        raise EpubError("в книге EPUB нет текста")
    written = markdown_of(reader.out)
    return EpubReading(written.text, (
        f"глав {len(chapters)}; абзацев {written.paragraphs}; заголовков разметки (h1–h6) "
        f"{written.headings}; набранных крупнее текста: {written.sized}; полужирных абзацев, "
        f"прочитанных как заголовки уровня {written.below}: {written.bold}; оглавление книги "
        "и картинки не читаются"))


def _archive(data: bytes) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as exc:
        raise EpubError("не книга EPUB (.epub): файл не является zip-архивом") from exc
    except Exception as exc:  # noqa: BLE001 (a damaged archive fails anywhere in zipfile)
        raise EpubError(f"книга EPUB повреждена и не читается ({damage(exc)})") from exc


def _member(archive: zipfile.ZipFile, name: str) -> bytes:
    try:
        with archive.open(name) as stream:
            content = stream.read(MAX_XML + 1)
    except KeyError as exc:
        raise EpubError(f"в книге EPUB нет файла {name}, который она называет") from exc
    except Exception as exc:  # noqa: BLE001 (a cut or overwritten member)
        raise EpubError(f"книга EPUB повреждена и не читается ({damage(exc)})") from exc
    if len(content) > MAX_XML:
        raise EpubError(f"книга EPUB слишком велика ({name} больше {MAX_XML // 1_000_000} МБ)")
    return content


def _xml(data: bytes, name: str) -> ElementTree.Element:
    try:
        return ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        raise EpubError(f"книга EPUB повреждена: XML файла {name} не читается "
                        f"({parse_error(exc)})") from exc
    except (LookupError, ValueError) as exc:  # (an encoding the parser cannot read)
        raise EpubError(f"книга EPUB не читается: файл {name}: {unread_encoding(data)}"
                        ) from exc


def _package(archive: zipfile.ZipFile) -> tuple[list[str], list[str]]:
    """The chapters in reading order and the style sheets, as names in the archive."""
    names = set(archive.namelist())
    if "META-INF/container.xml" not in names:
        raise EpubError("не книга EPUB: в архиве нет META-INF/container.xml")
    container = _xml(_member(archive, "META-INF/container.xml"), "META-INF/container.xml")
    root = container.find(f".//{_CONTAINER}rootfile")
    path = root.get("full-path", "") if root is not None else ""
    if not path:
        raise EpubError("не книга EPUB: container.xml не называет пакет книги (content.opf)")
    opf = _xml(_member(archive, path), path)
    base = posixpath.dirname(path)
    items = {}
    sheets = []
    for item in opf.iter(f"{_OPF}item"):
        href = posixpath.normpath(posixpath.join(base, _unquote(item.get("href", ""))))
        items[item.get("id", "")] = (href, item.get("media-type", ""), item.get("properties", ""))
        if item.get("media-type") == "text/css":
            sheets.append(href)
    chapters: list[str] = []
    chapters_seen: set[str] = set()
    for ref in opf.iter(f"{_OPF}itemref"):
        href, media, properties = items.get(ref.get("idref", ""), ("", "", ""))
        if href and media in ("application/xhtml+xml", "text/html") and "nav" not in properties \
                and href not in chapters_seen:  # (a chapter the spine lists again is read
            # once: a spine of one chapter 5,000 times made a book 5,000 times its size)
            chapters.append(href)
            chapters_seen.add(href)
    if "META-INF/encryption.xml" in names:  # (a book's fonts obfuscated are no DRM; its
        # chapters encrypted are)
        encryption = _xml(_member(archive, "META-INF/encryption.xml"), "META-INF/encryption.xml")
        locked = {_unquote(e.get("URI", "")) for e in encryption.iter()
                  if e.tag.rsplit("}", 1)[-1] == "CipherReference"}
        if locked & set(chapters):
            raise EpubError("книга EPUB защищена (DRM): её главы зашифрованы")
    return chapters, sorted(sheets)


def _unquote(href: str) -> str:
    from urllib.parse import unquote

    return unquote(href.split("#", 1)[0])


def _xhtml(data: bytes, name: str) -> ElementTree.Element:
    """A chapter parsed; HTML's named character references ("&nbsp;", which XML does not
    know) read as their characters."""
    wide = data.startswith((b"\xff\xfe", b"\xfe\xff"))  # (EPUB allows UTF-16 too)
    text = data.decode("utf-16" if wide else "utf-8", errors="replace")
    text = _ENTITY.sub(lambda m: m.group() if m.group(1) in _XML_ENTITIES else
                       f"&#{html.entities.name2codepoint[m.group(1)]};"
                       if m.group(1) in html.entities.name2codepoint else m.group(), text)
    text = re.sub(r"^\s*<\?xml[^>]*\?>", "", text)
    return _xml(text.encode("utf-8"), name)


def _styles(css: str) -> dict[str, _Look]:
    """Class → what the style sheet sets of its type (simple class selectors only)."""
    out: dict[str, _Look] = {}
    for selectors, body in _rules(_uncommented(css)):
        size = 0.0
        if m := _SIZE.search(body):
            if m.group(3):
                size = _KEYWORD_SIZES.get(m.group(3), 0.0)
            else:
                value, unit = _number(m.group(1)), m.group(2) or "px"
                size = {"pt": value, "px": value * 0.75, "em": -value, "rem": -value,
                        "%": -value / 100}[unit]
        bold = None
        if m := _WEIGHT.search(body):
            bold = m.group(1) in ("bold", "bolder") or m.group(1)[0] in "6789"
        if not size and bold is None:
            continue
        for selector in selectors.split(","):
            if c := _CLASS.search(selector.strip()):
                old = out.get(c.group(1), _Look())
                out[c.group(1)] = _Look(size or old.size,
                                        bold if bold is not None else old.bold)
    return out


def _uncommented(css: str) -> str:
    """A style sheet without its comments ("/* … */"), each ending at the first "*/" after it;
    one that never ends is left as it stands. (A pattern "/\\*.*?\\*/" looked for the end from
    every "/*" again: a sheet of unclosed comments cost the square of its length.)"""
    out, pos = [], 0
    while (start := css.find("/*", pos)) >= 0:
        end = css.find("*/", start + 2)
        if end < 0:
            break
        out.append(css[pos:start])
        pos = end + 2
    out.append(css[pos:])
    return "".join(out)


def _rules(css: str) -> Iterator[tuple[str, str]]:
    """Each rule of a style sheet: its selectors (what stands between the brace before it and
    its "{") and its body (between its braces, none inside), for each "{" once. (A pattern
    "([^{}]+)\\{" tried from every character read the selectors again from each: a sheet with
    no brace, 2 MB of letters, took minutes.)

    >>> list(_rules("p.a, .b { font-size: 14pt } @media x { .c{font-weight:bold} }"))
    [('p.a, .b ', ' font-size: 14pt '), (' .c', 'font-weight:bold')]
    """
    for m in _BODY.finditer(css):
        start = max(css.rfind("{", 0, m.start()), css.rfind("}", 0, m.start())) + 1
        if start < m.start():
            yield css[start:m.start()], m.group(1)


def _number(text: str) -> float:
    """A size's number as CSS writes it ("14", "1.2", ".5"); 0 (no size) for one that is no
    number ("1.2.3") or none a page could set (too many digits for a float: infinite)."""
    try:
        value = float(text)
    except ValueError:
        return 0.0
    return value if math.isfinite(value) else 0.0


class _Reader:
    """The paragraphs of the book's chapters, in order."""

    def __init__(self, looks: dict[str, _Look]) -> None:
        self.looks = looks
        self.out: list[Paragraph] = []
        self.runs: list[tuple[str, bool, float]] = []
        self.level: int | None = None
        self.item = ""

    def chapter(self, root: ElementTree.Element) -> None:
        body = root.find(f"{_XHTML}body")
        if body is None:
            body = next((e for e in root.iter() if _tag(e) == "body"), None)
        if body is not None:
            self.block(body, _BASE_SIZE, False, [])
            self.end()

    def end(self) -> None:
        """The paragraph read so far ends."""
        text = "".join(t for t, _, _ in self.runs)
        if text.strip():
            letters: dict[tuple[bool, float], int] = {}
            for words, bold, size in self.runs:
                key = (bold, size)
                letters[key] = letters.get(key, 0) + sum(map(str.isalnum, words))
            bold_all, size = typeset(letters)
            text = "\n".join(" ".join(line.split()) for line in text.split("\n"))
            self.out.append(Paragraph(text.strip("\n"), self.level, bold_all, self.item, size))
        self.runs, self.level, self.item = [], None, ""

    def look(self, element: ElementTree.Element, size: float, bold: bool) -> tuple[float, bool]:
        """The size and bold of an element's text, from its tag, its classes and its style."""
        if _tag(element) in _BOLD_TAGS:
            bold = True
        for name in element.get("class", "").split():
            look = self.looks.get(name)
            if look is None:
                continue
            if look.size:
                size = look.size if look.size > 0 else size * -look.size
            if look.bold is not None:
                bold = look.bold
        if style := element.get("style"):
            inline = _styles(f".x{{{style}}}").get("x")
            if inline is not None:
                size = (inline.size if inline.size > 0 else size * -inline.size) \
                    if inline.size else size
                bold = inline.bold if inline.bold is not None else bold
        return size, bold

    def block(self, element: ElementTree.Element, size: float, bold: bool,
              lists: list[list[int]]) -> None:
        tag = _tag(element)
        if tag in _SKIPPED:
            return
        size, bold = self.look(element, size, bold)
        opens = tag in _BLOCKS or tag in _HEADINGS or tag in ("tr", "table", "ul", "ol")
        if opens:
            self.end()
            if tag in _HEADINGS:
                self.level = _HEADINGS[tag]
            elif tag == "li":
                if lists and lists[-1]:
                    lists[-1][0] += 1
                    self.item = f"{lists[-1][0]}. "
                else:
                    self.item = "• "
        if tag == "br":
            self.runs.append(("\n", bold, size))
        if element.text and tag not in ("table", "tr", "ul", "ol"):
            self.runs.append((element.text, bold, size))
        nested = [*lists, [0] if tag == "ol" else []] if tag in ("ol", "ul") else lists
        if tag == "table":
            rows = [" ".join(" ".join(_text(cell).split()) for cell in row
                             if _tag(cell) in ("td", "th"))
                    for row in element.iter() if _tag(row) == "tr"]
            self.runs.append(("\n".join(r for r in rows if r.strip()), bold, size))
            self.end()
        else:
            for child in element:
                self.block(child, size, bold, nested)
                if child.tail and not (opens and _tag(child) in _BLOCKS and not
                                       child.tail.strip()):
                    self.runs.append((child.tail, bold, size))
        if opens:
            self.end()


def _tag(element: ElementTree.Element) -> str:
    tag = element.tag
    return tag.rsplit("}", 1)[-1].lower() if isinstance(tag, str) else ""


def _text(element: ElementTree.Element) -> str:
    return "".join(element.itertext())
