"""``csp-sudoku bank``: keep puzzles in a SQLite bank without isomorphic duplicates.

Subcommands: ``add`` (puzzle files into the bank), ``rate`` (rate unrated
puzzles with a metric), ``query`` (print matching puzzles), ``export`` (write
matching puzzles to a file and record the batch), ``stats``.

Example: 20 minimal rot180 puzzles with rounds level Hard not yet exported::

    csp-sudoku bank export puzzles.db -o book.txt --batch book-1 \\
        --count 20 --minimal --symmetry rot180 --metric rounds --level Hard --not-exported
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import math
import re
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from types import SimpleNamespace
from typing import IO, Any, cast

import numpy as np
from numpy.typing import NDArray

from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_NOT_ALL, EXIT_OK
from csp_sudoku.cli._common import (
    MAX_COUNT,
    RowWriter,
    add_geometry_args,
    add_rating_args,
    count_lines,
    counted,
    finite_float,
    geometry_from_args,
    geometry_name,
    int_in,
    iter_chunks,
    metric_names,
    metric_refusal,
    output_file,
    progress,
)
from csp_sudoku.core.errors import ArgumentError, BankError, ParseError
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import (
    Entry,
    ReadState,
    TextChunk,
    geometry_fields,
    open_output,
    read_chunk,
)
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.tools.bank import (
    ORDERS,
    QUERY_SYMMETRIES,
    BankEntry,
    BankQuery,
    Claims,
    PreparedBatch,
    Provenance,
    PuzzleBank,
    dedup_keys,
    key_hashes,
)


class _Formats(tuple[str, ...]):
    """The ``--format`` choices of ``query`` and ``export``: those of every command's
    ``--format`` (what help and errors list), and ``lines``, the name earlier
    versions gave ``text``, still accepted (see :func:`_format_of`)."""

    def __contains__(self, item: object) -> bool:
        return item == "lines" or tuple.__contains__(self, item)


FORMATS = _Formats(("text", "jsonl", "csv"))


def _format_of(args: argparse.Namespace) -> str:
    """The output format asked for, ``lines`` read as ``text``."""
    return "text" if args.format == "lines" else str(args.format)


def _add_query_args(p: argparse.ArgumentParser) -> None:
    q = p.add_argument_group("selection")
    q.add_argument("--count", "-n", type=int_in(0, MAX_COUNT), help="at most this many puzzles")
    either = q.add_mutually_exclusive_group()
    either.add_argument("--minimal", action="store_true", help="only minimal puzzles")
    either.add_argument("--not-minimal", action="store_true", help="only non-minimal puzzles")
    symmetry = "clue-pattern symmetry ('none': patterns with no symmetry)"
    q.add_argument("--symmetry", choices=QUERY_SYMMETRIES, help=symmetry)
    q.add_argument(
        "--metric",
        "-m",
        action="append",
        help="rating metric for --level/--score-min/--score-max/--order (bank rate: the "
        "metrics to rate with, repeatable and/or comma-separated, or 'all')",
    )
    q.add_argument("--level", help="rating level (case-insensitive), e.g. Hard")
    q.add_argument("--score-min", type=finite_float, help="the rating's score at least this")
    q.add_argument("--score-max", type=finite_float, help="the rating's score at most this")
    # the spellings of earlier versions, kept working (generate spells them --score-min/-max)
    q.add_argument("--min-score", dest="score_min", type=finite_float, help=argparse.SUPPRESS)
    q.add_argument("--max-score", dest="score_max", type=finite_float, help=argparse.SUPPRESS)
    q.add_argument("--min-clues", type=int_in(0, 10**6))
    q.add_argument("--max-clues", type=int_in(0, 10**6))
    q.add_argument("--generator", help="made by this generator")
    q.add_argument(
        "--geometry", type=geometry_name, help="geometry name: 9x9, x-9x9, windoku, jigsaw-9x9, ..."
    )
    q.add_argument("--not-exported", action="store_true", help="never exported before")
    q.add_argument("--not-in-batch", metavar="BATCH", help="not exported in this batch")
    q.add_argument(
        "--order",
        choices=ORDERS,
        default="id",
        help="id (default), clues, score (lowest first) or -score (highest first); "
        "score orders need --metric unless the bank has one metric rated",
    )


def _query(args: argparse.Namespace) -> BankQuery:
    minimal = True if args.minimal else (False if args.not_minimal else None)
    same = {name: getattr(args, name) for name in _SAME_NAMES}
    return BankQuery(
        limit=args.count,
        minimal=minimal,
        min_score=args.score_min,
        max_score=args.score_max,
        metric=_one_metric(args),
        **same,
    )


def _one_metric(args: argparse.Namespace) -> str | None:
    """The one metric that ``--metric`` names for a selection (None: none named).

    Raises:
        ArgumentError: several metrics (a repeated ``--metric`` or a comma list: the
            last one silently won), which only ``bank rate`` takes.
    """
    names = metric_names(args.metric or [], [])
    if len(names) > 1:
        raise ArgumentError(
            f"--metric: a selection is by one metric, got {', '.join(names)} "
            "(only `bank rate` takes several)"
        )
    return names[0] if names else None


#: The selection options that set the query's field of the same name.
_SAME_NAMES = (
    "symmetry", "level", "min_clues", "max_clues", "generator", "geometry",
    "not_exported", "not_in_batch", "order",
)  # fmt: skip


#: What runs a parsed command: returns the exit code.
Run = Callable[[argparse.Namespace], int]


def _add_quiet(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="no progress bar (shown on a terminal) and no summary",
    )


def _action(
    bsub: Any, name: str, help_text: str, run: Run, bank_help: str | None = None
) -> argparse.ArgumentParser:
    """The parser of bank action ``name``: the bank file first (``bank_help`` its
    help), then the action's own options; ``run`` runs it."""
    p: argparse.ArgumentParser = bsub.add_parser(name, help=help_text)
    p.add_argument("bank", help=bank_help)
    p.set_defaults(func=run)
    return p


