"""Probing one limit of a check below, at and above its value: a small log per value.

A :class:`Limit` says where the KB keeps the number (a function of the rulebook that reads
it the way the check does, never a number written in a test) and what one probe is: the
armies and the events for a value. :func:`probe` audits one log per offset from the value
and gives the verdicts of the check on the probe's last event (the one judged), and
:func:`assert_limit` compares them with the expected verdict at each offset.

Used by the ``tests/test_*_limits*.py`` modules; ``benchmarks/mutation.py`` is what showed
these comparisons unpinned.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from conftest import CORPUS

from kb.graph import Graph
from validator.audit import audit_log
from validator.rulebook import Rulebook
from validator.verdicts import Verdict

Event = dict[str, object]
Armies = dict[str, object]

VERDICTS = ("ok", "violation", "warning", "not_covered")


@dataclass(frozen=True)
class Probe:
    """One probe: the armies of the header and the events (the last one is judged)."""

    armies: Armies
    events: list[Event]


@dataclass(frozen=True)
class Limit:
    """A limit of one check: where the KB keeps it, and the probe of a value.

    Attributes:
        system: the game system.
        value: the limit, read from the rulebook as the check reads it.
        probe: the probe of one value (the limit plus an offset).
        check: the check whose verdicts are compared.
        expected: offset → the verdict there (``ok``, ``violation`` …), words of its why,
            or ``none`` (the check gives the last event no verdict).
        errors: whether the probe's log may have input errors (by default it must not).
    """

    system: str
    value: Callable[[Rulebook], float]
    probe: Callable[[float], Probe]
    check: str
    expected: dict[float, str]
    errors: bool = False


def write_log(path: Path, system: str, probe: Probe) -> Path:
    """The probe as a game log (turn 1 unless an event says otherwise)."""
    lines: list[dict[str, object]] = [{"type": "game", "system": system,
                                       "armies": probe.armies}]
    lines += [{"turn": 1, **event} for event in probe.events]
    path.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n",
                    encoding="utf-8")
    return path


def probe(limit: Limit, graph: Graph, tmp_path: Path) -> dict[float, list[Verdict]]:
    """Offset → the check's verdicts on the last event of the probe of ``value + offset``."""
    value = limit.value(Rulebook(graph, limit.system))
    found: dict[float, list[Verdict]] = {}
    for number, offset in enumerate(sorted(limit.expected)):
        one = limit.probe(value + offset)
        log = write_log(tmp_path / f"probe{number}.jsonl", limit.system, one)
        report = audit_log(log, graph)
        assert limit.errors or report.errors == (), [e.message for e in report.errors]
        last = len(one.events) + 1  # the header is line 1
        found[offset] = [v for v in report.verdicts if v.check == limit.check and v.line == last]
    return found


def assert_limit(name: str, limit: Limit, graph: Graph, tmp_path: Path) -> None:
    """Every offset of ``limit`` gets its expected verdict."""
    found = probe(limit, graph, tmp_path)
    for offset, expected in limit.expected.items():
        verdicts = found[offset]
        if expected == "none":
            assert not verdicts, (name, offset, [v.why for v in verdicts])
            continue
        assert len(verdicts) == 1, (name, offset, [(v.verdict, v.why) for v in verdicts])
        verdict = verdicts[0]
        if expected in VERDICTS:
            assert verdict.verdict == expected, (name, offset, verdict.verdict, verdict.why)
        else:
            assert expected in verdict.why, (name, offset, verdict.why)


def graph_of_edited_corpus(tmp_path: Path, edits: Sequence[tuple[str, str, str]]) -> Graph:
    """The graph of a copy of the corpus with text replaced: ``(file, old, new)``, several
    per file if need be; each ``old`` must occur exactly once in its file."""
    from ingest import build, load

    copy = tmp_path / "corpus"
    shutil.copytree(CORPUS, copy)
    for name, old, new in edits:
        path = copy / name
        path.chmod(0o644)
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{old!r} is not once in {name}"
        path.write_text(text.replace(old, new), encoding="utf-8")
    return Graph(build(load([copy])).kb)
