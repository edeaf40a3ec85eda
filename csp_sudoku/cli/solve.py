"""``csp-sudoku solve`` and ``csp-sudoku count``: solutions and solution counts.

Both are batch commands (:mod:`csp_sudoku.cli._rows`): every puzzle of the
inputs gives its rows, bad lines are reported and skipped, and the batch
flags (``-o``, ``--format``, ``--jobs``, ``--resume``, ...) work as on
``check`` and ``rate``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from csp_sudoku.api import count_solutions, solutions
from csp_sudoku.cli import EXIT_NOT_ALL, EXIT_OK
from csp_sudoku.cli._common import (
    MAX_COUNT,
    add_batch_args,
    add_geometry_args,
    add_input_args,
    int_in,
    seconds_arg,
)
from csp_sudoku.cli._rows import WHERE, Outcome, rows_runner, run_rows
from csp_sudoku.cli.variants import hook
from csp_sudoku.core.errors import CountBudgetExceeded
from csp_sudoku.core.io import counted, format_grid, format_line
from csp_sudoku.core.puzzle import Puzzle

_NO_SEED = "accepted like on every batch command; the result depends on no seed"
_RESUME = "continue an interrupted run: keep the puzzles whose rows are in --output, do the rest"


def register(sub: Any) -> None:
    p = sub.add_parser("solve", help="print the solution of each puzzle")
    add_input_args(p)
    p.add_argument("--grid", action="store_true", help="print solutions as grids, not lines")
    p.add_argument(
        "--all", type=int_in(1, 10**6), default=1, metavar="K", help="print up to K solutions each"
    )
    p.add_argument("--backend", default="auto")
    add_batch_args(p, resume_help=_RESUME, seed_help=_NO_SEED)
    add_geometry_args(p)
    p.set_defaults(func=hook("solve", run_solve))  # f-puzzles inputs: cli/variants.py

    c = sub.add_parser("count", help="count the solutions of each puzzle, up to a limit")
    add_input_args(c)
    c.add_argument(
        "--limit",
        type=int_in(1, MAX_COUNT),
        default=1000,
        help="stop counting here (default 1000)",
    )
    c.add_argument(
        "--budget-seconds",
        type=seconds_arg,
        default=None,
        metavar="SECONDS",
        help="give up on a puzzle after about this long and report the solutions found so "
        "far as a lower bound (exit 1); the count is then split into parts, and a "
        "terminal shows each puzzle's progress through them",
    )
    c.add_argument("--backend", default="auto")
    add_batch_args(c, resume_help=_RESUME, seed_help=_NO_SEED)
    add_geometry_args(c)
    c.set_defaults(func=hook("count", run_count))


def solve_one(puzzle: Puzzle, options: dict[str, Any]) -> Outcome:
    """The rows of one puzzle for ``solve``: one per solution, or one saying it has none.

    A second solution is always searched for, whatever ``--all`` says, so that a row
    never presents one solution of a puzzle that has several as *the* solution: such a
    puzzle gets ``status: multiple`` (``solutions`` then counts those found, ``capped``
    true when there may be more; every row has ``capped``, so that a CSV row says
    it too), a message on stderr and exit code 1.
    """
    wanted = options["all"]
    sols = solutions(puzzle, limit=max(wanted, 2), backend=options["backend"])
    line = format_line(puzzle)
    if not sols:
        clashes = puzzle.clashes()
        why = f" ({clashes[0]})" if clashes else ""
        row = {"puzzle": line, "solution": None, "solutions": 0, "status": "none", "capped": False}
        return EXIT_NOT_ALL, [(row, f"{WHERE}: no solution{why}")], None
    unique = len(sols) == 1
    capped = len(sols) >= max(wanted, 2)
    fields = {
        "solutions": len(sols),
        "status": "unique" if unique else "multiple",
        "capped": capped,
    }
    rows = [
        (
            {"puzzle": line, "solution": format_line(s), **fields},
            format_grid(s) + "\n" if options["grid"] else format_line(s),
        )
        for s in sols[:wanted]
    ]
    if unique:
        return EXIT_OK, rows, None
    many = f"{len(sols)}{'+' if capped else ''}"
    shown = "the row shows one" if len(rows) == 1 else f"the rows show {len(rows)}"
    return EXIT_NOT_ALL, rows, f"not unique: {many} solutions; {shown} of them"


def count_one(puzzle: Puzzle, options: dict[str, Any]) -> Outcome:
    """The row of one puzzle for ``count``: its solution count, capped at ``--limit``."""
    limit = options["limit"]
    budget = options.get("budget")
    line = format_line(puzzle)
    try:
        n = count_solutions(
            puzzle,
            limit=limit,
            backend=options["backend"],
            budget_seconds=budget,
            progress=_part_progress if budget is not None and options.get("show") else None,
        )
    except CountBudgetExceeded as err:
        n = err.at_least
        row = {"puzzle": line, "count": n, "capped": True, "budget": True}
        return EXIT_NOT_ALL, [(row, f"{WHERE}\t{n}+ (budget)\t{line}")], None
    shown = f"{n}+" if n >= limit else str(n)
    return (
        EXIT_OK,
        [({"puzzle": line, "count": n, "capped": n >= limit}, f"{WHERE}\t{shown}\t{line}")],
        None,
    )


def _part_progress(done: int, parts: int, found: int) -> None:
    """One count's progress on stderr: parts done and solutions so far."""
    end = "\n" if done == parts else ""
    print(
        f"\rcount: part {done}/{parts}, {counted(found, 'solution')} so far",
        end=end,
        file=sys.stderr,
    )


#: ``csp-sudoku solve``: :func:`solve_one` on every puzzle, with these options.
run_solve = rows_runner(
    "solve",
    ("puzzle", "solution", "solutions", "status", "capped"),
    solve_one,
    "all",
    "backend",
    "grid",
)


def run_count(args: argparse.Namespace) -> int:
    return run_rows(
        args,
        what="count",
        fields=("puzzle", "count", "capped"),
        work=count_one,
        options={
            "limit": args.limit,
            "backend": args.backend,
            "budget": args.budget_seconds,
            "show": sys.stderr.isatty() and not args.quiet and args.jobs <= 1,
        },
        located_text=True,
    )
