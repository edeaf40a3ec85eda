"""``csp-sudoku export``: the models behind the engine, as files other tools read.

``cnf``, ``exact-cover`` and ``minizinc`` write the model of one puzzle (or of
a grid shape's rules); ``fpuzzles`` writes puzzles as f-puzzles JSON, one
object a line (so a file of many is JSON Lines), or as ``?load=`` links with
``--link``. A variant puzzle (an f-puzzles ``.json``/``.jsonl`` file or link)
gets its constraints in ``cnf`` (their clauses, the very formula the SAT
backend solves: :func:`csp_sudoku.variants.variant_cnf`) and ``minizinc``
(the same clauses as ``bool_clause`` items: :mod:`csp_sudoku.variants.formats`);
it has no exact-cover matrix.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from typing import IO, Any

import numpy as np

from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_OK
from csp_sudoku.cli._common import (
    add_geometry_args,
    geometry_from_args,
    iter_entries,
    output_file,
)
from csp_sudoku.cli.variants import (
    grid_options_refusal,
    is_variant_input,
    missing_input,
    read_inputs,
    variant_item,
)
from csp_sudoku.constraints import VariantPuzzle
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import open_output
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.encodings.cnf import write_dimacs
from csp_sudoku.encodings.exact_cover import exact_cover
from csp_sudoku.encodings.minizinc import write_minizinc


def register(sub: Any) -> None:
    p = sub.add_parser(
        "export",
        help="write the DIMACS CNF, exact-cover matrix, MiniZinc model or f-puzzles JSON "
        "of a shape or a puzzle",
        description=(
            "cnf: DIMACS CNF (variable cell*N+digit); with a PUZZLE, its clues are unit clauses "
            "(and a variant puzzle's constraints their clauses). "
            "exact-cover: '<ncolumns> <nrows>' then one line of 0-based columns per candidate "
            "(with a PUZZLE, one more column per clue, covered by the clue's candidate alone). "
            "minizinc: a MiniZinc model (with the clues when a PUZZLE is given). "
            "fpuzzles: every puzzle of PUZZLE as f-puzzles JSON, one object a line "
            "(--link: as f-puzzles ?load= links). PUZZLE may be an f-puzzles .json or .jsonl "
            "file or a ?load= link. Exit code: 0, or 2 on bad input."
        ),
    )
    p.add_argument("model", choices=("cnf", "exact-cover", "minizinc", "fpuzzles"))
    p.add_argument(
        "puzzle",
        nargs="?",
        help="a puzzle (text, a file with one puzzle, an f-puzzles .json file or ?load= link; "
        "fpuzzles: a file of any number, .jsonl included); default: rules only",
    )
    p.add_argument("--output", "-o", type=output_file, help="output file (default, or '-': stdout)")
    p.add_argument(
        "--link",
        action="store_true",
        help="fpuzzles: write f-puzzles ?load= links, one a line, instead of JSON",
    )
    add_geometry_args(p)
    p.set_defaults(func=run)


def _error(why: object) -> int:
    print(f"csp-sudoku export: error: {why}", file=sys.stderr)
    return EXIT_BAD_INPUT


def run(args: argparse.Namespace) -> int:
    if args.link and args.model != "fpuzzles":
        return _error("--link goes with 'export fpuzzles'")
    if args.puzzle is not None:  # a file named that is not there: said so, not read as a puzzle
        missing = missing_input([args.puzzle], plain=True)
        if missing is not None:
            return _error(missing)
    geometry = geometry_from_args(args)
    variant = bool(args.puzzle) and is_variant_input(args.puzzle)
    if variant:
        refused = grid_options_refusal(args, [args.puzzle])
        if refused is not None:
            return _error(refused)
    if args.model == "fpuzzles":
        return _fpuzzles(args, geometry, variant)
    target: Puzzle | Geometry | VariantPuzzle
    if variant:
        items = list(read_inputs([args.puzzle], geometry=geometry, plain=True))
        if len(items) != 1:
            return _error(_not_one(args.puzzle, len(items)))
        one = items[0].answerable  # (a plain puzzle, of a file or stdin that mixes them)
        if one is None:
            return _error(items[0].error)
        if isinstance(one, VariantPuzzle) and args.model == "exact-cover":
            return _error(
                "a variant puzzle's constraints are no exact-cover matrix: "
                "export it as cnf, minizinc or fpuzzles"
            )
        target = one
    elif args.puzzle:
        entries = list(iter_entries([args.puzzle], geometry))
        if len(entries) != 1:
            return _error(_not_one(args.puzzle, len(entries)))
        if entries[0].puzzle is None:
            return _error(entries[0].error)
        target = entries[0].puzzle
    else:
        target = geometry or Geometry.standard(9)
    with open_output(sys.stdout if args.output is None else args.output) as out:
        if isinstance(target, VariantPuzzle):
            _write_variant(args.model, target, out)
        elif args.model == "cnf":
            write_dimacs(target, out)
        elif args.model == "minizinc":
            write_minizinc(target, out)
        elif isinstance(target, Puzzle):  # the clues as columns only their candidates cover
            exact_cover(target.geometry).write(out, clues=target.cells)
        else:
            exact_cover(target).write(out)
    return EXIT_OK


def _not_one(item: str, found: int) -> str:
    """Why the input ``item`` (a file, ``-``, a puzzle written as an argument) is no one
    puzzle to export a model of: how many entries it holds."""
    name = "<stdin>" if item == "-" else item if os.path.exists(item) else "<argument>"
    return f"{name}: expected exactly one puzzle, found {found}"


def _write_variant(model: str, puzzle: VariantPuzzle, out: IO[str]) -> None:
    """Write the CNF or the MiniZinc model of a variant puzzle."""
    from csp_sudoku.variants import variant_cnf
    from csp_sudoku.variants.formats import minizinc_model

    if model == "minizinc":
        out.write(minizinc_model(puzzle))
        return
    g = puzzle.geometry
    variant_cnf(puzzle).to_fp(
        out,
        comments=[
            f"c csp_sudoku {g.name} puzzle {puzzle.puzzle.to_line()}",
            f"c constraints: {', '.join(puzzle.kinds()) or 'none'}",
            f"c variable cell*{g.size}+digit is true when the 0-based cell holds the digit; "
            f"variables above {g.ncandidates} are the constraints' auxiliaries",
        ],
    )


def _fpuzzles(args: argparse.Namespace, geometry: Geometry | None, variant: bool) -> int:
    """``export fpuzzles``: every puzzle of the input, one f-puzzles object (or link) a line.

    A puzzle that cannot be read (or written: see :func:`to_fpuzzles`) is reported
    with its file and line, the others are written, and the exit code is 2.
    """
    from csp_sudoku.constraints import link, to_fpuzzles
    from csp_sudoku.constraints.fpuzzles import size_refusal
    from csp_sudoku.core.errors import SudokuError

    # a shape the options give (--size 25): refused once, before anything is written
    refused = None if geometry is None else size_refusal(geometry.size)
    if refused is not None:
        return _error(refused)
    code = EXIT_OK
    written = 0
    with open_output(sys.stdout if args.output is None else args.output) as out:
        for where, puzzle, error in _puzzles(args.puzzle, geometry, variant):
            if puzzle is None:
                print(f"csp-sudoku export: {error}", file=sys.stderr)
                code = EXIT_BAD_INPUT
                continue
            try:
                text = link(puzzle) if args.link else json.dumps(to_fpuzzles(puzzle))
            except SudokuError as err:
                print(f"csp-sudoku export: {where}: {err}", file=sys.stderr)
                code = EXIT_BAD_INPUT
                continue
            out.write(text + "\n")
            written += 1
    if written == 0 and code == EXIT_OK:
        return _error("no puzzles found in the input")
    return code


def _puzzles(
    item: str | None, geometry: Geometry | None, variant: bool
) -> Iterator[tuple[str, VariantPuzzle | None, str]]:
    """``(where, puzzle or None, error)`` for every puzzle of the input, as variant puzzles.

    A plain puzzle becomes a variant one with its extra units as constraints
    (:func:`csp_sudoku.variants.formats.as_variant`); no input at all is the
    empty grid of the options' shape.
    """
    from csp_sudoku.variants.formats import as_variant

    if item is None:
        g = geometry or Geometry.standard(9)
        yield "<rules>", as_variant(Puzzle(np.zeros(g.ncells, dtype=np.int8), g)), ""
        return
    if variant:  # the plain puzzles beside the variant ones too, each by its own path
        for it in read_inputs([item], geometry=geometry, plain=True):
            where = f"{it.source}:{it.line}"
            if it.plain is not None:
                yield where, as_variant(it.plain), ""
            else:
                yield where, it.puzzle, it.error
        return
    for e in iter_entries([item], geometry):
        where = f"{e.source}:{e.line}"
        if e.puzzle is not None:
            yield where, as_variant(e.puzzle), ""
        elif (met := variant_item(e)) is not None:  # after plain ones (standard input)
            yield where, met.puzzle, met.error
        else:
            yield where, None, str(e.error or e.text)
