"""Speed of the se replay's kernels: ``se_solve`` on SE-rated puzzles below ER 9.0.

Usage::

    .venv/bin/python benchmarks/bench_se_replay.py [--n 200] [--label NAME]

Times ``csp_sudoku.human.se_order.se_solve`` (rater ``sukaku``) on the first N
rows of se_calibration_top1465.tsv rated below 9.0 (so the replay stays in SE's
own techniques: subsets, fishes, wings, unique rectangles, the chain families),
after one warm-up replay that loads or compiles the kernels. CPU is process
time, the fair one-core figure on a shared machine. To compare with another
version of the package, run the same command with ``PYTHONPATH`` pointing at
an extracted copy of it (``git archive REV csp_sudoku | tar -x -C DIR``) and a
``NUMBA_CACHE_DIR`` of its own.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import time

from metric_data import SHARED

import csp_sudoku as cs
from csp_sudoku.human.se_order import se_solve
from csp_sudoku.metrics.se import shipped_model

DATA = SHARED


def _fallback(level: int, form: str, length: int) -> float:
    return shipped_model().chain_value(level, form, length)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200, help="puzzles (default 200)")
    ap.add_argument("--label", default="se replay", help="the name printed with the figures")
    args = ap.parse_args()
    with (DATA / "se_calibration_top1465.tsv").open() as fh:
        rows = [r for r in csv.DictReader(fh, delimiter="\t") if float(r["ER"]) < 9.0]
    puzzles = [cs.parse(r["puzzle"]) for r in rows[: args.n]]
    se_solve(puzzles[0], _fallback)
    times = []
    for p in puzzles:
        start = time.process_time()
        se_solve(p, _fallback)
        times.append(time.process_time() - start)
    print(
        f"{args.label}: {len(times)} puzzles, CPU total {sum(times):.2f} s, "
        f"median {1000 * statistics.median(times):.1f} ms"
    )


if __name__ == "__main__":
    main()
