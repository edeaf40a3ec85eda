"""``csp-sudoku rate``: difficulty ratings of every puzzle of a file, streamed.

One output row per puzzle and metric (text, JSON Lines or CSV). Puzzle ``i``
(0-based, counting good puzzles) is rated with seed ``derive_seed(S, i)`` of
:mod:`csp_sudoku.metrics`, so ``--seed S`` makes the whole run reproducible,
whatever ``--jobs``. A bad line is reported on stderr as ``file:line:column:
reason``; the other puzzles are still rated, and the exit code is 2 unless
``--skip-invalid``.

Puzzles go to worker processes (``--jobs``) or a Dask cluster (``--scheduler``)
in chunks through :func:`csp_sudoku.tools.batch.ordered_map`; rows come out in input
order either way, each chunk's as soon as it and those before it are rated. A
chunk is about a second of work (one puzzle until the first are timed, at most
16), and ends where a slow pipe has no more lines yet: an interrupted run loses
little, and a slow writer's puzzles are rated as they come. ``--output FILE
--resume`` continues an interrupted run from the complete puzzles already in
FILE (see :mod:`csp_sudoku.cli._resume`).

The fields of a JSON Lines or CSV input record (a generator's ``seed``,
``method``, ``derived_from``, ``minimal``, ``symmetry``, ``ratings`` ...) are
kept in the rows: a field whose name a rating row uses itself (``seed``,
``version``, ...) is kept as ``input_NAME`` (unless the record has an
``input_NAME`` already: the earliest one is kept), so that a generator's seed
survives ``generate | rate | bank add``. In CSV, a rating's ``details`` are
columns ``METRIC.KEY`` (e.g. ``se.ep``), a nested value as JSON in its cell; the
columns are those of the first puzzle's ratings, in the metrics' order.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from collections import deque
from collections.abc import Iterator
from typing import Any, cast

from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_NOT_ALL, EXIT_OK
from csp_sudoku.cli import _common as common
from csp_sudoku.cli._resume import ResumeError, ResumePoint, State, mark_done, read_resume_point
from csp_sudoku.cli.variant_rate import hook as variant_hook
from csp_sudoku.core.errors import NotUniqueError, SudokuError
from csp_sudoku.core.io import Entry, input_waits, shape_fields
from csp_sudoku.core.names import MetricName
from csp_sudoku.core.parallel import Pace
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.tools.batch import ordered_map

FIELDS = ("file", "line", "puzzle", "metric", "score", "level", "level_rank", "runs", "seed")
#: The CSV columns after FIELDS (before the details' and the input's columns).
CSV_FIELDS = (*FIELDS, "version", "parameters")
#: Input fields never kept: where the input was (the row's own file and line say it)
#: and the puzzle (the row's own).
_NOT_KEPT = frozenset({"file", "line", "puzzle"})


def register(sub: Any) -> None:
    p = sub.add_parser(
        "rate",
        help="rate the difficulty of each puzzle (hsolve, oracle, refutation, ...)",
        description=(
            "Rate every puzzle of the given files with one or more difficulty metrics. "
            "Metrics: hsolve, rounds, mdrt, oracle, refutation, dependency, se, combined "
            "(--metric is repeatable and takes comma lists). "
            "Exit code: 0 all rated, 1 some puzzle without exactly one solution (said on "
            "stderr, not rated), 2 bad input (a bad line) unless --skip-invalid."
        ),
    )
    common.add_input_args(p)
    p.add_argument(
        "--metric",
        "-m",
        action="append",
        default=None,
        help="metric name(s): repeatable and/or comma-separated, or 'all' for every metric "
        "(default hsolve)",
    )
    p.add_argument(
        "--runs",
        type=common.int_in(1, 10**6),
        default=None,
        help="runs per puzzle (default: the metric's)",
    )
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a metric parameter, e.g. --param alpha=-0.1 (repeatable)",
    )
    p.add_argument("--chunk-size", type=common.int_in(1, 10**6), default=16, help=argparse.SUPPRESS)
    common.add_batch_args(
        p,
        resume_help="continue an interrupted run: keep the puzzles already rated in --output, "
        "rate the rest (give the same --seed)",
        seed_help="seed of the whole run (default: fresh)",
    )
    common.add_geometry_args(p)
    p.set_defaults(func=variant_hook(run))  # f-puzzles inputs: cli/variant_rate.py


def kept_fields(fields: dict[str, Any], own: set[str]) -> dict[str, Any]:
    """The input record's fields a row keeps: a name the row uses itself becomes
    ``input_NAME`` (dropped when the record has ``input_NAME`` already, which is
    older provenance); ``file``, ``line`` and ``puzzle`` are the row's own."""
    kept: dict[str, Any] = {}
    for key, value in fields.items():
        if key in _NOT_KEPT:
            continue
        if key in own:
            if f"input_{key}" in fields:
                continue
            key = f"input_{key}"
        kept[key] = value
    return kept


