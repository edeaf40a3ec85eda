"""Variant puzzles (f-puzzles JSON, ``?load=`` links, rows with ``fpuzzles``) on ``check``,
``count``, ``solve``, ``candidates`` and ``rate``.

**Routing.** ``check``, ``count`` and ``solve`` hand their run here
(:func:`hook`; ``rate`` through :mod:`csp_sudoku.cli.variant_rate`) when an
input holds a variant puzzle (:func:`is_variant_input`): a ``.json`` file (one
f-puzzles object), an f-puzzles link (``?load=``), or a file or standard input
(``-``) whose entries are f-puzzles objects, links, or result rows that carry
their puzzle's f-puzzles object in an ``fpuzzles`` field (what every command
here writes, and ``generate --killer``). A CSV row is a variant puzzle only
when its ``fpuzzles`` field is filled: under the same column, an empty one is
the plain puzzle of its ``puzzle`` field. Standard input is looked at once: its
first entry (and, under a CSV header with an ``fpuzzles`` column, its first
row) is read and kept (:func:`_peek_stdin`), and whichever path runs reads it
again from the start.

**Reading.** :func:`read_inputs` yields every entry of the inputs, in order: a
variant puzzle, or, in a run that answers plain puzzles too, a plain one (a
puzzle line, a grid, a row with a ``puzzle`` field and no ``fpuzzles``), or
the error that stands in an entry's place. A row with ``fpuzzles`` is always
its variant puzzle, never the givens' line in its ``puzzle`` field. The other
fields of an input row pass through to the rows written, as for plain puzzles.

**One batch loop** (:func:`run_batch`) answers every entry by the command's
per-puzzle work (:class:`Batch`: :func:`answer` here, the rating of
:mod:`~csp_sudoku.cli.variant_rate`), in ``--jobs`` worker processes or on a
Dask cluster through :func:`csp_sudoku.core.parallel.ordered_map`, and writes
each entry's rows at once, in input order, as text, JSON Lines or CSV, to
standard output or through the ``-o`` machinery of
:func:`csp_sudoku.cli._common.batch_session` (``FILE.partial`` renamed into
place, ``--resume``). Plain puzzles of a mixed run (``check plain.txt
killer.json``) get the rows the plain command writes
(:mod:`csp_sudoku.cli._plain`), variant ones the rows below; one summary, one
exit code. A JSON or CSV row of a variant puzzle carries its f-puzzles object
in ``fpuzzles`` (JSON text in a CSV cell), so that it reads back as the same
puzzle. An entry that cannot be read is reported on stderr as
``FILE:LINE: field[index]: reason`` (a JSON error with its column), the others
are still answered, and the exit code is 2 at the end (unless
``--skip-invalid``). ``check --certify DIR`` writes a DRAT proof of every
unique puzzle (:func:`csp_sudoku.tools.certify.certify_to`); ``count
--budget-seconds S`` gives each count about S seconds and writes the
solutions found by then as a lower bound (``capped`` and ``budget``, exit 1).
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import csv
import functools
import io
import itertools
import json
import os
import re
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_NOT_ALL, EXIT_OK
from csp_sudoku.cli._common import (
    JOBS,
    MAX_COUNT,
    RowWriter,
    _looks_like_path,
    add_geometry_args,
    add_row_args,
    batch_session,
    counted,
    flush_rows,
    geometry_from_args,
    int_in,
    noting_compiles,
    progress,
)
from csp_sudoku.cli._resume import Judge, Kind, OptionsJudge, with_options
from csp_sudoku.cli._rows import WHERE, Kept, again_rows, entries_after, last_entry, summary
from csp_sudoku.core.errors import (
    ArgumentError,
    CountBudgetExceeded,
    DeadlinePassed,
    ParseError,
    SudokuError,
)

if TYPE_CHECKING:  # the constraints load OR-tools: only a variant input needs them
    from csp_sudoku.constraints import VariantPuzzle
    from csp_sudoku.core.geometry import Geometry
    from csp_sudoku.core.io import Entry
    from csp_sudoku.core.puzzle import Puzzle

Command = Callable[[argparse.Namespace], int]

#: The columns of each command's JSON and CSV rows: those of the plain puzzles'
#: rows (``puzzle`` is the givens' line), ``candidates`` a list of each cell's
#: digits (a string of symbols, 1-9 then A for 10: see :func:`answer`), and
#: ``fpuzzles`` the puzzle's f-puzzles object (empty for a plain one).
FIELDS: dict[str, tuple[str, ...]] = {
    "check": ("file", "line", "puzzle", "status", "count", "reason", "fpuzzles"),
    "count": ("file", "line", "puzzle", "count", "capped", "fpuzzles"),
    "solve": ("file", "line", "puzzle", "solution", "solutions", "status", "capped", "fpuzzles"),
    "candidates": ("file", "line", "puzzle", "candidates", "fpuzzles"),
}
#: One puzzle's answer: exit code (0, or 1 when it fails the command's question;
#: 2 when it cannot be answered), its rows as ``(row, text)`` (``{where}`` in the
#: text stands for ``FILE:LINE``), a note for stderr.
Answer = tuple[int, list[tuple[dict[str, Any], str]], str | None]


# ------------------------------------------------------------------ routing
def _variant_line(text: str, *, first: bool, columns: list[str] | None = None) -> bool:
    """Whether one line of an input is (or starts) a variant entry.

    A link, a JSON object of :func:`~csp_sudoku.core.io.is_variant_record`, a CSV row whose
    ``fpuzzles`` field is filled (``columns``: the header of the input's CSV
    rows, when it names an ``fpuzzles`` column); and, as the ``first`` line of
    an input, a ``{`` that opens a JSON object written over several lines (one
    f-puzzles file). A CSV header is none: the rows under an ``fpuzzles``
    column are plain puzzles where it is empty (``check - --format csv`` of
    plain puzzles writes that column, empty, for the variant entries it may meet).
    """
    from csp_sudoku.core.io import is_variant_record

    s = text.strip().lstrip("\ufeff")
    if s.startswith("{"):
        try:
            rec = json.loads(s)
        except (ValueError, RecursionError):
            return first
        return isinstance(rec, dict) and is_variant_record(rec)
    if "load=" in s:
        return True
    return columns is not None and _fpuzzles_filled(s, columns)


def _csv_columns(text: str) -> list[str] | None:
    """The columns of a CSV header (a line naming a ``puzzle`` or ``fpuzzles`` column),
    else None."""
    if text.startswith("{") or "," not in text:
        return None
    with contextlib.suppress(csv.Error):
        names = [c.strip() for c in next(csv.reader([text]), [])]
        if {"puzzle", "fpuzzles"} & set(names):
            return names
    return None


def _fpuzzles_filled(text: str, columns: list[str]) -> bool:
    """Whether a CSV row under the header ``columns`` fills its ``fpuzzles`` field (a
    variant puzzle's row); False for a row of another shape, or for the header
    again (files joined with ``cat``), which the puzzle reader reads as it does."""
    if "fpuzzles" not in columns:
        return False
    with contextlib.suppress(csv.Error):
        values = next(csv.reader([text]), [])
        if len(values) == len(columns):
            value = values[columns.index("fpuzzles")].strip()
            return value not in ("", "fpuzzles")
    return False


#: Bytes that every variant entry's line holds one of (a row's field, a link,
#: an object's grid): a chunk of input without any holds none.
VARIANT_MARKERS = (b"fpuzzles", b"load=", b'"grid"')


#: How far a file is looked through for variant entries: one that starts with
#: plain puzzle lines, one of records (about 40 ms of reading, where a check of
#: the rows takes seconds; the plain reader refuses an ``fpuzzles`` row beyond).
_PLAIN_LOOK = 1 << 20
_RECORDS_LOOK = 1 << 24


def _file_is_variant(path: str) -> bool:
    """Whether a file (compressed or not) holds a variant entry.

    The first entry decides for a JSON object that is one and for a CSV header
    without an ``fpuzzles`` column (no row under it is a variant puzzle). A
    file of JSON rows or of CSV rows under an ``fpuzzles`` column (a row is a
    variant puzzle when that field is filled) is looked through for its first
    16 MB, a file that starts with plain puzzle lines for its first megabyte:
    lines are read only where the bytes hold ``fpuzzles``, ``load=`` or
    ``"grid"`` (what the f-puzzles object of a filled field holds). (Past that,
    the plain reader refuses an ``fpuzzles`` row rather than read its givens.)
    """
    from csp_sudoku.core.io import open_file

    try:
        fh = open_file(path)
    except (OSError, ParseError):
        return False  # the run says what is wrong with it
    with fh:
        carry, seen, limit = b"", 0, None
        first = True
        columns: list[str] | None = None  # the CSV header, when it names fpuzzles
        while True:
            try:
                block = fh.read(1 << 16)
            except ParseError:  # damaged compressed data: the reader reports it
                return False
            data = carry + block
            cut = len(data) if not block else data.rfind(b"\n") + 1
            lines, carry = data[:cut], data[cut:]
            seen += len(lines)
            for raw in (
                lines.splitlines() if first or any(m in lines for m in VARIANT_MARKERS) else ()
            ):
                text = raw.decode("utf-8", "replace").strip()
                if first and (not text or text.startswith("#")):
                    continue
                if first:
                    if _variant_line(text, first=True):
                        return True
                    first = False
                    columns = _csv_columns(text.lstrip("\ufeff"))
                    if columns is not None and "fpuzzles" not in columns:
                        return False  # a CSV header without an fpuzzles column
                    records = text.startswith("{") or columns is not None
                    limit = _RECORDS_LOOK if records else _PLAIN_LOOK
                elif _variant_line(text, first=False, columns=columns):
                    return True
            if not block or (limit is not None and seen >= limit):
                return False


def is_variant_input(item: str) -> bool:
    """Whether an input holds a variant puzzle: a link, JSON text, a ``.json`` file,
    a file whose entries include f-puzzles objects, links or ``fpuzzles`` rows
    (:func:`_file_is_variant`), or standard input (``-``) whose first entry is one
    (:func:`_stdin_is_variant`)."""
    if item == "-":
        return _stdin_is_variant(_peek_stdin())
    if "load=" in item or item.lstrip().startswith("{"):
        return True
    if item.lower().endswith(".json"):
        return True
    return os.path.isfile(item) and _file_is_variant(item)


#: Standard input as read so far by :func:`_peek_stdin`: the stream put in its
#: place, the entries' lines read (:func:`_first_entries`), and the stream it
#: replaced (kept alive: an object that closes its data when collected, as a
#: text stream a program put in place does, must not close what is read on).
_PEEKED: list[tuple[Any, tuple[str, ...], Any]] = []


class _Replay(io.RawIOBase):
    """A binary stream: ``head`` (bytes already read), then the rest of ``rest``.

    Put under standard input once its first entry was read, so that every reader
    (the plain path's chunks, the variant path's entries) reads it from the start;
    its descriptor is the real one, so a pipe is still read as its writer sends.
    """

    def __init__(self, head: bytes, rest: IO[bytes]) -> None:
        super().__init__()
        self._head = head
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        if self._head:
            n = min(len(view), len(self._head))
            view[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        if self._would_wait():
            flush_rows()  # the rows so far are seen while the writer is silent
        read = getattr(self._rest, "read1", self._rest.read)
        data = read(len(view))
        view[: len(data)] = data
        return len(data)

    def fileno(self) -> int:
        return self._rest.fileno()

    def _would_wait(self) -> bool:
        """Whether reading on would wait for the writer (a pipe or terminal with no data)."""
        import select

        try:
            return not select.select([self._rest], [], [], 0)[0]
        except (OSError, ValueError, TypeError):  # a file, or no descriptor: never waits
            return False


def _peek_stdin() -> tuple[str, ...]:
    """The first entries' lines of standard input (:func:`_first_entries`: the first
    entry, and the first row under a CSV header with an ``fpuzzles`` column), none
    when it has none; standard input is then a stream that gives every line
    again (:class:`_Replay`). Read once per stream: a second call answers the same."""
    stdin = sys.stdin
    for stream, first, _ in _PEEKED:
        if stream is stdin:
            return first
    if stdin is None:
        return ()
    raw = getattr(stdin, "buffer", None)
    try:
        if raw is None:  # a text stream put in place (a test, an embedding program)
            text = stdin.read()
            replaced: Any = io.StringIO(text)
            first = _first_entries(iter(text.splitlines(True)))
        else:
            from csp_sudoku.core.io import open_input

            if not hasattr(raw, "peek"):  # (a BytesIO put in place): compression is told by peeking
                raw = io.BufferedReader(raw)
            data = open_input(raw, "<stdin>")  # compressed data read as its text
            read: list[bytes] = []
            first = _first_entries(line.decode("utf-8", "replace") for line in _kept(data, read))
            replay = io.BufferedReader(_Replay(b"".join(read), data))
            replaced = io.TextIOWrapper(replay, encoding="utf-8-sig", errors="replace")
    except OSError:  # no standard input to read (closed, a test's capture)
        return ()
    sys.stdin = replaced
    _PEEKED.append((replaced, first, stdin))
    return first


def _kept(data: IO[bytes], read: list[bytes]) -> Iterator[bytes]:
    """The lines of ``data``, each also put in ``read`` (to be read again)."""
    for line in iter(data.readline, b""):
        read.append(line)
        yield line


def _first_entry(lines: Iterator[str]) -> str | None:
    """The first line that is not blank or a ``#`` comment (stripped), read no further."""
    return next(_entry_lines(lines), None)


def _first_entries(lines: Iterator[str]) -> tuple[str, ...]:
    """The first entry's line (:func:`_first_entry`; none for an empty input) and,
    when it is a CSV header with an ``fpuzzles`` column, the next one, the first
    row: whether such an input holds variant puzzles is told by its rows (a row
    whose ``fpuzzles`` field is filled), not by its header. Read no further."""
    entries = _entry_lines(lines)
    first = next(entries, None)
    if first is None:
        return ()
    if "fpuzzles" not in (_csv_columns(first) or ()):
        return (first,)
    return (first, *itertools.islice(entries, 1))


def _entry_lines(lines: Iterator[str]) -> Iterator[str]:
    """The lines that are not blank or ``#`` comments, stripped (a byte order mark too)."""
    for line in lines:
        text = line.strip().lstrip("\ufeff")
        if text and not text.startswith("#"):
            yield text


def _stdin_is_variant(peeked: tuple[str, ...]) -> bool:
    """Whether standard input, whose first entries are ``peeked`` (:func:`_peek_stdin`),
    is a variant input: its first entry is a variant one, or it is CSV whose first
    row fills the ``fpuzzles`` field."""
    if not peeked:
        return False
    columns = _csv_columns(peeked[0])
    if columns is None:
        return _variant_line(peeked[0], first=True)
    return any(_variant_line(row, first=False, columns=columns) for row in peeked[1:])


@contextlib.contextmanager
def _stdin_kept() -> Iterator[None]:
    """Standard input as it was after the block (a peeked stream put in its place is
    for the run's readers only)."""
    before = sys.stdin
    try:
        yield
    finally:
        if sys.stdin is not before:
            _PEEKED[:] = [p for p in _PEEKED if p[0] is not sys.stdin]
            sys.stdin = before


def _reads_stdin(inputs: list[str]) -> bool:
    """Whether a run reads standard input: ``-`` named, or no input and no terminal
    (typed lines are plain puzzles: a terminal is not read ahead)."""
    if "-" in inputs:
        return True
    if inputs:
        return False
    try:
        return sys.stdin is not None and not sys.stdin.isatty()
    except (OSError, ValueError):
        return False


def stdin_may_mix(inputs: list[str]) -> bool:
    """Whether a run reads standard input whose later entries may be variant ones
    although its first is plain: every such input but CSV without an ``fpuzzles``
    column (whose rows hold a variant puzzle only under one, which its header names;
    under it, a row whose field is empty is a plain puzzle, one that fills it a
    variant puzzle).

    Standard input is not read ahead (its rows are answered as they come), so a
    plain run that reads it answers each variant entry it meets there by the
    variant path (``check``: :func:`answer_entry`; ``count``, ``solve``: the
    loop of this module), and its CSV rows have an ``fpuzzles`` column.
    """
    if not _reads_stdin(inputs):
        return False
    peeked = _peek_stdin()
    if not peeked:
        return False
    columns = _csv_columns(peeked[0])
    return columns is None or "fpuzzles" in columns


def routed(plain: Command, variant: Command, *, stdin_mixed: bool = False) -> Command:
    """A command's run: ``variant`` when an input holds a variant puzzle (an
    f-puzzles file, link, JSON Lines, ``fpuzzles`` rows, such standard input),
    else ``plain``: how every command that reads puzzles takes variant inputs
    (check, count, solve here; explain, rate, render and generate in their
    ``variant_*`` modules). A run given no input that reads standard input is
    given ``-``. With ``stdin_mixed``, standard input that may mix plain and
    variant entries (:func:`stdin_may_mix`) goes to ``variant`` too, which
    answers each entry by its own path."""

    def run(args: argparse.Namespace) -> int:
        inputs = list(getattr(args, "inputs", None) or [])
        for item in inputs:
            if item.lower().startswith(("http://", "https://")) and not is_variant_input(item):
                print(
                    f"csp-sudoku: error: {item}: not an f-puzzles link (a URL is read only "
                    "as f-puzzles' '?load=...' link; nothing is downloaded)",
                    file=sys.stderr,
                )
                return EXIT_BAD_INPUT
        with _stdin_kept():
            stdin = _reads_stdin(inputs)
            named = inputs or (["-"] if stdin else [])
            mixed = stdin_mixed and stdin and stdin_may_mix(named)
            if mixed or any(is_variant_input(i) for i in named if i != "-" or stdin):
                if hasattr(args, "inputs"):
                    args.inputs = named
                # the variant kernels: a first run compiles them (some 20 s)
                with noting_compiles(getattr(args, "command", None) or "", "the variant kernels"):
                    return variant(args)
            return plain(args)

    return run


def hook(command: str, plain: Command) -> Command:
    """``plain``, or the variant run of ``command`` when an input is a variant one.

    ``count`` and ``solve`` answer puzzle by puzzle either way, so standard input
    that may mix plain and variant entries goes to the variant run, which
    answers each by its own path; ``check``'s plain pipeline, much faster on
    plain lines, answers a variant entry met there itself (:func:`answer_entry`).
    """
    mixed = command in ("count", "solve")
    return routed(plain, lambda args: run_variants(command, args), stdin_mixed=mixed)


def register_candidates(sub: Any) -> None:
    """Add ``csp-sudoku candidates``."""
    p = sub.add_parser(
        "candidates",
        help="the digits each cell takes in some solution (f-puzzles variant puzzles)",
        description="For each puzzle (f-puzzles .json, .jsonl, a ?load= link, rows with an "
        "fpuzzles field, '-' for standard input; plain puzzles too), write the true "
        "candidates of every cell, row-major, separated by spaces ('-' for a cell with "
        "none). Exit code: 0, 1 when --cap stopped a puzzle, 2 on bad input.",
    )
    p.add_argument("inputs", nargs="+", metavar="FILE|URL")
    p.add_argument(
        "--backend", default="auto", help="auto (default), or a variant backend: fast, sat, cpsat"
    )
    p.add_argument(
        "--cap", type=int_in(1, MAX_COUNT), default=None, help="the most solver calls per puzzle"
    )
    g = p.add_argument_group("batch options (as on check, solve and count)")
    add_row_args(g)
    g.add_argument("--jobs", "-j", type=JOBS, default=1, help="worker processes (0 = all cores)")
    g.add_argument(
        "--skip-invalid", action="store_true", help="keep bad puzzles out of the exit code"
    )
    g.add_argument(
        "--resume",
        action="store_true",
        help="continue an interrupted run: keep the puzzles whose rows are in --output",
    )
    add_geometry_args(p)  # the shape of plain inputs, as on check, count and solve
    p.set_defaults(func=_run_candidates)


def _run_candidates(args: argparse.Namespace) -> int:
    """``candidates``: every input by its own path (standard input as it was after it)."""
    with _stdin_kept(), noting_compiles("candidates", "the variant kernels"):
        return run_variants("candidates", args)


# ------------------------------------------------------------------ reading
@dataclass(frozen=True)
class Item:
    """One entry of the inputs: a variant puzzle, a plain one, or the error in its place.

    Attributes:
        source: the file name (``<argument>`` for a link or JSON text given as
            such, ``<stdin>`` for standard input).
        line: the entry's line (1 for a ``.json`` file or an argument).
        puzzle: the variant puzzle, or None.
        reason: why the entry cannot be read (``field[index]: reason``), when it cannot.
        column: the column of a JSON error, when known.
        fields: the other fields of an input row (passed through to the rows written).
        entry: the plain reader's entry of a plain puzzle or of a line it could
            not read, in a run that answers plain puzzles (see :func:`read_inputs`).
    """

    source: str
    line: int
    puzzle: VariantPuzzle | None
    reason: str = ""
    column: int | None = None
    fields: dict[str, Any] = field(default_factory=dict, compare=False)
    entry: Entry | None = field(default=None, compare=False)

    @property
    def plain(self) -> Puzzle | None:
        """The plain puzzle of an entry that is one."""
        return None if self.entry is None else self.entry.puzzle

    @property
    def error(self) -> str:
        """The message of an entry that cannot be read: ``FILE:LINE[:COLUMN]: reason``."""
        column = "" if self.column is None else f":{self.column}"
        return f"{self.source}:{self.line}{column}: {self.reason}"

    @property
    def answerable(self) -> VariantPuzzle | Puzzle | None:
        """The puzzle to answer: the variant one, else the plain one, else None."""
        return self.puzzle if self.puzzle is not None else self.plain


#: Why a plain puzzle is no entry of a run that answers variant puzzles only.
_NOT_VARIANT = (
    "a plain puzzle, not an f-puzzles one (an f-puzzles object, a '?load=' link "
    "or a row with an 'fpuzzles' field)"
)


def read_inputs(
    inputs: list[str], *, geometry: Geometry | None = None, plain: bool = False
) -> Iterator[Item]:
    """Every entry of the inputs, in order, read as it is needed.

    Args:
        inputs: files (``-``: standard input, compressed or not), links and
            JSON text. A file is read an entry at a time by the puzzle reader
            (:func:`csp_sudoku.core.io.read_puzzles`: lines, JSON Lines, CSV),
            except a file (or standard input) whose first line opens a JSON
            object written over several lines: that is one f-puzzles object.
        geometry: the shape of plain puzzles (``--size``, ``--variant``, ``--jigsaw``).
        plain: whether plain puzzles are entries (``Item.plain``); else each is
            an error. In a ``.jsonl`` file a line that is no JSON object is an
            error either way.
    """
    from csp_sudoku.core.io import read_puzzles

    for item in inputs:
        if item == "-" or (_looks_like_file(item) and os.path.exists(item)):
            yield from _read_source(item, geometry, plain)
        elif plain and _looks_like_file(item):  # a plain puzzle written as an argument
            for e in read_puzzles([item], geometry, source_name="<argument>"):
                yield _from_entry(e, plain=True, json_lines=False)
        else:
            yield _parsed("<argument>", 1, item)


def _read_source(path: str, geometry: Geometry | None, plain: bool) -> Iterator[Item]:
    from csp_sudoku.core.io import read_puzzles

    name = "<stdin>" if path == "-" else path
    low = path.lower()
    for ending in (".gz", ".bz2", ".xz", ".zip"):
        low = low.removesuffix(ending)
    json_lines = low.endswith(".jsonl")
    if json_lines:
        for e, raw in _json_lines(path, geometry):
            yield _from_entry(e, plain=plain, json_lines=True, raw=raw)
        return
    try:
        whole = _whole_document(path, arrays=low.endswith(".json"))
    except ParseError as err:  # bytes that are not UTF-8 in a document read whole
        yield Item(name, err.line or 1, None, err.reason, err.column)
        return
    if whole is not None:
        yield _parsed(name, 1, whole, whole=True)
        return
    # a line the plain reader refused as not UTF-8 is read again from the file's bytes
    # (standard input, a pipe, cannot be read again: the plain reader's word stands)
    with _RawLines(path if path != "-" and os.path.isfile(path) else None) as again:
        for e in read_puzzles(path, geometry):
            line = again.line(e.line) if _not_utf8(e) else None
            yield _from_entry(e, plain=plain, json_lines=False, raw=line)


def _json_lines(path: str, geometry: Geometry | None) -> Iterator[tuple[Entry, bytes]]:
    """The entries of a JSON Lines file, a line each (blank and ``#`` lines skipped),
    each with the bytes of its line: each line read alone by the puzzle reader, so
    that a bad line never takes the next into a multi-line grid."""
    from dataclasses import replace

    from csp_sudoku.core.io import Entry, open_file, read_puzzles

    with open_file(path) as fh:
        for k, raw in enumerate(fh, 1):
            text = raw.decode("utf-8", "replace").rstrip("\r\n")
            if k == 1:
                text = text.lstrip("\ufeff")
            if not text.strip() or text.lstrip().startswith("#"):
                continue
            got = next(read_puzzles([text], geometry, source_name=path), None)
            if got is None:
                yield Entry(k, text, None, None, path), raw
                continue
            # read alone, the line was line 1: its place (and its error's) is line k
            error = None if got.error is None else got.error.located(line=k)
            yield replace(got, line=k, error=error), raw


def _whole_document(path: str, *, arrays: bool = False) -> str | None:
    """The text of an input that is one JSON value written as a whole: an object over
    several lines (one on its line is JSON Lines), or, with ``arrays`` (a ``.json``
    file, which holds one f-puzzles object), an array (refused by the f-puzzles
    reader as such: not read line by line into nonsense); else None.

    Raises:
        ParseError: a file's bytes that are not UTF-8 (:func:`_utf8`), at their line
            and column: never read as U+FFFD into a puzzle's text.
    """
    from csp_sudoku.core.io import open_file

    if path == "-":
        first = next(iter(_peek_stdin()), None)
    else:
        with open_file(path) as fh:
            first = _first_entry(raw.decode("utf-8", "replace") for raw in fh)
    if first is None or not first.startswith(("{", "[") if arrays else "{"):
        return None
    if first.startswith("{"):
        try:
            json.loads(first)
            return None  # a whole object on its line: JSON Lines
        except (ValueError, RecursionError):
            pass
    if path == "-":
        # standard input as peeked (unread yet): its bytes, checked as a file's are
        raw = getattr(sys.stdin, "buffer", None)
        peeked = any(stream is sys.stdin for stream, _, _ in _PEEKED)
        return _utf8(raw.read()) if raw is not None and peeked else sys.stdin.read()
    with open_file(path) as fh:
        return _utf8(fh.read())


@functools.cache
def _not_utf8_reason() -> str:
    """The plain reader's reason for a line with bytes that are not UTF-8, which it reads
    as U+FFFD (asked of it once, not copied: both readers say the same)."""
    from csp_sudoku.core.io import read_puzzles

    got = next(read_puzzles(["\ufffd"]))
    assert got.error is not None
    return got.error.reason


def _not_utf8(e: Entry) -> bool:
    """Whether the plain reader refused entry ``e`` as bytes that are not UTF-8: it sees
    any U+FFFD of a line so, a character of the text as well, and keeps only the
    line's first 80 characters as the entry's text."""
    return e.puzzle is None and e.error is not None and e.error.reason == _not_utf8_reason()


def _utf8(raw: bytes, *, line: int = 1) -> str:
    """``raw`` (a document's bytes, or those of its line ``line``) as text, a byte order
    mark at its start left out (as the plain reader leaves it out).

    Raises:
        ParseError: bytes that are not UTF-8, with the plain reader's reason, at the line
            and column (characters) of the first.
    """
    while raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8) :]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        before = raw[: err.start].decode("utf-8")
        at = line + before.count("\n")
        column = len(before) - before.rfind("\n")
        raise ParseError(_not_utf8_reason(), line=at, column=column) from None


