"""``csp-sudoku compile``: build the 9x9 ``check`` kernels ahead of time.

``check`` counts standard 9x9 puzzles with compiled kernels. Built ahead of
time (by numba's ahead-of-time compiler, into one extension module), they
load in about a millisecond; without them every run that counts more than a
few puzzles starts numba first (about 0.35 s, and tens of seconds of
compiling on a machine's first run). The answers are the same either way.
``scripts/setup.sh`` runs this command. Building needs a C compiler and
setuptools, and takes 5-10 s; the module is kept in ``$CSP_SUDOKU_KERNEL_DIR`` (default
``~/.cache/csp_sudoku``) and used while the kernels' sources, Python, numpy
and the processor are those it was built for. A SHA-256 digest is kept
beside it: a module whose bytes do not match (damaged, truncated, replaced)
is never loaded; ``--status`` says so, and this command builds it again.
Building needs setuptools at run time (``pip install 'csp_sudoku[compile]'``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from csp_sudoku.cli import EXIT_NOT_ALL, EXIT_OK
from csp_sudoku.cli._common import JOBS, command_parser

if TYPE_CHECKING:
    from csp_sudoku.core.names import MetricName


def register(sub: Any) -> None:
    p = command_parser(
        sub,
        "compile",
        "build the 9x9 check kernels ahead of time (a faster start for check)",
        __doc__,
    )
    p.add_argument(
        "--status",
        action="store_true",
        help="only say whether a module for these sources is built (exit 1 if not)",
    )
    p.add_argument("--force", action="store_true", help="build again even if one is built")
    p.add_argument(
        "--warm",
        action="store_true",
        help="also fill numba's cache with the kernels of the metrics, the human model's path, "
        "the 9x9 generators, the variant search and counting on other shapes (about 2 min of "
        "compiling the first time on two cores, a few seconds once cached), so a first "
        "`rate --metric se` or `generate` starts at once",
    )
    p.add_argument(
        "--jobs",
        "-j",
        type=JOBS,
        default=len(WARM_PARTS),
        help=f"--warm: compile in this many processes (default {len(WARM_PARTS)}, one a part, the "
        "most that helps; 0 = every core; never more than the cores; 1 = here, one part after "
        "the other)",
    )
    p.set_defaults(func=run)


#: The puzzle ``--warm`` rates: one of the hardest known, whose rating reaches SE's
#: chains nested at level 3, so that it runs, and numba compiles, nearly every
#: kernel of the se metric.
WARM_PUZZLE = "........7..2..96..8...6...3....92.....46..5...1..54.....5.4.9...3.....7.1.......8"


def run(args: argparse.Namespace) -> int:
    code = _build(args)
    if args.warm and not args.status:
        from csp_sudoku.core.parallel import ordered_map

        started = time.perf_counter()
        # a process a part: the se rating's largest kernel alone takes some 50 s to compile,
        # the se part about 78 s, the others about 68, 22 and 30 s (3.3 min one after the
        # other, 1.9 min on two cores: benchmarks/results/compile_warm.md); numba's cache
        # is written atomically, so a kernel one process cached is loaded, not compiled,
        # by the others
        jobs = min(args.jobs or len(WARM_PARTS), len(WARM_PARTS))
        score, *_ = ordered_map(_warm, [(part,) for part in WARM_PARTS], jobs=jobs)
        print(
            f"warmed: numba's kernels of the se metric (a puzzle rated {score}), of the "
            f"other metrics, of the human model's path and of the generators, the hard-end "
            f"search's included, in "
            f"{time.perf_counter() - started:.1f} s"
        )
    return code


def _warm(part: str) -> str:
    """Run the kernels of one of :data:`WARM_PARTS` once, so that numba compiles and
    caches them; the se part returns the rating's score as printed, the others ""."""
    return _WARMERS[part]()


def _warm_se() -> str:
    from csp_sudoku.metrics import rate

    return f"{rate(WARM_PUZZLE, 'se').score:g}"


def _warm_others() -> str:
    """The other metrics, the generator's quick test and move, the human model's path,
    a plain minimal generation."""
    import numpy as np

    from csp_sudoku.api import as_puzzle, solve
    from csp_sudoku.generators import generate
    from csp_sudoku.generators.minimal import move9
    from csp_sudoku.human.path import solve_path as model_path
    from csp_sudoku.metrics import METRICS, rate
    from csp_sudoku.metrics.se import rated_within

    puzzle = as_puzzle(WARM_PUZZLE)
    rated_within(puzzle, 9.0)  # the generator's quick test, a kernel of its own
    solution = solve(puzzle)
    if solution is not None:  # the move of the search at the hard end (--level extreme)
        move9(puzzle.cells, solution.cells, np.random.default_rng(0))
    model_path(puzzle)  # the human model's path (explain --order subsets), chains included
    for metric in METRICS:
        if metric not in ("se", "combined"):  # combined: se's and the others' kernels
            rate(WARM_PUZZLE, cast("MetricName", metric))
    list(generate(2, minimal=True, seed=0))
    return ""


