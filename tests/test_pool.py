"""Systems detected, texts cleaned and segmented, systems resolved, on several processes:
how many, and the same KB as on one."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from click.testing import CliRunner

import ingest.pool as pool
from ingest import build, load
from ingest.build import COLLECTION_EVERY, fewer_collections, prepare
from kb.store import dumps
from rulekb.cli import cli
from rulekb.defaults import corpus_dir

BIG = pool.PARALLEL_MIN


@pytest.mark.parametrize(("sizes", "jobs", "cores", "expected"), [
    ((BIG,), None, 4, 1),                      # one text: nothing to share
    ((BIG,), 4, 4, 1),                         # even when asked
    ((BIG // 4,) * 4, None, 2, 2),             # large enough together: a process a core
    ((BIG // 4,) * 4, None, 8, 4),             # at most one a text
    ((BIG // 8,) * 4, None, 8, 1),             # small together: one process
    ((BIG, BIG // 10), None, 8, 1),            # one text holds nearly all
    ((BIG, BIG // 6), None, 8, 2),             # the rest holds more than an eighth
    ((BIG, *(BIG // 40,) * 20), None, 2, 2),   # many small texts beside a large one
    ((BIG, *(BIG // 400,) * 20), None, 2, 1),  # too few of them to share
    ((10, 10, 10), 2, 1, 2),                   # asked: as asked, whatever the size
    ((10, 10), 5, 1, 2),                       # but at most one a text
    ((10, 10), 1, 8, 1),
])
def test_how_many_processes(sizes: tuple[int, ...], jobs: int | None, cores: int, expected: int,
                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "cores", lambda: cores)
    monkeypatch.setattr(pool.sys, "platform", "linux")  # (the table is Linux's, where it runs)
    monkeypatch.setattr(pool.multiprocessing, "get_all_start_methods", lambda: ["fork", "spawn"])
    assert pool.jobs_for(sizes, jobs) == expected


@pytest.mark.parametrize(("platform", "methods"), [
    ("linux", ["spawn"]),                      # no fork
    ("darwin", ["spawn", "fork", "forkserver"]),  # fork offered, not safe
    ("win32", ["spawn"]),
])
def test_no_fork_no_pool(platform: str, methods: list[str],
                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool.sys, "platform", platform)
    monkeypatch.setattr(pool.multiprocessing, "get_all_start_methods", lambda: methods)
    assert pool.jobs_for((BIG, BIG), 4) == 1
    assert pool.jobs_for((BIG, BIG), None) == 1


def _corpus_and_a_page(tmp_path: Path) -> list[Path]:
    """The corpus's files and a page whose game is unknown (skipped, in its place)."""
    folder = tmp_path / "texts"
    folder.mkdir()
    for src in sorted(corpus_dir().glob("*.txt")):
        (folder / src.name).write_bytes(src.read_bytes())
    (folder / "002a_unknown.txt").write_text("Рецепт пирога: мука, яйца, сахар.\n",
                                             encoding="utf-8")
    return [folder]


def test_the_kb_is_the_same_on_one_process_and_on_several(tmp_path: Path) -> None:
    sources = load(_corpus_and_a_page(tmp_path))
    names: dict[int, list[str]] = {}
    built = {}
    for jobs in (1, 2, 3):
        names[jobs] = []
        built[jobs] = build(sources, progress=names[jobs].append, jobs=jobs)
    assert dumps(built[2].kb) == dumps(built[1].kb) == dumps(built[3].kb)
    assert built[2].skipped == built[1].skipped
    assert [name for name, _ in built[1].skipped] == ["002a_unknown.txt"]
    # each text reported once, when it is prepared: on one process the largest system's
    # texts first (WHFB's three, the largest first), on several as they end
    assert names[1] == ["001_ba20f991b5661e29.txt", "002_92d28caaab3bc019.txt",
                        "004_d2d0171a53cebe38.txt", "000_622e076ea61e0607.txt",
                        "003_0507bc63355ee559.txt"]
    assert sorted(names[2]) == sorted(names[3]) == sorted(names[1])


def test_the_results_come_back_in_the_pieces_order() -> None:
    sources = load([corpus_dir()])
    sizes = [len(s.text) for s in sources]
    assert [c.text for c, _ in pool.in_order(prepare, sources, sizes, 2)] == [
        c.text for c, _ in map(prepare, sources)]


def _word(item: tuple[Path, str]) -> str:
    import time

    folder, word = item
    time.sleep(0.02 if word.startswith("big") else 0.3)  # (the small group's work is slow)
    (folder / f"{word}.done").write_text("", encoding="utf-8")
    return word.upper()