def register(sub: Any) -> None:
    p = sub.add_parser(
        "bank",
        help="a SQLite puzzle bank: add, rate, query and export puzzles without duplicates",
        description=(
            "Keep puzzles in one SQLite file, deduplicated by canonical form (9x9 puzzles "
            "that are the same up to relabelling, row/column/band/stack swaps and "
            "transposition count once)."
        ),
    )
    bsub = p.add_subparsers(dest="bank_command", metavar="ACTION", required=True)

    add_help = "add the puzzles of files (unique ones only)"
    add = _action(bsub, "add", add_help, _run_add, "the bank file (created when missing)")
    add.add_argument("inputs", nargs="*", metavar="FILE|PUZZLE", help="default: stdin")
    add.add_argument("--generator", help="record this generator name")
    add.add_argument(
        "--seed", type=int_in(0, 2**63 - 1, "a seed"), help="record this seed (64-bit)"
    )
    add.add_argument(
        "--no-minimal-check",
        action="store_true",
        help="do not compute minimality (faster): it is stored as unknown",
    )
    add_geometry_args(add)
    _add_quiet(add)

    rate = _action(bsub, "rate", "rate selected puzzles not yet rated with a metric", _run_rate)
    _add_quiet(rate)
    add_rating_args(
        rate,
        seed_help="batch seed (default: a fresh one; each rating records its seed)",
        runs_help="randomised runs (default: the metric's)",
    )
    _add_query_args(rate)

    query = _action(bsub, "query", "print the selected puzzles", _run_query)
    query.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text: one puzzle line each ('lines' is an old name of it); jsonl/csv: the "
        "puzzle with its solution, clues, minimality, symmetries, provenance and ratings",
    )
    _add_query_args(query)

    export = _action(bsub, "export", "write the selected puzzles and record the batch", _run_export)
    export.add_argument(
        "--output",
        "-o",
        type=output_file,
        help="the puzzle file to write (default, or '-': stdout)",
    )
    export.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="as for query ('lines' is an old name of text)",
    )
    export.add_argument(
        "--batch", help="batch name recorded (default: the output file name, or 'stdout')"
    )
    export.add_argument("--solutions", action="store_true", help="append each solution")
    _add_query_args(export)

    _action(bsub, "stats", "counts of puzzles, clues and levels", _run_stats)


