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
  rows per puzzle), so they are dropped and that entry is done again. The
  entries kept count in the summary and the exit code as they did in the
  earlier run (a command's *judge* reads them from their rows, and refuses
  rows that this run's options would not write: another ``count --limit``),
  and the entries of the part done without rows (bad lines, a puzzle that
  ``minimize`` found not unique) are done again, so that a resumed run ends as
  an uninterrupted one would;
* ``-q`` hides the progress bar and the closing summary (:func:`summary`, the
  same whether the loop here or that of :mod:`csp_sudoku.cli.variants` ran).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
from collections import Counter, deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import closing, nullcontext
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_NOT_ALL, EXIT_OK
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
from csp_sudoku.cli._resume import (
    BAD_ROW_ERRORS,
    Judge,
    OptionsJudge,
    ResumeError,
    judged,
    with_options,
)
from csp_sudoku.core.errors import SudokuError
from csp_sudoku.core.io import Entry, input_waits, shape_fields
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


@dataclass
class Kept:
    """The rows of an earlier run that ``--resume`` keeps in the output.

    Attributes:
        keys: ``(file, line)`` of every entry whose rows are kept, in input order
            (the last entry's rows, maybe incomplete, are dropped: it is done again).
        has_header: whether a CSV header is kept.
        tally: the kept entries per :data:`~csp_sudoku.cli._resume.Kind`, so that a resumed run ends
            with the summary and the exit code of an uninterrupted one.
    """

    keys: list[tuple[str, int]] = field(default_factory=list)
    has_header: bool = False
    tally: Counter[str] = field(default_factory=Counter)


def last_entry(
    path: str,
    fmt: str,
    what: str,
    same: Mapping[str, Any] | None = None,
    fields: Sequence[str] = (),
    judge: Judge | None = None,
) -> Kept:
    """Drop the rows of the last entry in ``path``; return what is kept of the others.

    ``same``: fields that every JSON Lines or CSV row must hold with these values
    (the options of the run that wrote it, such as its seed). ``fields``: the
    command's own columns after ``file`` and ``line``, which a CSV header must
    begin with and every JSON Lines row hold (an output of another command has
    other ones: ``check``'s rows took ``count``'s under ``status``). ``judge``:
    the kind of each kept entry from its rows (without it, each is ``ok``).

    Raises:
        ResumeError: when a row has no ``file`` and ``line``, another value of a
            field of ``same``, not the command's ``fields``, or rows that this
            run's options would not write (``judge``).
    """
    kept = Kept()
    if not os.path.exists(path):
        return kept
    with open(path, "rb") as fh:
        data = fh.read()
    if data and not data.endswith(b"\n"):  # a row cut short by the interruption
        data = data[: data.rfind(b"\n") + 1]
    lines = data.decode("utf-8", "replace").splitlines(keepends=True)
    header: list[str] | None = None
    ends: list[int] = []  # where each kept entry's rows end
    group: list[dict[str, Any]] = []  # the rows of the entry read last
    start = 0  # the line of its first row
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
                where, _, rest = text.partition("\t")
                source, num = where.rsplit(":", 1)
                rec = {"file": source, "line": num, "text": rest}
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
        if kept.keys and kept.keys[-1] == key:  # one more row of the same entry
            group.append(rec)
            ends[-1] = offset
            continue
        if group:
            kept.tally[judged(judge, group, path, start)] += 1
        kept.keys.append(key)
        ends.append(offset)
        group, start = [rec], n
    header_end = len(lines[0].encode("utf-8")) if header is not None else 0
    if kept.keys:  # the last entry's rows: maybe incomplete, done again
        kept.keys.pop()
        ends.pop()
    with open(path, "rb+") as fh:
        fh.truncate(ends[-1] if ends else header_end)
    kept.has_header = header is not None
    return kept


class _Located(Protocol):
    """An input entry that names where it was read (an :class:`Entry`, a variant one)."""

    @property
    def source(self) -> str: ...

    @property
    def line(self) -> int: ...


_E = TypeVar("_E", bound=_Located)


def entries_after(
    entries: Iterator[_E], kept: Sequence[tuple[str, int]]
) -> Iterator[tuple[_E, bool]]:
    """The entries left to do after an earlier run whose rows are ``kept`` (their
    ``(file, line)``, in order), each with whether it is *again*: an entry of the
    part done that has no rows there (a bad line, a puzzle that got none, as
    ``minimize`` gives a puzzle that is not unique). Those are done again, so
    that a resumed run ends with the messages and the exit code of a whole one;
    they must give no rows (:func:`again_rows`). All entries when none is kept.

    Raises:
        ResumeError: when a kept entry is no entry of the input, in order.
    """
    keys = iter(kept)
    expected = next(keys, None)
    for e in entries:
        if expected is None:
            yield e, False
            continue
        if (e.source, e.line) == expected:
            expected = next(keys, None)
            continue
        if e.source == expected[0] and e.line > expected[1]:
            break  # past the kept entry: it is not there
        yield e, True
    if expected is not None:
        raise ResumeError(
            f"the output has rows for {expected[0]}:{expected[1]}, which is no entry of "
            "the input after the ones before it: not this input's output"
        )


def again_rows(source: str, line: int, output: str) -> ResumeError:
    """The error of an entry of the part done that gives rows now but had none in
    ``output`` (see :func:`entries_after`): the output is another input's."""
    return ResumeError(
        f"{source}:{line} has no rows in {output} but gives rows now: not this input's output"
    )


def summary(
    what: str, puzzles: int, failed: int, bad: int, *, variant: int = 0, earlier: int = 0
) -> str:
    """The closing line of ``solve``, ``count`` and ``minimize``, whichever loop ran
    (a file or standard input, plain or variant puzzles): the puzzles answered
    (``variant`` of them variant ones, ``earlier`` by the run ``--resume`` goes
    on from), those that failed the command's question, and the bad entries
    (lines that could not be read are no puzzles)."""
    kind = "variant puzzle" if puzzles and variant == puzzles else "puzzle"
    notes = [f"{variant} variant"] if 0 < variant < puzzles else []
    notes += [f"{earlier} from the earlier run"] if earlier else []
    said = f" ({', '.join(notes)})" if notes else ""
    return f"{counted(puzzles, kind)}{said}, {failed} not {_ADJECTIVE[what]}, {bad} bad"


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
    judge: OptionsJudge | None = None,
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
        judge: what the rows of an entry that ``--resume`` keeps say of it, given
            them and ``options`` (for the exit code and the summary; it refuses rows
            that other options wrote); without it, every kept entry is ``ok``.
    """
    if "backend" in options:  # once, before any work: not as every puzzle's error
        from csp_sudoku.backends import get_backend

        get_backend(options["backend"])
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
    kept = Kept()
    if args.resume:
        same = {name: options[name] for name in resume_same}
        kept = last_entry(
            args.output, args.format, what, same, fields, with_options(judge, options)
        )
    appending = bool(kept.keys) or kept.has_header
    geometry = geometry_from_args(args)
    with batch_session(args.output, appending=appending, scheduler=args.scheduler) as (
        out,
        client,
    ):
        writer = RowWriter(args.format, ("file", "line", *fields), out, header=not kept.has_header)
        show_bar = not args.quiet and sys.stderr.isatty()
        total = count_lines(args.inputs) if show_bar and not kept.keys else None
        bar = progress(total, show_bar)
        serial = args.jobs == 1 and client is None
        size = 1 if serial else 8
        held: deque[list[tuple[Entry, bool]]] = deque()

        def tasks() -> Iterator[tuple[Any, ...]]:
            chunk: list[tuple[Entry, bool]] = []
            for e, again in entries_after(iter_entries(args.inputs, geometry), kept.keys):
                chunk.append((e, again))
                if (
                    sum(x.puzzle is not None for x, _ in chunk) >= size
                    or len(chunk) >= 4 * size
                    or (not serial and input_waits())  # a slow writer's lines go at once
                ):
                    held.append(chunk)
                    yield work, [x.puzzle for x, _ in chunk if x.puzzle is not None], options
                    chunk = []
            if chunk:
                held.append(chunk)
                yield work, [x.puzzle for x, _ in chunk if x.puzzle is not None], options

        earlier = kept.tally["ok"] + kept.tally["failed"]
        puzzles, failed, bad = earlier, kept.tally["failed"], kept.tally["bad"]
        code = EXIT_NOT_ALL if failed else EXIT_OK
        jobs = 0 if client is not None and args.jobs == 1 else args.jobs
        # one process, numba's kernels: a first run compiles them, and says so
        compiles = compiles and serial and options.get("backend", "auto") in ("auto", "fast")
        saying = (
            noting_compiles(what, "the solver kernels", args.quiet) if compiles else nullcontext()
        )
        with saying, closing(bar):
            for outcomes in ordered_map(
                _work_chunk, tasks(), jobs=jobs, executor=client, input_waits=input_waits
            ):
                it = iter(outcomes)
                for e, again in held.popleft():
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
                    if again and rows:
                        raise again_rows(e.source, e.line, args.output)
                    where = f"{e.source}:{e.line}"
                    for row, text in rows:
                        writer.write(
                            {"file": e.source, "line": e.line, **row},
                            text.replace(WHERE, where),
                            {**shape_fields(e.puzzle.geometry), **passed_fields(e, row)},
                        )
    if puzzles == 0 and bad == 0 and not kept.keys:
        print("csp-sudoku: error: no puzzles found in the input", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not args.quiet:
        print(summary(what, puzzles, failed, bad, earlier=earlier), file=sys.stderr)
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
    judge: OptionsJudge | None = None,
) -> Callable[[argparse.Namespace], int]:
    """The ``run`` of a command that is :func:`run_rows` of ``work`` and no more: its
    per-puzzle options are the parsed options named ``options``, as they are
    (``compiles``, ``resume_same``, ``judge``: as :func:`run_rows` takes them)."""

    def run(args: argparse.Namespace) -> int:
        picked = {name: getattr(args, name) for name in options}
        return run_rows(
            args, what=what, fields=fields, work=work, options=picked,
            compiles=compiles, resume_same=resume_same, judge=judge,
        )  # fmt: skip

    return run
