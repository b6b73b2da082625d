"""Property-based tests (hypothesis) of the readers and the pipeline.

Whatever the input — arbitrary bytes, arbitrary JSON values in any field of a real list, log
or KB, arbitrary YAML, a file cut anywhere, huge numbers, deep nesting — a reader gives a
value or its own input error, never another exception, and every error says where: its line,
unless it is about the whole file (empty, too large, missing, not a supported format). What
reads is checked or audited all the way to a rendered report, again without an exception.

The settings are fixed and derandomised (:data:`PROPERTY`): the same examples on every run,
no example database, a small budget — the whole module takes a few seconds.
"""

from __future__ import annotations

import copy
import io
import json
import os
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb import store
from kb.graph import Graph
from validator.armylist import check_list
from validator.audit import audit_log, write_audits
from validator.inputs.lists import parse_list, read_list
from validator.inputs.models import ArmyList, InputError, ListInputError
from validator.report import render_json, render_text

DATA = Path(__file__).parent / "data"
OK_LISTS = sorted((DATA / "lists" / "ok").glob("*.yaml")) + sorted(
    (DATA / "lists" / "ok").glob("*.json"))
ROSTERS = sorted((DATA / "rosters").glob("*.ros"))
# real XML nobody on the project wrote: BSData's WHFB 8th game system (../shared/bsdata,
# BSData/whfb @ adfa5d84), handed over as if it were a roster, cut anywhere
BSDATA_GST = (Path(__file__).resolve().parents[2] / "shared" / "bsdata" / "whfb8"
              / "Warhammer Fantasy 8th ed.gst")
REAL_XML = [BSDATA_GST] if BSDATA_GST.is_file() else []
LOGS = [DATA / "games" / "wh40k6" / "small.jsonl", DATA / "games" / "whfb8" / "small.jsonl",
        DATA / "games" / "killteam2018.jsonl", DATA / "games" / "wh40k6.jsonl"]