#: SQLite integers are 64-bit: a bigger seed in a record is not stored.
_SQLITE_INT = range(-(2**63), 2**63)


def _int_or_none(value: Any) -> int | None:
    """An integer field of an input record (a JSON integer or CSV digits) that SQLite can
    hold, else None (a fraction such as 2.9 is no integer: never cut to 2)."""
    if not _whole_number(value) or (isinstance(value, str) and len(value) > 25):
        return None
    number = int(value)
    return number if number in _SQLITE_INT else None


def _whole_number(value: Any) -> bool:
    """Whether a record's field is a whole number (a JSON integer, or CSV digits)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, str) and re.fullmatch("-?[0-9]+", value) is not None


def _text_or_none(value: Any) -> str | None:
    """A text field of an input record (a level name), None when absent or not text."""
    return value if isinstance(value, str) and value else None


def _flag(value: Any) -> bool | None:
    """A yes/no field of an input record (JSON ``true`` or CSV ``True``), None when absent."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return None


def _rating_row(fields: Mapping[str, Any], prefix: str, **more: Any) -> SimpleNamespace:
    """The rating that a record's fields ``PREFIXmetric``, ``PREFIXscore``,
    ``PREFIXlevel`` and ``PREFIXlevel_rank`` hold, with the attributes ``more``."""
    return SimpleNamespace(
        metric=fields[f"{prefix}metric"],
        score=fields[f"{prefix}score"],
        level=_text_or_none(fields.get(f"{prefix}level")),
        level_rank=_int_or_none(fields.get(f"{prefix}level_rank")),
        **more,
    )


def _ratings(fields: dict[str, Any]) -> list[SimpleNamespace]:
    """The ratings an input record carries: a ``rate`` row (with its provenance: runs,
    seed, parameters, version), the rating of the row a second ``rate`` read (kept as
    ``input_metric``, ``input_score``, ...; its seed and version are not known for
    sure, so they are not stored), or ``generate``'s ``ratings`` (each with the seed
    and runs that reproduce it).

    Raises:
        ArgumentError: a ``ratings`` field that is not such an object (the record is
            skipped as a bad rating, not added without what it claims).
    """
    found: list[SimpleNamespace] = []
    if isinstance(fields.get("metric"), str) and fields.get("score") not in (None, ""):
        params = fields.get("parameters")
        found.append(
            _rating_row(
                fields,
                "",
                runs=_int_or_none(fields.get("runs")),
                seed=_int_or_none(fields.get("seed")),
                parameters=params if isinstance(params, dict) else {},
                version=_text_or_none(fields.get("version")),
            )
        )
    if isinstance(fields.get("input_metric"), str) and fields.get("input_score") not in (
        None,
        "",
    ):
        found.append(_rating_row(fields, "input_"))
    ratings = fields.get("ratings")
    if ratings in (None, ""):
        return found
    if not isinstance(ratings, dict) or not all(isinstance(r, dict) for r in ratings.values()):
        raise ArgumentError(
            f"ratings {ratings!r:.60} is not an object of metric: {{score, level, ...}} "
            "(as generate writes it)"
        )
    for name, r in ratings.items():
        if r.get("score") is not None:  # keyed by its metric, with the rating's own seed
            params = r.get("parameters")
            found.append(
                _rating_row(
                    {**r, "metric": name},
                    "",
                    runs=_int_or_none(r.get("runs")),
                    seed=_int_or_none(r.get("seed")),
                    parameters=params if isinstance(params, dict) else {},
                )
            )
    return found


def _is_rate_row(fields: dict[str, Any]) -> bool:
    """Whether a record is a ``rate`` row: its ``seed`` and ``version`` are the rating's."""
    return isinstance(fields.get("metric"), str) and "score" in fields


