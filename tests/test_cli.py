"""The rulekb command line: results and clean errors (exit 2, one line, no traceback)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

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
    # nothing usable: exit 2, the notice on stderr, no KB written
    assert result.exit_code == 2
    assert not result.stdout
    assert "en.txt: не удалось определить игровую систему (найдено: " in result.stderr
    assert "годных текстов правил не найдено" in result.stderr
    assert not out.exists()


@pytest.mark.parametrize(("name", "content", "steps"), [
    ("script.html", "<html><body><script>var x = 1;</script></body></html>", "html — "),
    ("menu.html", '<html><body><nav><a href="/a">Главная</a> <a href="/b">Форум</a></nav>'
     "</body></html>", "html — "),
])
def test_a_page_that_cleans_to_nothing_is_named_with_what_was_removed(
        tmp_path: Path, name: str, content: str, steps: str) -> None:
    """A page whose every line is the site's (its markup, a menu) is skipped by name, saying
    what was removed and where to see it; a build of it alone writes no KB (exit 2), beside
    a text of rules it is left out of the KB (exit 1)."""
    (tmp_path / name).write_text(content, encoding="utf-8")
    (tmp_path / "rules.txt").write_text(RULES, encoding="utf-8")
    out = tmp_path / "kb.json"
    alone = CliRunner().invoke(cli, ["build", str(tmp_path / name), "--system", "whfb8",
                                     "-o", str(out)])
    said = (f"Пропущен файл {tmp_path / name}: после очистки в нём не осталось текста правил "
            f"(удалено по причинам: {steps}")
    assert alone.exit_code == 2 and said in alone.stderr, alone.output
    assert "--explain" in alone.stderr and not out.exists()
    both = CliRunner().invoke(cli, ["build", str(tmp_path), "--system", "whfb8", "-o", str(out)])
    assert both.exit_code == 1 and said in both.stderr, both.output
    sources = [n for n in json.loads(out.read_text(encoding="utf-8"))["nodes"]
               if n["kind"] == "source"]
    assert [n["source"] for n in sources] == ["rules.txt"]
    explained = CliRunner().invoke(cli, ["build", str(tmp_path / name), "--system", "whfb8",
                                         "--explain"])
    assert "после очистки текста не осталось: файл будет пропущен" in explained.stdout
    assert explained.exit_code == 2  # (as its build: no file to take)
    both_explained = CliRunner().invoke(cli, ["build", str(tmp_path), "--system", "whfb8",
                                              "--explain"])
    assert both_explained.exit_code == 1  # (as the build of both: one file skipped)


RULES = "Паника\n\nПодразделение, понёсшее потери, проходит тест на Панику и Разгром.\n"


def _inputs(tmp: Path) -> dict[str, Path]:
    (tmp / "good.txt").write_text(RULES, encoding="utf-8")
    (tmp / "empty.txt").write_bytes(b"")
    (tmp / "binary.txt").write_bytes(b"\x00\x01\x02binary\x00")
    (tmp / "english.txt").write_text("Just an English note.\n", encoding="utf-8")
    (tmp / "emptydir").mkdir()
    notes = tmp / "notes"
    notes.mkdir()
    (notes / "todo.md").write_text("# Дела\n\nКупить хлеба, позвонить маме.\n", encoding="utf-8")
    return {"good": tmp / "good.txt", "empty": tmp / "empty.txt",
            "binary": tmp / "binary.txt", "english": tmp / "english.txt",
            "missing": tmp / "missing.txt", "emptydir": tmp / "emptydir", "notes": notes}


@pytest.mark.parametrize("bad", ["empty", "binary", "english", "missing", "emptydir", "notes"])
def test_a_build_keeps_going_past_an_unusable_input(tmp_path: Path, bad: str) -> None:
    paths = _inputs(tmp_path)
    out = tmp_path / "kb.json"
    result = CliRunner().invoke(cli, ["build", str(paths["good"]), str(paths[bad]),
                                      "-o", str(out), "-q"])
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output
    assert str(paths[bad].name) in lines[0]
    data = json.loads(out.read_text(encoding="utf-8"))
    assert {n["title"] for n in data["nodes"] if n["kind"] == "rule"} == {"Паника"}
    # the skipped input is in the KB's account too
    assert any(r["step"] in ("load", "system") for r in data["removed"])


def test_a_build_of_nothing_usable_writes_no_kb(tmp_path: Path) -> None:
    paths = _inputs(tmp_path)
    out = tmp_path / "kb.json"
    bad = [str(paths[k]) for k in ("empty", "binary", "english", "missing", "emptydir", "notes")]
    result = CliRunner().invoke(cli, ["build", *bad, "-o", str(out)])
    assert result.exit_code == 2
    assert not result.stdout and not out.exists()
    assert len(result.stderr.strip().splitlines()) == len(bad) + 1


def test_system_option_states_the_system_of_every_file(tmp_path: Path) -> None:
    f = tmp_path / "en.txt"
    f.write_text("Movement\n\nModels move 6 inches.\n", encoding="utf-8")
    out = tmp_path / "kb.json"
    result = CliRunner().invoke(cli, ["build", str(f), "--system", "killteam2018", "-o",
                                      str(out), "-q"])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [s["id"] for s in data["systems"]] == ["killteam2018"]
    bad = CliRunner().invoke(cli, ["build", str(f), "--system", "chess", "-o", str(out)])
    assert bad.exit_code == 2 and "неизвестная игровая система «chess»" in bad.stderr


def test_explain_shows_sections_and_removed_text(tmp_path: Path) -> None:
    f = tmp_path / "page.txt"
    f.write_text("Вы находитесь на странице: 1из 39\n\nПаника\n\nПодразделение проходит тест на "
                 "Панику.\n\nСтраница 66\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", str(f), "--explain", "-s", "whfb8",
                                      "-o", str(tmp_path / "kb.json")])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "1. «Паника» · верхний уровень · стр. 66 · заголовок" in out
    assert "счётчик страниц сайта" in out and "колонтитул страницы «Страница 66»" in out
    assert not (tmp_path / "kb.json").exists()


def test_explain_shows_the_rules_above_the_first_heading(tmp_path: Path) -> None:
    f = tmp_path / "page.txt"
    f.write_text("Модель может атаковать, если она находится в базовом контакте с моделью "
                 "противника.\n\nСколько атак\n\nКаждая модель совершает столько атак, сколько "
                 "указано в её профиле.\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", str(f), "--explain", "-s", "whfb8"])
    assert result.exit_code == 0, result.output
    assert ("1. «Модель может атаковать, если она находится …» · верхний уровень · стр. — · "
            "отрывок без заголовка (назван первыми словами), текст 0–83") in result.stdout
    assert "2. «Сколько атак» · верхний уровень" in result.stdout
    assert "Удалено (0):" in result.stdout


def test_explain_says_why_a_detected_system_was_chosen(tmp_path: Path) -> None:
    f = tmp_path / "page.txt"
    f.write_text("Паника\n\nПодразделение, потерявшее 25% моделей, проходит тест на Панику. "
                 "Если тест на Лидерство провален, подразделение бежит, и генерал не помогает. "
                 "Боевые машины и персонажи в подразделении проходят тест вместе с ним.\n",
                 encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", str(f), "--explain"])
    assert result.exit_code == 0, result.output
    assert "система whfb8 (определена по тексту)" in result.stdout
    assert "Почему whfb8: слова игры: «" in result.stdout
    stated = CliRunner().invoke(cli, ["build", str(f), "--explain", "-s", "whfb8"])
    assert "Почему" not in stated.stdout


def _unclear_text_in(tmp_path: Path, folder: str) -> tuple[Path, Result]:
    """A text whose words fit every game alike, in a folder so named, and its folder's build."""
    (tmp_path / folder).mkdir()
    f = tmp_path / folder / "move.txt"
    f.write_text("Движение\n\nМодель может двигаться на расстояние до 6 дюймов в свой ход.\n",
                 encoding="utf-8")
    return f, CliRunner().invoke(cli, ["build", str(tmp_path / folder), "-o",
                                       str(tmp_path / "kb.json"), "-q"])


