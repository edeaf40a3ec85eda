"""``csp-sudoku report``: an HTML or PNG report of a puzzle set's distributions.

``--metric`` names are checked before any puzzle is read (``none``, alone: the
counts only); ``-o -`` writes the HTML page to standard output, and so does
``-o /dev/stdout`` (a device or pipe without a suffix is written HTML).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from typing import Any

from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_OK
from csp_sudoku.cli import _common as common
from csp_sudoku.core.puzzle import Puzzle


def register(sub: Any) -> None:
    p = sub.add_parser(
        "report",
        help="an HTML or PNG report: clue counts, solution counts, metric distributions",
        description=(
            "Draw the distributions of a puzzle set: clue counts, solution counts and, with "
            "--metric, each metric's scores and levels and a scatter plot between metrics."
        ),
    )
    common.add_input_args(p)
    p.add_argument(
        "--output",
        "-o",
        type=common.output_file,
        required=True,
        help="report file: .html or .png ('-': the HTML page on standard output)",
    )
    p.add_argument(
        "--metric",
        "-m",
        action="append",
        default=[],
        help="a difficulty metric to rate with (repeatable, and takes comma lists; all: "
        "every metric; none, alone: counts only, as without --metric)",
    )
    common.add_rating_args(
        p,
        seed_help="rating seed (default: a fresh one, shown in the report)",
        runs_help="randomised runs per rating (default: the metric's)",
        jobs_help="worker processes for rating",
    )
    p.add_argument(
        "--count",
        "-n",
        type=common.int_in(1, common.MAX_COUNT),
        help="use at most this many puzzles",
    )
    p.add_argument("--title", help="report heading (default: the input names)")
    p.add_argument("--backend", default="auto", help="solution-count backend")
    p.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="no progress bar (shown on a terminal) and no notes",
    )
    common.add_geometry_args(p)
    p.set_defaults(func=run)


#: ``--metric none``: no rating, the clue and solution counts only.
NO_METRIC = "none"


def _metrics(given: list[str]) -> list[str] | str:
    """The metrics ``--metric`` asks for (``none``: no metric), or why they are refused:
    checked before any puzzle is read or counted (an unknown name was once said only
    when a unique puzzle came to be rated, and a set of none wrote a report of it)."""
    from csp_sudoku.metrics import METRICS

    if not given:  # no --metric: counts only, as with none
        return []
    names = common.metric_names(given, list(METRICS))
    if NO_METRIC in names:
        if len(names) > 1:
            return (
                f"--metric {NO_METRIC} (counts only) takes no other metric, got {','.join(names)}"
            )
        return []
    refused = common.metric_refusal(names, list(METRICS), f"all, or {NO_METRIC} for counts only")
    return names if refused is None else refused


def run(args: argparse.Namespace) -> int:
    from csp_sudoku.cli.render import is_stdout
    from csp_sudoku.core.errors import ReportError
    from csp_sudoku.tools.report import collect, report_format, report_html, write_report

    metrics = _metrics(args.metric)
    if isinstance(metrics, str):
        print(f"csp-sudoku report: error: {metrics}", file=sys.stderr)
        return EXIT_BAD_INPUT
    to_stdout = args.output is None  # -o -
    try:
        report_format("report.html" if to_stdout else args.output)
    except ReportError as err:
        print(f"csp-sudoku report: error: --output {args.output}: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    geometry = common.geometry_from_args(args)
    puzzles: list[Puzzle] = []
    skipped = 0
    first = ""  # where the first puzzle came from: named when another shape comes
    for entry in common.iter_entries(args.inputs, geometry):
        if entry.puzzle is None:
            print(f"csp-sudoku report: skipped {entry.error}", file=sys.stderr)
            skipped += 1
            continue
        where = f"{entry.source}:{entry.line}"
        if puzzles and entry.puzzle.geometry != puzzles[0].geometry:
            print(
                f"csp-sudoku report: error: a report covers puzzles of one shape: {where} "
                f"is {entry.puzzle.geometry.name}, {first} {puzzles[0].geometry.name} "
                "(report each shape on its own)",
                file=sys.stderr,
            )
            return EXIT_BAD_INPUT
        first = first or where
        puzzles.append(entry.puzzle)
        if args.count is not None and len(puzzles) >= args.count:
            break
    if not puzzles:
        print("csp-sudoku report: error: no puzzles in the input", file=sys.stderr)
        return EXIT_BAD_INPUT
    title = args.title or ", ".join(os.path.basename(i) for i in args.inputs) or "stdin"
    bar = common.progress(None, not args.quiet and sys.stderr.isatty(), unit="rating")

    with contextlib.closing(bar):
        data = collect(
            puzzles,
            metrics,
            seed=args.seed,
            runs=args.runs,
            jobs=args.jobs,
            backend=args.backend,
            title=title,
            progress=bar.tick,
        )
    if skipped:
        data.notes.append(f"{common.counted(skipped, 'bad line')} skipped.")
    written = None
    if to_stdout:  # the page is the output: no path to print
        sys.stdout.write(report_html(data))
    else:
        written = write_report(data, args.output)
    if not args.quiet:
        for note in data.notes:
            print(note, file=sys.stderr)
    if written is not None and not is_stdout(args.output):  # a path after the page spoilt it
        print(written)
    return EXIT_OK