def _warm_variants() -> str:
    """The variant kernels: counting, candidates, their rating."""
    from csp_sudoku import variants
    from csp_sudoku.variants.random import random_variant
    from csp_sudoku.variants.rating import rate_variant

    made = random_variant(0, ("killercage", "thermometer", "arrow"))
    variants.count(made.puzzle, 2, backend="fast")
    variants.candidates(made.puzzle, backend="fast")
    rate_variant(made.puzzle)
    return ""


def _warm_shapes() -> str:
    """The counting kernels on a 9x9 puzzle's read-only cells and on a plain array (numba
    compiles each kind of array apart), on the other shapes, one by one and in a batch;
    the canonical form; a bank's facts of a puzzle added; the minimality check (``bank add``,
    ``is_minimal``, a generator's output)."""
    import numpy as np

    from csp_sudoku.api import as_puzzle, count_many, count_solutions, is_minimal, solve
    from csp_sudoku.core.geometry import Geometry
    from csp_sudoku.core.puzzle import Puzzle
    from csp_sudoku.tools.bank import PuzzleBank
    from csp_sudoku.tools.canonical import canonical_key

    puzzle = as_puzzle(WARM_PUZZLE)
    for form in (puzzle, puzzle.cells.copy()):
        solve(form)
        count_solutions(form)
        canonical_key(form)
    is_minimal(puzzle)
    for geometry in (Geometry.standard(4), Geometry.standard(6), Geometry.x_sudoku(9)):
        empty = np.zeros(geometry.ncells, dtype=np.int8)
        for form in (Puzzle(empty, geometry), empty):
            solve(form, geometry=geometry)
            count_solutions(form, geometry=geometry)
        count_many(np.zeros((2, geometry.ncells), dtype=np.int8), geometry=geometry)
    with PuzzleBank() as bank:  # in memory
        bank.add_many([puzzle])
    return ""


#: What ``--warm`` compiles, in parts run in worker processes, and what runs each: "se"
#: and "others" take about as long (some 70 s each); where the machine has two cores,
#: "variants" (the variant kernels, about 20 s) follows the first to end and "shapes"
#: (counting on other shapes and on plain arrays, canonical forms, a bank's facts) the
#: second.
_WARMERS: dict[str, Callable[[], str]] = {
    "se": _warm_se,
    "others": _warm_others,
    "variants": _warm_variants,
    "shapes": _warm_shapes,
}
WARM_PARTS = tuple(_WARMERS)


def _build(args: argparse.Namespace) -> int:
    """The module built ahead of time: its status, or built when missing, damaged or --force."""
    from csp_sudoku._kernels import ahead

    path = ahead.built_path()
    damaged = ahead.damage(path) if path.is_file() else None
    if args.status or (path.is_file() and damaged is None and not args.force):
        if not path.is_file():
            print(f"not built: {path} (run `csp-sudoku compile`)")
            return EXIT_NOT_ALL
        if damaged is not None:  # never loaded: it could crash this process
            print(f"damaged: {path} ({damaged}; run `csp-sudoku compile` to build it again)")
            return EXIT_NOT_ALL
        state = "in use" if ahead.module() is not None else f"not loadable ({ahead.USE_ENV}=0?)"
        print(f"built: {path} ({state})")
        return EXIT_OK
    if damaged is not None:
        print(f"csp-sudoku: {path} is damaged ({damaged}); building it again", file=sys.stderr)
    started = time.perf_counter()
    try:
        ahead.build()
    except Exception as err:  # no C compiler or setuptools, a numba without pycc, a full disk
        if isinstance(err, ImportError) and "setuptools" in f"{err.name} {err}":
            why = "numba's compiler needs setuptools: pip install 'csp_sudoku[compile]'"
        else:
            why = f"{type(err).__name__}: {err}"
        print(
            f"csp-sudoku: could not build the kernels ahead of time ({why}); "
            "check still works, with numba's kernels",
            file=sys.stderr,
        )
        return EXIT_NOT_ALL
    print(f"built: {path} in {time.perf_counter() - started:.1f} s")
    return EXIT_OK
