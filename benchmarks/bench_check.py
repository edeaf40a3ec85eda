"""Uniqueness checks: the fast path against our SAT path and the peers, in one process.

Usage::

    .venv/bin/python benchmarks/bench_check.py [--sample N] [--reps R]
        [--sat-solvers cadical153,glucose4,minisat22] [--naive-solver minisat22]

For each shared data set (``../shared/data``), a sample of N puzzles spread
over the file, the median microseconds per puzzle (count up to 2) of:

* ``fast batch``: ``FastBackend.count_many`` on the puzzle repeated R times in
  one call, divided by R (the per-puzzle cost inside one compiled batch);
* ``fast is_unique``: ``csp_sudoku.is_unique(s)`` on the 81-character string;
* ``sat:<solver>``: ``Checker("sat:<solver>").is_unique(s)``, our incremental
  SAT path (one solver per geometry, clues as assumptions);
* ``naive``: a fresh python-sat solver per puzzle, rules plus clues as unit
  clauses, solve, block the solution, solve again;
* ``hodoku raw`` / ``hodoku validate``: hodoku-py's C-accelerated solver call
  (``_gen_accel.solve_string``) and its public ``Generator().validate`` (when
  hodoku-py is installed: ``pip install -r benchmarks/requirements.txt``).

Ratios are printed against the naive baseline (measured here, same process)
and against tdoku's figures measured on this machine (issue 3). Then the
removable-clues query on 17-clue puzzles and the first call in a fresh process.
Times are medians over puzzles; the machine is shared, so compare ratios.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

import csp_sudoku
from csp_sudoku.api import Checker
from csp_sudoku.backends import get_backend
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import fast_cells
from csp_sudoku.encodings.cnf import rules_cnf

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
G9 = Geometry.standard(9)

#: (file, expected count with limit 2, tdoku us/puzzle measured here, issue 3's table)
SETS = [
    ("17_clue.txt", 1, 3.3),
    ("top1465.txt", 1, 9.4),
    ("forum_hardest_1106.txt", 1, 82.0),
    ("forum_hardest_11plus.txt", 1, 53.0),
    ("multi_solution_serg.txt", 2, 2.1),
]

#: Targets of issue 3 for the batch call, us per puzzle.
TARGETS = {
    "17_clue.txt": 40.0,
    "top1465.txt": 150.0,
    "forum_hardest_1106.txt": 1000.0,
    "forum_hardest_11plus.txt": 400.0,
    "multi_solution_serg.txt": 40.0,
}


def load(name: str, sample: int) -> list[str]:
    """``sample`` puzzle lines spread evenly over the file."""
    lines = [
        s.split()[0]
        for s in (ln.strip() for ln in (DATA / name).open(encoding="utf-8"))
        if s and not s.startswith("#")
    ]
    step = max(1, len(lines) // sample)
    return lines[::step][:sample]


def median_us(
    fn: Callable[[str], object], items: list[str], reps: int = 1, rounds: int = 1
) -> float:
    """Median over ``items`` of the mean time of ``reps`` calls of ``fn(item)``, in us.

    With ``rounds > 1`` each item's time is the best of that many rounds, which
    filters out the bursts of the other jobs sharing the machine.
    """
    times = []
    for it in items:
        best = float("inf")
        for _ in range(rounds):
            t0 = time.perf_counter()
            for _ in range(reps):
                fn(it)
            best = min(best, (time.perf_counter() - t0) / reps)
        times.append(best)
    return statistics.median(times) * 1e6


def fast_batch_us(lines: list[str], reps: int, rounds: int) -> tuple[float, float, list[int]]:
    """Median per puzzle inside one batch call, the whole-batch mean, and the counts.

    A puzzle's time is one ``count_many`` call on the puzzle repeated ``reps``
    times, divided by ``reps`` (best of ``rounds``); the mean is the whole
    sample in one call (best of ``rounds``).
    """
    fast = get_backend("fast")
    rows = [fast_cells(s)[0] for s in lines]  # type: ignore[index]
    times = []
    for r in rows:
        block = np.repeat(r[None, :], reps, axis=0)
        best = float("inf")
        for _ in range(rounds):
            t0 = time.perf_counter()
            fast.count_many(block, G9, 2)
            best = min(best, (time.perf_counter() - t0) / reps)
        times.append(best)
    batch = np.stack(rows)
    mean = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        counts = fast.count_many(batch, G9, 2)
        mean = min(mean, (time.perf_counter() - t0) / len(rows))
    return statistics.median(times) * 1e6, mean * 1e6, counts.tolist()


def naive_checker(solver_name: str) -> Callable[[str], int]:
    """A fresh python-sat solver per puzzle: rules + clue units, solve, block, solve."""
    from pysat.solvers import Solver

    clauses = rules_cnf(G9).clauses  # the clause list is built once; the solver is not

    def count(s: str) -> int:
        cells = fast_cells(s)[0]  # type: ignore[index]
        idx = np.flatnonzero(cells)
        units = [[int(i) * 9 + int(cells[i])] for i in idx]
        with Solver(name=solver_name, bootstrap_with=clauses) as sat:
            for u in units:
                sat.add_clause(u)
            if not sat.solve():
                return 0
            model = sat.get_model()
            sat.add_clause([-v for v in model[:729] if v > 0])
            return 2 if sat.solve() else 1

    return count


def hodoku_calls() -> dict[str, Callable[[str], int]]:
    """hodoku-py's raw C solver call and its public validate, when installed."""
    try:
        import hodoku
        from hodoku.generator import _gen_accel  # type: ignore[attr-defined]
    except ImportError:
        return {}
    generator = hodoku.Generator()
    verdict = {"valid": 1, "multiple": 2, "invalid": 0}

    def raw(s: str) -> int:
        return int(_gen_accel.solve_string(s)[0])

    def validate(s: str) -> int:
        return verdict[generator.validate(s)]

    return {"hodoku raw": raw, "hodoku validate": validate}


