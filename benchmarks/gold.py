"""The KB against the reader's annotations: the corpus, and pages it was not built on.

``.venv/bin/python benchmarks/gold.py [--details] [--heldout]`` prints precision/recall per
corpus file and category (see ``tests/gold_score.py``); ``--details`` also lists every missed
and extra row. ``--heldout`` builds the corpus together with each set of pages of
``tests/data/heldout/`` in turn (as a user would: no ``corpus.toml``, each page's system
detected) and prints the totals of the corpus and of every set (``dev``, ``held-out``,
``fresh``, ``fresh2`` … in the order they were collected, ``dev2``; each set's README says
when and how), then the table of each set.

A *clean* set is one whose misses nobody has read: it measures a change once, totals only,
before it may be read. Hence:

* ``--totals`` prints the totals alone (how a clean set is measured);
* ``--set NAME`` (repeatable) builds and prints only the sets named;
* ``--read`` builds and prints only the sets already read (those the game detection learns
  from, ``LEARNED_SETS`` of ``tests/detect_training.py``), so their misses can be listed with
  ``--details`` without printing a clean set's;
* ``--kinds`` also prints the totals of the sets built pooled by the kind of page (see
  :func:`page_kind`): copies of the books on document and study sites (the pages the issue's
  owner keeps aside are of this kind), other web pages of our games (forums, blogs,
  articles), and other games' pages (whose every section is a false one);
* ``--chapters`` builds the corpus with the whole chapters of ``tests/data/chapters`` (other
  translations of a book's chapter, kept whole: its README) and prints their table;
* ``--stated`` builds each page with the system its annotation names, as a user who states it
  (``corpus.toml``, ``rulekb build --system``) would: what the cutting and linking do once the
  game is known, apart from the detection (a page annotated ``system: null`` is still
  detected).
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from gold_score import (  # noqa: E402
    CHAPTERS_DIR,
    GOLD_DIR,
    HELDOUT_DIR,
    Score,
    load_annotation,
    score_all,
    table,
    totals_table,
)

from ingest import build, load  # noqa: E402
from kb import Graph  # noqa: E402
from rulekb.defaults import corpus_dir  # noqa: E402


def main() -> None:
    details = "--details" in sys.argv
    if "--chapters" in sys.argv:
        graph = Graph(build(load([corpus_dir(), CHAPTERS_DIR], by_path=False)).kb)
        print(table(score_all(graph, CHAPTERS_DIR), details=details))
        return
    if "--heldout" not in sys.argv:
        graph = Graph(build(load([corpus_dir()])).kb)
        print(table(score_all(graph), details=details))
        return
    sets = heldout_sets()
    chosen = [sys.argv[i + 1] for i, arg in enumerate(sys.argv[:-1]) if arg == "--set"]
    unknown = [name for name in chosen if name not in sets]
    if unknown:
        sys.exit(f"unknown set {unknown[0]!r}: one of {', '.join(sets)}")
    if "--read" in sys.argv:
        from detect_training import LEARNED_SETS
        chosen += [("held-out" if name == "heldout" else name) for name in LEARNED_SETS]
    if chosen:
        sets = {name: folder for name, folder in sets.items() if name in chosen}
    # each set is built with the corpus as a user would add those pages to it, apart from the
    # other sets: a page of one set defining a rule must not change what another set refers to
    scores = {"corpus": score_all(Graph(build(load([corpus_dir()])).kb), GOLD_DIR)}
    stated = "--stated" in sys.argv
    for name, folder in sets.items():
        with tempfile.TemporaryDirectory() as tmp:
            pages = _stated(folder, Path(tmp)) if stated else folder
            graph = Graph(build(load([corpus_dir(), pages], by_path=False)).kb)
        scores[name] = score_all(graph, folder)
    print(totals_table(scores))
    if "--kinds" in sys.argv:
        print("\nby kind of page, the sets above pooled (without the corpus):")
        print(totals_table(by_kind(scores, sets)))
    if "--totals" in sys.argv:
        return
    for name in sets:
        print(f"\n{name}:")
        print(table(scores[name], details=details))


# the sites that hold copies of the books (a rulebook's, a codex's or an army book's pages as
# a document or study site stores them, or a site transcribing a rulebook): matched in a page's
# address where a README's table gives it, else in the site's name that ends its file's name
# ("…_studfiles.txt", "…_redelf.txt")
_DOCUMENT_SITES = re.compile(
    r"(?i:studfiles?|studopedia|stydopedia|student2|studall|lektsii|lektsia|scribd|topuch"
    r"|cyberpedia|infopedia|mybiblioteka|poisk-?ru|publib|dropdoc|pdfm|mydocx|studydoc|docplayer"
    r"|5hobbi|redelf)")
# a README's table row: "| file.txt | system (edition) | address |"
_SOURCE_ROW = re.compile(r"^\|\s*([^|]+?\.txt)\s*\|[^|]*\|\s*(\S+)\s*\|", re.MULTILINE)


def page_kind(page: str, address: str | None, annotation: dict[str, object]) -> str:
    """"book" (a copy of a book's pages on a document or study site), "web" (another page of
    our games: a forum, a blog, an article) or "other game" (annotated ``system: null``)."""
    if annotation.get("system") is None:
        return "other game"
    site = address or page.rsplit("_", 1)[-1]
    return "book" if _DOCUMENT_SITES.search(site) else "web"


def addresses(folder: Path) -> dict[str, str]:
    """The pages of a set whose address a README's table gives (the set's own, or the
    held-out README's for the first sets), by file name."""
    out: dict[str, str] = {}
    for readme, prefix in ((HELDOUT_DIR / "README.md", f"{folder.name}/"),
                           (folder / "README.md", "")):
        if readme.is_file():
            for m in _SOURCE_ROW.finditer(readme.read_text(encoding="utf-8")):
                if m.group(1).startswith(prefix):
                    out[m.group(1).removeprefix(prefix)] = m.group(2)
    return out