def flat_details(rating: dict[str, Any]) -> dict[str, Any]:
    """A rating row for CSV: ``details`` become ``METRIC.KEY`` columns (a nested value
    stays one value, written as JSON in its cell by the row writer)."""
    row = {k: v for k, v in rating.items() if k != "details"}
    details = rating.get("details")
    if isinstance(details, dict):
        for key, value in details.items():
            row[f"{rating['metric']}.{key}"] = value
    return row


def _csv_header(path: str) -> list[str] | None:
    """The header of a CSV file an earlier run wrote (a resumed run keeps its columns)."""
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            return next(csv.reader(fh), None)
    except OSError:
        return None


def _value(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def _bad_params(metrics: list[str], params: dict[str, Any]) -> str | None:
    """Why the ``--param`` values cannot rate with ``metrics`` (None: they can).

    The values are the same for every puzzle, so a bad one is an option error,
    said once before any work (not a bad line per puzzle, which
    ``--skip-invalid`` would hide): each metric rates a full 9x9 grid with
    them (:func:`_grid_ratings`).
    """
    own = {"runs": "--runs", "seed": "--seed", "solution": None, "metric": "--metric"}
    for name, option in own.items():
        if name in params:
            instead = f"; use {option}" if option else ""
            return f"{name} is not a metric parameter{instead}"
    try:
        _grid_ratings(metrics, None, params)
    except SudokuError as err:
        return str(err)
    return None


def _grid_ratings(
    metrics: list[str], runs: int | None, params: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    """Each metric's rating row (:meth:`Rating.to_dict`) of a full 9x9 grid under these
    options: it reads and checks the parameters, and records them and the runs as
    a puzzle's row does (the defaults included), rating nothing (a few ms).

    Raises:
        SudokuError: an option the metric refuses.
    """
    from csp_sudoku.generators.grids import random_grid
    from csp_sudoku.metrics import rate

    grid = random_grid(seed=0, transform=False)
    return {
        m: rate(grid, cast(MetricName, m), runs=runs, seed=0, **params).to_dict() for m in metrics
    }


def _settings_fault(
    rows: list[dict[str, Any]], metrics: list[str], runs: int | None, params: dict[str, Any]
) -> str | None:
    """Why rows of an earlier run (those of its last puzzle) are not what this run
    writes: they record other ``runs`` or ``parameters`` (another ``--runs`` or
    ``--param``, whose ratings differ); None when they agree. A text row records
    neither; a CSV cell holds a nested value as JSON."""
    wanted = _grid_ratings(metrics, runs, params)
    for row in rows:
        own = wanted.get(str(row.get("metric")))
        if own is None:
            continue
        for name, option in (("runs", "--runs"), ("parameters", "--param")):
            if name in row and _recorded(row[name]) != _recorded(own[name]):
                return (
                    f"the earlier run rated {row['metric']} with {name} {_recorded(row[name])}, "
                    f"this one with {name} {_recorded(own[name])}: give the interrupted run's "
                    f"{option} (or another --output)"
                )
    return None


def _recorded(value: Any) -> str:
    """A value of a row as JSON with sorted keys (a CSV cell's text read as JSON first),
    so that a JSON row and a CSV row of the same rating compare equal."""
    if isinstance(value, str):
        if value == "":
            return "null"
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):
            return json.dumps(value)
    return json.dumps(value, sort_keys=True)


class _NotUnique(str):
    """Why a puzzle with no solution or several was not rated (a result, not a bad line)."""

    __slots__ = ()


#: A puzzle's rows, or why it could not be rated (a ``_NotUnique`` or another reason).
_Result = list[dict[str, Any]] | str


def _rate_chunk(
    puzzles: list[Puzzle],
    seeds: list[int],
    metrics: list[str],
    runs: int | None,
    params: dict[str, Any],
    first: bool = False,
) -> tuple[list[_Result], float]:
    """Worker task: the rows of every puzzle of a chunk, or why it cannot be rated, and
    the seconds they took (what sizes the next chunks:
    :class:`~csp_sudoku.core.parallel.Pace`).

    ``first``: the run's first chunk, rated in this process: its first puzzle may
    share compiling the kernels with a helper process
    (:mod:`csp_sudoku.metrics._helper`; same rows).
    """
    from csp_sudoku.metrics import rate

    began = time.perf_counter()
    out: list[_Result] = []
    for i, (puzzle, seed) in enumerate(zip(puzzles, seeds, strict=True)):
        try:
            if first and i == 0:
                from csp_sudoku.metrics._helper import rate_all

                out.append(rate_all(puzzle, metrics, runs=runs, seed=seed, params=params))
                continue
            out.append(
                [
                    rate(puzzle, cast(MetricName, m), runs=runs, seed=seed, **params).to_dict()
                    for m in metrics
                ]
            )
        except NotUniqueError as err:
            out.append(_NotUnique(err))
        except SudokuError as err:
            out.append(str(err))
    return out, time.perf_counter() - began


def run(args: argparse.Namespace) -> int:
    from csp_sudoku.metrics import METRICS

    metrics = common.metric_names(args.metric or ["hsolve"], list(METRICS))
    refused = common.metric_refusal(metrics, list(METRICS))
    if refused is not None:
        print(f"csp-sudoku rate: {refused}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.runs is not None and args.runs < 1:
        print("csp-sudoku rate: --runs must be at least 1", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.resume and not args.output:
        print("csp-sudoku rate: --resume needs --output FILE", file=sys.stderr)
        return EXIT_BAD_INPUT
    params: dict[str, Any] = {}
    for kv in args.param:
        key, sep, val = kv.partition("=")
        if not sep or not key:
            print(f"csp-sudoku rate: --param needs KEY=VALUE, got {kv!r}", file=sys.stderr)
            return EXIT_BAD_INPUT
        params[key.strip()] = _value(val.strip())
    why = _bad_params(metrics, params) if params else None  # none: nothing to rate first
    if why is not None:
        print(f"csp-sudoku rate: --param: {why}", file=sys.stderr)
        return EXIT_BAD_INPUT
    point = ResumePoint()
    if args.resume:
        point = read_resume_point(
            args.output, args.format, key="metric", group=metrics, what="rate"
        )
        fault = _settings_fault(point.last_group, metrics, args.runs, params)
        if fault is not None:
            print(f"csp-sudoku rate: {args.output}: {fault}", file=sys.stderr)
            return EXIT_BAD_INPUT
    appending = point.rows > 0 or point.has_header
    with common.batch_session(args.output, appending=appending, scheduler=args.scheduler) as (
        out,
        client,
    ):
        writer = common.RowWriter(args.format, FIELDS, out, header=not point.has_header)
        if args.format == "csv" and point.has_header:
            writer.names = _csv_header(args.output)
        return _rate(args, metrics, params, writer, point, client)


def _rate(
    args: argparse.Namespace,
    metrics: list[str],
    params: dict[str, Any],
    writer: common.RowWriter,
    point: ResumePoint,
    client: Any,
) -> int:
    from csp_sudoku.core.seeds import fresh_seed as _fresh_seed
    from csp_sudoku.core.seeds import item_seed as derive_seed

    base = args.seed if args.seed is not None else _fresh_seed()
    if args.seed is None and point.groups:
        print(
            "csp-sudoku rate: resuming without --seed: the rest is rated with a fresh seed",
            file=sys.stderr,
        )
    elif args.seed is None and args.output and not args.quiet:
        print(f"csp-sudoku rate: seed {base} (--resume needs --seed {base})", file=sys.stderr)
    geometry = common.geometry_from_args(args)
    show_bar = not args.quiet and sys.stderr.isatty()
    total_lines = common.count_lines(args.inputs) if show_bar else None
    bar = common.progress(None if total_lines is None else total_lines - point.groups, show_bar)
    bad = 0
    not_unique = 0
    rated = point.groups
    serial = args.jobs == 1 and client is None
    # chunks of about a second of work, --chunk-size puzzles at most: a chunk's rows come
    # back together, so an interrupted run lost its unfinished chunks' (16 puzzles of a
    # slow metric were minutes of work), and a chunk's first rows waited for the rest
    cap = 1 if serial else max(1, args.chunk_size)
    pace = Pace()
    held: deque[list[tuple[Entry, State]]] = deque()

    def check_seed(index: int) -> None:
        """The last done puzzle's rows must carry the seed this run gives it."""
        if args.seed is None:
            return
        want = derive_seed(base, index)
        for row in point.last_group:
            seed = row.get("seed")
            if seed not in (None, "") and int(seed) != want:
                raise ResumeError(
                    f"{args.output} was rated with another seed: resume with the --seed "
                    f"of the interrupted run"
                )

    def tasks() -> Iterator[tuple[Any, ...]]:
        entries = common.iter_entries(args.inputs, geometry)
        marked: Iterator[tuple[Entry, State]] = (
            mark_done(entries, point) if point.groups else ((e, "new") for e in entries)
        )
        k = 0  # index of the next good puzzle: its seed is derive_seed(base, k)
        done = 0
        first = True  # no puzzle yielded yet
        chunk: list[tuple[Entry, State]] = []
        puzzles: list[Puzzle] = []
        seeds: list[int] = []
        size = pace.size(cap)
        for e, state in marked:
            if state == "done":
                done += 1
                if done == point.groups:
                    check_seed(k)
                k += 1
                continue
            chunk.append((e, state))
            if e.puzzle is not None:
                puzzles.append(e.puzzle)
                seeds.append(derive_seed(base, k))
                k += 1
            if len(puzzles) >= size or len(chunk) >= 4 * size or (not serial and input_waits()):
                held.append(chunk)
                yield puzzles, seeds, metrics, args.runs, params, serial and first
                first = first and not puzzles
                chunk, puzzles, seeds = [], [], []
                size = pace.size(cap)
        if chunk:
            held.append(chunk)
            yield puzzles, seeds, metrics, args.runs, params, serial and first

    def emit(entry: Entry, state: State, result: _Result | None) -> None:
        nonlocal bad, not_unique, rated
        bar.update(1)
        if result is None:
            bad += 1
            err = entry.error
            where = err.located(source=entry.source, line=entry.line) if err else None
            print(f"csp-sudoku: {where.describe() if where else entry.text}", file=sys.stderr)
            return
        if isinstance(result, str):
            if isinstance(result, _NotUnique):
                not_unique += 1
            else:
                bad += 1
            print(f"csp-sudoku: {entry.source}:{entry.line}: {result}", file=sys.stderr)
            return
        if state == "again":
            raise ResumeError(
                f"{entry.source}:{entry.line} has no rows in {args.output} but can be rated: "
                f"not this input's output"
            )
        assert entry.puzzle is not None  # only puzzles are rated
        rated += 1
        text = entry.puzzle.to_line()
        rows = [{"file": entry.source, "line": entry.line, "puzzle": text, **r} for r in result]
        own = set(FIELDS).union(*rows)
        kept = (
            {**shape_fields(entry.puzzle.geometry), **kept_fields(entry.fields, own)}
            if writer.fmt != "text" and entry.puzzle is not None
            else {}
        )
        if writer.fmt == "csv":
            rows = [flat_details(row) for row in rows]
            if writer.names is None:  # the first row fixes the columns
                names = list(CSV_FIELDS)
                for row in rows:
                    names += [k for k in row if k not in names]
                writer.names = names + [k for k in kept if k not in names]
        for row in rows:
            score = row["score"]
            shown = f"{score:.4g}" if isinstance(score, float) else str(score)
            writer.write(
                {**row, **{k: v for k, v in kept.items() if k not in row}},
                f"{entry.source}:{entry.line}\t{row['metric']}\t{shown}\t{row['level']}\t{text}",
            )

    jobs = 0 if client is not None and args.jobs == 1 else args.jobs
    try:
        for results, seconds in ordered_map(
            _rate_chunk, tasks(), jobs=jobs, executor=client, input_waits=input_waits
        ):
            pace.add(seconds, len(results))
            it = iter(results)
            for entry, state in held.popleft():
                emit(entry, state, None if entry.puzzle is None else next(it))
            if not serial:
                writer.flush()  # a chunk's rows are seen at once, not with the next chunk's
    finally:
        bar.close()
    sys.stdout.flush()
    if rated == 0 and bad == 0 and not_unique == 0:
        print("csp-sudoku: error: no puzzles found in the input", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not args.quiet:
        earlier = f" ({point.groups} in the earlier run)" if point.groups else ""
        print(
            f"{common.counted(rated, 'puzzle')} rated{earlier}, {not_unique} not unique, {bad} bad",
            file=sys.stderr,
        )
    if bad and not args.skip_invalid:
        return EXIT_BAD_INPUT
    return EXIT_NOT_ALL if not_unique else EXIT_OK
