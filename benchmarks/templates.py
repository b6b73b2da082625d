"""Site furniture on real web pages' openings against their readers' marks.

``.venv/bin/python benchmarks/templates.py [--details]`` prints, for each set of
``tests/data/templates/`` (``dev`` and ``dev2``, read while building the cleaning;
``heldout`` and ``heldout2``, measured and never read), how much of the furniture its
readers marked cleaning removes (recall), how many of the lines it removes as a site's are
furniture (precision), the sections made of furniture and the pages whose title heads a
section (see ``tests/templates_score.py``). ``--details``
lists what was missed or wrongly removed (never for a held-out set: ``--details`` prints the
development sets alone).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from templates_score import score_set, sets  # noqa: E402


def main() -> None:
    details = "--details" in sys.argv
    print(f"{'set':<9}{'pages':>6}{'furniture removed':>20}{'removals right':>17}"
          f"{'furniture sections':>20}{'titles found':>15}")
    for folder in sets():
        if details and folder.name.startswith("heldout"):
            continue
        t = score_set(folder)
        print(f"{folder.name:<9}{t.pages:>6}"
              f"{f'{t.recall:.2f} ({t.furniture_removed}/{t.furniture})':>20}"
              f"{f'{t.precision:.2f} ({t.site_removed_right}/{t.site_removed})':>17}"
              f"{t.furniture_sections:>20}"
              f"{f'{t.title_share:.2f} ({t.titles_found}/{t.titles})':>15}")
        if details:
            for line in t.wrong or []:
                print("  " + line)


if __name__ == "__main__":
    main()
