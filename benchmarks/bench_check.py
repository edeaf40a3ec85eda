"""Uniqueness checks: the fast path against our SAT path and the peers, in one process.

Usage::

    .venv/bin/python benchmarks/bench_check.py [--sample N] [--reps R]
        [--sat-solvers cadical153,glucose4,minisat22] [--naive-solver minisat22]
    .venv/bin/python benchmarks/bench_check.py --pipeline 1000000 [--repeats 3]

For each reference set (tests/data/reference), a sample of N puzzles spread
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
and against tdoku's figures measured on this machine (an earlier run of
``bench_native.py``, which now measures tdoku in the same process). Then the
removable-clues query on 17-clue puzzles and the first call in a fresh process.
Times are medians over puzzles; the machine is shared, so compare ratios.

``--pipeline N`` measures the command instead: ``csp-sudoku check FILE -o
/dev/null`` on a file of N lines (the 17-clue set repeated, comments left
out) with ``--jobs 1`` and ``--jobs 2``, against ``count_many`` (the fast
backend, one call per copy of the set) on the same N puzzles in this process.
Each repeat runs the three in turn, so the ratios of a repeat share the
machine's load; the medians of the repeats are printed. Throughput is lines
over the command's wall time (interpreter start included); the rate the
command prints itself (from the start of its work) is shown beside it. The
peak memory is taken from one more run of each, sampled every 0.1 s with
psutil (not during the timed runs: reading it costs CPU): the sum of the
resident set sizes over the command and its workers, the same with PSS (a
shared page counted once), and the main process plus its largest worker
(``--jobs 2`` on bare 9x9 lines runs threads: one process). The CPU model
gives the ratio ``--jobs 2`` would reach with two free cores: the start of a
process (the CPU of a 100-line run), then the rest of its CPU shared evenly
by the two cores.

On a shared machine ``--jobs 2`` gets no second core when other jobs keep
both busy, so each ``--jobs 2`` run also gives its CPU model: the CPU seconds
of ``--jobs 1`` over the wall time ``--jobs 2`` would take with a free core
per process, counted as the main process's CPU seconds plus its busiest
worker's (the reading overlaps the workers, so this errs on the slow side).
*CPU model 2* lets the main process share the two cores after its start: the
main process's CPU seconds until its first worker is seen (sampled every
0.01 s; the serial start, shown in the last column), then the busiest
worker's CPU seconds or half of all the CPU seconds spent after that,
whichever is more.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import reference

import csp_sudoku
from csp_sudoku.api import Checker
from csp_sudoku.backends import get_backend
from csp_sudoku.core.geometry import Geometry
from csp_sudoku.core.io import fast_cells
from csp_sudoku.encodings.cnf import rules_cnf

CLI = Path(sys.executable).with_name("csp-sudoku")
G9 = Geometry.standard(9)

#: (file, expected count with limit 2, tdoku us/puzzle measured on this machine earlier)
SETS = [
    ("17_clue.txt", 1, 3.3),
    ("top1465.txt", 1, 9.4),
    ("forum_hardest_1106.txt", 1, 82.0),
    ("forum_hardest_11plus.txt", 1, 53.0),
    ("multi_solution_serg.txt", 2, 2.1),
]

#: The targets for the batch call, us per puzzle.
TARGETS = {
    "17_clue.txt": 40.0,
    "top1465.txt": 150.0,
    "forum_hardest_1106.txt": 1000.0,
    "forum_hardest_11plus.txt": 400.0,
    "multi_solution_serg.txt": 40.0,
}


def load(name: str, sample: int) -> list[str]:
    """``sample`` puzzle lines spread evenly over the file."""
    lines = reference.puzzles(name)
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


@dataclass
class Run:
    """One ``check`` command: wall and CPU seconds, its own rate, its peak memory in bytes."""

    wall: float
    cpu: float
    rate: float
    rss_sum: int
    pss_sum: int
    main_plus_worker: int


def _children_cpu() -> float:
    """User + system seconds of the waited-for child processes (and theirs) so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_check(path: Path, jobs: int, *, memory: bool = False) -> Run:
    """Run ``csp-sudoku check PATH -o /dev/null --jobs JOBS``.

    The CPU seconds of each process are sampled every 0.1 s; with ``memory``
    their memory too (reading /proc/PID/smaps costs CPU, which a timed run
    must not lose to it).
    """
    import psutil

    cpu0 = _children_cpu()
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [str(CLI), "check", str(path), "-o", "/dev/null", "--jobs", str(jobs)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    main = psutil.Process(proc.pid)
    rss = pss = pair = 0
    while proc.poll() is None:
        time.sleep(0.1)
        if not memory:
            continue
        try:
            workers = main.children(recursive=True)
            m = main.memory_full_info()
            ws = [w.memory_full_info() for w in workers if w.is_running()]
        except psutil.Error:  # a process ended between two calls
            continue
        rss = max(rss, m.rss + sum(w.rss for w in ws))
        pss = max(pss, m.pss + sum(w.pss for w in ws))
        pair = max(pair, m.rss + max((w.rss for w in ws), default=0))
    wall = time.perf_counter() - t0
    cpu = _children_cpu() - cpu0  # the workers were waited for by the command
    err = proc.stderr.read() if proc.stderr is not None else ""
    found = re.search(r"\(([\d,]+)/s\)", err)
    if proc.returncode != 0 or found is None:
        sys.exit(f"check failed ({proc.returncode}): {err[-500:]}")
    rate = float(found.group(1).replace(",", ""))
    return Run(wall, cpu, rate, rss, pss, pair)


def count_many_seconds(base: np.ndarray, n: int) -> tuple[float, float]:
    """Wall and CPU seconds of ``count_many`` (fast backend) on ``n`` puzzles of ``base`` repeated."""
    fast = get_backend("fast")
    c0 = time.process_time()
    t0 = time.perf_counter()
    done = 0
    while done < n:
        part = base[: n - done]
        counts = fast.count_many(part, G9, 2)
        if counts.min() != 1:
            sys.exit("count_many: a 17-clue puzzle is not unique?")
        done += len(part)
    return time.perf_counter() - t0, time.process_time() - c0


def pipeline(lines: int, repeats: int) -> int:
    """The throughput and memory of ``check`` on ``lines`` 17-clue lines, against ``count_many``."""
    base_lines = load("17_clue.txt", 10**9)
    base = np.stack([fast_cells(s)[0] for s in base_lines])  # type: ignore[index]
    get_backend("fast").count_many(base[:10], G9, 2)  # load the kernel before timing it
    mb = 2**20
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "17_clue_repeated.txt"
        with path.open("w") as fh:
            for i in range(lines):
                fh.write(base_lines[i % len(base_lines)] + "\n")
        print(f"{lines:,} lines, {path.stat().st_size / mb:.0f} MB; each repeat: count_many, "
              "--jobs 1, --jobs 2")  # fmt: skip
        short = Path(tmp) / "100.txt"
        short.write_text("".join(line + "\n" for line in base_lines[:100]))
        built = subprocess.run([str(CLI), "compile", "--status"], capture_output=True, text=True)
        print(f"kernels built ahead of time: {built.stdout.strip()}")
        header = ["repeat", "load", "count_many /s", "--jobs 1 /s (own)", "--jobs 2 /s (own)",
                  "jobs 1 / count_many", "same, CPU time", "jobs 2 / jobs 1",
                  "same, two free cores (CPU model)", "start (CPU)"]  # fmt: skip
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        ratios1, cpu1, ratios2, model2 = [], [], [], []
        for k in range(repeats):
            busy = os.getloadavg()[0]
            wall, cpu = count_many_seconds(base, lines)
            one = run_check(path, 1)
            two = run_check(path, 2)
            start = run_check(short, 1).cpu  # the start: interpreter, modules, kernels
            kernel, r1, r2 = lines / wall, lines / one.wall, lines / two.wall
            ratios1.append(r1 / kernel)
            cpu1.append(cpu / one.cpu)
            ratios2.append(r2 / r1)
            # with two free cores: the start, then the rest of the CPU shared out evenly
            model2.append(one.cpu / (start + max(0.0, two.cpu - start) / 2))
            row = [str(k + 1), f"{busy:.1f}", f"{kernel:,.0f}", f"{r1:,.0f} ({one.rate:,.0f})",
                   f"{r2:,.0f} ({two.rate:,.0f})", f"{r1 / kernel:.0%}", f"{cpu / one.cpu:.0%}",
                   f"{r2 / r1:.2f}x", f"{model2[-1]:.2f}x", f"{start:.2f} s"]  # fmt: skip
            print("| " + " | ".join(row) + " |", flush=True)
        med1, medc, med2, medm = (statistics.median(x) for x in (ratios1, cpu1, ratios2, model2))
        print(f"median: --jobs 1 at {med1:.0%} of count_many's throughput (CPU time: {medc:.0%}; "
              f"target >= 70%), --jobs 2 {med2:.2f}x --jobs 1 ({medm:.2f}x with two free cores "
              "by the CPU model; target >= 1.8x)")  # fmt: skip
        print("peak memory (one more run each, sampled every 0.1 s; target < 300 MB):")
        for jobs in (1, 2):
            run = run_check(path, jobs, memory=True)
            print(f"  --jobs {jobs}: RSS summed over the processes {run.rss_sum / mb:.0f} MB, "
                  f"PSS summed {run.pss_sum / mb:.0f} MB, main process + its largest worker "
                  f"{run.main_plus_worker / mb:.0f} MB (RSS)")  # fmt: skip
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sample", type=int, default=200, help="puzzles per data set")
    ap.add_argument("--reps", type=int, default=5, help="repeats of a puzzle in the fast timings")
    ap.add_argument("--rounds", type=int, default=3, help="best-of rounds for the fast timings")
    ap.add_argument("--sat-solvers", default="cadical153,glucose4,minisat22")
    ap.add_argument("--naive-solver", default="minisat22")
    ap.add_argument("--naive-sample", type=int, default=60, help="puzzles for the naive baseline")
    ap.add_argument(
        "--pipeline",
        type=int,
        metavar="LINES",
        help="measure `csp-sudoku check` on LINES 17-clue lines against count_many instead",
    )
    ap.add_argument("--repeats", type=int, default=3, help="repeats of the --pipeline runs")
    args = ap.parse_args(argv)
    if args.pipeline:
        return pipeline(args.pipeline, args.repeats)

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
