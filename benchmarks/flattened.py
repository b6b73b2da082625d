"""Book pages run into one line, as a PDF's text layer gives them, against their annotations.

The 40k rulebook of the corpus reaches users as a document site's copy of its PDF: a chapter
in one line of thousands of characters, its headings runs of capitals inside it. The held-out
sets hold few such pages, so this benchmark makes them: every copy of a book's page in the
read sets (``benchmarks/gold.py``'s kind "book") whose annotated headings stand on lines of
their own in capitals is run into one line from its first heading on (the site's lines above
it kept as they were), and built with the corpus as a user who states its system would
(``corpus.toml``). The pages split in two halves, alternately in the sets' order: ``tune``
(read while changing the flattened layout's segmentation) and ``measure`` (scored, never
read). ``--all`` also scores every book page so flattened, headings in any case (words in
mixed case inside a line are no heading to any reader of the text alone).

``--wrapped`` does the same with the book pages wrapped as a PDF's column wraps them (lines
of at most 50 characters from the first heading on, headings on lines of their own): the
copies of the 40k rulebook on some document sites come so.

``--caps`` takes every book page, its annotated headings set in capitals as the rulebooks'
PDFs set them (the corpus's 40k chapter: "ДВИЖЕНИЕ АРТИЛЛЕРИИ", small capitals), then run into
one line: five times as many pages as those whose copy already has its headings in capitals.
Its halves keep those pages where the first split put them (a page of the ``measure`` half
stays there), the others alternating; the ``tune`` half was read in issue 10's twenty-seventh
pass, the ``measure`` half never.

``.venv/bin/python benchmarks/flattened.py [--details] [--all] [--wrapped] [--caps]`` prints
sections, page citations and references to corpus rules (precision and recall) of each half;
``--details`` lists each ``tune`` page's section counts.
"""

from __future__ import annotations

import re
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import yaml  # noqa: E402
from detect_training import LEARNED_SETS  # noqa: E402
from gold import addresses, heldout_sets, page_kind  # noqa: E402
from gold_score import Score, load_annotation, score_all  # noqa: E402

from ingest import build, load  # noqa: E402
from kb import Graph  # noqa: E402
from rulekb.defaults import corpus_dir  # noqa: E402

CATEGORIES = ("sections", "page_refs", "named_refs_in_corpus")
CAPS_SHARE = 0.8  # a line in capitals: this share of its letters upper-case at least
CAPS_HEADINGS = 0.6  # a page of headings in capitals: this share of its sections so set


def _key(text: str) -> str:
    """A line's or a title's words, lower case, without a number before them ("9. Боевые
    Машины" is the line of the title "Боевые машины")."""
    return re.sub(r"\W+", " ", re.sub(r"^\s*\d+[.)]?\s+", "", text).lower()).strip()


def _heading_lines(text: str, annotation: dict[str, Any]) -> list[str]:
    """The line each annotated section's heading opens (found by its title's words)."""
    lines = [line.strip() for line in text.splitlines()]
    out = []
    for title, *_ in annotation["sections"]:
        key = _key(title)
        found = next((line for line in lines if key and _key(line).startswith(key)), None)
        if found is not None:
            out.append(found)
    return out


def _in_capitals(line: str) -> bool:
    letters = [c for c in line if c.isalpha()]
    return bool(letters) and sum(c.isupper() for c in letters) / len(letters) >= CAPS_SHARE


def capitals_page(text: str, annotation: dict[str, Any]) -> bool:
    """Whether most of a page's annotated headings stand in capitals on lines of their own."""
    heads = annotation["sections"]
    caps = sum(_in_capitals(line) for line in _heading_lines(text, annotation))
    return bool(heads) and caps / len(heads) >= CAPS_HEADINGS


def _first_heading(lines: list[str], annotation: dict[str, Any]) -> int:
    """The index of the line of the page's first annotated heading."""
    keys = [k for k in (_key(t) for t, *_ in annotation["sections"]) if k]
    return next((i for i, line in enumerate(lines)
                 if _key(line) and any(_key(line).startswith(k) for k in keys)), len(lines))


def flatten(text: str, annotation: dict[str, Any]) -> str:
    """The page run into one line from the line of its first annotated heading on."""
    lines = text.splitlines()
    first = _first_heading(lines, annotation)
    body = " ".join(line.strip() for line in lines[first:] if line.strip())
    return "\n".join([*lines[:first], body]) + "\n"


def capitalise_headings(text: str, annotation: dict[str, Any]) -> str:
    """The page with its annotated headings in capitals (from the first on): the title's
    words at the start of its line, not the text a line runs on with ("1) Редакция. Все
    игры …" → "1) РЕДАКЦИЯ. Все игры …")."""
    lines = text.splitlines()
    first = _first_heading(lines, annotation)
    # each title's line: the first that opens with its words (as :func:`_heading_lines`)
    heads: dict[int, str] = {}
    for title, *_ in annotation["sections"]:
        key = _key(title)
        at = next((i for i, line in enumerate(lines) if key and _key(line).startswith(key)),
                  None)
        if at is not None and at >= first and len(key) > len(heads.get(at, "")):
            heads[at] = key
    out = []
    for i, line in enumerate(lines):
        key = heads.get(i)
        if key is None:
            out.append(line)
            continue
        # the line up to the end of the title's last word
        words = len(key.split())
        ends = [m.end() for m in re.finditer(r"\w+", re.sub(r"^\s*\d+[.)]?\s+", lambda m:
                                                           " " * len(m.group()), line))]
        end = ends[words - 1] if len(ends) >= words else len(line)
        out.append(line[:end].upper() + line[end:])
    return "\n".join(out) + "\n"