def first_call_seconds() -> float:
    """Seconds from interpreter start to the first answer of ``is_unique`` in a new process."""
    code = (
        "import time; t = time.perf_counter(); import csp_sudoku; "
        "csp_sudoku.is_unique('4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......'); "
        "print(time.perf_counter() - t)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def removable_us(sample: int) -> tuple[float, float, float]:
    """Median us of the removable-clues query on 17-clue puzzles: fast, fast via Checker, SAT."""
    lines = load("17_clue.txt", sample)
    fast = get_backend("fast")
    sat = get_backend("sat")
    chk = Checker(G9)
    rows = [fast_cells(s)[0] for s in lines]  # type: ignore[index]
    sols = [fast.solve(r, G9) for r in rows]
    t_fast, t_chk, t_sat = [], [], []
    for r, sol in zip(rows, sols, strict=True):
        assert sol is not None
        t0 = time.perf_counter()
        fast.removable_clues(r, G9, sol)
        t_fast.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        chk.removable_clues(r)  # solves first, then the removal loop
        t_chk.append(time.perf_counter() - t0)
    for r, sol in zip(rows[:20], sols[:20], strict=True):
        assert sol is not None
        t0 = time.perf_counter()
        sat.removable_clues(r, G9, sol)
        t_sat.append(time.perf_counter() - t0)
    return (
        statistics.median(t_fast) * 1e6,
        statistics.median(t_chk) * 1e6,
        statistics.median(t_sat) * 1e6,
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sample", type=int, default=200, help="puzzles per data set")
    ap.add_argument("--reps", type=int, default=5, help="repeats of a puzzle in the fast timings")
    ap.add_argument("--rounds", type=int, default=3, help="best-of rounds for the fast timings")
    ap.add_argument("--sat-solvers", default="cadical153,glucose4,minisat22")
    ap.add_argument("--naive-solver", default="minisat22")
    ap.add_argument("--naive-sample", type=int, default=60, help="puzzles for the naive baseline")
    args = ap.parse_args(argv)

    print(f"first call in a fresh process: {first_call_seconds():.2f} s (cache loaded)")
    # warm every path once
    warm = load("top1465.txt", 2)
    csp_sudoku.is_unique(warm[0])
    get_backend("fast").count_many(np.stack([fast_cells(warm[0])[0]]), G9, 2)  # type: ignore[index]
    peers = hodoku_calls()
    naive = naive_checker(args.naive_solver)
    sat_checkers = {f"sat:{n}": Checker(G9, f"sat:{n}") for n in args.sat_solvers.split(",")}

    header = ["set", "fast batch", "batch mean", "fast is_unique"]
    header += [*sat_checkers, f"naive {args.naive_solver}", *peers]
    header += ["batch/naive", "batch/tdoku", "single/tdoku", "target", "met"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for name, expected, tdoku in SETS:
        lines = load(name, args.sample)
        med, mean, counts = fast_batch_us(lines, args.reps, args.rounds)
        if counts != [expected] * len(lines):
            print(f"!! {name}: fast counts disagree with what is known", file=sys.stderr)
        single = median_us(csp_sudoku.is_unique, lines, args.reps, args.rounds)
        row = [name.removesuffix(".txt"), f"{med:.1f}", f"{mean:.1f}", f"{single:.1f}"]
        for chk in sat_checkers.values():
            row.append(f"{median_us(chk.is_unique, lines):.0f}")
        naive_lines = lines[:: max(1, len(lines) // args.naive_sample)]
        t_naive = median_us(naive, naive_lines)
        row.append(f"{t_naive:.0f}")
        for fn in peers.values():
            wrong = sum(fn(s) != expected for s in lines[:50])
            t_peer = median_us(fn, lines, 2, args.rounds)
            row.append(f"{t_peer:.0f}" + (f" ({wrong} wrong)" if wrong else ""))
        target = TARGETS[name]
        ok = med <= target and single <= 1.5 * target
        row += [
            f"{t_naive / med:.0f}x faster",
            f"{med / tdoku:.1f}x slower",
            f"{single / tdoku:.1f}x slower",
            f"{target:.0f}",
            "yes" if ok else "NO",
        ]
        print("| " + " | ".join(row) + " |", flush=True)

    t_fast, t_chk, t_sat = removable_us(50)
    print(
        f"removable clues, 17-clue puzzles (median): fast {t_fast:.0f} us, "
        f"Checker.removable_clues incl. solving {t_chk:.0f} us, SAT {t_sat:.0f} us "
        f"({t_sat / t_fast:.0f}x); target 2000 us"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
