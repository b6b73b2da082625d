"""Benchmark of army-list checks, one command: ``.venv/bin/python benchmarks/lists.py``.

Measures what issues #3, #9 and #11 promise, on the KB of the default corpus (built once,
then loaded):

* a 30-unit list is checked in < 50 ms once the KB is loaded: the first list of a new process
  (which loads the Russian dictionary and builds the name index) and then the median of
  fresh checks, each with its own name cache, so no list profits from the one before;
* 1,000 lists in < 10 s: a tournament folder of 1,000 different YAML files (30 units each,
  all three systems, typos and bad parameters among them) read, checked and rendered,
  as ``rulekb check-list FOLDER`` does;
* 1,000 real-size BattleScribe rosters (~150 KB each) in < 20 s: made from the real rosters
  of ``tests/data/rosters/real`` and from rosters of the real BSData catalogues
  (``../shared/bsdata``, when present), each grown to the size of a real tournament roster
  by repeating its own selections under new ids, so that every file differs; read, checked
  and written as the folder's text report with its table (``write_lists``), as
  ``rulekb check-list FOLDER`` does;
* a 10 MB list checks in < 300 MB peak memory, each in a fresh process (its maximum resident
  set, KB and dictionary included) and for every shape a big list takes: many units (YAML
  and JSON), one unit of very many rules, one unit of very many parts, a 10 MB roster.

Prints a table; writes nothing.
"""

from __future__ import annotations

import copy
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast
from xml.etree import ElementTree as ET

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ingest import build, load  # noqa: E402
from kb import Graph, save  # noqa: E402
from kb import load as load_kb  # noqa: E402
from rulekb.defaults import corpus_dir  # noqa: E402
from validator.armylist import check_list, check_lists, write_lists  # noqa: E402
from validator.inputs.lists import parse_list  # noqa: E402
from validator.report import render_text  # noqa: E402