class _RawLines:
    """The bytes of a file's lines by number, for the lines the plain reader refused as
    not UTF-8 (:func:`_not_utf8`): read forward once, as its entries come in order,
    and split where the plain reader splits them (universal line ends). ``path``
    None: a source that cannot be read again (standard input, a pipe): no line."""

    def __init__(self, path: str | None) -> None:
        self._path = path
        self._lines: IO[str] | None = None
        self._at = 0  # the lines read so far

    def __enter__(self) -> _RawLines:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._lines is not None:
            self._lines.close()

    def line(self, number: int) -> bytes | None:
        """The bytes of line ``number`` (1-based), or None when there is none to read."""
        if self._path is None or number <= self._at:
            return None
        if self._lines is None:
            from csp_sudoku.core.io import open_file

            # latin-1 maps each byte to one character and back: the bytes kept whole
            self._lines = io.TextIOWrapper(open_file(self._path), encoding="latin-1", newline=None)
        for text in self._lines:
            self._at += 1
            if self._at == number:
                return text.encode("latin-1")
        return None


def _whole_line(e: Entry, raw: bytes | None) -> Item | None:
    """The item of an entry the plain reader refused as not UTF-8 (:func:`_not_utf8`),
    read again from its line's bytes ``raw``: a byte that is not UTF-8 is that
    reason at its true column; a line of UTF-8 text whose U+FFFD is a character
    (a title's) is read whole when it is a variant entry (an f-puzzles object, a
    row with an ``fpuzzles`` field, a link). None without ``raw``, or for any
    other line: the plain reader's error stands."""
    assert e.error is not None
    if raw is None:
        return None
    try:
        text = _utf8(raw.rstrip(b"\r\n"), line=e.line).strip()
    except ParseError as err:
        return Item(e.source, e.line, None, err.reason, err.column, e.fields)
    rec: Any = None
    with contextlib.suppress(ValueError, RecursionError):
        rec = json.loads(text)
    if isinstance(rec, dict) and rec.get("fpuzzles") not in (None, ""):
        rest = {k: v for k, v in rec.items() if k not in ("fpuzzles", "puzzle")}
        return _parsed(e.source, e.line, rec["fpuzzles"], fields=rest, key="fpuzzles")
    if (text.startswith("{") and not _has_puzzle(text)) or "load=" in text:
        return _parsed(e.source, e.line, text)
    return None


