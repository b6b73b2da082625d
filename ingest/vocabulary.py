"""The per-system vocabulary of unit types (``ingest/data/vocabulary.toml``), keyed by lemmas."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from kb.lemmas import lemma_key

# Words that make a heading a group of sections ("Специальные правила расстановки",
# "Типы подразделений", "Тесты на панику", "Виды ландшафта", "Примеры мистических
# монументов"): the headings after it are its members.
GROUP_HEADS = frozenset({"правило", "тип", "тест", "класс", "вид", "пример"})


@dataclass(frozen=True)
class Vocabulary:
    """Unit type names of one game system, with lookup by lemma key."""

    system: str
    unit_types: tuple[str, ...]
    combined: dict[str, tuple[str, ...]] = field(default_factory=dict)
    split: dict[str, tuple[str, ...]] = field(default_factory=dict)
    special_rules_heading: str = "Специальные правила"
    # (lemma key, topic) pairs, most specific first
    topics: tuple[tuple[str, str], ...] = ()
    # rules the books name without this corpus defining them ("Опасный ландшафт")
    rules: tuple[str, ...] = ()
    # a name → the other names the books give the same thing ("Фаза психики")
    synonyms: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def keys(self) -> dict[str, str]:
        """Lemma key → the type's name as the book prints it."""
        return _keys(self)

    def unit_type(self, text: str) -> str | None:
        """The unit type a heading names exactly (in any form), or None."""
        return self.keys.get(lemma_key(_strip_parens(text))) or self.keys.get(lemma_key(text))

    def split_titles(self, text: str) -> list[str] | None:
        """Split a run of several type titles ("МОНСТРУОЗНЫЕ СОЗДАНИЯ ЗВЕРИ КАВАЛЕРИЯ").

        Returns the pieces of ``text`` as written, or None unless every piece is a type.
        """
        tokens = text.split()
        n = len(tokens)
        best: list[list[str]] | None = [[] for _ in range(n + 1)]
        assert best is not None
        ok = [False] * (n + 1)
        ok[0] = True
        for end in range(1, n + 1):
            for start in range(end - 1, -1, -1):
                if ok[start] and self.unit_type(" ".join(tokens[start:end])):
                    ok[end] = True
                    best[end] = best[start] + [" ".join(tokens[start:end])]
                    break
        return best[n] if ok[n] else None


def _strip_parens(text: str) -> str:
    out, depth = [], 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    return " ".join("".join(out).split())


@cache
def _keys(vocab: Vocabulary) -> dict[str, str]:
    keys: dict[str, str] = {}
    for name in vocab.unit_types:
        keys.setdefault(lemma_key(name), name)
        keys.setdefault(lemma_key(_strip_parens(name)), name)
    return keys


@cache
def vocabulary(system: str | None) -> Vocabulary:
    """The vocabulary of ``system`` (an empty one for an unknown or missing system)."""
    data = tomllib.loads(
        resources.files("ingest").joinpath("data/vocabulary.toml").read_text(encoding="utf-8")
    )
    entry = data.get(system or "", {})
    return Vocabulary(
        system=system or "",
        unit_types=tuple(entry.get("unit_types", ())),
        combined={k: tuple(v) for k, v in entry.get("combined", {}).items()},
        split={k: tuple(v) for k, v in entry.get("split", {}).items()},
        special_rules_heading=entry.get("special_rules_heading", "Специальные правила"),
        rules=tuple(entry.get("names", {}).get("rules", ())),
        synonyms={k: tuple(v) for k, v in entry.get("names", {}).get("synonyms", {}).items()},
        topics=tuple(
            (lemma_key(form), topic)
            for topic, forms in entry.get("topics", {}).items()
            for form in forms
        ),
    )


@cache
def english_names(system: str | None) -> dict[str, str]:
    """English name → the Russian name of the rule texts, for one system.

    Read from ``ingest/data/aliases.toml`` (the roster reader of ``validator`` reads the same
    table); empty for an unknown or missing system.

    >>> english_names("whfb8")["Regeneration"]
    'Регенерация'
    """
    data = tomllib.loads(
        resources.files("ingest").joinpath("data/aliases.toml").read_text(encoding="utf-8")
    )
    names = data.get(system or "", {})
    return {str(english): str(russian) for english, russian in names.items()}


def __hash__(self: Vocabulary) -> int:  # dataclass with dict fields: hash by identity
    return id(self)


Vocabulary.__hash__ = __hash__  # type: ignore[method-assign,assignment]
