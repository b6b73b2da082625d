"""Stable node ids: a system prefix and a Latin slug of the title ("whfb8:regeneraciya")."""

from __future__ import annotations

import re

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