#: A plain puzzle line in digit notation (in a JSON Lines file, read as one).
_PLAIN_DIGITS = re.compile(r"[0-9.]+")


def _from_entry(e: Entry, *, plain: bool, json_lines: bool, raw: bytes | None = None) -> Item:
    """The item of one entry of the puzzle reader.

    A row with ``fpuzzles`` is its variant puzzle; a plain puzzle an item with
    ``plain`` (or an error, see :func:`read_inputs`); a JSON object without a
    ``puzzle`` field or a link goes to the f-puzzles reader (its own reasons,
    a JSON error's column among them); a bad plain line keeps the plain reader's.
    A line refused as not UTF-8 (:func:`_not_utf8`), whose text the plain reader
    cut to 80 characters, is never parsed from that text: it is read again from
    its bytes ``raw`` (:func:`_whole_line`), or keeps the plain reader's error.
    """
    if _not_utf8(e):
        assert e.error is not None
        whole = _whole_line(e, raw)
        if whole is not None:
            return whole
        entry = e if plain else None
        return Item(e.source, e.line, None, e.error.reason, e.error.column, e.fields, entry)
    fp = e.fields.get("fpuzzles")
    if fp not in (None, ""):
        rest = {k: v for k, v in e.fields.items() if k != "fpuzzles"}
        return _parsed(e.source, e.line, fp, fields=rest, key="fpuzzles")
    text = e.text.strip()
    record = text.startswith("{")
    # a JSON Lines file's other lines are f-puzzles text (whose base64 the plain
    # reader might take for a big grid's letters), except lines of digits and dots
    digits = json_lines and _PLAIN_DIGITS.fullmatch(text) is not None
    if e.puzzle is not None and (record or not json_lines or digits):
        if plain:
            return Item(e.source, e.line, None, fields=e.fields, entry=e)
        return Item(e.source, e.line, None, _NOT_VARIANT, fields=e.fields)
    bad_line = (not json_lines or digits) and not record and "load=" not in text
    if plain and e.error is not None and (bad_line or (record and _has_puzzle(text))):
        return Item(e.source, e.line, None, e.error.reason, e.error.column, e.fields, e)
    return _parsed(e.source, e.line, e.text)


