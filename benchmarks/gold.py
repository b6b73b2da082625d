"""The KB against the reader's annotations: the corpus, and pages it was not built on.

``.venv/bin/python benchmarks/gold.py [--details] [--heldout]`` prints precision/recall per
corpus file and category (see ``tests/gold_score.py``); ``--details`` also lists every missed
and extra row. ``--heldout`` builds the corpus together with each set of pages of
``tests/data/heldout/`` in turn (as a user would: no ``corpus.toml``, each page's system
detected) and prints the totals of the corpus, the development pages, the first held-out
pages and the fresh held-out pages (collected for issue 10's second pass, annotated before the
pipeline ran on them) and the second fresh set (collected for the third pass the same way),
the third (collected for the fourth pass), the fourth (for the fifth pass), the fifth (for
the sixth pass), the sixth (collected while the sixth pass went on), the seventh (collected
at its end), the eighth (collected after it), the ninth (collected after the eighth), the
tenth (collected after the ninth, kept for the next pass), the eleventh (collected after
the tenth, kept for the next pass too), the twelfth (the ninth pass's clean set, collected
after the eleventh), the thirteenth (the ninth pass's second clean set, collected after the
twelfth) and the fourteenth (the ninth pass's third clean set, collected after the
thirteenth), and the second development set (``dev2``:
list-shaped and army-book pages, collected to be developed against), then the table of each
set of pages.
``--details`` lists the misses of every set: read those of the fresh sets only to report
them, never to change the pipeline. ``--totals`` prints the totals alone (how a fresh set is
measured before its misses may be read). ``--set NAME`` (repeatable) builds and prints only
the sets named (``dev``, ``held-out``, ``fresh``, ``fresh2``, ``fresh3``, ``fresh4``,
``fresh5``, ``fresh6``, ``fresh7``, ``fresh8``, ``fresh9``, ``fresh10``, ``fresh11``,
``fresh12``, ``fresh13``, ``fresh14``, ``dev2``), so the misses of a development set can be
read without printing a clean set's. ``--stated`` builds each page with the system its
annotation names, as a user who states it (``corpus.toml``, ``rulekb build --system``) would:
what the cutting and linking do once the game is known, apart from the detection (a page
annotated ``system: null`` is still detected).
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
    sets = {"dev": HELDOUT_DIR / "dev", "held-out": HELDOUT_DIR / "heldout",
            "fresh": HELDOUT_DIR / "fresh", "fresh2": HELDOUT_DIR / "fresh2",
            "fresh3": HELDOUT_DIR / "fresh3", "fresh4": HELDOUT_DIR / "fresh4",
            "fresh5": HELDOUT_DIR / "fresh5", "fresh6": HELDOUT_DIR / "fresh6",
            "fresh7": HELDOUT_DIR / "fresh7", "fresh8": HELDOUT_DIR / "fresh8",
            "fresh9": HELDOUT_DIR / "fresh9", "fresh10": HELDOUT_DIR / "fresh10",
            "fresh11": HELDOUT_DIR / "fresh11", "fresh12": HELDOUT_DIR / "fresh12",
            "fresh13": HELDOUT_DIR / "fresh13", "fresh14": HELDOUT_DIR / "fresh14",
            "fresh15": HELDOUT_DIR / "fresh15", "fresh16": HELDOUT_DIR / "fresh16",
            "fresh17": HELDOUT_DIR / "fresh17", "fresh18": HELDOUT_DIR / "fresh18",
            "fresh19": HELDOUT_DIR / "fresh19",
            "dev2": HELDOUT_DIR / "dev2"}
    chosen = [sys.argv[i + 1] for i, arg in enumerate(sys.argv[:-1]) if arg == "--set"]
    unknown = [name for name in chosen if name not in sets]
    if unknown:
        sys.exit(f"unknown set {unknown[0]!r}: one of {', '.join(sets)}")
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
