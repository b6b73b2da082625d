"""Game logs in (validator.inputs.gamelog): header first, events streamed, bad lines as data."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest

from validator.inputs.events import (
    EVENT_TYPES,
    ChargeEvent,
    MoveEvent,
    RunEvent,
    SaveEvent,
    ShootEvent,
    TurboBoostEvent,
    UnknownEvent,
)
from validator.inputs.gamelog import parse_event, read_log
from validator.inputs.models import GameLogError, InputError

GAMES = Path(__file__).parent / "data" / "games"
LOGS = sorted(p.name for p in GAMES.glob("*.jsonl"))


def _outline(name: str) -> str:
    """What a log reads to: one line per event or error, or the header's error."""
    try:
        log = read_log(name)
    except GameLogError as exc:
        return str(exc)
    return "\n".join(
        f"{line} {item}" if isinstance(item, InputError) else f"{line} {item.action} {item.phase}"
        for line, item in log.events()
    )


@pytest.mark.parametrize("name", LOGS)
def test_log_reads_to_expected_outline(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(GAMES)
    expected = (GAMES / f"{name}.expected").read_text(encoding="utf-8").rstrip("\n")
    assert _outline(name) == expected


def test_header_and_armies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(GAMES)
    log = read_log("wh40k6.jsonl")
    assert (log.system, log.header_line) == ("wh40k6", 1)
    eldar, marines = log.armies["A"], log.armies["B"]
    assert eldar.source == "eldar.yaml"  # relative to the log
    assert [u.id for u in eldar.units] == ["jetbikes", "wraithlord"]
    assert (marines.system, marines.name, marines.source) == ("wh40k6", "Ультрамарины",
                                                              "wh40k6.jsonl")
    assert [u.id for u in marines.units] == ["tactical"]


def test_events_keep_their_fields() -> None:
    items = dict(read_log(GAMES / "wh40k6.jsonl").events())
    move = items[2]
    assert isinstance(move, MoveEvent)
    assert (move.turn, move.phase, move.player, move.unit) == (1, "movement", "A", "jetbikes")
    assert (move.distance, move.mode) == (12.0, "jump")
    boost = items[5]
    assert isinstance(boost, TurboBoostEvent)
    assert (boost.distance, boost.note) == (30.0, "через всё поле")
    shoot = items[7]
    assert isinstance(shoot, ShootEvent)
    assert (shoot.snap_shots, [w.kind for w in shoot.weapons]) == (True, ["normal"])
    charge = items[12]
    assert isinstance(charge, ChargeEvent)
    assert (charge.targets, charge.roll, charge.reroll) == (("B:tactical",), 7, True)


def test_unknown_action_is_kept_not_an_error() -> None:
    items = dict(read_log(GAMES / "wh40k6.jsonl").events())
    dance = items[8]
    assert type(dance) is UnknownEvent
    assert (dance.action, dance.phase, dance.unit) == ("war_dance", "assault", "wraithlord")
    assert dance.note == "действие, которого нет в FORMATS"


def test_whfb8_enums_fold_case() -> None:
    items = dict(read_log(GAMES / "whfb8.jsonl").events())
    save = items[7]
    assert isinstance(save, SaveEvent)
    assert (save.kind, save.value, save.roll, save.against) == (
        "regeneration", "5+", 5, ("flaming",))


def test_pinned_line_errors() -> None:
    errors = {line: item for line, item in read_log(GAMES / "wh40k6.jsonl").events()
              if isinstance(item, InputError)}
    assert sorted(errors) == [6, 9, 10, 11]
    typed = errors[9]
    assert str(typed).endswith(
        "wh40k6.jsonl:9:118: поле distance_to_target: ожидалось число, получено «восемь»")
    assert (typed.line, typed.column, typed.path, typed.kind) == (
        9, 118, ("distance_to_target",), "type")
    assert errors[10].message == "нет обязательного поля «distance»"
    assert errors[6].kind == "syntax"


def test_events_can_be_read_twice() -> None:
    log = read_log(GAMES / "killteam2018.jsonl")
    assert list(log.events()) == list(log.events())


def test_every_core_action_has_an_event_type() -> None:
    assert sorted(EVENT_TYPES) == sorted([
        "move", "run", "turbo_boost", "advance", "ready", "fall_back", "flee", "charge",
        "react", "shoot", "flight_mode", "go_to_ground", "hit", "wound", "save", "casualties",
        "unit_destroyed", "break_test_failed", "fled_through", "panic_test", "deploy",
        "reserve_roll", "impact_hits", "initiative", "reinforcements", "manifest"])


def test_parse_event() -> None:
    event = parse_event('{"action": "run", "distance": 6, "phase": "Движение"}')
    assert isinstance(event, RunEvent)
    assert (event.distance, event.phase) == (6.0, "movement")
    assert type(parse_event(b'{"action": "sing"}')) is UnknownEvent


def test_overlong_line_is_skipped_and_the_stream_goes_on(tmp_path: Path) -> None:
    log_file = tmp_path / "long.jsonl"
    header = {"type": "game", "system": "wh40k6", "armies": {}}
    long_note = {"action": "move", "distance": 1, "note": "x" * 5000}
    lines = [header, {"action": "run", "distance": 2}, long_note, {"action": "ready"}]
    log_file.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    items = list(read_log(log_file, max_line_bytes=1000).events())
    assert [(line, getattr(item, "action", None)) for line, item in items] == [
        (2, "run"), (3, None), (4, "ready")]
    assert str(items[1][1]) == f"{log_file}:3: строка длиннее 1000 байт; пропущена"


def test_missing_log() -> None:
    with pytest.raises(GameLogError) as caught:
        read_log(GAMES / "nowhere.jsonl")
    assert caught.value.errors[0].message == "файл не найден"


def test_streaming_runs_in_constant_memory(tmp_path: Path) -> None:
    log_file = tmp_path / "long.jsonl"
    event = json.dumps({"turn": 1, "phase": "стрельба", "player": "A", "unit": "jetbikes",
                        "action": "turbo_boost", "distance": 24}, ensure_ascii=False)
    with log_file.open("w", encoding="utf-8") as stream:
        stream.write('{"type": "game", "system": "wh40k6", "armies": {}}\n')
        for _ in range(50_000):
            stream.write(event + "\n")
    log = read_log(log_file)
    tracemalloc.start()
    count = sum(1 for _ in log.events())
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert count == 50_000
    assert peak < 2 * 1024 * 1024  # the whole file is ~6 MB; the stream holds a line at a time
