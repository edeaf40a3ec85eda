"""Run tasks in order on local processes or any executor (a Dask client included).

:func:`ordered_map` is the one building block of the batch work in every layer
(checking, rating, generating): it needs nothing from the rest of the package
but its errors, so metrics and generators can use it without importing
:mod:`csp_sudoku.tools.batch`.
:mod:`csp_sudoku.tools.batch` re-exports it with :class:`DaskSubmitter`.
:class:`Pace` sizes the tasks of a batch to about a second of work each.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import BrokenExecutor, Executor, Future
from typing import Any, Protocol

from csp_sudoku.core.deadline import stop_when, watch_parent
from csp_sudoku.core.errors import ArgumentError, BatchError, SudokuError
from csp_sudoku.core.numbers import is_whole

__all__ = [
    "DaskSubmitter",
    "Pace",
    "Submitter",
    "check_jobs",
    "end_workers",
    "exit_with_parent",
    "on_spare_cores",
    "ordered_map",
    "spare_cores",
]

#: What a run says when one of its worker processes died.
_DIED = "a worker process died before finishing its task (killed, or out of memory?)"

#: Seconds between two looks of a worker at whether its parent is still alive.
PARENT_POLL = 0.25
#: Seconds between looks at the oldest task while the input is quiet (``input_waits``).
_QUIET_POLL = 0.01

#: Pools at work in this process (a worker process counts one for ever): while
#: any is, the cores are taken and :func:`spare_cores` says 1.
_POOLS_AT_WORK = [0]


def spare_cores() -> int:
    """How many cores one task of this process may use by itself: those this process
    may run on (``os.sched_getaffinity``, so ``taskset -c 0`` gives 1), or 1 in a
    worker of a pool, in a thread of a pool, and while this process runs a pool
    (the pool has the cores already: two levels of parallel work only fight)."""
    if _POOLS_AT_WORK[0] > 0 or threading.current_thread() is not threading.main_thread():
        return 1
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity on this platform (macOS, Windows)
        return os.cpu_count() or 1


def on_spare_cores(calls: Sequence[Callable[[], None]]) -> None:
    """Run every call of ``calls`` once, on this thread and on a thread for each
    other spare core (:func:`spare_cores`), each thread taking the next call
    left; returns when all have run, raising the first error met.

    For compiled kernels that release the interpreter (numba's ``nogil``) and
    are compiled already (the caller runs one call alone first): a thread that
    had to compile would wait for numba's compiler lock, which a Ctrl-C can leave
    held by this thread. Pure Python calls would only take turns. A Ctrl-C (or
    any error) in this thread stops the others taking new calls; the calls they
    are running (milliseconds) are waited for before it is raised, so nothing
    writes to the caller's arrays afterwards. The threads are daemons made for
    this run (about 0.1 ms to start, against the tens of milliseconds worth
    splitting), so nothing is left behind to survive a fork.
    """
    lock = threading.Lock()
    left = deque(calls)
    errors: list[BaseException] = []

    def take() -> Callable[[], None] | None:
        with lock:
            return left.popleft() if left and not errors else None

    def drain() -> None:  # the other threads: an error is kept for the caller
        while (call := take()) is not None:
            try:
                call()
            except Exception as err:
                with lock:
                    errors.append(err)

    others = [
        threading.Thread(target=drain, name="csp-sudoku-spare", daemon=True)
        for _ in range(min(spare_cores(), len(calls)) - 1)
    ]
    for thread in others:
        thread.start()
    try:
        while (call := take()) is not None:
            call()
    except BaseException as err:  # a Ctrl-C here too: the others stop, then it is raised
        with lock:
            errors.append(err)
        raise
    finally:
        for thread in others:
            thread.join()
    if errors:
        raise errors[0]


def exit_with_parent(parent: int | None = None, interval: float = PARENT_POLL) -> None:
    """End this process as soon as the process that started it is gone.

    The initializer of every worker process (and the start of the metrics helper):
    a parent killed with ``kill -9`` cannot shut its pool down, and a worker of a
    ``concurrent.futures`` pool would wait on its task queue for ever (it holds
    both ends of the queue's pipe, so it never sees the end of it). A daemon
    thread looks every ``interval`` seconds whether this process's parent is still
    ``parent`` (the starter passes its own pid, so a parent that died before this
    runs is seen too; None: the parent now) and otherwise ends the process at once.
    A SIGTERM ends it at once too (the default, whatever handler it was forked with),
    and a SIGINT is left to the parent: a Ctrl-C reaches the whole process group,
    and the parent, which knows what its workers were doing, ends them (see
    :func:`ordered_map`); a worker of its own would end with a traceback, or keep
    waiting for tasks. A long compiled search of the worker looks at the parent
    between two of its slices as well (:func:`csp_sudoku.core.deadline.watch_parent`):
    the watching thread cannot run while a kernel holds the interpreter.
    """
    import signal
    import time

    expected = os.getppid() if parent is None else parent
    watch_parent(expected)
    _POOLS_AT_WORK[0] += 1  # a worker of a pool for ever: its parent shares out the cores
    if threading.current_thread() is threading.main_thread():
        # a forked worker has the CLI's SIGTERM handler, which acts only between two
        # Python steps: a worker inside a compiled kernel would outlive a kill
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == expected:
            time.sleep(interval)
        os._exit(1)

    threading.Thread(target=watch, name="csp-sudoku-parent-watch", daemon=True).start()


class _Future(Protocol):
    def result(self) -> Any: ...

    def cancel(self) -> Any: ...


def _result(future: _Future) -> Any:
    """The result of a task; a worker process that died is a :class:`BatchError`."""
    try:
        return future.result()
    except BrokenExecutor as err:
        raise BatchError(_DIED) from err


def _submit(pool: Any, fn: Callable[..., Any], *args: Any) -> Any:
    """``pool.submit(fn, *args)``; a pool broken by a worker that died is a :class:`BatchError`
    (a process pool refuses new tasks once one of its workers is gone)."""
    try:
        return pool.submit(fn, *args)
    except BrokenExecutor as err:
        raise BatchError(_DIED) from err


def _threaded(
    fn: Callable[..., Any],
    tasks: Iterator[tuple[Any, ...]],
    jobs: int,
    on_stop: Callable[[int, Any], None] | None,
    input_waits: Callable[[float], bool] | None,
) -> Iterator[Any]:
    """:func:`ordered_map` on ``jobs - 1`` threads and this one (see its ``threads``).

    When the caller stops early, the tasks running in the other threads are
    asked to stop (:func:`csp_sudoku.core.deadline.stop_when`): their long
    searches end at their next slice, and the pool's shutdown does not wait
    for them to finish.
    """
    from concurrent.futures import ThreadPoolExecutor

    window = 2 * (jobs - 1)  # tasks queued for the other threads at once
    pending: deque[_Future] = deque()
    stop = threading.Event()
    _POOLS_AT_WORK[0] += 1  # this thread runs tasks too: it has one core, not all
    with ThreadPoolExecutor(jobs - 1, thread_name_prefix="csp-sudoku") as pool:

        def place(args: tuple[Any, ...]) -> _Future:
            if sum(not _done(f) for f in pending) >= window:
                return _here(fn, args)  # the others have enough: take this one
            return pool.submit(_stoppable, stop, fn, *args)

        try:
            yield from _in_order(tasks, place, pending, 4 * jobs, on_stop, input_waits)
        finally:
            _POOLS_AT_WORK[0] -= 1
            stop.set()
            for fut in pending:
                fut.cancel()


def _stoppable(stop: threading.Event, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in a thread of the pool, its long searches ended once ``stop`` is set."""
    with stop_when(stop):
        return fn(*args)


def _here(fn: Callable[..., Any], args: tuple[Any, ...]) -> Future[Any]:
    """``fn(*args)`` run in this thread, as a finished future (its error kept for its turn)."""
    done: Future[Any] = Future()
    try:
        done.set_result(fn(*args))
    except Exception as err:  # raised when its turn comes, after the results before it
        done.set_exception(err)
    return done


def _done(future: _Future) -> bool:
    """Whether a task has ended (a future with no ``done``: not known before its result)."""
    done = getattr(future, "done", None)
    return bool(done()) if callable(done) else False


def _in_order(
    tasks: Iterator[tuple[Any, ...]],
    place: Callable[[tuple[Any, ...]], _Future],
    pending: deque[_Future],
    room: int,
    on_stop: Callable[[int, Any], None] | None,
    input_waits: Callable[[float], bool] | None = None,
) -> Iterator[Any]:
    """The results of ``tasks``, each placed by ``place`` (submitted, or run here), in order.

    After each task is placed, the results at the head that are done are handed
    back, and the oldest is waited for while ``room`` tasks are placed and not
    yet handed back (``pending``, given empty, holds them). A result is thus
    handed back by the next read of a task at the latest, and sooner while
    ``input_waits(0)`` says that reading the next task would wait (tasks read
    from a quiet pipe): then each result is handed back as it is done, and
    ``input_waits(seconds)`` waits a little for the next task.
    ``on_stop``: see :func:`ordered_map`.
    """
    handed = 0  # results handed back (or raised): the index of ``pending[0]``
    finished = False
    try:
        for args in tasks:
            try:
                future = place(args)
            except BatchError:
                # a worker died while the queue was being filled: the tasks in flight
                # say so in turn (their results first, then the dead one's error)
                while pending:
                    handed += 1
                    yield _result(pending.popleft())
                raise
            pending.append(future)
            while pending and (len(pending) >= room or _done(pending[0])):
                handed += 1
                yield _result(pending.popleft())
            while pending and input_waits is not None and input_waits(0.0):
                if _done(pending[0]):
                    handed += 1
                    yield _result(pending.popleft())
                else:  # a look at the oldest task again soon, or the input as it comes
                    input_waits(_QUIET_POLL)
        while pending:
            handed += 1
            yield _result(pending.popleft())
        finished = True
    finally:
        if not finished and on_stop is not None:
            _finished_at_stop(pending, handed, on_stop)


def _finished_at_stop(
    pending: deque[_Future], first: int, on_stop: Callable[[int, Any], None]
) -> None:
    """``on_stop(index, result)`` for each task of ``pending`` done (and not failed), the
    first being task ``first``."""
    for k, future in enumerate(pending):
        if not _done(future):
            continue
        try:
            result = future.result()
        except Exception:  # failed or cancelled: nothing to keep
            continue
        on_stop(first + k, result)


class Pace:
    """How many items make one task of about :attr:`seconds` of work, from the tasks done.

    Batch work that gave every task a fixed number of items (64 puzzles to
    rate, 16 on the command line) made tasks of minutes for a slow metric, and
    a run stopped early lost what its unfinished tasks had done (a task's
    results come back together). Until a task is measured (:meth:`add`), a
    task has one item; then as many as :attr:`seconds` of work at the mean
    pace of the items measured, from 1 to the caller's cap (:meth:`size`).
    The reader of the tasks (another thread) and the caller share one.
    """

    def __init__(self, seconds: float = 1.0) -> None:
        #: The work one task aims at, in seconds.
        self.seconds = seconds
        self._done = (0.0, 0)  # seconds and items measured (one tuple: read whole)

    def add(self, seconds: float, items: int) -> None:
        """A task of ``items`` took ``seconds`` (measured where it ran)."""
        spent, count = self._done
        self._done = (spent + max(seconds, 0.0), count + items)

    def size(self, cap: int) -> int:
        """The number of items of the next task: 1 before any is measured, else the items
        that take :attr:`seconds`, from 1 to ``cap``."""
        spent, count = self._done
        if count == 0:
            return 1
        if spent <= 0:
            return max(1, cap)
        return max(1, min(cap, int(self.seconds * count / spent)))


class Submitter(Protocol):
    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Any: ...


def _is_dask_client(obj: object) -> bool:
    return type(obj).__module__.startswith("distributed") and hasattr(obj, "nthreads")


class DaskSubmitter:
    """Submit tasks to a ``dask.distributed.Client`` as distinct, retried tasks.

    Args:
        client: a connected ``distributed.Client``.
        retries: how many times a task is run again after it failed (a worker
            killed while running a task is handled by the scheduler on top).
    """

    def __init__(self, client: Any, retries: int = 3) -> None:
        self.client = client
        self.retries = retries

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Any:
        """Submit ``fn(*args)``; returns a Dask future."""
        return self.client.submit(fn, *args, pure=False, retries=self.retries)

    def slots(self) -> int:
        """Worker threads of the cluster (at least 1)."""
        return max(1, int(sum(self.client.nthreads().values())))


def check_jobs(jobs: object, error: type[SudokuError] = ArgumentError) -> int:
    """``jobs`` as the functions that take it read it: a whole number from 0 (0: every
    core); else ``error`` naming it (``jobs="2"`` raised TypeError, 1.5 went on)."""
    if isinstance(jobs, bool) or not is_whole(jobs) or jobs < 0:
        raise error(f"jobs must be a whole number from 0 (0: every core), got {jobs!r}")
    return int(jobs)


def ordered_map(
    fn: Callable[..., Any],
    tasks: Iterable[tuple[Any, ...]],
    *,
    jobs: int = 1,
    executor: Executor | Submitter | None = None,
    threads: bool = False,
    on_stop: Callable[[int, Any], None] | None = None,
    input_waits: Callable[[float], bool] | None = None,
) -> Generator[Any, None, None]:
    """``fn(*task)`` for every task, in order, on local processes, threads or any executor.

    The building block for batch work other than checking (rating, generating):
    give it chunks (a task per chunk keeps the per-task overhead small). At most
    ``2 * jobs + 1`` tasks (``4 * jobs`` with ``threads``) are read and not yet
    handed back, so a long stream of tasks runs in bounded memory; when the
    caller stops early (an exception, Ctrl-C, ``close()``), the tasks not yet
    read are cancelled. A worker process that dies (killed, out of memory)
    ends the run with a :class:`~csp_sudoku.core.errors.BatchError` once its
    task's turn comes: the results before it have been yielded. A result done
    is yielded after the next task is read (or at the end), or at once while
    ``input_waits`` says the next read would wait: see :func:`_in_order`.

    Args:
        fn: a picklable function (module level).
        tasks: argument tuples, read lazily.
        jobs: worker processes when no executor is given (1 runs here, 0 every
            core; never more than the cores); with an executor, the in-flight
            window (0: twice a Dask cluster's threads, else the cores here).
        executor: a ``concurrent.futures.Executor`` or a ``distributed.Client``.
        threads: with no executor, run the tasks in ``jobs`` threads of this
            process instead of worker processes: this thread takes a task
            whenever ``jobs - 1`` others have two each. For tasks whose work
            releases the GIL (compiled kernels built with ``nogil``): no
            process to start, no task or result to pickle. A task's error
            surfaces at its turn, as from a process.
        on_stop: when the run stops early (an error, a Ctrl-C, the caller
            closing it), called as ``on_stop(i, result)`` for every task ``i``
            (its place in ``tasks``, from 0) that was done but not yet yielded
            (one before it was not done), before the workers are ended: so that
            a caller that can keep results out of order (a bank storing
            ratings) loses none that was made.
        input_waits: ``input_waits(seconds)``: whether reading the next task
            would wait, waiting up to that long for it (tasks read from a pipe
            whose writer is quiet: :func:`csp_sudoku.core.io.input_waits`);
            while it does, each result is yielded as soon as it is done, not
            after the next read.

    Yields:
        The results, in task order.
    """
    if executor is not None and _is_dask_client(executor):
        executor = DaskSubmitter(executor)
    jobs = check_jobs(jobs)
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise ArgumentError(
            "executor must be a concurrent.futures Executor or a dask.distributed Client, "
            f"got {type(executor).__name__} {executor!r:.40}"
        )
    if jobs == 0:
        jobs = executor.slots() if isinstance(executor, DaskSubmitter) else os.cpu_count() or 1
    if executor is None:
        # workers of this machine beyond its cores only cost: --jobs 999 started 999
        # processes (8 s for three puzzles) and kept 2 * 999 tasks in memory
        jobs = min(jobs, os.cpu_count() or 1)
    if executor is None and jobs == 1:
        for args in tasks:
            yield fn(*args)
        return
    if executor is None and threads:
        yield from _threaded(fn, iter(tasks), jobs, on_stop, input_waits)
        return
    own = executor is None
    if executor is None:
        from concurrent.futures import ProcessPoolExecutor  # multiprocessing: only for --jobs

        executor = ProcessPoolExecutor(jobs, initializer=exit_with_parent, initargs=(os.getpid(),))
    pool: Executor | Submitter = executor
    pending: deque[_Future] = deque()
    finished = False  # every result read (a task may run while ``pending`` is empty)

    def place(args: tuple[Any, ...]) -> _Future:
        future: _Future = _submit(pool, fn, *args)
        return future

    try:
        yield from _in_order(iter(tasks), place, pending, 2 * jobs + 1, on_stop, input_waits)
        finished = True
    finally:
        if own and isinstance(pool, Executor):
            # every task done: the idle workers end at once, and none is left behind;
            # else (an error, the caller stopped early, even while waiting for the
            # last result) the workers are ended, and nothing waits for a task running
            if not finished:
                end_workers(pool)
            pool.shutdown(wait=finished)
        else:
            for fut in pending:
                fut.cancel()


def end_workers(pool: Executor) -> None:
    """End the worker processes of a process pool now (SIGTERM), whatever they are doing.

    For a run stopped early (a Ctrl-C, a SIGTERM, an error): a worker inside a long
    task would keep running, and the interpreter's exit waits for every worker of
    a pool (so the run seemed to ignore the signal). A worker dies of a SIGTERM at
    once, even inside a compiled kernel (:func:`exit_with_parent`). The pool then
    counts as broken: its own thread fails the tasks not done (nobody reads them
    any more; none is cancelled before, which that thread would take for an error
    of its own) and closes the queue that fed the workers, whose feeding thread
    would otherwise keep the interpreter's exit waiting on a full pipe. That
    thread's end is waited for here, two seconds at the most.
    """
    # the workers and the pool's thread by its private names, before its shutdown
    # drops them (the only way to them before Python 3.14; a Python that renamed
    # them leaves the workers to their watch of the parent)
    workers: list[Any] = list((getattr(pool, "_processes", None) or {}).values())
    manager: threading.Thread | None = getattr(pool, "_executor_manager_thread", None)
    for worker in workers:
        if worker.is_alive():
            worker.terminate()
    for worker in workers:
        worker.join(1.0)
        if worker.is_alive():  # a SIGTERM not acted on within a second
            worker.kill()
            worker.join(1.0)
    if manager is not None:
        manager.join(1.0)
    if manager is not None and manager.is_alive():
        # a worker killed while it wrote its result left half a message in the
        # result pipe: the pool's thread waits in ``recv`` for the rest, which
        # never comes (this process holds a write end too), and the interpreter's
        # exit joins that thread for ever (1 SIGTERM in 13 hung so under load).
        # With every worker gone, closing this last write end gives the reader
        # an end of file: the pool counts as broken and its thread ends.
        writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
        if writer is not None:
            writer.close()
        manager.join(1.0)
