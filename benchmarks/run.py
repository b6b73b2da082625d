"""Benchmarks of rulekb, one command: ``.venv/bin/python benchmarks/run.py``.

Prints a table and writes it to ``docs/benchmarks.txt`` (the docs include it; the README
quotes it). Measures what the issues promise:

* the default corpus builds in under 2 s;
* ingest keeps ≥ 1 MB/s on a 2 MB corpus made by repeating the corpus files (as ``rulekb
  build`` runs it, on one process a core, and on one process; the best of three builds of
  each), and on inputs of other
  shapes (``benchmarks/ingest_shapes.py``: one huge line, 100,000 short lines, no headings);
* a folder of distinct real pages built in a fresh process, and the pool's own cost a piece
  for 64,000 pieces (it must not grow with their number);
* the letters' second opinion on a text's game (``ingest/detect_chars.py``, asked of a text
  its words leave unclear): its table read once per process, a text's 20,000 characters scored;
* loading kb.json takes < 100 ms;
* a name lookup takes < 1 ms;
* ``rulekb site`` builds the rules reference site of the corpus in under 60 s;
* ``benchmarks/startup.py``: ``rulekb show`` and ``rulekb search`` answer in < 250 ms, whole
  process, median of runs each in a fresh process (also with ``--quick``);
* then ``benchmarks/lists.py`` (a 30-unit list in < 50 ms, 1,000 lists in < 10 s, 1,000
  real-size rosters in < 20 s, a 10 MB list of any shape in < 300 MB),
  ``benchmarks/audit.py`` (logs of 1,000,000 events spread over turns and in one turn, the
  second at ≥ 90% of the first's speed; 100 MB logs of every shape in < 200 MB) and
  ``benchmarks/mutation.py`` (how many boundary and off-by-one mutations of ``validator/``'s
  comparisons survive the tests), each in processes of its own. ``--quick`` skips these
  three and only prints (the docs keep the last whole run's table), ``--no-mutation`` skips
  the last (about a quarter of an hour on 2 cores).
"""

from __future__ import annotations

import gc
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import ingest_shapes  # noqa: E402

from ingest import build, load  # noqa: E402
from ingest.pool import jobs_for  # noqa: E402
from kb import Graph, save  # noqa: E402
from kb import load as load_kb  # noqa: E402
from rulekb.defaults import corpus_dir  # noqa: E402
from rulekb.site import build_site  # noqa: E402

BIG_ROUNDS = 3
"""Builds of the 2 MB corpus timed, on each number of processes; the best one counts."""


def best_of(n: int, fn) -> float:  # type: ignore[no-untyped-def]
    """The shortest of ``n`` runs of ``fn`` (wall time). What a run returns is let go after
    its time is taken, and collected before the next run starts."""
    times = []
    for _ in range(n):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
        del result
        gc.collect()
    return min(times)


def word_document(paragraphs: list[str], size: int) -> bytes:
    """A Word document of about ``size`` characters: the paragraphs given in turn, a heading
    in a heading style over every fourth (of three levels), a rule's name in bold over every
    seventh, an item of a numbered list every fifth."""
    import io
    import zipfile
    from xml.sax.saxutils import escape

    w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    styles = (f'<w:styles {w}>' + "".join(
        f'<w:style w:type="paragraph" w:styleId="Heading{n}"><w:name w:val="heading {n}"/>'
        "</w:style>" for n in (1, 2, 3)) + "</w:styles>")
    body, total, k = [], 0, 0
    while total < size:
        text = escape(paragraphs[k % len(paragraphs)])
        if k % 4 == 0:
            body.append(f'<w:p><w:pPr><w:pStyle w:val="Heading{1 + k % 3}"/></w:pPr>'
                        f"<w:r><w:t>{escape(text.split('.')[0][:40])}</w:t></w:r></w:p>")
        if k % 7 == 0:
            body.append(f"<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>Правило {k}</w:t></w:r></w:p>")
        item = '<w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr>' \
            if k % 5 == 0 else ""
        body.append(f"<w:p>{item}<w:r><w:t xml:space=\"preserve\">{text}</w:t></w:r></w:p>")
        total += len(text)
        k += 1
    document = f"<w:document {w}><w:body>{''.join(body)}</w:body></w:document>"
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("word/document.xml", document)
        z.writestr("word/styles.xml", styles)
    return out.getvalue()


