"""The KB against the reader's annotations: the corpus, and pages it was not built on.

``.venv/bin/python benchmarks/gold.py [--details] [--heldout]`` prints precision/recall per
corpus file and category (see ``tests/gold_score.py``); ``--details`` also lists every missed
and extra row. ``--heldout`` builds the corpus together with the pages of
``tests/data/heldout/`` (as a user would: no ``corpus.toml``, each page's system detected) and
prints the totals of the corpus, the development pages and the held-out pages, then the table
of each set of pages.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from gold_score import (  # noqa: E402
    GOLD_DIR,
    HELDOUT_DIR,
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
    sets = {"dev": HELDOUT_DIR / "dev", "held-out": HELDOUT_DIR / "heldout"}
    graph = Graph(build(load([corpus_dir(), *sets.values()])).kb)
    scores = {"corpus": score_all(graph, GOLD_DIR)}
    scores.update({name: score_all(graph, folder) for name, folder in sets.items()})
    print(totals_table(scores))
    for name in sets:
        print(f"\n{name}:")
        print(table(scores[name], details=details))


if __name__ == "__main__":
    main()
