"""Mutation testing of the checks, one command: ``.venv/bin/python benchmarks/mutation.py``.

Not part of the test suite (it runs the tests once per mutant): it asks how many small
changes of the checks' comparisons the tests notice. cosmic-ray (the ``dev`` extra) makes
each mutant in a copy of the repository (the working tree is never touched), runs the tests
of ``validator/`` against it, and counts the mutants no test kills. The mutants:

* ``boundary`` — cosmic-ray's ``<`` for ``<=``, ``>=`` for ``>`` and back: a limit checked
  with the wrong strictness, which a test at the limit's value notices;
* ``offset`` — this project's :mod:`mutation_operators`: the limit itself off by one
  (``x > limit`` to ``x > (limit) + 1`` and ``- 1``, where the limit is not a number written
  in the code), which a test one step past the value notices.

What it covers, by default: every module of ``validator/`` (the audit checks, the army-list
checks, the input readers, the rulebook access), both kinds of mutants, and the tests of the
validator (``TESTS``: the limit tests first, so that a mutant they kill costs seconds). A
mutant whose tests run past ``--timeout`` counts as killed (cosmic-ray's rule).
``--modules`` narrows it (``--modules validator/audit/wh40k6_bikes.py``), ``--kinds`` too.

Prints the survival rate and every surviving mutant (file, line, operator) with, for those
that cannot change a verdict, the reason (``EQUIVALENT``); a survivor without one is a
limit no test pins yet. ``--diffs`` prints each change.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

OPERATORS: dict[str, tuple[str, ...]] = {
    "boundary": ("core/ReplaceComparisonOperator_Lt_LtE", "core/ReplaceComparisonOperator_LtE_Lt",
                 "core/ReplaceComparisonOperator_Gt_GtE",
                 "core/ReplaceComparisonOperator_GtE_Gt"),
    "offset": ("rulekb/LimitPlusOne", "rulekb/LimitMinusOne"),
}
"""The mutations by kind: a limit checked with the wrong strictness, a limit off by one."""

TESTS = ("tests/test_*_limits*.py", "tests/test_audit_*.py", "tests/test_listcheck.py",
         "tests/test_check_list_cli.py", "tests/test_lists_input.py",
         "tests/test_gamelog_input.py", "tests/test_report.py", "tests/test_lists_stream.py")
"""The tests of ``validator/`` (the ingest, site and browser tests do not run it), the limit
tests first."""

EQUIVALENT: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    # (module, the mutated line's text, the operators, why no verdict or report can change)
    ("validator/audit/engine.py", "len(self._names_of_rules) >= 4096", ("GtE_Gt",),
     "граница кэша: кэш очищается на одну запись позже, ответы те же"),
    ("validator/audit/engine.py", "len(self._missing) >= 1024", ("GtE_Gt",),
     "граница кэша сообщений об ошибках: те же сообщения"),
    ("validator/audit/output.py", "len(self._buffer) >= 256", ("GtE_Gt",),
     "когда сбрасывать буфер вывода: те же байты"),
    ("validator/audit/output.py", "len(self._rules_by_tuple) >= 4096", ("GtE_Gt",),
     "граница кэша цитат: тот же текст"),
    ("validator/audit/output.py", "len(self._where) >= 4096", ("GtE_Gt",),
     "граница кэша заголовков строк: тот же текст"),
    ("validator/audit/output.py", "len(self._error_json) >= 1024", ("GtE_Gt",),
     "граница кэша JSON ошибок: тот же текст"),
    ("validator/audit/state.py", "entry[1].line > found.line", ("Gt_GtE",),
     "равные строки — одно событие (один Done под несколькими именами)"),
    ("validator/audit/state.py", "entry[0].line < found.line", ("Lt_LtE",),
     "равные строки — одно событие (один Done под несколькими именами)"),
    ("validator/audit/whfb8_common.py", "_phase_rank(phase) < _phase_rank(clock.phase_id)",
     ("Lt_LtE",), "у разных фаз whfb8 разные ранги: равенство бывает только при той же фазе, "
     "а тогда часы не переводятся"),
    ("validator/audit/wh40k6_monsters.py", "len(more) <= MAX_TARGETS", ("LimitPlusOne",),
     "помнить на цель больше: сообщение то же (первые MAX_TARGETS и «…»)"),
    ("validator/armylist/walker.py", "int(match.group(1)) >= len(ctx.units)", ("GtE_Gt",),
     "проверки списка называют только отряды списка: индекс, равный их числу, не встречается"),
    ("validator/armylist/parameters.py", "parsed.number < low.value", ("Lt_LtE",),
     "два факта «лучший бросок» с одним числом: граница та же, цитата — одна из двух"),
    ("validator/armylist/parameters.py", "a.number <= b.number", ("LtE_Lt",),
     "равные параметры несуммируемых правил: наилучшее — любое из равных"),
    ("validator/armylist/parameters.py", "a.number >= b.number", ("GtE_Gt",),
     "равные параметры несуммируемых правил: наилучшее — любое из равных"),
    ("validator/inputs/errors.py", "0 <= item < len(current)", ("Lt_LtE",),
     "путь pydantic называет только существующие элементы"),
    ("validator/armylist/context.py", "self._count <= HELD_RULES",
     ("LtE_Lt", "LimitPlusOne", "LimitMinusOne"),
     "правила отряда держатся разрешёнными или разрешаются при каждом чтении: отчёт тот же "
     "(tests/test_lists_stream.py сравнивает оба пути)"),
    ("validator/armylist/context.py", "len(self._items) > self.size", ("Gt_GtE",),
     "граница кэша имён: запись вытесняется на одну раньше, ответы те же"),
    ("validator/armylist/context.py", "if len(certain) > 1 else", ("Gt_GtE",),
     "при одном точном совпадении resolve находит тот же узел"),
    ("validator/inputs/source.py", "size <= STREAM_BYTES", ("LtE_Lt", "LimitPlusOne",
                                                             "LimitMinusOne"),
     "список читается целиком или потоком: отчёт тот же (tests/test_lists_stream.py "
     "сравнивает оба пути на каждом тестовом списке)"),
    ("validator/inputs/source.py", "key < len(units)", ("Lt_LtE",),
     "события разбора называют только элементы того же документа: индекс за концом не "
     "встречается"),
    ("validator/inputs/source.py", "index < len(self.ids)", ("Lt_LtE",),
     "у каждого отряда есть запись первого прохода: индекс, равный их числу, не встречается"),
    ("validator/inputs/source.py", "2 * last < len(items)", ("Lt_LtE", "LimitPlusOne",
                                                              "LimitMinusOne"),
     "позиция ищется только для элементов документа: индекс за концом не встречается"),
    ("validator/inputs/source.py", "len(text) > SHARED_LENGTH", ("Gt_GtE", "LimitPlusOne",
                                                                  "LimitMinusOne"),
     "какие строки документа хранятся один раз: тот же текст"),
    ("validator/inputs/source.py", "len(self.strings) >= SHARED_STRINGS",
     ("GtE_Gt", "LimitPlusOne", "LimitMinusOne"),
     "сколько разных строк хранится один раз: тот же текст"),
    ("validator/inputs/liberrors.py", "0 <= position <= len(text)", ("LtE_Lt", "LimitPlusOne"),
     "ошибка чтения YAML указывает на символ текста: позиция меньше длины"),
    ("validator/inputs/roster.py", "at >= 0", ("GtE_Gt",),
     "смещение 0 и отсутствие дают одну и ту же строку 1"),
    ("validator/inputs/roster.py", "rosters[0].file_size > max_bytes", ("LimitPlusOne",),
     "за ней та же проверка прочитанного, с тем же сообщением"),
    ("validator/inputs/roster.py", "len(content) > max_bytes", ("LimitPlusOne",),
     "zipfile не читает больше заявленного размера, а его уже проверили"),
    ("validator/inputs/gamelog.py", "len(raw) > limit and",
     ("Gt_GtE", "LimitPlusOne", "LimitMinusOne"),
     "быстрая проверка перед точной: решает длина без конца строки"),
    ("validator/inputs/gamelog.py", "len(raw) > max_header_bytes and",
     ("Gt_GtE", "LimitPlusOne", "LimitMinusOne"),
     "быстрая проверка перед точной: решает длина без конца строки"),
)
"""Survivors that cannot change a verdict or a report, with the reason."""


def _config(modules: list[str], operators: list[str], tests: list[str], timeout: float) -> str:
    keep = "^(?!(" + "|".join(operators) + ")$)"  # cosmic-ray drops the operators it matches
    return "\n".join([
        "[cosmic-ray]",
        f"module-path = [{', '.join(repr(m) for m in modules)}]",
        f"timeout = {timeout}",
        "excluded-modules = []",
        f'test-command = "{sys.executable} -m pytest -x -q -p no:cacheprovider '
        f'{" ".join(tests)}"',
        "",
        "[cosmic-ray.distributor]",
        'name = "local"',
        "",
        "[cosmic-ray.filters.operators-filter]",
        f"exclude-operators = [{keep!r}]",
        "",
    ])


def _copy(to: Path) -> None:
    """The working tree's files that git does not ignore, copied to ``to``."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                           cwd=ROOT, check=True,
                           capture_output=True).stdout.decode().split("\0")
    for name in filter(None, files):
        source = ROOT / name
        if source.is_file():
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, to / name)


