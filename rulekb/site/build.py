"""Build the site: lay out the KB, write the generated pages into a copy of docs/, run Sphinx.

The repository's ``docs/`` is never written to: it is copied (keeping file times, so a
reused ``work_dir`` rebuilds only what changed) and the copy gets the generated pages.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from contextlib import ExitStack, redirect_stdout
from io import StringIO
from pathlib import Path

from sphinx.cmd.build import build_main

from kb.models import KnowledgeBase
from kb.store import dumps
from rulekb.site import sphinx_ext
from rulekb.site.docgen import cli_reference, markdown_to_rst
from rulekb.site.errors import SiteBuildError
from rulekb.site.layout import RULES_ROOT, SiteLayout
from rulekb.site.pages import site_documents
from rulekb.site.searchindex import build_index, index_json, index_script
from rulekb.site.tips import tips, tips_script

REPO_ROOT = Path(__file__).resolve().parents[2]
DOCS_DIR = REPO_ROOT / "docs"
STATIC_DIR = Path(__file__).resolve().parent / "static"
GENERATED = "_generated"
NO_BENCHMARKS = (
    "Замеры ещё не записаны: запустите бенчмарк проекта, он пишет docs/benchmarks.txt.\n"
)
_WARNINGS_SHOWN = 20


def formats_markdown() -> Path:
    """Where FORMATS.md is: ``$RULEKB_FORMATS``, else ``shared/`` beside or inside the repo."""
    candidates = [REPO_ROOT.parent / "shared" / "FORMATS.md", REPO_ROOT / "shared" / "FORMATS.md"]
    env = os.environ.get("RULEKB_FORMATS")
    if env:
        candidates.insert(0, Path(env))
    for path in candidates:
        if path.is_file():
            return path
    tried = ", ".join(str(p) for p in candidates)
    raise SiteBuildError(f"Не найден FORMATS.md для страницы форматов (искали: {tried})")


def generated_files(kb: KnowledgeBase, layout: SiteLayout) -> dict[str, str]:
    """Every generated file of the source folder: relative path → text."""
    files = {f"{doc}.rst": text for doc, text in site_documents(layout).items()}
    files[f"{GENERATED}/kb.json"] = dumps(kb)
    files[f"{GENERATED}/cli.rst.inc"] = cli_reference()
    formats = formats_markdown().read_text(encoding="utf-8")
    files[f"{GENERATED}/formats.rst.inc"] = markdown_to_rst(formats, title="Форматы файлов")
    index = build_index(layout)
    files["_static/rulekb-search-index.js"] = index_script(index)
    files["_static/rulekb-search-index.json"] = index_json(index) + "\n"
    files["_static/rulekb-tips-data.js"] = tips_script(tips(layout))
    for static in sorted(STATIC_DIR.iterdir()):
        if static.is_file():
            files[f"_static/{static.name}"] = static.read_text(encoding="utf-8")
    return files


def build_site(kb: KnowledgeBase, out_dir: Path, *, work_dir: Path | None = None) -> Path:
    """Build the HTML site of ``kb`` into ``out_dir`` and return the path of its index.html.

    Args:
        kb: the knowledge base to publish.
        out_dir: the HTML output folder (created if missing; an earlier site in it is
            replaced).
        work_dir: where to keep the source copy and Sphinx's doctrees; a temporary folder
            (removed afterwards) when None. Reusing one makes rebuilds incremental.

    Raises:
        SiteBuildError: docs/ or FORMATS.md is missing, ``out_dir`` is a file or a folder
            with other files than an earlier site, ``rulekb.cli`` does not import, or
            Sphinx reported any warning or error (the message lists them).
    """
    if not (DOCS_DIR / "conf.py").is_file():
        raise SiteBuildError(f"Не найден проект Sphinx: нет {DOCS_DIR / 'conf.py'}")
    out_dir = Path(out_dir)
    _clear_output(out_dir)
    with ExitStack() as stack:
        if work_dir is None:
            work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="rulekb-site-")))
        else:
            work = Path(work_dir)
            work.mkdir(parents=True, exist_ok=True)
        src = work / "src"
        _copy_docs(src)
        layout = SiteLayout(kb)
        files = generated_files(kb, layout)
        if not (src / "benchmarks.txt").exists():
            files["benchmarks.txt"] = NO_BENCHMARKS
        _write_files(src, files)
        sphinx_ext.remember(src / GENERATED / "kb.json", layout)
        _run_sphinx(src, work / "doctrees", out_dir, work / "warnings.txt")
    return out_dir / "index.html"


def _clear_output(out_dir: Path) -> None:
    """Empty a folder that holds an earlier site, so that no page of an old layout stays.

    A folder that is not empty and holds no site (no Sphinx ``.buildinfo``) is refused:
    the build never mixes its pages into someone's files or deletes them.
    """
    if out_dir.is_file():
        raise SiteBuildError(f"{out_dir}: это файл, а для сайта нужна папка")
    if not out_dir.is_dir() or not any(out_dir.iterdir()):
        return
    if not (out_dir / ".buildinfo").is_file():
        raise SiteBuildError(
            f"{out_dir}: папка не пуста и в ней не собранный сайт; укажите новую или пустую "
            "папку (или папку прошлой сборки сайта)"
        )
    for child in out_dir.iterdir():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()


def _copy_docs(src: Path) -> None:
    src.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("_build", "reference", "__pycache__", GENERATED, RULES_ROOT)
    shutil.copytree(DOCS_DIR, src, ignore=ignore, dirs_exist_ok=True)


def _write_files(src: Path, files: dict[str, str]) -> None:
    # drop rules pages of an earlier build in a reused work_dir that this KB no longer has
    rules = src / RULES_ROOT
    if rules.is_dir():
        for old in rules.rglob("*.rst"):
            if old.relative_to(src).as_posix() not in files:
                old.unlink()
        for folder in sorted(rules.iterdir()):
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
    for rel, text in files.items():
        path = src / rel
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            continue  # keep the file time: Sphinx then skips the unchanged page
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _run_sphinx(src: Path, doctrees: Path, out_dir: Path, warnings: Path) -> None:
    args = ["-b", "html", "-W", "--keep-going", "-q", "-d", str(doctrees), "-w", str(warnings)]
    started = time.monotonic()
    with redirect_stdout(StringIO()):
        status = build_main([*args, str(src), str(out_dir)])
    if status != 0:
        lines = []
        if warnings.is_file():
            lines = [ln for ln in warnings.read_text(encoding="utf-8").splitlines() if ln.strip()]
        shown = "\n".join(lines[:_WARNINGS_SHOWN])
        more = f"\n… и ещё {len(lines) - _WARNINGS_SHOWN}" if len(lines) > _WARNINGS_SHOWN else ""
        raise SiteBuildError(
            f"Sphinx не собрал сайт (код {status}, {time.monotonic() - started:.1f} с); "
            f"предупреждений и ошибок: {len(lines)}\n{shown}{more}"
        )
