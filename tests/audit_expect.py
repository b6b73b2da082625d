"""Expected verdicts written into test game logs, and the comparison with an audit.

A test log's event line may carry ``"expect"``: a list of the verdicts its line must get,
each ``{"verdict": …, "check": …, "rule": …}``; ``check`` and ``rule`` (a part of the title
of a rule the verdict cites) are optional. The audit must give that line exactly these
verdicts (as a multiset of ``(verdict, check)``) and cite each ``rule`` (by the rule's title
or, given the graph, one of its other names: a Kill Team rule headed "CHARGING" is titled
«Чардж» with "Charging" as an alias). A line without
``expect`` is not compared. Events keep extra fields, so ``expect`` never disturbs parsing.

A line (an event or a header) may also carry ``"errors"``: the kinds of the input errors it
must get, in order (``["order"]``); :func:`error_mismatches` compares them for every line
that parses, so a line without ``errors`` must get none.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from kb import Graph
from validator.verdicts import Report


def expectations(log: Path) -> dict[int, list[dict[str, str]]]:
    """Line number → the verdicts expected there."""
    out: dict[int, list[dict[str, str]]] = {}
    for number, raw in enumerate(log.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            data = json.loads(raw)
        except json.JSONDecodeError:
            continue
        if isinstance(data, dict) and "expect" in data:
            out[number] = list(data["expect"])
    return out


def mismatches(log: Path, report: Report, graph: Graph | None = None) -> list[str]:
    """Every difference between a log's expectations and its report, as readable lines."""
    problems: list[str] = []

    def names(rule_id: str, title: str) -> list[str]:
        node = graph.nodes.get(rule_id) if graph is not None else None
        return [title, *(node.aliases if node is not None else ())]

    for line, wanted in expectations(log).items():
        got = [v for v in report.verdicts if v.line == line]
        have = Counter((v.verdict, v.check) for v in got)
        want = Counter((w["verdict"], w.get("check")) for w in wanted)
        loose = Counter((v.verdict, None) for v in got)
        for (verdict, check), n in want.items():
            pool = have if check is not None else loose
            if pool[(verdict, check)] < n:
                problems.append(f"line {line}: expected {verdict} {check or ''}, got "
                                f"{sorted(have.items())}: {[v.why for v in got]}")
        if sum(want.values()) != len(got):
            problems.append(f"line {line}: expected {len(want)} verdicts, got "
                            f"{[(v.verdict, v.check, v.why) for v in got]}")
        for w in wanted:
            if "rule" in w and not any(w["rule"] in name for v in got
                                       if w.get("check") in (None, v.check) for r in v.rules
                                       for name in names(r.id, r.title)):
                problems.append(f"line {line}: no verdict cites a rule titled like {w['rule']!r}: "
                                f"{[[r.title for r in v.rules] for v in got]}")
    return problems


def error_mismatches(log: Path, report: Report) -> list[str]:
    """Every difference between the input errors a log's lines expect and those it got."""
    problems: list[str] = []
    for number, raw in enumerate(log.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            data = json.loads(raw)
        except json.JSONDecodeError:
            continue
        want = list(data.get("errors", [])) if isinstance(data, dict) else []
        got = [e for e in report.errors if e.line == number]
        if [e.kind for e in got] != want:
            problems.append(f"line {number}: expected errors {want}, got "
                            f"{[(e.kind, e.message) for e in got]}")
    return problems
