"""How fast a lookup answers in a fresh process: ``rulekb show`` and ``rulekb search``.

Run by ``benchmarks/run.py``; alone: ``.venv/bin/python benchmarks/startup.py [--runs N]``.

Each command runs N times (default 21), each in a new process started the way a user starts
it (the console script of the venv, the default KB from its cache), and the whole process is
timed from fork to exit: interpreter start, imports, loading the KB, building the name or
search index, the answer. The figure is the median wall time (the goal: < 250 ms), with the
median CPU time (user + system) beside it, which a busy machine disturbs less.

The KB cache and the lemma cache (:mod:`rulekb.lookup`) are warmed by one untimed run first:
the steady state of someone looking rules up. The last rows show what is paid once: a query
word no earlier lookup has seen (the Russian dictionary is loaded for it), and a cold lemma
cache.
"""

from __future__ import annotations

import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULEKB = ROOT / ".venv" / "bin" / "rulekb"
GOAL_MS = 250


def _run(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one process running ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def _median(argv: list[str], env: dict[str, str], runs: int) -> tuple[float, float]:
    walls, cpus = zip(*(_run(argv, env) for _ in range(runs)), strict=True)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 21
    rulekb = str(RULEKB) if RULEKB.exists() else shutil.which("rulekb") or "rulekb"
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, RULEKB_CACHE=str(Path(tmp) / "cache"))
        cases = [
            ("python -c pass (запуск интерпретатора)", [sys.executable, "-c", "pass"]),
            ("rulekb --version", [rulekb, "--version"]),
            ("rulekb show регенерацию", [rulekb, "show", "регенерацию"]),
            ("rulekb show «Эльдарские гравициклы» -s wh40k6",
             [rulekb, "show", "Эльдарские гравициклы", "-s", "wh40k6"]),
            ("rulekb search «турбо ускорение»", [rulekb, "search", "турбо ускорение"]),
        ]
        for _, argv in cases:
            _run(argv, env)  # builds the KB cache and fills the lemma cache, untimed
        rows = []
        for title, argv in cases:
            wall, cpu = _median(argv, env, runs)
            goal = f"< {GOAL_MS} мс" if argv[0] == rulekb and len(argv) > 2 else "—"
            rows.append((title, wall, cpu, goal))
        once = []
        for word in ("тараканище", "перекидывание", "заколдованного", "вылазками",
                     "полуторатонный"):
            once.append(_run([rulekb, "search", word], env))
        rows.append(("rulekb search «новое слово» (словарь грузится)",
                     statistics.median(w for w, _ in once),
                     statistics.median(c for _, c in once), "—"))
        cold = []
        for _ in range(max(3, runs // 4)):
            for memo in Path(tmp, "cache").glob("lemmas-*.json"):
                memo.unlink()
            cold.append(_run([rulekb, "show", "регенерацию"], env))
        rows.append(("rulekb show регенерацию, кэш лемм пуст",
                     statistics.median(w for w, _ in cold),
                     statistics.median(c for _, c in cold), "—"))
    width = max(len(r[0]) for r in rows)
    print(f"Машина: {platform.machine()}, Python {platform.python_version()}; "
          f"медиана {runs} запусков, каждый в новом процессе")
    print(f"{'команда'.ljust(width)}  {'время':>8}  {'ЦП':>8}  цель")
    for title, wall, cpu, goal in rows:
        print(f"{title.ljust(width)}  {wall * 1000:>5.0f} мс  {cpu * 1000:>5.0f} мс  {goal}")


if __name__ == "__main__":
    main()