def variant_item(entry: Entry) -> Item | None:
    """The variant puzzle of an entry the plain reader could not read, when it is a
    variant entry (an f-puzzles object on its line, a row with ``fpuzzles``, a link):
    its item (the puzzle, or why it cannot be read); None for any other entry.

    For the plain paths that meet variant entries where they read plain ones
    (``render`` of puzzles whose first is plain)."""
    if entry.puzzle is not None:
        return None
    if entry.fields.get("fpuzzles") in (None, "") and not _variant_line(entry.text, first=False):
        return None
    return _from_entry(entry, plain=False, json_lines=False)


def _has_puzzle(text: str) -> bool:
    try:
        rec = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(rec, dict) and "puzzle" in rec


def _parsed(
    source: str,
    line: int,
    value: Any,
    *,
    fields: dict[str, Any] | None = None,
    whole: bool = False,
    key: str | None = None,
) -> Item:
    """The item of an f-puzzles object, its JSON text or a link (``value``); ``key``
    names the row's field it came from (said in an error, whose column is then
    the field's own, not the line's)."""
    from csp_sudoku.constraints import from_fpuzzles, parse_fpuzzles

    try:
        if isinstance(value, dict):
            puzzle = from_fpuzzles(value)
        elif isinstance(value, str):
            puzzle = parse_fpuzzles(value)
        else:
            raise ParseError("an f-puzzles object, its JSON text or a '?load=' link was expected")
        return Item(source, line, puzzle, fields=fields or {})
    except ParseError as err:
        # a JSON error names its column; in a whole .json file, its line too
        at = (err.line or line) if whole else line
        if key is not None:
            return Item(source, at, None, f"{key}: {err.reason}", None, fields or {})
        return Item(source, at, None, err.reason, err.column, fields or {})


