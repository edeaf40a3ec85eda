"""The ``se`` metric's quick test (``rated_within``) against its full rating.

The annealer at the hard end skips the full SE replay of a vicinity move that
the quick test clears (see docs/generators.md, "The quick test"). This measures
what that is worth and whether it is ever wrong, in one process:

1. **SE's own ratings**: every puzzle of the two calibration files; how many
   rated above the limit the test clears (it must be none), and how many at or
   below it.
2. **A search's candidates**: one search for SE ``extreme`` per seed with the
   quick test turned off, every candidate's full rating timed as it is made;
   then the quick test on each of them, timed. Prints the same table, and the
   rating time of all candidates against the time with the test (the test on
   every candidate, the full rating of those it does not clear), as a ratio.

    taskset -c 0 .venv/bin/python benchmarks/bench_quick_test.py --seconds 60 --seed 5 6
"""

from __future__ import annotations

import argparse
import time

import reference
from _common import one_core  # a sibling script (its folder is on sys.path)

import csp_sudoku as cs
import csp_sudoku.generators.search.rating as rating_mod
from csp_sudoku.generators.targeting import rate_with_solution
from csp_sudoku.metrics.base import Rating
from csp_sudoku.metrics.se import rated_within

_RATE = "_rate"  # the search's name for rate_with_solution (its Rater's), timed here
FILES = ("se_calibration_top1465.tsv", "se_calibration.tsv")


def _row(name: str, above: list[bool], below: list[bool]) -> str:
    wrong, fine = sum(above), sum(below)
    share = f"{100 * fine / len(below):.1f}%" if below else "-"
    return f"{name:<34} {len(above):>6} {wrong:>6} {len(below):>7} {fine:>7} ({share})"


def candidates(seed: int, seconds: float) -> list[tuple[cs.Puzzle, float, float]]:
    """Every candidate one search rated in full (the quick test off): (puzzle, ER, seconds)."""
    got: list[tuple[cs.Puzzle, float, float]] = []
    real = rate_with_solution  # what the annealer rates with (as rating._rate)

    def timed(p: cs.Puzzle, sol: cs.Puzzle, metric: str, seed: int, search: bool = False) -> Rating:
        c0 = time.process_time()
        r = real(p, sol, metric, seed)  # in full, even where the search stops early
        got.append((p, r.score, time.process_time() - c0))
        return r

    within = rating_mod._within
    setattr(rating_mod, _RATE, timed)
    rating_mod._within = lambda metric, thorough=False: None
    try:
        for _ in cs.generate(
            10_000, level="extreme", metric="se", seed=seed, budget_seconds=seconds
        ):
            pass
    except cs.generators.BudgetExhaustedError:
        pass
    finally:
        setattr(rating_mod, _RATE, real)
        rating_mod._within = within
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="budget of each search")
    ap.add_argument("--seed", type=int, nargs="+", default=[5])
    ap.add_argument("--limit", type=float, default=9.0, help="the quick test's limit (ER)")
    args = ap.parse_args()
    one_core()  # the figures are per core
    list(cs.generate(1, level="fiendish", metric="se", seed=0, budget_seconds=60))  # compile
    print("set                                 above  wrong   below cleared")
    rows = [r for f in FILES for r in reference.rows(f)]
    for limit in (args.limit, args.limit + 0.5):
        above = [rated_within(cs.parse(r["puzzle"]), limit) for r in rows if float(r["ER"]) > limit]
        below = [
            rated_within(cs.parse(r["puzzle"]), limit) for r in rows if float(r["ER"]) <= limit
        ]
        print(_row(f"SE calibration, limit {limit:g}", above, below), flush=True)
    full = quick = 0.0
    n = 0
    for seed in args.seed:
        cands = candidates(seed, args.seconds)
        above, below = [], []
        for p, er, cost in cands:
            c0 = time.process_time()
            cleared = rated_within(p, args.limit)
            quick += time.process_time() - c0 + (0.0 if cleared else cost)
            full += cost
            (above if er > args.limit else below).append(cleared)
        n += len(cands)
        print(_row(f"search seed {seed}, limit {args.limit:g}", above, below), flush=True)
    print(
        f"rating time of {n} candidates: {full:.1f} s in full, {quick:.1f} s with the quick "
        f"test ({full / quick:.1f}x less)"
    )


if __name__ == "__main__":
    main()
