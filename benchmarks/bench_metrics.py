"""Speed of the difficulty metrics: median time per puzzle of ``csp_sudoku.rate``, one core.

Each metric is timed through the public call (``rate(puzzle, metric, seed=i)``,
default runs: hsolve 20, oracle 100, refutation and dependency 30), which
includes finding the solution. The baseline, timed in the same run on the same
puzzles, is hodoku-py's ``Solver().rate`` (one deterministic rating pass, the
peer the metrics issue quotes at 35-39 ms) when installed, else our own
deterministic singles + subsets solve path. Targets: hsolve and
refutation <= 300 ms on top1465 and <= 30 ms on 17_clue; rounds <= 100 ms on
top1465; oracle <= 50 ms.

Usage:
    .venv/bin/python benchmarks/bench_metrics.py [--n 40] [--all-top1465 [--jobs N]] [--skip-medians]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from _common import one_core  # a sibling script (its folder is on sys.path)
from metric_data import read_set, sample

METRICS = ("hsolve", "oracle", "refutation", "dependency", "rounds", "mdrt")
TARGETS_MS = {
    ("hsolve", "17_clue"): 30.0,
    ("hsolve", "top1465"): 300.0,
    ("refutation", "17_clue"): 30.0,
    ("refutation", "top1465"): 300.0,
    ("rounds", "top1465"): 100.0,
    ("oracle", "17_clue"): 50.0,
    ("oracle", "top1465"): 50.0,
}


def baseline() -> tuple[str, Callable[[str], object]]:
    try:
        import hodoku

        solver = hodoku.Solver()
        return "hodoku-py rate", solver.rate
    except ImportError:
        import csp_sudoku as cs
        from csp_sudoku.human.path import solve_path

        return "our singles+subsets path", lambda s: solve_path(cs.parse(s))


def median_ms(fn: Callable[[str, int], object], puzzles: list[str]) -> tuple[float, float]:
    """Median wall and CPU (process) milliseconds per puzzle.

    On a shared machine the CPU time is the fairer "one core" figure: wall time
    also counts the time other processes held the core.
    """
    fn(puzzles[0], 0)  # warm up (compiled kernels, caches)
    wall = []
    cpu = []
    for i, p in enumerate(puzzles):
        t = time.perf_counter()
        c = time.process_time()
        fn(p, i)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - t)
    return 1000 * statistics.median(wall), 1000 * statistics.median(cpu)


def main() -> None:
    from csp_sudoku.metrics import rate, rate_many

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=40, help="puzzles per set")
    ap.add_argument(
        "--all-top1465", action="store_true", help="rate all of top1465 with every metric"
    )
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--skip-medians", action="store_true")
    args = ap.parse_args()
    one_core()  # the figures are per core
    sets = {
        "17_clue": sample("17_clue.txt", args.n, 11),
        "top1465": sample("top1465.txt", args.n, 11),
    }
    base_name, base_fn = baseline()
    if args.skip_medians:
        sets = {}
    print(f"median ms per puzzle over {args.n} puzzles per set; baseline = {base_name}\n")
    print(
        "| metric | set | median ms (wall) | median ms (CPU) | x baseline (CPU) | target ms | met (CPU) |"
    )
    print("|---|---|---|---|---|---|---|")
    for set_name, puzzles in sets.items():
        bw, bc = median_ms(lambda s, i: base_fn(s), puzzles)
        print(f"| baseline: {base_name} | {set_name} | {bw:.2f} | {bc:.2f} | 1.00 | | |")
        for m in METRICS:
            mw, mc = median_ms(lambda s, i, m=m: rate(s, m, seed=i), puzzles)
            target = TARGETS_MS.get((m, set_name))
            met = "" if target is None else ("yes" if mc <= target else "NO")
            tgt = "" if target is None else f"{target:.0f}"
            print(f"| {m} | {set_name} | {mw:.2f} | {mc:.2f} | {mc / bc:.3f} | {tgt} | {met} |")
    if args.all_top1465:
        puzzles = read_set("top1465.txt")
        print(f"\nall {len(puzzles)} top1465 puzzles, jobs={args.jobs}:")
        total = 0.0
        for m in METRICS:
            t = time.perf_counter()
            rate_many(puzzles, m, seed=1, jobs=args.jobs)
            dt = time.perf_counter() - t
            total += dt
            print(f"  {m:11s} {dt:8.1f} s")
        print(f"  {'all':11s} {total:8.1f} s")


if __name__ == "__main__":
    main()
