"""Resolve the parts of a corpus into nodes and edges, system by system.

Systems never mix: every name is resolved within its own system only. :class:`SystemResolver`
gives each part its id and node, finds the unit types and the names the system knows, then
links what each part mentions (:mod:`ingest.resolve_mentions`), finds its facts and the rules
they override (:mod:`ingest.resolve_facts`) and adds English names (``data/aliases.toml``).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property

from ingest.models import CleanedText, SourceText, Span
from ingest.resolve_facts import add_facts, add_overrides
from ingest.resolve_mentions import link_grants, link_mentions
from ingest.sections import Section, is_group_title, trim_span, unparen
from ingest.vocabulary import Vocabulary, english_names, vocabulary
from kb.ids import FreeIds, slug
from kb.lemmas import lemma_key
from kb.models import SYSTEM_TITLES, Edge, Fact, Node, NodeKind, RuleCategory

# A section that calls itself a special rule ("Модели с этим Специальным Правилом …", "Это
# специальное правило могут использовать …") is one, wherever it stands in its book.
_SELF_SPECIAL_RULE = re.compile(
    r"(?<!\w)(?:эт(?:о|им|ого|ому|ой)|так(?:им|ое|ого|ому)|данн(?:ым|ое|ого))\s+"
    r"специальн\w+\s+правил", re.IGNORECASE)


def _says_special_rule(text: str) -> bool:
    """Whether a text calls itself a special rule (:data:`_SELF_SPECIAL_RULE`; its word
    "специальн…" looked for first, at once, as most texts lack it)."""
    return "специальн" in text.lower() and _SELF_SPECIAL_RULE.search(text) is not None


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

    def local_at(self, cleaned_at: int) -> int | None:
        """Where a cleaned offset stands in :attr:`text` (the inverse of the map above), or
        None when it is in none of the pieces."""
        pos = 0
        for a, b in self.pieces:
            if a <= cleaned_at < b:
                return pos + cleaned_at - a
            pos += (b - a) + 2
        return None


class Resolver:
    """The nodes and edges built from the parts of one system (:class:`SystemResolver` fills
    them)."""

    def __init__(self) -> None:
        self.nodes: dict[str, Node] = {}
        self.edges: list[Edge] = []
        self.edge_keys: set[tuple[str, str, str]] = set()
        self.facts: dict[str, list[Fact]] = defaultdict(list)

    # -- ids and texts ------------------------------------------------------------------
    def edge(self, source: str, target: str, kind: str, evidence: str | None = None,
             span: Span | None = None, raw: str | None = None) -> None:
        """Add an edge unless the same one (source, target, kind) exists or it is a loop."""
        key = (source, target, kind)
        if key in self.edge_keys or source == target:
            return
        self.edge_keys.add(key)
        self.edges.append(Edge(source=source, target=target, kind=kind,  # type: ignore[arg-type]
                               evidence=evidence, span=span, raw=raw))


def resolve_system(system: str, parts: list[Part]) -> tuple[dict[str, Node], list[Edge]]:
    """The nodes and edges of one system's parts, resolved alone (systems never mix: each
    resolves alone, so several may run side by side, :func:`ingest.pool.in_stages`)."""
    alone = Resolver()
    SystemResolver(alone, system, parts).run()
    return alone.nodes, alone.edges


class SystemResolver:
    """Resolves the parts of one system: ids, nodes, unit types, names, then references,
    facts, overrides and English names (:meth:`run`)."""

    def __init__(self, b: Resolver, system: str, parts: list[Part]) -> None:
        self.b = b
        self.system = system
        self.parts = parts
        self.vocab: Vocabulary = vocabulary(system)
        self.type_of: dict[str, str] = {}  # part id → nearest unit type id (itself included)
        self.terms: set[str] = set()  # the ids of glossaries' entries
        self.keys: dict[tuple[str, ...], str] = {}  # lemma tuple → node id
        # a file's own names that other files of the system bear too: file → lemma tuple →
        # its section there (its mentions in that file name it; elsewhere the name is no one's)
        self.local_keys: dict[str, dict[tuple[str, ...], str]] = defaultdict(dict)
        # such a name → the sections bearing it in every file
        self.shared: dict[tuple[str, ...], dict[str, None]] = defaultdict(dict)  # (in order)
        self.used_ids = FreeIds(b.nodes)
        self.concepts: dict[str, str] = {}  # lemma key → concept id

    @cached_property
    def children(self) -> dict[str, list[str]]:
        """Each part's id → the ids of the parts right under it (asked once the parts' ids and
        parents are set: by the mentions' linking)."""
        out: dict[str, list[str]] = defaultdict(list)
        for p in self.parts:
            if p.parent_id:
                out[p.parent_id].append(p.id)
        return out

    @cached_property
    def title_sources(self) -> dict[str, set[str]]:
        """Each section title's key (parenthesised parts left out) → the files whose sections
        bear it."""
        out: dict[str, set[str]] = {}
        for q in self.parts:
            out.setdefault(lemma_key(unparen(q.section.title)), set()).add(q.source.name)
        return out

    def new_id(self, base: str) -> str:
        """``base``, or ``base-2``, ``base-3`` … if it is taken."""
        return self.used_ids.take(base)

    def run(self) -> None:
        """Resolve the system's parts; the order matters, each pass reads the ones before."""
        self._ids()
        self._nodes()
        self._unit_types()
        self._name_keys()
        for p in self.parts:
            link_grants(self, p)
        for p in self.parts:
            link_mentions(self, p)
            add_facts(self, p)
        add_overrides(self)
        self._english_aliases()
        self._synonym_aliases()
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
                # a heading given a Russian name keeps the id of its own words: ids stay put
                name = slug(p.section.id_title or p.section.title)
                base = f"{p.parent_id}/{name}" if p.parent_id else f"{self.system}:{name}"
                p.id = self.new_id(base)
                if p.section.is_term:
                    self.terms.add(p.id)
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
                # readers see the book, never the file name (FORMATS: corpus.toml title)
                book = p.source.title or SYSTEM_TITLES.get(self.system, p.source.name)
                self.b.nodes[sid] = Node(id=sid, kind="source", system=self.system,
                                         title=book, source=p.source.name,
                                         span=(0, len(p.source.text)))
                self.used_ids.add(sid)
            src_id = sid

    def _category(self, p: Part) -> RuleCategory:
        if p.section.is_passage:
            return "passage"
        title_key = lemma_key(p.section.title)
        if re.search(r"\bфаза\b|\bэтап\b", title_key) and p.parent_id is None:
            return "phase"
        if "тест" in title_key.split():
            return "test"
        parent = self.b.nodes.get(p.parent_id or "")
        if parent is not None and "расстановка" in lemma_key(parent.title).split():
            return "deployment_rule"
        if parent is not None and "специальный правило" in lemma_key(parent.title) \
                and not re.search(r"\b(?:и|или)\s+специальный правило", lemma_key(parent.title)):
            # ("Общие и специальные правила" of a tournament holds its clauses, no special
            # rules of the game)
            return "special_rule"
        if _says_special_rule(p.text):
            return "special_rule"  # "модель с этим специальным правилом …": it says so itself
        if p.parent_id is None and self._special_rules_chapter(p.source.name):
            return "special_rule"  # a top section among top sections that are special rules
        return "section"

    def _special_rules_chapter(self, source: str) -> bool:
        """Whether most top sections of a file call themselves special rules: the file is a
        chapter of special rules (the WHFB pages of the special rules, A to Z)."""
        cache: dict[str, bool] | None = self.__dict__.get("_chapters")
        if cache is None:
            tops: dict[str, list[Part]] = defaultdict(list)
            for q in self.parts:
                if q.section.parent is None and not q.section.is_passage:
                    tops[q.source.name].append(q)
            cache = {name: 2 * sum(1 for q in qs if _says_special_rule(q.text)) >= len(qs)
                     for name, qs in tops.items()}
            self.__dict__["_chapters"] = cache
        return cache.get(source, False)

    def page(self, n: int) -> str:
        """The id of the node of page ``n``, made on first use."""
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
        # the ids among them, for a question asked of each mention (a list of the values
        # read through for each would cost the number of types a mention); from here on
        # types are only added (:meth:`type_node`), each added to it too
        self.type_id_set: set[str] = set(self.type_ids.values())
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
            self.type_id_set.add(nid)
            for part_name in self.vocab.combined[vname]:
                target = self.type_node(part_name, evidence, None)
                if target:
                    self.b.edge(nid, target, "inherits", evidence=evidence)
            return nid
        return self.concept(vname, category="unit_type")

    def named_rule(self, nid: str) -> str:
        """The node of a name key: ``@rule:…`` (a rule the vocabulary knows, the corpus does not
        define) becomes its concept; any other id is returned as it is."""
        if nid.startswith("@rule:"):
            return self.concept(nid.removeprefix("@rule:"))
        return nid

    def concept(self, name: str, category: str | None = None) -> str:
        """The ``concept`` node (``defined: false``) of a name the corpus does not define."""
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
        named: dict[str, list[Part]] = defaultdict(list)  # the sections bearing each name
        own_named: dict[tuple[str, str], list[Part]] = defaultdict(list)  # … in each file
        for p in self.parts:
            named[lemma_key(p.section.title)].append(p)
            own_named[lemma_key(p.section.title), p.source.name].append(p)
        generic = {lemma_key(self.vocab.special_rules_heading)}
        for p in self.parts:
            sec = p.section
            key = lemma_key(sec.title)
            if key in generic or sec.is_passage or (
                    len(key.split()) <= 2 and is_group_title(sec.title)):
                continue  # a passage's first words are no name at all; "Типы подразделений"
                # names a chapter, not a rule
            if len(named[key]) > 1 and not _printed_again(named[key], p):
                # "Стрельба" under five types is no name of one rule; a rule each of two
                # files defines ("Рывок" of a game's core rules and of its lite rules) is the
                # name of its own file's section in that file
                own = own_named[key, p.source.name]
                if own[0] is p and (len(own) == 1 or _printed_again(own, p)):
                    for name in (sec.title, *sec.aliases, unparen(sec.title)):
                        self._add_key(name, p.id, self.local_keys[p.source.name])
                        self.shared[tuple(lemma_key(name).split())].setdefault(p.id)
                continue
            if sec.parent is not None and self.b.nodes[p.parent_id or ""].kind == "unit_type" \
                    and not sec.is_unit_type:
                # a type's own subsections are named by its other subsections only
                # (resolve_usage.sibling), never from elsewhere
                for name in (sec.title, *sec.aliases, unparen(sec.title)):
                    self._add_key(name, p.id)
                continue
            for name in (sec.title, *sec.aliases, unparen(sec.title)):
                self._add_key(name, p.id)
        for name, nid in self.type_ids.items():
            self._add_key(name, nid)
        for vname in self.vocab.unit_types:
            if vname not in self.type_ids:
                self._add_key(vname, f"@type:{vname}")
        for name in self.vocab.rules:  # named only: a concept, made where it is mentioned
            self._add_key(name, f"@rule:{name}")
        for name, others in self.vocab.synonyms.items():
            same = self.resolve_name(name)
            for other in others if same else ():
                self._add_key(other, same or "")

    def _add_key(self, name: str, nid: str,
                 keys: dict[tuple[str, ...], str] | None = None) -> None:
        keys = self.keys if keys is None else keys
        key = tuple(lemma_key(name).split())
        if key and key not in keys:
            keys[key] = nid

    def resolve_name(self, name: str, source: str | None = None,
                     asker: str | None = None) -> str | None:
        """The node ``name`` resolves to in any inflected form (``@type:…`` for a type the
        text only names), or None; in the file ``source``, its own section of a name other
        files define too (:attr:`local_keys`) first, and in that section itself (``asker``)
        the one other file's (:meth:`other_bearer`)."""
        key = tuple(lemma_key(name).split())
        bare = tuple(lemma_key(unparen(name)).split())
        local = self.local_keys.get(source or "", {})
        own = local.get(key) or local.get(bare)
        if own is not None and own == asker:
            own = self.other_bearer(key, asker) or self.other_bearer(bare, asker)
        return own or self.keys.get(key) or self.keys.get(bare)

    def other_bearer(self, key: tuple[str, ...], asker: str) -> str | None:
        """The one section besides ``asker`` bearing a name several files define (a FAQ's
        "Паника" naming «паника» names the book's rule), or None when there are more."""
        bearers = self.shared.get(key, {})
        if len(bearers) - (asker in bearers) != 1:
            return None
        return next(nid for nid in bearers if nid != asker)

    # -- other names ---------------------------------------------------------------------
    def _english_aliases(self) -> None:
        """Give the node a Russian name resolves to its English names (data/aliases.toml).

        A name that resolves to no node of the corpus adds nothing: no node is made for it.
        """
        for english, russian in sorted(english_names(self.system).items()):
            self._add_aliases(russian, (english,), by_title=True)

    def _synonym_aliases(self) -> None:
        """Give a node the other names the books give its rule (the vocabulary's synonyms:
        "Инициативный этап" of "Инициативная фаза", "Тест на разгром" of "Разгром"), so that a
        search or a list names it by any of them; a rule no text mentioned has no node."""
        for name, others in self.vocab.synonyms.items():
            self._add_aliases(name, others)

    def _add_aliases(self, name: str, aliases: tuple[str, ...], by_title: bool = False) -> None:
        """Add ``aliases`` the node ``name`` resolves to does not bear yet (a type or rule the
        text only names: the concept made for it, if any; ``by_title``: else the one node so
        titled)."""
        nid = self.resolve_name(name)
        if nid is not None and nid.startswith("@type:"):
            # a type the text only names: its node, or the concept made for it, if any
            vname = nid.removeprefix("@type:")
            nid = self.type_ids.get(vname) or self.concepts.get(lemma_key(vname))
        elif nid is not None and nid.startswith("@rule:"):
            nid = self.concepts.get(lemma_key(nid.removeprefix("@rule:")))
        if nid is None and by_title:
            nid = self._only_title(name)
        node = self.b.nodes.get(nid or "")
        if node is None or node.system != self.system:
            return
        known = {lemma_key(n) for n in (node.title, *node.aliases)}
        added = tuple(a for a in aliases if lemma_key(a) not in known)
        if added:
            self.b.nodes[node.id] = node.model_copy(update={"aliases": (*node.aliases, *added)})

    def _only_title(self, name: str) -> str | None:
        """The one rule, unit type or concept of the system titled ``name``, if just one."""
        titles: dict[str, list[str]] | None = self.__dict__.get("_titles")
        if titles is None:  # built once: a look-up per name must not walk every node
            titles = defaultdict(list)
            for n in self.b.nodes.values():
                if n.system == self.system and n.kind in ("rule", "unit_type", "concept"):
                    titles[lemma_key(unparen(n.title))].append(n.id)
            self.__dict__["_titles"] = titles
        found = titles.get(lemma_key(unparen(name)), [])
        return found[0] if len(found) == 1 else None

    def _finish_nodes(self) -> None:
        for nid, facts in self.b.facts.items():
            node = self.b.nodes[nid]
            self.b.nodes[nid] = node.model_copy(update={"facts": tuple(facts)})


def _printed_again(namesakes: list[Part], p: Part) -> bool:
    """Whether ``p`` is the first of sections that share a name, all top-level in one file: a
    list of rules that prints a rule again (where another rule relies on it) names one rule,
    the first."""
    return p is namesakes[0] and all(
        q.source.name == p.source.name and q.section.parent is None for q in namesakes)
