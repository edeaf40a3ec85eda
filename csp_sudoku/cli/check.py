"""``csp-sudoku check``: a verdict for every puzzle of one or more files.

A run is a pipeline that keeps up with its kernel. The main process moves
bytes: it cuts the inputs into chunks of whole lines
(:func:`csp_sudoku.core.io.read_chunks`: no work per line), hands each chunk to a
task, and writes the tasks' output in input order. A task
(:func:`_check_chunk`) parses its chunk, counts the solutions of its puzzles
and formats its rows and error messages; it runs in the main process with
``--jobs 1``, on a Dask worker with ``--scheduler``, and with ``--jobs N`` in
N threads of the main process when the input is bare 9x9 lines (whose
kernels release the GIL, :func:`_gil_free`), else in worker processes. At most ``2 x jobs`` chunks are in flight, so memory does
not grow with the input. A worker that dies ends the run with an error once
its chunk's turn comes; every row before that chunk is written, so
``--resume`` goes on from there.
"""

from __future__ import annotations

import argparse
import copy
import io
import itertools
import os
import sys
import time
from collections import Counter, deque
from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from csp_sudoku._kernels import ahead
from csp_sudoku.backends import get_backend, small9
from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_NOT_ALL, EXIT_OK
from csp_sudoku.cli._common import (
    MAX_COUNT,
    RowWriter,
    add_batch_args,
    add_geometry_args,
    add_input_args,
    batch_session,
    count_lines,
    counted,
    geometry_from_args,
    int_in,
    iter_chunks,
    noting_compiles,
    progress,
)
from csp_sudoku.cli._resume import ResumePoint, read_resume_point, skip_done, with_options
from csp_sudoku.cli.variants import (
    VARIANT_MARKERS,
    answer_entry,
    answer_options,
    hook,
    stdin_may_mix,
)
from csp_sudoku.core.errors import SudokuError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import (
    ReadState,
    TextChunk,
    guess_state,
    input_waits,
    parse_line,
    read_chunk,
    record_geometry,
    shape_fields,
)
from csp_sudoku.tools.batch import (
    LIMIT_WHY,
    VERDICTS,
    BatchError,
    CountedLines,
    Status,
    Verdicts,
    count_chunk,
    ordered_map,
)

FIELDS = ("file", "line", "puzzle", "status", "count", "reason")
#: Lines per chunk: large enough that a task's overhead is small, small enough
#: that the progress bar moves and memory stays low.
CHUNK_LINES = 4096


def register(sub: Any) -> None:
    p = sub.add_parser(
        "check",
        help="say whether each puzzle has one, several or no solution",
        description=(
            "Check every puzzle of the given files (one per line, multi-line grids, "
            "JSON Lines or CSV with a puzzle column). Exit code: 0 all unique, "
            "1 some not unique, 2 bad input (a bad line, unless --skip-invalid)."
        ),
    )
    add_input_args(p)
    p.add_argument(
        "--limit",
        type=_limit_arg,
        default=2,
        help="count solutions up to this many, at least 2: 'unique' is said only after a "
        "search for a second solution found none (default 2)",
    )
    p.add_argument("--backend", default="auto", help="auto, fast, sat[:solver], cpsat, dlx")
    p.add_argument(
        "--chunk-size", type=int_in(1, 10**7), default=CHUNK_LINES, help=argparse.SUPPRESS
    )
    add_batch_args(
        p,
        resume_help="continue an interrupted run: keep the rows already in --output, check the rest",
        seed_help="accepted like on every batch command; a verdict depends on no seed",
        skip_invalid_help="keep bad lines out of the exit code (each is reported on stderr "
        "and written as an 'invalid' row either way, and the run goes on)",
    )
    p.add_argument(
        "--certify",
        metavar="DIR",
        type=_certify_folder,
        help="for every unique puzzle, write a DRAT proof that no second solution exists "
        "(DIR/<file>-<line>.drat, with its formula beside it as .cnf; check with drat-trim)",
    )
    add_geometry_args(p)
    p.set_defaults(func=hook("check", run))  # f-puzzles inputs: cli/variants.py