def _provenance(
    fields: dict[str, Any], args: argparse.Namespace, tally: _Tally | None = None
) -> Provenance:
    """Where a record says its puzzle came from; ``--generator`` and ``--seed`` win.

    In a ``rate`` row, ``seed`` and ``version`` are the rating's; the generator's
    are the fields ``rate`` kept as ``input_seed`` and ``input_version``. A seed
    SQLite cannot hold (64-bit) is left out, counted in ``tally`` (said at the end).
    """
    rated = _is_rate_row(fields)
    seed = args.seed
    if seed is None:
        given = fields.get("input_seed") if rated else fields.get("seed")
        seed = _int_or_none(given)
        if seed is not None and seed < 0:
            seed = None  # seeds are 0 or more: a negative one reproduces nothing
        if seed is None and tally is not None and given not in (None, ""):
            tally.counts["seed out of range" if _whole_number(given) else "seed bad"] += 1
    version = fields.get("generator_version")
    if version is None and not (rated and "input_metric" in fields):  # not a rating's version
        version = fields.get("input_version") if rated else fields.get("version")
    derived = fields.get("derived_from")
    return Provenance(
        generator=args.generator or _text_or_none(fields.get("generator") or fields.get("method")),
        seed=seed,
        method=_text_or_none(fields.get("method")),
        derived_from=_text_or_none(derived)
        if not isinstance(derived, (dict, list))
        else json.dumps(derived, sort_keys=True),
        generator_version=None if version is None else _text_or_none(str(version)),
    )


def _claims(fields: dict[str, Any]) -> Claims:
    """What a record claims about its puzzle's facts (checked by the bank, never stored)."""
    symmetry = fields.get("symmetry")
    return Claims(
        minimal=_flag(fields.get("minimal")),
        symmetry=symmetry if isinstance(symmetry, str) and symmetry else None,
    )


#: Puzzles read into one batch of ``bank add``: the keys of the next batch are
#: computed (in threads) while one is checked and written.
ADD_BATCH = 4096

#: Seconds between two commits of ``bank add`` (a commit waits for the disk and
#: rewrites the key index's pages that changed: one each few seconds, not one a batch).
COMMIT_SECONDS = 2.0


@dataclass
class _Batch:
    """Puzzles of one geometry read for ``bank add``, with what their records say.

    Attributes:
        geometry: their geometry.
        cells: one row of cell values each.
        where: ``(source, line)`` of each, for the messages.
        claims: what each record claims (checked by the bank).
        provenance: where each came from.
        ratings: the ratings each record carries (scores checked to be numbers).
        lines: the input lines read for the batch (the bad ones included): the
            progress bar's step.
    """

    geometry: Geometry
    cells: NDArray[np.int8]
    where: list[tuple[str, int]]
    claims: list[Claims | None] | None = None
    provenance: list[Provenance | None] | None = None
    ratings: list[list[Any]] | None = None
    lines: int = 0


@dataclass
class _Tally:
    """What ``bank add`` did so far: records ``added``, ``duplicates``, ``bad`` and
    ``not unique`` in ``counts``, each claim the bank ``corrected``, and the
    ``damage`` that ended the reading (an input cut short or missing), if any."""

    counts: Counter[str] = field(default_factory=Counter)
    corrected: Counter[str] = field(default_factory=Counter)
    damage: ParseError | None = None


def _checked_ratings(fields: dict[str, Any]) -> list[SimpleNamespace]:
    """The ratings of a record (see :func:`_ratings`), each score a finite float.

    Raises:
        ArgumentError: a score that is no finite number (the record is skipped).
    """
    found = _ratings(fields)
    for rating in found:
        given = rating.score
        try:
            rating.score = float(given)
        except (TypeError, ValueError, OverflowError) as err:
            raise ArgumentError(f"score {given!r} of {rating.metric}: {err}") from None
        if not math.isfinite(rating.score):
            raise ArgumentError(f"score {given!r} of {rating.metric} is not a finite number")
    return found


def _batch_of(
    records: list[tuple[Entry, list[SimpleNamespace]]],
    args: argparse.Namespace,
    lines: int,
    tally: _Tally,
) -> _Batch:
    """The batch of records read one by one (``lines``: the input lines they took;
    ``tally`` counts the seeds too big to store)."""
    first = cast(Puzzle, records[0][0].puzzle)
    return _Batch(
        first.geometry,
        np.stack([cast(Puzzle, e.puzzle).cells for e, _ in records]),
        [(e.source, e.line) for e, _ in records],
        [_claims(e.fields) for e, _ in records],
        [_provenance(e.fields, args, tally) for e, _ in records],
        [list(ratings) for _, ratings in records],
        lines,
    )


