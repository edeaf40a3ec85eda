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

:func:`count_chunk` is the task of ``csp-sudoku check``, whose main process
only reads bytes: it reads one chunk of an input's lines
(:class:`~csp_sudoku.core.io.TextChunk`) and judges every entry in it, returning
:class:`Verdicts`, the verdicts as lists, or for a chunk of bare puzzle
lines :class:`CountedLines`, its cells and counts as arrays (both ways share
the verdict of a count and the reason a puzzle has no solution;
:meth:`CountedLines.verdicts` makes the lists).

**Dask.** :func:`dask_client` connects to a scheduler (``tcp://host:8786``) or
starts a local cluster (``local:4``: its workers leave a Ctrl-C to this process,
which kills them when it closes the cluster, so a stopped run ends at once); a
``distributed.Client`` passed as ``executor`` is wrapped in :class:`DaskSubmitter`,
which submits every chunk as a distinct task (``pure=False``) with retries. When a worker dies, the
scheduler runs its tasks again elsewhere and the results are still consumed in
input order, so no puzzle is lost or reported twice. Dask is optional:
``pip install 'csp_sudoku[dask]'``.
"""

from __future__ import annotations

import contextlib
import enum
import functools
import logging
import os
import signal
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from csp_sudoku._kernels import ahead
from csp_sudoku.backends import backend_per_call
from csp_sudoku.core.errors import ArgumentError
from csp_sudoku.core.errors import BatchError as BatchError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import (
    Entry,
    ReadState,
    TextChunk,
    format_line,
    numpy_cells,
    read_chunk,
)
from csp_sudoku.core.numbers import is_whole
from csp_sudoku.core.parallel import DaskSubmitter as DaskSubmitter
from csp_sudoku.core.parallel import Submitter, exit_with_parent
from csp_sudoku.core.parallel import ordered_map as ordered_map
from csp_sudoku.core.puzzle import Puzzle, format_lines


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
        from distributed import Client
    except ImportError:
        raise BatchError(
            "a Dask scheduler needs dask.distributed: pip install 'csp_sudoku[dask]'"
        ) from None
    if scheduler == "local" or scheduler.startswith("local:"):
        import dask

        n = _local_workers(scheduler)
        given = dask.config.get("distributed.worker.preload", None) or []
        # this module's dask_setup runs in each worker as it starts
        preload = [*([given] if isinstance(given, str) else given), __name__]
        # the workers' statistical profiler samples every 10 ms: measurable on CPU-bound tasks
        with dask.config.set({"distributed.worker.profile.enabled": False}):
            cluster = _quick_local_cluster()(
                n_workers=n,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                preload=preload,
            )
        return Client(cluster)  # type: ignore[no-untyped-call,unused-ignore]
    _check_address(scheduler)
    try:
        return Client(scheduler, timeout=timeout)  # type: ignore[no-untyped-call,unused-ignore]
    except (OSError, TimeoutError) as err:
        raise BatchError(f"cannot reach the Dask scheduler at {scheduler}: {err}") from None


def dask_setup(worker: Any) -> None:
    """Dask's preload hook: run in every worker process of a local cluster as it starts.

    The worker is then one of this process's, as a worker of a process pool is
    (:func:`~csp_sudoku.core.parallel.exit_with_parent`): a Ctrl-C, which reaches the
    whole process group, is left to this process, which kills its workers when it
    closes the cluster (:func:`_quick_local_cluster`). A worker that took the Ctrl-C
    itself stopped its event loop with a warning and went on with its task, and
    the cluster's close then waited four seconds before killing it.
    """
    exit_with_parent()


#: Seconds that closing a local cluster waits for its loop to kill the workers.
_KILL_WITHIN = 2.0

#: The loggers that a closing local cluster silences: those of Dask's servers and their loop.
_DASK_LOGGERS = ("distributed", "tornado", "asyncio")


@contextlib.contextmanager
def _dask_silenced() -> Iterator[None]:
    """Dask's loggers drop every record inside the block.

    While a local cluster closes its servers end one another's connections, and
    they log each end as a warning or a traceback: noise on the standard error of
    a run that was told to stop, where the command line says so in one line.
    """
    loggers = [
        logging.getLogger(name)
        for name in [*_DASK_LOGGERS, *logging.root.manager.loggerDict]
        if name.split(".", 1)[0] in _DASK_LOGGERS
    ]
    before = [lg.disabled for lg in loggers]
    for lg in loggers:
        lg.disabled = True
    try:
        yield
    finally:
        for lg, was in zip(loggers, before, strict=True):
            lg.disabled = was


@functools.cache
def _quick_local_cluster() -> type[Any]:
    """A subclass of Dask's ``LocalCluster`` that closes at once (made when first
    asked for: Dask is optional).

    Its close kills the worker processes first (SIGKILL) and then closes the rest,
    with Dask's loggers silenced (:func:`_dask_silenced`). ``LocalCluster``'s own
    close asks each worker to stop and waits for it: four seconds for a worker
    inside a long task (a count of an empty grid to a big limit), which it then
    kills, after warnings and tracebacks of the servers ending. A run of the
    command line stopped by a Ctrl-C or a SIGTERM took that long to end. Killing
    loses nothing: by its close, the cluster's client has read what it wants.
    """
    from distributed import LocalCluster

    class QuickLocalCluster(LocalCluster):
        """A ``LocalCluster`` whose close kills its workers instead of waiting on them."""

        def close(self, timeout: float | None = None) -> Any:
            with _dask_silenced():
                if not self.asynchronous:
                    # a close called on the loop itself (a failed start) cannot wait for
                    # it: the workers are then closed as LocalCluster closes them
                    with contextlib.suppress(Exception):
                        self.sync(  # type: ignore[no-untyped-call,unused-ignore]
                            self._kill_workers, callback_timeout=_KILL_WITHIN
                        )
                return super().close(timeout)

        async def _kill_workers(self) -> None:
            for nanny in list(self.workers.values()):
                process = getattr(getattr(nanny, "process", None), "process", None)
                if process is None or not process.is_alive():
                    continue
                # a nanny whose worker died restarts it, unless it knows it closes
                nanny.close_gracefully()
                with contextlib.suppress(OSError):
                    os.kill(process.pid, signal.SIGKILL)

    return QuickLocalCluster


def _check_address(scheduler: str) -> None:
    """BatchError unless Dask can read ``scheduler`` as an address; a TCP or TLS
    one needs a port from 1 to 65535.

    Checked before a ``Client`` is made: a Client that fails to parse its
    address is left half-started and disturbs later Clients of the process.
    """
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(scheduler)
        port = parse_host_port(location)[1] if scheme in ("tcp", "tls") else 1
    except ValueError as err:
        port, why = 0, str(err)
    else:
        why = f"port {port} is outside 1..65535"
    if not 1 <= port <= 65535:
        raise BatchError(
            f"{scheduler!r} is no Dask scheduler address ({why}); "
            "give tcp://HOST:PORT, local or local:N"
        )


def _local_workers(scheduler: str) -> int:
    """N of ``local:N`` (every core for ``local``); BatchError unless N is a positive integer."""
    if ":" not in scheduler:
        return os.cpu_count() or 1
    text = scheduler.split(":", 1)[1]
    if not text.isdigit() or int(text) < 1:
        raise BatchError(f"local:N needs a positive number of workers, got {scheduler!r}")
    return int(text)


def _count_chunk(
    geometry: Geometry | None, cells: NDArray[np.int8] | None, limit: int, backend: str
) -> NDArray[np.int64] | None:
    """Worker task: solution counts of one chunk (None for a chunk of bad lines only)."""
    if geometry is None or cells is None:
        return None
    return backend_per_call(geometry, backend).count_many(cells, geometry, limit)


#: The verdict on a puzzle by its count capped at 2.
VERDICTS = (Status.NONE, Status.UNIQUE, Status.MULTIPLE)


#: Why a verdict needs a limit of at least 2: "unique" is only ever said of a puzzle whose
#: search for a second solution ended without one.
LIMIT_WHY = (
    "a verdict needs a search for a second solution: 'unique' is said only when none "
    "exists (to ask only whether a puzzle has a solution, use count --limit 1)"
)


def verdict_limit(limit: int) -> int:
    """``limit`` when it can prove a verdict (2 or more), else :class:`ArgumentError`."""
    if not is_whole(limit) or limit < 2:
        raise ArgumentError(f"limit must be an integer of at least 2, got {limit!r}: {LIMIT_WHY}")
    return int(limit)


def _verdict(count: int) -> Status:
    return VERDICTS[min(count, 2)]


def _no_solution_reason(puzzle: Puzzle) -> str:
    """Why a puzzle has no solution: its first clash, when it has one."""
    clashes = puzzle.clashes()
    return str(clashes[0]) if clashes else "no solution"


#: The most characters of a bad line echoed in its 'invalid' row (a 25x25 line is 625).
_MAX_SHOWN = 1000


@dataclass
class Verdicts:
    """The verdicts on consecutive entries, one list per field of :class:`CheckResult`.

    What a chunk of input becomes in a worker of ``check``: a few lists built
    from arrays, cheap to make and to format, where an object per puzzle
    would cost more than checking it. :meth:`results` gives the objects.
    ``fields`` is empty when no entry has any (puzzles read one per line).
    """

    sources: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    puzzles: list[str] = field(default_factory=list)
    statuses: list[Status] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    fields: list[dict[str, Any]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.lines)

    def add(self, entry: Entry, count: int | None) -> None:
        """Append the verdict on ``entry``: its count, or None for a bad line."""
        if entry.puzzle is None:
            reason = entry.error.describe() if entry.error is not None else "invalid"
            text = entry.text.strip()
            if len(text) > _MAX_SHOWN:  # a 10 MB line is not echoed whole
                text = text[:_MAX_SHOWN] + "..."
            status, count, puzzle = Status.INVALID, 0, text
        else:
            assert count is not None  # every puzzle is counted
            status, puzzle = _verdict(count), format_line(entry.puzzle)
            reason = _no_solution_reason(entry.puzzle) if count == 0 else ""
        self.sources.append(entry.source)
        self.lines.append(entry.line)
        self.puzzles.append(puzzle)
        self.statuses.append(status)
        self.counts.append(count)
        self.reasons.append(reason)
        self.fields.append(entry.fields)

    def results(self) -> Iterator[CheckResult]:
        """One :class:`CheckResult` per entry, in order."""
        fields: Iterable[dict[str, Any]] = self.fields or ({} for _ in self.lines)
        for row in zip(
            self.sources,
            self.lines,
            self.puzzles,
            self.statuses,
            self.counts,
            self.reasons,
            fields,
            strict=True,
        ):
            yield CheckResult(*row)


@dataclass(frozen=True)
class CountedLines:
    """The counts of a chunk of bare puzzle lines, kept as arrays.

    What :func:`count_chunk` gives for a chunk read by the fast path: line
    ``first_line + i`` holds puzzle ``cells[i]``, with ``counts[i]``
    solutions. A writer that can format rows from arrays (``check``'s text
    rows) skips the lists of :class:`Verdicts`; :meth:`verdicts` makes them.
    """

    source: str
    first_line: int
    cells: NDArray[np.int8]
    geometry: Geometry
    counts: NDArray[np.int64]

    def reasons(self) -> dict[int, str]:
        """The reason of each puzzle without a solution, by row (the rows of the others have none)."""
        return {
            i: _no_solution_reason(Puzzle.trusted(self.cells[i], self.geometry))
            for i in np.flatnonzero(self.counts == 0).tolist()
        }

    def tally(self) -> Counter[Status]:
        """How many rows have each verdict."""
        per_verdict = np.bincount(np.minimum(self.counts, 2), minlength=3).tolist()
        return Counter({s: n for s, n in zip(VERDICTS, per_verdict, strict=True) if n})

    def verdicts(self) -> Verdicts:
        """The same verdicts as lists."""
        n = len(self.counts)
        reasons = [""] * n
        for i, reason in self.reasons().items():
            reasons[i] = reason
        return Verdicts(
            [self.source] * n,
            list(range(self.first_line, self.first_line + n)),
            format_lines(self.cells),
            list(map(VERDICTS.__getitem__, np.minimum(self.counts, 2).tolist())),
            self.counts.tolist(),
            reasons,
        )


def _judge(chunk: list[Entry], counts: NDArray[np.int64] | None, into: Verdicts) -> None:
    """Append the verdicts on a chunk's entries; ``counts`` holds one per puzzle, in order."""
    k = 0
    for e in chunk:
        if e.puzzle is None:
            into.add(e, None)
            continue
        assert counts is not None  # chunks with puzzles always carry counts
        into.add(e, int(counts[k]))
        k += 1