def by_kind(scores: dict[str, dict[str, dict[str, Score]]], sets: dict[str, Path]
            ) -> dict[str, dict[str, dict[str, Score]]]:
    """The pages of the sets scored, pooled by :func:`page_kind` (the corpus left out)."""
    out: dict[str, dict[str, dict[str, Score]]] = {"book": {}, "web": {}, "other game": {}}
    for name, folder in sets.items():
        annotations = load_annotation((folder / "annotations.yaml").read_text(encoding="utf-8"))
        where = addresses(folder)
        for page, by_category in scores[name].items():
            kind = page_kind(page, where.get(page), annotations[page])
            out[kind][f"{name}/{page}"] = by_category
    return out


def heldout_sets() -> dict[str, Path]:
    """Every annotated set of ``tests/data/heldout`` by its name: "dev", "held-out" (the
    folder ``heldout``), "fresh", "fresh2" … in the order they were collected, "dev2"."""
    def order(folder: Path) -> tuple[int, int]:
        digits = folder.name.removeprefix("fresh")
        fresh = folder.name.startswith("fresh")
        return ({"dev": 0, "heldout": 1}.get(folder.name, 2 if fresh else 3),
                int(digits) if fresh and digits.isdigit() else 0)
    folders = sorted((f for f in HELDOUT_DIR.iterdir() if (f / "annotations.yaml").is_file()),
                     key=lambda f: (order(f), f.name))
    return {("held-out" if f.name == "heldout" else f.name): f for f in folders}


def _stated(folder: Path, tmp: Path) -> Path:
    """A copy of ``folder`` with a ``corpus.toml`` stating each page's annotated system."""
    annotations = load_annotation((folder / "annotations.yaml").read_text(encoding="utf-8"))
    copy = tmp / folder.name
    shutil.copytree(folder, copy)
    lines = [f'[files."{page}"]\nsystem = "{row["system"]}"\n'
             for page, row in sorted(annotations.items()) if row.get("system")]
    (copy / "corpus.toml").write_text("\n".join(lines), encoding="utf-8")
    return copy


if __name__ == "__main__":
    main()