def _certify_folder(text: str) -> str:
    """``--certify``: the folder of the proofs (made when missing): a name, and not a
    file's (an existing file was said as "File exists", an empty name ignored)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("needs a folder name, got ''")
    if os.path.exists(text) and not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text} is a file; the proofs go into a folder")
    return text


def _limit_arg(text: str) -> int:
    """``--limit``: a count from 2 up (below 2, why: its type once said "from 1", and
    then 1 was refused)."""
    try:
        return int_in(2, MAX_COUNT)(text)
    except argparse.ArgumentTypeError:
        t = text.strip()
        if t.lstrip("+-").isdigit() and len(t) < 20 and int(t) < 2:
            raise argparse.ArgumentTypeError(
                f"must be at least 2, got {int(t)}: {LIMIT_WHY}"
            ) from None
        raise


def run(args: argparse.Namespace) -> int:
    if args.limit < 2:
        print(f"csp-sudoku check: --limit must be at least 2: {LIMIT_WHY}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.resume and not args.output:
        print("csp-sudoku check: --resume needs --output FILE", file=sys.stderr)
        return EXIT_BAD_INPUT
    geometry = geometry_from_args(args)
    point = ResumePoint()
    if args.resume:  # rows that another --limit wrote are refused
        from csp_sudoku.cli._plain import kept_check

        judge = with_options(kept_check, {"limit": args.limit})
        point = read_resume_point(args.output, args.format, judge=judge)
    appending = point.rows > 0 or point.has_header
    mixed = answer_options("check", args) if stdin_may_mix(args.inputs) else None
    fields = FIELDS if mixed is None else (*FIELDS, "fpuzzles")
    with batch_session(args.output, appending=appending, scheduler=args.scheduler) as (
        out,
        client,
    ):
        writer = RowWriter(args.format, fields, out, header=not point.has_header)
        return _check(args, geometry, writer, point, client, mixed)


def _shape(fields: dict[str, Any], geometry: Geometry | None) -> Geometry | None:
    """The shape a unique puzzle was read in: its record's, else the options'."""
    named = record_geometry(fields, geometry)
    return named if isinstance(named, Geometry) else geometry


def _certify(
    source: str,
    line: int,
    puzzle: str | Any,
    geometry: Geometry | None,
    folder: Path,
    taken: set[str],
) -> None:
    """Write the uniqueness certificate of one unique puzzle as ``FILE-LINE.drat``
    (named by :func:`csp_sudoku.tools.certify.certificate_path`; ``taken`` holds the
    names this run has written). ``puzzle`` is its line, read in ``geometry``, or
    the puzzle itself (a plain or variant one of a mixed chunk)."""
    from csp_sudoku.tools.certify import certificate_path, certify_to

    folder.mkdir(parents=True, exist_ok=True)
    target = parse_line(puzzle, geometry) if isinstance(puzzle, str) else puzzle
    certify_to(target, certificate_path(folder, source, line, taken))


@dataclass(frozen=True)
class _Job:
    """What every task of a run needs besides its chunk.

    ``mixed``: for a run that reads standard input that may hold variant entries
    (:func:`csp_sudoku.cli.variants.stdin_may_mix`), the options of their
    answers (see :func:`_mixed_chunk`); ``fields`` the rows' columns.
    """

    geometry: Geometry | None
    limit: int
    backend: str
    fmt: str
    certify: bool
    mixed: dict[str, Any] | None = None
    fields: tuple[str, ...] = FIELDS


@dataclass
class _Output:
    """A chunk's share of the run's output, as its task returns it.

    Attributes:
        text: the rows, formatted (as UTF-8 bytes from the compiled path).
        names: the CSV columns the rows were written with (None: no CSV row).
        messages: the reason of every bad line, in order.
        tally: rows per status.
        unique: with ``--certify``, ``(file, line, puzzle, shape)`` of every unique
            puzzle (its line and the shape its record named, else the options';
            or the puzzle itself, from :func:`_mixed_chunk`).
        end: the reader's state at the chunk's end.
    """

    text: str | bytes
    names: list[str] | None
    messages: list[str]
    tally: Counter[Status]
    unique: list[tuple[str, int, Any, Geometry | None]]
    end: ReadState


def _check_chunk(
    chunk: TextChunk, start: ReadState, skip: int, names: list[str] | None, job: _Job
) -> _Output:
    """Task: parse, check and format one chunk (in a worker, or in the main process).

    ``start`` is the reader's state at the chunk's start, ``skip`` the entries
    done by an earlier run, ``names`` the run's CSV columns when known.
    """
    stdin = job.mixed is not None and chunk.source == "<stdin>"
    if stdin and any(m in chunk.data for m in VARIANT_MARKERS):
        mixed = _mixed_chunk(chunk, start, skip, names, job)
        if mixed is not None:
            return mixed
    end = copy.deepcopy(start)  # the caller keeps ``start`` to compare
    done = count_chunk(
        chunk, end, geometry=job.geometry, limit=job.limit, backend=job.backend, skip=skip
    )
    if isinstance(done, CountedLines):
        if job.fmt == "text" and not job.certify:
            text = _text_rows(done, job, kernels=ahead.row_kernels())
            return _Output(text, None, [], done.tally(), [], end)
        verdicts = done.verdicts()
    else:
        verdicts = done
    text, names = _format(verdicts, job, names)
    invalid = Status.INVALID
    messages = [r for r, s in zip(verdicts.reasons, verdicts.statuses, strict=True) if s is invalid]
    unique: list[tuple[str, int, Any, Geometry | None]] = []
    if job.certify:
        fields = verdicts.fields or [{}] * len(verdicts)
        unique = [
            (src, line, puzzle, _shape(f, job.geometry))
            for src, line, puzzle, s, f in zip(
                verdicts.sources,
                verdicts.lines,
                verdicts.puzzles,
                verdicts.statuses,
                fields,
                strict=True,
            )
            if s is Status.UNIQUE
        ]
    return _Output(text, names, messages, Counter(verdicts.statuses), unique, end)


def _mixed_chunk(
    chunk: TextChunk, start: ReadState, skip: int, names: list[str] | None, job: _Job
) -> _Output | None:
    """Task: a chunk of standard input that holds variant entries, entry by entry.

    Standard input is not read ahead, so a run whose first entry was plain
    meets its variant entries here: each entry of the chunk is answered by its
    own path (:func:`csp_sudoku.cli.variants.answer_entry`: a plain puzzle's
    row as :func:`_format` writes it, a variant one's as the variant ``check``
    does). None when the chunk is bare puzzle lines after all.
    """
    end = copy.deepcopy(start)
    read = read_chunk(chunk, end, job.geometry)
    if not isinstance(read, list):
        return None
    assert job.mixed is not None
    buf = io.StringIO()
    writer = RowWriter(job.fmt, job.fields, buf, header=False, names=names)
    messages: list[str] = []
    tally: Counter[Status] = Counter()
    unique: list[tuple[str, int, Any, Geometry | None]] = []
    for entry in read[skip:]:
        item, said = answer_entry(entry, job.mixed, writer, invalid_rows=True)
        messages += said.messages
        tally[Status(said.status) if said.status else Status.INVALID] += 1
        puzzle = item.answerable
        if job.certify and said.status == Status.UNIQUE.value and puzzle is not None:
            unique.append((item.source, item.line, puzzle, None))  # the puzzle knows its shape
    return _Output(buf.getvalue(), writer.names, messages, tally, unique, end)


#: Each status as written (``Status.value`` is slow to look up row by row).
_WORDS = {s: s.value for s in Status}


def _text_rows(lines: CountedLines, job: _Job, *, kernels: ahead.RowKernels | None) -> str | bytes:
    """The text rows of a chunk of bare puzzle lines, as :func:`_format` writes them.

    With ``kernels`` (a process that counted the chunk with compiled code, see
    :func:`csp_sudoku._kernels.ahead.row_kernels`): as UTF-8 bytes, by one call
    of their ``text_rows``, which the writer passes on as they are; else (or
    for a file name that is no valid Unicode) as a string, by :func:`_format`.
    """
    try:
        prefix = f"{lines.source}:".encode()
    except UnicodeEncodeError:  # a lone surrogate: an undecodable byte of a path
        kernels = None
    if kernels is None:
        return _format(lines.verdicts(), job, None)[0]
    frozen = ahead.frozen
    notes: list[bytes] = []
    note_ends = np.zeros(len(lines.counts), np.int64)
    for i, reason in lines.reasons().items():
        notes.append(f"  # {reason}".encode())
        note_ends[i] = len(notes[-1])
    np.cumsum(note_ends, out=note_ends)
    rows: NDArray[np.uint8] = kernels.text_rows(
        np.frombuffer(prefix, np.uint8),
        np.int64(lines.first_line),
        frozen(lines.cells, np.int8),
        frozen(lines.counts, np.int64),
        _WORD_BYTES,
        _WORD_ENDS,
        np.int64(0 if job.limit == 2 else job.limit),
        np.frombuffer(b"".join(notes), np.uint8),
        frozen(note_ends, np.int64),
    )
    return rows.tobytes()


def _per_second(n: int, secs: float) -> str:
    """``n`` per ``secs`` for the summary: whole above 10 (``1,234``), else with
    a figure after the point (one puzzle typed in 3 s was "0/s")."""
    rate = n / max(secs, 1e-9)
    return f"{rate:,.0f}" if rate >= 10 else f"{rate:.1f}"


#: What :func:`_text_rows` gives the kernel: the verdict words by count capped
#: at 2 (a read-only array, like every byte string it is given, so that it
#: compiles once).
_WORD_BYTES = np.frombuffer(b"".join(s.value.encode() for s in VERDICTS), np.uint8)
_WORD_ENDS = np.cumsum([len(s.value) for s in VERDICTS], dtype=np.int64)
_WORD_ENDS.flags.writeable = False


def _format(verdicts: Verdicts, job: _Job, names: list[str] | None) -> tuple[str, list[str] | None]:
    """The rows of ``verdicts`` in the run's format, and the CSV columns used.

    Text rows are ``file:line<TAB>verdict<TAB>puzzle`` (the verdict with its
    count when ``--limit`` is not 2, ``3+`` at the limit), then ``  # reason``
    when there is one.
    """
    if job.fmt == "text":
        if job.limit == 2:
            shown = list(map(_WORDS.__getitem__, verdicts.statuses))
        else:
            shown = [  # a count at the limit is "at least": 3+, as count writes it
                f"{_WORDS[s]} {n}{'+' if n >= job.limit else ''}"
                for s, n in zip(verdicts.statuses, verdicts.counts, strict=True)
            ]
        rows = [
            f"{src}:{line}\t{word}\t{puzzle}{reason and '  # ' + reason}\n"
            for src, line, word, puzzle, reason in zip(
                verdicts.sources,
                verdicts.lines,
                shown,
                verdicts.puzzles,
                verdicts.reasons,
                strict=True,
            )
        ]
        return "".join(rows), None
    buf = io.StringIO()
    writer = RowWriter(job.fmt, job.fields, buf, header=False, names=names)
    shape = shape_fields(job.geometry)  # a record's own geometry field wins
    for r in verdicts.results():
        writer.write(r.as_dict(), "", {**shape, **r.fields} if shape else r.fields)
    return buf.getvalue(), writer.names


#: A chunk in flight: the chunk, the state its task started from, whether that
#: state is sure (not a guess), the entries skipped, and the number of its
#: input in the run.
_Held = tuple[TextChunk, ReadState, bool, int, int]


class _Pipeline:
    """The main process's side of a run: chunks out, output back in input order.

    Tasks are sent out ahead of the chunk being written, so a task may start
    before the chunk before it is read: it then starts from a guess of the
    reader's state (the input's CSV header, no grid open) and of the CSV
    columns. When its turn comes the guess is checked against what the chunk
    before really left; a task that started from a wrong guess (a multi-line
    grid cut by the chunk's start, a CSV header met late, rows with other
    pass-through columns) is done again here, from the right one.
    """

    def __init__(self, job: _Job, writer: RowWriter, *, preload: bool = False) -> None:
        self.job = job
        self.writer = writer
        #: Load the compiled kernels here before the first task is sent out (see :func:`_preload`).
        self.preload = preload
        self.held: deque[_Held] = deque()
        self.end: ReadState | None = None  # where the last chunk written left the reader
        self.guess = ReadState()  # what a chunk sent out ahead starts from
        self.input = 0  # the number of the input being sent out
        self.failure: SudokuError | OSError | None = None

    def _tasks(
        self, starts: Iterator[tuple[TextChunk, ReadState | None, int]]
    ) -> Iterator[tuple[Any, ...]]:
        try:
            for chunk, exact, skip in starts:
                sure = True
                if exact is not None:
                    start = exact
                elif chunk.first_line == 1:
                    start = ReadState()
                    self.input += 1
                    self.guess = guess_state(chunk, self.job.geometry)
                elif not self.held and self.end is not None:
                    start = self.end  # the chunk before is written: no need to guess
                else:
                    start, sure = replace(self.guess, line=chunk.first_line - 1), False
                if self.preload and chunk.lines > small9.MAX_BATCH:  # no numba for a few puzzles
                    _preload(self.job)
                self.preload = False
                names = self.writer.names
                self.held.append((chunk, start, sure, skip, self.input))
                yield chunk, start, skip, names, self.job
        except (SudokuError, OSError) as err:  # an unreadable input: said after the rows before it
            self.failure = err

    def run(
        self,
        starts: Iterator[tuple[TextChunk, ReadState | None, int]],
        jobs: int,
        executor: Any,
    ) -> Iterator[_Output]:
        """Each chunk's output, in input order (the chunks from :func:`skip_done` or fresh)."""
        try:
            first = next(starts, None)
        except (SudokuError, OSError) as err:  # an unreadable input: said at the end
            self.failure, first = err, None
        if first is not None:
            starts = itertools.chain([first], starts)
        threads = executor is None and first is not None and _gil_free(first[0], self.job)
        tasks = self._tasks(starts)  # after a failure ``starts`` gives nothing more
        for out in ordered_map(
            _check_chunk,
            tasks,
            jobs=jobs,
            executor=executor,
            threads=threads,
            input_waits=input_waits,
        ):
            chunk, start, sure, skip, number = self.held.popleft()
            known = self.writer.names
            if not sure and start != self.end:
                assert self.end is not None  # a guess is made only after an input's first chunk
                out = _check_chunk(chunk, self.end, skip, known, self.job)
            elif known is not None and out.names is not None and out.names != known:
                out = _check_chunk(chunk, start, skip, known, self.job)
            self.end = out.end
            if number == self.input:  # a CSV header met inside the input being sent out
                self.guess = replace(self.guess, header=out.end.header)
            yield out
        if self.failure is not None:
            raise self.failure


