"""Stable node ids: a system prefix and a Latin slug of the title ("whfb8:regeneraciya")."""

from __future__ import annotations

import re
from collections.abc import Iterable

_TRANSLIT = str.maketrans({
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh",
    "з": "z", "и": "i", "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o",
    "п": "p", "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f", "х": "kh", "ц": "c",
    "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu",
    "я": "ya",
})


def slug(title: str) -> str:
    """A Latin slug of a Russian title.

    >>> slug("Смертельный удар")
    'smertelnyi-udar'
    >>> slug("Регенерация")
    'regeneraciya'
    """
    low = title.lower().translate(_TRANSLIT)
    return re.sub(r"[^a-z0-9]+", "-", low).strip("-") or "x"


class FreeIds:
    """Ids handed out free of those taken (a KB's node ids, an army list's unit ids):
    ``base``, else ``base-2``, ``base-3`` …

    Each base remembers the last number it tried (the taken ids only grow, so every number
    below it is still taken): a hundred thousand units of one name cost a hundred thousand
    steps, not the five billion of counting up from 2 for each.

    >>> free = FreeIds(["trolls"])
    >>> free.take("trolls"), free.take("trolls"), free.take("trolls", plain=False)
    ('trolls-2', 'trolls-3', 'trolls-4')
    """

    def __init__(self, taken: Iterable[str] = ()) -> None:
        self._taken = set(taken)
        self._next: dict[str, int] = {}

    def add(self, taken: str) -> None:
        """Mark an id taken that was made elsewhere."""
        self._taken.add(taken)

    def take(self, base: str, *, plain: bool = True) -> str:
        """The first free id of ``base`` (``base`` itself first when ``plain``), now taken."""
        if plain and base not in self._taken:
            self._taken.add(base)
            return base
        number = self._next.get(base, 2)
        while f"{base}-{number}" in self._taken:
            number += 1
        self._next[base] = number + 1
        found = f"{base}-{number}"
        self._taken.add(found)
        return found
