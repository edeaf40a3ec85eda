"""``csp-sudoku solve`` and ``csp-sudoku count``: solutions and solution counts.

Both are batch commands (:mod:`csp_sudoku.cli._rows`): every puzzle of the
inputs gives its rows (:mod:`csp_sudoku.cli._plain`), bad lines are reported
and skipped, and the batch flags (``-o``, ``--format``, ``--jobs``, ``--resume``, ...) work as on
``check`` and ``rate``. ``--resume`` refuses an output that another ``count
--limit`` or ``solve --all`` wrote (:func:`~csp_sudoku.cli._plain.kept_count`,
:func:`~csp_sudoku.cli._plain.kept_solve`).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from csp_sudoku.cli._common import (
    MAX_COUNT,
    add_batch_args,
    add_geometry_args,
    add_input_args,
    int_in,
    seconds_arg,
)
from csp_sudoku.cli._plain import count_one, kept_count, kept_solve, solve_one
from csp_sudoku.cli._rows import rows_runner, run_rows
from csp_sudoku.cli.variants import hook
from csp_sudoku.core.errors import ArgumentError

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
    p.set_defaults(func=_grids_as_text(hook("solve", run_solve)))  # f-puzzles: cli/variants.py

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


def _grids_as_text(command: Any) -> Any:
    """``command``, refusing ``--grid`` with ``--format jsonl|csv`` (a row's solution
    is its line there: the option would do nothing, silently)."""

    def run(args: argparse.Namespace) -> int:
        if args.grid and args.format != "text":
            raise ArgumentError(
                f"--grid draws text rows; --format {args.format} rows give each solution "
                "as its line"
            )
        return int(command(args))

    return run


#: ``csp-sudoku solve``: :func:`solve_one` on every puzzle, with these options.
run_solve = rows_runner(
    "solve",
    ("puzzle", "solution", "solutions", "status", "capped"),
    solve_one,
    "all",
    "backend",
    "grid",
    judge=kept_solve,
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
        compiles=True,
        judge=kept_count,
    )
