"""Build and resolve: turn the segmented, extracted texts of a corpus into one knowledge graph.

Systems never mix: every name is resolved within its own system only. A name the corpus does
not define becomes a ``concept`` node with ``defined: false`` — never a link to a wrong rule.

This module runs the stages over a corpus and accounts for the removed text; the resolution
itself is :mod:`ingest.resolve`.
"""

from __future__ import annotations

import gc
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from ingest.clean import clean
from ingest.clean_furniture import MASTHEAD_REASON
from ingest.clean_html import fragment_headings, html_links, html_structure
from ingest.clean_markdown import Structure, markdown_structure
from ingest.game_names import path_other_edition
from ingest.html_page import is_html
from ingest.models import CleanedText, SourceText
from ingest.pool import in_stages
from ingest.resolve import Part, resolve_system
from ingest.sections import passage, title_and_aliases, trim_span
from ingest.segment import Section, Segmentation, segment
from ingest.segment_headings import is_heading_line
from ingest.text_identity import describe_evidence
from kb.models import SYSTEM_TITLES, Edge, KnowledgeBase, Node, Removal, System


@dataclass
class Built:
    """A KB and what building it took: files skipped and why."""

    kb: KnowledgeBase
    skipped: list[tuple[str, str]]


Prepared = tuple[CleanedText, Segmentation]
"""A text cleaned and segmented."""


def prepare(source: SourceText) -> Prepared:
    """Clean and segment one source text."""
    cleaned = clean(source)
    page = is_html(source.text)
    gaps = _blank_lines(cleaned.text) if page else _gaps(source.text, cleaned)
    seg = segment(cleaned.text, source.system, cleaned.pages, gaps,
                  titled=_under_site_name(source.text, cleaned),
                  site_cuts=[cleaned.from_source(ch.span[1]) for ch in cleaned.changes
                             if ch.step in _SITE_STEPS and not ch.after.strip()],
                  marked=_marked(source.text, cleaned, page),
                  marked_layout="html" if page else "markdown")
    if page:
        _place_links(source.text, cleaned, seg)
    return cleaned, seg


def _place_links(original: str, cleaned: CleanedText, seg: Segmentation) -> None:
    """Give each section the links of a web page that stand in its body
    (:func:`ingest.clean_html.html_links`, in cleaned offsets)."""
    bodies = sorted(((sec.body_span, sec) for sec in seg.sections
                     if sec.body_span[1] > sec.body_span[0]), key=lambda item: item[0])
    starts = [span[0] for span, _ in bodies]
    for a, b in html_links(original):
        start, end = cleaned.from_source(a), cleaned.from_source(b)
        k = bisect_right(starts, start) - 1
        if end > start and k >= 0 and end <= bodies[k][0][1]:
            bodies[k][1].links.append((start, end))


def _marked(original: str, cleaned: CleanedText, page: bool = False
            ) -> tuple[list[tuple[int, int, int]], list[tuple[int, int]]] | None:
    """A Markdown text's headings (start, end, level) and quotations, in cleaned offsets
    (:func:`ingest.clean_markdown.markdown_structure`), or a web page's
    (:func:`ingest.clean_html.html_structure`, when ``page``); None for another text. A
    heading another cleaning step removed (a site's line) heads nothing."""
    structure = (html_structure(original, lambda line: is_heading_line(line, None)) if page
                 else markdown_structure(original))
    if structure is None:
        return None
    if not page and (written := fragment_headings(original)):
        # (a Markdown text's headings written in HTML: "<h3>Команды</h3>" among its "##")
        structure = Structure(tuple(sorted((*structure.headings, *written),
                                           key=lambda h: h.start)), structure.quotes)
    headings = []
    for h in structure.headings:
        start, end = cleaned.from_source(h.start), cleaned.from_source(h.end)
        line_start = cleaned.text.rfind("\n", 0, start) + 1
        if end > start and not cleaned.text[line_start:start].strip():
            headings.append((start, end, h.level))
    quotes = [(cleaned.from_source(a), cleaned.from_source(b)) for a, b in structure.quotes]
    return headings, [(a, b) for a, b in quotes if b > a]


