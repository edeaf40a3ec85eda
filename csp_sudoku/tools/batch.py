"""Many puzzles at once: chunked, ordered, streamed, on local cores.

:func:`check_entries` turns a stream of :class:`~csp_sudoku.core.io.Entry` (as
:func:`~csp_sudoku.core.io.read_puzzles` yields them) into a stream of
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
from collections.abc import Iterable, Iterator
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.backends import backend_for
from csp_sudoku.core.errors import BatchError as BatchError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import Entry, format_line
from csp_sudoku.core.parallel import DaskSubmitter as DaskSubmitter
from csp_sudoku.core.parallel import Submitter
from csp_sudoku.core.parallel import ordered_map as ordered_map


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
        fields: the other fields of the input record (:attr:`csp_sudoku.core.io.Entry.fields`),
            for a writer to pass through; not part of :meth:`as_dict`.
    """

    source: str
    line: int
    puzzle: str
    status: Status
    count: int
    reason: str = ""
    fields: dict[str, Any] = field(default_factory=dict, compare=False)

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


#: The most characters of a bad line echoed in its 'invalid' row (a 25x25 line is 625).
_MAX_SHOWN = 1000


def _results(chunk: list[Entry], counts: NDArray[np.int64] | None) -> Iterator[CheckResult]:
    k = 0
    for e in chunk:
        if e.puzzle is None:
            reason = e.error.describe() if e.error is not None else "invalid"
            text = e.text.strip()
            if len(text) > _MAX_SHOWN:  # a 10 MB line is not echoed whole
                text = text[:_MAX_SHOWN] + "..."
            yield CheckResult(e.source, e.line, text, Status.INVALID, 0, reason, e.fields)
            continue
        assert counts is not None  # chunks with puzzles always carry counts
        n = int(counts[k])
        k += 1
        reason = ""
        if n == 0:
            clashes = e.puzzle.clashes()
            reason = str(clashes[0]) if clashes else "no solution"
        yield CheckResult(e.source, e.line, format_line(e.puzzle), _verdict(n), n, reason, e.fields)


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
    executor: Executor | Submitter | None = None,
) -> Iterator[CheckResult]:
    """Count the solutions of every entry, in input order, streaming.

    Args:
        entries: what :func:`csp_sudoku.core.io.read_puzzles` yields (bad lines included).
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
