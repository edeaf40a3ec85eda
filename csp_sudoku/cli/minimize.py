"""``csp-sudoku minimize``: make unique puzzles minimal by removing clues.

Clues are removed in random order (``--seed``), one solver call each, until none
can go (RG2 of Hunt, Pong, Tucker). With ``--symmetry``, the clues of a symmetry
orbit go together: the result is minimal among puzzles with that pattern.
A puzzle that is not unique is reported and gives exit code 1. The batch
flags (``-o``, ``--format``, ``--jobs``, ``--resume``, ...) work as on ``check``.
Every row records its seed and symmetry (a fresh seed is drawn when none is
given, and said with ``--output``), so a row can be made again, and
``--resume`` continues only the run that wrote the file (the same ``--seed``
and ``--symmetry``).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from csp_sudoku.api import is_minimal
from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_NOT_ALL, EXIT_OK
from csp_sudoku.cli._common import add_batch_args, add_geometry_args, add_input_args, command_parser
from csp_sudoku.cli._rows import Outcome, rows_runner
from csp_sudoku.core.errors import NotUniqueError
from csp_sudoku.core.io import format_line
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.core.seeds import fresh_seed
from csp_sudoku.generators import SYMMETRIES, minimize


def register(sub: Any) -> None:
    p = command_parser(
        sub, "minimize", "remove clues from unique puzzles until they are minimal", __doc__
    )
    add_input_args(p)
    p.add_argument("--symmetry", choices=SYMMETRIES, default="none", help="remove orbits together")
    p.add_argument("--backend", default="auto", help="uniqueness checker backend")
    add_batch_args(
        p,
        resume_help="continue an interrupted run: keep the puzzles whose rows are in --output, "
        "minimise the rest (give the same --seed)",
        seed_help="seed of the removal order (the same for every puzzle; default: fresh)",
    )
    add_geometry_args(p)
    p.set_defaults(func=run)


def minimize_one(puzzle: Puzzle, options: dict[str, Any]) -> Outcome:
    """The row of one puzzle for ``minimize``, or a note when it is not unique."""
    try:
        out = minimize(
            puzzle, seed=options["seed"], symmetry=options["symmetry"], backend=options["backend"]
        )
    except NotUniqueError as err:
        return EXIT_NOT_ALL, [], str(err)
    symmetric = options["symmetry"] != "none"
    row = {
        # the puzzle made is the record's puzzle, so that `minimize | rate -` and
        # `| bank add` take it (they took the one it came from); that one is kept as
        # the provenance field the generators write, derived_from
        "puzzle": format_line(out),
        "derived_from": format_line(puzzle),
        "clues": out.clue_count,
        "removed": puzzle.clue_count - out.clue_count,
        # labels as generate's: minimal by construction without a symmetry (each clue
        # was tried once, and fewer clues never remove solutions), checked with one
        "minimal": is_minimal(out, backend=options["backend"]) if symmetric else True,
        "minimal_in_symmetry": True if symmetric else None,
        "seed": options["seed"],
        "symmetry": options["symmetry"],
    }
    return EXIT_OK, [(row, format_line(out))], None


#: The row columns of ``csp-sudoku minimize`` (after ``file`` and ``line``).
FIELDS = (
    "puzzle",
    "derived_from",
    "clues",
    "removed",
    "minimal",
    "minimal_in_symmetry",
    "seed",
    "symmetry",
)
#: :func:`minimize_one` on every puzzle, with these options; a resumed run's rows
#: must hold its seed and symmetry.
_rows = rows_runner(
    "minimize",
    FIELDS,
    minimize_one,
    "seed",
    "symmetry",
    "backend",
    compiles=True,
    resume_same=("seed", "symmetry"),
)


def run(args: argparse.Namespace) -> int:
    """``csp-sudoku minimize``: the rows of every puzzle, under a seed that they record."""
    if args.seed is None:
        if args.resume:
            print(
                "csp-sudoku minimize: --resume needs the --seed of the interrupted run "
                "(in its rows' seed field)",
                file=sys.stderr,
            )
            return EXIT_BAD_INPUT
        args.seed = fresh_seed()
        if args.output and not args.quiet:
            print(
                f"csp-sudoku minimize: --seed {args.seed} (add --seed {args.seed} --resume "
                "to continue this run if it is interrupted)",
                file=sys.stderr,
            )
    return _rows(args)
