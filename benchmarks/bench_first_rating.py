"""A first ``csp-sudoku rate --metric se`` on an empty numba cache: with the nested
helper (the default) against without it (``CSP_SUDOKU_NO_HELPER=1``); ``--command``
explain or generate for their first runs.

What a pip user's first rating pays before ``compile --warm`` was run: numba
compiles the se metric's kernels, half of them one kernel (SE's nets with the
basic techniques and the nested chains inside), which the nested helper
compiles in a process of its own (``csp_sudoku/metrics/_helper.py``). Each
round rates the puzzle both ways, each in a child process whose
``NUMBA_CACHE_DIR`` is an empty folder of its own, alternating which goes
first; it prints the wall time of each, checks that both print the same
output, and prints the ratio of the medians. The default puzzle, rated 10.4,
reaches the nested chains; an easy one does not (its first rating compiles
less, and the helper changes nothing but the CPU it spends). ``--command
explain`` explains the puzzle (the se path); ``--command generate`` makes one
SE extreme puzzle (seed 1), which rates with the nested chains too.

    .venv/bin/python benchmarks/bench_first_rating.py --rounds 2
    .venv/bin/python benchmarks/bench_first_rating.py --rounds 1 --command explain
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

#: One of the forum's hardest (in examples/data/few.txt), ER 10.4.
HARD = "....5.7..4.7..9.3..8....1..2.8..7.....4..8....7..9...3......6...4...2.97..2.....1"


def argv(command: str, puzzle: str) -> list[str]:
    """The command line of ``command`` (rate, explain or generate)."""
    if command == "explain":
        return ["explain", puzzle]
    if command == "generate":
        return ["generate", "-n", "1", "--level", "extreme", "--metric", "se", "--seed", "1", "-q"]
    return ["rate", "--metric", "se", "-q", puzzle]


def first_run(command: list[str], helper: bool) -> tuple[float, str]:
    """Wall seconds and the output of ``csp-sudoku COMMAND`` on an empty numba cache."""
    env = {k: v for k, v in os.environ.items() if k != "CSP_SUDOKU_NO_HELPER"}
    if not helper:
        env["CSP_SUDOKU_NO_HELPER"] = "1"
    with tempfile.TemporaryDirectory(prefix="bench-first-") as cache:
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "csp_sudoku", *command],
            env={**env, "NUMBA_CACHE_DIR": cache},
            check=True,
            capture_output=True,
            text=True,
        )
        return time.perf_counter() - started, done.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=2, help="rounds of both ways (default 2)")
    ap.add_argument("--puzzle", default=HARD, help="the puzzle to rate (default: ER 10.4)")
    ap.add_argument(
        "--command", choices=("rate", "explain", "generate"), default="rate", help="what to run"
    )
    args = ap.parse_args()
    command = argv(args.command, args.puzzle)
    print(f"commit {commit()}, {processor()}, {os.cpu_count()} cores: {' '.join(command)}")
    times: dict[bool, list[float]] = {False: [], True: []}
    rows: set[str] = set()
    for r in range(args.rounds):
        for helper in (False, True) if r % 2 == 0 else (True, False):
            seconds, row = first_run(command, helper)
            times[helper].append(seconds)
            rows.add(row)
            name = "nested helper" if helper else "no helper    "
            print(f"round {r + 1}  {name}  {seconds:6.1f} s", flush=True)
    assert len(rows) == 1, rows  # the same output either way
    alone, shared = statistics.median(times[False]), statistics.median(times[True])
    print(f"median: no helper {alone:.1f} s, nested helper {shared:.1f} s: {ratio(alone, shared)}")


if __name__ == "__main__":
    main()
