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
* ``--stated`` builds each page with the system its annotation names, as a user who states it
  (``corpus.toml``, ``rulekb build --system``) would: what the cutting and linking do once the
  game is known, apart from the detection (a page annotated ``system: null`` is still
  detected).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from gold_score import (  # noqa: E402
    GOLD_DIR,
    HELDOUT_DIR,
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
            graph = Graph(build(load([corpus_dir(), pages])).kb)
        scores[name] = score_all(graph, folder)
    print(totals_table(scores))
    if "--totals" in sys.argv:
        return
    for name in sets:
        print(f"\n{name}:")
        print(table(scores[name], details=details))


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
