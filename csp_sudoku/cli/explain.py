"""``csp-sudoku explain``: a puzzle's solve path, step by step.

By default the se path (``--order se``): the replay of Sudoku Explainer's
order that ``rate --metric se`` rates, so the hardest step shown is the
rating; ``--order subsets`` shows the human model's path. Readable by default
(technique, difficulty, placements and eliminations, the pattern and chain);
``--json`` writes the object documented in docs/explain_schema.md (one JSON
object per line when several puzzles are given); ``--html`` / ``--svg`` draw it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from functools import partial
from typing import Any

from csp_sudoku.api import count_solutions
from csp_sudoku.cli import EXIT_BAD_INPUT, EXIT_NOT_ALL, EXIT_OK
from csp_sudoku.cli._common import (
    add_geometry_args,
    add_input_args,
    geometry_from_args,
    int_in,
    iter_entries,
    noting_compiles,
    seed_arg,
)
from csp_sudoku.cli._explained import (
    draw_path,
    one_puzzle_options,
    one_puzzle_refusal,
    show_path,
    svg_refusal,
)
from csp_sudoku.cli.variant_explain import hook as variant_hook
from csp_sudoku.core.io import Entry, counted, format_grid
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.core.seeds import as_generator
from csp_sudoku.human.chains import DEFAULT_BUDGET, MAX_LEVEL, ChainSettings
from csp_sudoku.human.path import DEFAULT_TECHNIQUES, TECHNIQUES, SolvePath, solve_path
from csp_sudoku.metrics.se import DEFAULT_RATER, PATH_ORDERS, RATERS, SePath
from csp_sudoku.metrics.se import solve_path as explained_path


def register(sub: Any) -> None:
    p = sub.add_parser(
        "explain",
        help="show how a person would solve a puzzle, step by step (the path the se rating rates)",
        description=(
            "Solve step by step and show each step. By default (--order se) Sudoku "
            "Explainer's order, the path `rate --metric se` rates: each step's technique "
            "(named as in docs/techniques.md), difficulty, conclusion, pattern and chain; "
            "its hardest step is the rating. --order subsets shows the human model's path: "
            "singles, the constraint subset rule by increasing size, then contradiction and "
            "forcing chains by level (0 singles, 1 with the subset rule, 2 nested), "
            "optionally Pelanek's refutation or an oracle. --json writes the path, --html "
            "and --svg draw it."
        ),
    )
    add_input_args(p)
    p.add_argument(
        "--order",
        default=PATH_ORDERS[0],
        help=(
            "whose path: se (Sudoku Explainer's order, the path `rate --metric se` rates, "
            "techniques named as in docs/techniques.md; default) or subsets (the human "
            "model's: singles, the subset rule, chains by level)"
        ),
    )
    p.add_argument(
        "--rater",
        default=None,
        help=f"whose order --order se replays: {' or '.join(RATERS)} (default {DEFAULT_RATER})",
    )
    p.add_argument(
        "--techniques",
        default=None,
        help=f"--order subsets: comma-separated, in order of preference, from "
        f"{', '.join(TECHNIQUES)} (default {','.join(DEFAULT_TECHNIQUES)})",
    )
    p.add_argument(
        "--max-subset",
        type=int,
        default=None,
        metavar="N",
        help="--order subsets: largest subset size (default 4)",
    )
    p.add_argument(
        "--seed",
        type=seed_arg,
        default=None,
        help=(
            "--order subsets: pick singles and oracle cells at random with this seed "
            "(default: the first one); refutation's estimate uses it too (default: a fresh seed)"
        ),
    )
    p.add_argument(
        "--max-level",
        type=int,
        default=None,
        choices=range(MAX_LEVEL + 1),
        metavar="L",
        help="--order subsets: highest refutation level of the chains technique: 0 singles "
        f"inside the assumption, 1 with the subset rule, 2 nested (default {MAX_LEVEL})",
    )
    p.add_argument(
        "--budget",
        type=int,
        default=None,
        metavar="N",
        help="--order subsets: inner hypotheses a nested refutation may try for one step "
        f"before the explanation stops and says so (default {DEFAULT_BUDGET})",
    )
    p.add_argument("--json", action="store_true", help="write the path as JSON")
    p.add_argument(
        "--html",
        metavar="FILE",
        default=None,
        help="also write one self-contained HTML page that steps through the path "
        "(pencil marks before each step, the step marked; one puzzle only)",
    )
    p.add_argument(
        "--svg",
        metavar="DIR",
        default=None,
        help="also write one SVG image per step (step-001.svg, ...) into DIR (one puzzle only)",
    )
    p.add_argument(
        "--indent", type=int_in(0, 16), default=None, help="indent the JSON (one puzzle only)"
    )
    add_geometry_args(p)
    p.set_defaults(func=variant_hook(run_explain))  # f-puzzles inputs: cli/variant_explain.py


def _techniques(text: str) -> tuple[str, ...] | None:
    items = tuple(t.strip() for t in text.split(",") if t.strip())
    if not items or any(t not in TECHNIQUES for t in items):
        return None
    return items


def _readable(path: SePath | SolvePath) -> str:
    """The text form: the se path's own lines; the human model's path between the
    puzzle and how it ended."""
    if isinstance(path, SePath):
        return "\n".join(path.describe())
    p = path.puzzle
    lines = [f"puzzle: {p.to_line()}", format_grid(p), ""]
    lines.extend(path.describe())
    lines.append("")
    counts = ", ".join(f"{k} {v}" for k, v in path.technique_counts().items())
    size = path.max_subset_size
    if path.solved:
        lines.append(
            f"solved in {counted(len(path.steps), 'step')}"
            + (f" (largest subset size {size})" if size else " (singles only)")
            + (f": {counts}" if counts else "")
        )
    else:
        final = Puzzle(path.final if path.final is not None else p.cells, p.geometry)
        left = p.geometry.ncells - final.clue_count
        why = "contradiction" if path.contradiction else "stuck"
        if path.stopped == "budget":
            why = "stopped: the refutation search ran past its budget (--budget)"
        lines.append(
            f"{why} after {counted(len(path.steps), 'step')} with {counted(left, 'cell')} empty"
            + (f": {counts}" if counts else "")
        )
        lines.append(format_grid(final))
    return "\n".join(lines)


#: The paths explain can show (the first is the default).
ORDERS = PATH_ORDERS


def run_explain(args: argparse.Namespace) -> int:
    if args.order not in ORDERS:
        print(
            f"csp-sudoku: error: unknown --order {args.order!r}; choose from {', '.join(ORDERS)}",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    if args.order != "se" and args.rater is not None:
        print(
            f"csp-sudoku: error: --rater {args.rater} sets whose order the se path replays: "
            f"it takes --order se (the default), not --order {args.order}",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    args.rater = DEFAULT_RATER if args.rater is None else args.rater
    if args.rater not in RATERS:
        print(
            f"csp-sudoku: error: unknown --rater {args.rater!r}; choose from {', '.join(RATERS)}",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    # the human model's options: refused for the se path rather than ignored
    model_only = {
        "--techniques": args.techniques,
        "--max-subset": args.max_subset,
        "--max-level": args.max_level,
        "--budget": args.budget,
        "--seed": args.seed,
    }
    given = [flag for flag, value in model_only.items() if value is not None]
    if args.order == "se" and given:
        print(
            f"csp-sudoku: error: {', '.join(given)} set the human model's path: add "
            "--order subsets (the se path takes --rater only)",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    if args.techniques is None:
        args.techniques = ",".join(DEFAULT_TECHNIQUES)
    max_subset = 4 if args.max_subset is None else args.max_subset
    budget = DEFAULT_BUDGET if args.budget is None else args.budget
    max_level = ChainSettings().max_level if args.max_level is None else args.max_level
    order = _techniques(args.techniques)
    if order is None:
        print(
            f"csp-sudoku: error: --techniques takes names from {', '.join(TECHNIQUES)}, "
            f"got {args.techniques!r}",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    if max_subset < 1:
        print("csp-sudoku: error: --max-subset must be at least 1", file=sys.stderr)
        return EXIT_BAD_INPUT
    if budget < 1:
        print("csp-sudoku: error: --budget must be at least 1", file=sys.stderr)
        return EXIT_BAD_INPUT
    refusal = svg_refusal(args)
    if refusal is not None:
        print(f"csp-sudoku: error: {refusal}", file=sys.stderr)
        return EXIT_BAD_INPUT
    settings = ChainSettings(max_level=max_level, budget=budget)
    code = EXIT_OK
    bad = False  # a bad line met: exit 2 whatever else comes
    first = True
    entries: Iterable[Entry] = iter_entries(args.inputs, geometry_from_args(args))
    if one_puzzle_options(args):  # all read first: refused before anything is written
        entries = list(entries)
        several = one_puzzle_refusal(args, len(entries))
        if several is not None:
            print(f"csp-sudoku: error: {several}", file=sys.stderr)
            return EXIT_BAD_INPUT
    # one note for the run while numba compiles (a first run on a machine)
    with noting_compiles("explain", "the solving kernels"):
        for e in entries:
            if e.puzzle is None:  # a bad line: said, and the puzzles around it explained
                print(f"csp-sudoku: error: {e.error}", file=sys.stderr)
                code, bad = EXIT_BAD_INPUT, True
                continue
            clashes = e.puzzle.clashes()
            n = 0 if clashes else count_solutions(e.puzzle, limit=2)
            if n != 1:
                what = "no solution" if n == 0 else "more than one solution"
                if clashes:
                    what += f" ({clashes[0]})"
                print(
                    f"csp-sudoku: {e.source}:{e.line}: the puzzle has {what}; "
                    "no logical explanation exists",
                    file=sys.stderr,
                )
                code = code if bad else EXIT_NOT_ALL
                continue
            path: SePath | SolvePath
            if args.order == "se":
                from csp_sudoku.metrics._helper import start_nested_helper

                start_nested_helper(e.puzzle.geometry)  # cold: SE's largest kernel beside this
                # a budget stop keeps its steps: shown, then said
                path = explained_path(e.puzzle, "se", rater=args.rater)
            else:
                rng = as_generator(args.seed) if args.seed is not None else None
                path = solve_path(e.puzzle, order, max_subset=max_subset, rng=rng, chains=settings)
            if not path.solved and not bad:
                code = EXIT_NOT_ALL
            if args.html or args.svg:
                why = draw_path(args, path)
                if why is not None:
                    print(f"csp-sudoku: error: {why}", file=sys.stderr)
                    return EXIT_BAD_INPUT
            show_path(args, path, partial(_readable, path), first)
            first = False
    if first and code == EXIT_OK and not bad:  # no entry: an empty file, comments only
        print("csp-sudoku: error: no puzzles found in the input", file=sys.stderr)
        return EXIT_BAD_INPUT
    return code
