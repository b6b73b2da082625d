"""The build summary: per system, what the KB holds and what ingest removed."""

from __future__ import annotations

from kb.models import KnowledgeBase


def summary_rows(kb: KnowledgeBase) -> list[dict[str, int | str]]:
    """One row per system: sections, unit types, facts, references, removed text."""
    nodes = {n.id: n for n in kb.nodes}
    rows: list[dict[str, int | str]] = []
    for system in kb.systems:
        mine = [n for n in kb.nodes if n.system == system.id]
        refs = [e for e in kb.edges if e.kind == "references"
                and (source := nodes.get(e.source)) is not None and source.system == system.id]
        # (a reference to a node the KB lacks, which loading lets be, is unresolved)
        resolved = sum(1 for e in refs if (target := nodes.get(e.target)) is not None
                       and target.defined)
        sources = {n.source for n in mine if n.kind == "source"}
        removed = [r for r in kb.removed if r.source in sources]
        rows.append({
            "system": system.id,
            "files": len(sources),
            "sections": sum(1 for n in mine if n.kind in ("rule", "unit_type") and n.source),
            "unit_types": sum(1 for n in mine if n.kind == "unit_type"),
            "concepts": sum(1 for n in mine if n.kind == "concept"),
            "facts": sum(len(n.facts) for n in mine),
            "references_resolved": resolved,
            "references_unresolved": len(refs) - resolved,
            "removed_spans": len(removed),
            "removed_chars": sum(r.span[1] - r.span[0] for r in removed),
        })
    return rows


HEADERS = {
    "system": "система", "files": "файлы", "sections": "разделы", "unit_types": "типы войск",
    "concepts": "понятия", "facts": "факты", "references_resolved": "ссылки: разрешены",
    "references_unresolved": "не описаны", "removed_spans": "удалено: фрагменты",
    "removed_chars": "символы",
}


def summary_table(kb: KnowledgeBase, skipped: list[tuple[str, str]]) -> str:
    """The summary as a plain-text table (Russian headers), then skipped files and why."""
    rows = summary_rows(kb)
    keys = list(HEADERS)
    cells = [[HEADERS[k] for k in keys]] + [[str(r[k]) for k in keys] for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(keys))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in
                       enumerate(zip(row, widths, strict=True))) for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    by_step: dict[str, int] = {}
    for r in kb.removed:
        by_step[r.step] = by_step.get(r.step, 0) + 1
    if by_step:
        lines.append("")
        lines.append("Удалённый текст по причинам: " + ", ".join(
            f"{step} — {n}" for step, n in sorted(by_step.items())))
    for name, why in skipped:
        lines.append(f"Пропущен файл {name}: {why}")
    return "\n".join(lines)
