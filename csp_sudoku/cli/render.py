"""``csp-sudoku render``: printable SVG, PDF or PNG of puzzles (one, a sheet or a book).

Each puzzle is captioned from its record: JSON Lines and CSV records (from
``rate``, ``generate``, ``bank export``) give the number, level, metric and
score and the hardest technique; ``--caption`` formats the caption from the
record's fields instead. Plain puzzle lines are captioned with their number.

Variant puzzles (f-puzzles ``.json`` files, ``.jsonl`` files of f-puzzles
objects, ``?load=`` links; told apart by
:func:`csp_sudoku.cli.variants.is_variant_input`) are drawn with their
constraints and captioned with their number and title. A puzzle that cannot
be read (or, with ``--solutions``, has no single solution) is reported on
stderr as ``FILE:LINE: reason`` and left out; the others are still drawn,
and the exit code is 2.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
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
from csp_sudoku.cli.variants import _looks_like_file, is_variant_input, read_inputs
from csp_sudoku.constraints import VariantPuzzle
from csp_sudoku.core.errors import RenderError, SudokuError
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
    if any(is_variant_input(i) for i in args.inputs):
        return run_variants(args)
    from csp_sudoku.tools.render import caption_fields

    bad_format = _check_caption(args)
    if bad_format is not None:
        return _fail(bad_format)
    geometry = geometry_from_args(args)
    puzzles: list[Puzzle] = []
    captions: list[str] = []
    for entry in iter_entries(args.inputs, geometry):
        if entry.puzzle is None:
            return _fail(str(entry.error))
        puzzles.append(entry.puzzle)
        values = caption_fields(entry.fields, len(puzzles))
        values.setdefault("clues", entry.puzzle.clue_count)
        values.setdefault("puzzle", entry.puzzle.to_line())
        try:
            captions.append(_caption(args, values))
        except RenderError as err:
            return _fail(str(err))
        if args.count is not None and len(puzzles) >= args.count:
            break
    if not puzzles:
        return _fail("no puzzles in the input")
    _draw(args, puzzles, captions, args.solutions)
    return EXIT_OK


def _fail(message: str) -> int:
    print(f"csp-sudoku render: error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _check_caption(args: argparse.Namespace) -> str | None:
    """Why ``--caption`` is not a caption format, or ``None`` when it is one (or not given)."""
    from csp_sudoku.tools.render import check_caption_format

    try:
        if args.caption is not None:
            check_caption_format(args.caption)
    except RenderError as err:
        return str(err)
    return None


def _caption(args: argparse.Namespace, values: dict[str, Any]) -> str:
    """A puzzle's caption from its record's ``values``: ``--caption``'s format, else the default.

    Raises:
        RenderError: the format names a field the record lacks, or does not fit its value.
    """
    from csp_sudoku.tools.render import default_caption, format_caption

    if args.caption is None:
        return default_caption(values)
    return format_caption(args.caption, values)


def _draw(
    args: argparse.Namespace,
    puzzles: Sequence[Puzzle | VariantPuzzle],
    captions: Sequence[str],
    solutions: bool | Sequence[Puzzle],
) -> None:
    """Render the book of ``puzzles`` to ``--output`` and print the paths of its files."""
    from csp_sudoku.tools.render import render_book

    bar = progress(None, not args.quiet and sys.stderr.isatty(), unit="page")
    with contextlib.closing(bar):
        written = render_book(
            puzzles,
            args.output,
            per_page=args.per_page,
            solutions=solutions,
            titles=captions,
            title=args.title,
            fmt=args.format,
            dpi=args.dpi,
            progress=bar.tick,
        )
    for path in written:
        print(path)


def run_variants(args: argparse.Namespace) -> int:
    """Draw the variant puzzles of ``args.inputs``; exit 2 when one could not be drawn."""
    from csp_sudoku.tools.render import variant_caption_fields

    plain = [i for i in args.inputs if not is_variant_input(i)]
    if plain:
        return _fail(f"{plain[0]} is not an f-puzzles input: one run cannot mix variant and plain")
    if args.size or args.jigsaw or args.variant != "standard":
        return _fail("--size, --variant and --jigsaw do not apply to f-puzzles inputs")
    missing = [i for i in args.inputs if _looks_like_file(i) and not os.path.exists(i)]
    if missing:
        return _fail(f"{missing[0]}: no such file")
    bad_format = _check_caption(args)
    if bad_format is not None:
        return _fail(bad_format)
    from csp_sudoku import variants

    code = EXIT_OK
    puzzles: list[VariantPuzzle] = []
    captions: list[str] = []
    answers: list[Puzzle] = []
    for item in read_inputs(args.inputs):
        if args.count is not None and len(puzzles) >= args.count:
            break
        puzzle = item.puzzle
        if puzzle is None:
            print(f"csp-sudoku render: {item.error}", file=sys.stderr)
            code = EXIT_BAD_INPUT
            continue
        if args.solutions:
            try:
                found = variants.solutions(puzzle, 2)
            except SudokuError as err:
                found = []
                print(f"csp-sudoku render: {item.source}:{item.line}: {err}", file=sys.stderr)
            if len(found) != 1:
                how = "no solution" if not found else "more than one solution"
                print(
                    f"csp-sudoku render: {item.source}:{item.line}: the puzzle has {how}: "
                    "no solution page can show it",
                    file=sys.stderr,
                )
                code = EXIT_BAD_INPUT
                continue
            answers.append(found[0])
        values = variant_caption_fields(puzzle, len(puzzles) + 1)
        values.update(file=item.source, line=item.line)
        try:
            caption = _caption(args, values)
        except RenderError as err:  # the format does not fit the records: nothing is drawn
            return _fail(str(err))
        puzzles.append(puzzle)
        captions.append(caption)
    if not puzzles:
        return _fail("no puzzles to draw")
    _draw(args, puzzles, captions, answers if args.solutions else False)
    return code
