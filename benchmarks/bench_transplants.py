"""Do a hard puzzle's pattern or half its clues carry its difficulty to a new grid?

A design for a climb that starts every find on a fresh grid: instead of a
random minimal puzzle, start from a *transplant* of a hard puzzle ``P``, a
puzzle of another family (another solution grid, fewer than half of ``P``'s
clues shared) that keeps part of what made ``P`` hard:

* ``core``: a random ``--share`` of ``P``'s clues (just under half by default),
  moved by a random isomorphism; completed to the first solution grid the
  solver finds, made unique by adding that grid's digits where a second
  solution differs, then minimal (random-order removal);
* ``pattern``: ``P``'s clue pattern (the cells, moved by a random
  isomorphism) filled from a fresh random grid, made unique and minimal the
  same way (the forum's "patterns game" seeds a search this way);
* ``pattern+core``: the pattern, with the core's digits kept and the other
  pattern cells filled from the core's completion;
* ``random``: the baseline, random minimal puzzles (RG2), in the same process.

Each is rated with SE's ER (the search's rating parameters); the table gives
the share of each at ER 8 and above and above 9 (SE extreme), and the CPU
time a start costs. The hard puzzles are the forum's hardest list
(``tests/data/reference/forum_hardest_1106.txt.xz``), a random sample of it.

    .venv/bin/python benchmarks/bench_transplants.py --puzzles 10 --trials 10 --seed 12345
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _common import one_core, ratio  # a sibling script (its folder is on sys.path)
from numpy.typing import NDArray
from reference import puzzles  # a sibling script (its folder is on sys.path)

from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.generators.grids import _grid_cells
from csp_sudoku.generators.minimal import checker_for, reduce_clues
from csp_sudoku.generators.targeting import rate_with_solution

G9 = Geometry.standard(9)
Cells = NDArray[np.int8]


def _isomorphism(rng: np.random.Generator) -> tuple[NDArray[np.intp], NDArray[np.int8]]:
    """A random cell permutation (bands, rows, stacks, columns) and digit relabelling."""
    rows = [3 * b + r for b in rng.permutation(3) for r in rng.permutation(3)]
    cols = [3 * s + c for s in rng.permutation(3) for c in rng.permutation(3)]
    index = (np.array(rows)[:, None] * 9 + np.array(cols)).reshape(-1)
    relabel = np.zeros(10, dtype=np.int8)
    relabel[1:] = rng.permutation(9) + 1
    return index, relabel


def _unique_minimal(work: Cells, sol: Cells, rng: np.random.Generator) -> Cells:
    """``work`` (consistent with ``sol``) made unique with ``sol``'s digits, then minimal."""
    chk = checker_for(G9)
    work = work.copy()
    while (other := chk.backend.other_solution(work, G9, sol)) is not None:
        differ = np.flatnonzero((np.asarray(other) != sol) & (work == 0))
        c = int(differ[int(rng.integers(differ.size))])
        work[c] = sol[c]
    return reduce_clues(work, sol, G9, rng, checker=chk)


def transplant(
    mode: str, hard: Cells, share: float, rng: np.random.Generator
) -> tuple[Cells, Cells]:
    """A start of ``mode`` grown from the hard puzzle ``hard``: (clues, solution)."""
    if mode == "random":
        sol = _grid_cells(G9, rng)
        return _unique_minimal(np.zeros(81, dtype=np.int8), sol, rng), sol
    index, relabel = _isomorphism(rng)
    moved = relabel[hard[index]]
    given = np.flatnonzero(moved)
    core = np.zeros(81, dtype=np.int8)
    keep = rng.choice(given, int(share * given.size), replace=False)
    core[keep] = moved[keep]
    if mode == "pattern":
        sol = _grid_cells(G9, rng)
    else:
        first = checker_for(G9).backend.solutions(core, G9, 1)
        sol = np.asarray(first[0], dtype=np.int8)
    work = core.copy() if mode == "core" else np.zeros(81, dtype=np.int8)
    if mode != "core":
        work[given] = sol[given]
    return _unique_minimal(work, sol, rng), sol


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--puzzles", type=int, default=10, help="hard puzzles sampled")
    ap.add_argument("--trials", type=int, default=10, help="starts per hard puzzle and mode")
    ap.add_argument("--share", type=float, default=0.49, help="share of the clues kept")
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--modes", nargs="+", default=["random", "core", "pattern", "pattern+core"])
    args = ap.parse_args()
    one_core()  # the figures are per core
    lines = puzzles("forum_hardest_1106.txt")
    rng = np.random.default_rng(args.seed)
    hard = [
        np.array([0 if ch == "." else int(ch) for ch in lines[i]], dtype=np.int8)
        for i in rng.choice(len(lines), args.puzzles, replace=False).tolist()
    ]

    def rate(clues: Cells, sol: Cells) -> float:
        r = rate_with_solution(Puzzle(clues, G9), Puzzle(sol, G9), "se", 0, search=True)
        return float(r.score)

    rate(*transplant("random", hard[0], args.share, rng))  # compile before timing
    print(
        f"{args.puzzles} hard puzzles x {args.trials} starts, share {args.share}, seed {args.seed}"
    )
    print("mode          starts  mean ER  ER>=8  ER>9  best   ms/start (CPU)")
    base = None
    for mode in args.modes:
        scores = []
        c0 = time.process_time()
        for p in hard:
            for _ in range(args.trials):
                scores.append(rate(*transplant(mode, p, args.share, rng)))
        cpu = (time.process_time() - c0) / len(scores) * 1000
        s = np.array(scores)
        high = float((s >= 8).mean())
        base = high if base is None else base
        print(
            f"{mode:<13} {s.size:>6}  {s.mean():>7.2f}  {high:>5.2f}  {(s > 9).mean():>4.2f}  "
            f"{s.max():>4.1f}  {cpu:>8.1f}   "
            f"(ER>=8: {ratio(high, base, 1)} the first mode's share)",
            flush=True,
        )


if __name__ == "__main__":
    main()
