"""Work of a build shared out to several processes, its results taken back in order.

Three stages of a build split into pieces that need nothing of each other: detecting one
text's game system (:func:`ingest.load.detect_system`), cleaning and segmenting one text
(:func:`ingest.build.prepare`), and resolving one game system's parts
(:class:`ingest.resolve.SystemResolver`: systems never mix, so each resolves alone). A large
build runs such pieces side by side, one process a core, and takes the results back in the
pieces' order: the KB is the same, byte for byte, whatever the number of processes. A small
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
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TypeVar

PARALLEL_MIN = 256_000
"""Characters the pieces must hold together (and all but the largest piece 1/8 of it) for
them to run on several processes: below it, starting the processes costs more than the work
shared (the default corpus, 100 KB, is built in one process)."""

Item = TypeVar("Item")
Result = TypeVar("Result")


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
