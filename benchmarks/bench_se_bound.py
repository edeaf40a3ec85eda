"""The ``se`` bound from one search against the thorough quick test run tenth by tenth.

The whole-vicinity search puts a neighbour whose score lies a tenth or more
below the best met on its frontier unrated, at a bound on its ER
(docs/generators.md, "Plateau states bounded, not rated"). That bound is the
least tenth from ``--low`` up to ``--top`` that the thorough quick test
(``rated_within(p, limit, forcing=True)``) clears. This compares the two ways
of finding it:

1. **scan**: the test at ``--top``, then a tenth lower while it still clears
   (what a caller of ``rated_within`` alone would run);
2. **bound**: ``rated_bound(p, low, top)``, one search that starts at ``low``
   and raises its limit to the least chain its nets found only where nothing
   within the limit acts.

What the whole-vicinity search saves is the third way, the full rating
(``rate(p, "se")``), timed too. All three run in one process, alternating
puzzle by puzzle (the two tests in each order half the time, each given the
puzzle's solution), on two sets: the SE calibration
puzzles rated 8.3-9.9, and up to ``--per-puzzle`` unique {-1+1} neighbours
(made minimal) of each calibration puzzle rated 9.0-9.9, the states a
whole-vicinity search bounds. Prints, per set: puzzles, how many got the same
answer (the same tenth, or none from both), how many a bound, the summed CPU
time of each way, the scan's over the bound's and the rating's over the
bound's.

    taskset -c 0 .venv/bin/python benchmarks/bench_se_bound.py
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _common import one_core  # a sibling script (its folder is on sys.path)
from bench_quick_solution import _rated  # a sibling script (its folder is on sys.path)

import csp_sudoku as cs
from csp_sudoku.api import Checker
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.generators.vicinity import neighbours
from csp_sudoku.metrics.se import rated_bound, rated_within


def scan(p: cs.Puzzle, low: float, top: float, sol: cs.Puzzle) -> float | None:
    """The least tenth from ``low`` to ``top`` the thorough test clears, going down."""
    if not rated_within(p, top, forcing=True, solution=sol):
        return None
    got = top
    while got - 0.1 >= low - 1e-9 and rated_within(p, round(got - 0.1, 1), True, sol):
        got = round(got - 0.1, 1)
    return got


def compare(
    puzzles: list[tuple[cs.Puzzle, cs.Puzzle]], low: float, top: float
) -> tuple[int, int, int, float, float, float]:
    """(puzzles, same answers, bounded, seconds of the scan, of the bound, of the
    full rating)."""
    same = bounded = 0
    spent = [0.0, 0.0, 0.0]
    for i, (p, sol) in enumerate(puzzles):
        got: list[float | None] = [None, None]
        for way in (0, 1) if i % 2 else (1, 0):
            c0 = time.process_time()
            got[way] = scan(p, low, top, sol) if way == 0 else rated_bound(p, low, top, sol)
            spent[way] += time.process_time() - c0
        same += got[0] == got[1]
        bounded += got[1] is not None
        c0 = time.process_time()
        cs.rate(p, "se")
        spent[2] += time.process_time() - c0
    return len(puzzles), same, bounded, spent[0], spent[1], spent[2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--low", type=float, default=8.6)
    ap.add_argument("--top", type=float, default=9.6)
    ap.add_argument("--per-puzzle", type=int, default=20, help="neighbours of each 9.0-9.9 puzzle")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    one_core()  # the figures are per core
    g = Geometry.standard(9)
    rng = np.random.default_rng(args.seed)
    calibration, near = [], []
    with Checker(g) as chk:
        for line in _rated(8.3, 9.9):
            p = cs.parse(line)
            sol = chk.solve(p)
            if sol is not None:
                calibration.append((p, sol))
        for line in _rated(9.0, 9.9):
            clues = np.asarray(cs.parse(line).cells, dtype=np.int8)
            for k, (c, cells) in enumerate(neighbours(clues, g, chk, rng)):
                if k >= args.per_puzzle:
                    break
                near.append((cs.Puzzle(c, g), cs.Puzzle(cells, g)))
    compare(calibration[:2], args.low, args.top)  # compile
    print(f"bounds from {args.low:g} to {args.top:g}, the thorough quick test")
    head = f"{'set':<34} {'puzzles':>7} {'same':>6} {'bounded':>7} {'scan s':>7} {'bound s':>7}"
    print(f"{head} {'rate s':>7} scan/bound rate/bound")
    for name, puzzles in (
        ("SE calibration, ER 8.3-9.9", calibration),
        ("whole-vicinity neighbours", near),
    ):
        n, same, bounded, scanned, bound, rated = compare(puzzles, args.low, args.top)
        print(
            f"{name:<34} {n:>7} {same:>6} {bounded:>7} {scanned:>7.2f} {bound:>7.2f}"
            f" {rated:>7.2f} {scanned / bound:>9.2f}x {rated / bound:>9.2f}x"
        )


if __name__ == "__main__":
    main()
