"""Simulated annealing toward hard *minimal* puzzles.

A state is a minimal puzzle (unique, and no clue can be removed). A move keeps
the solution grid and removes one clue; while the puzzle has another solution,
it adds the solution's digit at a random cell where that other solution differs
(never the removed cell); once ``csp_sudoku.is_unique`` confirms it, random
removable clues are removed until it is minimal again. The energy is ``-log(score)`` of a difficulty metric
(``csp_sudoku.rate``, hsolve with 5 runs by default); moves are accepted by the
Metropolis rule under a temperature that falls geometrically. Each step calls
``csp_sudoku.is_unique`` and ``csp_sudoku.rate`` (plus ``removable_clues``), so
a run of a few thousand steps exercises them thousands of times.

Usage:
    .venv/bin/python examples/anneal_hard_minimal.py --steps 2000 --seed 1
    .venv/bin/python examples/anneal_hard_minimal.py --metric refutation --runs 10
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

import csp_sudoku as cs


@dataclass
class AnnealResult:
    """The best puzzle found and what the run did."""

    best: cs.Puzzle
    best_score: float
    start_score: float
    steps: int
    accepted: int = 0
    unique_calls: int = 0
    rate_calls: int = 0
    history: list[float] = field(default_factory=list)


def random_grid(rng: np.random.Generator) -> cs.Puzzle:
    """A random full grid: the three diagonal boxes shuffled, then solved, then relabelled."""
    cells = np.zeros(81, dtype=np.int8)
    for b in range(3):
        perm = rng.permutation(9) + 1
        for k in range(9):
            r, c = 3 * b + k // 3, 3 * b + k % 3
            cells[9 * r + c] = perm[k]
    sol = cs.solve(cs.Puzzle(cells))
    if sol is None:  # cannot happen: diagonal boxes never clash
        raise cs.SudokuError("no completion of the diagonal boxes")
    relabel = np.concatenate([[0], rng.permutation(9) + 1]).astype(np.int8)
    return cs.Puzzle(relabel[sol.cells])


def minimise(puzzle: cs.Puzzle, rng: np.random.Generator) -> cs.Puzzle:
    """Remove random removable clues until the puzzle is minimal."""
    while True:
        removable = cs.removable_clues(puzzle)
        if removable.size == 0:
            return puzzle
        puzzle = puzzle.without([int(rng.choice(removable))])


def anneal(
    steps: int = 2000,
    seed: int | None = None,
    metric: str = "hsolve",
    runs: int | None = 5,
    t_start: float = 0.3,
    t_end: float = 0.01,
) -> AnnealResult:
    """Anneal from a random minimal puzzle toward a high ``metric`` score."""
    rng = np.random.default_rng(seed)
    solution = random_grid(rng)
    current = minimise(solution, rng)

    def score(p: cs.Puzzle) -> float:
        res.rate_calls += 1
        r = cs.rate(p, metric, runs=runs, seed=int(rng.integers(2**62)), solution=solution)
        return max(r.score, 1e-9) if metric != "dependency" else 1.0 / max(r.score, 1e-9)

    res = AnnealResult(best=current, best_score=0.0, start_score=0.0, steps=steps)
    cur_score = score(current)
    res.best_score = res.start_score = cur_score
    sol = solution.cells
    for step in range(steps):
        temp = t_start * (t_end / t_start) ** (step / max(steps - 1, 1))
        out_cell = int(rng.choice(current.clue_cells()))
        cand = current.without([out_cell])
        while True:
            others = [s for s in cs.solutions(cand, 2) if not np.array_equal(s.cells, sol)]
            if not others:
                break
            differ = np.flatnonzero((others[0].cells != sol) & (np.arange(81) != out_cell))
            if differ.size == 0:
                break
            c = int(rng.choice(differ))
            cand = cand.with_cells({c: int(sol[c])})
        res.unique_calls += 1
        if not cs.is_unique(cand) or cand == current:
            continue
        cand = minimise(cand, rng)
        new_score = score(cand)
        delta = math.log(new_score) - math.log(cur_score)
        if delta >= 0 or rng.random() < math.exp(delta / temp):
            current, cur_score = cand, new_score
            res.accepted += 1
            if cur_score > res.best_score:
                res.best, res.best_score = current, cur_score
        res.history.append(cur_score)
    return res


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--metric", default="hsolve")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    t = time.perf_counter()
    res = anneal(args.steps, args.seed, args.metric, args.runs)
    secs = time.perf_counter() - t
    final = cs.rate(res.best, "hsolve", seed=0)
    print(
        f"{res.steps} steps in {secs:.1f} s: {res.accepted} accepted, "
        f"{res.unique_calls} is_unique calls, {res.rate_calls} rate calls"
    )
    print(f"{args.metric}: start {res.start_score:.1f} -> best {res.best_score:.1f}")
    print(f"best puzzle ({res.best.clue_count} clues, minimal: {cs.is_minimal(res.best)}):")
    print(res.best.to_line())
    print(
        f"hsolve (20 runs): {final.score:.0f} ({final.level}); "
        f"oracle: {cs.rate(res.best, 'oracle', seed=0).level}; "
        f"rounds: {cs.rate(res.best, 'rounds').level}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
