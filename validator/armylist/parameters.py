"""Parameters of special rules: what a list writes after a rule's name, and what the text allows.

A rule text shows its parameter by example ("Регенерация (5+)", "Многочисленные выстрелы Х 2",
"Многочисленные Раны (D6)", "Мудрец (школа Огня)") or in its title ("Сопротивление магии (1-3)",
"Мудрец (*)"). :func:`parameter_spec` reads that from the KB: the shapes the examples take,
the bounds the facts give (the range fact of the title, the best roll the text names, the die
a roll is made on), and whether the rule has a standard form without a parameter. Nothing here
holds a number of a rule: every bound is a fact, cited with its sentence.

Example::

    spec = parameter_spec(book, book.find("Регенерация"))
    spec.shapes                        # frozenset({'roll'})
    spec.low.value, spec.high.value    # 2, 6   (the best roll "2+", the die D6)
    parse_parameter("5+")              # Parameter(written='5+', shape='roll', number=5)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from kb.lemmas import fold
from kb.models import Node
from kb.names import split_parameter, strip_parenthesised
from kb.text import sentences, stem_match
from validator.rulebook import FoundFact, Rulebook
from validator.verdicts import RuleCitation

Shape = Literal["number", "roll", "dice", "text"]

SHAPE_NAMES: dict[str, str] = {"number": "целое число", "roll": "бросок вида «N+»",
                               "dice": "кубики вида «D6»", "text": "текст"}
"""How a message names each shape."""

FREE_TEXT_MARK = "*"
"""A title's parameter that stands for any text: «Мудрец (*)»."""

BEST_STEMS = ("лучш",)
"""Words of a sentence that calls a roll the best one possible."""

_TIMES = re.compile(r"^[XxХх×]\s*")
_ROLL = re.compile(r"^(\d+)\s*\+$")
_NUMBER = re.compile(r"^\d+$")
_DICE = re.compile(r"^\d*\s*[DdДд]\s*\d+(?:\s*[+\-–]\s*\d+)?$")
_PLACEHOLDER = re.compile(r"^[A-ZА-ЯЁ*]$")


@dataclass(frozen=True)
class Parameter:
    """A parameter as written after a rule's name, and what it is.

    Attributes:
        written: as the list writes it (``"5+"``, ``"Х 2"``, ``"школа Огня"``).
        shape: ``number``, ``roll`` (``N+``), ``dice`` (``D6``) or ``text``.
        number: the number of a ``number`` or the threshold of a ``roll``.
    """

    written: str
    shape: Shape
    number: int | None = None


def parse_parameter(written: str) -> Parameter:
    """What a written parameter is.

    >>> parse_parameter("Х 2")
    Parameter(written='Х 2', shape='number', number=2)
    >>> parse_parameter("D6").shape
    'dice'
    """
    text = _TIMES.sub("", written.strip())
    if roll := _ROLL.match(text):
        return Parameter(written, "roll", int(roll.group(1)))
    if _NUMBER.match(text):
        return Parameter(written, "number", int(text))
    if _DICE.match(text):
        return Parameter(written, "dice")
    return Parameter(written, "text")


@dataclass(frozen=True)
class Bound:
    """A limit on a parameter, and the fact that states it."""

    value: int
    citation: RuleCitation


@dataclass(frozen=True)
class ParameterSpec:
    """What a rule's text allows after its name.

    Attributes:
        shapes: the shapes the text writes the parameter in.
        required: whether the rule needs one (no standard form without it).
        examples: the parameters as the text writes them ("5+", "2+").
        forms: the sentences (or title) that show the parameter, cited.
        low, high: the least and greatest value (``number``: the value; ``roll``: the
            threshold), each with the fact that states it.
        default: for a rule with a standard form, the fact that states its value.
    """

    shapes: frozenset[Shape]
    required: bool
    examples: tuple[str, ...]
    forms: tuple[RuleCitation, ...]
    low: Bound | None = None
    high: Bound | None = None
    default: FoundFact | None = None

    def describe(self) -> str:
        """The allowed forms as a message names them: «(5+)», «(2+)»."""
        if self.low is not None and self.high is not None and self.shapes == {"number"}:
            return f"целое число от {self.low.value} до {self.high.value}"
        if self.examples:
            return ", ".join(f"«{e}»" for e in dict.fromkeys(self.examples))
        return " или ".join(SHAPE_NAMES[s] for s in sorted(self.shapes))


def name_pattern(title: str) -> re.Pattern[str]:
    """A pattern of a rule's name in any inflected form, then its parameter.

    Each word of the name is matched by its start ("Регенерац…" finds "Регенерацию"); the
    parameter follows in brackets ("(5+)") or after a times sign ("Х 2").
    """
    words = strip_parenthesised(title).split() or title.split()
    stems = [re.escape(fold(w)[: max(3, len(w) - 3)]) + r"\w*" for w in words]
    return re.compile(
        r"(?<!\w)" + r"\s+".join(stems)
        + r"(?:\s*\((?P<paren>[^()]{1,40})\)|\s+(?P<times>[XxХх×]\s*[0-9A-Za-zА-Яа-яЁё]+))",
        re.IGNORECASE,
    )


