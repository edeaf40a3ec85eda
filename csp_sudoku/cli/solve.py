"""``csp-sudoku solve`` and ``csp-sudoku count``: solutions and solution counts."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from csp_sudoku.api import count_solutions, solutions
from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_NOT_ALL, EXIT_OK
from csp_sudoku.cli._common import (
    MAX_COUNT,
    RowWriter,
    add_geometry_args,
    add_input_args,
    geometry_from_args,
    int_in,
    iter_entries,
)
from csp_sudoku.io import format_grid, format_line


def register(sub: Any) -> None:
    p = sub.add_parser("solve", help="print the solution of each puzzle")
    add_input_args(p)
    p.add_argument("--grid", action="store_true", help="print solutions as grids, not lines")
    p.add_argument(
        "--all", type=int_in(1, 10**6), default=1, metavar="K", help="print up to K solutions each"
    )
    p.add_argument("--format", choices=("text", "jsonl", "csv"), default="text")
    p.add_argument("--backend", default="auto")
    add_geometry_args(p)
    p.set_defaults(func=run_solve)

    c = sub.add_parser("count", help="count the solutions of each puzzle, up to a limit")
    add_input_args(c)
    c.add_argument(
        "--limit", type=int_in(1, MAX_COUNT), default=1000, help="stop counting here (default 1000)"
    )
    c.add_argument("--format", choices=("text", "jsonl", "csv"), default="text")
    c.add_argument("--backend", default="auto")
    add_geometry_args(c)
    c.set_defaults(func=run_count)


def run_solve(args: argparse.Namespace) -> int:
    writer = RowWriter(args.format, ("line", "puzzle", "solution", "solutions"))
    code = EXIT_OK
    for e in iter_entries(args.inputs, geometry_from_args(args)):
        if e.puzzle is None:
            print(f"csp-sudoku: error: {e.error}", file=sys.stderr)
            return EXIT_BAD_INPUT
        sols = solutions(e.puzzle, limit=max(1, args.all), backend=args.backend)
        if not sols:
            clashes = e.puzzle.clashes()
            why = f" ({clashes[0]})" if clashes else ""
            writer.write(
                {"line": e.line, "puzzle": format_line(e.puzzle), "solution": None, "solutions": 0},
                f"{e.source}:{e.line}: no solution{why}",
                e.fields,
            )
            code = EXIT_NOT_ALL
            continue
        for s in sols:
            text = format_grid(s) + "\n" if args.grid else format_line(s)
            writer.write(
                {
                    "line": e.line,
                    "puzzle": format_line(e.puzzle),
                    "solution": format_line(s),
                    "solutions": len(sols),
                },
                text,
                e.fields,
            )
    return code


def run_count(args: argparse.Namespace) -> int:
    if args.limit < 1:
        print("csp-sudoku count: --limit must be at least 1", file=sys.stderr)
        return EXIT_BAD_INPUT
    writer = RowWriter(args.format, ("line", "puzzle", "count", "capped"))
    for e in iter_entries(args.inputs, geometry_from_args(args)):
        if e.puzzle is None:
            print(f"csp-sudoku: error: {e.error}", file=sys.stderr)
            return EXIT_BAD_INPUT
        n = count_solutions(e.puzzle, limit=args.limit, backend=args.backend)
        capped = n >= args.limit
        shown = f"{n}+" if capped else str(n)
        writer.write(
            {"line": e.line, "puzzle": format_line(e.puzzle), "count": n, "capped": capped},
            f"{e.source}:{e.line}\t{shown}\t{format_line(e.puzzle)}",
            e.fields,
        )
    return EXIT_OK
