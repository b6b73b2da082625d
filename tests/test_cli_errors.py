"""The CLI's error discipline: every failure is one Russian line on stderr and its exit code.

Usage errors of every kind click has (missing argument, no such option or command, bad
choice, bad number, missing value, extra argument), OS errors, library messages, a KB that
lacks the input's system, Ctrl-C, SIGTERM, a closed pipe, and a bug: each gives exactly one
line on stderr, in Russian (no English word of click's or of the OS), nothing on stdout and
the documented code. Signals are sent to real processes (the console script of the venv).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulekb.cli import cli

DATA = Path(__file__).parent / "data"
MINI_KB = DATA / "kb" / "mini_kb.json"  # holds wh40k6 and whfb8, not killteam2018
GAMES = DATA / "games"
RULEKB = Path(sys.executable).with_name("rulekb")

# the words a message may contain that are not Russian: what the user typed, and names
ALLOWED_LATIN = {"rulekb", "help", "text", "json", "xml", "format", "limit", "system", "kb",
                 "bogus", "formt", "check", "list", "audit", "show", "search", "stats", "site",
                 "build", "nosuch", "chek", "output", "aliases", "quiet", "version", "NAME",
                 "QUERY", "LISTS", "LOGS", "CORPUS", "wh40k6", "whfb8", "killteam2018", "wh40k7",
                 "yaml", "jsonl", "txt", "python", "object", "os", "tmp", "pytest", "of", "root",
                 "RULEKB_DEBUG", "ZeroDivisionError", "rosz", "ros", "yml"}


def _latin_words(text: str) -> set[str]:
    """The Latin words of ``text`` outside file paths, minus those the user typed."""
    text = re.sub(r"(?:/[\w.\-]+)+/?", " ", text)  # paths name the user's files
    return {w for w in re.findall(r"[A-Za-z_]{2,}", text)
            if w not in ALLOWED_LATIN and w.lower() not in ALLOWED_LATIN}


def _one_russian_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("Ошибка"), stderr
    assert "Traceback" not in stderr
    assert _latin_words(lines[0]) == set(), lines[0]
    return lines[0]


USAGE_ERRORS = [
    # (arguments, the message)
    (["audit", "x.jsonl", "--format", "xml"],
     "Ошибка: недопустимое значение '--format': «xml»; допустимы: 'text', 'json'. "
     "Справка: rulekb audit --help"),
    (["show"], "Ошибка: не указан аргумент 'NAME'. Справка: rulekb show --help"),
    (["check-list"], "Ошибка: не указан аргумент 'LISTS...'. Справка: rulekb check-list --help"),
    (["nosuch"], "Ошибка: нет команды «nosuch» (команды: audit, build, check-list, search, show, "
     "site, stats). Справка: rulekb --help"),
    (["chek-list", "a.yaml"], "Ошибка: нет команды «chek-list»; возможно, «check-list» "
     "(команды: audit, build, check-list, search, show, site, stats). Справка: rulekb --help"),
    (["audit", "--bogus", "x"], "Ошибка: нет параметра «--bogus». Справка: rulekb audit --help"),
    (["audit", "--formt", "json", "x"], "Ошибка: нет параметра «--formt». Возможно, имелся в "
     "виду '--format'? Справка: rulekb audit --help"),
    (["--bogus"], "Ошибка: нет параметра «--bogus». Справка: rulekb --help"),
    (["show", "--system"], "Ошибка: параметру «--system» нужно значение."),
    (["stats", "--json=3"], "Ошибка: параметр «--json» не принимает значения."),
    (["show", "a", "b"], "Ошибка: лишний аргумент: b. Справка: rulekb show --help"),
    (["search", "foo", "-n", "0"], "Ошибка: недопустимое значение '--limit' / '-n': ожидалось "
     "целое число не меньше 1, получено «0». Справка: rulekb search --help"),
    (["search", "foo", "-n", "-5"], "Ошибка: недопустимое значение '--limit' / '-n': ожидалось "
     "целое число не меньше 1, получено «-5». Справка: rulekb search --help"),
    (["search", "foo", "--limit", "x"], "Ошибка: недопустимое значение '--limit' / '-n': "
     "ожидалось целое число не меньше 1, получено «x». Справка: rulekb search --help"),
]


@pytest.mark.parametrize(("args", "message"), USAGE_ERRORS,
                         ids=[" ".join(case[0]) for case in USAGE_ERRORS])
def test_usage_errors_are_one_russian_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert _one_russian_line(result.stderr) == message


def test_no_english_in_the_help() -> None:
    for args in ([], ["--help"], *([name, "--help"] for name in cli.commands)):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, args
        assert not {"Usage", "Options", "Commands", "Show", "default", "required"} & set(
            re.findall(r"[A-Za-z]+", result.stdout)), result.stdout
    assert CliRunner().invoke(cli, ["--version"]).stdout.startswith("rulekb, версия ")


def test_rulekb_alone_shows_the_help() -> None:
    result = CliRunner().invoke(cli, [])
    assert result.exit_code == 0
    assert result.stdout.startswith("Использование: rulekb [ПАРАМЕТРЫ] КОМАНДА [АРГУМЕНТЫ]...")


@pytest.mark.parametrize(("make", "args", "message"), [
    (lambda tmp: tmp, ["stats", "--kb", "{tmp}"],
     "Ошибка: {tmp}: не удалось прочитать базу знаний (это папка, а не файл)"),
    (lambda tmp: tmp / "missing.json", ["stats", "--kb", "{tmp}/missing.json"],
     "Ошибка: {tmp}/missing.json: не удалось прочитать базу знаний (нет такого файла или "
     "папки)"),
    (lambda tmp: tmp, ["check-list", "{good}", "--kb", "{kb}", "-o", "{tmp}"],
     "Ошибка: не удалось записать отчёт в {tmp}: это папка, а не файл"),
    (lambda tmp: tmp, ["audit", "{log}", "--kb", "{kb}", "-o", "{tmp}/plain/out.txt"],
     "Ошибка: не удалось записать отчёт в {tmp}/plain/out.txt: часть пути — не папка"),
    (lambda tmp: tmp, ["build", "{corpus}", "-o", "{tmp}/plain/kb.json"],
     "Ошибка: не удалось записать базу знаний в {tmp}/plain/kb.json: часть пути — не папка"),
], ids=["kb-is-a-folder", "kb-missing", "report-onto-a-folder", "report-under-a-file",
        "kb-under-a-file"])
def test_os_errors_say_what_was_done_to_which_path(make: object, args: list[str],
                                                    message: str, tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("a file, not a folder", encoding="utf-8")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "corpus.toml").write_text('system = "whfb8"\n', encoding="utf-8")
    (corpus / "panic.txt").write_text("Паника\n\nПодразделение проходит тест на Панику, если "
                                      "понесло потери в 25% за фазу.\n", encoding="utf-8")
    places = {"tmp": str(tmp_path), "kb": str(MINI_KB), "corpus": str(corpus),
              "good": str(DATA / "lists" / "checks" / "points.yaml"),
              "log": str(GAMES / "whfb8" / "small.jsonl")}
    result = CliRunner().invoke(cli, [a.format(**places) for a in args])
    assert result.exit_code == 2
    assert _one_russian_line(result.stderr) == message.format(**places)
    assert not list(tmp_path.glob(".*.tmp"))  # no temporary left behind


def test_pyyaml_python_tag_is_said_in_russian(tmp_path: Path) -> None:
    bad = tmp_path / "tag.yaml"
    bad.write_text("system: whfb8\nunits: !!python/object:os.system {}\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["check-list", str(bad), "--kb", str(MINI_KB)])
    assert result.exit_code == 2
    assert _one_russian_line(result.stderr) == (
        f"Ошибка: {bad}:2:8: ошибка синтаксиса YAML: тег «!!python/object:os.system» не "
        "поддерживается: в списке допустимы только обычные значения YAML (строки, числа, "
        "списки, словари)")


def test_a_kb_without_the_lists_system(tmp_path: Path) -> None:
    kt = tmp_path / "kt.yaml"
    kt.write_text("system: killteam2018\nunits:\n"
                  "  - {id: a, name: Сержант, type: Лидер, models: 1}\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["check-list", str(kt), "--kb", str(MINI_KB)])
    assert result.exit_code == 2
    assert result.stderr == (f"Ошибка: {kt}:1:1: в базе знаний нет правил системы "
                             "«killteam2018»; в ней есть: wh40k6, whfb8\n")
    assert "не найден" not in result.stdout  # no verdict about unknown unit types
    good = DATA / "lists" / "checks" / "points.yaml"
    result = CliRunner().invoke(cli, ["check-list", str(kt), str(good), "--kb", str(MINI_KB)])
    assert result.exit_code == 1  # the other list is still checked
    assert result.stdout.count("Список армии:") == 2


def test_a_kb_without_the_logs_system(tmp_path: Path) -> None:
    log = GAMES / "killteam2018" / "advance.jsonl"
    result = CliRunner().invoke(cli, ["audit", str(log), "--kb", str(MINI_KB)])
    assert result.exit_code == 2
    assert result.stderr == (f"Ошибка: {log}:1: в базе знаний нет правил системы "
                             "«killteam2018»; в ней есть: wh40k6, whfb8\n")
    assert "Строка 2" not in result.stdout


def test_input_errors_reach_the_terminal_when_the_report_goes_to_a_file(tmp_path: Path) -> None:
    broken = DATA / "lists" / "bad" / "broken.yaml"
    out = tmp_path / "report.txt"
    result = CliRunner().invoke(cli, ["check-list", str(broken), "--kb", str(MINI_KB),
                                      "-o", str(out)])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (f"Ошибка: {broken}:6:9: ошибка синтаксиса YAML: не найдено "
                             "ожидаемое «,» или «]»\n")
    assert "ошибка синтаксиса YAML" in out.read_text(encoding="utf-8")
    log = GAMES / "engine" / "order_and_units.jsonl"
    result = CliRunner().invoke(cli, ["audit", str(log), "--kb", str(MINI_KB), "-o", str(out)])
    assert (result.exit_code, result.stdout) == (1, "")
    lines = result.stderr.splitlines()
    assert lines and all(line.startswith(f"Ошибка: {log}:") for line in lines)
    report = out.read_text(encoding="utf-8")
    assert all(re.sub(r"^Ошибка: [^:]+:\d+(:\d+)?: ", "", line) in report for line in lines)


def test_a_bug_is_one_line_and_exit_3(monkeypatch: pytest.MonkeyPatch) -> None:
    import rulekb.show

    def broken(*args: object, **kwargs: object) -> str:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(rulekb.show, "render_node", broken)
    monkeypatch.delenv("RULEKB_DEBUG", raising=False)
    result = CliRunner().invoke(cli, ["show", "Регенерация", "--kb", str(MINI_KB)])
    assert result.exit_code == 3
    assert result.stderr == ("Ошибка: внутренняя ошибка rulekb (ZeroDivisionError: division by "
                             "zero); трассировку покажет запуск с RULEKB_DEBUG=1\n")
    monkeypatch.setenv("RULEKB_DEBUG", "1")
    result = CliRunner().invoke(cli, ["show", "Регенерация", "--kb", str(MINI_KB)])
    assert isinstance(result.exception, ZeroDivisionError)  # the traceback, for a developer


# --- real processes: signals and pipes ----------------------------------------------------


def _spawn(args: list[str], cwd: Path, **kwargs: object) -> subprocess.Popen[str]:
    """The command as a user starts it at a terminal: Ctrl-C interrupts it even when the
    tests themselves run where SIGINT is ignored (a shell's background job, ``nohup``), which
    a child would inherit and Python then keep."""
    env = dict(os.environ, RULEKB_CACHE=str(cwd / "cache"))
    return subprocess.Popen([str(RULEKB), *args], cwd=cwd, env=env, text=True,
                            stderr=subprocess.PIPE, preexec_fn=_default_sigint,
                            **kwargs)  # type: ignore[call-overload]


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait_for(path_glob: str, folder: Path, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 30
    while not list(folder.glob(path_glob)):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the command never started writing"
        time.sleep(0.02)


@pytest.mark.skipif(not RULEKB.exists() or not hasattr(os, "mkfifo"),
                    reason="needs the console script and FIFOs")
@pytest.mark.parametrize(("sig", "code", "message"), [
    (signal.SIGINT, 130, "Прервано (Ctrl-C)."),
    (signal.SIGTERM, 143, "Прервано: процесс получил сигнал SIGTERM."),
])
def test_a_signal_leaves_no_report_and_one_line(tmp_path: Path, sig: int, code: int,
                                                message: str) -> None:
    fifo = tmp_path / "game.jsonl"
    os.mkfifo(fifo)  # the audit blocks reading it: a long game, as far as it knows
    process = _spawn(["audit", str(fifo), "--kb", str(MINI_KB), "-o", "report.txt"], tmp_path,
                     stdout=subprocess.PIPE)
    _wait_for(".report.txt.*.tmp", tmp_path, process)  # the report's temporary is open
    time.sleep(0.2)
    process.send_signal(sig)
    stdout, stderr = process.communicate(timeout=30)
    assert process.returncode == code
    assert (stdout, stderr) == ("", message + "\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]  # nothing half-written


@pytest.mark.skipif(not RULEKB.exists(), reason="needs the console script")
def test_a_closed_pipe_is_silent(tmp_path: Path) -> None:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before rulekb writes a byte
    process = _spawn(["show", "Регенерация", "--kb", str(MINI_KB)], tmp_path, stdout=write)
    os.close(write)
    _, stderr = process.communicate(timeout=60)
    assert (process.returncode, stderr) == (141, "")


def test_stdout_is_utf8_whatever_the_locale(tmp_path: Path) -> None:
    if not RULEKB.exists() or shutil.which("env") is None:
        pytest.skip("needs the console script")
    env = dict(os.environ, LC_ALL="C", LANG="C", PYTHONIOENCODING="latin-1",
               RULEKB_CACHE=str(tmp_path / "cache"))
    result = subprocess.run([str(RULEKB), "show", "Регенерация", "--kb", str(MINI_KB)], env=env,
                            capture_output=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode("utf-8").startswith("Регенерация")


@pytest.mark.parametrize("command", ["show", "search"])
def test_a_lookup_in_a_system_the_kb_lacks(command: str) -> None:
    result = CliRunner().invoke(cli, [command, "Сержант", "-s", "killteam2018", "--kb",
                                      str(MINI_KB)])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == ("Ошибка: в базе знаний нет правил системы «killteam2018»; в ней "
                             "есть: wh40k6, whfb8\n")
