"""Benchmark of the game audit, one command: ``.venv/bin/python benchmarks/audit.py``.

Generates game logs of every system in the shapes real logs take and audits each in a fresh
process pinned to one core, the JSON report going to /dev/null. Times are the process's CPU
time, so that other processes on a shared machine change them little; each is also given
as a ratio to ``json.loads`` of every line of the same file, timed the same way in the same
process just before the audit, which compares across machines. Peak memory is the
process's max RSS (the KB and the imports included).

Two tables (issue 11 asks for the first ratio ≥ 0.90 and every peak < 200 MB):

* speed — a log of 1,000,000 events spread over turns (each game turn as a real log records
  it: both players, every phase) and the same events recorded with one turn number, audited
  in turn in one process (twice each, the best kept); the line below the table gives, per
  system, the speed of the one-turn log as a share of the spread one;
* memory — a 100 MB log of each shape (:data:`SHAPES`): one turn, one phase, no turn or phase
  at all, many small games concatenated (each with its own header), one unit doing
  everything, big armies (many units), a unit name the armies lack on every line, and every
  line malformed.

Every shape but the last keeps one malformed line in a thousand.

``--events N`` sets the speed logs' size, ``--megabytes M`` the memory logs', ``--system``
and ``--shape`` pick what to run (``--no-memory``, ``--no-speed``: one table only),
``--timeout S`` ends an audit that runs longer (shown as ``> S``).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

Event = dict[str, Any]

ARMIES: dict[str, dict[str, dict[str, list[dict[str, Any]]]]] = {
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


def _phase(phase: str, player: str, *events: Event) -> list[Event]:
    return [{"phase": phase, "player": player, **e} for e in events]


# One game turn of each system, as a real log records it: both players, every phase, several
# units acting in each; the shapes repeat it.
EVENTS: dict[str, list[Event]] = {
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

SHAPES: dict[str, str] = {
    "spread": "ходы идут один за другим",
    "one_turn": "вся партия с одним номером хода",
    "one_phase": "всё в одной фазе одного хода",
    "unnumbered": "без хода и фазы в событиях",
    "concatenated": "много партий по 5 ходов, у каждой свой заголовок",
    "one_unit": "всё делает один отряд, один номер хода",
    "many_units": "армии по 200 отрядов, ходы идут",
    "unknown_units": "в каждой строке отряд, которого нет в армиях",
    "bad_lines": "каждая строка с ошибкой",
}
SPEED_SHAPES = ("spread", "one_turn")
COPIES = 100  # many_units: each army unit 100 times (2–3 units per army → 200–300 units)
GAME_TURNS = 5  # concatenated: turns per small game
BROKEN = ('{"turn": 1, "action": "move", "distance": \n',
          '{"turn": 1, "phase": "movement", "player": "A", "action": "move", "distance": "x"}\n',
          '[1, 2, 3]\n',
          '{"turn": 1, "phase": "movement", "player": "A", "unit": "x"}\n')


def _header(system: str, armies: dict[str, Any]) -> str:
    return json.dumps({"type": "game", "system": system, "armies": armies},
                      ensure_ascii=False) + "\n"


def _many(system: str) -> dict[str, Any]:
    armies = copy.deepcopy(ARMIES[system])
    for army in armies.values():
        army["units"] = [{**unit, "id": f"{unit['id']}{k}"}
                         for k in range(COPIES) for unit in army["units"]]
    return armies


def _renamed(event: Event, rename: Any) -> Event:
    """The event with its unit and every unit it names passed through ``rename(player, id)``."""
    out = dict(event)
    player = event.get("player")
    if "unit" in out:
        out["unit"] = rename(player, out["unit"])
    for name in ("target",):
        if isinstance(out.get(name), str):
            owner, _, ref = out[name].partition(":")
            out[name] = f"{owner}:{rename(owner, ref)}"
    if "within_6" in out:
        out["within_6"] = [rename(player, ref) for ref in out["within_6"]]
    return out


def lines(system: str, shape: str, seed: int = 6) -> Iterator[str]:
    """The lines of an endless log of one shape (the header first)."""
    rng = random.Random(seed)
    cycle = EVENTS[system]
    armies = _many(system) if shape == "many_units" else ARMIES[system]
    yield _header(system, armies)
    first = {player: army["units"][0]["id"] for player, army in ARMIES[system].items()}
    turn, count = 1, 0
    while True:
        for index, template in enumerate(cycle):
            count += 1
            if shape == "bad_lines":
                yield BROKEN[count % len(BROKEN)]
                continue
            if rng.random() < 0.001:
                yield BROKEN[0]
                continue
            event: Event = {"turn": turn, **template}
            if shape in ("one_turn", "one_unit"):
                event["turn"] = 1
            if shape == "one_phase":
                event["turn"], event["phase"] = 1, "movement"
            elif shape == "unnumbered":
                event.pop("turn"), event.pop("phase", None)
            elif shape == "many_units":
                k = (turn * len(cycle) + index) % COPIES
                event = _renamed(event, lambda _player, ref, k=k: f"{ref}{k}")
            elif shape == "one_unit":  # A's first unit acts, B's first unit is the target
                if "unit" in event:
                    event["player"], event["unit"] = "A", first["A"]
                if isinstance(event.get("target"), str):
                    event["target"] = f"B:{first['B']}"
            elif shape == "unknown_units" and "unit" in event:
                event["unit"] = f"ghost{count}"
            yield json.dumps(event, ensure_ascii=False) + "\n"
        turn += 1
        if shape == "concatenated" and turn > GAME_TURNS:
            turn = 1
            yield _header(system, armies)


def generate(path: Path, system: str, shape: str, *, events: int | None = None,
             megabytes: float | None = None) -> int:
    """Write a log of ``events`` event lines or of ``megabytes`` MB; the event lines written."""
    limit = int(megabytes * 1e6) if megabytes is not None else None
    written = size = 0
    with path.open("w", encoding="utf-8") as out:
        for line in lines(system, shape):
            out.write(line)
            size += len(line.encode("utf-8"))
            if not line.startswith('{"type": "game"'):
                written += 1
            if (events is not None and written >= events) or (limit is not None
                                                               and size >= limit):
                break
    return written


def _json_seconds(log: str) -> float:
    start = time.process_time()
    with open(log, "rb") as stream:
        for raw in stream:
            try:
                json.loads(raw)
            except ValueError:
                pass
    return time.process_time() - start


def child(kb: str, rounds: int, *logs: str) -> None:
    """Time ``json.loads`` of every line of each log, then its audit, ``rounds`` times in
    turn (the best of each kept); print the figures of each log as JSON lines."""
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    from kb import Graph
    from kb import load as load_kb
    from validator.audit import write_audits

    graph = Graph(load_kb(kb))
    best: dict[str, dict[str, float]] = {}
    for _ in range(rounds):
        for log in logs:
            parse = _json_seconds(log)
            with open(os.devnull, "w", encoding="utf-8") as sink:
                start = time.process_time()
                write_audits([log], graph, sink, "json")
                seconds = time.process_time() - start
            kept = best.setdefault(log, {"seconds": seconds, "json_seconds": parse})
            kept["seconds"] = min(kept["seconds"], seconds)
            kept["json_seconds"] = min(kept["json_seconds"], parse)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    for log in logs:
        print(json.dumps({"log": log, **best[log], "peak_mb": peak}))


def measure(kb: Path, timeout: float, *logs: Path, rounds: int = 1
            ) -> dict[str, dict[str, float]] | None:
    """The child's figures by log, or None when it ran out of time."""
    try:
        out = subprocess.run([sys.executable, __file__, "--child", str(kb), str(rounds),
                              *map(str, logs)],
                             check=True, capture_output=True, text=True,
                             timeout=timeout).stdout
    except subprocess.TimeoutExpired:
        return None
    rows = [json.loads(line) for line in out.strip().splitlines() if line.startswith("{")]
    return {row["log"]: row for row in rows}


