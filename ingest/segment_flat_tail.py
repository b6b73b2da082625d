"""The tail of a block of the flattened PDF layout (:mod:`ingest.segment_flat`): what stands
after its rules text. A running header removed by cleaning leaves a line break, and what
follows it belongs to a new column or page (untitled text); at a block's end, words with no
sentence punctuation are a picture's caption, and a short saying glued to a caption is a
flavour quote (both :class:`~ingest.sections.Flavour` items).
"""

from __future__ import annotations

import re

from ingest.sections import Flavour, Span, trim_span
from kb.lemmas import WORD_RE, pos

_SENT_SPLIT = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][»\"]))\s+(?=\S)")


def sentences(text: str, span: Span) -> list[Span]:
    """The sentences of ``text[span]``, each a span: split after a stop (and a closing quote)
    where more text follows."""
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


_CAPTION_BREAK = re.compile(r"(?<=[а-яё»0-9])\s+(?=[А-ЯЁ][а-яё])")


def split_tail(text: str, span: Span) -> tuple[Span, Span | None, list[Flavour]]:
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
            if _is_flavour_block(text, after):
                flv.extend(_flavour_items(text, after))
            else:
                untitled = trim_span(text, after)
                # captions + quote at its end
                untitled, more = _tail_flavour(text, untitled)
                flv.extend(more)
        s_e = (s, rules_end)
    else:
        s_e = (s, e)
    s_e = trim_span(text, s_e)
    s_e, more = _tail_flavour(text, s_e)
    flv.extend(more)
    return s_e, untitled, flv




def _is_flavour_block(text: str, span: Span) -> bool:
    chunk = text[span[0]:span[1]].strip()
    sents = sentences(text, span)
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


# a caption is a few words naming a picture ("Ударный мотоцикл космодесантников", "Князь
# демонов"), a flavour quote a short saying; words that hold a number standing alone, a
# quotation opened and not closed, or in a caption a comma or a verb are rules text, cut where
# a page ends ("… во время а") or split at a capitalised word ("Все тесты кроме «тест на" /
# "Стойкость» …", "Типы брони могут колебаться от простейших жилетов" / "Имперской службы …")
_CAPTION_WORDS = 8
_QUOTE_WORDS = 14
_VERBS = frozenset({"VERB", "INFN"})
_SAYING_END = re.compile(r"[.!?…][»\"”]?\s*$")
_RULES_NUMBER = re.compile(r"(?<![\w'’-])\d")


def _flavour_like(words: str, caption: bool) -> bool:
    """Whether ``words`` may be a caption (or a quote) rather than rules text."""
    if _RULES_NUMBER.search(words) or words.count("«") != words.count("»"):
        return False
    if caption:
        return "," not in words and len(words.split()) <= _CAPTION_WORDS \
            and not any(pos(w) in _VERBS for w in WORD_RE.findall(words))
    # (a saying ends as a sentence does; words the page's end cut off do not)
    return len(words.split()) <= _QUOTE_WORDS and _SAYING_END.search(words) is not None


def _tail_flavour(text: str, span: Span) -> tuple[Span, list[Flavour]]:
    s, e = span
    chunk = text[s:e]
    # 1. trailing words with no sentence end: captions
    m = re.search(r"[.!?:»\"]\s*(?=[^.!?:»\"]*$)", chunk)
    if m is None:
        return span, []
    tail_start = s + m.end()
    flv: list[Flavour] = []
    if text[tail_start:e].strip() and _flavour_like(text[tail_start:e], caption=True):
        cap = trim_span(text, (tail_start, e))
        flv.append(Flavour("caption", cap, text[cap[0]:cap[1]]))
        e = tail_start
    # 2. the last sentence holding a caption glued to a short quote
    sents = sentences(text, (s, e))
    if sents:
        ls, le = sents[-1]
        sent = text[ls:le]
        for br in _CAPTION_BREAK.finditer(sent):
            b = ls + br.end()
            if _flavour_like(text[b:le], caption=False) \
                    and _flavour_like(text[ls:b], caption=True):
                flv.insert(0, Flavour("quote", (b, le), text[b:le]))
                flv.insert(0, Flavour("caption", trim_span(text, (ls, b)), text[ls:b].strip()))
                e = ls
                break
    return trim_span(text, (s, e)), sorted(flv, key=lambda f: f.span)
