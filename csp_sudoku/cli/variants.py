"""Variant puzzles (f-puzzles JSON, ``?load=`` links) on ``check``, ``count``, ``solve``
and ``candidates``.

``check``, ``count`` and ``solve`` hand their run here (:func:`hook`) when an
input is a variant one: a ``.json`` file (one f-puzzles object), a ``.jsonl``
file whose lines are f-puzzles objects (or links), or an f-puzzles link
(``?load=``). The run is a batch run as for plain puzzles
(:mod:`csp_sudoku.cli._rows`): the inputs are read as a stream, each puzzle
is answered by :func:`answer` (in ``--jobs`` worker processes, or on a Dask
cluster, through :func:`csp_sudoku.core.parallel.ordered_map`), and its row is
written at once, in input order, as text, JSON Lines or CSV, to standard output
or through the ``-o`` machinery of :func:`csp_sudoku.cli._common.batch_session`
(``FILE.partial`` renamed into place, ``--resume``). A puzzle that cannot be
read is reported on stderr as ``FILE:LINE: field[index]: reason`` (a JSON
error with its column), the others are still answered, and the exit code is
2 at the end (unless ``--skip-invalid``). ``check --certify DIR`` writes a
DRAT proof of every unique puzzle (:func:`csp_sudoku.tools.certify.certify_to`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_NOT_ALL, EXIT_OK
from csp_sudoku.cli._common import (
    JOBS,
    RowWriter,
    add_row_args,
    batch_session,
    counted,
    progress,
)
from csp_sudoku.cli._rows import _after, _last_entry
from csp_sudoku.core.errors import DeadlinePassed, ParseError, SudokuError

if TYPE_CHECKING:  # the constraints load OR-tools: only a variant input needs them
    from csp_sudoku.constraints import VariantPuzzle

Command = Callable[[argparse.Namespace], int]

#: The columns of each command's JSON and CSV rows: those of the plain puzzles'
#: rows (``puzzle`` is the givens' line), ``candidates`` a list of each cell's digits.
FIELDS: dict[str, tuple[str, ...]] = {
    "check": ("file", "line", "puzzle", "status", "count", "reason"),
    "count": ("file", "line", "puzzle", "count", "capped"),
    "solve": ("file", "line", "puzzle", "solution", "solutions", "status", "capped"),
    "candidates": ("file", "line", "puzzle", "candidates"),
}
#: One puzzle's answer: exit code (0, or 1 when it fails the command's question),
#: its rows as ``(row, text)`` (the text without its ``FILE:LINE<TAB>``), a note.
Answer = tuple[int, list[tuple[dict[str, Any], str]], str | None]


def is_variant_input(item: str) -> bool:
    """Whether an input is an f-puzzles one (a link, a ``.json`` file, f-puzzles JSON Lines).

    A ``.jsonl`` file is one when its first JSON object is an f-puzzles object
    (``size`` and ``grid``) or its first link comes before any object.
    """
    if "load=" in item or item.lstrip().startswith("{"):
        return True
    low = item.lower()
    if low.endswith(".json"):
        return True
    if low.endswith(".jsonl") and os.path.isfile(item):
        # the first JSON object (or link) says; a bad line before it is bad either way
        with open(item, encoding="utf-8", errors="replace") as f:
            for line in f:
                if "load=" in line and not line.lstrip().startswith("{"):
                    return True  # a file of links
                try:
                    first = json.loads(line)
                except ValueError:
                    continue
                if isinstance(first, dict):
                    return "grid" in first and "size" in first
    return False


def routed(plain: Command, variant: Command) -> Command:
    """A command's run: ``variant`` when an input is a variant one (an f-puzzles file,
    link or JSON Lines), else ``plain``: how every command that reads puzzles
    takes variant inputs (check, count, solve here; explain, rate, render and
    generate in their ``variant_*`` modules)."""

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
        if inputs and any(is_variant_input(i) for i in inputs):
            return variant(args)
        return plain(args)

    return run


def hook(command: str, plain: Command) -> Command:
    """``plain``, or the variant run of ``command`` when an input is a variant one."""
    return routed(plain, lambda args: run_variants(command, args))


def register_candidates(sub: Any) -> None:
    """Add ``csp-sudoku candidates``."""
    p = sub.add_parser(
        "candidates",
        help="the digits each cell takes in some solution (f-puzzles variant puzzles)",
        description="For each variant puzzle (f-puzzles .json, .jsonl or a ?load= link), "
        "write the true candidates of every cell, row-major, separated by spaces "
        "('-' for a cell with none). Exit code: 0, 1 when --cap stopped a puzzle, "
        "2 on bad input.",
    )
    p.add_argument("inputs", nargs="+", metavar="FILE|URL")
    p.add_argument(
        "--backend", default="auto", help="auto (default), or a variant backend: fast, sat, cpsat"
    )
    p.add_argument("--cap", type=int, default=None, help="the most solver calls per puzzle")
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
    p.set_defaults(func=lambda args: run_variants("candidates", args))


@dataclass(frozen=True)
class Item:
    """One puzzle of the inputs, or the error that stands in its place.

    Attributes:
        source: the file name (``<argument>`` for a link or JSON text given as such).
        line: the line of a ``.jsonl`` file (1 for a ``.json`` file or an argument).
        puzzle: the puzzle, or None when it cannot be read.
        reason: why not (``field[index]: reason``).
        column: the column of a JSON error, when known.
    """

    source: str
    line: int
    puzzle: VariantPuzzle | None
    reason: str = ""
    column: int | None = None

    @property
    def error(self) -> str:
        """The message of a puzzle that cannot be read: ``FILE:LINE[:COLUMN]: reason``."""
        column = "" if self.column is None else f":{self.column}"
        return f"{self.source}:{self.line}{column}: {self.reason}"


def read_inputs(inputs: list[str]) -> Iterator[Item]:
    """Every puzzle of the inputs, in order; a ``.jsonl`` file is read a line at a time."""
    from csp_sudoku.constraints import parse_fpuzzles

    for item in inputs:
        if not _looks_like_file(item) or not os.path.exists(item):
            texts: Iterator[tuple[int, str]] = iter([(1, item)])
            source, whole = "<argument>", False
        elif item.lower().endswith(".jsonl"):
            texts, source, whole = _lines(item), item, False
        else:
            with open(item, encoding="utf-8", errors="replace") as f:
                texts, source, whole = iter([(1, f.read())]), item, True
        for line, text in texts:
            try:
                yield Item(source, line, parse_fpuzzles(text))
            except ParseError as err:
                # a JSON error names its column; in a whole .json file, its line too
                at = (err.line or line) if whole else line
                yield Item(source, at, None, err.reason, err.column)


def _lines(path: str) -> Iterator[tuple[int, str]]:
    """The non-blank lines of a JSON Lines file with their numbers, read as they are needed."""
    with open(path, encoding="utf-8", errors="replace") as f:
        for k, text in enumerate(f, 1):
            if text.strip():
                yield k, text


def _total(inputs: list[str]) -> int:
    """The number of puzzles of the inputs, for the progress bar: a ``.jsonl`` file's
    non-blank lines, one for any other input."""
    total = 0
    for item in inputs:
        if _looks_like_file(item) and item.lower().endswith(".jsonl"):
            with open(item, "rb") as fh:
                total += sum(1 for line in fh if line.strip())
        else:
            total += 1
    return total


def _looks_like_file(item: str) -> bool:
    return "load=" not in item and not item.lstrip().startswith("{")


def _options(command: str, args: argparse.Namespace, backend: str) -> dict[str, Any]:
    """The per-puzzle options of :func:`answer` (picklable, for worker processes)."""
    out: dict[str, Any] = {"command": command, "backend": backend}
    if command == "check":
        out["limit"] = max(2, getattr(args, "limit", 2))
    elif command == "count":
        out["limit"] = getattr(args, "limit", 1000)
    elif command == "solve":
        out["all"] = getattr(args, "all", 1)
        out["grid"] = getattr(args, "grid", False)
    else:
        out["cap"] = getattr(args, "cap", None)
    return out


def answer(puzzle: VariantPuzzle, options: dict[str, Any]) -> Answer:
    """The rows of one puzzle for ``options["command"]`` (the work of a worker process).

    * ``check``: ``unique``, ``multiple`` or ``none`` (with the count when the
      limit is not 2, ``3+`` at the limit); exit code 1 unless unique.
    * ``count``: the count, ``N+`` at the limit.
    * ``solve``: the status and up to ``--all`` solutions (a second one is always
      looked for, so a puzzle with several is never shown as having one);
      exit code 1 unless unique.
    * ``candidates``: each cell's digits; ``--cap`` reached is a note and exit code 1.
    """
    from csp_sudoku import variants
    from csp_sudoku.core.io import format_grid, format_line

    command = options["command"]
    backend = options["backend"]
    line = format_line(puzzle.puzzle)
    if command in ("check", "count"):
        limit = options["limit"]
        n = variants.count(puzzle, limit, backend=backend)
        shown = f"{n}+" if n >= limit else str(n)
        if command == "count":
            return EXIT_OK, [({"puzzle": line, "count": n, "capped": n >= limit}, shown)], None
        verdict = "unique" if n == 1 else "none" if n == 0 else "multiple"
        text = verdict if limit == 2 else f"{verdict} {shown}"
        row = {"puzzle": line, "status": verdict, "count": n}
        return (EXIT_OK if n == 1 else EXIT_NOT_ALL), [(row, text)], None
    if command == "solve":
        wanted = options["all"]
        sols = variants.solutions(puzzle, max(2, wanted), backend=backend)
        if not sols:
            row = {"puzzle": line, "solution": None, "solutions": 0, "status": "none"}
            return EXIT_NOT_ALL, [({**row, "capped": False}, "none")], None
        status = "unique" if len(sols) == 1 else "multiple"
        fields = {"solutions": len(sols), "status": status, "capped": len(sols) >= max(2, wanted)}
        rows = [
            (
                {"puzzle": line, "solution": format_line(s), **fields},
                f"{status}\n{format_grid(s)}\n"
                if options["grid"]
                else f"{status}\t{format_line(s)}",
            )
            for s in sols[:wanted]
        ]
        return (EXIT_OK if len(sols) == 1 else EXIT_NOT_ALL), rows, None
    try:
        cands = variants.candidates(puzzle, options["cap"], backend=backend)
    except DeadlinePassed as err:
        return EXIT_NOT_ALL, [], str(err)
    cells = [
        "".join(str(d + 1) for d in range(cands.shape[1]) if row[d]) or "-"
        for row in cands.tolist()
    ]
    return EXIT_OK, [({"puzzle": line, "candidates": cells}, " ".join(cells))], None


def _answer_item(puzzle: VariantPuzzle | None, options: dict[str, Any]) -> Answer | None:
    """Task: :func:`answer`, None for a puzzle that could not be read; a library error a note."""
    if puzzle is None:
        return None
    try:
        return answer(puzzle, options)
    except SudokuError as err:
        return EXIT_BAD_INPUT, [], str(err)


def _refusal(command: str, args: argparse.Namespace, backend: str) -> str | None:
    """Why the options cannot run on variant puzzles, or None."""
    from csp_sudoku import variants

    if backend not in variants.BACKENDS:
        return f"variant puzzles use --backend {', '.join(variants.BACKENDS)} or auto"
    if getattr(args, "budget_seconds", None) is not None:
        return "--budget-seconds does not apply to variant puzzles (each count is one solver run)"
    if getattr(args, "resume", False) and not getattr(args, "output", None):
        return "--resume needs --output FILE"
    missing = [i for i in args.inputs if _looks_like_file(i) and not os.path.exists(i)]
    if missing:
        return f"{missing[0]}: no such file"
    folders = [i for i in args.inputs if _looks_like_file(i) and os.path.isdir(i)]
    if folders:
        return f"{folders[0]} is a folder, not a puzzle file"
    return None


def run_variants(command: str, args: argparse.Namespace) -> int:
    """Answer every variant puzzle of ``args.inputs`` for ``command``; the exit code."""
    from csp_sudoku import variants

    backend = getattr(args, "backend", "auto")
    if backend == "auto":
        backend = variants.DEFAULT_BACKEND
    why = _refusal(command, args, backend)
    if why:
        print(f"csp-sudoku {command}: {why}", file=sys.stderr)
        return EXIT_BAD_INPUT
    fmt = getattr(args, "format", "text")
    output = getattr(args, "output", None)
    done: tuple[str, int] | None = None
    has_header = False
    if getattr(args, "resume", False) and output:  # (--resume without -o is refused above)
        done, has_header = _last_entry(output, fmt, command)
    with batch_session(
        output, appending=done is not None or has_header, scheduler=getattr(args, "scheduler", None)
    ) as (out, client):
        writer = RowWriter(fmt, FIELDS[command], out, header=not has_header)
        return _run(command, args, backend, writer, done, client)


def _run(
    command: str,
    args: argparse.Namespace,
    backend: str,
    writer: RowWriter,
    done: tuple[str, int] | None,
    client: Any,
) -> int:
    from csp_sudoku.core.parallel import ordered_map

    quiet = getattr(args, "quiet", False)
    certify = Path(args.certify) if getattr(args, "certify", None) else None
    options = _options(command, args, backend)
    show_bar = not quiet and sys.stderr.isatty()
    bar = progress(_total(args.inputs) if show_bar and done is None else None, show_bar)
    held: deque[Item] = deque()
    tally: Counter[str] = Counter()
    taken: set[str] = set()  # the certificates' names written so far
    started = time.perf_counter()

    def tasks() -> Iterator[tuple[Any, ...]]:
        for item in _after(read_inputs(args.inputs), done):
            held.append(item)
            yield item.puzzle, options

    jobs = getattr(args, "jobs", 1)
    jobs = 0 if client is not None and jobs == 1 else jobs
    try:
        for result in ordered_map(_answer_item, tasks(), jobs=jobs, executor=client):
            item = held.popleft()
            bar.update(1)
            where = f"{item.source}:{item.line}"
            if result is None:
                tally["bad"] += 1
                print(f"csp-sudoku {command}: {item.error}", file=sys.stderr)
                if command == "check":
                    row = {"file": item.source, "line": item.line, "puzzle": "", "count": 0}
                    writer.write(
                        {**row, "status": "invalid", "reason": item.reason},
                        f"{where}\tinvalid  # {item.reason}",
                    )
                continue
            code, rows, note = result
            if note:
                print(f"csp-sudoku {command}: {where}: {note}", file=sys.stderr)
            if code == EXIT_BAD_INPUT:
                tally["bad"] += 1
                continue
            tally["failed" if code else "ok"] += 1
            for row, text in rows:
                writer.write({"file": item.source, "line": item.line, **row}, f"{where}\t{text}")
            if certify is not None and rows and rows[0][0].get("status") == "unique":
                _certify(item, certify, taken)
    finally:
        bar.close()
    total = sum(tally.values())
    if total == 0 and done is None:
        print("csp-sudoku: error: no puzzles found in the input", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not quiet:
        secs = time.perf_counter() - started
        print(
            f"{counted(total, 'variant puzzle')}: {tally['ok']} {_GOOD[command]}, "
            f"{tally['failed']} {_BAD[command]}, {tally['bad']} bad in {secs:.2f} s",
            file=sys.stderr,
        )
    if tally["bad"] and not getattr(args, "skip_invalid", False):
        return EXIT_BAD_INPUT
    return EXIT_NOT_ALL if tally["failed"] else EXIT_OK


#: The words of the closing summary for the puzzles answered and the others.
_GOOD = {"check": "unique", "count": "counted", "solve": "solved", "candidates": "answered"}
_BAD = {
    "check": "not unique",
    "count": "not counted",
    "solve": "not uniquely solvable",
    "candidates": "stopped by --cap",
}


def _certify(item: Item, folder: Path, taken: set[str]) -> None:
    """Write the DRAT proof that the puzzle of ``item`` (found unique) has no second solution."""
    from csp_sudoku.tools.certify import certificate_path, certify_to

    assert item.puzzle is not None
    folder.mkdir(parents=True, exist_ok=True)
    certify_to(item.puzzle, certificate_path(folder, item.source, item.line, taken))
