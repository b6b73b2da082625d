"""Stage 1: read rule texts from files and tell which game system each one is about.

A text is UTF-8 (with or without a BOM), UTF-16 or UTF-32 after its byte order mark, or in
a one-byte Russian encoding (cp1251, KOI8-R, CP866); anything else is refused with a
:class:`LoadError` that names the file and says what was expected. The game system is
detected from the text's own words; a ``corpus.toml`` (or ``corpus.yaml``) beside the files
may state it instead, and the title of the book a file comes from::

    system = "wh40k6"              # default for every file of the folder
    title = "Warhammer 40,000, 6-я редакция — Книга правил"   # the folder's book (optional)

    [files."001_x.txt"]
    system = "whfb8"               # this file only
    title = "Warhammer Fantasy Battle, 8-я редакция — Книга правил"

Without a stated title, the text's own words may name its book
(:func:`ingest.text_identity.detect_title`).
"""

from __future__ import annotations

import codecs
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Literal

from ingest.clean_edits import LETTER_RE
from ingest.corpus_config import CorpusConfig, read_corpus_config, system_name
from ingest.detect import model as detect_model
from ingest.doc_text import OLE_SIGNATURE, DocError, read_doc
from ingest.doc_text import SUFFIX as DOC_SUFFIX
from ingest.document_text import Reading
from ingest.docx_text import SUFFIX as DOCX_SUFFIX
from ingest.docx_text import DocxError, read_docx
from ingest.epub_text import SUFFIX as EPUB_SUFFIX
from ingest.epub_text import EpubError, read_epub
from ingest.fb2_text import SUFFIXES as FB2_SUFFIXES
from ingest.fb2_text import ZIPPED as FB2_ZIPPED
from ingest.fb2_text import Fb2Error, read_fb2
from ingest.game_names import path_game
from ingest.html_page import is_html
from ingest.load_error import LoadError
from ingest.models import SourceText, SystemSource
from ingest.odt_text import SUFFIX as ODT_SUFFIX
from ingest.odt_text import OdtError, read_odt
from ingest.pdf_layout import PdfError
from ingest.pdf_text import SUFFIX as PDF_SUFFIX
from ingest.pdf_text import read_pdf
from ingest.pool import in_order
from ingest.rtf_text import SIGNATURE as RTF_SIGNATURE
from ingest.rtf_text import SUFFIX as RTF_SUFFIX
from ingest.rtf_text import RtfError, read_rtf
from ingest.text_identity import DETECT_FIRST, detect_or_describe, detect_title
from ingest.web_archive import SUFFIXES as ARCHIVE_SUFFIXES
from ingest.web_archive import WebArchiveError, declared_charset, web_archive_page
from kb.files import one_byte_russian, os_reason, wide_encoding

WORD_SUFFIXES = (DOCX_SUFFIX, DOC_SUFFIX, RTF_SUFFIX)
TEXT_SUFFIXES = (".txt", ".md", ".html", ".htm", *ARCHIVE_SUFFIXES, PDF_SUFFIX, *WORD_SUFFIXES,
                 ODT_SUFFIX, *FB2_SUFFIXES, EPUB_SUFFIX)
UNREAD_DOCUMENTS = {
    ".djvu": "скан в DjVu не читается: распознайте текст (OCR) и сохраните его как .txt",
    ".djv": "скан в DjVu не читается: распознайте текст (OCR) и сохраните его как .txt",
}
"""Documents of kinds a rulebook comes in that rulekb does not read, each with what to do: a
folder's such file is reported, not passed over in silence."""
EXPECTED = ("ожидался текст правил в кодировке UTF-8 (с BOM или без), cp1251, KOI8-R, CP866 "
            "или UTF-16/UTF-32 с BOM")
BINARY = "двоичный файл (много управляющих символов), а не текст"

# Share of control characters above which a decoded file counts as binary, not text.
_MAX_NONTEXT = 0.05
# Share of Cyrillic among the letters a one-byte reading must reach to be believed.
_MIN_CYRILLIC = 0.5

