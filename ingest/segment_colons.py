"""Rules whose names run into their text after a colon, as an army book's entry lists them
("Аура безумия: Каждый вражеский отряд …"): told from a field and its value ("Цель: …",
"Тип отряда: Монстр") by their names, their sentences and the entries around them.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from ingest.game_names import names_a_game
from ingest.sections import is_cyrillic
from ingest.segment_headings import _FIELD, _first_clause, _has_finite_verb
from kb.lemmas import all_pos, lemma, pos, words

# "Аура безумия: Каждый вражеский отряд …": a rule's name, a colon and its text as a sentence,
# at a line's start or after the sentence (or the profile's value) before it (a conjunction or a
# preposition of one letter may join its words: "Пророк Горка и Морка: Если …")
# (a footnote's mark may open it, and the rule's English name in brackets close it: "*Раздирающий
# (Rending): При каждом выпадении 6 …")
_COLON_RUN_IN = re.compile(
    r"(?:^\*?|(?<=[.!?»”\"\d])[^\S\n]+)([А-ЯЁ][а-яё]+(?:[^\S\n]+(?:[А-ЯЁа-яё][а-яё]+|[исво]))"
    r"{0,4}"
    r"(?:[^\S\n]+\([A-Za-z][A-Za-z' &-]*\))?):[^\S\n]+(?=[А-ЯЁ«])", re.MULTILINE)
_ENGLISH_GLOSS = re.compile(r"\s+\([A-Za-z][A-Za-z' &-]*\)$")
# "The Element of Surprise: До расстановки …": a rule's English name before its Russian text,
# at a line's start
_ENGLISH_COLON_RUN_IN = re.compile(
    r"^\*?([A-Z][A-Za-z'-]+(?:,?[^\S\n]+[A-Za-z][A-Za-z'-]*){0,5}):[^\S\n]+(?=[А-ЯЁ«])",
    re.MULTILINE)
# a text's asides, no rule's names nor headings of their own ("Пример:" / "Например, …",
# "Примечание:", "Note:"; a question, an answer or an edit of a post in English)
ASIDES = frozenset({"пример", "примечание", "замечание", "исключение", "внимание", "важно",
                    "совет", "подсказка", "уточнение", "note", "example", "faq", "question",
                    "answer", "upd", "ps", "edit", "update", "source", "quote", "re"})
# where such an entry may be: a colon before a capital (searched first, as it is rare; the name
# before it is then matched in the characters just before)
_COLON_CAPITAL = re.compile(r":[^\S\n]+[А-ЯЁ«]")
_MAX_NAME_CHARS = 100
_COLON_TEXT_WORDS = 5  # the words of the sentence after the name, at least
_COLON_NEAR = 1_500  # characters between two entries of one list of rules
_PREDICATES = frozenset({"VERB", "INFN", "ADJS", "PRTS", "PRED"})
_NAME_HEADS = frozenset({"NOUN", "ADJF", "PRTF"})
# a capitalised word inside a sentence, not before a colon: a name the text uses
_NAMED_INSIDE = re.compile(r"[\w,][^\S\n]+([А-ЯЁ][а-яё]+)(?![\w:])")


def _title_case(name: str) -> bool:
    """Whether a name of two words or more capitalises every word ("Осадное Оборудование"), as
    a sentence's words never are: a rule's name, even with no other entry near it."""
    toks = [t for t in name.split() if len(t) > 1]  # (a conjunction of one letter is no word
    # of the name's: "Пророк Горка и Морка")
    return len(toks) >= 2 and all(t[:1].isupper() for t in toks)


def colon_run_ins(text: str) -> dict[int, tuple[int, int]]:
    """Rules whose names run into their text after a colon, as an army book's entry lists
    them ("Аура безумия: Каждый вражеский отряд …", "Ловкий язык: Бармаглот может …"): where
    each name starts → where it ends and where its text starts.

    A field and its value ("Цель: Планируйте действия заранее.", "Важно знать: В 10-й
    редакции …", "Тип отряда: Монстр") looks the same, so an entry must show it is a rule: its
    name is a noun phrase (its first word a noun or an adjective) of two words or more, or of
    one that the text also writes capitalised inside a sentence (a rule listed by name: "…,
    Ужас, …"); its text is a sentence (five words or more with a predicate); and it stands in
    a list of such entries, another within :data:`_COLON_NEAR` characters of it, or its name
    capitalises every word (:func:`_title_case`) or ends with its English name in brackets
    ("*Раздирающий (Rending): При каждом …", a translation's rule glossed as a name is).
    """
    found: list[tuple[int, int, int]] = []
    named: set[str] | None = None
    after = 0  # the end of the colon before: a name never holds one
    for colon in _COLON_CAPITAL.finditer(text):
        start, after = max(after, colon.start() - _MAX_NAME_CHARS), colon.start() + 1
        m = _COLON_RUN_IN.search(text, start, colon.end())
        english = False
        if m is None:
            # a translation that keeps the rules' English names: "Prepared Ground: Если в игре
            # есть маркеры, …" at a line's start
            m = _ENGLISH_COLON_RUN_IN.search(text, start, colon.end())
            if m is None or m.group(1).split()[0].lower() in ASIDES \
                    or names_a_game(m.group(1)):
                continue  # ("Kill Team: Это небольшая игра …" defines a game, no rule)
            english = True
        name = m.group(1)
        glossed = english or _ENGLISH_GLOSS.search(name) is not None
        toks = words(_ENGLISH_GLOSS.sub("", name))
        if not english and (pos(toks[0]) not in _NAME_HEADS or _has_finite_verb(name)
                            or lemma(toks[0]) in ASIDES):
            continue  # ("Примечание: Это правило …" under a lead-in is the list's aside)
        after_colon = text[m.end():m.end() + 400]
        line = after_colon.split("\n", 1)[0]
        # (its line, when that holds a sentence's words: the next line may be the next entry,
        # "Prepared Ground: Если … (не в технику)" / "Fortress-bound: …")
        sentence = _first_clause(line if len(words(line)) >= _COLON_TEXT_WORDS else after_colon)
        said = words(sentence)
        # (a verb inside a sentence is in lower case: "Правила", "Полет" of a list are names;
        # a colon ending the sentence leads in to the rule's options: "The Element of
        # Surprise: До расстановки … Рейдер может выбрать одну из опций:")
        if len(said) < _COLON_TEXT_WORDS or ":" in sentence.rstrip().removesuffix(":") or not any(
                is_cyrillic(w[0]) and w[0].islower() and all_pos(w) & _PREDICATES
                for w in said):
            continue
        if len(toks) == 1 and not glossed and not _under_lead_in(text, m.start(1), found):
            if named is None:  # read once, and only for a text with such an entry
                named = {w.group(1) for w in _NAMED_INSIDE.finditer(text)}
            if name not in named:
                continue
        found.append((m.start(1), m.end(1), m.end()))
    listed = {k for k in range(len(found)) if any(
        0 < abs(found[k][0] - found[j][0]) <= _COLON_NEAR for j in range(max(0, k - 1),
                                                                          min(len(found), k + 2)))
        or _title_case(text[found[k][0]:found[k][1]])
        or _ENGLISH_GLOSS.search(text[found[k][0]:found[k][1]]) is not None}
    return {found[k][0]: found[k][1:] for k in sorted(listed)}


# "Цель: целью кампании является …" opening its paragraph: a label of a word or a few, a colon,
# and the paragraph's text in lower case
_PARAGRAPH_LABEL = re.compile(
    r"^[^\S\n]*([А-ЯЁ][а-яё]+(?:[^\S\n]+[а-яё]+){0,3}):[^\S\n]+(?=[а-яё])", re.MULTILINE)
_LABEL_TEXT_WORDS = 8  # the words of a labelled paragraph's first sentence, at least


def paragraph_labels(text: str, taken: Collection[int] = ()) -> dict[int, tuple[int, int]]:
    """Labels that open paragraphs one after another, each a noun phrase before a colon and a
    paragraph in lower case ("Ростер: в ходе кампании …" / "Цель: целью кампании …" /
    "Герои: в начале кампании …"): the parts of a text, as a rules digest on a forum sets
    them; where each label starts → where it ends and where its text starts (as
    :func:`colon_run_ins` gives its entries; ``taken``: starts that are entries already).

    A lone one is a field and its value ("Цель: захватить …"), and so are labels of lines one
    under another (a profile's, an infobox's): each must open a paragraph (a blank line above
    it) whose next line is no other field, its first sentence must hold
    :data:`_LABEL_TEXT_WORDS` words and a predicate, and another such label must stand within
    :data:`_COLON_NEAR` characters of it.
    """
    found: list[tuple[int, int, int]] = []
    for m in _PARAGRAPH_LABEL.finditer(text):
        start = m.start(1)
        if start in taken or not _opens_paragraph(text, m.start()):
            continue
        name = m.group(1)
        toks = words(name)
        if pos(toks[0]) not in _NAME_HEADS or _has_finite_verb(name) \
                or lemma(toks[0]) in ASIDES:
            continue
        said = words(_first_clause(text[m.end():m.end() + 400].split("\n", 1)[0]))
        if len(said) < _LABEL_TEXT_WORDS or not any(
                is_cyrillic(w[0]) and all_pos(w) & _PREDICATES for w in said):
            continue
        end = text.find("\n", m.end())
        stop = text.find("\n", end + 1) if end >= 0 else -1
        below = text[end + 1:stop if stop >= 0 else len(text)] if end >= 0 else ""
        if _FIELD.match(below.strip()):
            continue  # a block of fields, one a line ("Тип: …" / "Размер: …")
        found.append((start, m.end(1), m.end()))
    return {label[0]: label[1:] for k, label in enumerate(found) if any(
        0 < abs(label[0] - found[j][0]) <= _COLON_NEAR
        for j in range(max(0, k - 1), min(len(found), k + 2)))}


def _opens_paragraph(text: str, line: int) -> bool:
    """Whether the line starting at ``line`` opens a paragraph: the text's first line, or one
    under a blank line."""
    if line == 0:
        return True
    above = text.rfind("\n", 0, line - 1)
    return not text[above + 1:line - 1].strip()


def _under_lead_in(text: str, start: int, found: list[tuple[int, int, int]]) -> bool:
    """Whether an entry at ``start`` opens a line right under a list's lead-in, a line that
    ends with a colon ("Специальные правила формации:" / "Гипертоксичный: Любое атаки …"), or
    under the text of the entry before it, itself so placed at its line's start: the list's
    entries, a one-word name among them a rule's as much as the others."""
    line = text.rfind("\n", 0, start) + 1
    if text[line:start].strip(" \t*"):
        return False  # (not at its line's start)
    k = line - 1  # the last character above it that is no space (read back over blank lines,
    # not by copying the text before it: a long text of many entries would cost their product)
    while k >= 0 and text[k].isspace():
        k -= 1
    if k >= 0 and text[k] == ":":
        return True
    if not found:
        return False
    prev = found[-1][0]  # the entry before: its text runs up to this line, no other between
    prev_line = text.rfind("\n", 0, prev) + 1
    return not text[prev_line:prev].strip(" \t*") and start - prev <= _COLON_NEAR \
        and _COLON_CAPITAL.search(text, found[-1][2], line) is None
