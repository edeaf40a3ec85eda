"""``csp-sudoku render``: printable SVG, PDF or PNG of puzzles (one, a sheet or a book).

Each puzzle is captioned from its record: JSON Lines and CSV records (from
``rate``, ``generate``, ``bank export``) give the number, level, metric and
score and the hardest technique; ``--caption`` formats the caption from the
record's fields instead. Plain puzzle lines are captioned with their number.

Variant puzzles (f-puzzles ``.json`` files, ``.jsonl`` files of f-puzzles
objects, ``?load=`` links, rows with ``fpuzzles``) are drawn with their
constraints and captioned with their number and title; one book may hold
both kinds, each drawn by its own path. A run with a variant input (told
apart by :func:`csp_sudoku.cli.variants.is_variant_input`) reads every entry
by :func:`csp_sudoku.cli.variants.read_inputs`: a puzzle that cannot be read
(or, with ``--solutions``, has no single solution) is reported on stderr as
``FILE:LINE: reason`` and left out, the others are still drawn, and the exit
code is 2. A run of plain inputs stops at a bad line, as before any drawing;
a variant entry met there (standard input whose first entry is plain) is
drawn as such (:func:`csp_sudoku.cli.variants.variant_item`).
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
    output_file,
    progress,
)
from csp_sudoku.cli.variants import (
    grid_options_refusal,
    is_variant_input,
    missing_input,
    read_inputs,
    variant_item,
)
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
    p.add_argument(
        "--output",
        "-o",
        type=output_file,
        required=True,
        help="output file: .svg, .pdf or .png ('-': one SVG page on standard output, "
        "with --format svg)",
    )
    p.add_argument(
        "--format",
        choices=("svg", "pdf", "png"),
        help="default: from the suffix of --output (a format the suffix contradicts is refused)",
    )
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
            "n (number), file and line (where it was read), metric, score, level, hardest, "
            "and every field of the record "
            "(clues, seed, ratings[METRIC][score], ...); a field is a name, with [key] "
            "only into a mapping field (no attribute access)"
        ),
    )
    p.add_argument(
        "--dpi",
        type=int_in(*DPI_RANGE),
        default=DEFAULT_DPI,
        help=f"PNG resolution ({DPI_RANGE[0]}..{DPI_RANGE[1]}, default {DEFAULT_DPI})",
    )
    p.add_argument(
        "--count", "-n", type=int_in(1, MAX_COUNT), help="render at most this many puzzles"
    )
    p.add_argument(
        "--quiet", "-q", action="store_true", help="no progress bar (shown on a terminal)"
    )
    add_geometry_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    refused = _stdout_refusal(args) or _format_refusal(args)
    if refused is not None:
        return _fail(refused)
    if any(is_variant_input(i) for i in args.inputs):
        return run_variants(args)
    bad_format = _check_caption(args)
    if bad_format is not None:
        return _fail(bad_format)
    geometry = geometry_from_args(args)
    puzzles: list[Puzzle | VariantPuzzle] = []
    captions: list[str] = []
    answers: list[Puzzle] = []
    code = EXIT_OK  # a bad line is said and the book drawn of the others: exit 2
    for entry in iter_entries(args.inputs, geometry):
        puzzle: Puzzle | VariantPuzzle | None = entry.puzzle
        if puzzle is None:
            item = variant_item(entry)  # a variant entry after plain ones (standard input)
            why = str(entry.error) if item is None else item.error
            if item is None or item.puzzle is None:
                code = _fail(why)
                continue
            puzzle = item.puzzle
        if args.solutions and not _solution_into(answers, puzzle, entry.source, entry.line):
            code = EXIT_BAD_INPUT
            continue
        puzzles.append(puzzle)
        try:
            values = _values(puzzle, entry.fields, len(puzzles), entry.source, entry.line)
            captions.append(_caption(args, values))
        except RenderError as err:
            return _fail(str(err))
        if args.count is not None and len(puzzles) >= args.count:
            break
    if not puzzles:
        return code if code != EXIT_OK else _fail("no puzzles in the input")
    unwritten = _draw(args, puzzles, captions, answers if args.solutions else False)
    return code if unwritten is None else _fail(unwritten)


def _values(
    puzzle: Puzzle | VariantPuzzle, fields: dict[str, Any], n: int, source: str, line: int
) -> dict[str, Any]:
    """The caption fields of puzzle ``n``: a plain one's record (its number, rating
    and ``fields``, its clues and line), a variant one's title and kinds; and, for
    both, ``file`` and ``line``, where this command read it (a plain puzzle had
    them only from a record that carried its own, so ``{file}`` failed on a
    plain line; as everywhere, the command's own input wins over a record's)."""
    from csp_sudoku.tools.render import caption_fields, variant_caption_fields

    if isinstance(puzzle, VariantPuzzle):
        values = variant_caption_fields(puzzle, n)
    else:
        values = caption_fields(fields, n)
        values.setdefault("clues", puzzle.clue_count)
        values.setdefault("puzzle", puzzle.to_line())
    values.update(file=source, line=line)
    return values


def _fail(message: str) -> int:
    print(f"csp-sudoku render: error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _stdout_refusal(args: argparse.Namespace) -> str | None:
    """Why ``-o -`` (standard output) cannot be drawn to, or None: an SVG page is
    text and goes there; a PDF or PNG is binary data for a file."""
    if args.output is not None or args.format == "svg":
        return None
    return (
        "-o - writes one SVG page to standard output: add --format svg, or name a file "
        "(-o FILE.pdf, FILE.png: binary, not for standard output)"
    )


def _format_refusal(args: argparse.Namespace) -> str | None:
    """Why ``--format`` and ``-o`` give no format (an unknown suffix and no
    ``--format``, or a ``--format`` that the suffix contradicts: PNG data was
    written into ``x-1.svg``), or None; said before any puzzle is read."""
    from csp_sudoku.tools.render import output_format

    if args.output is None:  # -o -: one SVG page (_stdout_refusal)
        return None
    try:
        output_format(args.output, args.format)
    except RenderError as err:
        return str(err)
    return None


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
) -> str | None:
    """Render the book of ``puzzles`` to ``--output`` and print the paths of its files;
    with ``-o -`` print its one SVG page instead. Why it was not written, or None
    (an output that cannot take the book is refused before any page is drawn)."""
    import tempfile

    from csp_sudoku.tools.render import render_book

    refused = _pages_refusal(args, puzzles, solutions is not False)
    if refused is not None:
        return refused
    bar = progress(None, not args.quiet and sys.stderr.isatty(), unit="page")
    with contextlib.closing(bar), tempfile.TemporaryDirectory() as folder:
        to_stdout = args.output is None  # (-o -) drawn where it can be read back, then printed
        written = render_book(
            puzzles,
            os.path.join(folder, "book.svg") if to_stdout else args.output,
            per_page=args.per_page,
            solutions=solutions,
            titles=captions,
            title=args.title,
            fmt=args.format,
            dpi=args.dpi,
            progress=bar.tick,
        )
        if to_stdout:  # one page: _pages_refusal refused more
            sys.stdout.write(written[0].read_text(encoding="utf-8"))
            return None
    if not is_stdout(args.output):  # the paths after a PDF on /dev/stdout spoilt it
        for path in written:
            print(path)
    return None


def is_stdout(output: str) -> bool:
    """Whether ``output`` is the file the standard output writes to (``/dev/stdout``,
    ``/dev/fd/1``, or the file or pipe it goes to, by another name)."""
    try:
        mine, given = os.fstat(sys.stdout.fileno()), os.stat(output)
    except (OSError, ValueError, AttributeError):  # no such file; stdout no file (a test's)
        return False
    return (mine.st_dev, mine.st_ino) == (given.st_dev, given.st_ino)


def _pages_refusal(
    args: argparse.Namespace, puzzles: Sequence[Puzzle | VariantPuzzle], solutions: bool
) -> str | None:
    """Why standard output (``-o -``) cannot take the book of ``puzzles``, or None;
    said before any page is drawn (it was once said after the whole book was drawn).
    Standard output takes one SVG page; a pipe or a device named as the output of
    several pages is refused by :func:`~csp_sudoku.tools.render.render_book` itself,
    before it draws."""
    from csp_sudoku.tools.render import page_count

    if args.output is not None or (args.format or "svg") != "svg":
        return None
    pages = page_count(
        len(puzzles),
        puzzles[0].geometry,
        per_page=args.per_page,
        solutions=solutions,
        title=args.title,
    )
    if pages == 1:
        return None
    return (
        f"-o -: the book has {pages} pages, and standard output takes one SVG page: "
        "name a file (-o FILE.svg writes one file a page), or fit the puzzles on one "
        "page (--per-page)"
    )


def run_variants(args: argparse.Namespace) -> int:
    """Draw the puzzles of a run with variant inputs, each by its own path (plain
    ones beside them too); exit 2 when one could not be drawn."""
    refused = grid_options_refusal(args, args.inputs) or missing_input(args.inputs, plain=True)
    if refused:
        return _fail(refused)
    bad_format = _check_caption(args)
    if bad_format is not None:
        return _fail(bad_format)
    code = EXIT_OK
    puzzles: list[Puzzle | VariantPuzzle] = []
    captions: list[str] = []
    answers: list[Puzzle] = []
    for item in read_inputs(args.inputs, geometry=geometry_from_args(args), plain=True):
        if args.count is not None and len(puzzles) >= args.count:
            break
        puzzle = item.answerable
        if puzzle is None:
            print(f"csp-sudoku render: {item.error}", file=sys.stderr)
            code = EXIT_BAD_INPUT
            continue
        if args.solutions and not _solution_into(answers, puzzle, item.source, item.line):
            code = EXIT_BAD_INPUT
            continue
        try:
            values = _values(puzzle, item.fields, len(puzzles) + 1, item.source, item.line)
            caption = _caption(args, values)
        except RenderError as err:  # the format does not fit the records: nothing is drawn
            return _fail(str(err))
        puzzles.append(puzzle)
        captions.append(caption)
    if not puzzles:
        return _fail("no puzzles to draw")
    why = _draw(args, puzzles, captions, answers if args.solutions else False)
    return code if why is None else _fail(why)


def _solution_into(
    answers: list[Puzzle], puzzle: Puzzle | VariantPuzzle, source: str, line: int
) -> bool:
    """Append the one solution of a puzzle (its solution page) to ``answers``; False,
    said on stderr as ``FILE:LINE: why``, when it has none or several (the book
    leaves the puzzle out)."""
    try:
        found = _solutions(puzzle)
    except SudokuError as err:
        found = []
        print(f"csp-sudoku render: {source}:{line}: {err}", file=sys.stderr)
    if len(found) == 1:
        answers.append(found[0])
        return True
    how = "no solution" if not found else "more than one solution"
    print(
        f"csp-sudoku render: {source}:{line}: the puzzle has {how}: no solution page can show it",
        file=sys.stderr,
    )
    return False


def _solutions(puzzle: Puzzle | VariantPuzzle) -> list[Puzzle]:
    """Up to two solutions of a puzzle, plain or variant (one: its solution page)."""
    if isinstance(puzzle, VariantPuzzle):
        from csp_sudoku import variants

        return variants.solutions(puzzle, 2)
    from csp_sudoku.api import solutions

    return solutions(puzzle, limit=2)
