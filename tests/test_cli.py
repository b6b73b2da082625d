"""The rulekb command line: results and clean errors (exit 2, one line, no traceback)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekb.cli import cli

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


@pytest.fixture(scope="module")
def kb_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("kb") / "kb.json"
    result = CliRunner().invoke(cli, ["build", str(CORPUS), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "wh40k6" in result.output and "whfb8" in result.output
    return out


def test_build_summary_and_file(kb_file: Path) -> None:
    data = json.loads(kb_file.read_text(encoding="utf-8"))
    assert data["schema"] == "rulekb.kb/1"
    assert {s["id"] for s in data["systems"]} == {"wh40k6", "whfb8", "killteam2018"}


def test_show_inflected_name(kb_file: Path) -> None:
    result = CliRunner().invoke(cli, ["show", "регенерацию", "--kb", str(kb_file)])
    assert result.exit_code == 0
    assert result.output.startswith("Регенерация  [whfb8, rule]")
    assert "Огненные атаки" in result.output


def test_show_json_of_unit_type(kb_file: Path) -> None:
    result = CliRunner().invoke(
        cli, ["show", "Эльдарские гравициклы", "-s", "wh40k6", "--json", "--kb", str(kb_file)])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert "Молот ярости" in {r["title"] for r in data["effective_rules"]}


def test_search(kb_file: Path) -> None:
    result = CliRunner().invoke(cli, ["search", "турбо ускорение", "--kb", str(kb_file)])
    assert result.exit_code == 0
    assert result.output.splitlines()[0].startswith("1. Турбо-ускорение [wh40k6]")


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        (b"", ["build"], "пуст"),
        (b"\x00\x01\x02binary\x00", ["build"], "двоичн"),
    ],
)
def test_bad_corpus_files(tmp_path: Path, content: bytes, args: list[str], message: str) -> None:
    f = tmp_path / "bad.txt"
    f.write_bytes(content)
    result = CliRunner().invoke(cli, [*args, str(f), "-o", str(tmp_path / "kb.json")])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert message in result.output.lower()


def test_unknown_name_suggests(kb_file: Path) -> None:
    result = CliRunner().invoke(cli, ["show", "Гравицыклы", "-s", "whfb8", "--kb", str(kb_file)])
    assert result.exit_code == 2
    assert result.output.startswith("Ошибка: Не найден")


def test_bad_kb_file(tmp_path: Path) -> None:
    bad = tmp_path / "kb.json"
    bad.write_text("{not json", encoding="utf-8")
    result = CliRunner().invoke(cli, ["stats", "--kb", str(bad)])
    assert result.exit_code == 2
    assert "строка 1" in result.output


@pytest.mark.parametrize(
    ("name", "text", "expect_system"),
    [
        ("cp1251.txt", "Регенерация\n\nЗа каждую рану киньте D6: на 4+ рана игнорируется. "
         "Страница 75\nПодразделение должно пройти тест на Панику.", "whfb8"),
        ("noheadings.txt", "подразделение должно пройти тест на панику, если понесло потери "
         "в размере 25% и более от своей численности в начале фазы, как в Warhammer.", "whfb8"),
    ],
)
def test_odd_texts_give_a_kb(tmp_path: Path, name: str, text: str, expect_system: str) -> None:
    f = tmp_path / name
    f.write_bytes(text.encode("cp1251"))
    (tmp_path / "corpus.toml").write_text(f'system = "{expect_system}"\n', encoding="utf-8")
    out = tmp_path / "kb.json"
    result = CliRunner().invoke(cli, ["build", str(tmp_path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    rules = [n for n in data["nodes"] if n["kind"] == "rule"]
    assert rules and all(n["system"] == expect_system for n in rules)


def test_english_text_is_skipped_with_reason(tmp_path: Path) -> None:
    f = tmp_path / "en.txt"
    f.write_text("This is an English text about nothing in particular.\n", encoding="utf-8")
    out = tmp_path / "kb.json"
    result = CliRunner().invoke(cli, ["build", str(f), "-o", str(out)])
    assert result.exit_code == 0
    assert "Пропущен файл en.txt" in result.output


def test_one_megabyte_line(tmp_path: Path) -> None:
    f = tmp_path / "long.txt"
    f.write_text("Подразделение Warhammer проходит тест на Панику. " * 21000, encoding="utf-8")
    (tmp_path / "corpus.toml").write_text('system = "whfb8"\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", str(tmp_path), "-o", str(tmp_path / "kb.json")])
    assert result.exit_code == 0, result.output
