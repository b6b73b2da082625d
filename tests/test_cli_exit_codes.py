"""Every exit code of every command is documented, and the documentation is what happens.

:data:`rulekb.errors.EXIT_CODES` is the table; the README and docs/about/cli.rst hold it verbatim
(regenerate with ``exit_codes_markdown()`` / ``exit_codes_rst()``), each command's ``--help``
ends with its codes, and a run of each command gives each code it documents. A new command or
code without a row here fails.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import test_cli_errors as errors_tests
from click.testing import CliRunner

from kb import store
from kb.graph import Graph
from rulekb.cli import cli
from rulekb.errors import (
    COMMON_CODES,
    EXIT_CODES,
    exit_codes_help,
    exit_codes_markdown,
    exit_codes_rst,
)

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data"
GAMES = DATA / "games" / "engine"
LISTS = DATA / "lists"
GOOD_LIST = """\
system: whfb8
units:
  - {id: trolls, name: Речные тролли, type: Пехота Чудовищ, models: 3, points: 210,
     rules: [Регенерация (5+)]}
"""
PANIC = ("Паника\n\nПодразделение должно пройти тест на Панику, если понесло потери в 25% и "
         "более от своей численности в начале фазы.\n")


@pytest.fixture(scope="module")
def kb_file(tmp_path_factory: pytest.TempPathFactory, corpus_graph: Graph) -> Path:
    path = tmp_path_factory.mktemp("kb") / "kb.json"
    store.save(corpus_graph.kb, path)
    return path


def test_every_command_has_its_codes() -> None:
    assert set(EXIT_CODES) == set(cli.commands)
    for name, command in cli.commands.items():
        assert command.epilog == exit_codes_help(name)
        assert [item.code for item in EXIT_CODES[name]] == sorted(
            {item.code for item in EXIT_CODES[name]})


def test_the_readme_and_the_docs_hold_the_table() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert exit_codes_markdown() in readme
    docs = (ROOT / "docs" / "about" / "cli.rst").read_text(encoding="utf-8")
    assert exit_codes_rst() in docs


Scenario = Callable[[Path, Path], list[str]]


def _corpus(tmp: Path, *files: tuple[str, bytes]) -> Path:
    folder = tmp / "corpus"
    folder.mkdir(exist_ok=True)
    (folder / "corpus.toml").write_text('system = "whfb8"\n', encoding="utf-8")
    for name, content in files:
        (folder / name).write_bytes(content)
    return folder


def _list(tmp: Path, text: str = GOOD_LIST) -> str:
    (tmp / "good.yaml").write_text(text, encoding="utf-8")
    return str(tmp / "good.yaml")


SCENARIOS: dict[tuple[str, int], Scenario] = {
    ("build", 0): lambda tmp, kb: ["build", "-q", str(_corpus(tmp, ("panic.txt",
                                                                    PANIC.encode()))),
                                   "-o", str(tmp / "kb.json")],
    ("build", 1): lambda tmp, kb: ["build", "-q", str(_corpus(tmp, ("panic.txt", PANIC.encode()),
                                                              ("empty.txt", b""))),
                                   "-o", str(tmp / "kb.json")],
    ("build", 2): lambda tmp, kb: ["build", "-q", str(_corpus(tmp, ("empty.txt", b""))),
                                   "-o", str(tmp / "kb.json")],
    ("show", 0): lambda tmp, kb: ["show", "регенерацию", "--kb", str(kb)],
    ("show", 2): lambda tmp, kb: ["show", "Гравицыклы", "-s", "whfb8", "--kb", str(kb)],
    ("search", 0): lambda tmp, kb: ["search", "нетакогослова", "--kb", str(kb)],
    ("search", 2): lambda tmp, kb: ["search", "паника", "-s", "wh40k7", "--kb", str(kb)],
    ("stats", 0): lambda tmp, kb: ["stats", "--kb", str(kb)],
    ("check-list", 0): lambda tmp, kb: ["check-list", _list(tmp), "--kb", str(kb)],
    ("check-list", 1): lambda tmp, kb: ["check-list", str(LISTS / "bad" / "broken.yaml"),
                                        _list(tmp), "--kb", str(kb)],
    ("check-list", 2): lambda tmp, kb: ["check-list", str(LISTS / "bad" / "broken.yaml"),
                                        "--kb", str(kb)],
    ("audit", 0): lambda tmp, kb: ["audit", str(GAMES / "clean.jsonl"), "--kb", str(kb)],
    ("audit", 1): lambda tmp, kb: ["audit", str(GAMES / "order_and_units.jsonl"), "--kb",
                                   str(kb)],
    ("audit", 2): lambda tmp, kb: ["audit", str(GAMES / "no_header.jsonl"), "--kb", str(kb)],
    ("site", 0): lambda tmp, kb: ["site", "-o", str(tmp / "site"), "--kb",
                                  str(DATA / "kb" / "mini_kb.json")],
    ("site", 2): lambda tmp, kb: ["site", "-o", str(_file(tmp) / "site"), "--kb", str(kb)],
}

def _file(tmp: Path) -> Path:
    (tmp / "plain").write_text("a file, not a folder", encoding="utf-8")
    return tmp / "plain"


def test_every_documented_code_has_a_scenario() -> None:
    documented = {(name, item.code) for name, items in EXIT_CODES.items() for item in items}
    assert set(SCENARIOS) == documented


@pytest.mark.parametrize("key", list(SCENARIOS), ids=[f"{k[0]}-{k[1]}" for k in SCENARIOS])
def test_the_code_is_what_happens(key: tuple[str, int], kb_file: Path, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path / "cache"))
    args = SCENARIOS[key](tmp_path, kb_file)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == key[1], result.output
    assert "Traceback" not in result.output
    if key[1] == 2:
        assert result.stderr.splitlines()[-1].startswith("Ошибка"), result.output
    shutil.rmtree(tmp_path / "site", ignore_errors=True)


def test_every_common_code_has_its_test() -> None:
    """The codes every command shares are tried in tests/test_cli_errors.py."""
    tests = {2: errors_tests.test_usage_errors_are_one_russian_line,
             3: errors_tests.test_a_bug_is_one_line_and_exit_3,
             130: errors_tests.test_a_signal_leaves_no_report_and_one_line,
             141: errors_tests.test_a_closed_pipe_is_silent,
             143: errors_tests.test_a_signal_leaves_no_report_and_one_line}
    assert set(tests) == {item.code for item in COMMON_CODES}
