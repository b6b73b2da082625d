"""Files written whole or not at all (``kb.files``), the KB and its cache among them, and OS
errors said in Russian."""

from __future__ import annotations

import errno
import multiprocessing
import os
from pathlib import Path

import pytest

from kb import store
from kb.files import atomic_writer, os_reason, write_text_atomic
from kb.models import KnowledgeBase


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_writes_the_whole_text_and_leaves_nothing_else(tmp_path: Path) -> None:
    target = tmp_path / "report.txt"
    with atomic_writer(target) as out:
        out.write("строка 1\r\nстрока 2\n")
        assert not target.exists()  # nothing under the name until it is complete
    assert target.read_bytes() == "строка 1\r\nстрока 2\n".encode()
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("error", [ValueError("boom"), KeyboardInterrupt()])
def test_a_failure_keeps_the_old_file(tmp_path: Path, error: BaseException) -> None:
    target = tmp_path / "kb.json"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(type(error)), atomic_writer(target) as out:
        out.write("half of the new")
        raise error
    assert target.read_text(encoding="utf-8") == "old"
    assert _leftovers(tmp_path) == []


def test_permissions_of_the_replaced_file_or_the_umask(tmp_path: Path) -> None:
    old = tmp_path / "old.txt"
    old.write_text("x", encoding="utf-8")
    old.chmod(0o640)
    write_text_atomic(old, "y")
    assert old.stat().st_mode & 0o777 == 0o640
    mask = os.umask(0o022)
    os.umask(mask)
    new = tmp_path / "new.txt"
    write_text_atomic(new, "y")
    assert new.stat().st_mode & 0o777 == 0o666 & ~mask


def test_a_symlink_is_followed(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_text_atomic(link, "new")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "new"


@pytest.mark.parametrize(("where", "error"), [
    (lambda tmp: tmp, IsADirectoryError),
    (lambda tmp: tmp / "no" / "such" / "f.txt", FileNotFoundError),
])
def test_a_place_that_cannot_be_written_fails_at_once(tmp_path: Path, where: object,
                                                      error: type[OSError]) -> None:
    with pytest.raises(error):
        with atomic_writer(where(tmp_path)):  # type: ignore[operator]
            raise AssertionError("never reached: the temporary could not be made")
    assert _leftovers(tmp_path) == []


def _write_many(path: str, letter: str) -> None:
    for _ in range(30):
        write_text_atomic(path, letter * 200_000)


def test_two_processes_writing_at_once_never_leave_a_broken_file(tmp_path: Path) -> None:
    target = tmp_path / "kb.json"
    write_text_atomic(target, "a" * 200_000)
    context = multiprocessing.get_context("spawn" if os.name != "posix" else "fork")
    writers = [context.Process(target=_write_many, args=(str(target), letter))
               for letter in "ab"]
    for writer in writers:
        writer.start()
    seen = set()
    while any(w.is_alive() for w in writers):
        text = target.read_text(encoding="utf-8")
        assert text in ("a" * 200_000, "b" * 200_000)
        seen.add(text[0])
    for writer in writers:
        writer.join()
        assert writer.exitcode == 0
    assert _leftovers(tmp_path) == []


def test_save_of_the_kb_is_atomic(tmp_path: Path, mini_kb: KnowledgeBase,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "kb.json"
    store.save(mini_kb, target)
    before = target.read_bytes()

    def no_rename(*args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", no_rename)
    with pytest.raises(OSError):
        store.save(mini_kb.model_copy(update={"nodes": ()}), target)
    assert target.read_bytes() == before
    assert _leftovers(tmp_path) == []


def test_the_default_kb_cache_has_no_fixed_temporary(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from rulekb import defaults

    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path))
    defaults.default_kb()
    [cached] = tmp_path.glob("kb-*.json")
    assert store.load(cached).nodes
    assert _leftovers(tmp_path) == [] and not list(tmp_path.glob("*.tmp"))


@pytest.mark.parametrize(("error", "text"), [
    (FileNotFoundError(errno.ENOENT, "No such file or directory"), "нет такого файла или папки"),
    (PermissionError(errno.EACCES, "Permission denied"), "нет прав доступа"),
    (IsADirectoryError(errno.EISDIR, "Is a directory"), "это папка, а не файл"),
    (NotADirectoryError(errno.ENOTDIR, "Not a directory"), "часть пути — не папка"),
    (OSError(errno.ENOSPC, "No space left on device"), "на диске нет места"),
    (OSError(errno.EROFS, "Read-only file system"), "файловая система только для чтения"),
    (OSError(errno.ENOTSOCK, "Socket operation on non-socket"),
     "ошибка операционной системы ENOTSOCK"),
    (OSError("no errno at all"), "ошибка операционной системы"),
])
def test_os_errors_in_russian(error: OSError, text: str) -> None:
    assert os_reason(error) == text
