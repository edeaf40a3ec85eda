"""``csp-sudoku compile --warm`` on an empty numba cache: its parts in two processes
(``--jobs 2``) against one after the other (``--jobs 1``).

What a first set-up pays (``scripts/setup.sh`` runs the command, so does every
fresh clone's test run): numba compiles the kernels of the se metric, the
other metrics and the 9x9 generators. Each round runs both ways in a child
process whose ``NUMBA_CACHE_DIR`` is an empty folder of its own, alternating
which goes first; it prints the wall time of each and the ratio of the serial
run's to the parallel run's (the median over the rounds). On a machine of one
core both ways are the same (the pool never has more workers than cores).

    .venv/bin/python benchmarks/bench_warm.py --rounds 2
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

from _common import commit, processor, ratio


def cold_warm(jobs: int) -> float:
    """Wall seconds of ``compile --warm --jobs JOBS`` on an empty numba cache."""
    with tempfile.TemporaryDirectory(prefix="bench-warm-") as cache:
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "csp_sudoku", "compile", "--warm", "--jobs", str(jobs)],
            env={**os.environ, "NUMBA_CACHE_DIR": cache},
            check=True,
            capture_output=True,
        )
        return time.perf_counter() - started


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=2, help="rounds of both ways (default 2)")
    args = ap.parse_args()
    print(f"commit {commit()}, {processor()}, {os.cpu_count()} cores")
    times: dict[int, list[float]] = {1: [], 2: []}
    for r in range(args.rounds):
        for jobs in (1, 2) if r % 2 == 0 else (2, 1):
            times[jobs].append(cold_warm(jobs))
            print(f"round {r + 1}  --jobs {jobs}  {times[jobs][-1]:6.1f} s", flush=True)
    serial, side = statistics.median(times[1]), statistics.median(times[2])
    print(f"median: --jobs 1 {serial:.1f} s, --jobs 2 {side:.1f} s: {ratio(serial, side)}")


if __name__ == "__main__":
    main()
