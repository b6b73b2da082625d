"""Ingest speed by the shape of the input, not only its size (issue 10).

``.venv/bin/python benchmarks/ingest_shapes.py`` builds, from the WHFB corpus text, files of
a million characters or more (1.8–2.4 MB) of three shapes that once cost more than their
size — one huge line, 100,000 short lines, a text with no headings —, a numbered list of
100,000 items (the numbered parts' look for a paragraph under each), a forum topic's
shape (a post header of the forum engine's lines before every paragraph) and a glossary of
thousands of headings in alphabetical order (:mod:`ingest.segment_alphabet`), and phases
whose steps a diagram lists before heading each (:mod:`ingest.segment_summary`), and a book's
pages run into one line with their headings in capitals (:mod:`ingest.segment_flat`), and a
text written in Markdown (:mod:`ingest.segment_markdown`), and three shapes found by
fuzzing the build (lines indented by thousands of spaces, a table of numbers run into one
line, a run of headings in capitals over no text; units in capitals, each with the same
part under it), and a folder of 10,000 short files (a
rule's heading and a sentence each: the cost a file; and the same rule in every file, named
by each), and prints
the speed of
each (CPU time, ≥ 1 MB/s is the goal); ``benchmarks/run.py`` reports the same rows. Each
shape is also timed at a third of its size: the cost per megabyte must not grow with the size
(the speed at the full size over the speed at a third stays near 1).
"""

from __future__ import annotations

import re
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ingest import build, load  # noqa: E402
from ingest.models import SourceText  # noqa: E402
from rulekb.defaults import corpus_dir  # noqa: E402

SIZE = 1_000_000


