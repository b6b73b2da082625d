"""A second opinion on a text's game, from the letters of its words: a linear model over
character n-grams, asked only where the words (:mod:`ingest.detect`) leave the game unclear.

The words' model weighs lemmas and their pairs; a short page holds few of them, and a page
whose rules words two games share leads by too little. The letters see what lemmas lose: the
endings and stems of a translation's own coinages, the English glosses in brackets, the
abbreviations of a profile. Each word, padded with a space at each end, gives its runs of 3 to
5 characters (scikit-learn's ``char_wb`` analyser, lower case), counted, damped as ``1 +
log(count)``, weighed by how rare the run is among the training sources (``idf``) and scaled
to unit length; each class scores the sum of its weights over the runs plus its intercept (a
linear support vector machine, one class against the rest, learned by
``tests/detect_training.py`` from the same sources as the words' table, with scikit-learn,
and written to :data:`TABLE`). The best class must lead the next by :data:`MARGIN`, and be a
game of ours, not ``other``.

Left out with every source in turn, the opinion names 2 more of the 169 copies of the books
right when the words leave them unclear (155 of 169), 7 more by their first 550 characters
(130), and no page of another game (``tests/detect_training.py --check``).
"""

from __future__ import annotations

import math
import operator
from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib import resources

TABLE = "data/system_chars.tsv"
NGRAMS = (3, 5)
"""The lengths of the character runs (scikit-learn's ``ngram_range``)."""
MARGIN = 0.5
"""How far the best class's score must lead the next one's (the scores of a linear support
vector machine: 0 is its boundary, 1 its margin). Left out in turn, the training sources
judged by their words and, where these leave them unclear, by letters: 0.3 names pages of
other games; 0.5 and 0.6 the most pages of ours and none of theirs; 0.8 gains nothing."""
MAX_CHARS = 20_000
"""Characters of a text the letters are read from at most (a chapter's first pages tell its
game as well as the whole; the training sources are pages and chapters of up to 17,000)."""


def char_ngrams(text: str) -> Counter[str]:
    """The runs of :data:`NGRAMS` characters of each word of ``text`` in lower case, padded with
    a space at each end, counted (as scikit-learn's ``char_wb`` analyser cuts them: a word
    shorter than a run gives itself once).

    >>> sorted(char_ngrams("Ко"))
    [' ко', ' ко ', 'ко ']
    >>> char_ngrams("боя боя")[" бо"]
    2
    """
    low, high = NGRAMS
    # (a padded word is three characters at least; one no longer than a run is itself its one
    # run of its own length, counted once: the runs of each length up to its own)
    return Counter([padded[i:i + n] for padded in (f" {word} " for word in text.lower().split())
                    for n in range(low, high + 1) for i in range(len(padded) - n + 1)])


@dataclass(frozen=True)
class CharModel:
    """The learned runs: each one's ``idf`` and per-class weights, and the classes'
    intercepts."""

    classes: tuple[str, ...]
    intercepts: tuple[float, ...]
    runs: dict[str, tuple[float, tuple[float, ...]]]  # run → (idf, a weight per class)

    def scores(self, text: str) -> dict[str, float]:
        """Each class's score for ``text`` (its first :data:`MAX_CHARS` characters)."""
        found = []
        for run, count in char_ngrams(text[:MAX_CHARS]).items():
            known = self.runs.get(run)
            if known is not None:
                found.append(((1 + math.log(count)) * known[0], known[1]))
        norm = math.sqrt(sum(x * x for x, _ in found)) or 1.0
        counts = [x for x, _ in found]
        # (each class's weights of the runs found, a column at a time: the same sums, in the
        # same order, as a run at a time)
        columns = list(zip(*[w for _, w in found], strict=True)) or [()] * len(self.classes)
        return {c: b + sum(map(operator.mul, counts, column)) / norm
                for c, b, column in zip(self.classes, self.intercepts, columns, strict=True)}

    def opinion(self, text: str) -> tuple[str, float]:
        """The best class for ``text`` and its lead over the next."""
        ranked = sorted(self.scores(text).items(), key=lambda item: (-item[1], item[0]))
        return ranked[0][0], ranked[0][1] - ranked[1][1]


def letters_opinion(text: str, model: CharModel | None = None) -> tuple[str, float]:
    """The class the letters of ``text`` lean to and by how much (the committed table's model
    when ``model`` is not given); a game of ours leading by :data:`MARGIN` at least decides."""
    return (model or char_model()).opinion(text)


@cache
def char_model() -> CharModel:
    """The model of ``ingest/data/system_chars.tsv``."""
    return parse_char_table(resources.files("ingest").joinpath(TABLE).read_text(encoding="utf-8"))


def char_table(model: CharModel) -> str:
    """The table of a model, as :data:`TABLE` holds it: a header of the classes and their
    intercepts, then a run a line (a tab, its idf, a tab-separated weight per class), sorted.
    A run's characters are written as they are (a space is a space: the tab separates)."""
    header = "# " + " ".join(f"{c}={b:.6g}" for c, b in zip(model.classes, model.intercepts,
                                                              strict=True))
    rows = [f"{run}\t{idf:.6g}\t" + "\t".join(f"{w:.5g}" for w in weights)
            for run, (idf, weights) in sorted(model.runs.items())]
    return "\n".join([header, *rows]) + "\n"


def parse_char_table(text: str) -> CharModel:
    """Read a table written by :func:`char_table`."""
    lines = text.split("\n")
    classes, intercepts = [], []
    for cell in lines[0].removeprefix("# ").split():
        name, _, value = cell.partition("=")
        classes.append(name)
        intercepts.append(float(value))
    runs: dict[str, tuple[float, tuple[float, ...]]] = {}
    for line in lines[1:]:
        if not line:
            continue
        run, idf, *weights = line.split("\t")
        runs[run] = (float(idf), tuple(map(float, weights)))
    return CharModel(tuple(classes), tuple(intercepts), runs)
