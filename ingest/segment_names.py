"""Russian titles for sections whose heading is only English ("CHARGING", "The Battle Round").

A Kill Team translation keeps some of the book's English headings, while its text names the
thing in Russian: a loanword the players use ("объявить чардж" under "CHARGING"), a Russian
term ("каждый боевой раунд" above "THE BATTLE ROUND"), a gloss ("может летать (т.е. … FLY)"),
or a step of the sequence that the section details ("Киньте 2D6 и сделайте чардж" for "Make
Charge Move"). :func:`name_english_headings` gives such a section the Russian name its own text
uses, the English heading kept as an alias (and as what the node's id is made of, so ids do
not move), so that a reader searching «чардж» finds "Charging". The signals, strongest first:

1. a **gloss**: the English heading in brackets right after Russian words — "характеристики
   движения (Move characteristic)", "может летать (т.е. она имеет ключевое слово FLY)";
2. an **opening name**: the body opens by naming its subject as a name is written, every word
   capitalised, as many words as the heading's and two at least ("Dwarf Lord" / "Гном Лорд
   почти не изменился …"), nouns and adjectives followed by a word in lower case;
3. a **transliteration**: a Russian word that sounds like the heading's last word (their
   consonants agree: "charge" ~ "чардж", "round" ~ "раунд", "advance" ~ "адванс"), with the
   adjectives before it that stand for the heading's other words ("боевой раунд"); the most
   frequent such phrase of the section's text and the lines just above its heading;
4. a **step**: a short line of the family's text (the parent's and the siblings' bodies: a
   sequence of steps) that holds a transliteration of one of the heading's words.

A heading the section's own text writes as it stands is the name the text uses (a keyword:
"FLY" over "… имеет ключевое слово FLY …") and stays. A name that another section of the file
already bears is not taken: two sections must not read the same.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from ingest.sections import Section, english_lemma, normal_case
from kb.lemmas import is_known, lemma_key, morph

_LATIN_TITLE = re.compile(r"[A-Za-z][A-Za-z' -]*")
_EN_WORD = re.compile(r"[A-Za-z]+")
_RU_WORD = re.compile(r"[А-Яа-яЁё]+(?:-[А-Яа-яЁё]+)*")
_EN_STOP = frozenset({"the", "a", "an", "of", "and", "to", "in", "on", "for", "with", "or"})
# how much text around a heading is read: the lines above it (a lead that names it) and its body
_BEFORE, _AFTER = 300, 1_000
_MAX_STEP_WORDS = 8
_RU_CONSONANTS = {
    "б": "b", "в": "v", "г": "g", "д": "d", "ж": "j", "з": "z", "к": "k", "л": "l", "м": "m",
    "н": "n", "п": "p", "р": "r", "с": "s", "т": "t", "ф": "f", "ц": "s", "ч": "ч", "ш": "ш",
    "щ": "ш",
}


@lru_cache(maxsize=4_096)
def english_skeleton(word: str) -> str:
    """The consonants of an English word as a Russian ear hears them ("charge" → "чrj").

    >>> english_skeleton("charge"), english_skeleton("advance"), english_skeleton("round")
    ('чrj', 'dvns', 'rnd')
    """
    w = word.lower()
    w = re.sub(r"t?ch", "ч", w).replace("sh", "ш").replace("ph", "f").replace("ck", "k")
    w = w.replace("dg", "j").replace("th", "t")
    w = re.sub(r"g(?=[eiy])", "j", w)
    w = re.sub(r"c(?=[eiy])", "s", w)
    w = w.replace("c", "k").replace("q", "k").replace("x", "ks").replace("w", "v")
    w = re.sub(r"[aeiouyh]", "", w)
    return re.sub(r"(.)\1+", r"\1", w)


def russian_skeleton(word: str) -> str:
    """The consonants of a Russian word in the same letters ("чардж" → "чrj").

    >>> russian_skeleton("чардж"), russian_skeleton("адванс"), russian_skeleton("раунд")
    ('чrj', 'dvns', 'rnd')
    """
    w = word.lower().replace("ё", "е").replace("дж", "ж")
    return re.sub(r"(.)\1+", r"\1", "".join(_RU_CONSONANTS.get(c, "") for c in w))


@lru_cache(maxsize=20_000)
def _sounds(word: str) -> frozenset[str]:
    """The skeletons of a Russian word's dictionary forms (and of the word as written), each
    long enough to tell: three consonants, or two for a word no dictionary knows (slang)."""
    forms = {word.lower(), *(p.normal_form for p in morph().parse(word.lower()))}
    out = set()
    for form in forms:
        skeleton = russian_skeleton(form)
        if len(skeleton) >= 3 or (len(skeleton) == 2 and not is_known(word)):
            out.add(skeleton)
    return frozenset(out)


@lru_cache(maxsize=20_000)
def _noun_form(word: str) -> str | None:
    """A word's dictionary form when it can be a noun (a loanword no dictionary knows counts)."""
    for p in morph().parse(word.lower()):
        if p.tag.POS == "NOUN":
            return str(p.normal_form)
    return None


