"""``csp-sudoku explain``: a puzzle's solve path, step by step.

By default the se path (``--order se``): the replay of Sudoku Explainer's
order that ``rate --metric se`` rates, so the hardest step shown is the
rating; ``--order subsets`` shows the human model's path. Readable by default
(technique, difficulty, placements and eliminations, the pattern and chain);
``--json`` writes the object documented in docs/explain_schema.md (one JSON
object per line when several puzzles are given); ``--html`` / ``--svg`` draw it.
Plain and variant puzzles may come in one run, each explained by its own path
(:func:`explain_each`, :func:`run_mixed_explain`; variant ones by
:mod:`csp_sudoku.cli.variant_explain`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
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
    one_puzzle_options,
    one_puzzle_refusal,
    shown,
    svg_refusal,
)
from csp_sudoku.cli.variant_explain import MAX_SUBSET as VARIANT_MAX_SUBSET
from csp_sudoku.cli.variant_explain import options_refusal, show_variant, variant_path
from csp_sudoku.cli.variants import Item, routed, variant_item
from csp_sudoku.core.io import Entry, counted, format_grid
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.core.seeds import as_generator
from csp_sudoku.human.chains import DEFAULT_BUDGET, MAX_LEVEL, ChainSettings
from csp_sudoku.human.path import DEFAULT_TECHNIQUES, TECHNIQUES, SolvePath, solve_path
from csp_sudoku.metrics.se import DEFAULT_RATER, PATH_ORDERS, RATERS, SePath
from csp_sudoku.metrics.se import solve_path as explained_path

#: The largest subset size ``--max-subset`` takes on the human model's path: the
#: named subsets end at 4 (quads, Jellyfish); mixed ones up to 7 still turn up on
#: hard 9x9 puzzles, while each size more costs several times the one before (a
#: hard 9x9 at 9 took 23 s where 8 took 7 s, a 16x16 at 8 some 13 s).
MAX_SUBSET = 8
#: The default of ``--max-subset`` on the human model's path.
DEFAULT_MAX_SUBSET = 4


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
        type=int_in(0, MAX_SUBSET, "a subset size"),
        default=None,
        metavar="N",
        help=f"--order subsets: largest subset size, 1 to {MAX_SUBSET} (default "
        f"{DEFAULT_MAX_SUBSET}); a variant puzzle's path: 0 to {VARIANT_MAX_SUBSET} "
        "(default 2)",
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
        "(pencil marks before each step, the step marked; one puzzle only; '-': the page "
        "on standard output, in place of the text)",
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
    # an f-puzzles input: every entry by its own path (variant ones: cli/variant_explain.py)
    p.set_defaults(func=routed(run_explain, run_mixed_explain))


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
    if path.solved:
        lines.append(
            f"solved in {counted(len(path.steps), 'step')} ({_hardest(path)})"
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


def _hardest(path: SolvePath) -> str:
    """What a solved path needed beyond singles, hardest family last: its largest
    subset size, its highest chain level, refutation and oracle steps; ``singles
    only`` only when every step is a single (the label once read the subset size
    alone, and called a path of chains or oracle steps "singles only")."""
    kinds = {s.kind for s in path.steps}
    parts = []
    if path.max_subset_size:
        parts.append(f"largest subset size {path.max_subset_size}")
    if path.max_level >= 0:
        parts.append(f"highest chain level {path.max_level}")
    parts += [kind for kind in ("refutation", "oracle") if kind in kinds]
    return ", ".join(parts) or "singles only"


#: The paths explain can show (the first is the default).
ORDERS = PATH_ORDERS


@dataclass(frozen=True)
class Plan:
    """The classic path ``explain`` shows, its options checked (:func:`plan`).

    Attributes:
        order: ``se`` or ``subsets``.
        rater: whose order the se path replays.
        techniques: the human model's technique families, in order of preference.
        max_subset: the human model's largest subset size.
        seed: the human model's seed (None: the first single, a fresh estimate).
        chains: the human model's chain settings (level, budget).
    """

    order: str
    rater: str
    techniques: tuple[str, ...]
    max_subset: int
    seed: int | None
    chains: ChainSettings


def plan(args: argparse.Namespace) -> Plan | str:
    """The classic path the options ask for, or why they are refused."""
    if args.order not in ORDERS:
        return f"unknown --order {args.order!r}; choose from {', '.join(ORDERS)}"
    if args.order != "se" and args.rater is not None:
        return (
            f"--rater {args.rater} sets whose order the se path replays: "
            f"it takes --order se (the default), not --order {args.order}"
        )
    rater = DEFAULT_RATER if args.rater is None else args.rater
    if rater not in RATERS:
        return f"unknown --rater {rater!r}; choose from {', '.join(RATERS)}"
    # the human model's options: refused for the se path rather than ignored
    given = model_options(args)
    if args.order == "se" and given:
        return (
            f"{', '.join(given)} set the human model's path: add "
            "--order subsets (the se path takes --rater only)"
        )
    text = ",".join(DEFAULT_TECHNIQUES) if args.techniques is None else args.techniques
    order = _techniques(text)
    if order is None:
        return f"--techniques takes names from {', '.join(TECHNIQUES)}, got {text!r}"
    max_subset = DEFAULT_MAX_SUBSET if args.max_subset is None else args.max_subset
    if max_subset < 1:
        return f"--max-subset must be from 1 to {MAX_SUBSET} with --order subsets, got {max_subset}"
    budget = DEFAULT_BUDGET if args.budget is None else args.budget
    if budget < 1:
        return "--budget must be at least 1"
    max_level = ChainSettings().max_level if args.max_level is None else args.max_level
    chains = ChainSettings(max_level=max_level, budget=budget)
    return Plan(args.order, rater, order, max_subset, args.seed, chains)


def model_options(args: argparse.Namespace) -> list[str]:
    """The human model's options given (each refused on the se path)."""
    values = {
        "--techniques": args.techniques,
        "--max-subset": args.max_subset,
        "--max-level": args.max_level,
        "--budget": args.budget,
        "--seed": args.seed,
    }
    return [flag for flag, value in values.items() if value is not None]