def test_a_system_its_path_names_is_said_on_stderr_and_explained(tmp_path: Path) -> None:
    f, built = _unclear_text_in(tmp_path, "Kill Team")
    assert built.exit_code == 0, built.output  # (a file built, none skipped)
    assert (f"Файл {f}: система killteam2018 взята из имени файла или папки (слова текста её "
            "не решают; иначе: --system или corpus.toml)") in built.stderr
    explained = CliRunner().invoke(cli, ["build", str(f), "--explain"])
    assert "система killteam2018 (названа в имени файла или папки)" in explained.stdout
    assert f"Почему killteam2018: её называет путь «{f}», а слова текста не решают (" \
        in explained.stdout


def test_a_path_naming_another_edition_says_so(tmp_path: Path) -> None:
    f, built = _unclear_text_in(tmp_path, "w40k10")
    assert built.exit_code == 2, built.output  # (nothing usable: no KB)
    assert (f"Пропущен файл {f}: не удалось определить игровую систему (найдено: ") \
        in built.stderr
    assert ("; путь называет редакцию 10 игры wh40k6, правила которой другие, и систему не "
            "выбирает; если это всё же она, укажите её: --system или corpus.toml") in built.stderr
    assert "назовите игру в имени файла" not in built.stderr
    explained = CliRunner().invoke(cli, ["build", str(f), "--explain"])
    assert "; путь называет редакцию 10 игры wh40k6, правила которой другие" in explained.stdout
    # a folder above the one given is the user's own, read neither for the game nor the message
    (tmp_path / "w40k10" / "pages").mkdir()
    f.rename(tmp_path / "w40k10" / "pages" / "move.txt")
    below = CliRunner().invoke(cli, ["build", str(tmp_path / "w40k10" / "pages"), "-o",
                                     str(tmp_path / "kb.json"), "-q"])
    assert "путь называет редакцию" not in below.stderr
    assert "назовите игру в имени файла или папки" in below.stderr


