"""Work of a build shared out to several processes, its results taken back in order.

Three stages of a build split into pieces that need nothing of each other: detecting one
text's game system (:func:`ingest.text_identity.detect_system`), cleaning and segmenting one text
(:func:`ingest.build.prepare`), and resolving one game system's parts
(:class:`ingest.resolve.SystemResolver`: systems never mix, so each resolves alone). A large
build runs such pieces side by side, one process a core, and takes the results back in the
pieces' order; a system's resolving starts as soon as its own texts are prepared, beside the
preparing of the other systems' texts (:func:`in_stages`); small pieces go to a process in
batches (:data:`BATCH_CHARS`). The KB is the same, byte for byte, whatever the number of
processes. A small
build runs them in its own process (a pool's start costs more than it saves), and so does
every build off Linux (:func:`can_fork`): a forked worker
starts with the pipeline imported, its dictionaries loaded and the build's data so far in its
memory.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from functools import partial
from queue import SimpleQueue
from types import FrameType
from typing import Any, TypeVar

PARALLEL_MIN = 256_000
"""Characters the pieces must hold together (and all but the largest piece 1/8 of it) for
them to run on several processes: below it, starting the processes costs more than the work
shared (the default corpus, 100 KB, is built in one process)."""

BATCH_CHARS = 16_000
"""Pieces smaller than this are handed to a process together, up to this many characters and
:data:`BATCH_ITEMS` pieces a batch: a piece's trip through the pool's pipes costs about what a
page of 2,000 characters' work does."""
BATCH_ITEMS = 8

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
    with _pool(n) as pool:
        order = sorted(range(len(items)), key=lambda i: (-sizes[i], i))
        place: dict[int, tuple[Future[list[Result]], int]] = {}
        for batch in _batches(order, sizes):
            future = _submit(pool, partial(_each, work), [items[i] for i in batch])
            place.update((i, (future, k)) for k, i in enumerate(batch))
        for i in range(len(items)):
            future, k = place[i]
            yield future.result()[k]


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
        with _pool(n) as pool:
            # each piece's future as it ends (a look at every piece still running at each end
            # would cost the square of their number)
            ended: SimpleQueue[Future[Any]] = SimpleQueue()

            def handed(task: Callable[[Any], Any], arg: Any) -> Future[Any]:
                future = _submit(pool, task, arg)
                future.add_done_callback(ended.put)
                return future

            working = {handed(partial(_each, work), [items[i] for i in batch]): batch
                       for batch in _batches(order, sizes, groups)}
            left = {group: len(ix) for group, ix in members.items()}
            finishing: dict[Future[Any], str] = {}
            while working or finishing:
                future = ended.get()
                if future in finishing:
                    finals[finishing.pop(future)] = future.result()
                    continue
                for i, result in zip(working.pop(future), future.result(), strict=True):
                    results[i] = result
                    if done:
                        done(i)
                    left[groups[i]] -= 1
                    if not left[groups[i]] and len(members) > 1:
                        finishing[handed(finish, finished(groups[i], results))] = groups[i]
    for group in sorted(members):
        if group not in finals:
            finals[group] = finish(finished(group, results))
    return [results[i] for i in range(len(items))], {g: finals[g] for g in sorted(finals)}


def _batches(order: Sequence[int], sizes: Sequence[int], groups: Sequence[str] | None = None
             ) -> list[list[int]]:
    """The pieces in ``order``, handed out in batches: consecutive pieces of one group together,
    up to :data:`BATCH_CHARS` characters and :data:`BATCH_ITEMS` pieces (a larger piece
    alone)."""
    batches: list[list[int]] = []
    held = 0
    for i in order:
        last = batches[-1] if batches else None
        if (last is None or held + sizes[i] > BATCH_CHARS or len(last) >= BATCH_ITEMS
                or (groups is not None and groups[last[0]] != groups[i])):
            batches.append([i])
            held = sizes[i]
        else:
            last.append(i)
            held += sizes[i]
    return batches


def _each(work: Callable[[Item], Result], items: list[Item]) -> list[Result]:
    """``work`` of each item of a batch, in a worker."""
    return [work(item) for item in items]


@contextmanager
def _pool(n: int) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``n`` forked workers (:func:`_worker_signals`), shut down on leaving. On a
    failure, Ctrl-C or a caller that stops early, the pieces not begun are dropped and those
    running are waited for (a Ctrl-C at the terminal reaches the workers too and stops them at
    once: :func:`_interruptible`); a worker is never killed, so no result is left half
    passed."""
    gc.freeze()  # what the build holds is no garbage: a worker's collections skip it
    pool = ProcessPoolExecutor(max_workers=n, mp_context=multiprocessing.get_context("fork"),
                               initializer=_worker_signals)
    try:
        yield pool
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        gc.unfreeze()


def _submit(pool: ProcessPoolExecutor, work: Callable[[Item], Result], item: Item
            ) -> Future[Result]:
    """``work(item)`` handed to the pool (:func:`_interruptible`), with Ctrl-C held back
    meanwhile: a submit may fork the pool's workers, and a worker must not take a Ctrl-C
    before it has set its signals (:func:`_worker_signals`; a signal held back reaches this
    process once released)."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        return pool.submit(_interruptible, work, item)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _worker_signals() -> None:
    """A worker's signals, set as it starts. A Ctrl-C at the terminal, or a SIGTERM sent to the
    command's process group (``timeout``, a service manager), reaches every process of the
    command; a worker takes it as an interruption only while it works on a piece
    (:func:`_interruptible`). Between pieces, when it passes a piece or a result through the
    pool's pipes, a worker that died would leave the pool broken or hung: it lets the build's
    process, which has the signal too, end the pool (:func:`_between_pieces`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _between_pieces)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _interruptible(work: Callable[[Item], Result], item: Item) -> Result:
    """``work(item)`` in a worker, a Ctrl-C or a SIGTERM stopping it (as a KeyboardInterrupt:
    its result, which the pool passes back to the build's process like any error; that process
    has the signal too and reports it)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        return work(item)
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, _between_pieces)


def _between_pieces(signum: int, frame: FrameType | None) -> None:
    """A SIGTERM to a worker between pieces: let be while the build's process lives (it ends the
    pool, and the worker with it, once its work is stopped), but a worker the build's process
    left behind (killed) ends."""
    parent = multiprocessing.parent_process()
    if parent is None or os.getppid() != parent.pid:  # (a worker left behind is reparented)
        os._exit(128 + signal.SIGTERM)
