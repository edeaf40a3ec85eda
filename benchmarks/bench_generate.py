"""Generator benchmarks: minimal 9x9 / 16x16 puzzles per second, hard puzzles per
minute, and the time to reach the top level of each metric.

Baselines, measured in the same run: the "straightforward python-sat generator":
a random grid, one CaDiCaL solver per grid loaded with the rules and a "not this
grid" clause, clues passed as assumptions, random-order removal with one solve
per clue (same grid sampler as ours, so only the removal differs); and for 9x9
tdoku's minimiser (``TdokuMinimize``: every clue tested in random order by a
count to 2 from scratch), compiled from ../shared/reference/tdoku at run time as
in bench_native.py, on our grids and after its own ``TdokuConstrain``.

Rates are puzzles per CPU second of this process (``time.process_time``, the
median over batches): the machine is shared, and wall time would count the
time other jobs hold the core.

``--plain`` measures what a user calls for plain minimal 9x9 puzzles, with the
novelty check on: ``cs.generate(n, minimal=True)`` (per CPU second, median of
batches) and ``csp-sudoku generate --count N --minimal`` (the CPU seconds of a
run of N puzzles minus those of a run of 50, so start-up is excluded), each as a
ratio of the kernel-level ``minimal_puzzle`` (no novelty, no output) measured in
the same process. The README's figure for plain generation is what it prints.

Usage (one core):
    .venv/bin/python benchmarks/bench_generate.py            # everything (~5 min)
    .venv/bin/python benchmarks/bench_generate.py --quick    # smaller samples
    .venv/bin/python benchmarks/bench_generate.py --only-minimal9    # minimal 9x9 only
    taskset -c 0 .venv/bin/python benchmarks/bench_generate.py --plain  # API and CLI (~1 min)
"""

from __future__ import annotations

import argparse
import ctypes
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

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
    """Median puzzles per CPU second over ``repeats`` batches of ``count``."""
    rates = []
    seed = 0
    for _ in range(repeats):
        t = time.process_time()
        for _ in range(count):
            make(seed)
            seed += 1
        rates.append(count / (time.process_time() - t))
    return statistics.median(rates), rates


def tdoku_library(into: Path) -> ctypes.CDLL | None:
    """tdoku built into ``into`` (see bench_native.build_tdoku), its minimiser declared; or None."""
    from bench_native import TDOKU, build_tdoku

    dll = build_tdoku(TDOKU, into)
    if dll is None:
        return None
    for name in ("TdokuMinimize", "TdokuConstrain"):
        fn = getattr(dll, name)
        fn.restype = ctypes.c_bool
    dll.TdokuMinimize.argtypes = [ctypes.c_bool, ctypes.c_bool, ctypes.c_char_p]
    dll.TdokuConstrain.argtypes = [ctypes.c_bool, ctypes.c_char_p]
    return dll


def tdoku_minimal(dll: ctypes.CDLL, geo: Geometry, seed: int) -> int:
    """tdoku's minimiser on our random grid for ``seed``; the clue count of its puzzle."""
    sol = _grid_cells(geo, np.random.default_rng(seed))
    buf = ctypes.create_string_buffer((sol + 48).astype(np.uint8).tobytes(), 96)
    dll.TdokuMinimize(False, False, buf)
    return 81 - buf.raw[:81].count(b".")


def tdoku_generated(dll: ctypes.CDLL) -> int:
    """tdoku's own generator: an empty grid constrained to a unique puzzle, then minimised."""
    buf = ctypes.create_string_buffer(b"." * 81, 96)
    dll.TdokuConstrain(False, buf)
    dll.TdokuMinimize(False, False, buf)
    return 81 - buf.raw[:81].count(b".")