def _total(inputs: list[str]) -> int | None:
    """The entries of the inputs, for the progress bar (None: standard input): a
    file's non-blank, non-comment lines (one for a ``.json`` file), one for any
    other input."""
    total = 0
    for item in inputs:
        if item == "-":
            return None
        if not (_looks_like_file(item) and os.path.isfile(item)) or item.lower().endswith(".json"):
            total += 1
        else:
            with open(item, "rb") as fh:
                total += sum(1 for line in fh if line.strip() and not line.startswith(b"#"))
    return total


def _looks_like_file(item: str) -> bool:
    """Whether an argument names a file (not ``-``, a link or JSON text)."""
    return item != "-" and "load=" not in item and not item.lstrip().startswith("{")


# ------------------------------------------------------------------ answers
def answer_options(command: str, args: argparse.Namespace) -> dict[str, Any]:
    """The per-puzzle options of :func:`answer` (picklable, for worker processes);
    ``backend`` is ``--backend``, read for a variant puzzle by :func:`variant_backend`,
    for a plain one as it is."""
    out: dict[str, Any] = {"command": command, "backend": getattr(args, "backend", "auto")}
    if command == "check":
        out["limit"] = max(2, getattr(args, "limit", 2))
    elif command == "count":
        out["limit"] = getattr(args, "limit", 1000)
        out["budget"] = getattr(args, "budget_seconds", None)
    elif command == "solve":
        out["all"] = getattr(args, "all", 1)
        out["grid"] = getattr(args, "grid", False)
    else:
        out["cap"] = getattr(args, "cap", None)
    return out


