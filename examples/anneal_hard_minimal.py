"""Simulated annealing toward hard *minimal* puzzles.

A state is a minimal puzzle (unique, and no clue can be removed). A move is
``csp_sudoku.neighbour``: it keeps the solution grid, removes one clue, adds
solution clues until the puzzle is unique again and makes it minimal in one
pass. The energy is ``-log(score)`` of a difficulty metric (``csp_sudoku.rate``,
hsolve with 5 runs by default); moves are accepted by the Metropolis rule under
a temperature that falls geometrically. Each step calls the compiled solver a
few times and ``csp_sudoku.rate`` once, so a run of a few thousand steps
exercises them thousands of times.

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
    solution = cs.random_grid(seed=rng)
    current = cs.minimize(solution, seed=rng)

    def score(p: cs.Puzzle) -> float:
        res.rate_calls += 1
        r = cs.rate(p, metric, runs=runs, seed=int(rng.integers(2**62)), solution=solution)
        return max(r.score, 1e-9) if metric != "dependency" else 1.0 / max(r.score, 1e-9)

    res = AnnealResult(best=current, best_score=0.0, start_score=0.0, steps=steps)
    cur_score = score(current)
    res.best_score = res.start_score = cur_score
    for step in range(steps):
        temp = t_start * (t_end / t_start) ** (step / max(steps - 1, 1))
        # the library's move: remove a clue, add solution clues until unique, minimise
        cand = cs.neighbour(current, solution, seed=rng)
        res.unique_calls += 1
        if cand == current:
            continue
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
