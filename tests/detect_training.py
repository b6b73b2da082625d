"""The pages the game-detection tables are learned from: the words' (``ingest/data/
system_terms.tsv``) and the letters' (``ingest/data/system_chars.tsv``, with scikit-learn, a
development dependency).

``.venv/bin/python tests/detect_training.py`` writes the tables anew; ``--check`` prints each
training source's system as judged by a model learned without that source (leave one source
out), the figure to watch when changing the detection (``--kinds`` by kind of page,
``--first N`` each judged by its first N characters: a short page). The sources are the corpus
files (systems from their annotations in ``data/gold``), the pages of the sets of
``data/heldout``
that have been read (:data:`LEARNED_SETS`; systems from their annotations, a page of another
game, ``system: null``, of class ``other``) and ``data/detect/<class>/`` (more pages: of Kill
Team, and of other wargames, class ``other``). A clean set is never learned from.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ingest.detect import CLASSES, MIN_PAGES, TABLE, Model, pieces  # noqa: E402
from ingest.detect_chars import NGRAMS, CharModel, char_table  # noqa: E402
from ingest.detect_chars import TABLE as CHARS_TABLE  # noqa: E402
from ingest.detect_terms import terms  # noqa: E402
from ingest.detect_train import table, train, without_shared_lines  # noqa: E402
from ingest.text_identity import detection_text  # noqa: E402

DATA = Path(__file__).parent / "data"
CORPUS = ROOT.parent / "shared" / "corpus"
LEARNED_SETS = ("dev", "heldout", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6",
                "fresh7", "fresh8", "fresh9", "fresh10", "fresh11", "fresh12", "fresh13", "fresh14",
                "fresh15", "fresh16", "fresh17", "fresh18", "fresh19", "fresh20", "fresh21",
                "fresh22", "fresh23", "fresh24", "fresh25", "fresh26", "fresh27", "fresh28",
                "fresh29", "fresh30", "fresh31", "fresh32", "fresh33", "fresh34", "fresh35",
                "fresh36", "fresh37", "fresh38", "fresh39", "fresh40", "dev2")
"""The sets of ``data/heldout`` learned from: the development sets, those read (``fresh13`` …
``fresh16`` since issue 10's eleventh pass, ``fresh17`` … ``fresh19`` since its twelfth,
``fresh20`` … ``fresh22`` since its thirteenth, ``fresh23`` … ``fresh31`` since its
fourteenth, ``fresh32`` … ``fresh37`` since its fifteenth, ``fresh38`` … ``fresh40`` since its
sixteenth, once
each had measured a change as a clean set);
a clean set is never learned from."""
EVAL = DATA / "detect" / "eval"
"""Pages of each class measured on, never learned from (``--eval``): articles, forums and
reviews of the three games, other editions of them, and other games' pages."""


def sources() -> list[tuple[str, str, str]]:
    """(class, source name, text) of every training source, in a fixed order."""
    out: list[tuple[str, str, str]] = []
    for path in sorted((DATA / "gold").glob("*.yaml")):
        for name, ann in yaml.safe_load(path.read_text(encoding="utf-8")).items():
            out.append((ann["system"], name, (CORPUS / name).read_text(encoding="utf-8-sig")))
    for folder in LEARNED_SETS:
        anns = yaml.safe_load((DATA / "heldout" / folder / "annotations.yaml")
                              .read_text(encoding="utf-8"))
        for name in sorted(anns):
            text = (DATA / "heldout" / folder / name).read_text(encoding="utf-8")
            out.append((anns[name]["system"] or "other", f"{folder}/{name}", text))
    for cls in CLASSES:
        for path in sorted((DATA / "detect" / cls).glob("*.txt")):
            out.append((cls, f"detect/{cls}/{path.name}", path.read_text(encoding="utf-8")))
    return out


def learned() -> Model:
    """The model of every training source."""
    return train((cls, text) for cls, _, text in sources())


def learned_letters() -> CharModel:
    """The letters' model of every training source."""
    return learned_chars([(cls, detection_text(text)) for cls, _, text in sources()])


