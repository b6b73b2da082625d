"""The words' table learned (:mod:`ingest.detect`): each game's training pages, and the
table ``ingest/data/system_terms.tsv`` written from them (``tests/detect_training.py`` runs it;
a build only reads the table)."""

from __future__ import annotations

from collections.abc import Iterable

from ingest.detect import CLASSES, MIN_PAGES, Model, pieces
from ingest.detect_terms import terms


def without_shared_lines(texts: list[str]) -> list[str]:
    """Each text without the lines (spaces aside) that two or more of the texts hold: a
    site's header or footer, no game's words (:func:`train`, and the letters' training)."""
    seen: dict[str, int] = {}
    for text in texts:
        for line in {" ".join(line.split()) for line in text.splitlines()} - {""}:
            seen[line] = seen.get(line, 0) + 1
    return ["\n".join(line for line in text.splitlines()
                      if seen.get(" ".join(line.split()), 0) < 2) for text in texts]


def train(documents: Iterable[tuple[str, str]]) -> Model:
    """A model from (class, text) pairs.

    Each text is cut into pieces of about a page, and counts for its class as one source: a
    term's count is the share of the text's pieces holding it, so a long chapter weighs as
    much as a short page and its pieces do not vote many times.

    A line that stands in two or more of the texts (a site's header or footer: "Добавил:",
    "Вуз: Предмет: Файл:", "Скачать") is a site's, not a game's, and is left out, so that the
    site a game's pages happen to come from does not become a word of that game.
    """
    documents = list(documents)
    pages = {c: 0 for c in CLASSES}
    counts: dict[str, list[float]] = {}
    held: dict[str, int] = {}
    for (cls, _), text in zip(documents, without_shared_lines([t for _, t in documents]),
                              strict=True):
        index = CLASSES.index(cls)
        cut = pieces(text)
        if not cut:
            continue
        pages[cls] += 1
        share: dict[str, int] = {}
        for piece in cut:
            for term in terms(piece):
                share[term] = share.get(term, 0) + 1
        for term, n in share.items():
            counts.setdefault(term, [0.0] * len(CLASSES))[index] += n / len(cut)
            held[term] = held.get(term, 0) + 1
    kept = {t: tuple(round(n, 3) for n in c) for t, c in counts.items()
            if held[t] >= MIN_PAGES}
    return Model(pages, kept)


def table(trained: Model) -> str:
    """The table of a model, sorted, as ``ingest/data/system_terms.tsv`` holds it."""
    header = "# " + " ".join(f"{c}={trained.pages[c]}" for c in CLASSES)
    columns = "# term\t" + "\t".join(CLASSES)
    rows = [f"{t}\t" + "\t".join(f"{n:g}" for n in trained.counts[t])
            for t in sorted(trained.counts)]
    return "\n".join([header, columns, *rows]) + "\n"
