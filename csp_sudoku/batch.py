"""Many puzzles at once: chunked, ordered, streamed, on local cores.

:func:`check_entries` turns a stream of :class:`~csp_sudoku.io.Entry` (as
:func:`~csp_sudoku.io.read_puzzles` yields them) into a stream of
:class:`CheckResult` in the same order. Puzzles are grouped into chunks of one
geometry; each chunk is counted by one backend call (``count_many``, which the
fast backend runs wholly in compiled code). With ``jobs > 1`` chunks go to a
process pool; at most ``2 * jobs`` chunks are in flight, so memory stays bounded
on files of millions of lines and results stream as soon as their turn comes.

Any ``concurrent.futures.Executor``-like object with ``submit`` (a Dask
``distributed.Client`` included) can be passed as ``executor``.

**Dask.** :func:`dask_client` connects to a scheduler (``tcp://host:8786``) or
starts a local cluster (``local:4``); a ``distributed.Client`` passed as
``executor`` is wrapped in :class:`DaskSubmitter`, which submits every chunk as
a distinct task (``pure=False``) with retries. When a worker dies, the
scheduler runs its tasks again elsewhere and the results are still consumed in
input order, so no puzzle is lost or reported twice. Dask is optional:
``pip install 'csp_sudoku[dask]'``.
"""

from __future__ import annotations

import enum
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.backends import backend_for
from csp_sudoku.errors import SudokuError
from csp_sudoku.geometry import Geometry
from csp_sudoku.io import Entry, format_line


class Status(str, enum.Enum):
    """The verdict on one input puzzle."""

    UNIQUE = "unique"
    MULTIPLE = "multiple"
    NONE = "none"
    INVALID = "invalid"