def _batches(
    args: argparse.Namespace, geometry: Geometry | None, tally: _Tally
) -> Iterator[_Batch]:
    """The inputs in batches of up to :data:`ADD_BATCH` puzzles of one geometry.

    A chunk of bare puzzle lines is read by one table look-up over its bytes
    (:func:`csp_sudoku.core.io.read_chunk`); other inputs record by record, a
    bad line or a bad rating said on stderr, counted and left out.
    """
    state = ReadState()
    plain = Provenance(generator=args.generator, seed=args.seed)
    records: list[tuple[Entry, list[SimpleNamespace]]] = []
    lines = 0  # input lines read since the last batch went out
    for chunk in _until_damaged(iter_chunks(args.inputs, ADD_BATCH), tally):
        if chunk.first_line == 1:
            state = ReadState()  # a new input
        read = read_chunk(chunk, state, geometry)
        if isinstance(read, tuple):
            cells, geo = read
            if records:
                yield _batch_of(records, args, lines, tally)
                records, lines = [], 0
            where = [(chunk.source, chunk.first_line + i) for i in range(len(cells))]
            yield _Batch(geo, cells, where, None, [plain] * len(cells), None, lines + len(cells))
            lines = 0
            continue
        for entry in read:
            puzzle = entry.puzzle
            if records and (
                len(records) >= ADD_BATCH
                or (puzzle is not None and puzzle.geometry != records[0][0].puzzle.geometry)  # type: ignore[union-attr]
            ):
                yield _batch_of(records, args, lines, tally)
                records, lines = [], 0
            lines += 1
            if puzzle is None:
                print(f"csp-sudoku bank: skipped {entry.error}", file=sys.stderr)
                tally.counts["bad"] += 1
                continue
            try:
                records.append((entry, _checked_ratings(entry.fields)))
            except ArgumentError as err:
                print(
                    f"csp-sudoku bank: skipped {entry.source}:{entry.line}: bad rating ({err})",
                    file=sys.stderr,
                )
                tally.counts["bad"] += 1
    if records:
        yield _batch_of(records, args, lines, tally)


def _until_damaged(chunks: Iterator[TextChunk], tally: _Tally) -> Iterator[TextChunk]:
    """The chunks of the inputs up to damaged data or an input that cannot be read,
    whose error is kept in ``tally.damage`` rather than raised.

    The reader yields the whole lines before the damage first, so the puzzles read
    before it are added and summed up, and the damage is said after them (exit 2),
    as every batch command keeps the good results before a bad input: raised at
    once, it rolled back the whole run, the good files given before included.
    """
    try:
        yield from chunks
    except ParseError as err:
        tally.damage = err


def _keyed(batch: _Batch, stop: threading.Event) -> tuple[list[str], list[int]]:
    """The keys of a batch and their hashes (what a thread computes ahead of the writes)."""
    keys = dedup_keys(batch.cells, batch.geometry, stop=stop)
    return keys, key_hashes(keys)


def _prepare(
    bank: PuzzleBank, batch: _Batch, keyed: tuple[list[str], list[int]], args: argparse.Namespace
) -> PreparedBatch:
    """Prepare one batch (its keys and their hashes computed already): its keys looked
    up, the facts of its new puzzles begun in threads."""
    return bank.prepare(
        batch.cells,
        geometry=batch.geometry,
        claims=batch.claims,
        provenance=batch.provenance,
        ratings=batch.ratings,
        check_minimal=not args.no_minimal_check,
        keys=keyed[0],
        hashes=keyed[1],
    )


def _write(bank: PuzzleBank, batch: _Batch, prepared: PreparedBatch, tally: _Tally) -> None:
    """Write one prepared batch, say what was skipped, count the rest."""
    results = bank.write(prepared)
    for i, err in sorted(results.errors.items()):
        source, line = batch.where[i]
        print(f"csp-sudoku bank: skipped {source}:{line}: {err}", file=sys.stderr)
    tally.counts["not unique"] += len(results.errors)
    tally.counts["added"] += results.added
    tally.counts["duplicates"] += results.duplicates
    tally.corrected.update(results.corrected)


