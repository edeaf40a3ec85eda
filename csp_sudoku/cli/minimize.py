"""``csp-sudoku minimize``: make unique puzzles minimal by removing clues.

Clues are removed in random order (``--seed``), one solver call each, until none
can go (RG2 of Hunt, Pong, Tucker). With ``--symmetry``, the clues of a symmetry
orbit go together: the result is minimal among puzzles with that pattern.
A puzzle that is not unique is reported and gives exit code 1.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_NOT_ALL, EXIT_OK
from csp_sudoku.cli._common import (
    RowWriter,
    add_geometry_args,
    add_input_args,
    geometry_from_args,
    iter_entries,
    seed_arg,
)
from csp_sudoku.errors import NotUniqueError
from csp_sudoku.generators import SYMMETRIES, minimize
from csp_sudoku.io import format_line


def register(sub: Any) -> None:
    p = sub.add_parser(
        "minimize",
        help="remove clues from unique puzzles until they are minimal",
        description=(__doc__ or "").replace("``", "`"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input_args(p)
    p.add_argument("--symmetry", choices=SYMMETRIES, default="none", help="remove orbits together")
    p.add_argument("--seed", type=seed_arg, help="seed of the removal order")
    p.add_argument("--backend", default="auto", help="uniqueness checker backend")
    p.add_argument("--format", choices=("text", "jsonl", "csv"), default="text")
    add_geometry_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    writer = RowWriter(args.format, ("line", "puzzle", "minimal", "clues", "removed"))
    code = EXIT_OK
    for e in iter_entries(args.inputs, geometry_from_args(args)):
        if e.puzzle is None:
            print(f"csp-sudoku: error: {e.error}", file=sys.stderr)
            return EXIT_BAD_INPUT
        try:
            out = minimize(e.puzzle, args.seed, symmetry=args.symmetry, backend=args.backend)
        except NotUniqueError as err:
            print(f"{e.source}:{e.line}: {err}", file=sys.stderr)
            code = EXIT_NOT_ALL
            continue
        removed = e.puzzle.clue_count - out.clue_count
        writer.write(
            {
                "line": e.line,
                "puzzle": format_line(e.puzzle),
                "minimal": format_line(out),
                "clues": out.clue_count,
                "removed": removed,
            },
            format_line(out),
            e.fields,
        )
    return code