def _gil_free(chunk: TextChunk, job: _Job) -> bool:
    """Whether the run's tasks spend their time in kernels that release the GIL.

    So for the 9x9 kernels (of the ``auto`` or ``fast`` backend) on bare
    81-character lines, judged by the first line of the run: ``--jobs N`` then
    runs its tasks in N threads of this process, which counts as fast as N
    processes would (the kernels' share of a task is about 95%) without
    starting them or pickling chunks and rows. Other runs spend much of their
    time in Python (grids, CSV, other shapes, other backends) and use worker
    processes.
    """
    if job.backend not in ("auto", "fast") or job.geometry not in (None, Geometry.standard(9)):
        return False
    return len(chunk.data[:84].split(b"\n", 1)[0].rstrip(b"\r")) == 81


def _preload(job: _Job) -> None:
    """Load the kernels of a 9x9 chunk in this process, before its workers are forked.

    The kernels built ahead of time where there are some (about a
    millisecond); else numba and its kernels. With ``--jobs N`` on a
    platform that forks its workers, each of them would otherwise start
    numba and load the kernels itself (about 0.3 s of CPU each); forked
    after this, they start with them loaded, and share their pages. On an
    idle machine the wall time is the same (the workers loaded at once, on
    their own cores); on a busy one the CPU time saved is time saved.
    """
    geometry = Geometry.standard(9)
    if job.backend not in ("auto", "fast") or job.geometry not in (None, geometry):
        return  # another backend, or a grid whose kernels are not the 9x9 ones
    if job.backend == "auto" and ahead.module() is not None:
        return
    get_backend("fast").count_many(np.zeros((0, 81), np.int8), geometry, job.limit)
    chunk = TextChunk("", 1, 1, b"." * 81 + b"\n", True)
    if job.fmt == "text" and not job.certify:
        done = count_chunk(chunk, ReadState(), geometry=geometry, limit=job.limit)
        if isinstance(done, CountedLines):
            _text_rows(done, job, kernels=ahead.row_kernels())