_NONTEXT_RE = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufffd]")
_CYRILLIC_RE = re.compile("[А-Яа-яЁё]")



def load(
    paths: Iterable[str | Path] | str | Path,
    *,
    system: str | None = None,
    on_error: Callable[[LoadError], None] | None = None,
    jobs: int | None = None,
    by_path: bool = True,
) -> list[SourceText]:
    """Read rule texts from files and folders.

    A folder gives all its ``*.txt``, ``*.md``, ``*.html``, ``*.mht``, ``*.pdf``, ``*.docx``,
    ``*.doc``, ``*.rtf``, ``*.odt``, ``*.fb2`` (``*.fb2.zip``) and ``*.epub`` files except
    ``README.md``, sorted by name, then those of the folders inside it (hidden ones and the
    folder a browser saves beside a page left out), each with its own ``corpus.toml``.

    Args:
        paths: Files and folders, in the order the texts should come.
        system: The game system of every file (``rulekb build --system``): stated, not
            detected, whatever ``corpus.toml`` says.
        on_error: Called with each path that cannot be read (a missing path, an empty folder,
            an empty or binary file, a repeated name); the other paths are still read. Without
            it the first such path raises.
        jobs: processes that detect the texts' systems side by side
            (:func:`ingest.pool.jobs_for`; None: one a core for large texts), and that read
            a long PDF's pages (:func:`ingest.pdf_text.read_pdf`).
        by_path: Whether a text whose words leave its system unclear takes the game of ours
            its path names (:func:`ingest.game_names.path_game`: the folder given and what is
            below it, or the file given and its folder: "Kill Team/charge.txt",
            "whfb8_cavalry.txt"). The measures of the detection go without it: the files of
            ``tests/data`` are named after their games.

    Returns:
        One :class:`SourceText` per file.

    Raises:
        LoadError: A path is missing, a folder holds no text files, two files share a name,
            or a file is empty, binary or in an unknown encoding (only without ``on_error``);
            ``system`` is not a known game system.

    Example:
        >>> [t.system for t in load(["/work/shared/corpus"])][:2]
        ['wh40k6', 'whfb8']
    """
    if isinstance(paths, str | Path):
        paths = [paths]
    stated = system_name(system, Path("--system"), None) if system is not None else None

    def fail(error: LoadError) -> None:
        if on_error is None:
            raise error
        on_error(error)

    configs: dict[Path, CorpusConfig | LoadError | None] = {}  # (a folder's description
    # read once: one that does not read is reported once, and each of its files skipped)
    texts: list[SourceText] = []
    seen: dict[str, str] = {}
    walked: dict[Path, set[str]] = {}  # a folder read whole → the names of its texts
    for raw in paths:
        path = Path(raw)
        try:
            files = _files_of(path)
        except LoadError as exc:
            fail(exc)
            continue
        if path.is_dir():
            for file in files:
                walked.setdefault(file.parent, set()).add(file.name)
        for file in files:
            try:
                folder = file.parent
                if folder not in configs:
                    try:
                        configs[folder] = read_corpus_config(folder)
                    except LoadError as exc:
                        configs[folder] = exc
                        fail(exc)
                config = configs[folder]
                if isinstance(config, LoadError):
                    raise LoadError(f"{file}: не прочитан: описание корпуса "
                                    f"{config.where_and_why()[0]} не читается")
                text = _load_file(file, config, stated, detect=False, jobs=jobs,
                                  named_path=_named_path(file, path))
                if text.name in seen:
                    raise LoadError(
                        f"{file}: файл с именем «{text.name}» уже прочитан из "
                        f"{seen[text.name]}; имена файлов корпуса должны различаться"
                    )
            except LoadError as exc:
                fail(exc)
                continue
            seen[text.name] = text.path
            texts.append(text)
    for folder, names in walked.items():
        config = configs.get(folder)
        if isinstance(config, CorpusConfig):
            for name in sorted({*config.files, *config.titles} - names):
                fail(LoadError(f"{folder / config.origin}: файл «{name}» из описания корпуса не "
                               f"найден среди текстов папки {folder} (*.txt, *.md, *.html, *.mht, "
                               "*.pdf, *.docx, *.doc, *.rtf, *.odt, *.fb2, *.epub); проверьте имя"))
    return _detected(texts, jobs, by_path)


