"""Resolve what a section mentions into edges: grants, citations, limits, inheritance, references.

:func:`link_mentions` runs once per part of a system (:class:`~ingest.resolve.SystemResolver`),
after every node and name of the system is known; a name it cannot resolve becomes a concept
(:meth:`~ingest.resolve.SystemResolver.concept`), never a link to a wrong rule.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from itertools import islice
from typing import TYPE_CHECKING

from ingest import extract as ex
from ingest.game_names import names_a_game
from ingest.models import Span
from ingest.name_cues import capitalize
from ingest.resolve_usage import common_term, sibling, tokens_of
from ingest.sections import ERRATA_ENTRY, is_group_title, unparen
from kb.lemmas import WORD_RE, is_known, lemma_key, morph

if TYPE_CHECKING:
    from ingest.resolve import Part, SystemResolver


def link_grants(r: SystemResolver, p: Part) -> None:
    """The special rules a part gives its unit type (its special rules list, grant cues).

    Runs for every part of a system before :func:`link_mentions`, so a rule that a type grants
    further on is a known name already where an earlier section mentions it in passing.
    """
    own_type = r.type_of.get(p.id) or None
    if not own_type:
        return
    text = p.text
    grants: list[ex.Mention] = []
    sr = lemma_key(r.vocab.special_rules_heading)
    if lemma_key(p.section.title) == sr:
        grants.extend(ex.special_rules_list(text))
    grants.extend(ex.grant_cues(text))
    for g in grants:
        target = r.resolve_name(g.name, p.source.name)
        if target is None or target.startswith("@"):
            target = r.concept(g.name, category="special_rule")
        r.b.edge(own_type, target, "grants", evidence=f"{p.section.title}: {g.sentence}",
                 span=p.to_source(g.span), raw=g.raw)


def link_mentions(r: SystemResolver, p: Part) -> None:
    """Turn what a part's text mentions into edges of the graph.

    Page citations, limits, inheritance, and named references: cue names first (they may
    create concepts), then every name the system knows. Nothing links a part to itself, its
    ancestors or its descendants.
    """
    text = p.text
    own_type = r.type_of.get(p.id) or None
    related = _related(r, p.id)
    family: set[str] | None = None  # (found when a namesake in another file is first named)

    def of_family(target: str) -> bool:
        """Whether ``target`` bears the title of one of the part's own family: a namesake in
        another file ("Кавалерия" of the corpus, named on a page about cavalry) is the family
        named, not a reference."""
        nonlocal family
        if family is None:
            family = {lemma_key(unparen(r.b.nodes[x].title)) for x in related if x in r.b.nodes}
        return lemma_key(unparen(r.b.nodes[target].title)) in family

    def sp(local: Span) -> Span:
        return p.to_source(local)

    # page citations; an errata's entry cites the page it amends in its heading ("Стр.58 –
    # Курт Хельборг, специальные правила")
    entry = ERRATA_ENTRY.match(" ".join(p.section.heading.split()))
    if entry is not None:
        r.b.edge(p.id, r.page(int(entry.group("page"))), "cites_page",
                 evidence=" ".join(p.section.heading.split()),
                 span=p.cleaned.to_source_span(*p.section.heading_span),
                 raw=entry.group(0)[:entry.end("page")].strip())
    for m in ex.page_citations(text):
        r.b.edge(p.id, r.page(int(m.name)), "cites_page", evidence=m.sentence,
                 span=sp(m.span), raw=m.raw)
    # limits and inheritance
    for m in ex.limits(text):
        target = r.type_node(m.name, m.sentence, sp(m.span))
        if target:
            r.b.edge(p.id, target, m.kind, evidence=m.sentence, span=sp(m.span),
                     raw=m.raw)
    if own_type:
        for m in ex.inherit_cues(text):
            target = r.type_node(m.name, m.sentence, sp(m.span))
            subject = _subject_type(r, text, m) or own_type
            if target and target != subject:
                r.b.edge(subject, target, "inherits", evidence=m.sentence,
                         span=sp(m.span), raw=m.raw)
    if _CONTENTS_TITLE.fullmatch(" ".join(unparen(p.section.title).split())):
        return  # a table of contents lists the book's rules: it refers to none of them
    # named references: cue names first (they may create concepts), then all known names
    for m in [*ex.cue_names(text), *_links(p)]:
        target = r.resolve_name(m.name, p.source.name, p.id) \
            or r.resolve_name(m.raw, p.source.name, p.id)
        target = r.named_rule(target) if target else None
        if target is None and _prefix_of_name(r, m.raw):
            continue  # "правило Ядовитых атак": the name goes on; name matching finds it
        if target is None and m.kind == "cue_lower":
            continue  # an unquoted lower-case name is taken only when it is a known name
        if target is None or target.startswith("@"):
            target = r.type_node(m.name, m.sentence, None) or r.concept(m.name)
        # "с правилом Большая Цель": named as a rule, even the section's own parent
        if target != p.id and not _namesake(r, p, target):
            r.b.edge(p.id, target, "references", evidence=m.sentence, span=sp(m.span),
                     raw=m.raw)
    _title_references(r, p, own_type)
    tokens = tokens_of(r, p)
    for m in ex.name_mentions(tokens, r.keys, text, own=r.local_keys.get(p.source.name)):
        if m.name == p.id:
            # the section's own name, which other files define too: their rule is named
            mine = r.other_bearer(tuple(t[0] for t in ex.lemma_tokens(m.raw)), p.id)
            m = m if mine is None else replace(m, name=mine)
        targets = [m.name]
        if m.name.startswith("@type:"):
            vname = m.name.removeprefix("@type:")
            if vname in r.vocab.combined:
                r.type_node(vname, m.sentence, sp(m.span))
                targets = [f"@type:{x}" for x in r.vocab.combined[vname]]
        for target in targets:
            target = _reference_target(r, p, m, target)
            if target is None or target == own_type or _shortened_own_type(r, own_type, target):
                continue
            if target not in related and target in r.b.nodes \
                    and r.b.nodes[target].source != p.source.name \
                    and of_family(target):
                continue
            if target in related and not (_latin(m.raw) or _after_rule_word(text, m.span[0])
                                          or (target in r.b.nodes
                                              and _is_action(r.b.nodes[target].title))):
                continue  # a parent or child named in passing; in Latin letters, after
                # "правилом" ("со специальным правилом – Точные выстрелы") or as the verb
                # of an action ("не может реагировать"), it is named
            if target in related and target == p.id or _namesake(r, p, target):
                continue
            r.b.edge(p.id, r.named_rule(target), "references", evidence=m.sentence,
                     span=sp(m.span), raw=m.raw)


def _links(p: Part) -> list[ex.Mention]:
    """A web page's links in the part's text (:attr:`ingest.sections.Section.links`), as names
    taken only when the system knows them (an unquoted lower-case name's way): "вызывает
    <a href="#fear">страх</a>" names «Страх», a link to the site's start page nothing."""
    out = []
    for start, end in p.section.links:
        local = p.local_at(start)
        if local is None:
            continue
        raw = " ".join(p.text[local:local + end - start].split())
        if raw:
            out.append(ex.Mention("cue_lower", raw, capitalize(raw),
                                  (local, local + end - start), ex.sentence_of(p.text, local)))
    return out


def _namesake(r: SystemResolver, p: Part, target: str) -> bool:
    """Whether ``target`` is the section ``p`` itself under another node: a copy of it in the
    same file, or the concept of its own name, bearing its name. A rule printed again names
    itself in its text ("Мрачная решимость" / "… со специальным правилом «мрачная решимость»
    …"), which refers to no other rule; a page's section named as a rule of the book ("Паника"
    of a FAQ) still refers to the book's rule."""
    node = r.b.nodes.get(target)
    key = lemma_key(unparen(p.section.title))
    if node is None or node.id == p.id or lemma_key(unparen(node.title)) != key:
        return False
    if node.source is None:  # the concept of its name: only its own file's sections bear it
        return r.title_sources.get(key, set()) <= {p.source.name}
    return node.source == p.source.name


def _reference_target(r: SystemResolver, p: Part, m: ex.Mention, target: str) -> str | None:
    """What a name found in running text refers to, or None when the words are ordinary words
    that merely equal a name.

    A plain section ("Перемещение", "Вражеские модели") is referred to only by words written
    as a name (:func:`~ingest.extract.written_as_name`); a rule the corpus only names, by
    several words or words written as a name ("опасного ландшафта", "тест на Разгром", not
    "при отступлении"); a unit type the corpus only names, never in passing ("на технику",
    "монстры"): limits and cues name those, and so does a section's title ("Ядовитые атаки и
    боевые машины" is about war machines). Rules of a kind (special, deployment, tests,
    phases) and described unit types are terms wherever they stand.
    """
    if target.startswith("@type:"):
        # the type's node, or the concept of a type the corpus only names (made even so: the
        # KB knows the type exists, which checks of lists and games need)
        found = r.type_node(target.removeprefix("@type:"), m.sentence, None)
        if found is None:
            return None
        target = found
    if target.startswith("@rule:"):
        kind, category = "concept", None
    else:
        node = r.b.nodes[target]
        kind, category = node.kind, node.category
        if names_a_game(node.title):
            return None  # "Kill Team" of a page on the game: the game named, not a rule
    if kind == "concept" and category == "unit_type":
        return target if _names_in_title(r, p, target) else None
    single = len(WORD_RE.findall(m.raw)) == 1
    text = p.text
    if kind == "rule" and category == "section" and _is_action(r.b.nodes[target].title):
        return target  # "Реагировать": a rule named by its action is named by the verb
    if kind == "rule" and category == "section" and _coined(r.b.nodes[target].title):
        return target  # «Чардж»: a word of the game no dictionary knows is a term anywhere
    if kind == "rule" and category == "section" and target in r.terms \
            and r.b.nodes[target].source == p.source.name and not common_term(r, target):
        return target  # a glossary's term, which its own file writes in lower case ("токен
        # приказа" of «Приказы», "в пределах радиуса контроля")
    if kind == "rule" and category == "section" and sibling(r, p, target) and (
            not single or r.type_of.get(target)):
        # a rule of the same chapter named in full ("Выберите цель(и)"); in a unit type's
        # chapter its rules name each other by one word too ("планирование или пикирование")
        return target
    if kind == "unit_type" and single:
        # a described unit type named by one word is named where it is written as a name
        # ("моделей типа Пехота") or where the section's title opens with it ("Пехота в бою
        # против больших целей", not "Подразделения лёгкой пехоты и нападение", as a title
        # refers to a rule by its head: :func:`_title_references`); "пехота получает" of any
        # other sentence is the word
        if _tail_of_longer_name(text, m.span[0]):
            return None  # "подразделение Лёгкой Пехоты": a type of its own, not «Пехота»
        return target if ex.written_as_name(text, m.span) or _heads_title(r, p, target) \
            or _like_rules_of(text, m.span[0]) else None
    if (kind == "rule" and category == "section") or (kind == "concept" and single
                                                      and category != "special_rule"):
        return target if ex.written_as_name(text, m.span) else None
    return target


# the title of a table of contents
_CONTENTS_TITLE = re.compile(r"(?i:содержание|оглавление|contents|table of contents)")

# words that send the reader to a unit type's rules ("нападение аналогично мотоциклам", "ходят
# как пехота", "по правилам для кавалерии"): the type named after them is its rules named
_LIKE_RULES_OF = re.compile(
    r"(?:аналогично|подобно|так\s+же,?\s+как(?:\s+и)?|как\s+и|как|по\s+правилам(?:\s+для)?"
    r"|правила(?:м|х)?\s+для)\s+$", re.IGNORECASE)


# (not an example of a kind: "такие отряды, как пехота и кавалерия")
_SUCH_AS = re.compile(r"так(?:ие|их|им|ими|ой|ая|ое)\b[^.;:!?]{0,30}?,?\s+как\s+$", re.IGNORECASE)


def _like_rules_of(text: str, at: int) -> bool:
    """Whether the words right before ``at`` send the reader to a unit type's rules
    (:data:`_LIKE_RULES_OF`), not to an example of a kind (:data:`_SUCH_AS`)."""
    start = max(0, at - 60)
    return _LIKE_RULES_OF.search(text, start, at) is not None \
        and _SUCH_AS.search(text, start, at) is None


@lru_cache(maxsize=4_096)
def _coined(title: str) -> bool:
    """A title that is one word no dictionary knows: a coined term of the game (a loanword of
    the players, «Чардж»), which is never an ordinary word of a sentence."""
    ws = title.split()
    return len(ws) == 1 and ws[0].isalpha() and re.search("[А-Яа-яЁё]", ws[0]) is not None \
        and not is_known(ws[0])


@lru_cache(maxsize=4_096)
def _is_action(title: str) -> bool:
    """A title that is one verb in the infinitive ("Реагировать"): the rule of an action."""
    ws = title.split()
    return len(ws) == 1 and any(p.tag.POS == "INFN" for p in morph().parse(ws[0].lower())[:1])


# "со специальным правилом – Точные выстрелы", "правило «Ярость»": the word "правило" right
# before a name, a dash or an opening quote between them
_RULE_WORD_BEFORE = re.compile(r"\bправил\w*\s*[–—-]?\s*[«\"]?$", re.IGNORECASE)


def _after_rule_word(text: str, at: int) -> bool:
    return _RULE_WORD_BEFORE.search(text, max(0, at - 30), at) is not None


def _latin(raw: str) -> bool:
    return bool(re.search(r"[A-Za-z]", raw))


def _title_references(r: SystemResolver, p: Part, own_type: str | None) -> None:
    """A title that holds the name of another rule refers to it: "Героический смертельный
    удар" to «Смертельный удар» (the rule it changes), "Пехота в бою против больших целей" to
    «Большая цель», "Ядовитые атаки и боевые машины" to «Ядовитые атаки». A group's title
    ("Тесты на панику") is a part of its rule, not a reference to it."""
    title = p.section.title
    if is_group_title(title) or not re.search(r"[А-Яа-яЁё]", title):
        return  # an English title's words match English names too loosely
    ancestors = _ancestors(r, p)
    tokens = ex.lemma_tokens(title)
    found: list[tuple[int, int, str]] = []  # (start, end) in tokens, node id
    own = r.local_keys.get(p.source.name, {})
    for start in range(len(tokens)):
        for end in range(len(tokens), start, -1):
            if end - start == len(tokens):
                continue  # the whole title names the section itself
            key = tuple(t[0] for t in tokens[start:end])
            target = own.get(key) or r.keys.get(key)
            node = r.b.nodes.get(target or "")
            if end - start == 1 and start and node is not None and not _coined(node.title):
                continue  # one common word after the title's head ("Генерал нежити",
                # "Подразделения лёгкой пехоты и нападение") names what the section is about,
                # not a rule it changes (as the head does: "Перемещение на террейне")
            if node is not None and node.kind == "rule" and target not in (p.id, own_type) \
                    and not names_a_game(node.title) \
                    and (not r.type_of.get(node.id) or sibling(r, p, node.id)) \
                    and not (node.id in ancestors and _plural(node.title)):
                found.append((start, end, node.id))
                break
    for start, end, target in found:
        if any(s <= start and end <= e and (s, e) != (start, end) for s, e, _ in found):
            continue  # a shorter name inside a longer one
        raw = title[tokens[start][1]:tokens[end - 1][2]]
        r.b.edge(p.id, target, "references", evidence=title, span=p.cleaned.to_source_span(
            *p.section.heading_span), raw=raw)


def _ancestors(r: SystemResolver, p: Part) -> set[str]:
    out: set[str] = set()
    node = r.b.nodes.get(p.parent_id or "")
    while node is not None and node.id not in out:
        out.add(node.id)
        node = r.b.nodes.get(node.parent or "")
    return out


@lru_cache(maxsize=4_096)
def _plural(title: str) -> bool:
    """Whether a title's first noun is plural: a category ("Талисманы", "Модификаторы"), whose
    items' titles name it ("Талисман прочности") as what they are, not as a rule they change
    ("Героический смертельный удар" under «Смертельный удар» changes it)."""
    for w in title.split():
        parses = morph().parse(w.lower())
        if parses and parses[0].tag.POS == "NOUN":
            # a title's noun is in the nominative: "Карты" is "карта"'s plural, although its
            # likeliest parse out of context is the genitive singular
            return any(q.tag.POS == "NOUN" and {"plur", "nomn"} <= q.tag.grammemes
                       for q in parses)
    return False


def _names_in_title(r: SystemResolver, p: Part, nid: str) -> bool:
    """Whether the part's title holds the node's name (in any form)."""
    name = lemma_key(unparen(r.b.nodes[nid].title)).split()
    title = lemma_key(p.section.title).split()
    return any(title[i: i + len(name)] == name for i in range(len(title)))


_WORD_BEFORE = re.compile(r"(?:^|(?<=[^\w.!?]))(\w[\w-]*) $")
_LOOK_BEFORE = 10


def _tail_of_longer_name(text: str, at: int) -> bool:
    """Whether the word at ``at`` ends a longer name written capitalised inside a sentence: a
    capitalised adjective right before it ("Лёгкой Пехоты", "Тяжёлой Кавалерии")."""
    m = _WORD_BEFORE.search(text, max(0, at - 40), at)
    if m is None or not m.group(1)[0].isupper():
        return False
    # the characters right before that word (a few: a mention costs the same wherever it
    # stands in a long section)
    before = text[max(0, m.start(1) - _LOOK_BEFORE):m.start(1)].rstrip(" \t\xa0")
    if not before or before[-1] in ".!?:\n":
        return False  # a sentence's first word is capitalised whatever it is
    return any(q.tag.POS in ("ADJF", "PRTF") for q in morph().parse(m.group(1).lower())[:1])


def _heads_title(r: SystemResolver, p: Part, nid: str) -> bool:
    """Whether the part's title opens with the node's name (in any form)."""
    name = lemma_key(unparen(r.b.nodes[nid].title)).split()
    return lemma_key(p.section.title).split()[:len(name)] == name


def _shortened_own_type(r: SystemResolver, own_type: str | None, target: str) -> bool:
    """"Пехота может …" in a section of "Пехота Чудовищ": the first words of the own type's
    name stand for it, not for the type they also name."""
    if not own_type or target not in r.type_id_set:
        return False
    own = lemma_key(r.b.nodes[own_type].title).split()
    other = lemma_key(r.b.nodes[target].title).split()
    return len(other) < len(own) and own[: len(other)] == other


def _prefix_of_name(r: SystemResolver, raw: str) -> bool:
    """Whether ``raw`` is the start of a longer known name ("правило Ядовитых" of «Ядовитые
    атаки»)."""
    key = tuple(lemma_key(raw).split())
    return bool(key) and key in _name_starts(r)


def _name_starts(r: SystemResolver) -> set[tuple[str, ...]]:
    """The starts of the known names shorter than the names, brought up to date as names are
    added (only added, the new ones last: each is read once; every name read again for each
    question cost the square of their number)."""
    seen: int
    starts: set[tuple[str, ...]]
    seen, starts = r.__dict__.get("_name_starts", (0, set()))
    if seen > len(r.keys):
        seen, starts = 0, set()
    if seen < len(r.keys):
        for k in islice(reversed(r.keys), len(r.keys) - seen):
            starts.update(k[:j] for j in range(1, len(k)))
        r.__dict__["_name_starts"] = (len(r.keys), starts)
    return starts


def _subject_type(r: SystemResolver, text: str, m: ex.Mention) -> str | None:
    """The type a sentence speaks of before its cue ("Прыжковая пехота … будет следовать
    правилам …"), when it names one; else None (the section's own type)."""
    start = text.rfind(m.sentence[:20], 0, m.span[0] + 1)
    prefix = text[start if start != -1 else 0: m.span[0]]
    for found in ex.name_mentions(ex.lemma_tokens(prefix), r.keys, prefix):
        if found.name.startswith("@type:"):
            return r.type_node(found.name.removeprefix("@type:"), m.sentence, None)
        if r.b.nodes.get(found.name) and r.b.nodes[found.name].kind == "unit_type":
            return found.name
    return None


def _related(r: SystemResolver, nid: str) -> set[str]:
    out = {nid}
    node = r.b.nodes[nid]
    parent = node.parent
    while parent:
        out.add(parent)
        parent = r.b.nodes[parent].parent
    stack = [nid]
    while stack:
        for child in r.children.get(stack.pop(), []):
            if child not in out:
                out.add(child)
                stack.append(child)
    # "Мотоциклы и гравициклы" is two types, each one of the section's own
    for whole, names in r.vocab.split.items():
        if r.type_ids.get(whole) in out:
            out.update(r.type_ids[n] for n in names if n in r.type_ids)
    return out