_SITE_STEPS = frozenset({"site_furniture", "running_header", "page_footer"})
"""The cleaning steps that cut a site's lines or a book's page furniture."""


def _under_site_name(original: str, cleaned: CleanedText) -> bool:
    """Whether the cleaned text's first line stood right under the site's name that cleaning
    removed ("RED ELF" / "ПОЛЕ БОЯ"): a page's title, as a site sets it under its name."""
    text = cleaned.text
    first = len(text) - len(text.lstrip())
    if first >= len(text):
        return False
    at = cleaned.to_source(first)
    return any(ch.reason == MASTHEAD_REASON and not original[ch.span[1]:at].strip()
               for ch in cleaned.changes if ch.span[1] <= at)


def _blank_lines(text: str) -> dict[int, int]:
    """For each line start of a text: the blank lines right before it (a web page's text,
    whose paragraphs the markup parts, not its source's line breaks)."""
    gaps: dict[int, int] = {}
    pos = blank = 0
    for line in text.split("\n"):
        if line.strip():
            gaps[pos] = blank
            blank = 0
        else:
            blank += 1
        pos += len(line) + 1
    return gaps


def _gaps(original: str, cleaned: CleanedText) -> dict[int, int]:
    """For each line start of the cleaned text: blank lines before it in the source (one at
    least where removed text, a site's furniture, stood before it)."""
    gaps: dict[int, int] = {}
    text = cleaned.text
    pos = 0
    prev_end_src = 0
    for line in text.split("\n"):
        if line.strip():
            src = cleaned.to_source(pos)
            between = original[prev_end_src:src]
            inner = between.split("\n")[1:-1]
            gaps[pos] = sum(1 for ln in inner if not ln.strip())
            if pos and any(ln.strip() for ln in inner):
                # removed lines part the text around them as a blank line does at least
                # (above the text's first line they part it from nothing)
                gaps[pos] = max(gaps[pos], 1)
            prev_end_src = cleaned.to_source(pos + len(line)) if pos + len(line) < len(
                text) else len(original)
        pos += len(line) + 1
    return gaps


def build(
    sources: Iterable[SourceText],
    progress: Callable[[str], None] | None = None,
    unreadable: Iterable[tuple[str, str]] = (),
    jobs: int | None = None,
) -> Built:
    """Build the knowledge graph of a corpus.

    A text whose game system is unknown is skipped, and so is every input ``unreadable``
    names; each is in :attr:`Built.skipped` with the reason and in the KB's ``removed``
    account (step ``system`` or ``load``), and the rest is built.

    Args:
        sources: the loaded texts (``ingest.load``).
        progress: called with each file name once it is prepared.
        unreadable: (path, reason) of each input that could not be read at all (what
            ``ingest.load(..., on_error=…)`` reported).
        jobs: processes that clean and segment the texts, then resolve the systems, side
            by side; None: one a core for a large build, else one
            (:func:`ingest.pool.jobs_for`). The KB is the same whatever the number.
    """
    with fewer_collections():
        return _build(sources, progress, unreadable, jobs)


COLLECTION_EVERY = 100_000
"""Objects made, less those let go, between two of the collector's youngest collections while
a graph is built (CPython's default is 700). A build makes millions of objects and hardly any
cycles: at the default, a build of the 2 MB benchmark corpus on one process ran about 300
collections, a twentieth of its time, and they freed 20 objects (none on the next build).
At this threshold it runs one. What a build keeps is still looked over, less often (mypy's
build raises the threshold for the same reason)."""