def _named_path(file: Path, given: Path) -> str:
    """``file``'s path from the folder the user named: the folder given and what is below it,
    or the file given and its folder ("rules/killteam/charge.txt" given as "rules" →
    "rules/killteam/charge.txt"; "/home/me/kt/charge.txt" given as it is → "kt/charge.txt")."""
    file, given = Path(os.path.abspath(file)), Path(os.path.abspath(given))  # (a link's own
    # name, not its target's)
    base = given.parent if given.is_dir() else given.parent.parent
    return file.relative_to(base).as_posix() if file.is_relative_to(base) else file.name


def _detected(texts: list[SourceText], jobs: int | None, by_path: bool) -> list[SourceText]:
    """The texts, each whose system no one stated given the one its words show, or else (with
    ``by_path``) the one its path names."""
    todo = [i for i, t in enumerate(texts) if t.system_from is None]
    if todo:
        detect_model()  # the table read once, before any process is forked to read it
    found = in_order(detect_or_describe, [texts[i].text for i in todo],
                     [min(len(texts[i].text), DETECT_FIRST) for i in todo], jobs)
    out = list(texts)
    for i, (system, undetected) in zip(todo, found, strict=True):
        if system is not None:
            out[i] = texts[i].model_copy(update={"system": system, "system_from": "detected"})
        elif by_path and (named := path_game(texts[i].named_path or "")) is not None:
            # the words do not tell, the user's name for the file or its folder does
            out[i] = texts[i].model_copy(update={"system": named, "system_from": "path",
                                                 "undetected": undetected})
        else:
            out[i] = texts[i].model_copy(update={"undetected": undetected})
    return out


def _word_document(data: bytes, path: Path) -> tuple[str, str, str | None]:
    """A Word 97–2003, Word or RTF document's text, the kind it is ("doc", "docx", "rtf") and
    how its headings were told, by what its first bytes say it is (else its name); a web page
    Word saved as ``.doc`` ("Web Page" or a site's download) is read as the page it is, and a
    plain text named so (a site's "document") as the text it is."""
    stripped = data.lstrip()
    kind = ("doc" if data.startswith(OLE_SIGNATURE) else "docx" if data.startswith(b"PK")
            else "rtf" if stripped.startswith(RTF_SIGNATURE)
            else "text" if path.suffix.lower() == DOC_SUFFIX else path.suffix.lower()[1:])
    if kind == "text":  # (a .doc that is neither: a page or a text; an .rtf or a .docx that is
        # not one is its reader's to refuse, not a text of its markup)
        try:
            text, encoding = decode(data, str(path))
            return text, encoding, None
        except LoadError:
            if not data.strip():
                raise  # ("файл пуст")
            kind = path.suffix.lower()[1:]  # (no text either: the reader of its name says why)
    return _document(kind, data, path)


_READERS: dict[str, tuple[Callable[[bytes], Reading], type[ValueError]]] = {
    "doc": (read_doc, DocError), "docx": (read_docx, DocxError), "rtf": (read_rtf, RtfError),
    "odt": (read_odt, OdtError), "fb2": (read_fb2, Fb2Error), "epub": (read_epub, EpubError),
}
"""Each kind of document read from its file: its reader, and the error it refuses one with."""


def _document(kind: str, data: bytes, path: Path) -> tuple[str, str, str]:
    """A document's text (Markdown marking its headings), its kind and how its headings were
    told, by the reader of ``kind`` (:data:`_READERS`); its refusal a LoadError naming it."""
    read, error = _READERS[kind]
    try:
        document = read(data)
    except error as exc:
        raise LoadError(f"{path}: {exc}") from exc
    return document.text, kind, document.type