@dataclass(frozen=True)
class _Example:
    parameter: str
    sentence: str


def _examples(node: Node) -> list[_Example]:
    pattern = name_pattern(node.title)
    found: list[_Example] = []
    for sentence in sentences(node.text):
        for match in pattern.finditer(fold(sentence)):
            start, end = match.span("paren") if match.group("paren") else match.span("times")
            found.append(_Example(sentence[start:end].strip(), sentence))
    return found


def _shape_of(example: str) -> Shape | None:
    if _PLACEHOLDER.match(_TIMES.sub("", example)):
        return None
    return parse_parameter(example).shape


def _value_text(fact: FoundFact) -> str:
    return _TIMES.sub("", fact.text.strip())


def parameter_spec(book: Rulebook, node: Node) -> ParameterSpec | None:
    """What ``node``'s text allows as a parameter; ``None`` when it shows none."""
    return book.remember(("parameter_spec", node.id), lambda: _spec(book, node))


def _spec(book: Rulebook, node: Node) -> ParameterSpec | None:
    title_param = split_parameter(node.title)[1]
    examples = _examples(node)
    forms = _forms(book, node, examples)
    if title_param == FREE_TEXT_MARK:
        return ParameterSpec(frozenset({"text"}), False,
                             tuple(e.parameter for e in examples) or (FREE_TEXT_MARK,), forms)
    span = book.fact(node, name="parameter_range")
    if span is not None and isinstance(span.value, dict):
        low, high = span.value.get("min"), span.value.get("max")
        if isinstance(low, int) and isinstance(high, int):
            cite = span.citation()
            return ParameterSpec(frozenset({"number"}), True, (span.text,), (cite,),
                                 Bound(low, cite), Bound(high, cite))
    shapes = frozenset(s for s in (_shape_of(e.parameter) for e in examples) if s is not None)
    if not shapes:
        return None
    written = {_TIMES.sub("", e.parameter) for e in examples}
    default = _default(book, node, shapes, written)
    low = high = None
    if "roll" in shapes:
        low, high = _roll_bounds(book, node)
    return ParameterSpec(shapes, default is None, tuple(e.parameter for e in examples), forms,
                         low, high, default)


def _forms(book: Rulebook, node: Node, examples: list[_Example]) -> tuple[RuleCitation, ...]:
    quotes = list(dict.fromkeys(e.sentence for e in examples))[:2]
    if not quotes:
        return (book.cite(node, node.title),)
    return tuple(book.cite(node, q) for q in quotes)


_FACT_NAMES: dict[Shape, tuple[str, ...]] = {"roll": ("roll",), "number": ("count",),
                                             "dice": ("dice",)}


def _default(book: Rulebook, node: Node, shapes: frozenset[Shape],
             written: set[str]) -> FoundFact | None:
    """A value of the parameter's kind that the text states outside any example: the standard.

    "на 4+ рана игнорируется" beside "Регенерация (5+)" is the standard regeneration; a rule
    whose every value sits in an example ("Многочисленные Раны (D6)") has none.
    """
    for shape in sorted(shapes):
        for name in _FACT_NAMES.get(shape, ()):
            for fact in book.facts(node, name=name):
                text = _value_text(fact)
                if parse_parameter(text).shape == shape and text not in written:
                    return fact
    return None


def _roll_bounds(book: Rulebook, node: Node) -> tuple[Bound | None, Bound | None]:
    """The best roll the text allows (the one it calls best) and the die the roll is made on."""
    low: Bound | None = None
    for fact in book.facts(node, name="roll"):
        parsed = parse_parameter(_value_text(fact))
        if parsed.shape == "roll" and parsed.number is not None and stem_match(
                fact.fact.evidence, BEST_STEMS):
            if low is None or parsed.number < low.value:
                low = Bound(parsed.number, fact.citation())
    high: Bound | None = None
    die = book.fact(node, name="dice")
    if die is not None and isinstance(die.value, dict) and die.value.get("count") in (1, None):
        sides = die.value.get("sides")
        if isinstance(sides, int):
            high = Bound(sides, die.citation())
    return low, high


def better(spec: ParameterSpec, a: Parameter, b: Parameter) -> Parameter:
    """The better of two parameters of one rule: the higher number, the lower roll."""
    if a.number is None:
        return b
    if b.number is None:
        return a
    if a.shape == "roll" and "roll" in spec.shapes:
        return a if a.number <= b.number else b
    return a if a.number >= b.number else b