def learned_chars(documents: list[tuple[str, str]]) -> CharModel:
    """The letters' model (:mod:`ingest.detect_chars`) from (class, text) pairs, each text
    without its site's furniture: a linear support vector machine over the texts' character
    runs, learned by scikit-learn (a development dependency: the build reads the table). As
    for the words' table, a line two texts hold is a site's and left out."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    kept = [(cls, text) for cls, text in zip((c for c, _ in documents),
                                             without_shared_lines([t for _, t in documents]),
                                             strict=True) if text.strip()]
    vectorizer = TfidfVectorizer(analyzer="char_wb", ngram_range=NGRAMS, min_df=2,
                                 sublinear_tf=True)
    x = vectorizer.fit_transform([text for _, text in kept])
    columns = sorted(vectorizer.vocabulary_.items(), key=lambda item: item[1])
    return _fitted([run for run, _ in columns], vectorizer.idf_, x, [cls for cls, _ in kept])


def _fitted(runs: list[str], idf: Any, x: Any, classes: list[str]) -> CharModel:
    """The letters' model of a machine fitted to ``x`` (a row a text, a column a run, as
    tf-idf of unit length) and the texts' ``classes``."""
    from sklearn.svm import LinearSVC

    svm = LinearSVC(C=1.0, class_weight="balanced", dual=True, max_iter=20_000, random_state=0)
    svm.fit(x, classes)
    return CharModel(tuple(str(c) for c in svm.classes_),
                     tuple(float(b) for b in svm.intercept_),
                     {run: (float(idf[k]), tuple(float(w) for w in svm.coef_[:, k]))
                      for k, run in enumerate(runs)})


def leave_one_out(first: int | None = None) -> list[tuple[str, str, str | None, float]]:
    """(source, its class, the system judged without it, margin) for every source; with
    ``first``, each judged by that many characters of its text only (without its site's
    furniture, cut at a word): a short page's worth. A source its words leave unclear is
    judged by the letters of a model learned without it too (:mod:`ingest.detect_chars`)."""
    everything = sources()
    seen = [detection_text(text) for _, _, text in everything]
    letters = _LettersWithoutEach([(c, t) for (c, _, _), t in zip(everything, seen, strict=True)])
    out = []
    models = _models_without_each([(c, t) for c, _, t in everything])
    for i, ((cls, name, text), rest) in enumerate(zip(everything, models, strict=True)):
        if first is None:
            judged_text, page = seen[i], text  # as a build judges it (the names of games in
            # the site's furniture count: ingest.text_identity.detect_system)
        else:
            judged_text = page = _first_chars(seen[i].strip(), first)
        judged = rest.judge(judged_text, page, by_letters=False)
        if judged.system is None:
            judged = rest.judge(judged_text, page, chars=letters.without(i))
        out.append((name, cls, judged.system, judged.margin))
    return out


