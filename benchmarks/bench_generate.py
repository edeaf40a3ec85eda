"""Generator benchmarks (issue 6): minimal 9x9 / 16x16 puzzles per second, hard puzzles per
minute, and the time to reach the top level of each metric.

Baseline, measured in the same run: the "straightforward python-sat generator" of
the issue: a random grid, one CaDiCaL solver per grid loaded with the rules and a
"not this grid" clause, clues passed as assumptions, random-order removal with
one solve per clue (same grid sampler as ours, so only the removal differs).

Usage (one core):
    .venv/bin/python benchmarks/bench_generate.py            # everything (~5 min)
    .venv/bin/python benchmarks/bench_generate.py --quick    # smaller samples
    .venv/bin/python benchmarks/bench_generate.py --only-minimal9    # minimal 9x9 only
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np
from pysat.solvers import Solver

from csp_sudoku.core.geometry import Geometry
from csp_sudoku.encodings.cnf import rules_cnf
from csp_sudoku.generators import BudgetExhaustedError, generate, minimal_puzzle
from csp_sudoku.generators.grids import _grid_cells
from csp_sudoku.metrics.base import reference


def baseline_minimal(geo: Geometry, rng: np.random.Generator) -> np.ndarray:
    """The issue's python-sat baseline: one solver per grid, 'not this grid' clause."""
    n = geo.size
    sol = _grid_cells(geo, rng)
    lits = (np.arange(geo.ncells) * n + sol.astype(np.int64)).tolist()
    cnf = rules_cnf(geo)
    with Solver(name="cadical153", bootstrap_with=cnf.clauses) as s:
        s.add_clause([-v for v in lits])  # not this grid
        clues = np.ones(geo.ncells, dtype=bool)
        for c in rng.permutation(geo.ncells).tolist():
            clues[c] = False
            if s.solve(assumptions=[lits[i] for i in np.flatnonzero(clues).tolist()]):
                clues[c] = True  # another solution: put it back
    return np.where(clues, sol, 0).astype(np.int8)


def rate_of(make: Callable[[int], object], count: int, repeats: int) -> tuple[float, list[float]]:
    """Median puzzles per second over ``repeats`` batches of ``count``."""
    rates = []
    seed = 0
    for _ in range(repeats):
        t = time.perf_counter()
        for _ in range(count):
            make(seed)
            seed += 1
        rates.append(count / (time.perf_counter() - t))
    return statistics.median(rates), rates


def bench_minimal(size: int, count: int, repeats: int) -> None:
    geo = Geometry.standard(size)
    minimal_puzzle(geo, 0)  # compile / load caches
    minimal_puzzle(geo, 0, backend="sat")
    clues = [minimal_puzzle(geo, s).clue_count for s in range(count)]
    ours, _ = rate_of(lambda s: minimal_puzzle(geo, s), count, repeats)
    ours_sat, _ = rate_of(lambda s: minimal_puzzle(geo, s, backend="sat"), count, repeats)
    before = 0.0
    if size == 9:  # as before issue 11: the generic kernel and the Python removal loop
        from csp_sudoku.backends import fast
        from csp_sudoku.generators import minimal

        plain9, reduce9 = fast._is_plain9, minimal._reduce9
        fast._is_plain9 = lambda geometry: False  # type: ignore[assignment]
        minimal._reduce9 = lambda *args: None  # type: ignore[assignment]
        try:
            minimal_puzzle(geo, 0)
            before, _ = rate_of(lambda s: minimal_puzzle(geo, s), count, repeats)
        finally:
            fast._is_plain9, minimal._reduce9 = plain9, reduce9  # type: ignore[assignment]
    base, _ = rate_of(lambda s: baseline_minimal(geo, np.random.default_rng(s)), count, repeats)
    print(f"\n## minimal {geo.name} ({repeats} x {count} puzzles, median)")
    print(f"  baseline python-sat:        {base:8.2f} /s")
    print(f"  ours, backend=auto:         {ours:8.2f} /s   ({ours / base:.2f}x baseline)")
    print(f"  ours, backend=sat:          {ours_sat:8.2f} /s   ({ours_sat / base:.2f}x baseline)")
    if before:
        print(
            f"  ours, as before issue 11:   {before:8.2f} /s   ({before / base:.2f}x baseline; "
            f"now {ours / before:.2f}x that)"
        )
    print(
        f"  mean clue count:            {np.mean(clues):8.2f}  (min {min(clues)}, max {max(clues)})"
    )