def _run_add(args: argparse.Namespace) -> int:
    """Add the puzzles of the inputs, with what their records say about them.

    A JSON Lines or CSV record gives the provenance (see :func:`_provenance`:
    generator, method, seed, derived_from, generator version) and ratings (a
    ``rate`` row's ``metric``/``score``/``level``, or ``generate``'s
    ``ratings``); a rating is stored unless the puzzle has one with that
    metric already. Its ``minimal`` and ``symmetry`` are claims: the bank
    computes both, stores what it computed, and the summary on stderr counts
    the records whose claims were wrong.

    The puzzles go in in batches (:data:`ADD_BATCH`), three at a time in
    turns: while one is written, the facts of the next (solution, minimality)
    are computed by the bank's threads and the keys (canonical forms) of the
    one after by another thread. The writes commit every
    :data:`COMMIT_SECONDS` and at the end; a Ctrl-C or SIGTERM keeps what was
    committed before it. Damaged input data (a gzip file cut short) ends the
    reading: what was read before it is added and summed up (on stderr, as
    every summary), then the damage is raised (exit 2).
    """
    geometry = geometry_from_args(args)
    tally = _Tally()
    show = not args.quiet and sys.stderr.isatty()
    bar = progress(count_lines(args.inputs) if show else None, show)
    with contextlib.ExitStack() as stack:
        bank = stack.enter_context(PuzzleBank(args.bank))
        stack.enter_context(contextlib.closing(bar))
        pool = stack.enter_context(ThreadPoolExecutor(1, thread_name_prefix="csp-sudoku-bank"))
        stop = threading.Event()
        stack.callback(stop.set)  # first thing on the way out: the keys ahead stop at once
        renew = stack.enter_context(bank.transaction())

        def write(batch: _Batch, prepared: PreparedBatch) -> None:
            _write(bank, batch, prepared, tally)
            bar.update(batch.lines)
            renew(COMMIT_SECONDS)

        ready: tuple[_Batch, PreparedBatch] | None = None

        def prepare_then_write(batch: _Batch, keys: Future[tuple[list[str], list[int]]]) -> None:
            """Prepare ``batch`` (its facts begin in the bank's threads), then write the
            batch prepared before it meanwhile."""
            nonlocal ready
            prepared = _prepare(bank, batch, keys.result(), args)
            if ready is not None:
                write(*ready)
            ready = (batch, prepared)

        keyed: tuple[_Batch, Future[tuple[list[str], list[int]]]] | None = None
        for batch in _batches(args, geometry, tally):
            keys = pool.submit(_keyed, batch, stop)  # its keys, in a thread, meanwhile
            if keyed is not None:
                prepare_then_write(*keyed)
            keyed = (batch, keys)
        if keyed is not None:
            prepare_then_write(*keyed)
        if ready is not None:
            write(*ready)
        total = len(bank)
    n = tally.counts
    if not args.quiet:  # a summary goes to stderr, as every command's: stdout has results
        print(
            f"added {n['added']}, duplicates {n['duplicates']}, skipped "
            f"{n['not unique'] + n['bad']} ({n['not unique']} not unique, {n['bad']} bad); "
            f"the bank holds {total}",
            file=sys.stderr,
        )
    if n["seed out of range"]:
        print(
            f"csp-sudoku bank: note: {counted(n['seed out of range'], 'record')} gave a seed of "
            "2**63 or more, or below 0, which the bank does not hold: stored without it",
            file=sys.stderr,
        )
    if n["seed bad"]:
        print(
            f"csp-sudoku bank: note: {counted(n['seed bad'], 'record')} gave a seed that is "
            "not a whole number (a seed is an integer of 0 or more): stored without it",
            file=sys.stderr,
        )
    if tally.corrected:
        wrong = ", ".join(f"{what} {n}" for what, n in sorted(tally.corrected.items()))
        print(
            f"csp-sudoku bank: note: records whose claims the bank corrected ({wrong}); "
            "it stored the computed facts",
            file=sys.stderr,
        )
    if tally.damage is not None:  # after the summary of what was read before it
        raise tally.damage
    if not (n["added"] or n["duplicates"] or n["not unique"] or n["bad"]):
        # as every command says of an input with nothing to read (exit 0 said "added 0")
        print("csp-sudoku: error: no puzzles found in the input", file=sys.stderr)
        return EXIT_BAD_INPUT
    # as in every command: 2 for a bad line, else 1 for a puzzle without one solution
    return EXIT_BAD_INPUT if n["bad"] else EXIT_NOT_ALL if n["not unique"] else EXIT_OK


