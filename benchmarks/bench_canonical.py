"""Canonical form throughput: puzzles per second, against the exhaustive search.

For each set, the pruned search (:func:`csp_sudoku._kernels.canonical.canonical_batch`,
what the package uses) is timed on ``--n`` puzzles, on one thread and on
``--threads`` threads sharing blocks of 256 puzzles (the kernel releases the
GIL; this is how ``bank add`` computes its keys). The baseline is the
exhaustive search (``exhaustive_many``, the kernel before the pruned one, kept
as the reference) on the first ``--baseline`` puzzles of the same set, in the
same run, on one thread; the ratio is of the one-thread rates. Every form of
the baseline's puzzles is checked to be the same from both kernels.

Sets: three reference lists and ``bank``, the puzzles that
``benchmarks/bench_bank.py`` makes (a sample puzzle with 4-9 more clues, put
through a random isomorphism).

Usage::

    .venv/bin/python benchmarks/bench_canonical.py [--n 20000] [--baseline 1000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import reference
from bench_bank import make_puzzles, where
from numpy.typing import NDArray

from csp_sudoku._kernels import canonical as k

BLOCK = 256


def load(name: str, n: int) -> NDArray[np.int8]:
    """The first ``n`` puzzles of a reference set as an ``(n, 81)`` array."""
    rows = [[0 if c in ".0" else int(c) for c in s] for s in reference.puzzles(name)[:n]]
    return np.array(rows, dtype=np.int8)


def threaded(arr: NDArray[np.int8], threads: int) -> NDArray[np.int8]:
    """The pruned kernel over blocks of ``arr`` shared among ``threads`` threads."""
    with ThreadPoolExecutor(threads) as pool:
        return np.concatenate(
            list(
                pool.map(lambda s: k.canonical_batch(arr[s : s + BLOCK]), range(0, len(arr), BLOCK))
            )
        )


def median_time(fn: Callable[[], object], repeats: int) -> tuple[float, float]:
    """The median wall time and the median CPU time of this thread of ``repeats`` calls."""
    wall, cpu = [], []
    for _ in range(repeats):
        t, c = time.perf_counter(), time.thread_time()
        fn()
        wall.append(time.perf_counter() - t)
        cpu.append(time.thread_time() - c)
    return statistics.median(wall), statistics.median(cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=20000, help="puzzles a set for the pruned search")
    ap.add_argument("--baseline", type=int, default=1000, help="puzzles a set for the baseline")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    print(f"bench_canonical: {where()}")
    sets = {
        "17_clue": load("17_clue.txt", args.n),
        "top1465": load("top1465.txt", args.n),
        "forum_hardest_11plus": load("forum_hardest_11plus.txt", args.n),
        "bank": make_puzzles(args.n, np.random.default_rng(1)),
    }
    warm = sets["17_clue"][:2]
    k.canonical_batch(warm)  # compile, or load numba's cache
    k.exhaustive_many(warm, k.LINE_MAPS, k.MASK_TABLE)
    print(
        "Wall rates (puzzles a second) and CPU time of the thread a puzzle; the ratio is "
        "of the CPU times, which a loaded machine changes least.\n"
    )
    print(
        "| set | puzzles | pruned, 1 thread | "
        f"pruned, {args.threads} threads | exhaustive, 1 thread | ratio (CPU) |"
    )
    print("|---|---|---|---|---|---|")
    for name, arr in sets.items():
        base = arr[: args.baseline]
        fast_forms = k.canonical_batch(base)
        slow_wall, slow_cpu = median_time(
            lambda b=base: k.exhaustive_many(b, k.LINE_MAPS, k.MASK_TABLE), 1
        )
        if not np.array_equal(fast_forms, k.exhaustive_many(base, k.LINE_MAPS, k.MASK_TABLE)):
            raise SystemExit(f"{name}: the two kernels differ (a bug): stop")
        one_wall, one_cpu = median_time(lambda a=arr: k.canonical_batch(a), args.repeats)
        many_wall, _ = median_time(lambda a=arr: threaded(a, args.threads), args.repeats)
        fast_us, slow_us = one_cpu / len(arr) * 1e6, slow_cpu / len(base) * 1e6
        print(
            f"| {name} | {len(arr):,} | {len(arr) / one_wall:,.0f}/s, CPU {fast_us:.1f} us | "
            f"{len(arr) / many_wall:,.0f}/s | {len(base) / slow_wall:,.0f}/s, CPU {slow_us:.0f} us "
            f"| {slow_us / fast_us:,.0f}x |"
        )
    print(f"end: {where()}")


if __name__ == "__main__":
    main()