def test_one_megabyte_line(tmp_path: Path) -> None:
    f = tmp_path / "long.txt"
    f.write_text("Подразделение Warhammer проходит тест на Панику. " * 21000, encoding="utf-8")
    (tmp_path / "corpus.toml").write_text('system = "whfb8"\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", str(tmp_path), "-o", str(tmp_path / "kb.json")])
    assert result.exit_code == 0, result.output


def test_a_web_page_saved_as_html_is_built_by_its_tags(tmp_path: Path) -> None:
    """An HTML file is read by its markup, not with it: its headings are the sections, its
    menu and head are accounted for as removed, no tag is a word of a rule."""
    page = tmp_path / "panic.html"
    page.write_text("<!DOCTYPE html><html><head><title>Сайт</title></head><body><nav><a href="
                    "\"/\">Главная</a></nav><h1>Психология</h1><h2>Паника</h2><p>Подразделение "
                    "проходит тест на Панику.</p></body></html>", encoding="utf-8")
    out = tmp_path / "kb.json"
    result = CliRunner().invoke(cli, ["build", str(page), "-o", str(out), "--system", "whfb8"])
    assert result.exit_code == 0, result.output
    kb = json.loads(out.read_text(encoding="utf-8"))
    rules = {n["title"]: n for n in kb["nodes"] if n.get("kind") != "unit_type"}
    assert set(rules) >= {"Психология", "Паника"}
    assert "<" not in rules["Паника"]["text"] and "тест на Панику" in rules["Паника"]["text"]
    removed = " ".join(r["text"] for r in kb["removed"])
    assert "Главная" in removed and "Сайт" in removed