class _LettersWithoutEach:
    """For a document left out, the letters' model :func:`learned_chars` learns from all the
    others, the same but for rounding (10⁻¹⁵) at a fraction of the cost: every document's
    character runs are counted once, and a fold only drops a row, replaces the rows of the
    documents whose lines it shared with the left-out one alone (a site's line two documents
    hold is left out of both; without one, the other keeps it), and keeps the runs two of its
    rows hold, as the vectorizer's ``min_df`` does."""

    def __init__(self, documents: list[tuple[str, str]]) -> None:
        from sklearn.feature_extraction.text import CountVectorizer

        self.documents = documents
        self.texts = without_shared_lines([t for _, t in documents])
        self.vectorizer = CountVectorizer(analyzer="char_wb", ngram_range=NGRAMS)
        self.counts = self.vectorizer.fit_transform(self.texts).tocsr()
        self.names = self.vectorizer.get_feature_names_out()
        self.partners: dict[int, set[int]] = {k: set() for k in range(len(documents))}  # k →
        # who shared a line with k alone
        for a, b in _held_by([t for _, t in documents])[1].values():
            self.partners[a].add(b)
            self.partners[b].add(a)

    def without(self, i: int) -> CharModel:
        import numpy as np
        import scipy.sparse as sp
        from sklearn.preprocessing import normalize

        texts = list(self.texts)
        if self.partners[i]:
            others = without_shared_lines([t for j, (_, t) in enumerate(self.documents)
                                            if j != i])
            for k in self.partners[i]:
                texts[k] = others[k - (k > i)]
        rows = [k for k in range(len(texts)) if k != i and texts[k].strip()]
        matrix = sp.vstack([self.vectorizer.transform([texts[k]]) if k in self.partners[i]
                            else self.counts[k] for k in rows]).tocsr()
        df = np.asarray((matrix > 0).sum(axis=0)).ravel()
        keep = np.flatnonzero(df >= 2)
        matrix = matrix[:, keep].astype(np.float64)
        matrix.data = 1 + np.log(matrix.data)
        idf = np.log((1 + len(rows)) / (1 + df[keep])) + 1
        return _fitted([str(self.names[col]) for col in keep], idf,
                       normalize(matrix @ sp.diags(idf)), [self.documents[k][0] for k in rows])


def _held_by(texts: list[str]) -> tuple[list[set[str]], dict[str, tuple[int, int]]]:
    """Each text's lines (spaces aside), and every line exactly two texts hold → the two: a
    site's line, left out of both, that one keeps when the other is left out."""
    line_sets = [{" ".join(line.split()) for line in text.splitlines()} - {""} for text in texts]
    held: dict[str, list[int]] = {}
    for k, lines in enumerate(line_sets):
        for line in lines:
            held.setdefault(line, []).append(k)
    return line_sets, {line: (ks[0], ks[1]) for line, ks in held.items() if len(ks) == 2}


def _models_without_each(documents: list[tuple[str, str]]) -> Iterator[Model]:
    """For each document in turn, the model :func:`ingest.detect_train.train` learns from all the
    others, the same to the last digit, at a small cost each: the documents' terms are read
    once, and a model differs from the whole's only in the terms the document left out holds
    and in those of the documents whose lines it shared with one other document only (a
    site's line that two documents hold is left out of both; without one of them, the other
    keeps it). Each sum runs over the documents in their order, as training adds them."""
    line_sets, holders = _held_by([text for _, text in documents])
    seen: dict[str, int] = {}  # line → how many documents hold it
    for lines in line_sets:
        for line in lines:
            seen[line] = seen.get(line, 0) + 1

    def kept(line: str, k: int, without: int | None) -> bool:
        """Whether document ``k`` keeps a line when document ``without`` is left out."""
        n = seen.get(line, 0)
        return n < 2 or (n == 2 and without is not None and without in holders[line]
                         and k in holders[line])

    def shares(k: int, without: int | None = None) -> dict[str, float] | None:
        text = "\n".join(line for line in documents[k][1].splitlines()
                         if kept(" ".join(line.split()), k, without))
        cut = pieces(text)
        if not cut:
            return None
        count: dict[str, int] = {}
        for piece in cut:
            for term in terms(piece):
                count[term] = count.get(term, 0) + 1
        return {term: n / len(cut) for term, n in count.items()}

    every = [shares(k) for k in range(len(documents))]
    index = [CLASSES.index(cls) for cls, _ in documents]
    held_by: dict[str, list[int]] = {}  # term → the documents holding it, in order
    for k, share in enumerate(every):
        for term in share or ():
            held_by.setdefault(term, []).append(k)

    def counts(term: str, skip: int, changed: dict[int, dict[str, float] | None]
               ) -> tuple[tuple[float, ...], int]:
        sums = [0.0] * len(CLASSES)
        held = 0
        docs = sorted({*held_by.get(term, ()), *(k for k, sh in changed.items()
                                                  if sh and term in sh)})
        for k in docs:
            share = changed[k] if k in changed else every[k]
            if k == skip or not share or term not in share:
                continue
            sums[index[k]] += share[term]
            held += 1
        return tuple(round(n, 3) for n in sums), held

    whole = train(documents)
    for i in range(len(documents)):
        # the documents that kept none of the lines they shared with document i alone
        changed = {k: shares(k, i) for k in sorted({k for line in line_sets[i] if seen[line] == 2
                                                     for k in holders[line] if k != i})}
        pages = dict(whole.pages)
        for k, share in [(i, None), *changed.items()]:
            before, after = every[k] is not None, share is not None and k != i
            pages[documents[k][0]] += after - before
        kept_counts = dict(whole.counts)
        for term in {*(every[i] or ()), *(t for k in changed for t in (every[k] or ())),
                     *(t for sh in changed.values() for t in (sh or ()))}:
            sums, held = counts(term, i, changed)
            if held >= MIN_PAGES:
                kept_counts[term] = sums
            else:
                kept_counts.pop(term, None)
        yield Model(pages, kept_counts)