def _document_row(label: str, kind: str, write: Callable[[list[str], int], bytes],
                  read: Callable[[bytes], str]) -> tuple[str, str, str]:
    """MB/s (CPU time) of a document of about 1 MB of text (the corpus's WHFB paragraphs,
    ``write``-n) read (``read``) and built as a WHFB file, and its speed against a document
    of a third of its size (cost per paragraph flat: a ratio near 1)."""
    from ingest.models import SourceText

    corpus = corpus_dir()
    whfb = "".join(p.read_text(encoding="utf-8-sig") for p in sorted(corpus.glob("00[12]_*.txt")))
    paragraphs = [line for line in whfb.split("\n") if len(line) > 80]

    def speed(size: int) -> tuple[float, int]:
        data = write(paragraphs, size)
        t = time.process_time()
        text = read(data)
        build([SourceText(name=f"rules.{kind}", path=f"rules.{kind}", text=text, encoding=kind,
                          system="whfb8")])
        return len(text.encode()) / 1e6 / (time.process_time() - t), len(text.encode())

    full, chars = speed(1_000_000)
    third, _ = speed(1_000_000 // 3)
    return (f"ingest {label} ({chars / 1e6:.1f} МБ; {full / third:.2f} от скорости на трети)",
            f"{full:.2f} МБ/с", "—")


def _docx_row() -> tuple[str, str, str]:
    """The row of a Word document (:func:`_document_row`)."""
    from ingest.docx_text import docx_text

    return _document_row("Word .docx", "docx", word_document, docx_text)


def rtf_document(paragraphs: list[str], size: int) -> bytes:
    """An RTF document of about ``size`` characters in the form a Russian Word 97 writes it
    (the costliest form to read: each Cyrillic letter a byte escaped, "\\'cf"): the
    paragraphs given in turn, a heading in a heading style over every fourth (of three
    levels), a rule's name in bold over every seventh, an item of a numbered list every
    fifth."""
    def escaped(text: str) -> str:
        return "".join(f"\\'{b:02x}" if b > 127 else chr(b) if chr(b) not in "\\{}" else
                       f"\\{chr(b)}" for b in text.encode("cp1251", errors="replace"))

    head = ("{\\rtf1\\ansi\\ansicpg1251{\\fonttbl{\\f0\\fcharset204 Times New Roman;}}"
            "{\\stylesheet{\\f0\\fs24 Normal;}" + "".join(
                f"{{\\s{n}\\b\\fs{34 - 2 * n} heading {n};}}" for n in (1, 2, 3)) + "}")
    body, total, k = [head], 0, 0
    while total < size:
        text = paragraphs[k % len(paragraphs)]
        if k % 4 == 0:
            body.append(f"\\pard\\plain\\s{1 + k % 3}\\b "
                        f"{escaped(text.split('.')[0][:40])}\\par")
        if k % 7 == 0:
            body.append(f"\\pard\\plain{{\\b {escaped(f'Правило {k}')}}}\\par")
        item = f"{{\\listtext {k}.\\tab}}" if k % 5 == 0 else ""
        body.append(f"{item}\\pard\\plain\\f0\\fs24 {escaped(text)}\\par")
        total += len(text)
        k += 1
    return ("\n".join(body) + "}").encode("ascii")


def _rtf_row() -> tuple[str, str, str]:
    """The row of an RTF document (:func:`_document_row`)."""
    from ingest.rtf_text import rtf_text

    return _document_row("RTF", "rtf", rtf_document, rtf_text)


def _letters_rows(corpus: Path) -> list[tuple[str, str, str]]:
    """The letters' second opinion on a text's game (:mod:`ingest.detect_chars`), which a build
    asks only of a text its words leave unclear: its table read once per process, then a text's
    20,000 characters (what it reads of a text at most) scored."""
    from ingest import detect_chars

    detect_chars.char_model.cache_clear()
    t = time.perf_counter()
    model = detect_chars.char_model()
    loaded = time.perf_counter() - t
    text = "".join(p.read_text(encoding="utf-8-sig") for p in sorted(corpus.glob("00[12]_*.txt")))
    text = text[:detect_chars.MAX_CHARS]
    scored = best_of(5, lambda: model.opinion(text))
    return [("определение системы по буквам: чтение таблицы (раз на процесс)",
             f"{loaded:.2f} с", "—"),
            (f"определение системы по буквам: текст {len(text):,} символов".replace(",", " "),
             f"{scored * 1000:.0f} мс", "—")]


DISTINCT_FOLDERS = ("tests/data/heldout", "tests/data/detect", "tests/data/chapters")
"""Real pages nobody on the project wrote (the held-out sets, the detection's pages, whole
chapters of another translation): each word of a text new to the process but for what the
others share, where the repeated corpus's words are all met in its first copy."""

_DISTINCT_BUILD = """
import sys, time
from pathlib import Path
from ingest import build, load
folder = Path(sys.argv[1])
t = time.perf_counter()
build(load([folder], on_error=lambda error: None))
print(time.perf_counter() - t)
"""


def _distinct_rows() -> list[tuple[str, str, str]]:
    """Ingest of a folder of distinct real pages (:data:`DISTINCT_FOLDERS`' texts), each build
    in a fresh process as ``rulekb build`` runs (the dictionary's answers and the patterns
    unknown to it yet): the best of three."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        total = files = 0
        for name in DISTINCT_FOLDERS:
            for path in sorted((ROOT / name).rglob("*.txt")):
                data = path.read_bytes()
                (folder / f"{files:04d}{path.suffix}").write_bytes(data)
                total += len(data)
                files += 1
        times = [float(subprocess.run(
            [sys.executable, "-c", _DISTINCT_BUILD, str(folder)], cwd=ROOT, check=True,
            capture_output=True, text=True).stdout.split()[-1]) for _ in range(BIG_ROUNDS)]
    return [(f"ingest {total / 1e6:.1f} МБ разных настоящих страниц (файлов: {files}; первая "
             f"сборка в новом процессе; лучшая из {BIG_ROUNDS})",
             f"{total / 1e6 / min(times):.2f} МБ/с", "—")]


def _count(group_and_items: tuple[str, list[tuple[str, str]]]) -> int:
    return len(group_and_items[1])


def _pool_row() -> tuple[str, str, str]:
    """The pool's own cost a piece (:func:`ingest.pool.in_stages` on two processes, pieces that
    cost nothing, three groups), for 64,000 pieces and a third of them: it must not grow with
    their number (a folder of many small files)."""
    from ingest.pool import in_stages

    def per_piece(n: int) -> float:
        words = [f"w{i}" for i in range(n)]
        t = time.perf_counter()
        in_stages(str.upper, words, [5] * n, [str(i % 3) for i in range(n)], _count, 2)
        return (time.perf_counter() - t) / n
    full, third = per_piece(64_000), per_piece(64_000 // 3)
    return (f"пул процессов: 64 000 мелких частей ({third / full:.2f} от скорости на трети)",
            f"{full * 1e6:.0f} мкс/часть", "—")


def _pdf_rows() -> list[tuple[str, str, str]]:
    """Pages a second of a real PDF read and built (``tests/data/pdf/real/libtasn1.pdf``, a
    manual of 36 pages): the PDF's text layer and type sizes (pdfminer.six's layout analysis)
    cost most of it. On one process (CPU time) and with its pages shared out to one process a
    core, as ``rulekb build`` reads it (wall time: the workers' CPU is not this process's); the
    best of three each."""
    import io

    from pdfminer.pdfpage import PDFPage

    from ingest.models import SourceText
    from ingest.pdf_text import read_pdf
    from ingest.pool import cores

    data = (ROOT / "tests" / "data" / "pdf" / "real" / "libtasn1.pdf").read_bytes()
    pages = sum(1 for _ in PDFPage.get_pages(io.BytesIO(data)))
    rows = []
    for jobs, clock, how in ((1, time.process_time, "один процесс"),
                             (None, time.perf_counter, f"процессов: {cores()}")):
        best = float("inf")
        for _ in range(3):
            t = clock()
            text = read_pdf(data, jobs=jobs).text
            build([SourceText(name="libtasn1.pdf", path="libtasn1.pdf", text=text,
                              encoding="pdf", system="whfb8")])
            best = min(best, clock() - t)
        rows.append((f"ingest PDF (руководство, {pages} страниц, {len(data) / 1e6:.2f} МБ; "
                     f"{how})", f"{pages / best:.0f} стр/с", "—"))
    return rows


def main() -> None:
    corpus = corpus_dir()
    rows: list[tuple[str, str, str]] = []
    sources = load([corpus])
    build(sources)  # warm the dictionary and lemma caches once, as a long-lived process would
    t_build = best_of(3, lambda: build(load([corpus])))
    rows.append(("сборка корпуса по умолчанию", f"{t_build:.2f} с", "< 2 с"))

    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big"
        big.mkdir()
        total = 0
        sizes: list[int] = []
        for src in sorted(corpus.glob("*.txt")):
            if src.name == "README.md":
                continue
            text = src.read_text(encoding="utf-8-sig")
            reps = max(1, (2_000_000 // 5) // max(1, len(text.encode())))
            repeated = "\n\n".join([text] * reps)
            (big / src.name).write_text(repeated, encoding="utf-8")
            sizes.append(len(repeated))  # (characters: what the build shares out by)
            total += (big / src.name).stat().st_size
        jobs = jobs_for(sizes, None)
        # the best of three builds (each KB let go and collected before the next build: the
        # collector walking it would be timed with it): the slower ones time what else ran on
        # the machine meanwhile, as timeit's documentation says of its repeats
        t_big = best_of(BIG_ROUNDS, lambda: build(load([big])))
        rows.append((f"ingest {total / 1e6:.1f} МБ (повторённый корпус, процессов: {jobs}; "
                     f"лучшая из {BIG_ROUNDS} сборок)", f"{total / 1e6 / t_big:.2f} МБ/с",
                     "≥ 1 МБ/с"))
        t_one = best_of(BIG_ROUNDS, lambda: build(load([big], jobs=1), jobs=1))
        rows.append((f"ingest {total / 1e6:.1f} МБ (повторённый корпус, один процесс; "
                     f"лучшая из {BIG_ROUNDS})", f"{total / 1e6 / t_one:.2f} МБ/с", "—"))
        rows.extend(_distinct_rows())
        rows.append(_pool_row())
        rows.extend(ingest_shapes.rows())  # one huge line, 100,000 short lines, no headings
        rows.extend(_pdf_rows())
        rows.append(_docx_row())
        rows.append(_rtf_row())
        rows.extend(_letters_rows(corpus))

        kb = build(load([corpus])).kb
        path = Path(tmp) / "kb.json"
        save(kb, path)
        t_load = best_of(5, lambda: load_kb(path))
        rows.append(("загрузка kb.json", f"{t_load * 1000:.0f} мс", "< 100 мс"))

        graph = Graph(load_kb(path))
        names = graph.names  # built once, here
        queries = ["регенерацию", "Гравицыклы", "турбо ускорение", "Regeneration",
                   "Смертельного Удара"]
        per = []
        for _ in range(200):
            for q in queries:
                t = time.perf_counter()
                names.find(q, None)
                per.append(time.perf_counter() - t)
        rows.append(("поиск по имени (медиана)", f"{statistics.median(per) * 1000:.3f} мс",
                     "< 1 мс"))

        # the whole site from scratch: layout, generated pages, search index, Sphinx
        t = time.perf_counter()
        build_site(kb, Path(tmp) / "site")
        rows.append(("сборка сайта (rulekb site)", f"{time.perf_counter() - t:.1f} с", "< 60 с"))

    width = max(len(r[0]) for r in rows)
    lines = [f"Машина: {platform.machine()}, Python {platform.python_version()}", ""]
    lines += [f"{name.ljust(width)}  {value:>12}  (цель {goal})" for name, value, goal in rows]
    out = "\n".join(lines) + "\n"
    print(out, flush=True)
    out += _section("startup.py", "Запуск: справка в новом процессе (show, search)")
    if "--quick" not in sys.argv:
        # the army-list and audit benchmarks and the mutation run, each in processes of their own
        scripts = [("lists.py", "Проверка списков армий"),
                   ("audit.py", "Аудит партий (процесс на журнал, одно ядро, время процессора)")]
        if "--no-mutation" not in sys.argv:
            scripts.append(("mutation.py", "Мутационное тестирование проверок (cosmic-ray)"))
        for script, title in scripts:
            out += _section(script, title)
    if "--quick" in sys.argv:
        return  # a quick run's partial table would replace the whole run's figures the docs show
    (ROOT / "docs").mkdir(exist_ok=True)
    (ROOT / "docs" / "benchmarks.txt").write_text(out, encoding="utf-8")


def _section(script: str, title: str) -> str:
    """Run a benchmark script in a process of its own; its table under ``title``."""
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script)],
                            check=True, capture_output=True, text=True)
    body = result.stdout.strip().split("\n")
    body = [line for line in body if not line.startswith("Машина:")]
    section = f"\n{title}:\n" + "\n".join(body).strip("\n") + "\n"
    print(section, flush=True)
    return section


if __name__ == "__main__":
    main()