UNITS: dict[str, list[dict[str, Any]]] = {
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


REAL_ROSTERS = ROOT / "tests" / "data" / "rosters" / "real"
ROSTER_NS = "http://www.battlescribe.net/schema/rosterSchema"
ROSTER_BYTES = 150_000
"""The size of a real tournament roster (BattleScribe 2.03, a 2,000-point list)."""
BIG_BYTES = 10_000_000
MEMORY_GOAL_MB = 300

# one list in a fresh process: its peak resident set (KB, dictionary and all), VmHWM of
# /proc (ru_maxrss would carry the parent's peak over the exec on Linux)
MEMORY = """
import os, resource, sys, time
sys.path.insert(0, ".")
from kb import Graph, load
from validator.armylist import write_lists
graph = Graph(load(sys.argv[1]))
started = time.perf_counter()
with open(os.devnull, "w", encoding="utf-8") as out:
    code = write_lists([sys.argv[2]], graph, out, sys.argv[3])
seconds = time.perf_counter() - started
try:
    with open("/proc/self/status", encoding="ascii") as status:
        peak = next(int(l.split()[1]) for l in status if l.startswith("VmHWM:"))
except OSError:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(code, seconds, peak)
"""


def roster_sources() -> list[tuple[str, bytes]]:
    """The rosters the real-size ones are grown from: the real ones, and one of every unit
    entry of each covered BSData catalogue (when ``../shared/bsdata`` is here)."""
    found = [(p.name, p.read_bytes()) for p in sorted(REAL_ROSTERS.glob("*.ros"))]
    sys.path.insert(0, str(ROOT / "tests"))
    from bsdata_rosters import BSDATA, catalogues, roster_xml

    if BSDATA.is_dir():
        found += [(p.name, roster_xml(p)) for p in catalogues()]
    return found


def grown_roster(source: bytes, number: int, size: int) -> bytes:
    """``source`` grown to about ``size`` bytes by repeating its own top-level selections
    (new ids, so no two files are alike), or cut to it when bigger."""
    ET.register_namespace("", ROSTER_NS)
    root = ET.fromstring(source)
    root.set("name", f"{root.get('name', 'Ростер')} №{number}")
    box = next(b for f in root.iter(f"{{{ROSTER_NS}}}force")
               for b in f if b.tag == f"{{{ROSTER_NS}}}selections")
    chosen = list(box)
    for selection in chosen:
        box.remove(selection)
    total, copies = len(ET.tostring(root)), 0
    while total < size:
        for selection in chosen:
            made = copy.deepcopy(selection)
            for element in made.iter():
                if "id" in element.attrib:
                    element.set("id", f"{element.get('id')}-{number}-{copies}")
            box.append(made)
            total += len(ET.tostring(made))
            if total >= size:
                break
        copies += 1
    return bytes(ET.tostring(root, encoding="utf-8", xml_declaration=True))


def _dump(data: object, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(data, ensure_ascii=False, indent=1)
    return yaml.safe_dump(data, allow_unicode=True)


def big_lists(folder: Path) -> list[tuple[str, Path, str]]:
    """10 MB lists of every shape: (what, file, report format)."""
    made: list[tuple[str, Path, str]] = []
    pick = random.Random(7)
    sample = army("whfb8", 1000, 7)
    per_unit = {fmt: len(_dump(sample, fmt).encode()) / 1000 for fmt in ("yaml", "json")}
    for fmt in ("yaml", "json"):
        data = army("whfb8", int(BIG_BYTES * 0.98 / per_unit[fmt]), 7)
        data["name"] = "Огромный список"
        count = len(cast(list[Any], data["units"]))
        path = folder / f"many_units.{fmt}"
        path.write_text(_dump(data, fmt), encoding="utf-8")
        made.append((f"{count} отрядов, {fmt.upper()}", path, "text"))
        if fmt == "yaml":
            made.append((f"{count} отрядов, YAML, отчёт JSON", path, "json"))
            made.append((f"{count} отрядов, YAML, отчёт HTML", path, "html"))

    rules = [r for u in UNITS["whfb8"] for r in u["rules"]]
    one = folder / "one_unit_rules.yaml"
    with one.open("w", encoding="utf-8") as out:
        out.write("system: whfb8\nname: Один отряд\nunits:\n- id: x\n  name: Тролли\n"
                  "  type: Пехота Чудовищ\n  rules:\n")
        count = 0
        while out.tell() < BIG_BYTES:
            out.write(f"  - {pick.choice(rules)}\n")
            count += 1
    made.append((f"один отряд, {count} правил", one, "text"))
    parts = folder / "one_unit_parts.yaml"
    with parts.open("w", encoding="utf-8") as out:
        out.write("system: whfb8\nname: Один отряд\nunits:\n- id: x\n  name: Орда\n"
                  "  type: Пехота\n  parts:\n")
        count = 0
        while out.tell() < BIG_BYTES:
            out.write(f"  - {{role: model, name: Воин {count}, count: 1, "
                      f"rules: [{pick.choice(rules)}]}}\n")
            count += 1
    made.append((f"один отряд, {count} частей", parts, "text"))
    real = sorted(REAL_ROSTERS.glob("*.ros"))[-1]
    roster = folder / "big.ros"
    roster.write_bytes(grown_roster(real.read_bytes(), 0, BIG_BYTES))
    made.append((f"ростер BattleScribe ({real.name}, выборы повторены)", roster, "text"))
    return made


def memory_rows(kb_path: Path, folder: Path) -> list[tuple[str, str, str]]:
    rows = []
    for what, path, fmt in big_lists(folder):
        code, seconds, peak = subprocess.run(
            [sys.executable, "-c", MEMORY, str(kb_path), str(path), fmt], check=True,
            capture_output=True, text=True, cwd=ROOT).stdout.split()
        megabytes = os.path.getsize(path) / 1e6
        rows.append((f"{megabytes:.1f} МБ: {what} ({float(seconds):.0f} с, код {code})",
                     f"{int(peak) / 1024:.0f} МБ", f"< {MEMORY_GOAL_MB} МБ"))
    return rows


def roster_rows(graph: Graph, folder: Path) -> list[tuple[str, str, str]]:
    sources = roster_sources()
    sizes = []
    for number in range(1000):
        name, source = sources[number % len(sources)]
        made = grown_roster(source, number, ROSTER_BYTES)
        sizes.append(len(made))
        (folder / f"{number:04}-{Path(name).stem}.ros").write_bytes(made)
    started = time.perf_counter()
    with open(os.devnull, "w", encoding="utf-8") as out:
        write_lists([folder], graph, out, "text")
    batch = time.perf_counter() - started
    return [(f"1000 ростеров BattleScribe по ~{statistics.mean(sizes) / 1000:.0f} КБ "
             f"({len(sources)} исходных): чтение, проверка, отчёт с таблицей",
             f"{batch:.2f} с", "< 20 с")]


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
        rosters = Path(tmp) / "rosters"
        rosters.mkdir()
        rows += roster_rows(graph, rosters)
        big = Path(tmp) / "big"
        big.mkdir()
        rows += memory_rows(kb_path, big)

    width = max(len(r[0]) for r in rows)
    lines = [f"Машина: {platform.machine()}, Python {platform.python_version()}", ""]
    lines += [f"{name.ljust(width)}  {value:>9}  (цель {goal})" for name, value, goal in rows]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
