"""``csp-sudoku check``: a verdict for every puzzle of one or more files."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_NOT_ALL, EXIT_OK
from csp_sudoku.cli._common import (
    MAX_COUNT,
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
from csp_sudoku.cli._resume import ResumePoint, read_resume_point, skip_done
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import parse_line
from csp_sudoku.tools.batch import CheckResult, Status, check_entries

FIELDS = ("file", "line", "puzzle", "status", "count", "reason")


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
        type=int_in(1, MAX_COUNT),
        default=2,
        help="count solutions up to this many (default 2)",
    )
    p.add_argument("--backend", default="auto", help="auto, fast, sat[:solver], cpsat, dlx")
    p.add_argument("--chunk-size", type=int_in(1, 10**7), default=1000, help=argparse.SUPPRESS)
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
        help="for every unique puzzle, write a DRAT proof that no second solution exists "
        "(DIR/<file>-<line>.drat, with its formula beside it as .cnf; check with drat-trim)",
    )
    add_geometry_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.limit < 1:
        print("csp-sudoku check: --limit must be at least 1", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.resume and not args.output:
        print("csp-sudoku check: --resume needs --output FILE", file=sys.stderr)
        return EXIT_BAD_INPUT
    geometry = geometry_from_args(args)
    point = read_resume_point(args.output, args.format) if args.resume else ResumePoint()
    appending = point.rows > 0 or point.has_header
    with batch_session(args.output, appending=appending, scheduler=args.scheduler) as (
        out,
        client,
    ):
        writer = RowWriter(args.format, FIELDS, out, header=not point.has_header)
        return _check(args, geometry, writer, point, client)


def _certify(r: CheckResult, geometry: Geometry | None, folder: Path) -> None:
    """Write the uniqueness certificate of one unique puzzle."""
    from csp_sudoku.tools.certify import certify_to

    folder.mkdir(parents=True, exist_ok=True)
    certify_to(parse_line(r.puzzle, geometry), folder / f"{Path(r.source).stem}-{r.line}.drat")


def _check(
    args: argparse.Namespace,
    geometry: Geometry | None,
    writer: RowWriter,
    point: ResumePoint,
    client: Any,
) -> int:
    show_bar = not args.quiet and sys.stderr.isatty()
    total_lines = count_lines(args.inputs) if show_bar else None
    bar = progress(None if total_lines is None else total_lines - point.rows, show_bar)
    tally = {s: point.tally.get(s.value, 0) for s in Status}
    started = time.perf_counter()
    code = EXIT_OK
    try:
        entries = iter_entries(args.inputs, geometry)
        if point.rows:
            entries = skip_done(entries, point)
        results = check_entries(
            entries,
            limit=args.limit,
            backend=args.backend,
            jobs=0 if client is not None and args.jobs == 1 else args.jobs,
            chunk_size=args.chunk_size,
            executor=client,
        )
        for r in results:
            if r.status is Status.INVALID:  # reported, and the run goes on
                print(f"csp-sudoku: {r.reason}", file=sys.stderr)
            tally[r.status] += 1
            if args.certify and r.status is Status.UNIQUE:
                _certify(r, geometry, Path(args.certify))
            shown = f"{r.status.value}" if args.limit == 2 else f"{r.status.value} {r.count}"
            extra = f"  # {r.reason}" if r.reason else ""
            writer.write(r.as_dict(), f"{r.source}:{r.line}\t{shown}\t{r.puzzle}{extra}", r.fields)
            bar.update(1)
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
            f"{total} puzzles{resumed}: {parts} in {secs:.2f} s ({fresh / max(secs, 1e-9):,.0f}/s)",
            file=sys.stderr,
        )
    if tally[Status.INVALID] and not args.skip_invalid:
        code = EXIT_BAD_INPUT
    elif tally[Status.MULTIPLE] or tally[Status.NONE]:
        code = EXIT_NOT_ALL
    return code
