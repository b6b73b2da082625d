"""Mutation testing of the checks, one command: ``.venv/bin/python benchmarks/mutation.py``.

Not part of the test suite (it runs the tests once per mutant): it asks how many small
changes of the checks' comparisons the tests notice. cosmic-ray (the ``dev`` extra) makes
each mutant — ``<`` for ``<=``, ``>=`` for ``>`` and back, the off-by-one changes a limit
check can suffer — in a copy of the repository (the working tree is never touched), runs
the tests of ``validator/`` against it, and counts the mutants no test kills.

What it covers, by default: every module of ``validator/`` (the audit checks, the army-list
checks, the input readers, the rulebook access), the four boundary operators above, and the
tests of the validator (``tests/test_audit_*.py``, the list and report tests). A mutant
whose tests run past ``--timeout`` counts as killed (cosmic-ray's rule). On the 2-core
machine of this project the default run takes about half an hour; ``--modules`` narrows it
(``--modules validator/audit/wh40k6_bikes.py``).

Prints the survival rate and every surviving mutant (file, line, operator), and with
``--diffs`` the change itself.
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

OPERATORS = ("core/ReplaceComparisonOperator_Lt_LtE", "core/ReplaceComparisonOperator_LtE_Lt",
             "core/ReplaceComparisonOperator_Gt_GtE", "core/ReplaceComparisonOperator_GtE_Gt")
"""The boundary mutations: a limit checked with the wrong strictness."""

TESTS = ("tests/test_audit_engine.py", "tests/test_audit_games.py",
         "tests/test_audit_killteam2018.py", "tests/test_audit_limits.py",
         "tests/test_audit_state.py", "tests/test_audit_wh40k6.py", "tests/test_audit_whfb8.py",
         "tests/test_listcheck.py", "tests/test_check_list_cli.py", "tests/test_lists_input.py",
         "tests/test_gamelog_input.py", "tests/test_report.py")
"""The tests of ``validator/`` (the ingest, site and browser tests do not run it)."""


def _config(modules: list[str], tests: list[str], timeout: float) -> str:
    keep = "^(?!(" + "|".join(OPERATORS) + ")$)"  # cosmic-ray drops the operators it matches
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
        config, session = work / "mutation.toml", work / "mutation.sqlite"
        config.write_text(_config(args.modules, args.tests, args.timeout), encoding="utf-8")
        run = {"cwd": work, "check": True, "capture_output": True}
        subprocess.run([str(cosmic), "init", str(config), str(session)], **run)  # type: ignore[call-overload]
        subprocess.run([str(cosmic.parent / "cr-filter-operators"), str(session),  # type: ignore[call-overload]
                        str(config)], **run)
        baseline = subprocess.run([str(cosmic), "baseline", str(config)], cwd=work,
                                  capture_output=True, text=True)
        if baseline.returncode != 0:
            sys.exit("тесты не проходят без мутаций, мутантов проверять не по чему:\n"
                     + baseline.stdout[-2000:] + baseline.stderr[-2000:])
        subprocess.run([str(cosmic), "exec", str(config), str(session)], **run)  # type: ignore[call-overload]
        total, killed, survivors = _survivors(session)
    minutes = (time.perf_counter() - start) / 60
    rate = 100 * len(survivors) / total if total else 0.0
    print(f"Мутанты: {total} (операторы: {', '.join(o.split('_', 1)[1] for o in OPERATORS)}; "
          f"модули: {', '.join(args.modules)}), убиты тестами: {killed}, выжили: "
          f"{len(survivors)} ({rate:.1f}%); {minutes:.0f} мин")
    for module, line, operator, diff in survivors:
        print(f"  {module}:{line}  {operator.split('/', 1)[1]}")
        if args.diffs:
            print("\n".join(f"      {d}" for d in diff.splitlines() if d.startswith(("-", "+"))
                            and not d.startswith(("---", "+++"))))


if __name__ == "__main__":
    main()