def bench_minimal(size: int, count: int, repeats: int) -> None:
    geo = Geometry.standard(size)
    minimal_puzzle(geo, 0)  # compile / load caches
    minimal_puzzle(geo, 0, backend="sat")
    clues = [minimal_puzzle(geo, s).clue_count for s in range(count)]
    ours, _ = rate_of(lambda s: minimal_puzzle(geo, s), count, repeats)
    ours_sat, _ = rate_of(lambda s: minimal_puzzle(geo, s, backend="sat"), count, repeats)
    before = 0.0
    if size == 9:  # as in version 0.1: the generic kernel and the Python removal loop
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
    tdoku: list[tuple[str, float, list[int]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        dll = tdoku_library(Path(tmp)) if size == 9 else None
        if dll is not None:
            lib = dll
            td_clues = [tdoku_minimal(lib, geo, s) for s in range(count)]
            rate, _ = rate_of(lambda s: tdoku_minimal(lib, geo, s), count, repeats)
            tdoku.append(("tdoku minimiser, our grids:", rate, td_clues))
            td_clues = [tdoku_generated(lib) for _ in range(count)]
            rate, _ = rate_of(lambda s: tdoku_generated(lib), count, repeats)
            tdoku.append(("tdoku constrain + minimise:", rate, td_clues))
    print(f"\n## minimal {geo.name} ({repeats} x {count} puzzles, median, per CPU second)")
    print(f"  baseline python-sat:        {base:8.2f} /s")
    print(f"  ours, backend=auto:         {ours:8.2f} /s   ({ours / base:.2f}x baseline)")
    print(f"  ours, backend=sat:          {ours_sat:8.2f} /s   ({ours_sat / base:.2f}x baseline)")
    if before:
        print(
            f"  ours, as in version 0.1:    {before:8.2f} /s   ({before / base:.2f}x baseline; "
            f"now {ours / before:.2f}x that)"
        )
    for label, rate, td_clues in tdoku:
        print(
            f"  {label:27s} {rate:8.2f} /s   (ours {ours / rate:.2f}x that; mean clue count "
            f"{np.mean(td_clues):.2f})"
        )
    print(
        f"  mean clue count:            {np.mean(clues):8.2f}  (min {min(clues)}, max {max(clues)})"
    )


def _cli_cpu_seconds(count: int) -> float:
    """CPU seconds of ``csp-sudoku generate --count COUNT --minimal`` (output to a file)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [sys.executable, "-m", "csp_sudoku", "generate", "--count", str(count), "--minimal",
             "--seed", "3", "-q", "-o", str(Path(tmp) / "out.txt")],
            check=True,
        )  # fmt: skip
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def bench_plain(count: int, repeats: int) -> None:
    """Plain minimal 9x9 through the API and the CLI, novelty on, against the kernel-level
    generator in the same process."""
    geo = Geometry.standard(9)
    minimal_puzzle(geo, 0)
    list(generate(20, minimal=True, seed=0))  # kernels loaded, keys read
    kernel, _ = rate_of(lambda s: minimal_puzzle(geo, s), count, repeats)
    api_rates = []
    for r in range(repeats):
        t = time.process_time()
        got = sum(1 for _ in generate(count, minimal=True, seed=100 + r))
        api_rates.append(got / (time.process_time() - t))
    api = statistics.median(api_rates)
    small = _cli_cpu_seconds(50)
    big = _cli_cpu_seconds(50 + count * repeats)
    cli = count * repeats / (big - small)
    print(f"\n## plain minimal 9x9, novelty on ({repeats} x {count} puzzles, per CPU second)")
    print(f"  minimal_puzzle (kernel level): {kernel:8.0f} /s")
    print(f"  cs.generate(n, minimal=True):  {api:8.0f} /s   ({api / kernel:.2f}x kernel level)")
    print(f"  csp-sudoku generate --minimal: {cli:8.0f} /s   ({cli / kernel:.2f}x kernel level;")
    print(f"    {big:.2f} CPU s for {50 + count * repeats} puzzles minus {small:.2f} for 50)")


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
    ap.add_argument("--only-targets", action="store_true", help="only the top-1%% targets")
    ap.add_argument("--only-minimal9", action="store_true", help="only minimal 9x9 puzzles")
    ap.add_argument(
        "--plain", action="store_true", help="only plain minimal 9x9 through the API and the CLI"
    )
    args = ap.parse_args()
    q = args.quick
    if args.plain:
        bench_plain(1000 if q else 2000, 3 if q else 5)
        return
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
