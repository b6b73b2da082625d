"""Benchmark of the game audit, one command: ``.venv/bin/python benchmarks/audit.py``.

Generates game logs of 100,000 and 1,000,000 events (every system, a realistic mix of
actions, a few malformed lines), audits each in a fresh process on one core with the JSON
report written to /dev/null, and prints events per second and the process's peak memory
(max RSS). Issue #4 asks for ≥ 50,000 events/s and < 200 MB whatever the log's length.

``--events N`` audits one log of N events instead; ``--system`` picks the system.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ARMIES = {
    "wh40k6": {
        "A": {"units": [
            {"id": "jetbikes", "name": "Гвардейцы", "type": "Эльдарские гравициклы", "models": 6},
            {"id": "bikes", "name": "Байкеры", "type": "Мотоциклы", "models": 5},
            {"id": "lord", "name": "Тиран", "type": "Летающие монструозные создания",
             "models": 1},
        ]},
        "B": {"units": [
            {"id": "tactical", "name": "Тактическое отделение", "type": "Пехота", "models": 10},
            {"id": "assault", "name": "Штурмовики", "type": "Прыжковая пехота", "models": 10},
        ]},
    },
    "whfb8": {
        "A": {"units": [{"id": "trolls", "name": "Тролли", "type": "Пехота Чудовищ",
                         "models": 6, "rules": ["Регенерация (5+)"]}]},
        "B": {"units": [
            {"id": "swordsmen", "name": "Мечники", "type": "Пехота", "models": 30,
             "rules": ["Смертельный удар"]},
            {"id": "crossbows", "name": "Арбалетчики", "type": "Пехота", "models": 10,
             "rules": ["Двигаться или стрелять"]},
        ]},
    },
    "killteam2018": {
        "A": {"units": [
            {"id": "sarge", "name": "Сержант", "models": 1, "keywords": ["PSYKER"],
             "profile": {"M": 6}},
            {"id": "gunner", "name": "Стрелок", "models": 1, "profile": {"M": 6}},
        ]},
        "B": {"units": [
            {"id": "boy", "name": "Бой", "models": 1, "profile": {"M": 5}},
            {"id": "boy2", "name": "Бой", "models": 1, "profile": {"M": 5}},
        ]},
    },
}

def _phase(phase: str, player: str, *events: dict[str, object]) -> list[dict[str, object]]:
    return [{"phase": phase, "player": player, **e} for e in events]


# One game turn of each system, as a real log records it: both players, every phase, several
# units acting in each; the generator repeats it with the turn number increasing.
EVENTS: dict[str, list[dict[str, object]]] = {
    "wh40k6": [
        *_phase("movement", "A",
                {"unit": "bikes", "action": "move", "distance": 12},
                {"unit": "lord", "action": "flight_mode", "mode": "glide"},
                {"unit": "lord", "action": "move", "distance": 12, "mode": "jump"}),
        *_phase("shooting", "A",
                {"unit": "jetbikes", "action": "turbo_boost", "distance": 30},
                {"unit": "bikes", "action": "shoot", "target": "B:tactical",
                 "weapons": [{"name": "Болтер"}], "firing_models": 5},
                {"unit": "lord", "action": "shoot", "target": "B:tactical",
                 "weapons": [{"name": "Пушка"}, {"name": "Коса"}]}),
        *_phase("assault", "A",
                {"unit": "bikes", "action": "charge", "target": "B:tactical",
                 "distance_to_target": 6, "roll": 8}),
        *_phase("movement", "B",
                {"unit": "assault", "action": "move", "distance": 12, "mode": "jump"},
                {"unit": "tactical", "action": "move", "distance": 6}),
        *_phase("shooting", "B",
                {"unit": "tactical", "action": "shoot", "target": "A:lord",
                 "weapons": [{"name": "Ракетная установка", "kind": "blast"}]},
                {"unit": "tactical", "action": "run", "distance": 4}),
        *_phase("assault", "B",
                {"unit": "assault", "action": "charge", "target": "A:bikes",
                 "distance_to_target": 7, "roll": 9},
                {"unit": "tactical", "action": "fall_back", "dice": "2D6", "distance": 7}),
    ],
    "whfb8": [
        *_phase("movement", "A",
                {"unit": "trolls", "action": "charge", "target": "B:swordsmen",
                 "distance_to_target": 6}),
        *_phase("shooting", "A",
                {"unit": "trolls", "action": "casualties", "count": 1}),
        *_phase("close_combat", "A",
                {"unit": "trolls", "action": "impact_hits", "hits": 2, "combat_round": 1,
                 "charged": True},
                {"player": "B", "unit": "swordsmen", "action": "wound", "natural": 6,
                 "attack": "close_combat", "rules": ["Смертельный удар"],
                 "target": "A:trolls", "claimed": "slain"},
                {"unit": "trolls", "action": "save", "kind": "regeneration", "value": "5+",
                 "roll": 5, "against": ["killing_blow"]},
                {"unit": "trolls", "action": "hit", "natural": 4, "attack": "close_combat",
                 "target": "B:swordsmen", "claimed": "hit"},
                {"player": "B", "unit": "swordsmen", "action": "casualties", "count": 8,
                 "unit_size_at_phase_start": 30}),
        *_phase("movement", "B",
                {"unit": "crossbows", "action": "move", "distance": 4}),
        *_phase("shooting", "B",
                {"unit": "crossbows", "action": "shoot", "target": "A:trolls",
                 "weapons": [{"name": "Арбалет"}]}),
    ],
    "killteam2018": [
        {"phase": "initiative", "action": "initiative", "rolls": {"A": 7, "B": 5}},
        *_phase("movement", "A",
                {"unit": "sarge", "action": "move", "distance": 5, "end_distance_to_enemy": 4}),
        *_phase("movement", "B",
                {"unit": "boy", "action": "advance", "roll": 3, "distance": 7}),
        *_phase("movement", "A",
                {"unit": "gunner", "action": "ready"}),
        *_phase("movement", "B",
                {"unit": "boy2", "action": "charge", "target": "A:sarge",
                 "distance_to_target": 8, "roll": 9, "end_distance": 0.5}),
        *_phase("psychic", "A", {"unit": "sarge", "action": "manifest", "power": "Psybolt"}),
        *_phase("shooting", "A",
                {"unit": "gunner", "action": "shoot", "target": "B:boy",
                 "weapons": [{"name": "Болтер"}]}),
        *_phase("shooting", "B",
                {"unit": "boy", "action": "shoot", "target": "A:gunner",
                 "weapons": [{"name": "Слагга"}]}),
    ],
}


def generate(path: Path, system: str, events: int, seed: int = 6) -> None:
    """A log of ``events`` lines: turns advance every cycle; one line in 1,000 is broken."""
    rng = random.Random(seed)
    cycle = EVENTS[system]
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps({"type": "game", "system": system, "armies": ARMIES[system]},
                             ensure_ascii=False) + "\n")
        turn = 1
        for index in range(events):
            position = index % len(cycle)
            if position == 0 and index:
                turn += 1
            if rng.random() < 0.001:
                out.write(f'{{"turn": {turn}, "action": "move", "distance": \n')
                continue
            out.write(json.dumps({"turn": turn, **cycle[position]}, ensure_ascii=False) + "\n")


def child(log: str, kb: str) -> None:
    """Audit one log in this process; print seconds and peak RSS (MB) as JSON."""
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    from kb import Graph
    from kb import load as load_kb
    from validator.audit import write_audits

    graph = Graph(load_kb(kb))
    with open(os.devnull, "w", encoding="utf-8") as sink:
        start = time.perf_counter()
        write_audits([log], graph, sink, "json")
        seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "peak_mb": peak}))


def measure(log: Path, kb: Path) -> dict[str, float]:
    out = subprocess.run([sys.executable, __file__, "--child", str(log), str(kb)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, nargs="*", default=[100_000, 1_000_000])
    parser.add_argument("--system", choices=sorted(EVENTS), nargs="*", default=sorted(EVENTS))
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    from ingest import build, load
    from kb import save
    from rulekb.defaults import corpus_dir

    with tempfile.TemporaryDirectory() as tmp:
        kb = Path(tmp) / "kb.json"
        save(build(load([corpus_dir()])).kb, kb)
        print(f"{'system':<14}{'events':>10}{'seconds':>10}{'events/s':>12}{'peak MB':>10}")
        for system in args.system:
            for events in args.events:
                log = Path(tmp) / f"{system}-{events}.jsonl"
                generate(log, system, events)
                result = measure(log, kb)
                rate = events / result["seconds"]
                print(f"{system:<14}{events:>10,}{result['seconds']:>10.2f}{rate:>12,.0f}"
                      f"{result['peak_mb']:>10.0f}")
                log.unlink()


if __name__ == "__main__":
    main()