def _files_of(path: Path) -> list[Path]:
    """The rule texts a path stands for: the file itself, or a folder's texts and those of
    the folders inside it (each folder's own first, then its folders' by name)."""
    if path.is_dir():
        files = _texts_below(path)
        if not files:
            raise LoadError(f"{path}: в папке нет текстов правил (ожидались файлы *.txt, *.md, "
                            "*.html, *.mht, *.pdf, *.docx, *.doc, *.rtf, *.odt, *.fb2 или *.epub)")
        return files
    if path.is_file():
        return [path]
    raise LoadError(f"{path}: нет такого файла или папки")


def _texts_below(folder: Path, seen: set[Path] | None = None) -> list[Path]:
    """A folder's texts, then those of its folders by name; a folder reached twice (a link
    back to a folder above) is read once."""
    seen = set() if seen is None else seen
    real = folder.resolve()
    if real in seen:
        return []
    seen.add(real)
    try:
        files = text_files(folder)
        pages = {p.stem for p in files if p.suffix.lower() in (".html", ".htm")}
        subs = sorted((p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")
                       and not _page_assets(p.name, pages)), key=lambda p: p.name)
    except OSError as exc:
        raise LoadError(f"{folder}: папку нельзя прочитать ({exc.strerror or exc})") from exc
    for sub in subs:
        files.extend(_texts_below(sub, seen))
    return files


_ASSETS = re.compile(r"(.+)(?:_files|_файлы|\.files)", re.IGNORECASE)


def _page_assets(name: str, pages: set[str]) -> bool:
    """Whether a folder named ``name`` holds what a browser saved beside a page of ``pages``
    (stems of the folder's ``*.html``): "Паника.html" and "Паника_files/" (Russian Internet
    Explorer's "Паника_файлы/"), whose pictures, styles and frames' pages are no rule texts."""
    m = _ASSETS.fullmatch(name)
    return m is not None and m.group(1) in pages


def text_files(folder: Path) -> list[Path]:
    """The rule texts of a folder: ``*.txt``, ``*.md``, ``*.html``/``*.htm``, web archives
    (``*.mht``/``*.mhtml``), PDFs, Word documents (``*.docx``, ``*.doc``), RTF documents
    (``*.rtf``), OpenDocument texts (``*.odt``) and e-books (FictionBook: ``*.fb2``,
    ``*.fb2.zip``; EPUB: ``*.epub``) except ``README.md`` and hidden files,
    sorted by name; and the documents it does not read (:data:`UNREAD_DOCUMENTS`), whose
    reading reports them."""
    return sorted(
        (
            p
            for p in folder.iterdir()
            if p.is_file()
            and not p.name.startswith(".")
            and (p.suffix.lower() in TEXT_SUFFIXES or p.suffix.lower() in UNREAD_DOCUMENTS
                 or p.name.lower().endswith(FB2_ZIPPED))
            and p.name.lower() != "readme.md"
        ),
        key=lambda p: p.name,
    )


def load_file(path: str | Path) -> SourceText:
    """Read one rule text; a ``corpus.toml`` in its folder is honoured.

    Raises:
        LoadError: The file is missing, empty, binary or in an unknown encoding.
    """
    path = Path(path)
    return _load_file(path, read_corpus_config(path.parent), named_path=_named_path(path, path))