def bench_target(label: str, count: int, budget: float, **kw: object) -> None:
    t = time.perf_counter()
    got = []
    try:
        for g in generate(count, seed=1, budget_seconds=budget, **kw):  # type: ignore[arg-type]
            got.append(g)
    except BudgetExhaustedError:
        pass
    dt = time.perf_counter() - t
    if got:
        per = dt / len(got)
        steps = statistics.mean(g.steps for g in got)
        atts = statistics.mean(g.attempts for g in got)
        print(
            f"  {label:42s} {len(got):3d} in {dt:6.1f} s: {per:7.2f} s each, "
            f"{60 / per:7.1f} /min (mean attempts {atts:.1f}, climb steps {steps:.1f})"
        )
    else:
        print(f"  {label:42s}   0 in {dt:6.1f} s (budget ran out)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only-targets", action="store_true", help="only the top-1% targets")
    ap.add_argument("--only-minimal9", action="store_true", help="only minimal 9x9 puzzles")
    args = ap.parse_args()
    q = args.quick
    if args.only_minimal9:
        bench_minimal(9, 100 if q else 300, 3 if q else 5)
        return
    if args.only_targets:
        top_percent(q)
        return
    bench_minimal(9, 100 if q else 300, 3 if q else 5)
    bench_minimal(16, 2 if q else 5, 3)
    print("\n## hard puzzles, 9x9, minimal (rounds level Hard or Fiendish: subsets of size >= 2)")
    n = 20 if q else 60
    for method in ("auto", "random"):
        bench_target(
            f"rounds Hard|Fiendish, method={method}",
            n,
            120.0,
            level=("hard", "fiendish"),
            metric="rounds",
            method=method,
        )
    bench_target("rounds Hard only, method=auto", n // 2, 120.0, level="hard", metric="rounds")
    bench_target(
        "rounds Hard only, method=random",
        n // 2,
        120.0,
        level="hard",
        metric="rounds",
        method="random",
    )
    bench_target(
        "rounds Hard|Fiendish, rot180",
        n // 2,
        120.0,
        level=("hard", "fiendish"),
        metric="rounds",
        symmetry="rot180",
    )
    print("\n## top of each metric's scale, 9x9, minimal (method=auto)")
    tops = [
        ("rounds", "fiendish"),
        ("oracle", "crazy"),
        ("hsolve", "very hard"),
        ("refutation", "very hard"),
        ("dependency", "very hard"),
    ]
    for metric, level in tops:
        bench_target(
            f"{metric} {level}", 3 if q else 5, 120.0 if q else 300.0, level=level, metric=metric
        )
    top_percent(q)


def top_percent(q: bool) -> None:
    """Scores beyond the 99th percentile of the reference sample: auto (climb) vs random."""
    print("\n## top 1% of the reference distribution (17-clue + top1465 sample), auto vs random")
    ref = reference()["metrics"]
    for metric in ("hsolve", "oracle", "refutation", "dependency"):
        pct = ref[metric]["percentiles"]
        if metric == "dependency":  # lower is harder
            lo, hi = float("-inf"), float(pct[1])
        else:
            lo, hi = float(pct[99]), float("inf")
        for method in ("auto", "random"):
            bench_target(
                f"{metric} in [{lo:.4g}, {hi:.4g}], {method}",
                2 if q else 3,
                60.0 if q else 120.0,
                score_range=(lo, hi),
                metric=metric,
                method=method,
            )


if __name__ == "__main__":
    main()
