"""Time per generated variant puzzle: minimal 9x9 killers with no givens, and the other kinds.

Runs in one process, one puzzle after another (one core: the SAT solver is
single-threaded). For each killer it prints the seed, the seconds, the SAT
calls, the cages, the singleton cages and the largest cage; then the median,
mean and worst time. The baseline, in the same run on the first
``--baseline`` seeds, is the first design: the killer cages with their own
clauses alone (distinct digits and a running sum), without the combination
clauses the generator adds; the ratio of the two medians on those seeds is
printed. ``--others`` also times minimal givens for a thermometer + killer
template and thermometers drawn alone (a few each).

    .venv/bin/python benchmarks/bench_variant_generate.py --count 20 --baseline 3

The machine's load average is printed before and after (the figures are
wall-clock times).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from _common import commit, processor  # a sibling script (its folder is on sys.path)

from csp_sudoku.constraints import base, from_fpuzzles
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.seeds import item_seed
from csp_sudoku.variants import generate as vg


@contextmanager
def kind_clauses_only() -> Iterator[None]:
    """The first design: a cage's distinct digits and running sum, without the clauses
    of its digit combinations (``KillerCage.clauses`` takes them from
    ``constraints.base.sum_combinations`` since 7a84e73; before, the generator added
    them itself, and this patched that)."""
    saved = base.sum_combinations
    base.sum_combinations = lambda cnf, cells, total: []
    try:
        yield
    finally:
        base.sum_combinations = saved


def timed(make: Callable[[int], vg.VariantGenerated], seeds: list[int]) -> list[tuple[Any, float]]:
    out = []
    for s in seeds:
        t = time.perf_counter()
        got = make(s)
        out.append((got, time.perf_counter() - t))
    return out


def killer_row(got: vg.VariantGenerated, dt: float) -> str:
    sizes = [len(c.footprint()) for c in got.puzzle.constraints]
    return (
        f"{got.seed:>20}  {dt:7.2f} s  calls {got.calls:4d}  cages {len(sizes):3d}  "
        f"singletons {sizes.count(1):2d}  largest {max(sizes)}"
    )


def summary(label: str, times: list[float]) -> str:
    return (
        f"{label}: {len(times)} puzzles, median {statistics.median(times):.2f} s, "
        f"mean {statistics.fmean(times):.2f} s, worst {max(times):.2f} s"
    )


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=20, help="killers to time (default 20)")
    ap.add_argument("--seed", type=int, default=1, help="the run's seed (item seeds from it)")
    ap.add_argument("--size", type=int, default=9, help="grid size (default 9)")
    ap.add_argument(
        "--baseline", type=int, default=3, help="seeds to time the first design on (default 3)"
    )
    ap.add_argument("--others", action="store_true", help="also time givens and drawn puzzles")
    args = ap.parse_args()
    print(f"commit {commit()}, {processor()}, {load()}")
    g = Geometry.standard(args.size)
    seeds = [item_seed(args.seed, i) for i in range(args.count)]

    def killer(s: int) -> vg.VariantGenerated:
        return vg.make_killer(s, geometry=g)

    print(f"\nkillers, {g.name}, no givens (shipped: cage clauses + combination clauses)")
    shipped = timed(killer, seeds)
    for got, dt in shipped:
        print(killer_row(got, dt))
    times = [dt for _, dt in shipped]
    print(summary("shipped", times))
    cages = [len(got.puzzle.constraints) for got, _ in shipped]
    print(
        f"cages: median {statistics.median(cages)}, min {min(cages)}, max {max(cages)}; "
        f"all minimal: {all(got.minimal for got, _ in shipped)}"
    )
    if args.baseline:
        print("\nbaseline (first design: the cages' own clauses alone), same seeds")
        with kind_clauses_only():
            base = timed(killer, seeds[: args.baseline])
        for got, dt in base:
            print(killer_row(got, dt))
        same = [dt for _, dt in shipped[: args.baseline]]
        bt = [dt for _, dt in base]
        print(summary("baseline", bt))
        print(
            f"ratio of medians on these {len(bt)} seeds: baseline / shipped = "
            f"{statistics.median(bt) / statistics.median(same):.1f}x"
        )
        assert [a.puzzle for a, _ in base] == [a.puzzle for a, _ in shipped[: args.baseline]]
        print("same puzzles from both designs: yes")
    if args.others:
        template = from_fpuzzles(
            {
                "size": 9,
                "grid": [[{} for _ in range(9)] for _ in range(9)],
                "thermometer": [{"lines": [["R1C1", "R2C2", "R3C3", "R4C4", "R5C5"]]}],
                "killercage": [{"cells": ["R9C1", "R9C2", "R8C1"], "value": "6"}],
            }
        )
        few = seeds[: max(1, min(5, args.count))]
        for label, make in (
            ("minimal givens, thermometer + cage", lambda s: vg.make_givens(template, s)),
            ("thermometers drawn alone", lambda s: vg.make_drawn(s, ["thermometer"])),
            ("white and black dots drawn", lambda s: vg.make_drawn(s, ["difference", "ratio"])),
        ):
            got = timed(make, few)
            print(f"\n{label}")
            for p, dt in got:
                givens = int((p.puzzle.puzzle.cells > 0).sum())
                print(
                    f"{p.seed:>20}  {dt:7.2f} s  calls {p.calls:4d}  givens {givens:2d}  "
                    f"constraints {len(p.puzzle.constraints)}"
                )
            print(summary(label, [dt for _, dt in got]))
    print(f"\n{load()}")


if __name__ == "__main__":
    main()
