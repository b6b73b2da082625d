"""A heading that shares its line with its text (:mod:`ingest.segment_lines` reads a web
page's lines with these): a name before a spaced dash ("Устрашение - Некоторые создания
вызывают страх."), words in capitals before a clause in mixed case, a FAQ's question glued to
its answer, an army book's rule name before a period, and a list whose numbered items each
open with a name and a dash.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from ingest.game_names import names_a_game
from ingest.segment_headings import (
    _DETERMINERS,
    _QUANTIFIERS,
    _first_clause,
    _has_finite_verb,
    _has_predicate,
    _is_clause,
    _may_be_nominative,
)
from kb.lemmas import lemma, pos, words

# "Название - текст" / "Название (уточнение) - сложность 7+": a name, a spaced dash, then a
# sentence (a capital) or a parameter (a word and a number)
_DASH_RUN_IN = re.compile(
    r"^(\s*(?:\d{1,2}[.)]\s+)?[А-ЯЁA-Z][^.!?:;\n\-–—]{0,60}?)\s+[-–—]\s+"
    r"(?=[А-ЯЁA-Z]|[а-яё]+\s+\d+\+?(?:\s|$|[.,;]))")
# "Cold-Blooded – как и в прошлых книгах, …": a rule's English name, capitalised, a spaced
# dash, then its Russian text in lower case, as a review of an army book names its rules
_ENGLISH_DASH_RUN_IN = re.compile(
    r"^(\s*[A-Z][A-Za-z'’]*(?:(?:-| )[A-Z][A-Za-z'’]*|(?: (?:of|the|and|in|to|from))){0,4})"
    r"\s+[–—-]\s+(?=[а-яё])")
# "ИНСТРУМЕНТЫ ВОЙНЫ Большинство сражений …": words in capitals open a line whose text goes
# on in mixed case (a run-in heading, or a PDF's two columns on one line)
_CAPS_RUN_IN = re.compile(r"^(\s*[А-ЯЁ]{2,}(?:[ ,-]+[А-ЯЁ]{2,}){1,5}[?!]?)\s+(?=[А-ЯЁ][а-яё])")
_MAX_RUN_IN_WORDS = 6
# "Как собирать отряд?Отряд, которым вы играете …": a question glued to its answer (a FAQ
# page whose markup lost the break), the answer opening with a capital right after the "?"
# (the question's words taken possessively: no "?" stands among them to go back for)
_QUESTION_RUN_IN = re.compile(r"^(\s*[А-ЯЁA-Z][^?\n]{2,120}+\?)(?=[А-ЯЁA-Z«\"])")
_MAX_QUESTION_RUN_IN = 12


def run_in_heading(line: str, dash_only: bool = False) -> tuple[int, int] | None:
    """Where a heading that shares its line with the text ends, and where the text starts
    (``dash_only``: for a line that is a heading already, only a name before a spaced dash —
    "Образ ужасного рыцаря - сложность 6+" is titled "Образ ужасного рыцаря" — or words in
    capitals before a clause in mixed case: "КРАТКИЕ ПРАВИЛА Вероятно, вы для ознакомления
    загуглили" is a heading and the text of a column beside it)

    >>> line = "Устрашение - Некоторые создания вызывают страх."
    >>> end, start = run_in_heading(line); line[:end], line[start:]
    ('Устрашение', 'Некоторые создания вызывают страх.')
    >>> run_in_heading("Модель - это фигурка.") is None
    True
    >>> line = "Predatory Fighter – правило, вызвавшее достаточно много споров."
    >>> end, start = run_in_heading(line); line[:end]
    'Predatory Fighter'
    """
    q = _QUESTION_RUN_IN.match(line)
    if q is not None and not dash_only and len(words(q.group(1))) <= _MAX_QUESTION_RUN_IN:
        return q.end(1), q.end(1)  # "Как собирать отряд?Отряд, которым …": a FAQ's question
    p = None if dash_only else _PERIOD_RUN_IN.match(line)
    if p is not None and _period_run_in(p.group(1), line[p.end():]):
        return p.end(1), p.end()  # "Протокол реанимации. Если модель …": an army book's rule
    for rx in (_DASH_RUN_IN, _ENGLISH_DASH_RUN_IN, _CAPS_RUN_IN):
        m = rx.match(line)
        if m is None:
            continue
        head = m.group(1).strip()
        if rx is _ENGLISH_DASH_RUN_IN and (head.isupper() or names_a_game(head)):
            continue  # "APL - лимит …", "Warhammer Fantasy - фэнтезийная вселенная …": an
            # abbreviation or a game defined, no rule
        toks = words(head)
        if not toks or len(toks) > _MAX_RUN_IN_WORDS or _has_finite_verb(head) \
                or re.search(r"\s[-–—]\s?это\s", line):
            continue
        if len(line) - m.end() < _MIN_RUN_IN_TEXT and (rx is not _DASH_RUN_IN or not dash_only):
            continue  # (a term and a word or two after a dash, "Тест на лидерство – аналогично
            # 7.", is a glossary's line, no rule over its text)
        if dash_only and rx is _CAPS_RUN_IN and not _is_clause(line[m.end():]):
            continue  # "ОРКИ Кровавого Топора" is one heading
        rest = line[m.end():]
        if rx is _DASH_RUN_IN and rest[:1].isupper() and not _has_finite_verb(
                _first_clause(rest)):
            continue  # "тестов - Паники, Ужаса, Глупости": a list, not a heading and its text
        return m.start(1) + len(m.group(1).rstrip()), m.end()
    return None


_MIN_RUN_IN_TEXT = 20

# a numbered item that opens with a name, a spaced dash and its text in lower case ("1)
# Множественные модификаторы характеристик – не изменились. …"): a dash in a sentence is as
# often a copula ("Модель – фигурка"), so it names the item only in a list of such items
_NUMBERED_DASH_ITEM = re.compile(
    r"^(\s*(\d{1,2})[.)]\s+[А-ЯЁA-Z][^.!?:;\n\-–—]{0,60}?)\s+[-–—]\s+(?=[а-яё])")
_DASH_ITEMS_APART = 12
"""Lines (with words) between two neighbouring items of one list, at most."""


def dash_named_items(lines: list[str], nonblank: list[int]) -> dict[int, tuple[int, int]]:
    """The numbered items of a list that each open with a name, a spaced dash and the name's
    text in lower case ("1) Множественные модификаторы характеристик – не изменились." / "2)
    Тесты на лидерство – теперь при тестах …"), by line, with where the name ends and its
    text starts (as :func:`run_in_heading` gives them). An item is one when the item numbered
    one less before it or one more after it, near it, has the same shape; a name is a few
    words with no verb ("2) Кидаем инвуль сейв с реролом – …" is a sentence), its text a
    sentence's worth."""
    shaped: dict[int, tuple[int, int, int]] = {}  # line → (number, name's end, text's start)
    for i in nonblank:
        m = _NUMBERED_DASH_ITEM.match(lines[i])
        if m is None or len(lines[i]) - m.end() < _MIN_RUN_IN_TEXT:
            continue
        head = m.group(1)
        name = head[m.end(2) - m.start(1) + 1:].strip()
        if len(words(name)) > _MAX_RUN_IN_WORDS or _has_finite_verb(name) \
                or re.match(r"это\s", lines[i][m.end():]):
            continue
        shaped[i] = (int(m.group(2)), m.start(1) + len(head.rstrip()), m.end())
    order = {i: k for k, i in enumerate(nonblank)}
    at_number: dict[int, list[int]] = {}  # number → where the items so numbered stand, in order
    for i, (n, _, _) in shaped.items():
        at_number.setdefault(n, []).append(order[i])
    out = {}
    for i, (n, end, start) in shaped.items():
        k = order[i]
        # the item numbered one less before it, or one more after it
        before, after = at_number.get(n - 1, []), at_number.get(n + 1, [])
        b = bisect_left(before, k) - 1
        a = bisect_left(after, k + 1)
        if (b >= 0 and before[b] >= k - _DASH_ITEMS_APART) \
                or (a < len(after) and after[a] <= k + _DASH_ITEMS_APART):
            out[i] = (end, start)
    return out


# "Протокол реанимации. Если модель с таким правилом …": a rule's name of a few words, a
# period, and its text on the same line (an army book's or codex's special rules)
# (numbered, as a tournament's clauses are: "2) Домашние правила. Любые расширения …", "4)
# Повелители войны (Lords of war). Допущены …", "3) Imperial Armor. Допущено …")
_PERIOD_RUN_IN = re.compile(
    r"^\s*((?:\d{1,2}[.)]\s+)?(?:[А-ЯЁ][а-яё]+(?:[ -][А-ЯЁа-яё][а-яё]*){0,4}"
    r"|(?<=[.)] )[A-Z][a-z]+(?: [A-Za-z][a-z]*){0,3})(?:\s+\([A-Za-z][A-Za-z ]{1,40}\))?)"
    r"\.\s+(?=[А-ЯЁA-Z])")
_MIN_PERIOD_RUN_IN_TEXT = 40


def _period_run_in(head: str, rest: str) -> bool:
    """Whether ``head`` before a period is a rule's name over ``rest``, its text: a name (in the
    nominative, no predicate; not opening with a conjunction, a pronoun, a preposition or a
    determiner: "Но ближе к делу", "Всем здравствуйте", "На этот раз по вахе") over a sentence
    (a clause of forty characters or more, its first sentence a clause)."""
    toks = words(re.sub(r"^\d{1,2}[.)]\s+|\s+\([^()]*\)$", "", head))
    if not toks:
        return False
    first = toks[0]
    if len(rest.strip()) < _MIN_PERIOD_RUN_IN_TEXT or _has_predicate(head) \
            or pos(first) in ("CONJ", "NPRO", "PRCL", "INTJ", "ADVB", "PREP") \
            or lemma(first) in _QUANTIFIERS | _DETERMINERS or not _may_be_nominative(first):
        return False  # (a name is in the nominative: "Звериной Могилы. Это игра …" ends the
        # sentence of the line above)
    # (the text's first sentence is a clause: a line of terms each closed by a period, "Обычный
    # стол. Длинные стороны. Защитники ходят первыми.", is a note's telegraphic style, no rule)
    return _is_clause(_first_clause(rest))