def _row(system: str, shape: str, events: int, size: float, result: dict[str, float] | None,
         timeout: float) -> str:
    head = f"{system:<14}{shape:<15}{events:>11,}{size:>7.0f}"
    if result is None:
        return head + f"{'> ' + format(timeout, '.0f'):>9}"
    return (head + f"{result['seconds']:>9.2f}{events / result['seconds']:>11,.0f}"
            f"{result['seconds'] / result['json_seconds']:>8.1f}×{result['peak_mb']:>9.0f}")


HEAD = (f"{'system':<14}{'shape':<15}{'events':>11}{'MB':>7}{'seconds':>9}{'events/s':>11}"
        f"{'÷ json':>9}{'peak MB':>9}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--megabytes", type=float, default=100)
    parser.add_argument("--system", choices=sorted(EVENTS), nargs="*", default=sorted(EVENTS))
    parser.add_argument("--shape", choices=list(SHAPES), nargs="*", default=list(SHAPES))
    parser.add_argument("--no-memory", action="store_true", help="only the speed table")
    parser.add_argument("--no-speed", action="store_true", help="only the memory table")
    parser.add_argument("--rounds", type=int, default=2,
                        help="speed: audits of each log, the best kept")
    parser.add_argument("--timeout", type=float, default=1200)
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]), *args.child[2:])
        return
    from ingest import build, load
    from kb import save
    from rulekb.defaults import corpus_dir

    with tempfile.TemporaryDirectory() as tmp:
        kb = Path(tmp) / "kb.json"
        save(build(load([corpus_dir()])).kb, kb)
        speed_shapes = [] if args.no_speed else [s for s in SPEED_SHAPES if s in args.shape]
        if speed_shapes:
            print(f"Скорость: {args.events:,} событий, журналы одной системы по очереди в "
                  f"одном процессе, лучшее из {args.rounds}\n{HEAD}", flush=True)
            shares = []
            for system in args.system:
                logs = {shape: Path(tmp) / f"{system}-{shape}.jsonl" for shape in speed_shapes}
                counts = {shape: generate(log, system, shape, events=args.events)
                          for shape, log in logs.items()}
                results = measure(kb, args.timeout * len(logs) * args.rounds, *logs.values(),
                                  rounds=args.rounds)
                ratios: dict[str, float] = {}
                for shape, log in logs.items():
                    result = results.get(str(log)) if results is not None else None
                    print(_row(system, shape, counts[shape], log.stat().st_size / 1e6, result,
                               args.timeout), flush=True)
                    if result is not None:
                        ratios[shape] = result["seconds"] / result["json_seconds"]
                    log.unlink()
                if len(ratios) == 2:
                    shares.append(f"{system} {ratios['spread'] / ratios['one_turn']:.2f}")
            if shares:
                print("скорость журнала с одним номером хода от скорости журнала с ходами: "
                      + ", ".join(shares) + " (цель ≥ 0.90)", flush=True)
        memory_shapes = [] if args.no_memory else [s for s in SHAPES if s in args.shape]
        if memory_shapes:
            print(f"\nПамять: журналы по {args.megabytes:g} МБ (цель < 200 МБ)\n{HEAD}",
                  flush=True)
            for system in args.system:
                for shape in memory_shapes:
                    log = Path(tmp) / f"{system}-{shape}.jsonl"
                    events = generate(log, system, shape, megabytes=args.megabytes)
                    results = measure(kb, args.timeout, log)
                    print(_row(system, shape, events, log.stat().st_size / 1e6,
                               results.get(str(log)) if results is not None else None,
                               args.timeout), flush=True)
                    log.unlink()
            print("\n" + "\n".join(f"  {shape:<15}{what}" for shape, what in SHAPES.items()
                                   if shape in memory_shapes), flush=True)


if __name__ == "__main__":
    main()
