"""Canonical form throughput: puzzles per second, against a naive baseline.

The baseline is the same two-phase search run by the Python interpreter
(numba's ``py_func`` of the kernel), measured in the same run on a small
sample. Usage::

    .venv/bin/python benchmarks/bench_canonical.py [--n 5000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import reference

from csp_sudoku._kernels import canonical as k
from csp_sudoku.tools.canonical import canonical_many


def load(name: str, n: int) -> np.ndarray:
    """The first ``n`` puzzles of a reference set as an ``(n, 81)`` array."""
    rows = [[0 if c in ".0" else int(c) for c in s] for s in reference.puzzles(name)[:n]]
    return np.array(rows, dtype=np.int8)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=5000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--naive", type=int, default=3, help="puzzles for the naive baseline")
    args = ap.parse_args()
    canonical_many(load("17_clue.txt", 2))  # compile / load the cache
    for name in ("17_clue.txt", "top1465.txt", "forum_hardest_11plus.txt"):
        arr = load(name, args.n)
        times = []
        for _ in range(args.repeats):
            t = time.perf_counter()
            canonical_many(arr)
            times.append(time.perf_counter() - t)
        med = statistics.median(times)
        fast = len(arr) / med
        sample = arr[: args.naive]
        best = np.empty(81, np.int8)
        tr = np.zeros(3, np.int64)
        t = time.perf_counter()
        for row in sample:
            k.canonical_one.py_func(row, k.LINE_MAPS, k.MASK_TABLE, best, tr)
        naive = len(sample) / (time.perf_counter() - t)
        print(
            f"{name}: {len(arr)} puzzles, median of {args.repeats}: {med:.3f} s = "
            f"{fast:,.0f} puzzles/s; naive (interpreted) {naive:.2f} puzzles/s; "
            f"ratio {fast / naive:,.0f}x"
        )


if __name__ == "__main__":
    main()
