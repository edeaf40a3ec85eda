"""SE's replay stopped early (``stop_within``, a search's rating) against the full replay.

A generator's search rates its states with ``rate(p, "se", stop_within=True)``:
the replay ends once the quick test shows the rest of the path worth less
than the hardest step so far (docs/generators.md, "Replays that stop early"). This
measures, in one process, the two alternating puzzle by puzzle (same puzzles,
summed CPU time):

1. **SE-rated puzzles**: the calibration rows SE rated 8.5 and up.
2. **A search's states**: the puzzles an SE 10+ search rates in full (its
   quick test did not clear them), collected from one run per seed.

For each set: puzzles, same ER, how many stopped early, the CPU seconds of
each, and the ratio.

    taskset -c 0 .venv/bin/python benchmarks/bench_stop_within.py --seconds 60 --seed 7 11
"""

from __future__ import annotations

import argparse
import math
import time

import reference
from _common import one_core  # a sibling script (its folder is on sys.path)

import csp_sudoku as cs
import csp_sudoku.generators.search.rating as rating_mod
from csp_sudoku.generators.targeting import rate_with_solution
from csp_sudoku.metrics.base import Rating
from csp_sudoku.metrics.se import replay

FILES = ("se_calibration_top1465.tsv", "se_calibration.tsv")
_RATE = "_rate"  # the search's name for rate_with_solution (its Rater's)


def states(seed: int, seconds: float) -> list[cs.Puzzle]:
    """The puzzles one SE 10+ search rated (those its quick test did not clear)."""
    got: list[cs.Puzzle] = []

    def kept(p: cs.Puzzle, sol: cs.Puzzle, metric: str, seed: int, search: bool = False) -> Rating:
        got.append(p)
        return rate_with_solution(p, sol, metric, seed, search=search)

    setattr(rating_mod, _RATE, kept)
    try:
        for _ in cs.generate(
            100_000, metric="se", score_range=(10.0, math.inf), seed=seed, budget_seconds=seconds
        ):
            pass
    except cs.generators.BudgetExhaustedError:
        pass
    finally:
        setattr(rating_mod, _RATE, rate_with_solution)
    return got


def compare(name: str, puzzles: list[cs.Puzzle]) -> str:
    """The two replays alternating on ``puzzles``: one table row."""
    full_s = early_s = 0.0
    same = stopped = 0
    for p in puzzles:
        c0 = time.process_time()
        full = replay(p)
        c1 = time.process_time()
        early = replay(p, stop_within=True)
        c2 = time.process_time()
        full_s += c1 - c0
        early_s += c2 - c1
        same += early.er == full.er
        stopped += early.stopped == "within"
    ratio = full_s / early_s if early_s else math.nan
    return (
        f"{name:<34} {len(puzzles):>6} {same:>6} {stopped:>7} "
        f"{full_s:>8.2f} {early_s:>8.2f} {ratio:>6.2f}x"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="budget of each search")
    ap.add_argument("--seed", type=int, nargs="+", default=[7])
    args = ap.parse_args()
    one_core()  # the figures are per core
    print("set                                puzzles  same  stopped  full s  early s  ratio")
    rows = [r for name in FILES for r in reference.rows(name)]
    calib = [cs.parse(r["puzzle"]) for r in rows if float(r["ER"]) >= 8.5]
    replay(calib[0]), replay(calib[0], stop_within=True)  # warm up (compiled kernels)
    print(compare("SE calibration, ER 8.5 and up", calib), flush=True)
    for seed in args.seed:
        print(
            compare(f"SE 10+ search seed {seed}, {args.seconds:g} s", states(seed, args.seconds)),
            flush=True,
        )


if __name__ == "__main__":
    main()
