"""The SE 10+ search with and without its preference for fewer clues.

The whole-vicinity search can order its frontier by the objective plus
``anneal.LEAN`` for each clue fewer (docs/generators.md, "Fewer clues
first"; 0, off, by default). Whether a 120 s run meets SE 10 is set by the path its climb takes,
so versions are compared over many seeds: for each ``--seed``, this runs
``generate(..., score_range=(10, inf), metric="se")`` for ``--seconds`` once
per ``--lean`` value (in this process, one after the other, after one
warm-up), and prints when each run met its first new SE 10+ puzzle; then,
per value, how many seeds met one, and the ratio to the first value's count.
Split the seeds over cores to run it in less wall time, one core each:

    taskset -c 0 .venv/bin/python benchmarks/bench_lean.py --lean 0 0.05 --seed 33 34 35
    taskset -c 1 .venv/bin/python benchmarks/bench_lean.py --lean 0 0.05 --seed 36 37 38
"""

from __future__ import annotations

import argparse
import math
import time

import csp_sudoku as cs
import csp_sudoku.generators.anneal as anneal_mod
from csp_sudoku.generators.novelty import default_keys
from csp_sudoku.metrics import rate


def first_ten(seed: int, seconds: float, lean: float) -> tuple[float | None, int, float]:
    """One run: (seconds to its first SE 10+ output or None, outputs, best score met)."""
    anneal_mod.LEAN = lean
    best = [-math.inf]

    def progress(report: dict[str, object]) -> None:
        if isinstance(report.get("best"), float | int):
            best[0] = max(best[0], float(report["best"]))  # type: ignore[arg-type]

    first: float | None = None
    n = 0
    start = time.time()
    gen = cs.generate(
        10_000,
        score_range=(10.0, math.inf),
        metric="se",
        seed=seed,
        budget_seconds=seconds,
        progress=progress,
    )
    try:
        for g in gen:
            n += 1
            best[0] = max(best[0], g.ratings["se"].score)
            if first is None:
                first = time.time() - start
    except cs.generators.BudgetExhaustedError:
        pass
    return first, n, best[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=120.0, help="budget of each run")
    ap.add_argument("--seed", type=int, nargs="+", default=[1, 2, 3, 4])
    ap.add_argument("--lean", type=float, nargs="+", default=[0.0, 0.05])
    args = ap.parse_args()
    default_keys()  # warm up: the canonical keys, the kernels
    for p in cs.generate(2, seed=0):
        rate(p.puzzle, "se")
    list(cs.generate(1, level="fiendish", metric="se", seed=0, budget_seconds=60))
    print(f"budget {args.seconds:g} s a run, one process; first SE 10+ output (s)")
    print("seed  " + "  ".join(f"lean {v:<6g}" for v in args.lean))
    hits = [0] * len(args.lean)
    saved = anneal_mod.LEAN
    try:
        for seed in args.seed:
            cells = []
            for i, v in enumerate(args.lean):
                first, n, best = first_ten(seed, args.seconds, v)
                hits[i] += first is not None
                cells.append(f"{first:>6.1f} ({n})" if first is not None else f"  - {best:.2f}")
            print(f"{seed:>4}  " + "  ".join(f"{c:<11}" for c in cells), flush=True)
    finally:
        anneal_mod.LEAN = saved
    for v, h in zip(args.lean, hits, strict=True):
        ratio = f"{h / hits[0]:.2f}x" if hits[0] else "-"
        print(f"lean {v:g}: SE 10 on {h} of {len(args.seed)} seeds ({ratio} the first value's)")


if __name__ == "__main__":
    main()