def explain_plain(puzzle: Puzzle, where: str, how: Plan) -> tuple[int, SePath | SolvePath | None]:
    """The path of one plain puzzle (``where``: its ``FILE:LINE``), with the exit code
    it gives the run: 0, or 1 when it has no or several solutions (said on stderr;
    no path: no proof exists) or its path does not solve it."""
    clashes = puzzle.clashes()
    n = 0 if clashes else count_solutions(puzzle, limit=2)
    if n != 1:
        what = "no solution" if n == 0 else "more than one solution"
        if clashes:
            what += f" ({clashes[0]})"
        print(
            f"csp-sudoku: {where}: the puzzle has {what}; no logical explanation exists",
            file=sys.stderr,
        )
        return EXIT_NOT_ALL, None
    path: SePath | SolvePath
    if how.order == "se":
        from csp_sudoku.metrics._helper import start_nested_helper

        start_nested_helper(puzzle.geometry)  # cold: SE's largest kernel beside this
        # a budget stop keeps its steps: shown, then said
        path = explained_path(puzzle, "se", rater=how.rater)
    else:
        rng = as_generator(how.seed) if how.seed is not None else None
        path = solve_path(
            puzzle, how.techniques, max_subset=how.max_subset, rng=rng, chains=how.chains
        )
    return (EXIT_OK if path.solved else EXIT_NOT_ALL), path


def show_plain(args: argparse.Namespace, path: SePath | SolvePath, first: bool) -> str | None:
    """Draw and print a plain puzzle's path (:func:`csp_sudoku.cli._explained.shown`);
    why a drawing could not be written, or None."""
    return shown(args, path, partial(_readable, path), first, lambda: path)


#: One entry of an explain run: where it is (``FILE:LINE``), and a plain puzzle, a
#: variant entry (its puzzle, or why it cannot be read) or why a line cannot be read.
Task = tuple[str, Puzzle | Item | str]


def explain_each(
    args: argparse.Namespace, tasks: Iterable[Task], how: Plan | str, prefix: str
) -> tuple[int, bool]:
    """Explain every task by its own path and print each path: a plain puzzle by
    ``how`` (or, where ``how`` says why plain puzzles are refused, that and exit 2),
    a variant entry by :func:`csp_sudoku.cli.variant_explain.variant_path`.

    The loop of the classic run and of the variant one (``prefix`` starts their
    messages). Returns the exit code and whether a path was shown; a drawing
    that cannot be written ends the run at once (exit 2, said).
    """
    code = EXIT_OK
    first = True
    for where, task in tasks:
        if isinstance(task, str):  # a bad line: said, and the puzzles around it explained
            print(f"{prefix}: error: {task}", file=sys.stderr)
            code = EXIT_BAD_INPUT
            continue
        why: str | None = None
        if isinstance(task, Puzzle):
            if isinstance(how, str):
                print(f"{prefix}: error: {where}: {how}", file=sys.stderr)
                code = EXIT_BAD_INPUT
                continue
            done, path = explain_plain(task, where, how)
            done_one = path is not None
            if path is not None:
                why = show_plain(args, path, first)
        else:
            done, variant = variant_path(args, task)
            done_one = variant is not None
            if variant is not None:
                why = show_variant(args, variant, where, first)
        if why is not None:
            print(f"{prefix}: error: {why}", file=sys.stderr)
            return EXIT_BAD_INPUT, not first
        code = max(code, done)
        first = first and not done_one
    return code, not first


