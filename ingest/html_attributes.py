"""Where a start or end tag's attributes end: a tag's ">" read as a browser reads it.

:func:`ingest.html_page._read` looks at each "<" of a page for a bounded stretch (5,000
characters): a "<" whose tag does not end within it is text. A page of crafted or broken
tags ("<a x=">" " three hundred thousand times: a quoted ">" and another "<a" in every tag,
so that no tag ends) made each "<" read its whole stretch again, 5,000 characters a "<".
:class:`AttributeScan` reads the attributes token by token, as the pattern
:data:`ATTRIBUTES` would, and keeps the tokens of a stretch that ran into its bound: a later
"<" inside that stretch whose tokens meet them follows the same tokens, so its reading goes
on from where the last one stopped (or fails where it failed, if no bound decided that).
Each character is then read a bounded number of times, and every tag ends where the pattern
ends it.

Example::

    scan = AttributeScan(text)
    end = scan.end(start, bound)   # past the ">", or None: no tag ends before ``bound``
"""

from __future__ import annotations

import re

_VALUE_LONGEST = 2_000
"""Characters of a quoted value at most (a longer one is no value: the tag is broken)."""
_QUOTED = "|".join(f"{q}[^{q}]{{0,{_VALUE_LONGEST}}}+{q}" for q in "\"'")
_TOKEN = re.compile(rf"""[\s/]*+[^\s"'>/=][^\s"'>/=]*+(?:\s*+=\s*+(?:{_QUOTED}"""
                    r"""|[^\s"'>]++))?+|[\s/]++""")
"""One attribute (a name, and its value after "=") with the spaces or slashes before it, or
spaces and slashes alone."""
ATTRIBUTES = re.compile(rf"(?:{_TOKEN.pattern})*+>")
"""A tag's attributes and its closing ">", as one pattern (what :class:`AttributeScan`
reads token by token)."""
_EQUALS = re.compile(r"\s*+=\s*+")
_SPACES = re.compile(r"\s*+")


class AttributeScan:
    """The attributes of a page's tags read one tag after another, left to right (see the
    module's docstring): :meth:`end` of a tag is ``ATTRIBUTES.match(text, start, bound)``'s
    end, at a bounded cost a character however the tags are broken."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._known: set[int] = set()
        """Token starts of the last reading that ran into its bound, each leading to
        :attr:`_frontier` by tokens that no bound decided."""
        self._frontier = -1
        self._stops = False
        """Whether the reading fails at :attr:`_frontier` whatever its bound."""

    def end(self, start: int, bound: int) -> int | None:
        """Where the tag's attributes from ``start`` end, past its ">", if they do before
        ``bound``; else ``None``. ``start`` and ``bound`` grow from call to call."""
        text = self.text
        if start >= self._frontier:  # (no reading that ran into its bound lies ahead: the
            # pattern at once, which is what a page's tags cost; its tokens only if it fails)
            found = ATTRIBUTES.match(text, start, bound)
            if found is not None:
                return found.end()
        chain: list[int] = []
        synced = False
        pos = start
        while True:
            if pos in self._known and pos < self._frontier:
                if self._stops:
                    return None
                pos, synced = self._frontier, True
            token = _TOKEN.match(text, pos, bound)
            if token is None:
                break
            chain.append(pos)
            pos = token.end()
        if pos < bound and text[pos] == ">":
            self._known, self._frontier, self._stops = set(), -1, False
            return pos + 1
        self._remember(chain, pos, bound, synced)
        return None

    def _remember(self, chain: list[int], failed: int, bound: int, synced: bool) -> None:
        """Keep the token starts of a reading that failed at ``failed`` up to the first token
        a bound may have decided (the frontier: the reading of a later tag goes on there);
        the starts kept before, too, when this reading went on from their frontier."""
        frontier, stops = failed, failed + 1 < bound  # (its last look a character before it)
        for k, at in enumerate(chain):
            if self._furthest(at, chain[k + 1] if k + 1 < len(chain) else failed) + 1 >= bound:
                frontier, stops = at, False
                chain = chain[:k]
                break
        known = self._known if synced else set()
        known.update(chain)
        self._known, self._frontier, self._stops = known, frontier, stops

    def _furthest(self, at: int, end: int) -> int:
        """The furthest character the token from ``at`` to ``end`` looked at: the one after
        it, or, where its name's value was tried and not taken, that value's reach."""
        text = self.text
        equals = _EQUALS.match(text, end)
        if equals is None:  # (the spaces after the token, up to the character that is no "=")
            return _SPACES.match(text, end).end()  # type: ignore[union-attr]
        after = equals.end()
        if after < len(text) and text[after] in "\"'":
            return after + _VALUE_LONGEST + 1
        return after