def _heading_words(title: str) -> list[str]:
    return [w for w in _EN_WORD.findall(title) if w.lower() not in _EN_STOP]


def _matches(word: str, english: str) -> bool:
    return bool(_sounds(word) & _wanted(english))


@lru_cache(maxsize=4_096)
def _wanted(english: str) -> frozenset[str]:
    """The skeletons an English heading word may be heard as (its form and its lemma)."""
    return frozenset({english_skeleton(english), english_skeleton(english_lemma(english))})


def _nominative(adjectives: Sequence[str], noun: str) -> str:
    """Adjectives and a noun in the nominative singular ("боевых раундов" → "боевой раунд")."""
    noun_parse = next(p for p in morph().parse(noun.lower()) if p.tag.POS == "NOUN")
    gender = noun_parse.tag.gender or "masc"
    words = []
    for adj in adjectives:
        p = next((q for q in morph().parse(adj.lower()) if q.tag.POS in ("ADJF", "PRTF")), None)
        form = p.inflect({"nomn", "sing", gender}) if p is not None else None
        words.append(form.word if form is not None else adj.lower())
    words.append(noun_parse.normal_form)
    name = " ".join(words)
    return name[:1].upper() + name[1:]


def _gloss(english: str, text: str) -> str | None:
    """Russian words glossed by the English heading in brackets right after them."""
    # (from a word's start only: a match from inside a word is found from its start first)
    pattern = re.compile(
        rf"(?<![А-Яа-яЁё-])((?:[А-Яа-яЁё-]+\s+){{0,2}}[А-Яа-яЁё-]+)[.,]?\s*\((?:[^()]{{0,40}}\W)?"
        rf"{re.escape(english)}(?:\W[^()]{{0,20}})?\)",
        re.IGNORECASE,
    )
    m = pattern.search(text)
    if m is None:
        return None
    words = m.group(1).split()
    # the name is the last noun phrase: from the last word back while they agree (adjectives)
    last = words[-1]
    name = [last]
    for w in reversed(words[:-1]):
        if any(p.tag.POS in ("ADJF", "PRTF") for p in morph().parse(w.lower())[:1]) \
                and _noun_form(last) is not None:
            name.insert(0, w)
        else:
            break
    if len(name) > 1 and _noun_form(last) is not None:
        return _nominative(name[:-1], last)
    p = morph().parse(last.lower())[0]
    form = str(p.normal_form)
    return form[:1].upper() + form[1:]


def _transliteration(words: list[str], text: str) -> str | None:
    """The most frequent phrase of ``text`` naming the heading by a transliteration of its last
    word, with one adjective before it for each other word of the heading."""
    head = words[-1]
    need = len(words) - 1
    tokens = [m.group() for m in _RU_WORD.finditer(text)]
    found: Counter[str] = Counter()
    for i, token in enumerate(tokens):
        if _noun_form(token) is None or not _matches(token, head):
            continue
        adjectives = tokens[max(0, i - need):i] if need else []
        if need and not all(
                any(p.tag.POS in ("ADJF", "PRTF") for p in morph().parse(a.lower())[:2])
                for a in adjectives) or len(adjectives) != need:
            continue
        found[_nominative(adjectives, token)] += 1
    if not found:
        return None
    return max(found.items(), key=lambda item: item[1])[0]  # first of the most frequent