def _load_file(path: Path, config: CorpusConfig | None, option: str | None = None,
               detect: bool = True, jobs: int | None = None,
               named_path: str | None = None) -> SourceText:
    if path.suffix.lower() in UNREAD_DOCUMENTS:
        raise LoadError(f"{path}: {UNREAD_DOCUMENTS[path.suffix.lower()]}")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise LoadError(f"{path}: файл не читается ({os_reason(exc)})") from exc
    reading = None
    template: tuple[tuple[int, int], ...] = ()
    if path.suffix.lower() in ARCHIVE_SUFFIXES:  # a web page saved as one file
        text, encoding = _archived_page(data, path)
    elif path.suffix.lower() == PDF_SUFFIX:  # a book's PDF: its text layer, headings marked
        try:
            pdf = read_pdf(data, jobs=jobs)
        except PdfError as exc:
            raise LoadError(f"{path}: {exc}") from exc
        text, encoding, reading, template = pdf.text, "pdf", pdf.type, pdf.template
    elif path.suffix.lower() in WORD_SUFFIXES:  # a word processor's document: its paragraphs,
        # headings marked; read by what it is, whatever its name says (Word opens a .docx
        # named .doc, a .doc named .docx, and saves RTF and web pages as .doc)
        text, encoding, reading = _word_document(data, path)
    elif path.suffix.lower() in FB2_SUFFIXES or path.name.lower().endswith(FB2_ZIPPED):
        # an e-book in FictionBook: its sections' titles headings at their depths
        text, encoding, reading = _document("fb2", data, path)
    elif path.suffix.lower() == EPUB_SUFFIX:  # an e-book: its chapters, headings marked
        text, encoding, reading = _document("epub", data, path)
    elif path.suffix.lower() == ODT_SUFFIX:  # an OpenDocument text: paragraphs, headings marked
        text, encoding, reading = _document("odt", data, path)
    else:
        text, encoding = decode(data, str(path))
    stated = config.system_of(path.name) if config else None
    system: str | None
    system_from: SystemSource | None
    undetected = None
    if option is not None:
        system, system_from = option, "option"
    elif config is not None and stated is not None:
        system, system_from = stated, config.origin
    else:
        system, undetected = (detect_or_describe(text) if detect
                              else (None, None))  # (else detected by the caller)
        system_from = "detected" if system else None
    title = config.title_of(path.name) if config else None
    title_from: SystemSource | Literal["text"] | None = config.origin if title and config else None
    if title is None:
        title = detect_title(text)
        title_from = "text" if title else None
    return SourceText(
        name=path.name,
        path=str(path),
        text=text,
        encoding=encoding,
        system=system,
        system_from=system_from,
        title=title,
        title_from=title_from,
        reading=reading,
        named_path=named_path,
        template=template,
        undetected=undetected,
    )


def _archived_page(data: bytes, path: Path) -> tuple[str, str]:
    """The page of a web archive (:mod:`ingest.web_archive`), decoded, and its encoding
    ("mhtml/utf-8")."""
    try:
        page, charset = web_archive_page(data)
    except WebArchiveError as exc:
        raise LoadError(f"{path}: {exc}") from exc
    if charset is None:
        text, encoding = decode(page, f"{path} (страница веб-архива)")
    else:
        try:
            text, encoding = page.decode(charset).lstrip("\ufeff"), charset
        except UnicodeError as exc:
            raise LoadError(f"{path}: страница веб-архива не читается в кодировке {charset}, "
                            f"которую она называет ({_at_byte(exc)})") from exc
    if not text.strip():
        raise LoadError(f"{path}: страница в веб-архиве пуста")
    return text, f"mhtml/{encoding}"


def decode(data: bytes, where: str = "<bytes>") -> tuple[str, str]:
    """Decode a rule text: UTF-16 or UTF-32 after its byte order mark (Windows Notepad's
    "Unicode"), else UTF-8 (a BOM is dropped), or else a one-byte Russian encoding it reads as
    Russian in (:func:`_decode_russian`: cp1251, KOI8-R or CP866).

    Args:
        data: The bytes of the file.
        where: The file's name for error messages.

    Returns:
        The text and the encoding (``"utf-8"``, ``"utf-8-sig"``, ``"cp1251"``, ``"koi8-r"``,
        ``"cp866"``, ``"utf-16-le"``, ``"utf-16-be"``, ``"utf-32-le"`` or ``"utf-32-be"``).

    Raises:
        LoadError: The bytes are empty, binary, or neither UTF-16/32 with its mark, UTF-8
            nor Russian in a one-byte encoding.
    """
    if (wide := wide_encoding(data)) is not None:
        encoding = wide[0]
        text = _decode_wide(data, wide[1], encoding, where)
    elif b"\x00" in data:
        raise LoadError(f"{where}: двоичный файл (есть нулевые байты), а не текст; {EXPECTED}")
    elif data.startswith(codecs.BOM_UTF8):
        encoding = "utf-8-sig"
        try:
            text = data[len(codecs.BOM_UTF8) :].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LoadError(
                f"{where}: файл начинается с метки UTF-8 (BOM), но байт {exc.start} не UTF-8; "
                f"{EXPECTED}"
            ) from exc
    else:
        try:
            text, encoding = data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            text, encoding = _decode_declared(data, where) or _decode_russian(data, where)
    if _nontext_share(text) > _MAX_NONTEXT:
        raise LoadError(f"{where}: {BINARY}; {EXPECTED}")
    if not text.strip():
        raise LoadError(f"{where}: файл пуст; {EXPECTED}")
    return text, encoding