def _saying_when_compiling(
    job: _Job, inputs: list[str], quiet: bool
) -> AbstractContextManager[None]:
    """The note of a first run that compiles numba's kernels (``noting_compiles``), where
    the run counts with them: not with the kernels built ahead of time, nor with
    another backend, nor for a few puzzles, all of which need no numba (whose
    import the note's watch would add: 0.2 s)."""
    uses_numba = job.backend == "fast" or (
        job.backend == "auto" and _more_than_a_few(inputs) and ahead.module() is None
    )
    return noting_compiles("check", "the check kernels", quiet) if uses_numba else nullcontext()


def _more_than_a_few(inputs: list[str]) -> bool:
    """Whether a file of ``inputs`` is larger than a few 9x9 lines (which are answered in
    Python, with no numba: ``small9.MAX_BATCH``); standard input and puzzles written
    inline are not looked at (no note for them)."""
    few = (small9.MAX_BATCH + 1) * 82
    return any(os.path.isfile(x) and os.path.getsize(x) > few for x in inputs)


def _forks() -> bool:
    """Whether a process pool made here forks this process (Linux, before Python 3.14)."""
    import multiprocessing

    return multiprocessing.get_start_method() == "fork"


def _check(
    args: argparse.Namespace,
    geometry: Geometry | None,
    writer: RowWriter,
    point: ResumePoint,
    client: Any,
    mixed: dict[str, Any] | None,
) -> int:
    show_bar = not args.quiet and sys.stderr.isatty()
    total_lines = count_lines(args.inputs) if show_bar else None
    bar = progress(None if total_lines is None else total_lines - point.rows, show_bar)
    tally = {s: point.tally.get(s.value, 0) for s in Status}
    started = time.perf_counter()
    code = EXIT_OK
    job = _Job(
        geometry,
        args.limit,
        args.backend,
        args.format,
        bool(args.certify),
        mixed,
        tuple(writer.fields),
    )
    jobs = 0 if client is not None and args.jobs == 1 else args.jobs
    many = (jobs if jobs > 0 else os.cpu_count() or 1) > 1
    pipeline = _Pipeline(job, writer, preload=client is None and many and _forks())
    certified: set[str] = set()  # the certificates' names written so far
    try:
        chunks = iter_chunks(args.inputs, args.chunk_size)
        starts = (
            skip_done(chunks, point, geometry) if point.rows else ((c, None, 0) for c in chunks)
        )
        with _saying_when_compiling(job, args.inputs, args.quiet):
            for out in pipeline.run(starts, jobs, client):
                for reason in out.messages:  # reported, and the run goes on
                    print(f"csp-sudoku: {reason}", file=sys.stderr)
                for status, n in out.tally.items():
                    tally[status] += n
                for source, line, puzzle, shape in out.unique:
                    _certify(source, line, puzzle, shape, Path(args.certify), certified)
                writer.write_rows(out.text, out.names)
                bar.update(out.tally.total())
    except BatchError as err:
        if not pipeline.held:
            raise
        chunk = pipeline.held[0][0]
        kept = f"the rows of the lines before {chunk.source}:{chunk.first_line}"
        if args.output:
            kept += f" are in {args.output}: run the same command with --resume to check the rest"
        else:
            kept += " are written"
        raise BatchError(f"{err}; {kept}") from err
    finally:
        bar.close()
    total = sum(tally.values())
    if total == 0:
        print("csp-sudoku: error: no puzzles found in the input", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not args.quiet:
        secs = time.perf_counter() - started
        parts = ", ".join(f"{tally[s]} {s.value}" for s in Status)
        fresh = total - point.rows
        resumed = f" ({point.rows} from the earlier run)" if point.rows else ""
        print(
            f"{counted(total, 'puzzle')}{resumed}: {parts} in {secs:.2f} s ({_per_second(fresh, secs)}/s)",
            file=sys.stderr,
        )
    if tally[Status.INVALID] and not args.skip_invalid:
        code = EXIT_BAD_INPUT
    elif tally[Status.MULTIPLE] or tally[Status.NONE]:
        code = EXIT_NOT_ALL
    return code
