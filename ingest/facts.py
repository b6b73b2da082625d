"""Find the numbers a rule text states: distances, dice, rolls, thresholds, ranges, counts,
modifiers, angles and profiles, each with the sentence it came from.

Extraction only: a fact knows its span in the text it was found in; the unit type a number
belongs to is given as the name the sentence uses ("гравициклы"), resolved later by the build.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.sections import abbreviation_at
from kb.lemmas import name_words

Span = tuple[int, int]

_NUM_WORDS = {
    "одного": 1, "один": 1, "одну": 1, "одной": 1, "двух": 2, "два": 2, "две": 2, "трех": 3,
    "трёх": 3, "три": 3, "четырех": 4, "четырёх": 4,
}
# "2D6", and as Russian texts write it, "2Д6", "Д3", "2d6" (a letter of a word before it is no
# die: "вд6")
_DICE = (r"(?<![A-Za-zА-Яа-яЁё\d])(?P<dn>\d*)[DДdд](?P<ds>\d+)"
         r"(?:\s*(?P<dsign>[+\-–])\s*(?P<dmod>\d+))?")
_INCH = r"(?:\"|”|″|\s?дюйм\w*)"

# A number is read from its first digit only (a look-behind for a digit where nothing else
# bars a digit before it): the same facts, since a number that fits from an inner digit
# fits from its first, and a run of 20,000 digits is no longer read again from each.
# How a fact may start, every alternative's first characters (a digit, "WS" of a profile, a
# die's letter, "(" of a range, a modifier's sign, the multiplier's X, and the words roll_words,
# count_words and from_round open with: "жив", "выки", "выпа", "кида", "не ", "макс", "толь",
# "хотя", "начи", "с "/"со "): looked ahead for first, so the scan passes every other place at
# once (most of a rule text: a word's first letter alone lets a quarter of its letters by; a
# test compares the scan without it on every text of the tests)
FACT_FIRST = r"(?:[\dWDДdд(+\-–XХ]|жив|выки|выпа|кида|не |макс|толь|хотя|начи|[сС]о?\s)"

_FACT_BODY = "|".join(
    [
        r"(?P<profile>WS\s+BS\s+S\s+T\s+W\s+I\s+A\s+Ld\s+Sv\s+(?:(?:[–\-—]|\d\+?)\s+){8}(?:[–\-—]|\d\+?))",
        rf"(?P<dice>{_DICE})(?P<dice_inch>{_INCH})?",
        # an army's or a model's size in points: "армия в размере 750 очков", "не более
        # 1500 очков", "+10 турнирных очков" (the modifier's own)
        r"(?P<points>(?<![\w.,+\-–])\d{1,5})\s?(?:очк(?:о|а|ов)\b|pts\b)",
        r"(?P<threshold>(?<!\d)\d+)\s?%",
        r"(?P<angle>(?<!\d)\d+)\s?°",
        r"\((?P<prange>\d+\s?-\s?\d+)\)",
        r"(?P<roll_range>(?<![\d.,])[1-6]\s?-\s?[1-6](?![\d\"”]|\s?дюйм))",
        r"(?P<roll_plus>(?<![\d+])[2-7]\+)",
        r"(?P<modifier>(?<![\w])[+\-–]\s?\d{1,2}(?![\d+]))",
        rf"(?P<distance>(?<![\w\-])\d+){_INCH}",
        r"(?P<roll_words>живую шест[её]рку|(?:выкидывает|кидает|выпало|выпадет)\s+6)",
        r"(?P<roll_min>(?<!\w)\d+\s+и\s+более)",
        r"(?P<count_words>(?:до|не более|максимум|только)\s+"
        r"(?:одного|двух|трех|трёх|одной|одну)(?:\s+раз[а]?)?(?:\s+\w+){0,2}"
        # "только из одного оружия" (at most one), "хотя бы один номер расчета" (at least)
        r"|только из\s+одного(?:\s+\w+)?|хотя бы\s+(?:один|одного)(?:\s+\w+)?)",
        r"(?P<mult>(?<=\s)[XХ]\s?(?P<mult_n>\d+))",
        # "начиная с 2-ого раунда": the first round (game turn) something may happen in
        r"(?P<from_round>(?:начиная\s+)?(?<!\w)[сС]о?\s+(?P<round_n>\d+)\s?-?\s?(?:ого|го|й)\s+"
        r"(?:раунда|хода))",
    ]
)
FACT_RE = re.compile(rf"(?={FACT_FIRST})(?:{_FACT_BODY})")

# What every alternative of FACT_RE needs (a digit, or a number word of roll_words/count_words):
# a sentence without any is not scanned, which is most sentences of a rule text.
_MAYBE_FACT = re.compile(r"\d|шест|одн|один|двух|тр[её]х")

_MAX = re.compile(r"(максимум|до|не более|не дальше|вплоть до)\s*[–\-—]?\s*(на\s*)?$")
_MIN = re.compile(r"(минимум|не менее|как минимум|ближе,?\s*чем\s*(на|в)?)\s*(на\s*)?$")
_WITHIN = re.compile(r"(\bв|в пределах|пределах|от)\s*$")
_NOT = re.compile(r"а не\s*(на\s*)?$")
_EXCEED = re.compile(r"(?:превышать|превысить|превышает)\s*$")
_PIPS = re.compile(r"выпа\w*|результат\w*|брос\w*|кубик\w*|кост\w*|D\d|Д\d")
_SENT = re.compile(r"[^.!?]+(?:[.!?]+|$)")
_PAGE_CITE = re.compile(r"(?:стр\.|(?<![\w.])с\.|страниц\w*)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class RawFact:
    """A number found in a text, before the build resolves its unit type."""

    name: str
    kind: str
    value: object
    text: str
    span: Span
    sentence: str
    sentence_span: Span
    topic: str | None
    unit: str | None  # the unit type name the clause uses, if any


_SENTENCE_END = re.compile(  # the look-ahead first: most characters are no stop at all
    r"(?=[.!?\n])(?:[.!?]+[\"»)]?(?=\s+[А-ЯЁA-Z«\d•]|\s*$)|\n)")


def sentences(text: str) -> list[Span]:
    """Sentence spans of ``text`` (an abbreviation's period, "см. стр.", ends none:
    :func:`~ingest.sections.abbreviation_at`)."""
    out = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        if m.group()[0] == "." and abbreviation_at(text, m.start()):
            continue
        end = m.end()
        chunk = text[start:end].lstrip()
        if chunk:
            out.append((end - len(chunk), end))
        start = end
    if text[start:].strip():
        s = start + (len(text[start:]) - len(text[start:].lstrip()))
        out.append((s, len(text.rstrip())))
    return [piece for span in out for piece in _pieces(text, span)]


MAX_SENTENCE = 1000
"""Characters of a sentence at most: a longer stretch with no stop (no sentence of the
corpus or of the held-out pages reaches 700; a table of numbers run into one line does) is
cut at spaces into pieces of this length, each a fact's sentence. A fact quotes its whole
sentence, so a 20 KB stretch of 6,000 numbers quoted 20 KB 6,000 times (a KB of 135 MB)."""


def _pieces(text: str, span: Span) -> list[Span]:
    """``span`` cut into pieces of :data:`MAX_SENTENCE` characters at most, each at a space
    where one stands in its second half."""
    start, end = span
    out = []
    while end - start > MAX_SENTENCE:
        cut = text.rfind(" ", start + MAX_SENTENCE // 2, start + MAX_SENTENCE)
        cut = cut + 1 if cut != -1 else start + MAX_SENTENCE
        out.append((start, cut))
        start = cut
    out.append((start, end))
    return out


def find_facts(
    text: str,
    topics: list[tuple[str, str]],
    unit_names: dict[str, str],
    default_topic: str | None = None,
) -> list[RawFact]:
    """Every fact in ``text``.

    Args:
        text: the rule text.
        topics: (lemma key, topic) pairs, most specific first: the first found in a clause (or
            else in the sentence) is the fact's topic.
        unit_names: lemma → unit type name, to tell which type a clause speaks of.
        default_topic: the topic when the sentence names none (the section's title).
    """
    out: list[RawFact] = []
    if _MAYBE_FACT.search(text) is None:
        return out  # (no sentence of it holds a number: none is split off and scanned)
    for ss, se in sentences(text):
        sent = text[ss:se]
        sent_topic: str | None = None
        topic_known = False  # the sentence's topic is found only for a sentence with a number
        if _MAYBE_FACT.search(sent) is None:
            continue
        for m in FACT_RE.finditer(sent):
            before = sent[: m.start()]
            if _PAGE_CITE.search(before[-12:]):
                continue
            fact = _make(m, before, sent)
            if fact is None:
                continue
            name, kind, value, shown = fact
            if not topic_known:
                sent_topic = _best_topic(_topics(name_words(sent), topics) + [default_topic],
                                         topics)
                topic_known = True
            clause = _clause(sent, m.start())
            clause_lemmas = name_words(clause)
            topic = _best_topic(_topics(clause_lemmas, topics) + [sent_topic], topics)
            unit = _unit(clause_lemmas, unit_names)
            out.append(
                RawFact(name, kind, value, shown, (ss + m.start(), ss + m.end()),
                        sent.strip(), (ss, se), topic, unit)
            )
        out.extend(_roll_results(sent, ss, se, topics, unit_names, default_topic))
    return out


# the results of a roll listed one by one: "Если выпадает 1, 2, 3 или 4", "при результате 5 или
# 6" (not "2D6", "4+", a distance or a count after them)
_ROLL_LIST = re.compile(
    r"(?:выпада\w*|выпал\w*|выпадет|выброс\w*|результат\w*)\s+(?:на\s+кубике\s+)?"
    r"(?P<list>[1-6](?:\s*(?:,|или|и)\s*[1-6])+)(?![\d+\"”%DДdд-]|\s*(?:дюйм|очк|модел|ран))")
_DIGIT = re.compile(r"[1-6]")


def _roll_results(
    sent: str, ss: int, se: int, topics: list[tuple[str, str]], unit_names: dict[str, str],
    default_topic: str | None,
) -> list[RawFact]:
    """Each result of a roll a sentence lists (:data:`_ROLL_LIST`): a ``roll_result`` fact."""
    out = []
    sent_topic: list[str | None] = []  # the sentence's topic, found once for all its lists
    for m in _ROLL_LIST.finditer(sent):
        clause_lemmas = name_words(_clause(sent, m.start()))
        if not sent_topic:
            sent_topic.append(_best_topic(_topics(name_words(sent), topics) + [default_topic],
                                          topics))
        topic = _best_topic(_topics(clause_lemmas, topics) + sent_topic, topics)
        unit = _unit(clause_lemmas, unit_names)
        start = m.start("list")
        for d in _DIGIT.finditer(m.group("list")):
            at = ss + start + d.start()
            out.append(RawFact("roll_result", "roll", int(d.group()), d.group(), (at, at + 1),
                               sent.strip(), (ss, se), topic, unit))
    return out


_MAX_CLAUSE = 400
"""Characters a clause reaches back from its number at most (the corpus's longest is about a
hundred): a sentence with no comma, thousands of characters of numbers run together, made
each number's clause the whole sentence before it, a cost the square of its length."""


def _clause(sent: str, pos: int) -> str:
    """The clause of the number at ``pos``: from the comma, semicolon or bullet before it (or
    the sentence's start, :data:`_MAX_CLAUSE` back at most, at a word) to it."""
    floor = max(0, pos - _MAX_CLAUSE)
    start = max(sent.rfind(",", floor, pos), sent.rfind(";", floor, pos),
                sent.rfind("•", floor, pos))
    # "мотоциклы … 12", а гравициклы … 24"": the clause after "а" speaks of its own type
    if start != -1:
        return sent[start + 1: pos + 1]
    if floor and (space := sent.find(" ", floor, pos)) != -1:
        floor = space + 1
    return sent[floor: pos + 1]


def _topics(lemmas: list[str], topics: list[tuple[str, str]]) -> list[str | None]:
    joined = " " + " ".join(lemmas) + " "
    return [topic for key, topic in topics if f" {key} " in joined]


def _best_topic(found: list[str | None], topics: list[tuple[str, str]]) -> str | None:
    """The most specific of the topics found (the vocabulary lists them most specific first)."""
    order: dict[str, int] = {}
    for i, (_, topic) in enumerate(topics):
        order.setdefault(topic, i)
    present = [t for t in found if t is not None]
    return min(present, key=lambda t: order.get(t, len(order))) if present else None


def _unit(lemmas: list[str], unit_names: dict[str, str]) -> str | None:
    """The one unit type a clause names (longest name wins: "эльдарский гравицикл")."""
    joined = " " + " ".join(lemmas) + " "
    hits = [(len(key.split()), name) for key, name in unit_names.items() if f" {key} " in joined]
    if not hits:
        return None
    longest = max(n for n, _ in hits)
    found = {name for n, name in hits if n == longest}
    # "мотоциклы и гравициклы" names two types: the fact is the section's own type's
    if len(found) == 1 and not any(n < longest and name not in found and not _part(
            name, found) for n, name in hits):
        return found.pop()
    return found.pop() if len(found) == 1 and len(hits) == 1 else (
        found.pop() if len(found) == 1 else None)


def _part(name: str, found: set[str]) -> bool:
    return any(name.lower().split()[-1] in f.lower() for f in found)


def _make(m: re.Match[str], before: str, sent: str) -> tuple[str, str, object, str] | None:
    g = m.lastgroup
    shown = m.group(0).strip()
    tail = before[-30:].lower()
    if m.group("profile"):
        cells = m.group("profile").split()
        heads, vals = cells[:9], cells[9:]
        prof: dict[str, int | str | None] = {}
        for h, v in zip(heads, vals, strict=False):
            if v in "–-—":
                continue
            prof[h] = int(v) if v.isdigit() else v
        return "profile", "profile", prof, shown
    if m.group("dice"):
        count = int(m.group("dn") or 1)
        sides = int(m.group("ds"))
        mod = int(m.group("dmod") or 0) * (-1 if m.group("dsign") in ("-", "–") else 1)
        value = {"count": count, "sides": sides, "modifier": mod, "expr": _dice_expr(m)}
        name = "not_dice" if _NOT.search(tail) else "dice"
        if m.group("dice_inch"):
            value["unit"] = "inch"
        return name, "dice", value, shown
    if m.group("points"):
        if _PIPS.search(tail):
            return None  # "выпало 6 очков", "при результате 5 или 6 очков": a die's pips
        name = "max_points" if _MAX.search(tail) or _EXCEED.search(tail) else "points"
        return name, "points", int(m.group("points")), shown
    if m.group("threshold"):
        return "threshold", "threshold", int(m.group("threshold")), shown
    if m.group("angle"):
        return "max_angle" if _MAX.search(tail) else "angle", "angle", int(m.group("angle")), shown
    if m.group("prange"):
        lo, hi = (int(x) for x in re.split(r"\s?-\s?", m.group("prange")))
        return "parameter_range", "range", {"min": lo, "max": hi}, m.group("prange")
    if m.group("roll_range"):
        lo, hi = (int(x) for x in re.split(r"\s?-\s?", m.group("roll_range")))
        return "roll_range", "roll", {"min": lo, "max": hi}, shown
    if m.group("roll_plus"):
        return "roll", "roll", shown, shown
    if m.group("modifier"):
        if shown[0] in "-–" and shown[1:2].isspace() and before[-1:].isspace():
            return None  # a dash between words ("с боковых четвертей – 5"), no minus
        v = int(re.sub(r"\s|–", lambda x: "-" if x.group(0) == "–" else "", shown))
        return "modifier", "modifier", v, shown
    if m.group("distance"):
        v = int(m.group("distance"))
        if re.search(r"-?ого\b|-?го\b", sent[m.end(): m.end() + 4]):
            return None
        if _NOT.search(tail):
            name = "not_distance"
        elif _MIN.search(tail):
            name = "min_distance"
        elif _MAX.search(tail):
            name = "max_distance"
        elif _WITHIN.search(tail):
            name = "within_distance"
        else:
            name = "distance"
        return name, "distance", v, shown
    if m.group("roll_words"):
        return "natural_roll", "roll", 6, shown
    if m.group("roll_min"):
        return "roll_min", "roll", int(shown.split()[0]), shown
    if m.group("count_words"):
        words = shown.split()
        n = next((_NUM_WORDS[w.lower()] for w in words if w.lower() in _NUM_WORDS), None)
        if n is None:
            return None
        name = "min_count" if shown.lower().startswith("хотя бы") else "max_count"
        return name, "count", n, shown
    if m.group("mult"):
        return "count", "count", int(m.group("mult_n")), shown
    if m.group("from_round"):
        return "from_round", "count", int(m.group("round_n")), shown
    del g
    return None


def _dice_expr(m: re.Match[str]) -> str:
    expr = f"{m.group('dn')}D{m.group('ds')}"
    if m.group("dmod"):
        sign = "-" if m.group("dsign") in ("-", "–") else "+"
        expr += f"{sign}{m.group('dmod')}"
    return expr
