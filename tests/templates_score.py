"""Scoring the cleaning of real web pages' openings against their readers' marks of furniture.

``tests/data/templates/<set>/`` holds openings of pages of document, study and lecture sites
(any topic: what is scored is the site's template around the text), each annotated in
``annotations.yaml`` by a reader who never ran the pipeline on it:

* ``title``: the line of the article's own title (``null`` when the opening shows none);
* ``furniture``: the lines the website put around the text, as written (stripped; one ending
  in ``...`` stands for the lines it opens).

A page is built as a user builds it with its system stated (the system does not matter to
the cleaning), and scored by its lines:

* furniture removed: annotated furniture lines that cleaning or segmenting removed whole
  (recall);
* removals right: lines removed whole as a site's (its furniture, a repeated title or header,
  the text before the first heading) that are annotated furniture or the title (precision);
* sections of furniture: sections whose heading is an annotated furniture line;
* titles found: pages whose annotated title heads a section.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from ingest.build import account, prepare
from ingest.models import SourceText
from ingest.sections import fold_marks

TEMPLATES = Path(__file__).parent / "data" / "templates"
SYSTEM = "whfb8"  # stated for every page: the cleaning does not depend on it
_SITE_STEPS = frozenset({"site_furniture", "running_header", "segment"})


@dataclass
class Tally:
    """The counts of one page or of a set of pages."""

    pages: int = 0
    furniture: int = 0  # annotated furniture lines
    furniture_removed: int = 0
    site_removed: int = 0  # lines removed whole as a site's
    site_removed_right: int = 0  # … that are annotated furniture or the title
    furniture_sections: int = 0
    titles: int = 0  # pages with an annotated title
    titles_found: int = 0
    wrong: list[str] | None = None  # what was missed or wrongly removed, for --details

    def add(self, other: Tally) -> None:
        for name in ("pages", "furniture", "furniture_removed", "site_removed",
                     "site_removed_right", "furniture_sections", "titles", "titles_found"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.wrong = [*(self.wrong or []), *(other.wrong or [])]

    @property
    def recall(self) -> float:
        return self.furniture_removed / self.furniture if self.furniture else 1.0

    @property
    def precision(self) -> float:
        return self.site_removed_right / self.site_removed if self.site_removed else 1.0

    @property
    def title_share(self) -> float:
        return self.titles_found / self.titles if self.titles else 1.0


def _key(line: str) -> str:
    return fold_marks(" ".join(line.split()).casefold()).rstrip(".:")


def _is_furniture(line: str, marks: list[str]) -> bool:
    key = _key(line)
    for mark in marks:
        if mark.endswith("...") and key.startswith(_key(mark[:-3])):
            return True
        if key == _key(mark):
            return True
    return False


def score_page(path: Path, annotation: dict[str, object]) -> Tally:
    """One page's tally (see the module's docstring)."""
    text = path.read_text(encoding="utf-8")
    marks = [str(m) for m in annotation.get("furniture") or []]
    title = annotation.get("title")
    source = SourceText(name=path.name, path=str(path), text=text, encoding="utf-8",
                        system=SYSTEM, system_from="option")
    cleaned, seg = prepare(source)
    removed = bytearray(len(text))  # 1: removed by any step, 2: as a site's
    for r in account(source, cleaned, seg):
        a, b = r.span
        for i in range(a, b):
            removed[i] |= 2 if r.step in _SITE_STEPS else 1
    tally = Tally(pages=1, wrong=[])
    pos = 0
    for line in text.split("\n"):
        start, end = pos, pos + len(line)
        pos = end + 1
        if not line.strip():
            continue
        marks_of = [removed[i] for i in range(start, end) if not line[i - start].isspace()]
        whole = all(marks_of)
        furniture = _is_furniture(line, marks)
        if furniture:
            tally.furniture += 1
            tally.furniture_removed += whole
            if not whole:
                tally.wrong.append(f"{path.name}: furniture kept: {line.strip()[:70]}")
        if whole and all(m & 2 for m in marks_of):
            tally.site_removed += 1
            right = furniture or (title is not None and _key(line) == _key(str(title)))
            tally.site_removed_right += right
            if not right:
                tally.wrong.append(f"{path.name}: text removed: {line.strip()[:70]}")
    headings = []
    for sec in seg.sections:
        a, b = cleaned.to_source_span(*sec.heading_span)
        headings.append((text[a:b], sec.title))
        if _is_furniture(text[a:b], marks):
            tally.furniture_sections += 1
            tally.wrong.append(f"{path.name}: section of furniture: {sec.title[:70]}")
    if title is not None:
        tally.titles = 1
        key = _key(str(title))
        tally.titles_found = int(any(_key(h) == key or _key(t) == key for h, t in headings))
        if not tally.titles_found:
            tally.wrong.append(f"{path.name}: title not found: {str(title)[:70]}")
    return tally


def score_set(folder: Path) -> Tally:
    """The tally of every page of a set."""
    annotations = yaml.safe_load((folder / "annotations.yaml").read_text(encoding="utf-8"))
    total = Tally(wrong=[])
    for name in sorted(annotations):
        total.add(score_page(folder / name, annotations[name]))
    return total


def sets() -> list[Path]:
    """The sets of ``tests/data/templates``: ``dev`` and ``dev2`` (read while building the
    cleaning), ``heldout`` and ``heldout2`` (measured, never read)."""
    return [TEMPLATES / name for name in ("dev", "dev2", "heldout", "heldout2")]