def _tasks(entries: Iterable[Entry]) -> Iterator[Task]:
    """The tasks of the plain reader's entries: a variant entry met among them
    (standard input whose first entry is plain) is explained as one."""
    for e in entries:
        where = f"{e.source}:{e.line}"
        if e.puzzle is not None:
            yield where, e.puzzle
        elif (item := variant_item(e)) is not None:
            yield where, item
        else:
            yield where, str(e.error)


def run_explain(args: argparse.Namespace) -> int:
    """Explain every puzzle of ``args.inputs`` (all plain, or standard input whose
    first entry is plain: a variant entry met there is explained by its own path);
    the exit code."""
    how = plan(args)
    refusal = how if isinstance(how, str) else svg_refusal(args)
    if refusal is not None:
        print(f"csp-sudoku: error: {refusal}", file=sys.stderr)
        return EXIT_BAD_INPUT
    entries: Iterable[Entry] = iter_entries(args.inputs, geometry_from_args(args))
    if one_puzzle_options(args):  # all read first: refused before anything is written
        entries = list(entries)
        several = one_puzzle_refusal(args, len(entries))
        if several is not None:
            print(f"csp-sudoku: error: {several}", file=sys.stderr)
            return EXIT_BAD_INPUT
    # one note for the run while numba compiles (a first run on a machine)
    with noting_compiles("explain", "the solving kernels"):
        code, any_shown = explain_each(args, _tasks(entries), how, "csp-sudoku")
    if not any_shown and code == EXIT_OK:  # no entry: an empty file, comments only
        print("csp-sudoku: error: no puzzles found in the input", file=sys.stderr)
        return EXIT_BAD_INPUT
    return code


def _mixed_refused(args: argparse.Namespace) -> str | None:
    """Why the options do not fit a run with variant inputs (or an input file is
    missing), or None."""
    from csp_sudoku.cli.variants import grid_options_refusal, is_variant_input, missing_input

    why = (
        options_refusal(args)
        or svg_refusal(args)
        or grid_options_refusal(args, args.inputs)
        or missing_input(args.inputs, plain=True)
    )
    named_plain = [i for i in args.inputs if not is_variant_input(i)]
    if why is None and named_plain and (plain := plain_refusal(args)) is not None:
        return f"{named_plain[0]}: {plain}"
    return why


def plain_refusal(args: argparse.Namespace) -> str | None:
    """Why plain puzzles cannot be explained beside variant ones, or None: they get
    the se path, which takes none of the human model's options (``--max-subset`` and
    ``--budget`` given are the variant path's)."""
    given = model_options(args)
    if not given:
        return None
    return (
        "plain puzzles beside variant ones are explained by the se path, which takes no "
        f"{' or '.join(given)} (a variant puzzle's path does): explain them in a run of "
        "their own"
    )


def run_mixed_explain(args: argparse.Namespace) -> int:
    """``explain`` where an input is a variant one: every puzzle of ``args.inputs``,
    each by its own path (a plain one beside them by the se path); the exit code."""
    from csp_sudoku.cli.variants import read_inputs

    refused = _mixed_refused(args)
    if refused is not None:
        print(f"csp-sudoku explain: error: {refused}", file=sys.stderr)
        return EXIT_BAD_INPUT
    puzzles = list(read_inputs(args.inputs, geometry=geometry_from_args(args), plain=True))
    several = one_puzzle_refusal(args, len(puzzles))
    if several is not None:
        print(f"csp-sudoku explain: error: {several}", file=sys.stderr)
        return EXIT_BAD_INPUT
    tasks = ((f"{i.source}:{i.line}", i if i.plain is None else i.plain) for i in puzzles)
    code, _ = explain_each(args, tasks, plain_refusal(args) or plan(args), "csp-sudoku explain")
    if not puzzles:
        print("csp-sudoku explain: error: no puzzles found in the input", file=sys.stderr)
        return EXIT_BAD_INPUT
    return code