def flatten_in_capitals(text: str, annotation: dict[str, Any]) -> str:
    """The page's headings set in capitals (:func:`capitalise_headings`), then run into one
    line (:func:`flatten`)."""
    return flatten(capitalise_headings(text, annotation), annotation)


WRAP_WIDTH = 50
WRAPPED_LONGER = 60  # lines longer than this are wrapped


def wrap(text: str, annotation: dict[str, Any]) -> str:
    """The page's lines from its first annotated heading on wrapped at :data:`WRAP_WIDTH`."""
    lines = text.splitlines()
    first = _first_heading(lines, annotation)
    out = lines[:first]
    for line in lines[first:]:
        out.extend(textwrap.wrap(line, WRAP_WIDTH) if len(line) > WRAPPED_LONGER else [line])
    return "\n".join(out) + "\n"


def pages(every: bool) -> dict[str, list[tuple[str, str]]]:
    """(set, page) of the book pages taken, in the sets' order, split into the two halves."""
    taken = []
    sets = heldout_sets()
    for name in LEARNED_SETS:
        label = "held-out" if name == "heldout" else name
        folder = sets[label]
        anns = load_annotation((folder / "annotations.yaml").read_text(encoding="utf-8"))
        where = addresses(folder)
        for page in anns:
            if page_kind(page, where.get(page), anns[page]) != "book":
                continue
            if every or capitals_page((folder / page).read_text(encoding="utf-8"), anns[page]):
                taken.append((label, page))
    return {"tune": taken[0::2], "measure": taken[1::2]}


def caps_pages() -> dict[str, list[tuple[str, str]]]:
    """Every book page split in two halves for ``--caps``: the pages whose headings already
    stand in capitals keep their half of :func:`pages`, the others alternate."""
    first = pages(every=False)
    kept = {page: half for half, chosen in first.items() for page in chosen}
    out: dict[str, list[tuple[str, str]]] = {"tune": [], "measure": []}
    every = pages(every=True)
    rest = sorted((page for page in every["tune"] + every["measure"] if page not in kept),
                  key=_order)
    for k, page in enumerate(rest):
        out["tune" if k % 2 == 0 else "measure"].append(page)
    for page, half in kept.items():
        out[half].append(page)
    for half in out:
        out[half].sort(key=_order)
    return out


def _order(page: tuple[str, str]) -> tuple[int, str]:
    """A page's place in the sets' order (:data:`LEARNED_SETS`)."""
    label, name = page
    return (LEARNED_SETS.index("heldout" if label == "held-out" else label), name)


def score(chosen: list[tuple[str, str]], shape: Any = flatten) -> dict[str, dict[str, Score]]:
    """Each chosen page reshaped (``shape``) and built with the corpus, its system stated."""
    sets = heldout_sets()
    out: dict[str, dict[str, Score]] = {}
    by_set: dict[str, list[str]] = {}
    for label, page in chosen:
        by_set.setdefault(label, []).append(page)
    for label, names in by_set.items():
        folder = sets[label]
        anns = load_annotation((folder / "annotations.yaml").read_text(encoding="utf-8"))
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / folder.name
            copy.mkdir()
            for page in names:
                text = (folder / page).read_text(encoding="utf-8")
                (copy / page).write_text(shape(text, anns[page]), encoding="utf-8")
            (copy / "annotations.yaml").write_text(
                yaml.safe_dump({p: anns[p] for p in names}, allow_unicode=True), encoding="utf-8")
            (copy / "corpus.toml").write_text("\n".join(
                f'[files."{p}"]\nsystem = "{anns[p]["system"]}"\n' for p in names),
                encoding="utf-8")
            graph = Graph(build(load([corpus_dir(), copy])).kb)
            for page, by_category in score_all(graph, copy).items():
                out[f"{label}/{page}"] = by_category
    return out


def totals(scores: dict[str, dict[str, Score]]) -> str:
    parts = []
    for category in CATEGORIES:
        got = [s[category] for s in scores.values()]
        gm, gt = sum(s.gold_matched for s in got), sum(s.gold_total for s in got)
        km, kt = sum(s.kb_matched for s in got), sum(s.kb_total for s in got)
        parts.append(f"{category} {km / kt if kt else 1:.2f}/{gm / gt if gt else 1:.2f}"
                     f" ({km}/{kt}, {gm}/{gt})")
    return "; ".join(parts)


def main() -> None:
    print("precision/recall (matched/found, matched/annotated)")
    wrapped = "--wrapped" in sys.argv
    if "--caps" in sys.argv:
        for half, chosen in caps_pages().items():
            scores = score(chosen, flatten_in_capitals)
            print(f"{half:<8} every book page, headings set in capitals, in one line, "
                  f"{len(chosen)} pages: {totals(scores)}")
            if "--details" in sys.argv and half == "tune":
                for page, by_category in scores.items():
                    s = by_category["sections"]
                    print(f"  {page}: sections {s.kb_matched}/{s.kb_total}, "
                          f"{s.gold_matched}/{s.gold_total}")
        return
    for every in (False, True) if "--all" in sys.argv else (False,):
        for half, chosen in pages(every).items():
            scores = score(chosen, wrap if wrapped else flatten)
            what = ("every book page" if every else "headings in capitals") + (
                ", wrapped" if wrapped else ", in one line")
            print(f"{half:<8} {what}, {len(chosen)} pages: {totals(scores)}")
            if "--details" in sys.argv and half == "tune" and not every:
                for page, by_category in scores.items():
                    s = by_category["sections"]
                    print(f"  {page}: sections {s.kb_matched}/{s.kb_total}, "
                          f"{s.gold_matched}/{s.gold_total}")


if __name__ == "__main__":
    main()
