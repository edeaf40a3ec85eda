"""Compile cost: how many specialisations numba compiles, and how long a cold start takes.

Runs a representative workload (every backend-free command path: check, count,
solve, rate with every metric, explain, generate and minimize, on 9x9 and one
16x16 puzzle) in a child process whose numba cache is an empty temporary
folder, so every kernel compiles from scratch. Then it lists every compiled
dispatcher of the package (the modules under ``csp_sudoku/_kernels`` and
``csp_sudoku/_kernels/grids.py``) with the number of signatures it was
compiled for. Usage::

    .venv/bin/python benchmarks/bench_compile.py [--top 15] [--repeats 1]

It prints the cold wall time of the workload, the warm wall time of the same
workload in a second child (cache filled), their ratio, and the
specialisation counts (total, and the functions with more than one).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The child's workload; prints a JSON line with the signature counts.
WORKLOAD = r"""
import importlib, json, pkgutil, time
t0 = time.perf_counter()
import csp_sudoku as cs
from csp_sudoku.human.path import solve_path
from csp_sudoku.metrics import METRICS, rate

P9 = [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
]
for s in P9:
    cs.is_unique(s); cs.count_solutions(s, limit=5); cs.solve(s)
    cs.count_many([s, s])
    solve_path(cs.parse(s))
    for m in METRICS:
        rate(s, m, seed=1)
g = list(cs.generate(2, seed=3))
cs.minimize(g[0].puzzle, seed=4)
big = next(iter(cs.generate(1, geometry=cs.Geometry.standard(16), seed=5))).puzzle
cs.is_unique(big)
t1 = time.perf_counter()

import csp_sudoku._kernels as K
import csp_sudoku._kernels.grids as GK
counts = {}
shown = {}
mods = [GK] + [importlib.import_module(f"csp_sudoku._kernels.{m.name}")
               for m in pkgutil.iter_modules(K.__path__)]
for mod in mods:
    for name, obj in vars(mod).items():
        sigs = getattr(obj, "signatures", None)
        if sigs is not None and getattr(obj, "__module__", None) == mod.__name__:
            key = f"{mod.__name__.rsplit('.', 1)[-1]}.{name}"
            counts[key] = len(sigs)
            if len(sigs) > 1:
                shown[key] = [str(s) for s in sigs]
print(json.dumps({"seconds": t1 - t0, "counts": counts, "signatures": shown}))
"""


def run_child(cache: str) -> dict[str, object]:
    """Run the workload in a child with ``cache`` as numba's cache folder."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", WORKLOAD],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode:
        raise SystemExit(f"the workload failed:\n{out.stderr}")
    wall = time.perf_counter() - start
    data: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    data["wall"] = wall
    return data


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--top", type=int, default=15, help="list this many most-specialised kernels")
    ap.add_argument("--repeats", type=int, default=1, help="cold runs (median reported)")
    ap.add_argument("--show", action="store_true", help="print the signatures of those kernels")
    args = ap.parse_args()
    colds, warms = [], []
    counts: dict[str, int] = {}
    for _ in range(args.repeats):
        with tempfile.TemporaryDirectory() as cache:
            cold = run_child(cache)
            warm = run_child(cache)
        colds.append(float(cold["wall"]))  # type: ignore[arg-type]
        warms.append(float(warm["wall"]))  # type: ignore[arg-type]
        counts = dict(cold["counts"])  # type: ignore[call-overload]
        shown = dict(cold["signatures"])  # type: ignore[call-overload]
    total = sum(counts.values())
    multi = {k: v for k, v in counts.items() if v > 1}
    cold_s, warm_s = statistics.median(colds), statistics.median(warms)
    print(f"workload cold (empty numba cache): {cold_s:.1f} s wall (median of {len(colds)})")
    print(f"workload warm (cache filled):      {warm_s:.1f} s wall")
    print(f"cold / warm: {cold_s / warm_s:.1f}x")
    print(f"compiled kernels: {len(counts)}, specialisations: {total}")
    print(f"kernels with more than one specialisation: {len(multi)}")
    for name, n in sorted(multi.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"  {n:3d}  {name}")
        if args.show:
            for sig in shown[name]:
                print(f"         {sig}")


if __name__ == "__main__":
    main()
