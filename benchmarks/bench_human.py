"""The human model's hot paths against the same algorithms interpreted by Python.

Usage::

    .venv/bin/python benchmarks/bench_human.py [--sample N] [--baseline B] [--levels-step K]

Medians per puzzle (one core, the compiled kernels of csp_sudoku/_kernels/human.py):

* ``singles path``: ``solve_path(p, ("singles",))`` on N 17_clue puzzles
  (target <= 0.5 ms);
* ``subset search``: ``find_subsets_upto(state, 4)``, every application of the
  constraint subset rule of sizes 1-4, on the stuck position (singles
  exhausted) of N top1465 puzzles (target <= 50 ms);
* ``rounds``: ``rounds(p)`` on N top1465 puzzles (target <= 100 ms);
* ``refutation``: ``refutation_scores(state, solution, rng)``, one score for
  every empty cell of the stuck position of N top1465 puzzles (target <= 30 ms).

The baseline is the same code with every numba kernel swapped for its
``py_func`` (plain Python on the same arrays), timed on B puzzles in the same
run; ratios are baseline / compiled on those same B puzzles. Then the share of top1465 and
forum_hardest_1106 at each rounds level (every K-th puzzle; K = 1 for all).
The machine is shared: compare ratios more than absolute times.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import reference

import csp_sudoku
import csp_sudoku._kernels.human as kernels
from csp_sudoku import Puzzle, parse
from csp_sudoku.human.path import solve_path
from csp_sudoku.human.refutation import refutation_scores
from csp_sudoku.human.state import CandidateState
from csp_sudoku.human.subsets import find_subsets_upto
from csp_sudoku.metrics.rounds import LEVELS, rounds


def load(name: str, n: int | None) -> list[str]:
    lines = reference.puzzles(name)
    if n is None or n >= len(lines):
        return lines
    step = len(lines) // n
    return lines[::step][:n]


def stuck(p: Puzzle) -> CandidateState:
    st = CandidateState.from_puzzle(p)
    while True:
        s = st.singles()
        if not s:
            return st
        st.place(s[0].cell, s[0].digit)


@contextlib.contextmanager
def pure_python() -> Iterator[None]:
    """Swap every compiled kernel for its plain-Python ``py_func``."""
    saved: dict[str, Any] = {}
    for name, obj in vars(kernels).items():
        if hasattr(obj, "py_func"):
            saved[name] = obj
    try:
        for name, obj in saved.items():
            setattr(kernels, name, obj.py_func)
        yield
    finally:
        for name, obj in saved.items():
            setattr(kernels, name, obj)


def median_ms(fn: Callable[[Any], object], items: list[Any], reps: int = 1) -> float:
    times = []
    for it in items:
        best = float("inf")
        for _ in range(reps):
            t = time.perf_counter()
            fn(it)
            best = min(best, time.perf_counter() - t)
        times.append(best)
    return statistics.median(times) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sample", type=int, default=200, help="puzzles per measurement")
    ap.add_argument("--baseline", type=int, default=5, help="puzzles for the pure-Python baseline")
    ap.add_argument("--levels-step", type=int, default=1, help="every K-th puzzle for the shares")
    args = ap.parse_args()

    p17 = [parse(x) for x in load("17_clue.txt", args.sample)]
    top = [parse(x) for x in load("top1465.txt", args.sample)]
    stuck_top = [stuck(p) for p in top]
    sols = [np.asarray(csp_sudoku.solve(p).cells) for p in top]  # type: ignore[union-attr]
    pairs = list(zip(stuck_top, sols, strict=True))
    rng = np.random.default_rng(2024)

    # warm up (load the cached kernels)
    solve_path(p17[0], ("singles",))
    find_subsets_upto(stuck_top[0], 4)
    rounds(top[0])
    refutation_scores(stuck_top[0], sols[0], rng)

    cases: list[tuple[str, float, Callable[[Any], object], list[Any], int]] = [
        ("singles path (17_clue)", 0.5, lambda p: solve_path(p, ("singles",)), p17, 3),
        ("subset search n<=4 (stuck top1465)", 50, lambda s: find_subsets_upto(s, 4), stuck_top, 1),
        ("rounds (top1465)", 100, rounds, top, 1),
        (
            "refutation, all cells (stuck top1465)",
            30,
            lambda sp: refutation_scores(sp[0], sp[1], rng),
            pairs,
            1,
        ),
    ]
    print(
        f"{'measurement':40} {'n':>5} {'median ms':>10} {'target':>8} {'met':>4} "
        f"{'same ' + str(args.baseline) + ' ms':>10} {'python ms':>10} {'ratio':>7}"
    )
    for label, target, fn, items, reps in cases:
        fast = median_ms(fn, items, reps)
        few = items[: args.baseline]
        fast_few = median_ms(fn, few, reps)
        with pure_python():
            base = median_ms(fn, few)
        ok = "yes" if fast <= target else "NO"
        print(
            f"{label:40} {len(items):>5} {fast:>10.3f} {target:>8g} {ok:>4} "
            f"{fast_few:>10.3f} {base:>10.1f} {base / fast_few:>6.0f}x"
        )

    print()
    print("rounds levels (share of puzzles):")
    for name in ("top1465.txt", "forum_hardest_1106.txt"):
        lines = load(name, None)[:: args.levels_step]
        counts: collections.Counter[str] = collections.Counter()
        rounds_by_level: dict[str, list[int]] = collections.defaultdict(list)
        t = time.perf_counter()
        for line in lines:
            r = rounds(line)
            counts[r.level] += 1
            rounds_by_level[r.level].append(r.rounds)
        dt = time.perf_counter() - t
        parts = ", ".join(
            f"{lv} {counts[lv]} ({100 * counts[lv] / len(lines):.1f}%, median rounds "
            f"{statistics.median(rounds_by_level[lv]) if rounds_by_level[lv] else '-'})"
            for lv in LEVELS
        )
        print(f"  {name}: {len(lines)} puzzles in {dt:.1f} s: {parts}")


if __name__ == "__main__":
    main()