def _cells(geometry: Geometry | None, chunk: list[Entry]) -> NDArray[np.int8] | None:
    """The cells of a chunk's puzzles (all of ``geometry``), None when it has none."""
    if geometry is None:
        return None
    return np.stack([e.puzzle.cells for e in chunk if e.puzzle is not None])


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
        limit: the cap on each count, at least 2 (2 answers "unique or not").
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
    limit = verdict_limit(limit)
    held: deque[list[Entry]] = deque()  # chunks whose counts are in flight, in order

    def tasks() -> Iterator[tuple[Geometry | None, NDArray[np.int8] | None, int, str]]:
        for geo, chunk in _chunks(entries, chunk_size):
            held.append(chunk)
            yield geo, _cells(geo, chunk), limit, backend

    for counts in ordered_map(_count_chunk, tasks(), jobs=jobs, executor=executor):
        verdicts = Verdicts()
        _judge(held.popleft(), counts, verdicts)
        yield from verdicts.results()


def _compiled_cells(
    rows: NDArray[np.uint8], ncells: int, crlf: bool, size: int, values: NDArray[np.uint8]
) -> NDArray[np.int8] | None:
    """The compiled :data:`~csp_sudoku.core.io.PlainReader`, for a process that has one loaded.

    One pass over the bytes (``plain_cells`` of
    :func:`csp_sudoku._kernels.ahead.row_kernels`) where numpy makes several:
    about half the time of :func:`~csp_sudoku.core.io.numpy_cells`, which
    answers the same.
    """
    kernels = ahead.row_kernels()
    if kernels is None:
        return numpy_cells(rows, ncells, crlf, size, values)
    ok, cells = kernels.plain_cells(
        ahead.frozen(rows, np.uint8),
        np.int64(ncells),
        np.int64(crlf),
        np.int64(size),
        ahead.frozen(values, np.uint8),
    )
    return cells if ok else None


