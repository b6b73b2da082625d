"""How a text was cut, for a user debugging a heading (``rulekb build FILE --explain``).

Like eyecite's ``dump_citations``: the system and, when it was detected, the words that chose it;
one line per section (its title, parent, pages and where it lies in the source file), then every
piece of text that cleaning and segmenting removed, with the step and the reason (a text's
markup alone, HTML's tags, Markdown's and BB-code's marks, in one line per kind, with how
many places and characters). A user who sees a heading missed or a line of furniture taken
for a heading can then state the system in ``corpus.toml`` or fix the text.
"""

from __future__ import annotations

from ingest.build import account, no_system_reason, prepare
from ingest.clean_bbcode import REASON as BBCODE_MARKUP
from ingest.clean_markdown import REASON as MARKDOWN_MARKUP
from ingest.html_page import MARKUP_REASON as HTML_MARKUP
from ingest.models import SourceText
from ingest.text_identity import describe_evidence, detection_grounds
from kb.models import Removal

_SHOWN = 70  # characters of a removed piece shown on its line
_LAYOUTS = {"lines": "веб-страница (заголовки на отдельных строках)",
            "flat": "сплошной текст из PDF (заголовки внутри строк)",
            "markdown": "Markdown (заголовки размечены «#» или подчёркиванием)",
            "html": "страница HTML (заголовки по тегам <h1>–<h6>)"}
_FROM = {"detected": "определена по тексту", "path": "названа в имени файла или папки",
         "option": "указана --system"}


def explain(source: SourceText) -> str:
    """The sections of ``source`` and the text removed from it, in Russian, one item a line
    (:func:`explained`'s text).

    >>> src = SourceText(name="x.txt", path="x.txt", encoding="utf-8", system="whfb8",
    ...                  system_from="option",
    ...                  text="Паника\\n\\nПодразделение проходит тест.\\n\\nСтраница 66")
    >>> print(explain(src))  # doctest: +NORMALIZE_WHITESPACE
    Файл x.txt: система whfb8 (указана --system); раскладка: веб-страница (заголовки на
    отдельных строках)
    Разделы (1):
      1. «Паника» · верхний уровень · стр. 66 · заголовок 0–6, текст 6–36
    Удалено (1):
      36–49 page_footer: колонтитул страницы «Страница 66» — «Страница 66»
    """
    return explained(source)[0]


def explained(source: SourceText) -> tuple[str, bool]:
    """:func:`explain`'s text, and whether ``source`` makes a part of the KB (its system
    known, some text left after cleaning: else the build skips it)."""
    if source.system is None:
        why = no_system_reason(source.text, source.named_path, source.undetected)
        return f"Файл {source.path}: пропущен — {why}", False
    cleaned, seg = prepare(source)
    origin = _FROM.get(source.system_from or "", f"указана в {source.system_from}")
    lines = [f"Файл {source.path}: система {source.system} ({origin}); "
             f"раскладка: {_LAYOUTS.get(seg.layout, seg.layout)}"]
    if source.encoding in ("docx", "doc", "rtf", "odt", "fb2", "epub"):
        kind = {"odt": "OpenDocument", "rtf": "RTF", "fb2": "FictionBook", "epub": "EPUB"}.get(
            source.encoding, "Word")
        lines.append(f"{kind}: {source.reading}; смещения ниже — в тексте, извлечённом из "
                     f"документа (его печатает rulekb build ФАЙЛ.{source.encoding} --text; "
                     "исправленный и сохранённый как .md, он собирается так же)")
    if source.encoding == "pdf":
        lines.append(f"PDF: {source.reading}; смещения ниже — в тексте, извлечённом "
                     "из PDF (его печатает rulekb build ФАЙЛ.pdf --text; исправленный и "
                     "сохранённый как .md, он собирается так же)")
    if source.system_from == "detected":
        lines.append(f"Почему {source.system}: {detection_grounds(source.text, source.system)}")
    elif source.system_from == "path":
        found = source.undetected or describe_evidence(source.text)
        lines.append(f"Почему {source.system}: её называет путь «{source.path}», а слова текста "
                     f"не решают ({found}); если это не так, укажите систему: --system или "
                     "corpus.toml")
    lines.append(f"Разделы ({len(seg.sections)}):")
    if not seg.sections:
        lines.append("  заголовков не найдено: весь текст станет одним разделом"
                     if cleaned.text.strip() else
                     "  после очистки текста не осталось: файл будет пропущен")
    for i, sec in enumerate(seg.sections, 1):
        parent = (f"в «{seg.sections[sec.parent].title}»" if sec.parent is not None
                  else "верхний уровень")
        pages = (f"стр. {sec.pages[0]}" if len(sec.pages) == 1 else
                 f"стр. {sec.pages[0]}–{sec.pages[-1]}" if sec.pages else "стр. —")
        hs, he = cleaned.to_source_span(*sec.heading_span)
        bs, be = cleaned.to_source_span(*sec.body_span)
        marks = []
        if sec.is_unit_type:
            marks.append("тип войск")
        if sec.aliases:
            marks.append("другие имена: " + ", ".join(f"«{a}»" for a in sec.aliases))
        if sec.heading != sec.title and sec.heading:
            marks.append(f"в тексте: «{_one_line(sec.heading)}»")
        tail = "".join(f" · {m}" for m in marks)
        heading = ("отрывок без заголовка (назван первыми словами)" if sec.is_passage
                   else f"заголовок {hs}–{he}")
        lines.append(f"  {i}. «{sec.title}» · {parent} · {pages} · {heading}, "
                     f"текст {bs}–{be}{tail}")
    removed = account(source, cleaned, seg)
    lines.append(f"Удалено ({len(removed)}):")
    markup: dict[tuple[str, str], list[Removal]] = {}
    for r in removed:
        if r.reason in _MARKUP:
            markup.setdefault((r.step, r.reason), []).append(r)
            continue
        lines.append(f"  {r.span[0]}–{r.span[1]} {r.step}: {r.reason} — «{_one_line(r.text)}»")
    for (step, reason), each in markup.items():
        # a page's tags, one place each, say nothing a reader looks for: counted, not listed
        first = each[0]
        lines.append(f"  {step}: {reason} — мест: {len(each)}, символов: "
                     f"{sum(r.span[1] - r.span[0] for r in each)} (первое {first.span[0]}–"
                     f"{first.span[1]} «{_one_line(first.text)}»)")
    return "\n".join(lines), bool(seg.sections or cleaned.text.strip())


_MARKUP = frozenset({HTML_MARKUP, MARKDOWN_MARKUP, BBCODE_MARKUP})
"""The reasons of removals that are a text's markup alone (tags, marks): counted in one line
each, where what a site put around the text is listed place by place."""


def _one_line(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _SHOWN else flat[: _SHOWN - 1] + "…"