@dataclass(frozen=True)
class CheckResult:
    """The verdict on one entry of the input.

    Attributes:
        source: the file name.
        line: 1-based line number of the puzzle in its file.
        puzzle: the puzzle as a one-line text (the raw line for an invalid entry).
        status: unique, multiple, none or invalid.
        count: number of solutions, capped at the limit (0 for invalid lines).
        reason: why a puzzle has no solution (clashing clues) or why a line is invalid.
    """

    source: str
    line: int
    puzzle: str
    status: Status
    count: int
    reason: str = ""

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (``reason`` only when there is one)."""
        out: dict[str, Any] = {
            "file": self.source,
            "line": self.line,
            "puzzle": self.puzzle,
            "status": self.status.value,
            "count": self.count,
        }
        if self.reason:
            out["reason"] = self.reason
        return out


class _Future(Protocol):
    def result(self) -> Any: ...

    def cancel(self) -> Any: ...


class _Submitter(Protocol):
    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Any: ...


class BatchError(SudokuError):
    """A batch run that cannot start: Dask missing, a scheduler that cannot be reached."""


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


def dask_client(scheduler: str, *, timeout: float = 30.0) -> Any:
    """A ``distributed.Client`` for a scheduler address, or a new local cluster.

    Args:
        scheduler: ``tcp://host:8786`` (any address Dask accepts), or
            ``local`` / ``local:N`` to start a ``LocalCluster`` of N worker
            processes with one thread each (N = every core when omitted).
        timeout: seconds to wait for the scheduler.

    Raises:
        BatchError: when Dask is not installed or the scheduler cannot be reached.
    """
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise BatchError(
            "a Dask scheduler needs dask.distributed: pip install 'csp_sudoku[dask]'"
        ) from None
    if scheduler == "local" or scheduler.startswith("local:"):
        import dask

        n = int(scheduler.split(":", 1)[1]) if ":" in scheduler else (os.cpu_count() or 1)
        # the workers' statistical profiler samples every 10 ms: measurable on CPU-bound tasks
        with dask.config.set({"distributed.worker.profile.enabled": False}):
            cluster = LocalCluster(  # type: ignore[no-untyped-call,unused-ignore]
                n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0"
            )
        return Client(cluster)  # type: ignore[no-untyped-call,unused-ignore]
    try:
        return Client(scheduler, timeout=timeout)  # type: ignore[no-untyped-call,unused-ignore]
    except (OSError, TimeoutError) as err:
        raise BatchError(f"cannot reach the Dask scheduler at {scheduler}: {err}") from None


def _count_chunk(
    geometry: Geometry | None, cells: NDArray[np.int8] | None, limit: int, backend: str
) -> NDArray[np.int64] | None:
    """Worker task: solution counts of one chunk (None for a chunk of bad lines only)."""
    if geometry is None or cells is None:
        return None
    return backend_for(geometry, backend).count_many(cells, geometry, limit)


def _verdict(count: int) -> Status:
    if count == 0:
        return Status.NONE
    return Status.UNIQUE if count == 1 else Status.MULTIPLE


def _results(chunk: list[Entry], counts: NDArray[np.int64] | None) -> Iterator[CheckResult]:
    k = 0
    for e in chunk:
        if e.puzzle is None:
            reason = e.error.describe() if e.error is not None else "invalid"
            yield CheckResult(e.source, e.line, e.text.strip(), Status.INVALID, 0, reason)
            continue
        assert counts is not None  # chunks with puzzles always carry counts
        n = int(counts[k])
        k += 1
        reason = ""
        if n == 0:
            clashes = e.puzzle.clashes()
            reason = str(clashes[0]) if clashes else "no solution"
        yield CheckResult(e.source, e.line, format_line(e.puzzle), _verdict(n), n, reason)


def _chunks(entries: Iterable[Entry], size: int) -> Iterator[tuple[Geometry | None, list[Entry]]]:
    """Group entries into runs of at most ``size`` puzzles of one geometry."""
    chunk: list[Entry] = []
    geo: Geometry | None = None
    npuzzles = 0
    for e in entries:
        if e.puzzle is not None:
            if geo is not None and e.puzzle.geometry != geo:
                yield geo, chunk
                chunk, npuzzles = [], 0
            geo = e.puzzle.geometry
            npuzzles += 1
        chunk.append(e)
        if npuzzles >= size or len(chunk) >= 4 * size:
            yield geo, chunk
            chunk, npuzzles, geo = [], 0, None
    if chunk:
        yield geo, chunk


def check_entries(
    entries: Iterable[Entry],
    *,
    limit: int = 2,
    backend: str = "auto",
    jobs: int = 1,
    chunk_size: int = 1000,
    executor: Executor | _Submitter | None = None,
) -> Iterator[CheckResult]:
    """Count the solutions of every entry, in input order, streaming.

    Args:
        entries: what :func:`csp_sudoku.io.read_puzzles` yields (bad lines included).
        limit: the cap on each count (2 answers "unique or not").
        backend: the backend name used in every worker.
        jobs: worker processes; 1 runs in this process, 0 means every core.
        chunk_size: puzzles per task; large enough that task overhead stays small.
        executor: an executor to use instead of a private process pool (e.g. a
            ``dask.distributed.Client``, wrapped in :class:`DaskSubmitter`);
            ``jobs`` then only sets how many chunks are kept in flight (for a
            Dask client, ``jobs=0`` means twice its worker threads).

    Yields:
        One :class:`CheckResult` per entry, in order.
    """
    held: deque[list[Entry]] = deque()  # chunks whose counts are in flight, in order

    def tasks() -> Iterator[tuple[Geometry | None, NDArray[np.int8] | None, int, str]]:
        for geo, chunk in _chunks(entries, chunk_size):
            held.append(chunk)
            cells = (
                np.stack([e.puzzle.cells for e in chunk if e.puzzle is not None])
                if geo is not None
                else None
            )
            yield geo, cells, limit, backend

    for counts in ordered_map(_count_chunk, tasks(), jobs=jobs, executor=executor):
        yield from _results(held.popleft(), counts)


def ordered_map(
    fn: Callable[..., Any],
    tasks: Iterable[tuple[Any, ...]],
    *,
    jobs: int = 1,
    executor: Executor | _Submitter | None = None,
) -> Iterator[Any]:
    """``fn(*task)`` for every task, in order, on local processes or any executor.

    The building block for batch work other than checking (rating, generating):
    give it chunks (a task per chunk keeps the per-task overhead small). At most
    ``2 * jobs`` tasks are in flight, so a long stream of tasks runs in bounded
    memory; when the caller stops early (an exception, Ctrl-C, ``close()``),
    the tasks not yet read are cancelled.

    Args:
        fn: a picklable function (module level).
        tasks: argument tuples, read lazily.
        jobs: worker processes when no executor is given (1 runs here, 0 every
            core); with an executor, the in-flight window (0: twice a Dask
            cluster's threads, else the cores here).
        executor: a ``concurrent.futures.Executor`` or a ``distributed.Client``.

    Yields:
        The results, in task order.
    """
    if executor is not None and _is_dask_client(executor):
        executor = DaskSubmitter(executor)
    if jobs <= 0:
        jobs = executor.slots() if isinstance(executor, DaskSubmitter) else os.cpu_count() or 1
    if executor is None and jobs == 1:
        for args in tasks:
            yield fn(*args)
        return
    own = executor is None
    if executor is None:
        from concurrent.futures import ProcessPoolExecutor  # multiprocessing: only for --jobs

        executor = ProcessPoolExecutor(jobs)
    pool: Executor | _Submitter = executor
    pending: deque[_Future] = deque()
    try:
        for args in tasks:
            pending.append(pool.submit(fn, *args))
            while len(pending) > 2 * jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for fut in pending:
            fut.cancel()
        if own and isinstance(pool, Executor):
            pool.shutdown(wait=False, cancel_futures=True)
