"""Sentences of a rule's text, so a report can quote the one sentence that decides a verdict.

Rule texts come with line breaks where the source page wrapped a line ("вы можете объявить,
что она\\nбудет продвигаться"): a break inside a sentence is a space, a break after a
sentence's end or before a bullet ends it.

>>> sentences("Модель не может стрелять.\\nОна может\\nбежать. • Пункт")
['Модель не может стрелять.', 'Она может бежать.', '• Пункт']
"""

from __future__ import annotations

import re

from kb.lemmas import fold

# A sentence ends at . ! ? … (not the period of "см. стр. 5" or "т.е.") before a capital,
# digit, quote or bullet; a blank line or a bullet (the flattened PDF has them mid-line) too.
_END = re.compile(
    r"(?<!\bсм)(?<!\bстр)(?<!\bт)(?<!\bт\.е)[.!?…]+[\"»)]?(?=\s+[А-ЯЁA-Z«\d•–—-])"
    r"|:(?=\s*\n)"
    r"|\n\s*\n"
    r"|\n(?=\s*[•–—-])"
    r"|(?<=\S)(?=\s+•)"
)


def sentences(text: str) -> list[str]:
    """The sentences of ``text``, each with its inner whitespace collapsed to single spaces."""
    out: list[str] = []
    start = 0
    for m in _END.finditer(text):
        piece = " ".join(text[start:m.end()].split())
        if piece:
            out.append(piece)
        start = m.end()
    tail = " ".join(text[start:].split())
    if tail:
        out.append(tail)
    return out


def stem_match(sentence: str, stems: tuple[str, ...]) -> bool:
    """Whether every stem occurs in ``sentence`` (folded: case, ё, hyphens do not matter).

    A stem is the start of a word as the text writes it ("турбо-ускор", "не может стрел");
    several words in one stem must follow each other.
    """
    key = fold(sentence).replace("-", " ")
    return all(fold(stem).replace("-", " ") in key for stem in stems)


# Cardinal numbers written as words, by lemma: "хотя бы один номер расчета", "двух".
_CARDINALS = {"один": 1, "два": 2, "три": 3, "четыре": 4, "пять": 5, "шесть": 6, "семь": 7,
              "восемь": 8, "девять": 9, "десять": 10}


def cardinal_after(sentence: str, stem: str) -> int | None:
    """The number the first word after ``stem`` states, in digits or in words; else ``None``.

    >>> cardinal_after("требуется хотя бы один номер расчета на орудие", "хотя бы")
    1
    >>> cardinal_after("не более 2 раз", "не более")
    2
    """
    from kb.lemmas import lemma

    key = fold(sentence)
    at = key.find(fold(stem))
    if at < 0:
        return None
    following = key[at + len(stem):].split()
    if not following:
        return None
    word = following[0].strip(".,;:!?»)")
    if word.isdigit():
        return int(word)
    return _CARDINALS.get(lemma(word))