def _step(words: list[str], family: list[str]) -> str | None:
    """The one short line of the family's text (a step of a sequence) that transliterates one
    of the heading's words."""
    found = []
    for body in family:
        for line in body.split("\n"):
            line = line.strip()
            tokens = _RU_WORD.findall(line)
            if not tokens or len(line.split()) > _MAX_STEP_WORDS or line.endswith((".", ":")):
                continue
            if any(_matches(t, w) for t in tokens for w in words):
                found.append(line)
    found = list(dict.fromkeys(found))
    return normal_case(found[0]) if len(found) == 1 else None


_OPENING_NAME = re.compile(r"\s*((?:[А-ЯЁ][а-яё]+(?:-[А-Яа-яЁё]+)*[^\S\n]+){1,4})(?=[а-яё])")


def _opening_name(words: list[str], body: str) -> str | None:
    """The Russian name the body opens with, every word capitalised, as many words as the
    heading's (:data:`_OPENING_NAME`), each a noun or an adjective."""
    m = _OPENING_NAME.match(body)
    if m is None:
        return None
    tokens = m.group(1).split()
    # (one capitalised word opens any sentence: two or more, all capitalised, are a name)
    if len(tokens) < 2 or len(tokens) != len(words) or not all(
            any(p.tag.POS in ("NOUN", "ADJF", "PRTF") for p in morph().parse(t.lower())[:2])
            for t in tokens):
        return None
    return " ".join(tokens)


def russian_name(title: str, text: str, family: list[str], body: str = "") -> str | None:
    """The Russian name the text uses for a section headed only in English, or ``None``.

    Args:
        title: the section's (English) title.
        text: its body with the lines just above its heading.
        family: the bodies of its parent and siblings.
        body: its body alone (whose opening may name it).

    >>> russian_name("Charging", "вы можете объявить чардж.", [])
    'Чардж'
    >>> russian_name("The Battle Round", "Каждый боевой раунд состоит из этапов.", [])
    'Боевой раунд'
    >>> body = "Гном Лорд почти не изменился с предыдущей редакции."
    >>> russian_name("Dwarf Lord", body, [], body)
    'Гном Лорд'
    """
    words = _heading_words(title)
    if not words:
        return None
    return (_gloss(" ".join(_EN_WORD.findall(title)), text)
            or _opening_name(words, body)
            or _transliteration(words, text)
            or _step(words, family))


def name_english_headings(text: str, sections: list[Section]) -> None:
    """Give each section headed only in English the Russian name of :func:`russian_name`,
    its English title becoming its first alias (in place)."""
    taken = {lemma_key(s.title) for s in sections}
    for k, sec in enumerate(sections):
        if not _LATIN_TITLE.fullmatch(sec.title) or _has_russian(sec.aliases):
            continue
        start, (body_start, body_end) = sec.heading_span[0], sec.body_span
        if re.search(rf"(?<!\w){re.escape(sec.heading.strip())}(?!\w)", text[body_start:body_end]):
            continue  # the text itself names it so: a keyword ("ключевое слово FLY")
        own = text[max(0, start - _BEFORE):start] + "\n" + text[body_start:
                                                               min(body_end, body_start + _AFTER)]
        family = [text[s.body_span[0]:min(s.body_span[1], s.body_span[0] + _AFTER)]
                  for j, s in enumerate(sections)
                  if j != k and (j == sec.parent or (s.parent == sec.parent
                                                     and sec.parent is not None))]
        opening = text[body_start:min(body_end, body_start + 200)]
        name = russian_name(sec.title, own, family, opening)
        if name is None or lemma_key(name) in taken:
            continue
        taken.add(lemma_key(name))
        sec.aliases = list(dict.fromkeys([sec.title, *sec.aliases]))
        sec.id_title, sec.title = sec.title, name