def shapes(corpus: Path, size: int = SIZE) -> dict[str, str]:
    """Name → text of about ``size`` characters, made of the corpus's WHFB pages."""
    whfb = "".join(p.read_text(encoding="utf-8-sig") for p in sorted(corpus.glob("00[12]_*.txt")))
    words = whfb.split()

    def repeat(text: str, n: int = size) -> str:
        return (text * (n // len(text) + 1))[:n]

    short = "\n".join(" ".join(words[i:i + 2]) for i in range(0, len(words), 2)) + "\n"
    # 100,000 lines at least at the full size (and a third of them at a third of it)
    lines = max(size, 100_000 * size // SIZE * (len(short) // short.count("\n")))
    prose = " ".join(line for line in re.split(r"\n+", whfb) if len(line) > 80)
    paragraphs = [line for line in re.split(r"\n+", whfb) if len(line) > 80]
    forum = "".join(
        f"Herald{i % 7}\nГруппа: Пользователи\nСообщений: {100 + i}\nРегистрация: 3.8.2005\n"
        f"Сообщение #{i + 1}\n12.3.2011, 14:{i % 60:02d}\n\n{text}\n\nПрофиль ЛС Цитата\n\n"
        for i, text in enumerate(paragraphs))
    # a numbered list of many items, none over a paragraph ("1. Двигаться вперёд" / "2. …")
    numbered = "\n".join(f"{i % 30 + 1}. {words[i % len(words)].capitalize()} "
                         f"{words[(i + 1) % len(words)]}" for i in range(0, len(words), 2)) + "\n"
    # a glossary: headings in alphabetical order, each over a paragraph, a part out of the
    # order under every sixth (the glossary's entries are looked at once however many)
    names = sorted({w.capitalize() for w in words if w.isalpha() and len(w) > 5})
    glossary = "".join(
        f"{name}\n\n{paragraphs[i % len(paragraphs)]}\n\n"
        + (f"Яркий пример {i}\n\n{paragraphs[(i + 1) % len(paragraphs)]}\n\n" if i % 6 == 5
           else "")
        for i, name in enumerate(names))
    # a phase's diagram of its steps, then each step headed again over its paragraph
    # (:mod:`ingest.segment_summary`), repeated: every block's summary is looked at once
    steps = [name for name in names if len(name) > 7][:300]
    diagram = "".join(
        f"Фаза {steps[i]}\n\n{paragraphs[i % len(paragraphs)]}\n\n"
        + "".join(f"{k + 1}. {steps[(i + k) % len(steps)]}\n\n" for k in range(3))
        + "Ход следующего игрока\n\n"
        + "".join(f"{k + 1}. {steps[(i + k) % len(steps)]} (Step)\n\n"
                  f"{paragraphs[(i + k + 1) % len(paragraphs)]}\n\n" for k in range(3))
        for i in range(len(steps)))
    # a book's pages run into one line (a PDF's text layer): headings in capitals inside it,
    # each over a paragraph (:mod:`ingest.segment_flat`, the page nested as a page of lines)
    flattened = "".join(f"{names[i % len(names)].upper()} {paragraphs[i % len(paragraphs)]} "
                        for i in range(len(names)))
    # a text written in Markdown: headings of three levels marked with "#", emphasis and links
    # in each paragraph (:mod:`ingest.clean_markdown`, :mod:`ingest.segment_markdown`)
    markdown = "".join(f"{'#' * (1 + i % 3)} {names[i % len(names)]}\n\n"
                       f"**{names[(i + 1) % len(names)]}** — {paragraphs[i % len(paragraphs)]}"
                       f" [см.](rules.md)\n\n" for i in range(len(names)))
    # a web page saved as HTML: headings of three levels, paragraphs wrapped in the source
    # with inline tags, a list, a menu beside each part (:mod:`ingest.clean_html`)
    page_parts = "".join(
        f"<h{2 + i % 3}>{names[i % len(names)]}</h{2 + i % 3}>\n<p>"
        + "\n".join(textwrap.wrap(paragraphs[i % len(paragraphs)], 80)).replace(
            " ", " <b>", 1).replace(" ", "</b> ", 1)
        + f"</p>\n<ul><li>{words[i % len(words)]}</li><li>{words[(i + 1) % len(words)]}</li></ul>"
        + f"\n<nav><a href=\"/{i}\">Главная</a></nav>\n" for i in range(len(names)))
    page = f"<!DOCTYPE html>\n<html><head><title>Правила</title></head><body>{page_parts}"
    # an old page laid out in a table, no HTML5 part and no class name: each part a row of a
    # column of menu links beside the cell of its heading and text (:mod:`ingest.html_density`:
    # the menus told by their links, the text by its paragraphs)
    layout = "<html><head><title>Правила</title></head><body><table>" + "".join(
        "<tr><td>" + "<br>".join(f"<a href=\"/{i}/{k}\">{words[(i + k) % len(words)]}</a>"
                                 for k in range(6))
        + f"</td><td><h3>{names[i % len(names)]}</h3><p>{paragraphs[i % len(paragraphs)]}</p>"
        + "</td></tr>\n" for i in range(len(names))) + "</table></body></html>\n"
    # the same, every inline tag left open (an old page's "<font>" thousands deep), an end
    # tag of nothing open after each paragraph and a link whose quote never closes before
    # each list (the shapes on which the standard library's html.parser costs the square of
    # the length)
    unclosed = page.replace("</b>", "").replace("<b>", "<font size=2>").replace(
        "</p>", "</p></span>").replace("<ul>", "<a title='Паника <ul>")
    # tags that never end: a quoted ">" in each and the next "<a" read as an attribute, so no
    # "<" ends a tag within its reach (:mod:`ingest.html_attributes`: each "<" read its whole
    # reach again), between the page's paragraphs
    quoted = page.replace("<nav>", "<nav>" + '<a x=">" ' * 2000)
    # lines indented by thousands of spaces (a PDF's text layer, a page's preformatted text):
    # a pattern of a line's start once tried again from each space
    indented = "".join(f"{' ' * 2000}{paragraph}\n" for paragraph in paragraphs)
    # a table of numbers run into one line, no stop anywhere (each number a fact, each fact's
    # sentence the bounded stretch around it, :data:`ingest.facts.MAX_SENTENCE`)
    numbers = " ".join(f"{words[k % len(words)]} {k % 6 + 1}+ D6 {k % 24 + 1}\" {k % 9 + 1}-й"
                       for k in range(5000)) + " "
    # rules naming one another, each also a rule no page defines (a concept made of each
    # unknown name: the known names grow with the text, and each part's look at them must not)
    named = "".join(f"{name.upper()} {i}\n\nМодель с правилом «{names[i * 7 % len(names)]}» "
                    f"получает +1 к Силе. Отряд со специальным правилом «{name} {i}» бежит.\n\n"
                    for i, name in enumerate(names * 8))
    # headings over no text, each taken to hold the next (a contents page in capitals)
    contents = "".join(f"{name.upper()}\n" for name in names)
    # units in capitals, each with the same part under it ("Стрельба"): a heading out of any
    # alphabetical order between every two, each a glossary's possible start
    units = "".join(f"ОТРЯД {i}\n\nОтряд {i} ходит на 6 дюймов.\n\nСтрельба\n\nОтряд {i} "
                    "стреляет по правилу «Стрельба» и проходит тест на Панику.\n\n"
                    for i in range(size // 110))
    return {
        "одна строка": repeat(" ".join(words)),
        "строки с отступом в 2000 пробелов": repeat(indented),
        "числа без точек в одну строку": repeat(numbers),
        "заголовки без текста": repeat(contents),
        "правила, называющие друг друга": repeat(named),
        "страница в одну строку": repeat(flattened),
        "текст в разметке Markdown": repeat(markdown),
        "нумерованный список": repeat(numbered, lines),
        "100 000 коротких строк": repeat(short, lines),
        "без заголовков": repeat(prose + "\n\n"),
        "страница форума": repeat(forum),
        "словарь по алфавиту": repeat(glossary),
        "отряды с одинаковым подразделом": units,
        "схема шагов": repeat(diagram),
        "веб-страница HTML": repeat(page),
        "HTML с незакрытыми тегами": repeat(unclosed),
        "HTML в вёрстке таблицей": repeat(layout),
        "HTML с «>» в кавычках и без конца тегов": repeat(quoted),
    }


FILES = 10_000


def short_files(corpus: Path, n: int = FILES, title: str | None = None) -> list[SourceText]:
    """``n`` short WHFB texts, each a rule of its own: a heading and a sentence of the corpus
    (a folder of one-paragraph pages, each section of the build a file's); with ``title``,
    each file's rule bears it and its sentence names it (a folder of copies of one rule)."""
    whfb = "".join(p.read_text(encoding="utf-8-sig") for p in sorted(corpus.glob("00[12]_*.txt")))
    sentences = [s for s in (part.strip() for part in re.split(r"(?<=[.!?])\s+", whfb))
                 if 40 <= len(s) <= 300 and "\n" not in s]
    return [SourceText(name=f"{i:05d}.txt", path=f"{i:05d}.txt", encoding="utf-8",
                       text=(f"{title or f'Правило {i}'}\n\n{sentences[i % len(sentences)]}"
                             + (f" См. правило «{title}».\n" if title else "\n")),
                       system="whfb8")
            for i in range(n)]


def files_speed(texts: list[SourceText]) -> float:
    """MB/s (CPU time) of building the texts on one process."""
    t = time.process_time()
    build(texts, jobs=1)
    return sum(len(s.text.encode()) for s in texts) / 1e6 / (time.process_time() - t)


def speed(text: str) -> float:
    """MB/s (CPU time) of building one text as a WHFB file."""
    src = SourceText(name="shape.txt", path="shape.txt", text=text, encoding="utf-8",
                     system="whfb8")
    t = time.process_time()
    build([src])
    return len(text.encode()) / 1e6 / (time.process_time() - t)


def rows() -> list[tuple[str, str, str]]:
    """(name, speed, goal) per shape, after one warm-up build of the corpus."""
    corpus = corpus_dir()
    build(load([corpus]))
    out = []
    small = shapes(corpus, SIZE // 3)
    for name, text in shapes(corpus).items():
        full = speed(text)
        third = speed(small[name])
        mb = len(text.encode()) / 1e6
        out.append((f"ingest: {name} ({mb:.1f} МБ; {full / third:.2f} от скорости на трети)",
                    f"{full:.2f} МБ/с", "≥ 1 МБ/с"))
    for title, what in ((None, "коротких файлов"), ("Паника", "файлов с одним правилом")):
        files = short_files(corpus, title=title)
        full = files_speed(files)
        third = files_speed(short_files(corpus, FILES // 3, title))
        mb = sum(len(s.text.encode()) for s in files) / 1e6
        out.append((f"ingest: папка из {FILES:,} {what} ({mb:.1f} МБ; ".replace(",", " ")
                    + f"{full / third:.2f} от скорости на трети)", f"{full:.2f} МБ/с",
                    "≥ 1 МБ/с"))
    return out


if __name__ == "__main__":
    for name, value, goal in rows():
        print(f"{name}  {value}  (цель {goal})")
