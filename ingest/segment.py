"""Segment a cleaned text into sections with their hierarchy, pages and flavour text.

Two layouts occur in the rule texts:

* **web pages** (WHFB, Kill Team): a heading stands on its own line; "Страница N" footers
  close a page; line-wrapped paragraphs continue on lines that start in lower case;
* **a flattened two-column PDF** (the 40k rulebook): the whole chapter is one long line,
  headings are inline runs of capitals, a unit type's title may come *after* its rules, several
  titles may stand together, and picture captions and flavour quotes are mixed in.

Both give the same result: :class:`Section` objects with spans into the *cleaned* text (the
build stage maps them back to the source), a parent, a title in normal case, and the pages the
footers put them on. Captions and quotes become :class:`Flavour` items, never sections.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from ingest.vocabulary import GROUP_HEADS, Vocabulary, vocabulary
from kb.lemmas import lemma, lemma_key, lemma_words, morph, pos, words

Span = tuple[int, int]


@dataclass
class Section:
    """One section of a text: its heading, its own body and where it hangs."""

    title: str
    heading: str
    heading_span: Span
    body_span: Span
    parent: int | None = None
    is_unit_type: bool = False
    aliases: list[str] = field(default_factory=list)
    pages: tuple[int, ...] = ()
    # spans (cleaned text) of extra body text that belongs to this section elsewhere
    extra_spans: list[Span] = field(default_factory=list)
    # spans (cleaned text) inside the body that are flavour, not rules
    flavour_spans: list[Span] = field(default_factory=list)

    @property
    def span(self) -> Span:
        return (self.heading_span[0], self.body_span[1])

    def __repr__(self) -> str:
        return f"Section({self.title!r}, parent={self.parent})"


@dataclass(frozen=True)
class Flavour:
    """A picture caption or a flavour quote: neither a heading nor a rule."""

    kind: str  # "caption" | "quote"
    span: Span
    text: str


@dataclass
class Segmentation:
    """What :func:`segment` finds in one text."""

    sections: list[Section]
    flavour: list[Flavour]
    layout: str  # "lines" | "flat"


class PageMarkLike(Protocol):
    """The parts of a page footer the segmenter reads (``ingest.models.PageMark``)."""

    @property
    def first(self) -> int: ...

    @property
    def last(self) -> int: ...

    @property
    def at(self) -> int: ...


def segment(
    text: str,
    system: str | None,
    pages: Sequence[PageMarkLike] | None = None,
    gaps: dict[int, int] | None = None,
) -> Segmentation:
    """Split ``text`` (cleaned) into sections.

    Args:
        text: the cleaned text.
        system: the game system (chooses the unit type vocabulary).
        pages: page footers found by cleaning; each closes the page before it.
        gaps: for a heading starting at a cleaned offset, how many blank lines stood before
            it in the source (larger gaps separate larger sections in the WHFB pages).
    """
    vocab = vocabulary(system)
    lines = text.split("\n")
    # the flattened PDF: long lines with headings inside them
    flat = sum(len(line) for line in lines if len(line) > 300 and len(_caps_runs(line)) >= 2)
    if flat > len(text) / 2:
        result = _segment_flat(text, vocab)
    else:
        result = _segment_lines(text, vocab, system, gaps or {}, [p.at for p in pages or []])
    _assign_pages(result.sections, pages or [])
    return result


# ---------------------------------------------------------------------------------------
# titles


_LATIN_PAREN = re.compile(r"^([A-Za-z][A-Za-z' ]*[A-Za-z])\s*\(([^A-Za-z]+)\)\s*$")


def normal_case(heading: str) -> str:
    """A heading in normal case: "СТРЕЛЬБА ПО АРТИЛЛЕРИИ" → "Стрельба по артиллерии".

    Headings already in mixed case keep their capitals; a trailing period goes.
    """
    title = " ".join(heading.split()).rstrip(".").strip()
    title = title.replace("( ", "(").replace(" )", ")")
    letters = [c for c in title if c.isalpha() and _is_cyrillic(c)]
    if letters and all(c.isupper() for c in letters):
        low = title.lower()
        title = low[:1].upper() + low[1:]
    return title


def _is_cyrillic(ch: str) -> bool:
    return "\u0400" <= ch <= "\u04ff"


def english_lemma(word: str) -> str:
    """A rough dictionary form of an English heading word ("ADVANCING" → "Advance")."""
    w = word.lower()
    if w.endswith("ing") and len(w) > 5:
        w = w[:-3]
        if w.endswith("y"):
            pass
        elif re.search(r"[^aeiou][cgvzs]$|[aeiou]c$|nc$", w) or w.endswith("at"):
            w += "e"
        elif re.search(r"([^aeiou])\1$", w):
            w = w[:-1]
    return w.capitalize()


def title_and_aliases(heading: str) -> tuple[str, list[str]]:
    """The title and aliases a heading gives ("ADVANCING (продвижение)" → Продвижение, Advance)."""
    h = " ".join(heading.split()).rstrip(".").strip()
    m = _LATIN_PAREN.match(h)
    if m:
        english, russian = m.group(1), m.group(2)
        names = [n.strip() for n in russian.split(",") if n.strip()]
        title = names[0][:1].upper() + names[0][1:].lower() if names else english.title()
        aliases = [n[:1].upper() + n[1:].lower() for n in names[1:]]
        aliases.append(english.title())
        lem = " ".join(english_lemma(w) for w in english.split())
        if lem != english.title():
            aliases.append(lem)
        return title, _dedupe(aliases, title)
    m2 = re.match(r"^(.+?)\s*\(([A-Za-z][A-Za-z ]+)\)\s*$", h)
    if m2 and not _is_latin(m2.group(1)):
        return normal_case(m2.group(1)), [m2.group(2).title()]
    if _is_latin(h) and not h.isupper():
        m3 = re.match(r"^([A-Za-z ]+?)\s*\((.+)\)$", h)
        if m3:
            ru = m3.group(2).strip()
            return ru[:1].upper() + ru[1:], [m3.group(1).strip()]
    if _is_latin(h) and h.isupper() and len(h) > 3:
        lem = " ".join(english_lemma(w) for w in h.split())
        return h.title() if " " in h or h.endswith("ING") else h, _dedupe([lem], h.title())
    return normal_case(h), []


def _is_latin(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and all(c.isascii() for c in letters)


def _dedupe(items: list[str], title: str) -> list[str]:
    seen = {title.lower()}
    out = []
    for item in items:
        if item.lower() not in seen:
            seen.add(item.lower())
            out.append(item)
    return out


# ---------------------------------------------------------------------------------------
# web pages: headings on their own lines

_SENTENCE_END = (".", ":", ";", ",", "?", "…")
_LIST_ITEM = re.compile(r"^\s*(\d+[.)]|[-•–—])\s")


def is_heading_line(line: str, next_line: str | None) -> bool:
    """Whether a line of a web page is a heading.

    A heading is short, starts with a capital (or a digit or "+"), is not followed by a
    continuation line (one starting in lower case), and, when it ends like a sentence, holds
    no finite verb ("Ядовитые атаки и Боевые Машины." is a heading, "Именно подобные ситуации
    отображает правило Паники." is not).
    """
    s = line.strip()
    if not s or len(s) > 80 or _LIST_ITEM.match(s):
        return False
    if not (s[0].isupper() or s[0].isdigit() or s[0] == "+"):
        return False
    if re.search(r"\s[-–—]\s?это\s", s):
        return False
    nxt = (next_line or "").strip()
    if nxt and (nxt[0].islower() or nxt[0] in "-–—,;)"):
        return False
    toks = words(s)
    if not toks or len(toks) > 9:
        return False
    if s.endswith((":", ";", ",", "?")):
        return False
    if s.endswith((".", "!")) or len(toks) > 6:
        return not _has_finite_verb(s)
    return True


def _has_finite_verb(text: str) -> bool:
    return any(_is_cyrillic(w[0]) and pos(w) == "VERB" for w in words(text))


def _segment_lines(
    text: str, vocab: Vocabulary, system: str | None, gaps: dict[int, int],
    page_ends: list[int],
) -> Segmentation:
    lines = text.split("\n")
    offsets = []
    pos = 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1

    # candidate heading lines (skipping blank lines when looking at the next one)
    nonblank = [i for i, line in enumerate(lines) if line.strip()]
    nxt: dict[int, int | None] = {}
    for k, i in enumerate(nonblank):
        nxt[i] = nonblank[k + 1] if k + 1 < len(nonblank) else None
    def following(i: int) -> str | None:
        j = nxt[i]
        return lines[j] if j is not None else None

    cand = [i for i in nonblank if is_heading_line(lines[i], following(i))]
    # a run of three or more heading-like lines with no text between is a list, not headings:
    # the first is its heading, the last a heading if text follows it, the rest list items
    cset = set(cand)
    heads: list[int] = []
    k = 0
    while k < len(cand):
        run = [cand[k]]
        while k + 1 < len(cand) and nxt[run[-1]] == cand[k + 1]:
            k += 1
            run.append(cand[k])
        if len(run) >= 3:
            heads.append(run[0])
            last = run[-1]
            if nxt[last] is not None and nxt[last] not in cset:
                heads.append(last)
        else:
            heads.extend(run)
        k += 1

    sections: list[Section] = []
    for n, i in enumerate(heads):
        start = offsets[i] + (len(lines[i]) - len(lines[i].lstrip()))
        end = offsets[i] + len(lines[i].rstrip())
        body_start = end
        body_end = offsets[heads[n + 1]] if n + 1 < len(heads) else len(text)
        while body_end > body_start and text[body_end - 1].isspace():
            body_end -= 1
        heading = text[start:end]
        title, aliases = title_and_aliases(heading)
        sections.append(Section(title, heading, (start, end), (body_start, body_end),
                                aliases=aliases))
    _nest_lines(sections, text, vocab, system, gaps, page_ends)
    return Segmentation(sections, [], "lines")


def _title_key(title: str) -> str:
    return lemma_key(re.sub(r"\(.*?\)", " ", title))


@lru_cache(maxsize=10_000)
def _is_group(title: str) -> bool:
    for w in words(title):
        p = morph().parse(w.lower())[0]
        if p.normal_form in GROUP_HEADS and p.tag.number == "plur" and p.tag.POS == "NOUN":
            return True
    return False


def _is_phase(title: str) -> bool:
    toks = words(title)
    if not toks or pos(toks[0]) == "PREP":
        return False
    lem = set(lemma_words(title))
    return bool(lem & {"фаза", "этап"}) or "round" in lem


def _is_caps(heading: str) -> bool:
    toks = words(heading)
    return bool(toks) and toks[0].isupper() and len(toks[0]) > 1


def _nest_lines(
    sections: list[Section], text: str, vocab: Vocabulary, system: str | None,
    gaps: dict[int, int], page_ends: list[int] | None = None,
) -> None:
    """Give each web-page heading its parent.

    In order: a heading that contains an open section's title hangs under it ("Дави! Для
    Пехоты Чудовищ" under "Пехота Чудовищ"); a heading after a group heading ("Типы
    подразделений") is its member until a larger gap closes the group; in Kill Team, phases are
    the top and capitalised headings hang under the phase, mixed-case ones under those.
    """
    killteam = system == "killteam2018"
    open_group: int | None = None
    group_gap = 0
    phase: int | None = None
    caps: int | None = None
    last_top: int | None = None
    ends = sorted(page_ends or [])
    prev_start = -1

    def page_break(start: int) -> bool:
        return any(prev_start < at <= start for at in ends)

    for i, sec in enumerate(sections):
        gap = gaps.get(sec.heading_span[0], 1)
        key = _title_key(sec.title)
        parent: int | None = None
        # 1. contains the title of an open ancestor chain (innermost first)
        chain = _chain(sections, i - 1) if i else []
        is_type = bool(vocab.unit_type(sec.title))
        if page_break(sec.heading_span[0]) or sec.title.endswith("!"):
            open_group = None
        for j in chain:
            if is_type and vocab.unit_type(sections[j].title):
                continue
            pkey = _title_key(sections[j].title)
            if pkey and pkey != key and _contains(key, pkey):
                parent = j
                break
        if parent is None and open_group is not None:
            if gap > group_gap:
                open_group = None
            else:
                parent = open_group
        if parent is None and killteam:
            if _is_phase(sec.title):
                phase, caps = None, None
            elif _is_caps(sec.heading):
                parent = phase
            else:
                parent = caps if caps is not None else phase
        if parent is None and last_top is not None and not killteam:
            # the body's first sentence is about the previous top section ("В многостороннем
            # бою …" under "… многосторонний бой")
            first = _first_sentence(text, sec.body_span)
            ptitle = sections[last_top].title
            pw = lemma_words(ptitle)
            if len(pw) >= 2 and _contains(lemma_key(first), " ".join(pw[-2:])):
                parent = last_top
        sec.parent = parent
        if killteam:
            if _is_phase(sec.title):
                phase = i
            elif parent == phase and _is_caps(sec.heading):
                caps = i
        if _is_group(sec.title) and (open_group is None or parent == open_group):
            if parent is None or parent != open_group:
                open_group, group_gap = i, gap
        if parent is None:
            last_top = i
        sec.is_unit_type = is_type
        prev_start = sec.heading_span[0]


def _chain(sections: list[Section], j: int | None) -> list[int]:
    out = []
    while j is not None:
        out.append(j)
        j = sections[j].parent
    # every earlier top-level section of the same run can still be an ancestor
    return out


def _contains(key: str, part: str) -> bool:
    return f" {part} " in f" {key} "


def _first_sentence(text: str, span: Span) -> str:
    body = text[span[0]:span[1]].strip()
    m = re.search(r"[.!?](\s|$)", body)
    return body[: m.end()] if m else body[:300]


# ---------------------------------------------------------------------------------------
# the flattened two-column PDF

_CAPS_WORD = r"[А-ЯЁ][А-ЯЁ\-]*[А-ЯЁ](?![А-Яа-яЁё\w])"
_CAPS_ONE = r"[ИСВОАКУ](?=\s+[А-ЯЁ(][А-ЯЁ\s])"
_CAPS_RUN = re.compile(
    rf"(?<![А-Яа-яЁё\w])(?:{_CAPS_WORD}|{_CAPS_ONE})"
    rf"(?:[ ,]+(?:\(\s*)?(?:{_CAPS_WORD}|{_CAPS_ONE})(?:\s*\))?)*"
)


def _caps_runs(text: str) -> list[tuple[int, int]]:
    runs = []
    for m in _CAPS_RUN.finditer(text):
        s, e = m.start(), m.end()
        chunk = text[s:e].rstrip(" ,")
        e = s + len(chunk)
        letters = re.findall(r"[А-ЯЁ]{3,}", chunk)
        if not letters:
            continue
        # a lone capitalised word opening a sentence ("В", "И") is not a heading
        if len(chunk) < 4:
            continue
        runs.append((s, e))
    return runs


def _segment_flat(text: str, vocab: Vocabulary) -> Segmentation:
    runs = _caps_runs(text)
    # items: (kind, start, end, title) where kind in {"type", "head"}
    items: list[tuple[str, int, int, str]] = []
    for s, e in runs:
        chunk = text[s:e]
        parts = vocab.split_titles(chunk)
        if parts:
            pos = s
            for part in parts:
                ps = text.index(part.split()[0], pos)
                pe = ps + len(part)
                while text[ps:pe] != part:  # whitespace may differ
                    pe = text.index(part.split()[-1], ps) + len(part.split()[-1])
                    break
                items.append(("type", ps, pe, part))
                pos = pe
        else:
            items.append(("head", s, e, chunk))

    flavour: list[Flavour] = []
    # bodies: from an item's end to the next item's start
    bodies: list[Span] = []
    for n, (_, _, e, _) in enumerate(items):
        nxt = items[n + 1][1] if n + 1 < len(items) else len(text)
        bodies.append((e, nxt))

    sections: list[Section] = []
    pending: list[int] = []  # indices into sections of headings waiting for their type
    last_types: list[int] = []
    lead: Span | None = None  # untitled rules before the first heading of a page
    first_start = items[0][1] if items else len(text)
    if text[:first_start].strip():
        lead = (0, first_start)
    n = 0
    untitled: list[Span] = []
    if lead:
        untitled.append(lead)
    while n < len(items):
        kind, s, e, chunk = items[n]
        if kind == "head":
            body = bodies[n]
            rules, extra_untitled, flv = _split_tail(text, body)
            flavour.extend(flv)
            title, aliases = title_and_aliases(chunk)
            sec = Section(title, chunk, (s, e), rules, aliases=aliases)
            sec.flavour_spans = [f.span for f in flv]
            sections.append(sec)
            pending.append(len(sections) - 1)
            if extra_untitled:
                untitled.append(extra_untitled)
            n += 1
            continue
        # a group of type titles standing together, then their intros
        group = [n]
        while n + 1 < len(items) and items[n + 1][0] == "type" and _only_space(
            text, items[n][2], items[n + 1][1]
        ):
            n += 1
            group.append(n)
        intro_span = bodies[n]
        intro, extra_untitled, flv = _split_tail(text, intro_span)
        flavour.extend(flv)
        intros = _split_intros(text, intro, [items[g][3] for g in group])
        type_idx = []
        for g, intro_part in zip(group, intros, strict=True):
            _, ts, te, tt = items[g]
            title, aliases = title_and_aliases(tt)
            sec = Section(title, tt, (ts, te), intro_part, is_unit_type=True, aliases=aliases)
            sections.append(sec)
            type_idx.append(len(sections) - 1)
        if pending:
            groups = _split_pending(sections, pending, len(type_idx), vocab)
            for t, members in zip(type_idx, groups, strict=True):
                for m in members:
                    sections[m].parent = t
            if untitled:
                sections[type_idx[0]].extra_spans.extend(untitled)
            pending, untitled = [], []
            last_types = []
        else:
            last_types = type_idx
        if extra_untitled:
            untitled.append(extra_untitled)
        n += 1
    # headings after the last title group belong to a type that came before its rules
    if pending and sections:
        owner = last_types[-1] if last_types else max(
            (i for i, s in enumerate(sections) if s.is_unit_type), default=None
        )
        for m in pending:
            sections[m].parent = owner
        if owner is not None and untitled:
            sections[owner].extra_spans.extend(untitled)
    return Segmentation(sections, sorted(flavour, key=lambda f: f.span), "flat")


def _only_space(text: str, a: int, b: int) -> bool:
    return not text[a:b].strip()


def _split_pending(
    sections: list[Section], pending: list[int], k: int, vocab: Vocabulary
) -> list[list[int]]:
    """Split the headings waiting for k titles into k runs, each closed by a special-rules box."""
    if k == 1:
        return [pending]
    sr_key = lemma_key(vocab.special_rules_heading)
    groups: list[list[int]] = [[]]
    for idx in pending:
        groups[-1].append(idx)
        if lemma_key(sections[idx].title) == sr_key and len(groups) < k:
            groups.append([])
    while len(groups) < k:
        groups.append([])
    if not groups[-1] and len(groups) > 1 and groups[-2]:
        pass
    return groups


_SENT_SPLIT = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][»\"]))\s+(?=\S)")


def _sentences(text: str, span: Span) -> list[Span]:
    out = []
    start = span[0]
    seg = text[span[0]:span[1]]
    for m in _SENT_SPLIT.finditer(seg):
        end = span[0] + m.start()
        if text[start:end].strip():
            out.append((start, end))
        start = span[0] + m.end()
    if text[start:span[1]].strip():
        out.append((start, span[1]))
    return out


def _split_intros(text: str, span: Span, titles: list[str]) -> list[Span]:
    """Share the intro text after k titles among them, at sentences that start in lower case.

    A type's intro runs until the first lower-case sentence that follows the last sentence
    naming that type (the PDF lost the drop capitals of the paragraph starts); a sentence
    that names the next type starts its intro at once.
    """
    if len(titles) == 1:
        return [span]
    sents = _sentences(text, span)
    bounds: list[int] = []
    pos = 0
    for t in range(1, len(titles)):
        prev_key = set(lemma_words(titles[t - 1])) - {"и", "с", "боевой", "единица"}
        next_key = set(lemma_words(titles[t])) - {"и", "с", "боевой", "единица"}
        chosen = None
        last_prev = pos
        for j in range(pos + 1, len(sents)):
            lem = set(lemma_words(text[sents[j][0]:sents[j][1]]))
            starts_low = text[sents[j][0]].islower()
            if starts_low and next_key and next_key <= lem:
                chosen = j
                break
            if prev_key and prev_key <= lem:
                last_prev = j
        if chosen is None:
            for j in range(last_prev + 1, len(sents)):
                if text[sents[j][0]].islower():
                    chosen = j
                    break
        if chosen is None:
            chosen = min(len(sents) - 1, pos + 1)
        bounds.append(chosen)
        pos = chosen
    spans = []
    starts = [0] + bounds
    for i, b in enumerate(starts):
        end_sent = starts[i + 1] - 1 if i + 1 < len(starts) else len(sents) - 1
        if not sents or b > end_sent:
            spans.append((span[1], span[1]))
        else:
            spans.append((sents[b][0], sents[end_sent][1]))
    return spans


_CAPTION_BREAK = re.compile(r"(?<=[а-яё»0-9])\s+(?=[А-ЯЁ][а-яё])")


def _split_tail(text: str, span: Span) -> tuple[Span, Span | None, list[Flavour]]:
    """Split a block into its rules text, untitled text after a page break, and flavour.

    A running header removed by cleaning leaves a line break: what follows it belongs to a
    new column or page. At the end of a block, words with no sentence punctuation are a
    picture caption, and a short sentence glued to a caption is a flavour quote.
    """
    s, e = span
    while s < e and text[s].isspace() and text[s] != "\n":
        s += 1
    flv: list[Flavour] = []
    untitled: Span | None = None
    nl = text.find("\n", s, e)
    if nl != -1:
        rules_end = nl
        after = (nl + 1, e)
        after_text = text[after[0]:after[1]].strip()
        if after_text:
            sents = _sentences(text, after)
            if _is_flavour_block(text, after):
                flv.extend(_flavour_items(text, after))
            else:
                untitled = trim_span(text, after)
                # captions + quote at its end
                untitled, more = _tail_flavour(text, untitled)
                flv.extend(more)
                del sents
        s_e = (s, rules_end)
    else:
        s_e = (s, e)
    s_e = trim_span(text, s_e)
    s_e, more = _tail_flavour(text, s_e)
    flv.extend(more)
    return s_e, untitled, flv


def trim_span(text: str, span: Span) -> Span:
    """``span`` without the white space at its ends."""
    s, e = span
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    return (s, e)


def _is_flavour_block(text: str, span: Span) -> bool:
    chunk = text[span[0]:span[1]].strip()
    sents = _sentences(text, span)
    return len(sents) <= 2 and len(chunk.split()) <= 20 and not re.search(r"\d", chunk)


def _flavour_items(text: str, span: Span) -> list[Flavour]:
    s, e = trim_span(text, span)
    chunk = text[s:e]
    out: list[Flavour] = []
    # captions are the capitalised word groups before the final sentence
    breaks = [s + m.end() for m in _CAPTION_BREAK.finditer(chunk)]
    sent_start = s
    m = re.search(r"[.!?]\s*$", chunk)
    if m and breaks:
        sent_start = breaks[-1]
        cap_start = s
        for b in breaks[:-1] + [sent_start]:
            cap = trim_span(text, (cap_start, b))
            if cap[1] > cap[0]:
                out.append(Flavour("caption", cap, text[cap[0]:cap[1]]))
            cap_start = b
        out.append(Flavour("quote", (sent_start, e), text[sent_start:e]))
    elif m:
        out.append(Flavour("quote", (s, e), chunk))
    else:
        out.append(Flavour("caption", (s, e), chunk))
    return out


def _tail_flavour(text: str, span: Span) -> tuple[Span, list[Flavour]]:
    s, e = span
    chunk = text[s:e]
    # 1. trailing words with no sentence end: captions
    m = re.search(r"[.!?:»\"]\s*(?=[^.!?:»\"]*$)", chunk)
    if m is None:
        return span, []
    tail_start = s + m.end()
    flv: list[Flavour] = []
    if text[tail_start:e].strip():
        cap = trim_span(text, (tail_start, e))
        flv.append(Flavour("caption", cap, text[cap[0]:cap[1]]))
        e = tail_start
    # 2. the last sentence holding a caption glued to a short quote
    sents = _sentences(text, (s, e))
    if sents:
        ls, le = sents[-1]
        sent = text[ls:le]
        for br in _CAPTION_BREAK.finditer(sent):
            b = ls + br.end()
            quote_words = len(text[b:le].split())
            cap_words = len(text[ls:b].split())
            if quote_words <= 14 and cap_words <= 8:
                flv.insert(0, Flavour("quote", (b, le), text[b:le]))
                flv.insert(0, Flavour("caption", trim_span(text, (ls, b)), text[ls:b].strip()))
                e = ls
                break
    return trim_span(text, (s, e)), sorted(flv, key=lambda f: f.span)


# ---------------------------------------------------------------------------------------
# pages


def _assign_pages(sections: list[Section], pages: Sequence[PageMarkLike]) -> None:
    """A footer closes a page: a section lies on the page of the first footer after its start."""
    marks = sorted(pages, key=lambda p: p.at)
    for sec in sections:
        start = sec.heading_span[0]
        for mark in marks:
            if mark.at >= start:
                sec.pages = tuple(range(mark.first, mark.last + 1))
                break


__all__ = ["Flavour", "Section", "Segmentation", "segment", "normal_case", "title_and_aliases",
           "is_heading_line", "lemma", "english_lemma"]
