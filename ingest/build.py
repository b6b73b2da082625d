"""Build and resolve: turn the segmented, extracted texts of a corpus into one knowledge graph.

Systems never mix: every name is resolved within its own system only. A name the corpus does
not define becomes a ``concept`` node with ``defined: false`` — never a link to a wrong rule.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ingest import extract as ex
from ingest.clean import clean
from ingest.facts import find_facts
from ingest.models import CleanedText, SourceText
from ingest.segment import Section, Segmentation, segment, trim_span
from ingest.vocabulary import Vocabulary, english_names, vocabulary
from kb.ids import slug
from kb.lemmas import lemma_key
from kb.models import (
    SYSTEM_TITLES,
    Edge,
    Fact,
    KnowledgeBase,
    Node,
    NodeKind,
    Removal,
    RuleCategory,
    System,
)

Span = tuple[int, int]


@dataclass
class Part:
    """A section being built: where it lies and what was found in it."""

    system: str
    source: SourceText
    cleaned: CleanedText
    section: Section
    index: int
    id: str = ""
    parent_id: str | None = None
    text: str = ""
    # (cleaned offset of text[i]) for the pieces the node text is made of
    pieces: list[Span] = field(default_factory=list)
    chapter: str | None = None

    def to_source(self, local: Span) -> Span:
        """A span in :attr:`text` → a span in the source file."""
        s = self._cleaned_at(local[0])
        e = self._cleaned_at(max(local[0], local[1] - 1)) + 1
        return self.cleaned.to_source_span(s, e)

    def _cleaned_at(self, i: int) -> int:
        pos = 0
        for a, b in self.pieces:
            if i < pos + (b - a):
                return a + (i - pos)
            pos += (b - a) + 2  # pieces are joined by "\n\n"
        return self.pieces[-1][1] if self.pieces else 0


@dataclass
class Built:
    """A KB and what building it took: files skipped and why."""

    kb: KnowledgeBase
    skipped: list[tuple[str, str]]


def prepare(source: SourceText) -> tuple[CleanedText, Segmentation]:
    """Clean and segment one source text."""
    cleaned = clean(source)
    gaps = _gaps(source.text, cleaned)
    seg = segment(cleaned.text, source.system, cleaned.pages, gaps)
    return cleaned, seg


def _gaps(original: str, cleaned: CleanedText) -> dict[int, int]:
    """For each line start of the cleaned text: blank lines before it in the source."""
    gaps: dict[int, int] = {}
    text = cleaned.text
    pos = 0
    prev_end_src = 0
    for line in text.split("\n"):
        if line.strip():
            src = cleaned.to_source(pos)
            between = original[prev_end_src:src]
            gaps[pos] = sum(1 for ln in between.split("\n")[1:-1] if not ln.strip())
            prev_end_src = cleaned.to_source(pos + len(line)) if pos + len(line) < len(
                text) else len(original)
        pos += len(line) + 1
    return gaps


def build(
    sources: Iterable[SourceText],
    progress: Callable[[str], None] | None = None,
) -> Built:
    """Build the knowledge graph of a corpus.

    Args:
        sources: the loaded texts (``ingest.load``).
        progress: called with each file name once it is prepared.
    """
    parts: list[Part] = []
    removed: list[Removal] = []
    skipped: list[tuple[str, str]] = []
    sources = sorted(sources, key=lambda s: s.name)
    for src in sources:
        if src.system is None:
            skipped.append((src.name, "не удалось определить игровую систему; укажите её в "
                                      "corpus.toml"))
            removed.append(Removal(source=src.name, span=(0, len(src.text)), text=src.text[:200],
                                   step="system", reason="игровая система не определена"))
            continue
        cleaned, seg = prepare(src)
        removed.extend(_account(src, cleaned, seg))
        chapter = cleaned.running_headers[0] if cleaned.running_headers else None
        sections = seg.sections or _whole_text(cleaned.text)
        for i, sec in enumerate(sections):
            parts.append(Part(src.system, src, cleaned, sec, i, chapter=chapter))
        if progress:
            progress(src.name)
    builder = _Builder(parts)
    nodes, edges = builder.run()
    systems = sorted({p.system for p in parts})
    kb = KnowledgeBase(
        systems=tuple(System(id=s, title=SYSTEM_TITLES.get(s, s)) for s in systems),
        nodes=tuple(sorted(nodes.values(), key=lambda n: n.id)),
        edges=tuple(edges),
        removed=tuple(sorted(removed, key=lambda r: (r.source, r.span))),
    )
    return Built(kb, skipped)


def _whole_text(text: str) -> list[Section]:
    """A text with no headings is one section titled by its first words."""
    body = text.strip()
    if not body:
        return []
    start = text.find(body)
    title = " ".join(body.split()[:6]).rstrip(".,:;")
    return [Section(title, "", (start, start), (start, start + len(body)))]


def _account(src: SourceText, cleaned: CleanedText, seg: Segmentation) -> list[Removal]:
    out = []
    for ch in cleaned.changes:
        if ch.before.strip() and not ch.after.strip():
            out.append(Removal(source=src.name, span=ch.span, text=ch.before, step=ch.step,
                               reason=ch.reason))
    reasons = {"caption": "подпись к иллюстрации", "quote": "цитата-эпиграф, не правило"}
    for f in seg.flavour:
        out.append(Removal(source=src.name, span=cleaned.to_source_span(*f.span), text=f.text,
                           step=f.kind, reason=reasons[f.kind]))
    if seg.sections:
        first = min(s.heading_span[0] for s in seg.sections)
        lead = cleaned.text[:first].strip()
        if lead and seg.layout == "lines":
            out.append(Removal(source=src.name, span=cleaned.to_source_span(0, first), text=lead,
                               step="segment", reason="текст до первого заголовка"))
    return out


class _Builder:
    """Resolves the parts of one corpus into nodes and edges, system by system."""

    def __init__(self, parts: list[Part]) -> None:
        self.parts = parts
        self.nodes: dict[str, Node] = {}
        self.edges: list[Edge] = []
        self.edge_keys: set[tuple[str, str, str]] = set()
        self.facts: dict[str, list[Fact]] = defaultdict(list)

    # -- ids and texts ------------------------------------------------------------------
    def run(self) -> tuple[dict[str, Node], list[Edge]]:
        by_system: dict[str, list[Part]] = defaultdict(list)
        for p in self.parts:
            by_system[p.system].append(p)
        for system, parts in sorted(by_system.items()):
            _System(self, system, parts).run()
        return self.nodes, self.edges

    def edge(self, source: str, target: str, kind: str, evidence: str | None = None,
             span: Span | None = None, raw: str | None = None) -> None:
        key = (source, target, kind)
        if key in self.edge_keys or source == target:
            return
        self.edge_keys.add(key)
        self.edges.append(Edge(source=source, target=target, kind=kind,  # type: ignore[arg-type]
                               evidence=evidence, span=span, raw=raw))


class _System:
    def __init__(self, b: _Builder, system: str, parts: list[Part]) -> None:
        self.b = b
        self.system = system
        self.parts = parts
        self.vocab: Vocabulary = vocabulary(system)
        self.type_of: dict[str, str] = {}  # part id → nearest unit type id (itself included)
        self.keys: dict[tuple[str, ...], str] = {}  # lemma tuple → node id
        self.used_ids: set[str] = set(b.nodes)
        self.concepts: dict[str, str] = {}  # lemma key → concept id
        self.children: dict[str, list[str]] = defaultdict(list)

    def new_id(self, base: str) -> str:
        nid = base
        n = 2
        while nid in self.used_ids:
            nid = f"{base}-{n}"
            n += 1
        self.used_ids.add(nid)
        return nid

    def run(self) -> None:
        self._ids()
        self._nodes()
        self._unit_types()
        self._name_keys()
        for p in self.parts:
            self._extract(p)
        self._overrides()
        self._english_aliases()
        self._finish_nodes()

    def _ids(self) -> None:
        by_file: dict[str, list[Part]] = defaultdict(list)
        for p in self.parts:
            by_file[p.source.name].append(p)
        for file_parts in by_file.values():
            # a 40k unit type's title may come after its rules: give parents their ids first
            def depth(p: Part, fp: list[Part] = file_parts) -> int:
                d, j = 0, p.section.parent
                while j is not None:
                    d, j = d + 1, fp[j].section.parent
                return d

            for p in sorted(file_parts, key=lambda q: (depth(q), q.index)):
                parent = p.section.parent
                p.parent_id = file_parts[parent].id if parent is not None else None
                base = (f"{p.parent_id}/{slug(p.section.title)}" if p.parent_id
                        else f"{self.system}:{slug(p.section.title)}")
                p.id = self.new_id(base)
                pieces = [p.section.body_span, *p.section.extra_spans]
                texts = []
                for a, b in pieces:
                    chunk = p.cleaned.text[a:b]
                    for fs, fe in sorted(p.section.flavour_spans, reverse=True):
                        if a <= fs and fe <= b:
                            chunk = chunk[: fs - a] + chunk[fe - a:]
                    texts.append(chunk.strip())
                p.pieces = [trim_span(p.cleaned.text, s) for s in pieces]
                p.text = "\n\n".join(t for t in texts if t)

    def _nodes(self) -> None:
        for p in self.parts:
            sec = p.section
            pages = sec.pages
            span = p.cleaned.to_source_span(*sec.span) if sec.span[1] > sec.span[0] else None
            kind: NodeKind = "unit_type" if sec.is_unit_type else "rule"
            self.b.nodes[p.id] = Node(
                id=p.id, kind=kind, system=self.system, title=sec.title,
                aliases=tuple(sec.aliases), parent=p.parent_id,
                page=pages[0] if pages else None, pages=tuple(pages) if len(pages) > 1 else (),
                source=p.source.name, span=span, text=p.text,
                category="unit_type" if sec.is_unit_type else self._category(p),
                chapter=p.chapter,
            )
            if p.parent_id:
                self.b.edge(p.id, p.parent_id, "part_of")
            for page in pages:
                pid = self.page(page)
                self.b.edge(pid, p.id, "on_page")
        src_id = None
        for p in self.parts:
            sid = f"{self.system}:source:{p.source.name}"
            if sid != src_id and sid not in self.b.nodes:
                self.b.nodes[sid] = Node(id=sid, kind="source", system=self.system,
                                         title=p.source.name, source=p.source.name,
                                         span=(0, len(p.source.text)))
                self.used_ids.add(sid)
            src_id = sid

    def _category(self, p: Part) -> RuleCategory:
        title_key = lemma_key(p.section.title)
        if re.search(r"\bфаза\b|\bэтап\b", title_key) and p.parent_id is None:
            return "phase"
        if "тест" in title_key.split():
            return "test"
        parent = self.b.nodes.get(p.parent_id or "")
        if parent is not None and "расстановка" in lemma_key(parent.title).split():
            return "deployment_rule"
        if parent is not None and "специальный правило" in lemma_key(parent.title):
            return "special_rule"
        if p.parent_id is None and p.source.system == "whfb8" and p.section.pages and \
                min(p.section.pages) >= 68:
            return "special_rule"
        return "section"

    def page(self, n: int) -> str:
        pid = f"{self.system}:page:{n}"
        if pid not in self.b.nodes:
            self.b.nodes[pid] = Node(id=pid, kind="page", system=self.system,
                                     title=f"Страница {n}", page=n)
            self.used_ids.add(pid)
        return pid

    # -- unit types ---------------------------------------------------------------------
    def _unit_types(self) -> None:
        self.type_ids: dict[str, str] = {}  # vocabulary name → node id
        for p in self.parts:
            if p.section.is_unit_type:
                name = self.vocab.unit_type(p.section.title) or p.section.title
                self.type_ids.setdefault(name, p.id)
        for whole, names in self.vocab.split.items():
            if whole not in self.type_ids:
                continue
            for name in names:
                nid = self.new_id(f"{self.system}:{slug(name)}")
                whole_node = self.b.nodes[self.type_ids[whole]]
                self.b.nodes[nid] = Node(
                    id=nid, kind="unit_type", system=self.system, title=name,
                    # no text of its own: the book describes it only in the whole section,
                    # and a report must never quote words the book does not have
                    source=whole_node.source, span=whole_node.span, category="unit_type",
                    text="", chapter=whole_node.chapter,
                )
                self.type_ids[name] = nid
                # the evidence is the book's own words: the title that names both types
                self.b.edge(nid, self.type_ids[whole], "inherits", evidence=whole_node.title)
        for p in self.parts:
            self.type_of[p.id] = self._nearest_type(p)

    def _nearest_type(self, p: Part) -> str:
        nid: str | None = p.id
        while nid is not None:
            node = self.b.nodes[nid]
            if node.kind == "unit_type":
                return nid
            nid = node.parent
        return ""

    def type_node(self, name: str, evidence: str, span: Span | None) -> str | None:
        """The node of a unit type named in any form; a named-only type becomes a concept."""
        vname = self.vocab.unit_type(name)
        if vname is None:
            return None
        if vname in self.type_ids:
            return self.type_ids[vname]
        if vname in self.vocab.combined:
            nid = self.new_id(f"{self.system}:{slug(vname)}")
            self.b.nodes[nid] = Node(id=nid, kind="unit_type", system=self.system, title=vname,
                                     category="unit_type", text=evidence, span=span)
            self.type_ids[vname] = nid
            for part_name in self.vocab.combined[vname]:
                target = self.type_node(part_name, evidence, None)
                if target:
                    self.b.edge(nid, target, "inherits", evidence=evidence)
            return nid
        return self.concept(vname, category="unit_type")

    def concept(self, name: str, category: str | None = None) -> str:
        key = lemma_key(name)
        if key in self.concepts:
            return self.concepts[key]
        nid = self.new_id(f"{self.system}:{slug(name)}")
        self.concepts[key] = nid
        self.b.nodes[nid] = Node(id=nid, kind="concept", system=self.system, title=name,
                                 defined=False, category=category)  # type: ignore[arg-type]
        self._add_key(name, nid)
        return nid

    # -- names ----------------------------------------------------------------------------
    def _name_keys(self) -> None:
        counts: dict[str, int] = defaultdict(int)
        for p in self.parts:
            counts[lemma_key(p.section.title)] += 1
        generic = {lemma_key(self.vocab.special_rules_heading)}
        for p in self.parts:
            sec = p.section
            key = lemma_key(sec.title)
            if counts[key] > 1 or key in generic:
                continue  # "Стрельба" under five types is no name of one rule
            if len(key.split()) <= 2 and _is_group_title(sec.title):
                continue  # "Типы подразделений" names a chapter, not a rule
            if sec.parent is not None and self.b.nodes[p.parent_id or ""].kind == "unit_type" \
                    and not sec.is_unit_type:
                continue  # a type's own subsections are not referred to by name
            for name in (sec.title, *sec.aliases, _unparen(sec.title)):
                self._add_key(name, p.id)
        for name, nid in self.type_ids.items():
            self._add_key(name, nid)
        for vname in self.vocab.unit_types:
            if vname not in self.type_ids:
                self._add_key(vname, f"@type:{vname}")

    def _add_key(self, name: str, nid: str) -> None:
        key = tuple(lemma_key(name).split())
        if key and key not in self.keys:
            self.keys[key] = nid

    def resolve_name(self, name: str) -> str | None:
        key = tuple(lemma_key(name).split())
        nid = self.keys.get(key) or self.keys.get(tuple(lemma_key(_unparen(name)).split()))
        return nid

    # -- extraction -----------------------------------------------------------------------
    def _extract(self, p: Part) -> None:
        text = p.text
        own_type = self.type_of.get(p.id) or None
        related = self._related(p.id)

        def sp(local: Span) -> Span:
            return p.to_source(local)

        # grants
        grants: list[ex.Mention] = []
        sr = lemma_key(self.vocab.special_rules_heading)
        if own_type and lemma_key(p.section.title) == sr:
            grants.extend(ex.special_rules_list(text))
        if own_type:
            grants.extend(ex.grant_cues(text))
        for g in grants:
            target = self.resolve_name(g.name)
            if target is None or target.startswith("@"):
                target = self.concept(g.name, category="special_rule")
            self.b.edge(own_type or p.id, target, "grants",
                        evidence=f"{p.section.title}: {g.sentence}", span=sp(g.span), raw=g.raw)
        # page citations
        for m in ex.page_citations(text):
            self.b.edge(p.id, self.page(int(m.name)), "cites_page", evidence=m.sentence,
                        span=sp(m.span), raw=m.raw)
        # limits and inheritance
        for m in ex.limits(text):
            target = self.type_node(m.name, m.sentence, sp(m.span))
            if target:
                self.b.edge(p.id, target, m.kind, evidence=m.sentence, span=sp(m.span),
                            raw=m.raw)
        if own_type:
            for m in ex.inherit_cues(text):
                target = self.type_node(m.name, m.sentence, sp(m.span))
                subject = self._subject_type(text, m) or own_type
                if target and target != subject:
                    self.b.edge(subject, target, "inherits", evidence=m.sentence,
                                span=sp(m.span), raw=m.raw)
        # named references: cue names first (they may create concepts), then all known names
        for m in ex.cue_names(text):
            target = self.resolve_name(m.name) or self.resolve_name(m.raw)
            if target is None and self._prefix_of_name(m.raw):
                continue  # "правило Ядовитых атак": the name goes on; name matching finds it
            if target is None or target.startswith("@"):
                target = self.type_node(m.name, m.sentence, None) or self.concept(m.name)
            if target not in related:
                self.b.edge(p.id, target, "references", evidence=m.sentence, span=sp(m.span),
                            raw=m.raw)
        tokens = ex.lemma_tokens(text)
        for m in ex.name_mentions(tokens, self.keys, text):
            targets = [m.name]
            if m.name.startswith("@type:"):
                vname = m.name.removeprefix("@type:")
                if vname in self.vocab.combined:
                    self.type_node(vname, m.sentence, sp(m.span))
                    targets = [t for t in (self.type_node(x, m.sentence, None)
                                           for x in self.vocab.combined[vname]) if t]
                else:
                    t = self.type_node(vname, m.sentence, None)
                    targets = [t] if t else []
            for target in targets:
                if target not in related and target != own_type:
                    self.b.edge(p.id, target, "references", evidence=m.sentence,
                                span=sp(m.span), raw=m.raw)
        # facts: the parameter a heading allows ("Сопротивление магии (1-3)"), then the text's
        heading = p.section.heading
        for f in find_facts(heading, [], {}, None):
            if f.kind == "range":
                hs = p.section.heading_span[0]
                span = p.cleaned.to_source_span(hs + f.span[0], hs + f.span[1])
                self.b.facts[p.id].append(Fact(
                    name=f.name, kind="range", value=f.value,  # type: ignore[arg-type]
                    text=f.text, applies_to=None, evidence=heading.strip(), span=span,
                    topic=lemma_key(_unparen(p.section.title)),
                    evidence_span=p.cleaned.to_source_span(*p.section.heading_span)))
        unit_names = self._unit_lemmas()
        default_topic = self._default_topic(p)
        for f in find_facts(text, list(self.vocab.topics), unit_names, default_topic):
            applies = None
            if f.unit:
                applies = self.type_ids.get(f.unit) or self.type_node(f.unit, f.sentence, None)
            applies = applies or own_type
            self.b.facts[p.id].append(Fact(
                name=f.name, kind=f.kind, value=f.value, text=f.text,  # type: ignore[arg-type]
                applies_to=applies, evidence=f.sentence, span=sp(f.span), topic=f.topic,
                evidence_span=sp(f.sentence_span),
            ))

    def _prefix_of_name(self, raw: str) -> bool:
        key = tuple(lemma_key(raw).split())
        return bool(key) and any(k[: len(key)] == key and len(k) > len(key) for k in self.keys)

    def _subject_type(self, text: str, m: ex.Mention) -> str | None:
        """The type a sentence speaks of before its cue ("Прыжковая пехота … будет следовать
        правилам …"), when it names one; else None (the section's own type)."""
        start = text.rfind(m.sentence[:20], 0, m.span[0] + 1)
        prefix = text[start if start != -1 else 0: m.span[0]]
        for found in ex.name_mentions(ex.lemma_tokens(prefix), self.keys, prefix):
            if found.name.startswith("@type:"):
                return self.type_node(found.name.removeprefix("@type:"), m.sentence, None)
            if self.b.nodes.get(found.name) and self.b.nodes[found.name].kind == "unit_type":
                return found.name
        return None

    def _default_topic(self, p: Part) -> str | None:
        key = " " + lemma_key(p.section.title) + " "
        for form, topic in self.vocab.topics:
            if f" {form} " in key:
                return topic
        return None

    def _unit_lemmas(self) -> dict[str, str]:
        """Lemma key → type name, for telling which type a clause speaks of."""
        out = {}
        for name in self.type_ids:
            out[lemma_key(_unparen(name))] = name
        return out

    def _related(self, nid: str) -> set[str]:
        out = {nid}
        node = self.b.nodes[nid]
        parent = node.parent
        while parent:
            out.add(parent)
            parent = self.b.nodes[parent].parent
        if not self.children:
            for p in self.parts:
                if p.parent_id:
                    self.children[p.parent_id].append(p.id)
        stack = [nid]
        while stack:
            for child in self.children.get(stack.pop(), []):
                if child not in out:
                    out.add(child)
                    stack.append(child)
        return out

    # -- overrides --------------------------------------------------------------------------
    def _overrides(self) -> None:
        inherits: dict[str, list[str]] = defaultdict(list)
        for e in self.b.edges:
            if e.kind == "inherits" and e.source in self.b.nodes and \
                    self.b.nodes[e.source].system == self.system:
                inherits[e.source].append(e.target)
        facts_by_type: dict[str, list[tuple[str, Fact]]] = defaultdict(list)
        for p in self.parts:
            for f in self.b.facts.get(p.id, []):
                owner = self.type_of.get(p.id)
                if owner:
                    facts_by_type[owner].append((p.id, f))
        for t in list(inherits):
            ancestors = self._ancestors(t, inherits)
            for node_id, fact in facts_by_type.get(t, []):
                for anc in ancestors:
                    for other_id, other in facts_by_type.get(anc, []) + self._inherited_facts(
                            anc, facts_by_type):
                        if (other.topic, other.name, other.kind) == (
                                fact.topic, fact.name, fact.kind) and other.value != fact.value \
                                and fact.topic:
                            self.b.edge(node_id, other_id, "overrides", evidence=fact.evidence,
                                        span=fact.evidence_span, raw=fact.text)
        # "на 3D6", а не на 2D6", как многие другие": the type's rule changes the general one
        for p in self.parts:
            for f in self.b.facts.get(p.id, []):
                if f.name.startswith("not_") and f.topic:
                    general = self.resolve_name(f.topic)
                    if general is None or general.startswith("@") or general == p.id:
                        general = self.concept(f.topic[:1].upper() + f.topic[1:])
                    self.b.edge(p.id, general, "overrides", evidence=f.evidence,
                                span=f.evidence_span, raw=f.text)

    def _ancestors(self, t: str, inherits: dict[str, list[str]]) -> list[str]:
        out: list[str] = []
        stack = list(inherits.get(t, []))
        while stack:
            cur = stack.pop(0)
            if cur not in out:
                out.append(cur)
                stack.extend(inherits.get(cur, []))
        return out

    def _inherited_facts(self, anc: str, facts_by_type: dict[str, list[tuple[str, Fact]]]
                         ) -> list[tuple[str, Fact]]:
        # facts stated for a type inside another type's section ("а гравициклы … 24"")
        return [(nid, f) for facts in facts_by_type.values() for nid, f in facts
                if f.applies_to == anc]

    # -- English names -------------------------------------------------------------------
    def _english_aliases(self) -> None:
        """Give the node a Russian name resolves to its English names (data/aliases.toml).

        A name that resolves to no node of the corpus adds nothing: no node is made for it.
        """
        for english, russian in sorted(english_names(self.system).items()):
            nid = self.resolve_name(russian)
            if nid is not None and nid.startswith("@type:"):
                # a type the text only names: its node, or the concept made for it, if any
                vname = nid.removeprefix("@type:")
                nid = self.type_ids.get(vname) or self.concepts.get(lemma_key(vname))
            node = self.b.nodes.get(nid or self._only_title(russian) or "")
            if node is None or node.system != self.system:
                continue
            known = {lemma_key(n) for n in (node.title, *node.aliases)}
            if lemma_key(english) not in known:
                aliases = (*node.aliases, english)
                self.b.nodes[node.id] = node.model_copy(update={"aliases": aliases})

    def _only_title(self, name: str) -> str | None:
        """The one rule, unit type or concept of the system titled ``name``, if just one."""
        key = lemma_key(_unparen(name))
        found = [n.id for n in self.b.nodes.values()
                 if n.system == self.system and n.kind in ("rule", "unit_type", "concept")
                 and lemma_key(_unparen(n.title)) == key]
        return found[0] if len(found) == 1 else None

    def _finish_nodes(self) -> None:
        for nid, facts in self.b.facts.items():
            node = self.b.nodes[nid]
            self.b.nodes[nid] = node.model_copy(update={"facts": tuple(facts)})


def _is_group_title(title: str) -> bool:
    from ingest.segment import _is_group

    return _is_group(title)


def _unparen(title: str) -> str:
    return " ".join(re.sub(r"\([^)]*\)", " ", title).split())
