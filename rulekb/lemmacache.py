"""What earlier lookups learnt from the Russian dictionary, kept on disk for the next one.

Loading pymorphy3's dictionary takes about 60 ms, a quarter of a lookup's budget. ``show`` and
``search`` read :func:`load` before they build the name or search index and call :func:`save`
when they are done: the lemma tables of :mod:`kb.lemmas` (word → lemma, word → index terms)
go to ``lemmas-<key>.json`` in the cache folder, so a lookup whose words an earlier one has
seen answers without loading the dictionary at all.

The tables hold the dictionary's own answers, so the key hashes what they depend on: the
code of :mod:`kb.lemmas` and :mod:`kb.search` and the versions of pymorphy3 and its Russian
dictionary. Another version gets a file of its own; a file that does not read is ignored and
rewritten. Writing is atomic and best-effort: a read-only cache folder only costs speed.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path
from typing import Any

from kb import lemmas
from kb.files import write_text_atomic
from rulekb.defaults import cache_dir

_PACKAGES = ("pymorphy3", "pymorphy3_dicts_ru")


def _version_text(package: str) -> bytes:
    """The ``version.py`` of an installed package, found without importing it (importing
    pymorphy3 is what this cache saves)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return b"-"
    for folder in spec.submodule_search_locations:
        try:
            return (Path(folder) / "version.py").read_bytes()
        except OSError:
            continue
    return b"-"


def cache_file() -> Path:
    """The lemma cache file for this code and dictionary."""
    h = hashlib.sha256()
    for module in (lemmas.__file__, _search_file()):
        h.update(Path(module).read_bytes())
    for package in _PACKAGES:
        h.update(_version_text(package))
    return cache_dir() / f"lemmas-{h.hexdigest()[:16]}.json"


def _search_file() -> str:
    spec = importlib.util.find_spec("kb.search")
    return spec.origin if spec is not None and spec.origin else lemmas.__file__


def load() -> None:
    """Give :mod:`kb.lemmas` the tables saved by earlier lookups (if any)."""
    try:
        state: Any = json.loads(cache_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return  # no cache yet, or a damaged one: the dictionary answers and it is rewritten
    if isinstance(state, dict):
        lemmas.load_memo(state)


def save() -> None:
    """Save the tables when this process had to ask the dictionary something new."""
    if not (lemmas.morph_loaded() and lemmas.memo_grown()):
        return
    try:
        cache_file().parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(cache_file(), json.dumps(lemmas.memo_state(), ensure_ascii=False,
                                                   separators=(",", ":")))
    except OSError:
        pass  # a read-only cache: the next lookup loads the dictionary again
