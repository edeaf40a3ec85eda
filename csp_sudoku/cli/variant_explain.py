"""``csp-sudoku explain`` on variant puzzles (f-puzzles ``.json``, ``.jsonl``, ``?load=`` links).

``explain`` hands its run here (:func:`hook`) when an input is a variant one
(:func:`csp_sudoku.cli.variants.is_variant_input`). Each puzzle's path
(:func:`csp_sudoku.variants.explain.explain`) is printed as text, or with
``--json`` as one JSON object a puzzle (docs/variants.md), and drawn as the
classic path is: ``--html FILE`` the explain page, ``--svg DIR`` one image a
step (``DIR/step-001.svg`` ...), both with the puzzle's constraints drawn as
``render`` draws them. The human model's own options (``--order``,
``--techniques`` ...) are refused for variant inputs.

Exit codes: 0 when every puzzle was solved by the path; 1 when one needed a
guess, ran past its budget or has no or several solutions (no path is printed
for those: no proof exists); 2 for bad input (the other puzzles are still
explained).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_NOT_ALL, EXIT_OK
from csp_sudoku.cli._explained import svg_refusal
from csp_sudoku.core.errors import SudokuError

if TYPE_CHECKING:
    from csp_sudoku.variants.explain import VariantPath

Command = Callable[[argparse.Namespace], int]

#: The explain options that set the classic paths only: refused for variant inputs.
CLASSIC_ONLY = ("techniques", "seed", "max_level")


def hook(plain: Command) -> Command:
    """``plain`` (the classic explain), or the variant run when an input is a variant one."""
    from csp_sudoku.cli.variants import routed

    return routed(plain, run_variant_explain)


def _refused(args: argparse.Namespace) -> str | None:
    """Why the options do not fit a variant run (or an input file is missing), or None."""
    given = [f"--{k.replace('_', '-')}" for k in CLASSIC_ONLY if getattr(args, k, None) is not None]
    from csp_sudoku.metrics.se import PATH_ORDERS

    if getattr(args, "order", PATH_ORDERS[0]) != PATH_ORDERS[0]:
        given.append("--order")
    if getattr(args, "rater", None) is not None:  # given at all (its default is None)
        given.append("--rater")
    if given:
        return (
            f"{', '.join(given)} set the classic paths; a variant puzzle's path takes "
            "--json, --indent, --html, --svg, --max-subset and --budget"
        )
    if args.max_subset is not None and args.max_subset < 0:
        return "--max-subset must be at least 0"
    if args.budget is not None and args.budget < 1:
        return "--budget must be at least 1"
    refusal = svg_refusal(args)
    if refusal is not None:
        return refusal
    from csp_sudoku.cli.variants import missing_input

    return missing_input(args.inputs, plain=False)


def run_variant_explain(args: argparse.Namespace) -> int:
    """Explain every variant puzzle of ``args.inputs``; the exit code."""
    from csp_sudoku import variants
    from csp_sudoku.cli._explained import draw_path, one_puzzle_refusal, show_path
    from csp_sudoku.cli.variants import read_inputs
    from csp_sudoku.variants import explain as vx

    why = _refused(args)
    if why is not None:
        print(f"csp-sudoku explain: error: {why}", file=sys.stderr)
        return EXIT_BAD_INPUT
    puzzles = list(read_inputs(args.inputs))
    several = one_puzzle_refusal(args, len(puzzles))
    if several is not None:
        print(f"csp-sudoku explain: error: {several}", file=sys.stderr)
        return EXIT_BAD_INPUT
    max_subset = vx.DEFAULT_MAX_SUBSET if args.max_subset is None else args.max_subset
    budget = vx.DEFAULT_BUDGET if args.budget is None else args.budget
    code = EXIT_OK
    first = True
    for item in puzzles:
        where = f"{item.source}:{item.line}"
        puzzle = item.puzzle
        if puzzle is None:
            print(f"csp-sudoku explain: {item.error}", file=sys.stderr)
            code = EXIT_BAD_INPUT
            continue
        try:
            verdict = variants.check(puzzle)
            if verdict != "unique":
                what = "no solution" if verdict == "none" else "more than one solution"
                print(
                    f"csp-sudoku explain: {where}: the puzzle has {what}; "
                    "no logical explanation exists",
                    file=sys.stderr,
                )
                code = max(code, EXIT_NOT_ALL)
                continue
            path = vx.explain(puzzle, max_subset=max_subset, budget=budget)
        except SudokuError as err:
            print(f"csp-sudoku explain: {where}: {err}", file=sys.stderr)
            code = EXIT_BAD_INPUT
            continue
        if not path.solved:
            code = max(code, EXIT_NOT_ALL)
        if args.html or args.svg:
            from csp_sudoku.tools.explain_view import classic_view

            why = draw_path(args, classic_view(path), path.puzzle.constraints)
            if why is not None:
                print(f"csp-sudoku explain: error: {why}", file=sys.stderr)
                return EXIT_BAD_INPUT
        show_path(args, path, partial(readable, path, where), first)
        first = False
    if not puzzles:
        print("csp-sudoku explain: error: no puzzles found in the input", file=sys.stderr)
        return EXIT_BAD_INPUT
    return code


def readable(path: VariantPath, where: str) -> str:
    """The text form: the puzzle, its constraints, the grid, the steps, the end."""
    from csp_sudoku.core.io import format_grid

    p = path.puzzle
    kinds = ", ".join(f"{k} {sum(c.kind == k for c in p.constraints)}" for k in p.kinds())
    lines = [
        f"puzzle: {where} ({p.geometry.name}; {kinds or 'no constraints'})",
        format_grid(p.puzzle),
        "",
        *path.describe(),
    ]
    return "\n".join(lines)


__all__ = ["hook", "readable", "run_variant_explain"]
