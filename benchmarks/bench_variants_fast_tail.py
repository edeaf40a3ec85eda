"""The slow tail of the fast variant backend: this working tree's search against a shipped one.

The puzzles are those of ``bench_variants_fast.py`` (``random_variants(count,
seed)``, eight in ten unique, one multiple, one broken; ``--size`` and
``--jigsaw`` for other shapes). Each is lowered and searched to a count of 2
(a uniqueness check: the lowering and the compiled search, as the fast backend
runs them, without its slices) by two versions in the same process, one
after the other, the order swapped from one puzzle to the next:

* ``base``: the lowering (``csp_sudoku/constraints/lowering.py``) and the
  kernel (``csp_sudoku/_kernels/variants.py``) of the commit ``--baseline``
  (default ``HEAD``), loaded from git as modules of their own;
* ``tree``: the same two files of the working tree.

The two counts must be the same (and the SAT backend's, unless ``--no-sat``).
Prints, for each, the median, mean, 99th percentile and largest time per
check, their ratios (``tree / base``: below 1 is faster), the branch nodes,
and the ``--top`` puzzles slowest for ``base`` (seed, kinds, made, givens,
nodes, milliseconds), so a slow one can be made again with
``random_variant(seed, kinds, made=made)``. Usage::

    .venv/bin/python benchmarks/bench_variants_fast_tail.py [--count 300] [--seed 2026]
        [--baseline HEAD] [--top 12] [--repeat 3] [--size 9] [--jigsaw] [--no-sat]
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _common import commit, quantile  # noqa: E402  (sibling scripts: their folder is on sys.path)
from bench_variants_fast import MADE, puzzle_options  # noqa: E402

from csp_sudoku import variants  # noqa: E402
from csp_sudoku._kernels import variants as tree_kernel  # noqa: E402
from csp_sudoku.constraints import VariantPuzzle  # noqa: E402
from csp_sudoku.constraints import lowering as tree_lowering  # noqa: E402
from csp_sudoku.variants.fast import node_budget, start_masks  # noqa: E402
from csp_sudoku.variants.random import RandomVariant, random_variants  # noqa: E402

LOWERING = "csp_sudoku/constraints/lowering.py"
KERNEL = "csp_sudoku/_kernels/variants.py"


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def shipped(rev: str, folder: Path) -> tuple[ModuleType, ModuleType]:
    """The lowering and kernel modules of commit ``rev``, written to ``folder`` and loaded."""

    def show(path: str) -> str:
        return subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{rev}:{path}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout

    (folder / "tail_base_lowering.py").write_text(show(LOWERING))
    kernel = show(KERNEL).replace(
        "from csp_sudoku.constraints.lowering import", "from tail_base_lowering import"
    )
    (folder / "tail_base_kernel.py").write_text(kernel)
    sys.path.insert(0, str(folder))
    return _load("tail_base_lowering", folder / "tail_base_lowering.py"), _load(
        "tail_base_kernel", folder / "tail_base_kernel.py"
    )


def check(lowering: Any, kernel: Any, puzzle: VariantPuzzle) -> tuple[int, int, float]:
    """``(count to 2, branch nodes, seconds)`` of one uniqueness check by these two modules."""
    t = time.perf_counter()
    low = lowering.Lowering(puzzle.geometry)
    for c in puzzle.constraints:
        c.lower(low)
    assert not low.leaves, "a leaf: this benchmark measures lowered kinds only"
    arrays = low.arrays()
    ncells = puzzle.geometry.ncells
    ws = kernel.workspace(ncells, int(arrays[0][2]))
    kernel.load(arrays, start_masks(puzzle), ws)
    out = np.zeros((0, ncells), dtype=np.int8)
    last = np.zeros(ncells, dtype=np.int8)
    got = int(kernel.run(arrays, ws, 2, out, last, node_budget(2)))
    return got, int(ws[kernel.AT_NODES]), time.perf_counter() - t


#: The figures of a version's times, in the order printed.
STATS = ("median", "mean", "p99", "max")


def _stat(xs: list[float], how: str) -> float:
    """One of :data:`STATS` of ``xs``."""
    if how == "median":
        return statistics.median(xs)
    if how == "mean":
        return statistics.fmean(xs)
    if how == "p99":
        return quantile(xs, 0.99)
    return max(xs)


def _summary(xs: list[float]) -> str:
    ms = {how: 1e3 * _stat(xs, how) for how in STATS}
    return (
        f"median {ms['median']:7.3f}  mean {ms['mean']:7.3f}  "
        f"p99 {ms['p99']:8.2f}  max {ms['max']:8.2f}  (ms)"
    )


def main() -> None:
    ap = puzzle_options(__doc__)
    ap.add_argument("--baseline", default="HEAD", help="the shipped commit (default HEAD)")
    ap.add_argument("--top", type=int, default=12, help="slowest puzzles listed (default 12)")
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs (default 3)")
    ap.add_argument("--size", type=int, default=9, help="the grids' side (default 9)")
    ap.add_argument("--jigsaw", action="store_true", help="irregular regions")
    ap.add_argument("--no-sat", action="store_true", help="skip the SAT backend's counts")
    args = ap.parse_args()

    def git(*a: str) -> str:
        return subprocess.run(
            ["git", "-C", str(ROOT), *a], capture_output=True, text=True
        ).stdout.strip()

    dirty = git("status", "--porcelain", "--", LOWERING, KERNEL)
    print(
        f"commit {commit()} (kernel and lowering "
        f"{'changed in the tree' if dirty else 'as committed'}), baseline "
        f"{commit(args.baseline)}, load average "
        f"{os.getloadavg()[0]:.1f} at the start"
    )
    t = time.perf_counter()
    made: list[RandomVariant] = list(
        random_variants(args.count, args.seed, made=MADE, size=args.size, jigsaw=args.jigsaw)
    )
    print(
        f"{len(made)} puzzles, {args.size}x{args.size}{' jigsaw' if args.jigsaw else ''}, "
        f"seed {args.seed}, made in {time.perf_counter() - t:.0f} s"
    )
    with tempfile.TemporaryDirectory() as folder:
        base = shipped(args.baseline, Path(folder))
        tree = (tree_lowering, tree_kernel)
        impls = {"base": base, "tree": tree}
        for low, ker in impls.values():  # compile both kernels first
            check(low, ker, made[0].puzzle)
        times: dict[str, list[float]] = {k: [] for k in impls}
        nodes: dict[str, list[int]] = {k: [] for k in impls}
        wrong = 0
        for i, v in enumerate(made):
            order = list(impls) if i % 2 == 0 else list(impls)[::-1]
            counts: dict[str, int] = {}
            taken: dict[str, int] = {}
            best: dict[str, float] = {}
            for _ in range(args.repeat):
                for name in order:
                    counts[name], taken[name], dt = check(*impls[name], v.puzzle)
                    best[name] = min(best.get(name, dt), dt)
            for name in impls:
                times[name].append(best[name])
                nodes[name].append(taken[name])
            want = counts["base"] if args.no_sat else variants.count(v.puzzle, 2, backend="sat")
            if counts["base"] != want or counts["tree"] != want:
                wrong += 1
                print(f"WRONG seed {v.seed} kinds {v.kinds} made {v.made}: {counts}, sat {want}")
    print(f"load average {os.getloadavg()[0]:.1f} at the end; wrong counts: {wrong}")
    for name in impls:
        print(f"  {name}  {_summary(times[name])}  nodes: total {sum(nodes[name])}")
    print(
        "  tree / base: "
        + ", ".join(
            f"{how} {_stat(times['tree'], how) / _stat(times['base'], how):.2f}" for how in STATS
        )
    )
    print(f"the {args.top} slowest for base (seed, kinds, made, givens, nodes and ms base/tree):")
    slow = sorted(range(len(made)), key=lambda i: -times["base"][i])[: args.top]
    for i in slow:
        v = made[i]
        givens = int(np.count_nonzero(v.puzzle.puzzle.cells))
        print(
            f"  {v.seed:>20d}  {','.join(v.kinds):44s} {v.made:8s} {givens:3d}  "
            f"{nodes['base'][i]:7d} {nodes['tree'][i]:7d}  "
            f"{1e3 * times['base'][i]:8.2f} {1e3 * times['tree'][i]:8.2f}"
        )


if __name__ == "__main__":
    main()
