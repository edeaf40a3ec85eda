"""When the fast variant backend hands a search to SAT: CPU time per check by node budget.

The fast backend (:mod:`csp_sudoku.variants.fast`) gives a search up after
``fast.BUDGET_BASE`` branch nodes (plus a few per solution asked) and asks
the SAT backend instead. This times ``variants.check`` (the default backend,
hand-over included) on two sets, once per budget given, each set run twice
and the lesser CPU time per puzzle kept, every budget in the same process:

* ``random``: ``random_variants(--count, --seed)`` (eight in ten unique, one
  multiple, one broken; every kind in turn);
* ``killers``: ``generate_killers(--killers, seed=--seed)``: 9x9 killers with
  no givens, the puzzles a killer setter checks.

The verdicts must be the same under every budget. Prints the median, mean,
99th percentile, largest and total CPU time of each set and budget, and the
total as a ratio of the first budget's::

    .venv/bin/python benchmarks/bench_variants_handover.py --count 900 --seed 7 --killers 12 --budgets 2000000 20000
"""

from __future__ import annotations

import argparse
import statistics
import time

from _common import commit, quantile, ratio

from csp_sudoku import variants
from csp_sudoku.constraints import VariantPuzzle
from csp_sudoku.variants import fast
from csp_sudoku.variants.generate import generate_killers
from csp_sudoku.variants.random import random_variants


def timed(puzzles: list[VariantPuzzle], budget: int) -> tuple[list[float], list[str]]:
    """CPU seconds and verdict of each puzzle's check under the node budget ``budget``."""
    fast.BUDGET_BASE = budget
    times, verdicts = [], []
    for p in puzzles:
        t = time.process_time()
        verdicts.append(variants.check(p))
        times.append(time.process_time() - t)
    return times, verdicts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=900, help="random variant puzzles")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--killers", type=int, default=12, help="killers with no givens")
    ap.add_argument("--budgets", type=int, nargs="+", default=[2_000_000, 20_000])
    args = ap.parse_args()
    sets = {
        "random": [v.puzzle for v in random_variants(args.count, args.seed)],
        "killers": [g.puzzle for g in generate_killers(args.killers, seed=args.seed)],
    }
    print(f"commit {commit()}; budgets {args.budgets}; CPU time per check, best of 2")
    variants.check(sets["random"][0])  # the kernels loaded
    for name, puzzles in sets.items():
        first_total = None
        verdicts_seen = set()
        for budget in args.budgets:
            a, va = timed(puzzles, budget)
            b, vb = timed(puzzles, budget)
            assert va == vb
            verdicts_seen.add(tuple(va))
            ts = sorted(min(x, y) for x, y in zip(a, b, strict=True))
            total = sum(ts)
            first_total = total if first_total is None else first_total
            print(
                f"{name:<8} budget {budget:>9,}  n {len(ts)}  "
                f"median {1000 * statistics.median(ts):.2f} ms  "
                f"mean {1000 * statistics.mean(ts):.2f} ms  "
                f"p99 {1000 * quantile(ts, 0.99):.1f} ms  max {1000 * ts[-1]:.0f} ms  "
                f"total {total:.2f} s ({ratio(total, first_total)} the first budget's)",
                flush=True,
            )
        assert len(verdicts_seen) == 1, "the verdicts depend on the budget"


if __name__ == "__main__":
    main()
