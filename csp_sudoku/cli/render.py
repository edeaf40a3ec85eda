"""``csp-sudoku render``: printable SVG, PDF or PNG of puzzles (one, a sheet or a book)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_OK
from csp_sudoku.cli._common import (
    MAX_COUNT,
    add_geometry_args,
    add_input_args,
    geometry_from_args,
    int_in,
    iter_entries,
)
from csp_sudoku.core.puzzle import Puzzle


def register(sub: Any) -> None:
    p = sub.add_parser(
        "render",
        help="draw puzzles as SVG, PDF or PNG (a sheet or a book, with solution pages)",
        description=(
            "Draw the puzzles of the inputs. PDF holds every page in one file; SVG and PNG "
            "write one file per page (book-1.svg, book-2.svg, ...) when there are several."
        ),
    )
    add_input_args(p)
    p.add_argument("--output", "-o", required=True, help="output file: .svg, .pdf or .png")
    p.add_argument("--format", choices=("svg", "pdf", "png"), help="default: from the suffix")
    p.add_argument("--per-page", type=int_in(1, 100), help="puzzles per page (default 6 for 9x9)")
    p.add_argument("--solutions", action="store_true", help="add solution pages")
    p.add_argument("--title", help="heading on every page")
    p.add_argument(
        "--count", "-n", type=int_in(0, MAX_COUNT), help="render at most this many puzzles"
    )
    add_geometry_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from csp_sudoku.tools.render import render_book

    geometry = geometry_from_args(args)
    puzzles: list[Puzzle] = []
    for entry in iter_entries(args.inputs, geometry):
        if entry.puzzle is None:
            print(f"csp-sudoku render: error: {entry.error}", file=sys.stderr)
            return EXIT_BAD_INPUT
        puzzles.append(entry.puzzle)
        if args.count is not None and len(puzzles) >= args.count:
            break
    if not puzzles:
        print("csp-sudoku render: error: no puzzles in the input", file=sys.stderr)
        return EXIT_BAD_INPUT
    written = render_book(
        puzzles,
        args.output,
        per_page=args.per_page,
        solutions=args.solutions,
        title=args.title,
        fmt=args.format,
    )
    for path in written:
        print(path)
    return EXIT_OK