EXAMPLES = int(os.environ.get("RULEKB_PROPERTY_EXAMPLES", "40"))
PROPERTY = settings(derandomize=not os.environ.get("RULEKB_PROPERTY_RANDOM"), database=None,
                    deadline=None, max_examples=EXAMPLES,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
"""Fixed examples, a few seconds in all. To hunt for more, run with
``RULEKB_PROPERTY_EXAMPLES=2000 RULEKB_PROPERTY_RANDOM=1``."""

# errors about a whole file have no line to point at
WHOLE_FILE = {"empty", "too_large", "not_found", "io", "format", "unsafe_xml"}
ENGLISH = re.compile(r"\b(?:the|is|not|found|expected|error|invalid|could|while|value|"
                     r"Traceback|Exception)\b")


def _located(errors: tuple[InputError, ...] | list[InputError]) -> None:
    assert errors, "an unusable input must say why"
    for error in errors:
        assert error.message and "\n" not in error.message, error
        assert error.line is not None or error.kind in WHOLE_FILE, repr(error)
        # what the user wrote may be English; our words and the libraries' are not
        words = re.sub(r"«[^»]*»|'[^']*'|\"[^\"]*\"", "", error.message)
        assert not ENGLISH.search(words), error.message


# --- strategies -----------------------------------------------------------------------------

_scalars = (st.none() | st.booleans() | st.integers() | st.floats()
            | st.sampled_from([0, -1, 2**63, -(2**64), 10**300, 1e308, 1e-320])
            | st.text(max_size=12)
            | st.sampled_from(["", "5+", "2D6", "Регенерация (5+)", "шесть", "∞", "\x00"]))
json_values = st.recursive(
    _scalars, lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every field and list item of a JSON value, as key paths."""
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _paths(item, (*prefix, index))
    return out


def _replaced(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    out = copy.deepcopy(data)
    holder = out
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = value
    return out


def _dump(data: Any, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(data, ensure_ascii=False)
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@st.composite
def mutated_lists(draw: st.DrawFn) -> tuple[str, str]:
    """A real list with one field (or list item) given an arbitrary JSON value, as JSON or
    YAML text."""
    source = draw(st.sampled_from(OK_LISTS))
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    path = draw(st.sampled_from(_paths(data)))
    fmt = draw(st.sampled_from(["json", "yaml"]))
    return _dump(_replaced(data, path, draw(json_values)), fmt), fmt


YAML_ALPHABET = list("ab:- \n\t'\"[]{},&*!|>%@`#?\\0123456789.<=") + [
    "system: ", "units:", "\n  - ", "name: ", "type: ", "models: ", "rules: ", "!!int ",
    "!!python/object:os.system ", "&a ", "*a ", "<<: ", "---\n", "...\n", "%YAML 1.1\n",
    "wh40k6", "Пехота", "\x01", "\ufeff", "\udcff"]


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("properties")


# --- army lists -----------------------------------------------------------------------------


def _checked(army: ArmyList, graph: Graph) -> None:
    report = check_list(army, graph)
    assert render_text(report) and render_json(report)
    for verdict in report.verdicts:
        assert verdict.why and verdict.check


@PROPERTY
@given(case=mutated_lists())
def test_any_value_in_any_field_of_a_list(case: tuple[str, str], corpus_graph: Graph) -> None:
    text, fmt = case
    try:
        army = parse_list(text, file=f"list.{fmt}", fmt=fmt)
    except ListInputError as exc:
        _located(exc.errors)
    else:
        _checked(army, corpus_graph)


@PROPERTY
@given(text=st.lists(st.sampled_from(YAML_ALPHABET), max_size=40).map("".join))
def test_arbitrary_yaml(text: str, corpus_graph: Graph) -> None:
    text = text.encode("utf-8", "replace").decode("utf-8")  # what a file can hold
    try:
        army = parse_list(text, file="list.yaml", fmt="yaml")
    except ListInputError as exc:
        _located(exc.errors)
    else:
        _checked(army, corpus_graph)


@PROPERTY
@given(data=st.binary(max_size=600), suffix=st.sampled_from([".yaml", ".json", ".ros", ".rosz"]))
def test_arbitrary_bytes_as_a_list_file(data: bytes, suffix: str, work: Path) -> None:
    path = work / f"bytes{suffix}"
    path.write_bytes(data)
    try:
        read_list(path)
    except ListInputError as exc:
        _located(exc.errors)


def _zipped(data: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("roster.ros", data)
    return out.getvalue()


@PROPERTY
@given(source=st.sampled_from(OK_LISTS + ROSTERS + REAL_XML), cut=st.floats(0, 1),
       zipped=st.booleans())
def test_a_file_cut_anywhere(source: Path, cut: float, zipped: bool, work: Path,
                             corpus_graph: Graph) -> None:
    data = source.read_bytes()
    data = data[:int(len(data) * cut)]
    suffix = ".ros" if source.suffix == ".gst" else source.suffix
    if suffix == ".ros" and zipped:
        data, suffix = _zipped(data), ".rosz"
    elif zipped:  # a .rosz whose archive itself is cut
        data, suffix = _zipped(source.read_bytes())[:int(len(data) * cut) + 1], ".rosz"
    path = work / f"cut{suffix}"
    path.write_bytes(data)
    try:
        army = read_list(path)
    except ListInputError as exc:
        _located(exc.errors)
    else:
        _checked(army, corpus_graph)


@PROPERTY
@given(digits=st.integers(1, 6000), depth=st.integers(1, 3000),
       fmt=st.sampled_from(["json", "yaml"]), which=st.sampled_from(["number", "nesting"]))
def test_huge_numbers_and_deep_nesting(digits: int, depth: int, fmt: str, which: str,
                                       corpus_graph: Graph) -> None:
    value = "9" * digits if which == "number" else _nested(depth)
    if fmt == "json":
        text = ('{"system": "whfb8", "points_limit": ' + value + ',\n "units": [{"id": "a", '
                '"name": "Тролли", "type": "Пехота Чудовищ", "models": 3}]}')
    else:
        text = ("system: whfb8\npoints_limit: " + value + "\nunits:\n  - {id: a, name: Тролли, "
                "type: Пехота Чудовищ, models: 3}\n")
    try:
        army = parse_list(text, file=f"big.{fmt}", fmt=fmt)
    except ListInputError as exc:
        _located(exc.errors)
    else:
        _checked(army, corpus_graph)


# --- game logs ------------------------------------------------------------------------------


def _log_lines(source: Path) -> list[bytes]:
    return [line for line in source.read_bytes().splitlines() if line.strip()]


def _record(line: bytes) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return None  # a line the log's own test breaks on purpose


@st.composite
def mutated_logs(draw: st.DrawFn) -> tuple[Path, bytes]:
    """A real log whose header or one event has a field given an arbitrary value, or which
    gets a line of arbitrary bytes, a huge number or deep nesting, or is cut anywhere."""
    source = draw(st.sampled_from(LOGS))
    lines = _log_lines(source)
    how = draw(st.sampled_from(["field", "field", "bytes", "number", "nesting", "cut"]))
    index = draw(st.integers(0, len(lines) - 1))
    record = _record(lines[index])
    if how == "field" and isinstance(record, dict | list):
        path = draw(st.sampled_from(_paths(record) or [("turn",)]))
        lines[index] = json.dumps(_replaced(record, path, draw(json_values)),
                                  ensure_ascii=False).encode()
    elif how == "bytes":
        lines.insert(index, draw(st.binary(max_size=80)).replace(b"\n", b" "))
    elif how == "number":
        lines[index] = re.sub(rb"\d+", b"9" * draw(st.integers(1, 6000)), lines[index], count=1)
    elif how == "nesting":
        lines.insert(index, _nested(draw(st.integers(1, 3000))).encode())
    text = b"\n".join(lines) + b"\n"
    if how == "cut":
        text = text[:draw(st.integers(0, len(text)))]
    return source, text


@PROPERTY
@given(case=mutated_logs())
def test_any_value_in_any_field_of_a_log(case: tuple[Path, bytes], corpus_graph: Graph) -> None:
    source, text = case
    path = source.with_name(".property.jsonl")  # beside it: the armies it names are found
    try:
        path.write_bytes(text)
        report = audit_log(path, corpus_graph)
        out = io.StringIO()
        code = write_audits([path], corpus_graph, out, "json")
    finally:
        path.unlink(missing_ok=True)
    assert code in (0, 1, 2)
    json.loads(out.getvalue())
    if report.errors:
        _located(report.errors)
    for verdict in report.verdicts:
        assert verdict.line is not None and verdict.why


# --- the KB file ----------------------------------------------------------------------------


@st.composite
def mutated_kbs(draw: st.DrawFn) -> str:
    data = json.loads((DATA / "kb" / "mini_kb.json").read_text(encoding="utf-8"))
    how = draw(st.sampled_from(["field", "field", "cut", "text"]))
    if how == "text":
        return draw(st.text(max_size=60))
    if how == "cut":
        text = json.dumps(data, ensure_ascii=False, indent=1)
        return text[:draw(st.integers(0, len(text)))]
    path = draw(st.sampled_from(_paths(data)))
    return json.dumps(_replaced(data, path, draw(json_values)), ensure_ascii=False)


@PROPERTY
@given(text=mutated_kbs())
def test_any_kb_file(text: str) -> None:
    try:
        kb = store.loads(text, "kb.json")
    except store.KBFileError as exc:
        message = str(exc)
        assert message.startswith("kb.json") and "\n" not in message
    else:
        graph = Graph(kb)
        for node in graph.nodes.values():
            graph.cites(node.id)
            graph.cited_by(node.id)
            if node.kind == "unit_type":
                graph.effective_rules(node.id)


# --- the rule texts -------------------------------------------------------------------------

RULE_ALPHABET = ["Паника", "Регенерация", "Тест", " ", "\n", "\n\n", "Страница 12", "«", "»",
                 "D6", "2D6", "4+", '12"', "(5+)", "—", "-", ":", ".", "ПРАВИЛА", "Специальные "
                 "правила", "подразделение", "модель", "\t", "\r", "\x00", "\ufeff", "ё", "x"]


@PROPERTY
@given(text=st.lists(st.sampled_from(RULE_ALPHABET), max_size=60).map("".join)
       | st.binary(max_size=400).map(lambda b: b.decode("utf-8", "replace")),
       raw=st.binary(max_size=200), as_bytes=st.booleans())
def test_any_rule_text(text: str, raw: bytes, as_bytes: bool, work: Path) -> None:
    from ingest import LoadError, build, load

    folder = work / "corpus"
    folder.mkdir(exist_ok=True)
    (folder / "corpus.toml").write_text('system = "whfb8"\n', encoding="utf-8")
    (folder / "rules.txt").write_bytes(raw if as_bytes else text.encode("utf-8"))
    try:
        sources = load([folder])
    except LoadError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    built = build(sources)
    store.loads(store.dumps(built.kb))  # what is built is a valid KB


HTML_ALPHABET = ["<!DOCTYPE html>", "<html>", "<head>", "</head>", "<body>", "</body>", "<p>",
                 "</p>", "<h2>", "</h2>", "<h5>", "<br>", "<br/>", "<ul>", "<li>", "</ul>", "<ol>",
                 "<nav>", "</nav>", "<main>", "</main>", "<article>", "<b>", "</b>", "<dt>",
                 "<table>", "<tr>", "<td>", "<pre>", "</pre>", "<script>", "</script>",
                 "<!--", "-->", "<div class=\"menu\">", "</div>", "<div hidden>", "<form>",
                 "</form>", "&nbsp;", "&lt;", "<", ">", "\"", "'", "=", "Паника", "Страх",
                 " ", "\n", "\r\n", "\t", ".", "</span>", "<a href=\"x\">", "</a>", "<x-y>",
                 "<![CDATA[", "]]>", "<?xml ?>", "\ufeff"]


@PROPERTY
@given(text=st.lists(st.sampled_from(HTML_ALPHABET), max_size=80).map(
    lambda parts: "<!DOCTYPE html>" + "".join(parts)))
def test_any_web_page(text: str, work: Path) -> None:
    """Whatever the markup (unclosed, stray, nested anyhow, cut inside a tag or a comment),
    a page's text is read out of it with every change accounted for and builds a KB."""
    from ingest import build, load
    from ingest.clean import apply_edits, identity_offsets
    from ingest.clean_html import html, html_structure

    edits = html(text)
    cleaned, _, changes = apply_edits(text, identity_offsets(len(text) + 1), edits, text)
    assert all(change.reason for change in changes)
    structure = html_structure(text, lambda line: True)
    if structure is not None:
        assert all(0 <= h.start <= h.end <= len(text) for h in structure.headings)
    (work / "page.html").write_text(text, encoding="utf-8")
    store.loads(store.dumps(build(load([work / "page.html"], system="whfb8")).kb))


_RULE = "Правило {n}: модель, стоящая рядом с врагом, проходит тест на Лидерство, бросая 2D6."
_MENU = st.integers(3, 8).map(lambda k: "<br>".join(
    f"<a href=\"/{i}\">Раздел {i}</a>" for i in range(k)))
_TEMPLATE = st.sampled_from(["Дополнительно", "<b>Клуб «Молот»</b>", "Счётчик: 123",
                             "<a href=\"/\">Главная</a> | <a href=\"/f\">Форум</a> | "
                             "<a href=\"/m\">Карта сайта</a>"]) | _MENU
_RULE_SHAPES = ["<p>{r}</p>", "{r}<br>", "<div><h3>Имя {n}</h3><p>{r}</p></div>",
                "<li>{r}</li>", "<tr><td>Имя {n}</td><td><p>{r}</p></td></tr>",
                "<blockquote>{r}</blockquote>",
                "<p>{r} См. <a href=\"/a\">Страх</a>, <a href=\"/b\">Ужас</a>, "
                "<a href=\"/c\">Панику</a>, <a href=\"/d\">Бегство</a>.</p>",
                "<font size=2>{r}</font><br>", "<dl><dt>Имя {n}</dt><dd>{r}</dd></dl>",
                "<div>{r}</div>"]
_LAYOUTS = ["{t1}{text}{t2}", "<div>{t1}</div><div>{text}</div><div>{t2}</div>",
            "<table><tr><td>{t1}</td><td>{text}</td><td>{t2}</td></tr></table>",
            "<table><tr><td colspan=2>{t1}</td></tr><tr><td>{t2}</td><td>{text}</td></tr></table>",
            "<div>{t1}<div><div>{text}</div></div></div><div>{t2}</div>",
            "<table><tr><td>{t1}</td></tr></table><table><tr><td>{text}</td><td>{t2}</td></tr>"
            "</table>",
            "<center>{t1}<table><tr><td>{text}</td></tr></table>{t2}</center>",
            "<div><div>{t1}</div><div><p>Вступление: текст главы, в нём есть слова и запятые."
            "</p></div><div>{text}</div></div><div>{t2}</div>"]


@PROPERTY
@given(shapes=st.lists(st.sampled_from(_RULE_SHAPES), min_size=1, max_size=6),
       layout=st.sampled_from(_LAYOUTS), t1=_TEMPLATE, t2=_TEMPLATE,
       title=st.booleans())
def test_a_page_s_rules_are_never_left_out_as_its_template(
        shapes: list[str], layout: str, t1: str, t2: str, title: bool) -> None:
    """However a page lays its template out around its text (menus of links, labels, a
    site's name; in divisions, a table's columns or rows), each rule of its text stays: the
    menus told by their links and the text's block by its paragraphs leave no rule out."""
    from ingest.clean import apply_edits, identity_offsets
    from ingest.clean_html import html

    rows = [shape.format(r=_RULE.format(n=n), n=n) for n, shape in enumerate(shapes)]
    body = "".join(f"<ul>{row}</ul>" if row.startswith("<li>") else
                   f"<table>{row}</table>" if row.startswith("<tr>") else row for row in rows)
    text = ("<h1>Психология</h1>" if title else "") + body
    page = f"<html><body>{layout.format(t1=t1, t2=t2, text=text)}</body></html>"
    cleaned = apply_edits(page, identity_offsets(len(page) + 1), html(page), page)[0]
    flat = " ".join(cleaned.split())
    for n in range(len(shapes)):
        assert _RULE.format(n=n) in flat, (n, page)


_MD_BLOCKS = ["## Правило {n}\n\n{r}\n", "<h3>Правило {n}</h3>\n{r}\n",
              "## Правило {n}\n\n{r}<br>Ещё строка {n}.\n",
              "## Правило {n}\n\n<table>\n<tr><td><p>{r}</p></td><td>24\"</td></tr>\n</table>\n",
              "## Правило {n}\n\n| Оружие | Правило |\n| --- | --- |\n"
              "| Болтер {n} | {r}<br>ещё |\n",
              "## Правило {n}\n\n```\n<b>код</b>\n```\n\n{r}\n",
              "## Правило {n}\n\n> {r}\n\n<details><summary>Пример</summary>Пример {n}."
              "</details>\n"]


@PROPERTY
@given(blocks=st.lists(st.sampled_from(_MD_BLOCKS), min_size=1, max_size=6))
def test_a_markdown_text_s_headings_and_sentences_stay_whatever_html_it_holds(
        blocks: list[str]) -> None:
    """A text in Markdown holding HTML of its own (tables, line breaks, headings written in
    HTML, details) keeps every heading as a section and every rule's sentence."""
    from ingest.build import prepare
    from ingest.models import SourceText

    text = "# Психология\n\n" + "\n".join(
        block.format(n=n, r=_RULE.format(n=n)) for n, block in enumerate(blocks))
    cleaned, seg = prepare(SourceText(name="x.md", path="x.md", text=text, encoding="utf-8",
                                      system="whfb8"))
    titles = [section.title for section in seg.sections]
    flat = " ".join(cleaned.text.split())
    for n in range(len(blocks)):
        assert f"Правило {n}" in titles, (n, text, titles)
        assert _RULE.format(n=n) in flat or _RULE.format(n=n).rstrip(".") in flat, (n, text)
    assert "<" not in flat.replace("<b>код</b>", ""), flat


# --- through the command line ---------------------------------------------------------------


@settings(PROPERTY, max_examples=max(10, EXAMPLES // 2))
@given(case=mutated_lists(), log=mutated_logs())
def test_the_cli_never_shows_a_traceback(case: tuple[str, str], log: tuple[Path, bytes],
                                         work: Path) -> None:
    from click.testing import CliRunner

    from rulekb.cli import cli

    kb = DATA / "kb" / "mini_kb.json"
    text, fmt = case
    (work / f"list.{fmt}").write_text(text, encoding="utf-8")
    source, data = log
    path = source.with_name(".property-cli.jsonl")
    try:
        path.write_bytes(data)
        for args in (["check-list", str(work / f"list.{fmt}")], ["audit", str(path)]):
            result = CliRunner().invoke(cli, [*args, "--kb", str(kb)])
            assert result.exit_code in (0, 1, 2), result.output
            assert "Traceback" not in result.output
            assert all(line.startswith("Ошибка: ") for line in result.stderr.splitlines())
    finally:
        path.unlink(missing_ok=True)
