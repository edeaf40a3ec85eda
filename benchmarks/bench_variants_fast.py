"""Time per uniqueness check of random 9x9 variant puzzles: the fast backend against SAT and CP-SAT.

The puzzles come from :func:`csp_sudoku.variants.random.random_variants`
(a fixed seed; puzzle ``i`` built around kind ``i`` of the registry in turn,
with two other kinds; eight in ten made unique, one multiple, one broken).
Each is checked (``variants.check``: a count to 2, the model built from the
puzzle included) by every backend in the same run, one after the other, after
one warm-up check each (numba's kernels loaded, OR-tools imported); the
verdicts must agree. Prints the median, mean, 90th percentile and largest
wall time per check of each backend, the ratios of SAT's and CP-SAT's
figures to the fast backend's, and the medians by the kind a puzzle is built
around. Usage::

    .venv/bin/python benchmarks/bench_variants_fast.py [--count 300] [--seed 2026]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _common import commit, quantile  # noqa: E402  (a sibling script: its folder is on sys.path)

from csp_sudoku import variants  # noqa: E402
from csp_sudoku.variants.random import random_variants  # noqa: E402

BACKENDS = ("fast", "sat", "cpsat")
#: Eight in ten unique, one multiple, one broken.
MADE = ("unique",) * 8 + ("multiple", "broken")


def _ms(xs: list[float]) -> str:
    return (
        f"median {1e3 * statistics.median(xs):8.2f}  mean {1e3 * statistics.fmean(xs):8.2f}  "
        f"p90 {1e3 * quantile(xs, 0.9):8.2f}  max {1e3 * max(xs):9.2f}  (ms)"
    )


def puzzle_options(doc: str) -> argparse.ArgumentParser:
    """A parser described by ``doc`` with the options that choose the puzzles, ``--count``
    and ``--seed`` (``bench_variants_fast_tail.py`` times the same puzzles)."""
    ap = argparse.ArgumentParser(
        description=doc, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--count", type=int, default=300, help="puzzles (default 300)")
    ap.add_argument("--seed", type=int, default=2026, help="the puzzles' seed (default 2026)")
    return ap


def main() -> None:
    args = puzzle_options(__doc__).parse_args()
    print(f"commit {commit()}, load average {os.getloadavg()[0]:.1f} at the start")
    t = time.perf_counter()
    made = list(random_variants(args.count, args.seed, made=MADE))
    print(f"{len(made)} puzzles, seed {args.seed}, made in {time.perf_counter() - t:.0f} s")

    for name in BACKENDS:  # warm up: kernels loaded, solvers imported
        variants.check(made[0].puzzle, backend=name)
    times: dict[str, list[float]] = defaultdict(list)
    by_kind: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    verdicts: dict[str, int] = defaultdict(int)
    disagreements = 0
    for v in made:
        got = {}
        for name in BACKENDS:
            t = time.perf_counter()
            got[name] = variants.check(v.puzzle, backend=name)
            dt = time.perf_counter() - t
            times[name].append(dt)
            by_kind[v.kinds[0]][name].append(dt)
        if len(set(got.values())) != 1:
            disagreements += 1
            print(f"DISAGREE seed {v.seed} kinds {v.kinds} made {v.made}: {got}")
        verdicts[got["sat"]] += 1
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    print(f"verdicts (sat): {dict(verdicts)}; disagreements: {disagreements}")
    print("time per uniqueness check (wall, model built from the puzzle included):")
    for name in BACKENDS:
        print(f"  {name:6s} {_ms(times[name])}")
    fast_med = statistics.median(times["fast"])
    fast_mean = statistics.fmean(times["fast"])
    for name in BACKENDS[1:]:
        print(
            f"  {name} / fast: median {statistics.median(times[name]) / fast_med:.1f}x, "
            f"mean {statistics.fmean(times[name]) / fast_mean:.1f}x"
        )
    print("median ms by the kind a puzzle is built around (fast, sat, cpsat):")
    for kind, per in by_kind.items():
        meds = "  ".join(f"{1e3 * statistics.median(per[b]):8.2f}" for b in BACKENDS)
        print(f"  {kind:16s} {meds}")


if __name__ == "__main__":
    main()
