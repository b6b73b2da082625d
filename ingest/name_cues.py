"""More shapes in which a text names a rule, beside a «quoted» or capitalised name after
"правило" (:func:`ingest.extract.cue_names`, which wraps what these find into mentions).

* A name is written as Russian writes a name: its first word capitalised, the rest in lower
  case ("специальное правило Мгновенная смерть"); a capitalised adjective goes on to the noun
  it agrees with (:func:`noun_phrase_end`), where the name would otherwise stop at its first
  word ("Мгновенная", a rule no book has).
* A rule named by its English name after "правило" ("специального правила Infiltrate",
  "правило Holy Relic"): :func:`latin_names`. Only after a cue that is singular ("правило",
  "специального правила"): "правила Warhammer 40,000" are a game's rules, and so is any
  game's name (:func:`ingest.game_names.names_a_game`).
* The items of a bulleted list under a line that announces rules ("Специальные правила:",
  "Перечень специальных правил приведен ниже:", "Special rules:"), each item a name on its
  own line, as a datasheet or a mission lists them: :func:`listed_names`. An item that reads
  as a sentence (many words, a stop inside) is no name.

Each finder returns the names as written with their spans in the text; none resolves. A
name is put in its dictionary form by :func:`nominative`, its adjectives read as agreeing
with its noun ("Боевой транс": the masculine nominative "боевой", not the feminine genitive
its first parse is).
"""

from __future__ import annotations

import re
from functools import lru_cache

from pymorphy3.analyzer import Parse

from ingest.game_names import names_a_game
from kb.lemmas import morph

Span = tuple[int, int]

_NEXT_WORD = re.compile(r"[ \t]+([а-яё][а-яё-]*[а-яё])")
_NAME_POS = ("ADJF", "PRTF")
MAX_PHRASE_WORDS = 2
"""Lower-case words an adjective's name may go on by ("Тяжёлая силовая броня": two)."""


def _agree(adjective: Parse, word: Parse) -> bool:
    """Whether an adjective's parse agrees with a word's: case and number, and gender in the
    singular where both have one."""
    return (word.tag.case == adjective.tag.case and word.tag.number == adjective.tag.number
            and (adjective.tag.number != "sing" or not adjective.tag.gender
                 or not word.tag.gender or adjective.tag.gender == word.tag.gender))


def _agrees(adjective: str, word: str) -> str | None:
    """The part of speech of ``word`` ("NOUN" or an adjective's) when it agrees with
    ``adjective`` (:func:`_agree`), else None."""
    for a in morph().parse(adjective.lower()):
        if a.tag.POS not in _NAME_POS:
            continue
        for w in morph().parse(word):
            if w.tag.POS in ("NOUN", *_NAME_POS) and _agree(a, w):
                return str(w.tag.POS)
    return None


def noun_phrase_end(text: str, end: int, last: str) -> int:
    """Where a name whose last word ``last`` (capitalised, ending at ``end``) is an adjective
    ends: after the lower-case words that agree with it, up to and with their noun ("правило
    Мгновенная смерть."); ``end`` when no noun follows within :data:`MAX_PHRASE_WORDS`.

    >>> text = "получает правило Мгновенная смерть до конца хода"
    >>> text[17:noun_phrase_end(text, 27, "Мгновенная")]
    'Мгновенная смерть'
    >>> text = "правило Безостановочный, глубокий удар"
    >>> noun_phrase_end(text, 23, "Безостановочный")
    23
    """
    if not any(p.tag.POS in _NAME_POS for p in morph().parse(last.lower())):
        return end
    at, adjective = end, last
    for _ in range(MAX_PHRASE_WORDS):
        m = _NEXT_WORD.match(text, at)
        if m is None:
            return end
        pos = _agrees(adjective, m.group(1))
        if pos is None:
            return end
        at = m.end()
        if pos == "NOUN":
            return at
        adjective = m.group(1)
    return end


# "специального правила Infiltrate", "правило Holy Relic", "спецправилом Hit & Run": a singular
# cue (the plural "правила Warhammer" are a game's rules), then Latin words, the first
# capitalised
_LATIN_CUE = re.compile(
    r"(?:(?:[Сс]пециальн|[Оо]соб)(?:ое|ого|ому|ым)\s+правил(?:о|а|у|ом)|[Сс]пецправил(?:о|а|у|ом)"
    r"|(?<![А-Яа-яЁё])(?<!как )[Пп]равил(?:о|у|ом))\s+"
    r"([A-Z][A-Za-z'-]*(?:(?:[ \t]+|[ \t]*&[ \t]*)[A-Za-z][A-Za-z'-]*){0,3})"
)
"""(Its words may be in lower case after the first: "Feel no Pain", "Make my way"; "как
правило" is "usually", no cue.)"""
_SMALL_TAIL = re.compile(r"(?:\s+(?:of|the|and|in|on|a|to))+$")


