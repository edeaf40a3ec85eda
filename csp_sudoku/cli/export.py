"""``csp-sudoku export``: the models behind the engine, as files other tools read."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_OK
from csp_sudoku.cli._common import add_geometry_args, geometry_from_args, iter_entries
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import open_output
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.encodings.cnf import write_dimacs
from csp_sudoku.encodings.exact_cover import exact_cover
from csp_sudoku.encodings.minizinc import write_minizinc


def register(sub: Any) -> None:
    p = sub.add_parser(
        "export",
        help="write the DIMACS CNF, exact-cover matrix or MiniZinc model of a shape or a puzzle",
        description=(
            "cnf: DIMACS CNF (variable cell*N+digit); with a PUZZLE, its clues are unit clauses. "
            "exact-cover: '<ncolumns> <nrows>' then one line of 0-based columns per candidate "
            "(with a PUZZLE, one more column per clue, covered by the clue's candidate alone). "
            "minizinc: a MiniZinc model (with the clues when a PUZZLE is given)."
        ),
    )
    p.add_argument("model", choices=("cnf", "exact-cover", "minizinc"))
    p.add_argument(
        "puzzle", nargs="?", help="a puzzle (text or file with one puzzle); default: rules only"
    )
    p.add_argument("--output", "-o", default="-", help="output file (default: stdout)")
    add_geometry_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    geometry = geometry_from_args(args)
    target: Puzzle | Geometry
    if args.puzzle:
        entries = list(iter_entries([args.puzzle], geometry))
        if len(entries) != 1 or entries[0].puzzle is None:
            why = (
                entries[0].error if entries and entries[0].error else "expected exactly one puzzle"
            )
            print(f"csp-sudoku export: error: {why}", file=sys.stderr)
            return EXIT_BAD_INPUT
        target = entries[0].puzzle
    else:
        target = geometry or Geometry.standard(9)
    with open_output(sys.stdout if args.output == "-" else args.output) as out:
        if args.model == "cnf":
            write_dimacs(target, out)
        elif args.model == "minizinc":
            write_minizinc(target, out)
        elif isinstance(target, Puzzle):  # the clues as columns only their candidates cover
            exact_cover(target.geometry).write(out, clues=target.cells)
        else:
            exact_cover(target).write(out)
    return EXIT_OK