def _finish(group_and_items: tuple[str, list[tuple[tuple[Path, str], str]]]) -> str:
    import os

    group, items = group_and_items
    folder = items[0][0][0]
    small_done = len(list(folder.glob("small*.done")))
    return f"{group}: {' '.join(result for _, result in items)}; {small_done} {os.getpid()}"


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_groups_finish_takes_its_items_in_order_and_starts_when_they_are_done(
        tmp_path: Path, jobs: int) -> None:
    import os

    words = ["small1", "big1", "small2", "big2", "small3"]
    items = [(tmp_path, w) for w in words]
    sizes = [10, 30, 10, 20, 10]  # the big group (50) before the small (30)
    done: list[int] = []
    results, finals = pool.in_stages(_word, items, sizes, [w.rstrip("123") for w in words],
                                     _finish, jobs, done=done.append)
    assert results == [w.upper() for w in words]
    assert list(finals) == ["big", "small"]
    big, small = (finals[g].split("; ") for g in ("big", "small"))
    assert big[0] == "big: BIG1 BIG2" and small[0] == "small: SMALL1 SMALL2 SMALL3"
    assert small[1].split()[0] == "3"  # a group finishes once its work is all done
    if jobs == 1:
        assert done == [1, 3, 0, 2, 4]  # the largest group's first, the largest first in it
        assert big[1] == f"3 {os.getpid()}"  # (in this process, after all the work)
    else:
        assert sorted(done) == [0, 1, 2, 3, 4]
        # the big group finished in a worker while the small group's work still ran
        assert int(big[1].split()[0]) < 3 and big[1].split()[1] != str(os.getpid())


def test_a_lone_groups_finish_runs_in_this_process(tmp_path: Path) -> None:
    import os

    items = [(tmp_path, f"big{i}") for i in range(3)]
    _, finals = pool.in_stages(_word, items, [BIG] * 3, ["big"] * 3, _finish, 2)
    assert finals["big"].endswith(f" {os.getpid()}")


def _fails(name: str) -> str:
    raise ValueError(f"сбой на {name}")


def _fails_group(group_and_items: tuple[str, list[tuple[str, str]]]) -> str:
    return _fails(group_and_items[0])


def test_a_failure_in_a_process_reaches_the_build() -> None:
    with pytest.raises(ValueError, match="сбой на a"):
        list(pool.in_order(_fails, ["a", "b"], [10, 10], 2))
    with pytest.raises(ValueError, match="сбой на [ab]"):  # (whichever fails first)
        pool.in_stages(_fails, ["b", "a"], [10, 10], ["b", "a"], _fails_group, 2)
    with pytest.raises(ValueError, match="сбой на [xy]"):
        pool.in_stages(str.upper, ["b", "a"], [10, 10], ["x", "y"], _fails_group, 2)


def _youngest_threshold(_: str) -> int:
    return gc.get_threshold()[0]


def test_a_build_collects_garbage_less_often_and_sets_it_back(tmp_path: Path) -> None:
    before = gc.get_threshold()
    seen: list[int] = []
    build(load([corpus_dir()]), progress=lambda _: seen.append(gc.get_threshold()[0]))
    assert seen and set(seen) == {COLLECTION_EVERY}
    assert gc.get_threshold() == before
    with fewer_collections():  # (a build's workers are forked inside it: they inherit it)
        assert set(pool.in_order(_youngest_threshold, ["a", "b"], [10, 10], 2)) \
            == {COLLECTION_EVERY}
        with pytest.raises(ValueError):
            with fewer_collections():
                raise ValueError
        assert gc.get_threshold()[0] == COLLECTION_EVERY
    assert gc.get_threshold() == before


def test_the_command_line_takes_the_number(tmp_path: Path) -> None:
    folder = _corpus_and_a_page(tmp_path)
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    runner = CliRunner()
    first = runner.invoke(cli, ["build", *map(str, folder), "-o", str(one), "-q", "-j", "1"])
    second = runner.invoke(cli, ["build", *map(str, folder), "-o", str(two), "-q",
                                 "--jobs", "2"])
    assert first.exit_code == second.exit_code == 1  # the unknown page skipped
    assert one.read_bytes() == two.read_bytes()
    refused = runner.invoke(cli, ["build", *map(str, folder), "-o", str(one), "-j", "0"])
    assert refused.exit_code == 2
    assert "ожидалось целое число не меньше 1" in refused.output


def test_systems_detected_on_several_processes_are_those_of_one(tmp_path: Path) -> None:
    folder = _corpus_and_a_page(tmp_path)[0]
    stated = tmp_path / "stated"
    stated.mkdir()
    (stated / "corpus.toml").write_text('[files."page.txt"]\nsystem = "wh40k6"\n',
                                        encoding="utf-8")
    (stated / "page.txt").write_text("Рецепт пирога: мука, яйца, сахар.\n", encoding="utf-8")
    one = load([folder, stated], jobs=1)
    two = load([folder, stated], jobs=2)
    assert one == two
    assert [(s.name, s.system, s.system_from) for s in two][-3:] == [
        ("003_0507bc63355ee559.txt", "killteam2018", "detected"),
        ("004_d2d0171a53cebe38.txt", "whfb8", "detected"),
        ("page.txt", "wh40k6", "corpus.toml")]
    assert [(s.system, s.system_from) for s in two if s.name == "002a_unknown.txt"] == [
        (None, None)]