def _has_russian(names: Sequence[str]) -> bool:
    return any(re.search("[А-Яа-яЁё]", n) for n in names)


_TWIN_LATIN = 0.8  # of an English original's letters, Latin at least
_TWIN_CYRILLIC = 0.5  # of its Russian twin's letters, Cyrillic at least
_TWIN_LETTERS = 40  # letters of an original's text at least: a passage, not a label


def _latin_share(text: str) -> tuple[float, int]:
    letters = [c for c in text if c.isalpha()]
    return (sum(c.isascii() for c in letters) / len(letters) if letters else 0.0), len(letters)


def english_twins(text: str, sections: list[Section]) -> list[Section]:
    """A section in English right before its Russian twin at the same level (a bilingual
    FAQ's "GAME SCENARIO" / "Q. Is the …" / "СЦЕНАРИИ ИГРЫ" / "В. Является ли …") is the
    twin's original, no section of its own: its English title becomes the twin's alias and its
    text the twin's, as extra text (nothing is lost). The sections that remain, their parents
    renumbered."""
    gone: set[int] = set()
    parents = {s.parent for s in sections}
    for i in range(len(sections) - 1):
        a, b = sections[i], sections[i + 1]
        if i in gone or i in parents or a.parent != b.parent \
                or not _LATIN_TITLE.fullmatch(a.title) or not re.search("[А-Яа-яЁё]", b.title):
            continue
        latin, letters = _latin_share(text[a.body_span[0]:a.body_span[1]])
        if letters < _TWIN_LETTERS or latin < _TWIN_LATIN \
                or 1 - _latin_share(text[b.body_span[0]:b.body_span[1]])[0] < _TWIN_CYRILLIC:
            continue
        b.aliases = list(dict.fromkeys([*b.aliases, a.title]))
        b.extra_spans = [(a.heading_span[0], a.body_span[1]), *b.extra_spans]
        gone.add(i)
    return _without(sections, gone)


def _without(sections: list[Section], gone: set[int], moved: dict[int, int] | None = None
             ) -> list[Section]:
    """``sections`` without those at the indices ``gone``, the parents renumbered; a child of a
    section gone goes to the section ``moved`` names for it."""
    if not gone:
        return sections
    for sec in sections:
        while moved and sec.parent in moved:
            sec.parent = moved[sec.parent]
    kept = [i for i in range(len(sections)) if i not in gone]
    new = {old: k for k, old in enumerate(kept)}
    out = []
    for i in kept:
        sec = sections[i]
        sec.parent = new.get(sec.parent) if sec.parent is not None else None
        out.append(sec)
    return out


def repeated_headings(text: str, sections: list[Section]) -> list[Section]:
    """A heading that repeats an open section's title over no text of its own, right above
    that section's next heading (a PDF's running header where the section goes on: "Высадка"
    / two paragraphs / "Высадка" / "Размещение высадившихся моделей"), is the section's
    repetition, no section of its own: the headings under it are the first one's, and its
    line stays in the first one's text as extra text (nothing is lost). The sections that
    remain, their parents renumbered."""
    gone: set[int] = set()
    new_parent: dict[int, int] = {}
    for k in range(1, len(sections) - 1):
        sec = sections[k]
        if sections[k + 1].parent != k or text[sec.body_span[0]:sec.body_span[1]].strip():
            continue
        # the last section before it at its level: the same title, and open still (every
        # heading between them is under it)
        j = next((j for j in range(k - 1, -1, -1) if sections[j].parent == sec.parent), None)
        if j is None or j in gone or sections[j].title.lower() != sec.title.lower():
            continue
        gone.add(k)
        new_parent[k] = j
        sections[j].extra_spans = [*sections[j].extra_spans, (sec.heading_span[0],
                                                              sec.body_span[1])]
    return _without(sections, gone, new_parent)
