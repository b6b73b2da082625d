"""The embedded default: the corpus beside the project, and its KB built once and cached."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from kb.graph import Graph
from kb.models import SYSTEM_TITLES, KnowledgeBase, Node
from kb.store import KBFileError, load, save

CORPUS_ENV = "RULEKB_CORPUS"
CACHE_ENV = "RULEKB_CACHE"


class DefaultsError(KBFileError):
    """The default corpus or cache cannot be used."""


def corpus_dir() -> Path:
    """The default corpus: ``$RULEKB_CORPUS``, else ``../shared/corpus`` beside the project."""
    if os.environ.get(CORPUS_ENV):
        return Path(os.environ[CORPUS_ENV])
    here = Path(__file__).resolve().parents[1]
    for base in (here, Path.cwd()):
        candidate = base.parent / "shared" / "corpus"
        if candidate.is_dir():
            return candidate
    raise DefaultsError(
        "корпус по умолчанию не найден (../shared/corpus); укажите папку с текстами или "
        f"переменную {CORPUS_ENV}"
    )


def cache_dir() -> Path:
    """Where the default KB is cached (``$RULEKB_CACHE`` or ``~/.cache/rulekb``)."""
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "rulekb")


def _fingerprint(corpus: Path) -> str:
    """A hash of the corpus files and of the pipeline's code: a change to either rebuilds."""
    h = hashlib.sha256()
    files = sorted(p for p in corpus.rglob("*") if p.is_file())
    for p in files:
        h.update(str(p.relative_to(corpus)).encode())
        h.update(p.read_bytes())
    code = Path(__file__).resolve().parents[1]
    for pkg in ("ingest", "kb"):
        for p in sorted((code / pkg).rglob("*")):
            if p.is_file() and p.suffix in (".py", ".toml"):
                h.update(p.read_bytes())
    return h.hexdigest()[:20]


def default_kb() -> KnowledgeBase:
    """The KB of the default corpus, built on first use and cached until the corpus changes."""
    corpus = corpus_dir()
    cached = cache_dir() / f"kb-{_fingerprint(corpus)}.json"
    if cached.exists():
        try:
            return load(cached)
        except KBFileError:
            pass  # a damaged cache is rebuilt
    from ingest import build  # only now: a lookup from the cache must not pay for ingest
    from ingest import load as load_texts

    kb = build(load_texts([corpus])).kb
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        # atomic (a temporary of its own beside it, then a rename): two processes filling the
        # cache at once, or one killed half-way, never leave a broken file under this name
        save(kb, cached)
    except OSError:
        pass  # a read-only home still gets its answer, only slower next time
    return kb


def graph(kb_path: Path | None) -> Graph:
    """The graph of ``kb_path``, or of the default corpus when it is None."""
    return Graph(load(kb_path) if kb_path else default_kb())


def check_system(system: str | None, graph: Graph | None = None) -> None:
    """Refuse an unknown system name with the list of known ones, and (given the graph) a
    system the KB holds no rules of, with the systems it holds."""
    if system is not None and system not in SYSTEM_TITLES:
        known = ", ".join(SYSTEM_TITLES)
        raise DefaultsError(f"неизвестная система «{system}»; известны: {known}")
    held = [s.id for s in graph.kb.systems] if graph is not None else []
    if system is not None and graph is not None and system not in held:
        have = ", ".join(held) if held else "ни одной системы"
        raise DefaultsError(f"в базе знаний нет правил системы «{system}»; в ней есть: {have}")


def find_node(graph: Graph, name: str, system: str | None) -> Node:
    """A node by id or by any name form; raises ``LookupFailed`` with suggestions."""
    check_system(system, graph)
    if name in graph.nodes:
        return graph.nodes[name]
    return graph.names.get(name, system) if system else _any_system(graph, name)


def _any_system(graph: Graph, name: str) -> Node:
    """Resolve a name in every system; it must mean one node in exactly one of them."""
    found = []
    for system in sorted({n.system for n in graph.nodes.values()}):
        node: Node | None = graph.names.resolve(name, system)
        if node is not None:
            found.append(node)
    if len(found) == 1:
        return found[0]
    shown = name if len(name) <= 80 else name[:79] + "…"  # a pasted page stays one short line
    if found:
        systems = ", ".join(n.system for n in found)
        raise DefaultsError(f"«{shown}» есть в нескольких системах ({systems}); уточните --system")
    sugg = graph.names.find(name, None, limit=3)
    near = ", ".join(f"«{m.title}» [{m.system}] ({m.score})" for m in sugg)
    raise DefaultsError(f"не найдено «{shown}»" + (f"; ближайшие: {near}" if near else ""))