def latin_names(text: str) -> list[tuple[str, Span]]:
    """Rules named by their English names after a singular "правило" (the module's docstring).

    >>> latin_names("используя специального правила Infiltrate могут быть")
    [('Infiltrate', (31, 41))]
    >>> latin_names("правила Warhammer 40,000 и правило Kill Team, как правило Holy Relic")
    []
    >>> latin_names("отряда с правилом Feel no Pain, размер")[0][0]
    'Feel no Pain'
    """
    if "правил" not in text and "Правил" not in text:
        return []
    out = []
    for m in _LATIN_CUE.finditer(text):
        name = _SMALL_TAIL.sub("", m.group(1))
        if names_a_game(name):
            continue
        out.append((name, (m.start(1), m.start(1) + len(name))))
    return out


# a line announcing rules and ending in a colon, then its list: each item on a line of its own
# after a bullet, blank lines between them allowed
_LIST_LEAD = re.compile(r"^[^\n]{0,80}(?:правил|rules)[^\n:]{0,60}:[ \t]*$",
                        re.IGNORECASE | re.MULTILINE)
_LIST_ITEM = re.compile(r"\n(?:[ \t]*\n)*[ \t]*[•·▪●◦*–—-][ \t]+([^\n]+)")
MAX_ITEM_WORDS = 6
"""Words a listed name has at most: a longer item is a sentence."""
MAX_ITEM_CHARS = 60
"""Characters a listed name has at most (looked at first: a long line is no name, and the
patterns below are not run over it)."""
_ITEM_END = " \t\r\f\v.,;"


def listed_names(text: str) -> list[tuple[str, Span]]:
    """The names a bulleted list under a line announcing rules gives (the module's docstring).

    >>> listed_names("Специальные правила:\\n• Движение через укрытие\\n• Разведчик.\\nДалее")
    [('Движение через укрытие', (23, 45)), ('Разведчик', (48, 57))]
    >>> [n for n, _ in listed_names("Правила:\\n• Армии до 2000 очков\\n• Регенерация (5+)")]
    ['Регенерация (5+)']
    """
    out: list[tuple[str, Span]] = []
    if ":" not in text:
        return out
    at = 0
    for lead in _LIST_LEAD.finditer(text):
        if lead.start() < at:
            continue  # a line of the list read already ("- Правила турнира:"): each line once
        at = lead.end()
        while (item := _LIST_ITEM.match(text, at)) is not None:
            at = item.end()
            raw = item.group(1).rstrip(_ITEM_END)
            if _names_a_rule(raw):
                out.append((raw, (item.start(1), item.start(1) + len(raw))))
    return out


_PARAMETER = re.compile(r"\s*\(?\d+\+?\)?$|\s*\([^()]*\)")
_DIGIT = re.compile(r"\d")


def _names_a_rule(item: str) -> bool:
    """Whether a list's item reads as a name: short, capitalised, no sentence inside, no
    number but its parameter ("Регенерация (5+)"; "Не более 2 героев" is a limit)."""
    if len(item) > MAX_ITEM_CHARS:
        return False
    words = item.split()
    return (0 < len(words) <= MAX_ITEM_WORDS and item[:1].isupper() and ":" not in item
            and ". " not in item and _DIGIT.search(_PARAMETER.sub("", item)) is None
            and not names_a_game(item))


def capitalize(name: str) -> str:
    """A name with its first letter in upper case, the rest as written."""
    name = " ".join(name.split())
    return name[:1].upper() + name[1:]


@lru_cache(maxsize=20_000)
def nominative(phrase: str) -> str:
    """A rule name in the nominative ("Подкреплений" → "Подкрепления", "Огненной атаки" →
    "Огненная атака"): the words up to the first noun are put in the nominative of their number.
    """
    out = []
    done = False
    words = phrase.split()
    agreeing = _agreeing_parses(words)
    for k, w in enumerate(words):
        if done or not re.match(r"[А-Яа-яЁё]", w):
            out.append(w)
            continue
        chosen = agreeing[k] if agreeing is not None else None
        p = chosen if chosen is not None else morph().parse(w.lower())[0]
        number = p.tag.number or "sing"
        form = p.inflect({"nomn", number}) if p.tag.case and p.tag.case != "nomn" else None
        new = form.word if form is not None else w.lower()
        if w[0].isupper():
            new = new[:1].upper() + new[1:]
        out.append(new if form is not None else w)
        if p.tag.POS == "NOUN":
            done = True
    return capitalize(" ".join(out))


def _agreeing_parses(words: list[str]) -> list[Parse | None] | None:
    """The parses of a name's adjectives and of the noun they agree with ("Боевой транс":
    "боевой" masculine nominative, not the feminine genitive its first parse is), or None when
    the words before the first noun are not all adjectives agreeing with it."""
    first = [morph().parse(w.lower())[0] if re.match(r"[А-Яа-яЁё]", w) else None for w in words]
    at = next((k for k, p in enumerate(first) if p is not None and p.tag.POS == "NOUN"), None)
    if not at:
        return None  # no noun, or no adjective before it: the first parses serve
    for noun in morph().parse(words[at].lower()):
        if noun.tag.POS != "NOUN":
            continue
        chosen = []
        for w in words[:at]:
            a = next((p for p in morph().parse(w.lower())
                      if p.tag.POS in _NAME_POS and _agree(p, noun)), None)
            if a is None:
                break
            chosen.append(a)
        else:
            return [*chosen, noun, *first[at + 1:]]
    return None
