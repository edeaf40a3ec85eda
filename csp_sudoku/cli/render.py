"""``csp-sudoku render``: printable SVG, PDF or PNG of puzzles (one, a sheet or a book).

Each puzzle is captioned from its record: JSON Lines and CSV records (from
``rate``, ``generate``, ``bank export``) give the number, level, metric and
score and the hardest technique; ``--caption`` formats the caption from the
record's fields instead. Plain puzzle lines are captioned with their number.
"""

from __future__ import annotations

import argparse
import contextlib
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
    progress,
)
from csp_sudoku.core.errors import RenderError
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.tools.render import DEFAULT_DPI, DPI_RANGE, PER_PAGE_RANGE  # no matplotlib yet


def register(sub: Any) -> None:
    p = sub.add_parser(
        "render",
        help="draw puzzles as SVG, PDF or PNG (a sheet or a book, with solution pages)",
        description=(
            "Draw the puzzles of the inputs. PDF holds every page in one file; SVG and PNG "
            "write one file per page (book-1.svg, book-2.svg, ...) when there are several. "
            "Each puzzle is captioned from its record (number, level, metric and score, "
            "hardest technique, where the record has them); plain lines get their number."
        ),
    )
    add_input_args(p)
    p.add_argument("--output", "-o", required=True, help="output file: .svg, .pdf or .png")
    p.add_argument("--format", choices=("svg", "pdf", "png"), help="default: from the suffix")
    p.add_argument(
        "--per-page",
        type=int_in(*PER_PAGE_RANGE),
        help=f"puzzles per page ({PER_PAGE_RANGE[0]}..{PER_PAGE_RANGE[1]}, default 6 for 9x9)",
    )
    p.add_argument("--solutions", action="store_true", help="add solution pages")
    p.add_argument("--title", help="the book's title, on a cover page")
    p.add_argument(
        "--caption",
        metavar="FORMAT",
        help=(
            "caption format over the record's fields, e.g. '{n}. {level} ({score:.1f})': "
            "n (number), metric, score, level, hardest, and every field of the record "
            "(clues, seed, ratings[METRIC][score], ...)"
        ),
    )
    p.add_argument(
        "--dpi",
        type=int_in(*DPI_RANGE),
        default=DEFAULT_DPI,
        help=f"PNG resolution ({DPI_RANGE[0]}..{DPI_RANGE[1]}, default {DEFAULT_DPI})",
    )
    p.add_argument(
        "--count", "-n", type=int_in(0, MAX_COUNT), help="render at most this many puzzles"
    )
    p.add_argument(
        "--quiet", "-q", action="store_true", help="no progress bar (shown on a terminal)"
    )
    add_geometry_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from csp_sudoku.tools.render import (
        caption_fields,
        check_caption_format,
        default_caption,
        format_caption,
        render_book,
    )

    try:
        if args.caption is not None:
            check_caption_format(args.caption)
    except RenderError as err:
        print(f"csp-sudoku render: error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    geometry = geometry_from_args(args)
    puzzles: list[Puzzle] = []
    captions: list[str] = []
    for entry in iter_entries(args.inputs, geometry):
        if entry.puzzle is None:
            print(f"csp-sudoku render: error: {entry.error}", file=sys.stderr)
            return EXIT_BAD_INPUT
        puzzles.append(entry.puzzle)
        values = caption_fields(entry.fields, len(puzzles))
        values.setdefault("clues", entry.puzzle.clue_count)
        values.setdefault("puzzle", entry.puzzle.to_line())
        try:
            captions.append(
                default_caption(values)
                if args.caption is None
                else format_caption(args.caption, values)
            )
        except RenderError as err:
            print(f"csp-sudoku render: error: {err}", file=sys.stderr)
            return EXIT_BAD_INPUT
        if args.count is not None and len(puzzles) >= args.count:
            break
    if not puzzles:
        print("csp-sudoku render: error: no puzzles in the input", file=sys.stderr)
        return EXIT_BAD_INPUT
    bar = progress(None, not args.quiet and sys.stderr.isatty(), unit="page")

    with contextlib.closing(bar):
        written = render_book(
            puzzles,
            args.output,
            per_page=args.per_page,
            solutions=args.solutions,
            titles=captions,
            title=args.title,
            fmt=args.format,
            dpi=args.dpi,
            progress=bar.tick,
        )
    for path in written:
        print(path)
    return EXIT_OK
