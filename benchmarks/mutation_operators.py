"""Mutation operators of this project for cosmic-ray: a limit off by one.

cosmic-ray's own boundary operators change a comparison's strictness (``x > limit`` to
``x >= limit``), which a test at the limit's value notices. These change the limit itself,
``x > limit`` to ``x > (limit) + 1`` and ``x > (limit) - 1``, which a test one step past the
value (above it, or below it) notices: together they ask for a test on both sides and at
the value. They mutate the right-hand operand of ``<``, ``<=``, ``>``, ``>=`` when it is
not a number written in the code: the limits of the rules come from the KB (a name, an
attribute, a call), while a literal is a structural bound (``0``, a cache's size) whose
strictness the boundary operators already try.

:mod:`benchmarks.mutation` makes cosmic-ray find them (an entry point in a temporary
folder on ``PYTHONPATH``), as ``rulekb/LimitPlusOne`` and ``rulekb/LimitMinusOne``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import parso
from cosmic_ray.ast import is_number
from cosmic_ray.operators.operator import Example, Operator

BOUNDARIES = frozenset({"<", "<=", ">", ">="})


def _operands(node: Any) -> Iterator[int]:
    """Indexes (in ``node.children``) of the right-hand operands of boundary comparisons."""
    if node.type != "comparison":
        return
    for index in range(1, len(node.children), 2):
        operator, operand = node.children[index], node.children[index + 1]
        if operator.get_code().strip() in BOUNDARIES and not is_number(operand):
            yield index + 1


def _offset(sign: str) -> type[Operator]:
    class LimitOffset(Operator):
        __doc__ = f"The right-hand operand of a boundary comparison, {sign} 1."

        def mutation_positions(self, node: Any) -> Iterator[tuple[Any, Any]]:
            for index in _operands(node):
                operand = node.children[index]
                yield operand.start_pos, operand.end_pos

        def mutate(self, node: Any, index: int) -> Any:
            at = list(_operands(node))[index]
            operand = node.children[at]
            code = operand.get_code(include_prefix=False)
            node.children[at] = parso.parse(f"{operand.prefix or ' '}({code}) {sign} 1")
            return node

        @classmethod
        def examples(cls) -> tuple[Example, ...]:
            return (Example("x > limit", f"x > (limit) {sign} 1"),)

    return LimitOffset


LimitPlusOne = _offset("+")
LimitPlusOne.__name__ = LimitPlusOne.__qualname__ = "LimitPlusOne"
LimitMinusOne = _offset("-")
LimitMinusOne.__name__ = LimitMinusOne.__qualname__ = "LimitMinusOne"

OPERATORS: dict[str, type[Operator]] = {"LimitPlusOne": LimitPlusOne,
                                        "LimitMinusOne": LimitMinusOne}


class OperatorProvider:
    """The provider cosmic-ray loads by its entry point (``rulekb``)."""

    def __iter__(self) -> Iterator[str]:
        return iter(OPERATORS)

    def __getitem__(self, name: str) -> type[Operator]:
        return OPERATORS[name]
