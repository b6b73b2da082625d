"""The KB of the default corpus against the reader's annotations in ``tests/data/gold/``.

``.venv/bin/python benchmarks/gold.py [--details]`` prints precision/recall per corpus file and
category (see ``tests/gold_score.py``); ``--details`` also lists every missed and extra row.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from gold_score import score_all, table  # noqa: E402

from ingest import build, load  # noqa: E402
from kb import Graph  # noqa: E402
from rulekb.defaults import corpus_dir  # noqa: E402


def main() -> None:
    graph = Graph(build(load([corpus_dir()])).kb)
    print(table(score_all(graph), details="--details" in sys.argv))


if __name__ == "__main__":
    main()
