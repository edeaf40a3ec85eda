"""``csp-sudoku explain`` on variant puzzles (f-puzzles ``.json``, ``.jsonl``, ``?load=`` links).

``explain`` hands each variant entry here
(:func:`csp_sudoku.cli.explain.run_mixed_explain` when an input is a variant
one, :func:`csp_sudoku.cli.variants.is_variant_input`). Each puzzle's path
(:func:`csp_sudoku.variants.explain.explain`) is printed as text, or with
``--json`` as one JSON object a puzzle (docs/variants.md), and drawn as the
classic path is: ``--html FILE`` the explain page, ``--svg DIR`` one image a
step (``DIR/step-001.svg`` ...), both with the puzzle's constraints drawn as
``render`` draws them. The human model's own options (``--order``,
``--techniques`` ...) are refused for variant inputs, and so are the grid
shape options (``--size``, ``--variant``, ``--jigsaw``) when no input holds
plain puzzles. ``--max-subset`` takes 0 to
:data:`csp_sudoku.variants.explain.MAX_SUBSET` here, ``--budget`` 1 up (the
library's one check, :func:`csp_sudoku.variants.explain.setting_refusal`).

Plain puzzles beside the variant ones (``explain plain.txt killer.json``, a
file or standard input that mixes them) are explained each by its own path
(:mod:`csp_sudoku.cli.explain` runs both: this module never imports it), a
plain one by the classic run's se path, as ``render`` draws each entry by
its own; a variant one by :func:`variant_path`.

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
from csp_sudoku.cli._explained import shown
from csp_sudoku.core.errors import SudokuError

if TYPE_CHECKING:
    from csp_sudoku.cli.variants import Item
    from csp_sudoku.variants.explain import VariantPath

Command = Callable[[argparse.Namespace], int]

#: The explain options that set the classic paths only: refused for variant inputs.
CLASSIC_ONLY = ("techniques", "seed", "max_level")


#: The most ``--max-subset`` takes for a variant puzzle's path, shown in ``explain
#: --help``: the library's :data:`csp_sudoku.variants.explain.MAX_SUBSET`, which the
#: check itself reads (:func:`options_refusal`). Written here, not imported, because
#: the explainer loads the solvers (OR-tools, 0.45 s) and ``explain`` of a plain
#: puzzle needs none; tests/test_variant_hunt_fixes.py holds the two equal.
MAX_SUBSET = 4


def options_refusal(args: argparse.Namespace) -> str | None:
    """Why the path options do not fit a variant puzzle's path, or None."""
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
    from csp_sudoku.variants.explain import setting_refusal

    for name, value in (("max_subset", args.max_subset), ("budget", args.budget)):
        why = None if value is None else setting_refusal(name, value, f"--{name.replace('_', '-')}")
        if why is not None:
            return f"{why} (a variant puzzle's path)"
    return None


def variant_path(args: argparse.Namespace, item: Item) -> tuple[int, VariantPath | None]:
    """The path of one variant entry, with the exit code it gives the run: 0; 1 when
    it has no or several solutions (said on stderr: no path) or its path does not
    solve it; 2 when it cannot be read or the options do not fit it (said)."""
    from csp_sudoku import variants
    from csp_sudoku.variants import explain as vx

    where = f"{item.source}:{item.line}"
    puzzle = item.puzzle
    if puzzle is None:
        print(f"csp-sudoku explain: {item.error}", file=sys.stderr)
        return EXIT_BAD_INPUT, None
    why = options_refusal(args)  # said before any work in a variant run; here for an
    if why is not None:  # entry met by the classic run (standard input)
        print(f"csp-sudoku explain: error: {where}: a variant puzzle: {why}", file=sys.stderr)
        return EXIT_BAD_INPUT, None
    max_subset = vx.DEFAULT_MAX_SUBSET if args.max_subset is None else args.max_subset
    budget = vx.DEFAULT_BUDGET if args.budget is None else args.budget
    try:
        verdict = variants.check(puzzle)
        if verdict != "unique":
            what = "no solution" if verdict == "none" else "more than one solution"
            print(
                f"csp-sudoku explain: {where}: the puzzle has {what}; "
                "no logical explanation exists",
                file=sys.stderr,
            )
            return EXIT_NOT_ALL, None
        path = vx.explain(puzzle, max_subset=max_subset, budget=budget)
    except SudokuError as err:
        print(f"csp-sudoku explain: {where}: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT, None
    return (EXIT_OK if path.solved else EXIT_NOT_ALL), path


def show_variant(
    args: argparse.Namespace, path: VariantPath, where: str, first: bool
) -> str | None:
    """Draw a variant puzzle's path (with its constraints) where ``--html`` and ``--svg``
    say, and print it; why a drawing could not be written, or None."""
    from csp_sudoku.tools.explain_view import classic_view

    text = partial(readable, path, where)
    return shown(args, path, text, first, partial(classic_view, path), path.puzzle.constraints)


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


__all__ = [
    "MAX_SUBSET",
    "options_refusal",
    "readable",
    "show_variant",
    "variant_path",
]
