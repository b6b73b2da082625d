"""Work of a build shared out to several processes, its results taken back in order.

Three stages of a build split into pieces that need nothing of each other: detecting one
text's game system (:func:`ingest.load.detect_system`), cleaning and segmenting one text
(:func:`ingest.build.prepare`), and resolving one game system's parts
(:class:`ingest.resolve.SystemResolver`: systems never mix, so each resolves alone). A large
build runs such pieces side by side, one process a core, and takes the results back in the
pieces' order; a system's resolving starts as soon as its own texts are prepared, beside the
preparing of the other systems' texts (:func:`in_stages`). The KB is the same, byte for byte,
whatever the number of processes. A small
build runs them in its own process (a pool's start costs more than it saves), and so does
every build off Linux (:func:`can_fork`): a forked worker
starts with the pipeline imported, its dictionaries loaded and the build's data so far in its
memory.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, TypeVar

PARALLEL_MIN = 256_000
"""Characters the pieces must hold together (and all but the largest piece 1/8 of it) for
them to run on several processes: below it, starting the processes costs more than the work
shared (the default corpus, 100 KB, is built in one process)."""

Item = TypeVar("Item")
Result = TypeVar("Result")
Final = TypeVar("Final")


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def can_fork() -> bool:
    """Whether workers may be forked here: on Linux (on macOS fork is offered but not safe
    with the system's libraries, which is why Python does not use it there by default; Windows
    has none)."""
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


def jobs_for(sizes: Sequence[int], jobs: int | None) -> int:
    """How many processes run pieces of these sizes (characters): ``jobs`` when given (at most
    one a piece), else one a core when they are large enough to share (:data:`PARALLEL_MIN`),
    else one."""
    if len(sizes) < 2 or not can_fork():
        return 1
    if jobs is not None:
        return max(1, min(jobs, len(sizes)))
    total = sum(sizes)
    if total < PARALLEL_MIN or (total - max(sizes)) * 8 < total:
        return 1  # small, or one piece holds nearly all: nothing to share
    return min(cores(), len(sizes))


def in_order(work: Callable[[Item], Result], items: Sequence[Item], sizes: Sequence[int],
             jobs: int | None = None) -> Iterator[Result]:
    """``work`` of each item, in the items' order, on :func:`jobs_for` processes (the largest
    pieces handed out first, so that no process is left with a large one at the end).

    The processes are forked when the pool starts: what the build holds then (module
    globals included) is theirs to read, and ``work`` and its results cross by pickling.
    """
    n = jobs_for(sizes, jobs)
    if n == 1:
        yield from map(work, items)
        return
    gc.freeze()  # what the build holds is no garbage: a worker's collections skip it
    pool = ProcessPoolExecutor(max_workers=n, mp_context=multiprocessing.get_context("fork"))
    try:
        order = sorted(range(len(items)), key=lambda i: (-sizes[i], i))
        futures: dict[int, Future[Result]] = {i: pool.submit(work, items[i]) for i in order}
        for i in range(len(items)):
            yield futures[i].result()
    finally:
        # (a failure, Ctrl-C or a caller that stops early: the pieces not begun are dropped,
        # not waited for)
        pool.shutdown(wait=True, cancel_futures=True)
        gc.unfreeze()


def in_stages(work: Callable[[Item], Result], items: Sequence[Item], sizes: Sequence[int],
              groups: Sequence[str], finish: Callable[[tuple[str, list[tuple[Item, Result]]]],
                                                      Final],
              jobs: int | None = None, done: Callable[[int], None] | None = None,
              ) -> tuple[list[Result], dict[str, Final]]:
    """``work`` of each item, then ``finish`` of each group of them, on :func:`jobs_for`
    processes: the results in the items' order, and each group's ``finish`` by its name.

    ``groups`` names each item's group; ``finish`` is given the group's name and its items with
    their results, in the items' order. A group's ``finish`` is handed out as soon as its
    items' work is done, beside the work on other groups' items: the largest group's items are
    handed out first (the largest first within a group), so that its ``finish``, the longest,
    starts first. ``done`` is called with each item's index once its work is back (in the
    order the work ends, which on several processes depends on timing). On one process, every
    item's work is done in that order, then each group's ``finish`` in the groups' order; and
    so is a lone group's ``finish`` on several (in this process, which would only wait).
    """
    members: dict[str, list[int]] = {}
    for i, group in enumerate(groups):
        members.setdefault(group, []).append(i)
    weight = {group: sum(sizes[i] for i in ix) for group, ix in members.items()}
    order = sorted(range(len(items)), key=lambda i: (-weight[groups[i]], groups[i], -sizes[i], i))
    n = jobs_for(sizes, jobs)

    def finished(group: str, results: dict[int, Result]) -> tuple[str, list[tuple[Item, Result]]]:
        return group, [(items[i], results[i]) for i in members[group]]

    results: dict[int, Result] = {}
    finals: dict[str, Final] = {}
    if n == 1:
        for i in order:
            results[i] = work(items[i])
            if done:
                done(i)
    else:
        gc.freeze()  # (as in in_order: what the build holds is no worker's garbage)
        pool = ProcessPoolExecutor(max_workers=n, mp_context=multiprocessing.get_context("fork"))
        try:
            working = {pool.submit(work, items[i]): i for i in order}
            left = {group: len(ix) for group, ix in members.items()}
            finishing: dict[Future[Final], str] = {}
            while working or finishing:
                running: list[Future[Any]] = [*working, *finishing]
                ended, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in ended & finishing.keys():
                    finals[finishing.pop(future)] = future.result()
                for i, future in sorted((working.pop(f), f) for f in ended & working.keys()):
                    results[i] = future.result()
                    if done:
                        done(i)
                    left[groups[i]] -= 1
                    if not left[groups[i]] and len(members) > 1:
                        finishing[pool.submit(finish, finished(groups[i], results))] = groups[i]
        finally:
            # (a failure or Ctrl-C: the pieces not begun are dropped, not waited for)
            pool.shutdown(wait=True, cancel_futures=True)
            gc.unfreeze()
    for group in sorted(members):
        if group not in finals:
            finals[group] = finish(finished(group, results))
    return [results[i] for i in range(len(items))], {g: finals[g] for g in sorted(finals)}