def answer(puzzle: VariantPuzzle | Puzzle, options: dict[str, Any]) -> Answer:
    """The rows of one puzzle for ``options["command"]`` (the work of a worker process).

    A plain puzzle gets the rows of the plain command (:mod:`csp_sudoku.cli._plain`;
    ``candidates``: those of the puzzle as a variant one). A variant puzzle:

    * ``check``: ``unique``, ``multiple`` or ``none`` (with the count when the
      limit is not 2, ``3+`` at the limit); exit code 1 unless unique.
    * ``count``: the count, ``N+`` at the limit; with a budget that ran out,
      the solutions found by then, ``N+ (budget)``, ``capped`` and exit code 1.
    * ``solve``: the status and up to ``--all`` solutions (a second one is always
      looked for, so a puzzle with several is never shown as having one);
      exit code 1 unless unique.
    * ``candidates``: each cell's digits, a symbol each (1-9, then A for 10 ...: one
      cell's candidates read back alone), ``-`` for none; ``--cap`` reached is a
      note and exit code 1.
    """
    from csp_sudoku import variants
    from csp_sudoku.constraints import VariantPuzzle
    from csp_sudoku.core.io import format_grid, format_line, symbol

    command = options["command"]
    if not isinstance(puzzle, VariantPuzzle):
        return _plain_answer(puzzle, options)
    backend = variant_backend(options["backend"])
    line = format_line(puzzle.puzzle)
    if command in ("check", "count"):
        limit = options["limit"]
        try:
            n = variants.count(puzzle, limit, backend=backend, budget_seconds=options.get("budget"))
        except CountBudgetExceeded as err:
            row = {"puzzle": line, "count": err.at_least, "capped": True, "budget": True}
            return EXIT_NOT_ALL, [(row, f"{WHERE}\t{err.at_least}+ (budget)")], None
        shown = f"{n}+" if n >= limit else str(n)
        if command == "count":
            row = {"puzzle": line, "count": n, "capped": n >= limit}
            return EXIT_OK, [(row, f"{WHERE}\t{shown}")], None
        verdict = "unique" if n == 1 else "none" if n == 0 else "multiple"
        text = verdict if limit == 2 else f"{verdict} {shown}"
        row = {"puzzle": line, "status": verdict, "count": n}
        return (EXIT_OK if n == 1 else EXIT_NOT_ALL), [(row, f"{WHERE}\t{text}")], None
    if command == "solve":
        wanted = options["all"]
        sols = variants.solutions(puzzle, max(2, wanted), backend=backend)
        if not sols:
            row = {"puzzle": line, "solution": None, "solutions": 0, "status": "none"}
            return EXIT_NOT_ALL, [({**row, "capped": False}, f"{WHERE}\tnone")], None
        status = "unique" if len(sols) == 1 else "multiple"
        fields = {"solutions": len(sols), "status": status, "capped": len(sols) >= max(2, wanted)}
        rows = [
            (
                {"puzzle": line, "solution": format_line(s), **fields},
                f"{WHERE}\t{status}\n{format_grid(s)}\n"
                if options["grid"]
                else f"{WHERE}\t{status}\t{format_line(s)}",
            )
            for s in sols[:wanted]
        ]
        return (EXIT_OK if len(sols) == 1 else EXIT_NOT_ALL), rows, None
    try:
        cands = variants.candidates(puzzle, options["cap"], backend=backend)
    except DeadlinePassed as err:
        return EXIT_NOT_ALL, [], str(err)
    # each digit one symbol, as puzzle lines write them (10 = A ... 16 = G): {1, 13}
    # is "1D", never "113", which also reads as {1, 1, 3} or {11, 3}
    cells = [
        "".join(symbol(d + 1) for d in range(cands.shape[1]) if row[d]) or "-"
        for row in cands.tolist()
    ]
    row = {"puzzle": line, "candidates": cells}
    return EXIT_OK, [(row, f"{WHERE}\t{' '.join(cells)}")], None


def _plain_answer(puzzle: Puzzle, options: dict[str, Any]) -> Answer:
    """The rows of a plain puzzle of a mixed run: the plain command's own."""
    from csp_sudoku.cli import _plain

    command = options["command"]
    if command == "candidates":
        from csp_sudoku.variants.formats import as_variant

        return answer(as_variant(puzzle), options)
    plain = {**options, "show": False}
    work = {"check": _plain.check_one, "count": _plain.count_one, "solve": _plain.solve_one}
    return work[command](puzzle, plain)


# ------------------------------------------------------------------ the batch loop
#: The per-puzzle work of a run: the puzzle (variant or plain) and the options.
Work = Callable[[Any, dict[str, Any]], Answer]


