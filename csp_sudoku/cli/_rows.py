"""The batch loop of the per-puzzle commands (``solve``, ``count``, ``minimize``).

Each of them turns one puzzle into zero or more rows by a module-level
function (picklable, so ``--jobs`` and ``--scheduler`` run it in workers
through :func:`csp_sudoku.tools.batch.ordered_map`). :func:`run_rows` does the rest
the same way for all of them, with the batch flags meaning what they mean on
``check``, ``rate`` and ``generate``:

* a bad line is reported on stderr as ``file:line:column: why`` and the run
  goes on; the exit code is 2 at the end unless ``--skip-invalid``;
* ``-o FILE`` writes the rows there; ``--resume`` keeps the entries whose rows
  are in FILE. Every row carries the ``file`` and ``line`` of its puzzle; the
  rows of the last entry in FILE may be incomplete (``solve --all K`` writes K
  rows per puzzle), so they are dropped and that entry is done again;
* ``-q`` hides the progress bar and the closing summary.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import closing, nullcontext
from typing import Any, Protocol, TypeVar

from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_OK
from csp_sudoku.cli._common import (
    RowWriter,
    batch_session,
    count_lines,
    counted,
    geometry_from_args,
    iter_entries,
    noting_compiles,
    progress,
)
from csp_sudoku.cli._resume import BAD_ROW_ERRORS, ResumeError
from csp_sudoku.core.errors import SudokuError
from csp_sudoku.core.io import Entry, shape_fields
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.tools.batch import ordered_map

#: In the text form of a row, replaced by the ``file:line`` of the puzzle (the work
#: runs in a worker, on the puzzle alone).
WHERE = "{where}"
#: One puzzle's outcome: exit code (0, or 1 when the puzzle fails the command's
#: question), its rows as ``(row, text)``, and a note for stderr.
Outcome = tuple[int, list[tuple[dict[str, Any], str]], str | None]
#: The per-puzzle work: the puzzle and the command's options (picklable).
Work = Callable[[Puzzle, dict[str, Any]], Outcome]


def _work_chunk(work: Work, puzzles: list[Puzzle], options: dict[str, Any]) -> list[Outcome]:
    """Worker task: the outcomes of a chunk of puzzles; a library error becomes a note."""
    out: list[Outcome] = []
    for p in puzzles:
        try:
            out.append(work(p, options))
        except SudokuError as err:
            out.append((EXIT_BAD_INPUT, [], str(err)))
    return out


def last_entry(
    path: str,
    fmt: str,
    what: str,
    same: Mapping[str, Any] | None = None,
    fields: Sequence[str] = (),
) -> tuple[tuple[str, int] | None, bool]:
    """Drop the rows of the last entry in ``path``; return the entry before it and the header.

    Returns ``((file, line) of the last entry kept, or None; whether a CSV header is kept)``.
    ``same``: fields that every JSON Lines or CSV row must hold with these values
    (the options of the run that wrote it, such as its seed). ``fields``: the
    command's own columns after ``file`` and ``line``, which a CSV header must
    begin with and every JSON Lines row hold (an output of another command has
    other ones: ``check``'s rows took ``count``'s under ``status``).

    Raises:
        ResumeError: when a row has no ``file`` and ``line``, another value of a
            field of ``same``, or not the command's ``fields``.
    """
    if not os.path.exists(path):
        return None, False
    with open(path, "rb") as fh:
        data = fh.read()
    if data and not data.endswith(b"\n"):  # a row cut short by the interruption
        data = data[: data.rfind(b"\n") + 1]
    lines = data.decode("utf-8", "replace").splitlines(keepends=True)
    header: list[str] | None = None
    keys: list[tuple[str, int]] = []
    ends: list[int] = []
    offset = 0
    for n, raw in enumerate(lines, start=1):
        offset += len(raw.encode("utf-8"))
        text = raw.rstrip("\r\n")
        try:
            if fmt == "csv" and header is None:
                header = next(csv.reader([text]))
                if fields and header[: len(fields) + 2] != ["file", "line", *fields]:
                    raise ResumeError(
                        f"{path}:1: not the output of '{what} --format csv' (its header is "
                        "another command's, or another version's): give another --output"
                    )
                continue
            if fmt == "csv":
                assert header is not None
                rec = dict(zip(header, next(csv.reader([text])), strict=True))
            elif fmt == "jsonl":
                rec = json.loads(text)
            else:
                source, num = text.split("\t", 1)[0].rsplit(":", 1)
                rec = {"file": source, "line": num}
            key = (str(rec["file"]), int(rec["line"]))
        except BAD_ROW_ERRORS:
            raise ResumeError(f"{path}:{n}: not a row of '{what} --format {fmt}'") from None
        if fmt == "jsonl" and any(name not in rec for name in fields):
            raise ResumeError(
                f"{path}:{n}: not a row of '{what} --format jsonl' (it has no "
                f"{next(name for name in fields if name not in rec)!r}): give another --output"
            )
        for name, want in (same or {}).items() if fmt != "text" else ():
            if str(rec.get(name)) != str(want):
                raise ResumeError(
                    f"{path}:{n}: written with {name} {rec.get(name)!r}, this run has {want!r}: "
                    f"give the interrupted run's --{name} (or another --output)"
                )
        keys.append(key)
        ends.append(offset)
    header_end = len(lines[0].encode("utf-8")) if header is not None else 0
    last = keys[-1] if keys else None
    k = len(keys)
    while k and keys[k - 1] == last:  # the last entry's rows: maybe incomplete, done again
        k -= 1
    with open(path, "rb+") as fh:
        fh.truncate(ends[k - 1] if k else header_end)
    return (keys[k - 1] if k else None), header is not None


class _Located(Protocol):
    """An input entry that names where it was read (an :class:`Entry`, a variant one)."""

    @property
    def source(self) -> str: ...

    @property
    def line(self) -> int: ...


_E = TypeVar("_E", bound=_Located)


def entries_after(
    entries: Iterator[_E],
    done: tuple[str, int] | None,
    again: Callable[[_E], bool] | None = None,
) -> Iterator[_E]:
    """The entries after ``done`` (all of them when None), and those up to it for which
    ``again`` is true (bad lines, which wrote no row: said and counted again, so that
    a resumed run ends with the exit code and the messages of a whole one)."""
    if done is None:
        yield from entries
        return
    for e in entries:
        if (e.source, e.line) == done:
            yield from entries
            return
        if again is not None and again(e):
            yield e
    raise ResumeError(
        f"the output's rows end at {done[0]}:{done[1]}, which is no entry of the input: "
        "not this input's output"
    )


def _bad_line(entry: Entry) -> bool:
    """Whether an input entry is a bad line (no puzzle: said, never a row)."""
    return entry.puzzle is None


def run_rows(
    args: argparse.Namespace,
    *,
    what: str,
    fields: Sequence[str],
    work: Work,
    options: dict[str, Any],
    located_text: bool = False,
    compiles: bool = False,
    resume_same: Sequence[str] = (),
) -> int:
    """Run ``work`` on every puzzle of the inputs and write its rows; returns the exit code.

    Args:
        args: the parsed batch flags (``inputs``, ``output``, ``format``,
            ``jobs``, ``scheduler``, ``resume``, ``skip_invalid``, ``quiet``)
            and the geometry options.
        what: the command name, for messages.
        fields: the row columns after ``file`` and ``line``.
        work: the per-puzzle function (module level, for worker processes).
        options: its options.
        located_text: whether the text rows start with ``file:line`` (so that
            ``--resume`` can read them); else it needs ``--format jsonl|csv``.
        compiles: whether ``work`` runs numba's kernels from the first puzzle on
            (not a few 9x9 puzzles answered in Python first): a first run with one
            job then says that it compiles.
        resume_same: the options (written in every row under their names) that
            ``--resume`` finds unchanged in the output's rows, or refuses it.
    """
    if args.resume and not args.output:
        print(f"csp-sudoku {what}: --resume needs --output FILE", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.resume and args.format == "text" and not located_text:
        print(
            f"csp-sudoku {what}: --resume needs --format jsonl or csv (the text rows do not "
            "name their puzzle's line)",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    done: tuple[str, int] | None = None
    has_header = False
    if args.resume:
        same = {name: options[name] for name in resume_same}
        done, has_header = last_entry(args.output, args.format, what, same, fields)
    appending = done is not None or has_header
    geometry = geometry_from_args(args)
    with batch_session(args.output, appending=appending, scheduler=args.scheduler) as (
        out,
        client,
    ):
        writer = RowWriter(args.format, ("file", "line", *fields), out, header=not has_header)
        show_bar = not args.quiet and sys.stderr.isatty()
        total = count_lines(args.inputs) if show_bar and done is None else None
        bar = progress(total, show_bar)
        serial = args.jobs == 1 and client is None
        size = 1 if serial else 8
        held: deque[list[Entry]] = deque()

        def tasks() -> Iterator[tuple[Any, ...]]:
            chunk: list[Entry] = []
            for e in entries_after(iter_entries(args.inputs, geometry), done, _bad_line):
                chunk.append(e)
                if sum(x.puzzle is not None for x in chunk) >= size or len(chunk) >= 4 * size:
                    held.append(chunk)
                    yield work, [x.puzzle for x in chunk if x.puzzle is not None], options
                    chunk = []
            if chunk:
                held.append(chunk)
                yield work, [x.puzzle for x in chunk if x.puzzle is not None], options

        code = EXIT_OK
        puzzles = bad = failed = 0
        jobs = 0 if client is not None and args.jobs == 1 else args.jobs
        # one process, numba's kernels: a first run compiles them, and says so
        compiles = compiles and serial and options.get("backend", "auto") in ("auto", "fast")
        saying = (
            noting_compiles(what, "the solver kernels", args.quiet) if compiles else nullcontext()
        )
        with saying, closing(bar):
            for outcomes in ordered_map(_work_chunk, tasks(), jobs=jobs, executor=client):
                it = iter(outcomes)
                for e in held.popleft():
                    bar.update(1)
                    if e.puzzle is None:
                        bad += 1
                        print(f"csp-sudoku: {e.error or e.text}", file=sys.stderr)
                        continue
                    puzzles += 1
                    status, rows, note = next(it)
                    if note:
                        print(f"csp-sudoku: {e.source}:{e.line}: {note}", file=sys.stderr)
                    if status == EXIT_BAD_INPUT:
                        bad += 1
                        continue
                    failed += status != EXIT_OK
                    code = max(code, status)
                    where = f"{e.source}:{e.line}"
                    for row, text in rows:
                        writer.write(
                            {"file": e.source, "line": e.line, **row},
                            text.replace(WHERE, where),
                            {**shape_fields(e.puzzle.geometry), **passed_fields(e, row)},
                        )
    if puzzles == 0 and bad == 0 and done is None:
        print("csp-sudoku: error: no puzzles found in the input", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not args.quiet:
        print(
            f"{counted(puzzles, 'puzzle')}, {failed} not {_ADJECTIVE[what]}, {bad} bad",
            file=sys.stderr,
        )
    if bad and not args.skip_invalid:
        return EXIT_BAD_INPUT
    return code


_ADJECTIVE = {"solve": "uniquely solvable", "count": "counted", "minimize": "unique"}

#: The fields of an input record that state facts of its puzzle: a rating (a ``rate``
#: row's, ``generate``'s ``ratings``) and where the puzzle came from (what ``bank add``
#: files with it). The ``input_`` fields of a ``rate`` row are such facts too.
PUZZLE_FACTS = frozenset(
    {
        "metric", "score", "level", "level_rank", "estimated", "details", "parameters",
        "runs", "ratings", "seed", "method", "generator", "generator_version", "version",
        "derived_from", "attempts", "steps", "seconds",
    }
)  # fmt: skip


def passed_fields(entry: Entry, row: Mapping[str, Any]) -> Mapping[str, Any]:
    """The fields of ``entry``'s record that pass through to ``row``: all, unless the row's
    ``puzzle`` is another puzzle (``minimize``'s), which the record's facts
    (:data:`PUZZLE_FACTS`) do not describe: those are left out, so that no later command
    (``bank add``) files the old puzzle's rating under the new one."""
    puzzle = row.get("puzzle")
    if puzzle is None or entry.puzzle is None or puzzle == entry.puzzle.to_line():
        return entry.fields
    return {
        k: v
        for k, v in entry.fields.items()
        if k not in PUZZLE_FACTS and not k.startswith("input_")
    }


def rows_runner(
    what: str,
    fields: Sequence[str],
    work: Work,
    *options: str,
    compiles: bool = False,
    resume_same: Sequence[str] = (),
) -> Callable[[argparse.Namespace], int]:
    """The ``run`` of a command that is :func:`run_rows` of ``work`` and no more: its
    per-puzzle options are the parsed options named ``options``, as they are
    (``compiles``, ``resume_same``: as :func:`run_rows` takes them)."""

    def run(args: argparse.Namespace) -> int:
        picked = {name: getattr(args, name) for name in options}
        return run_rows(
            args, what=what, fields=fields, work=work, options=picked,
            compiles=compiles, resume_same=resume_same,
        )  # fmt: skip

    return run