def _run_rate(args: argparse.Namespace) -> int:
    """Rate the selected puzzles with each metric of ``--metric`` in turn (a comma
    list, repeated, or ``all``), each metric's count said as it ends."""
    from csp_sudoku.metrics import METRICS

    if not args.metric:
        print("csp-sudoku bank rate: error: --metric is required", file=sys.stderr)
        return EXIT_BAD_INPUT
    metrics = metric_names(args.metric, list(METRICS))
    # before any rating: one typo must not waste an hour of another metric's
    refused = metric_refusal(metrics, list(METRICS))
    if refused is not None:
        print(f"csp-sudoku bank rate: error: {refused}", file=sys.stderr)
        return EXIT_BAD_INPUT
    query = _query(argparse.Namespace(**{**vars(args), "metric": None}))
    show = not args.quiet and sys.stderr.isatty()
    with PuzzleBank(args.bank) as bank:
        for metric in metrics:
            bar = progress(None, show)
            with contextlib.closing(bar):
                n = bank.rate(
                    metric,
                    query=query,
                    seed=args.seed,
                    runs=args.runs,
                    jobs=args.jobs,
                    progress=bar.tick,
                )
            if args.quiet:
                continue
            print(f"rated {counted(n, 'puzzle')} with {metric}", file=sys.stderr)
            if not n:
                print(
                    f"csp-sudoku bank: {_why_nothing_to_rate(bank, args.bank, metric)}",
                    file=sys.stderr,
                )
    return EXIT_OK


def _why_nothing_to_rate(bank: PuzzleBank, path: str, metric: str) -> str:
    """Why ``bank rate`` found nothing to rate: an empty bank, or all rated already."""
    if len(bank) == 0:
        return f"{path} holds no puzzles; add some with `csp-sudoku bank add {path} FILE`"
    return f"every selected puzzle is rated with {metric} already"


_RECORD_FIELDS = (
    "id", "puzzle", "solution", "geometry", "regions", "clues", "minimal", "symmetries",
    "generator", "seed", "method", "derived_from", "generator_version", "ratings",
)  # fmt: skip


def _record(e: BankEntry) -> dict[str, Any]:
    """A banked puzzle as a JSON Lines / CSV row (what ``bank add`` reads back)."""
    return {
        "id": e.id,
        "puzzle": e.puzzle.to_line(),
        "solution": e.solution.to_line(),
        **geometry_fields(e.puzzle.geometry),
        "clues": e.clues,
        "minimal": e.minimal,
        "symmetries": list(e.symmetries),
        "generator": e.generator,
        "seed": e.seed,
        "method": e.method,
        "derived_from": e.derived_from,
        "generator_version": e.generator_version,
        "ratings": {m: {"score": s, "level": lv} for m, (s, lv) in e.ratings.items()},
    }


def _write_entries(
    entries: Iterable[BankEntry], fmt: str, out: IO[str], *, solutions: bool = False
) -> list[int]:
    """Write the entries as rows, as they come; their ids, in order."""
    writer = RowWriter(fmt, _RECORD_FIELDS, out)
    ids: list[int] = []
    for e in entries:
        text = e.puzzle.to_line() + (" " + e.solution.to_line() if solutions else "")
        writer.write(_record(e), text)
        ids.append(e.id)
    return ids