@dataclass(frozen=True)
class Batch:
    """What one command's run does, for :func:`run_batch`.

    Attributes:
        command: the command's name (messages, the summary, ``--resume``).
        fields: the columns of JSON and CSV rows.
        work: the per-puzzle work (module level, for worker processes).
        options: its options (picklable).
        good, bad: the summary's words for the puzzles answered (exit 0) and the
            others (exit 1).
        plain: whether plain puzzles are answered (else each is a bad entry).
        invalid_rows: whether an entry that cannot be read gets an ``invalid`` row.
        certify: ``check --certify``'s folder.
        csv_names: the CSV columns, when fixed in advance.
        judge: what the rows of an entry that ``--resume`` keeps say of it, given
            them and ``options`` (:data:`csp_sudoku.cli._plain.KEPT`); without
            it, every kept entry is ``ok``.
    """

    command: str
    fields: tuple[str, ...]
    work: Work
    options: dict[str, Any]
    good: str
    bad: str
    plain: bool = True
    invalid_rows: bool = False
    certify: Path | None = None
    csv_names: tuple[str, ...] | None = None
    judge: OptionsJudge | None = None


def _work_item(work: Work, puzzle: Any, options: dict[str, Any]) -> Answer | None:
    """Task: ``work`` on one puzzle; None for an entry not read; a library error a note."""
    if puzzle is None:
        return None
    try:
        return work(puzzle, options)
    except SudokuError as err:
        return EXIT_BAD_INPUT, [], str(err)


def run_batch(batch: Batch, args: argparse.Namespace) -> int:
    """Answer every entry of ``args.inputs`` by ``batch.work``; write the rows; the exit code.

    ``args`` holds the batch flags (``-o``, ``--format``, ``--jobs``,
    ``--resume``, ``--skip-invalid``, ``--scheduler``, ``-q``) and the grid
    shape options of plain puzzles.
    """
    fmt = getattr(args, "format", "text")
    output = getattr(args, "output", None)
    kept = Kept()
    if getattr(args, "resume", False) and output:  # (--resume without -o is refused before)
        kept = last_entry(output, fmt, batch.command, judge=_kept_judge(batch, kept))
    with batch_session(
        output,
        appending=bool(kept.keys) or kept.has_header,
        scheduler=getattr(args, "scheduler", None),
    ) as (out, client):
        names = batch.csv_names
        writer = RowWriter(fmt, batch.fields, out, header=not kept.has_header, names=names)
        return _loop(batch, args, writer, kept, client)


def _kept_judge(batch: Batch, kept: Kept) -> Judge:
    """The judge of the rows ``--resume`` keeps (:data:`csp_sudoku.cli._resume.Judge`):
    the command's (:data:`csp_sudoku.cli._plain.KEPT`, with the batch's options),
    which also counts in ``kept.tally["variant"]`` the entries whose rows carry an
    f-puzzles object (a variant puzzle's, for the summary)."""

    own = with_options(batch.judge, batch.options)

    def judge(rows: list[dict[str, Any]]) -> Kind:
        kind = own(rows) if own is not None else "ok"
        kept.tally["variant"] += kind != "bad" and rows[0].get("fpuzzles") not in (None, "")
        return kind

    return judge


