"""Benchmark of army-list checks, one command: ``.venv/bin/python benchmarks/lists.py``.

Measures what issue #3 promises, on the KB of the default corpus (built once, then loaded):

* a 30-unit list is checked in < 50 ms once the KB is loaded: the first list of a new process
  (which loads the Russian dictionary and builds the name index) and then the median of
  fresh checks, each with its own name cache, so no list profits from the one before;
* 1,000 lists in < 10 s: a tournament folder of 1,000 different YAML files (30 units each,
  all three systems, typos and bad parameters among them) read, checked and rendered,
  as ``rulekb check-list FOLDER`` does.

Prints a table; writes nothing.
"""

from __future__ import annotations

import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ingest import build, load  # noqa: E402
from kb import Graph, save  # noqa: E402
from kb import load as load_kb  # noqa: E402
from rulekb.defaults import corpus_dir  # noqa: E402
from validator.armylist import check_list, check_lists  # noqa: E402
from validator.inputs.lists import parse_list  # noqa: E402
from validator.report import render_text  # noqa: E402

UNITS = {
    "wh40k6": [
        {"type": "Эльдарские гравициклы", "rules": ["Глубокий удар"]},
        {"type": "Прыжковая пехота", "rules": ["Молот ярости"]},
        {"type": "Пехота с реактивными ранцами", "rules": []},
        {"type": "Гравицыклы", "rules": ["Уклонение"]},
        {"type": "Кавалерия", "rules": ["Проворность"]},
        {"type": "Летающие монструозные создания", "rules": ["Устрашение"]},
        {"type": "Артиллерия", "rules": [], "parts": [
            {"role": "gun", "count": 2, "profile": {"T": 7, "W": 2, "Sv": "3+"}},
            {"role": "crew", "count": 3},
            {"role": "character", "name": "Автарх", "rules": ["Независимый персонаж"]}]},
    ],
    "whfb8": [
        {"type": "Пехота Чудовищ", "rules": ["Регенерация (5+)", "Устрашение"]},
        {"type": "Пехота", "rules": ["Сопротивление магии (4)", "Мудрец (школа Огня)"]},
        {"type": "Монстр", "rules": ["Большая цель", "Ядовитые атаки"]},
        {"type": "Пехота", "rules": ["Многочисленные выстрелы Х 2", "Регенирация (1+)"]},
        {"type": "Кавалерия", "rules": ["Многочисленные раны (D6)"]},
        {"type": "Боевая машина", "rules": ["Двигаться или стрелять"]},
    ],
    "killteam2018": [
        {"keywords": ["INFANTRY", "FLY"]},
        {"keywords": ["INFANTRY", "PSYKER"]},
        {"type": "Гравициклы"},
    ],
}


# the first list of a new process: kb.json loaded, then one 30-unit list timed (this includes
# loading the Russian dictionary and building the name index)
COLD_FIRST = """
import sys, time, yaml
sys.path[:0] = ["benchmarks", "."]
from lists import army
from kb import Graph, load
from validator.armylist import check_list
from validator.inputs.lists import parse_list
graph = Graph(load(sys.argv[1]))
listed = parse_list(yaml.safe_dump(army("whfb8", 30, 1), allow_unicode=True), file="x.yaml")
started = time.perf_counter()
check_list(listed, graph)
print(time.perf_counter() - started)
"""


def army(system: str, size: int, seed: int) -> dict[str, object]:
    """A list of ``size`` units of ``system``, varied by ``seed``."""
    pick = random.Random(seed)
    units = []
    for index in range(size):
        unit = dict(pick.choice(UNITS[system]))
        unit.update(id=f"u{index}", name=f"Отряд {index}", models=pick.randint(1, 20),
                    points=pick.randint(20, 200))
        units.append(unit)
    return {"system": system, "name": f"Список {seed}", "points_limit": 2500, "units": units}


def main() -> None:
    corpus = corpus_dir()
    rows: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        kb_path = Path(tmp) / "kb.json"
        save(build(load([corpus])).kb, kb_path)
        graph = Graph(load_kb(kb_path))  # the KB is loaded; the name index is not built yet

        lists = {system: parse_list(yaml.safe_dump(army(system, 30, 1), allow_unicode=True),
                                    file=f"{system}.yaml") for system in UNITS}
        first = float(subprocess.run(
            [sys.executable, "-c", COLD_FIRST, str(kb_path)], check=True, capture_output=True,
            text=True, cwd=ROOT).stdout)
        rows.append(("первый список из 30 отрядов в новом процессе (словарь, индекс имён)",
                     f"{first * 1000:.0f} мс", "< 50 мс"))
        for system, listed in lists.items():
            times = []
            for _ in range(30):
                started = time.perf_counter()
                check_list(listed, graph)
                times.append(time.perf_counter() - started)
            rows.append((f"список из 30 отрядов, {system} (медиана)",
                         f"{statistics.median(times) * 1000:.1f} мс", "< 50 мс"))

        folder = Path(tmp) / "tournament"
        folder.mkdir()
        systems = list(UNITS)
        for number in range(1000):
            data = army(systems[number % len(systems)], 30, number)
            (folder / f"list{number:04}.yaml").write_text(
                yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
        started = time.perf_counter()
        reports = check_lists([folder], graph)
        render_text(reports)
        batch = time.perf_counter() - started
        verdicts = sum(len(r.verdicts) for r in reports)
        rows.append((f"1000 списков по 30 отрядов: чтение, проверка, отчёт ({verdicts} вердиктов)",
                     f"{batch:.2f} с", "< 10 с"))

    width = max(len(r[0]) for r in rows)
    lines = [f"Машина: {platform.machine()}, Python {platform.python_version()}", ""]
    lines += [f"{name.ljust(width)}  {value:>9}  (цель {goal})" for name, value, goal in rows]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