def _marks(folder_and_name: tuple[Path, str]) -> str:
    import time

    folder, name = folder_and_name
    time.sleep(0.05)  # (a piece of work that takes a while)
    (folder / name).write_text("", encoding="utf-8")
    return name


def test_a_caller_that_stops_early_drops_the_pieces_not_begun(tmp_path: Path) -> None:
    # (small pieces go to a process in batches: ten batches' worth)
    items = [(tmp_path, f"{i}.done") for i in range(10 * pool.BATCH_ITEMS)]
    results = pool.in_order(_marks, items, [1] * len(items), 2)
    assert next(results) == "0.done"
    results.close()  # (as a failure or Ctrl-C in the caller does)
    assert len(list(tmp_path.glob("*.done"))) < len(items)


def test_the_help_gives_the_size_a_build_is_shared_from() -> None:
    shown = CliRunner().invoke(cli, ["build", "--help"]).output
    assert f"{pool.PARALLEL_MIN:,}".replace(",", " ") in " ".join(shown.split())


_SIGNALLED_BUILD = """
import os, signal, sys, time
sys.path.insert(0, {root!r})
from ingest import pool

def work(i):
    if i == 6:
        os.killpg(0, signal.{sig})  # (the terminal's Ctrl-C, or `timeout`, signals the group)
    time.sleep(0.01)
    return i

def finish(group_and_items):
    return sum(result for _, result in group_and_items[1])

def stop(signum, frame):
    raise SystemExit(143)

signal.signal(signal.SIGTERM, stop)
try:
    if {stages!r}:
        pool.in_stages(work, list(range(60)), [1] * 60, [str(i % 3) for i in range(60)],
                       finish, 2)
    else:
        list(pool.in_order(work, list(range(60)), [1] * 60, 2))
except KeyboardInterrupt:
    print("прервано")
    sys.exit(130)
print("не прервано")
"""


@pytest.mark.parametrize("stages", [False, True])
@pytest.mark.parametrize(("sig", "code"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_signal_to_the_whole_command_ends_it_cleanly(sig: str, code: int, stages: bool) -> None:
    """A Ctrl-C at the terminal (or a SIGTERM from `timeout`) reaches the workers too, here in
    the middle of a piece: the pieces stop, the command ends with its code, no worker prints a
    traceback and none is left waiting (a worker taking the signal while passing a result
    through the pool's pipes left the pool broken, or hung)."""
    import subprocess
    import sys

    script = _SIGNALLED_BUILD.format(root=str(Path(__file__).resolve().parents[1]), sig=sig,
                                     stages=stages)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, start_new_session=True)
    assert done.returncode == code
    assert "Traceback" not in done.stderr and "не прервано" not in done.stdout


@pytest.mark.parametrize(("sizes", "groups", "expected"), [
    ([BIG, 10, 10], None, [[0], [1, 2]]),  # a large piece alone, small ones together
    ([10] * 10, None, [list(range(8)), [8, 9]]),  # at most BATCH_ITEMS a batch
    ([9_000, 9_000, 9_000], None, [[0], [1], [2]]),  # at most BATCH_CHARS a batch
    ([10] * 4, ["a", "a", "b", "b"], [[0, 1], [2, 3]]),  # one group's pieces a batch
])
def test_small_pieces_go_to_a_process_in_batches(sizes: list[int], groups: list[str] | None,
                                                 expected: list[list[int]]) -> None:
    assert pool.BATCH_ITEMS == 8 and pool.BATCH_CHARS == 16_000  # (the table's figures)
    assert pool._batches(range(len(sizes)), sizes, groups) == expected


def test_many_small_pieces_come_back_in_order_with_their_groups() -> None:
    words = [f"{'ab'[i % 2]}{i}" for i in range(50)]
    results, finals = pool.in_stages(str.upper, words, [5] * 50, [w[0] for w in words],
                                     _joined, 2)
    assert results == [w.upper() for w in words]
    assert finals == {g: " ".join(w.upper() for w in words if w[0] == g) for g in "ab"}
    assert list(pool.in_order(str.upper, words, [5] * 50, 2)) == [w.upper() for w in words]


def _joined(group_and_items: tuple[str, list[tuple[str, str]]]) -> str:
    return " ".join(result for _, result in group_and_items[1])
