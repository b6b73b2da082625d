"""The game audit: replay a game log (FORMATS §3) against the KB, every event checked.

Two verbs::

    report = audit_log("game.jsonl", graph)            # a Report, for small logs and tests
    code = write_audits(["a.jsonl", "b.jsonl"], graph, sys.stdout, "text")   # streams

Each system's checks live in a module of their own (:mod:`validator.audit.wh40k6`,
:mod:`~validator.audit.whfb8`, :mod:`~validator.audit.killteam2018`) and register
themselves on import; :mod:`~validator.audit.engine` walks the log and runs them.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from kb.graph import Graph
from validator.audit import killteam2018, wh40k6, whfb8  # noqa: F401  (their checks register)
from validator.audit.engine import Audit
from validator.audit.output import Format, LogReportWriter
from validator.inputs.files import is_folder
from validator.inputs.gamelog import read_log
from validator.inputs.models import GameLogError, InputError, printable
from validator.inputs.roster import Aliases
from validator.report import EXIT_CLEAN, EXIT_UNUSABLE, EXIT_VIOLATIONS
from validator.rulebook import missing_system
from validator.verdicts import Report, Verdict

__all__ = ["Audit", "audit_log", "write_audits"]


def audit_log(path: str | os.PathLike[str], graph: Graph,
              aliases: Aliases | None = None) -> Report:
    """Audit one log and hold the whole report (use :func:`write_audits` for big logs).

    A log whose header cannot be used, or of a system the KB holds no rules of, gives a
    report holding only its errors.
    """
    name = printable(str(path))
    try:
        log = read_log(path)
    except GameLogError as exc:
        return Report(kind="log", input=name, errors=exc.errors)
    lacking = missing_system(graph, log.system, name)
    if lacking is not None:
        return Report(kind="log", input=name, errors=(lacking.at(line=log.header_line),))
    verdicts: list[Verdict] = []
    errors: list[InputError] = []
    for item in Audit(log, graph, aliases).run():
        if isinstance(item, InputError):
            errors.append(item)
        else:
            verdicts.append(item.model())
    return Report(kind="log", input=name, system=log.system, verdicts=tuple(verdicts),
                  errors=tuple(errors))


def log_files(paths: Sequence[str | os.PathLike[str]]) -> list[Path]:
    """The logs to audit: each file as given, each folder's ``.jsonl`` files (sorted).

    An empty folder stays in the list, so that reading it reports that it holds no log.
    """
    out: list[Path] = []
    for given in map(Path, paths):
        found = sorted(p for p in given.rglob("*.jsonl")
                       if p.is_file() and not p.name.startswith(".")) if is_folder(given) else []
        out.extend(found or [given])
    return out


def write_audits(paths: Sequence[str | os.PathLike[str]], graph: Graph, out: TextIO,
                 fmt: Format, aliases: Aliases | None = None,
                 on_error: Callable[[InputError], None] | None = None) -> int:
    """Audit logs one after another, streaming each report to ``out``; the exit code.

    A folder stands for every ``.jsonl`` log inside it (every level, sorted). A log that
    cannot be audited at all (its header or an army is unusable, the KB holds no rules of
    its system) is reported with its errors and the others are still audited. The exit
    code: 2 when no log could be audited at all, else 1 when one was skipped, a violation
    was found or a line could not be read, else 0. ``on_error`` is called with every input
    error as it is reported (the CLI also prints each on stderr).
    """
    paths = log_files(paths)
    audited = skipped = 0
    findings = False
    if fmt == "json" and len(paths) != 1:
        out.write("[\n")
    for index, path in enumerate(paths):
        if index and fmt == "json":
            out.write(",\n")
        elif index:
            out.write("\n")
        name = printable(str(path))  # (a file name that is not UTF-8 must still be written)
        try:
            log = read_log(path)
            lacking = missing_system(graph, log.system, name)
            if lacking is not None:
                raise GameLogError([lacking.at(line=log.header_line)])
        except GameLogError as exc:
            writer = LogReportWriter(out, fmt, name, None)
            writer.start(exc.errors)
            writer.finish(Counter(), {}, {})
            for error in exc.errors:
                if on_error is not None:
                    on_error(error)
            skipped += 1
            continue
        audit = Audit(log, graph, aliases)
        writer = LogReportWriter(out, fmt, name, log.system)
        writer.start()
        for item in audit.run():
            if isinstance(item, InputError):
                writer.error(item)
                if on_error is not None:
                    on_error(item)
            else:
                writer.verdict(item)
        tally = audit.tally
        total = tally.total
        writer.finish(total, tally.by_player, tally.by_unit)
        audited += 1
        findings = findings or bool(total["violation"] or tally.errors)
    if fmt == "json" and len(paths) != 1:
        out.write("]\n")
    if not audited:
        return EXIT_UNUSABLE
    return EXIT_VIOLATIONS if skipped or findings else EXIT_CLEAN
