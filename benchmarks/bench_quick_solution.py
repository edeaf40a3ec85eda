"""The ``se`` quick test with and without the solution's nets left out.

The quick test (``rated_within``; docs/generators.md, "The quick test") nets
live candidates, each assumed placed, and removes those that contradict. The
net of a candidate the solution holds cannot contradict, so the test now
finds the solution first (one compiled solver call) and nets only the other
candidates of each chunk: the same verdicts, fewer and shorter nets.

Both versions run in one process, alternating puzzle by puzzle (each order
half the time), on two sets at several limits:

1. **SE calibration**: the puzzles of both calibration files rated 8.3-9.9;
2. **whole-vicinity neighbours**: up to 60 unique {-1+1} neighbours (made
   minimal, :func:`csp_sudoku.generators.vicinity.neighbours`) of each
   calibration puzzle rated 9.0-9.9: the states a whole-vicinity search tests.

Prints, per set: tests, same verdicts, cleared, the summed CPU time of each
version (the new one's includes finding the solution) and their ratio.

    taskset -c 0 .venv/bin/python benchmarks/bench_quick_solution.py
"""

from __future__ import annotations

import argparse
import csv
import os
import time
from pathlib import Path

import numpy as np

import csp_sudoku as cs
from csp_sudoku.api import Checker
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.generators.vicinity import neighbours
from csp_sudoku.human.se_order import _settled
from csp_sudoku.human.state import CandidateState, solution_mask

DATA = Path(os.environ.get("CSP_SUDOKU_SHARED_DATA", Path(__file__).parents[2] / "shared" / "data"))
FILES = ("se_calibration_top1465.tsv", "se_calibration.tsv")


def _rated(lo: float, hi: float) -> list[str]:
    """The calibration puzzles SE rated ``lo`` to ``hi``."""
    out = []
    for name in FILES:
        with open(DATA / name, newline="") as f:
            out += [
                r["puzzle"] for r in csv.DictReader(f, delimiter="\t") if lo <= float(r["ER"]) <= hi
            ]
    return out


def _compare(puzzles: list[cs.Puzzle], limits: list[float]) -> tuple[int, int, int, float, float]:
    """(tests, same verdicts, cleared, seconds without, seconds with the solution)."""
    same = cleared = 0
    spent = [0.0, 0.0]
    for i, p in enumerate(puzzles):
        for lim in limits:
            got = [False, False]
            for version in (0, 1) if i % 2 else (1, 0):
                c0 = time.process_time()
                sol = solution_mask(p) if version else None
                got[version] = _settled(CandidateState.from_puzzle(p), lim, sol)
                spent[version] += time.process_time() - c0
            same += got[0] == got[1]
            cleared += got[1]
    return len(puzzles) * len(limits), same, cleared, spent[0], spent[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limits", type=float, nargs="+", default=[9.0, 9.2, 9.4])
    ap.add_argument("--per-puzzle", type=int, default=60, help="neighbours of each 9.0-9.9 puzzle")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    g = Geometry.standard(9)
    calibration = [cs.parse(p) for p in _rated(8.3, 9.9)]
    rng = np.random.default_rng(args.seed)
    near = []
    with Checker(g) as chk:
        for p in _rated(9.0, 9.9):
            clues = np.asarray(cs.parse(p).cells, dtype=np.int8)
            for k, (c, _sol) in enumerate(neighbours(clues, g, chk, rng)):
                if k >= args.per_puzzle:
                    break
                near.append(cs.Puzzle(c, g))
    _settled(
        CandidateState.from_puzzle(calibration[0]), 9.0, solution_mask(calibration[0])
    )  # compile
    print(
        f"{'set':<34} {'tests':>6} {'same':>6} {'cleared':>7} {'all nets s':>10} {'skip s':>7} ratio"
    )
    for name, puzzles in (
        ("SE calibration, ER 8.3-9.9", calibration),
        ("whole-vicinity neighbours", near),
    ):
        n, same, cleared, before, after = _compare(puzzles, args.limits)
        print(
            f"{name:<34} {n:>6} {same:>6} {cleared:>7} {before:>10.2f} {after:>7.2f} {before / after:.2f}x"
        )


if __name__ == "__main__":
    main()
