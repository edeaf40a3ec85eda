"""``csp-sudoku rate``: difficulty ratings of every puzzle of a file, streamed.

One output row per puzzle and metric (text, JSON Lines or CSV). Puzzle ``i``
(0-based, counting good puzzles) is rated with seed ``derive_seed(S, i)`` of
:mod:`csp_sudoku.metrics`, so ``--seed S`` makes the whole run reproducible,
whatever ``--jobs``. A bad line is reported on stderr as ``file:line:column:
reason``; the other puzzles are still rated, and the exit code is 2 unless
``--skip-invalid``.
"""

from __future__ import annotations

import argparse
import sys
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_OK
from csp_sudoku.cli._common import (
    RowWriter,
    add_geometry_args,
    add_input_args,
    count_lines,
    geometry_from_args,
    iter_entries,
    progress,
)
from csp_sudoku.errors import SudokuError
from csp_sudoku.puzzle import Puzzle

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
        "--metric", "-m", default="hsolve", help="metric name(s), comma-separated (default hsolve)"
    )
    p.add_argument("--format", choices=("text", "jsonl", "csv"), default="text")
    p.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (0 = all cores)")
    p.add_argument("--seed", type=int, default=None, help="seed of the whole run (default: fresh)")
    p.add_argument("--runs", type=int, default=None, help="runs per puzzle (default: the metric's)")
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a metric parameter, e.g. --param alpha=-0.1 (repeatable)",
    )
    p.add_argument(
        "--skip-invalid",
        action="store_true",
        help="report bad lines but exit 0 when the rest is rated",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar and no summary")
    add_geometry_args(p)
    p.set_defaults(func=run)


def _value(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def _rate_item(
    item: tuple[Puzzle, list[str], int | None, int, dict[str, Any]],
) -> list[dict[str, Any]] | str:
    from csp_sudoku.metrics import rate

    puzzle, metrics, runs, seed, params = item
    try:
        return [rate(puzzle, m, runs, seed, **params).to_dict() for m in metrics]
    except SudokuError as err:
        return str(err)


def run(args: argparse.Namespace) -> int:
    from csp_sudoku.metrics import METRICS, _fresh_seed, derive_seed

    metrics = [m.strip() for m in args.metric.split(",") if m.strip()]
    unknown = [m for m in metrics if m not in METRICS]
    if not metrics or unknown:
        print(
            f"csp-sudoku rate: unknown metric {', '.join(unknown) or '(none)'}; "
            f"known: {', '.join(METRICS)}",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    if args.runs is not None and args.runs < 1:
        print("csp-sudoku rate: --runs must be at least 1", file=sys.stderr)
        return EXIT_BAD_INPUT
    params: dict[str, Any] = {}
    for kv in args.param:
        key, sep, val = kv.partition("=")
        if not sep or not key:
            print(f"csp-sudoku rate: --param needs KEY=VALUE, got {kv!r}", file=sys.stderr)
            return EXIT_BAD_INPUT
        params[key.strip()] = _value(val.strip())
    base = args.seed if args.seed is not None else _fresh_seed()
    geometry = geometry_from_args(args)
    writer = RowWriter(args.format, FIELDS)
    show_bar = not args.quiet and sys.stderr.isatty()
    bar = progress(count_lines(args.inputs) if show_bar else None, show_bar)
    bad = 0
    rated = 0

    def items() -> Iterator[
        tuple[Any, tuple[Puzzle, list[str], int | None, int, dict[str, Any]] | None]
    ]:
        k = 0
        for e in iter_entries(args.inputs, geometry):
            if e.puzzle is None:
                yield e, None
            else:
                yield e, (e.puzzle, metrics, args.runs, derive_seed(base, k), params)
                k += 1

    def emit(entry: Any, result: list[dict[str, Any]] | str | None) -> None:
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
        rated += 1
        text = entry.puzzle.to_line()
        for r in result:
            row = {"file": entry.source, "line": entry.line, "puzzle": text, **r}
            shown = f"{r['score']:.4g}" if isinstance(r["score"], float) else str(r["score"])
            writer.write(
                row, f"{entry.source}:{entry.line}\t{r['metric']}\t{shown}\t{r['level']}\t{text}"
            )

    try:
        if args.jobs == 1:
            for entry, item in items():
                emit(entry, None if item is None else _rate_item(item))
        else:
            import os

            jobs = (os.cpu_count() or 1) if args.jobs <= 0 else args.jobs
            pending: deque[tuple[Any, Future[Any] | None]] = deque()
            with ProcessPoolExecutor(max_workers=jobs) as ex:
                for entry, item in items():
                    pending.append((entry, None if item is None else ex.submit(_rate_item, item)))
                    while len(pending) > 4 * jobs or (pending and pending[0][1] is None):
                        e, fut = pending.popleft()
                        emit(e, None if fut is None else fut.result())
                while pending:
                    e, fut = pending.popleft()
                    emit(e, None if fut is None else fut.result())
    finally:
        bar.close()
    sys.stdout.flush()
    if rated == 0 and bad == 0:
        print("csp-sudoku: error: no puzzles found in the input", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not args.quiet:
        print(f"{rated} puzzle{'s' * (rated != 1)} rated, {bad} bad", file=sys.stderr)
    if bad and not args.skip_invalid:
        return EXIT_BAD_INPUT
    return EXIT_OK
