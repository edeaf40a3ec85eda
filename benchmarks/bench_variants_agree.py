"""Agreement of the variant backends on random variant puzzles: unique, multiple and none mixed.

The puzzles come from :func:`csp_sudoku.variants.random.random_variants`:
puzzle ``i`` is built around kind ``i`` of the registry in turn (every kind,
the negative dots included, with two other kinds), and made unique, multiple
(givens removed) or broken (a constraint or given its grid breaks) in turn.
Each gets a verdict (``check``: unique, multiple or none) from every backend
of :data:`csp_sudoku.variants.BACKENDS` (SAT and CP-SAT, and the compiled
``fast`` one where it is registered), and:

* the backends must agree (the target: 0 disagreements);
* the verdict must be what the maker says where it knows (a ``unique`` one is
  unique, a ``multiple`` one is multiple);
* the independent checker of the tests (``tests/independent_variants.py``,
  written from the rules, sharing no code with the package) must pass the
  SAT backend's solution of every solvable puzzle, and fail the maker's grid
  on every broken one.

Prints the verdicts per kind, the disagreements (each with the seed, kinds and
``made`` that make the puzzle again), and the CPU time per check of each
backend. Usage::

    .venv/bin/python benchmarks/bench_variants_agree.py [--count 2000] [--seed 64]
        [--kinds killercage,thermometer] [--out disagreements.jsonl]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _common import commit, table  # noqa: E402  (a sibling script: its folder is on sys.path)

from csp_sudoku import variants  # noqa: E402
from csp_sudoku.variants.random import DRAWN, random_variant, random_variants  # noqa: E402
from tests.independent_variants import broken_rules  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--count", type=int, default=2000, help="puzzles (default 2000)")
    ap.add_argument("--seed", type=int, default=64, help="the run's seed (default 64)")
    ap.add_argument(
        "--kinds", default="", help="comma-separated kinds to build around (default: all)"
    )
    ap.add_argument(
        "--out", type=Path, help="write the disagreements and faults here as JSON Lines"
    )
    args = ap.parse_args()
    kinds = tuple(k for k in args.kinds.split(",") if k) or DRAWN
    backends = tuple(variants.BACKENDS)
    print(
        f"commit {commit()}, load average {os.getloadavg()[0]:.1f}, backends {', '.join(backends)}"
    )
    print(f"{args.count} puzzles, seed {args.seed}, {len(kinds)} kinds in turn")

    t = time.perf_counter()
    warm = random_variant(0, kinds[:1])  # compiles the kernels (numba caches them)
    for name in backends:
        variants.check(warm.puzzle, backend=name)
    print(f"warm-up (the compiled search's first use): {time.perf_counter() - t:.1f} s")
    times: dict[str, list[float]] = defaultdict(list)
    by_kind: dict[str, Counter[str]] = defaultdict(Counter)
    verdicts: Counter[str] = Counter()
    made_vs: Counter[tuple[str, str]] = Counter()
    present: Counter[str] = Counter()
    faults: list[dict[str, object]] = []
    started = time.perf_counter()
    making = 0.0
    t = time.process_time()
    for i, v in enumerate(random_variants(args.count, args.seed, kinds)):
        making += time.process_time() - t
        got: dict[str, str] = {}
        for name in backends:
            t = time.process_time()
            got[name] = variants.check(v.puzzle, backend=name)
            times[name].append(time.process_time() - t)
        verdict = got[backends[0]]
        why = []
        if len(set(got.values())) > 1:
            why.append("backends disagree")
        if v.made in ("unique", "multiple") and verdict != v.made:
            why.append(f"made {v.made}, verdict {verdict}")
        if v.made == "broken" and not broken_rules(v.data, v.grid):
            why.append("the independent checker passes the grid of a broken puzzle")
        if verdict != "none":
            sol = variants.solve(v.puzzle)
            if sol is None or broken_rules(v.data, sol.cells.reshape(9, 9).tolist()):
                why.append("the independent checker fails the solution")
        if why:
            faults.append({"index": i, "seed": v.seed, "kinds": v.kinds, "made": v.made,
                           "verdicts": got, "why": why, "data": v.data})  # fmt: skip
        verdicts[verdict] += 1
        made_vs[(v.made, verdict)] += 1
        by_kind[v.kinds[0]][verdict] += 1
        present.update(v.puzzle.kinds())
        if (i + 1) % 200 == 0:
            print(f"  {i + 1} puzzles, {len(faults)} faults, {time.perf_counter() - started:.0f} s")
        t = time.process_time()
    wall = time.perf_counter() - started

    print(f"\nverdicts: {dict(verdicts)}")
    print("made -> verdict: " + ", ".join(f"{m}->{w} {n}" for (m, w), n in sorted(made_vs.items())))
    verdict_names = ("unique", "multiple", "none")
    kind_header = ["kind built around", "puzzles", *verdict_names, "puzzles holding the kind"]
    per_kind = [
        [f"`{k}`", sum(by_kind[k].values()), *(by_kind[k][v] for v in verdict_names), present[k]]
        for k in kinds
    ]
    print("\n" + table(kind_header, per_kind))
    per_backend = [
        [
            b,
            *(f"{1000 * f(times[b]):.2f}" for f in (statistics.median, statistics.mean)),
            f"{sum(times[b]):.1f}",
        ]
        for b in backends
    ]
    print("\n" + table(["backend", "median ms", "mean ms", "total s"], per_backend))
    print(f"\nmaking the puzzles: {making:.1f} s of CPU; the whole run {wall:.0f} s wall")
    print(f"faults (disagreements, wrong verdicts, checker failures): {len(faults)}")
    for f in faults[:20]:
        print(
            f"  #{f['index']} seed {f['seed']} {f['kinds']} {f['made']}: {f['verdicts']} {f['why']}"
        )
    if args.out is not None:
        with args.out.open("w", encoding="utf-8") as fh:
            for f in faults:
                fh.write(json.dumps(f) + "\n")
    sys.exit(1 if faults else 0)


if __name__ == "__main__":
    main()
