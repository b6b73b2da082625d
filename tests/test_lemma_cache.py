"""The lemma cache: a lookup in a fresh process answers without loading the dictionary when
its words were seen before, and answers exactly as the dictionary would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kb import lemmas, search

MINI_KB = Path(__file__).parent / "data" / "kb" / "mini_kb.json"

_PROBE = """
import sys
from rulekb.cli import main
try:
    main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
print("pymorphy3" in sys.modules, "ingest" in sys.modules, "networkx" in sys.modules,
      "validator" in sys.modules, code, file=sys.stderr)
"""


def _lookup(args: list[str], cache: Path) -> tuple[str, list[str]]:
    env = dict(os.environ, RULEKB_CACHE=str(cache))
    result = subprocess.run([sys.executable, "-c", _PROBE, *args], env=env,
                            capture_output=True, text=True, timeout=120)
    return result.stdout, result.stderr.split()


@pytest.mark.parametrize("args", [["show", "регенерацию"], ["search", "турбо ускорение"]])
def test_a_second_lookup_does_not_load_the_dictionary(tmp_path: Path, args: list[str]) -> None:
    first, loaded = _lookup([*args, "--kb", str(MINI_KB)], tmp_path)
    assert loaded == ["True", "False", "False", "False", "0"]  # the dictionary, nothing else
    [cache] = tmp_path.glob("lemmas-*.json")
    again, loaded = _lookup([*args, "--kb", str(MINI_KB)], tmp_path)
    assert again == first
    assert loaded == ["False", "False", "False", "False", "0"]


def test_a_damaged_cache_is_ignored_and_rewritten(tmp_path: Path) -> None:
    first, _ = _lookup(["show", "регенерацию", "--kb", str(MINI_KB)], tmp_path)
    [cache] = tmp_path.glob("lemmas-*.json")
    cache.write_text('{"lemma": {"регенерацию": ', encoding="utf-8")
    again, loaded = _lookup(["show", "регенерацию", "--kb", str(MINI_KB)], tmp_path)
    assert again == first and loaded[0] == "True"
    assert json.loads(cache.read_text(encoding="utf-8"))["lemma"]["регенерацию"] == "регенерация"


def test_saved_answers_are_the_dictionarys() -> None:
    words = ["Регенерацию", "молот", "турбо-ускорении", "стали", "3D6", "Гравициклов"]
    fresh = {w: lemmas.lemma(w) for w in words}
    terms = {w.lower(): search.word_terms(w) for w in words}
    state = json.loads(json.dumps(lemmas.memo_state(), ensure_ascii=False))
    for memo in lemmas.MEMOS.values():
        memo.table.clear()
    lemmas.load_memo(state)
    assert {w: lemmas.lemma(w) for w in words} == fresh
    assert {w.lower(): search.word_terms(w) for w in words} == terms
    assert all(isinstance(t, tuple) for t in lemmas.MEMOS["word_terms"].table.values())


def test_the_parses_kept_in_the_process_are_the_dictionary_s() -> None:
    """The shared analyser keeps the parses of the words last asked for (the lemma, the part of
    speech and a name's form of one word each ask): the same answers as a fresh analyser's,
    and no caller can change them for the next."""
    import pymorphy3

    fresh = pymorphy3.MorphAnalyzer()

    def read(parses: Any) -> list[tuple[str, str, str, float]]:
        return [(p.word, str(p.tag), p.normal_form, p.score) for p in parses]

    for word in ("регенерацию", "молот", "контужен", "летающих", "и", "warhammer",
                 "турбо-ускорении"):
        kept = lemmas.morph().parse(word)
        assert isinstance(kept, tuple) and read(kept) == read(fresh.parse(word))
        assert lemmas.morph().parse(word) is kept