def _loop(
    batch: Batch,
    args: argparse.Namespace,
    writer: RowWriter,
    kept: Kept,
    client: Any,
) -> int:
    from csp_sudoku.core.io import input_waits
    from csp_sudoku.core.parallel import ordered_map

    command = batch.command
    quiet = getattr(args, "quiet", False)
    show_bar = not quiet and sys.stderr.isatty()
    bar = progress(_total(args.inputs) if show_bar and not kept.keys else None, show_bar)
    geometry = geometry_from_args(args) if batch.plain else None
    held: deque[tuple[Item, bool]] = deque()
    tally: Counter[str] = Counter(kept.tally)  # the entries kept count as in the earlier run
    taken: set[str] = set()  # the certificates' names written so far
    started = time.perf_counter()

    def tasks() -> Iterator[tuple[Any, ...]]:
        entries = read_inputs(args.inputs, geometry=geometry, plain=batch.plain)
        for item, again in entries_after(entries, kept.keys):
            held.append((item, again))
            yield batch.work, item.answerable, batch.options

    jobs = getattr(args, "jobs", 1)
    jobs = 0 if client is not None and jobs == 1 else jobs
    try:
        for result in ordered_map(
            _work_item, tasks(), jobs=jobs, executor=client, input_waits=input_waits
        ):
            item, again = held.popleft()
            bar.update(1)
            if again and result is not None and result[1]:
                raise again_rows(item.source, item.line, args.output)
            said = emit(item, result, writer, invalid_rows=batch.invalid_rows)
            for message in said.messages:
                print(f"csp-sudoku {command}: {message}", file=sys.stderr)
            tally[said.kind] += 1
            tally["variant"] += said.kind != "bad" and item.puzzle is not None
            if batch.certify is not None and said.status == "unique":
                _certify(item, batch.certify, taken)
    finally:
        bar.close()
    total = tally["ok"] + tally["failed"] + tally["bad"]
    if total == 0 and not kept.keys:
        names = ", ".join("<stdin>" if i == "-" else i for i in args.inputs)
        print(f"csp-sudoku: error: {names}: no puzzles found in the input", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not quiet:
        print(_summary(batch, tally, kept, time.perf_counter() - started), file=sys.stderr)
    if tally["bad"] and not getattr(args, "skip_invalid", False):
        return EXIT_BAD_INPUT
    return EXIT_NOT_ALL if tally["failed"] else EXIT_OK


def _summary(batch: Batch, tally: Counter[str], kept: Kept, secs: float) -> str:
    """The closing line of a run: ``count`` and ``solve``'s that of their plain loop
    (:func:`csp_sudoku.cli._rows.summary`, so that standard input, which comes
    here, and a file of plain puzzles end alike); the others' with each outcome
    and the time."""
    answered = tally["ok"] + tally["failed"]
    earlier = sum(kept.tally[k] for k in ("ok", "failed", "bad"))
    if batch.command in ("count", "solve"):
        earlier -= kept.tally["bad"]
        return summary(
            batch.command,
            answered,
            tally["failed"],
            tally["bad"],
            variant=tally["variant"],
            earlier=earlier,
        )
    total = answered + tally["bad"]
    plain = tally["variant"] < answered
    what = counted(total, "puzzle" if plain else "variant puzzle")
    notes = [f"{tally['variant']} variant"] if plain and tally["variant"] else []
    notes += [f"{earlier} from the earlier run"] if earlier else []
    if notes:
        what += f" ({', '.join(notes)})"
    return (
        f"{what}: {tally['ok']} {batch.good}, {tally['failed']} {batch.bad}, "
        f"{tally['bad']} bad in {secs:.2f} s"
    )


@dataclass(frozen=True)
class Emitted:
    """What :func:`emit` did with one entry.

    Attributes:
        kind: ``bad`` (not read, or not answered), ``ok`` or ``failed`` (exit code 1).
        status: the first row's ``status`` (``unique`` ...; ``invalid`` for the row
            of an entry not read), None when it has none.
        messages: for stderr, each ``FILE:LINE[:COLUMN]: why``.
    """

    kind: str
    status: str | None
    messages: list[str]


def emit(item: Item, result: Answer | None, writer: RowWriter, *, invalid_rows: bool) -> Emitted:
    """Write the rows of one entry's answer (``result``: None for an entry not read).

    A row of a variant puzzle gets its f-puzzles object (``fpuzzles``, JSON and
    CSV); an entry not read gets ``check``'s ``invalid`` row with ``invalid_rows``.
    """
    from csp_sudoku.constraints import to_fpuzzles

    where = f"{item.source}:{item.line}"
    own: dict[str, Any] = {"file": item.source, "line": item.line}
    if result is None:
        if not invalid_rows:
            return Emitted("bad", None, [item.error])
        row, text = _invalid_row(item)
        writer.write({**own, **row}, text.replace(WHERE, where), item.fields)
        return Emitted("bad", "invalid", [item.error])
    code, rows, note = result
    messages = [f"{where}: {note}"] if note else []
    if code == EXIT_BAD_INPUT:
        return Emitted("bad", None, messages)
    fp = {}  # the puzzle itself, for a reader of the row
    if item.puzzle is not None and writer.fmt != "text":
        fp = {"fpuzzles": to_fpuzzles(item.puzzle)}
    for row, text in rows:
        writer.write({**own, **row, **fp}, text.replace(WHERE, where), item.fields)
    status = rows[0][0].get("status") if rows else None
    return Emitted("failed" if code else "ok", status, messages)


def answer_entry(
    entry: Entry, options: dict[str, Any], writer: RowWriter, *, invalid_rows: bool
) -> tuple[Item, Emitted]:
    """Answer one entry of the plain reader by its own path, plain or variant, and
    write its rows: how ``check``'s plain pipeline answers a chunk of standard
    input that holds variant entries (:func:`stdin_may_mix`)."""
    item = _from_entry(entry, plain=True, json_lines=False)
    result = _work_item(answer, item.answerable, options)
    return item, emit(item, result, writer, invalid_rows=invalid_rows)


def _invalid_row(item: Item) -> tuple[dict[str, Any], str]:
    """``check``'s ``invalid`` row of an entry that cannot be read: a bad plain line's
    as the plain path writes it, another's with the reason alone."""
    if item.entry is not None:
        from csp_sudoku.cli._plain import invalid_row

        return invalid_row(item.entry)
    row = {"puzzle": "", "count": 0, "status": "invalid", "reason": item.reason}
    return row, f"{WHERE}\tinvalid  # {item.reason}"


def _certify(item: Item, folder: Path, taken: set[str]) -> None:
    """Write the DRAT proof that the puzzle of ``item`` (found unique) has no second solution."""
    from csp_sudoku.tools.certify import certificate_path, certify_to

    puzzle = item.answerable
    assert puzzle is not None
    folder.mkdir(parents=True, exist_ok=True)
    certify_to(puzzle, certificate_path(folder, item.source, item.line, taken))


# ------------------------------------------------------------------ check, count, solve, candidates
#: The words of the closing summary for the puzzles answered and the others.
_GOOD = {"check": "unique", "count": "counted", "solve": "solved", "candidates": "answered"}
_BAD = {
    "check": "not unique",
    "count": "not counted",
    "solve": "not uniquely solvable",
    "candidates": "stopped by --cap",
}


def missing_input(inputs: list[str], *, plain: bool) -> str | None:
    """Why an input cannot be read at all (no such file, a folder), or None.

    With ``plain`` an argument that names no file and does not look like a path
    is a plain puzzle written as an argument, not a missing file.
    """
    for item in inputs:
        if item == "-" or not _looks_like_file(item):
            continue
        if os.path.isdir(item):
            return f"{item} is a folder, not a puzzle file"
        if not os.path.exists(item) and (not plain or _looks_like_path(item)):
            return f"{item}: no such file"
    return None


#: Why the grid shape options are refused for f-puzzles inputs: such a puzzle gives its grid.
NO_GRID_OPTIONS = "--size, --variant and --jigsaw do not apply to f-puzzles inputs"


def grid_options_refusal(args: argparse.Namespace, inputs: list[str]) -> str | None:
    """:data:`NO_GRID_OPTIONS` when ``--size``, ``--variant`` or ``--jigsaw`` is given
    and every input is a variant one (:func:`is_variant_input`): they would be
    ignored. With an input of plain puzzles beside them, they set that input's
    shape. The one guard of every command that reads variant inputs."""
    given = (
        getattr(args, "size", None)
        or getattr(args, "jigsaw", None)
        or getattr(args, "variant", "standard") != "standard"
    )
    if given and all(is_variant_input(i) for i in inputs):
        return NO_GRID_OPTIONS
    return None


def variant_backend(name: str, users: str = "variant puzzles") -> str:
    """The variant backend of ``--backend NAME`` (``auto``: the default one);
    ``users`` names who takes only those in the message.

    Raises:
        ArgumentError: NAME is no variant backend (``dlx``, ``sat:glucose4`` ...).
    """
    from csp_sudoku import variants

    if name == "auto":
        return variants.DEFAULT_BACKEND
    if name not in variants.BACKENDS:
        raise ArgumentError(
            f"--backend {name!r}: {users} use {', '.join(variants.BACKENDS)} or auto"
        )
    return name


def _refusal(command: str, args: argparse.Namespace) -> str | None:
    """Why the options cannot run on variant puzzles, or None."""
    # candidates answers a plain puzzle as a variant one: the same backends
    users = "the candidates of plain and variant puzzles" if command == "candidates" else None
    try:
        variant_backend(getattr(args, "backend", "auto"), users or "variant puzzles")
    except ArgumentError as err:
        return str(err)
    if getattr(args, "resume", False) and not getattr(args, "output", None):
        return "--resume needs --output FILE"
    return grid_options_refusal(args, args.inputs) or missing_input(args.inputs, plain=True)


def run_variants(command: str, args: argparse.Namespace) -> int:
    """Answer every puzzle of ``args.inputs`` (variant ones, and plain ones beside
    them) for ``command``; the exit code."""
    why = _refusal(command, args)
    if why:
        print(f"csp-sudoku {command}: error: {why}", file=sys.stderr)
        return EXIT_BAD_INPUT
    from csp_sudoku.cli._plain import KEPT

    certify = getattr(args, "certify", None)
    batch = Batch(
        command,
        FIELDS[command],
        answer,
        answer_options(command, args),
        _GOOD[command],
        _BAD[command],
        invalid_rows=command == "check",
        certify=Path(certify) if certify else None,
        judge=KEPT.get(command),
    )
    return run_batch(batch, args)


__all__ = [
    "FIELDS",
    "VARIANT_MARKERS",
    "Answer",
    "Batch",
    "Emitted",
    "Item",
    "answer",
    "answer_entry",
    "answer_options",
    "emit",
    "grid_options_refusal",
    "hook",
    "is_variant_input",
    "missing_input",
    "read_inputs",
    "register_candidates",
    "routed",
    "run_batch",
    "run_variants",
    "stdin_may_mix",
    "variant_backend",
    "variant_item",
]