def _plugin(folder: Path) -> None:
    """This project's operators where cosmic-ray looks for providers: an entry point."""
    info = folder / "rulekb_mutation_operators-0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: rulekb-mutation-operators\nVersion: 0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[cosmic_ray.operator_providers]\nrulekb = mutation_operators:OperatorProvider\n",
        encoding="utf-8")
    shutil.copy2(ROOT / "benchmarks" / "mutation_operators.py", folder)


def _tests(patterns: list[str]) -> list[str]:
    """Test files by pattern, in the patterns' order, each once."""
    found = (sorted(str(p.relative_to(ROOT)) for p in ROOT.glob(pattern)) or [pattern]
             for pattern in patterns)
    return list(dict.fromkeys(name for names in found for name in names))


def explain(module: str, line: int, operator: str) -> str | None:
    """Why a survivor at ``module:line`` cannot change a verdict, if it is a known one."""
    lines = (ROOT / module).read_text(encoding="utf-8").splitlines()
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return next((why for name, code, operators, why in EQUIVALENT
                 if name == module and code in text
                 and any(operator.endswith(o) for o in operators)), None)


def _survivors(session: Path) -> tuple[int, int, list[tuple[str, int, str, str]]]:
    """(mutants, killed, survivors as (module, line, operator, diff)) from a session."""
    db = sqlite3.connect(session)
    rows = db.execute(
        "SELECT m.module_path, m.start_pos_row, m.operator_name, r.test_outcome, r.diff "
        "FROM mutation_specs m JOIN work_results r ON m.job_id = r.job_id "
        "WHERE r.worker_outcome != 'SKIPPED'").fetchall()
    survivors = sorted((str(module), int(line), str(op), str(diff or ""))
                       for module, line, op, outcome, diff in rows
                       if str(outcome).upper().endswith("SURVIVED"))
    return len(rows), len(rows) - len(survivors), survivors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", nargs="*", default=["validator"],
                        help="files or folders to mutate (default: validator)")
    parser.add_argument("--kinds", nargs="*", choices=list(OPERATORS), default=list(OPERATORS),
                        help="kinds of mutants (default: all)")
    parser.add_argument("--tests", nargs="*", default=list(TESTS))
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--diffs", action="store_true", help="print each survivor's change")
    args = parser.parse_args()
    cosmic = Path(sys.executable).parent / "cosmic-ray"
    if not cosmic.exists():
        sys.exit("cosmic-ray не установлен: bash setup.sh ставит его (extra dev)")
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "repo"
        _copy(work)
        shared = ROOT.parent / "shared"  # the corpus and formats beside the project, as here
        if shared.is_dir():
            (Path(tmp) / "shared").symlink_to(shared)
        plugins = Path(tmp) / "plugins"
        _plugin(plugins)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            filter(None, [str(plugins), os.environ.get("PYTHONPATH")]))}
        operators = [op for kind in args.kinds for op in OPERATORS[kind]]
        config, session = work / "mutation.toml", work / "mutation.sqlite"
        config.write_text(_config(args.modules, operators, _tests(args.tests), args.timeout),
                          encoding="utf-8")
        run = {"cwd": work, "check": True, "capture_output": True, "env": env}
        subprocess.run([str(cosmic), "init", str(config), str(session)], **run)  # type: ignore[call-overload]
        subprocess.run([str(cosmic.parent / "cr-filter-operators"), str(session),  # type: ignore[call-overload]
                        str(config)], **run)
        baseline = subprocess.run([str(cosmic), "baseline", str(config)], cwd=work,
                                  capture_output=True, text=True, env=env)
        if baseline.returncode != 0:
            sys.exit("тесты не проходят без мутаций, мутантов проверять не по чему:\n"
                     + baseline.stdout[-2000:] + baseline.stderr[-2000:])
        subprocess.run([str(cosmic), "exec", str(config), str(session)], **run)  # type: ignore[call-overload]
        total, killed, survivors = _survivors(session)
    minutes = (time.perf_counter() - start) / 60
    rate = 100 * len(survivors) / total if total else 0.0
    reasons = [explain(module, line, op) for module, line, op, _diff in survivors]
    names = ", ".join(o.split("/", 1)[1] for o in operators)
    print(f"Мутанты: {total} (операторы: {names}; модули: {', '.join(args.modules)}), "
          f"убиты тестами: {killed}, выжили: {len(survivors)} ({rate:.1f}%), из них не меняют "
          f"вердикта: {sum(r is not None for r in reasons)}, не объяснены: "
          f"{sum(r is None for r in reasons)}; {minutes:.0f} мин")
    for (module, line, operator, diff), why in zip(survivors, reasons, strict=True):
        print(f"  {module}:{line}  {operator.split('/', 1)[1]}  — "
              f"{why if why is not None else 'НЕ ОБЪЯСНЁН: предел без теста'}")
        if args.diffs:
            print("\n".join(f"      {d}" for d in diff.splitlines() if d.startswith(("-", "+"))
                            and not d.startswith(("---", "+++"))))

if __name__ == "__main__":
    main()
