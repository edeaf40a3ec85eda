"""What SE's quick test clears at each limit, and what a full rating costs, on a search's moves.

The annealing search as it ships screens a vicinity move with the quick test
(:func:`csp_sudoku.human.se_order.solved_within`) at the lesser of the target's
floor and the weakest elite state's score. This samples the moves of one such
search (``generate(10_000, level="extreme", metric="se", seed=SEED)`` for
``--seconds`` of CPU time, every move the search made, ``--sample`` of them
drawn at random), then, for each, in this process on one core: its full
rating (ER and CPU time), and the quick test at each ``--limits`` (cleared or
not, CPU time), grouped by ER in halves.

    .venv/bin/python benchmarks/bench_screen_limits.py --seconds 25 --seed 4003 --sample 1500
"""

from __future__ import annotations

import argparse
import math
import time
from collections import defaultdict
from typing import Any

import numpy as np
from _common import one_core  # a sibling script (its folder is on sys.path)

import csp_sudoku as cs
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.puzzle import Puzzle
from csp_sudoku.generators import anneal
from csp_sudoku.human.se_order import solved_within
from csp_sudoku.metrics import rate


class _Spent(Exception):
    """The sampling search's CPU budget is spent."""


def sample_moves(seconds: float, seed: int) -> list[tuple[Any, Any]]:
    """``(clues, solution)`` of every move of a shipped search run for ``seconds`` of CPU."""
    moves: list[tuple[Any, Any]] = []
    move = anneal._Search._move

    def spy(self: Any, clues: Any, sol: Any, k: int = 0) -> Any:
        made = move(self, clues, sol, k)
        moves.append((made, sol))
        return made

    c0 = time.process_time()

    def progress(_report: dict[str, Any]) -> None:
        if time.process_time() - c0 >= seconds:
            raise _Spent

    anneal._Search._move = spy  # type: ignore[method-assign]
    try:
        for _ in cs.generate(
            10_000,
            level="extreme",
            metric="se",
            seed=seed,
            budget_seconds=10 * seconds,
            progress=progress,
        ):
            pass
    except (_Spent, cs.generators.BudgetExhaustedError):
        pass
    finally:
        anneal._Search._move = move  # type: ignore[method-assign]
    return moves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=25.0, help="CPU seconds of the sampled search")
    ap.add_argument("--seed", type=int, default=4003)
    ap.add_argument("--sample", type=int, default=1500)
    ap.add_argument("--limits", type=float, nargs="+", default=[8.5, 8.6, 9.0])
    args = ap.parse_args()
    one_core()  # the figures are per core
    geo = Geometry.standard(9)
    moves = sample_moves(args.seconds, args.seed)
    rng = np.random.default_rng(args.seed)
    picked = rng.choice(len(moves), size=min(args.sample, len(moves)), replace=False)
    rows: dict[float, list[tuple[float, list[tuple[bool, float]]]]] = defaultdict(list)
    for i in picked.tolist():
        clues, sol = moves[i]
        p = Puzzle(clues, geo)
        t = time.process_time()
        er = rate(p, "se").score
        spent = time.process_time() - t
        tests = []
        for limit in args.limits:
            t = time.process_time()
            cleared = solved_within(p, limit, solution=sol)
            tests.append((cleared, time.process_time() - t))
        rows[math.floor(er * 2) / 2].append((spent, tests))
    print(
        f"{len(moves)} moves of seed {args.seed} in {args.seconds:g} CPU-s, {len(picked)} sampled"
    )
    head = "  ".join(f"cleared@{lim:g}  ms@{lim:g}" for lim in args.limits)
    print(f"ER     moves  rating ms  {head}")
    for er in sorted(rows):
        got = rows[er]
        cells = "  ".join(
            f"{sum(r[1][j][0] for r in got):>10}  {1000 * np.mean([r[1][j][1] for r in got]):>6.2f}"
            for j in range(len(args.limits))
        )
        print(f"{er:<5.1f}  {len(got):>5}  {1000 * np.mean([r[0] for r in got]):>9.2f}  {cells}")


if __name__ == "__main__":
    main()
