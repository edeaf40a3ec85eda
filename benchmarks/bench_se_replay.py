"""Speed of the se replay's kernels: ``se_solve`` on SE-rated puzzles below ER 9.0.

Usage::

    .venv/bin/python benchmarks/bench_se_replay.py [--n 200] [--label NAME] [--held-out | --min-er E]

Times ``csp_sudoku.human.se_order.se_solve`` (rater ``sukaku``) on the first N
rows of se_calibration_top1465.tsv rated below 9.0 (so the replay stays in SE's
own techniques: subsets, fishes, wings, unique rectangles, the chain families),
or with ``--held-out`` on the first N held-out rows of every ER (the third that
benchmarks/fit_se.py keeps away from the fit and bench_explain_se.py rates:
they reach the chain families more often), after one warm-up replay that loads or
compiles the kernels (with ``--held-out`` one of each puzzle: the hardest load
kernels of their own, those of the nested chains), or with ``--min-er E`` on
the first N rows of both calibration files rated E or more (the hard end,
where the generator's searches spend their time: SE's dynamic forcing chains
(+) and nested chains; each puzzle replayed once first too). CPU is process
time, the fair one-core figure on a shared machine. To compare with another
version of the package, run the same command with ``PYTHONPATH`` pointing at
an extracted copy of it (``git archive REV csp_sudoku | tar -x -C DIR``) and a
``NUMBA_CACHE_DIR`` of its own.
"""

from __future__ import annotations

import argparse
import statistics
import time

import reference
from _common import one_core  # a sibling script (its folder is on sys.path)
from fit_se import held_out

import csp_sudoku as cs
from csp_sudoku.human.se_order import se_solve
from csp_sudoku.metrics.se import shipped_model


def _fallback(level: int, form: str, length: int) -> float:
    return shipped_model().chain_value(level, form, length)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200, help="puzzles (default 200)")
    ap.add_argument("--label", default="se replay", help="the name printed with the figures")
    ap.add_argument("--held-out", action="store_true", help="the held-out rows of every ER instead")
    ap.add_argument(
        "--min-er", type=float, help="the rows of both files rated this or more instead"
    )
    args = ap.parse_args()
    one_core()  # the figures are per core
    names = ["se_calibration_top1465.tsv"]
    if args.min_er is not None:
        names.append("se_calibration.tsv")
    rows = []
    for name in names:
        rows += [
            r
            for r in reference.rows(name)
            if (
                float(r["ER"]) >= args.min_er
                if args.min_er is not None
                else held_out(r["puzzle"])
                if args.held_out
                else float(r["ER"]) < 9.0
            )
        ]
    puzzles = [cs.parse(r["puzzle"]) for r in rows[: args.n]]
    for p in puzzles if args.held_out or args.min_er is not None else puzzles[:1]:
        se_solve(p, _fallback)
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