def _selection(bank: PuzzleBank, args: argparse.Namespace) -> BankQuery | None:
    """The query of the options, its metric found when it needs one and names none;
    None when nothing can match (said on stderr: the exit code is 1).

    A score order, level or score range without ``--metric`` uses the only
    metric rated in the bank (a note says so); with several rated, which one
    is a question for the user (a :class:`BankError`, exit 2, naming them).
    A metric that no banked rating uses selects nothing, which is said at
    once rather than found by reading every puzzle.
    """
    query = _query(args)
    needs = query.needs_metric()
    if needs is not None:
        rated = bank.rated_metrics()
        if len(rated) > 1:
            raise BankError(
                f"{needs} needs --metric: {args.bank} has ratings of {', '.join(rated)}"
            )
        if not rated:
            _say(
                f"no puzzle in {args.bank} is rated, so {needs} selects none; rate them with "
                f"`csp-sudoku bank rate {args.bank} --metric M`"
            )
            return None
        query = replace(query, metric=rated[0])
        _say(f"note: {needs} with the ratings of {rated[0]}, the only metric rated in {args.bank}")
    bank.check_query(query)  # an unknown metric or level: exit 2 before anything else
    if query.metric is not None and query.metric not in bank.rated_metrics():
        _say(_unrated(args.bank, query.metric))
        return None
    return query


def _unrated(bank: str, metric: str) -> str:
    """What an empty selection of a metric nothing is rated with says."""
    return (
        f"no puzzle in {bank} is rated with {metric}; "
        f"run `csp-sudoku bank rate {bank} --metric {metric}`"
    )


def _say(text: str) -> None:
    print(f"csp-sudoku bank: {text}", file=sys.stderr)


def _why_none(bank: PuzzleBank, args: argparse.Namespace, query: BankQuery) -> str:
    """Why a selection is empty: an empty bank, or a selection that no puzzle matches."""
    total = len(bank)
    if total == 0:
        return f"{args.bank} holds no puzzles; add some with `csp-sudoku bank add {args.bank} FILE`"
    rated = ""
    if query.metric is not None:
        rated = f", {bank.rated_count(query.metric):,} of them rated with {query.metric}"
    return f"no puzzle matches the selection ({args.bank} holds {total:,} puzzles{rated})"


def _entries(bank: PuzzleBank, args: argparse.Namespace) -> Iterator[BankEntry] | None:
    """The entries of the selection, the first one read already; None when there are
    none (and ``-n 0`` did not ask for none: why is said on stderr)."""
    query = _selection(bank, args)
    if query is None:
        return None
    entries = bank.iter_query(query)
    first = next(entries, None)
    if first is None:
        if args.count != 0:
            _say(_why_none(bank, args, query))
        return None
    return itertools.chain([first], entries)


def _run_query(args: argparse.Namespace) -> int:
    with PuzzleBank(args.bank, readonly=True) as bank:
        entries = _entries(bank, args)
        if entries is None:
            return EXIT_OK if args.count == 0 else EXIT_NOT_ALL
        _write_entries(entries, _format_of(args), sys.stdout)
    return EXIT_OK


def _run_export(args: argparse.Namespace) -> int:
    """Write the selection and record its batch; an empty selection writes no file."""
    to_stdout = args.output is None
    fmt = _format_of(args)
    batch = args.batch or ("stdout" if to_stdout else args.output)
    with PuzzleBank(args.bank) as bank:
        entries = _entries(bank, args)
        if entries is None:
            return EXIT_OK if args.count == 0 else EXIT_NOT_ALL
        if fmt == "text":
            target: Any = sys.stdout if to_stdout else args.output
            n = bank.export(entries, target, batch=batch, solutions=args.solutions)
        else:
            with contextlib.ExitStack() as stack:
                out = stack.enter_context(
                    open_output(sys.stdout if to_stdout else args.output, newline="")
                )
                ids = _write_entries(entries, fmt, out, solutions=args.solutions)
            bank.mark_exported(ids, batch)
            n = len(ids)
    print(
        f"exported {counted(n, 'puzzle')} to {'stdout' if to_stdout else args.output}",
        file=sys.stderr,
    )
    return EXIT_OK


def _run_stats(args: argparse.Namespace) -> int:
    with PuzzleBank(args.bank, readonly=True) as bank:
        st = bank.stats()
    print(f"puzzles: {st['puzzles']} (minimal {st['minimal']}, exported {st['exported']})")
    print("clues: " + ", ".join(f"{c}: {n}" for c, n in st["clues"].items()))
    for metric, levels in st["levels"].items():
        print(f"{metric}: " + ", ".join(f"{lv}: {n}" for lv, n in levels.items()))
    return EXIT_OK