def _first_chars(text: str, n: int) -> str:
    """The first ``n`` characters of a text, cut at a word when one ends in its second half."""
    if len(text) <= n:
        return text
    cut = text.rfind(" ", 0, n)
    return text[:cut if cut > n // 2 else n]


def evaluation() -> list[tuple[str, str, str | None, float]]:
    """(page, its class, the system the committed table judges, margin) for every page of
    ``data/detect/eval/<class>/``, judged as a build judges it."""
    from ingest.detect import model

    out = []
    for cls in CLASSES:
        for path in sorted((EVAL / cls).glob("*.txt")):
            text = path.read_text(encoding="utf-8")
            judged = model().judge(detection_text(text), text)
            out.append((f"{cls}/{path.name}", cls, judged.system, judged.margin))
    return out


def _report(rows: list[tuple[str, str, str | None, float]], what: str) -> None:
    right = 0
    for name, cls, system, margin in rows:
        expected = None if cls == "other" else cls
        right += system == expected
        mark = "ok " if system == expected else "MISS"
        print(f"{mark} {name:<52} {cls:<13} {system!s:<13} {margin:6.1f}")
    print(f"{right}/{len(rows)} judged right, {what}")
    if "--kinds" in sys.argv:
        for line in _by_kind(rows):
            print(line)


def _by_kind(rows: list[tuple[str, str, str | None, float]]) -> list[str]:
    """Right, wrong and unclear judgements of the held-out sets' pages by kind of page
    (``benchmarks/gold.py``'s :func:`page_kind`: copies of the books, other web pages of our
    games, other games' pages)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("gold_bench", ROOT / "benchmarks" / "gold.py")
    assert spec is not None and spec.loader is not None
    gold = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gold)
    where: dict[str, dict[str, str]] = {}
    tally: dict[str, list[int]] = {}
    for name, cls, system, _ in rows:
        folder, _, page = name.partition("/")
        if folder not in LEARNED_SETS:
            continue  # the corpus and data/detect: no page of a set
        if folder not in where:
            where[folder] = gold.addresses(DATA / "heldout" / folder)
        expected = None if cls == "other" else cls
        kind = gold.page_kind(page, where[folder].get(page), {"system": expected})
        counts = tally.setdefault(kind, [0, 0, 0])
        counts[0 if system == expected else 2 if system is None else 1] += 1
    return [f"{kind}: {r} right, {w} wrong, {u} unclear of {r + w + u}"
            for kind, (r, w, u) in sorted(tally.items())]


def main() -> None:
    if "--eval" in sys.argv:
        _report(evaluation(), "by the committed table (pages it never learned from)")
        return
    if "--check" in sys.argv:
        first = int(sys.argv[sys.argv.index("--first") + 1]) if "--first" in sys.argv else None
        _report(leave_one_out(first), "each without its own source"
                + (f", by its first {first} characters" if first else ""))
        return
    (ROOT / "ingest" / TABLE).write_text(table(learned()), encoding="utf-8")
    (ROOT / "ingest" / CHARS_TABLE).write_text(char_table(learned_letters()), encoding="utf-8")


if __name__ == "__main__":
    main()