def _decode_declared(data: bytes, where: str) -> tuple[str, str] | None:
    """A web page's text in the charset its ``<meta>`` declares (an old Russian site's
    "koi8-r" or "windows-1251"), or None for a text that is no web page or declares none."""
    if not is_html(data[:20_000].decode("latin-1")):
        return None
    charset = declared_charset(data)
    if charset is None or codecs.lookup(charset).name == "utf-8":
        return None
    try:
        return data.decode(charset), charset
    except UnicodeError as exc:
        raise LoadError(f"{where}: страница объявляет кодировку {charset}, но текст в ней не "
                        f"читается ({_at_byte(exc)}); {EXPECTED}") from exc


def _at_byte(exc: UnicodeError) -> str:
    """Where a decoding failed, in Russian: "байт 12"; a codec that refuses a whole stretch
    (IDNA's "label empty or too long", a plain UnicodeError) says no byte."""
    start = getattr(exc, "start", None)
    return f"байт {start}" if isinstance(start, int) else "кодек отказался её читать"


def _decode_wide(data: bytes, bom: int, encoding: str, where: str) -> str:
    """The text after a UTF-16 or UTF-32 byte order mark (``bom`` bytes)."""
    name = encoding.removesuffix("-le").removesuffix("-be").upper()
    try:
        return data[bom:].decode(encoding)
    except UnicodeDecodeError as exc:
        raise LoadError(f"{where}: файл начинается с метки {name} (BOM), но байт "
                        f"{exc.start + bom} не {name}; {EXPECTED}") from exc


def _decode_russian(data: bytes, where: str) -> tuple[str, str]:
    """A text in a one-byte Russian encoding: cp1251 (Windows), or KOI8-R (old Unix and mail
    texts) or CP866 (DOS) when the text reads as Russian in it and not in cp1251.

    The encoding is :func:`kb.files.one_byte_russian`'s; the reading must then be Russian:
    mostly Cyrillic letters, few control characters.

    >>> data = "Подразделение проходит тест на Панику".encode("koi8-r")
    >>> _decode_russian(data, "a.txt")
    ('Подразделение проходит тест на Панику', 'koi8-r')
    """
    reading = one_byte_russian(data)
    if reading is None:
        raise LoadError(f"{where}: кодировка не распознана (не UTF-8 и ни cp1251, ни KOI8-R, "
                        f"ни CP866); {EXPECTED}")
    text, encoding = reading
    if _nontext_share(text) > _MAX_NONTEXT:
        raise LoadError(f"{where}: {BINARY}; {EXPECTED}")
    letters = len(LETTER_RE.findall(text))
    cyrillic = len(_CYRILLIC_RE.findall(text))
    if letters and cyrillic / letters < _MIN_CYRILLIC:
        raise LoadError(
            f"{where}: кодировка не распознана: не UTF-8, а в {encoding} текст не русский "
            f"(кириллица — {cyrillic} из {letters} букв); {EXPECTED}"
        )
    return text, encoding


def _nontext_share(text: str) -> float:
    if not text:
        return 0.0
    return len(_NONTEXT_RE.findall(text)) / len(text)