def count_chunk(
    chunk: TextChunk,
    state: ReadState,
    *,
    geometry: Geometry | None = None,
    limit: int = 2,
    backend: str = "auto",
    skip: int = 0,
) -> Verdicts | CountedLines:
    """Read one chunk of an input's lines and count the solutions of its puzzles, here.

    The work of one task of ``check``: a chunk of bare puzzle lines is read
    (:func:`csp_sudoku.core.io.read_chunk`'s fast path) and counted as arrays,
    and stays arrays (:class:`CountedLines`); any other chunk is judged entry
    by entry, as :func:`check_entries` judges entries.

    Args:
        chunk: the lines.
        state: the reader's state at the chunk's start; moved to its end.
        geometry: the shape of every puzzle; inferred per puzzle when omitted.
        limit: the cap on each count, at least 2 (a verdict of unique must be proven).
        backend: the backend name.
        skip: entries at the start left out (done by an earlier run).

    Returns:
        The verdicts on the entries, in order.

    Raises:
        ArgumentError: ``limit`` is below 2.
    """
    limit = verdict_limit(limit)
    reader = numpy_cells if ahead.row_kernels() is None else _compiled_cells
    read = read_chunk(chunk, state, geometry, reader=reader)
    if isinstance(read, list):
        verdicts = Verdicts()
        for geo, part in _chunks(read[skip:], len(read) + 1):  # one count per geometry run
            _judge(part, _count_chunk(geo, _cells(geo, part), limit, backend), verdicts)
        return verdicts
    cells, geo = read
    cells = cells[skip:]
    if not len(cells):
        return Verdicts()
    counts = backend_per_call(geo, backend).count_many(cells, geo, limit)
    return CountedLines(chunk.source, chunk.first_line + skip, cells, geo, counts)
