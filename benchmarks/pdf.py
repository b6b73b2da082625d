"""The PDF reader's headings against the PDFs' own outlines (their bookmarks).

``.venv/bin/python benchmarks/pdf.py`` reads each PDF of ``tests/data/pdf/real/`` (real PDFs
nobody on the project wrote, read while writing the reader) and ``tests/data/pdf/heldout/``
(measured only; ``SOURCES.tsv``) by its type sizes, as ``rulekb build`` does,
and compares the headings found with the entries of the PDF's outline, which its typesetter
wrote from the document's own structure: how many entries head a section (the outline may drop
a heading's number: "ASN.1 syntax" for "2.1 ASN.1 syntax"), and whether each depth of the
outline is one level of the headings found, the deeper the lower. The reader reads the
outline too (:func:`ingest.pdf_outline.with_outline`), so each PDF is read twice: by its type
alone (the measure of the type's reading: a PDF without bookmarks has only that) and as
``rulekb build`` reads it, with its outline. Prints one row a PDF, and the time it took.

``--sdists`` also downloads the source distributions of pypdf 7.1.0 and pypdfium2 5.15.2
from the package index (``pip download``) and reads every PDF of their test resources (87:
encrypted ones of each revision of the standard, scans, forms, drawings, a 137-page
guideline), printing how many were read, how many refused and why, and any that failed
otherwise (none should).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ingest.pdf_layout import PdfError  # noqa: E402
from ingest.pdf_outline import heading_key  # noqa: E402
from ingest.pdf_text import outline_entries, pdf_text  # noqa: E402

REAL = ROOT / "tests" / "data" / "pdf" / "real"
HELDOUT = ROOT / "tests" / "data" / "pdf" / "heldout"


def score(path: Path, outline: bool = False) -> tuple[int, int, bool, float]:
    """(entries found as headings, entries, each depth one level and deeper lower, seconds),
    the PDF read by its type alone, or with its ``outline``."""
    data = path.read_bytes()
    t = time.process_time()
    text = pdf_text(data, outline=outline, jobs=1)  # (CPU time: this process's alone)
    seconds = time.process_time() - t
    # (a heading and an entry compared as the reader compares them, its number, case and
    # hyphens aside: :func:`ingest.pdf_text.heading_key`)
    headings = [(len(m.group(1)), heading_key(m.group(2)))
                for m in re.finditer(r"(?m)^(#+) (.*)$", text)]
    entries = outline_entries(data)
    found = 0
    levels: dict[int, set[int]] = {}
    at = 0
    for entry in entries:
        depth, key = entry.depth, entry.key
        # (the first such heading after the last entry's, or else anywhere: a heading named
        # in two places, a slide's title and its section's, is found once)
        hit = next((k for k in range(at, len(headings)) if headings[k][1] == key),
                   next((k for k in range(len(headings)) if headings[k][1] == key), None))
        if hit is not None:
            found += 1
            levels.setdefault(depth, set()).add(headings[hit][0])
            at = max(at, hit + 1)
    depths = sorted(levels)
    ordered = all(len(levels[d]) == 1 for d in depths) and all(
        min(levels[a]) < min(levels[b]) for a, b in zip(depths, depths[1:], strict=False))
    return found, len(entries), ordered, seconds


SDISTS = ("pypdf==7.1.0", "pypdfium2==5.15.2")


def sdists() -> None:
    """Every PDF of the test resources of :data:`SDISTS`, read: a count of the outcomes."""
    outcomes: Counter[str] = Counter()
    slowest = (0.0, "")
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                        "--no-binary", ":all:", "-d", tmp, *SDISTS], check=True)
        for archive in sorted(Path(tmp).glob("*.tar.gz")):
            with tarfile.open(archive) as tar:
                for member in tar.getmembers():
                    if not member.name.lower().endswith(".pdf") or not member.isfile():
                        continue
                    stream = tar.extractfile(member)
                    data = stream.read() if stream is not None else b""
                    t = time.perf_counter()  # (wall time: a long PDF's pages are read on
                    # one process a core, as rulekb build reads them)
                    try:
                        pdf_text(data)
                        outcomes["прочитан"] += 1
                    except PdfError as exc:
                        outcomes[f"отказ: {str(exc).split(':')[0].split('(')[0].strip()}"] += 1
                    except Exception as exc:  # noqa: BLE001 (what the benchmark looks for)
                        outcomes[f"СБОЙ {type(exc).__name__}"] += 1
                        print(f"СБОЙ {member.name}: {type(exc).__name__}: {exc}")
                    slowest = max(slowest, (time.perf_counter() - t, member.name))
    for outcome, n in sorted(outcomes.items()):
        print(f"{n:4d}  {outcome}")
    print(f"дольше всех: {slowest[1]} ({slowest[0]:.1f} с)")


def main() -> None:
    print(f"{'PDF':<40}{'by type':>10}{'levels':>8}{'with outline':>14}{'levels':>8}"
          f"{'time':>8}")
    for folder in (REAL, HELDOUT):
        for path in sorted(folder.glob("*.pdf")):
            found, total, ordered, _ = score(path)
            found2, _, ordered2, seconds = score(path, outline=True)
            print(f"{folder.name + '/' + path.name:<40}{f'{found}/{total}':>10}"
                  f"{'yes' if ordered else 'no':>8}{f'{found2}/{total}':>14}"
                  f"{'yes' if ordered2 else 'no':>8}{seconds:>7.1f}s")
    if "--sdists" in sys.argv:
        sdists()


if __name__ == "__main__":
    main()