@contextmanager
def fewer_collections() -> Iterator[None]:
    """The cyclic garbage collector's youngest generation collected every
    :data:`COLLECTION_EVERY` objects meanwhile (never more often than it was; the workers a
    build forks inherit it), its thresholds as they were afterwards."""
    thresholds = gc.get_threshold()
    gc.set_threshold(max(thresholds[0], COLLECTION_EVERY), *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


def _build(
    sources: Iterable[SourceText],
    progress: Callable[[str], None] | None,
    unreadable: Iterable[tuple[str, str]],
    jobs: int | None,
) -> Built:
    removed: list[Removal] = []
    skipped: list[tuple[str, str]] = []
    for where, why in unreadable:
        skipped.append((where, why))
        removed.append(Removal(source=where, span=(0, 0), text="", step="load", reason=why))
    sources = sorted(sources, key=lambda s: s.name)
    for src in sources:
        if src.system is None:
            why = no_system_reason(src.text, src.named_path, src.undetected)
            skipped.append((src.name, why))
            removed.append(Removal(source=src.name, span=(0, len(src.text)), text=src.text[:200],
                                   step="system", reason=why))
    usable = [src for src in sources if src.system is not None]
    prepared, resolved = in_stages(
        prepare, usable, [len(s.text) for s in usable], [str(s.system) for s in usable],
        _resolve, jobs, done=(lambda i: progress(usable[i].name)) if progress else None)
    systems: set[str] = set()  # (those with a section: an empty text makes none)
    for src, (cleaned, seg) in zip(usable, prepared, strict=True):
        taken = account(src, cleaned, seg)
        removed.extend(taken)
        if seg.sections or _whole_text(cleaned.text):
            systems.add(str(src.system))
        else:
            skipped.append((src.name, nothing_left_reason(taken)))
    nodes: dict[str, Node] = {}
    edges: list[Edge] = []
    for system_nodes, system_edges in resolved.values():  # (in the systems' order)
        # (every id starts with its system's: no node or edge of one system is another's,
        # so the systems' own lists join as they are)
        nodes.update(system_nodes)
        edges.extend(system_edges)
    kb = KnowledgeBase(
        systems=tuple(System(id=s, title=SYSTEM_TITLES.get(s, s)) for s in sorted(systems)),
        nodes=tuple(sorted(nodes.values(), key=lambda n: n.id)),
        edges=tuple(edges),
        removed=tuple(sorted(removed, key=lambda r: (r.source, r.span))),
    )
    return Built(kb, skipped)


def _resolve(system_and_texts: tuple[str, list[tuple[SourceText, Prepared]]]
             ) -> tuple[dict[str, Node], list[Edge]]:
    """The nodes and edges of one system, from its texts as prepared (in the files' order)."""
    system, texts = system_and_texts
    parts: list[Part] = []
    for src, (cleaned, seg) in texts:
        chapter = cleaned.running_headers[0] if cleaned.running_headers else None
        sections = seg.sections or _whole_text(cleaned.text)
        parts.extend(Part(system, src, cleaned, sec, i, chapter=chapter)
                     for i, sec in enumerate(sections))
    return resolve_system(system, parts)


def no_system_reason(text: str, path: str | None = None, evidence: str | None = None) -> str:
    """Why a text is skipped when its game system stays unknown, with what was found (the
    ``evidence`` the detection gave, else judged again), and what its ``path`` names (another
    edition of a game of ours names none)."""
    found = ("не удалось определить игровую систему (найдено: "
             f"{evidence or describe_evidence(text)})")
    if path is not None and (other := path_other_edition(path)) is not None:
        return (f"{found}; путь называет редакцию {other[1]} игры {other[0]}, правила которой "
                "другие, и систему не выбирает; если это всё же она, укажите её: --system или "
                "corpus.toml")
    return (f"{found}; укажите её: --system или corpus.toml, или назовите игру в имени файла "
            "или папки (например, «whfb8/», «killteam_…», «40k_…»)")


def nothing_left_reason(taken: Sequence[Removal]) -> str:
    """Why a text that cleaning left without a word of rules makes no part of the KB: what
    was removed from it, by step, and where to see it."""
    steps = Counter(r.step for r in taken)
    what = ", ".join(f"{step} — {n}" for step, n in sorted(steps.items()))
    return ("после очистки в нём не осталось текста правил"
            + (f" (удалено по причинам: {what})" if what else "")
            + "; что удалено и почему, покажет rulekb build с ключом --explain")


TITLE_WORDS = 12
"""Words a text's first line may hold to be its title when nothing else is a heading."""
_BLANK_LINE = re.compile(r"[ \t]*\n[ \t]*\n")
_INNER_SENTENCE_END = re.compile(r"[.!?…]\s+\S")


def _whole_text(text: str) -> list[Section]:
    """A text in which no heading was found: its first line is its title when it stands alone
    (a blank line under it), opens with a capital and is short and one sentence at most
    ("Бросьте 2D6 и выполните нападение (charge)."); otherwise the text is one passage titled
    by its first words (no rule's name: a page cut from the middle of a chapter;
    ``category: passage``)."""
    body = text.strip()
    if not body:
        return []
    start = text.find(body)
    first = body.split("\n", 1)[0]
    after = body[len(first):]
    line = first.strip()
    if (after.strip() and _BLANK_LINE.match(after) and line[:1].isupper()
            and len(line.split()) <= TITLE_WORDS and not _INNER_SENTENCE_END.search(line)
            and not line.endswith((",", ":", ";", "-", "—"))):
        title, aliases = title_and_aliases(line.rstrip("."))
        body_start = start + len(first) + len(after) - len(after.lstrip())
        return [Section(title, first, (start, start + len(first)),
                        (body_start, start + len(body)), aliases=aliases)]
    return [passage(text, start, start + len(body))]


def account(src: SourceText, cleaned: CleanedText, seg: Segmentation) -> list[Removal]:
    """The text cleaning and segmenting removed from one source, each piece with its reason."""
    out = []
    for ch in cleaned.changes:
        if ch.before.strip() and not ch.after.strip():
            out.append(Removal(source=src.name, span=ch.span, text=ch.before, step=ch.step,
                               reason=ch.reason))
    reasons = {"caption": "подпись к иллюстрации", "quote": "цитата-эпиграф, не правило",
               "attribution": "подпись под цитатой-эпиграфом (кто сказал), не правило"}
    for f in seg.flavour:
        out.append(Removal(source=src.name, span=cleaned.to_source_span(*f.span), text=f.text,
                           step=f.kind, reason=reasons[f.kind]))
    if seg.sections:
        first = min(s.heading_span[0] for s in seg.sections)
        lead = cleaned.text[:first].strip()
        if lead and seg.layout in ("lines", "markdown", "html"):
            out.append(Removal(source=src.name, span=cleaned.to_source_span(0, first), text=lead,
                               step="segment", reason="текст до первого заголовка"))
        if seg.layout == "flat":
            out.extend(_outside_sections(src, cleaned, seg))
    return out


def _outside_sections(src: SourceText, cleaned: CleanedText, seg: Segmentation
                      ) -> list[Removal]:
    """The text of a flattened page that no section and no flavour item holds: words before
    its first heading, or after a page break among headings no unit type takes."""
    spans = sorted([*(f.span for f in seg.flavour),
                    *(span for sec in seg.sections
                      for span in (sec.heading_span, sec.body_span, *sec.extra_spans))])
    out = []
    at = 0
    text = cleaned.text
    for start, end in [*spans, (len(text), len(text))]:
        s, e = trim_span(text, (at, start)) if start > at else (at, at)
        if e > s:
            reason = "текст до первого заголовка" if not at else "текст вне разделов"
            out.append(Removal(source=src.name, span=cleaned.to_source_span(s, e),
                               text=text[s:e], step="segment", reason=reason))
        at = max(at, end)
    return out
