"""The ``se`` quick test with and without the solution's nets left out, or
with its contradictions found by ancestor sets or by walking parent lists.

The quick test (``rated_within``; docs/generators.md, "The quick test") nets
live candidates, each assumed placed, and removes those that contradict. The
net of a candidate the solution holds cannot contradict, so the test now
finds the solution first (one compiled solver call) and nets only the other
candidates of each chunk: the same verdicts, fewer and shorter nets.

``--versions walk`` compares instead how the nets' contradictions are
counted (both with the solution): each record's ancestor set, copied and
merged as the net grows, against parent lists walked only at a contradiction
(:func:`csp_sudoku._kernels.se_chains._dynamic_contradictions`); ``--deep``
runs the thorough form (with the dynamic cell and region forcing chains), as
the whole-vicinity search does.

Both versions run in one process, alternating puzzle by puzzle (each order
half the time), on two sets at several limits:

1. **SE calibration**: the puzzles of both calibration files rated 8.3-9.9;
2. **whole-vicinity neighbours**: up to 60 unique {-1+1} neighbours (made
   minimal, :func:`csp_sudoku.generators.vicinity.neighbours`) of each
   calibration puzzle rated 9.0-9.9: the states a whole-vicinity search tests.

Prints, per set: tests, same verdicts, cleared, the summed CPU time of each
version (the new one's includes finding the solution) and their ratio.

    taskset -c 0 .venv/bin/python benchmarks/bench_quick_solution.py
    taskset -c 0 .venv/bin/python benchmarks/bench_quick_solution.py --versions walk --deep
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import reference
from _common import one_core  # a sibling script (its folder is on sys.path)

import csp_sudoku as cs
from csp_sudoku.api import Checker
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.generators.vicinity import neighbours
from csp_sudoku.human.se_order import _settled
from csp_sudoku.human.state import CandidateState, solution_mask

FILES = ("se_calibration_top1465.tsv", "se_calibration.tsv")


def _rated(lo: float, hi: float) -> list[str]:
    """The calibration puzzles SE rated ``lo`` to ``hi``."""
    out = []
    for name in FILES:
        out += [r["puzzle"] for r in reference.rows(name) if lo <= float(r["ER"]) <= hi]
    return out


def _compare(
    puzzles: list[cs.Puzzle], limits: list[float], walk: bool, deep: bool
) -> tuple[int, int, int, float, float]:
    """(tests, same verdicts, cleared, seconds of the old version, of the new):
    ``walk`` False: without, with the solution; True: by ancestor sets, by
    walks (both with it, its search timed)."""
    same = cleared = 0
    spent = [0.0, 0.0]
    for i, p in enumerate(puzzles):
        for lim in limits:
            got = [False, False]
            for version in (0, 1) if i % 2 else (1, 0):
                c0 = time.process_time()
                sol = solution_mask(p) if version or walk else None
                state = CandidateState.from_puzzle(p)
                got[version] = _settled(state, lim, sol, deep, walk=bool(version) or not walk)
                spent[version] += time.process_time() - c0
            same += got[0] == got[1]
            cleared += got[1]
    return len(puzzles) * len(limits), same, cleared, spent[0], spent[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limits", type=float, nargs="+", default=[9.0, 9.2, 9.4])
    ap.add_argument("--per-puzzle", type=int, default=60, help="neighbours of each 9.0-9.9 puzzle")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--versions", choices=("solution", "walk"), default="solution")
    ap.add_argument("--deep", action="store_true", help="the thorough form")
    args = ap.parse_args()
    one_core()  # the figures are per core
    walk = args.versions == "walk"
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
    for w in (False, True):  # compile
        _settled(
            CandidateState.from_puzzle(calibration[0]),
            9.0,
            solution_mask(calibration[0]),
            args.deep,
            walk=w,
        )
    old, new = ("sets s", "walk s") if walk else ("all nets s", "skip s")
    print(f"{'set':<34} {'tests':>6} {'same':>6} {'cleared':>7} {old:>10} {new:>7} ratio")
    for name, puzzles in (
        ("SE calibration, ER 8.3-9.9", calibration),
        ("whole-vicinity neighbours", near),
    ):
        n, same, cleared, before, after = _compare(puzzles, args.limits, walk, args.deep)
        print(
            f"{name:<34} {n:>6} {same:>6} {cleared:>7} {before:>10.2f} {after:>7.2f} {before / after:.2f}x"
        )


if __name__ == "__main__":
    main()
