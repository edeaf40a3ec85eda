"""``csp-sudoku rate``: difficulty ratings of every puzzle of a file, streamed.

One output row per puzzle and metric (text, JSON Lines or CSV). Puzzle ``i``
(0-based, counting good puzzles) is rated with seed ``derive_seed(S, i)`` of
:mod:`csp_sudoku.metrics`, so ``--seed S`` makes the whole run reproducible,
whatever ``--jobs``. A bad line is reported on stderr as ``file:line:column:
reason``; the other puzzles are still rated, and the exit code is 2 unless
``--skip-invalid``.

Puzzles go to worker processes (``--jobs``) or a Dask cluster (``--scheduler``)
in chunks through :func:`csp_sudoku.tools.batch.ordered_map`; rows come out in input
order either way. ``--output FILE --resume`` continues an interrupted run from
the complete puzzles already in FILE (see :mod:`csp_sudoku.cli._resume`).
"""

from __future__ import annotations

import argparse
import sys
from collections import deque
from collections.abc import Iterator
from typing import Any, cast

from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_OK
from csp_sudoku.cli._common import (
    RowWriter,
    add_batch_args,
    add_geometry_args,
    add_input_args,
    batch_session,
    count_lines,
    geometry_from_args,
    int_in,
    iter_entries,
    progress,
)
from csp_sudoku.cli._resume import ResumeError, ResumePoint, State, mark_done, read_resume_point
from csp_sudoku.core.errors import SudokuError
from csp_sudoku.core.io import Entry
from csp_sudoku.core.names import MetricName
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.tools.batch import ordered_map

FIELDS = ("file", "line", "puzzle", "metric", "score", "level", "level_rank", "runs", "seed")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "rate",
        help="rate the difficulty of each puzzle (hsolve, oracle, refutation, ...)",
        description=(
            "Rate every puzzle of the given files with one or more difficulty metrics. "
            "Metrics: hsolve, rounds, mdrt, oracle, refutation, dependency, combined. "
            "Exit code: 0 all rated, 2 bad input (a bad line, or a puzzle without exactly "
            "one solution) unless --skip-invalid."
        ),
    )
    add_input_args(p)
    p.add_argument(
        "--metric",
        "-m",
        default="hsolve",
        help="metric name(s), comma-separated, or 'all' for every metric (default hsolve)",
    )
    p.add_argument(
        "--runs",
        type=int_in(1, 10**6),
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
    p.add_argument("--chunk-size", type=int_in(1, 10**6), default=16, help=argparse.SUPPRESS)
    add_batch_args(
        p,
        resume_help="continue an interrupted run: keep the puzzles already rated in --output, "
        "rate the rest (give the same --seed)",
        seed_help="seed of the whole run (default: fresh)",
    )
    add_geometry_args(p)
    p.set_defaults(func=run)


def _value(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


_Result = list[dict[str, Any]] | str


def _rate_chunk(
    puzzles: list[Puzzle],
    seeds: list[int],
    metrics: list[str],
    runs: int | None,
    params: dict[str, Any],
    first: bool = False,
) -> list[_Result]:
    """Worker task: the rows of every puzzle of a chunk, or why it cannot be rated.

    ``first``: the run's first chunk, rated in this process: its first puzzle may
    share compiling the kernels with a helper process
    (:mod:`csp_sudoku.metrics._helper`; same rows).
    """
    from csp_sudoku.metrics import rate

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
        except SudokuError as err:
            out.append(str(err))
    return out


def run(args: argparse.Namespace) -> int:
    from csp_sudoku.metrics import METRICS

    metrics = [m.strip() for m in args.metric.split(",") if m.strip()]
    if metrics == ["all"]:
        metrics = list(METRICS)
    unknown = [m for m in metrics if m not in METRICS]
    if not metrics or unknown:
        print(
            f"csp-sudoku rate: unknown metric {', '.join(unknown) or '(none)'}; "
            f"known: {', '.join(METRICS)} (or all)",
            file=sys.stderr,
        )
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
    point = ResumePoint()
    if args.resume:
        point = read_resume_point(
            args.output, args.format, key="metric", group=metrics, what="rate"
        )
    appending = point.rows > 0 or point.has_header
    with batch_session(args.output, appending=appending, scheduler=args.scheduler) as (
        out,
        client,
    ):
        writer = RowWriter(args.format, FIELDS, out, header=not point.has_header)
        return _rate(args, metrics, params, writer, point, client)


def _rate(
    args: argparse.Namespace,
    metrics: list[str],
    params: dict[str, Any],
    writer: RowWriter,
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
    geometry = geometry_from_args(args)
    show_bar = not args.quiet and sys.stderr.isatty()
    total_lines = count_lines(args.inputs) if show_bar else None
    bar = progress(None if total_lines is None else total_lines - point.groups, show_bar)
    bad = 0
    rated = point.groups
    serial = args.jobs == 1 and client is None
    size = 1 if serial else max(1, args.chunk_size)
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
        entries = iter_entries(args.inputs, geometry)
        marked: Iterator[tuple[Entry, State]] = (
            mark_done(entries, point) if point.groups else ((e, "new") for e in entries)
        )
        k = 0  # index of the next good puzzle: its seed is derive_seed(base, k)
        done = 0
        first = True  # no puzzle yielded yet
        chunk: list[tuple[Entry, State]] = []
        puzzles: list[Puzzle] = []
        seeds: list[int] = []
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
            if len(puzzles) >= size or len(chunk) >= 4 * size:
                held.append(chunk)
                yield puzzles, seeds, metrics, args.runs, params, serial and first
                first = first and not puzzles
                chunk, puzzles, seeds = [], [], []
        if chunk:
            held.append(chunk)
            yield puzzles, seeds, metrics, args.runs, params, serial and first

    def emit(entry: Entry, state: State, result: _Result | None) -> None:
        nonlocal bad, rated
        bar.update(1)
        if result is None:
            bad += 1
            err = entry.error
            where = err.located(source=entry.source, line=entry.line) if err else None
            print(f"csp-sudoku: {where.describe() if where else entry.text}", file=sys.stderr)
            return
        if isinstance(result, str):
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
        for r in result:
            row = {"file": entry.source, "line": entry.line, "puzzle": text, **r}
            shown = f"{r['score']:.4g}" if isinstance(r["score"], float) else str(r["score"])
            writer.write(
                row,
                f"{entry.source}:{entry.line}\t{r['metric']}\t{shown}\t{r['level']}\t{text}",
                entry.fields,
            )

    jobs = 0 if client is not None and args.jobs == 1 else args.jobs
    try:
        for results in ordered_map(_rate_chunk, tasks(), jobs=jobs, executor=client):
            it = iter(results)
            for entry, state in held.popleft():
                emit(entry, state, None if entry.puzzle is None else next(it))
    finally:
        bar.close()
    sys.stdout.flush()
    if rated == 0 and bad == 0:
        print("csp-sudoku: error: no puzzles found in the input", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not args.quiet:
        earlier = f" ({point.groups} in the earlier run)" if point.groups else ""
        print(f"{rated} puzzle{'s' * (rated != 1)} rated{earlier}, {bad} bad", file=sys.stderr)
    if bad and not args.skip_invalid:
        return EXIT_BAD_INPUT
    return EXIT_OK
