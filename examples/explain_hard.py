"""A puzzle maker's question: why does this hard puzzle work, and how hard is it?

Solves a hard puzzle with the human model (singles, the subset rule, then
contradiction and forcing chains by level), prints the hardest step with its
chain link by link, the steps by technique, and two numbers on Sudoku
Explainer's scale that answer different questions:

* Sudoku Explainer's rating (ER, EP, ED), as ``csp-sudoku rate --metric se``
  gives it: a replay of SE's own solving order;
* the human model's estimate on that scale: the same scale applied to the
  model's path above, which takes other steps than SE and so can differ.

    .venv/bin/python examples/explain_hard.py            # a top1465 puzzle
    .venv/bin/python examples/explain_hard.py PUZZLE     # your own
"""

from __future__ import annotations

import argparse

import csp_sudoku as cs
from csp_sudoku.human.path import describe_step, solve_path
from csp_sudoku.metrics.se import estimate

#: A top1465 puzzle on which singles and subsets alone stop after 7 steps.
DEFAULT = "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5..........."


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzle", nargs="?", default=DEFAULT)
    ap.add_argument("--quick", action="store_true", help="(the default puzzle is quick already)")
    args = ap.parse_args()
    puzzle = cs.parse(args.puzzle)
    if cs.count_solutions(puzzle, limit=2) != 1:
        print("the puzzle needs exactly one solution to be explained")
        return 1
    path = solve_path(puzzle)
    est = estimate(path)
    print(cs.format_grid(puzzle))
    print(
        f"\nsolved by logic: {path.solved}, {len(path.steps)} steps, chain levels up to {path.max_level}"
    )
    for name, n in sorted(path.technique_counts().items(), key=lambda kv: -kv[1]):
        print(f"  {n:3d}  {name}")
    hardest = max(range(len(path.steps)), key=lambda i: est.difficulties[i])
    print(f"\nhardest step (difficulty {est.difficulties[hardest]:.1f}):")
    print(describe_step(puzzle, path.steps[hardest], hardest + 1))
    se = cs.rate(puzzle, "se").details
    print(
        f"\nSudoku Explainer's rating (as `rate --metric se`): ER {se['er']:.1f}, "
        f"EP {se['ep']:.1f}, ED {se['ed']:.1f} (hardest: {se['hardest']})"
    )
    print(
        f"the human model's estimate for its own path above (not SE's rating): "
        f"ER {est.er:.1f}, EP {est.ep:.1f}, ED {est.ed:.1f}"
    )
    return 0 if path.solved else 1


if __name__ == "__main__":
    raise SystemExit(main())
